"""Time the default ISMCTS bot's first (up to) 12 real moves of a game against random seats, per
bundled ruleset: the "default move in a game" columns of docs/benchmarks.md."""

from __future__ import annotations

import statistics
import sys
import time

from interpreter.api import load
from interpreter.bots.base import make_bot

RULESETS = ["american_page_one", "super_page_one", "napoleon", "jekyll_hyde", "john", "senretsu"]


def move_times(ruleset: str, seed: int = 11, moves: int = 12) -> list[float]:
    game = load(ruleset, {})
    st = game.new_state(seed)
    bot, rnd = make_bot("ismcts", 1), make_bot("random", 2)
    times: list[float] = []
    while not st.over and len(times) < moves:
        for p in st.to_move():
            legal = game.legal_actions(st, p)
            if p == 0 and len(legal) > 1:
                t = time.perf_counter()
                a = bot.choose(st, p, legal)
                times.append(time.perf_counter() - t)
            else:
                a = rnd.choose(st, p, legal)
            game.apply_raw(st, p, a.raw)
            if st.over:
                break
    return times


if __name__ == "__main__":
    for r in sys.argv[1:] or RULESETS:
        ts = move_times(r)
        print(f"{r}: {len(ts)} moves, mean {statistics.mean(ts):.2f} s, max {max(ts):.2f} s")
