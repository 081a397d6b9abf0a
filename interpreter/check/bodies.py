"""Bodies: rules, phases, effects, windows and checks, statement by statement, with the decisions and
their options.
"""

from __future__ import annotations

import json
import re
from copy import deepcopy
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import ast as A
from .. import sugar
from .. import types as T
from ..errors import Span, a_noun, did_you_mean
from .expressions import _comparable_key, _key_shown
from .folding import _const_type
from .secrecy import (
    Secrecy,
    _set_by_choice,
    _size_public,
    _zones_read,
)
from .symbols import (
    ACTIVE_KEY,
    PLACES,
    SEAT_HINT,
    Abort,
    CheckSym,
    Ctx,
    EffectSym,
    FnSym,
    LocalSym,
    OptionSym,
    OrderingSym,
    PhaseSym,
    Proc,
    RuleSym,
    Scope,
    VarSym,
    WindowSym,
    ZoneSym,
    _defaults,
    _holds_cards,
    entry_key,
    text_plain,
)


def _loop(ctx: Ctx, offer: bool = False) -> Ctx:
    return Ctx(ctx.kind, ctx.proc, ctx.fn, ctx.pure, ctx.loop + 1, ctx.ret, ctx.may_decide, offer)


def _returns(body: list[A.Stmt]) -> bool:
    """Does every path through ``body`` end in return (or leave the game)?"""
    for s in reversed(body):
        if isinstance(s, A.Return | A.Goto | A.End | A.Win | A.Lose):
            return True
        if isinstance(s, A.If):
            return s.orelse is not None and all(_returns(b) for _, b in s.branches) and _returns(s.orelse)
        if isinstance(s, A.While) and isinstance(s.cond, A.Lit) and s.cond.value is True:
            return True
        if isinstance(s, A.Choose):
            return all(_returns(o.body) for o in s.options) and (s.otherwise is None or _returns(s.otherwise))
        return False
    return False


def _names_in(e: Any) -> set[str]:
    """The names an expression reads (to say which options a failed `require` looked at)."""
    if isinstance(e, A.Name):
        return {e.name}
    if isinstance(e, list):
        return set().union(*(_names_in(x) for x in e)) if e else set()
    if isinstance(e, A.Node):
        return set().union(*(_names_in(v) for v in vars(e).values() if isinstance(v, A.Node | list)))
    return set()


def _option_shown(o: OptionSym) -> str:
    if o.type.kind == "enum":
        return o.members[o.value] if isinstance(o.value, int) else str(o.value)
    if isinstance(o.value, bool):
        return "true" if o.value else "false"
    return str(o.value)


class Bodies(Secrecy):
    """Bodies: rules, phases, effects, windows and checks, statement by statement, with the decisions and
    their options."""

    def check_evaluate(self, d: A.EvaluateDecl) -> A.EvaluateDecl | None:
        """``evaluate FN in LO..HI after N decisions``: FN(p: player) -> a number (an int or a number),
        or a per-player variable of numbers (`evaluate score in 0..100`); LO < HI."""
        v = self.globals.get(d.fn)
        ok = True
        if isinstance(v, VarSym) and v.scope == "player" and d.fn not in self.fns:
            v.used = True
            if not T.is_numeric(v.type):
                self.err("E201", f"evaluate needs a number per player; {d.fn} holds {v.type}", d.span,
                         "a function of one player giving a number: fn standing(p: player) -> number = …")
                ok = False
        else:
            f = self.named_fn(d, "fn standing(p: player) -> number = …  (or a per-player variable of numbers)")
            if f is None:
                return None
            if len(f.params) != 1 or f.params[0].type != T.PLAYER or not T.is_numeric(f.ret):
                self.err("E201", f"evaluate needs a function of one player giving a number; {d.fn} is not", d.span,
                         "fn standing(p: player) -> number = …")
                ok = False
        try:
            low, high = (self._bound(d.lo), self._bound(d.hi))
            self.eval_range = (low, high)
            if low >= high:
                self.err("E309", f"evaluate's range {low:g}..{high:g} is empty", d.span,
                         "write the worst value first: in -10..10")
                ok = False
        except Abort:
            ok = False
        if d.unit is not None and d.unit != "decisions":
            self.err("E309", f"evaluate counts decisions, not {d.unit}", d.span, "write: after 30 decisions")
            ok = False
        if d.after is not None and d.after < 1:
            self.err("E309", "evaluate needs at least 1 decision before it is asked", d.span)
            ok = False
        return d if ok else None

    def check_require(self, d: A.RequireDecl) -> None:
        """``require COND "message"``: the options chosen must meet COND (a fixed value), else E402
        with the message and the values of the options it reads. Not checked when an option it reads
        was refused (out of range): its stand-in value is nobody's, and the refusal says what to fix."""
        if any(self.options[n].refused for n in _names_in(d.cond) if n in self.options):
            return
        try:
            ok = self.const(d.cond, None)
        except Abort:
            return
        if not isinstance(ok, bool):
            self.err("E201", f"require needs a condition, true or false; this is {_const_type(ok)}", d.cond.span)
        elif not ok:
            read = sorted(n for n in _names_in(d.cond) if n in self.options)
            values = ", ".join(f"{o} = {_option_shown(self.options[o])}" for o in read)
            where = Path(d.span.file).name
            how = f"a variant replaces it with `override require {d.name}: CONDITION \"message\"`" if d.name else \
                f"it has no name, so a variant cannot replace it (named in {where}, `require NAME: CONDITION \"message\"`, it could)"
            self.err("E402", f"{text_plain(d.text, 0)}" + (f" ({values})" if values else ""), d.span,
                     f"choose other options (--set NAME=VALUE); this is a require of {where}, and {how}")

    def _bound(self, e: A.Expr) -> float:
        """One end of evaluate's range: a fixed number (literals and options)."""
        v = self.const(e, None)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail("E201", f"evaluate's range takes numbers, not {_const_type(v)}", e.span)
        return v

    def named_fn(self, d: A.EvaluateDecl | A.AlliesDecl | A.BeliefDecl, example: str) -> FnSym | None:
        """The function a declaration names (E104 if there is none), marked used."""
        f = self.fns.get(d.fn)
        if f is None:
            self.err("E104", f"unknown function {d.fn}", d.span, did_you_mean(d.fn, self.fns) or f"declare: {example}")
            return None
        f.used = True
        return f

    def check_allies(self, d: A.AlliesDecl) -> A.AlliesDecl | None:
        """``allies FN``: FN(p: player, q: player) -> bool."""
        f = self.named_fn(d, "fn same_side(p: player, q: player) -> bool = …")
        if f is None:
            return None
        if len(f.params) != 2 or any(x.type != T.PLAYER for x in f.params) or f.ret.kind != "bool":
            self.err("E201", f"allies needs a function of two players giving true or false; {d.fn} is not", d.span,
                     "fn same_side(p: player, q: player) -> bool = …")
            return None
        return d

    def check_belief(self, d: A.BeliefDecl) -> A.BeliefDecl | None:
        """``belief FN``: FN(c: card) -> bool (may it lie there?) or a number (how likely, as a weight)."""
        example = "fn plausible(c: card) -> bool = …"
        f = self.named_fn(d, example)
        if f is None:
            return None
        if len(f.params) != 1 or f.params[0].type != T.CARD or not (f.ret.kind == "bool" or T.is_numeric(f.ret)):
            self.err("E201", f"belief needs a function of a card giving true or false, or a weight; {d.fn} is not",
                     d.span, example)
            return None
        owned = self.owner_vars_read(f)
        if owned:
            self.warn("W107", f"belief {d.fn} reads {owned}, an owner variable: a bot's worlds deal the others' "
                      "values among them as they are, so the belief would learn what they hold together", d.span,
                      "believe what every player knows: public variables, backs, the stack, what was claimed")
        return d

    def check_ordering(self, o: OrderingSym) -> None:
        assert o.decl
        sc = Scope()
        for p in o.params:
            sc.names[p.name] = p
        fake = FnSym(o.name, o.span, locals=o.locals)
        ctx = Ctx("ordering", fn=fake, pure=True)
        for t in o.decl.tiers:
            self.cond(t.cond, sc, ctx)
            if t.by is not None:
                try:
                    bt = self.expr(t.by, sc, ctx)
                    if not _comparable_key(t.by, bt):
                        self.err("E201", f"a tier is ordered by a number, a text, an enum member, an ordering "
                                 f"or a tuple of them (compared part by part), not {_key_shown(t.by, bt)}", t.by.span)
                except Abort:
                    pass
        o.locals = fake.locals

    def check_body(self, proc: Proc, ctx: Ctx) -> None:
        sc = Scope(proc=proc)
        for p in proc.params:
            sc.names[p.name] = p
        self.block(proc.body, sc, ctx)
        if proc.ret is not None and proc.kind == "rule" and not _returns(proc.body):
            self.err("E312", f"rule {proc.name} must return {a_noun(str(proc.ret))} on every path", proc.span,
                     "end it with: return …")

    def check_show(self, d: A.ShowDecl) -> tuple[Proc, A.ShowDecl]:
        """``show c as TEXT sorted by KEY``: pure functions of the card, evaluated for each viewer's
        visible cards (the key as ``best … by`` takes it: a number or an ordering's key)."""
        proc = Proc("show", "show", d.span, [])
        self.no_shadow(d.var, d.span)
        proc.params.append(proc.new_local(d.var, T.CARD, d.span, readonly=True))
        sc = Scope(proc=proc)
        sc.names[d.var] = proc.params[0]
        ctx = Ctx("show", proc, pure=True, may_decide=False)
        if d.text is not None:
            self.text(d.text, sc, ctx)
        if d.order is not None:
            try:
                kt = self.expr(d.order, sc, ctx)
                if not (T.is_numeric(kt) or kt.kind in ("key", "text", "enum", "tuple", "any")):
                    self.err("E201", f"show … sorted by a number, an enum member, a text or an ordering, not {kt}", d.order.span,
                             "an ordering's key (strength(c)) or a number: c.rank, index_of(order, c.suit)")
            except Abort:
                pass
        for part, e in [("text", x) for parts in (d.text.parts if d.text else []) for x in parts
                        if not isinstance(x, str)] + ([("order", d.order)] if d.order is not None else []):
            secret = self.secret_read(e, set()) or self.unseen_cards_read(e, sc)
            if secret is not None:
                self.warn("W103", f"the show {part} reads {secret}, which players may not see: every viewer's "
                          f"cards would be {'labelled' if part == 'text' else 'ordered'} by it", e.span,
                          "show a card by what its viewer knows" + ("" if secret.startswith("the cards of ")
                                                                    else f"; or make {secret} public"))
                break
        return proc, d

    def check_window(self, w: WindowSym) -> None:
        if w.scope_proc is not None:
            return
        d = w.decl
        assert d
        base = Proc("window", w.name, d.span, [])
        w.scope_proc = base
        self.no_shadow(d.item_var, d.span)
        self.no_shadow(d.player_var, d.span)
        if d.item_var == d.player_var:
            self.err("E102", f"window {w.name} names the item and the player both {d.item_var}", d.span,
                     f"window {w.name} (it, p)")
        item = base.new_local(d.item_var, T.ITEM, d.span, readonly=True)
        sc = Scope(proc=base)
        sc.names[d.item_var] = item
        ctx = Ctx("window", base, pure=True, may_decide=False)
        first = len(self.diags)
        responder = A.Name(span=d.span, name=d.player_var)
        # asking only the players who can respond already tells the table who holds a response: a `when`
        # that reads the zones the responses come from tells no more — unless `ask all` hides that
        answered = set() if d.ask_all is not None else \
            {n for o in d.options for b in o.binders for n, _ in _zones_read(b.source)}
        if d.when is not None:
            self.cond(d.when, sc, ctx)
            self.warn_asking_on_hidden(d.when, "when", w.name, answered, d.item_var)
        if d.responders is not None:
            try:
                rt = self.expr(d.responders, sc, ctx)
                if not T.assignable(rt, T.list_of(T.PLAYER)):
                    self.err("E201", f"responders are a list of players, not {rt}", d.responders.span)
                self.warn_asking_on_hidden(d.responders, "responders", w.name, answered, d.item_var)
            except Abort:
                pass
        if d.ask_all is not None:
            self.cond(d.ask_all, sc, ctx)
            self.warn_asking_on_hidden(d.ask_all, "ask all", w.name, answered, d.item_var)
        for i in range(first, len(self.diags)):   # the player is not known yet when these are asked
            if self.diags[i].code == "E101" and self.diags[i].message == f"unknown name {d.player_var}":
                self.diags[i].hint = (f"when, responders and ask all see only the item {d.item_var}; the player "
                                      f"{d.player_var} is known in the responses: test it in their where")
        if d.label is not None:     # the prompt a responder sees: the item and that responder
            w.prompt_player = base.new_local(d.player_var, T.PLAYER, d.span, readonly=True)
            lsc = Scope(proc=base)
            lsc.names[d.item_var] = item
            lsc.names[d.player_var] = w.prompt_player
            self.text(d.label, lsc, ctx)
            self.warn_log_naming_hidden(d.label, lsc, responder)
        names: set[str] = set()
        for opt in d.options:
            if opt.name in names or opt.name == "pass":
                self.err("E102", f"response {opt.name} is declared twice" if opt.name != "pass" else
                         "pass is added to every window by itself", opt.span)
            names.add(opt.name)
            proc = self.new_proc("window", f"{w.name}.{opt.name}", opt.span, opt.body)
            proc.params = [proc.new_local(d.item_var, T.ITEM, d.span, readonly=True),
                           proc.new_local(d.player_var, T.PLAYER, d.span, readonly=True)]
            osc = Scope(proc=proc)
            osc.names[d.item_var] = proc.params[0]
            osc.names[d.player_var] = proc.params[1]
            self.option(opt, osc, Ctx("window", proc))
            self.warn_telling_where(opt, responder, osc)
            w.procs.append(proc)

    def check_check(self, c: CheckSym) -> None:
        d = c.decl
        assert d
        proc = self.new_proc("check", c.name, d.span, d.body)
        c.proc = proc
        sc = Scope(proc=proc)
        ctx = Ctx("check", proc, pure=True, may_decide=False)
        if d.var is not None and d.source is not None:
            try:
                st = self.expr(d.source, Scope(proc=proc), ctx)
                if not T.assignable(st, T.list_of(T.PLAYER)):
                    self.err("E201", f"a check runs for a list of players, not {st}", d.source.span)
            except Abort:
                pass
            self.no_shadow(d.var, d.span)
            c.var = proc.new_local(d.var, T.PLAYER, d.span, readonly=True)
            proc.params.append(c.var)
            sc.names[d.var] = c.var
        self.cond(d.cond, sc, ctx)
        self.block(d.body, sc, Ctx("check", proc, may_decide=False))

    # -------------------------------------------------------------- statements
    def block(self, stmts: list[A.Stmt], sc: Scope, ctx: Ctx) -> None:
        inner = Scope(sc)
        prev: A.Stmt | None = None
        leftover = False        # one error for the words left over after a statement, not one each
        skip = False
        for s, nxt in zip(stmts, [*stmts[1:], None], strict=False):   # each with the one after it
            if skip:        # the call after a misplaced `use`: said with it
                prev, skip = s, False
                continue
            if nxt is not None and (use := self.misplaced_use(s, nxt, sc)) is not None:
                self.err("E309", f"`use {use}(…)` stands among a decision's options",
                         Span(s.span.file, *self.use_start(s), nxt.span.end_line, nxt.span.end_col),
                         self.misplaced_use_hint(use))
                prev, leftover, skip = s, True, True
                continue
            if isinstance(prev, A.Deal) and isinstance(s, A.ExprStmt) and isinstance(s.expr, A.ListLit) \
                    and (s.span.line, s.span.col) == (prev.dest_span.end_line, prev.dest_span.end_col):
                # `deal 3 from deck to hand[p]` reads as a deal, then `[p]`
                self.err("E309", f"deal gives to every player's {prev.dest}, not to one of them", s.span,
                         f"one player: deal … to {prev.dest} for [p], or move top(ZONE, n) to {prev.dest}[p]")
                prev, leftover = s, True
                continue
            if isinstance(s, A.ExprStmt) and not isinstance(s.expr, A.Call) and prev is not None \
                    and prev.span.end_line == s.span.line:
                if not leftover:
                    word = s.expr.name if isinstance(s.expr, A.Name) else \
                        json.dumps(s.expr.value, ensure_ascii=False) if isinstance(s.expr, A.Lit) else "this"
                    self.err("E309", f"`{word}` is not part of the statement before it on this line", s.span,
                             self.leftover_hint(prev, word))
                prev, leftover = s, True
                continue
            prev, leftover = s, False
            try:
                self.stmt(s, inner, ctx)
            except Abort:
                pass

    @staticmethod
    def _use_word(s: A.Stmt) -> A.Name | None:
        """The bare name `use` a statement ends in (`use`, `n = use`, `let n = use`), if it does."""
        e = s.expr if isinstance(s, A.ExprStmt) else s.value if isinstance(s, A.Assign | A.Let) else None
        if isinstance(e, A.Name) and e.name == "use" \
                and (e.span.end_line, e.span.end_col) == (s.span.end_line, s.span.end_col):
            return e
        return None

    def misplaced_use(self, s: A.Stmt, nxt: A.Stmt, sc: Scope) -> str | None:
        """The group's name when `use g(…)` stands where a statement or a value does: it reads as the
        name `use`, then a call, which gave two errors that did not say what was wrong."""
        word = self._use_word(s)
        if word is None or sc.lookup("use") is not None or "use" in self.globals or "use" in self.members \
                or not isinstance(nxt, A.ExprStmt) or nxt.span.line != word.span.end_line:
            return None
        return nxt.expr.func if isinstance(nxt.expr, A.Call) else nxt.expr.name if isinstance(nxt.expr, A.Name) \
            else None

    def use_start(self, s: A.Stmt) -> tuple[int, int]:
        word = self._use_word(s)
        assert word is not None
        return word.span.line, word.span.col

    def misplaced_use_hint(self, name: str) -> str:
        if isinstance(self.globals.get(name), RuleSym):
            return f"{name} is a rule: call it without use, {name}(…)"
        return f"`use` goes among the options of a choose, offer, simultaneous or window: choose p {{ use {name}(…) }}"

    @staticmethod
    def tuple_parts(e: A.Expr) -> list[A.Expr]:
        """The parts of a tuple literal, nested ones opened too (a tuple from a variable has no parts to see)."""
        if not isinstance(e, A.TupleLit):
            return []
        return [x for item in e.items for x in (Bodies.tuple_parts(item) if isinstance(item, A.TupleLit) else [item])]

    @staticmethod
    def leftover_hint(prev: A.Stmt, word: str) -> str:
        if word == "at" and isinstance(prev, A.Deal):
            return "`deal` puts cards on top; `move CARD to ZONE at N` puts one N cards down"
        if re.fullmatch(r"[eE][0-9]*", word):       # 1e3 read as 1, then e3
            return "numbers are written out, without an exponent: 1000, 0.001"
        return "end the statement before it, or see its form in docs/language.md (fuda source)"

    def weight(self, e: A.Expr, sc: Scope, ctx: Ctx) -> None:
        try:
            t = self.expr(e, sc, replace(ctx, pure=True))
            if t.kind == "text":
                self.err("E201", "a rollout weight must be a number; this is text (the option's label?)", e.span,
                         'the weight goes before the label: rollout weight 2 "label"')
            elif not T.is_numeric(t):
                self.err("E201", f"a rollout weight must be a number; this is {t}", e.span,
                         "1 is as likely as an option without a weight, 0 never, 3 three times as likely")
        except Abort:
            pass

    def decide(self, s: A.Stmt, ctx: Ctx, what: str) -> None:
        if not ctx.may_decide or ctx.proc is None:
            raise self.fail("E306", f"{what} cannot happen inside {a_noun(ctx.kind)}", s.span,
                            "checks, functions and window conditions run without asking anyone")
        ctx.proc.suspends_direct = True

    def stmt(self, s: A.Stmt, sc: Scope, ctx: Ctx) -> None:
        if isinstance(s, A.Let):
            self.no_shadow(s.name, s.span)
            if sc.lookup(s.name) is not None:
                self.err("E109", f"{s.name} is already a local name here", s.span, "choose another name")
            try:
                vt = self.value_expr(s.value, sc, ctx)
            except Abort:       # the value's error is reported; the name is still declared (no cascade)
                assert ctx.proc
                sc.names[s.name] = ctx.proc.new_local(s.name, T.ANY, s.span)
                raise
            ty = self.let_type(s, vt)
            assert ctx.proc
            loc = sc.names[s.name] = ctx.proc.new_local(s.name, ty, s.span, readonly=s.readonly)
            self.defs.append((loc, s.value))
            self.list_defs.append((loc, s.value))
            loc.sized = _size_public(s.value)
            if T.ZONE in (ty, ty.elem) and (zs := self.zones_named(s.value)) is not None:
                self.zone_values[id(loc)] = zs
            # a card, a text made of cards, a number or list worked out from them; a zone (`let z =
            # hand[q]`: what is read through it is read of hand[q])
            self.local_defs[id(loc)] = [(s.value, sc, None)]
        elif isinstance(s, A.Assign):
            self.assign(s, sc, ctx)
        elif isinstance(s, A.ExprStmt):
            if not isinstance(s.expr, A.Call):
                raise self.fail("E309", "this expression does nothing on its own", s.span,
                                "a statement is an assignment (x = …), a rule call (r(…)) or a keyword statement")
            t = self.value_expr(s.expr, sc, ctx, statement=True)
            del t
            if not isinstance(s.expr.ref, RuleSym):
                self.err("E309", f"calling {s.expr.func} as a statement does nothing", s.span,
                         "functions compute values; rules do things")
            elif s.expr.ref.decl is not None:      # W104: a card the rule shows everyone (`lay(c)`)
                self.warn_rule_logging_hidden(s.expr, sc)
                sc.revealed.update(self.called_reveals(s.expr))      # what it always reveals, as its hides
                for arg in s.expr.args:
                    if isinstance(arg, A.Name) and sc.lookup(arg.name) is not None \
                            and self.passes_on(s.expr, arg.name, {}, 0):
                        sc.revealed.add(arg.name)
        elif isinstance(s, A.If):
            for c, body in s.branches:
                self.cond(c, sc, ctx)
                self.block(body, sc, ctx)
            if s.orelse is not None:
                self.block(s.orelse, sc, ctx)
                sc.revealed.update(self.always_revealed([s]))    # revealed whichever branch ran (W104)
            self.warn_branching_on_hidden(s, sc)
            self.warn_effect_under_hidden(s, sc)
        elif isinstance(s, A.While):
            if s.offer is not None:
                self.want(s.offer, T.list_of(T.PLAYER), sc, ctx, "offer … in a list of players")
            self.cond(s.cond, sc, ctx)
            sc.forget(self.may_hide(s.body, sc=sc))     # hidden by a round before (W104)
            self.block(s.body, sc, _loop(ctx, offer=s.offer is not None))
        elif isinstance(s, A.Repeat):
            self.want(s.count, T.INT, sc, ctx, "repeat counts a whole number of times")
            sc.forget(self.may_hide(s.body, sc=sc))
            self.block(s.body, sc, _loop(ctx))
        elif isinstance(s, A.For):
            st = self.expr(s.source, sc, ctx)
            et = T.elem_type(st)
            if et is None:
                raise self.fail("E201", f"for runs over a list or a zone, not {st}", s.source.span)
            inner = Scope(sc)
            self.no_shadow(s.var, s.span)
            assert ctx.proc
            inner.names[s.var] = ctx.proc.new_local(s.var, et, s.span)
            self.defs.append((inner.names[s.var], s.source))
            # an item of the list: from the zones the list is read from (W102, W104)
            self.local_defs[id(inner.names[s.var])] = [(s.source, sc, None)]
            sc.forget(self.may_hide(s.body, sc=sc))
            if isinstance(s.source, A.Name) and s.source.name == "active":     # each one's entry revealed before
                inner.revealed |= {entry_key(k[:-len(ACTIVE_KEY)], A.Name(span=s.span, name=s.var))
                                   for k in sc.all_revealed() if k.endswith(ACTIVE_KEY)}
            self.block(s.body, inner, _loop(ctx))
            # a showdown: `for p in players { reveal hand[p] }` shows those zones for what follows, also
            # from each player's decision whose every option reveals it (W104)
            sc.revealed.update(self.always_revealed([s]))
        elif isinstance(s, A.Break | A.Continue):
            word = type(s).__name__.lower()
            use = self.use_of(s.span)       # a group's break: right in a loop, wrong where this use is
            at, where = (use.span, f": options {use.name} has one, at {s.span}"
                         f"{sugar.overridden(self.groups.get(use.name), use)}") if use is not None else (s.span, "")
            if ctx.loop == 0:
                self.err("E304", f"{word} outside a loop{where}", at,
                         f"a group's {word} acts on the loop around the decision that uses it" if use else None)
            elif isinstance(s, A.Continue) and ctx.offer:
                self.err("E304", f"continue in an offer{where}: an option taken starts the round again by itself",
                         at, "break ends the round")
        elif isinstance(s, A.Return):
            if ctx.kind != "rule":
                raise self.fail("E305", "return is allowed in rules only", s.span)
            if s.value is not None:
                vt = self.value_expr(s.value, sc, ctx)
                if ctx.ret is None:
                    self.err("E201", "this rule declares no result; say `-> TYPE` to return one", s.value.span)
                elif not T.assignable(vt, ctx.ret):
                    self.err("E201", f"the rule returns {ctx.ret}, not {vt}", s.value.span)
            elif ctx.ret is not None:
                self.err("E312", f"the rule returns {a_noun(str(ctx.ret))}: say what", s.span)
        elif isinstance(s, A.Move):
            self.cards_expr(s.cards, sc, ctx)
            self.dest_zone(s.dest, sc, ctx)
            if s.at is not None:
                self.want(s.at, T.INT, sc, ctx, "move … at a number of cards from the top")
                if s.under:
                    self.err("E309", "a card goes under a zone or at a depth, not both", s.at.span,
                             "`at 0` is the top; `at size(Z)` the bottom")
            dests = self.zones_named(s.dest)
            sc.forget(self.moved_into(s, sc))     # a card come in was not revealed (W104)
            if s.face == "up" or dests and all(z.decl is not None and z.decl.visibility == "public" for z in dests):
                sc.revealed.update(n for n, _ in _zones_read(s.cards) if sc.lookup(n) is not None)   # W104
        elif isinstance(s, A.Deal):
            if s.count is not None:
                self.want(s.count, T.INT, sc, ctx, "deal gives a whole number of cards")
            self.dest_zone(s.source, sc, ctx, "deal takes cards from one zone")
            z = self.globals.get(s.dest)
            if not isinstance(z, ZoneSym):
                raise self.fail("E101", f"unknown zone {s.dest}", s.dest_span,
                                did_you_mean(s.dest, [x.name for x in self.zones]))
            z.used = True
            if not z.per_player or z.kind not in ("pile", "hand"):
                raise self.fail("E203", f"deal gives to a per-player pile or hand; {z.name} is not one", s.dest_span)
            if s.players is not None:
                self.want(s.players, T.list_of(T.PLAYER), sc, ctx, "deal … for a list of players")
            sc.forget(self.moved_into(s))
        elif isinstance(s, A.Shuffle):
            self.dest_zone(s.zone, sc, ctx, "shuffle takes a zone")
            self.impure(s, ctx)
            sc.forget({PLACES})         # `reveal top(deck)` showed the card lying there then (W104)
        elif isinstance(s, A.Reveal | A.Hide):
            what = s.what
            if self.is_var_ref(what, sc):
                self.expr(what, sc, ctx)
                if isinstance(s, A.Reveal) and s.to is not None:
                    self.err("E309", "a variable is revealed to everyone", s.to.span)
                elif isinstance(s, A.Reveal):
                    self.warn_revealing_public_cards(s, what)
            else:
                self.cards_expr(what, sc, ctx)
            if isinstance(s, A.Reveal) and s.to is None:
                sc.revealed.update(self.reveal_keys(what))
            if isinstance(s, A.Hide):
                sc.forget(self.names_under(what, sc, {}, {}))
            if isinstance(s, A.Reveal) and s.to is not None:
                tt = self.expr(s.to, sc, ctx)
                if not (T.assignable(tt, T.PLAYER) or T.assignable(tt, T.list_of(T.PLAYER))):
                    self.err("E201", f"reveal … to a player or a list of players, not {tt}", s.to.span)
        elif isinstance(s, A.Swap):
            self.want(s.a, T.CARD, sc, ctx, "swap exchanges two cards")
            self.want(s.b, T.CARD, sc, ctx, "swap exchanges two cards")
            sc.forget(self.moved_into(s, sc))        # each card is where the other was: not revealed there (W104)
        elif isinstance(s, A.Choose):
            self.decide(s, ctx, "a decision")
            self.want(s.player, T.PLAYER, sc, ctx, "choose asks one player")
            if s.label is not None:     # the prompt may interpolate values: resolve its names
                self.text(s.label, sc, Ctx(ctx.kind, ctx.proc, pure=True))
                self.warn_log_naming_hidden(s.label, sc, s.player)
            self.decision_options(s.options, sc, ctx, s.player, public=not s.hidden, hidden=s.hidden)
            if s.otherwise is not None:
                self.block(s.otherwise, sc, ctx)
            sc.revealed.update(self.choice_reveals(s))      # every option reveals it (W104)
        elif isinstance(s, A.Simultaneous):
            self.decide(s, ctx, "a decision")
            self.want(s.players, T.list_of(T.PLAYER), sc, ctx, "simultaneous asks a list of players")
            inner = Scope(sc)
            self.no_shadow(s.var, s.span)
            assert ctx.proc
            inner.names[s.var] = ctx.proc.new_local(s.var, T.PLAYER, s.span, readonly=True)
            if s.label is not None:     # the prompt may interpolate values (and the player asked)
                self.text(s.label, inner, Ctx(ctx.kind, ctx.proc, pure=True))
                self.warn_log_naming_hidden(s.label, inner, A.Name(span=s.span, name=s.var))
            self.decision_options(s.options, inner, ctx, A.Name(span=s.span, name=s.var))
            sc.revealed.update(self.choice_reveals(s))
        elif isinstance(s, A.Turn):
            self.want(s.player, T.PLAYER, sc, ctx, "turn takes a player")
            self.block(s.body, sc, ctx)
            sc.revealed.update(self.always_revealed(s.body))
        elif isinstance(s, A.Goto):
            ph = self.globals.get(s.phase)
            if not isinstance(ph, PhaseSym):    # a phase whose name another declaration took (E102) is still one
                ph = next((p for p in self.phases if p.name == s.phase), None)
            if ph is None:
                raise self.fail("E105", f"unknown phase {s.phase}", s.span,
                                did_you_mean(s.phase, [p.name for p in self.phases]))
            ph.used = True
            self.goto_targets.add(s.phase)
            self.flow_site(("phase", ph.name), sc)
        elif isinstance(s, A.Activate):
            self.decide(s, ctx, "activating an effect (others may respond)")
            eff = self.globals.get(s.effect)
            if not isinstance(eff, EffectSym):
                raise self.fail("E106", f"unknown effect {s.effect}", s.span,
                                did_you_mean(s.effect, [e.name for e in self.effects]))
            eff.used = True
            self.call_args(s.effect, eff.params, s.args, s.kwargs, s.span, sc, ctx, _defaults(eff.decl))
            self.warn_rule_logging_hidden(s, sc)
            if s.by is not None:
                self.want(s.by, T.PLAYER, sc, ctx, "activate … by a player")
            if s.source is not None:
                self.want(s.source, T.CARD, sc, ctx, "activate … from a card")
        elif isinstance(s, A.Negate):
            self.want(s.item, T.ITEM, sc, ctx, "negate takes a stack item")
        elif isinstance(s, A.Win | A.Finish | A.Lose):       # players finishing together share a place
            parts = ((s.who, "win"), (s.drawn, "win … draw")) if isinstance(s, A.Win) else \
                ((s.who, "sit out" if isinstance(s, A.Finish) and s.sit_out else type(s).__name__.lower()),)
            for part, stmt in parts:
                if part is None:
                    continue
                wt = self.expr(part, sc, ctx)
                if not (T.assignable(wt, T.PLAYER) or T.assignable(wt, T.list_of(T.PLAYER))):
                    self.err("E201", f"{stmt} takes a player or a list of players, not {wt}", part.span,
                             SEAT_HINT if wt.kind == "int" else None)
        elif isinstance(s, A.Rejoin):
            self.want(s.who, T.PLAYER, sc, ctx, "rejoin takes a player")
        elif isinstance(s, A.End) and s.players is not None and s.keys is not None:
            self.want(s.players, T.list_of(T.PLAYER), sc, ctx, "end game ranking … in a list of players")
            kt = T.elem_type(self.expr(s.keys, sc, ctx))
            key = s.keys.elem if isinstance(s.keys, A.Comprehension) else s.keys
            for kp in [key] if kt is None or kt.kind != "tuple" else self.tuple_parts(key):
                pt = kt if kp is key else getattr(kp, "ty", None)
                if pt is not None and not (T.is_numeric(pt) or pt.kind in ("key", "text", "enum", "any", "tuple", "none")):
                    self.err("E201", f"end game ranking … by a number, an ordering, a text or a tuple of them, not {pt}"
                             + (" (a part of the tuple)" if kp is not key else ""), kp.span,
                             "rank players by what they hold, not by the player or a card: score[p], strength(c)")
        elif isinstance(s, A.End | A.Reverse):
            pass
        elif isinstance(s, A.Log):
            self.text(s.text, sc, ctx)
            self.warn_log_naming_hidden(s, sc)
        elif isinstance(s, A.Tell):
            self.want(s.player, T.PLAYER, sc, ctx, "tell takes a player")
            self.text(s.text, sc, ctx)
        elif isinstance(s, A.Insert):
            st = self.expr(s.seq, sc, ctx)
            side = s.side if s.beside is None else f"{s.side} z"
            if st.kind == "seqfam":     # the name still declares its zone: no follow-on "unknown name"
                self.err("E206", f"{st.name} is a sequence per player: say whose", s.seq.span,
                         f"insert {st.name}[p] {side} as {s.name}" if s.zone is None
                         else f"insert … into {st.name}[p] {side}")
            elif st.kind not in ("seq", "any"):
                self.err("E203", f"insert adds a zone to a sequence of zones, not to {st}", s.seq.span,
                         "declare one (zone lines: sequence, or sequence per player), then: "
                         + (f"insert lines {side} as {s.name}" if s.zone is None else f"insert … into lines {side}"))
            if s.beside is not None:
                self.want(s.beside, T.ZONE, sc, ctx, f"insert … {s.side} names a zone of the sequence")
            if s.zone is not None:
                self.dest_zone(s.zone, sc, ctx, "insert … into puts an existing zone into a sequence")
            else:
                assert s.name is not None
                self.no_shadow(s.name, s.span)
                assert ctx.proc
                sc.names[s.name] = loc = ctx.proc.new_local(s.name, T.ZONE, s.span)
                if (seq := self.zones_named(s.seq)) is not None:
                    self.zone_values[id(loc)] = seq
        elif isinstance(s, A.Record):
            self.expr(s.key, sc, ctx)
            if self.secret_sets:        # what a secret choice records, `occurrences` tells (secret_places.py)
                how = f"= {s.key.value!r}" if isinstance(s.key, A.Lit) else f"#{id(s)}"
                self.secret_sets[-1].append((self.tally, how))
        else:  # pragma: no cover - the grammar has no other statements
            raise self.fail("E309", f"unsupported statement {type(s).__name__}", s.span)

    def decision_options(self, opts: list[A.Option], sc: Scope, ctx: Ctx, chooser: A.Expr | None = None,
                         public: bool = False, hidden: bool = False) -> None:
        """``public``: everyone sees what was chosen (a `choose` that is not hidden); ``hidden``: a
        `choose … hidden`, whose choice stays secret (a simultaneous one is told by what its blocks do)."""
        names: dict[str, A.Option] = {}
        assigned: list[list[tuple[Any, str]]] = []     # per option: what its block sets (a secret decision)
        for o in opts:
            if o.name in names:
                self.option_twice(o, names[o.name])
            names.setdefault(o.name, o)
            self.secret_sets.append([])
            self.option(o, sc, ctx, public, secret=not public)
            assigned.append(self.secret_sets.pop())
            if self.secret_sets:        # inside another decision's option: what it sets, that one's block sets
                self.secret_sets[-1].extend(assigned[-1])
            if chooser is not None and not o.implied:    # an implied pass repeats the options' wheres
                before = len(self.warnings)
                self.warn_telling_where(o, chooser, sc)
                if ctx.kind == "rule" and len(self.warnings) == before:
                    self.rule_options.append((o, chooser, sc))      # its parameters' calls may come later
                if o.reason is not None:    # the refusal its chooser reads: as a prompt
                    self.warn_log_naming_hidden(o.reason, sc, chooser, "else text")
                if o.label is not None:     # its label's variables too (no screen masks a value)
                    self.warn_log_naming_hidden(o.label, sc, chooser, f"label of option {o.name}", cards=False)
        if not public:
            self.picks.extend(_set_by_choice(assigned))
            self.secret_choices.append((opts, assigned, hidden, chooser))
            if hidden:
                self.warn_telling_choice(opts)      # an optional choice's pass runs nothing

    def warn_revealing_public_cards(self, s: A.Reveal, what: A.Expr) -> None:
        """W108: `reveal up` of a public card variable reveals the variable, which everyone sees
        already — a no-op, where `reveal [up]` (the card it holds) was meant."""
        name = what.name if isinstance(what, A.Name) else what.obj.name if isinstance(what, A.Index) \
            and isinstance(what.obj, A.Name) else ""
        var = self.globals.get(name)
        if isinstance(var, VarSym) and var.visibility == "public" and T.CARD in (var.type, var.type.elem):
            self.warn("W108", f"{name} is a public card variable: `reveal {name}` reveals the variable, which "
                      f"everyone sees already, not the card — did you mean `reveal [{name}]`?", s.span,
                      f"`reveal [{name}]` shows the card it holds (a list of cards); `reveal {name}` is for a "
                      "hidden or owner variable")

    def option_twice(self, o: A.Option, first: A.Option) -> None:
        """E102 for a second option of one name. One brought by a group is said at the `use`, with
        where the other comes from (the group is right; using it twice, or beside an option of that
        name, is not) — and the variant's override of the group, if the base's use met it there."""
        if o.origin is first.origin:    # both the decision's own, or both one group's: where they are written
            self.err("E102", f"option {o.name} appears twice in this decision", o.span)
            return

        def source(x: A.Option, here: bool = False) -> str:
            name = f"options {x.origin.name}" if x.origin is not None else "the decision itself"
            return name if here else f"{name} (at {x.origin.span if x.origin is not None else x.span})"
        hint = "name the options apart"
        if o.origin is not None and first.origin is not None and o.origin.name == first.origin.name:
            why, hint = f"options {o.origin.name} is used twice (also at {first.origin.span})", "use it once"
        else:
            why = f"{source(first)} has one, and so has {source(o, here=True)}"
        why += "".join(dict.fromkeys(sugar.overridden(self.groups.get(x.origin.name), x.origin)
                                     for x in (first, o) if x.origin is not None))
        self.err("E102", f"option {o.name} appears twice in this decision: {why}",
                 o.origin.span if o.origin is not None else o.span, hint)

    def option(self, o: A.Option, sc: Scope, ctx: Ctx, public: bool = False, secret: bool = False) -> None:
        """``secret``: only the chooser knows what was chosen (a hidden or simultaneous decision)."""
        inner = Scope(sc)
        assert ctx.proc
        if o.origin is not None:
            if id(o.origin) not in self.uses_checked:
                self.uses_checked[id(o.origin)] = self.use_arguments(o.origin, sc, ctx)
            if not self.uses_checked[id(o.origin)]:
                for b in o.binders:
                    self.binder_elem[id(b)] = T.ANY
                return      # its options would only repeat the argument's mistake, at the group's lines
        for i, b in enumerate(o.binders):
            try:
                bt = self.expr(b.source, inner, Ctx(ctx.kind, ctx.proc, pure=True))
                et = T.elem_type(bt)
                if et is None:
                    raise self.fail("E201", f"{b.var} must range over a list or a zone, not {bt}", b.source.span)
            except Abort:
                et = T.ANY
                last = self.diags[-1] if self.diags else None
                later = [x.var for x in o.binders[i + 1:]]
                if last is not None and last.code == "E101" and last.message.split()[-1] in later:
                    name = last.message.split()[-1]
                    last.hint = (f"{name} is bound later in this option; a binder's list may use only the binders "
                                 f"before it: put {name} first")
            self.binder_elem[id(b)] = et
            self.no_shadow(b.var, b.span)
            if inner.lookup(b.var) is not None:
                self.err("E109", f"{b.var} is already a local name here", b.span)
            inner.names[b.var] = ctx.proc.new_local(b.var, et, b.span, readonly=True)
            self.binder_sources[id(inner.names[b.var])] = [(b.source, inner)]
            if public:          # a choice everyone sees, among named values, is named (named.py)
                self.defs.append((inner.names[b.var], b.source))
            if secret:
                self.picks.append(inner.names[b.var])
                self.binder_syms.setdefault(id(o), []).append(inner.names[b.var])
        if o.where is not None:
            self.cond(o.where, inner, ctx)
        if o.weight is not None:
            self.weight(o.weight, inner, ctx)
        if o.label is not None:
            self.text(o.label, inner, Ctx(ctx.kind, ctx.proc, pure=True))
        if o.reason is not None:        # about the option as a whole: its binders are not bound here
            bound = {b.var for b in o.binders}
            used = next((n for n in A.walk(o.reason.parts) if isinstance(n, A.Name) and n.name in bound), None)
            if used is not None:
                self.err("E101", f"unknown name {used.name}", used.span,
                         f"an option's else text tells why none of it is legal now, so no {used.name} is bound "
                         "there: say it of the rules' state (\"your deadwood is {dw}\")")
            else:
                self.text(o.reason, sc, Ctx(ctx.kind, ctx.proc, pure=True))
        self.block(o.body, inner, ctx)
        if o.origin is not None:
            self.group_scope(o, o.origin)

    def group_scope(self, o: A.Option, use: A.UseOptions) -> None:
        """E101: a group's option that reads a local of the decision using it, by a name the group
        neither binds nor takes as a parameter (its names are its own, as a rule's are); the
        arguments and the block after the `use` are the caller's text and may."""
        bound = {x for n in A.walk(o) if (x := A.bound_name(n)) is not None}
        at = use.span
        for n in A.walk(o):
            if isinstance(n, A.Name) and isinstance(n.ref, LocalSym) and n.name not in bound and "#" not in n.name \
                    and not (n.span.file == at.file
                             and (at.line, at.col) <= (n.span.line, n.span.col) <= (at.end_line, at.end_col)):
                self.err("E101", f"unknown name {n.name}", n.span,
                         f"options {use.name} reads only its parameters, what it binds and global names: "
                         f"give {n.name} as a parameter")

    def use_arguments(self, use: A.UseOptions, sc: Scope, ctx: Ctx) -> bool:
        """E201: an argument of ``use GROUP(…)`` that is not of its parameter's type (its options,
        written out, would fail where the parameter stands). Whether they all fit."""
        ok = True
        for p, a in zip(use.params, use.args, strict=True):
            try:
                at = self.expr(a, sc, Ctx(ctx.kind, ctx.proc, pure=True))
                pt = self.type_ref(p.type)
            except Abort:
                ok = False
                continue
            if not T.assignable(at, pt):
                self.err("E201", f"options {use.name}: {p.name} is {pt}, got {at}", a.span, self.member_hint(a, pt))
                ok = False
        return ok

    def item_assignment(self, s: A.Assign, sc: Scope, ctx: Ctx) -> None:
        """`xs[i] = x` (`hands[p][i] += 1`, `c.marks[i] = …`) is `xs = replaced(xs, i, x)`: the
        variable itself is set, so everything said of setting it holds (secrecy, checks run after).
        A player's entry of a per-player variable is not a list item; other targets are refused
        as they were (E204). The list is written twice (read, then set), so it must name the same
        one both times; mistakes are said of the item, not of `replaced`, which the designer never wrote."""
        inner = True
        while isinstance(t := s.target, A.Index) and len(t.args) == 1 and not (
                isinstance(t.obj, A.Name) and sc.lookup(t.obj.name) is None
                and isinstance(g := self.globals.get(t.obj.name), VarSym) and g.scope == "player"):
            held = self.expr(deepcopy(t.obj), sc, ctx)
            if held.kind in ("zone", "zonefam", "seq", "seqfam", "grid"):
                break           # a zone's card or a player's zone: refused as such below
            if held.kind not in ("list", "any"):
                raise self.fail("E204", f"this holds {a_noun(str(held))}, not a list: only a list's items "
                                        "can be assigned", t.obj.span)
            if (chance := self.worked_out_anew(t.obj)) is not None:
                raise self.fail("E204", "the list is read and then set: this would be worked out twice, maybe "
                                        "differently", chance.span, "work it out first: let x = …, then set its item")
            if s.op != "=" and (chance := self.worked_out_anew(t.args[0])) is not None:
                raise self.fail("E204", f"{s.op} reads the item and sets it: its position would be worked out "
                                        "twice", chance.span, "work it out first: let i = …, then xs[i] += …")
            self.expr(deepcopy(t), sc, ctx)         # its position is one: said as reading the item says it
            if inner and held.elem is not None:     # the outer lists take the inner list, of their type
                said = len(self.diags)
                self.check_store(s, held.elem, self.value_expr(deepcopy(s.value), sc, ctx), f"an item of {held}")
                if len(self.diags) > said:
                    raise Abort()
            inner = False
            new = s.value if s.op == "=" else A.Binary(span=s.span, op=s.op[:-1], left=deepcopy(t), right=s.value)
            s.value = A.Call(span=s.span, func="replaced", args=[deepcopy(t.obj), t.args[0], new])
            self.item_values.update({id(x): x for x in ([s.value, new] if s.op != "=" else [s.value])})
            s.target, s.op = t.obj, "="

    def worked_out_anew(self, e: A.Expr) -> A.Call | None:
        """A call in ``e`` that may give another value each time it is worked out (`random`, a rule)."""
        from ..builtins import BUILTINS
        for n in A.walk(e):
            if isinstance(n, A.Call) and ((b := BUILTINS.get(n.func)) is not None and b.impure
                                          or isinstance(self.globals.get(n.func), RuleSym)):
                return n
        return None

    def assign(self, s: A.Assign, sc: Scope, ctx: Ctx) -> None:
        self.item_assignment(s, sc, ctx)
        tgt = s.target
        tt = self.lvalue(tgt, sc, ctx)
        vt = self.value_expr(s.value, sc, ctx)
        sym = tgt.ref[1] if isinstance(tgt.ref, tuple) and tgt.ref[:1] in (("pvar",), ("cardvar",)) else tgt.ref
        if isinstance(sym, LocalSym) or isinstance(sym, VarSym) and _holds_cards(sym.type):
            self.defs.append((sym, s.value))
        if isinstance(sym, VarSym):         # a value set from a secret pick is one (`pick = i`)
            self.var_defs.append((sym, s.value))
        if self.secret_sets and isinstance(sym, VarSym | LocalSym):    # set in an option's block
            key = f"{s.op} {s.value.value!r}" if isinstance(s.value, A.Lit) else f"#{id(s)}"
            self.secret_sets[-1].append((sym, key))
        if isinstance(sym, LocalSym):
            self.list_defs.append((sym, s.value if s.op == "=" else None))
            sym.sized = sym.sized and s.op == "=" and _size_public(s.value)
        if isinstance(sym, LocalSym):
            self.local_defs.setdefault(id(sym), []).append((s.value, sc, None))
        if isinstance(sym, VarSym) and sym.visibility in ("public", "back"):     # the built-in score and current too
            self.warn_public_var_from_hidden(s, sym, sc)
        elif isinstance(sym, VarSym):       # revealed, or an owner entry set from what its owner may not see
            self.warn_secret_var_from_hidden(s, sym, sc)
        if isinstance(sym, LocalSym) and id(sym) in self.zone_values:      # may now be other zones too
            more = self.zones_named(s.value)
            if more is None:
                del self.zone_values[id(sym)]
            else:
                self.zone_values[id(sym)] = self.zone_values[id(sym)] + more
        self.check_store(s, tt, vt, str(tt))

    def check_store(self, s: A.Assign, tt: T.T, vt: T.T, target: str) -> None:
        """``s`` stores a ``vt`` in ``target``, which is ``tt``: the types fit, for its operator."""
        if s.op == "=":
            if not T.assignable(vt, tt):
                self.err("E201", f"cannot store {vt} in {target}", s.value.span, self.member_hint(s.value, tt))
        elif s.op == "+=" and tt.kind in ("list", "text"):
            if tt.kind == "list" and not T.assignable(vt, tt):
                self.err("E201", f"+= on a list adds a list; got {vt}", s.value.span, "x += [item]")
            if tt.kind == "text" and vt.kind != "text":
                self.err("E201", f"+= on a text adds a text; got {vt}", s.value.span)
        else:
            if not (T.is_numeric(tt) and T.is_numeric(vt)):
                self.err("E201", f"{s.op} works on numbers; here {tt} and {vt}", s.span)
            elif tt.kind == "int" and (vt.kind == "number" or s.op == "/="):
                self.err("E201", f"{s.op} would make a fraction but the target is a whole number", s.span,
                         "use //= or declare it as number")

    def lvalue(self, e: A.Expr, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e, A.Name):
            loc = sc.lookup(e.name)
            if loc is not None:
                if loc.readonly:
                    raise self.fail("E204", f"{e.name} cannot be changed here", e.span)
                e.ref, e.ty = loc, loc.type
                return loc.type
            g = self.globals.get(e.name)
            if isinstance(g, VarSym):
                g.used = True
                if g.scope != "global":
                    raise self.fail("E206", f"{e.name} is per {g.scope}: say whose", e.span,
                                    f"{e.name}[p] = …" if g.scope == "player" else f"c.{e.name} = …")
                e.ref, e.ty = g, g.type
                return g.type
            if isinstance(g, OptionSym):
                raise self.fail("E204", f"option {e.name} is fixed for the game", e.span)
            self.expr(e, sc, ctx)
            raise self.fail("E204", f"{e.name} cannot be assigned", e.span)
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
            g = self.globals.get(e.obj.name)
            if isinstance(g, VarSym) and g.scope == "player" and sc.lookup(e.obj.name) is None:
                if g.readonly:
                    raise self.fail("E204", f"{g.name} is kept by the engine (use finish/win/lose)", e.span)
                self.expr(e, sc, ctx)
                return g.type
        if isinstance(e, A.Attr):
            t = self.expr(e, sc, ctx)
            if isinstance(e.ref, tuple) and e.ref[0] in ("cardvar", "field") and e.name not in ("negated", "kind",
                                                                                                "controller", "source"):
                return t
            hint = None
            if isinstance(e.ref, tuple) and e.ref[0] == "cardattr":
                hint = "card attributes are fixed; declare `var NAME: TYPE per card = …` to change them"
            elif isinstance(e.ref, tuple) and e.ref[0] == "field":
                hint = "write: negate IT" if e.name == "negated" else f"an item's {e.name} is set when it is made"
            raise self.fail("E204", f"{e.name} cannot be assigned here", e.span, hint)
        self.expr(e, sc, ctx)
        raise self.fail("E204", "this cannot be assigned", e.span)
