"""Which values every player can work out: the cards a ruleset *names* rather than finds by place.

A card value is *named* when it follows from the rules' text and public facts alone — a card
literal, `all_cards[…]`, a `fn` of public values (a called card, the jacks of a trump suit) —
and *placed* when it was found by reading where cards lie (`top(deck)`, a card of a hand) or a
secret (a hidden variable, a random pick). The difference matters wherever the engine hides
cards:

- a bot's sampled worlds (engine/determinize.py) keep a named card's identity wherever the world
  deals it, while a placed one follows its position (it names whichever card now lies there: the
  player never learnt which card it was);
- a player's view shows a named card variable's card even where the card itself is hidden.

The checker records every definition — a `let`, an assignment to a local or a variable — and
``mark`` works the flags out to a fixed point, starting from "named" and withdrawing it from a
symbol with any placed definition, until nothing changes (a definition may read a symbol defined
later in the text). A local with no recorded definition (a parameter, a loop or choice binder) is
placed: the analysis errs towards "follows its position", which never tells a player more than
the table shows.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from . import ast as A


def mark(defs: list[tuple[Any, A.Expr]]) -> None:
    """Set ``named`` on every variable and ``public`` on every local of ``defs`` ((symbol, value)
    pairs): True when each of its definitions is named."""
    syms = {id(s): s for s, _ in defs}
    for s in syms.values():
        _set(s, True)
    changed = True
    while changed:
        changed = False
        memo: dict[int, bool] = {}      # a function's body, as the flags stand in this round
        for s, value in defs:
            if _get(s) and not named(value, memo=memo):
                _set(s, False)
                changed = True


def named(e: Any, bound: frozenset[int] = frozenset(), memo: dict[int, bool] | None = None) -> bool:
    """Whether expression ``e`` reads neither where cards lie nor a secret. ``bound``: ids of the
    binders (a quantifier's, a function's parameters) taken as named here; ``memo``: functions'
    bodies worked out already (with their parameters named)."""
    if memo is None:
        memo = {}
    from .check import FnSym, LocalSym, OrderingSym, RuleSym, VarSym, ZoneSym

    if isinstance(e, A.Comprehension | A.Quantifier | A.Best):
        if not named(e.source, bound, memo):
            return False
        inner = bound | {id(e.ref)}
        return all(named(x, inner, memo) for x in (getattr(e, "elem", None), e.cond, getattr(e, "key", None))
                   if x is not None)
    if isinstance(e, A.LetIn):      # a function's step: its name is as named as its value
        inner = bound | {id(e.ref)} if named(e.value, bound, memo) else bound
        return named(e.body, inner, memo)
    if isinstance(e, A.Expr):
        r = e.ref
        if isinstance(r, tuple) and r:
            if r[0] in ("pvar", "cardvar"):        # a variable read per player or per card
                r = r[1]
            elif r[0] in ("stack", "field") or r[0] == "builtin" and r[1] in _READS_PLACES:
                return False
        if isinstance(r, ZoneSym):
            return False
        if isinstance(r, VarSym) and (r.visibility != "public" or not r.named):
            return False
        if isinstance(r, LocalSym) and isinstance(e, A.Name) and id(r) not in bound and not r.public:
            return False
        if isinstance(e, A.Call):
            if isinstance(r, RuleSym):
                return False
            if isinstance(r, FnSym):
                if not all(named(a, bound, memo) for a in [*e.args, *(k.value for k in e.kwargs)]):
                    return False
                if id(r) not in memo:
                    assert r.decl is not None
                    memo[id(r)] = named(r.decl.body, frozenset(id(p) for p in r.params), memo)
                return memo[id(r)]
            if not isinstance(r, OrderingSym):
                from .builtins import BUILTINS
                b = BUILTINS.get(e.func)
                if b is not None and b.impure:
                    return False
    return all(named(x, bound, memo) for x in _children(e))


# built-ins that tell where cards lie (or whether they are face up)
_READS_PLACES = {"holder", "zone_of", "revealed", "card_at", "square_of", "top", "bottom", "cards", "size"}


def _children(e: Any) -> list[Any]:
    out: list[Any] = []
    if not isinstance(e, A.Node):
        return out
    for f in fields(e):
        if f.name in ("ty", "ref", "span"):
            continue
        v = getattr(e, f.name, None)
        for x in (v if isinstance(v, list | tuple) else [v]):
            if isinstance(x, A.Node):
                out.append(x)
            elif isinstance(x, tuple):      # an If's (condition, body) pairs, should one turn up
                out.extend(y for y in x if isinstance(y, A.Node))
    return out


def _get(s: Any) -> bool:
    return bool(s.named if hasattr(s, "named") else s.public)


def _set(s: Any, value: bool) -> None:
    if hasattr(s, "named"):
        s.named = value
    else:
        s.public = value


__all__ = ["mark", "named"]
