"""Hidden information: the warnings W102, W103 and W104 — what a choice, a log, a label or a variable
would tell a player who may not see the cards or values behind it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from typing import Any

from .. import ast as A
from .. import secret_places
from .. import types as T
from ..errors import Span, a_noun
from ..sugar import PASS
from .base import _flow_key
from .expressions import Expressions
from .symbols import (
    ACTIVE_KEY,
    EffectSym,
    FnSym,
    LocalSym,
    RuleSym,
    Scope,
    VarSym,
    ZoneSym,
    _holds_cards,
    entry_key,
    expr_key,
    less,
    shape,
)

_NOT_READ = ("size", "owner", "revealed")      # functions of a zone or card that tell nothing of faces


def _whole_card(e: A.Expr) -> A.Expr:
    """A label's card shown whole by its place (`{row[q][i]}`, `{top(row[q])}`, `{slot(q, i)}` of a
    function): read as `revealed(…)` of it, its place alone, since a reader who cannot see the card
    reads "a card" there. Anything else of it, or a card picked by its face, is read as written."""
    if e.ty == T.CARD and (isinstance(e, A.Index) or isinstance(e, A.Call) and (
            e.func in ("top", "bottom") and len(e.args) == 1 or isinstance(e.ref, FnSym))):
        return A.Call(span=e.span, func="revealed", args=[e])
    return e


def _none_test(e: A.Binary) -> bool:
    return e.op in ("==", "!=") and any(isinstance(x, A.Lit) and x.kind == "none" for x in (e.left, e.right))


def _zones_read(e: Any) -> list[tuple[str, A.Expr | None]]:
    """The zones an expression reads the cards of, each with its owner expression (`hand[q]`), or
    None (`deck`); not those it only counts, tests for emptiness or names the owner of (`size(hand[q])`,
    `top(deck) != none`, `owner(hand[q])`), nor whether a card is face up (`revealed(top(deck))`).
    A count of anything but a zone is read (`size(distinct(hand[q]))` tells of a pair)."""
    if isinstance(e, A.Call) and e.func == "size" and e.args and not _size_public(e.args[0]):
        return _zones_read(e.args)
    if isinstance(e, A.Call) and e.func in _NOT_READ:
        return [r for a in e.args for r in _zones_read(a.args if isinstance(a, A.Index) else [])]
    if isinstance(e, A.Binary) and _none_test(e):
        return []
    if _place_in_seq(e):
        return []
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and len(e.args) == 1:
        return [(e.obj.name, e.args[0])] + _zones_read(e.args[0])
    if isinstance(e, A.Name):
        return [(e.name, None)]
    if isinstance(e, list):
        return [r for x in e for r in _zones_read(x)]
    if isinstance(e, A.Node):
        return [r for v in vars(e).values() if isinstance(v, A.Node | list) for r in _zones_read(v)]
    return []


def _and_terms(e: A.Expr) -> list[A.Expr]:
    """The terms of a chain of `and`s (`a and b and c`), in order."""
    if isinstance(e, A.Binary) and e.op == "and":
        return _and_terms(e.left) + _and_terms(e.right)
    return [e]


def _zone_call(e: Any) -> bool:
    """A call of a function that picks a zone (`col(i)`, `fn col(i: int) -> zone = [col1, col2][i - 1]`)."""
    return isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ty is not None and e.ty.kind == "zone"


def _place_zone(e: A.Expr) -> A.Expr | None:
    """The zone a card is found in by its place (`top(Z)`, `bottom(Z)`, `Z[k]`), or None."""
    if isinstance(e, A.Call) and e.func in ("top", "bottom") and len(e.args) == 1:
        return e.args[0]
    if isinstance(e, A.Index) and len(e.args) == 1:
        return e.obj
    return None


def _names(names: list[str]) -> str:
    """`col1`, `col1 and col2`, `col1, col2 and col3`; past four, `col1, col2 and 5 more`."""
    if len(names) > 4:
        return f"{names[0]}, {names[1]} and {len(names) - 2} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _for_every(s: A.For, keys: set[str], everyone: bool, each_active: bool = False) -> set[str]:
    """What a loop's body reveals, for after the loop: an entry of its player (`reveal hand[p]`) over
    every player (``everyone``: `for p in players`) is the whole zone; over `active` (``each_active``)
    the entry of each player a later `for q in active` reads (ACTIVE_KEY); nothing else that names
    the loop's variable."""
    me = A.Name(span=s.span, name=s.var)
    out: set[str] = set()
    for k in keys:
        base = k.split("[", 1)[0]
        if everyone and k == entry_key(base, me):
            out.add(base)
        elif each_active and k == entry_key(base, me):
            out.add(base + ACTIVE_KEY)
        elif k != s.var and repr(shape(me)) not in k:
            out.add(k)
    return out


def _every(sets: Any) -> set[str]:
    out: set[str] | None = None
    for x in sets:
        out = set(x) if out is None else out & x
    return out or set()


def _size_public(e: A.Expr) -> bool:
    """Whether the size of ``e`` tells nothing of any card's face: a zone (or a sequence), a list as
    long as one (`cards(Z)`, `sorted(Z)`, `[c.rank for c in Z]`, a `let` of one), a list written out."""
    if e.ty is not None and e.ty.kind in ("zone", "seq"):
        return True
    if isinstance(e, A.ListLit):
        return True
    if isinstance(e, A.Name):
        return isinstance(e.ref, LocalSym) and e.ref.sized
    if isinstance(e, A.Call) and e.func in _SIZE_KEPT and e.args:
        return _size_public(e.args[0])
    if isinstance(e, A.Comprehension | A.SortedBy) and e.cond is None:
        return _size_public(e.source)
    if isinstance(e, A.Binary) and e.op == "+":         # `cards(a) + cards(hand[p])`: the sizes added
        return _size_public(e.left) and _size_public(e.right)
    if isinstance(e, A.IfExpr):     # either, chosen by what the reader knows (parameters, not cards)
        return _size_public(e.then) and _size_public(e.other) and all(
            isinstance(n, A.Name) and isinstance(n.ref, LocalSym) or isinstance(n, A.Binary | A.Unary | A.Lit)
            for n in A.walk(e.cond))
    if isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ref.decl is not None:
        return _size_public(e.ref.decl.body)            # `fn all_beans(p) = cards(a[p]) + cards(b[p])`
    return False


_SIZE_KEPT = ("cards", "sorted", "reversed")     # as long as their first argument


def _owner_as_param(owner: A.Expr | None, given: dict[str, A.Expr], caller: Scope) -> A.Expr | None:
    """A zone's owner at a rule's call, as the rule names it: the parameter given that player
    (`q` given as `p`: `p`); one written with the caller's locals otherwise cannot be told (None)."""
    if owner is None:
        return None
    for name, arg in given.items():
        if _same_expr(owner, arg):
            return A.Name(span=owner.span, name=name)
    return None if any(isinstance(n, A.Name) and caller.lookup(n.name) is not None for n in A.walk(owner)) else owner


def _place_in_seq(e: Any) -> bool:
    """Where a zone lies in a sequence (`index_of(lines[p], z)`), or which zone is which (`lines[d][k]
    == deck[d]`): public, no card's face."""
    if isinstance(e, A.Binary) and e.op in ("==", "!=") and all(
            x.ty is not None and x.ty.kind == "zone" for x in (e.left, e.right)):
        return True
    return isinstance(e, A.Call) and e.func == "index_of" and bool(e.args) and e.args[0].ty is not None \
        and e.args[0].ty.kind == "seq"


def _statements(body: list[A.Stmt]) -> list[A.Stmt]:
    """The statements of a block and the blocks inside it, but for the options' blocks of its
    decisions (what a chooser's choice then does is the chooser's to tell)."""
    out: list[A.Stmt] = []
    for s in body:
        out.append(s)
        if not isinstance(s, A.Choose | A.Simultaneous):
            for inner in _inner_blocks(s):
                out.extend(_statements(inner))
    return out


def _names_shown(e: Any, names: set[str]) -> bool:
    """Whether an expression shows more than a count or a place of the values ``names`` hold:
    `{cs}` or `{c.rank}` does, `{size(cs)}` and `{index_of(cards(Z), c)}` do not."""
    if isinstance(e, A.Name):
        return e.name in names
    if isinstance(e, A.Call) and (e.func in _NOT_READ or e.func == "index_of"):
        return False
    if isinstance(e, list):
        return any(_names_shown(x, names) for x in e)
    if isinstance(e, A.Node):
        return any(_names_shown(v, names) for k, v in vars(e).items()
                   if k not in ("ty", "ref", "span") and isinstance(v, A.Node | list))
    return False


def _inner_blocks(s: A.Stmt) -> list[list[Any]]:
    """The blocks of statements inside a statement: an `if`'s branches, a loop's body, options' bodies."""
    out: list[list[Any]] = []
    for v in vars(s).values():
        if isinstance(v, list) and v and isinstance(v[0], A.Stmt):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, A.Option):
                    out.append(x.body)
                elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], list):
                    out.append(x[1])
    return out


def _zone_itself(e: A.Expr) -> bool:
    """`deck`, `hand[q]`: a binder over a zone itself offers places, not cards (W102 looks at it apart);
    not a local list (`rs`), once its type is known."""
    return (isinstance(e, A.Name) or isinstance(e, A.Index) and isinstance(e.obj, A.Name) and len(e.args) == 1) \
        and (e.ty is None or e.ty.kind in ("zone", "any"))


def _same_expr(a: A.Expr, b: A.Expr) -> bool:
    """The same player written the same way (`current` and `current`, `players[1]` twice)."""
    if isinstance(a, A.Name) and isinstance(b, A.Name):
        return a.name == b.name
    if isinstance(a, A.Index) and isinstance(b, A.Index):
        return _same_expr(a.obj, b.obj) and len(a.args) == len(b.args) and \
            all(_same_expr(x, y) for x, y in zip(a.args, b.args, strict=True))
    if isinstance(a, A.Lit) and isinstance(b, A.Lit):
        return bool(a.value == b.value)
    return False


def _logged_either_way(s: A.If) -> set[str]:
    """The logs an `if … else` writes whichever branch runs (the same text at the top of every branch):
    they tell nothing of its test."""
    if s.orelse is None:
        return set()
    return _every({repr(shape(n.text)) for n in b if isinstance(n, A.Log)}
                  for b in [*(b for _, b in s.branches), s.orelse])


def _set_by_choice(assigned: list[list[tuple[Any, str]]]) -> list[Any]:
    """What a secret decision's option blocks set, when what it holds afterwards tells which option
    was taken (`top_one { mode = 1 }`, `bottom_one { mode = 2 }`): all but what every option sets to
    the same constant (`done = true` in each)."""
    syms = {id(sym): sym for option in assigned for sym, _ in option}
    same = [i for i, sym in syms.items()
            if all(len(keys := [k for x, k in option if x is sym]) == 1 and not keys[0].startswith("#")
                   for option in assigned)
            and len({k for option in assigned for x, k in option if x is sym}) == 1]
    return [sym for i, sym in syms.items() if i not in same]


class Secrecy(Expressions):
    """Hidden information: the warnings W102, W103 and W104 — what a choice, a log, a label or a variable
    would tell a player who may not see the cards or values behind it."""

    def always_revealed(self, body: list[A.Stmt], seen: frozenset[str] = frozenset()) -> set[str]:
        """What ``body`` reveals to everyone whichever way it goes (W104): its reveals, those of a loop's
        or a turn's body, of every branch of an `if … else`, of every option of a decision (a `pass`
        reveals nothing) and of the rules it calls (`called_reveals`) — less what it, or a rule it
        calls, hides or moves cards into after. ``seen``: the rules being followed."""
        out: set[str] = set()
        for x in body:
            if not (isinstance(x, A.Reveal) and x.to is None):
                out = less(out, self.may_hide([x], seen))
            if isinstance(x, A.Reveal) and x.to is None:
                out |= self.reveal_keys(x.what)
            elif isinstance(x, A.ExprStmt) and isinstance(x.expr, A.Call):
                out |= self.called_reveals(x.expr, seen)
            elif isinstance(x, A.For):
                out |= _for_every(x, self.always_revealed(x.body), self.every_player(x.source),
                                  self.each_active(x.source))
            elif isinstance(x, A.Turn):
                out |= self.always_revealed(x.body)
            elif isinstance(x, A.If) and x.orelse is not None:
                out |= _every(self.always_revealed(b) for b in [*(b for _, b in x.branches), x.orelse])
            elif isinstance(x, A.Choose | A.Simultaneous):
                out |= self.choice_reveals(x)
        return out

    def called_reveals(self, call: A.Call, seen: frozenset[str] = frozenset()) -> set[str]:
        """What a call of a rule surely reveals to everyone for what follows it (W104), as its hides
        count: what the rule's body always reveals before any `return` can leave it, less what names its
        parameters or locals (`reveal hand[p]` is some other entry where the caller reads)."""
        r = self.rules.get(call.func)
        if not isinstance(r, RuleSym) or r.decl is None or call.func in seen:
            return set()
        body = r.decl.body
        cut = next((i for i, x in enumerate(body) if any(isinstance(n, A.Return) for n in A.walk(x))), len(body))
        mine = {p.name for p in r.decl.params} | {n.name for n in A.walk(body) if isinstance(n, A.Let)} \
            | {n.var for n in A.walk(body) if isinstance(n, A.For | A.Binder)}
        names = [repr(shape(A.Name(span=call.span, name=m))) for m in mine]
        return {k for k in self.always_revealed(body[:cut], seen | {call.func})
                if k not in mine and not any(n in k for n in names)}

    def every_player(self, e: A.Expr) -> bool:
        """Whether list ``e`` holds every player (W104: a reveal of each one's entry is the whole zone):
        `players`; `active` and `seats_from(p)` too when the rules never take a player out of play (no
        `finish`, no `sit out`) — else they leave out whoever is out, whose hands were not revealed."""
        if isinstance(e, A.Name) and e.name == "players":
            return True
        if not (isinstance(e, A.Name) and e.name == "active" or isinstance(e, A.Call) and e.func == "seats_from"):
            return False
        if self.nobody_out is None:
            self.nobody_out = not any(isinstance(n, A.Finish) for n in A.walk(self.src.decls))
        return self.nobody_out

    def each_active(self, e: A.Expr) -> bool:
        """Whether ``e`` is `active` in rules that never bring a player back (no `rejoin`): the players
        a later loop over `active` meets are then among those an earlier one met, whoever sat out or
        finished in between (W104: `for q in active { reveal hand[q] }`, then the same loop reads them)."""
        if not (isinstance(e, A.Name) and e.name == "active"):
            return False
        if self.nobody_rejoins is None:
            self.nobody_rejoins = not any(isinstance(n, A.Rejoin) for n in A.walk(self.src.decls))
        return self.nobody_rejoins

    def choice_reveals(self, s: A.Choose | A.Simultaneous) -> set[str]:
        """What a decision reveals to everyone whichever option is taken (W104)."""
        bodies = [o.body for o in s.options]
        if isinstance(s, A.Choose) and s.otherwise is not None:
            bodies.append(s.otherwise)
        return _every(self.always_revealed(b) for b in bodies)

    def reveal_keys(self, what: A.Expr) -> set[str]:
        """Exactly what `reveal what` shows everyone (W104): a zone, variable or local by name, one entry
        (`hand[p]`, not the other players' hands), or the expression itself (`top(deck)`, not the deck);
        a zone local set once to a zone or an entry (`let z = hand[p]`) as that zone or entry, so a move
        into hand[p] forgets it."""
        if isinstance(what, A.Name):
            defs = self.local_defs.get(id(what.ref), []) if isinstance(what.ref, LocalSym) \
                and what.ref.type == T.ZONE else []
            if len(defs) == 1 and defs[0][2] is None and isinstance(v := defs[0][0], A.Name | A.Index) \
                    and isinstance(v.ref if isinstance(v, A.Name) else v.obj.ref, ZoneSym):
                return self.reveal_keys(v)
            return {what.name}
        if isinstance(what, A.ListLit):
            return {k for x in what.items for k in self.reveal_keys(x)}
        if isinstance(what, A.Index) and isinstance(what.obj, A.Name) and len(what.args) == 1:
            return {entry_key(what.obj.name, what.args[0])}
        return {expr_key(what)}

    def owner_vars_read(self, f: FnSym, seen: frozenset[int] = frozenset()) -> str | None:
        """The first owner-only variable a function reads, also through the functions it calls."""
        if f.decl is None or id(f) in seen:
            return None
        for n in A.walk(f.decl.body):
            if isinstance(n, A.Name | A.Attr):
                sym = self.globals.get(n.name)
                if isinstance(sym, VarSym) and sym.visibility == "owner":
                    return sym.name
            if isinstance(n, A.Call) and isinstance(g := self.fns.get(n.func), FnSym):
                found = self.owner_vars_read(g, seen | {id(f)})
                if found:
                    return found
        return None

    def unseen_cards_read(self, e: A.Expr, sc: Scope) -> str | None:
        """The cards of a zone not every player sees that ``e`` reads (`top(deck).suit`, another hand),
        through functions — not the shown card's own (W103: a `show` text or key)."""
        for name, _owner in self.zones_through_locals(e, sc, every=True):
            z = self.globals.get(name)
            if isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility != "public":
                return f"the cards of {name}"
        return None

    def secret_read(self, e: Any, seen: set[str]) -> str | None:
        """A hidden or owner-only variable that ``e`` reads, directly or through functions."""
        if isinstance(e, A.Name | A.Attr) or isinstance(e, A.Call) and e.func not in seen:
            sym = self.globals.get(e.func if isinstance(e, A.Call) else e.name)
            if isinstance(sym, VarSym) and sym.visibility not in ("public", "back") \
                    and (isinstance(e, A.Name) or sym.scope == "card"):
                return sym.name
            if isinstance(sym, FnSym) and sym.decl is not None and isinstance(e, A.Call):
                seen.add(sym.name)
                found = self.secret_read(sym.decl.body, seen)
                if found is not None:
                    return found
        if isinstance(e, list):
            return next((f for x in e if (f := self.secret_read(x, seen)) is not None), None)
        if isinstance(e, A.Node):
            return next((f for v in vars(e).values() if isinstance(v, A.Node | list)
                         if (f := self.secret_read(v, seen)) is not None), None)
        return None

    def shows_everyone(self, body: list[A.Stmt], name: str, args: dict[str, A.Expr] | None = None,
                       depth: int = 0) -> bool:
        """Whether a rule's body surely moves its card parameter ``name`` (or a card a function finds by
        it, `first_of(hand[p], k)`) where everyone sees it (face up, or to public zones) or reveals it to everyone (W104 after a call of the rule): a statement of
        the body itself, before any `return` — not one inside an `if`, a loop or an option. ``args``:
        the rule's other parameters as the call gives them (`put(c, table)` moves c to its zone z), so
        a rule it calls in turn is followed too."""
        args = args or {}

        def public(dest: A.Expr) -> bool:
            if isinstance(dest, A.Name) and dest.name in args:      # a zone parameter: the zone given
                dest = args[dest.name]      # (already the caller's own zone: `given` resolved it)
            z = self.globals.get(dest.name if isinstance(dest, A.Name) else
                                 dest.obj.name if isinstance(dest, A.Index) and isinstance(dest.obj, A.Name) else "")
            return isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility == "public"

        def found_by(cards: A.Expr) -> bool:    # `first_of(hand[p], k)`: a card of kind k, shown, shows k
            return isinstance(cards, A.Call) and any(isinstance(a, A.Name) and a.name == name for a in cards.args)
        for n in body:
            if isinstance(n, A.Return):
                return False
            if isinstance(n, A.Move) and (isinstance(n.cards, A.Name) and n.cards.name == name or found_by(n.cards)) \
                    and (n.face == "up" or public(n.dest)):
                return True
            if isinstance(n, A.Reveal) and n.to is None and isinstance(n.what, A.Name) and n.what.name == name:
                return True
            if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) and depth < 8 \
                    and self.passes_on(n.expr, name, args, depth):
                return True
        return False

    def warn_public_var_from_hidden(self, s: A.Assign, var: VarSym, sc: Scope) -> None:
        """W104: a public variable set from the cards of a zone some players may not see shows them to
        everyone, as a log would (`top_rank[p] = best_rank(p)` of a hidden hand) — unless the zone was
        revealed to everyone earlier in the block. Counting them (`size`) is fine, and so is a card's
        own variable set from that card (`for c in deck { c.power = c.rank }`): it shows only with
        its card, to those who see it."""
        own = s.target.obj.name if var.scope == "card" and isinstance(s.target, A.Attr) \
            and isinstance(s.target.obj, A.Name) and not any(
                isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.name == s.target.obj.name
                and n.ty is not None and T.CARD in (n.ty, n.ty.elem) for n in A.walk(s.value)) else None
        if sc.shows(s.value):       # `reveal bottom(talon)`, then `trump_card = bottom(talon)`
            return
        for name, owner in [x for e in self.told_by(s.value) for x in self.zones_through_locals(e, sc, skip=own)]:
            z = self.globals.get(name)
            if isinstance(z, VarSym) and self.var_unseen(z, owner, None) \
                    and not sc.was_revealed(name, owner):
                args = ("W104", f"{var.name} is public and is set here from {name} ({a_noun('`' + z.visibility + '`')} variable), "
                        "which some players may not see: every player's view shows it", s.value.span,
                        f"`reveal {name}` first (everyone then sees it), or declare {var.name} hidden or owner")
                if self.defer_w104(sc, name, owner, args):     # as a log of it is judged
                    continue
                self.warn(*args)
                return
            if isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility != "public" \
                    and not sc.was_revealed(name, owner):
                self.warn("W104", f"{var.name} is public and is set here from the cards of {name}, which some "
                          f"players may not see: every player's view shows it", s.value.span,
                          f"declare {var.name} hidden or owner (a variable only its owner sees), or reveal the "
                          "cards first" if var.decl is not None else "reveal the cards first (a showdown), or set it "
                          "from what everyone sees")
                return

    def told_by(self, value: A.Expr) -> list[A.Expr]:
        """What an assignment's value tells: all of it, but for `xs[i] = e` (set to `replaced(xs, i,
        e)`, `+=` to `replaced(xs, i, xs[i] + e)`) only the positions and e — the list's own value,
        read where it is set, tells nothing (`top(deck).marks[0] += 1` reads the marks of a card
        unseen, and shows them only with it)."""
        if self.item_values.get(id(value)) is not value:
            return [value]
        if isinstance(value, A.Binary):
            return [value.right]
        assert isinstance(value, A.Call)
        return [value.args[1], *self.told_by(value.args[2])]

    def warn_secret_var_from_hidden(self, s: A.Assign, var: VarSym, sc: Scope) -> None:
        """W104 for a `hidden` or `owner` variable: an entry revealed to everyone (and not hidden since)
        is public, judged as warn_public_var_from_hidden judges; an `owner` entry `v[x]` shows player x
        what it is set from (`sec[p] = top(hand[q]).rank`: p's view shows q's card)."""
        tgt = s.target
        owner = tgt.args[0] if var.scope == "player" and isinstance(tgt, A.Index) and len(tgt.args) == 1 else None
        if sc.was_revealed(var.name, owner):
            self.warn_public_var_from_hidden(s, var, sc)
            return
        if var.visibility != "owner" or owner is None or sc.shows(s.value):
            return
        for name, o in [x for e in self.told_by(s.value) for x in self.zones_through_locals(e, sc)]:
            z = self.globals.get(name)
            if sc.was_revealed(name, o):
                continue
            if isinstance(z, VarSym) and self.var_unseen(z, o, owner):
                told = f"{name} (a `{z.visibility}` variable)"
            elif isinstance(z, ZoneSym) and z.decl is not None and self.unseen_by(z, o, owner):
                told = f"the cards of {name}"
            else:
                continue
            self.warn("W104", f"{var.name} is seen by the player it belongs to, and is set here from {told}, "
                      "which that player may not see: their view would show it", s.value.span,
                      "set it only from what its player may see, or reveal that first")
            return

    def warn_branching_on_hidden(self, s: A.If, sc: Scope) -> None:
        """An `if` that tests the cards of a zone some players may not see tells them the answer by what
        its branches do where they see it: a `log` (W104, everyone reads whether it is written) or a
        decision of a player who may not see those cards (W102, being asked at all: the twin of a
        window's `when`). A branch that shows cards to everyone (a `reveal`, a move face up or to a
        public zone: a showdown, a card played) is left alone, as is one of the zone's own player."""
        tested: list[list[tuple[ZoneSym, A.Expr | None]]] = []    # per branch: what its condition and those before test
        for c, _ in s.branches:
            tested.append((tested[-1] if tested else []) + [
                (z, owner) for name, owner in self.zones_through_locals(c, sc)
                if isinstance(z := self.globals.get(name), ZoneSym) and z.decl is not None
                and z.decl.visibility != "public" and not sc.was_revealed(name, owner)])
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        either_way = _logged_either_way(s)
        for body, zones in zip(bodies, tested + (tested[-1:] if s.orelse is not None else []), strict=True):
            if not zones:
                continue
            stmts = _statements(body)
            if any(self.reveals_news(n) or isinstance(n, A.Move) and (
                    n.face == "up" or (ds := self.zones_named(n.dest)) is not None and bool(ds)
                    and all(d.decl is not None and d.decl.visibility == "public" for d in ds)) for n in stmts):
                continue
            shown = self.always_shown(body)     # by a rule it calls: `reveal_hole()`, in every way through it
            if all(z.name in shown or owner is not None and entry_key(z.name, owner) in shown for z, owner in zones):
                continue
            for n in stmts:
                if isinstance(n, A.Log) and repr(shape(n.text)) not in either_way:
                    self.warn("W104", f"this log is written only as the cards of {zones[0][0].name} are, which some "
                              "players may not see: whether it appears tells them", n.span,
                              "test what everyone may know, or `tell` the player who may see the cards")
                    return
                chooser = n.player if isinstance(n, A.Choose) else None
                hidden = [z for z, owner in zones if chooser is not None and self.unseen_by(z, owner, chooser)]
                if hidden:
                    self.warn("W102", f"this decision is asked only as the cards of {hidden[0].name} are, which "
                              "the chooser may not see: being asked at all tells them (and the table)", n.span,
                              "ask on what everyone may know, and decide in the options' blocks; or let the "
                              "player who sees the cards choose")
                    return

    def always_shown(self, body: list[A.Stmt], given: dict[str, A.Expr] | None = None,
                     seen: frozenset[str] = frozenset()) -> set[str]:
        """The zones (a name, or entry_key of one entry) ``body`` shows everyone whichever way it goes,
        before a `return` can leave it (warn_branching_on_hidden: the branch then tells nothing more):
        revealed, or moved whole face up or to a public zone — also by the rules it calls (``given``:
        a rule's parameters as its call gives them), in every branch of an `if`. A branch taken only
        when a zone is empty (`size(Z) == 0`, or after `if size(Z) > 0 { … }` failed) has none of its
        cards left to show: `if size(hole) > 0 { move hole to dealer }` shows the hole either way."""
        given = given or {}

        def key(e: A.Expr) -> str | None:
            e = given.get(e.name, e) if isinstance(e, A.Name) else e
            if isinstance(e, A.Call) and e.func == "cards" and len(e.args) == 1:
                return key(e.args[0])
            if isinstance(e, A.Name) and isinstance(self.globals.get(e.name), ZoneSym):
                return e.name
            if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and len(e.args) == 1 \
                    and isinstance(self.globals.get(e.obj.name), ZoneSym):
                owner = e.args[0]
                return entry_key(e.obj.name, given.get(owner.name, owner) if isinstance(owner, A.Name) else owner)
            return None

        def tested(c: A.Expr, empty: bool) -> set[str]:
            """The zones `c` holds empty (``empty``: `size(Z) == 0`, `top(Z) == none`) or not empty."""
            if not isinstance(c, A.Binary):
                return set()
            for zone, other in ((c.left, c.right), (c.right, c.left)):
                if isinstance(zone, A.Call) and zone.func in ("size", "top", "bottom") and len(zone.args) == 1 \
                        and (k := key(zone.args[0])) is not None:
                    none = isinstance(other, A.Lit) and other.kind == "none"
                    zero = isinstance(other, A.Lit) and other.value == 0 and zone.func == "size"
                    if (none or zero) and c.op == ("==" if empty else "!=") \
                            or zero and not empty and c.op == (">" if zone is c.left else "<"):
                        return {k}
            return set()

        out: set[str] = set()
        for x in body:
            if any(isinstance(n, A.Return) for n in A.walk(x)):
                break
            if isinstance(x, A.Reveal) and x.to is None or isinstance(x, A.Move) and (x.face == "up" or bool(
                    ds := self.zones_named(given.get(x.dest.name, x.dest) if isinstance(x.dest, A.Name) else x.dest))
                    and all(d.decl is not None and d.decl.visibility == "public" for d in ds or [])):
                k = key(x.what if isinstance(x, A.Reveal) else x.cards)
                out |= {k} if k is not None else set()
            elif isinstance(x, A.ExprStmt) and isinstance(x.expr, A.Call) and x.expr.func not in seen \
                    and isinstance(r := self.rules.get(x.expr.func), RuleSym) and r.decl is not None:
                args = {p.name: given.get(a.name, a) if isinstance(a, A.Name) else a
                        for p, a in zip(r.decl.params, x.expr.args, strict=False)}
                out |= self.always_shown(r.decl.body, args, seen | {x.expr.func})
            elif isinstance(x, A.If):
                conds = [c for c, _ in x.branches]
                ways = [b for _, b in x.branches] + [x.orelse or []]
                out |= _every(self.always_shown(b, given, seen)
                              | {k for c in conds[:i] for k in tested(c, empty=False)}
                              | (tested(conds[i], empty=True) if i < len(conds) else set())
                              for i, b in enumerate(ways))
        return out

    def warn_effect_under_hidden(self, s: A.If, sc: Scope) -> None:
        """W104, the implicit flow of warn_branching_on_hidden for what every view shows: a branch run
        only as the cards of a zone some players may not see are, which sets a public variable, moves
        cards (also in a rule or an effect it calls: `draw(q, 1)`) or activates an effect, tells them how
        the test went by the value, the zones' sizes or the stack changing. Not when a branch already tells the table (a log, a
        decision, a reveal, a move face up or to a public zone: warned or shown as the rules say), nor
        a card's own variable set on a card the test reads (a mark on it: `c.told_rank = n`)."""
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        either_way = _logged_either_way(s)
        if any(self.tells_table(n) and not (isinstance(n, A.Log) and repr(shape(n.text)) in either_way)
               for b in bodies for n in _statements(b)):
            return
        tested: list[tuple[ZoneSym, A.Expr | None]] = []   # what this branch's condition and those before it test
        for (c, body) in zip([c for c, _ in s.branches] + [None], bodies, strict=False):
            if c is not None:
                tested += [(z, owner) for name, owner in self.zones_through_locals(c, sc)
                           if isinstance(z := self.globals.get(name), ZoneSym) and z.decl is not None
                           and z.decl.visibility != "public" and not sc.was_revealed(name, owner)]
            zones = [z for z, _ in tested]
            if not zones:
                continue
            marked = {n.name for c, _ in s.branches for n in A.walk(c) if isinstance(n, A.Name)}
            for n in _statements(body):
                entry = self.secret_entry_set(n, tested, sc)
                if entry is not None:
                    self.warn("W104", f"{entry} is set here only as the cards of {zones[0].name} are, and a player "
                              "who sees it may not see them: their view shows whether it changed", n.span,
                              "test what that player may know, or set it where the test does not decide")
                    return
                var = self.public_var_set(n, marked)
                if var is not None:
                    self.warn("W104", f"{var} is public and is set here only as the cards of {zones[0].name} are, "
                              "which some players may not see: every player's view shows whether it changed",
                              n.span, f"test what everyone may know, or declare {var} hidden or owner (a variable "
                              "only its owner sees)")
                    return
                if self.moves_cards(n):
                    self.warn("W104", f"cards move here only as the cards of {zones[0].name} are, which some "
                              "players may not see: everyone sees the zones' sizes change, and so how the test "
                              "went", n.span, "test what everyone may know, or reveal the cards the test reads first")
                    return
                if (event := self.public_event(n)) is not None:
                    self.warn("W104", f"`{event}` runs here only as the cards of {zones[0].name} are, which some "
                              "players may not see: everyone sees it, and so how the test went", n.span,
                              "test what everyone may know, or reveal the cards the test reads first")
                    return
                if isinstance(n, A.Activate):
                    self.warn("W104", f"this effect is activated only as the cards of {zones[0].name} are, which "
                              "some players may not see: everyone sees it on the stack, and so how the test went",
                              n.span, "test what everyone may know, or reveal the cards the test reads first")
                    return

    def tells_table(self, n: A.Stmt, depth: int = 0) -> bool:
        """Whether statement ``n`` tells everyone it ran (warn_effect_under_hidden): a log, a decision,
        a reveal to all, a move face up or to a public zone — itself or in a rule or effect it calls."""
        if isinstance(n, A.Log | A.Choose | A.Simultaneous) or self.reveals_news(n):
            return True
        if isinstance(n, A.Move) and (n.face == "up" or bool(ds := self.zones_named(n.dest)) and all(
                d.decl is not None and d.decl.visibility == "public" for d in ds or [])):
            return True
        body = self.called_body(n) if depth < 8 else None
        return any(self.tells_table(x, depth + 1) for x in _statements(body or []))

    def reveals_news(self, n: A.Stmt) -> bool:
        """Whether ``n`` is a reveal to everyone that may show something: not one of a public zone or a
        public value (`reveal table`, `reveal hint`), which shows nothing and logs nothing."""
        if not (isinstance(n, A.Reveal) and n.to is None):
            return False
        for name, _ in _zones_read(n.what):
            sym = self.globals.get(name)
            if not (isinstance(sym, ZoneSym) and sym.decl is not None and sym.decl.visibility == "public"
                    or isinstance(sym, VarSym) and sym.visibility in ("public", "back") and not _holds_cards(sym.type)):
                return True
        return False

    def public_var_set(self, n: A.Stmt, marked: set[str], depth: int = 0) -> str | None:
        """The public variable (a `back` one, the built-in `score` and `current` too) that statement
        ``n`` sets, itself or in a rule or an effect it calls — not a variable of a card ``marked``
        names (`c.told_rank = n` under a test of c)."""
        if isinstance(n, A.Assign):
            r = n.target.ref
            sym = r[1] if isinstance(r, tuple) and r[:1] in (("pvar",), ("cardvar",)) else r
            if isinstance(n.target, A.Attr) and isinstance(n.target.obj, A.Name) and n.target.obj.name in marked:
                return None
            return sym.name if isinstance(sym, VarSym) and sym.visibility in ("public", "back") else None
        body = self.called_body(n) if depth < 8 else None
        return next((v for x in _statements(body or []) if (v := self.public_var_set(x, set(), depth + 1)) is not None),
                    None)

    def secret_entry_set(self, n: A.Stmt, tested: list[tuple[ZoneSym, A.Expr | None]], sc: Scope) -> str | None:
        """The entry of a `hidden` or `owner` variable statement ``n`` sets that a player who may not see
        the ``tested`` cards sees (warn_effect_under_hidden): one revealed to everyone and not hidden
        since, or an `owner` entry `v[x]` of a player x who may not see them."""
        if not isinstance(n, A.Assign):
            return None
        r = n.target.ref
        sym = r[1] if isinstance(r, tuple) and r[:1] == ("pvar",) else r
        if not isinstance(sym, VarSym) or sym.visibility not in ("hidden", "owner"):
            return None
        owner = n.target.args[0] if sym.scope == "player" and isinstance(n.target, A.Index) \
            and len(n.target.args) == 1 else None
        if sc.was_revealed(sym.name, owner) or sym.visibility == "owner" and owner is not None \
                and any(self.unseen_by(z, o, owner) for z, o in tested):
            return sym.name
        return None

    def public_event(self, n: A.Stmt, depth: int = 0) -> str | None:
        """What statement ``n`` does that everyone sees, but a move or a set (warn_effect_under_hidden): a
        `reverse direction`, a `shuffle` or a `hide` — itself or in a rule or an effect it calls."""
        if isinstance(n, A.Reverse):
            return "reverse direction"
        if isinstance(n, A.Shuffle | A.Hide):
            return type(n).__name__.lower()
        body = self.called_body(n) if depth < 8 else None
        return next((e for x in _statements(body or []) if (e := self.public_event(x, depth + 1)) is not None), None)

    def moves_cards(self, n: A.Stmt, depth: int = 0) -> bool:
        """Whether statement ``n`` moves, deals or swaps cards, itself or in a rule or an effect it calls."""
        if isinstance(n, A.Move | A.Deal | A.Swap):
            return True
        body = self.called_body(n) if depth < 8 else None
        return any(self.moves_cards(x, depth + 1) for x in _statements(body or []))

    def called_body(self, n: A.Stmt) -> list[A.Stmt] | None:
        """The body of the rule a statement calls (`draw(q, 1)`) or of the effect it activates."""
        if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call):
            r = n.expr.ref if n.expr.ref is not None else self.globals.get(n.expr.func)
            return r.decl.body if isinstance(r, RuleSym) and r.decl is not None else None
        if isinstance(n, A.Activate):
            e = self.globals.get(n.effect)
            return e.decl.body if isinstance(e, EffectSym) and e.decl is not None else None
        return None

    def warn_rule_logging_hidden(self, call: A.Call | A.Activate, sc: Scope) -> None:
        """W104 at a call: a rule (or an effect) that logs its parameter (`rule announce(cs: list of card)
        { log "{cs}" }`), or sets a public variable from it (`rule setc(c: card) { hint = c.rank }`), given
        cards of a zone some players may not see, or a `hidden` or `owner` variable, tells them to all."""
        if isinstance(call, A.Activate):
            eff = self.globals.get(call.effect)
            decl: A.RuleDecl | A.EffectDecl | None = eff.decl if isinstance(eff, EffectSym) else None
            name = call.effect
        else:
            decl = call.ref.decl if isinstance(call.ref, RuleSym) else None
            name = call.func
        if decl is None:
            return
        name = A.written_whole(name, decl.span.file)
        given = {p.name: a for p, a in zip(decl.params, call.args, strict=False)}
        for prm, arg in zip(decl.params, call.args, strict=False):
            if sc.shows(arg):
                continue
            does = "logs" if self.logs_param(decl, prm.name, given) else \
                "sets a public variable from" if self.logs_param(decl, prm.name, given, sets=True) else None
            if does is None:
                continue
            for n, o in self.zones_through_locals(arg, sc):
                z = self.globals.get(n)
                if isinstance(z, VarSym) and self.var_unseen(z, o, None) and not sc.was_revealed(n, o):
                    args = ("W104", f"{name} {does} its {prm.name}, given {n} here ({a_noun('`' + z.visibility + '`')} "
                            "variable), which some players may not see: every player would learn it", arg.span,
                            f"`reveal {n}` first (everyone then sees it), or give the rule what everyone may know")
                    if self.defer_w104(sc, n, o, args):     # as a log of it is judged
                        continue
                    self.warn(*args)
                    return
                if isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility != "public" \
                        and not sc.was_revealed(n, o):
                    self.warn("W104", f"{name} {does} its {prm.name}, given the cards of {n} here, which some "
                              f"players may not see: every player would learn them", arg.span,
                              "reveal them first (a reveal is logged with the cards, to whom it shows them), or "
                              "give the rule only what everyone may know")
                    return

    def logs_param(self, decl: A.RuleDecl | A.EffectDecl, name: str, args: dict[str, A.Expr] | None = None,
                   depth: int = 0, sets: bool = False) -> bool:
        """Whether a rule's `log` names its parameter ``name`` (or a card of it a loop takes: `for c in
        cs { log "{c}" }`; also in a rule it hands it to) before a statement of its block shows it to
        everyone (`move c to table` then `log "{c}"` is fine; ``args``: the call's, for a zone given).
        ``sets``: whether a public variable is set from it instead (`hint = c.rank`)."""
        names = {name}

        def block(stmts: list[Any]) -> bool:
            for s in stmts:
                if not sets and isinstance(s, A.Log) and any(
                        _names_shown(e, names) for half in s.text.parts for e in half if not isinstance(e, str)):
                    return True
                if sets and isinstance(s, A.Assign) and self.public_target(s.target) and _names_shown(s.value, names):
                    return True
                if self.shows_everyone([s], name, args):
                    return False        # shown: the rest of this block may name it
                if isinstance(s, A.For) and any(isinstance(x, A.Name) and x.name in names for x in A.walk(s.source)):
                    names.add(s.var)
                for c in (n for n in A.walk([v for k, v in vars(s).items() if k not in ("ty", "ref", "span")])
                          if isinstance(n, A.Call)):
                    r = self.globals.get(c.func)
                    if depth < 8 and isinstance(r, RuleSym) and r.decl is not None and r.decl is not decl \
                            and any(isinstance(a, A.Name) and a.name in names
                                    and self.logs_param(r.decl, p.name, None, depth + 1, sets)
                                    for p, a in zip(r.decl.params, c.args, strict=False)):
                        return True
                if any(block(b) for b in _inner_blocks(s)):
                    return True
            return False
        return block(decl.body)

    def public_target(self, target: A.Expr) -> bool:
        """Whether an assignment's target is a variable every view shows (`hint`, `score[p]`), not a
        card's own (which shows with its card) nor a local."""
        base = target.obj if isinstance(target, A.Index) else target
        sym = self.globals.get(base.name) if isinstance(base, A.Name) else None
        return isinstance(sym, VarSym) and sym.scope != "card" and sym.visibility in ("public", "back")

    def passes_on(self, call: A.Call, name: str, args: dict[str, A.Expr], depth: int) -> bool:
        """Whether a rule called with the card ``name`` shows it to everyone (``args``: the caller's
        parameters as given, for the zones it passes on)."""
        rule = call.ref if call.ref is not None else self.globals.get(call.func)    # a body not checked yet
        if not isinstance(rule, RuleSym) or rule.decl is None:
            return False
        decl = rule.decl
        given = {prm.name: args.get(a.name, a) if isinstance(a, A.Name) else a
                 for prm, a in zip(decl.params, call.args, strict=False)}
        return any(isinstance(a, A.Name) and a.name == name and self.shows_everyone(decl.body, prm.name, given, depth + 1)
                   for prm, a in zip(decl.params, call.args, strict=False))

    def zones_named(self, e: A.Expr, seen: frozenset[int] = frozenset()) -> list[ZoneSym] | None:
        """The declared zones a zone-valued expression can be — through locals (`let zs = [table]`,
        `insert rows back as z`), list elements, `if`s and functions — or None if that cannot be told
        (W104: a card moved where everyone sees it was shown)."""
        r = e.ref
        if isinstance(r, ZoneSym):
            return [r]
        if isinstance(r, LocalSym):
            return self.zone_values.get(id(r))
        if isinstance(e, A.Index):
            return self.zones_named(e.obj, seen)
        if isinstance(e, A.ListLit | A.IfExpr):
            parts = [self.zones_named(x, seen) for x in (e.items if isinstance(e, A.ListLit) else [e.then, e.other])]
            return None if any(x is None for x in parts) else [z for x in parts for z in x or []]
        if isinstance(r, FnSym) and r.decl is not None and id(r) not in seen:
            return self.zones_named(r.decl.body, seen | {id(r)})
        return None

    def zones_through_locals(self, e: A.Expr, sc: Scope, every: bool = False, places: dict[str, A.Expr] | None = None,
                             skip: str | None = None, params: bool = False,
                             seen: frozenset[int] = frozenset()) -> list[tuple[str, A.Expr | None]]:
        """The zones ``e`` reads the cards of, through the locals it reads (`let d = top(deck)`: `{d}`
        reads deck), but for a local whose card was shown to everyone since, and an expression revealed to
        everyone here (`reveal top(deck)`: `{top(deck).rank}` reads nothing hidden). A log (W104) follows
        card and text locals only; ``every``: any local (`let rs = [c.rank for c in hand[q]]`), for
        what a decision offers (W102); ``params``: a rule's parameters too, to what its calls give
        them, the owner of a zone named by the parameter it was given as (`pick(q, cards(hand[q]))`:
        `hand[p]` inside `rule pick(p, cs)`); ``skip``: a local not followed."""
        out: list[tuple[str, A.Expr | None]] = []
        shown = self.shown_exprs
        self.shown_exprs = shown | {k for k in sc.all_revealed() if k.startswith("(")}
        try:
            read = self.zones_read_deep(e, places=places)
        finally:
            self.shown_exprs = shown
        for name, owner in read:
            loc = sc.lookup(name)
            if name == skip and loc is not None:
                continue
            if loc is None:
                out.append((name, owner))
                continue
            if sc.was_revealed(name) or id(loc) in seen or not (every or T.CARD in (loc.type, loc.type.elem)
                                                                  or T.TEXT in (loc.type, loc.type.elem)
                                                                  or T.ZONE in (loc.type, loc.type.elem)):
                continue
            for value, dsc, given in self.local_defs.get(id(loc), []):
                if given is not None and not params:
                    continue
                for z, o in self.zones_through_locals(value, dsc, True, params=params, seen=seen | {id(loc)}):
                    out.append((z, o if given is None else _owner_as_param(o, given, dsc)))
        return out

    def warn_log_naming_hidden(self, s: A.Log | A.Text, revealed: Scope, chooser: A.Expr | None = None,
                               what: str = "prompt", cards: bool = True) -> None:
        """W104: a log line is everyone's, so one that shows the cards of a zone some players may not
        see (`log "the top card is {top(deck)}"`, or a local taken from there) names them to all
        (counting them is fine); a decision's prompt (``chooser``: its player), or ``what`` else its
        chooser reads (an option's `else` text), names them to a chooser who may not see them. Not
        ``cards``: only its variables (an option's label, whose cards W102 judges and the menu masks)."""
        text = s.text if isinstance(s, A.Log) else s
        for e in (x for parts in text.parts for x in parts if not isinstance(x, str)):
            if revealed.shows(e):
                continue
            for name, owner in self.zones_through_locals(e, revealed):
                z = self.globals.get(name)
                if isinstance(z, VarSym) and self.var_unseen(z, owner, chooser) \
                        and not revealed.was_revealed(name, owner):
                    whom = "the chooser" if chooser is not None else "some players"
                    args = ("W104", f"this {what if chooser is not None else 'log'} shows {name} ("
                            f"{a_noun('`' + z.visibility + '`')} variable), which {whom} may not see", e.span,
                            f"`reveal {name}` first (everyone then sees it), or `tell` the player who may see it")
                    if chooser is None and self.defer_w104(revealed, name, owner, args):
                        continue
                    self.warn(*args)
                    return
                if not cards or not isinstance(z, ZoneSym) or z.decl is None:
                    continue
                # `{cs}` names the cards; `{points(cs)}` tells something of them
                shown = f"the cards of {name}" if e.ty is not None and T.CARD in (e.ty, e.ty.elem) else \
                    f"a value worked out from the cards of {name}"
                if chooser is not None and self.unseen_by(z, owner, chooser):
                    self.warn("W104", f"this {what} shows {shown}, which the chooser may not see",
                              e.span, "reveal them to the chooser first (`reveal … to …`), or leave them out")
                    return
                if chooser is None and z.decl.visibility != "public" and not revealed.was_revealed(name, owner):
                    self.warn("W104", f"this log shows {shown}, which some players may not see: every "
                              "player's log would tell it", e.span,
                              "reveal them instead (a reveal is logged with the cards, to whom it shows them), "
                              "or `tell` the player who may see them")
                    return

    def defer_w104(self, sc: Scope, name: str, owner: A.Expr | None, args: tuple[str, str, Span, str]) -> bool:
        """A W104 of a variable read in a rule or a phase waits for ``judge_w104_across``: revealed
        where every call of it (every goto to it) stands, it is no leak. False outside one: warn now."""
        key = _flow_key(sc.proc)
        if key is None:
            return False
        keys = {name} if owner is None else {name, entry_key(name, owner)}
        self.w104_pending.append((key, frozenset(keys), sc.forgotten_here(), args))
        return True

    def judge_w104_across(self) -> None:
        """The logs of variables left to the calls: a rule's log of a variable is told to no one new when
        every call of the rule stands where it was revealed (in the caller, or at the caller's own
        start and not hidden since); a phase's, as for every goto to it (the first phase: nothing)."""
        names = {k for _, keys, _, _ in self.w104_pending for k in keys}
        entry: dict[tuple[str, str] | None, frozenset[str]] = {None: frozenset()}
        targets = {t for t, _, _, _ in self.flow_sites}
        if self.phases:
            entry[("phase", self.phases[0].name)] = frozenset()
        for t in targets:
            entry.setdefault(t, frozenset(names))
        changed = True
        while changed:      # what is revealed at each body's start only shrinks: a fixed point
            changed = False
            for t in targets:
                if self.phases and t == ("phase", self.phases[0].name):
                    continue
                e = frozenset(names)
                for target, caller, here, forgotten in self.flow_sites:
                    if target == t:
                        e &= here | less(entry.get(caller, frozenset()), forgotten)
                if e != entry[t]:
                    entry[t], changed = e, True
        for key, keys, forgotten, args in self.w104_pending:
            if not keys & less(entry.get(key, frozenset()), forgotten):
                self.warn(*args)

    def is_var_ref(self, e: A.Expr, sc: Scope) -> bool:
        if isinstance(e, A.Name):
            return isinstance(self.globals.get(e.name), VarSym) and sc.lookup(e.name) is None
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
            return isinstance(self.globals.get(e.obj.name), VarSym) and sc.lookup(e.obj.name) is None
        return False

    def warn_told_by_secret(self) -> None:
        """W104: an `if` on what a `choose … hidden` set (`if mode == 1 { log "top it is" }`) around
        what everyone sees — a log, goto, decision… (tells_choice): whether it happens tells the
        choice. (Moves under it are hidden: secret_places. A simultaneous decision's choices are
        told by its blocks: not warned.)"""
        for proc in self.procs:
            for n in A.walk(proc.body):
                if isinstance(n, A.If) and any(secret_places.secret(c) for c, _ in n.branches):
                    for x in A.walk([b for _, b in n.branches] + [n.orelse or []]):
                        if self.tells_choice(x):
                            self.warn("W104", "this runs only as a secret choice went (the `if` reads what it "
                                      "set): everyone sees it, and so how it went", x.span,
                                      "do it on every branch alike, or after the rules reveal the choice")
                            break

    def set_by_calls(self, body: list[Any], depth: int = 0) -> list[tuple[Any, str]]:
        """The variables, and the records, that the rules called in ``body`` set (rules they call
        too), each as the call sets it (`set_mode(1)` and `set_mode(2)` apart)."""
        out: list[tuple[Any, str]] = []
        for n in A.walk(body):
            if isinstance(n, A.Call) and isinstance(n.ref, RuleSym) and n.ref.decl is not None and depth < 8:
                how = f"call {shape(n)!r}"
                for x in A.walk(n.ref.decl.body):
                    r = x.target.ref if isinstance(x, A.Assign) else None
                    sym = r[1] if isinstance(r, tuple) and r[:1] in (("pvar",), ("cardvar",)) else r
                    if isinstance(sym, VarSym):
                        out.append((sym, how))
                    elif isinstance(x, A.Record):
                        out.append((self.tally, how))
                out.extend(self.set_by_calls(n.ref.decl.body, depth + 1))
        return out

    def warn_telling_choice(self, opts: list[A.Option]) -> None:
        """W104: in a hidden or simultaneous decision's option block, a `log`, `goto`, `activate` or
        call of a rule that moves cards, which not every option's block runs alike: everyone sees it
        (a rule's moves are its own, not hidden as the block's are), and so which option was taken."""
        for o in opts:      # `log "{p} bids {n}"`: every option logs, and the log is the secret
            names = {b.var for b in o.binders}
            for n in A.walk(o.body):
                if isinstance(n, A.Log) and any(isinstance(x, A.Name) and x.name in names for x in A.walk(n.text.parts)):
                    self.warn("W104", f"this log shows what {o.name} was chosen with, which the hidden choice keeps "
                              f"secret{self.used_at(n.span)}: everyone reads it", n.span, "log it when the rules reveal it, or not at all")
        if len(opts) < 2:
            return
        found = [[n for n in A.walk(o.body) if self.tells_choice(n)] for o in opts]
        shapes = [{shape(n) for n in ns} for ns in found]
        for o, ns in zip(opts, found, strict=True):
            for n in ns:
                if all(shape(n) in other for other in shapes):
                    continue
                call = n.expr.func if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) else None
                everywhere = call is not None and all(
                    any(isinstance(x, A.ExprStmt) and isinstance(x.expr, A.Call) and x.expr.func == call for x in ns)
                    for ns in found)
                this = f"this call of rule {call}" if call is not None else f"this {type(n).__name__.lower()}"
                # missing only from an optional choice's pass (a `use g(p) { log … }` block): it tells that
                if all(m.implied and m.name == PASS for m, other in zip(opts, shapes, strict=True)
                       if shape(n) not in other):
                    self.warn("W104", f"{this} runs unless the player passes: everyone sees it, and so whether "
                              f"this hidden decision was passed{self.used_at(n.span)}", n.span,
                              "do it after the decision, whether or not the player passed, or leave it to what "
                              "the rules reveal later")
                    continue
                what = (f"this call of rule {call} runs with arguments that differ between the options"
                        if everywhere else f"{this} runs only when {o.name} is taken")
                self.warn("W104", f"{what}: everyone sees it, and so which option of this hidden decision was "
                          f"chosen{self.used_at(n.span)}", n.span,
                          "do the same in every option, or leave it to what the rules reveal later; a rule's "
                          "moves are not hidden as the block's own are: write the move in the block")

    def warn_public_set_by_choice(self, opts: list[A.Option], set_by: list[Any], chooser: A.Expr | None) -> None:
        """W104: in a `choose … hidden`, a variable every view shows that an option's block sets (itself
        or through a rule it calls) to a value another option does not (`a { flag = 1 } b { flag = 2 }`,
        or only one sets it: ``set_by``, _set_by_choice) tells everyone which option was taken. Not a
        `hidden` one, an `owner` entry of the chooser's, nor a card's own variable unless its card is
        seen (in a public zone) or the variable is on its back."""
        for sym in set_by:
            if not isinstance(sym, VarSym) or sym.visibility == "hidden":
                continue
            site = next((n.span for o in opts for n in A.walk(o.body) if self.sets_where_seen(n, sym, o, chooser)), None)
            if site is not None:
                whom = "the player it belongs to" if sym.visibility == "owner" else "everyone"
                self.warn("W104", f"{sym.name} is set here, not alike in every option of this hidden decision, and "
                          f"{whom} sees it{self.used_at(site)}: they would know which option was taken", site,
                          f"declare {sym.name} owner (the chooser's) or hidden, or set it alike in every option")

    def sets_where_seen(self, n: A.Node, sym: VarSym, o: A.Option, chooser: A.Expr | None) -> bool:
        """Whether ``n`` sets ``sym`` (itself, or a call of a rule that does) where players other than
        the chooser see it (warn_public_set_by_choice)."""
        if isinstance(n, A.Call) and isinstance(n.ref, RuleSym):
            return sym.visibility in ("public", "back") and sym.scope != "card" \
                and any(x is sym for x, _ in self.set_by_calls([n]))
        if not isinstance(n, A.Assign):
            return False
        r = n.target.ref
        if (r[1] if isinstance(r, tuple) and r[:1] in (("pvar",), ("cardvar",)) else r) is not sym:
            return False
        if sym.visibility == "owner":       # another player's entry shows them the choice
            return isinstance(n.target, A.Index) and len(n.target.args) == 1 \
                and not (chooser is not None and _same_expr(n.target.args[0], chooser))
        if sym.scope != "card" or sym.visibility == "back":
            return True
        card = n.target.obj if isinstance(n.target, A.Attr) else None   # `c.mark = 1`: seen with its card
        zone = next((b.source for b in o.binders if b.var == card.name), None) if isinstance(card, A.Name) else \
            _place_zone(card) if card is not None else None
        ds = self.zones_named(zone) if zone is not None else None
        return bool(ds) and all(d.decl is not None and d.decl.visibility == "public" for d in ds or [])

    def tells_choice(self, n: A.Node, depth: int = 0) -> bool:
        """A statement whose doing everyone sees (warn_telling_choice): a log, goto, activate,
        reveal, shuffle, decision, a player's finishing, sitting out or coming back, the end of the
        game — or a call of a rule that does one of these or moves cards (rules it calls too)."""
        if isinstance(n, A.Log | A.Goto | A.Activate | A.Reveal | A.Shuffle | A.Choose | A.Simultaneous
                      | A.Finish | A.Rejoin | A.End | A.Win | A.Lose):
            return True
        if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) and isinstance(n.expr.ref, RuleSym) and depth < 8:
            decl = n.expr.ref.decl
            return decl is not None and any(isinstance(x, A.Move | A.Swap | A.Deal) or self.tells_choice(x, depth + 1)
                                            for x in A.walk(decl.body))
        return False

    def warn_asking_on_hidden(self, e: A.Expr, what: str, window: str, answered: set[str], item_var: str) -> None:
        """W102: a window's `when`, `responders` or `ask all` that reads cards some players may not see:
        everyone sees whether the window opens and who is asked (a challenge offered only to a bluff).
        ``answered``: zones the responses are taken from, which asking tells of anyway."""
        for name, owner in self.zones_read_deep(e):
            z = self.globals.get(name)
            # a zone of the item's own people (`hand[it.controller]`: the claimant's) is not one the
            # asked answer from: whether anyone is asked would tell of it
            of_item = owner is not None and any(isinstance(n, A.Name) and n.name == item_var for n in A.walk(owner))
            if isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility != "public" \
                    and (name not in answered or of_item):
                self.warn("W102", f"the {what} of window {window} reads the cards of {name}, which some players may "
                          f"not see: whether the window opens, and who is asked, would tell them what lies there",
                          e.span, "open the window on what everyone knows (the item, public variables), and "
                          "decide in the response's block")
                return

    def warn_telling_where(self, o: A.Option, chooser: A.Expr, sc: Scope) -> None:
        """W102: an option's `where` tests cards of a zone the chooser may not see, so the list of
        legal actions would tell them what lies there (`draw c in hand[q] where not c.joker`); or its
        label shows more of such a card than its place (`"take {c.rank}"`: a bare `{c}` is shown as
        the place, anything else about the card is computed from the card itself)."""
        shown = [p for parts in o.label.parts for p in parts if not isinstance(p, str)] if o.label else []
        self.reader = chooser       # `revealed(c, chooser)` tells them nothing (face_read)
        try:
            if not self.warn_reading_unseen(o, chooser, sc):
                self.warn_option_cards(o, chooser, sc, shown)
        finally:
            self.reader = None

    def warn_option_cards(self, o: A.Option, chooser: A.Expr, sc: Scope, shown: list[Any]) -> None:
        """warn_telling_where for the cards an option binds from a zone."""
        for b in o.binders:
            src = b.source
            zone_name, owner = (src.name, None) if isinstance(src, A.Name) else \
                (src.obj.name, src.args[0]) if isinstance(src, A.Index) and isinstance(src.obj, A.Name) \
                and len(src.args) == 1 else (None, None)
            z = self.globals.get(zone_name or "")
            if not isinstance(z, ZoneSym) or z.decl is None:
                self.warn_naming_hidden(o, b, chooser, sc)
                continue
            if not self.unseen_by(z, owner, chooser):
                continue
            guarded = o.where is not None and self.guards(o.where, b.var)  # then the label shows seen cards only
            if o.where is not None and self.face_read(o.where, b.var, b.source):
                self.warn("W102", f"the where of option {o.name} tests the cards of {zone_name}, which the chooser "
                          f"may not see: the legal actions would tell them which cards lie there", o.where.span,
                          f"offer every card of {zone_name} and decide in the option's block, or let a player "
                          "who sees them choose")
            told = [e for e in shown if not (isinstance(e, A.Name) and e.name == b.var)
                    and self.face_read(e, b.var, b.source, shown=guarded)]
            if told:
                assert o.label is not None
                self.warn("W102", f"the label of option {o.name} shows more of a card of {zone_name} than its place, "
                          f"and the chooser may not see that card: the label would tell them what lies there",
                          o.label.span, f"show the card only as {{{b.var}}} (its place, to a chooser who cannot "
                          "see it), and tell what it is once it is revealed")

    def warn_reading_unseen(self, o: A.Option, chooser: A.Expr, sc: Scope) -> bool:
        """W102: an option's `where`, or the list a binder ranges over, reads what lies in a zone the
        chooser may not see — not by the option's own card (`c in hand[q] where c.rank > 5`, below),
        but around it (`guess r in Role where not (any c in hand[q] where c.role == r)`, also through a
        function): the legal actions would be a window onto those cards."""
        own = {b.var for b in o.binders}
        parts = [(o.where, "where")] if o.where is not None else []
        if o.label is not None:     # the label too: `"f {[c.role for c in hand[q]]}"` reads P1's hand out
            parts += [(_whole_card(x), "label") for half in o.label.parts for x in half if not isinstance(x, str)]
        parts += [(b.source, "list") for b in o.binders if not _zone_itself(b.source)
                  and self.binder_elem.get(id(b)) not in (T.CARD, T.list_of(T.CARD))]  # cards: warn_naming_hidden
        places = {b.var: b.source for b in o.binders if _zone_itself(b.source)}
        for e, what in parts:
            hidden = list(dict.fromkeys(
                name for name, owner in self.zones_through_locals(e, sc, every=True, places=places)
                if name not in own and isinstance(z := self.globals.get(name), ZoneSym) and z.decl is not None
                and self.unseen_by(z, owner, chooser)))
            if hidden:
                self.warn("W102", f"the {what} of option {o.name} reads the cards of {_names(hidden)}, which the "
                          f"chooser may not see: the legal actions would tell them what lies there", e.span,
                          "offer what the chooser may know, and decide in the option's block (a wrong guess is "
                          "a guess that misses), or let a player who sees the cards choose")
                return True
        return False

    def counted_calls(self, e: A.Expr) -> set[int]:
        """The calls of functions whose result only a count of whole zones is taken of (`size(both(q))`,
        `fn both(p) = cards(table) + cards(hand[p])`; `count c in both(q) where revealed(c)`): their
        bodies are not read (W102, W104)."""
        out: set[int] = set()

        def mark(x: A.Expr) -> None:
            if isinstance(x, A.Call) and isinstance(x.ref, FnSym) and x.ref.decl is not None:
                out.add(id(x))
            elif isinstance(x, A.Call) and x.func in _SIZE_KEPT and x.args:
                mark(x.args[0])
            elif isinstance(x, A.Comprehension | A.SortedBy):
                mark(x.source)
            elif isinstance(x, A.Binary):
                mark(x.left)
                mark(x.right)
            elif isinstance(x, A.IfExpr):
                mark(x.then)
                mark(x.other)
        for n in A.walk(e):
            if isinstance(n, A.Call) and n.func == "size" and n.args and _size_public(n.args[0]):
                mark(n.args[0])
            elif isinstance(n, A.Quantifier) and self.counts_only(n):
                mark(n.source)
        return out

    def counts_only(self, e: Any) -> bool:
        """`count c in both(q) where revealed(c)`: over a list of whole zones (not a zone itself, which
        _reads follows apart), with a condition that reads nothing of the faces: a count of them."""
        return isinstance(e, A.Quantifier) and not _zone_itself(e.source) and _size_public(e.source) \
            and not self.face_read([e.cond], e.var, e.source, shown=self.guards(e.cond, e.var))

    def zones_read_deep(self, e: A.Expr, seen: frozenset[int] = frozenset(),
                        places: dict[str, A.Expr] | None = None) -> list[tuple[str, A.Expr | None]]:
        """The zones an expression reads the cards of (`_zones_read`), also through the functions it
        calls, a parameter standing for its argument (`holds(q, r)` reads `hand[q]`). Going over a
        zone reads it only if the cards' faces are read (`any c in hand[q] where c.told == r` reads
        the backs); ``places``: binders over zones, whose position `index_of(cards(Z), c)` is no read."""
        out = self._reads(e, places or {})
        up = {id(n.args[0]) for n in A.walk(e) if isinstance(n, A.Call) and self.top_card_up(n)}  # discards(k) in top(…)
        up |= self.counted_calls(e)
        faced = self.face_tested(e)
        skip, placed = self.unread_calls(e)
        for call in (n for n in A.walk(e) if isinstance(n, A.Call) and id(n) not in up and id(n) not in skip):
            f = self.globals.get(call.func)
            if not isinstance(f, FnSym) or f.decl is None or id(f) in seen:
                continue
            args = {p.name: a for p, a in zip(f.decl.params, call.args, strict=False)}
            if id(call) in faced:       # `revealed(slot(p, i))`: the card's place, as if written out
                body = self.place_reads(f.decl.body, seen | {id(f)}) + self._reads(call.args, places or {})
            elif id(call) in placed:    # `revealed(top(col(i)))`: which zone, not its cards
                body = self.zone_place_reads(f.decl.body, seen | {id(f)}) + self._reads(call.args, places or {})
            else:
                body = self.zones_read_deep(f.decl.body, seen | {id(f)})
            for name, owner in body:
                if name in args:
                    continue        # a zone given as an argument: read where the call names it
                if isinstance(owner, A.Name) and owner.name in args:
                    owner = args[owner.name]
                out.append((name, owner))
        return out

    def face_tested(self, e: A.Expr) -> set[int]:
        """The calls of functions whose card only `revealed` is asked of (`revealed(slot(p, i))`, also
        `revealed(c, chooser)`): only where the card lies is read of them (place_reads)."""
        return {id(n.args[0]) for n in A.walk(e)
                if isinstance(n, A.Call) and n.func == "revealed" and n.args and isinstance(n.args[0], A.Call)
                and isinstance(n.args[0].ref, FnSym) and (len(n.args) == 1 or self.reader is not None
                                                          and _same_expr(n.args[1], self.reader))}

    def place_reads(self, e: A.Expr, seen: frozenset[int]) -> list[tuple[str, A.Expr | None]]:
        """What finding card ``e`` reads when only whether it is face up is asked (a function's body
        given to `revealed`): a card of a zone by its position (`row[p][i]`, `top(deck)`, also chosen
        by an `if`) reads the position and the owner, as `revealed(row[p][i])` written out does; any
        other card (`max c in hand[p] by c.rank`) reads what finding it reads."""
        if isinstance(e, A.IfExpr):
            return self.zones_read_deep(e.cond, seen) + self.place_reads(e.then, seen) + self.place_reads(e.other, seen)
        if isinstance(e, A.Index) and len(e.args) == 1 and (
                isinstance(e.obj, A.Index) and isinstance(e.obj.obj, A.Name) and len(e.obj.args) == 1
                or isinstance(e.obj, A.Name)):
            owner = e.obj.args if isinstance(e.obj, A.Index) else []
            return [r for x in [*owner, e.args[0]] for r in self.zones_read_deep(x, seen)]
        if isinstance(e, A.Call) and e.func in ("top", "bottom") and len(e.args) == 1:
            z = e.args[0]
            return [r for x in z.args for r in self.zones_read_deep(x, seen)] if isinstance(z, A.Index) else []
        return self.zones_read_deep(e, seen)

    def guards(self, e: Any, var: str, seen: frozenset[int] = frozenset()) -> bool:
        """Whether condition ``e`` holds only for a card ``var`` its reader sees: `revealed(c)` (face up)
        or `revealed(c, chooser)`, alone or as a term of an `and` (in either place: `and` filters the
        same cards whatever its order), also through a function (`seen_by(c, chooser)`)."""
        if isinstance(e, A.Binary) and e.op == "and":
            return self.guards(e.left, var, seen) or self.guards(e.right, var, seen)
        if not isinstance(e, A.Call) or not e.args or not (isinstance(e.args[0], A.Name) and e.args[0].name == var):
            return False
        if e.func == "revealed":
            return len(e.args) == 1 or self.reader is not None and _same_expr(e.args[1], self.reader)
        f = self.globals.get(e.func)
        if not isinstance(f, FnSym) or f.decl is None or id(f) in seen or not f.decl.params:
            return False
        with self.reader_inside(f.decl, e.args):
            return self.guards(f.decl.body, f.decl.params[0].name, seen | {id(f)})

    @contextmanager
    def reader_inside(self, decl: A.FnDecl, args: list[A.Expr]) -> Iterator[None]:
        """While looking into a function's body: the reader as the function names it (the parameter
        given the chooser: `p` in `fn seen_by(c: card, p: player)`), or none."""
        reader = self.reader
        self.reader = next((A.Name(span=reader.span, name=p.name) for p, a in zip(decl.params, args, strict=False)
                            if reader is not None and _same_expr(a, reader)), None)
        try:
            yield
        finally:
            self.reader = reader

    def face_read(self, e: Any, var: str, zone: A.Expr, seen: frozenset[int] = frozenset(),
                  shown: bool = False) -> bool:
        """Whether ``e`` reads more of the card ``var`` (a binder over ``zone``) than everyone sees of it:
        not what is written on its back (a `back` variable), whether it is face up (`revealed(c)`), or
        its position (`index_of(cards(zone), c)`); also through the functions it is given to. Under a
        guard (`revealed(c, chooser) and c.rank > 10`, ``shown``: the card is one its reader sees) only
        whether it was shown to another player is read."""
        if isinstance(e, A.Binary) and e.op == "and" and not shown and self.guards(e, var):
            return self.face_read(e, var, zone, seen, shown=True)
        if isinstance(e, A.Name):
            return e.name == var and not shown
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name == var:
            sym = self.globals.get(e.name)
            return not shown and not (isinstance(sym, VarSym) and sym.visibility == "back")
        if isinstance(e, A.Call):
            if e.func == "revealed":        # face up, or shown to the chooser: nothing they do not see
                if len(e.args) < 2 or self.reader is not None and _same_expr(e.args[1], self.reader):
                    return False
                return self.face_read(e.args[0], var, zone, seen)   # shown to another: a secret of theirs
            if e.func == "index_of" and len(e.args) == 2 and isinstance(e.args[1], A.Name) \
                    and e.args[1].name == var and isinstance(e.args[0], A.Call) and e.args[0].func == "cards" \
                    and len(e.args[0].args) == 1 and _same_expr(e.args[0].args[0], zone):
                return False
            f = self.globals.get(e.func)
            if isinstance(f, FnSym) and f.decl is not None and id(f) not in seen:
                for p, a in zip(f.decl.params, e.args, strict=False):
                    if isinstance(a, A.Name) and a.name == var:
                        with self.reader_inside(f.decl, e.args):
                            if self.face_read(f.decl.body, p.name, zone, seen | {id(f)}, shown):
                                return True
                    elif self.face_read(a, var, zone, seen, shown):
                        return True
                return False
        if isinstance(e, list):
            return any(self.face_read(x, var, zone, seen, shown) for x in e)
        if isinstance(e, A.Node):
            return any(self.face_read(v, var, zone, seen, shown) for v in vars(e).values() if isinstance(v, A.Node | list))
        return False

    def guard_term(self, e: Any) -> bool:
        """Whether ``e`` is `revealed(X)` (or `revealed(X, chooser)`) of a card found by an expression
        (`top(col(i))`, `hand[q][2]`), not a binder's name (face_read follows those)."""
        return isinstance(e, A.Call) and e.func == "revealed" and bool(e.args) \
            and isinstance(e.args[0], A.Call | A.Index) and e.args[0].ty == T.CARD \
            and (len(e.args) == 1 or self.reader is not None and _same_expr(e.args[1], self.reader))

    def guarded_cards(self, e: A.Binary) -> frozenset[str]:
        """The cards (expr_key) an `and` keeps to ones its reader sees, by a term `revealed(X)`: false
        whenever X is face down, it tells of X only while X is face up, so its other terms read X
        as everyone sees it (`revealed(top(col2)) and top(col2).rank == 5`; the same expression
        as written, not another card of the zone)."""
        return frozenset(expr_key(t.args[0]) for t in _and_terms(e) if isinstance(t, A.Call) and self.guard_term(t))

    def unread_calls(self, e: Any) -> tuple[set[int], set[int]]:
        """The function calls in ``e`` that zones_read_deep does not read the body of: those inside a card
        everyone sees there (an expression revealed, or one a guard keeps face up: the second
        `top(col(i))` of `revealed(top(col(i))) and top(col(i)).rank > 5`; the guard itself reads where
        the card lies); and, read only for which zone they pick (zone_place_reads), calls picking a zone
        whose cards are not read there: `revealed(top(col(i)))`, `zone_of(c) != col(i)`, `top(col(i))
        != none`, `[c for c in col(i) where revealed(c)]`."""
        skip: set[int] = set()
        placed: set[int] = set()

        def visit(x: Any, keys: frozenset[str]) -> None:
            if isinstance(x, list | tuple):
                for y in x:
                    visit(y, keys)
                return
            if not isinstance(x, A.Node):
                return
            if keys and isinstance(x, A.Call | A.Index) and expr_key(x) in keys:
                skip.update(id(n) for n in A.walk(x) if isinstance(n, A.Call))
                return
            if isinstance(x, A.Binary) and x.op == "and":
                keys = keys | self.guarded_cards(x)
            inner: list[Any] = [x]
            if isinstance(x, A.Call) and x.func == "revealed" and x.args and (
                    len(x.args) == 1 or self.reader is not None and _same_expr(x.args[1], self.reader)):
                card = x.args[0]
                if _zone_call(z := _place_zone(card)):
                    placed.add(id(z))
                inner = [card]      # the card itself is the guard's: read for its place, not skipped
            elif isinstance(x, A.Binary) and (_place_in_seq(x) or _none_test(x)):
                placed.update(id(z) for y in (x.left, x.right) for z in (y, _place_zone(y)) if _zone_call(z))
            elif isinstance(x, A.Quantifier | A.Comprehension | A.Best) and _zone_call(x.source):
                body = [y for y in (x.cond, getattr(x, "elem", None), getattr(x, "key", None)) if y is not None]
                if not self.face_read(body, x.var, x.source, shown=x.cond is not None and self.guards(x.cond, x.var)):
                    placed.add(id(x.source))
            for y in inner:
                for f in fields(y):
                    if f.name not in ("ty", "ref", "span", "origin", "replaces"):
                        visit(getattr(y, f.name, None), keys)
        visit(e, frozenset(self.shown_exprs))
        return skip, placed

    def zone_place_reads(self, e: A.Expr, seen: frozenset[int]) -> list[tuple[str, A.Expr | None]]:
        """What picking a zone reads (a zone-valued function's body, as unread_calls places it): where
        it lies — the index of `[col1, col2][i - 1]`, the owner of `hand[p]`, an `if`'s test — not its
        cards, which the caller reads or not as it uses the zone."""
        if isinstance(e, A.IfExpr):
            return self.zones_read_deep(e.cond, seen) + self.zone_place_reads(e.then, seen) \
                + self.zone_place_reads(e.other, seen)
        if isinstance(e, A.Index) and len(e.args) == 1 and isinstance(e.obj, A.ListLit | A.Name):
            items = e.obj.items if isinstance(e.obj, A.ListLit) else []
            return self.zones_read_deep(e.args[0], seen) + [r for x in items for r in self.zone_place_reads(x, seen)]
        if isinstance(e, A.Name) and isinstance(self.globals.get(e.name), ZoneSym):
            return []
        return self.zones_read_deep(e, seen)

    def _reads(self, e: Any, places: dict[str, A.Expr]) -> list[tuple[str, A.Expr | None]]:
        if self.shown_exprs and isinstance(e, A.Call | A.Index) and expr_key(e) in self.shown_exprs:
            return []       # `reveal top(deck)`, then `{top(deck).rank}`: that card is everyone's (W104)
        if isinstance(e, A.Binary) and e.op == "and" and not (keys := self.guarded_cards(e)) <= self.shown_exprs:
            before = self.shown_exprs   # `revealed(top(col2)) and top(col2).rank == 5`: seen while face up
            self.shown_exprs = before | keys
            try:
                return self._reads([e.left, e.right], places)
            finally:
                self.shown_exprs = before
        if isinstance(e, A.Quantifier | A.Comprehension | A.Best) and (_zone_itself(e.source) or _zone_call(e.source)):
            inner = [x for x in (e.cond, getattr(e, "elem", None), getattr(e, "key", None)) if x is not None]
            shown = e.cond is not None and self.guards(e.cond, e.var)   # `where revealed(c) …`: seen cards only
            src = _zones_read(e.source) if self.face_read(inner, e.var, e.source, shown=shown) else \
                _zones_read(e.source.args if isinstance(e.source, A.Index) else [])
            return src + self._reads(inner, {**places, e.var: e.source})     # its cards' places: no read
        if self.counts_only(e):
            return self._reads(e.cond, places)      # the faces are not read: nor the zones behind the list
        if isinstance(e, A.Quantifier | A.Comprehension | A.Best) and isinstance(e.source, A.ListLit) \
                and e.source.ty is not None and e.source.ty.elem == T.ZONE:
            # over zones written out (`top(z) for z in [dis_a, dis_b]`): naming them reads nothing, what
            # is done with each reads it (`cards(z)` reads dis_a and dis_b; `top(z)` of a `top up` pile not)
            inner = [x for x in (e.cond, getattr(e, "elem", None), getattr(e, "key", None)) if x is not None]
            out: list[tuple[str, A.Expr | None]] = []
            for item in e.source.items:     # each zone in turn: `top(z)` is face up for a `top up` one
                if isinstance(e.ref, LocalSym):
                    self.comp_sources[id(e.ref)] = item
                out += [r for name, owner in self._reads(inner, places)
                        for r in (_zones_read(item) if name == e.var else [(name, owner)])]
            if isinstance(e.ref, LocalSym):
                self.comp_sources[id(e.ref)] = e.source
            return out
        if isinstance(e, A.Call) and e.func == "index_of" and len(e.args) == 2 and isinstance(e.args[1], A.Name) \
                and e.args[1].name in places and isinstance(e.args[0], A.Call) and e.args[0].func == "cards" \
                and len(e.args[0].args) == 1 and _same_expr(e.args[0].args[0], places[e.args[1].name]):
            return []
        if isinstance(e, A.Call) and e.func == "size" and e.args and not _size_public(e.args[0]):
            return self._reads(e.args, places)
        if self.top_card_up(e):
            return []                   # the top card of a pile `top up`: everyone sees it
        if isinstance(e, A.Call) and e.func == "revealed" and len(e.args) == 2 \
                and not (self.reader is not None and _same_expr(e.args[1], self.reader)):
            return self._reads(e.args, places)      # shown to another: a secret of theirs (face_read)
        f = self.globals.get(e.func) if isinstance(e, A.Call) else None
        if isinstance(e, A.Call) and isinstance(f, FnSym) and f.decl is not None:
            return self._call_reads(e, f.decl, places)
        if isinstance(e, A.Name | A.Index) or isinstance(e, A.Call) and e.func in _NOT_READ \
                or isinstance(e, A.Binary) and _none_test(e) or _place_in_seq(e):
            return _zones_read(e)       # a zone, a count, an emptiness test: as _zones_read reads them
        if isinstance(e, list):
            return [r for x in e for r in self._reads(x, places)]
        if isinstance(e, A.Node):
            return [r for v in vars(e).values() if isinstance(v, A.Node | list) for r in self._reads(v, places)]
        return []

    def _call_reads(self, call: A.Call, decl: A.FnDecl, places: dict[str, A.Expr]) -> list[tuple[str, A.Expr | None]]:
        """What a function's arguments read (the body's own reads: zones_read_deep). A card given to a
        parameter the body reads nothing of but what everyone sees (`fn up(c: card) -> bool =
        revealed(c)`) is read as `revealed(top(hand[q]))` reads it written out: not at all."""
        out: list[tuple[str, A.Expr | None]] = []
        for p, a in zip(decl.params + [None] * len(call.args), call.args, strict=False):
            if p is not None and a.ty == T.CARD:
                with self.reader_inside(decl, call.args):
                    seen = not self.face_read(decl.body, p.name, a)
                if seen:
                    out += _zones_read(a.args if isinstance(a, A.Index) else [])
                    continue
            out += self._reads(a, places)
        return out + self._reads(call.kwargs, places)

    def top_card_up(self, e: Any) -> bool:
        """`top(Z)` of a pile declared `top up` (or of one of such per-player piles), also one a
        function picks (`top(discards(k))`, every zone its body names such a pile) or a local stands
        for (`top(z) for z in [dis_a, dis_b]`, a `let`, every zone it may be such a pile): a card face up.
        So is `top(Z, 1)`, the list of that one card (not `top(Z, 2)`: the second lies face down)."""
        if not (isinstance(e, A.Call) and e.func == "top" and not e.kwargs and (
                len(e.args) == 1 or len(e.args) == 2 and isinstance(e.args[1], A.Lit) and e.args[1].value == 1)):
            return False
        z = e.args[0].obj if isinstance(e.args[0], A.Index) else e.args[0]
        f = self.globals.get(z.func) if isinstance(z, A.Call) else None
        if isinstance(f, FnSym) and f.decl is not None:
            zones = [s for n in A.walk(f.decl.body) if isinstance(n, A.Name)
                     and isinstance(s := self.globals.get(n.name), ZoneSym)]
            return bool(zones) and all(s.decl is not None and s.decl.top_up for s in zones)
        if isinstance(z, A.Name) and isinstance(z.ref, LocalSym):   # `top(z) for z in [dis_a, dis_b]`, a `let`
            src = self.comp_sources.get(id(z.ref))
            zs = self.zones_named(src) if src is not None else self.zones_named(z)
            return bool(zs) and all(s.decl is not None and s.decl.top_up for s in zs or [])
        sym = self.globals.get(z.name) if isinstance(z, A.Name) else None
        return isinstance(sym, ZoneSym) and sym.decl is not None and sym.decl.top_up

    def var_unseen(self, v: VarSym, owner: A.Expr | None, reader: A.Expr | None) -> bool:
        """May variable ``v`` (``owner``'s, of a per-player one) be hidden from ``reader`` (None: the
        whole table, as a log line)?"""
        own = owner is not None and reader is not None and _same_expr(owner, reader)
        return v.visibility == "hidden" or v.visibility == "owner" and not own

    def unseen_by(self, z: ZoneSym, owner: A.Expr | None, chooser: A.Expr) -> bool:
        """May the cards of zone ``z`` (of ``owner``) be hidden from ``chooser``?"""
        assert z.decl is not None
        vis = z.decl.visibility
        own = owner is not None and _same_expr(owner, chooser)
        return vis == "hidden" or vis == "owner" and not own or vis == "others" and own

    def warn_naming_hidden(self, o: A.Option, b: A.Binder, chooser: A.Expr, sc: Scope) -> None:
        """W102: a binder over a list of cards taken from a zone the chooser may not see
        (`take c in cards(hand[q])`, also through a `let` or a function) names those cards in the
        legal actions; a binder over the zone itself (`take c in hand[q]`) offers their places. A `where`
        that keeps only cards the chooser sees (`revealed(c) and …`) lists only those."""
        et = self.binder_elem.get(id(b))
        if et is None or not (et == T.CARD or et.kind == "list" and et.elem == T.CARD) \
                or et == T.CARD and o.where is not None and self.guards(o.where, b.var):
            return
        hidden = list(dict.fromkeys(
            name for name, owner in self.zones_through_locals(b.source, sc, every=True, params=True)
            if isinstance(z := self.globals.get(name), ZoneSym) and z.decl is not None and self.unseen_by(z, owner, chooser)))
        if hidden:
            self.warn("W102", f"option {o.name} names the cards of {_names(hidden)}, which the chooser may not see: "
                      f"its legal actions would list them", b.source.span,
                      f"bind the cards of the zone itself, one a decision (`c in {hidden[0]}`): a card the chooser "
                      "cannot see is then offered by its place")
