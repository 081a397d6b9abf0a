"""Semantic analysis: merged declarations + option values → a checked ``Program``.

The checker resolves every name (annotating ``Expr.ref``), infers and checks every type
(``Expr.ty``), evaluates what is fixed once options are known (option values, the deck, variable
initial values), allocates storage (zone slots, variable slots, local slots), works out which rules
may wait for a decision, and reports every static mistake with its span — all of them at once.

The checker is built in layers, one module each, every layer calling only the ones below it:
``base`` (state, reporting) → ``declarations`` → ``expressions`` → ``secrecy`` (the hidden-information
warnings) → ``bodies`` (statements, decisions) → ``checker`` (the driver), over the symbols of
``symbols`` and the fixed values of ``folding``.
"""

from .checker import check
from .folding import const_value
from .symbols import (
    ITEM_FIELDS,
    CheckSym,
    EffectSym,
    FnSym,
    LocalSym,
    OrderingSym,
    Proc,
    Program,
    RuleSym,
    VarSym,
    WindowSym,
    ZoneSym,
    text_plain,
)

__all__ = ["ITEM_FIELDS", "CheckSym", "EffectSym", "FnSym", "LocalSym", "OrderingSym", "Proc", "Program", "RuleSym",
           "VarSym", "WindowSym", "ZoneSym", "check", "const_value", "text_plain"]
