"""The abstract syntax tree of a ruleset: typed dataclasses, every node carrying its source span.

The nodes are standard dataclasses, which pydantic validates and serialises as they are
(``pydantic.TypeAdapter(Module)``; ``fuda parse --json`` uses it). They are not ``BaseModel``
subclasses on purpose: importing pydantic and building ~70 model classes costs ~150 ms on this
machine, which alone would break the 0.3 s budget of ``fuda validate``. The checker annotates
expressions (``ty``, ``ref``) in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import Span

node = dataclass(kw_only=True, slots=True, eq=False)


@node
class Node:
    span: Span


# ------------------------------------------------------------------ types and text
@node
class TypeRef(Node):
    name: str                       # "int", "card", an enum name, or "list"
    of: TypeRef | None = None       # element type of a list


@node
class Text(Node):
    """A label or message: English and Japanese halves split at " | "; {expr} interpolates."""
    parts: list[list[str | Expr]]   # one list of literal/expression parts per language

    @property
    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else "{…}" for p in self.parts[0])


# ------------------------------------------------------------------ expressions
@node
class Expr(Node):
    ty: Any = field(default=None, repr=False)      # set by the checker
    ref: Any = field(default=None, repr=False)     # resolved symbol, set by the checker


@node
class Lit(Expr):
    kind: Literal["int", "number", "text", "bool", "none"]
    value: int | float | str | bool | None


@node
class Name(Expr):
    name: str


@node
class Attr(Expr):
    obj: Expr
    name: str


@node
class Index(Expr):
    obj: Expr
    args: list[Expr]


@node
class KwArg(Node):
    name: str
    value: Expr


@node
class Call(Expr):
    func: str
    args: list[Expr]
    kwargs: list[KwArg] = field(default_factory=list)


@node
class Unary(Expr):
    op: Literal["-", "not"]
    operand: Expr


@node
class Binary(Expr):
    op: str                         # + - * / // % and or == != < <= > >= in notin ..
    left: Expr
    right: Expr


@node
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@node
class ListLit(Expr):
    items: list[Expr]


@node
class TupleLit(Expr):
    items: list[Expr]


@node
class Comprehension(Expr):
    elem: Expr
    var: str
    source: Expr
    cond: Expr | None = None


@node
class Quantifier(Expr):
    kind: Literal["any", "all", "count"]
    var: str
    source: Expr
    cond: Expr


@node
class Best(Expr):
    var: str
    source: Expr
    key: Expr


# ------------------------------------------------------------------ statements
@node
class Stmt(Node):
    pass


@node
class Let(Stmt):
    name: str
    type: TypeRef | None = None
    value: Expr


@node
class Assign(Stmt):
    target: Expr
    op: str
    value: Expr


@node
class ExprStmt(Stmt):
    expr: Expr


@node
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt] | None = None


@node
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@node
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


@node
class For(Stmt):
    var: str
    source: Expr
    body: list[Stmt]


@node
class Break(Stmt):
    pass


@node
class Continue(Stmt):
    pass


@node
class Return(Stmt):
    value: Expr | None = None


@node
class Move(Stmt):
    cards: Expr
    dest: Expr
    under: bool = False
    face: Literal["up", "down"] | None = None


@node
class Deal(Stmt):
    count: Expr
    source: Expr
    dest: str
    dest_span: Span
    players: Expr | None = None


@node
class Shuffle(Stmt):
    zone: Expr


@node
class Reveal(Stmt):
    what: Expr
    to: Expr | None = None


@node
class Hide(Stmt):
    what: Expr


@node
class Swap(Stmt):
    a: Expr
    b: Expr


@node
class Binder(Node):
    var: str
    source: Expr


@node
class Option(Node):
    name: str
    binders: list[Binder]
    where: Expr | None = None
    label: Text | None = None
    body: list[Stmt]


@node
class Choose(Stmt):
    player: Expr
    label: Text | None = None
    options: list[Option]
    otherwise: list[Stmt] | None = None


@node
class Simultaneous(Stmt):
    var: str
    players: Expr
    label: Text | None = None
    options: list[Option]


@node
class Turn(Stmt):
    player: Expr
    body: list[Stmt]


@node
class Goto(Stmt):
    phase: str


@node
class Activate(Stmt):
    effect: str
    args: list[Expr]
    kwargs: list[KwArg] = field(default_factory=list)
    by: Expr | None = None
    source: Expr | None = None


@node
class Negate(Stmt):
    item: Expr


@node
class Win(Stmt):
    who: Expr


@node
class Lose(Stmt):
    who: Expr


@node
class Finish(Stmt):
    who: Expr


@node
class End(Stmt):
    draw: bool = False


@node
class Log(Stmt):
    text: Text


@node
class Tell(Stmt):
    player: Expr
    text: Text


@node
class Reverse(Stmt):
    pass


@node
class Insert(Stmt):
    seq: Expr
    side: Literal["front", "back"]
    name: str


@node
class Record(Stmt):
    key: Expr


# ------------------------------------------------------------------ declarations
@node
class Decl(Node):
    override: bool = False

    @property
    def key(self) -> str:
        """The name a variant overrides this declaration by."""
        return getattr(self, "name", type(self).__name__)


@node
class RulesetDecl(Decl):
    name: str
    title: Text | None = None


@node
class ExtendsDecl(Decl):
    base: str


@node
class PlayersDecl(Decl):
    min: int
    max: int
    default: int | None = None


@node
class OptType(Node):
    kind: Literal["named", "range", "enum"]
    name: str | None = None         # bool / int / number / an enum name
    lo: int | None = None
    hi: int | None = None
    members: list[EnumMember] = field(default_factory=list)


@node
class EnumMember(Node):
    name: str
    label: Text | None = None


@node
class OptionDecl(Decl):
    name: str
    type: OptType | None = None     # None: a variant changing a base option's default
    default: Expr
    label: Text | None = None


@node
class EnumDecl(Decl):
    name: str
    members: list[EnumMember]


@node
class CardAttrDecl(Node):
    name: str
    type: TypeRef
    default: Expr | None = None


@node
class CardDef(Node):
    name: Text
    fields: list[KwArg]


@node
class CardFor(Node):
    var: str
    source: Expr
    items: list[CardItem]


@node
class CardIf(Node):
    cond: Expr
    items: list[CardItem]


CardItem = CardAttrDecl | CardDef | CardFor | CardIf


@node
class CardsDecl(Decl):
    template: str | None = None     # a built-in deck ("standard") or None for a custom deck
    args: list[KwArg | Expr] = field(default_factory=list)  # a template's arguments (keyword only; the checker says so)
    items: list[CardItem] = field(default_factory=list)
    zone: str | None = None
    zone_span: Span | None = None

    @property
    def key(self) -> str:
        return "cards"


@node
class ZoneDecl(Decl):
    name: str
    kind: Literal["pile", "hand", "grid", "sequence"]
    width: int = 0
    height: int = 0
    per_player: bool = False
    visibility: Literal["public", "hidden", "owner", "others"] = "public"
    label: Text | None = None


@node
class VarDecl(Decl):
    name: str
    type: TypeRef | None = None
    scope: Literal["global", "player", "card"] = "global"
    init: Expr
    visibility: Literal["public", "hidden", "owner", "others"] = "public"
    label: Text | None = None


@node
class Param(Node):
    name: str
    type: TypeRef


@node
class FnDecl(Decl):
    name: str
    params: list[Param]
    ret: TypeRef | None = None
    body: Expr


@node
class RuleDecl(Decl):
    name: str
    params: list[Param]
    ret: TypeRef | None = None
    body: list[Stmt]


@node
class SetupDecl(Decl):
    body: list[Stmt]

    @property
    def key(self) -> str:
        return "setup"


@node
class PhaseDecl(Decl):
    name: str
    label: Text | None = None
    body: list[Stmt]


@node
class EffectDecl(Decl):
    name: str
    params: list[Param]
    label: Text | None = None
    body: list[Stmt]


@node
class WindowDecl(Decl):
    name: str
    label: Text | None = None
    item_var: str
    player_var: str
    when: Expr | None = None
    responders: Expr | None = None
    ask_all: Expr | None = None     # a bool expression (usually an option); None: skip players with nothing to do
    options: list[Option]


@node
class WindowsDecl(Decl):
    names: list[str]
    name_spans: list[Span]

    @property
    def key(self) -> str:
        return "windows"


@node
class CheckDecl(Decl):
    name: str
    label: Text | None = None
    var: str | None = None
    source: Expr | None = None
    cond: Expr
    body: list[Stmt]


@node
class Tier(Node):
    cond: Expr
    by: Expr | None = None


@node
class OrderingDecl(Decl):
    name: str
    params: list[Param]
    tiers: list[Tier]


@node
class LimitDecl(Decl):
    count: int
    unit: str

    @property
    def key(self) -> str:
        return "limit"


@node
class Module:
    file: str
    decls: list[Decl]
