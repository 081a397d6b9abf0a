"""Static types of the rules language.

Values at run time are plain Python data: int/float/bool/str, players and cards as ints, enum
members as ints, squares as (x, y) tuples, lists as tuples, stack items as ints. Types exist only
in the checker, to catch mistakes before a game runs and to let the compiler pick fast code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class T:
    kind: str                       # int number bool text player card zone square item effect none any
    #                                 enum list tuple key zonefam grid seqfam seq phase
    name: str | None = None         # enum name, or the zone declaration of zonefam/grid/seq
    elem: T | None = None           # list element

    def __str__(self) -> str:
        if self.kind == "enum":
            return str(self.name)
        if self.kind == "list":
            return f"list of {self.elem}"
        if self.kind in ("zonefam", "grid", "seqfam", "seq"):
            return {"zonefam": "per-player zone", "grid": "grid", "seqfam": "per-player sequence",
                    "seq": "sequence of zones"}[self.kind] + f" {self.name}"
        if self.kind == "key":
            return "ordering key"
        return self.kind


INT = T("int")
NUMBER = T("number")
BOOL = T("bool")
TEXT = T("text")
PLAYER = T("player")
CARD = T("card")
ZONE = T("zone")
SQUARE = T("square")
ITEM = T("item")
EFFECT = T("effect")
NONE = T("none")
ANY = T("any")
TUPLE = T("tuple")
KEY = T("key")


def enum(name: str) -> T:
    return T("enum", name)


def list_of(elem: T) -> T:
    return T("list", None, elem)


BASIC = {"int": INT, "number": NUMBER, "bool": BOOL, "text": TEXT, "player": PLAYER, "card": CARD,
         "zone": ZONE, "square": SQUARE, "item": ITEM, "effect": EFFECT, "tuple": TUPLE}

NULLABLE = {"player", "card", "zone", "square", "item", "effect", "enum", "text", "tuple", "list", "key"}


def is_numeric(t: T) -> bool:
    return t.kind in ("int", "number", "any")


def elem_type(t: T) -> T | None:
    """What iterating over a value of type ``t`` yields, or None if it cannot be iterated."""
    if t.kind == "list":
        return t.elem
    if t.kind == "zone":
        return CARD
    if t.kind == "seq":
        return ZONE
    if t.kind == "any":
        return ANY
    if t.kind == "tuple":
        return ANY
    return None


def assignable(src: T, dst: T) -> bool:
    """Can a value of type ``src`` be stored where ``dst`` is expected?"""
    if src == dst or src.kind == "any" or dst.kind == "any":
        return True
    if src.kind == "none":
        return dst.kind in NULLABLE
    if src.kind == "int" and dst.kind == "number":
        return True
    if dst.kind == "list" and src.kind == "list":
        return src.elem is None or dst.elem is None or assignable(src.elem, dst.elem)
    if dst.kind == "list" and src.kind in ("zone", "seq"):
        return assignable(elem_type(src) or ANY, dst.elem or ANY)
    return dst.kind == "tuple" and src.kind in ("list", "tuple")


def comparable(a: T, b: T) -> bool:
    """May ``a == b`` be asked? (Both ways assignable, or numbers, or none against a nullable.)"""
    if is_numeric(a) and is_numeric(b):
        return True
    return assignable(a, b) or assignable(b, a)


def join(a: T, b: T) -> T:
    """The type of ``if c then a else b`` and of a list holding both."""
    if a == b:
        return a
    if a.kind == "none":
        return b
    if b.kind == "none":
        return a
    if a.kind == "any":             # e.g. the elements of [] joined with those of [1, 2]
        return b
    if b.kind == "any":
        return a
    if is_numeric(a) and is_numeric(b):
        return NUMBER
    if a.kind == "list" and b.kind == "list":
        return list_of(join(a.elem or ANY, b.elem or ANY)) if (a.elem and b.elem and comparable(a.elem, b.elem)) else list_of(ANY)
    return ANY
