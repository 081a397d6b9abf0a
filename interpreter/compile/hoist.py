"""Hoisting: expressions of an option's condition that do not depend on the option's binders are
computed once ahead of the loop over the options (``Hoister``), when that is safe and worth it.
"""

from __future__ import annotations

import re
from typing import Any

from .. import ast as A
from ..check import FnSym, LocalSym

_CALL = re.compile(r"[\w\]]\s*\(|\bfor\b|\blambda\b|\bif\b")
_SAFE_HOIST = {"top", "bottom", "size", "cards", "next", "prev", "others", "seats_from"}


def cheap(code: str) -> bool:
    """Reading this Python twice costs about as much as a variable: no calls, no loops."""
    return not _CALL.search(code)


class Hoister:
    """Collects loop-invariant expressions of an option enumeration, computed once before its loops."""

    def __init__(self, variant: set[int], guarded: bool = False, frozen: bool = False) -> None:
        self.variant = variant
        # the plain version beside a guarded one: it reads only what was computed ahead of the
        # guard, and writes anything else in place (a new name would have no line computing it)
        self.frozen = frozen
        self.lines: list[str] = []
        self.cache: dict[str, str] = {}
        self.guarded = guarded              # may read attributes of hoisted cards (under a guard)
        self.guards: list[str] = []         # hoisted names that must not be none for those reads
        self.guarded_lines: list[str] = []

    def can(self, e: A.Expr) -> bool:
        return not (free_locals(e) & self.variant) and _safe_to_hoist(e)

    def add(self, code: str) -> str:
        name = self.cache.get(code)
        if name is None:
            if self.frozen:
                return f"({code})"
            name = f"h{len(self.cache)}"
            self.cache[code] = name
            self.lines.append(f"{name} = {code}")
        return name

    def attr(self, table: str, obj: str) -> str | None:
        """``TABLE[h0]`` read once, if ``h0`` is a hoisted card (valid where ``h0 is not None``)."""
        if not self.guarded or obj not in self.cache.values():
            return None
        code = f"{table}[{obj}]"
        name = self.cache.get(code)
        if name is None:
            name = f"h{len(self.cache)}"
            self.cache[code] = name
            self.guarded_lines.append(f"{name} = {code}")
            if obj not in self.guards:
                self.guards.append(obj)
        return name


def _safe_to_hoist(e: Any) -> bool:
    """Only expressions that cannot fail are evaluated before (and even without) the loop."""
    if isinstance(e, A.Lit):
        return True
    if isinstance(e, A.Name):
        return True
    if isinstance(e, A.Index):
        return isinstance(e.ref, tuple) and e.ref[0] in ("zonefam", "pvar") and all(_safe_to_hoist(a) for a in e.args)
    if isinstance(e, A.Call):
        return isinstance(e.ref, tuple) and e.ref[0] == "builtin" and e.func in _SAFE_HOIST and \
            all(_safe_to_hoist(a) for a in e.args)
    return False


def free_locals(e: Any) -> set[int]:
    """Ids of the local symbols an expression reads (bound-inside comprehension variables excluded)."""
    out: set[int] = set()
    bound: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, A.Comprehension | A.Quantifier | A.Best) and isinstance(x.ref, LocalSym):
            bound.add(id(x.ref))
        if isinstance(x, A.Name) and isinstance(x.ref, LocalSym):
            out.add(id(x.ref))
        if isinstance(x, A.Call) and isinstance(x.ref, FnSym) and x.ref.decl is not None:
            pass  # a function sees only its parameters
        if isinstance(x, A.Node):
            for f in x.__dataclass_fields__:
                if f not in ("span", "ty", "ref"):
                    walk(getattr(x, f))
        elif isinstance(x, list | tuple):
            for y in x:
                walk(y)

    walk(e)
    return out - bound
