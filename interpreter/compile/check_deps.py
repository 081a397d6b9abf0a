"""What each state-based check reads, so that the generated moves re-run only the checks a change
can affect: the zones and variables its condition reads, and whether it only grows with a zone (a
card leaving that zone cannot make it true).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from ..check import FnSym, OrderingSym, Program, VarSym, ZoneSym


@dataclass
class CheckReads:
    """What the state-based checks look at, so that only changes to it run them: card places (zones),
    faces and reveals (vis), the effect stack and its items (stack), and which variables."""
    zones: bool = False
    vis: bool = False
    stack: bool = False
    vars: set[int] = field(default_factory=set)


def _check_reads(prog: Program) -> CheckReads:
    out = CheckReads()
    vars_ = out.vars
    seen_fns: set[str] = set()

    def walk(e: Any) -> None:
        if isinstance(e, A.Expr):
            r = e.ref
            if isinstance(r, tuple) and r and r[0] == "builtin" and r[1] == "revealed":
                out.vis = True
            elif isinstance(r, tuple) and r and r[0] in ("stack", "field"):
                out.stack = True
            if isinstance(r, ZoneSym):
                out.zones = True
            elif isinstance(r, VarSym):
                vars_.add(id(r))
            elif isinstance(r, tuple) and r and r[0] in ("pvar", "cardvar"):
                vars_.add(id(r[1]))
            elif isinstance(r, tuple) and r and r[0] in ("active",):
                vars_.add(-1)
            elif isinstance(r, tuple) and r and r[0] == "builtin" and r[1] in (
                    "holder", "zone_of", "revealed", "card_at", "square_of", "top", "size", "cards", "bottom"):
                out.zones = True
            elif isinstance(r, FnSym) and r.name not in seen_fns and r.decl is not None:
                seen_fns.add(r.name)
                walk(r.decl.body)
            elif isinstance(r, OrderingSym) and r.decl is not None:
                for t in r.decl.tiers:
                    walk(t.cond)
                    walk(t.by)
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                if f in ("span", "ty", "ref"):
                    continue
                walk(getattr(e, f))
        elif isinstance(e, list | tuple):
            for x in e:
                walk(x)

    for c in prog.checks:
        assert c.decl
        walk(c.decl.cond)
        walk(c.decl.source)
    return out


_ZONE_STATE_BUILTINS = ("holder", "zone_of", "revealed", "card_at", "square_of")


def _check_deps(prog: Program) -> list[tuple[set[str], set[str]] | None]:
    """Per check, the zones its condition reads: (zones read only as ZONE[p] of the check's own
    player p, zones read otherwise); None when a single move could change it in ways not seen
    from its two zones (a card's zone or visibility asked directly, grids and sequences, a player
    list that depends on zones)."""
    out: list[tuple[set[str], set[str]] | None] = []

    class Unknown(Exception):
        pass

    def walk(e: Any, alias: frozenset[int], own: set[str], anyz: set[str], depth: int) -> None:
        if depth > 50:
            raise Unknown
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, ZoneSym):
            z = e.obj.ref
            if z.kind not in ("pile", "hand"):
                raise Unknown
            if z.per_player and len(e.args) == 1 and isinstance(e.args[0], A.Name) and id(e.args[0].ref) in alias:
                own.add(z.name)
                return
            anyz.add(z.name)
            for a in e.args:
                walk(a, alias, own, anyz, depth)
            return
        if isinstance(e, A.Expr):
            r = e.ref
            if isinstance(r, ZoneSym):
                if r.kind not in ("pile", "hand"):
                    raise Unknown
                anyz.add(r.name)
            elif isinstance(r, tuple) and r and r[0] == "builtin" and r[1] in _ZONE_STATE_BUILTINS:
                raise Unknown
            elif isinstance(r, FnSym) and r.decl is not None and isinstance(e, A.Call):
                inner = frozenset(id(prm) for prm, a in zip(r.params, e.args, strict=False)
                                  if isinstance(a, A.Name) and id(a.ref) in alias)
                walk(r.decl.body, inner, own, anyz, depth + 1)
            elif isinstance(r, OrderingSym) and r.decl is not None and isinstance(e, A.Call):
                inner = frozenset(id(prm) for prm, a in zip(r.params, e.args, strict=False)
                                  if isinstance(a, A.Name) and id(a.ref) in alias)
                for t in r.decl.tiers:
                    walk(t.cond, inner, own, anyz, depth + 1)
                    walk(t.by, inner, own, anyz, depth + 1)
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                if f in ("span", "ty", "ref"):
                    continue
                walk(getattr(e, f), alias, own, anyz, depth)
        elif isinstance(e, list | tuple):
            for x in e:
                walk(x, alias, own, anyz, depth)

    for c in prog.checks:
        assert c.decl
        own: set[str] = set()
        anyz: set[str] = set()
        try:
            if c.decl.source is not None:
                src_own: set[str] = set()
                src_any: set[str] = set()
                walk(c.decl.source, frozenset(), src_own, src_any, 0)
                if src_own or src_any:
                    raise Unknown                 # which players are asked may change with a move
            walk(c.decl.cond, frozenset([id(c.var)]) if c.var is not None else frozenset(), own, anyz, 0)
            out.append((own - anyz, anyz))
        except Unknown:
            out.append(None)
    return out


_CONST, _INC, _DEC, _UNK = "const", "inc", "dec", "unknown"


def _grows_with(cond: A.Expr, zone: str) -> bool:
    """Can ``cond`` only turn true when cards are added to zones of the declaration ``zone``, never
    when cards leave them? (``size(hand[p]) >= 4``, four of a kind, ``c in hand[p]``, and sums, `and`,
    `or` of such.) Then a card leaving such a zone need not send the check to be tested again."""

    def in_zone(e: A.Expr) -> bool:
        obj = e.obj if isinstance(e, A.Index) else e
        return isinstance(obj, A.Name) and isinstance(obj.ref, ZoneSym) and obj.ref.name == zone

    def reads(e: Any, depth: int = 0) -> bool:
        if depth > 50:
            return True
        if isinstance(e, A.Name) and isinstance(e.ref, ZoneSym) and e.ref.name == zone:
            return True
        if isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ref.decl is not None \
                and reads(e.ref.decl.body, depth + 1):
            return True
        if isinstance(e, A.Node):
            return any(reads(getattr(e, f), depth) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
        if isinstance(e, list | tuple):
            return any(reads(x, depth) for x in e)
        return False

    def flip(p: str) -> str:
        return {_INC: _DEC, _DEC: _INC}.get(p, p)

    def both(a: str, b: str) -> str:         # a and b grow together (and, or, +)
        if a == b or b == _CONST:
            return a
        return b if a == _CONST else _UNK

    def pol(e: A.Expr, depth: int = 0) -> str:
        if not reads(e) or depth > 20:
            return _CONST if not reads(e) else _UNK
        if isinstance(e, A.Binary):
            if e.op in ("and", "or", "+"):
                return both(pol(e.left, depth + 1), pol(e.right, depth + 1))
            if e.op == "-":
                return both(pol(e.left, depth + 1), flip(pol(e.right, depth + 1)))
            if e.op in (">=", ">"):
                return both(pol(e.left, depth + 1), flip(pol(e.right, depth + 1)))
            if e.op in ("<=", "<"):
                return both(flip(pol(e.left, depth + 1)), pol(e.right, depth + 1))
            if e.op in ("in", "notin") and in_zone(e.right) and not reads(e.left):
                return _INC if e.op == "in" else _DEC
            return _UNK
        if isinstance(e, A.Unary) and e.op == "not":
            return flip(pol(e.operand, depth + 1))
        if isinstance(e, A.IfExpr) and isinstance(e.then, A.Lit) and isinstance(e.other, A.Lit) \
                and isinstance(e.then.value, int) and isinstance(e.other.value, int):
            p = pol(e.cond, depth + 1)
            return p if e.then.value >= e.other.value else flip(p)
        if isinstance(e, A.Quantifier) and in_zone(e.source) and not reads(e.cond):
            return _DEC if e.kind == "all" else _INC          # any, count: more cards, more chances
        if isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ref.decl is not None:
            return pol(e.ref.decl.body, depth + 1) if not reads(e.args) else _UNK
        if isinstance(e, A.Call) and isinstance(e.ref, tuple) and len(e.args) == 1:
            a = e.args[0]
            if e.func == "size" and in_zone(a):
                return _INC
            if e.func == "of_a_kind" and isinstance(a, A.Comprehension) and in_zone(a.source) \
                    and not reads(a.elem) and not reads(a.cond):
                return _INC
        return _UNK

    return pol(cond) == _INC
