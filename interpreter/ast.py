"""The abstract syntax tree of a ruleset: typed dataclasses, every node carrying its source span.

The nodes are standard dataclasses, which pydantic validates and serialises as they are
(``pydantic.TypeAdapter(Module)``; ``fuda parse`` prints it). They are not ``BaseModel``
subclasses on purpose: importing pydantic and building ~70 model classes costs ~150 ms on this
machine, which alone would break the 0.3 s budget of ``fuda validate``. The checker annotates
expressions (``ty``, ``ref``) in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import MISSING, dataclass, field, fields
from pathlib import PurePath
from typing import Any, Literal

from .errors import Span


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Node:
    span: Span

    def __init__(self, **kw: Any) -> None:
        # one shared constructor instead of a generated one per class: building ~70 dataclass
        # __init__s is most of this module's import time, and `fuda validate` must start fast
        for k, v in kw.items():
            setattr(self, k, v)
        for k, f in self.__dataclass_fields__.items():
            if k not in kw:
                if f.default_factory is not MISSING:
                    setattr(self, k, f.default_factory())
                elif f.default is MISSING:
                    raise TypeError(f"{type(self).__name__} needs {k}")

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={getattr(self, k, None)!r}" for k in self.__dataclass_fields__ if k not in ("ty", "ref"))
        return f"{type(self).__name__}({inner})"


# ------------------------------------------------------------------ types and text
@dataclass(kw_only=True, eq=False, init=False, repr=False)
class TypeRef(Node):
    name: str                       # "int", "card", an enum name, or "list"
    of: TypeRef | None = None       # element type of a list


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Text(Node):
    """A label or message: English and Japanese halves split at " | "; {expr} interpolates."""
    parts: list[list[str | Expr]]   # one list of literal/expression parts per language

    @property
    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else "{…}" for p in self.parts[0])


# ------------------------------------------------------------------ expressions
@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Expr(Node):
    ty: Any = field(default=None, repr=False)      # set by the checker
    ref: Any = field(default=None, repr=False)     # resolved symbol, set by the checker


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Lit(Expr):
    kind: Literal["int", "number", "text", "bool", "none"]
    value: int | float | str | bool | None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Name(Expr):
    name: str


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Index(Expr):
    obj: Expr
    args: list[Expr]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Slice(Expr):
    """`xs[lo:hi]`: the elements from position lo up to (not including) hi; either may be left out."""
    obj: Expr
    lo: Expr | None
    hi: Expr | None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class KwArg(Node):
    name: str
    value: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Call(Expr):
    func: str
    args: list[Expr]
    kwargs: list[KwArg] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Unary(Expr):
    op: Literal["-", "not"]
    operand: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Binary(Expr):
    op: str                         # + - * / // % and or == != < <= > >= in notin ..
    left: Expr
    right: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ListLit(Expr):
    items: list[Expr]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class TupleLit(Expr):
    items: list[Expr]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Comprehension(Expr):
    elem: Expr
    var: str
    source: Expr
    cond: Expr | None = None
    var_span: Span | None = None     # where the binder's name is written


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Quantifier(Expr):
    kind: Literal["any", "all", "count"]
    var: str
    source: Expr
    cond: Expr
    var_span: Span | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Best(Expr):
    var: str
    source: Expr
    key: Expr
    cond: Expr | None = None
    var_span: Span | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class SortedBy(Best):
    """`sorted x in L [where C] by KEY`: best's binder, source, filter and key, giving the whole
    list in ascending order of KEY (ties keep their order in L)."""


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class DistinctBy(Best):
    """`distinct x in L [where C] by KEY`: the first element of L for each value of KEY, in L's order
    (one choice per rank whatever the suits, where `distinct(L)` keeps one per identical face)."""


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class LetIn(Expr):
    """A function's named step `let name = value`, read by ``body`` (the next step or the result)."""
    name: str
    type: TypeRef | None = None
    value: Expr
    body: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Format(Expr):
    """A text literal with {expr} parts, e.g. "to {p}"."""
    parts: list[str | Expr]


# ------------------------------------------------------------------ statements
@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Stmt(Node):
    pass


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Let(Stmt):
    name: str
    type: TypeRef | None = None
    value: Expr
    readonly: bool = False           # the player of an `offer` round (sugar.py)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Assign(Stmt):
    target: Expr
    op: str
    value: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt] | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class While(Stmt):
    cond: Expr
    body: list[Stmt]
    offer: Expr | None = None        # the loop of `offer p in L` (sugar.py): L, checked as a list of players


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class For(Stmt):
    var: str
    source: Expr
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Break(Stmt):
    pass


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Continue(Stmt):
    pass


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Return(Stmt):
    value: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Move(Stmt):
    cards: Expr
    dest: Expr
    under: bool = False
    face: Literal["up", "down"] | None = None
    at: Expr | None = None          # `to Z at N`: N cards from the top (0: on top)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Deal(Stmt):
    count: Expr | None      # None: `deal all`, round after round until the source is empty
    source: Expr
    dest: str
    dest_span: Span
    packets: bool = False   # `in packets`: each player in turn gets all their cards at once
    players: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Shuffle(Stmt):
    zone: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Reveal(Stmt):
    what: Expr
    to: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Hide(Stmt):
    what: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Swap(Stmt):
    a: Expr
    b: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Binder(Node):
    var: str
    source: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Option(Node):
    name: str
    binders: list[Binder]
    where: Expr | None = None
    weight: Expr | None = None       # `rollout weight W`: how often bots' rollouts pick it (default 1)
    reason: Text | None = None       # `where C else "why"`: told to a player whose input it refuses
    label: Text | None = None
    body: list[Stmt]
    implied: bool = False            # the `pass` of `choose … optional` / `offer`: its where is the others'
    origin: UseOptions | None = None    # written out from `use GROUP(…)` (sugar.py): the checker types its arguments


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class UseOptions(Node):
    """``use GROUP(args) [{ then }]`` among a decision's options: the group's options, its parameters
    replaced by the arguments, each followed by ``then`` (sugar.py writes them out)."""
    name: str
    args: list[Expr]
    kwargs: list[KwArg] = field(default_factory=list)
    then: list[Stmt] = field(default_factory=list)
    at: int = 0                      # how many options are written before it
    params: list[Param] = field(default_factory=list)    # the group's, once written out (for the checker)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Choose(Stmt):
    player: Expr
    label: Text | None = None
    options: list[Option]
    otherwise: list[Stmt] | None = None
    hidden: bool = False             # the others see that the player chose, not what
    optional: bool = False           # `choose … optional`: a pass is added (sugar.py)
    uses: list[UseOptions] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Offer(Stmt):
    """``offer p in L [ask all] { options }``: written out as a loop of choices (sugar.py)."""
    var: str
    players: Expr
    label: Text | None = None
    options: list[Option]
    ask_all: bool = False
    uses: list[UseOptions] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Simultaneous(Stmt):
    var: str
    players: Expr
    label: Text | None = None
    options: list[Option]
    uses: list[UseOptions] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Turn(Stmt):
    player: Expr
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Goto(Stmt):
    phase: str


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Activate(Stmt):
    effect: str
    args: list[Expr]
    kwargs: list[KwArg] = field(default_factory=list)
    by: Expr | None = None
    source: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Negate(Stmt):
    item: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Win(Stmt):
    who: Expr
    drawn: Expr | None = None       # `win L draw M`: M draw, the rest lose (results against a house)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Lose(Stmt):
    who: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Finish(Stmt):
    who: Expr
    last: bool = False      # `finish p last`: the worst free place (out of the game, ranked below the rest)
    sit_out: bool = False   # `sit out p`: out of play without a place, until `rejoin p` (a round's knock-out)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Rejoin(Stmt):
    """`rejoin p`: a finished player is back in play, their place given up (the next hand)."""
    who: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class End(Stmt):
    draw: bool = False
    # `end game ranking p in L by KEY`: L's players take places by KEY, greatest first. ``players`` is
    # L, ``keys`` the list [KEY for p in L] (so the checker and compiler treat KEY as they treat
    # any comprehension's element).
    players: Expr | None = None
    keys: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Log(Stmt):
    text: Text


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Tell(Stmt):
    player: Expr
    text: Text


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Reverse(Stmt):
    pass


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Insert(Stmt):
    seq: Expr
    side: Literal["front", "back", "after", "before"]
    beside: Expr | None = None     # the zone of the sequence `after`/`before` names
    name: str | None = None        # insert SEQ front as NAME: a new zone
    zone: Expr | None = None       # insert ZONE into SEQ front: an existing zone


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Record(Stmt):
    key: Expr


# ------------------------------------------------------------------ declarations
@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Decl(Node):
    override: bool = False

    @property
    def key(self) -> str:
        """The name a variant overrides this declaration by."""
        return getattr(self, "name", type(self).__name__)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class RulesetDecl(Decl):
    name: str
    title: Text | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ExtendsDecl(Decl):
    base: str
    path: bool = False          # written as a path in quotes, relative to the file's own folder


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class PlayersDecl(Decl):
    min: int
    max: int
    default: int | None = None
    seats: list[Text] = field(default_factory=list)     # what players call each seat, P0 first


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class OptType(Node):
    kind: Literal["named", "range", "enum"]
    name: str | None = None         # bool / int / number / an enum name
    lo: int | None = None
    hi: int | None = None
    members: list[EnumMember] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class EnumMember(Node):
    name: str
    label: Text | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class OptionDecl(Decl):
    name: str
    type: OptType | None = None     # None: a variant changing a base option's default
    default: Expr
    label: Text | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class EnumDecl(Decl):
    name: str
    members: list[EnumMember]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardAttrDecl(Node):
    name: str
    type: TypeRef
    default: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardDef(Node):
    name: Text
    fields: list[KwArg]
    label: Text | None = None       # how players read the card ("Pine-Crane | 松に鶴"); the name is its id


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardFor(Node):
    var: str
    source: Expr
    items: list[CardItem]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardIf(Node):
    cond: Expr
    items: list[CardItem]
    other: list[CardItem] = field(default_factory=list)    # else { … }


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardIn(Node):
    """``in ZONE { … }`` inside a deck: these cards start in ZONE, not where the deck starts (a second
    deck: The Crew's task cards, a market's row)."""
    zone: str
    zone_span: Span
    items: list[CardItem]


CardItem = CardAttrDecl | CardDef | CardFor | CardIf | CardIn


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CardsDecl(Decl):
    template: str | None = None     # a built-in deck ("standard") or None for a custom deck
    args: list[KwArg | Expr] = field(default_factory=list)  # a template's arguments (keyword only; the checker says so)
    items: list[CardItem] = field(default_factory=list)
    zone: str | None = None
    zone_span: Span | None = None
    replaces: CardsDecl | None = None   # a variant's deck: the base's it replaces (E108; not walked)

    @property
    def key(self) -> str:
        return "cards"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ZoneDecl(Decl):
    name: str
    kind: Literal["pile", "hand", "grid", "sequence"]
    width: Expr | None = None       # a grid's size: fixed values (literals, options)
    height: Expr | None = None
    per_player: bool = False
    visibility: Literal["public", "hidden", "owner", "others"] = "public"
    sorted: bool = False            # shown sorted to whoever sees its cards (not only its owner)
    top_up: bool = False            # a pile whose top card lies face up (a squared discard pile)
    transient: bool = False         # cards only pass through: screens leave it out while empty, labelled or not
    label: Text | None = None
    in_game: Expr | None = None     # fixed by the options: when false, views leave the zone out while it is empty


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class VarDecl(Decl):
    name: str
    type: TypeRef | None = None
    scope: Literal["global", "player", "card"] = "global"
    init: Expr
    visibility: Literal["public", "hidden", "owner", "others"] = "public"
    role: bool = False              # a part a player plays (the dealer, a secret partner): results are split by it
    carried: bool = False           # a match's next game starts with the value this one ended with
    label: Text | None = None
    in_game: Expr | None = None     # `if COND`: a fixed condition; views leave it out when false (and unset)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Param(Node):
    name: str
    type: TypeRef
    default: Expr | None = None     # a fixed value a call may leave the argument out for
    label: Text | None = None       # an effect's: how screens call the stack item's field (none: bookkeeping)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class FnDecl(Decl):
    name: str
    params: list[Param]
    ret: TypeRef | None = None
    body: Expr


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class OptionsDecl(Decl):
    """``options NAME(params) { options }``: options that decisions and windows take in with ``use``."""
    name: str
    params: list[Param]
    options: list[Option]
    uses: list[UseOptions] = field(default_factory=list)
    used: bool = False               # some decision takes it in (W101 otherwise)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class RuleDecl(Decl):
    name: str
    params: list[Param]
    ret: TypeRef | None = None
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class SetupDecl(Decl):
    body: list[Stmt]

    @property
    def key(self) -> str:
        return "setup"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class PhaseDecl(Decl):
    name: str
    label: Text | None = None
    body: list[Stmt]
    pause: bool = False             # `fuda play` shows the table to its humans as the phase begins again


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class EffectDecl(Decl):
    name: str
    params: list[Param]
    label: Text | None = None
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class WindowDecl(Decl):
    name: str
    label: Text | None = None
    item_var: str
    player_var: str
    when: Expr | None = None
    responders: Expr | None = None
    ask_all: Expr | None = None     # a bool expression (usually an option); None: skip players with nothing to do
    simultaneous: bool = False      # its responders are asked together; the first in order who answers does
    once: bool = False              # each responder is asked once an item, not again when the windows reopen
    options: list[Option]
    uses: list[UseOptions] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class WindowsDecl(Decl):
    names: list[str]
    name_spans: list[Span]
    # `windows NAMES before|after W`: NAMES put into the base's order at that place (load.py)
    place: str | None = None
    anchor: str | None = None
    anchor_span: Span | None = None

    @property
    def key(self) -> str:
        return "windows"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class CheckDecl(Decl):
    name: str
    label: Text | None = None
    var: str | None = None
    source: Expr | None = None
    cond: Expr
    body: list[Stmt]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class Tier(Node):
    cond: Expr
    by: Expr | None = None


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class OrderingDecl(Decl):
    name: str
    params: list[Param]
    tiers: list[Tier]


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ShowDecl(Decl):
    """How a card is shown to players: ``show c as "{c} r{range(c)}" sorted by KEY`` (either part
    may be left out): its text, and the order of a player's own hand on screen."""
    var: str
    text: Text | None = None
    order: Expr | None = None

    @property
    def key(self) -> str:
        return "show"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class EvaluateDecl(Decl):
    """``evaluate FN in LO..HI after N decisions``: how well a player stands, for bots' rollouts.
    LO and HI are fixed values (literals, options), worked out by the checker (Program.eval_range)."""
    fn: str
    lo: Expr
    hi: Expr
    after: int | None = None
    unit: str | None = None

    @property
    def key(self) -> str:
        return "evaluate"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class AlliesDecl(Decl):
    """``allies FN``: FN(p, q) says whether p counts q on its side, as far as p can know."""
    fn: str

    @property
    def key(self) -> str:
        return "allies"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class BeliefDecl(Decl):
    """``belief FN``: FN(c) says whether a searching bot's sampled world may deal card c where it lies."""
    fn: str

    @property
    def key(self) -> str:
        return "belief"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class RequireDecl(Decl):
    """``require [NAME:] COND "message"``: a condition on the options, checked before any game
    starts; a named one may be replaced by a variant (``override require NAME: …``)."""
    name: str | None = None
    cond: Expr
    text: Text

    @property
    def key(self) -> str:
        # its own namespace: a require may share its name with a fn or an option
        return f"require {self.name}" if self.name else f"require {self.span.line}:{self.span.col}:{self.span.file}"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class ScoreDecl(Decl):
    """`score "Points | 文"`: how players call the built-in score."""
    label: Text

    @property
    def key(self) -> str:
        return "score"


@dataclass(kw_only=True, eq=False, init=False, repr=False)
class LimitDecl(Decl):
    count: int
    unit: str
    then: str = "draw"              # what the players still in the game get: draw, or lose (a patience)

    @property
    def key(self) -> str:
        return "limit"


@dataclass(kw_only=True, eq=False)
class Module:
    file: str
    decls: list[Decl]


BASE_CALL = "base"      # `base(…)` in an override calls the declaration it replaces (load.py)


def written(name: str) -> str:
    """How a call is written: the hidden name of a base's declaration (``NAME@FILE``) as ``base``."""
    return BASE_CALL if "@" in name else name


def written_whole(name: str, file: str) -> str:
    """A called declaration named in a message: a base's (hidden ``NAME@FILE``, declared in ``file``)
    as `base (NAME of FILE.fuda)`, the call as written and what it calls."""
    if "@" not in name:
        return name
    return f"{BASE_CALL} ({name.split('@')[0]} of {PurePath(file).name})"


def bound_name(n: Node) -> str | None:
    """The local name ``n`` binds, if any: a `let`, an `insert … as`, a binder, loop or quantifier."""
    name = n.name if isinstance(n, Let | Insert) else getattr(n, "var", None)
    return name if isinstance(name, str) else None


def walk(node: object) -> Iterator[Node]:
    """Every node in ``node`` (a node, or lists and tuples of them), itself first."""
    if isinstance(node, Node):
        yield node
        for f in fields(node):       # type: ignore[arg-type]
            if f.name not in ("ty", "ref", "span", "origin", "replaces"):
                yield from walk(getattr(node, f.name, None))
    elif isinstance(node, list | tuple):
        for x in node:
            yield from walk(x)
