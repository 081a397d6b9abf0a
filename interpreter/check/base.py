"""The checker's state and its reporting: the first layer of the checker (see the package's docstring)."""

from __future__ import annotations

from typing import Any

from .. import ast as A
from .. import types as T
from ..errors import Diagnostic, Span
from ..load import Source
from .symbols import (
    EXPRESSION_KEYWORDS,
    PLACES,
    RESERVED,
    RESERVED_MEANING,
    Abort,
    Cards,
    CheckSym,
    EffectSym,
    EnumSym,
    FnSym,
    LocalSym,
    MemberRef,
    OptionSym,
    OrderingSym,
    PhaseSym,
    Proc,
    RuleSym,
    Scope,
    Sym,
    VarSym,
    WindowSym,
    ZoneSym,
    _defaults,
)


class CheckerBase:
    """The checker's state and its reporting."""

    show: tuple[Proc, A.ShowDecl] | None
    min_players: int
    max_players: int
    builtin_slots: dict[str, int]
    _g_size: int
    _deck_args: Any

    def __init__(self, src: Source, options: dict[str, Any] | None = None) -> None:
        self.binder_elem: dict[int, T.T] = {}     # a binder (by id) → the type of its values (W102)
        self.zone_values: dict[int, list[ZoneSym]] = {}   # a zone local (by id) → the zones it may be (W104)
        self.binder_sources: dict[int, list[tuple[A.Expr, Scope]]] = {}   # an option's binder (by id) → its list (W104)
        self.comp_sources: dict[int, A.Expr] = {}   # a comprehension's zone binder (by id) → its list (top_card_up)
        self.src = src
        self.given = dict(options or {})
        self.diags: list[Diagnostic] = list(src.merge_diags)
        self.eval_range: tuple[float, float] = (0, 1)   # evaluate's LO..HI (check_evaluate)
        self.fixed_calls = 0        # functions being worked out as fixed values, nested (const): a bound
        self.fn_decls = {d.name: d for d in src.decls if isinstance(d, A.FnDecl)}     # (const), before fns are declared
        self.fixed_fn_uses: set[str] = set()        # the fns called in fixed values (const): used
        self.warnings: list[Diagnostic] = []
        self.defs: list[tuple[LocalSym | VarSym, A.Expr]] = []     # what named.mark reads
        self.list_defs: list[tuple[LocalSym, A.Expr | None]] = []   # what distinct_values.mark reads
        self.var_defs: list[tuple[VarSym, A.Expr]] = []     # every variable's assignments (secret_places.mark)
        self.picks: list[LocalSym | VarSym | Sym] = []    # binders of secret decisions, what their blocks set (secret_places.py)
        # per option being checked, innermost last: the variables and locals its block sets, and how
        # (`mode = 1`): which option of a secret decision was taken is secret too (secret_places.py)
        self.secret_sets: list[list[tuple[Any, str]]] = []
        # what `xs[i] = e` was rewritten to (by id, kept alive): its replaced(…) and, for `+=` and the like, `xs[i] + e`
        self.item_values: dict[int, A.Expr] = {}
        self.binder_syms: dict[int, list[LocalSym]] = {}    # a secret decision's option (by id) → its binders' locals
        # secret decisions' options and what their blocks set, for what the rules they call set
        self.secret_choices: list[tuple[list[A.Option], list[list[tuple[Any, str]]], bool, A.Expr | None]] = []
        self.tally = Sym("record", Span("<records>", 0, 0, 0, 0))    # the records, as a secret may set them
        self.uses_checked: dict[int, bool] = {}     # `use GROUP(…)` (by id) → whether its arguments fit
        self.groups = {d.name: d for d in src.decls if isinstance(d, A.OptionsDecl)}
        # a written-out copy of a group's options (Span.copy) → the decision's `use` it was written for
        self.copy_uses: dict[int, A.UseOptions] = {
            o.span.copy: o.origin for o in A.walk(src.decls) if isinstance(o, A.Option) and o.origin is not None}
        # a local (by id) → its definitions: the value, the scope it is read in, and for a rule's parameter
        # the call's arguments by parameter (W102, W104 follow them: zones_through_locals)
        self.local_defs: dict[int, list[tuple[A.Expr, Scope, dict[str, A.Expr] | None]]] = {}
        self.rule_options: list[tuple[A.Option, A.Expr, Scope]] = []    # W102 again once every call is seen
        # W104 across bodies: where a rule is called or a phase gone to, what was revealed there (and what the
        # body there may have hidden since it began); and the logs of variables left to judge by them
        self.flow_sites: list[tuple[tuple[str, str], tuple[str, str] | None, frozenset[str], frozenset[str]]] = []
        self.w104_pending: list[tuple[tuple[str, str], frozenset[str], frozenset[str], tuple[str, str, Span, str]]] = []
        self.card_labels: dict[str, tuple[str, str]] = {}       # a custom deck's card labels (Cards.labels)
        self.card_repeats: dict[str, int] = {}     # how often a card name was declared (E102 counts them)
        self.card_homes: dict[int, A.CardIn] = {}  # a card (by index) → the `in ZONE { … }` it is declared in
        self.label_spans: dict[str, Span] = {}
        self.card_spans: dict[str, Span] = {}      # where a custom deck declares each card (W109)
        self.absent_cards: dict[str, tuple[str, str]] = {}     # Cards.absent
        self.variant_deck: A.CardsDecl | None = None    # a variant's `cards` line, replacing the base's (E108)
        self.base_deck_size: int | None = None      # how many cards the base's `cards` line would make (E108)
        self.globals: dict[str, Any] = {}
        self.members: dict[str, list[MemberRef]] = {}
        self.enums: dict[str, EnumSym] = {}
        self.options: dict[str, OptionSym] = {}
        self.zones: list[ZoneSym] = []
        self.vars: list[VarSym] = []
        self.fns: dict[str, FnSym] = {}
        self.rules: dict[str, RuleSym] = {}
        self.phases: list[PhaseSym] = []
        self.effects: list[EffectSym] = []
        self.windows: dict[str, WindowSym] = {}
        self.checks: list[CheckSym] = []
        self.orderings: dict[str, OrderingSym] = {}
        self.procs: list[Proc] = []
        self.item_fields: dict[str, tuple[int, T.T]] = {}
        self.item_field_labels: dict[str, A.Text] = {}
        self.goto_targets: set[str] = set()
        self.n_players = 2
        # what a fixed expression may use, said where one reads a name it may not (E201)
        self.fixed_hint = "initial values and option defaults use literals, options, enum members and enums (the list of their members)"
        self.seat_names: list[tuple[str, str]] | None = None
        self.cards: Cards | None = None
        self.fn_stack: list[FnSym] = []
        self.in_where: str | None = None
        self.nobody_out: bool | None = None     # no `finish` or `sit out` anywhere: active is players (every_player)
        self.nobody_rejoins: bool | None = None     # no `rejoin` anywhere: active only shrinks (each_active)
        self.shown_exprs: frozenset[str] = frozenset()    # the expressions revealed where W104 reads (expr_key)
        self.reader: A.Expr | None = None     # the chooser whose option W102 is looking at (face_read)    # checking the condition of a count/any/all … where (for hints)

    # -------------------------------------------------------------- reporting
    def err(self, code: str, msg: str, span: Span, hint: str | None = None) -> None:
        d = Diagnostic(code, msg, span, hint)
        if d not in self.diags:     # a deck's `for` checks its items once per value
            self.diags.append(d)

    def fail(self, code: str, msg: str, span: Span, hint: str | None = None) -> Abort:
        self.err(code, msg, span, hint)
        return Abort()

    def warn(self, code: str, msg: str, span: Span, hint: str | None = None) -> None:
        d = Diagnostic(code, msg, span, hint, "warning")
        if d not in self.warnings:      # a body checked twice (a rule inlined, a deck's `for`) warns once
            self.warnings.append(d)

    def use_of(self, span: Span) -> A.UseOptions | None:
        """The decision's `use` whose written-out copy of a group's text ``span`` is in, if it is
        (not the use's own arguments and block, which are the decision's text): for a mistake that
        only this use makes, to say which use it is."""
        use = self.copy_uses.get(span.copy) if span.copy else None
        if use is None:
            return None
        at = use.span
        inside = span.file == at.file and (at.line, at.col) <= (span.line, span.col) <= (at.end_line, at.end_col)
        return None if inside else use

    def used_at(self, span: Span) -> str:
        """" (options g, used at FILE:L:C)" for a span in a group's copy (use_of), else ""."""
        use = self.use_of(span)
        return f" (options {use.name}, used at {use.span})" if use is not None else ""

    def declare(self, name: str, sym: Any, span: Span) -> None:
        if name in RESERVED:
            meaning = RESERVED_MEANING.get(name)
            self.err("E110", f"{name!r} is a built-in name and cannot be declared"
                     + (f": {name}[p] is {meaning}" if name in ("score", "place", "out") else
                        f": it is {meaning}" if meaning else ""), span, "give yours another name")
            return
        if name in self.globals:
            prev = self.globals[name]
            if not any(d.code == "E102" and (d.span == span or f" {name}: the name is already taken by " in d.message)
                       for d in self.diags):    # said when merging (load.py)
                self.err("E102", f"{name} is already declared", span,
                         f"the other declaration is at {prev.span}" if hasattr(prev, "span") else None)
            return
        self.globals[name] = sym
        self.keyword_name(name, span)

    def keyword_name(self, name: str, span: Span, hint: str = "choose another name (total, n_cards)") -> None:
        """W106: `count`, `any`, `all`, `best`, `sorted` and `distinct` begin an expression as keywords, so a name
        spelt so cannot be read where an expression starts (`x = count`)."""
        if name in EXPRESSION_KEYWORDS:
            self.warn("W106", f"{name} is a keyword where an expression starts ({name} x in L …): reading "
                      f"{name} there fails", span, hint)

    def new_proc(self, kind: str, name: str, span: Span, body: list[A.Stmt]) -> Proc:
        p = Proc(kind, name, span, body, index=len(self.procs))
        self.procs.append(p)
        return p

    def flow_site(self, target: tuple[str, str], sc: Scope) -> None:
        """A call of rule or a goto to a phase (``target``): what is revealed to everyone there (W104)."""
        self.flow_sites.append((target, _flow_key(sc.proc), sc.all_revealed(), sc.forgotten_here()))

    def may_hide(self, body: list[A.Stmt], seen: frozenset[str] = frozenset(), sc: Scope | None = None,
                 given: dict[str, set[str]] | None = None) -> set[str]:
        """What ``body`` may hide again (`hide bid[p]`), move cards into or shuffle (PLACES), also in the
        rules it calls: a reveal before it no longer counts after it (W104). ``sc``: the scope around it; ``given``: the
        names a rule's parameters stand for at its call (`put(hand[q])`: z is hand)."""
        given = given or {}
        nodes = [n for n in A.walk(body) if isinstance(n, A.Hide | A.Move | A.Deal | A.Swap | A.Call | A.Let | A.For
                                                       | A.Binder | A.Shuffle)]
        lets = {x.name: x.value for x in nodes if isinstance(x, A.Let)} \
            | {x.var: x.source for x in nodes if isinstance(x, A.For | A.Binder)}
        out: set[str] = set()
        for n in nodes:
            if isinstance(n, A.Hide):
                out |= self.names_under(n.what, sc, given, lets)
            elif isinstance(n, A.Move | A.Deal | A.Swap):
                out |= self.moved_into(n, sc, given, lets)
            elif isinstance(n, A.Shuffle):
                out.add(PLACES)
            elif isinstance(n, A.Call) and isinstance(r := self.rules.get(n.func), RuleSym) \
                    and r.decl is not None and n.func not in seen:
                seen |= {n.func}
                out |= self.may_hide(r.decl.body, seen, sc, self.given_names(r.decl, n, sc, given, lets))
        return out

    def given_names(self, decl: A.RuleDecl, call: A.Call, sc: Scope | None, given: dict[str, set[str]] | None = None,
                    lets: dict[str, A.Expr] | None = None) -> dict[str, set[str]]:
        """A rule's zone and card parameters, each as the names what its call gives it stands for
        (`names_under`); a player's or a number's stand for nothing but themselves."""
        args = _defaults(decl) | {p.name: a for p, a in zip(decl.params, call.args, strict=False)} \
            | {k.name: k.value for k in call.kwargs}
        places = {p.name for p in r.proc.params if T.ZONE in (p.type, p.type.elem) or T.CARD in (p.type, p.type.elem)} \
            if isinstance(r := self.rules.get(decl.name), RuleSym) and r.proc is not None else set(args)
        return {name: self.names_under(a, sc, given or {}, lets or {}) for name, a in args.items() if name in places}

    def moved_into(self, s: A.Move | A.Deal | A.Swap, sc: Scope | None = None, given: dict[str, set[str]] | None = None,
                   lets: dict[str, A.Expr] | None = None) -> set[str]:
        """The names a move, deal or swap puts cards under (W104: a card come in since a reveal was not
        revealed): a move's zone as written and what a local or a rule's parameter there stands for (`let
        z = hand[p]`, then `move c to z`), a swap's cards' zones (`swap a with b`: each is where the other
        was) — every zone where none can be told (`swap card("♠A") with c`, a rule's card parameter)."""
        if isinstance(s, A.Deal):
            return {s.dest}
        out: set[str] = set()
        for e in [s.dest] if isinstance(s, A.Move) else [s.a, s.b]:
            names = self.names_under(e, sc, given or {}, lets or {})
            out |= names if any(isinstance(self.globals.get(n), ZoneSym) for n in names) else \
                names | {z.name for z in self.zones}
        return out

    def names_under(self, e: A.Expr, sc: Scope | None, given: dict[str, set[str]], lets: dict[str, A.Expr],
                    seen: frozenset[int | str] = frozenset()) -> set[str]:
        """The names ``e`` is written with, and what its zone and card locals stand for: the zones a zone
        local may be, what a card local was read from (`let a = top(hand[p])`: hand), through their
        definitions (``lets``: a body's not checked yet), a rule's parameters (``given``) and the
        functions ``e`` calls — every zone for a zone local whose definition is not known here (a card
        local's, `moved_into` judges: a swap of it may be anywhere)."""
        out: set[str] = set()
        for n in A.walk(e):
            if isinstance(n, A.Call) and isinstance(f := self.globals.get(n.func), FnSym) and f.decl is not None \
                    and n.func not in seen:     # its parameters: the arguments, read here
                out |= self.names_under(f.decl.body, None, {p.name: set() for p in f.decl.params}, {}, seen | {n.func})
            if not isinstance(n, A.Name):
                continue
            out.add(n.name)
            loc = n.ref if isinstance(n.ref, LocalSym) else sc.lookup(n.name) if sc is not None and n.ref is None else None
            if n.name in given:
                out |= given[n.name]
            elif isinstance(loc, LocalSym) and id(loc) not in seen and not loc.comp \
                    and (T.ZONE in (loc.type, loc.type.elem) or T.CARD in (loc.type, loc.type.elem)):
                defs = [(v, d) for v, d, g in self.local_defs.get(id(loc), []) if g is None] \
                    or self.binder_sources.get(id(loc), [])
                if (zs := self.zone_values.get(id(loc))) is not None:
                    out |= {z.name for z in zs}
                elif defs:
                    for v, d in defs:
                        out |= self.names_under(v, d, {}, {}, seen | {id(loc)})
                elif T.ZONE in (loc.type, loc.type.elem):
                    out |= {z.name for z in self.zones}
            elif n.ref is None and loc is None and n.name in lets and n.name not in seen:
                out |= self.names_under(lets[n.name], sc, given, lets, seen | {n.name})
        return out


def _flow_key(proc: Proc | None) -> tuple[str, str] | None:
    """A rule or a phase, as W104 follows what is revealed into it; another body starts with nothing."""
    return (proc.kind, proc.name) if proc is not None and proc.kind in ("rule", "phase") else None
