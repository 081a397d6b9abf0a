"""Checked program → executable rules.

The compiler writes Python source for the whole ruleset and ``exec``s it once per (ruleset,
options): option values are folded in as constants, card attributes become tuple lookups, zones
become list indexes. Nothing walks a tree while a game runs.

Rules that may wait for a decision become *resumable procedures*: ``P7(st, fr)`` runs from the
label stored in its frame ``fr = [proc, label, locals…]`` until it needs a decision (it stores the
pending decision and returns SUSPEND), calls another resumable procedure (pushes its frame and
returns CALL) or finishes (DONE). Frames are plain lists, so a suspended game is plain data.
Everything that cannot wait (functions, conditions, checks, most rules) compiles to ordinary
functions. Each generated line remembers the rule span it came from, so a failure at run time
is reported at the rule, never as a Python traceback.
"""

from __future__ import annotations

import ast as pyast
import builtins as pybuiltins
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from . import types as T
from .builtins import BUILTINS
from .check import (
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
    const_value,
    text_plain,
)
from .distinct_values import never_repeats
from .engine import runtime
from .errors import Span
from .named import named
from .secret_places import secret

FIELD_INDEX = {"kind": 0, "controller": 1, "source": 2, "times": 3, "negated": 4}
# rounds in a row without a decision after which a loop that can wait for one is stopped (E601)
SPIN = 100_000


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

    def __post_init__(self) -> None:
        self.card_args = tuple((i + 1, t != "card") for i, t in enumerate(self.binder_types)
                               if t in ("card", "list:card"))
        self.place_args = tuple(a for a in self.card_args if a[0] <= len(self.from_zone) and self.from_zone[a[0] - 1])
        self.found_args = tuple(a for a in self.card_args
                                if not (a[0] <= len(self.named_src) and self.named_src[a[0] - 1]))


def _fixed(e: A.Expr) -> bool:
    """Whether an expression reads nothing of the game: numbers and arithmetic on them."""
    if isinstance(e, A.Lit):
        return True
    if isinstance(e, A.Unary):
        return _fixed(e.operand)
    if isinstance(e, A.Binary):
        return _fixed(e.left) and _fixed(e.right)
    if isinstance(e, A.IfExpr):
        return _fixed(e.cond) and _fixed(e.then) and _fixed(e.other)
    return False


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
    window: int = -1
    hidden: bool = False             # a `choose … hidden`: the others see only that it was made
    maybe: str | None = None         # cheap code (args it, pl) false when the decision has no option


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


class _Block:
    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[tuple[int, str, int]] = []


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


class Compiler:
    def __init__(self, prog: Program) -> None:
        self.p = prog
        self.out: list[tuple[int, str, int]] = []       # (indent, text, span id)
        self.spans: list[Span] = []
        self.fresh = 0                  # names of inlined functions' comprehension variables (k1, k2…)
        self.span_ids: dict[Span, int] = {}
        self.sites: list[SiteInfo] = []
        self.tops = any(z.decl is not None and z.decl.top_up for z in prog.zones)    # piles `top up`
        self.under_spans: set[int] = set()
        self.consts: dict[str, Any] = {}
        self.zone_by_name = {z.name: z for z in prog.zones}
        # frame procedures: 0 is the effect stack (gen_stack_proc)
        self.frame_ids: dict[int, int] = {}
        self.frame_sizes: list[int] = [8]
        self.frame_labels: dict[int, int] = {0: 8}     # how many places a frame may resume at (saved states)
        self.proc_names: list[str] = ["<stack>"]
        # frame 0 is the effect stack: [proc, label, item, window, responders, responder index, player, -]
        self.frame_types: dict[int, list[str]] = {0: ["int", "int", "item", "int", "list:player", "int", "player",
                                                      "any"]}
        for proc in prog.procs:
            if self.is_frame(proc):
                self.frame_ids[proc.index] = len(self.frame_sizes)
                self.frame_sizes.append(0)
                self.proc_names.append(f"{proc.kind} {proc.name}")
        self.frame_ids[prog.setup.index] = self._setup_fid = self.frame_ids.get(prog.setup.index, 0)
        self.check_reads = _check_reads(prog)
        self.text_fns: list[str] = []          # formatters of logged messages (ExprGen.text_later)
        self.aggregates: dict[str, tuple[str, int]] = {}   # helper body → its name, span (ExprGen.aggregate)
        self.fn_sites: list[tuple[str, Span, str | None, str | None]] = []  # see Compiled.fn_sites

    # -------------------------------------------------------------- helpers
    def is_frame(self, proc: Proc) -> bool:
        return proc.kind in ("setup", "phase", "effect", "window") or (proc.kind == "rule" and proc.suspends)

    def span(self, sp: Span) -> int:
        sid = self.span_ids.get(sp)
        if sid is None:
            sid = len(self.spans)
            self.spans.append(sp)
            self.span_ids[sp] = sid
        return sid

    def const(self, name: str, value: Any) -> str:
        self.consts[name] = value
        return name

    def zone(self, name: str | None) -> ZoneSym:
        return self.zone_by_name[name or ""]

    def type_code(self, t: T.T) -> str:
        return repr(type_code(t))

    def emit(self, ind: int, text: str, sp: int = -1) -> None:
        self.out.append((ind, text, sp))

    # -------------------------------------------------------------- whole program
    def run(self) -> Compiled:
        p = self.p
        cards = p.cards
        for a, vals in cards.attrs.items():
            self.const(f"A_{_ident(a)}", tuple(vals))
        self.const("NAMES", tuple(cards.names))
        self.const("ALLCARDS", tuple(range(len(cards.names))))
        owners: list[int | None] = []
        for z in p.zones:          # slot → owner, in the order Game lays the slots out
            if z.kind != "sequence":
                owners.extend((k if z.per_player else None) for k in range(z.count))
        self.const("ZOWN", tuple(owners))
        self.const("PLAYERS", tuple(range(p.players)))
        self.emit(0, "# generated by fuda from " + ", ".join(p.chain))
        for f in p.fns.values():
            self.gen_fn(f)
        if p.evaluate is not None:
            self.emit(0, f"EVAL = F_{_ident(p.evaluate.fn)}", self.span(p.evaluate.span))
        if p.allies is not None:
            self.emit(0, f"ALLIES = F_{_ident(p.allies.fn)}", self.span(p.allies.span))
        if p.belief is not None:
            self.emit(0, f"BELIEF = F_{_ident(p.belief.fn)}", self.span(p.belief.span))
        for o in p.orderings.values():
            self.gen_ordering(o)
        for r in p.rules.values():
            assert r.proc
            if not r.proc.suspends:
                self.gen_plain_proc(r.proc, f"R{r.proc.index}")
        for c in p.checks:
            assert c.proc
            self.gen_check(c)
        self.gen_checks_driver()
        if p.show is not None:
            self.gen_show(p.show)
        windows: list[WindowRT] = []
        for w in p.windows:
            windows.append(self.gen_window(w))
        effects: list[EffectRT] = []
        for e in p.effects:
            assert e.proc
            fid = self.frame_ids[e.proc.index]
            self.gen_frame_proc(e.proc, fid)
            effects.append(EffectRT(e.name, fid, self.frame_sizes[fid], len(e.params),
                                    [p.item_fields[n][0] for n, _ in e.params], self.span(e.span)))
        self.gen_frame_proc(p.setup, self._setup_fid)
        phases = []
        for ph in p.phases:
            assert ph.proc
            fid = self.frame_ids[ph.proc.index]
            self.gen_frame_proc(ph.proc, fid)
            phases.append(fid)
        for r in p.rules.values():
            assert r.proc
            if r.proc.suspends:
                self.gen_frame_proc(r.proc, self.frame_ids[r.proc.index])
        for w in p.windows:
            for proc in w.procs:
                self.gen_frame_proc(proc, self.frame_ids[proc.index])
        self.gen_stack_proc(windows, effects)
        for body, (name, sid) in self.aggregates.items():
            head, *rest = body.split("\n")
            self.emit(0, f"def {name}({head}):", sid)
            for text in rest:
                self.emit((len(text) - len(text.lstrip(" "))) // 4, text.lstrip(" "), sid)
        for k, body in enumerate(self.text_fns):
            self.emit(0, f"def T{k}(st, a):")
            self.emit(1, f"return {body}")
        self.emit(0, f"TEXTS = ({''.join(f'T{k}, ' for k in range(len(self.text_fns)))})")
        _prune_prologues(self.out)
        lines: list[str] = []
        line_spans: list[int] = []
        pad = re.compile(r"@PAD(\d+):(\d+)@")

        def fill(m: re.Match[str]) -> str:
            missing = self.frame_sizes[int(m.group(1))] - 2 - int(m.group(2))
            return ", None" * missing

        for ind, text, sp in self.out:
            lines.append("    " * ind + pad.sub(fill, text))
            line_spans.append(sp)
        source = "\n".join(lines) + "\n"
        return Compiled(self.frame_types, source, line_spans, self.spans, [], self.frame_sizes, self.proc_names,
                        self.sites, effects, self._setup_fid, phases, dict(self.consts), self.under_spans,
                        self.fn_sites, self.frame_labels)

    # -------------------------------------------------------------- functions and orderings
    def gen_fn(self, f: FnSym) -> None:
        assert f.decl
        args = ", ".join(f"l{x.slot}" for x in f.params)
        body = f.decl.body
        steps = isinstance(body, A.LetIn)
        # a function of named steps is its declaration, each step and its result a line of their own
        # (`fuda bench --profile` files the work of a line under it); a one-line function is its body
        sid = self.span(f.decl.span if steps else body.span)
        self.emit(0, f"def F_{_ident(f.name)}(st{', ' if args else ''}{args}):", sid)
        self.emit(1, _ALIASES, sid)
        eg = ExprGen(self, {}, "plain", fn=f.name)
        while isinstance(body, A.LetIn):        # a function's named steps, one assignment each
            self.emit(1, f"{eg.local(body.ref)} = {eg.gen(body.value)}", self.span(body.value.span))
            body = body.body
        if steps:
            sid = self.span(body.span)
        if not _never_none(f):      # an int, number or bool that may be none: said here, not far away
            rsid = self.span(body.span)
            self.emit(1, f"_r = {eg.gen(body)}", rsid)
            self.emit(1, f"if _r is None: raise _RuleFailure({f'{f.name} returned none, but it returns {f.ret}'!r}, "
                         f"{rsid})", rsid)
            self.emit(1, "return _r", sid)
            return
        self.emit(1, f"return {eg.gen(body)}", sid)

    def gen_ordering(self, o: OrderingSym) -> None:
        assert o.decl
        args = ", ".join(f"l{x.slot}" for x in o.params)
        sid = self.span(o.decl.span)
        self.emit(0, f"def O_{_ident(o.name)}(st{', ' if args else ''}{args}):", sid)
        self.emit(1, _ALIASES, sid)
        eg = ExprGen(self, {}, "plain")
        n = len(o.decl.tiers)
        for i, t in enumerate(o.decl.tiers):
            tsid = self.span(t.span)
            self.emit(1, f"if {eg.gen(t.cond)}:", tsid)
            self.emit(2, f"return ({n - i}, {eg.gen(t.by) if t.by is not None else 0})", tsid)
        self.emit(1, "return (0, 0)", sid)
        if len(o.params) != 1:
            return
        # the best of a sequence in one call: the tiers tested inline, no key function per element
        v = f"l{o.params[0].slot}"
        self.emit(0, f"def OB_{_ident(o.name)}(st, seq):", sid)
        self.emit(1, _ALIASES, sid)
        self.emit(1, "_b = None; _bt = -1; _bv = None", sid)
        self.emit(1, f"for {v} in seq:", sid)
        for i, t in enumerate(o.decl.tiers):
            tsid = self.span(t.span)
            self.emit(2, f"{'if' if i == 0 else 'elif'} {eg.gen(t.cond)}:", tsid)
            self.emit(3, f"_t = {n - i}; _v = {eg.gen(t.by) if t.by is not None else 0}", tsid)
        if o.decl.tiers:
            self.emit(2, "else:", sid)
        self.emit(3 if o.decl.tiers else 2, "_t = 0; _v = 0", sid)
        self.emit(2, "if _t > _bt or _t == _bt and _v > _bv:", sid)
        self.emit(3, f"_b = {v}; _bt = _t; _bv = _v", sid)
        self.emit(1, "return _b", sid)

    # -------------------------------------------------------------- plain procedures
    def gen_plain_proc(self, proc: Proc, name: str) -> None:
        args = ", ".join(f"l{x.slot}" for x in proc.params)
        sid = self.span(proc.span)
        self.emit(0, f"def {name}(st{', ' if args else ''}{args}):", sid)
        self.emit(1, _ALIASES, sid)        # pruned to what the body reads (_prune_prologues)
        bg = BodyGen(self, proc, "plain")
        bg.stmts(proc.body, 1)
        bg.flush_plain()

    def gen_check(self, c: CheckSym) -> None:
        assert c.proc and c.decl
        sid = self.span(c.decl.span)
        arg = f", l{c.var.slot}" if c.var is not None else ""
        eg = ExprGen(self, {}, "plain")
        self.emit(0, f"def CK_{_ident(c.name)}(st{arg}):", sid)
        self.emit(1, _ALIASES, sid)
        self.emit(1, f"return {eg.gen(c.decl.cond)}", self.span(c.decl.cond.span))
        self.emit(0, f"def CB_{_ident(c.name)}(st{arg}):", sid)
        self.emit(1, _ALIASES, sid)
        bg = BodyGen(self, c.proc, "plain")
        bg.stmts(c.decl.body, 1)
        bg.flush_plain()

    def gen_show(self, show: tuple[Proc, A.ShowDecl]) -> None:
        """SHOW(st, card) -> (english, japanese): how the ruleset shows a card to players;
        SHOW_ORDER(st, card): the key its owner's hand is sorted by on screen."""
        _, d = show
        sid = self.span(d.span)
        if d.text is not None:
            self.emit(0, "def SHOW(st, l0):", sid)
            self.emit(1, _ALIASES, sid)
            self.emit(1, f"return {ExprGen(self, {}, 'plain').text(d.text, shown=False)}", sid)
        if d.order is not None:
            self.emit(0, "def SHOW_ORDER(st, l0):", sid)
            self.emit(1, _ALIASES, sid)
            self.emit(1, f"return {ExprGen(self, {}, 'plain').gen(d.order)}", sid)

    def gen_checks_driver(self) -> None:
        self.emit(0, "def CHECKS(st, _s=-1, _d=-1):")
        if not self.p.checks:
            self.emit(1, "return")
            return
        self.emit(1, "if st.in_check: return")
        self.emit(1, _ALIASES)     # a check's `for p in LIST` may read the state
        self.gen_checks_fast_pass()
        self.emit(1, "st.in_check = True")
        self.emit(1, "try:")
        self.emit(2, "for _n in range(200):")
        for c in self.p.checks:
            assert c.decl
            sid = self.span(c.decl.span)
            nm = _ident(c.name)
            idx = self.p.checks.index(c)
            if c.var is not None and c.decl.source is not None:
                eg = ExprGen(self, {}, "plain")
                self.emit(3, "_hit = None", sid)
                self.emit(3, f"for _p in {eg.seq(c.decl.source)}:", sid)
                self.emit(4, f"if CK_{nm}(st, _p):", sid)
                self.emit(5, "_hit = _p; break", sid)
                self.emit(3, "if _hit is not None:", sid)
                self.emit(4, f"st.ev.append(({_ev('CHECK')}, {sid}, {idx}, _hit)); CB_{nm}(st, _hit); continue", sid)
            else:
                self.emit(3, f"if CK_{nm}(st):", sid)
                self.emit(4, f"st.ev.append(({_ev('CHECK')}, {sid}, {idx}, None)); CB_{nm}(st); continue", sid)
        self.emit(3, "st.ck_ok = True")
        self.emit(3, "return")
        first = self.span(self.p.checks[0].span)
        self.emit(2, f"raise _RuleFailure('a check keeps firing: its condition stays true after its rule ran', "
                     f"{first}, 'E603')", first)
        self.emit(1, "finally:")
        self.emit(2, "st.in_check = False")

    def gen_checks_fast_pass(self) -> None:
        """After one card moved from slot _s to slot _d, while every condition is known to be false
        (st.ck_ok: the last full pass found nothing and nothing unseen changed since), only the
        conditions that read one of those two zones can have become true — and of a check
        `for p in L` that reads a per-player zone only as Z[p], only for the owners of the two slots.
        If none of them holds, nothing fires and the full pass is skipped."""
        deps = _check_deps(self.p)
        n_static = self.p.static_slots
        self.emit(1, "if _s >= 0 and st.ck_ok and _s < NSTATIC and _d < NSTATIC:")
        self.const("NSTATIC", n_static)
        for k, c in enumerate(self.p.checks):
            assert c.decl
            sid = self.span(c.decl.span)
            nm = _ident(c.name)
            dep = deps[k]
            loop = c.var is not None and c.decl.source is not None
            src = ExprGen(self, {}, "plain").seq(c.decl.source) if c.decl.source is not None and loop else ""
            if dep is None:                           # reads something a move may change: always
                if loop:
                    self.emit(2, f"for _p in {src}:", sid)
                    self.emit(3, f"if CK_{nm}(st, _p): _s = -1; break", sid)
                else:
                    self.emit(2, f"if CK_{nm}(st): _s = -1", sid)
                self.emit(2, "if _s < 0: return CHECKS(st)", sid)
                continue
            roles, owners = self._check_role_tables(k, dep)
            if not any(self.consts[roles]):
                continue
            # a card leaving a zone the condition only grows with cannot make it true
            grows = {z for z in dep[0] if _grows_with(c.decl.cond, z)}
            src_roles, src_owners = roles, owners
            if grows:
                slots = {z.base + j for z in self.p.zones if z.name in grows for j in range(z.count)}
                src_roles = self.const(f"CKS{k}", tuple(0 if i in slots else r
                                                        for i, r in enumerate(self.consts[roles])))
                src_owners = self.const(f"CKOS{k}", tuple(-1 if i in slots else o
                                                          for i, o in enumerate(self.consts[owners])))
            # the condition inline (no call per player); the order of players does not matter here
            cond = ExprGen(self, {}, "plain").gen(c.decl.cond)
            csid = self.span(c.decl.cond.span)
            tops: list[str] = []
            fixed = None
            if loop:        # the top card of a fixed zone, read for every player: once, before the loop
                assert c.var is not None
                tops = sorted({m.group(1) for m in _TOP_OF_SLOT.finditer(cond)})
                for i, t in enumerate(tops):
                    cond = cond.replace(f"({t})", f"_h{i}")
                fixed, cond = _leading_variables(cond)      # `started and …`: tested once
            self.emit(2, f"_r = {src_roles}[_s] | {roles}[_d]{f' if {fixed} else 0' if fixed else ''}", sid)
            if loop and any(r == 2 for r in self.consts[roles]):
                assert c.var is not None
                pv = f"l{c.var.slot}"
                member = "" if src == "PLAYERS" else f" and {pv} in {src}"
                self.emit(2, "if _r == 2:", sid)
                for i, t in enumerate(tops):
                    self.emit(3, f"_h{i} = {t}", sid)
                # the owners of the two slots, one after the other (none for a source the condition
                # only grows with)
                for table, slot in ((src_owners, "_s"), (owners, "_d")):
                    if any(o >= 0 for o in self.consts[table]):
                        self.emit(3, f"{pv} = {table}[{slot}]", sid)
                        self.emit(3, f"if {pv} >= 0{member} and {cond}: return CHECKS(st)", csid)
                self.emit(2, "elif _r:", sid)
            else:
                self.emit(2, "if _r:", sid)
            if loop:
                assert c.var is not None
                for i, t in enumerate(tops):
                    self.emit(3, f"_h{i} = {t}", sid)
                self.emit(3, f"for l{c.var.slot} in {src}:", sid)
                self.emit(4, f"if {cond}: return CHECKS(st)", csid)
            else:
                self.emit(3, f"if {cond}: return CHECKS(st)", csid)
        self.emit(2, "return")

    def _check_role_tables(self, k: int, dep: tuple[set[str], set[str]]) -> tuple[str, str]:
        """Per zone slot: 0 the check does not read it, 1 it reads it for every player, 2 only as the
        zone of its own player (the slot's owner, in the second table)."""
        own, anyz = dep
        roles = [0] * self.p.static_slots
        owners = [-1] * self.p.static_slots
        for z in self.p.zones:
            if z.kind == "sequence":
                continue
            for j in range(z.count):
                slot = z.base + j
                if z.name in anyz:
                    roles[slot] = 1
                elif z.name in own:
                    roles[slot] = 2
                    owners[slot] = j
        return self.const(f"CKR{k}", tuple(roles)), self.const(f"CKO{k}", tuple(owners))

    # -------------------------------------------------------------- windows
    def gen_window(self, w: WindowSym) -> WindowRT:
        d = w.decl
        assert d and w.scope_proc
        sid = self.span(d.span)
        site = len(self.sites)
        opts: list[OptInfo] = []
        procs: list[int] = []
        # a simultaneous window's choices are secret until the first answer in order is announced
        self.sites.append(SiteInfo("window", sid, opts, window=w.index, hidden=d.simultaneous))
        maps: list[dict[int, str]] = []
        for proc in w.procs:
            procs.append(self.frame_ids[proc.index])
            maps.append({id(proc.params[0]): "it", id(proc.params[1]): "pl"})
        self.gen_enum(site, d.options, list(w.procs), "it, pl", maps, opts)
        if d.label is not None and w.prompt_player is not None and any(
                not isinstance(x, str) for half in d.label.parts for x in half):
            item = _find_local(w.scope_proc, d.item_var, d.span)
            eg = ExprGen(self, {id(item): "it", id(w.prompt_player): "pl"}, "plain")
            self.emit(0, f"def PR{site}(st, it, pl):", sid)
            self.emit(1, _ALIASES, sid)
            self.emit(1, f"return {eg.text(d.label)}", sid)
            self.sites[site].prompt = f"PR{site}"
        return WindowRT(w.name, site, procs, [info.binder_slots for info in opts])

    # -------------------------------------------------------------- the effect stack
    def gen_stack_proc(self, windows: list[WindowRT], effects: list[EffectRT]) -> None:
        """P0, the procedure of a stack item: ``[0, label, item, window, responders, next responder,
        player, asked]`` (asked: whom a `once` window has asked, as ``window * 256 + player``).
        Labels: 0 (re)open the windows, 1 the window fr[3], 2 ask its next responder,
        3 an answer came, 4 a response ran (priority returns to the item), 5 resolve, 6 resolved.
        The windows are unrolled here (their conditions inline), so an item nobody can answer costs a
        few comparisons; a J answered by a J reopens the windows of the item below (label 0)."""
        self.emit(0, "def P0(st, fr):")
        self.emit(1, _ALIASES + "; items = st.items; it = fr[2]")
        self.emit(1, "L = fr[1]")
        self.emit(1, "while True:")
        # 2: next responder of window fr[3] — the hot label first
        self.emit(2, "if L == 2:")
        self.emit(3, "rs = fr[4]; i = fr[5]")
        self.emit(3, "if i >= len(rs):")
        self.emit(4, "fr[3] += 1; L = 1; continue")
        self.emit(3, "pl = rs[i]; fr[5] = i + 1; wi = fr[3]")
        for wi, (w, sym) in enumerate(zip(windows, self.p.windows, strict=True)):
            sid = self.sites[w.site].span
            self.emit(3, f"{'if' if wi == 0 else 'elif'} wi == {wi}:", sid)
            d = sym.decl
            assert d is not None and sym.scope_proc is not None
            maybe = self.sites[w.site].maybe
            eg = ExprGen(self, {id(sym.scope_proc.locals[0]): "it"}, "plain")
            ask = f" and not {eg.gen(d.ask_all)}" if d.ask_all is not None else ""
            # `once`: fr[7] holds wi * 256 + pl for every player this item has asked through such a window
            key = f"{wi * 256} + pl"
            if d.simultaneous:      # every responder at once: the answers are taken at label 7
                self.emit(4, "fr[5] = len(rs); _ask = []; _so = []", sid)
                self.emit(4, "for pl in dict.fromkeys(rs):     # a player named twice is asked once", sid)
                if d.once:
                    self.emit(5, f"if fr[7] and {key} in fr[7]: continue", sid)
                if maybe is not None and d.ask_all is None:
                    self.emit(5, f"if not ({maybe}): continue", sid)
                self.emit(5, f"opts = E{w.site}(st, it, pl)", sid)
                self.emit(5, f"if not opts{ask}: continue", sid)
                self.emit(5, "opts.append((-1,)); _ask.append(pl); _so.append(opts)", sid)
                self.emit(4, "if not _ask: continue", sid)
                if d.once:
                    self.emit(4, f"fr[7] = (*(fr[7] or ()), *({wi * 256} + pl for pl in _ask))", sid)
                self.emit(4, f"fr[4] = tuple(_ask); st.pend = ({w.site}, fr[4]); st.sopts = _so; "
                             "st.schosen = [None] * len(_ask); fr[1] = 7; return 1", sid)
                continue
            if d.once:
                self.emit(4, f"if fr[7] and {key} in fr[7]: continue", sid)
            if maybe is not None and d.ask_all is None:     # no card to answer with: not asked
                self.emit(4, f"if not ({maybe}): continue", sid)
            self.emit(4, f"opts = E{w.site}(st, it, pl)", sid)
            self.emit(4, f"if not opts{ask}: continue", sid)
            self.emit(4, "opts.append((-1,)); fr[6] = pl", sid)
            if d.once:
                self.emit(4, f"fr[7] = (*(fr[7] or ()), {key})", sid)
            self.emit(4, "if AUTO is None:", sid)
            self.emit(5, f"st.pend = ({w.site}, (pl,)); st.opts = opts; fr[1] = 3; return 1", sid)
            for text in auto_choice(w.site, "pl", "opts", self.sites[w.site].options, self.p.limit, False,
                                    not self.p.seq_count):
                self.emit(4, text, sid)
        if windows:
            self.emit(3, "L = 3; continue")
        # 7: a simultaneous window's responders have all chosen: the first in order who answered
        # (as the first to speak at a table) is announced and goes on as the one asked (label 3)
        at_once = any(sym.decl is not None and sym.decl.simultaneous for sym in self.p.windows)
        if at_once:
            self.emit(2, "elif L == 7:")
            self.emit(3, "pl = _first_answer(st, fr[4])")
            self.emit(3, "if pl is None:")
            self.emit(4, "fr[3] += 1; L = 1; continue")
            self.emit(3, "fr[6] = pl; L = 3")
        # 3: the responder answered; a response runs at once, and only if it waits does control go back
        self.emit(2, "if L == 3:" if at_once else "elif L == 3:")
        self.emit(3, "c = st.choice")
        self.emit(3, "if c[0] == -1:")
        self.emit(4, "L = 2; continue")
        self.emit(3, "wi = fr[3]; k = c[0]")
        branch = "if"
        for wi, w in enumerate(windows):
            sid = self.sites[w.site].span
            for k, fid in enumerate(w.procs):
                self.emit(3, f"{branch} wi == {wi} and k == {k}:", sid)
                branch = "elif"
                slots = w.binder_slots[k]
                cells = ["None"] * (self.frame_sizes[fid] - 4)
                for j, slot in enumerate(slots):
                    cells[slot - 4] = f"c[{j + 1}]"
                self.emit(4, f"_nf = [{fid}, 0, it, fr[6]{''.join(', ' + x for x in cells)}]", sid)
                self.emit(4, f"st.frames.append(_nf); fr[1] = 4; _r = P{fid}(st, _nf)", sid)
        if windows:
            self.emit(3, "if _r: return _r")
            self.emit(3, "st.frames.pop(); L = 0; continue")
        # 0, 4: (re)open the windows; 1: window fr[3]: its condition, then its responders; the
        # windows follow each other and the resolution (5) follows them without a jump
        n = len(self.p.windows)
        self.emit(2, "else:")
        self.emit(3, "if L == 6:")                  # the effect has resolved
        self.emit(4, "items.pop(it, None); return 0")
        self.emit(3, "if L != 5:")
        self.emit(4, "itm = items[it]")
        self.emit(4, "if L != 1:")
        self.emit(5, "wi = -1 if itm[4] else 0")       # negated: no window opens
        self.emit(4, "else:")
        self.emit(5, "wi = fr[3]")
        for wi, sym in enumerate(self.p.windows):
            d = sym.decl
            assert d is not None and sym.scope_proc is not None
            sid = self.span(d.span)
            eg = ExprGen(self, {id(sym.scope_proc.locals[0]): "it"}, "plain")
            self.emit(4, f"if wi == {wi}:", sid)
            ind = 5
            if d.when is not None:    # the item's fields read from its record, looked up once
                when = eg.gen(d.when).replace("st.items[it][", "itm[")
                self.emit(5, f"if {when}:", self.span(d.when.span))
                ind = 6
            if d.responders is not None:
                rsid = self.span(d.responders.span)
                self.emit(ind, f"fr[4] = tuple({eg.seq(d.responders)})", rsid)
                self.emit(ind, f"if None in fr[4]: raise _RuleFailure('the responders of window {sym.name} include "
                               f"none (a field this item does not set?)', {rsid})", rsid)
                # players who are out are not asked; one named twice is asked once (as by `offer`)
                self.emit(ind, "fr[4] = tuple(dict.fromkeys(q for q in fr[4] if not st.g[2 + q]))", rsid)
            else:
                self.emit(ind, "fr[4] = _responders(st, itm[1])", sid)
            self.emit(ind, f"fr[3] = {wi}; fr[5] = 0; L = 2; continue", sid)
            if d.when is not None:
                self.emit(5, f"wi = {wi + 1}", sid)
        self.emit(4, f"if wi == {n}: fr[3] = {n}")
        # 5: resolve (or fizzle, if negated)
        self.emit(3, "stk = st.stack")
        self.emit(3, "if stk and stk[-1] == it: stk.pop()")
        self.emit(3, "elif it in stk: stk.remove(it)")
        self.emit(3, "item = items[it]; k = item[0]")
        self.emit(3, "if item[4]:")
        self.emit(4, f"st.ev.append(({_ev('FIZZLE')}, EFF_SPAN[k], it)); del items[it]; return 0")
        self.emit(3, f"st.ev.append(({_ev('RESOLVE')}, EFF_SPAN[k], it))")
        for k, e in enumerate(effects):
            self.emit(3, f"{'if' if k == 0 else 'elif'} k == {k}:", e.span)
            cells = [f"item[{5 + f}]" for f in e.fields] + ["None"] * (e.frame_size - 6 - len(e.fields))
            self.emit(4, f"_nf = [{e.proc}, 0, it, item[1], item[2], item[3]{''.join(', ' + x for x in cells)}]",
                      e.span)
            self.emit(4, f"st.frames.append(_nf); fr[1] = 6; _r = P{e.proc}(st, _nf)", e.span)
        if effects:
            self.emit(3, "if _r: return _r")
            self.emit(3, "st.frames.pop()")
        self.emit(3, "items.pop(it, None); return 0")
        self.const("EFF_SPAN", tuple(e.span for e in effects))

    # -------------------------------------------------------------- decisions
    def gen_enum(self, site: int, options: list[A.Option], procs: list[Proc], args: str,
                 maps: list[dict[int, str]], infos: list[OptInfo],
                 frame_slot: Any = lambda sym: sym.slot + 2) -> None:
        """The function listing the legal options of a decision, and the one writing their labels."""
        sid = self.sites[site].span
        self.emit(0, f"def E{site}(st, {args}):", sid)
        self.emit(1, _ALIASES + "; out = []", sid)
        label_lines: list[tuple[int, str, int]] = []
        weight_lines: list[tuple[int, str, int]] = []
        reason_lines: list[tuple[int, str, int]] = []
        guards: list[str | None] = []
        for k, (o, proc, m) in enumerate(zip(options, procs, maps, strict=True)):
            osid = self.span(o.span)
            m = dict(m)
            names = []
            variant: set[int] = set()
            for b in o.binders:
                sym = _find_local(proc, b.var, b.span)
                m[id(sym)] = f"b{sym.slot}"
                names.append(f"b{sym.slot}")
                variant.add(id(sym))
            mode = "frame" if "fr" in args else "plain"
            hoist = Hoister(variant, guarded=bool(o.binders))
            eg = ExprGen(self, m, mode, hoist)
            sources = [eg.iter_src(b.source) for b in o.binders]
            where = eg.gen(o.where) if o.where is not None else None
            btypes = [_find_local(proc, b.var, b.span).type for b in o.binders]
            # each action once (`r in [c.rank for c in hand[p]]`); a card is one object, so a list of
            # cards is taken as it is (a list naming a card twice is a ruleset's own doing)
            sources = [src if ty.kind == "card" or never_repeats(b.source) else f"_uniq({src})"
                       for b, src, ty in zip(o.binders, sources, btypes, strict=True)]
            guard = self.zone_guard(where, names, btypes, sources)
            guards.append(guard)
            i0 = 1
            if guard is not None:       # none of the few cards it could be is there: no loop
                self.emit(1, f"if {guard}:", osid)
                i0 = 2
            for h in hoist.lines:
                self.emit(i0, h, osid)
            tup = "(" + ", ".join([str(k), *names]) + ("," if not names else "") + ")"
            if len(btypes) == 1 and btypes[0].kind == "card":
                # one option per card: its tuples exist once, not once per decision
                table = self.const(f"OPT{site}_{k}", tuple((k, c) for c in range(len(self.p.cards.names))))
                tup = f"{table}[{names[0]}]"
            plain = Hoister(variant)
            plain.cache = {c: n for c, n in hoist.cache.items() if f"{n} = {c}" in hoist.lines}
            slow = ExprGen(self, m, mode, plain).gen(o.where) if o.where is not None else None
            base = i0
            # `where A or B` with A the same for every option (and unable to fail): tested once
            fixed = {"G", "fr", "it", "pl"} | {ln.split(" = ", 1)[0] for ln in hoist.lines}
            split, split_slow = _split_or(where, fixed, self.p.players), _split_or(slow, fixed, self.p.players)
            if split is not None and split_slow is not None and split[0] == split_slow[0]:
                self.emit(i0, f"if {split[0]}:", osid)
                self.option_loops(i0 + 1, None, o, proc, sources, tup, osid)
                self.emit(i0, "else:", osid)
                base, where, slow = i0 + 1, split[1], split_slow[1]
            if hoist.guards:
                # loop versioning: attributes of hoisted cards are read once when those cards exist;
                # otherwise the plain version runs (and fails where the rule itself would)
                self.emit(base, "if " + " and ".join(f"{g} is not None" for g in hoist.guards) + ":", osid)
                lookup = self.card_table(where, names, hoist) if len(names) == 1 and btypes[0].kind == "card" \
                    and len(hoist.guards) == 1 else None
                if lookup is not None:      # a condition on the card and the hoisted card alone: looked up
                    self.emit(base + 1, f"_t = {lookup}[{hoist.guards[0]}]", osid)
                    self.option_loops(base + 1, f"_t[{names[0]}]", o, proc, sources, tup, osid)
                else:
                    for h in hoist.guarded_lines:
                        self.emit(base + 1, h, osid)
                    self.option_loops(base + 1, where, o, proc, sources, tup, osid)
                self.emit(base, "else:", osid)
                self.option_loops(base + 1, slow, o, proc, sources, tup, osid)
            else:
                self.option_loops(base, where, o, proc, sources, tup, osid)
            infos.append(OptInfo(o.name, osid,
                                 [type_code(_find_local(proc, b.var, b.span).type) for b in o.binders],
                                 [frame_slot(_find_local(proc, b.var, b.span)) for b in o.binders],
                                 [b.source.ty is not None and b.source.ty.kind == "zone" for b in o.binders],
                                 named_src=[named(b.source) for b in o.binders]))
            # per option, with its binders bound from the option tuple: its label, its rollout weight
            eg_o = ExprGen(self, m, "frame" if "fr" in args else "plain")
            binds = [(2, f"b{_find_local(proc, b.var, b.span).slot} = o[{i + 1}]", osid)
                     for i, b in enumerate(o.binders)]
            if o.label is not None:
                label_lines += [(1, f"if o[0] == {k}:", osid), *binds, (2, f"return {eg_o.text(o.label)}", osid)]
            if o.weight is not None:
                weight_lines += [(1, f"if o[0] == {k}:", osid), *binds,
                                 (2, f"return {eg_o.gen(o.weight)}", self.span(o.weight.span))]
            if o.reason is not None:
                reason_lines += [(1, f"if o[0] == {k}:", osid), (2, f"return {eg_o.text(o.reason)}", osid)]
        self.emit(1, "return out", sid)
        if args == "it, pl" and guards and all(g is not None for g in guards):
            self.sites[site].maybe = " or ".join(f"({g})" for g in guards)
        self.option_fn(f"LB{site}", args, label_lines, "None", sid)
        self.sites[site].enum = f"E{site}"
        self.sites[site].labels = f"LB{site}"
        if weight_lines:
            self.option_fn(f"RW{site}", args, weight_lines, "1", sid)
            self.sites[site].weights = f"RW{site}"
            self.sites[site].weights_fixed = all(o.weight is None or _fixed(o.weight) for o in options)
            # one weight for all of an option's actions (`bet n in …  rollout weight 1 / size(bets(p))`):
            # worked out once per decision, not once per action
            self.sites[site].weights_shared = frozenset(
                k for k, o in enumerate(options) if o.weight is not None and o.binders
                and not any(isinstance(n, A.Name) and n.name in {b.var for b in o.binders} for n in A.walk(o.weight)))
        if reason_lines:
            self.option_fn(f"RS{site}", args, reason_lines, "None", sid)
            self.sites[site].reasons = f"RS{site}"

    def zone_guard(self, where: str | None, names: list[str], btypes: list[T.T], sources: list[str]) -> str | None:
        """For an option `x in ZONE where …` whose condition starts with a test of x's card attributes
        that at most four cards pass (`k.rank == 13`): whether one of them is in that zone (four
        lookups instead of a loop over the zone). None when that does not apply."""
        if len(names) != 1 or btypes[0].kind != "card":
            return None
        try:
            src = pyast.parse(sources[0], mode="eval").body
        except SyntaxError:
            return None
        if not (isinstance(src, pyast.Subscript) and isinstance(src.value, pyast.Name) and src.value.id == "Z"):
            return None
        slot = pyast.unparse(src.slice)
        if not cheap(slot):
            return None
        cards = _card_filter(where, names[0], self.consts, len(self.p.cards.names))
        if cards is None or len(cards) > 4:
            return None
        slot = slot if re.fullmatch(r"[\w.]+", slot) else f"({slot})"
        return " or ".join(f"LOC[{c}] == {slot}" for c in cards) or "False"

    def option_fn(self, name: str, args: str, lines: list[tuple[int, str, int]], default: str, sid: int) -> None:
        """A function of one option of a decision (its label, its weight): ``lines`` by option."""
        self.emit(0, f"def {name}(st, {args}, o):", sid)
        self.emit(1, _ALIASES, sid)
        for line in lines:
            self.emit(*line)
        self.emit(1, f"return {default}", sid)

    def card_table(self, cond: str | None, names: list[str], hoist: Hoister) -> str | None:
        """If an option's condition reads nothing but its card, one hoisted card (the top of a pile,
        say) and card attributes, it is worked out now for every pair: a table [hoisted][card] of
        booleans (decks are small), and the option list only looks it up."""
        ncards = len(self.p.cards.names)
        if cond is None or ncards > 300:
            return None
        (guard,) = hoist.guards
        attrs = dict(line.split(" = ", 1) for line in hoist.guarded_lines)      # hK = A_x[h0]
        allowed = {names[0], guard, *attrs, "and", "or", "not", "in", "is", "None", "True", "False", "if", "else"}
        used = set(re.findall(r"[A-Za-z_]\w*", cond))
        if any(u not in allowed and not (u.startswith("A_") and u in self.consts) for u in used):
            return None
        tables = {u: self.consts[u] for u in used if u.startswith("A_")}
        code = compile(cond, "<option condition>", "eval")
        rows = []
        for h in range(ncards):
            env: dict[str, Any] = {**tables, guard: h}
            env.update({k: eval(v, {"__builtins__": {}}, env) for k, v in attrs.items()})
            rows.append(tuple(bool(eval(code, {"__builtins__": {}}, {**env, names[0]: c})) for c in range(ncards)))
        name = f"CT{len(self.consts)}"
        return self.const(name, tuple(rows))

    def option_loops(self, base: int, cond: str | None, o: A.Option, proc: Proc, sources: list[str], tup: str,
                     osid: int) -> None:
        """for binder in source: … if where: out.append(option tuple)"""
        ind = base
        for b, src in zip(o.binders, sources, strict=True):
            sym = _find_local(proc, b.var, b.span)
            self.emit(ind, f"for b{sym.slot} in {src}:", osid)
            ind += 1
        if cond is not None:
            assert o.where is not None
            self.emit(ind, f"if {cond}:", self.span(o.where.span))
            ind += 1
        self.emit(ind, f"out.append({tup})", osid)

    # -------------------------------------------------------------- resumable procedures
    def gen_frame_proc(self, proc: Proc, fid: int) -> None:
        bg = BodyGen(self, proc, "frame")
        bg.fid = fid
        bg.stmts(proc.body, 0)
        bg.finish()
        blocks = _thread_jumps(bg.blocks)
        _duplicate_tails(blocks)
        blocks = _thread_jumps(blocks)
        for b in blocks:        # a decision taken inline already holds its choice in _c
            b.lines = [(ind, "_k = _c[0]", sp) if t == "_c = st.choice; _k = _c[0]" and k and
                       b.lines[k - 1][1].startswith("if st.ndec >= ") and b.lines[k - 1][0] == ind else (ind, t, sp)
                       for k, (ind, t, sp) in enumerate(b.lines)]
        sid = self.span(proc.span)
        self.emit(0, f"def P{fid}(st, fr):", sid)
        self.emit(1, _ALIASES, sid)
        self.emit(1, "L = fr[1]", sid)
        self.emit(1, "while True:", sid)
        self.label_dispatch(blocks, list(range(len(blocks))), 2, sid)
        self.frame_sizes[fid] = 2 + len(proc.locals) + bg.extra
        self.frame_labels[fid] = len(blocks)
        # "card!": a card the rules name (named.py) keeps its identity in a bot's sampled worlds;
        # another card local follows the card's place (engine/determinize.py)
        codes = ["int", "int"] + ["any" if loc.comp else named_code(type_code(loc.type), loc.public)
                                  for loc in proc.locals]
        codes += ["any"] * bg.extra
        for k, code in bg.slot_codes.items():
            codes[k] = code
        self.frame_types[fid] = codes

    def label_dispatch(self, blocks: list[_Block], labels: list[int], ind: int, sid: int) -> None:
        """The blocks of a resumable procedure, chosen by label L: a few in a row, more by halves,
        so that any label is reached after a handful of comparisons."""
        if len(labels) > 4:
            mid = len(labels) // 2
            self.emit(ind, f"if L < {labels[mid]}:", sid)
            self.label_dispatch(blocks, labels[:mid], ind + 1, sid)
            self.emit(ind, "else:", sid)
            self.label_dispatch(blocks, labels[mid:], ind + 1, sid)
            return
        for n, i in enumerate(labels):
            self.emit(ind, f"{'if' if n == 0 else 'elif'} L == {i}:", sid)
            if not blocks[i].lines:
                self.emit(ind + 1, "pass", sid)
            for k, text, sp in blocks[i].lines:
                self.emit(ind + 1 + k, text, sp)
        self.emit(ind, "else:", sid)
        self.emit(ind + 1, "raise RuntimeError('bad resume label')", sid)


_JUMP = re.compile(r"(L = |fr\[1\] = )(\d+)")


def auto_choice(site: int, who: str, opts: str, infos: list[OptInfo], limit: int, exhaustive: bool,
                static: bool) -> list[str]:
    """Lines that take a decision where the rules pose it when a random playout runs (Game.playout
    sets AUTO), as ``Game.apply_raw`` would: the pick, the act event with its visibility mask worked
    out per option kind, the decision limit. The choice is left in ``_c`` and ``st.choice``.
    ``exhaustive``: the options are only of the kinds in ``infos`` (no window pass); ``static``:
    the rules have no zone sequences, so every card is in a zone of fixed visibility."""
    masks = []
    for k, info in enumerate(infos):
        actor = "" if info.place_args else f" | (1 << {who})"      # see Game.actor_reads
        if info.card_args == runtime._ONE_CARD and static:   # the usual case: one card from a zone
            masks.append((k, f"(ZM[LOC[_c[1]]] | st.vis[_c[1]]{actor})"))
        elif info.card_args == runtime._ONE_CARD:
            masks.append((k, f"(ZM[_z] | st.vis[_c[1]]{actor} if (_z := LOC[_c[1]]) < NSTATIC "
                             f"else _amask(st, {site}, _c, {who}))"))
        elif info.card_args:
            masks.append((k, f"_amask(st, {site}, _c, {who})"))
    last = masks.pop()[1] if exhaustive and masks and len(masks) == len(infos) else "ALL"
    mask = "".join(f"{e} if _c[0] == {k} else " for k, e in masks) + last
    names_zones = not static and any(t in ("zone", "list:zone") for info in infos for t in info.binder_types)
    event = f"st.game.act_event(st, {who}, {site}, _c, {mask})" if names_zones else \
        f"({_ev('ACT')}, -1, {who}, {site}, _c, {mask})"       # act_event: the places of zones in rows
    return [f"st.choice = _c = {opts}[int(AUTO() * len({opts}))]",
            f"st.ev.append({event})",
            "st.ndec += 1",
            f"if st.ndec >= {limit}: _capped(st)"]


def _split_or(code: str | None, fixed: set[str], players: int) -> tuple[str, str] | None:
    """Split generated Python ``a or b or c`` into the terms that read only ``fixed`` names and
    cannot fail (comparisons of variables and constants) and the rest: (fixed terms, the rest)."""
    if code is None:
        return None
    terms: list[pyast.expr] = []

    def flatten(n: pyast.expr) -> None:
        if isinstance(n, pyast.BoolOp) and isinstance(n.op, pyast.Or):
            for v in n.values:
                flatten(v)
        else:
            terms.append(n)

    def safe(n: pyast.AST) -> bool:
        if isinstance(n, pyast.Constant):
            return True
        if isinstance(n, pyast.Name):
            return n.id in fixed
        if isinstance(n, pyast.Subscript):       # a variable, a local, a player: G[5], fr[3], PLAYERS[0]
            return isinstance(n.value, pyast.Name) and isinstance(n.slice, pyast.Constant) and \
                isinstance(n.slice.value, int) and (n.value.id in ("G", "fr") or
                                                    n.value.id == "PLAYERS" and 0 <= n.slice.value < players)
        if isinstance(n, pyast.Compare):
            return all(isinstance(op, pyast.Eq | pyast.NotEq | pyast.Is | pyast.IsNot) for op in n.ops) and \
                safe(n.left) and all(safe(c) for c in n.comparators)
        if isinstance(n, pyast.BoolOp):
            return all(safe(v) for v in n.values)
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.Not):
            return safe(n.operand)
        return False

    flatten(pyast.parse(code, mode="eval").body)
    fixed_terms = [t for t in terms if safe(t)]
    rest = [t for t in terms if not safe(t)]
    if not fixed_terms or not rest:
        return None
    return (" or ".join(f"({pyast.unparse(t)})" for t in fixed_terms),
            "(" + " or ".join(f"({pyast.unparse(t)})" for t in rest) + ")")


def _leading_variables(cond: str) -> tuple[str | None, str]:
    """Split ``G[i] and … and rest`` into the leading terms that only read variables (``G[75]``,
    ``not G[3]``, ``G[5] == 2``: they cannot fail, and a check's condition reads them the same for
    every player) and the rest."""
    try:
        tree = pyast.parse(cond, mode="eval").body
    except SyntaxError:
        return None, cond
    if not (isinstance(tree, pyast.BoolOp) and isinstance(tree.op, pyast.And)):
        return None, cond

    def var(n: pyast.expr) -> bool:
        return isinstance(n, pyast.Subscript) and isinstance(n.value, pyast.Name) and n.value.id == "G" \
            and isinstance(n.slice, pyast.Constant) and isinstance(n.slice.value, int)

    def plain(n: pyast.expr) -> bool:
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.Not):
            return plain(n.operand)
        if isinstance(n, pyast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], pyast.Eq | pyast.NotEq):
            return var(n.left) and isinstance(n.comparators[0], pyast.Constant)
        return var(n)

    k = 0
    while k < len(tree.values) - 1 and plain(tree.values[k]):
        k += 1
    if k == 0:
        return None, cond
    rest = tree.values[k:]
    return (" and ".join(f"({pyast.unparse(t)})" for t in tree.values[:k]),
            pyast.unparse(pyast.BoolOp(pyast.And(), rest)) if len(rest) > 1 else f"({pyast.unparse(rest[0])})")


def _card_filter(where: str | None, var: str, consts: dict[str, Any], ncards: int) -> list[int] | None:
    """The cards that pass the leading terms of ``where`` (``a and b and …``) that read nothing but
    the option's card and card attributes (``A_rank[b2] == 13``): None if it has no such term."""
    if where is None:
        return None
    try:
        tree = pyast.parse(where, mode="eval").body
    except SyntaxError:
        return None
    terms = tree.values if isinstance(tree, pyast.BoolOp) and isinstance(tree.op, pyast.And) else [tree]
    fixed: list[pyast.expr] = []
    for t in terms:
        names = {n.id for n in pyast.walk(t) if isinstance(n, pyast.Name)}
        ok = all(isinstance(n, pyast.expr_context | pyast.Name | pyast.Constant | pyast.Subscript | pyast.Compare
                            | pyast.BoolOp | pyast.UnaryOp | pyast.cmpop | pyast.boolop | pyast.unaryop | pyast.Tuple)
                 for n in pyast.walk(t))
        if not ok or any(n != var and not (n.startswith("A_") and n in consts) for n in names):
            break
        fixed.append(t)
    if not fixed:
        return None
    expr = pyast.fix_missing_locations(pyast.Expression(pyast.BoolOp(pyast.And(), fixed) if len(fixed) > 1
                                                        else fixed[0]))
    code = compile(expr, "<card filter>", "eval")
    tables = {n: consts[n] for n in consts if n.startswith("A_")}
    try:
        return [c for c in range(ncards) if eval(code, {"__builtins__": {}, **tables}, {var: c})]
    except Exception:       # a term that fails for some card: leave the loop as it is
        return None


def _thread_jumps(blocks: list[_Block]) -> list[_Block]:
    """Follow blocks that only jump, drop blocks nothing reaches, and renumber the rest."""
    alias: dict[int, int] = {}
    for i, b in enumerate(blocks):
        if len(b.lines) == 1:
            m = re.fullmatch(r"L = (\d+); continue", b.lines[0][1])
            if m and b.lines[0][0] == 0:
                alias[i] = int(m.group(1))

    def final(k: int) -> int:
        seen = set()
        while k in alias and k not in seen:
            seen.add(k)
            k = alias[k]
        return k

    def retarget(text: str) -> str:
        return _JUMP.sub(lambda m: m.group(1) + str(final(int(m.group(2)))), text)

    lines = [[(ind, retarget(t), sp) for ind, t, sp in b.lines] for b in blocks]
    reached = {final(0)}
    todo = [final(0)]
    while todo:
        k = todo.pop()
        for _, t, _ in lines[k]:
            for m in _JUMP.finditer(t):
                j = int(m.group(2))
                if j not in reached:
                    reached.add(j)
                    todo.append(j)
    order = [k for k in range(len(blocks)) if k in reached]
    if order[0] != final(0):
        order.remove(final(0))
        order.insert(0, final(0))
    new = {k: i for i, k in enumerate(order)}
    out = []
    for k in order:
        nb = _Block()
        nb.lines = [(ind, _JUMP.sub(lambda m: m.group(1) + str(new[int(m.group(2))]), t), sp)
                    for ind, t, sp in lines[k]]
        out.append(nb)
    return out


def _duplicate_tails(blocks: list[_Block], limit: int = 24, passes: int = 3) -> None:
    """Replace a jump to a small block by a copy of that block, so straight-line paths (a decision's
    continuation up to the next decision) run without going back through the dispatcher."""
    jump = re.compile(r"(?:(.*); )?L = (\d+); continue$")
    for _ in range(passes):
        changed = False
        for i, b in enumerate(blocks):
            out: list[tuple[int, str, int]] = []
            for ind, text, sp in b.lines:
                m = jump.fullmatch(text)
                k = int(m.group(2)) if m else -1
                if m and k != i and 0 < len(blocks[k].lines) <= limit and not _jumps_to(blocks[k], i):
                    if m.group(1):
                        out.append((ind, m.group(1), sp))
                    out.extend((ind + d, t, s) for d, t, s in blocks[k].lines)
                    changed = True
                else:
                    out.append((ind, text, sp))
            b.lines = out
        if not changed:
            break


def _jumps_to(b: _Block, target: int) -> bool:
    return any(re.search(rf"\bL = {target}; continue", t) for _, t, _ in b.lines)


_ALIASES = "Z = st.z; G = st.g; LOC = st.loc"
# top(z) of a zone at a fixed slot, as builtins._top1 writes it: it cannot fail, so it may be read early
_TOP_OF_SLOT = re.compile(r"\((\(Z\[(\d+)\]\[-1\] if Z\[\2\] else None\))\)")


def _prune_prologues(out: list[tuple[int, str, int]]) -> None:
    """A function that begins with the three state aliases keeps only those its body uses
    (the line stays, so line numbers still map to rule spans)."""
    for i, (ind, text, sp) in enumerate(out):
        if ind != 1 or not text.startswith(_ALIASES) or i == 0 or out[i - 1][0] != 0:
            continue
        body = []
        for ind2, t2, _ in out[i + 1:]:
            if ind2 == 0:
                break
            body.append(t2)
        rest = text[len(_ALIASES):]
        used = "\n".join(body) + rest
        kept = [f"{n} = st.{a}" for n, a in (("Z", "z"), ("G", "g"), ("LOC", "loc")) if re.search(rf"\b{n}\b", used)]
        out[i] = (ind, "; ".join(kept) + rest if kept else rest.removeprefix("; ") or "pass", sp)


def _return_in_loop(body: list[A.Stmt], in_loop: bool = False) -> bool:
    for s in body:
        if isinstance(s, A.Return) and in_loop:
            return True
        if isinstance(s, A.While | A.Repeat | A.For) and _return_in_loop(s.body, True):
            return True
        if isinstance(s, A.If) and (any(_return_in_loop(b, in_loop) for _, b in s.branches)
                                    or _return_in_loop(s.orelse or [], in_loop)):
            return True
        if isinstance(s, A.Turn) and _return_in_loop(s.body, in_loop):
            return True
        if isinstance(s, A.Choose | A.Simultaneous):
            if any(_return_in_loop(o.body, in_loop or isinstance(s, A.Simultaneous)) for o in s.options):
                return True
            if isinstance(s, A.Choose) and _return_in_loop(s.otherwise or [], in_loop):
                return True
    return False


def _calls_any(proc: Proc, targets: list[Proc], seen: set[int] | None = None) -> bool:
    """Does ``proc`` (transitively) call one of ``targets``? Recursion is never inlined."""
    seen = seen if seen is not None else set()
    for r, _, _ in proc.calls:
        if r.proc is None or id(r.proc) in seen:
            continue
        if r.proc in targets:
            return True
        seen.add(id(r.proc))
        if _calls_any(r.proc, targets, seen):
            return True
    return False


def _find_local(proc: Proc, name: str, span: Span) -> LocalSym:
    for loc in proc.locals:
        if loc.name == name and loc.span == span:
            return loc
    raise KeyError(name)


def _ident(name: str) -> str:
    """A Python identifier for a ruleset name (which may hold ♠ or other symbols)."""
    out: list[str] = []
    for ch in name:
        if ch.isidentifier() or (ch.isdigit() and out):
            out.append(ch)
        else:
            out.append(f"_{ord(ch):x}_")
    s = "".join(out)
    return s if s.isidentifier() else "_" + s


def _ev(name: str) -> int:
    return int(getattr(runtime, f"EV_{name}"))


@dataclass
class CheckReads:
    """What the state-based checks look at, so that only changes to it run them: card places (zones),
    faces and reveals (vis), the effect stack and its items (stack), and which variables."""
    zones: bool = False
    vis: bool = False
    stack: bool = False
    vars: set[int] = field(default_factory=set)


def _check_reads(prog: Program) -> CheckReads:
    out = CheckReads()
    vars_ = out.vars
    seen_fns: set[str] = set()

    def walk(e: Any) -> None:
        if isinstance(e, A.Expr):
            r = e.ref
            if isinstance(r, tuple) and r and r[0] == "builtin" and r[1] == "revealed":
                out.vis = True
            elif isinstance(r, tuple) and r and r[0] in ("stack", "field"):
                out.stack = True
            if isinstance(r, ZoneSym):
                out.zones = True
            elif isinstance(r, VarSym):
                vars_.add(id(r))
            elif isinstance(r, tuple) and r and r[0] in ("pvar", "cardvar"):
                vars_.add(id(r[1]))
            elif isinstance(r, tuple) and r and r[0] in ("active",):
                vars_.add(-1)
            elif isinstance(r, tuple) and r and r[0] == "builtin" and r[1] in (
                    "holder", "zone_of", "revealed", "card_at", "square_of", "top", "size", "cards", "bottom"):
                out.zones = True
            elif isinstance(r, FnSym) and r.name not in seen_fns and r.decl is not None:
                seen_fns.add(r.name)
                walk(r.decl.body)
            elif isinstance(r, OrderingSym) and r.decl is not None:
                for t in r.decl.tiers:
                    walk(t.cond)
                    walk(t.by)
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                if f in ("span", "ty", "ref"):
                    continue
                walk(getattr(e, f))
        elif isinstance(e, list | tuple):
            for x in e:
                walk(x)

    for c in prog.checks:
        assert c.decl
        walk(c.decl.cond)
        walk(c.decl.source)
    return out


_ZONE_STATE_BUILTINS = ("holder", "zone_of", "revealed", "card_at", "square_of")


def _check_deps(prog: Program) -> list[tuple[set[str], set[str]] | None]:
    """Per check, the zones its condition reads: (zones read only as ZONE[p] of the check's own
    player p, zones read otherwise); None when a single move could change it in ways not seen
    from its two zones (a card's zone or visibility asked directly, grids and sequences, a player
    list that depends on zones)."""
    out: list[tuple[set[str], set[str]] | None] = []

    class Unknown(Exception):
        pass

    def walk(e: Any, alias: frozenset[int], own: set[str], anyz: set[str], depth: int) -> None:
        if depth > 50:
            raise Unknown
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, ZoneSym):
            z = e.obj.ref
            if z.kind not in ("pile", "hand"):
                raise Unknown
            if z.per_player and len(e.args) == 1 and isinstance(e.args[0], A.Name) and id(e.args[0].ref) in alias:
                own.add(z.name)
                return
            anyz.add(z.name)
            for a in e.args:
                walk(a, alias, own, anyz, depth)
            return
        if isinstance(e, A.Expr):
            r = e.ref
            if isinstance(r, ZoneSym):
                if r.kind not in ("pile", "hand"):
                    raise Unknown
                anyz.add(r.name)
            elif isinstance(r, tuple) and r and r[0] == "builtin" and r[1] in _ZONE_STATE_BUILTINS:
                raise Unknown
            elif isinstance(r, FnSym) and r.decl is not None and isinstance(e, A.Call):
                inner = frozenset(id(prm) for prm, a in zip(r.params, e.args, strict=False)
                                  if isinstance(a, A.Name) and id(a.ref) in alias)
                walk(r.decl.body, inner, own, anyz, depth + 1)
            elif isinstance(r, OrderingSym) and r.decl is not None and isinstance(e, A.Call):
                inner = frozenset(id(prm) for prm, a in zip(r.params, e.args, strict=False)
                                  if isinstance(a, A.Name) and id(a.ref) in alias)
                for t in r.decl.tiers:
                    walk(t.cond, inner, own, anyz, depth + 1)
                    walk(t.by, inner, own, anyz, depth + 1)
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                if f in ("span", "ty", "ref"):
                    continue
                walk(getattr(e, f), alias, own, anyz, depth)
        elif isinstance(e, list | tuple):
            for x in e:
                walk(x, alias, own, anyz, depth)

    for c in prog.checks:
        assert c.decl
        own: set[str] = set()
        anyz: set[str] = set()
        try:
            if c.decl.source is not None:
                src_own: set[str] = set()
                src_any: set[str] = set()
                walk(c.decl.source, frozenset(), src_own, src_any, 0)
                if src_own or src_any:
                    raise Unknown                 # which players are asked may change with a move
            walk(c.decl.cond, frozenset([id(c.var)]) if c.var is not None else frozenset(), own, anyz, 0)
            out.append((own - anyz, anyz))
        except Unknown:
            out.append(None)
    return out


_CONST, _INC, _DEC, _UNK = "const", "inc", "dec", "unknown"


def _grows_with(cond: A.Expr, zone: str) -> bool:
    """Can ``cond`` only turn true when cards are added to zones of the declaration ``zone``, never
    when cards leave them? (``size(hand[p]) >= 4``, four of a kind, ``c in hand[p]``, and sums, `and`,
    `or` of such.) Then a card leaving such a zone need not send the check to be tested again."""

    def in_zone(e: A.Expr) -> bool:
        obj = e.obj if isinstance(e, A.Index) else e
        return isinstance(obj, A.Name) and isinstance(obj.ref, ZoneSym) and obj.ref.name == zone

    def reads(e: Any, depth: int = 0) -> bool:
        if depth > 50:
            return True
        if isinstance(e, A.Name) and isinstance(e.ref, ZoneSym) and e.ref.name == zone:
            return True
        if isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ref.decl is not None \
                and reads(e.ref.decl.body, depth + 1):
            return True
        if isinstance(e, A.Node):
            return any(reads(getattr(e, f), depth) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
        if isinstance(e, list | tuple):
            return any(reads(x, depth) for x in e)
        return False

    def flip(p: str) -> str:
        return {_INC: _DEC, _DEC: _INC}.get(p, p)

    def both(a: str, b: str) -> str:         # a and b grow together (and, or, +)
        if a == b or b == _CONST:
            return a
        return b if a == _CONST else _UNK

    def pol(e: A.Expr, depth: int = 0) -> str:
        if not reads(e) or depth > 20:
            return _CONST if not reads(e) else _UNK
        if isinstance(e, A.Binary):
            if e.op in ("and", "or", "+"):
                return both(pol(e.left, depth + 1), pol(e.right, depth + 1))
            if e.op == "-":
                return both(pol(e.left, depth + 1), flip(pol(e.right, depth + 1)))
            if e.op in (">=", ">"):
                return both(pol(e.left, depth + 1), flip(pol(e.right, depth + 1)))
            if e.op in ("<=", "<"):
                return both(flip(pol(e.left, depth + 1)), pol(e.right, depth + 1))
            if e.op in ("in", "notin") and in_zone(e.right) and not reads(e.left):
                return _INC if e.op == "in" else _DEC
            return _UNK
        if isinstance(e, A.Unary) and e.op == "not":
            return flip(pol(e.operand, depth + 1))
        if isinstance(e, A.IfExpr) and isinstance(e.then, A.Lit) and isinstance(e.other, A.Lit) \
                and isinstance(e.then.value, int) and isinstance(e.other.value, int):
            p = pol(e.cond, depth + 1)
            return p if e.then.value >= e.other.value else flip(p)
        if isinstance(e, A.Quantifier) and in_zone(e.source) and not reads(e.cond):
            return _DEC if e.kind == "all" else _INC          # any, count: more cards, more chances
        if isinstance(e, A.Call) and isinstance(e.ref, FnSym) and e.ref.decl is not None:
            return pol(e.ref.decl.body, depth + 1) if not reads(e.args) else _UNK
        if isinstance(e, A.Call) and isinstance(e.ref, tuple) and len(e.args) == 1:
            a = e.args[0]
            if e.func == "size" and in_zone(a):
                return _INC
            if e.func == "of_a_kind" and isinstance(a, A.Comprehension) and in_zone(a.source) \
                    and not reads(a.elem) and not reads(a.cond):
                return _INC
        return _UNK

    return pol(cond) == _INC


# ------------------------------------------------------------------ expressions
_CALL = re.compile(r"[\w\]]\s*\(|\bfor\b|\blambda\b|\bif\b")
_SAFE_HOIST = {"top", "bottom", "size", "cards", "next", "prev", "others", "seats_from"}


_CONST_TUPLE = re.compile(r"\(*\(((?:\s*-?\d+\s*,)*(?:\s*-?\d+\s*)?)\)\)*")


_PY_BUILTINS = set(dir(pybuiltins))
_RUNTIME_NAMES = set(dir(runtime)) | {"ALL", "AUTO", "ZM", "NSTATIC", "_RuleFailure", "_Goto", "_frame"}


def _is_local_name(name: str, consts: dict[str, Any]) -> bool:
    """A name generated code reads that is local to the function it is in (``st``, ``Z``, ``l0``,
    ``fr``, ``h1`` …), not a module constant, helper or Python builtin."""
    if name in ("Z", "G", "LOC"):
        return True
    return not (name in consts or name in _RUNTIME_NAMES or name in _PY_BUILTINS or name[:1].isupper())


def cheap(code: str) -> bool:
    """Reading this Python twice costs about as much as a variable: no calls, no loops."""
    return not _CALL.search(code)


class Hoister:
    """Collects loop-invariant expressions of an option enumeration, computed once before its loops."""

    def __init__(self, variant: set[int], guarded: bool = False) -> None:
        self.variant = variant
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


# arithmetic whose `number` result may leave the finite range (runtime._num checks it)
_MAY_OVERFLOW = frozenset({"+", "-", "*", "/", "//"})


def _is_number(t: Any) -> bool:
    """A `number` (not an int: Python's ints do not overflow)."""
    return t is not None and t.kind == "number"


def _plain_number(code: str) -> bool:
    """Generated code that is already a number in range: a literal, or a checked result."""
    if code.startswith("_num(") and code.endswith(")") and _balanced(code[5:-1]):
        return True
    try:
        x = pyast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return isinstance(x, int | float) and not isinstance(x, bool) and abs(x) <= sys.float_info.max


def _impure(e: Any) -> bool:
    if isinstance(e, A.Call) and e.func == "random" and isinstance(e.ref, tuple):
        return True
    if isinstance(e, A.Node):
        return any(_impure(getattr(e, f)) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
    if isinstance(e, list | tuple):
        return any(_impure(x) for x in e)
    return False


def _size(e: Any) -> int:
    if isinstance(e, A.Node):
        return 1 + sum(_size(getattr(e, f)) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
    if isinstance(e, list | tuple):
        return sum(_size(x) for x in e)
    return 0


def _uses(e: Any, counts: dict[int, int]) -> None:
    if isinstance(e, A.Name) and isinstance(e.ref, LocalSym):
        counts[id(e.ref)] = counts.get(id(e.ref), 0) + 1
    if isinstance(e, A.Node):
        for f in e.__dataclass_fields__:
            if f not in ("span", "ty", "ref"):
                _uses(getattr(e, f), counts)
    elif isinstance(e, list | tuple):
        for x in e:
            _uses(x, counts)


_CONSUMES = {"size", "sum", "min", "max", "of_a_kind", "random", "index_of", "sorted", "reversed"}


_LEN = re.compile(r"\(len\((.*)\)\)")
_EMPTINESS = {(">", "0"): "not not ", ("!=", "0"): "not not ", (">=", "1"): "not not ", ("==", "0"): "not "}


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _never_none(f: FnSym) -> bool:
    """False for a function typed int, number or bool whose result may yet be none (`best` of an
    empty list, an item's field of another effect): it is not inlined, and its return checks the
    value (the checker types those as never none); every other function costs what it did."""
    if f.ret.kind not in ("int", "number", "bool") or f.decl is None:
        return True
    return not _may_be_none(f.decl.body)


def _may_be_none(e: A.Expr) -> bool:
    if isinstance(e, A.LetIn):
        return _may_be_none(e.body)
    if isinstance(e, A.IfExpr):
        return _may_be_none(e.then) or _may_be_none(e.other)
    if isinstance(e, A.Best):
        return True
    return isinstance(e, A.Attr) and isinstance(e.ref, tuple) and e.ref[:1] == ("field",) \
        and e.name not in ITEM_FIELDS and (e.ty is None or e.ty.kind != "bool")    # a bool reads false


class ExprGen:
    """Expression → Python source. ``names`` maps LocalSym ids to the Python that reads them.

    Small functions are inlined (their parameters replaced by the argument code); an argument
    read several times is hoisted out of option loops when it does not depend on them."""

    INLINE_SIZE = 60

    def __init__(self, cg: Compiler, names: dict[int, str], mode: str, hoister: Hoister | None = None,
                 depth: int = 0, fn: str | None = None) -> None:
        self.cg = cg
        self.names = names
        self.mode = mode
        self.hoister = hoister
        self.depth = depth
        self.fn = fn            # the `fn` whose body this generates (its code is noted in fn_sites)

    def inline(self, f: FnSym, args: list[A.Expr]) -> str | None:
        assert f.decl is not None
        if self.depth >= 4 or _size(f.decl.body) > self.INLINE_SIZE or any(_impure(a) for a in args) \
                or isinstance(f.decl.body, A.LetIn) or not _never_none(f):
            return None
        uses: dict[int, int] = {}
        _uses(f.decl.body, uses)
        names = dict(self.names)
        for param, arg in zip(f.params, args, strict=True):
            code = self.gen(arg)
            if uses.get(id(param), 0) > 1 and not cheap(code):
                if self.hoister is not None and self.hoister.can(arg):
                    code = self.hoister.add(code)
                else:
                    return None
            names[id(param)] = code if cheap(code) and not code.startswith("-") else f"({code})"
        for loc in f.locals:
            if loc.comp:
                self.cg.fresh += 1
                names[id(loc)] = f"k{self.cg.fresh}"
        sub = ExprGen(self.cg, names, self.mode, self.hoister, self.depth + 1, fn=f.name)
        return f"({sub.gen(f.decl.body)})"

    def local(self, sym: LocalSym) -> str:
        n = self.names.get(id(sym))
        if n is not None:
            return n
        if sym.comp:
            return f"c{sym.slot}"
        return f"fr[{sym.slot + 2}]" if self.mode == "frame" else f"l{sym.slot}"

    def seq(self, e: A.Expr) -> str:
        """An expression used as something to iterate over."""
        code = self.gen(e)
        if e.ty is not None and e.ty.kind == "zone":
            return f"Z[{code}]"
        return code

    def iter_src(self, e: A.Expr) -> str:
        """Something only iterated over: a range or a fresh list need not become a tuple first;
        the players are spelt out (a constant, and quantifiers over them are unrolled)."""
        code = self.seq(e)
        if code == "PLAYERS":
            return repr(tuple(range(self.cg.p.players)))
        inner = code[6:-1]
        if code.startswith("tuple(") and inner.startswith(("range(", "[")) and _balanced(inner):
            return inner
        return code

    def zone_or_seq(self, e: A.Expr) -> str:
        return self.seq(e)

    def gen(self, e: A.Expr | None) -> str:
        if e is None:
            return "None"
        if isinstance(e, A.Binary | A.Unary | A.IfExpr):
            ok, v = const_value(e)
            if ok and isinstance(v, bool | int | float | str | type(None)):
                return repr(v)
        m = getattr(self, "g_" + type(e).__name__)
        code: str = m(e)
        if self.fn is not None:
            self.cg.fn_sites.append((code, e.span, self.fn, None))
        return code

    def g_Lit(self, e: A.Lit) -> str:
        return repr(e.value)

    def g_Name(self, e: A.Name) -> str:
        r = e.ref
        if isinstance(r, LocalSym):
            return self.local(r)
        if isinstance(r, VarSym):
            return f"G[{r.slot}]"
        if isinstance(r, ZoneSym):
            if r.kind == "sequence" and not r.per_player:
                return f"tuple(st.sq[{r.seq_base}])"
            return str(r.base)
        if isinstance(r, tuple):
            if r[0] == "const":
                return repr(r[1])
            if r[0] == "players":
                return "PLAYERS"
            if r[0] == "active":
                return "_active(st)"
            if r[0] == "stack":
                return "tuple(st.stack)"
            if r[0] == "all_cards":
                return "ALLCARDS"
        raise AssertionError(f"unresolved name {e.name}")

    def g_Attr(self, e: A.Attr) -> str:
        r = e.ref
        if isinstance(r, tuple) and r[0] == "const":
            return repr(r[1])
        obj = self.gen(e.obj)
        kind = r[0]
        if kind == "cardattr":
            if self.hoister is not None:
                hoisted = self.hoister.attr(f"A_{_ident(r[1])}", obj)
                if hoisted is not None:
                    return hoisted
            return f"A_{_ident(r[1])}[{obj}]"
        if kind == "cardname":
            return f"NAMES[{obj}]"
        if kind == "cardvar":
            return f"G[{r[1].slot} + {obj}]"
        if kind == "field":   # a missing item is a KeyError, reported as "no longer on the stack"
            return f"st.items[{obj}][{self.field_index(r[1])}]"
        if kind == "sq":
            return f"{obj}[{0 if r[1] == 'x' else 1}]"
        raise AssertionError(kind)

    def field_index(self, name: str) -> int:
        if name in FIELD_INDEX:
            return FIELD_INDEX[name]
        return 5 + self.cg.p.item_fields[name][0]

    def g_Index(self, e: A.Index) -> str:
        r = e.ref
        kind = r[0]
        if kind == "pvar":
            return f"G[{r[1].slot} + {self.gen(e.args[0])}]"
        if kind == "zonefam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"({z.base} + {self.gen(e.args[0])})"
        if kind == "seqfam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"tuple(st.sq[{z.seq_base} + {self.gen(e.args[0])}])"
        if kind in ("gridxy", "gridsq"):
            z = self.cg.zone((e.obj.ty or T.ANY).name)
            sid = self.cg.span(e.span)
            w, h = z.width, z.height
            if kind == "gridxy":
                return f"_cell({z.base}, {w}, {h}, {self.gen(e.args[0])}, {self.gen(e.args[1])}, {sid})"
            return f"_cellsq({z.base}, {w}, {h}, {self.gen(e.args[0])}, {sid})"
        if kind == "zonei":
            return f"Z[{self.gen(e.obj)}][{self.gen(e.args[0])}]"
        return f"{self.seq_rows(e.obj)}[{self.gen(e.args[0])}]"

    def seq_rows(self, e: A.Expr) -> str:
        """A sequence's zones read in place (no copy) where the list is only looked at: `lines[p][i]`."""
        r = e.ref
        if isinstance(e, A.Index) and isinstance(r, tuple) and r[0] == "seqfam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"st.sq[{z.seq_base} + {self.gen(e.args[0])}]"
        if isinstance(e, A.Name) and isinstance(r, ZoneSym) and r.kind == "sequence" and not r.per_player:
            return f"st.sq[{r.seq_base}]"
        return self.gen(e)

    def g_Call(self, e: A.Call) -> str:
        r = e.ref
        if isinstance(r, FnSym):
            code = self.inline(r, e.args)
            if code is None:
                code = f"F_{_ident(r.name)}(st{''.join(', ' + self.gen(a) for a in e.args)})"
            self.cg.fn_sites.append((code, e.span, self.fn, r.name))
            return code
        args = [self.gen(a) for a in e.args]
        if e.func in ("min", "max") and isinstance(e.args[0], A.ListLit) and len(e.args[0].items) >= 2:
            return f"{e.func}({', '.join(self.gen(x) for x in e.args[0].items)})"   # max([a, b]): no list
        if e.func in ("size", "index_of") and e.args:
            args[0] = self.seq_rows(e.args[0])     # a sequence only looked at: no copy
        if e.func in _CONSUMES and e.args and isinstance(e.args[0], A.Comprehension) \
                and args[0].startswith("tuple([") and args[0].endswith("])"):
            args[0] = args[0][6:-1]                # consumed at once: the list need not become a tuple
        if isinstance(r, OrderingSym):
            return f"O_{_ident(r.name)}(st{''.join(', ' + a for a in args)})"
        if isinstance(r, RuleSym):
            assert r.proc
            return f"R{r.proc.index}(st{''.join(', ' + a for a in args)})"
        if isinstance(r, tuple) and r[0] == "const":
            return repr(r[1])
        if e.func in ("sum", "of_a_kind") and e.args and isinstance(e.args[0], A.Comprehension):
            agg = self.aggregate(e.func, e.args[0])
            if agg is not None:
                return agg
        b = BUILTINS[e.func]
        code = b.gen(args, [a.ty or T.ANY for a in e.args], self.cg)
        return f"_num({code})" if e.func == "sum" and _is_number(e.ty) else "(" + code + ")"

    def g_Unary(self, e: A.Unary) -> str:
        return f"(not {self.gen(e.operand)})" if e.op == "not" else f"(-{self.gen(e.operand)})"

    def g_Binary(self, e: A.Binary) -> str:
        op = e.op
        lt, rt = e.left.ty, e.right.ty
        left, right = self.gen(e.left), self.gen(e.right)
        if op in ("in", "notin"):
            neg = "not " if op == "notin" else ""
            if rt is not None and rt.kind == "zone" and lt is not None and lt.kind == "card":
                if left.isdigit():      # a card constant (card("♠Q")): never none
                    return f"({neg}(LOC[{left}] == {right}))"
                return f"({neg}(LOC[{left}] == {right}) if {left} is not None else {'True' if neg else 'False'})"
            return f"({left} {'not in' if neg else 'in'} {self.seq(e.right)})"
        if op == "..":
            return f"tuple(range({left}, {right} + 1))"
        if op in ("and", "or") and left in ("True", "False"):     # an option folded to a constant
            return right if (left == "True") == (op == "and") else left
        if (op, right) in (("and", "True"), ("or", "False")) and lt is not None and lt.kind == "bool":
            return left
        if op in ("==", "!=") and "None" in (left, right):
            other = right if left == "None" else left
            try:
                return repr((pyast.literal_eval(other) is None) == (op == "=="))   # folded
            except (ValueError, SyntaxError):
                return f"({other} {'is' if op == '==' else 'is not'} None)"   # no rich comparison
        if (m := _LEN.fullmatch(left)) and _balanced(m.group(1)) and (op, right) in _EMPTINESS:
            return f"({_EMPTINESS[op, right]}{m.group(1)})"     # size(x) > 0: x's truth, no len() call
        if isinstance(e.left, A.Binary) and e.left.op == op and op in ("+", "-", "*", "and", "or") \
                and left.startswith("(") and left.endswith(")") and _top_op(left) == op:
            left = left[1:-1]       # a + b + c, not ((a + b) + c): Python limits nested brackets
        if op in _MAY_OVERFLOW and _is_number(e.ty):
            return f"_num({left} {op} {right})"     # no infinity or NaN in the state (ints cannot overflow)
        return f"({left} {op} {right})"

    def g_Format(self, e: A.Format) -> str:
        """A text value (one language): values as `_fmt` shows them, but a labelled enum member by
        its label's first half, as a log would show it (`"{level}{strain}"` → `7♠`, not `7S`)."""
        segs = []
        for p in e.parts:
            if isinstance(p, str):
                segs.append(repr(p))
                continue
            tc = type_code(p.ty or T.ANY)
            enum = tc[5:] if tc.startswith("list:") else tc
            if enum.startswith("enum:") and enum[5:] in self.cg.p.enums and self.cg.p.enums[enum[5:]].shown is not None:
                segs.append(self.fmt_value(self.gen(p), tc, 0))
            else:
                segs.append(f"_fmt(st, {self.gen(p)}, {tc!r})")
        return "(" + " + ".join(segs or ["''"]) + ")"

    def g_IfExpr(self, e: A.IfExpr) -> str:
        return f"({self.gen(e.then)} if {self.gen(e.cond)} else {self.gen(e.other)})"

    def g_ListLit(self, e: A.ListLit) -> str:
        items = [self.gen(x) for x in e.items]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    g_TupleLit = g_ListLit

    def _var(self, e: A.Comprehension | A.Quantifier | A.Best) -> str:
        sym = e.ref
        assert isinstance(sym, LocalSym)
        return self.local(sym)

    def g_Comprehension(self, e: A.Comprehension) -> str:
        v = self._var(e)
        cond = f" if {self.gen(e.cond)}" if e.cond is not None else ""
        # a list comprehension, then a tuple: much faster than tuple(generator) on small lists
        return f"tuple([{self.gen(e.elem)} for {v} in {self.iter_src(e.source)}{cond}])"

    def aggregate(self, func: str, e: A.Comprehension) -> str | None:
        """sum / of_a_kind of a comprehension as one loop in a helper function (AG0, AG1 …): no list
        is built (in Python 3.11 a list comprehension is a function call of its own, then the list is
        walked again). The helper takes the local names the comprehension reads. sum only over ints
        (a float sum would depend on how Python adds); of_a_kind counts in a dict what
        ``_of_a_kind`` counts with a set and ``list.count`` (the same hashing and equality)."""
        if func == "sum" and (e.elem.ty is None or e.elem.ty.kind not in ("int", "bool")):
            return None
        v = self._var(e)
        parts = [self.gen(e.elem), self.iter_src(e.source), self.gen(e.cond) if e.cond is not None else "True"]
        try:
            trees = [pyast.parse(x, mode="eval") for x in parts]
        except SyntaxError:
            return None
        nodes = [n for t in trees for n in pyast.walk(t)]
        if any(isinstance(n, pyast.Lambda | pyast.NamedExpr | pyast.comprehension) for n in nodes) \
                or v in {n.id for n in pyast.walk(trees[1]) if isinstance(n, pyast.Name)}:
            return None         # keep it simple: no nested comprehension, no lambda
        used = {n.id for n in nodes if isinstance(n, pyast.Name)} - {v}
        params = sorted(n for n in used if _is_local_name(n, self.cg.consts))
        if len(params) > 6 or "_e" in used:
            return None
        for n in nodes:
            if isinstance(n, pyast.Name) and n.id == v:
                n.id = "_e"     # one helper for the same loop whatever its variable is called
        elem, src, cond = (pyast.unparse(t) for t in trees)
        sp = self.cg.span(e.span)
        loop = [f"    for _e in {src}:"]
        ind = "        "
        if e.cond is not None:
            loop.append(f"{ind}if {cond}:")
            ind += "    "
        if func == "sum":
            body = ["    _a = 0", *loop, f"{ind}_a += {elem}", "    return _a"]
        else:   # the count of the most frequent element; 1 when all differ, 0 when there are none
            body = ["    _n = {}; _m = 0", *loop, f"{ind}_v = {elem}", f"{ind}if _v in _n:",
                    f"{ind}    _k = _n[_v] = _n[_v] + 1", f"{ind}    if _k > _m: _m = _k",
                    f"{ind}else:", f"{ind}    _n[_v] = 1", "    return _m or (1 if _n else 0)"]
        key = "\n".join([", ".join(params), *body])
        name = self.cg.aggregates.get(key, (f"AG{len(self.cg.aggregates)}", sp))[0]
        self.cg.aggregates.setdefault(key, (name, sp))
        return f"{name}({', '.join(params)})"

    def g_Quantifier(self, e: A.Quantifier) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        consts = _CONST_TUPLE.fullmatch(src)
        if consts is not None and e.kind in ("any", "all") and _size(e.cond) <= 40:
            # over a few constants (jacks(), [♠, ♥, ♦, ♣]): unrolled, no generator
            values = [x.strip() for x in consts.group(1).split(",") if x.strip()]
            if len(values) <= 8:
                assert isinstance(e.ref, LocalSym)
                parts = []
                for x in values:
                    sub = ExprGen(self.cg, {**self.names, id(e.ref): x}, self.mode, self.hoister, self.depth, self.fn)
                    parts.append(f"({sub.gen(e.cond)})")
                if not parts:
                    return "False" if e.kind == "any" else "True"
                return "(" + (" or " if e.kind == "any" else " and ").join(parts) + ")"
        cond = self.gen(e.cond)
        if e.kind == "any":
            return f"any({cond} for {v} in {src})"
        if e.kind == "all":
            return f"all({cond} for {v} in {src})"
        return f"sum(1 for {v} in {src} if {cond})"

    def g_Best(self, e: A.Best) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        ok, _ = const_value(e.key)
        if ok:      # every element ties: the first one
            if e.cond is None:
                return f"next(iter({src}), None)"
            return f"next(({v} for {v} in {src} if {self.gen(e.cond)}), None)"
        if e.cond is not None:
            src = f"[{v} for {v} in {src} if {self.gen(e.cond)}]"
        k = e.key
        if isinstance(k, A.Call) and isinstance(k.ref, OrderingSym) and len(k.args) == 1 \
                and isinstance(k.args[0], A.Name) and k.args[0].ref is e.ref:
            return f"OB_{_ident(k.ref.name)}(st, {src})"     # see Compiler.gen_ordering
        return f"max({src}, key=lambda {v}: {self.gen(e.key)}, default=None)"

    def g_SortedBy(self, e: A.SortedBy) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        if e.cond is not None:
            src = f"[{v} for {v} in {src} if {self.gen(e.cond)}]"
        if const_value(e.key)[0]:
            return f"tuple({src})"
        if _key_never_none(e.key):      # sorted as it is: the same order, without a wrapper per element
            return f"tuple(sorted({src}, key=lambda {v}: {self.gen(e.key)}))"
        return f"tuple(sorted({src}, key=lambda {v}: _none_last({self.gen(e.key)})))"

    def fmt(self, e: A.Expr, lang: int = 0, shown: bool = False) -> str:
        """Code showing a value in a text as _fmt does; the common types by a table lookup.
        ``shown``: a card as the ruleset's `show` writes it (labels and prompts, drawn when read)."""
        tc = type_code(e.ty or T.ANY)
        # labels and prompts: cards as the hands show them (`show`, a card's label), and a card its chooser
        # cannot see by its place (Game.hidden_places), never by its face
        if shown and tc in ("card", "list:card"):
            return f"_shown(st, {self.gen(e)}, {lang})" if tc == "card" else f"_shown_list(st, {self.gen(e)}, {lang})"
        if shown and isinstance(e, A.Attr) and isinstance(e.ref, tuple) and e.ref[0] == "cardattr":
            # `{c.rank}` of a card the reader cannot see (a stack item's card in a window's prompt): "?"
            return f"('?' if _unseen(st, {self.gen(e.obj)}) else {self.fmt_value(self.gen(e), tc, lang)})"
        return self.fmt_value(self.gen(e), tc, lang)

    def fmt_value(self, code: str, tc: str, lang: int = 0) -> str:
        """``lang``: the half of the text (0 English, 1 Japanese) — an effect, a card or a zone shows
        its label there."""
        if tc == "int":
            return f"_int_text({code})"
        if tc == "zone":
            return f"_zone_text(st, {code}, {lang})"
        elem = tc[5:] if tc.startswith("list:") else tc
        tag = elem          # the name of the table
        names: list[str] | None = None
        if elem == "effect":        # players read "7渡し", not give_card
            names = [text_plain(e.decl.label, lang) if e.decl is not None and e.decl.label is not None else e.name
                     for e in self.cg.p.effects]
            table = self.cg.const(f"TXT_effect_{lang}", {None: "none", **dict(enumerate(names))})
            return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"
        if elem == "player":        # a seat's name in the text's language (`seats`), else P1
            seats = self.cg.p.seat_names
            names = [seats[q][lang] if seats else f"P{q}" for q in range(self.cg.p.players)]
            tag = f"player_{lang}" if seats else tag
        elif elem == "card":        # as players read them, in the text's language (a card's label)
            labels = self.cg.p.cards.labels
            names = [labels[n][lang] if n in labels else n for n in self.cg.p.cards.names]
            tag = f"card_{lang}" if labels else tag
        elif elem.startswith("enum:") and elem[5:] in self.cg.p.enums:
            en = self.cg.p.enums[elem[5:]]
            if en.shown is not None:    # a labelled member reads as its label, in the text's language
                table = self.cg.const(f"TXT_{_ident(elem.replace(':', '_'))}_{lang}",
                                      {None: "none", **{i: s[lang] for i, s in enumerate(en.shown)}})
                return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"
            names = [str(m) for m in en.members]
        if names is None:
            return f"_fmt(st, {code}, {tc!r})"
        table = self.cg.const(f"TXT_{_ident(tag.replace(':', '_'))}", {None: "none", **dict(enumerate(names))})
        return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"

    def text(self, t: A.Text, shown: bool = True) -> str:
        """A label or prompt → a Python expression building (english, japanese). Cards in it read as
        the hands show them (the ruleset's `show`), but in the `show` text itself (``shown``)."""
        halves = []
        for lang, parts in enumerate(_both_halves(t)):
            segs = []
            for p in parts:
                if isinstance(p, str):
                    segs.append(repr(p))
                else:
                    segs.append(self.fmt(p, lang, shown))
            halves.append(" + ".join(segs) if segs else "''")
        if len(halves) == 1:
            return f"(({halves[0]}),) * 2"
        return f"(({halves[0]}), ({halves[1]}))"

    def text_later(self, t: A.Text) -> str:
        """A logged message → ``(formatter, (values…))``: the values it shows are taken now, the words
        are made when the log is read (by the formatter, game.texts[k]); a zone is named now, since
        a sequence's zones are named by their places."""
        args: list[str] = []
        halves = []
        for lang, parts in enumerate(_both_halves(t)):
            segs = []
            for p in parts:
                if isinstance(p, str):
                    segs.append(repr(p))
                    continue
                code, tc = self.gen(p), type_code(p.ty or T.ANY)
                if "zone" in tc:    # named now (a sequence's zones by their places), by label per language
                    code, tc = self.fmt_value(code, tc, lang), "text"
                if code not in args:
                    args.append(code)
                segs.append(self.fmt_value(f"a[{args.index(code)}]", tc, lang))
            halves.append(" + ".join(segs) if segs else "''")
        body = f"(({halves[0]}),) * 2" if len(halves) == 1 else f"(({halves[0]}), ({halves[1]}))"
        k = len(self.cg.text_fns)
        self.cg.text_fns.append(body)
        return f"({k}, ({''.join(a + ', ' for a in args)}))"


def _both_halves(t: A.Text) -> list[list[Any]]:
    """A text's English and Japanese halves; one without ` | ` is both, its values shown in each
    language (`"{c.kind}"` reads 猫 under --lang ja when the member is labelled "Cat | 猫")."""
    if len(t.parts) == 1 and any(not isinstance(p, str) for p in t.parts[0]):
        return [t.parts[0], t.parts[0]]
    return list(t.parts)


# ------------------------------------------------------------------ statements
class BodyGen:
    """Statements → Python. In "frame" mode, statements that wait for decisions are split into
    labelled blocks of the resumable procedure; everything else stays straight-line Python."""

    def __init__(self, cg: Compiler, proc: Proc, mode: str) -> None:
        self.cg = cg
        self.proc = proc
        self.mode = mode
        # > 0 inside what a secret decides: the blocks of a hidden or simultaneous decision's options,
        # the branches of an `if` on a secret pick. A card moved there by its place (`top(deck)`) is a
        # secret pick's doing too: peeks at its zone are lost (secret_places.py)
        self.hush = 0
        # the player choosing in secret, innermost last (code for it; None where it is not at hand):
        # they know what they chose, and keep their peeks. In a simultaneous decision's blocks, also
        # the codes of the choosers' list, the index past this one's and the slot of the zones left
        # so far and before this chooser's block, and how many loops were open around it (_unpeek_simul)
        self.knower: list[str | tuple[str, str, str, str, str, int] | None] = []
        self.eg = ExprGen(cg, {}, mode)
        self.blocks: list[_Block] = [_Block()]
        self.cur = 0
        self.extra = 0
        self.loops: list[tuple[str, int, int]] = []   # ("py", 0, 0) or ("jump", head, exit)
        self.fid = 0
        self.plain_lines: list[tuple[int, str, int]] = []
        # rules inlined into this procedure: (proc, result slot, continuation block)
        self.inlined: list[tuple[Proc, int | None, int]] = []
        self.slots: dict[int, int] = {}                # LocalSym id → frame index, for inlined locals
        self.slot_codes: dict[int, str] = {}           # frame index → type code, beyond the own locals

    def unpeek(self, cards: str) -> str:
        """The call that makes peekers forget the zones of ``cards``, picked in secret, before they
        move — all but the player who chose in secret here (they keep their peeks)."""
        who = self.knower[-1] if self.knower else None
        if isinstance(who, tuple):
            pl, ps, ix, zs, _, _ = who
            return f"{zs} = _unpeek_simul(st, {cards}, {pl}, {ps}[{ix}:], {zs})"
        return f"_unpeek(st, {cards}{f', {who}' if who is not None else ''})"

    def leave_simultaneous(self, ind: int, sp: int, loops: int | None = None) -> None:
        """Before a `break` or `continue` (of the loop around ``loops`` open ones), `goto` or `end game`
        leaves a simultaneous decision's block: the choosers whose blocks will not run forget now
        what they would have forgotten after them (_unpeek_simul)."""
        for k in self.knower:
            if isinstance(k, tuple) and (loops is None or k[5] >= loops):
                _, ps, ix, zs, zy, _ = k
                self.line(ind, f"_forget_rest(st, {ps}, {ix}, {zy}, {zs})", sp)

    @property
    def cur_proc(self) -> Proc:
        return self.inlined[-1][0] if self.inlined else self.proc

    def frame_slot(self, sym: LocalSym) -> int:
        return self.slots.get(id(sym), sym.slot + 2)

    # -------------------------------------------------------------- emission
    def line(self, ind: int, text: str, sp: int) -> None:
        if self.mode == "frame":
            self.blocks[self.cur].lines.append((ind, text, sp))
        else:
            self.plain_lines.append((ind, text, sp))

    def flush_plain(self) -> None:
        if not self.plain_lines:
            self.plain_lines.append((1, "pass", -1))
        for ind, text, sp in self.plain_lines:
            self.cg.emit(ind, text, sp)
        self.plain_lines = []

    def new_block(self) -> int:
        self.blocks.append(_Block())
        return len(self.blocks) - 1

    def slot_index(self, code: str = "any") -> int:
        """A frame slot beyond the procedure's own locals; ``code``: the type of what it holds (the
        determinizer renames hidden cards in frames by these types)."""
        s = 2 + len(self.proc.locals) + self.extra
        self.extra += 1
        self.slot_codes[s] = code
        return s

    def slot(self, code: str = "any") -> str:
        return f"fr[{self.slot_index(code)}]"

    def jump(self, ind: int, target: int, sp: int) -> None:
        self.line(ind, f"L = {target}; continue", sp)

    def finish(self) -> None:
        self.line(0, "return 0", self.cg.span(self.proc.span))

    # -------------------------------------------------------------- dispatch
    def suspends(self, s: A.Stmt) -> bool:
        if self.mode != "frame":
            return False
        if isinstance(s, A.Choose | A.Simultaneous | A.Activate):
            return True
        if isinstance(s, A.ExprStmt | A.Let | A.Assign):
            call = s.expr if isinstance(s, A.ExprStmt) else s.value
            return isinstance(call, A.Call) and isinstance(call.ref, RuleSym) and bool(
                call.ref.proc and call.ref.proc.suspends)
        if isinstance(s, A.If):
            return any(self.any_susp(b) for _, b in s.branches) or self.any_susp(s.orelse or [])
        if isinstance(s, A.While | A.Repeat | A.For | A.Turn):
            return self.any_susp(s.body)
        return False

    def any_susp(self, stmts: list[A.Stmt]) -> bool:
        return any(self.suspends(s) for s in stmts)

    def stmts(self, stmts: list[A.Stmt], ind: int) -> None:
        if not stmts:
            return
        for s in stmts:
            if self.suspends(s):
                getattr(self, "s_" + type(s).__name__)(s, ind)
            else:
                self.plain(s, ind)

    def body(self, stmts: list[A.Stmt], ind: int) -> None:
        """A nested Python block: at least one statement."""
        n = len(self.blocks[self.cur].lines) if self.mode == "frame" else len(self.plain_lines)
        self.stmts(stmts, ind)
        m = len(self.blocks[self.cur].lines) if self.mode == "frame" else len(self.plain_lines)
        if m == n:
            self.line(ind, "pass", -1)

    # -------------------------------------------------------------- plain statements
    def check_after(self, ind: int, sp: int, zones: bool = False, var: Any = None, slots: str = "",
                    vis: bool = False, stack: bool = False) -> None:
        """Run the checks after a change they may read: cards moved (``zones``; ``slots`` "_s, _d"
        after one card), faces or reveals (``vis``), the stack (``stack``), a variable."""
        if zones and self.cg.tops:      # a pile `top up` shows its new top card
            self.line(ind, "_tops(st)", sp)
        reads = self.cg.check_reads
        if not self.cg.p.checks:
            return
        if (zones and reads.zones) or (vis and reads.vis) or (stack and reads.stack) \
                or (var is not None and id(var) in reads.vars):
            self.line(ind, f"CHECKS(st, {slots})" if slots else "CHECKS(st)", sp)

    def checks_zones(self) -> bool:
        """Whether moving cards must run the checks."""
        return bool(self.cg.p.checks) and self.cg.check_reads.zones

    def check_after_many(self, ind: int, sp: int) -> None:
        """The checks after cards moved to slot _d from slot _s1 (-1: from several, -2: none moved).
        From one slot, the fast pass of one card's move holds for all of them; when nothing moved,
        nothing changed: only a state whose last full pass is not known (``ck_ok`` false) needs one."""
        if self.cg.tops:
            self.line(ind, "_tops(st)", sp)
        self.line(ind, "if _s1 >= 0: CHECKS(st, _s1, _d)", sp)
        self.line(ind, "elif _s1 == -1 or not st.ck_ok: CHECKS(st)", sp)

    def plain(self, s: A.Stmt, ind: int) -> None:
        sp = self.cg.span(s.span)
        eg = self.eg
        if isinstance(s, A.Let):
            sym = self.let_sym(s)
            self.line(ind, f"{eg.local(sym)} = {eg.gen(s.value)}", sp)
        elif isinstance(s, A.Assign):
            self.assign(s, ind, sp, eg.gen(s.value))
        elif isinstance(s, A.ExprStmt):
            call = s.expr if isinstance(s.expr, A.Call) else None
            if call is not None and isinstance(call.ref, RuleSym) and call.ref.proc is not None \
                    and not call.ref.proc.body and not any(_impure(a) for a in call.args):
                return   # an empty hook (a base ruleset's extension point)
            self.line(ind, eg.gen(s.expr), sp)
        elif isinstance(s, A.If):
            hushed = any(secret(c) for c, _ in s.branches)
            self.hush += hushed
            for i, (c, b) in enumerate(s.branches):
                cond = self.condition(c, ind) if i == 0 else eg.gen(c)
                self.line(ind, f"{'if' if i == 0 else 'elif'} {cond}:", self.cg.span(c.span))
                self.body(b, ind + 1)
            if s.orelse:
                self.line(ind, "else:", sp)
                self.body(s.orelse, ind + 1)
            self.hush -= hushed
        elif isinstance(s, A.While):
            # a loop that never waits for a decision could run forever: stop it with an error
            hushed = secret(s.cond)
            self.hush += hushed
            guard = f"_w{sp}"
            self.line(ind, f"{guard} = 0", sp)
            self.line(ind, f"while {eg.gen(s.cond)}:", sp)
            self.line(ind + 1, f"{guard} += 1", sp)
            self.line(ind + 1, f"if {guard} > 1000000: raise _RuleFailure('this loop ran a million times without "
                               f"a decision: does its condition ever change?', {sp})", sp)
            self.loops.append(("py", 0, 0))
            self.body(s.body, ind + 1)
            self.loops.pop()
            self.hush -= hushed
        elif isinstance(s, A.Repeat):
            hushed = secret(s.count)
            self.hush += hushed
            self.line(ind, f"for _ in range({_bounded_count(eg.gen(s.count), sp)}):", sp)
            self.loops.append(("py", 0, 0))
            self.body(s.body, ind + 1)
            self.loops.pop()
            self.hush -= hushed
        elif isinstance(s, A.For):
            hushed = secret(s.source)
            self.hush += hushed
            sym = self.for_sym(s)
            src = eg.iter_src(s.source)
            if s.source.ty is not None and s.source.ty.kind == "zone":
                src = f"tuple({src})"
            self.line(ind, f"for {eg.local(sym)} in {_bounded_range(src, sp)}:", sp)
            self.loops.append(("py", 0, 0))
            self.body(s.body, ind + 1)
            self.loops.pop()
            self.hush -= hushed
        elif isinstance(s, A.Break | A.Continue):
            self.leave_simultaneous(ind, sp, len(self.loops))
            kind, head, exit_ = self.loops[-1]
            if kind == "py":
                self.line(ind, "break" if isinstance(s, A.Break) else "continue", sp)
            else:
                self.jump(ind, exit_ if isinstance(s, A.Break) else head, sp)
        elif isinstance(s, A.Return):
            v = eg.gen(s.value) if s.value is not None else "None"
            if self.inlined:
                _, into, cont = self.inlined[-1]
                self.line(ind, (f"fr[{into}] = {v}; " if into is not None else "") + f"L = {cont}; continue", sp)
            elif self.mode == "frame":
                self.line(ind, f"st.ret = {v}; return 0", sp)
            else:
                self.line(ind, f"return {v}", sp)
        elif isinstance(s, A.Move):
            self.move(s, ind, sp)
        elif isinstance(s, A.Deal):
            z = self.cg.zone(s.dest)
            players = eg.seq(s.players) if s.players is not None else "PLAYERS"
            count = "None" if s.count is None else eg.gen(s.count)
            self.line(ind, f"_deal(st, {count}, {eg.gen(s.source)}, {z.base}, {players}, {sp})", sp)
            self.check_after(ind, sp, zones=True)
        elif isinstance(s, A.Shuffle):
            if self.checks_zones():   # only the order of one zone changed: the checks' fast pass
                self.line(ind, f"_s = {eg.gen(s.zone)}; _shuffle(st, _s, {sp})", sp)
                if self.cg.tops:
                    self.line(ind, "_tops(st)", sp)
                self.line(ind, "CHECKS(st, _s, _s)", sp)
            else:
                self.line(ind, f"_shuffle(st, {eg.gen(s.zone)}, {sp})", sp)
                if self.cg.tops:
                    self.line(ind, "_tops(st)", sp)
        elif isinstance(s, A.Reveal):
            self.reveal(s, ind, sp)
        elif isinstance(s, A.Hide) and self.var_slot(s.what) is not None:
            self.line(ind, f"_hide_var(st, {self.var_slot(s.what)}, {sp})", sp)
        elif isinstance(s, A.Hide):
            what = eg.seq(s.what) if s.what.ty is not None and s.what.ty.kind == "zone" else eg.gen(s.what)
            self.line(ind, f"_hide(st, {what}, {sp})", sp)
            self.check_after(ind, sp, vis=True)
        elif isinstance(s, A.Swap):
            if secret(s.a) or secret(s.b) or self.hush:     # cards picked in secret: peeks at their zones are lost
                self.line(ind, f"_a = {eg.gen(s.a)}; _b = {eg.gen(s.b)}; {self.unpeek('(_a, _b)')}", sp)
                self.line(ind, f"_swap(st, _a, _b, {sp})", sp)
            else:
                self.line(ind, f"_swap(st, {eg.gen(s.a)}, {eg.gen(s.b)}, {sp})", sp)
            self.check_after(ind, sp, zones=True)
        elif isinstance(s, A.Turn):
            who = eg.gen(s.player)
            if who != "G[0]":
                self.line(ind, f"G[0] = {who}", sp)
            self.line(ind, f"if G[0] is None: raise _RuleFailure('a turn for nobody: the player is none', {sp})", sp)
            self.line(ind, f"st.ev.append(({_ev('TURN')}, {sp}, G[0]))", sp)
            self.check_after(ind, sp, var=self.cg.p.vars[0])
            self.stmts(s.body, ind)
        elif isinstance(s, A.Goto):
            idx = next(i for i, ph in enumerate(self.cg.p.phases) if ph.name == s.phase)
            self.leave_simultaneous(ind, sp)
            self.line(ind, f"raise _Goto({idx})", sp)
        elif isinstance(s, A.Negate):
            self.line(ind, f"_negate(st, {eg.gen(s.item)}, {sp})", sp)
            self.check_after(ind, sp, stack=True)
        elif isinstance(s, A.Win):
            drawn = f", {eg.gen(s.drawn)}" if s.drawn is not None else ""
            self.line(ind, f"_win(st, {eg.gen(s.who)}, {sp}{drawn})", sp)
        elif isinstance(s, A.Lose):
            self.line(ind, f"_lose(st, {eg.gen(s.who)}, {sp})", sp)
        elif isinstance(s, A.Finish):
            if s.sit_out:
                self.line(ind, f"_sit_out(st, {eg.gen(s.who)}, {sp})", sp)
            else:
                self.line(ind, f"_finish(st, {eg.gen(s.who)}, {sp}{', True' if s.last else ''})", sp)
            self.check_after(ind, sp, var=self.cg.p.vars[2])
            if -1 in self.cg.check_reads.vars and self.cg.p.checks:
                self.line(ind, "CHECKS(st)", sp)
        elif isinstance(s, A.Rejoin):
            self.line(ind, f"_rejoin(st, {eg.gen(s.who)}, {sp})", sp)
            self.check_after(ind, sp, var=self.cg.p.vars[2])
            if -1 in self.cg.check_reads.vars and self.cg.p.checks:
                self.line(ind, "CHECKS(st)", sp)
        elif isinstance(s, A.End) and s.players is not None and s.keys is not None:
            self.leave_simultaneous(ind, sp)
            self.line(ind, f"_end_ranking(st, {eg.gen(s.players)}, {eg.gen(s.keys)}, {sp})", sp)
        elif isinstance(s, A.End):
            self.leave_simultaneous(ind, sp)
            self.line(ind, f"_end(st, {s.draw}, {sp})", sp)
        elif isinstance(s, A.Log):
            self.line(ind, f"st.ev.append(({_ev('LOG')}, {sp}, {eg.text_later(s.text)}))", sp)
        elif isinstance(s, A.Tell):
            self.line(ind, f"st.ev.append(({_ev('TELL')}, {sp}, {eg.gen(s.player)}, {eg.text_later(s.text)}))", sp)
        elif isinstance(s, A.Reverse):
            self.line(ind, f"G[1] = -G[1]; st.ev.append(({_ev('REVERSE')}, {sp}, G[1]))", sp)
            self.check_after(ind, sp, var=self.cg.p.vars[1])
        elif isinstance(s, A.Insert):
            if s.zone is not None:
                self.line(ind, f"_insert_zone(st, {self.seq_id(s.seq)}, {eg.gen(s.zone)}, {s.side == 'front'}, {sp})",
                          sp)
            else:
                assert s.name is not None
                sym = _find_local(self.cur_proc, s.name, s.span)
                self.line(ind, f"{eg.local(sym)} = _insert(st, {self.seq_id(s.seq)}, {s.side == 'front'}, {sp})", sp)
            self.check_after(ind, sp, zones=True)
        elif isinstance(s, A.Record):
            shape = record_shape(s.key)
            if shape == "-":
                self.line(ind, f"_record(st, {eg.gen(s.key)})", sp)
            else:
                self.line(ind, f"_record_cards(st, {eg.gen(s.key)}, {shape!r})", sp)
        else:
            raise AssertionError(f"statement {type(s).__name__} cannot be compiled here")

    def seq_id(self, e: A.Expr) -> str:
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, ZoneSym):
            return f"({e.obj.ref.seq_base} + {self.eg.gen(e.args[0])})"
        if isinstance(e, A.Name) and isinstance(e.ref, ZoneSym):
            return str(e.ref.seq_base)
        raise AssertionError("sequence expected")

    def let_sym(self, s: A.Let) -> LocalSym:
        return _find_local(self.cur_proc, s.name, s.span)

    def for_sym(self, s: A.For) -> LocalSym:
        return _find_local(self.cur_proc, s.var, s.span)

    def move(self, s: A.Move, ind: int, sp: int) -> None:
        eg = self.eg
        if s.under:
            self.cg.under_spans.add(sp)
        # one card onto a pile `top up`, on top: seen landing (under it, `at N`, or a packet of several
        # cards, as its visibility says: the pile turns up whatever card ends on top, with a reveal
        # everyone reads)
        ct = s.cards.ty or T.ANY
        face = 1 if s.face == "up" or s.face is None and not s.under and s.at is None and _top_up(s.dest) \
            and ct.kind in ("card", "none") else 0
        dest = eg.gen(s.dest)
        if secret(s.cards) or self.hush:    # cards picked in secret: peeks at their zones are lost (secret_places.py)
            one = ct.kind in ("card", "none")
            self.line(ind, f"_c = {eg.gen(s.cards) if one else eg.seq(s.cards)}; "
                      f"{self.unpeek('(_c,)' if one else '_c')}", sp)
            if s.at is not None:
                self.line(ind, f"_mvat(st, {'(_c,)' if one else '_c'}, {dest}, {eg.gen(s.at)}, {face}, {sp})", sp)
            elif one:
                self.line(ind, f"_mv(st, _c, {dest}, {s.under}, {face}, {sp})", sp)
            else:
                self.line(ind, f"_mvall(st, _c, {dest}, {s.under}, {face}, {sp})", sp)
            self.check_after(ind, sp, zones=True)
            return
        if s.at is not None:
            self.line(ind, f"_mvat(st, {eg.seq(s.cards) if ct.kind not in ('card', 'none') else '(' + eg.gen(s.cards) + ',)'}, "
                           f"{dest}, {eg.gen(s.at)}, {face}, {sp})", sp)
            self.check_after(ind, sp, zones=True)
            return
        if ct.kind in ("card", "none") and not self.cg.p.seq_count:
            # the commonest statement, inlined: no call, the zone visibility masks as a constant
            card = eg.gen(s.cards)
            if not card.strip("()").isdigit() and not card.isidentifier():
                self.line(ind, f"_c = {card}", sp)
                card = "_c"
            if not card.strip("()").isdigit():
                self.line(ind, f"if {card} is None: _no_card({sp})", sp)
            self.line(ind, f"_s = LOC[{card}]; _d = {dest}", sp)
            self.move_lines(ind, card, "Z[_d]", s.under, face, sp)
            self.check_after(ind, sp, zones=True, slots="_s, _d")
            return
        if ct.kind not in ("card", "none") and not self.cg.p.seq_count and not s.under:
            # a list of cards to a zone: the same lines in a loop
            src = eg.seq(s.cards)
            if not src.startswith("tuple("):
                src = f"tuple({src})"      # the cards may come from a zone the moves change
            track = self.checks_zones()
            self.line(ind, f"_d = {dest}; _t = Z[_d]" + ("; _s1 = -2" if track else ""), sp)
            self.line(ind, f"for _c in {src}:", sp)
            self.line(ind + 1, f"if _c is None: _no_card({sp})", sp)
            self.line(ind + 1, "_s = LOC[_c]", sp)
            if track:     # one source slot (a whole zone, a filter of one): the checks' fast pass
                self.line(ind + 1, "if _s != _s1: _s1 = _s if _s1 == -2 else -1", sp)
            self.move_lines(ind + 1, "_c", "_t", False, face, sp)
            if track:
                self.check_after_many(ind, sp)
                return
        elif ct.kind in ("card", "none"):
            self.line(ind, f"_mv(st, {eg.gen(s.cards)}, {dest}, {s.under}, {face}, {sp})", sp)
        else:
            self.line(ind, f"_mvall(st, {eg.seq(s.cards)}, {dest}, {s.under}, {face}, {sp})", sp)
        self.check_after(ind, sp, zones=True)

    def move_lines(self, ind: int, card: str, target: str, under: bool, face: int, sp: int) -> None:
        """One card from zone slot ``_s`` to ``_d`` (the list ``target``), logged with who could see
        it: the two zones' viewers and whoever it was shown to; face up, everyone."""
        self.line(ind, f"_z = Z[_s]; _z.pop() if _z[-1] == {card} else _z.remove({card})", sp)
        self.line(ind, f"{target}.insert(0, {card})" if under else f"{target}.append({card})", sp)
        if face == 1:
            self.line(ind, f"LOC[{card}] = _d; st.ev.append((1, {sp}, {card}, _s, _d, ALL)); st.vis[{card}] = ALL", sp)
        else:
            self.line(ind, f"LOC[{card}] = _d; _v = st.vis; st.ev.append((1, {sp}, {card}, _s, _d, ZM[_s] | ZM[_d] | "
                           f"_v[{card}])); _v[{card}] = 0", sp)

    def var_slot(self, what: A.Expr) -> str | None:
        """The State.g slot of a variable or one player's entry (``v``, ``v[p]``), as code."""
        if isinstance(what, A.Name) and isinstance(what.ref, VarSym):
            return str(what.ref.slot)
        if isinstance(what, A.Index) and isinstance(what.ref, tuple) and what.ref[0] == "pvar":
            return f"{what.ref[1].slot} + {self.eg.gen(what.args[0])}"
        return None

    def reveal(self, s: A.Reveal, ind: int, sp: int) -> None:
        eg = self.eg
        what = s.what
        slot = self.var_slot(what)
        if slot is not None:
            self.line(ind, f"_reveal_var(st, {slot}, {sp})", sp)
            return
        mask = "ALL" if s.to is None else f"_mask({eg.gen(s.to)})"
        w = eg.seq(what) if what.ty is not None and what.ty.kind == "zone" else eg.gen(what)
        self.line(ind, f"_reveal(st, {w}, {mask}, {sp})", sp)
        self.check_after(ind, sp, vis=True)

    def assign(self, s: A.Assign, ind: int, sp: int, value: str) -> None:
        eg = self.eg
        t = s.target
        op = s.op
        if op == "=" and _is_number(t.ty) and not _plain_number(value):
            value = f"_num({value})"        # an int past the float range is no number (E601 here)
        if isinstance(t, A.Attr) and isinstance(t.ref, tuple) and t.ref[0] == "field":
            obj = eg.gen(t.obj)
            idx = eg.field_index(t.ref[1])
            if op == "=":
                self.line(ind, f"_set_field(st, {obj}, {idx}, {value}, {sp})", sp)
            else:
                new = f"_item(st, _it, {sp})[{idx}] {op[:-1]} ({value})"
                if op[:-1] in _MAY_OVERFLOW and _is_number(t.ty):
                    new = f"_num({new})"
                self.line(ind, f"_it = {obj}; _set_field(st, _it, {idx}, {new}, {sp})", sp)
            self.check_after(ind, sp, stack=True)
            return
        target = eg.gen(t)
        if op[:-1] in _MAY_OVERFLOW and _is_number(t.ty):    # x *= 2 of a number: checked as x * 2 is
            if _impure(t) and isinstance(t.ref, tuple) and t.ref[0] in ("pvar", "cardvar"):
                whose = t.args[0] if isinstance(t, A.Index) else t.obj      # type: ignore[attr-defined]
                self.line(ind, f"_ix = {eg.gen(whose)}", sp)       # score[random(players)]: drawn once
                target = f"G[{t.ref[1].slot} + _ix]"
            self.line(ind, f"{target} = _num({target} {op[:-1]} ({value}))", sp)
        else:
            self.line(ind, f"{target} {op} {value}", sp)
        var = None
        if isinstance(t, A.Name) and isinstance(t.ref, VarSym):
            var = t.ref
        elif isinstance(t.ref, tuple) and t.ref and t.ref[0] in ("pvar", "cardvar"):
            var = t.ref[1]
        if var is not None:
            self.check_after(ind, sp, var=var)

    # -------------------------------------------------------------- statements that wait
    def inline_call(self, callee: Proc, call: A.Call, ind: int, into: str | None, sp: int) -> None:
        """Splice a resumable rule into this procedure: its locals get slots of this frame."""
        args = [self.eg.gen(a) for a in call.args]
        for loc in callee.locals:
            if not loc.comp:
                k = self.slot_index(type_code(loc.type))
                self.slots[id(loc)] = k
                self.eg.names[id(loc)] = f"fr[{k}]"
        for param, code in zip(callee.params, args, strict=True):
            self.line(ind, f"fr[{self.slots[id(param)]}] = {code}", sp)
        ret = self.slot_index(type_code(callee.ret)) if into is not None else None
        cont = self.new_block()
        self.inlined.append((callee, ret, cont))
        saved_loops, self.loops = self.loops, []
        self.stmts(callee.body, ind)
        self.jump(ind, cont, sp)
        self.loops = saved_loops
        self.inlined.pop()
        self.cur = cont
        if into is not None and into != "_r":
            self.line(0, f"{into} = fr[{ret}]", sp)
        elif into == "_r":
            self.line(0, f"st.ret = fr[{ret}]", sp)

    def s_ExprStmt(self, s: A.ExprStmt, ind: int) -> None:
        self.call_frame(s.expr, ind, None)  # type: ignore[arg-type]

    def s_Let(self, s: A.Let, ind: int) -> None:
        self.call_frame(s.value, ind, self.eg.local(self.let_sym(s)))  # type: ignore[arg-type]

    def s_Assign(self, s: A.Assign, ind: int) -> None:
        sp = self.cg.span(s.span)
        self.call_frame(s.value, ind, "_r")  # type: ignore[arg-type]
        self.assign(s, ind, sp, "st.ret")

    def can_inline(self, callee: Proc) -> bool:
        stack = [self.proc] + [p for p, _, _ in self.inlined]
        return (len(self.inlined) < 4 and callee not in stack and _size(callee.body) < 400
                and not _return_in_loop(callee.body) and not _calls_any(callee, stack))

    def call_frame(self, call: A.Call, ind: int, into: str | None) -> None:
        sp = self.cg.span(call.span)
        r = call.ref
        assert isinstance(r, RuleSym) and r.proc
        if self.can_inline(r.proc):
            self.inline_call(r.proc, call, ind, into, sp)
            return
        fid = self.cg.frame_ids[r.proc.index]
        args = [self.eg.gen(a) for a in call.args]
        # the callee's frame size is known once every procedure is generated: filled in by emit_procs
        nxt = self.new_block()
        self.line(ind, f"_nf = [{fid}, 0{''.join(', ' + a for a in args)}@PAD{fid}:{len(args)}@]", sp)
        self.direct_call(ind, f"P{fid}", nxt, sp)
        self.cur = nxt
        if into is not None and into != "_r":
            self.line(0, f"{into} = st.ret", sp)

    def condition(self, c: A.Expr, ind: int) -> str:
        """An if's test. ``[not] any/all x in S where C`` becomes a loop ahead of the ``if`` that
        stops at the first deciding element: no generator to create and resume per element."""
        negate = isinstance(c, A.Unary) and c.op == "not"
        q = c.operand if isinstance(c, A.Unary) and negate else c
        if not isinstance(q, A.Quantifier) or q.kind not in ("any", "all"):
            return self.eg.gen(c)
        src = self.eg.iter_src(q.source)
        if _CONST_TUPLE.fullmatch(src):
            return self.eg.gen(c)              # unrolled by the expression (g_Quantifier)
        sp = self.cg.span(q.span)
        hit = q.kind == "any"                  # the value when an element decides
        test = self.eg.gen(q.cond)
        self.line(ind, f"for {self.eg._var(q)} in {src}:", sp)
        self.line(ind + 1, f"if {test if hit else f'not {test}'}:", sp)
        self.line(ind + 2, f"_q = {hit}; break", sp)
        self.line(ind, "else:", sp)
        self.line(ind + 1, f"_q = {not hit}", sp)
        return "(not _q)" if negate else "_q"

    def s_If(self, s: A.If, ind: int) -> None:
        sp = self.cg.span(s.span)
        hushed = any(secret(c) for c, _ in s.branches)
        self.hush += hushed
        targets = [self.new_block() for _ in s.branches]
        else_b = self.new_block() if s.orelse else None
        join = self.new_block()
        start = self.cur
        for i, (c, _) in enumerate(s.branches):
            self.cur = start
            cond = self.condition(c, ind) if i == 0 else self.eg.gen(c)
            self.line(ind, f"{'if' if i == 0 else 'elif'} {cond}:", self.cg.span(c.span))
            self.jump(ind + 1, targets[i], sp)
        self.line(ind, "else:", sp)
        self.jump(ind + 1, else_b if else_b is not None else join, sp)
        for (_, b), tgt in zip(s.branches, targets, strict=True):
            self.cur = tgt
            self.stmts(b, 0)
            self.jump(0, join, sp)
        if else_b is not None and s.orelse is not None:
            self.cur = else_b
            self.stmts(s.orelse, 0)
            self.jump(0, join, sp)
        self.cur = join
        self.hush -= hushed

    def _loop(self, ind: int, sp: int, head_code: list[str], body: list[A.Stmt], pre: list[str],
              on: A.Expr | None = None) -> None:
        """``on``: what the loop runs on (its condition, count or list): a secret there makes its
        moves a secret's doing (hushed), as an `if`'s."""
        hushed = on is not None and secret(on)
        self.hush += hushed
        for code in pre:
            self.line(ind, code, sp)
        head = self.new_block()
        exit_ = self.new_block()
        self.jump(ind, head, sp)
        self.cur = head
        for code in head_code:
            self.line(0, code.replace("@EXIT", str(exit_)), sp)
        self.loops.append(("jump", head, exit_))
        self.stmts(body, 0)
        self.loops.pop()
        self.jump(0, head, sp)
        self.cur = exit_
        self.hush -= hushed

    def s_While(self, s: A.While, ind: int) -> None:
        # a loop that waits for decisions on some paths may take none on others (a turn loop whose
        # turns all skip): stopped after SPIN rounds in a row without a decision, as plain loops are
        sp = self.cg.span(s.span)
        cond = self.eg.gen(s.cond)
        seen, rounds = self.slot("int"), self.slot("int")
        head = [] if cond == "True" else [f"if not ({cond}): L = @EXIT; continue"]
        head += [f"if st.ndec != {seen}: {seen} = st.ndec; {rounds} = 0",
                 f"elif {rounds} < {SPIN}: {rounds} += 1",
                 f"else: raise _RuleFailure('this loop ran {SPIN:,} times without a decision: does its "
                 f"condition ever change?', {sp})"]
        self._loop(ind, sp, head, s.body, [f"{seen} = -1"], s.cond)

    def s_Repeat(self, s: A.Repeat, ind: int) -> None:
        sp = self.cg.span(s.span)
        n = self.slot("int")
        self._loop(ind, sp, [f"if {n} <= 0: L = @EXIT; continue", f"{n} -= 1"], s.body,
                   [f"{n} = {_bounded_count(self.eg.gen(s.count), sp)}"], s.count)

    def s_For(self, s: A.For, ind: int) -> None:
        sp = self.cg.span(s.span)
        lst, ix = self.slot("list:" + type_code(T.elem_type(s.source.ty or T.ANY))), self.slot("int")
        var = self.eg.local(self.for_sym(s))
        self._loop(ind, sp, [f"if {ix} >= len({lst}): L = @EXIT; continue", f"{var} = {lst}[{ix}]; {ix} += 1"],
                   s.body, [f"{lst} = tuple({_bounded_range(self.eg.seq(s.source), sp)}); {ix} = 0"], s.source)

    def s_Turn(self, s: A.Turn, ind: int) -> None:
        sp = self.cg.span(s.span)
        who = self.eg.gen(s.player)
        if who != "G[0]":
            self.line(ind, f"G[0] = {who}", sp)
        self.line(ind, f"if G[0] is None: raise _RuleFailure('a turn for nobody: the player is none', {sp})", sp)
        self.line(ind, f"st.ev.append(({_ev('TURN')}, {sp}, G[0]))", sp)
        self.check_after(ind, sp, var=self.cg.p.vars[0])
        self.stmts(s.body, ind)

    def s_Activate(self, s: A.Activate, ind: int) -> None:
        sp = self.cg.span(s.span)
        eff = next(e for e in self.cg.p.effects if e.name == s.effect)
        args = [self.eg.gen(a) for a in s.args]
        by = self.eg.gen(s.by) if s.by is not None else "G[0]"
        src = self.eg.gen(s.source) if s.source is not None else "None"
        if any(_impure(a) for a in s.args) or (s.by is not None and _impure(s.by)):
            tup = "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
            self.line(ind, f"_i = _push(st, {eff.index}, {by}, {src}, {tup}, {sp})", sp)
        else:   # the item built in place: [kind, controller, source, times, negated, fields…]
            cells = ["None"] * len(self.cg.p.item_fields)      # a field of other effects: Game.item_blank
            for _, (i, t) in self.cg.p.item_fields.items():
                if t.kind == "bool":
                    cells[i] = "False"
            for (name, _), a in zip(eff.params, args, strict=True):
                cells[self.cg.p.item_fields[name][0]] = a
            self.line(ind, f"_i = st.nitem; st.nitem = _i + 1; _c = {src}", sp)
            self.line(ind, f"_its = st.items; _its[_i] = [{eff.index}, {by}, _c, 1, False"
                           f"{''.join(', ' + c for c in cells)}]; st.stack.append(_i)", sp)
            mask = "ALL" if src == "None" else ("(ALL if _c is None else ZM[LOC[_c]] | st.vis[_c])"
                                                if not self.cg.p.seq_count else
                                                "(ALL if _c is None else _card_mask(st, _c))")
            self.line(ind, f"st.ev.append(({_ev('PUSH')}, {sp}, _i, {eff.index}, _its[_i][1], _c, {mask}))", sp)
        self.line(ind, "_nf = [0, 0, _i, 0, (), 0, None, None]", sp)
        nxt = self.new_block()
        self.direct_call(ind, "P0", nxt, sp)
        self.cur = nxt

    def direct_call(self, ind: int, fn: str, nxt: int, sp: int) -> None:
        """Run the callee at once; only if it waits do we hand control back to the driver."""
        self.line(ind, f"st.frames.append(_nf); fr[1] = {nxt}", sp)
        self.line(ind, f"_r = {fn}(st, _nf)", sp)
        self.line(ind, "if _r: return _r", sp)
        self.line(ind, f"st.frames.pop(); L = {nxt}; continue", sp)

    def s_Choose(self, s: A.Choose, ind: int) -> None:
        sp = self.cg.span(s.span)
        site = len(self.cg.sites)
        infos: list[OptInfo] = []
        self.cg.sites.append(SiteInfo("choose", sp, infos, hidden=s.hidden))
        self.decision_fns(site, s.options, "fr", dict(self.eg.names), infos, s.label)
        self.line(ind, f"_o = E{site}(st, fr)", sp)
        self.line(ind, "if not _o:", sp)
        after_other = None
        if s.otherwise is not None:
            if self.any_susp(s.otherwise):
                ob = self.new_block()
                after_other = self.new_block()
                self.jump(ind + 1, ob, sp)
                start = self.cur
                self.cur = ob
                self.stmts(s.otherwise, 0)
                self.jump(0, after_other, sp)
                self.cur = start
            else:
                after_other = self.new_block()
                self.body(s.otherwise, ind + 1)
                self.jump(ind + 1, after_other, sp)
        else:
            self.line(ind + 1, f"raise _RuleFailure('no option of this decision is legal and it has no "
                               f"otherwise', {sp})", sp)
        resume = self.new_block()
        who = self.eg.gen(s.player)
        if not cheap(who):
            self.line(ind, f"_pp = {who}", sp)
            who = "_pp"
        self.line(ind, f"if {who} is None: raise _RuleFailure('a decision for nobody: the player is none', {sp})", sp)
        pend = self.cg.const(f"PEND{site}", tuple((site, (p,)) for p in range(self.cg.p.players)))
        self.line(ind, "if AUTO is None:", sp)
        self.line(ind + 1, f"st.pend = {pend}[{who}]; st.opts = _o; fr[1] = {resume}; return 1", sp)
        for text in auto_choice(site, who, "_o", infos, self.cg.p.limit, True, not self.cg.p.seq_count):
            self.line(ind, text, sp)
        self.line(ind, f"L = {resume}; continue", sp)
        self.cur = resume
        self.hush += s.hidden
        self.knower.append(who if who != "_pp" else None)     # `_pp` does not outlive the wait
        join = self.dispatch(s.options, infos, "st.choice", sp, None)
        self.knower.pop()
        self.hush -= s.hidden
        if after_other is not None:
            self.jump(0, join, sp)
            self.cur = after_other
            self.jump(0, join, sp)
        self.cur = join

    def decision_fns(self, site: int, options: list[A.Option], args: str, m: dict[int, str],
                     infos: list[OptInfo], prompt: A.Text | None) -> None:
        cg = self.cg
        saved = cg.out
        cg.out = []
        cg.gen_enum(site, options, [self.cur_proc] * len(options), args, [m] * len(options), infos,
                    self.frame_slot)
        if prompt is not None:
            sid = cg.sites[site].span
            cg.emit(0, f"def PR{site}(st, {args}):", sid)
            cg.emit(1, _ALIASES, sid)
            eg = ExprGen(cg, m, "frame")
            cg.emit(1, f"return {eg.text(prompt)}", sid)
            cg.sites[site].prompt = f"PR{site}"
        generated = cg.out
        cg.out = saved
        cg.out.extend(generated)

    def dispatch(self, options: list[A.Option], infos: list[OptInfo], choice: str, sp: int,
                 loop_head: int | None) -> int:
        """Bind the chosen option's values and run its body; returns the join block."""
        join = self.new_block() if loop_head is None else loop_head
        start = self.cur
        self.line(0, f"_c = {choice}; _k = _c[0]", sp)
        bodies: list[tuple[int, A.Option]] = []
        for k, (o, info) in enumerate(zip(options, infos, strict=True)):
            self.cur = start
            osp = self.cg.span(o.span)
            self.line(0, f"{'if' if k == 0 else 'elif'} _k == {k}:", osp)
            for i, slot in enumerate(info.binder_slots):
                self.line(1, f"fr[{slot}] = _c[{i + 1}]", osp)
            if self.any_susp(o.body):
                b = self.new_block()
                bodies.append((b, o))
                self.cur = start
                self.jump(1, b, osp)
            else:
                self.cur = start
                self.body(o.body, 1)
                self.jump(1, join, osp)
        self.cur = start
        self.jump(0, join, sp)
        for b, o in bodies:
            self.cur = b
            self.stmts(o.body, 0)
            self.jump(0, join, sp)
        return join

    def s_Simultaneous(self, s: A.Simultaneous, ind: int) -> None:
        sp = self.cg.span(s.span)
        site = len(self.cg.sites)
        infos: list[OptInfo] = []
        self.cg.sites.append(SiteInfo("simul", sp, infos))
        var_sym = next(x for x in self.cur_proc.locals if x.name == s.var and x.span == s.span)
        self.decision_fns(site, s.options, "fr, pl", {**self.eg.names, id(var_sym): "pl"}, infos, s.label)
        ps, ch, ix = self.slot("list:player"), self.slot(f"choices:{site}"), self.slot("int")
        # a bit per zone slot that secret cards left in the blocks so far, and in the blocks before
        # this chooser's: they forget those zones once their own block has run (_unpeek_simul)
        zs, zy = self.slot("int"), self.slot("int")
        # a player named twice decides once; none (a side's missing member) is left out, as `win` leaves it
        self.line(ind, f"{ps} = tuple(q for q in dict.fromkeys({self.eg.seq(s.players)}) if q is not None)", sp)
        self.line(ind, f"_so = [E{site}(st, fr, _p) for _p in {ps}]", sp)
        self.line(ind, "if not all(_so):", sp)
        self.line(ind + 1, f"raise _RuleFailure('P' + str({ps}[[bool(o) for o in _so].index(False)]) + "
                           f"' has no legal option in this simultaneous decision', {sp})", sp)
        resume = self.new_block()
        head = self.new_block()
        exit_ = self.new_block()
        self.line(ind, f"if not {ps}: L = {exit_}; continue", sp)     # nobody to ask: nothing to decide
        # the choices slot is none while the decision waits: a bot's world redraws the others' choices
        # only while the blocks run (not a former round's, of other players)
        self.line(ind, f"st.pend = ({site}, {ps}); st.sopts = _so; st.schosen = [None] * len({ps}); "
                       f"{ch} = None; fr[1] = {resume}; return 1", sp)
        self.cur = resume
        self.line(0, f"{ch} = st.choice; {ix} = 0; {zs} = {zy} = 0", sp)
        self.jump(0, head, sp)
        self.cur = head
        self.line(0, f"if {zy}: _forget_after(st, {ps}[{ix} - 1], {zy})", sp)
        self.line(0, f"if {ix} >= len({ps}): L = {exit_}; continue", sp)
        self.line(0, f"{self.eg.local(var_sym)} = {ps}[{ix}]; _cc = {ch}[{ix}]; {ix} += 1; {zy} = {zs}", sp)
        self.hush += 1
        self.knower.append((self.eg.local(var_sym), ps, ix, zs, zy, len(self.loops)))
        self.dispatch(s.options, infos, "_cc", sp, head)
        self.knower.pop()
        self.hush -= 1
        self.cur = exit_


def _key_never_none(e: A.Expr) -> bool:
    """Whether a sort key surely holds no none, inside a tuple either: a literal, arithmetic (which
    fails on none), a count. Such a key needs no `_none_last`."""
    if isinstance(e, A.Lit):
        return e.kind != "none"
    if isinstance(e, A.Binary):
        return e.op in ("+", "-", "*", "/", "//", "%")
    if isinstance(e, A.Unary):
        return e.op == "-"
    if isinstance(e, A.TupleLit):
        return all(_key_never_none(x) for x in e.items)
    return isinstance(e, A.Quantifier) and e.kind == "count"


def _top_op(code: str) -> str | None:
    """The operator at the top of a generated expression: a left operand whose own operator was
    folded away (`true and (a or b)` is `(a or b)`) must keep its brackets in `… and c`."""
    try:
        body = pyast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(body, pyast.BoolOp):
        return "and" if isinstance(body.op, pyast.And) else "or"
    if isinstance(body, pyast.BinOp):
        return {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*"}.get(type(body.op))
    return None


def _bounded_count(code: str, sp: int) -> str:
    """A repeat's count, checked at run time (``_many``) unless it is a small constant."""
    return code if code.isdigit() and int(code) <= runtime.LOOP_MAX else f"_many({code}, {sp})"


def _bounded_range(code: str, sp: int) -> str:
    """What a for goes over: a range is checked at run time (``_many``); zones and lists are as long
    as they are already."""
    inner = code[6:-1] if code.startswith("tuple(") else code
    if inner.startswith("range(") and inner.endswith(")") and _balanced(inner[6:-1]):
        return code.replace(inner, f"_many({inner}, {sp})", 1)
    return code


# ------------------------------------------------------------------ quiet playouts
def quiet_source(source: str) -> str:
    """The generated module without its events (``st.ev.append(…)`` becomes ``pass``, so every
    line keeps its number and rule span): for playouts whose log nobody reads (Game.playout quiet)."""
    key = "st.ev.append("
    out: list[str] = []
    i = 0
    while (j := source.find(key, i)) >= 0:
        out.append(source[i:j])
        k = j + len(key)
        depth = 1
        while depth:
            ch = source[k]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch in "'\"":           # a string: skip to its end (escapes included)
                k += 1
                while source[k] != ch:
                    k += 2 if source[k] == "\\" else 1
            k += 1
        calls = {m.group(1) for m in _CALLED.finditer(source, j + len(key), k - 1)}
        out.append("pass" if calls <= _PURE_IN_EVENTS else source[j:k])   # a call that may draw: kept
        i = k
    out.append(source[i:])
    return "".join(out)


_CALLED = re.compile(r"([A-Za-z_][\w.]*)\s*\(")
# what an event's values may call and still be left out: nothing that changes the state or draws
_PURE_IN_EVENTS = {"if", "else", "and", "or", "not", "in", "tuple", "len", "min", "max", "_amask", "_next",
                   "_cell_card", "_active", "_top"}


def named_code(code: str, named: bool) -> str:
    """A frame slot's type code, marked "!" where it holds cards the rules name."""
    return code + "!" if named and code in ("card", "list:card") else code


def _top_up(dest: A.Expr) -> bool:
    """Whether a move's destination is, as written, a pile declared `top up` (`discards`,
    `discards[p]`): the card is moved face up, as everyone sees it land on top."""
    name = dest.obj if isinstance(dest, A.Index) else dest
    z = name.ref if isinstance(name, A.Name) else None
    return isinstance(z, ZoneSym) and z.decl is not None and z.decl.top_up


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


# ------------------------------------------------------------------ entry point
def compile_program(prog: Program) -> Compiled:
    comp = Compiler(prog).run()
    ns: dict[str, Any] = {name: getattr(runtime, name) for name in dir(runtime) if name.startswith("_")
                          and not name.startswith("__")}
    ns["ALL"] = runtime.ALL
    ns["_RuleFailure"] = runtime.RuleFailure
    ns["_Goto"] = runtime.Goto
    ns["_combinations"] = runtime._combinations
    ns.update(comp.namespace)
    sizes = comp.frame_sizes

    def _frame(fid: int, args: tuple[Any, ...]) -> list[Any]:
        fr: list[Any] = [fid, 0, *args]
        fr.extend([None] * (sizes[fid] - len(fr)))
        return fr

    ns["_frame"] = _frame
    ns["ZM"] = None   # set by Game: the zone visibility masks
    ns["NSTATIC"] = None   # set by Game: how many zones are fixed (ZM covers them)
    ns["AUTO"] = None   # Game.playout: a random generator; decisions are then taken inside the rules
    code = compile(comp.source, f"<fuda:{prog.name}>", "exec")
    exec(code, ns)
    comp.namespace = ns
    procs: list[Any] = [None] * len(sizes)
    for fid in range(len(sizes)):
        procs[fid] = ns[f"P{fid}"]
    comp.procs = procs
    for site in comp.sites:
        site.enum = ns[site.enum]
        site.labels = ns[site.labels]
        if site.weights is not None:
            site.weights = ns[site.weights]
        if site.reasons is not None:
            site.reasons = ns[site.reasons]
        if site.prompt is not None:
            site.prompt = ns[site.prompt]
    for e in comp.effects:
        e.frame_size = sizes[e.proc]
    return comp


__all__ = ["Compiled", "compile_program", "quiet_source", "type_code", "named_code", "ITEM_FIELDS", "EffectSym", "WindowSym"]
