"""Declarations: enums, players and seats, options, zones, the deck, variables, and the signatures of
functions, rules, effects, orderings and windows.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from typing import Any

from .. import ast as A
from .. import types as T
from ..decks import TEMPLATES, DeckData, ascii_aliases
from ..errors import Span, did_you_mean
from ..words import typed_number
from .base import CheckerBase
from .folding import _CONST_CALLS, _const_binop, _const_text, _const_type
from .symbols import (
    CARRIABLE,
    EFFECT_LOCALS,
    ITEM_FIELDS,
    MAX_FIXED_RANGE,
    RESERVED,
    Abort,
    Cards,
    EffectSym,
    EnumSym,
    FnSym,
    LocalSym,
    MemberRef,
    OptionSym,
    OrderingSym,
    Proc,
    RuleSym,
    Seat,
    Sym,
    VarSym,
    WindowSym,
    ZoneSym,
    _shown,
    _shown_members,
    text_plain,
)


class Declarations(CheckerBase):
    """Declarations: enums, players and seats, options, zones, the deck, variables, and the signatures of
    functions, rules, effects, orderings and windows."""

    # -------------------------------------------------------------- enums, players, options
    def enum_decl(self, name: str, members: list[tuple[str, str]], span: Span,
                  spans: list[Span] | None = None, builtin: bool = False) -> EnumSym:
        sym = EnumSym(name, span, members=[m for m, _ in members], labels=[lab for _, lab in members])
        if builtin and name in self.globals:
            return self.globals[name]  # type: ignore[no-any-return]
        self.declare(name, sym, span)
        self.enums[name] = sym
        seen: set[str] = set()
        for i, (m, _) in enumerate(members):
            if m in seen:
                self.err("E102", f"{name} lists {m} twice", spans[i] if spans else span)
                continue
            seen.add(m)
            if not builtin:     # `option phases: {all …} = all` fails where the member is read
                self.keyword_name(m, spans[i] if spans else span, "name the member otherwise (every, all_of): "
                                  "players read its label")
            if builtin and m in self.members:   # a ruleset's own member wins its bare name (Role.king)
                continue
            self.members.setdefault(m, []).append(MemberRef(sym, i))
        # a label that is another member's name: typed as the menu shows it, it would choose that one
        names = {m.lower(): m for m, _ in members}
        for i, (m, lab) in enumerate(members):
            other = names.get(lab.strip().lower())
            if not builtin and other is not None and other != m:
                self.err("E102", f"{m}'s label {lab.strip()!r} is the name of {other}: a player typing "
                         f"{lab.strip()} as the menu shows it would choose {other}", spans[i] if spans else span,
                         f"label {m} otherwise, or name the members after their labels")
        sym.used = builtin
        return sym

    def players_decl(self, decls: list[A.PlayersDecl], top: Span) -> None:
        if not decls:
            self.err("E311", "the ruleset does not say how many play", top, "add: players 2..4 default 4")
            self.min_players = self.max_players = 2
            default = 2
            span = top
        else:
            d = decls[-1]
            span = d.span
            self.min_players, self.max_players = d.min, d.max
            default = d.default if d.default is not None else d.min
            if not (1 <= d.min <= d.max <= 16) or not (d.min <= default <= d.max):
                self.err("E311", f"bad player count {d.min}..{d.max} default {default}", d.span,
                         "1 ≤ min ≤ default ≤ max ≤ 16")
                # checked on as if within bounds: `size(players)` in a fixed expression must not
                # build a list of 10^20 seats
                self.min_players = min(max(d.min, 1), 16)
                self.max_players = min(max(d.max, self.min_players), 16)
                default = min(max(default, self.min_players), self.max_players)
        sym = OptionSym("players", span, type=T.INT, value=default, default=default, lo=self.min_players,
                        hi=self.max_players, used=True)
        self.options["players"] = sym
        self.seat_names = self.seats_decl(decls[-1]) if decls and decls[-1].seats else None

    def seats_decl(self, d: A.PlayersDecl) -> list[tuple[str, str]] | None:
        """`seats "North | 北", …`: one plain name for every seat the game can have, all different."""
        for t in d.seats:
            self.plain_label(t, "a seat's name")
        if len(d.seats) != d.max:
            self.err("E311", f"{len(d.seats)} seat names for up to {d.max} players", d.seats[0].span,
                     "name every seat, P0 first")
            return None
        names = [(text_plain(t, 0), text_plain(t, 1)) for t in d.seats]
        # players type a seat's name in any case, in either language (`pick north`): two seats
        # named alike but for case, or a name that reads as a seat's id (`p1`), would take another seat
        typed: dict[str, int] = {}
        # any P and digits, as NFKC reads them (`P01`, `Ｐ１`, `P7` of two seats): read as a seat's id
        seat_id = re.compile(r"P[0-9]+", re.IGNORECASE)
        for i, t in enumerate(d.seats):
            if any(not half.strip() for half in names[i]):
                self.err("E309", "a seat's name is blank", t.span, "name every seat by a word: \"North\"")
                continue
            same = next((typed[h.lower()] for h in names[i] if typed.get(h.lower(), i) != i), None)
            if same is not None:
                self.err("E102", f"two seats are called {names[i][0]}" if names[i][0] == names[same][0] else
                         f"seats {names[same][0]} and {names[i][0]} are called alike (players type names in any "
                         "case)", t.span)
            elif any(seat_id.fullmatch(unicodedata.normalize("NFKC", h.strip())) for h in names[i]):
                self.err("E102", f"{names[i][0]} reads as a seat's number (P0, P1, …): name seats by words", t.span)
            elif any(typed_number(h.strip()) is not None for h in names[i]):
                self.err("E102", f"{names[i][0]} reads as a number, which picks a line of the menu: name seats "
                         "by words", t.span)
            for h in names[i]:
                typed.setdefault(h.lower(), i)
        return names

    def option_decl(self, d: A.OptionDecl) -> None:
        sym = OptionSym(d.name, d.span, decl=d)
        ot = d.type
        try:
            if ot is None:
                raise self.fail("E404", f"option {d.name} has no type", d.span, "option NAME: bool = false")
            if ot.kind == "enum":
                members = [(m.name, text_plain(m.label) if m.label else m.name) for m in ot.members]
                en = self.enum_decl(d.name, members, ot.span, [m.span for m in ot.members])
                en.shown = _shown_members(ot.members)
                del self.globals[d.name]    # the option's name refers to the option, its type to the enum
                self.globals[d.name] = sym
                sym.type = en.type
                sym.members = en.members
                en.used = True
            elif ot.kind == "range":
                if ot.name != "int":
                    raise self.fail("E201", f"a range option is an int range, not {ot.name}", ot.span)
                sym.type, sym.lo, sym.hi = T.INT, ot.lo, ot.hi
                if ot.lo is not None and ot.hi is not None and ot.lo > ot.hi:
                    raise self.fail("E402", f"empty range {ot.lo}..{ot.hi}", ot.span)
            else:
                assert ot.name is not None
                if ot.name in ("bool", "int", "number", "text"):
                    sym.type = T.BASIC[ot.name]
                elif ot.name in self.enums:
                    sym.type = self.enums[ot.name].type
                    sym.members = self.enums[ot.name].members
                    self.enums[ot.name].used = True
                else:
                    raise self.fail("E101", f"unknown option type {ot.name}", ot.span,
                                    did_you_mean(ot.name, ["bool", "int", "number", "text", *self.enums]))
            dflt = d.default
            if sym.type.kind == "enum" and isinstance(dflt, A.Name) and dflt.name not in self.options:
                # its own member even if another enum shares the name; anything else is not a member
                if dflt.name not in sym.members:
                    raise self.fail("E402", f"option {d.name} takes one of {', '.join(sym.members)}; "
                                    f"{dflt.name} is not one", dflt.span, did_you_mean(dflt.name, sym.members))
                value: Any = MemberRef(self.enums[sym.type.name or ""], sym.members.index(dflt.name))
            else:
                value = self.const(dflt, None)
            sym.default = self.option_value(sym, value, dflt.span)
            sym.value = sym.default
        except Abort:
            # a refused default (reported) stands in as the type's first value: the rules that use the
            # option are not faulted for it too (a variant's `option six_colours = 1` in its base)
            sym.refused = True
            stand_in = {"bool": False, "int": sym.lo if sym.lo is not None else 0, "number": 0,
                        "text": "", "enum": 0}.get(sym.type.kind)
            if sym.default is None and stand_in is not None:
                sym.default = sym.value = stand_in
        if d.type is None or d.type.kind != "enum":
            self.declare(d.name, sym, d.span)
        self.options[d.name] = sym

    def option_value(self, sym: OptionSym, value: Any, span: Span, given: bool = False) -> Any:
        """Check a value for an option; enum members become their index."""
        t = sym.type
        what = "given" if given else "default"
        if t.kind == "bool":
            if isinstance(value, str) and given and value.lower() in ("true", "false", "yes", "no", "on", "off"):
                return value.lower() in ("true", "yes", "on")
            if not isinstance(value, bool):
                raise self.fail("E402", f"option {sym.name} is a bool; {what} value {_shown(value)} is not", span,
                                "use true or false")
            return value
        if t.kind == "int":
            if isinstance(value, str) and given:
                try:
                    value = int(value)
                except ValueError:
                    pass
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail("E402", f"option {sym.name} is a whole number; {what} value {_shown(value)} is not", span,
                                f"give a whole number within {sym.lo}..{sym.hi}"
                                if sym.lo is not None and sym.hi is not None else None)
            if (sym.lo is not None and value < sym.lo) or (sym.hi is not None and value > sym.hi):
                raise self.fail("E402", f"option {sym.name} must be within {sym.lo}..{sym.hi}; {what} value is {value}",
                                span, None if given else _widen_hint(sym, value, span))
            return value
        if t.kind == "number":
            if isinstance(value, str) and given:
                try:
                    value = float(value)
                except ValueError:
                    pass
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.fail("E402", f"option {sym.name} is a number; {what} value {_shown(value)} is not", span)
            if isinstance(value, float) and not math.isfinite(value):
                raise self.fail("E402", f"option {sym.name} must be a finite number; {what} value is {value}", span)
            if isinstance(value, int) and abs(value) > sys.float_info.max:     # whole, but past any number
                raise self.fail("E402", f"option {sym.name} must be a finite number; {what} value is too large "
                                "(numbers reach about 1.8e308)", span)
            return value
        if t.kind == "text":
            if not isinstance(value, str):
                raise self.fail("E402", f"option {sym.name} is a text; {what} value {_shown(value)} is not", span)
            return value
        if t.kind == "enum":
            if isinstance(value, MemberRef):
                if value.enum.name != t.name:
                    raise self.fail("E402", f"option {sym.name} takes one of {', '.join(sym.members)}", span)
                return value.index
            if isinstance(value, str) and value in sym.members:     # the member of that exact name first
                return sym.members.index(value)
            if isinstance(value, str) and given:    # `On` for on, when no other member reads alike
                alike = [i for i, m in enumerate(sym.members) if m.lower() == value.lower()]
                if len(alike) == 1:
                    return alike[0]
            if isinstance(value, int) and not isinstance(value, bool) and given and 0 <= value < len(sym.members):
                return value
            hint = did_you_mean(str(value), sym.members)
            if isinstance(value, bool) and given:   # YAML reads a bare on/off/yes/no as a bool: the member so named
                words = ("on", "yes", "true") if value else ("off", "no", "false")
                named = [i for i, m in enumerate(sym.members) if m.lower() in words]
                if len(named) == 1:
                    return named[0]
                if named:       # a bool from the API, or YAML's reading of a word in quotes nowhere
                    which = " or ".join(sym.members[i] for i in named)
                    hint = f"{str(value).lower()} could be {which}: name the member (in YAML, in quotes: " \
                           f"{sym.name}: \"{sym.members[named[0]]}\")"
            raise self.fail("E402", f"option {sym.name} takes one of {', '.join(sym.members)}; got {_shown(value)}", span,
                            hint)
        return value

    def apply_given(self, sym: OptionSym, top: Span) -> None:
        """The value given from outside for this option, set as soon as it is declared: the defaults
        declared after it (`hand_size: int = if short then 5 else 7`, `size(players)`) read the value
        set, not its default. A bad value is reported at the declaration, which shows its type and range."""
        if sym.name in self.given:
            before = len(self.diags)
            try:
                sym.value = self.option_value(sym, self.given[sym.name], sym.span if sym.span.line > 0 else top,
                                              given=True)
            except Abort:
                sym.refused = True
            for d in self.diags[before:]:      # about this given value: a caller may show where it came from
                d.subject = sym.name
        if sym.name == "players":
            self.n_players = sym.value

    def unknown_given_options(self, top: Span) -> None:
        """Options given from outside that the ruleset does not have, reported at its header."""
        for k in self.given:
            if k not in self.options:
                before = len(self.diags)
                self.err("E401", f"unknown option {k!r}", top, did_you_mean(str(k), self.options) or
                         "options: " + ", ".join(self.options))
                for d in self.diags[before:]:
                    d.subject = str(k)

    # -------------------------------------------------------------- constants
    def const(self, e: A.Expr, env: dict[str, Any] | None) -> Any:
        """Evaluate an expression fixed before the game starts (options, literals, enum members)."""
        env = env or {}
        if isinstance(e, A.Lit):
            return e.value
        if isinstance(e, A.Name):
            if e.name in env:
                return env[e.name]
            if e.name in self.options and e.name in self.globals and self.globals[e.name] is self.options[e.name]:
                o = self.options[e.name]
                o.used = True
                if o.type.kind == "enum":
                    return MemberRef(self.enums[o.type.name or ""], o.value)  # type: ignore[arg-type]
                return o.value
            if e.name == "players":
                return [Seat(p) for p in range(self.n_players)]
            refs = self.members.get(e.name)
            if refs and len(refs) == 1:
                refs[0].enum.used = True
                return refs[0]
            if refs:
                raise self.fail("E101", f"{e.name} is a member of several enums: say which",
                                e.span, " or ".join(f"{r.enum.name}.{e.name}" for r in refs))
            if isinstance(en := self.globals.get(e.name), EnumSym):     # `for h in Hue`: its members, in order
                en.used = True
                return [MemberRef(en, i) for i in range(len(en.members))]
            declared = {getattr(d, "name", None) for d in self.src.decls}      # also those declared later
            if e.name not in self.globals and e.name not in declared and not refs:     # no such name at all
                known = [*env, *self.options, *self.members]
                raise self.fail("E101", f"unknown name {e.name}", e.span,
                                did_you_mean(e.name, known) or "fixed values use literals, options, enum members "
                                "and the deck's loop variables")
            raise self.fail("E201", f"{e.name} is not known before the game starts", e.span, self.fixed_hint)
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name in self.enums:
            en = self.enums[e.obj.name]
            if e.name in en.members:
                return MemberRef(en, en.members.index(e.name))
            raise self.fail("E103", f"{en.name} has no member {e.name}", e.span, did_you_mean(e.name, en.members))
        if isinstance(e, A.Unary):
            v = self.const(e.operand, env)
            if e.op != "not" and (isinstance(v, bool) or not isinstance(v, int | float)):
                raise self.fail("E201", f"- takes a number, not {_const_type(v)}", e.span)
            return (not v) if e.op == "not" else -v
        if isinstance(e, A.Binary):
            a, b = self.const(e.left, env), self.const(e.right, env)
            if e.op == ".." and isinstance(a, int) and isinstance(b, int) and b - a >= MAX_FIXED_RANGE:
                raise self.fail("E201", f"the range {a}..{b} is too long for a fixed value "
                                f"(at most {MAX_FIXED_RANGE} numbers)", e.span)
            try:
                value = _const_binop(e.op, a, b)
                if isinstance(value, float) and not math.isfinite(value):
                    raise OverflowError
                return value
            except OverflowError:
                raise self.fail("E201", "a number out of range: the result would be infinite or undefined "
                                "(numbers reach about 1.8e308)", e.span) from None
            except TypeError:
                hint = "players is the list of players; their number is size(players)" \
                    if any(isinstance(x, A.Name) and x.name == "players" for x in (e.left, e.right)) else None
                raise self.fail("E201", f"cannot apply {e.op} to {_const_type(a)} and {_const_type(b)}", e.span,
                                hint) from None
            except ZeroDivisionError:
                raise self.fail("E201", "division by zero", e.span) from None
        if isinstance(e, A.Format):      # "{s}{r}": a text of fixed values (a card attribute in a deck)
            return "".join(x if isinstance(x, str) else _const_text(self.const(x, env)) for x in e.parts)
        if isinstance(e, A.IfExpr):
            return self.const(e.then if self.const(e.cond, env) else e.other, env)
        if isinstance(e, A.ListLit):
            return [self.const(x, env) for x in e.items]
        if isinstance(e, A.TupleLit):
            return tuple(self.const(x, env) for x in e.items)
        if isinstance(e, A.Index) and len(e.args) == 1:
            seq, i = self.const(e.obj, env), self.const(e.args[0], env)
            if not isinstance(seq, list | tuple) or isinstance(i, bool) or not isinstance(i, int):
                raise self.fail("E201", f"cannot index {_const_type(seq)} by {_const_type(i)}", e.span)
            if not -len(seq) <= i < len(seq):
                raise self.fail("E201", f"index {i} is outside 0..{len(seq) - 1}", e.span)
            return seq[i]
        if isinstance(e, A.Slice):
            seq = self.const(e.obj, env)
            lo, hi = (None if b is None else self.const(b, env) for b in (e.lo, e.hi))
            if not isinstance(seq, list | tuple) or any(isinstance(b, bool) or not isinstance(b, int | None)
                                                         for b in (lo, hi)):
                raise self.fail("E201", f"cannot cut a part of {_const_type(seq)} by {_const_type(lo)} and "
                                f"{_const_type(hi)}", e.span)
            return seq[lo:hi]
        if isinstance(e, A.Call) and e.func == "index_of" and len(e.args) == 2 and not e.kwargs:
            seq, x = self.const(e.args[0], env), self.const(e.args[1], env)     # a table per member of an enum
            if not isinstance(seq, list | tuple):
                raise self.fail("E201", f"index_of takes a list, not {_const_type(seq)}", e.args[0].span)
            return next((i for i, v in enumerate(seq) if _const_binop("==", v, x)), -1)
        if isinstance(e, A.Call) and e.func in ("min", "max") and len(e.args) == 2 and not e.kwargs:
            return self.const(A.Call(span=e.span, func=e.func, args=[A.ListLit(span=e.span, items=e.args)]), env)
        if isinstance(e, A.Call) and e.func in _CONST_CALLS and len(e.args) == 1 and not e.kwargs:
            v = self.const(e.args[0], env)
            try:
                value = _CONST_CALLS[e.func](v)
                if isinstance(value, float) and not math.isfinite(value):     # sum of huge numbers
                    raise OverflowError
                return value
            except OverflowError:
                raise self.fail("E201", "a number out of range: the result would be infinite or undefined "
                                "(numbers reach about 1.8e308)", e.span) from None
            except (TypeError, ValueError):
                raise self.fail("E201", f"{e.func} cannot take {_const_type(v)}", e.span) from None
        if isinstance(e, A.Call) and not e.kwargs and (fn := self.fn_decls.get(e.func)) is not None \
                and len(e.args) <= len(fn.params):
            # a function of fixed values (`fn n_tasks() -> int = [1, 2, 2][mission - 1]`): its body, by the
            # same rules, with its parameters bound — a mistake there is reported in the function
            if self.fixed_calls >= 50:
                raise Abort     # it calls itself: E307 says so
            params = fn.params
            if any(q.default is None for q in params[len(e.args):]):
                raise self.fail("E201", f"{e.func} takes {len(params)} argument(s)", e.span)
            bound = {q.name: self.const(a, env) for q, a in zip(params, e.args, strict=False)}
            bound.update({q.name: self.const(q.default, None) for q in params[len(e.args):] if q.default})
            self.fixed_calls += 1
            self.fixed_fn_uses.add(e.func)          # used (W101), also before the fns are declared
            if isinstance(fsym := self.globals.get(e.func), FnSym):
                fsym.used = True
            try:
                return self.const(fn.body, bound)
            finally:
                self.fixed_calls -= 1
        raise self.fail("E201", "this must be a fixed value (literal, option, enum member or enum; lists, tuples "
                        "and size/min/max/sum/abs/floor/ceil/round/index_of of those, and functions of them)", e.span)

    # -------------------------------------------------------------- zones and cards
    def grid_side(self, e: A.Expr | None) -> int:
        """A grid's width or height: a fixed whole number (1 after a reported mistake)."""
        assert e is not None            # the grammar gives a grid both
        try:
            v = self.const(e, None)
        except Abort:
            return 1
        if isinstance(v, bool) or not isinstance(v, int):
            self.err("E201", f"a grid's size is a whole number, not {_const_type(v)}", e.span)
            return 1
        return v

    def in_game(self, e: A.Expr, what: str = "zone") -> bool:
        """A zone's or variable's `if`: a fixed condition (true after a reported mistake, so nothing is hidden)."""
        hint, self.fixed_hint = self.fixed_hint, (f"a {what}'s `if` is fixed before the game starts: it uses "
                                                  "literals, options, enum members and size(players)" +
                                                  ("; or it names a public bool variable, the whole of it "
                                                   "(if has_bid, if not bidding): shown while it is true"
                                                   if what == "variable" else ""))
        try:
            v = self.const(e, None)
        except Abort:
            return True
        finally:
            self.fixed_hint = hint
        if not isinstance(v, bool):
            self.err("E201", f"a {what}'s `if` is a condition (true or false), not {_const_type(v)}", e.span)
            return True
        return v

    def zones_decl(self, decls: list[A.ZoneDecl]) -> None:
        slot = 0
        seq = 0
        for i, d in enumerate(decls):
            z = ZoneSym(d.name, d.span, decl=d, index=i)
            self.declare(d.name, z, d.span)
            if d.visibility == "back":
                self.err("E309", "a zone is public, hidden, owner or others; `back` is for per-card variables",
                         d.span)
            if d.sorted and d.kind not in ("pile", "hand"):
                self.err("E309", f"a {d.kind}'s cards show where they lie; `sorted` is for piles and hands", d.span)
            if d.top_up and (d.kind != "pile" or d.sorted):
                self.err("E309", "`top up` is for a pile, whose top card it turns face up (not sorted)", d.span,
                         "a hand shows sorted to its owner, so its top card is not to be told apart: use a pile"
                         if d.kind == "hand" else None)
            if d.transient and d.kind not in ("pile", "hand"):
                self.err("E309", f"`transient` is for piles and hands, which screens leave out while empty; "
                                 f"a {d.kind} keeps its place", d.span)
            if d.in_game is not None:
                z.in_game = self.in_game(d.in_game)
            if d.kind == "grid":
                if d.per_player:
                    self.err("E309", "a grid is shared; declare one grid and give squares owners", d.span)
                z.width, z.height = (self.grid_side(e) for e in (d.width, d.height))
                if z.width < 1 or z.height < 1:
                    self.err("E309", "a grid needs a size of at least 1 × 1", d.span)
                z.count = max(z.width, 1) * max(z.height, 1)
            elif d.per_player:
                z.count = self.n_players
            if d.kind == "sequence":
                z.seq_base = seq
                seq += z.count
            else:
                z.base = slot
                slot += z.count
            self.zones.append(z)

    def deck_data(self, decls: list[A.CardsDecl]) -> DeckData | None:
        """Built-in deck templates are expanded early so their enums (Suit, Colour) are known."""
        if not decls or decls[-1].template is None:
            return None
        d = decls[-1]
        tmpl = TEMPLATES.get(d.template or "")
        if tmpl is None:
            self.err("E101", f"unknown deck template {d.template}", d.span,
                     did_you_mean(d.template or "", TEMPLATES) or "templates: " + ", ".join(TEMPLATES))
            return None
        fn, params = tmpl
        kwargs: dict[str, Any] = {}
        for a in d.args:
            if not isinstance(a, A.KwArg):
                self.err("E207", "deck template arguments are named: standard(jokers = 2)", a.span)
                continue
            if a.name not in params:
                self.err("E207", f"{d.template} has no argument {a.name}", a.span, did_you_mean(a.name, params))
                continue
            if a.name in kwargs:
                self.err("E207", f"{a.name} is given twice", a.span)
                continue
            kwargs[a.name] = a.value
        self._deck_args = kwargs
        data = fn()   # enums only; evaluated again with argument values once options are known
        for en, members in data.enums.items():
            self.enum_decl(en, members, d.span).used = True
        return data

    def template_size(self, d: A.CardsDecl) -> int | None:
        """How many cards a template's `cards` line makes under the options chosen (a base's, that a
        variant replaced: E108 when the base reads past the variant's deck); None for a custom deck."""
        tmpl = TEMPLATES.get(d.template or "")
        if tmpl is None:
            return None
        fn, params = tmpl
        try:
            return len(fn(**{a.name: self.const(a.value, None) for a in d.args
                             if isinstance(a, A.KwArg) and a.name in params}).names)
        except (Abort, TypeError, ValueError):
            return None

    def cards_decl(self, decls: list[A.CardsDecl], deck: DeckData | None, top: Span) -> None:
        names: list[str] = []
        attrs: dict[str, list[Any]] = {}
        attr_types: dict[str, T.T] = {}
        aliases: dict[str, str] = {}
        face_labels: dict[str, tuple[str, str]] = {}     # a template's labels (its further decks' copies)
        copy_attrs: tuple[str, ...] = ()
        if not decls:
            self.err("E310", "the ruleset has no cards", top, "add: cards standard(jokers = 0) in DECK_ZONE")
        else:
            d = decls[-1]
            self.variant_deck = d if d.replaces is not None else None
            self.base_deck_size = self.template_size(d.replaces) if d.replaces is not None else None
            before = len(self.diags)
            if d.template is not None and deck is not None:
                fn, params = TEMPLATES[d.template]
                kwargs = {}
                for k, v in getattr(self, "_deck_args", {}).items():
                    least, most, many = params[k]
                    try:
                        kwargs[k] = self.const(v, None)
                        values = kwargs[k] if many and isinstance(kwargs[k], list) else [kwargs[k]]
                        if (many and (not isinstance(kwargs[k], list) or not values)) \
                                or any(isinstance(x, bool) or not isinstance(x, int) or not least <= x <= most
                                       for x in values):
                            read = sorted({x.name for x in A.walk(v) if isinstance(x, A.Name) and x.name in self.options})
                            given = "" if not read else " (" + ", ".join(
                                f"option {o} = {self.options[o].value!r}" for o in read) + ")"
                            what = f"a list of whole numbers from {least} to {most}" if many else \
                                f"a whole number from {least} to {most}"
                            if many and isinstance(kwargs[k], list) and not kwargs[k]:
                                what = "a list of whole numbers from 1 to 13, not an empty one"
                            self.err("E201", f"{k} must be {what}{given}", v.span,
                                     "ranks = [1] + (6..13) (A, 6 to K)" if many else None)
                            kwargs[k] = None if many else least
                    except Abort:
                        kwargs[k] = None if many else least
                data = fn(**kwargs)
                names = data.names
                aliases = data.aliases
                face_labels = {n: (t, t) for n, t in data.labels.items()}
                copy_attrs = data.copy_attrs
                if kwargs.get("ranks") is not None:     # the ranks stripped: left out, not unknown
                    full = fn(**{**kwargs, "ranks": None})
                    kept = set(names) | set(aliases)
                    self.absent_cards.update({n: (full.aliases.get(n, n),) * 2 for n in [*full.names, *full.aliases]
                                              if n not in kept})
                for a, vals in data.attrs.items():
                    tname = data.attr_types[a]
                    if tname in self.enums:
                        en = self.enums[tname]
                        attr_types[a] = en.type
                        attrs[a] = [None if v is None else en.members.index(v) for v in vals]
                    else:
                        attr_types[a] = T.BASIC[tname]
                        attrs[a] = list(vals)
            elif d.template is None:
                defaults: dict[str, Any] = {}
                self.card_items(d.items, {}, names, attrs, attr_types, defaults)
                aliases = ascii_aliases(names)
            if d.template is None and not names and len(self.diags) == before:  # not after the deck's errors
                self.err("E310", "the deck has no cards", d.span)
            dup = {n for n in names if names.count(n) > 1}
            if dup:
                self.err("E102", f"card names must be unique: {', '.join(sorted(dup))}", d.span)
        start = None
        if decls and decls[-1].zone is not None:
            d = decls[-1]
            start = self.start_zone(d.zone or "", d.zone_span or d.span)
        elif self.zones:
            start = next((z for z in self.zones if not z.per_player and z.kind in ("pile", "hand")), None)
            if start is not None:
                start.used = True
            if start is None and decls:
                self.err("E203", "no shared pile for the cards to start in", decls[-1].span,
                         "declare one and write: cards … in ZONE")
        elif decls:
            self.err("E203", "no zone for the cards to start in", decls[-1].span)
        for a in attr_types:
            if a in ("name",):
                self.err("E110", "name is a built-in card attribute", decls[-1].span)
        homes = None
        if self.card_homes and start is not None:
            ins = {id(n): n for n in self.card_homes.values()}
            zone_of = {k: self.start_zone(n.zone, n.zone_span) or start for k, n in ins.items()}
            homes = [zone_of[id(self.card_homes[i])] if i in self.card_homes else start for i in range(len(names))]
        self.cards = Cards(names, attrs, attr_types, aliases, start, {**face_labels, **self.card_labels}, homes,
                           self.absent_cards, copy_attrs)
        self.warn_unclear_labels(names, attrs)
        if decls:
            self.warn_seat_like_cards(names, decls[-1].span)

    def warn_seat_like_cards(self, names: list[str], deck: Span) -> None:
        """W109: a card named or labelled as a seat is read (`P1`, or a seat's name, `North`, in any
        case): an action typed with it, a scenario's `P1: play P1`, a text's `{c}` beside `{p}` would
        read as either."""
        seat_id = re.compile(r"P[0-9]+", re.IGNORECASE)
        seats = {h.strip().lower(): f"P{i} ({en})" for i, (en, ja) in enumerate(self.seat_names or [])
                 for h in (en, ja)}
        for name in names:
            for text in dict.fromkeys([name, *self.card_labels.get(name, ())]):
                read = unicodedata.normalize("NFKC", text.strip())
                seat = f"P{int(read[1:])}" if seat_id.fullmatch(read) else seats.get(read.lower())
                if seat is not None:
                    what = "named" if text == name else "labelled"
                    self.warn("W109", f"card {name} is {what} {text!r}, which reads as seat {seat}: an action, a "
                              "scenario or a log naming it would read as either",
                              self.card_spans.get(name, deck) if what == "named" else self.label_spans[name],
                              "name (and label) cards by words no seat is called: P0, P1, … and the seats' names "
                              "are the players'")
                    break

    def start_zone(self, name: str, span: Span) -> ZoneSym | None:
        """The zone cards start in (the deck's `in ZONE`, or an `in ZONE { … }` inside it): a shared
        pile or hand; None after an error."""
        z = self.globals.get(name)
        if not isinstance(z, ZoneSym):
            self.err("E101", f"unknown zone {name}", span, did_you_mean(name, [x.name for x in self.zones]))
            return None
        if z.per_player or z.kind in ("grid", "sequence"):
            self.err("E203", f"cards start in one shared zone; {z.name} is not one", span)
            return None
        z.used = True
        return z

    def warn_unclear_labels(self, names: list[str], attrs: dict[str, list[Any]]) -> None:
        """W105: a card's label is how players read and type it, so it must tell that card apart: not
        blank, not another card's label or name — but for identical copies (every attribute the same:
        Love Letter's five Guards), which nobody needs to tell apart."""
        taken: dict[str, tuple[str, str]] = {n.lower(): (n, "named") for n in names}
        index = {n: i for i, n in enumerate(names)}

        def copies(a: str, b: str) -> bool:
            return all(vals[index[a]] == vals[index[b]] for vals in attrs.values())
        for name, halves in self.card_labels.items():
            for text in dict.fromkeys(halves):
                other = taken.get(text.lower())
                if not text.strip():
                    self.warn("W105", f"card {name} has a blank label: players would read nothing",
                              self.label_spans[name])
                elif other is not None and other[0] != name and not (other[1] == "labelled" and copies(name, other[0])):
                    self.warn("W105", f"card {name} is labelled {text!r}, and card {other[0]} is {other[1]} so: "
                              "players could not tell them apart", self.label_spans[name],
                              "give each card a label of its own")
                else:
                    taken[text.lower()] = (name, "labelled")

    def card_items(self, items: list[Any], env: dict[str, Any], names: list[str], attrs: dict[str, list[Any]],
                   attr_types: dict[str, T.T], defaults: dict[str, Any]) -> None:
        for it in items:
            try:
                if isinstance(it, A.CardAttrDecl):
                    if it.name in attr_types:
                        raise self.fail("E102", f"card attribute {it.name} is declared twice", it.span)
                    attr_types[it.name] = self.type_ref(it.type)
                    defaults[it.name] = None
                    attrs[it.name] = [None] * len(names)     # declared even if its default is wrong
                    if it.default is not None:
                        v = self.const(it.default, env)
                        vt = _const_type(v)
                        if not T.assignable(vt, attr_types[it.name]):
                            raise self.fail("E201", f"attribute {it.name} is {attr_types[it.name]}, not {vt}",
                                            it.default.span)
                        defaults[it.name] = self.run_value(v)
                        attrs[it.name] = [defaults[it.name]] * len(names)
                elif isinstance(it, A.CardDef):
                    name = self.fixed_text(it.name.parts[0], env)
                    if len(it.name.parts) > 1 or " | " in name:     # its second half was dropped unsaid
                        raise self.fail("E309", f"a card's name is its id, one text in every language: "
                                                f"{' | '.join(self.fixed_text(h, env) for h in it.name.parts)!r} "
                                                "holds two", it.name.span,
                                        "the label says it in each language: card \"apple\" \"Apple | りんご\"")
                    if name in names:       # each time its own message: a loop's ten are counted as such
                        times = self.card_repeats[name] = self.card_repeats.get(name, 1) + 1
                        raise self.fail("E102", f"card {name} is declared " + ("twice" if times == 2 else
                                                                                 f"{times} times"),
                                        it.span, "card names must be unique")
                    names.append(name)
                    self.card_spans.setdefault(name, it.span)
                    if it.label is not None:
                        parts = it.label.parts
                        # a text value that holds both halves ("Apple | りんご") gives each language its own
                        halves = (self.fixed_text(parts[0], env, 0).split(" | ")[0],
                                  self.fixed_text(parts[-1], env, 1).split(" | ")[-1])
                        self.card_labels[name] = halves
                        self.label_spans[name] = it.label.span
                    for a in attrs:
                        attrs[a].append(defaults[a])
                    for f in it.fields:
                        if f.name not in attr_types:
                            raise self.fail("E103", f"unknown card attribute {f.name}", f.span,
                                            did_you_mean(f.name, attr_types) or "declare it: attr NAME: TYPE")
                        v = self.const(f.value, env)
                        vt = _const_type(v)
                        if not T.assignable(vt, attr_types[f.name]):
                            raise self.fail("E201", f"attribute {f.name} is {attr_types[f.name]}, not {vt}", f.span)
                        attrs[f.name][-1] = self.run_value(v)
                elif isinstance(it, A.CardFor):
                    src = self.const(it.source, env)
                    if not isinstance(src, list | tuple | range):
                        raise self.fail("E201", "for in a deck runs over a list or a range", it.source.span)
                    for v in src:
                        self.card_items(it.items, {**env, it.var: v}, names, attrs, attr_types, defaults)
                    if not src:
                        self.options_read(it.items)
                elif isinstance(it, A.CardIf):
                    taken = bool(self.const(it.cond, env))
                    self.card_items(it.items if taken else it.other, env, names, attrs, attr_types, defaults)
                    self.options_read(it.other if taken else it.items)
                    self.left_out(it.other if taken else it.items, env, attr_types, defaults)
                elif isinstance(it, A.CardIn):
                    first = len(names)
                    self.card_items(it.items, env, names, attrs, attr_types, defaults)
                    for i in range(first, len(names)):      # an inner `in` has placed its own already
                        self.card_homes.setdefault(i, it)
            except Abort:
                pass

    def left_out(self, items: list[Any], env: dict[str, Any], attr_types: dict[str, T.T],
                 defaults: dict[str, Any]) -> None:
        """The cards of a part of the deck these option values leave out (a `cards { if … }` not
        taken), worked out as the deck is (its loops at these values) and kept by name with their
        labels (Cards.absent); what working them out would report or record is left as it was."""
        kept = (list(self.diags), list(self.warnings), dict(self.card_labels), dict(self.card_repeats),
                dict(self.card_homes), dict(self.label_spans), dict(self.card_spans))
        names: list[str] = []
        try:
            self.card_items(items, env, names, {a: [] for a in attr_types}, dict(attr_types), dict(defaults))
        except Exception:       # a part these options never build may not build with them
            pass
        finally:
            for n in names:
                self.absent_cards.setdefault(n, self.card_labels.get(n, (n, n)))
            (self.diags[:], self.warnings[:], self.card_labels, self.card_repeats, self.card_homes, self.label_spans,
             self.card_spans) = kept

    def options_read(self, items: list[Any]) -> None:
        """Options read in a part of the deck these option values leave out are used all the same
        (W101 would depend on the other options' defaults)."""
        for n in A.walk(items):
            if isinstance(n, A.Name) and n.name in self.options:
                self.options[n.name].used = True

    def fixed_text(self, parts: list[Any], env: dict[str, Any], lang: int | None = None) -> str:
        """One language of a deck's text (a card's name; a label's half ``lang``), its {…} parts
        worked out now."""
        return "".join(p if isinstance(p, str) else _const_text(self.const(p, env), lang) for p in parts)

    def run_value(self, v: Any) -> Any:
        if isinstance(v, MemberRef):
            return v.index
        if isinstance(v, list | tuple):
            return tuple(self.run_value(x) for x in v)
        return v

    # -------------------------------------------------------------- variables
    def vars_decl(self, decls: list[A.VarDecl]) -> None:
        n = self.n_players
        # built-ins: current, direction, then per player: out, place, score, outcome
        self.builtin_slots = {"current": 0, "direction": 1, "out": 2, "place": 2 + n, "score": 2 + 2 * n,
                              "outcome": 2 + 3 * n}
        slot = 2 + 4 * n
        builtin = [
            VarSym("current", Span("<builtin>", 0, 0, 0, 0), type=T.PLAYER, slot=0, used=True),
            VarSym("direction", Span("<builtin>", 0, 0, 0, 0), type=T.INT, slot=1, init=1, used=True),
            VarSym("out", Span("<builtin>", 0, 0, 0, 0), type=T.BOOL, scope="player", slot=2, init=False,
                   readonly=True, used=True),
            VarSym("place", Span("<builtin>", 0, 0, 0, 0), type=T.INT, scope="player", slot=2 + n, init=0,
                   readonly=True, used=True),
            VarSym("score", Span("<builtin>", 0, 0, 0, 0), type=T.NUMBER, scope="player", slot=2 + 2 * n, init=0,
                   used=True),
        ]
        for b in builtin:
            self.globals[b.name] = b
        self.vars.extend(builtin)
        ncards = len(self.cards.names) if self.cards else 0
        names = {d.name for d in decls}
        for d in decls:
            sym = VarSym(d.name, d.span, decl=d, scope=d.scope, visibility=d.visibility)
            self.declare(d.name, sym, d.span)
            if d.in_game is not None and _flag_named(d.in_game, names) is None:
                sym.in_game = self.in_game(d.in_game, "variable")
            try:
                v = self.const(d.init, None)
                vt = _const_type(v)
                if d.type is not None:
                    sym.type = self.type_ref(d.type)
                    if not T.assignable(vt, sym.type):
                        raise self.fail("E201", f"{d.name} is {sym.type}; its initial value is {vt}", d.init.span)
                    if sym.type == T.NUMBER and isinstance(v, int) and abs(v) > sys.float_info.max:
                        raise self.fail("E201", "a number out of range: the result would be infinite or undefined "
                                        "(numbers reach about 1.8e308)", d.init.span)
                else:
                    if vt.kind in ("none", "any") or (vt.kind == "list" and vt.elem == T.ANY):
                        raise self.fail("E201", f"give {d.name} a type: its initial value does not tell", d.init.span,
                                        f"var {d.name}: card = none")
                    sym.type = vt
                sym.init = self.run_value(v)
            except Abort:
                pass
            if d.visibility == "others":
                self.err("E309", "a variable is public, hidden, owner or (per card) back", d.span)
            if d.visibility == "back" and d.scope != "card":
                self.err("E309", "only a per-card variable is written on a card's back", d.span,
                         "back: everyone sees the value wherever the card lies, also face down")
            if d.role and (d.scope != "global" or sym.type != T.PLAYER):
                self.err("E309", "a role is one global player variable: who plays that part", d.span,
                         f"var {d.name}: player = none role")
            if d.carried and (d.scope == "card" or sym.type.kind not in CARRIABLE):
                self.err("E309", "a carried variable is one value or one per player, of a type that stays "
                         "the same from game to game (int, number, bool, text, player or an enum)", d.span,
                         "cards and lists may differ in the next game (its options may change the deck)")
            if d.visibility == "owner" and d.scope != "player":
                self.err("E309", "only a per-player variable can be seen by its owner alone", d.span,
                         "use hidden, and reveal it when the rules say so")
            sym.slot = slot
            slot += {"global": 1, "player": n, "card": ncards}[d.scope]
            self.vars.append(sym)
        self._g_size = slot
        for d in decls:
            if d.in_game is not None and (flag := _flag_named(d.in_game, names)) is not None \
                    and isinstance(vs := self.globals.get(d.name), VarSym) and vs.decl is d:
                self.shown_while(vs, *flag)

    def shown_while(self, sym: VarSym, name: A.Name, negated: bool) -> None:
        """`var bid: int per player = 0 "Bid" if has_bid`: left off views while a public bool variable
        is false (entry by entry for a per-player one): whether it is shown tells only what everyone sees."""
        flag = self.globals.get(name.name)
        if sym.scope == "card" or isinstance(flag, VarSym) and flag.scope == "card":
            which = sym.name if sym.scope == "card" else name.name
            self.err("E201", f"{which} is per card: a variable's `if` names a bool variable of the whole table or "
                     "per player", name.span, "a per-card variable's `if` is fixed by the options"
                     if sym.scope == "card" else f"a bool variable of the whole table says when {sym.name} is shown")
            return
        if not isinstance(flag, VarSym) or flag.type != T.BOOL:
            self.err("E201", f"a variable's `if` is fixed by the options, or names a bool variable; {name.name} "
                     "is not one", name.span, f"var shown_{sym.name}: bool = false, set by the rules, then "
                     f"`if shown_{sym.name}`")
            return
        if flag.visibility != "public":
            self.err("E201", f"{name.name} is {flag.visibility}: whether {sym.name} is shown would tell it",
                     name.span, f"a public bool variable says when {sym.name} is shown")
            return
        if flag.scope == "player" and sym.scope != "player":
            self.err("E201", f"{name.name} is per player, {sym.name} is not: say which player's it follows",
                     name.span, f"a bool variable of the whole table, or per player for a per-player {sym.name}")
            return
        flag.used = True
        sym.shown_by, sym.shown_unless = flag, negated

    def type_ref(self, t: A.TypeRef) -> T.T:
        if t.name == "list":
            return T.list_of(self.type_ref(t.of) if t.of else T.ANY)
        if t.name in T.BASIC:
            return T.BASIC[t.name]
        if t.name in self.enums:
            self.enums[t.name].used = True
            return self.enums[t.name].type
        raise self.fail("E101", f"unknown type {t.name}", t.span,
                        did_you_mean(t.name, [*T.BASIC, *self.enums]))

    def plain_label(self, label: A.Text, what: str,
                    hint: str = "write the values where they are said during the game: a log, a prompt, "
                                "a choice's option") -> None:
        """A declaration's label names a thing once for all: plain text, no `{…}` values in it."""
        if any(not isinstance(x, str) for half in label.parts for x in half):
            self.err("E309", f"{what} is plain text: it cannot show values", label.span,
                     f"{hint}; `{{{{` and `}}}}` write the braces themselves")

    def fixed_labels(self, decls: list[A.Decl]) -> None:
        """The labels that name a declaration (printed as written, a `{…}` as "{…}") hold no values."""
        for d in decls:
            if isinstance(d, A.RulesetDecl) and d.title is not None:
                self.plain_label(d.title, "the ruleset's title")
            elif isinstance(d, A.RequireDecl):     # said before any game, with the options' values after it
                self.plain_label(d.text, "a require's message",
                                 "the refusal names the options the condition read, with their values")
            elif isinstance(d, A.ZoneDecl | A.VarDecl | A.PhaseDecl | A.EffectDecl | A.CheckDecl | A.OptionDecl) \
                    and d.label is not None:
                self.plain_label(d.label, f"the label of {d.name}")
            members = d.members if isinstance(d, A.EnumDecl) else \
                d.type.members if isinstance(d, A.OptionDecl) and d.type is not None else []
            for m in members:
                if m.label is not None:
                    self.plain_label(m.label, f"the label of {m.name}")

    def params(self, ps: list[A.Param], proc: Proc | None, into: list[LocalSym], labelled: bool = False) -> None:
        """``labelled``: an effect's parameters, which may carry labels (the stack item's fields on screens)."""
        seen: set[str] = set()
        for p in ps:
            if p.label is not None and not labelled:
                self.err("E309", f"parameter {p.name} has a label, but only an effect's parameters have labels",
                         p.label.span, "an effect's parameters are fields of its stack item, which screens show")
            if p.name in seen:
                self.err("E102", f"parameter {p.name} is declared twice", p.span)
            seen.add(p.name)
            self.no_shadow(p.name, p.span)
            try:
                ty = self.type_ref(p.type)
            except Abort:
                ty = T.ANY
            if p.default is not None:
                try:
                    dt = _const_type(self.const(p.default, None))
                    if not T.assignable(dt, ty):
                        self.err("E201", f"{p.name} is {ty}; its default is {dt}", p.default.span)
                except Abort:
                    pass
            if proc is not None:
                into.append(proc.new_local(p.name, ty, p.span))
            else:
                into.append(LocalSym(p.name, p.span, type=ty, slot=len(into)))

    def no_shadow(self, name: str, span: Span) -> None:
        self.keyword_name(name, span)
        if name in self.globals or name in RESERVED:
            prev = self.globals.get(name)
            where = f" (declared at {prev.span})" if isinstance(prev, Sym) and prev.span.line else ""
            self.err("E109", f"{name} hides the global {name}{where}", span, "choose another name")

    def members_named_like_enums(self, enums: list[A.EnumDecl], options: list[A.OptionDecl]) -> None:
        """E102: an enum's member named like an enum (its own or another) takes the bare name, which
        then reads as the member, not the list of the enum's members (`size(Mode)`, `for m in Mode`
        failing — in a variant, at the base's lines). A member named like a var, an option or a fn is
        allowed: the var or option keeps the bare name (`Mode.hint` is the member), a fn is called."""
        lists = [e.members for e in enums] + [o.type.members for o in options
                                              if o.type is not None and o.type.kind == "enum"]
        for members in lists:
            for m in members:
                prev = self.globals.get(m.name)
                if isinstance(prev, EnumSym) and m.name in self.enums:
                    self.err("E102", f"a member named like enum {m.name}: {m.name} would read as the member, not "
                             f"the list of {m.name}'s members", m.span,
                             f"name the member otherwise; enum {m.name} is declared at {prev.span}")

    # -------------------------------------------------------------- signatures
    def not_builtin(self, kind: str, name: str, span: Span) -> None:
        """E102: a fn or rule named as a built-in function would replace it unseen (a built-in added
        later included), while the checks would still reason about the built-in."""
        from ..builtins import BUILTINS

        if name in BUILTINS:
            self.err("E102", f"{kind} {name} has the name of a built-in function ({BUILTINS[name].usage})", span,
                     f"give the {kind} another name")

    def fn_signature(self, d: A.FnDecl) -> None:
        self.not_builtin("fn", d.name, d.span)
        sym = FnSym(d.name, d.span, decl=d, used=d.name in self.fixed_fn_uses)
        self.declare(d.name, sym, d.span)
        self.fns[d.name] = sym
        self.params(d.params, None, sym.params)
        sym.locals = list(sym.params)
        if d.ret is not None:
            try:
                sym.ret = self.type_ref(d.ret)
            except Abort:
                sym.ret = T.ANY

    def rule_signature(self, d: A.RuleDecl) -> None:
        self.not_builtin("rule", d.name, d.span)
        sym = RuleSym(d.name, d.span, decl=d)
        self.declare(d.name, sym, d.span)
        self.rules[d.name] = sym
        proc = self.new_proc("rule", d.name, d.span, d.body)
        self.params(d.params, proc, proc.params)
        if d.ret is not None:
            try:
                proc.ret = self.type_ref(d.ret)
            except Abort:
                proc.ret = T.ANY
        sym.proc = proc

    def effect_signature(self, d: A.EffectDecl) -> None:
        sym = EffectSym(d.name, d.span, decl=d, index=len(self.effects))
        self.declare(d.name, sym, d.span)
        self.effects.append(sym)
        proc = self.new_proc("effect", d.name, d.span, d.body)
        for n, ty in (("item", T.ITEM), ("controller", T.PLAYER), ("source", T.CARD), ("times", T.INT)):
            proc.params.append(proc.new_local(n, ty, d.span, readonly=True))
        self.params(d.params, proc, proc.params, labelled=True)
        for p in proc.params[len(EFFECT_LOCALS):]:
            if p.name in EFFECT_LOCALS or p.name in ITEM_FIELDS:
                self.err("E110", f"{p.name} is a built-in field of every effect", p.span)
            sym.params.append((p.name, p.type))
            if p.name in self.item_fields:
                idx, ty = self.item_fields[p.name]
                if not (T.assignable(p.type, ty) and T.assignable(ty, p.type)):
                    self.err("E201", f"parameter {p.name} is {ty} in another effect; here it is {p.type}", p.span,
                             "effects share field names: give it another name or the same type")
            else:
                self.item_fields[p.name] = (len(self.item_fields), p.type)
        for prm in d.params:
            if prm.label is not None:
                self.plain_label(prm.label, f"the label of {prm.name}")
                if not text_plain(prm.label).strip():
                    self.err("E309", f"the label of {prm.name} is empty", prm.label.span,
                             "leave the label out for a field the screens need not show")
                self.item_field_labels.setdefault(prm.name, prm.label)
        sym.proc = proc

    def ordering_signature(self, d: A.OrderingDecl) -> None:
        sym = OrderingSym(d.name, d.span, decl=d)
        self.declare(d.name, sym, d.span)
        self.orderings[d.name] = sym
        self.params(d.params, None, sym.params)
        sym.locals = list(sym.params)

    def window_order(self, decls: list[A.WindowsDecl]) -> list[WindowSym]:
        if not decls:
            for i, w in enumerate(self.windows.values()):
                w.index = i
            return list(self.windows.values())
        d = decls[-1]
        out: list[WindowSym] = []
        suggested: set[str] = set()
        for n, sp in zip(d.names, d.name_spans, strict=True):
            found = self.windows.get(n)
            if found is None:
                hint = did_you_mean(n, self.windows)
                self.err("E107", f"unknown window {n}", sp, hint)
                if hint:
                    suggested.update(x for x in self.windows if hint == f"did you mean {x}?")
            elif found in out:
                self.err("E102", f"window {n} is listed twice", sp)
            else:
                out.append(found)
                found.used = True
        for w in self.windows.values():
            if w not in out and w.name not in suggested:
                put = f", or put it into the base's order: windows {w.name} after {d.names[-1]}" \
                    if w.span.file != d.span.file else ""
                self.err("E107", f"window {w.name} is not in the windows order", w.span,
                         f"add it to: windows {', '.join(d.names)}{put}")
        for i, w in enumerate(out):
            w.index = i
        return out


def _widen_hint(sym: OptionSym, value: int, span: Span) -> str | None:
    """A variant's `option NAME = VALUE` past the base's range: the override that widens it (its label
    written out when it is plain text; left out, the base's is kept)."""
    d = sym.decl
    if d is None or span.file == d.span.file:
        return None
    lo = value if sym.lo is None else min(sym.lo, value)
    hi = value if sym.hi is None else max(sym.hi, value)
    label = d.label
    plain = label is not None and all(isinstance(p, str) for half in label.parts for p in half)
    said = f' "{" | ".join("".join(str(p) for p in half) for half in label.parts)}"' if label is not None and plain else ""
    return f"the base's range is {sym.lo}..{sym.hi}; to widen it, write: override option {sym.name}: int {lo}..{hi} = " \
        f"{value}{said}"


def _flag_named(e: A.Expr, variables: set[str]) -> tuple[A.Name, bool] | None:
    """A variable's `if` that names one of the ruleset's variables (`if has_bid`, `if not selling`):
    a condition of the game as it goes, not of the options; with whether it is negated."""
    if isinstance(e, A.Unary) and e.op == "not":
        inner = _flag_named(e.operand, variables)
        return (inner[0], not inner[1]) if inner is not None else None
    return (e, False) if isinstance(e, A.Name) and e.name in variables else None
