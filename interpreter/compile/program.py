"""The whole ruleset → one Python module (``Compiler``): the setup, phases, rules, functions,
orderings, state-based checks, the effect stack's procedure with its windows unrolled, and the
decision sites' option enumerators, labels and weights.
"""

from __future__ import annotations

import ast as pyast
import re
from typing import Any

from .. import ast as A
from .. import types as T
from ..check import CheckSym, FnSym, OrderingSym, Proc, Program, WindowSym, ZoneSym
from ..distinct_values import never_repeats
from ..errors import Span
from ..named import named
from .body import BodyGen, _find_local, auto_choice, secret_rules
from .check_deps import _check_deps, _check_reads, _grows_with
from .compiled import Compiled, EffectRT, OptInfo, SiteInfo, WindowRT, _ev, _ident, named_code, type_code
from .expr import ExprGen, _never_none
from .hoist import Hoister, cheap
from .source import _ALIASES, _TOP_OF_SLOT, _Block, _duplicate_tails, _prune_prologues, _thread_jumps


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


class Compiler:
    def __init__(self, prog: Program) -> None:
        self.p = prog
        self.out: list[tuple[int, str, int]] = []       # (indent, text, span id)
        self.spans: list[Span] = []
        self.fresh = 0                  # names of inlined functions' comprehension variables (k1, k2…)
        self.label_fns: dict[str, bool] = {}    # function → whether it reads `label(x)` (reads_label)
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
        self.secret_rules = secret_rules(prog.procs)     # their no-op moves are logged (body.py)
        self.text_fns: list[str] = []          # formatters of logged messages (ExprGen.text_later)
        self.aggregates: dict[str, tuple[str, int]] = {}   # helper body → its name, span (ExprGen.aggregate)
        self.fn_sites: list[tuple[str, Span, str | None, str | None]] = []  # see Compiled.fn_sites
        self.fn_args: dict[tuple[str, Span], list[tuple[str, str, Span]]] = {}     # see Compiled.fn_args

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
            if p.evaluate.fn in p.fns:
                self.emit(0, f"EVAL = F_{_ident(p.evaluate.fn)}", self.span(p.evaluate.span))
            else:           # a per-player variable of numbers (`evaluate score in 0..100`)
                slot = next(v.slot for v in p.vars if v.name == p.evaluate.fn and v.scope == "player")
                self.emit(0, f"EVAL = lambda st, p: st.g[{slot} + p]", self.span(p.evaluate.span))
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
                        self.fn_sites, self.frame_labels, self.fn_args)

    # -------------------------------------------------------------- functions and orderings
    def reads_label(self, node: FnSym | A.Node) -> bool:
        """Whether an expression, or a function's body, shows an enum member's label (`label(x)`),
        also through the functions it calls: in a text it reads in the text's language. A function
        whose result is no text (a count of the cards whose label reads "Noble") shows none: it
        gives the same value in both halves."""
        if isinstance(node, FnSym):
            if node.name not in self.label_fns:
                self.label_fns[node.name] = False       # a recursive function: decided by its other parts
                elem = node.ret.elem if node.ret.kind == "list" else None
                shows = node.ret.kind in ("text", "any") or elem is not None and elem.kind == "text"
                self.label_fns[node.name] = node.decl is not None and shows and self.reads_label(node.decl)
            return self.label_fns[node.name]
        return any(isinstance(n, A.Call) and (n.func == "label" or isinstance(n.ref, FnSym) and self.reads_label(n.ref))
                   for n in A.walk(node))

    def gen_fn(self, f: FnSym, lang: int = 0) -> None:
        """A function's Python; one that reads `label(x)` a second time, ``F_NAME__ja``, for the
        Japanese half of the texts that call it."""
        assert f.decl
        if lang == 0 and self.reads_label(f):
            self.gen_fn(f, 1)
        args = ", ".join(f"l{x.slot}" for x in f.params)
        body = f.decl.body
        steps = isinstance(body, A.LetIn)
        # a function of named steps is its declaration, each step and its result a line of their own
        # (`fuda bench --profile` files the work of a line under it); a one-line function is its body
        sid = self.span(f.decl.span if steps else body.span)
        self.emit(0, f"def F_{_ident(f.name)}{'__ja' if lang else ''}(st{', ' if args else ''}{args}):", sid)
        self.emit(1, _ALIASES, sid)
        eg = ExprGen(self, {}, "plain", fn=f.name)
        eg.label_lang = lang
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
            self.emit(4, "if AUTO is None or st.ndec >= STOP:", sid)
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
        domain_lines: list[tuple[int, str, int]] = []
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
            btypes = [_find_local(proc, b.var, b.span).type for b in o.binders]
            sources = _binder_sources(eg, o.binders, btypes)
            where = eg.gen(o.where) if o.where is not None else None
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
            plain = Hoister(variant, frozen=True)
            plain.cache = {c: n for c, n in hoist.cache.items() if f"{n} = {c}" in hoist.lines}
            eg_plain = ExprGen(self, m, mode, plain)
            slow = eg_plain.gen(o.where) if o.where is not None else None
            # where the cards' sources read hoisted attributes, they are read under the guard only
            slow_sources = _binder_sources(eg_plain, o.binders, btypes) if hoist.guards else sources
            fixed = {"G", "fr", "it", "pl"} | {ln.split(" = ", 1)[0] for ln in hoist.lines}
            # `where A and B` with A the same for every option (and unable to fail): tested once, and
            # no loop at all while it is false (a phase or flag that rules the option out)
            split, split_slow = _split(where, fixed, self.p.players, pyast.And), \
                _split(slow, fixed, self.p.players, pyast.And)
            if o.binders and split is not None and split_slow is not None and split[0] == split_slow[0]:
                self.emit(i0, f"if {split[0]}:", osid)
                i0, where, slow = i0 + 1, split[1], split_slow[1]
            base = i0
            # `where A or B` with A the same for every option (and unable to fail): tested once
            split, split_slow = _split(where, fixed, self.p.players, pyast.Or), \
                _split(slow, fixed, self.p.players, pyast.Or)
            if split is not None and split_slow is not None and split[0] == split_slow[0]:
                self.emit(i0, f"if {split[0]}:", osid)
                self.option_loops(i0 + 1, None, o, proc, slow_sources, tup, osid)
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
                self.option_loops(base + 1, slow, o, proc, slow_sources, tup, osid)
            else:
                self.option_loops(base, where, o, proc, sources, tup, osid)
            infos.append(OptInfo(o.name, osid,
                                 [type_code(_find_local(proc, b.var, b.span).type) for b in o.binders],
                                 [frame_slot(_find_local(proc, b.var, b.span)) for b in o.binders],
                                 [b.source.ty is not None and b.source.ty.kind == "zone" for b in o.binders],
                                 named_src=[named(b.source) for b in o.binders],
                                 body=tuple(x.span for x in o.body)))
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
            if o.reason is not None and o.where is not None and o.binders:
                domain_lines += self.domain_lines(k, o, proc, m, mode, btypes, osid)
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
        if domain_lines:
            self.option_fn(f"DM{site}", args, domain_lines, "None", sid)
            self.sites[site].domain = f"DM{site}"

    def domain_lines(self, k: int, o: A.Option, proc: Proc, m: dict[int, str], mode: str, btypes: list[T.T],
                     osid: int) -> list[tuple[int, str, int]]:
        """Option ``k``'s tuples with its `where` left out, for the domain function (SiteInfo.domain)."""
        eg = ExprGen(self, m, mode)
        lines = [(1, f"if o[0] == {k}:", osid), (2, "out = []", osid)]
        names = []
        for i, (b, ty) in enumerate(zip(o.binders, btypes, strict=True)):
            src = eg.iter_src(b.source)
            src = src if ty.kind == "card" or never_repeats(b.source) else f"_uniq({src})"
            name = f"b{_find_local(proc, b.var, b.span).slot}"
            names.append(name)
            lines.append((2 + i, f"for {name} in {src}:", osid))
        lines += [(2 + len(names), f"out.append(({k}, {', '.join(names)}))", osid), (2, "return out", osid)]
        return lines

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


def _binder_sources(gen: ExprGen, binders: list[Any], btypes: list[T.T]) -> list[str]:
    """What an option's binders range over. Each action once (`r in [c.rank for c in hand[p]]`); a
    card is one object, so a list of cards is taken as it is (a list naming a card twice is a
    ruleset's own doing)."""
    return [gen.iter_src(b.source) if ty.kind == "card" or never_repeats(b.source) else f"_uniq({gen.iter_src(b.source)})"
            for b, ty in zip(binders, btypes, strict=True)]


def _split(code: str | None, fixed: set[str], players: int, op: type[pyast.boolop]) -> tuple[str, str | None] | None:
    """Split generated Python ``a or b or c`` (``op`` Or) into the terms that read only ``fixed``
    names and cannot fail (comparisons of variables and constants) and the rest: (fixed terms, the
    rest). For ``a and b and c`` (``op`` And) only the leading such terms are taken, so that no term
    is tested where the rule itself would not have tested it; when every term is (`where mode ==
    one_card`, an option), the rest is None: nothing is left to test in the loops."""
    if code is None:
        return None
    terms: list[pyast.expr] = []

    def flatten(n: pyast.expr) -> None:
        if isinstance(n, pyast.BoolOp) and isinstance(n.op, op):
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
            return all(isinstance(o, pyast.Eq | pyast.NotEq | pyast.Is | pyast.IsNot) for o in n.ops) and \
                safe(n.left) and all(safe(c) for c in n.comparators)
        if isinstance(n, pyast.BoolOp):
            return all(safe(v) for v in n.values)
        if isinstance(n, pyast.UnaryOp) and isinstance(n.op, pyast.Not):
            return safe(n.operand)
        return False

    flatten(pyast.parse(code, mode="eval").body)
    if op is pyast.And:
        n = next((k for k, t in enumerate(terms) if not safe(t)), len(terms))
        fixed_terms, rest = terms[:n], terms[n:]
    else:
        fixed_terms, rest = [t for t in terms if safe(t)], [t for t in terms if not safe(t)]
    word = " and " if op is pyast.And else " or "
    if fixed_terms and not rest and op is pyast.And:
        return word.join(f"({pyast.unparse(t)})" for t in fixed_terms), None
    if not fixed_terms or not rest:
        return None
    return (word.join(f"({pyast.unparse(t)})" for t in fixed_terms),
            "(" + word.join(f"({pyast.unparse(t)})" for t in rest) + ")")


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
