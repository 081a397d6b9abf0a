"""What the compiler hands the engine: the compiled ruleset (``Compiled``), its decision sites and
effects, and the codes that say how a value of a static type is shown (texts, action ids, records).

Kept apart from the code generators so that the engine, the views and the runners can read these
without importing the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast as A
from .. import types as T
from ..engine import runtime
from ..errors import Span
from ..named import named


@dataclass
class OptInfo:
    name: str
    span: int
    binder_types: list[str]
    binder_slots: list[int]         # frame slots the chosen values go to
    from_zone: list[bool] = field(default_factory=list)   # per binder: `c in ZONE`
    card_args: tuple[tuple[int, bool], ...] = ()   # (position in the option tuple, is a list) of cards
    place_args: tuple[tuple[int, bool], ...] = ()  # the card args picked from a zone: a choice of places
    named_src: list[bool] = field(default_factory=list)   # per binder: its source names its cards (named.py)
    found_args: tuple[tuple[int, bool], ...] = ()  # the card args found by their place, not named
    body: tuple[Span, ...] = ()     # its block's statements and the rules only it calls: the events they log
                                    # are the action's (observe.py)
    after: tuple[Span, ...] = ()    # the rules only the posing phase or rule calls, outside the decision's
                                    # blocks: an event they log comes after the action

    def __post_init__(self) -> None:
        self.card_args = tuple((i + 1, t != "card") for i, t in enumerate(self.binder_types)
                               if t in ("card", "list:card"))
        self.place_args = tuple(a for a in self.card_args if a[0] <= len(self.from_zone) and self.from_zone[a[0] - 1])
        self.found_args = tuple(a for a in self.card_args
                                if not (a[0] <= len(self.named_src) and self.named_src[a[0] - 1]))


@dataclass
class SiteInfo:
    kind: str                        # choose | simul | window
    span: int
    options: list[OptInfo]
    enum: Any = None                 # (st, fr) / (st, fr, p) / (st, item, p) -> list of option tuples
    labels: Any = None               # same args + option -> (en, ja) or None
    prompt: Any = None               # same args (no option) -> (en, ja) or None
    weights: Any = None              # same args + option -> its rollout weight; None: all weigh 1
    weights_fixed: bool = False      # the weights read nothing of the game (numbers written out)
    weights_shared: frozenset[int] = frozenset()    # options whose weight reads none of their binders
    reasons: Any = None              # same args + (option index,) -> why none of it is legal, (en, ja) or None
    domain: Any = None               # same args + (option index,) -> its tuples with its `where` left out (options
                                     # with an `else "why"`: a typed value it never takes is not the where's to refuse)
    window: int = -1
    hidden: bool = False             # a `choose … hidden`: the others see only that it was made
    maybe: str | None = None         # cheap code (args it, pl) false when the decision has no option
    scope: Span | None = None        # the phase, setup or rule it is posed in: an event logged there outside
                                     # the chosen option's block comes after that block (observe.py)


@dataclass
class WindowRT:
    """What the stack procedure needs of a window: its decision site and each option's procedure and
    the frame slots its chosen values go to."""
    name: str
    site: int
    procs: list[int]
    binder_slots: list[list[int]]


@dataclass
class EffectRT:
    name: str
    proc: int
    frame_size: int
    nparams: int
    fields: list[int]
    span: int = -1


@dataclass
class Compiled:
    frame_types: dict[int, list[str]]
    source: str
    line_spans: list[int]
    spans: list[Span]
    procs: list[Any]
    frame_sizes: list[int]
    proc_names: list[str]
    sites: list[SiteInfo]
    effects: list[EffectRT]
    setup: int
    phases: list[int]
    namespace: dict[str, Any] = field(default_factory=dict)
    under_spans: set[int] = field(default_factory=set)     # the `move … under` statements (for the log)
    # the code of each expression of a `fn` body and of each call of a `fn`, as it stands in the
    # generated lines: (code, its span, the fn it is in or None, the fn it calls or None). Read only
    # when a rule fails, to find the failing expression inside an inlined function (Game.fn_failure)
    fn_sites: list[tuple[str, Span, str | None, str | None]] = field(default_factory=list)
    frame_labels: dict[int, int] = field(default_factory=dict)     # resume labels per frame procedure
    # each call of a `fn` noted there, by its code and span: each parameter's name, the code of the
    # value given it (evaluated in the frame running the call when the fn fails: which one is none)
    # and the argument's span
    fn_args: dict[tuple[str, Span], list[tuple[str, str, Span]]] = field(default_factory=dict)


def type_code(t: T.T | None) -> str:
    """How a value of this type is shown in texts and action ids (see runtime ``_fmt``)."""
    if t is None:
        return "any"
    if t.kind == "enum":
        return f"enum:{t.name}"
    if t.kind == "list":
        return f"list:{type_code(t.elem)}"
    if t.kind == "seq":
        return "list:zone"
    return t.kind


def _ident(name: str) -> str:
    """A Python identifier for a ruleset name (which may hold ♠ or other symbols)."""
    out: list[str] = []
    for ch in name:
        if ch.isidentifier() or out and ("_" + ch).isidentifier():     # a digit after the first; not ², which isdigit takes
            out.append(ch)
        else:
            out.append(f"_{ord(ch):x}_")
    s = "".join(out)
    return s if s.isidentifier() else "_" + s


def _ev(name: str) -> int:
    return int(getattr(runtime, f"EV_{name}"))


def named_code(code: str, named: bool) -> str:
    """A frame slot's type code, marked "!" where it holds cards the rules name."""
    return code + "!" if named and code in ("card", "list:card") else code


def record_shape(e: A.Expr) -> str:
    """Where a recorded key holds cards found by their place, which follow their position in a
    bot's sampled worlds (determinize.py): "card", "list:card", "(…;…)" for a tuple written out,
    "-" for none (a named card keeps its identity; a tuple held in a variable is taken as it is)."""
    if isinstance(e, A.TupleLit):
        items = [record_shape(x) for x in e.items]
        return "(" + ";".join(items) + ")" if any(i != "-" for i in items) else "-"
    code = type_code(e.ty)
    return code if code.removeprefix("list:").removeprefix("list:").removeprefix("list:") == "card" \
        and not named(e) else "-"
