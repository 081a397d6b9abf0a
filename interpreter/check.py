"""Semantic analysis: merged declarations + option values → a checked ``Program``.

The checker resolves every name (annotating ``Expr.ref``), infers and checks every type
(``Expr.ty``), evaluates what is fixed once options are known (option values, the deck, variable
initial values), allocates storage (zone slots, variable slots, local slots), works out which rules
may wait for a decision, and reports every static mistake with its span — all of them at once.
"""

from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from . import ast as A
from . import distinct_values, named, secret_places, sugar
from . import types as T
from .decks import TEMPLATES, DeckData, ascii_aliases
from .errors import Diagnostic, FudaError, Span, did_you_mean
from .load import Source
from .parse import too_deep

BUILTIN_ENUMS = {"Pattern": [("orthogonal", "orthogonal | 縦横"), ("diagonal", "diagonal | 斜め"),
                             ("king", "king | 八方")]}
# the types a `carried` variable may have: values that mean the same in the next game of a match
CARRIABLE = ("int", "number", "bool", "text", "player", "enum")

RESERVED = {"current", "direction", "players", "active", "stack", "score", "place", "out", "true",
            "false", "none", "list", "of"}
EFFECT_LOCALS = ("item", "controller", "source", "times")
EXPRESSION_KEYWORDS = ("count", "any", "all", "best", "sorted")     # W106
SEAT_HINT = "players are not numbers: name a seat with players[0]"
MAX_FIXED_RANGE = 100_000       # a fixed a..b (deck loops, initial values) is built in memory
ITEM_FIELDS = {"kind": T.EFFECT, "controller": T.PLAYER, "source": T.CARD, "times": T.INT,
               "negated": T.BOOL}


DT = TypeVar("DT", bound=A.Decl)


class Abort(Exception):
    """Stop checking one construct after its error has been recorded."""


# ------------------------------------------------------------------ symbols
@dataclass(eq=False)
class Sym:
    name: str
    span: Span
    used: bool = False


@dataclass(eq=False)
class OptionSym(Sym):
    type: T.T = T.ANY
    value: Any = None
    decl: A.OptionDecl | None = None
    members: list[str] = field(default_factory=list)
    lo: int | None = None
    hi: int | None = None
    default: Any = None


@dataclass(eq=False)
class EnumSym(Sym):
    members: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    shown: list[tuple[str, str]] | None = None     # (English, Japanese) in texts; None: by name

    @property
    def type(self) -> T.T:
        return T.enum(self.name)


@dataclass(eq=False)
class ZoneSym(Sym):
    decl: A.ZoneDecl | None = None
    index: int = 0              # declaration order
    base: int = 0               # first static slot (not for sequences)
    count: int = 1              # static slots
    width: int = 0              # a grid's size, worked out from the options
    height: int = 0
    seq_base: int = 0           # sequences: first index in State.sq
    in_game: bool = True        # `zone … if COND` under these options: views leave an unused zone out while empty

    @property
    def kind(self) -> str:
        assert self.decl
        return self.decl.kind

    @property
    def per_player(self) -> bool:
        assert self.decl
        return self.decl.per_player

    @property
    def type(self) -> T.T:
        assert self.decl
        if self.decl.kind == "sequence":
            return T.T("seqfam", self.name) if self.decl.per_player else T.T("seq", self.name)
        if self.decl.kind == "grid":
            return T.T("grid", self.name)
        return T.T("zonefam", self.name) if self.decl.per_player else T.ZONE


@dataclass(eq=False)
class VarSym(Sym):
    type: T.T = T.ANY
    scope: str = "global"       # global | player | card
    slot: int = 0               # first slot in State.g
    visibility: str = "public"
    init: Any = None
    readonly: bool = False
    decl: A.VarDecl | None = None
    named: bool = True          # a card variable set only from named values (named.py): its card is public
    secret: bool = False        # set from a secret decision's pick (secret_places.py)


@dataclass(eq=False)
class LocalSym(Sym):
    type: T.T = T.ANY
    slot: int = 0
    comp: bool = False          # bound inside an expression (comprehension, quantifier)
    readonly: bool = False
    public: bool = False        # set only from named values (named.py): every player can work it out
    distinct: bool = False      # a list that never holds a value twice (distinct_values.py)
    secret: bool = False        # a secret decision's pick, or worked out from one (secret_places.py)
    sized: bool = False         # a list as long as a zone or a fixed list: its size is public (_size_public)


@dataclass(eq=False)
class Proc:
    """A body of statements that becomes one compiled procedure."""
    kind: str                   # setup phase rule effect window check
    name: str
    span: Span
    body: list[A.Stmt]
    params: list[LocalSym] = field(default_factory=list)
    locals: list[LocalSym] = field(default_factory=list)
    ret: T.T | None = None
    suspends_direct: bool = False
    calls: list[tuple[RuleSym, A.Call, bool]] = field(default_factory=list)
    suspends: bool = False
    index: int = 0

    def new_local(self, name: str, ty: T.T, span: Span, comp: bool = False, readonly: bool = False) -> LocalSym:
        sym = LocalSym(name, span, type=ty, slot=len(self.locals), comp=comp, readonly=readonly)
        self.locals.append(sym)
        return sym


@dataclass(eq=False)
class FnSym(Sym):
    decl: A.FnDecl | None = None
    params: list[LocalSym] = field(default_factory=list)
    ret: T.T = T.ANY
    locals: list[LocalSym] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)
    checked: bool = False


@dataclass(eq=False)
class RuleSym(Sym):
    decl: A.RuleDecl | None = None
    proc: Proc | None = None


@dataclass(eq=False)
class PhaseSym(Sym):
    decl: A.PhaseDecl | None = None
    index: int = 0
    proc: Proc | None = None


@dataclass(eq=False)
class EffectSym(Sym):
    decl: A.EffectDecl | None = None
    index: int = 0
    params: list[tuple[str, T.T]] = field(default_factory=list)
    proc: Proc | None = None


@dataclass(eq=False)
class WindowSym(Sym):
    decl: A.WindowDecl | None = None
    index: int = 0
    procs: list[Proc] = field(default_factory=list)     # one per option
    scope_proc: Proc | None = None                        # locals of when/responders/where
    prompt_player: LocalSym | None = None                 # the responder, in the window's own label


@dataclass(eq=False)
class OptionsSym(Sym):
    """A group of options (`options NAME(…) { … }`), written out where it is used (sugar.py)."""


@dataclass(eq=False)
class CheckSym(Sym):
    decl: A.CheckDecl | None = None
    proc: Proc | None = None
    var: LocalSym | None = None


@dataclass(eq=False)
class OrderingSym(Sym):
    decl: A.OrderingDecl | None = None
    params: list[LocalSym] = field(default_factory=list)
    locals: list[LocalSym] = field(default_factory=list)


@dataclass(eq=False)
class MemberRef:
    enum: EnumSym
    index: int


@dataclass
class Cards:
    names: list[str]
    attrs: dict[str, list[Any]]         # values as run-time values (enum members as ints)
    attr_types: dict[str, T.T]
    aliases: dict[str, str]
    start_zone: ZoneSym | None = None
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)   # name → how players read it (en, ja)


@dataclass
class Program:
    name: str
    title: str
    sources: dict[str, str]
    chain: list[str]
    players: int
    min_players: int
    max_players: int
    options: dict[str, OptionSym]
    option_values: dict[str, Any]
    enums: dict[str, EnumSym]
    cards: Cards
    zones: list[ZoneSym]
    static_slots: int
    seq_count: int
    vars: list[VarSym]
    g_size: int
    fns: dict[str, FnSym]
    rules: dict[str, RuleSym]
    phases: list[PhaseSym]
    effects: list[EffectSym]
    item_fields: dict[str, tuple[int, T.T]]
    item_field_labels: dict[str, A.Text]    # how screens call a field (the first effect's label); none: bookkeeping
    windows: list[WindowSym]           # in window order
    checks: list[CheckSym]
    orderings: dict[str, OrderingSym]
    setup: Proc
    procs: list[Proc]
    limit: int
    warnings: list[Diagnostic]
    builtin_slots: dict[str, int]
    show: tuple[Proc, A.ShowDecl] | None = None
    evaluate: A.EvaluateDecl | None = None      # the bots' evaluation (its fn is in ``fns``)
    eval_range: tuple[float, float] = (0, 1)    # its LO..HI, worked out with these options
    allies: A.AlliesDecl | None = None          # who counts whom on their side (its fn is in ``fns``)
    belief: A.BeliefDecl | None = None          # where a bot's sampled world may deal a card (its fn is in ``fns``)
    score_label: A.Text | None = None           # `score "Points | 文"`: how players call the score
    seat_names: list[tuple[str, str]] | None = None     # `players … seats "North | 北", …`, P0 first

    def option_label(self, name: str) -> str:
        o = self.options[name]
        return text_plain(o.decl.label) if o.decl and o.decl.label else name


def _shown(value: Any) -> str:
    """An option value as a ruleset or an options file writes it: true, none, "text", 3."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def _defaults(decl: A.FnDecl | A.RuleDecl | A.EffectDecl | A.OrderingDecl | None) -> dict[str, A.Expr]:
    """The default values a declaration gives its parameters."""
    return {p.name: p.default for p in decl.params if p.default is not None} if decl is not None else {}


def _shown_members(members: list[A.EnumMember]) -> list[tuple[str, str]] | None:
    """How a declared enum's members read in texts: by their labels, if the enum gives any."""
    if not any(m.label for m in members):
        return None
    return [(text_plain(m.label, 0), text_plain(m.label, 1)) if m.label else (m.name, m.name) for m in members]


def _holds_cards(t: T.T | None) -> bool:
    """A card, or a list of them at any depth (Gin Rummy's melds: a list of lists of cards)."""
    while t is not None and t != T.CARD and t.kind == "list":
        t = t.elem
    return t == T.CARD


def text_plain(t: A.Text | None, lang: int = 0) -> str:
    if t is None:
        return ""
    parts = t.parts[min(lang, len(t.parts) - 1)]
    return "".join(p if isinstance(p, str) else "{…}" for p in parts)


# ------------------------------------------------------------------ scopes
class Scope:
    def __init__(self, parent: Scope | None = None, proc: Proc | None = None) -> None:
        self.parent = parent
        self.names: dict[str, LocalSym] = {}
        self.proc: Proc | None = proc if proc is not None else (parent.proc if parent else None)
        self.revealed: set[str] = set()     # zones a `reveal` to everyone showed earlier in the block (W104)

    def was_revealed(self, zone: str) -> bool:
        s: Scope | None = self
        while s is not None:
            if zone in s.revealed:
                return True
            s = s.parent
        return False

    def lookup(self, name: str) -> LocalSym | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> list[str]:
        out: list[str] = []
        s: Scope | None = self
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out


@dataclass
class Ctx:
    """What the statements being checked may do."""
    kind: str                       # fn rule phase setup effect window check ordering
    proc: Proc | None = None
    fn: FnSym | None = None
    pure: bool = False              # no randomness (conditions, functions)
    loop: int = 0
    ret: T.T | None = None
    may_decide: bool = True
    offer: bool = False             # the innermost loop is an `offer` round (no continue)


# ------------------------------------------------------------------ the checker
class Checker:
    def __init__(self, src: Source, options: dict[str, Any] | None = None) -> None:
        self.binder_elem: dict[int, T.T] = {}     # a binder (by id) → the type of its values (W102)
        self.zone_values: dict[int, list[ZoneSym]] = {}   # a zone local (by id) → the zones it may be (W104)
        self.src = src
        self.given = dict(options or {})
        self.diags: list[Diagnostic] = list(src.merge_diags)
        self.eval_range: tuple[float, float] = (0, 1)   # evaluate's LO..HI (check_evaluate)
        self.warnings: list[Diagnostic] = []
        self.defs: list[tuple[LocalSym | VarSym, A.Expr]] = []     # what named.mark reads
        self.list_defs: list[tuple[LocalSym, A.Expr | None]] = []   # what distinct_values.mark reads
        self.var_defs: list[tuple[VarSym, A.Expr]] = []     # every variable's assignments (secret_places.mark)
        self.picks: list[LocalSym | VarSym | Sym] = []    # binders of secret decisions, what their blocks set (secret_places.py)
        # per option being checked, innermost last: the variables and locals its block sets, and how
        # (`mode = 1`): which option of a secret decision was taken is secret too (secret_places.py)
        self.secret_sets: list[list[tuple[Any, str]]] = []
        self.binder_syms: dict[int, list[LocalSym]] = {}    # a secret decision's option (by id) → its binders' locals
        # secret decisions' options and what their blocks set, for what the rules they call set
        self.secret_choices: list[tuple[list[A.Option], list[list[tuple[Any, str]]], bool]] = []
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
        self.card_labels: dict[str, tuple[str, str]] = {}       # a custom deck's card labels (Cards.labels)
        self.card_repeats: dict[str, int] = {}     # how often a card name was declared (E102 counts them)
        self.label_spans: dict[str, Span] = {}
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
        self.fixed_hint = "initial values and option defaults use literals, options and enum members"
        self.seat_names: list[tuple[str, str]] | None = None
        self.cards: Cards | None = None
        self.fn_stack: list[FnSym] = []
        self.in_where: str | None = None    # checking the condition of a count/any/all … where (for hints)

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
            self.err("E110", f"{name!r} is a built-in name and cannot be declared", span)
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

    def keyword_name(self, name: str, span: Span) -> None:
        """W106: `count`, `any`, `all`, `best` and `sorted` begin an expression as keywords, so a name
        spelt so cannot be read where an expression starts (`x = count`)."""
        if name in EXPRESSION_KEYWORDS:
            self.warn("W106", f"{name} is a keyword where an expression starts ({name} x in L …): reading "
                      f"{name} there fails", span, "choose another name (total, n_cards)")

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
        self.players_decl(by(A.PlayersDecl), top)
        deck = self.deck_data(by(A.CardsDecl))   # template enums must exist before options use them
        for od in by(A.OptionDecl):
            self.option_decl(od)
        self.apply_given_options(by(A.RulesetDecl)[-1].span if by(A.RulesetDecl) else top)
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
        for opts, assigned, hidden in self.secret_choices:     # every rule's body is checked now: follow the calls
            set_by = _set_by_choice([set_here + self.set_by_calls(o.body)
                                     for o, set_here in zip(opts, assigned, strict=True)])
            self.picks.extend(set_by)
            if hidden:
                kept.extend(set_by)
                kept.extend(b for o in opts for b in self.binder_syms.get(id(o), []))
        defs = [*self.defs, *self.list_defs, *self.var_defs]
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
            limit=limit.count if limit else 100_000,
            warnings=[w for w in self.warnings if not _silenced(w, self.src.sources)],
            builtin_slots=self.builtin_slots, show=self.show, evaluate=evaluate, eval_range=self.eval_range,
            allies=allies, belief=belief, score_label=score_label, seat_names=self.seat_names)

    def new_proc(self, kind: str, name: str, span: Span, body: list[A.Stmt]) -> Proc:
        p = Proc(kind, name, span, body, index=len(self.procs))
        self.procs.append(p)
        return p

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
            if builtin and m in self.members:   # a ruleset's own member wins its bare name (Role.king)
                continue
            self.members.setdefault(m, []).append(MemberRef(sym, i))
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
            elif any(h.strip().isdigit() for h in names[i]):
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
            pass
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
                raise self.fail("E402", f"option {sym.name} is a whole number; {what} value {_shown(value)} is not", span)
            if (sym.lo is not None and value < sym.lo) or (sym.hi is not None and value > sym.hi):
                raise self.fail("E402", f"option {sym.name} must be within {sym.lo}..{sym.hi}; {what} value is {value}",
                                span)
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

    def apply_given_options(self, top: Span) -> None:
        """Options given from outside: an unknown one is reported at the ruleset's header, a bad value at
        the option's declaration (which shows its type and range)."""
        for k, v in self.given.items():
            before = len(self.diags)
            if k not in self.options:
                self.err("E401", f"unknown option {k!r}", top, did_you_mean(str(k), self.options) or
                         "options: " + ", ".join(self.options))
            else:
                sym = self.options[k]
                try:
                    sym.value = self.option_value(sym, v, sym.span if sym.span.line > 0 else top, given=True)
                except Abort:
                    pass
            for d in self.diags[before:]:      # about this given value: a caller may show where it came from
                d.subject = str(k)
        self.n_players = self.options["players"].value

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
                return list(range(self.n_players))
            refs = self.members.get(e.name)
            if refs and len(refs) == 1:
                refs[0].enum.used = True
                return refs[0]
            if refs:
                raise self.fail("E101", f"{e.name} is a member of several enums: say which",
                                e.span, " or ".join(f"{r.enum.name}.{e.name}" for r in refs))
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
        raise self.fail("E201", "this must be a fixed value (literal, option, enum member; lists, tuples and "
                        "size/min/max/sum/abs/floor/ceil/round of those)", e.span)

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

    def zone_in_game(self, e: A.Expr) -> bool:
        """A zone's `if`: a fixed condition (true after a reported mistake, so nothing is hidden)."""
        hint, self.fixed_hint = self.fixed_hint, ("a zone's `if` is fixed before the game starts: it uses "
                                                  "literals, options, enum members and size(players)")
        try:
            v = self.const(e, None)
        except Abort:
            return True
        finally:
            self.fixed_hint = hint
        if not isinstance(v, bool):
            self.err("E201", f"a zone's `if` is a condition (true or false), not {_const_type(v)}", e.span)
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
            if d.in_game is not None:
                z.in_game = self.zone_in_game(d.in_game)
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

    def cards_decl(self, decls: list[A.CardsDecl], deck: DeckData | None, top: Span) -> None:
        names: list[str] = []
        attrs: dict[str, list[Any]] = {}
        attr_types: dict[str, T.T] = {}
        aliases: dict[str, str] = {}
        if not decls:
            self.err("E310", "the ruleset has no cards", top, "add: cards standard(jokers = 0) in DECK_ZONE")
        else:
            d = decls[-1]
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
            z = self.globals.get(d.zone or "")
            if not isinstance(z, ZoneSym):
                self.err("E101", f"unknown zone {d.zone}", d.zone_span or d.span,
                         did_you_mean(d.zone or "", [x.name for x in self.zones]))
            elif z.per_player or z.kind in ("grid", "sequence"):
                self.err("E203", f"cards start in one shared zone; {z.name} is not one", d.zone_span or d.span)
            else:
                z.used = True
                start = z
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
        self.cards = Cards(names, attrs, attr_types, aliases, start, self.card_labels)
        self.warn_unclear_labels(names, attrs)

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
                    if name in names:       # each time its own message: a loop's ten are counted as such
                        times = self.card_repeats[name] = self.card_repeats.get(name, 1) + 1
                        raise self.fail("E102", f"card {name} is declared " + ("twice" if times == 2 else
                                                                                 f"{times} times"),
                                        it.span, "card names must be unique")
                    names.append(name)
                    if it.label is not None:
                        parts = it.label.parts
                        halves = (self.fixed_text(parts[0], env, 0), self.fixed_text(parts[-1], env, 1))
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
            except Abort:
                pass

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
        for d in decls:
            sym = VarSym(d.name, d.span, decl=d, scope=d.scope, visibility=d.visibility)
            self.declare(d.name, sym, d.span)
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

    def plain_label(self, label: A.Text, what: str) -> None:
        """A declaration's label names a thing once for all: plain text, no `{…}` values in it."""
        if any(not isinstance(x, str) for half in label.parts for x in half):
            self.err("E309", f"{what} is plain text: it cannot show values", label.span,
                     "write the values where they are shown: a log, a prompt, an option's label")

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

    # -------------------------------------------------------------- signatures
    def not_builtin(self, kind: str, name: str, span: Span) -> None:
        """E102: a fn or rule named as a built-in function would replace it unseen (a built-in added
        later included), while the checks would still reason about the built-in."""
        from .builtins import BUILTINS

        if name in BUILTINS:
            self.err("E102", f"{kind} {name} has the name of a built-in function ({BUILTINS[name].usage})", span,
                     f"give the {kind} another name")

    def fn_signature(self, d: A.FnDecl) -> None:
        self.not_builtin("fn", d.name, d.span)
        sym = FnSym(d.name, d.span, decl=d)
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
                self.err("E107", f"window {w.name} is not in the windows order", w.span,
                         f"add it to: windows {', '.join(d.names)}")
        for i, w in enumerate(out):
            w.index = i
        return out

    # -------------------------------------------------------------- bodies
    def check_fn(self, f: FnSym) -> None:
        if f.checked:
            return
        f.checked = True
        assert f.decl
        sc = Scope()
        for p in f.params:
            sc.names[p.name] = p
        self.fn_stack.append(f)
        try:
            t = self.expr(f.decl.body, sc, Ctx("fn", fn=f, pure=True))
            if f.decl.ret is None:
                f.ret = t
            elif not T.assignable(t, f.ret):
                result = f.decl.body
                while isinstance(result, A.LetIn):
                    result = result.body
                self.err("E201", f"{f.name} returns {f.ret} but its body is {t}", result.span)
        except Abort:
            pass
        finally:
            self.fn_stack.pop()

    def check_evaluate(self, d: A.EvaluateDecl) -> A.EvaluateDecl | None:
        """``evaluate FN in LO..HI after N decisions``: FN(p: player) -> a number, LO < HI."""
        f = self.named_fn(d, "fn standing(p: player) -> int = …")
        if f is None:
            return None
        ok = True
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
        with the message and the values of the options it reads."""
        try:
            ok = self.const(d.cond, None)
        except Abort:
            return
        if not isinstance(ok, bool):
            self.err("E201", f"require needs a condition, true or false; this is {_const_type(ok)}", d.cond.span)
        elif not ok:
            read = sorted(n for n in _names_in(d.cond) if n in self.options)
            values = ", ".join(f"{o} = {_option_shown(self.options[o])}" for o in read)
            self.err("E402", f"{text_plain(d.text, 0)}" + (f" ({values})" if values else ""), d.span,
                     "choose other options (--set NAME=VALUE)")

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
                    if not (T.is_numeric(bt) or bt.kind in ("text", "key", "enum")):
                        self.err("E201", f"a tier is ordered by a number, text or key, not {bt}", t.by.span)
                except Abort:
                    pass
        o.locals = fake.locals

    def check_body(self, proc: Proc, ctx: Ctx) -> None:
        sc = Scope(proc=proc)
        for p in proc.params:
            sc.names[p.name] = p
        self.block(proc.body, sc, ctx)
        if proc.ret is not None and proc.kind == "rule" and not _returns(proc.body):
            self.err("E312", f"rule {proc.name} must return {_a(str(proc.ret))} on every path", proc.span,
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
        return [x for item in e.items for x in (Checker.tuple_parts(item) if isinstance(item, A.TupleLit) else [item])]

    @staticmethod
    def leftover_hint(prev: A.Stmt, word: str) -> str:
        if word == "at" and isinstance(prev, A.Deal):
            return "`deal` puts cards on top; `move CARD to ZONE at N` puts one N cards down"
        if re.fullmatch(r"[eE][0-9]*", word):       # 1e3 read as 1, then e3
            return "numbers are written out, without an exponent: 1000, 0.001"
        return "end the statement before it, or see its form in docs/language.md (fuda source)"

    def cond(self, e: A.Expr, sc: Scope, ctx: Ctx) -> None:
        try:
            pure = replace(ctx, pure=True)
            t = self.expr(e, sc, pure)
            if t.kind not in ("bool", "any"):
                counted = isinstance(e, A.Quantifier) and e.kind == "count"
                self.err("E205", f"a condition must be true or false; this is {t}", e.span,
                         "compare the count in parentheses: (count x in L where C) > 0 — `where` takes "
                         "everything after it" if counted else "compare it: x == y, size(z) > 0")
        except Abort:
            pass

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
            raise self.fail("E306", f"{what} cannot happen inside a {ctx.kind}", s.span,
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
            self.warn_branching_on_hidden(s, sc)
        elif isinstance(s, A.While):
            if s.offer is not None:
                self.want(s.offer, T.list_of(T.PLAYER), sc, ctx, "offer … in a list of players")
            self.cond(s.cond, sc, ctx)
            self.block(s.body, sc, _loop(ctx, offer=s.offer is not None))
        elif isinstance(s, A.Repeat):
            self.want(s.count, T.INT, sc, ctx, "repeat counts a whole number of times")
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
            self.block(s.body, inner, _loop(ctx))
            # a showdown: `for p in players { reveal hand[p] }` shows those zones for what follows (W104)
            sc.revealed.update(n for x in s.body if isinstance(x, A.Reveal) and x.to is None
                               for n, _ in _zones_read(x.what))
        elif isinstance(s, A.Break | A.Continue):
            word = type(s).__name__.lower()
            use = self.use_of(s.span)       # a group's break: right in a loop, wrong where this use is
            at, where = (use.span, f": options {use.name} has one, at {s.span}") if use is not None \
                else (s.span, "")
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
                self.err("E312", f"the rule returns a {ctx.ret}: say what", s.span)
        elif isinstance(s, A.Move):
            self.cards_expr(s.cards, sc, ctx)
            self.dest_zone(s.dest, sc, ctx)
            if s.at is not None:
                self.want(s.at, T.INT, sc, ctx, "move … at a number of cards from the top")
                if s.under:
                    self.err("E309", "a card goes under a zone or at a depth, not both", s.at.span,
                             "`at 0` is the top; `at size(Z)` the bottom")
            dests = self.zones_named(s.dest)
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
        elif isinstance(s, A.Shuffle):
            self.dest_zone(s.zone, sc, ctx, "shuffle takes a zone")
            self.impure(s, ctx)
        elif isinstance(s, A.Reveal | A.Hide):
            what = s.what
            if self.is_var_ref(what, sc):
                self.expr(what, sc, ctx)
                if isinstance(s, A.Reveal) and s.to is not None:
                    self.err("E309", "a variable is revealed to everyone", s.to.span)
            else:
                self.cards_expr(what, sc, ctx)
            if isinstance(s, A.Reveal) and s.to is None:
                sc.revealed.update(name for name, _ in _zones_read(what))
            if isinstance(s, A.Reveal) and s.to is not None:
                tt = self.expr(s.to, sc, ctx)
                if not (T.assignable(tt, T.PLAYER) or T.assignable(tt, T.list_of(T.PLAYER))):
                    self.err("E201", f"reveal … to a player or a list of players, not {tt}", s.to.span)
        elif isinstance(s, A.Swap):
            self.want(s.a, T.CARD, sc, ctx, "swap exchanges two cards")
            self.want(s.b, T.CARD, sc, ctx, "swap exchanges two cards")
        elif isinstance(s, A.Choose):
            self.decide(s, ctx, "a decision")
            self.want(s.player, T.PLAYER, sc, ctx, "choose asks one player")
            if s.label is not None:     # the prompt may interpolate values: resolve its names
                self.text(s.label, sc, Ctx(ctx.kind, ctx.proc, pure=True))
                self.warn_log_naming_hidden(s.label, sc, s.player)
            self.decision_options(s.options, sc, ctx, s.player, public=not s.hidden, hidden=s.hidden)
            if s.otherwise is not None:
                self.block(s.otherwise, sc, ctx)
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
        elif isinstance(s, A.Turn):
            self.want(s.player, T.PLAYER, sc, ctx, "turn takes a player")
            self.block(s.body, sc, ctx)
        elif isinstance(s, A.Goto):
            ph = self.globals.get(s.phase)
            if not isinstance(ph, PhaseSym):    # a phase whose name another declaration took (E102) is still one
                ph = next((p for p in self.phases if p.name == s.phase), None)
            if ph is None:
                raise self.fail("E105", f"unknown phase {s.phase}", s.span,
                                did_you_mean(s.phase, [p.name for p in self.phases]))
            ph.used = True
            self.goto_targets.add(s.phase)
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
            if st.kind != "seq":
                raise self.fail("E203", f"insert adds a zone to a sequence, not to {st}", s.seq.span,
                                "declare: zone lines: sequence per player; then: insert lines[p] front as z")
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

    def shows_everyone(self, body: list[A.Stmt], name: str, args: dict[str, A.Expr] | None = None,
                       depth: int = 0) -> bool:
        """Whether a rule's body surely moves its card parameter ``name`` where everyone sees it (face up,
        or to public zones) or reveals it to everyone (W104 after a call of the rule): a statement of
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
        for n in body:
            if isinstance(n, A.Return):
                return False
            if isinstance(n, A.Move) and isinstance(n.cards, A.Name) and n.cards.name == name \
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
        for name, _owner in self.zones_through_locals(s.value, sc, skip=own):
            z = self.globals.get(name)
            if isinstance(z, ZoneSym) and z.decl is not None and z.decl.visibility != "public" \
                    and not sc.was_revealed(name):
                self.warn("W104", f"{var.name} is public and is set here from the cards of {name}, which some "
                          f"players may not see: every player's view shows it", s.value.span,
                          f"declare {var.name} hidden or owner (a variable only its owner sees), or reveal the "
                          "cards first" if var.decl is not None else "reveal the cards first (a showdown), or set it "
                          "from what everyone sees")
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
                and z.decl.visibility != "public" and not sc.was_revealed(name)])
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        for body, zones in zip(bodies, tested + (tested[-1:] if s.orelse is not None else []), strict=True):
            if not zones:
                continue
            stmts = _statements(body)
            if any(isinstance(n, A.Reveal) and n.to is None or isinstance(n, A.Move) and (
                    n.face == "up" or (ds := self.zones_named(n.dest)) is not None and bool(ds)
                    and all(d.decl is not None and d.decl.visibility == "public" for d in ds)) for n in stmts):
                continue
            for n in stmts:
                if isinstance(n, A.Log):
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

    def warn_rule_logging_hidden(self, call: A.Call | A.Activate, sc: Scope) -> None:
        """W104 at a call: a rule (or an effect) that logs its parameter (`rule announce(cs: list of card)
        { log "{cs}" }`) given cards of a zone some players may not see names them in every player's log."""
        if isinstance(call, A.Activate):
            eff = self.globals.get(call.effect)
            decl: A.RuleDecl | A.EffectDecl | None = eff.decl if isinstance(eff, EffectSym) else None
            name = call.effect
        else:
            decl = call.ref.decl if isinstance(call.ref, RuleSym) else None
            name = call.func
        if decl is None:
            return
        given = {p.name: a for p, a in zip(decl.params, call.args, strict=False)}
        for prm, arg in zip(decl.params, call.args, strict=False):
            hidden = [n for n, _ in self.zones_through_locals(arg, sc) if not sc.was_revealed(n)
                      and isinstance(z := self.globals.get(n), ZoneSym) and z.decl is not None
                      and z.decl.visibility != "public"]
            if hidden and self.logs_param(decl, prm.name, given):
                self.warn("W104", f"{name} logs its {prm.name}, given the cards of {hidden[0]} here, which some "
                          f"players may not see: every player's log would name them", arg.span,
                          "reveal them first (a reveal is logged with the cards, to whom it shows them), or "
                          "log only what everyone may know")
                return

    def logs_param(self, decl: A.RuleDecl | A.EffectDecl, name: str, args: dict[str, A.Expr] | None = None,
                   depth: int = 0) -> bool:
        """Whether a rule's `log` names its parameter ``name`` (or a card of it a loop takes: `for c in
        cs { log "{c}" }`; also in a rule it hands it to) before a statement of its block shows it to
        everyone (`move c to table` then `log "{c}"` is fine; ``args``: the call's, for a zone given)."""
        names = {name}

        def block(stmts: list[Any]) -> bool:
            for s in stmts:
                if isinstance(s, A.Log) and any(_names_shown(e, names)
                                                for half in s.text.parts for e in half if not isinstance(e, str)):
                    return True
                if self.shows_everyone([s], name, args):
                    return False        # shown: the rest of this block may name it
                if isinstance(s, A.For) and any(isinstance(x, A.Name) and x.name in names for x in A.walk(s.source)):
                    names.add(s.var)
                for c in (n for n in A.walk([v for k, v in vars(s).items() if k not in ("ty", "ref", "span")])
                          if isinstance(n, A.Call)):
                    r = self.globals.get(c.func)
                    if depth < 8 and isinstance(r, RuleSym) and r.decl is not None and r.decl is not decl \
                            and any(isinstance(a, A.Name) and a.name in names and self.logs_param(r.decl, p.name, None, depth + 1)
                                    for p, a in zip(r.decl.params, c.args, strict=False)):
                        return True
                if any(block(b) for b in _inner_blocks(s)):
                    return True
            return False
        return block(decl.body)

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
        reads deck), but for a local whose card was shown to everyone since. A log (W104) follows
        card and text locals only; ``every``: any local (`let rs = [c.rank for c in hand[q]]`), for
        what a decision offers (W102); ``params``: a rule's parameters too, to what its calls give
        them, the owner of a zone named by the parameter it was given as (`pick(q, cards(hand[q]))`:
        `hand[p]` inside `rule pick(p, cs)`); ``skip``: a local not followed."""
        out: list[tuple[str, A.Expr | None]] = []
        for name, owner in self.zones_read_deep(e, places=places):
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
                               what: str = "prompt") -> None:
        """W104: a log line is everyone's, so one that shows the cards of a zone some players may not
        see (`log "the top card is {top(deck)}"`, or a local taken from there) names them to all
        (counting them is fine); a decision's prompt (``chooser``: its player), or ``what`` else its
        chooser reads (an option's `else` text), names them to a chooser who may not see them."""
        text = s.text if isinstance(s, A.Log) else s
        for e in (x for parts in text.parts for x in parts if not isinstance(x, str)):
            for name, owner in self.zones_through_locals(e, revealed):
                z = self.globals.get(name)
                if isinstance(z, VarSym) and self.var_unseen(z, owner, chooser) and not revealed.was_revealed(name):
                    whom = "the chooser" if chooser is not None else "some players"
                    self.warn("W104", f"this {what if chooser is not None else 'log'} shows {name} (a "
                              f"`{z.visibility}` variable), which {whom} may not see", e.span,
                              f"`reveal {name}` first (everyone then sees it), or `tell` the player who may see it")
                    return
                if not isinstance(z, ZoneSym) or z.decl is None:
                    continue
                # `{cs}` names the cards; `{points(cs)}` tells something of them
                shown = f"the cards of {name}" if e.ty is not None and T.CARD in (e.ty, e.ty.elem) else \
                    f"a value worked out from the cards of {name}"
                if chooser is not None and self.unseen_by(z, owner, chooser):
                    self.warn("W104", f"this {what} shows {shown}, which the chooser may not see",
                              e.span, "reveal them to the chooser first (`reveal … to …`), or leave them out")
                    return
                if chooser is None and z.decl.visibility != "public" and not revealed.was_revealed(name):
                    self.warn("W104", f"this log shows {shown}, which some players may not see: every "
                              "player's log would tell it", e.span,
                              "reveal them instead (a reveal is logged with the cards, to whom it shows them), "
                              "or `tell` the player who may see them")
                    return

    def impure(self, s: A.Stmt | A.Expr, ctx: Ctx) -> None:
        if ctx.pure:
            raise self.fail("E313", "randomness where the rules must not change the game", s.span,
                            "conditions and functions only look; shuffle or draw at random in a rule")

    def is_var_ref(self, e: A.Expr, sc: Scope) -> bool:
        if isinstance(e, A.Name):
            return isinstance(self.globals.get(e.name), VarSym) and sc.lookup(e.name) is None
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
            return isinstance(self.globals.get(e.obj.name), VarSym) and sc.lookup(e.obj.name) is None
        return False

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
        if not public:
            self.picks.extend(_set_by_choice(assigned))
            self.secret_choices.append((opts, assigned, hidden))
            if hidden:
                self.warn_telling_choice(opts)      # an optional choice's pass runs nothing

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

    def set_by_calls(self, body: list[A.Stmt], depth: int = 0) -> list[tuple[Any, str]]:
        """The variables, and the records, that the rules called in ``body`` set (rules they call
        too), each as the call sets it (`set_mode(1)` and `set_mode(2)` apart)."""
        out: list[tuple[Any, str]] = []
        for n in A.walk(body):
            if isinstance(n, A.Call) and isinstance(n.ref, RuleSym) and n.ref.decl is not None and depth < 8:
                how = f"call {_shape(n)!r}"
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
        shapes = [{_shape(n) for n in ns} for ns in found]
        for o, ns in zip(opts, found, strict=True):
            for n in ns:
                if all(_shape(n) in other for other in shapes):
                    continue
                call = n.expr.func if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) else None
                everywhere = call is not None and all(
                    any(isinstance(x, A.ExprStmt) and isinstance(x.expr, A.Call) and x.expr.func == call for x in ns)
                    for ns in found)
                what = (f"this call of rule {call} runs with arguments that differ between the options"
                        if everywhere else f"this call of rule {call} runs only when {o.name} is taken"
                        if call is not None else f"this {type(n).__name__.lower()} runs only when {o.name} is taken")
                self.warn("W104", f"{what}: everyone sees it, and so which option of this hidden decision was "
                          f"chosen{self.used_at(n.span)}", n.span,
                          "do the same in every option, or leave it to what the rules reveal later; a rule's "
                          "moves are not hidden as the block's own are: write the move in the block")

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
        if self.warn_reading_unseen(o, chooser, sc):
            return
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
            if o.where is not None and self.face_read(o.where, b.var, b.source):
                self.warn("W102", f"the where of option {o.name} tests the cards of {zone_name}, which the chooser "
                          f"may not see: the legal actions would tell them which cards lie there", o.where.span,
                          f"offer every card of {zone_name} and decide in the option's block, or let a player "
                          "who sees them choose")
            told = [e for e in shown if not (isinstance(e, A.Name) and e.name == b.var) and self.face_read(e, b.var, b.source)]
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
            parts += [(x, "label") for half in o.label.parts for x in half if not isinstance(x, str)]
        parts += [(b.source, "list") for b in o.binders if not _zone_itself(b.source)
                  and self.binder_elem.get(id(b)) not in (T.CARD, T.list_of(T.CARD))]  # cards: warn_naming_hidden
        places = {b.var: b.source for b in o.binders if _zone_itself(b.source)}
        for e, what in parts:
            for name, owner in self.zones_through_locals(e, sc, every=True, places=places):
                z = self.globals.get(name)
                if name in own or not isinstance(z, ZoneSym) or z.decl is None or not self.unseen_by(z, owner, chooser):
                    continue
                self.warn("W102", f"the {what} of option {o.name} reads the cards of {name}, which the chooser "
                          f"may not see: the legal actions would tell them what lies there", e.span,
                          "offer what the chooser may know, and decide in the option's block (a wrong guess is "
                          "a guess that misses), or let a player who sees the cards choose")
                return True
        return False

    def zones_read_deep(self, e: A.Expr, seen: frozenset[int] = frozenset(),
                        places: dict[str, A.Expr] | None = None) -> list[tuple[str, A.Expr | None]]:
        """The zones an expression reads the cards of (`_zones_read`), also through the functions it
        calls, a parameter standing for its argument (`holds(q, r)` reads `hand[q]`). Going over a
        zone reads it only if the cards' faces are read (`any c in hand[q] where c.told == r` reads
        the backs); ``places``: binders over zones, whose position `index_of(cards(Z), c)` is no read."""
        out = self._reads(e, places or {})
        for call in (n for n in A.walk(e) if isinstance(n, A.Call)):
            f = self.globals.get(call.func)
            if not isinstance(f, FnSym) or f.decl is None or id(f) in seen:
                continue
            args = {p.name: a for p, a in zip(f.decl.params, call.args, strict=False)}
            for name, owner in self.zones_read_deep(f.decl.body, seen | {id(f)}):
                if name in args:
                    continue        # a zone given as an argument: read where the call names it
                if isinstance(owner, A.Name) and owner.name in args:
                    owner = args[owner.name]
                out.append((name, owner))
        return out

    def face_read(self, e: Any, var: str, zone: A.Expr, seen: frozenset[int] = frozenset()) -> bool:
        """Whether ``e`` reads more of the card ``var`` (a binder over ``zone``) than everyone sees of it:
        not what is written on its back (a `back` variable), whether it is face up (`revealed(c)`), or
        its position (`index_of(cards(zone), c)`); also through the functions it is given to."""
        if isinstance(e, A.Name):
            return e.name == var
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.name == var:
            sym = self.globals.get(e.name)
            return not (isinstance(sym, VarSym) and sym.visibility == "back")
        if isinstance(e, A.Call):
            if e.func == "revealed":
                return False
            if e.func == "index_of" and len(e.args) == 2 and isinstance(e.args[1], A.Name) \
                    and e.args[1].name == var and isinstance(e.args[0], A.Call) and e.args[0].func == "cards" \
                    and len(e.args[0].args) == 1 and _same_expr(e.args[0].args[0], zone):
                return False
            f = self.globals.get(e.func)
            if isinstance(f, FnSym) and f.decl is not None and id(f) not in seen:
                for p, a in zip(f.decl.params, e.args, strict=False):
                    if isinstance(a, A.Name) and a.name == var:
                        if self.face_read(f.decl.body, p.name, zone, seen | {id(f)}):
                            return True
                    elif self.face_read(a, var, zone, seen):
                        return True
                return False
        if isinstance(e, list):
            return any(self.face_read(x, var, zone, seen) for x in e)
        if isinstance(e, A.Node):
            return any(self.face_read(v, var, zone, seen) for v in vars(e).values() if isinstance(v, A.Node | list))
        return False

    def _reads(self, e: Any, places: dict[str, A.Expr]) -> list[tuple[str, A.Expr | None]]:
        if isinstance(e, A.Quantifier | A.Comprehension | A.Best) and _zone_itself(e.source):
            inner = [x for x in (e.cond, getattr(e, "elem", None), getattr(e, "key", None)) if x is not None]
            src = _zones_read(e.source) if self.face_read(inner, e.var, e.source) else \
                _zones_read(e.source.args if isinstance(e.source, A.Index) else [])
            return src + self._reads(inner, {**places, e.var: e.source})     # its cards' places: no read
        if isinstance(e, A.Call) and e.func == "index_of" and len(e.args) == 2 and isinstance(e.args[1], A.Name) \
                and e.args[1].name in places and isinstance(e.args[0], A.Call) and e.args[0].func == "cards" \
                and len(e.args[0].args) == 1 and _same_expr(e.args[0].args[0], places[e.args[1].name]):
            return []
        if isinstance(e, A.Call) and e.func == "size" and e.args and not _size_public(e.args[0]):
            return self._reads(e.args, places)
        if self.top_card_up(e):
            return []                   # the top card of a pile `top up`: everyone sees it
        if isinstance(e, A.Name | A.Index) or isinstance(e, A.Call) and e.func in _NOT_READ \
                or isinstance(e, A.Binary) and _none_test(e) or _place_in_seq(e):
            return _zones_read(e)       # a zone, a count, an emptiness test: as _zones_read reads them
        if isinstance(e, list):
            return [r for x in e for r in self._reads(x, places)]
        if isinstance(e, A.Node):
            return [r for v in vars(e).values() if isinstance(v, A.Node | list) for r in self._reads(v, places)]
        return []

    def top_card_up(self, e: Any) -> bool:
        """`top(Z)` of a pile declared `top up` (or of one of such per-player piles): a card face up."""
        if not (isinstance(e, A.Call) and e.func == "top" and len(e.args) == 1):
            return False
        z = e.args[0].obj if isinstance(e.args[0], A.Index) else e.args[0]
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
        legal actions; a binder over the zone itself (`take c in hand[q]`) offers their places."""
        et = self.binder_elem.get(id(b))
        if et is None or not (et == T.CARD or et.kind == "list" and et.elem == T.CARD):
            return
        for name, owner in self.zones_through_locals(b.source, sc, every=True, params=True):
            z = self.globals.get(name)
            if isinstance(z, ZoneSym) and z.decl is not None and self.unseen_by(z, owner, chooser):
                self.warn("W102", f"option {o.name} names the cards of {name}, which the chooser may not see: "
                          f"its legal actions would list them", b.source.span,
                          f"bind the cards of the zone itself, one a decision (`c in {name}`): a card the chooser "
                          "cannot see is then offered by its place")
                return

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

    def text(self, t: A.Text, sc: Scope, ctx: Ctx) -> None:
        for parts in t.parts:
            for p in parts:
                if not isinstance(p, str):
                    try:
                        pt = self.expr(p, sc, ctx)
                        if pt.kind == "tuple" or pt.kind == "list" and pt.elem is not None and pt.elem.kind == "tuple":
                            # its parts' types are not kept: a card would show as its number in the deck
                            self.err("E201", "a tuple cannot be shown in a text: show its parts", p.span,
                                     "{t[0]} and {t[1]}, each shown as its type is (a card by name or place)")
                    except Abort:
                        pass

    def want(self, e: A.Expr, ty: T.T, sc: Scope, ctx: Ctx, why: str) -> T.T:
        t = self.expr(e, sc, ctx)
        if not T.assignable(t, ty):
            raise self.fail("E201", f"{why}: expected {ty}, got {t}", e.span, self.member_hint(e, ty))
        return t

    def member_hint(self, e: A.Expr, ty: T.T) -> str | None:
        """A name that is also a member of the enum wanted: the global of that name hid it."""
        en = self.enums.get(ty.name or "") if ty.kind == "enum" else None
        if isinstance(e, A.Name) and en is not None and e.name in en.members:
            return f"{e.name} here is the {type(self.globals.get(e.name)).__name__[:-3].lower() or 'name'} " \
                   f"{e.name}, which hides the member: write {en.name}.{e.name} (or rename one of them)"
        return None

    def cards_expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> None:
        t = self.expr(e, sc, ctx)
        if t.kind in ("card", "zone", "any", "none"):
            return
        if t.kind == "list" and t.elem is not None and t.elem.kind in ("card", "any", "none"):
            return
        hint = None
        if t.kind == "zonefam":
            hint = f"{t.name} belongs to each player: write {t.name}[p]"
        raise self.fail("E201", f"expected a card, cards or a zone; got {t}", e.span, hint)

    def dest_zone(self, e: A.Expr, sc: Scope, ctx: Ctx, why: str = "cards move to a zone") -> None:
        t = self.expr(e, sc, ctx)
        if t.kind in ("zone", "any"):
            return
        if t.kind == "zonefam":
            raise self.fail("E206", f"{why}; {t.name} is a zone per player: say whose", e.span,
                            f"{t.name} belongs to each player: write {t.name}[p]")
        z = self.globals.get(t.name or "")
        whole = f"{t.name}[p]" if isinstance(z, ZoneSym) and z.per_player else f"{t.name}"
        hints = {"grid": f"{t.name} is a grid: name a square, {t.name}[x, y]",
                 "seq": f"{whole} is a sequence of zones: pick one, {whole}[i]",
                 "seqfam": f"{t.name} is a sequence of zones per player: {t.name}[p][i]"}
        raise self.fail("E203", f"{why}; this is {t}, which cannot hold cards", e.span, hints.get(t.kind))

    def assign(self, s: A.Assign, sc: Scope, ctx: Ctx) -> None:
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
        if isinstance(sym, LocalSym) and id(sym) in self.zone_values:      # may now be other zones too
            more = self.zones_named(s.value)
            if more is None:
                del self.zone_values[id(sym)]
            else:
                self.zone_values[id(sym)] = self.zone_values[id(sym)] + more
        if s.op == "=":
            if not T.assignable(vt, tt):
                self.err("E201", f"cannot store {vt} in {tt}", s.value.span)
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

    def value_expr(self, e: A.Expr, sc: Scope, ctx: Ctx, statement: bool = False) -> T.T:
        """An expression at the top of a statement: the one place a rule call may wait for decisions."""
        if isinstance(e, A.Call) and isinstance(self.globals.get(e.func), RuleSym) and sc.lookup(e.func) is None:
            return self.call(e, sc, ctx, top=True, statement=statement)
        return self.expr(e, sc, ctx)

    # -------------------------------------------------------------- expressions
    def expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> T.T:
        t = self._expr(e, sc, ctx)
        e.ty = t
        return t

    def _expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e, A.Lit):
            return {"int": T.INT, "number": T.NUMBER, "text": T.TEXT, "bool": T.BOOL, "none": T.NONE}[e.kind]
        if isinstance(e, A.Name):
            return self.name(e, sc, ctx)
        if isinstance(e, A.Attr):
            return self.attr(e, sc, ctx)
        if isinstance(e, A.Index):
            return self.index(e, sc, ctx)
        if isinstance(e, A.Call):
            return self.call(e, sc, ctx)
        if isinstance(e, A.Unary):
            t = self.expr(e.operand, sc, ctx)
            if e.op == "not":
                if t.kind not in ("bool", "any"):
                    raise self.fail("E201", f"not takes true/false, not {t}", e.span)
                return T.BOOL
            if not T.is_numeric(t):
                raise self.fail("E201", f"- takes a number, not {t}", e.span)
            return t
        if isinstance(e, A.Binary):
            return self.binary(e, sc, ctx)
        if isinstance(e, A.IfExpr):
            self.cond(e.cond, sc, ctx)
            return self.join(self.expr(e.then, sc, ctx), self.expr(e.other, sc, ctx), e.other,
                             "the two branches of an if expression must have one type: else gives {b}, then {a}")
        if isinstance(e, A.ListLit):
            et: T.T | None = None
            for x in e.items:
                xt = self.expr(x, sc, ctx)
                et = xt if et is None else self.join(et, xt, x, "the items of a list must have one type: "
                                                                 "this one is {b}, the ones before it {a}")
            return T.list_of(et or T.ANY)
        if isinstance(e, A.TupleLit):
            for x in e.items:
                self.expr(x, sc, ctx)
            return T.TUPLE
        if isinstance(e, A.Format):
            for p in e.parts:
                if not isinstance(p, str):
                    self.expr(p, sc, ctx)
            return T.TEXT
        if isinstance(e, A.Comprehension | A.Quantifier | A.Best):
            st = self.expr(e.source, sc, ctx)
            et = T.elem_type(st)
            if et is None:
                raise self.fail("E201", f"{e.var} must range over a list or a zone, not {st}", e.source.span)
            inner = Scope(sc)
            if inner.lookup(e.var) is not None:
                self.err("E109", f"{e.var} is already a local name here", e.var_span or e.span)
            self.no_shadow(e.var, e.var_span or e.span)
            holder = ctx.proc if ctx.proc is not None else None
            if holder is not None:
                loc = holder.new_local(e.var, et, e.span, comp=True, readonly=True)
            else:
                assert ctx.fn is not None
                loc = LocalSym(e.var, e.span, type=et, slot=len(ctx.fn.locals), comp=True, readonly=True)
                ctx.fn.locals.append(loc)
            inner.names[e.var] = loc
            e.ref = loc
            if isinstance(e, A.Comprehension):
                if e.cond is not None:
                    self.cond(e.cond, inner, ctx)
                return T.list_of(self.expr(e.elem, inner, ctx))
            if isinstance(e, A.Quantifier):
                outer, self.in_where = self.in_where, e.kind
                try:
                    self.cond(e.cond, inner, ctx)
                finally:
                    self.in_where = outer
                return T.INT if e.kind == "count" else T.BOOL
            if e.cond is not None:
                self.cond(e.cond, inner, ctx)
            try:
                kt = self.expr(e.key, inner, ctx)
            except Abort:
                self.hint_key_reach(e, et)
                raise
            if isinstance(e, A.SortedBy):
                if not (T.is_numeric(kt) or kt.kind in ("key", "text", "enum", "tuple", "card", "player", "bool")):
                    raise self.fail("E201", f"sorted … by a number, a text, an enum member, a card, a player, "
                                    f"an ordering or a tuple of them, not {kt}", e.key.span)
                return T.list_of(et)
            if not (T.is_numeric(kt) or kt.kind in ("key", "text", "enum")):
                raise self.fail("E201", f"best … by a number or an ordering, not {kt}", e.key.span)
            return et
        if isinstance(e, A.LetIn):
            return self.let_in(e, sc, ctx)
        raise self.fail("E309", f"unsupported expression {type(e).__name__}", e.span)  # pragma: no cover

    def hint_key_reach(self, e: A.Best, et: T.T) -> None:
        """`best c in deck by power(c).by` meant the `.by` of the card found: the key runs to the right,
        so the E103 at `power(c).by` gets a hint to bracket the `best`."""
        key, last = e.key, self.diags[-1] if self.diags else None
        assert self.cards is not None
        v = self.globals.get(key.name) if isinstance(key, A.Attr) else None
        if not isinstance(key, A.Attr) or last is None or last.code != "E103" or last.span != key.span \
                or et.kind != "card" or not (key.name in self.cards.attr_types or key.name == "name"
                                             or isinstance(v, VarSym) and v.scope == "card"):
            return
        word = "sorted" if isinstance(e, A.SortedBy) else "best"
        self.diags[-1] = replace(last, hint=f"the key of `{word} … by` runs to the end: for the {key.name} of "
                                            f"the card it finds, write ({word} {e.var} in … by …).{key.name}")

    def let_type(self, s: A.Let | A.LetIn, vt: T.T) -> T.T:
        """The type of `let NAME[: TYPE] = VALUE` (a rule's or a function's step), whose value is ``vt``."""
        if s.type is not None:
            ty = self.type_ref(s.type)
            if not T.assignable(vt, ty):
                self.err("E201", f"{s.name} is {ty}; the value is {vt}", s.value.span)
            return ty
        if vt.kind == "none":
            raise self.fail("E201", f"give {s.name} a type: none does not tell", s.span, f"let {s.name}: card = none")
        return vt

    def let_in(self, e: A.LetIn, sc: Scope, ctx: Ctx) -> T.T:
        """A function's `let name = value`, then its body with the name in scope."""
        self.no_shadow(e.name, e.span)
        if sc.lookup(e.name) is not None or ctx.fn is not None and any(p.name == e.name for p in ctx.fn.params):
            self.err("E109", f"{e.name} is already a local name here", e.span, "choose another name")
        ty = self.let_type(e, self.expr(e.value, sc, ctx))
        assert ctx.fn is not None
        loc = LocalSym(e.name, e.span, type=ty, slot=len(ctx.fn.locals), comp=True, readonly=True)
        ctx.fn.locals.append(loc)
        e.ref = loc
        self.list_defs.append((loc, e.value))
        inner = Scope(sc)
        inner.names[e.name] = loc
        return self.expr(e.body, inner, ctx)

    def name(self, e: A.Name, sc: Scope, ctx: Ctx) -> T.T:
        loc = sc.lookup(e.name)
        if loc is not None:
            e.ref = loc
            return loc.type
        if ctx.fn is not None:
            loc2 = next((x for x in ctx.fn.params if x.name == e.name), None)
            if loc2 is not None:
                e.ref = loc2
                return loc2.type
        g = self.globals.get(e.name)
        if e.name == "players":
            e.ref = ("players",)
            return T.list_of(T.PLAYER)
        if e.name == "active":
            e.ref = ("active",)
            return T.list_of(T.PLAYER)
        if e.name == "stack":
            e.ref = ("stack",)
            return T.list_of(T.ITEM)
        if e.name == "all_cards":
            e.ref = ("all_cards",)
            return T.list_of(T.CARD)
        if isinstance(g, VarSym):
            g.used = True
            if g.scope != "global":
                raise self.fail("E206", f"{e.name} is per {g.scope}: say whose", e.span,
                                f"{e.name}[p]" if g.scope == "player" else f"c.{e.name}")
            e.ref = g
            return g.type
        if isinstance(g, OptionSym):
            g.used = True
            e.ref = ("const", g.value)
            return g.type
        if isinstance(g, ZoneSym):
            g.used = True
            e.ref = g
            return g.type
        if isinstance(g, EffectSym):
            g.used = True
            e.ref = ("const", g.index)
            return T.EFFECT
        if e.name in self.members:
            refs = self.members[e.name]
            if len(refs) > 1:
                raise self.fail("E101", f"{e.name} is a member of several enums: say which",
                                e.span, " or ".join(f"{r.enum.name}.{e.name}" for r in refs))
            refs[0].enum.used = True
            e.ref = ("const", refs[0].index)
            return refs[0].enum.type
        if isinstance(g, EnumSym):      # an enum as a value: the list of its members (for s in Suit)
            g.used = True
            e.ref = ("const", tuple(range(len(g.members))))
            return T.list_of(g.type)
        if isinstance(g, FnSym | RuleSym | OrderingSym):
            raise self.fail("E201", f"{e.name} is called with (…)", e.span, f"{e.name}(…)")
        if isinstance(g, PhaseSym | WindowSym | CheckSym):
            raise self.fail("E201", f"{e.name} is a {type(g).__name__.removesuffix('Sym').lower()}, not a value",
                            e.span)
        values = [n for n, g in self.globals.items() if not isinstance(g, EnumSym | PhaseSym | WindowSym | CheckSym)]
        cands = [*sc.all_names(), *values, *self.members, "players", "active", "stack", "all_cards"]
        raise self.fail("E101", f"unknown name {e.name}", e.span, _deck_word(e.name) or did_you_mean(e.name, cands))

    def attr(self, e: A.Attr, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e.obj, A.Name) and e.obj.name in self.enums and sc.lookup(e.obj.name) is None \
                and (not isinstance(self.globals.get(e.obj.name), OptionSym)
                     or e.name in self.enums[e.obj.name].members):   # an option's own enum: style.strong
            en = self.enums[e.obj.name]
            en.used = True
            if e.name not in en.members:
                raise self.fail("E103", f"{en.name} has no member {e.name}", e.span, did_you_mean(e.name, en.members))
            e.ref = ("const", en.members.index(e.name))
            return en.type
        ot = self.expr(e.obj, sc, ctx)
        assert self.cards is not None
        if ot.kind == "card":
            if e.name == "name":
                e.ref = ("cardname",)
                return T.TEXT
            if e.name in self.cards.attr_types:
                e.ref = ("cardattr", e.name)
                return self.cards.attr_types[e.name]
            v = self.globals.get(e.name)
            if isinstance(v, VarSym) and v.scope == "card":
                v.used = True
                e.ref = ("cardvar", v)
                return v.type
            raise self.fail("E103", f"cards have no attribute {e.name}", e.span,
                            did_you_mean(e.name, [*self.cards.attr_types, "name",
                                                  *[x.name for x in self.vars if x.scope == "card"]]))
        if ot.kind == "item":
            if e.name in ITEM_FIELDS:
                e.ref = ("field", e.name)
                return ITEM_FIELDS[e.name]
            if e.name in self.item_fields:
                e.ref = ("field", e.name)
                return self.item_fields[e.name][1]
            raise self.fail("E103", f"stack items have no field {e.name}", e.span,
                            did_you_mean(e.name, [*ITEM_FIELDS, *self.item_fields]))
        if ot.kind == "square":
            if e.name in ("x", "y"):
                e.ref = ("sq", e.name)
                return T.INT
            raise self.fail("E103", f"a square has x and y, not {e.name}", e.span)
        if ot.kind == "any":
            raise self.fail("E201", f"the type of this value is not known; .{e.name} cannot be checked", e.obj.span,
                            "give the value a type (let x: card = …)")
        raise self.fail("E103", f"{ot} has no attribute {e.name}", e.span)

    def index(self, e: A.Index, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e.obj, A.Name) and sc.lookup(e.obj.name) is None:
            g = self.globals.get(e.obj.name)
            if isinstance(g, VarSym) and g.scope == "player":
                g.used = True
                if len(e.args) != 1:
                    raise self.fail("E202", f"{g.name}[p] takes one player", e.span)
                self.want(e.args[0], T.PLAYER, sc, ctx, f"{g.name}[…] takes a player")
                e.ref = ("pvar", g)
                e.obj.ty = T.ANY
                return g.type
            if isinstance(g, VarSym) and g.scope == "card":
                raise self.fail("E206", f"{g.name} belongs to cards: write c.{g.name}", e.span)
        ot = self.expr(e.obj, sc, ctx)
        if ot.kind == "zonefam":
            if len(e.args) != 1:
                raise self.fail("E202", f"{ot.name}[p] takes one player", e.span)
            self.want(e.args[0], T.PLAYER, sc, ctx, f"{ot.name}[…] takes a player")
            e.ref = ("zonefam",)
            return T.ZONE
        if ot.kind == "seqfam":
            if len(e.args) != 1:
                raise self.fail("E202", f"{ot.name}[p] takes one player", e.span)
            self.want(e.args[0], T.PLAYER, sc, ctx, f"{ot.name}[…] takes a player")
            e.ref = ("seqfam",)
            return T.T("seq", ot.name)
        if ot.kind == "grid":
            if len(e.args) == 2:
                self.want(e.args[0], T.INT, sc, ctx, "a grid square's x")
                self.want(e.args[1], T.INT, sc, ctx, "a grid square's y")
                e.ref = ("gridxy",)
            elif len(e.args) == 1:
                self.want(e.args[0], T.SQUARE, sc, ctx, f"{ot.name}[…] takes a square or x, y")
                e.ref = ("gridsq",)
            else:
                raise self.fail("E202", f"{ot.name}[…] takes a square or x, y", e.span)
            return T.ZONE
        if len(e.args) != 1:
            raise self.fail("E202", "indexing takes one position", e.span)
        self.want(e.args[0], T.INT, sc, ctx, "a position is a whole number (0 is the first)")
        if ot.kind == "seq":
            e.ref = ("seqi",)
            return T.ZONE
        if ot.kind == "list":
            e.ref = ("listi",)
            return ot.elem or T.ANY
        if ot.kind == "tuple" or ot.kind == "any":
            e.ref = ("listi",)
            return T.ANY
        if ot.kind == "zone":
            e.ref = ("zonei",)
            return T.CARD
        raise self.fail("E201", f"{ot} cannot be indexed", e.span)

    def join(self, a: T.T, b: T.T, at: A.Expr, message: str) -> T.T:
        """One type for values that may stand for each other; values of unrelated types (a bool
        beside a number) are a mistake, not a list of anything."""
        t = T.join(a, b)
        if t.kind == "any" and a.kind != "any" and b.kind != "any":
            self.err("E201", message.format(a=a, b=b), at.span)
        return t

    def binary(self, e: A.Binary, sc: Scope, ctx: Ctx) -> T.T:
        op = e.op
        if op in ("and", "or"):
            for side in (e.left, e.right):
                t = self.expr(side, sc, ctx)
                if t.kind not in ("bool", "any"):
                    raise self.fail("E205", f"{op} joins true/false values; this is {t}", side.span)
            return T.BOOL
        lt = self.expr(e.left, sc, ctx)
        rt = self.expr(e.right, sc, ctx)
        if op in ("==", "!="):
            if not T.comparable(lt, rt):
                raise self.fail("E201", f"comparing {lt} with {rt} is always {'false' if op == '==' else 'true'}",
                                e.span, SEAT_HINT if {lt.kind, rt.kind} == {"player", "int"} else
                                self.member_hint(e.right, lt) or self.member_hint(e.left, rt))
            return T.BOOL
        if op in ("<", "<=", ">", ">="):
            ok = (T.is_numeric(lt) and T.is_numeric(rt)) or (lt == rt and lt.kind in ("text", "key", "tuple")) \
                or "any" in (lt.kind, rt.kind)
            if not ok:
                hint = None if self.in_where is None else (
                    f"`{self.in_where} … where` takes everything after it: for ({self.in_where} x in L where C) "
                    f"{op} 1, put the quantifier in parentheses")
                raise self.fail("E201", f"{op} compares numbers (or ordering keys); here {lt} and {rt}", e.span, hint)
            return T.BOOL
        if op in ("in", "notin"):
            et = T.elem_type(rt)
            if et is None and rt.kind != "text":
                raise self.fail("E201", f"`in` looks inside a list or a zone, not {rt}", e.right.span)
            if et is not None and not T.comparable(lt, et):
                raise self.fail("E201", f"a {lt} is never in a {rt}", e.span)
            return T.BOOL
        if op == "..":
            if not (T.assignable(lt, T.INT) and T.assignable(rt, T.INT)):
                raise self.fail("E201", f"a range runs between whole numbers; here {lt} and {rt}", e.span)
            return T.list_of(T.INT)
        if op == "+" and lt.kind == "list" and rt.kind == "list":
            return T.join(lt, rt)
        if op == "+" and lt.kind == "text" and rt.kind == "text":
            return T.TEXT
        if not (T.is_numeric(lt) and T.is_numeric(rt)):
            hint = None if self.in_where is None else (
                f"`{self.in_where} … where` takes everything after it: for ({self.in_where} x in L where C) {op} 1, "
                "put the quantifier in parentheses")
            raise self.fail("E201", f"{op} works on numbers; here {lt} and {rt}", e.span, hint)
        if op == "/" or T.NUMBER in (lt, rt):
            return T.NUMBER
        return T.INT

    # -------------------------------------------------------------- calls
    def call(self, e: A.Call, sc: Scope, ctx: Ctx, top: bool = False, statement: bool = False) -> T.T:
        g = self.globals.get(e.func) if sc.lookup(e.func) is None else None
        if isinstance(g, FnSym):
            g.used = True
            e.ref = g
            self.call_args(e.func, [(p.name, p.type) for p in g.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            if ctx.fn is not None:
                ctx.fn.calls.add(g.name)
            self.list_defs.extend(distinct_values.param_defs(g.params, e))
            if g in self.fn_stack:
                cycle = " → ".join([f.name for f in self.fn_stack[self.fn_stack.index(g):]] + [g.name])
                raise self.fail("E307", f"function {g.name} calls itself ({cycle})", e.span,
                                "a search of known depth is a comprehension over subsets (every choice of k melds: "
                                "subsets(melds, k)); or work it out in a rule with a loop, in a let before the "
                                "choose whose where reads it")
            self.check_fn(g)
            return g.ret
        if isinstance(g, RuleSym):
            g.used = True
            e.ref = g
            if ctx.kind in ("fn", "ordering") or (ctx.pure and not top):
                raise self.fail("E306", f"rule {g.name} cannot be called here: rules change the game",
                                e.span, "functions and conditions only look; turn the rule into a fn")
            assert g.proc
            self.call_args(e.func, [(p.name, p.type) for p in g.proc.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            self.defs.extend(zip(g.proc.params, e.args, strict=False))     # a parameter is what it is given
            self.list_defs.extend(distinct_values.param_defs(g.proc.params, e))
            if not e.kwargs:        # what a parameter may hold, for W102 (zones_through_locals)
                given = {p.name: a for p, a in zip(g.proc.params, e.args, strict=False)}
                for p, a in zip(g.proc.params, e.args, strict=False):
                    self.local_defs.setdefault(id(p), []).append((a, sc, given))
            if ctx.proc is not None:
                ctx.proc.calls.append((g, e, top))
            if not statement and g.proc.ret is None:
                raise self.fail("E201", f"rule {g.name} returns nothing", e.span)
            return g.proc.ret or T.NONE
        if isinstance(g, OrderingSym):
            g.used = True
            e.ref = g
            self.call_args(e.func, [(p.name, p.type) for p in g.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            return T.KEY
        from .builtins import BUILTINS
        b = BUILTINS.get(e.func)
        if b is None:
            cands = [*self.fns, *self.rules, *self.orderings, *BUILTINS]
            if e.func in self.rules or e.func in self.fns:      # its name another declaration took: E102 said so
                raise Abort()
            if isinstance(self.globals.get(e.func), OptionsSym):
                raise self.fail("E104", f"{e.func} is an options group, not a function", e.span,
                                f"`use {e.func}(…)` stands among a decision's options: choose p {{ use {e.func}(…) }}")
            if sc.lookup(e.func) is not None or e.func in self.globals:
                raise self.fail("E104", f"{e.func} is not a function", e.span, did_you_mean(e.func, cands))
            raise self.fail("E104", f"unknown function {e.func}", e.span,
                            _PYTHON_NAMES.get(e.func) or did_you_mean(e.func, cands))
        if e.kwargs:
            raise self.fail("E207", f"{e.func} takes no named arguments", e.kwargs[0].span)
        if e.func == "card":
            return self.card_literal(e)
        if b.impure:
            self.impure(e, ctx)
        ats = [self.expr(a, sc, ctx) for a in e.args]
        if not (b.min_args <= len(ats) <= b.max_args):
            n = f"{b.min_args}" if b.min_args == b.max_args else f"{b.min_args}–{b.max_args}"
            raise self.fail("E202", f"{e.func} takes {n} argument{'s' if b.max_args != 1 else ''}, got {len(ats)}",
                            e.span, b.usage)
        try:
            rt = b.check(ats)
        except TypeError as te:
            raise self.fail("E201", f"{e.func}: {te}", e.span, b.usage) from None
        # `occurrences` reads the records, which a secret choice may have made (secret_places.secret)
        e.ref = ("builtin", b.name, self.tally) if b.name == "occurrences" else ("builtin", b.name)
        return rt

    def card_literal(self, e: A.Call) -> T.T:
        assert self.cards is not None
        if len(e.args) != 1 or not isinstance(e.args[0], A.Lit) or e.args[0].kind != "text":
            raise self.fail("E202", 'card(…) takes a card name in quotes: card("♠A")', e.span)
        name = str(e.args[0].value)
        name = self.cards.aliases.get(name, name)
        if name not in self.cards.names:        # an alias in another case ("h10", "sa#2"), as typed actions take
            folded = {k.lower(): v for k, v in [*self.cards.aliases.items(), *((n, n) for n in self.cards.names)]}
            name = folded.get(name.lower(), name)
        if name not in self.cards.names:
            first = name[:-2] if name.endswith("#1") and name[:-2] in self.cards.names else None
            raise self.fail("E108", f"no card is named {name}", e.args[0].span,
                            f"the first deck's cards carry no number: {first}" if first else
                            did_you_mean(name, [*self.cards.names, *self.cards.aliases]))
        e.ref = ("const", self.cards.names.index(name))
        return T.CARD

    def call_args(self, name: str, params: list[tuple[str, T.T]], args: list[A.Expr], kwargs: list[A.KwArg],
                  span: Span, sc: Scope, ctx: Ctx, defaults: dict[str, A.Expr] | None = None) -> None:
        if len(args) > len(params):
            raise self.fail("E202", f"{name} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                            f"got {len(args) + len(kwargs)}", span,
                            f"{name}({', '.join(p for p, _ in params)})")
        given: dict[str, A.Expr] = {}
        for (pn, _), a in zip(params, args, strict=False):
            given[pn] = a
        for kw in kwargs:
            if kw.name not in dict(params):
                raise self.fail("E207", f"{name} has no parameter {kw.name}", kw.span,
                                did_you_mean(kw.name, [p for p, _ in params]) or
                                f"{name}({', '.join(p for p, _ in params)})")
            if kw.name in given:
                raise self.fail("E207", f"{kw.name} is given twice", kw.span)
            given[kw.name] = kw.value
        left_out = [p for p, _ in params if p not in given and p in (defaults or {})]
        for p in left_out:              # a parameter's default stands in for a left-out argument
            given[p] = (defaults or {})[p]
        missing = [p for p, _ in params if p not in given]
        if missing:
            raise self.fail("E202", f"{name} needs {', '.join(missing)}", span,
                            f"{name}({', '.join(p for p, _ in params)})")
        for pn, pt in params:
            at = self.expr(given[pn], sc, ctx)
            if not T.assignable(at, pt) and pn not in left_out:     # a default was checked where declared
                self.err("E201", f"{name}: {pn} is {pt}, got {at}", given[pn].span, self.member_hint(given[pn], pt))
        # keyword arguments (and defaults) are put in place positionally for the compiler
        if kwargs or left_out:
            args[:] = [given[p] for p, _ in params]
            kwargs.clear()

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


# ------------------------------------------------------------------ option-constant folding
def const_value(e: A.Expr | None) -> tuple[bool, Any]:
    """(True, value) if ``e`` is fixed once options are known, e.g. ``stop_at_first_winner or x == 1``."""
    if e is None:
        return False, None
    if isinstance(e, A.Lit):
        return True, e.value
    if isinstance(e, A.Name | A.Attr) and isinstance(e.ref, tuple) and e.ref and e.ref[0] == "const":
        return True, e.ref[1]
    if isinstance(e, A.Unary):
        ok, v = const_value(e.operand)
        return (ok, (not v) if e.op == "not" else -v) if ok else (False, None)
    if isinstance(e, A.Binary) and e.op in ("and", "or"):
        ok, a = const_value(e.left)
        if ok and ((e.op == "and" and not a) or (e.op == "or" and a)):
            return True, a
        okb, b = const_value(e.right)
        if ok and okb:
            return True, (a and b) if e.op == "and" else (a or b)
        return False, None
    if isinstance(e, A.Binary) and e.op in ("==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%"):
        ok, a = const_value(e.left)
        okb, b = const_value(e.right)
        if ok and okb:
            try:
                value = _const_binop(e.op, a, b)
            except (TypeError, ZeroDivisionError, OverflowError):
                return False, None
            if isinstance(value, float) and not math.isfinite(value):
                return False, None      # left to the run, which stops at it (runtime._num)
            return True, value
    if isinstance(e, A.IfExpr):
        ok, c = const_value(e.cond)
        if ok:
            return const_value(e.then if c else e.other)
    return False, None


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


def _const_binop(op: str, a: Any, b: Any) -> Any:
    if isinstance(a, MemberRef) or isinstance(b, MemberRef):
        if op == "==":
            return a == b or (isinstance(a, MemberRef) and isinstance(b, MemberRef) and
                              a.enum is b.enum and a.index == b.index)
        if op == "!=":
            return not _const_binop("==", a, b)
        raise TypeError
    ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
           "//": lambda: a // b, "%": lambda: a % b, "==": lambda: a == b, "!=": lambda: a != b,
           "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
           "and": lambda: a and b, "or": lambda: a or b, "in": lambda: a in b, "notin": lambda: a not in b,
           "..": lambda: list(range(a, b + 1))}
    return ops[op]()


def _const_round(x: float) -> int:
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


# built-ins that a fixed value may use (option defaults, the deck, initial values): pure, one argument
_CONST_CALLS: dict[str, Any] = {"size": len, "min": min, "max": max, "sum": sum, "abs": abs,
                                "floor": math.floor, "ceil": math.ceil, "round": _const_round}


_NOT_READ = ("size", "owner", "revealed")      # functions of a zone or card that tell nothing of faces


def _none_test(e: A.Binary) -> bool:
    return e.op in ("==", "!=") and any(isinstance(x, A.Lit) and x.kind == "none" for x in (e.left, e.right))


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


def _a(noun: str) -> str:
    """A noun with its article: "an int", "a card"."""
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


# functions a Python habit reaches for, and what fuda calls them
_PYTHON_NAMES = {
    "len": "size(x) counts a zone's cards or a list's items; count x in L where C counts some",
    "count": "count x in L where C counts some items; size(x) counts them all",
    "print": 'log "…" writes to the game log', "str": 'text(x), or a text with {…}: "{x}"',
    "range": "a range is written a..b (both ends included): for i in 1..5",
}


def _names_in(e: Any) -> set[str]:
    """The names an expression reads (to say which options a failed `require` looked at)."""
    if isinstance(e, A.Name):
        return {e.name}
    if isinstance(e, list):
        return set().union(*(_names_in(x) for x in e)) if e else set()
    if isinstance(e, A.Node):
        return set().union(*(_names_in(v) for v in vars(e).values() if isinstance(v, A.Node | list)))
    return set()


def _shape(node: Any) -> Any:
    """A statement as written, without where it is written: two alike in different options compare equal."""
    if isinstance(node, A.Node):
        return (type(node).__name__, *((f.name, _shape(getattr(node, f.name))) for f in fields(node)
                                        if f.name not in ("span", "ty", "ref", "origin")))
    if isinstance(node, list | tuple):
        return tuple(_shape(x) for x in node)
    return node


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


# how the standard deck writes what players call a rank or suit by name (language.md §6)
_RANK_WORDS = {"a": 1, "ace": 1, "j": 11, "jack": 11, "q": 12, "queen": 12, "k": 13, "king": 13}
_SUIT_WORDS = {"spade": "♠", "heart": "♥", "diamond": "♦", "club": "♣"}


def _deck_word(name: str) -> str | None:
    """A hint for `c.rank == J` or `c.suit == hearts`: the standard deck's ranks are numbers, its
    suits the signs."""
    word = name.lower() if len(name) > 1 or name.isupper() else ""      # a local `a` is no ace
    if word in _RANK_WORDS:
        return f"the standard deck's ranks are numbers: {name} is {_RANK_WORDS[word]} (c.rank == {_RANK_WORDS[word]})"
    sign = _SUIT_WORDS.get(word.removesuffix("s"))
    if sign is not None:
        return f"the standard deck's suits are written as signs: c.suit == {sign} (♠ ♥ ♦ ♣)"
    return None


def _option_shown(o: OptionSym) -> str:
    if o.type.kind == "enum":
        return o.members[o.value] if isinstance(o.value, int) else str(o.value)
    if isinstance(o.value, bool):
        return "true" if o.value else "false"
    return str(o.value)


def _const_type(v: Any) -> T.T:
    if v is None:
        return T.NONE
    if isinstance(v, bool):
        return T.BOOL
    if isinstance(v, int):
        return T.INT
    if isinstance(v, float):
        return T.NUMBER
    if isinstance(v, str):
        return T.TEXT
    if isinstance(v, MemberRef):
        return v.enum.type
    if isinstance(v, list):
        et: T.T | None = None
        for x in v:
            xt = _const_type(x)
            et = xt if et is None else T.join(et, xt)
        return T.list_of(et or T.ANY)
    if isinstance(v, tuple):
        return T.TUPLE
    return T.ANY


def _const_text(v: Any, lang: int | None = None) -> str:
    """A fixed value inside a fixed text (a card's name, a text attribute), as a text shows it; in a
    label (``lang``: its half), an enum member by its label there, as texts show members."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, MemberRef):
        if lang is not None and v.enum.shown is not None:
            return v.enum.shown[v.index][lang]
        return v.enum.members[v.index]
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def check(src: Source, options: dict[str, Any] | None = None) -> Program:
    try:
        return Checker(src, options).run()
    except RecursionError:
        file = src.chain[0] if src.chain else "<ruleset>"
        raise too_deep(file, src.sources.get(file, "")) from None

