"""The same ISMCTS searches (150 iterations from up to six positions along random games, seed 0),
timed: best of three rounds, and the moves chosen. Run it on two checkouts to compare them:
`python docs/benchmarks/ismcts_same_search.py super_page_one`."""

from __future__ import annotations

import random
import sys
import time

from interpreter.api import load
from interpreter.bots.ismcts import ISMCTS


def positions(name: str) -> list:
    game = load(name)
    rng = random.Random(0)
    out = []
    for i in range(6):
        st = game.new_state(i)
        for _ in range(rng.randrange(1, 30)):
            if st.over:
                break
            p = st.to_move()[0]
            st.apply(p, rng.choice(st.legal_actions(p)))
        if not st.over:
            out.append(st)
    return out


def main(name: str) -> None:
    states = positions(name)
    best = float("inf")
    chosen: list[str] = []
    for _ in range(3):
        t = time.perf_counter()
        chosen = []
        for st in states:
            p = st.to_move()[0]
            chosen.append(ISMCTS(1, iterations=150).choose(st, p, st.legal_actions(p)).id)
        best = min(best, time.perf_counter() - t)
    print(f"{name}: {best:.3f} s, chose {chosen}")


if __name__ == "__main__":
    main(sys.argv[1])
