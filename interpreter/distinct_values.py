"""Which lists can never hold a value twice.

A decision offers each legal action once (`pick n in [1, 1, 2]` offers `pick 1` once, so a random
seat does not pick it twice as often): a binder's source that might repeat a value is made unique
at run time (runtime ``_uniq``). One that cannot — a zone, a range, a filter or sorting of either,
a local, function or rule whose every definition is such — is looped over as it is, since the
decisions of a playout are the engine's hottest loop.

The checker records every definition of a local (a `let`, an assignment, a function's or rule's
parameter given an argument) and ``mark`` works out each local's ``distinct`` flag to a fixed point,
as named.py does: starting from True and withdrawing it from a local with a definition that may
repeat. A local with no recorded definition (a binder, a parameter left to its default) may repeat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ast as A

if TYPE_CHECKING:
    from .check import LocalSym

_DEPTH = 8      # functions and rules followed into each other; deeper counts as "may repeat"
_OF_FIRST = {"sorted", "subsets", "distinct", "reversed", "remove"}      # as unique as their first argument
_ALWAYS = {"unique", "others", "seats_from", "squares", "neighbors", "cards"}


def mark(defs: list[tuple[LocalSym, A.Expr | None]]) -> None:
    """Set ``distinct`` on every local of ``defs`` ((local, value) pairs; value None: unknown)."""
    for s, _ in defs:
        s.distinct = True
    changed = True
    while changed:
        changed = False
        for s, value in defs:
            if s.distinct and (value is None or not never_repeats(value)):
                s.distinct = False
                changed = True


def never_repeats(e: A.Expr, depth: int = 0) -> bool:
    """Whether the list ``e`` can hold no value twice (False when unsure)."""
    from .check import FnSym, LocalSym, RuleSym, const_value

    if depth > _DEPTH:
        return False
    if e.ty is not None and e.ty.kind == "zone":
        return True
    if isinstance(e, A.Binary):
        return e.op == ".."
    if isinstance(e, A.ListLit):
        values = [_constant(x, const_value) for x in e.items]
        return all(ok for ok, _ in values) and _all_different([v for _, v in values])
    if isinstance(e, A.SortedBy):
        return never_repeats(e.source, depth)
    if isinstance(e, A.DistinctBy):         # elements with different keys are different values
        return True
    if isinstance(e, A.Comprehension):
        return isinstance(e.elem, A.Name) and e.elem.name == e.var and never_repeats(e.source, depth)
    if isinstance(e, A.IfExpr):
        return never_repeats(e.then, depth) and never_repeats(e.other, depth)
    if isinstance(e, A.LetIn):
        return never_repeats(e.body, depth)
    if isinstance(e, A.Name):
        return isinstance(e.ref, LocalSym) and e.ref.distinct
    if isinstance(e, A.Call):
        r = e.ref
        if isinstance(r, FnSym) and r.decl is not None:
            return never_repeats(r.decl.body, depth + 1)
        if isinstance(r, RuleSym) and r.decl is not None:
            returns = [n.value for n in A.walk(r.decl.body) if isinstance(n, A.Return)]
            return bool(returns) and all(v is not None and never_repeats(v, depth + 1) for v in returns)
        if e.func in _ALWAYS:
            return True
        return e.func in _OF_FIRST and bool(e.args) and never_repeats(e.args[0], depth)
    return False


def param_defs(params: list[LocalSym], call: A.Call) -> list[tuple[LocalSym, A.Expr | None]]:
    """A call's definitions of the parameters it gives: by position; by name or left out, unknown."""
    given = [] if call.kwargs else call.args
    return [(p, given[i] if i < len(given) else None) for i, p in enumerate(params)]


def _constant(e: A.Expr, const_value: Any) -> tuple[bool, Any]:
    """(True, value) for a constant, also a tuple of constants (a square `(0, 2)`, `square(0, 2)`)."""
    if isinstance(e, A.TupleLit) or isinstance(e, A.Call) and e.func == "square" and not e.kwargs:
        items = [_constant(x, const_value) for x in (e.items if isinstance(e, A.TupleLit) else e.args)]
        return all(ok for ok, _ in items), tuple(v for _, v in items)
    ok, v = const_value(e)
    return ok, v


def _all_different(values: list[Any]) -> bool:
    try:
        return len(set(values)) == len(values)
    except TypeError:
        return False
