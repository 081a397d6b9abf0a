"""Which cards a secret decision picked: their place is known to the chooser alone.

A player told of a card by a peek (`reveal top(deck) to p`) may follow it while it stays put, and
see it go where the rules move it by its place (`move top(deck) to hand[q]`). But when the card
that moves was picked in secret — a binder of a `choose … hidden` or `simultaneous` decision, or a
value worked out from one (`cards(deck)[i]`, a local, a rule's parameter, a variable set from it) —
the peeker cannot tell which card of the zone left, so it knows none of them any more (runtime
``_unpeek``, called by the compiled move or swap).

The checker records every definition (named.py's and distinct_values.py's lists) and ``mark`` sets
``secret`` on a symbol with any definition that reads a secret pick, to a fixed point. A function's
parameters are left out: a call reads a secret when its arguments or the function's body (its
parameters aside) do, call by call — `slot(q, i)` with a secret `i` in one decision does not make
`slot(p, 0)` in a rule a secret pick.
"""

from __future__ import annotations

from typing import Any

from . import ast as A

_DEPTH = 8      # functions and rules followed into each other


def mark(defs: list[tuple[Any, A.Expr | None]], picks: list[Any]) -> None:
    """Set ``secret`` on the binders of secret decisions (``picks``) and on every symbol of ``defs``
    ((symbol, value) pairs; value None: unknown, not secret) defined from one."""
    for s, _ in defs:
        s.secret = False
    for s in picks:
        s.secret = True
    changed = True
    while changed:
        changed = False
        for s, value in defs:
            if not s.secret and value is not None and secret(value):
                s.secret = True
                changed = True


def secret(e: Any, depth: int = 0) -> bool:
    """Whether expression ``e`` reads a secret pick (through functions and rules' results too)."""
    from .check import FnSym, RuleSym

    for n in A.walk(e):
        if not isinstance(n, A.Expr):
            continue
        r = n.ref
        if isinstance(r, tuple) and r and r[0] in ("pvar", "cardvar"):
            r = r[1]
        elif isinstance(r, tuple) and len(r) == 3 and r[0] == "builtin":    # `occurrences`: the records
            r = r[2]
        if getattr(r, "secret", False):
            return True
        if isinstance(n, A.Call) and depth < _DEPTH:
            if isinstance(r, FnSym) and r.decl is not None and secret(r.decl.body, depth + 1):
                return True
            if isinstance(r, RuleSym) and r.decl is not None and any(
                    isinstance(x, A.Return) and x.value is not None and secret(x.value, depth + 1)
                    for x in A.walk(r.decl.body)):
                return True
    return False
