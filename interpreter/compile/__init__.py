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

The stages, one module each: ``program`` (the module as a whole), ``body`` (statements),
``expr`` (expressions), ``hoist`` (work taken out of option loops), ``check_deps`` (which checks a
move can affect), ``source`` (passes over the generated text), ``compiled`` (what the engine gets).
"""

from __future__ import annotations

from typing import Any

from ..check import Program
from ..engine import runtime
from .compiled import Compiled, named_code, type_code
from .program import Compiler
from .source import quiet_source


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
    ns["STOP"] = runtime.NEVER  # Game.playout cut short: the decision count at which the rules wait again
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
        if site.domain is not None:
            site.domain = ns[site.domain]
        if site.prompt is not None:
            site.prompt = ns[site.prompt]
    for e in comp.effects:
        e.frame_size = sizes[e.proc]
    return comp


__all__ = ["Compiled", "compile_program", "named_code", "quiet_source", "type_code"]
