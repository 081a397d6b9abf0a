"""What the checker knows of a ruleset: the symbols names resolve to, storage, scopes, and the checked
``Program`` the compiler reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from .. import ast as A
from .. import types as T
from ..errors import Diagnostic, Span

BUILTIN_ENUMS = {"Pattern": [("orthogonal", "orthogonal | 縦横"), ("diagonal", "diagonal | 斜め"),
                             ("king", "king | 八方")]}
# the types a `carried` variable may have: values that mean the same in the next game of a match
CARRIABLE = ("int", "number", "bool", "text", "player", "enum")

RESERVED = {"current", "direction", "players", "active", "stack", "score", "place", "out", "true",
            "false", "none", "list", "of"}
# what the reserved names the rules may well want for themselves are (E110 says it)
RESERVED_MEANING = {"current": "the player whose turn it is", "direction": "the order of play (1 or -1)",
                    "players": "the list of players", "active": "the players still in the game",
                    "stack": "the effects waiting to resolve", "score": "each player's score",
                    "place": "each player's finishing place", "out": "whether a player has finished"}
EFFECT_LOCALS = ("item", "controller", "source", "times")
EXPRESSION_KEYWORDS = ("count", "any", "all", "best", "sorted", "distinct")     # W106
SEAT_HINT = "players are not numbers: name a seat with players[0]"
MAX_FIXED_RANGE = 100_000       # a fixed a..b (deck loops, initial values) is built in memory
ITEM_FIELDS = {"kind": T.EFFECT, "controller": T.PLAYER, "source": T.CARD, "times": T.INT,
               "negated": T.BOOL}


class Abort(Exception):
    """Stop checking one construct after its error has been recorded."""


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
    refused: bool = False       # its default or given value was reported: a `require` on it is not checked


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
    in_game: bool = True        # `var … if COND` under these options: views leave it out while unset
    shown_by: VarSym | None = None  # `var … if FLAG`: views leave it (per player: an entry) out while FLAG is false
    shown_unless: bool = False      # `if not FLAG`: while FLAG is true


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


class Seat(int):
    """A player as a fixed value (`players[i]` in a deck's body or an initial value): the seat's
    number, typed player, so that a card's `attr seat: player` can be set from it."""


@dataclass
class Cards:
    names: list[str]
    attrs: dict[str, list[Any]]         # values as run-time values (enum members as ints)
    attr_types: dict[str, T.T]
    aliases: dict[str, str]
    start_zone: ZoneSym | None = None
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)   # name → how players read it (en, ja)
    homes: list[ZoneSym] | None = None  # where each card starts (`in ZONE { … }` in the deck); None: start_zone
    # the cards these option values leave out of the deck (a `cards { if … }` not taken, ranks a
    # template strips): name (or ASCII alias) → how players would read it (en, ja); a scenario's
    # `excludes:` may name them
    absent: dict[str, tuple[str, str]] = field(default_factory=dict)
    # attributes that tell copies of one face apart (a standard deck's `copy`): `distinct` and the
    # menus take cards that differ only there for the same card
    copy_attrs: tuple[str, ...] = ()


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
    limit_loses: bool       # `limit N decisions then lose`: those still playing lose there (else draw)
    warnings: list[Diagnostic]
    builtin_slots: dict[str, int]
    show: tuple[Proc, A.ShowDecl] | None = None
    evaluate: A.EvaluateDecl | None = None      # the bots' evaluation (its fn is in ``fns``)
    eval_range: tuple[float, float] = (0, 1)    # its LO..HI, worked out with these options
    allies: A.AlliesDecl | None = None          # who counts whom on their side (its fn is in ``fns``)
    belief: A.BeliefDecl | None = None          # where a bot's sampled world may deal a card (its fn is in ``fns``)
    score_label: A.Text | None = None           # `score "Points | 文"`: how players call the score
    seat_names: list[tuple[str, str]] | None = None     # `players … seats "North | 北", …`, P0 first
    sets_current: bool = False      # the rules assign `current` themselves: whose turn it is, without `turn`

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


def shape(node: Any) -> Any:
    """An expression or statement as written, without where it is written: two alike compare equal."""
    if isinstance(node, A.Node):
        return (type(node).__name__, *((f.name, shape(getattr(node, f.name))) for f in fields(node)
                                        if f.name not in ("span", "ty", "ref", "origin")))
    if isinstance(node, list | tuple):
        return tuple(shape(x) for x in node)
    return node


# what W104 calls a per-player zone or variable revealed entry by entry over `active`
# (`for q in active { reveal hand[q] }`): each entry a later loop over `active` reads
ACTIVE_KEY = "[each active]"

# what a `shuffle` forgets (`forget`, `less`): every card revealed by its place (`reveal top(deck)`: another
# card lies there now), no zone revealed whole (its cards stay face up, wherever they went)
PLACES = "(places)"


def entry_key(name: str, owner: A.Expr) -> str:
    """What W104 calls one entry of a per-player zone or variable once revealed (`hand[p]`): the zone's
    name and its owner as written, so `hand[players[0]]` says nothing of `hand[players[1]]`."""
    return f"{name}[{shape(owner)!r}]"


def expr_key(e: A.Expr) -> str:
    """What W104 calls the cards of an expression revealed (`reveal top(deck)`): that very expression,
    read again as written, not its zone's other cards; any hide or move forgets it."""
    return f"({shape(e)!r}"


def less(keys: set[str] | frozenset[str], names: set[str] | frozenset[str]) -> set[str]:
    """The revealed ``keys`` a hide of (or a move into) the zones or variables ``names`` leaves: none of
    their entries, and no revealed expression (which zone it reads is not told)."""
    if not names:
        return set(keys)
    return {k for k in keys if not k.startswith("(") and k.split("[", 1)[0] not in names}


class Scope:
    def __init__(self, parent: Scope | None = None, proc: Proc | None = None) -> None:
        self.parent = parent
        self.names: dict[str, LocalSym] = {}
        self.proc: Proc | None = proc if proc is not None else (parent.proc if parent else None)
        # what a `reveal` to everyone showed earlier in the block (W104): a zone, variable or local by name, an
        # entry of one (entry_key), an expression (expr_key)
        self.revealed: set[str] = set()
        self.forgotten: set[str] = set()    # of a body's outermost scope: what it may have hidden so far (W104)

    def was_revealed(self, zone: str, owner: A.Expr | None = None) -> bool:
        """Whether zone ``zone`` (its entry of ``owner``, `hand[q]`) was revealed whole to everyone."""
        keys = {zone} if owner is None else {zone, entry_key(zone, owner)}
        s: Scope | None = self
        while s is not None:
            if keys & s.revealed:
                return True
            s = s.parent
        return False

    def shows(self, e: A.Expr) -> bool:
        """Whether expression ``e`` itself was revealed to everyone (`reveal bottom(talon)`, then read)."""
        return self.was_revealed(expr_key(e))

    def all_revealed(self) -> frozenset[str]:
        out: set[str] = set()
        s: Scope | None = self
        while s is not None:
            out |= s.revealed
            s = s.parent
        return frozenset(out)

    def forget(self, names: set[str]) -> None:
        """A `hide` (or a rule that may hide) here: not revealed any more, here or in the blocks around,
        nor at the body's start (W104 follows what was revealed before the body began, less this)."""
        s: Scope | None = self
        while s is not None:
            s.revealed = less(s.revealed, names)
            if s.parent is None:
                s.forgotten |= names
            s = s.parent

    def forgotten_here(self) -> frozenset[str]:
        s = self
        while s.parent is not None:
            s = s.parent
        return frozenset(s.forgotten)

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
