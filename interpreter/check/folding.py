"""Fixed values: expressions worked out once options are known (option values, deck data, initial
values, constant conditions).
"""

from __future__ import annotations

import math
from typing import Any

from .. import ast as A
from .. import types as T
from .symbols import MemberRef, Seat


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


def _const_type(v: Any) -> T.T:
    if v is None:
        return T.NONE
    if isinstance(v, bool):
        return T.BOOL
    if isinstance(v, Seat):
        return T.PLAYER
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
