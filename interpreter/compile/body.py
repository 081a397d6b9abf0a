"""Statements → the lines of a procedure (``BodyGen``): straight code for rules that cannot wait, and
labelled blocks that suspend at a decision and resume from their frame for those that can. Moves,
decisions (and the inline random pick of a playout, ``auto_choice``), loops, calls and effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ast as A
from .. import types as T
from ..check import LocalSym, Proc, RuleSym, VarSym, ZoneSym
from ..engine import runtime
from ..errors import Span
from ..secret_places import secret
from .compiled import OptInfo, SiteInfo, _ev, record_shape, type_code
from .expr import _CONST_TUPLE, _MAY_OVERFLOW, ExprGen, _balanced, _impure, _is_number, _plain_number, _size
from .hoist import cheap
from .source import _ALIASES, _Block

if TYPE_CHECKING:
    from .program import Compiler


# rounds in a row without a decision after which a loop that can wait for one is stopped (E601)
SPIN = 100_000


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


def rules_run(roots: object, leave_out: object = ()) -> dict[int, Proc]:
    """The rules ``roots`` calls, at any depth (their procs by id); the calls written within
    ``leave_out`` (part of ``roots``) are not counted."""
    skip = {id(n) for n in A.walk(leave_out)}
    found: dict[int, Proc] = {}
    todo: list[object] = [roots]
    while todo:
        for n in A.walk(todo.pop()):
            r = n.ref if isinstance(n, A.Call) and id(n) not in skip else None
            if isinstance(r, RuleSym) and r.proc is not None and id(r.proc) not in found:
                found[id(r.proc)] = r.proc
                todo.append(r.proc.body)
    return found


def secret_rules(procs: list[Proc]) -> set[int]:
    """The rules (ids of their procs) called, at any depth, from what a secret decides: a hidden or
    simultaneous decision's options, the branches or body of an `if` or loop on a secret pick. A move
    there logs even a card that stays where it lay (``keep``): whether it stayed is the secret."""
    roots: list[object] = []
    for proc in procs:
        for n in A.walk(proc.body):
            if isinstance(n, A.Choose) and n.hidden or isinstance(n, A.Simultaneous):
                roots.append(n.options)
            elif isinstance(n, A.If) and any(secret(c) for c, _ in n.branches):
                roots.append(n)
            elif isinstance(n, A.While) and secret(n.cond) or isinstance(n, A.Repeat) and secret(n.count) \
                    or isinstance(n, A.For) and secret(n.source):
                roots.append(n.body)
    return set(rules_run(roots))


def _may_leave(proc: Proc, seen: set[int] | None = None) -> bool:
    """Whether ``proc`` (or a rule it calls) may leave the statement that called it other than by
    returning: a `goto`, or an end of the game (`end game`, `win`, `lose`)."""
    seen = seen if seen is not None else set()
    seen.add(id(proc))
    if any(isinstance(n, A.Goto | A.End | A.Win | A.Lose) for n in A.walk(proc.body)):
        return True
    return any(r.proc is not None and id(r.proc) not in seen and _may_leave(r.proc, seen) for r, _, _ in proc.calls)


def _find_local(proc: Proc, name: str, span: Span) -> LocalSym:
    for loc in proc.locals:
        if loc.name == name and loc.span == span:
            return loc
    raise KeyError(name)


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

    def unpeek(self, cards: str, dest: str | None = None, face: int = 0) -> str:
        """The call that makes peekers forget the zones of ``cards``, picked in secret, before they
        move — all but the player who chose in secret here (they keep their peeks), and, for a move
        to ``dest``, those who see the cards land."""
        who = self.knower[-1] if self.knower else None
        if isinstance(who, tuple):
            pl, ps, ix, zs, _, _ = who
            return f"{zs} = _unpeek_simul(st, {cards}, {pl}, {ps}[{ix}:], {zs})"
        if dest is not None:
            return f"_unpeek(st, {cards}, {who}, {dest}, {face})"
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
            self.leaving_call(s, ind)
            if self.suspends(s):
                getattr(self, "s_" + type(s).__name__)(s, ind)
            else:
                self.plain(s, ind)

    def leaving_call(self, s: A.Stmt, ind: int) -> None:
        """In a simultaneous decision's block, a call of a rule (not written in place) that may `goto`
        or end the game: the choosers after this one forget now what they would forget after their
        blocks (leave_simultaneous), before the rule may leave the decision — on the safe side, also
        when it returns and their blocks run."""
        call = s.expr if isinstance(s, A.ExprStmt) else s.value if isinstance(s, A.Let | A.Assign) else None
        if not (isinstance(call, A.Call) and isinstance(call.ref, RuleSym) and call.ref.proc is not None
                and any(isinstance(k, tuple) for k in self.knower) and _may_leave(call.ref.proc)):
            return
        if not (self.suspends(s) and self.can_inline(call.ref.proc)):    # written in place: its goto says so
            self.leave_simultaneous(ind, self.cg.span(s.span))

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
            if not self.inlined:        # out of the rule, and of a simultaneous decision it is in
                self.leave_simultaneous(ind, sp)
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
            packets = ", True" if s.packets else ""
            self.line(ind, f"_deal(st, {count}, {eg.gen(s.source)}, {z.base}, {players}, {sp}{packets})", sp)
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
            # where: True at the front, False at the back, (after?, zone) beside a zone of the sequence
            where = repr(s.side == "front") if s.beside is None else f"({s.side == 'after'}, {eg.gen(s.beside)})"
            if s.zone is not None:
                self.line(ind, f"_insert_zone(st, {self.seq_id(s.seq)}, {eg.gen(s.zone)}, {where}, {sp})", sp)
            else:
                assert s.name is not None
                sym = _find_local(self.cur_proc, s.name, s.span)
                self.line(ind, f"{eg.local(sym)} = _insert(st, {self.seq_id(s.seq)}, {where}, {sp})", sp)
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
        # under a secret's control a card that stays where it lay is logged as moved all the same: the
        # log's silence would tell which option, card or depth was chosen (secret_rules)
        keep = bool(self.hush or secret(s.cards) or s.at is not None and secret(s.at)
                    or id(self.cur_proc) in self.cg.secret_rules)
        if secret(s.cards) or self.hush:    # cards picked in secret: peeks at their zones are lost (secret_places.py)
            one = ct.kind in ("card", "none")
            self.line(ind, f"_c = {eg.gen(s.cards) if one else eg.seq(s.cards)}; _d = {dest}; "
                      f"{self.unpeek('(_c,)' if one else '_c', '_d', face)}", sp)
            dest = "_d"
            if s.at is not None:
                self.line(ind, f"_mvat(st, {'(_c,)' if one else '_c'}, {dest}, {eg.gen(s.at)}, {face}, {sp}, True)", sp)
            elif one:
                self.line(ind, f"_mv(st, _c, {dest}, {s.under}, {face}, {sp}, True)", sp)
            else:
                self.line(ind, f"_mvall(st, _c, {dest}, {s.under}, {face}, {sp}, True)", sp)
            self.check_after(ind, sp, zones=True)
            return
        if s.at is not None:
            self.line(ind, f"_mvat(st, {eg.seq(s.cards) if ct.kind not in ('card', 'none') else '(' + eg.gen(s.cards) + ',)'}, "
                           f"{dest}, {eg.gen(s.at)}, {face}, {sp}, {keep})", sp)
            self.check_after(ind, sp, zones=True)
            return
        if keep:
            if ct.kind in ("card", "none"):
                self.line(ind, f"_mv(st, {eg.gen(s.cards)}, {dest}, {s.under}, {face}, {sp}, True)", sp)
            else:
                self.line(ind, f"_mvall(st, {eg.seq(s.cards)}, {dest}, {s.under}, {face}, {sp}, True)", sp)
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
            # a card everyone sees moved where it already lies changes no place: no move to log (_stay)
            self.line(ind, f"if _s == _d and Z[_d][{0 if s.under else -1}] == {card} and (ZM[_d] | st.vis[{card}]) == ALL: "
                           f"_stay(st, {card}, {face}, {sp})", sp)
            self.line(ind, "else:", sp)
            self.move_lines(ind + 1, card, "Z[_d]", s.under, face, sp)
            self.check_after(ind, sp, zones=True, slots="_s, _d")
            return
        if ct.kind not in ("card", "none") and not self.cg.p.seq_count and not s.under:
            # a list of cards to a zone: the same lines in a loop
            src = eg.seq(s.cards)
            if not src.startswith("tuple("):
                src = f"tuple({src})"      # the cards may come from a zone the moves change
            track = self.checks_zones()
            self.line(ind, f"_d = {dest}; _t = Z[_d]" + ("; _s1 = -2" if track else ""), sp)
            # the top cards of the zone itself, in their order (`move pile to pile`): no place changes
            self.line(ind, f"_m = {src}", sp)
            self.line(ind, f"if _m and _t and _m[-1] == _t[-1] and _stays(st, _m, _d, False, {face}, {sp}): "
                           + ("_s1 = _d" if track else "pass"), sp)
            self.line(ind, "else:", sp)
            self.line(ind + 1, "for _c in _m:", sp)
            self.line(ind + 2, f"if _c is None: _no_card({sp})", sp)
            self.line(ind + 2, "_s = LOC[_c]", sp)
            if track:     # one source slot (a whole zone, a filter of one): the checks' fast pass
                self.line(ind + 2, "if _s != _s1: _s1 = _s if _s1 == -2 else -1", sp)
            self.move_lines(ind + 2, "_c", "_t", False, face, sp)
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
        self.line(ind, f"_reveal(st, {w}, {mask}, {sp}{', True' if s.to is not None else ''})", sp)
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

    def action_rules(self, infos: list[OptInfo], options: list[A.Option]) -> None:
        """Which rules log an action's own events (called only from its option's block) and which log
        after it (called only by the phase or rule posing the decision, outside its blocks, or by
        those that call that rule: the phase a rule posing it returns to): observe.py names an
        action's card to whoever saw it where the action put it. A rule called from both, or the
        posing one itself, is told apart by neither."""
        proc = self.cur_proc
        callers = [q for q in self.cg.p.procs if q is not proc and _calls_any(q, [proc])]
        after = rules_run([proc.body, *(q.body for q in callers)], leave_out=options)
        after.pop(id(proc), None)
        for info, o in zip(infos, options, strict=True):
            own = rules_run(o.body)
            own.pop(id(proc), None)
            info.body += tuple(r.span for k, r in own.items() if k not in after)
            info.after = tuple(r.span for k, r in after.items() if k not in own) \
                + tuple(q.span for q in callers if id(q) not in own)

    def s_Choose(self, s: A.Choose, ind: int) -> None:
        sp = self.cg.span(s.span)
        site = len(self.cg.sites)
        infos: list[OptInfo] = []
        self.cg.sites.append(SiteInfo("choose", sp, infos, hidden=s.hidden, scope=self.cur_proc.span))
        self.decision_fns(site, s.options, "fr", dict(self.eg.names), infos, s.label)
        self.action_rules(infos, s.options)
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
            names = ", ".join(o.name for o in s.options)
            # whose: as players call the seat, and its id as scenarios write it (South (P1))
            self.line(ind + 1, f"_pp = {self.eg.gen(s.player)}; raise _RuleFailure('no option of this decision of ' "
                               f"+ st.game.seat(_pp) + ('' if _pp is None or not st.game.prog.seat_names "
                               f"else ' (P' + str(_pp) + ')') + "
                               f"' is legal ({names}: each one\\'s where is false, or it has no values to offer) "
                               f"and it has no otherwise', {sp})", sp)
        resume = self.new_block()
        who = self.eg.gen(s.player)
        if not cheap(who):
            self.line(ind, f"_pp = {who}", sp)
            who = "_pp"
        self.line(ind, f"if {who} is None: raise _RuleFailure('a decision for nobody: the player is none', {sp})", sp)
        pend = self.cg.const(f"PEND{site}", tuple((site, (p,)) for p in range(self.cg.p.players)))
        self.line(ind, "if AUTO is None or st.ndec >= STOP:", sp)
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
        self.cg.sites.append(SiteInfo("simul", sp, infos, scope=self.cur_proc.span))
        var_sym = next(x for x in self.cur_proc.locals if x.name == s.var and x.span == s.span)
        self.decision_fns(site, s.options, "fr, pl", {**self.eg.names, id(var_sym): "pl"}, infos, s.label)
        self.action_rules(infos, s.options)
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


def _top_up(dest: A.Expr) -> bool:
    """Whether a move's destination is, as written, a pile declared `top up` (`discards`,
    `discards[p]`): the card is moved face up, as everyone sees it land on top."""
    name = dest.obj if isinstance(dest, A.Index) else dest
    z = name.ref if isinstance(name, A.Name) else None
    return isinstance(z, ZoneSym) and z.decl is not None and z.decl.top_up
