"""``fuda bench --profile``: where a ruleset's random games spend their time, by the ruleset's own
constructs — its rules, functions, decisions and checks — so a designer can see which part of the
text is expensive without reading the generated code.

cProfile times every function of the compiled module; each generated function begins at a line
whose span is the construct it was made from (the compiler keeps a span for every generated line),
so the profile is read back as places in the .fuda file. Time inside the engine's helpers (moving
cards, shuffling, logging) is grouped by helper.
"""

from __future__ import annotations

import cProfile
import pstats
import random
from pathlib import Path
from typing import Any

from .bench import paused_gc

# what the generated functions are, by their name's prefix (compile/program.py)
_KINDS = (("PR", "prompt"), ("CK_", "check"), ("CB_", "check"), ("CHECKS", "checks"), ("OB_", "ordering"),
          ("O_", "ordering"), ("F_", "function"), ("E", "options of a decision"), ("LB", "option labels"),
          ("RW", "rollout weights"), ("RS", "reasons"), ("R", ""), ("P", ""), ("AG", "count or sum"),
          ("T", "text"), ("SHOW", "show"), ("<", "a list or test built from"))


def profile(ruleset: str, options: dict[str, Any], games: int = 200, seed: int = 0,
            top: int = 15) -> dict[str, Any]:
    """Profile ``games`` quiet random games (as `fuda simulate` and bots' rollouts play them)."""
    from ..api import load

    game = load(ruleset, options)
    rnd = random.Random(seed).random
    for i in range(max(5, games // 20)):     # warm up: the quiet rules are compiled on first use
        game.playout(game.new_state(seed + i), rnd, quiet=True)
    prof = cProfile.Profile()
    with paused_gc():
        prof.enable()
        for i in range(games):
            game.playout(game.new_state(seed + i), rnd, quiet=True)
        prof.disable()
    stats: dict[Any, Any] = pstats.Stats(prof).stats        # type: ignore[attr-defined]
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values()) or 1.0
    gen = f"<fuda:{game.prog.name}>"
    rows: dict[str, dict[str, Any]] = {}
    for (file, line, name), (_cc, calls, tt, _ct, _callers) in stats.items():
        if file == gen:
            key, where = _construct(game, name, line)
        elif file.endswith(("runtime.py", "game.py", "observe.py", "state.py", "builtins.py")):
            key, where = f"engine: {name.lstrip('_')}", f"interpreter/engine/{Path(file).name}"
        elif file == "~":
            key, where = "Python built-ins (len, list.append, …)", ""
        else:
            key, where = "engine: other", ""
        row = rows.setdefault(key, {"what": key, "where": where, "calls": 0, "seconds": 0.0})
        row["calls"] += calls
        row["seconds"] += tt
    ranked = sorted(rows.values(), key=lambda r: -r["seconds"])
    for r in ranked:
        r["share"] = r["seconds"] / total
        r["us_per_game"] = r["seconds"] / games * 1e6
    return {"ruleset": game.name, "players": game.n, "games": games, "seconds": total,
            "rows": ranked[:top], "rest": sum(r["share"] for r in ranked[top:])}


def _construct(game: Any, name: str, line: int) -> tuple[str, str]:
    """A generated function as the ruleset construct it was made from, and where that stands."""
    kind = next((k for prefix, k in _KINDS if name.startswith(prefix)), "rules")
    comp = game.comp
    sid = comp.line_spans[line - 1] if 0 < line <= len(comp.line_spans) else -1
    if not 0 <= sid < len(comp.spans):
        special = {"P0": "the effect stack (activating, windows, resolving)",
                   "CHECKS": "state-based checks: choosing which to try, after each statement"}
        return special.get(name, f"{kind or 'rules'} ({name})"), ""
    sp = comp.spans[sid]
    text = game.prog.sources.get(sp.file, "").splitlines()
    src = text[sp.line - 1].strip() if 0 < sp.line <= len(text) else ""
    if len(src) > 60:
        src = src[:57] + "…"
    what = f"{kind}: {src}" if kind and src else src or f"{kind or 'rules'} ({name})"
    return what, f"{Path(sp.file).name}:{sp.line}"


def format_profile(r: dict[str, Any]) -> str:
    lines = [f"{r['ruleset']} ({r['players']} players): where {r['games']} quiet random games spend their time "
             f"({r['seconds'] / r['games'] * 1e3:.2f} ms a game under the profiler, which slows everything alike)",
             f"  {'share':>6}  {'µs/game':>8}  {'calls':>9}  where             what"]
    for row in r["rows"]:
        lines.append(f"  {row['share']:6.1%}  {row['us_per_game']:8.0f}  {row['calls']:9,d}  "
                     f"{row['where']:<17} {row['what']}")
    if r["rest"]:
        lines.append(f"  {r['rest']:6.1%}  (the rest)")
    lines.append("  Own time only: a rule's share leaves out the functions it calls, which have rows of their own.")
    return "\n".join(lines)
