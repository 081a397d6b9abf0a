"""``fuda bench``: how fast a ruleset runs on one core — random playouts, decisions, clones.

Random playouts drive the engine's fast path (raw options, no Action objects): what bots and
the balance lab spend their time on. Figures are the best of several rounds, since this
machine's timing is noisy; docs/benchmarks.md records them.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..words import n_players

SAMPLED = 400            # decisions of a game along which states are cloned to time a clone
SILENT_SECONDS = 10.0      # rounds expected to take longer are announced, and each round told


@contextmanager
def paused_gc() -> Iterator[None]:
    """Game states are plain data without reference cycles, so reference counting frees them; the
    cyclic collector only costs time while thousands of short-lived tuples are made. Paused here,
    in simulations and in bot rollouts."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _native_unavailable(game: Any, native: bool, note: Callable[[str], None] | None) -> str | None:
    """Why the rules in C cannot be timed (``None``: they can, built now if not cached)."""
    from ..compile.native import NativeError

    if not native:
        return "not asked for"
    try:
        game.use_native(note=note)
    except NativeError as e:
        return str(e)
    finally:
        game.use_native(False)
    return None


def bench(ruleset: str, options: dict[str, Any], games: int = 1000, rounds: int = 5, seed: int = 0,
          note: Callable[[str], None] | None = None, native: bool = True) -> dict[str, Any]:
    """``note``: told how long the rounds will take, and each round's figures, when that is more than
    a few seconds (a slow ruleset's default rounds take minutes), and before the rules are compiled
    to C. ``native``: also time the rules compiled to C (Game.use_native), in the same rounds."""
    from ..api import load

    game = load(ruleset, options)
    playout = game.playout
    unavailable = _native_unavailable(game, native, note)
    kinds = [(False, False), (False, True)] + ([(True, False), (True, True)] if unavailable is None else [])

    def playouts(n: int, base: int, quiet: bool = False, in_c: bool = False) -> tuple[float, int]:
        rnd = random.Random(base).random
        decisions = 0
        game.use_native(in_c)
        t = time.perf_counter()
        for i in range(n):
            decisions += playout(game.new_state(base + i), rnd, quiet=quiet)
        dt = time.perf_counter() - t
        game.use_native(False)
        return dt, decisions

    warm = max(10, games // 20)
    expected = sum(playouts(warm, seed, quiet, in_c)[0] for in_c, quiet in kinds) * games / warm * rounds
    if expected < SILENT_SECONDS:
        note = None
    if note is not None:
        note(f"{ruleset}: about {expected:.0f} s for {rounds} rounds of {games} games, with the log and quiet "
             "(-n and --rounds make it shorter)")
    best: dict[tuple[bool, bool], tuple[float, int]] = {}
    with paused_gc():
        for r in range(rounds):     # Python with the log, quiet (simulate, rollouts), then the same in C: interleaved
            took = []
            for kind in kinds:
                dt, dec = playouts(games, seed + r * games, kind[1], kind[0])
                took.append(dt)
                if kind not in best or dt < best[kind][0]:
                    best[kind] = (dt, dec)
            if note is not None:
                note(f"  round {r + 1}/{rounds}: " + ", ".join(
                    f"{games / t:,.0f} games/s {what}" for t, what in zip(
                        took, ("with the log", "quiet", "in C with the log", "in C quiet"), strict=False)))
    dt, dec = best[False, False]
    in_c = {"native_games_per_second": games / best[True, False][0] if unavailable is None else None,
            "native_quiet_games_per_second": games / best[True, True][0] if unavailable is None else None,
            "native_unavailable": unavailable}
    # clone and new-state cost, on states sampled along the first SAMPLED decisions of random games
    # (a game played to its decision limit would keep thousands of clones, each with its whole log)
    rng = random.Random(seed)
    sample = []
    for i in range(20):
        st = game.new_state(seed + i)
        k = 0
        while not st.over and k < SAMPLED:
            if k % 7 == 0:
                sample.append(st.clone())
            p = st.to_move()[0]
            legal = game.legal_actions(st, p)
            game.apply(st, p, legal[rng.randrange(len(legal))])
            k += 1
    reps = max(1, 20000 // max(1, len(sample)))
    t = time.perf_counter()
    for _ in range(reps):
        for s in sample:
            s.clone()
    clone_us = (time.perf_counter() - t) / (reps * len(sample)) * 1e6
    t = time.perf_counter()
    for i in range(200):
        game.new_state(i)
    new_us = (time.perf_counter() - t) / 200 * 1e6
    return {"ruleset": ruleset, "players": game.n, "options": options, "games": games, "rounds": rounds,
            "games_per_second": games / dt, "quiet_games_per_second": games / best[False, True][0], **in_c,
            "decisions_per_second": dec / dt, "decisions_per_game": dec / games,
            "clone_us": clone_us, "new_state_us": new_us}


def bench_bot(ruleset: str, options: dict[str, Any], bot: str, states: int = 8, seconds: float = 1.0,
              seed: int = 0, native: bool = True, note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Search speed of a bot: iterations per second, over positions sampled along random games.
    ``native``: each position searched again with the rules compiled to C (``simulate --native``)."""
    from ..api import load
    from ..bots.ismcts import DEFAULT_ITERATIONS, ISMCTS

    if bot.split(":")[0] != "ismcts":
        from ..errors import error

        raise error("E505", f"only ismcts has iterations to measure, not {bot!r}")
    game = load(ruleset, options)
    unavailable = _native_unavailable(game, native, note)
    rng = random.Random(seed)
    total_it = {False: 0, True: 0}
    total_s = {False: 0.0, True: 0.0}
    done = 0
    i = 0
    while done < states and i < states * 20:
        st = game.new_state(seed + i)
        i += 1
        for _ in range(rng.randrange(1, 30)):
            if st.over:
                break
            p = st.to_move()[0]
            st.apply(p, rng.choice(st.legal_actions(p)))
        if st.over:
            continue
        p = st.to_move()[0]
        legal = st.legal_actions(p)
        if len(legal) < 2:
            continue
        for in_c in (False, True) if unavailable is None else (False,):
            b = ISMCTS(seed + i, seconds=seconds)
            game.use_native(in_c)
            t = time.perf_counter()
            with paused_gc():
                b.choose(st, p, legal)
            total_s[in_c] += time.perf_counter() - t
            game.use_native(False)
            total_it[in_c] += b.last_iterations
        done += 1
    rate, rate_c = (total_it[k] / total_s[k] if total_s[k] else 0.0 for k in (False, True))
    rnd = random.Random(seed).random      # how long a random game is: what a rollout plays, at most
    lengths = [game.playout(game.new_state(seed + k), rnd, quiet=True) for k in range(20)]
    return {"ruleset": ruleset, "bot": bot, "players": game.n, "positions": done, "evaluates": game.eval_fn is not None,
            "iterations_per_second": rate, "seconds_per_move": seconds,
            "default_move_seconds": DEFAULT_ITERATIONS / rate if rate else None,
            "native_iterations_per_second": rate_c if unavailable is None else None,
            "native_default_move_seconds": DEFAULT_ITERATIONS / rate_c if unavailable is None and rate_c else None,
            "native_unavailable": unavailable,
            "decisions_per_game": sum(lengths) / len(lengths)}


def format_bench(r: dict[str, Any]) -> str:
    return (f"{r['ruleset']} ({n_players(r['players'])}{', ' + str(r['options']) if r['options'] else ''}), "
            f"one core, best of {r['rounds']} rounds of {r['games']} random games:\n"
            f"  random playouts   {_rate(r['games_per_second'])} games/s  (with the game log)\n"
            f"  quiet playouts    {_rate(r['quiet_games_per_second'])} games/s  (no log: simulate, bots' rollouts)\n"
            + _native_lines(r) +
            f"  decisions         {r['decisions_per_second']:10,.0f} /s  ({r['decisions_per_game']:.1f} per game)\n"
            f"  clone             {r['clone_us']:10.2f} µs\n"
            f"  new game (setup)  {r['new_state_us']:10.1f} µs")


def format_bench_bot(rb: dict[str, Any]) -> str:
    """The search's speed in Python, and in C where it was timed."""
    line = (f"{rb['ruleset']} ({n_players(rb['players'])}): {rb['bot']} searches "
            f"{rb['iterations_per_second']:,.0f} iterations/s ({rb['positions']} positions, "
            f"{rb['seconds_per_move']} s each); the default strength takes "
            f"{rb['default_move_seconds'] or 0:.2f} s a move")
    if rb["native_unavailable"] == "not asked for":
        return line
    if rb["native_unavailable"] is not None:
        return f"{line}\n  in C: not measured: {rb['native_unavailable']}"
    return (f"{line}\n  in C (simulate --native): {rb['native_iterations_per_second']:,.0f} iterations/s, "
            f"{rb['native_default_move_seconds'] or 0:.2f} s a move")


def _native_lines(r: dict[str, Any]) -> str:
    if r["native_unavailable"] == "not asked for":
        return ""
    if r["native_unavailable"] is not None:
        return f"  in C               not measured: {r['native_unavailable']}\n"
    return (f"  in C, with the log{_rate(r['native_games_per_second'])} games/s  (the rules compiled by Cython: "
            "simulate --native)\n"
            f"  in C, quiet       {_rate(r['native_quiet_games_per_second'])} games/s\n")


def _rate(x: float) -> str:
    """A rate in ten columns: whole numbers, but a slow game's 0.4 games/s not as 0."""
    return f"{x:10,.0f}" if x >= 10 else f"{x:10.2f}"
