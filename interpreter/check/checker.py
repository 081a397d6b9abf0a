"""The checker's driver: declarations first, then every body, then what needs the whole program
(suspension, reachability, unused names, secrets).
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from .. import ast as A
from .. import distinct_values, named, secret_places
from ..errors import Diagnostic, FudaError, Span
from ..load import Source
from ..parse import too_deep
from .bodies import Bodies
from .folding import const_value
from .secrecy import _set_by_choice
from .symbols import (
    BUILTIN_ENUMS,
    CheckSym,
    Ctx,
    OptionsSym,
    PhaseSym,
    Proc,
    Program,
    RuleSym,
    Sym,
    WindowSym,
    _shown_members,
    text_plain,
)

DT = TypeVar("DT", bound=A.Decl)


class Checker(Bodies):
    """The whole pass: declarations, then every body, then what needs the whole program."""

    # -------------------------------------------------------------- driver
    def run(self) -> Program:
        decls = self.src.decls
        def by(cls: type[DT]) -> list[DT]:
            return [d for d in decls if isinstance(d, cls)]
        file0 = self.src.chain[0] if self.src.chain else "<ruleset>"
        top = Span(file0, 1, 1, 1, 2)
        if not by(A.RulesetDecl):
            self.err("E308", "a ruleset file starts with `ruleset NAME`", top,
                     'e.g. ruleset my_game "My game | 私のゲーム"')
        name = by(A.RulesetDecl)[-1].name if by(A.RulesetDecl) else "unnamed"
        decl_title = by(A.RulesetDecl)[-1].title if by(A.RulesetDecl) else None
        # "English | 日本語" as written (Game.title_in picks one); the name when there is none
        title = " | ".join(dict.fromkeys(text_plain(decl_title, i) for i in range(len(decl_title.parts)))) \
            if decl_title is not None else name

        for ed in by(A.EnumDecl):
            self.enum_decl(ed.name, [(m.name, text_plain(m.label) if m.label else m.name) for m in ed.members],
                           ed.span, [m.span for m in ed.members]).shown = _shown_members(ed.members)
        for en, members in BUILTIN_ENUMS.items():
            self.enum_decl(en, members, top, builtin=True)
        header = by(A.RulesetDecl)[-1].span if by(A.RulesetDecl) else top
        self.players_decl(by(A.PlayersDecl), top)
        self.apply_given(self.options["players"], header)
        deck = self.deck_data(by(A.CardsDecl))   # template enums must exist before options use them
        for od in by(A.OptionDecl):
            self.option_decl(od)
            self.apply_given(self.options[od.name], header)
        self.unknown_given_options(header)
        self.zones_decl(by(A.ZoneDecl))
        self.cards_decl(by(A.CardsDecl), deck, top)
        self.vars_decl(by(A.VarDecl))
        for fd in by(A.FnDecl):
            self.fn_signature(fd)
        for rd in by(A.RuleDecl):
            self.rule_signature(rd)
        for i, pd in enumerate(by(A.PhaseDecl)):
            phase = PhaseSym(pd.name, pd.span, decl=pd, index=i)
            self.declare(pd.name, phase, pd.span)
            self.phases.append(phase)
        for efd in by(A.EffectDecl):
            self.effect_signature(efd)
        for ordd in by(A.OrderingDecl):
            self.ordering_signature(ordd)
        for wd in by(A.WindowDecl):
            window = WindowSym(wd.name, wd.span, decl=wd)
            self.declare(wd.name, window, wd.span)
            self.windows[wd.name] = window
        for gd in by(A.OptionsDecl):
            self.declare(gd.name, OptionsSym(gd.name, gd.span, used=gd.used), gd.span)
        for cd in by(A.CheckDecl):
            chk = CheckSym(cd.name, cd.span, decl=cd)
            self.declare(cd.name, chk, cd.span)
            self.checks.append(chk)
        self.members_named_like_enums(by(A.EnumDecl), by(A.OptionDecl))
        self.fixed_labels(decls)
        for gd in by(A.OptionsDecl):        # a group's parameters, as a rule's: no global's name
            for prm in gd.params:
                self.no_shadow(prm.name, prm.span)
        shows = by(A.ShowDecl)
        self.show = self.check_show(shows[-1]) if shows else None
        for rq in by(A.RequireDecl):
            self.check_require(rq)
        limit = by(A.LimitDecl)[-1] if by(A.LimitDecl) else None
        score_label = by(A.ScoreDecl)[-1].label if by(A.ScoreDecl) else None
        if score_label is not None:
            self.plain_label(score_label, "the score's label")
            if any(not text_plain(score_label, lang).strip() for lang in (0, 1)):    # "P0 lose (place 2,  -3)"
                self.err("E309", "the score's label is blank: results would show a number with no name",
                         score_label.span, "score \"Points | 点\" (or leave `score` out: it reads score)")
        if limit is not None and limit.unit != "decisions":
            self.err("E309", f"limit counts decisions, not {limit.unit}", limit.span, "write: limit 2000 decisions")
        if limit is not None and limit.then not in ("draw", "lose"):
            self.err("E309", f"at the limit the players still in the game draw or lose, not {limit.then!r}",
                     limit.span, "write: limit 2000 decisions then lose (or then draw, as without it)")

        # bodies
        for f in self.fns.values():
            self.check_fn(f)
        evaluate = self.check_evaluate(by(A.EvaluateDecl)[-1]) if by(A.EvaluateDecl) else None
        allies = self.check_allies(by(A.AlliesDecl)[-1]) if by(A.AlliesDecl) else None
        belief = self.check_belief(by(A.BeliefDecl)[-1]) if by(A.BeliefDecl) else None
        for o in self.orderings.values():
            self.check_ordering(o)
        setup_decl = by(A.SetupDecl)[-1] if by(A.SetupDecl) else None
        if setup_decl is None:
            self.err("E302", "the ruleset has no setup", top, "add: setup { shuffle …; deal … }")
            setup = Proc("setup", "setup", top, [])
        else:
            setup = self.new_proc("setup", "setup", setup_decl.span, setup_decl.body)
            self.check_body(setup, Ctx("setup", setup))
        for r in self.rules.values():
            assert r.proc
            self.check_body(r.proc, Ctx("rule", r.proc, ret=r.proc.ret))
        for ph in self.phases:
            assert ph.decl
            ph.proc = self.new_proc("phase", ph.name, ph.decl.span, ph.decl.body)
            self.check_body(ph.proc, Ctx("phase", ph.proc))
        for e in self.effects:
            assert e.proc
            self.check_body(e.proc, Ctx("effect", e.proc))
        order = self.window_order(by(A.WindowsDecl))
        for w in order:
            self.check_window(w)
        for w in self.windows.values():
            if w not in order:
                self.check_window(w)
        for c in self.checks:
            self.check_check(c)
        for ro, chooser, osc in self.rule_options:      # a rule's decisions, now that every call is seen
            self.warn_telling_where(ro, chooser, osc)
        self.judge_w104_across()
        if not self.phases:
            self.err("E303", "the ruleset has no phase", top, "add: phase play { … }")
        for proc in self.procs:
            proc.body[:] = prune(proc.body)
            proc.suspends_direct, proc.calls = _decisions_and_calls(proc.body)
        self.suspension()
        self.reachability()
        self.unused()
        if self.diags:
            raise FudaError(self.diags, self.src.sources)
        named.mark(self.defs)       # on a checked text only: every name resolved, no function calling itself
        distinct_values.mark(self.list_defs)
        kept: list[Any] = []    # what `choose … hidden` picks and sets: secret for good, not told by its blocks
        for opts, assigned, hidden, who in self.secret_choices:  # every rule's body is checked now: follow the calls
            set_by = _set_by_choice([set_here + self.set_by_calls(o.body)
                                     for o, set_here in zip(opts, assigned, strict=True)])
            self.picks.extend(set_by)
            if hidden:
                self.warn_public_set_by_choice(opts, set_by, who)
                kept.extend(set_by)
                kept.extend(b for o in opts for b in self.binder_syms.get(id(o), []))
        # a function's parameter is not marked: its call is secret by the arguments that call gives
        params = {id(x) for f in self.fns.values() for x in f.params}
        defs = [(s, v) for s, v in [*self.defs, *self.list_defs, *self.var_defs] if id(s) not in params]
        secret_places.mark(defs, kept)          # first what a hidden choice keeps: W104 reads it
        self.warn_told_by_secret()
        secret_places.mark(defs, self.picks)
        assert self.cards is not None
        static_slots = sum(z.count for z in self.zones if z.kind != "sequence")
        seq_count = sum(z.count for z in self.zones if z.kind == "sequence")
        g_size = self._g_size
        return Program(
            name=name, title=title, sources=self.src.sources, chain=self.src.chain,
            players=self.n_players, min_players=self.min_players, max_players=self.max_players,
            options=self.options, option_values={k: o.value for k, o in self.options.items()},
            enums=self.enums, cards=self.cards, zones=self.zones, static_slots=static_slots,
            seq_count=seq_count, vars=self.vars, g_size=g_size, fns=self.fns, rules=self.rules,
            phases=self.phases, effects=self.effects, item_fields=self.item_fields, item_field_labels=self.item_field_labels, windows=order,
            checks=self.checks, orderings=self.orderings, setup=setup, procs=self.procs,
            limit=limit.count if limit else 100_000, limit_loses=limit is not None and limit.then == "lose",
            warnings=[w for w in self.warnings if not _silenced(w, self.src.sources)],
            builtin_slots=self.builtin_slots, show=self.show, evaluate=evaluate, eval_range=self.eval_range,
            allies=allies, belief=belief, score_label=score_label, seat_names=self.seat_names,
            sets_current=any(sym.name == "current" and sym.slot == 0 for sym, _ in self.var_defs))

    # -------------------------------------------------------------- whole-program checks
    def suspension(self) -> None:
        """A procedure suspends if it decides, activates, or calls a rule that suspends."""
        procs = [p for p in self.procs]
        for p in procs:
            p.suspends = p.suspends_direct
        changed = True
        while changed:
            changed = False
            for p in procs:
                if not p.suspends and any(r.proc and r.proc.suspends for r, _, _ in p.calls):
                    p.suspends = True
                    changed = True
        for p in procs:
            for r, call, top in p.calls:
                assert r.proc
                if r.proc.suspends and not top:
                    self.err("E306", f"rule {r.name} asks for decisions, so it is called on its own, not inside "
                             "an expression", call.span, f"let x = {r.name}(…) first")
                if r.proc.suspends and p.kind == "check":
                    self.err("E306", f"rule {r.name} asks for decisions; a check cannot wait for one", call.span)

    def reachability(self) -> None:
        if not self.phases:
            return
        for ph in self.phases[1:]:
            if ph.name not in self.goto_targets:
                self.err("E301", f"phase {ph.name} is never entered", ph.span,
                         f"the game starts in phase {self.phases[0].name}; reach this one with: goto {ph.name}")
        self.phases[0].used = True

    def unused(self) -> None:
        """W101, for the file being checked: in a variant, a base declaration left unused by an
        override is the base's (the variant cannot remove it)."""
        own = self.src.chain[0] if self.src.chain else None
        for name, g in self.globals.items():
            if isinstance(g, Sym) and not g.used and g.span.line > 0:
                if isinstance(g, PhaseSym | CheckSym | WindowSym) or (own is not None and g.span.file != own):
                    continue
                kind = type(g).__name__.removesuffix("Sym").lower()
                self.warn("W101", f"{kind} {name} is never used", g.span)


def prune(body: list[A.Stmt]) -> list[A.Stmt]:
    """Drop branches an option rules out, so a rule that asks only under some option does not wait
    (and is compiled as a plain function) when that option is off."""
    out: list[A.Stmt] = []
    for s in body:
        if isinstance(s, A.If):
            branches: list[tuple[A.Expr, list[A.Stmt]]] = []
            taken: list[A.Stmt] | None = None
            for c, b in s.branches:
                ok, v = const_value(c)
                if ok and not v:
                    continue
                if ok and v and not branches:
                    taken = b
                    break
                branches.append((c, prune(b)))
                if ok and v:
                    break
            else:
                if not branches and s.orelse is not None:
                    taken = s.orelse
            if taken is not None:
                out.extend(prune(taken))
            elif branches:
                orelse = prune(s.orelse) if s.orelse is not None else None
                if branches and const_value(branches[-1][0]) == (True, True):
                    orelse = None
                out.append(A.If(span=s.span, branches=branches, orelse=orelse))
            continue
        if isinstance(s, A.While):
            ok, v = const_value(s.cond)
            if ok and not v:
                continue
            s.body[:] = prune(s.body)
        elif isinstance(s, A.Repeat | A.For | A.Turn):
            s.body[:] = prune(s.body)
        elif isinstance(s, A.Choose):
            for o in s.options:
                o.body[:] = prune(o.body)
            if s.otherwise is not None:
                s.otherwise[:] = prune(s.otherwise)
        elif isinstance(s, A.Simultaneous):
            for o in s.options:
                o.body[:] = prune(o.body)
        out.append(s)
    return out


def _decisions_and_calls(body: list[A.Stmt]) -> tuple[bool, list[tuple[RuleSym, A.Call, bool]]]:
    """Does a body decide by itself, and which rules does it call (and is each call a whole statement)?"""
    direct = False
    calls: list[tuple[RuleSym, A.Call, bool]] = []

    def expr(e: Any, top: bool) -> None:
        if isinstance(e, A.Call) and isinstance(e.ref, RuleSym):
            calls.append((e.ref, e, top))
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                if f not in ("span", "ty", "ref"):
                    sub(getattr(e, f))

    def sub(v: Any) -> None:
        if isinstance(v, A.Expr):
            expr(v, False)
        elif isinstance(v, A.Text):
            for parts in v.parts:
                for p in parts:
                    sub(p)
        elif isinstance(v, A.Node):
            for f in v.__dataclass_fields__:
                if f not in ("span", "ty", "ref"):
                    sub(getattr(v, f))
        elif isinstance(v, list | tuple):
            for x in v:
                if isinstance(x, A.Stmt):
                    stmt(x)
                else:
                    sub(x)

    def stmt(s: A.Stmt) -> None:
        nonlocal direct
        if isinstance(s, A.Choose | A.Simultaneous | A.Activate):
            direct = True
        if isinstance(s, A.ExprStmt):
            expr(s.expr, True)
            return
        if isinstance(s, A.Let | A.Assign):
            expr(s.value, True)
            if isinstance(s, A.Assign):
                sub(s.target)
            return
        sub(s)

    for s in body:
        stmt(s)
    return direct, calls


_SILENCE = re.compile(r"#\s*fuda:\s*ignore\b\s*\[?\s*([A-Z]\d+(?:\s*,\s*[A-Z]\d+)*)?")


def _silenced(w: Diagnostic, sources: dict[str, str]) -> bool:
    """A warning the ruleset silences where it points: `# fuda: ignore[W102]` (or every warning of the
    line, `# fuda: ignore`) at the end of its line or alone on the line above — for a case the warning
    cannot see through (a hand revealed to everyone in another rule)."""
    lines = sources.get(w.span.file, "").splitlines()
    here = [lines[w.span.line - 1]] if 0 < w.span.line <= len(lines) else []
    above = lines[w.span.line - 2].strip() if 1 < w.span.line <= len(lines) + 1 else ""
    for text in here + ([above] if above.startswith("#") else []):
        m = _SILENCE.search(text)
        if m and (m.group(1) is None or w.code in re.split(r"\s*,\s*", m.group(1))):
            return True
    return False


def check(src: Source, options: dict[str, Any] | None = None) -> Program:
    try:
        return Checker(src, options).run()
    except RecursionError:
        file = src.chain[0] if src.chain else "<ruleset>"
        raise too_deep(file, src.sources.get(file, "")) from None
