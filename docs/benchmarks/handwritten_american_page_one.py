"""A hand-written, plain-Python American Page One with the same decisions as
rulesets/american_page_one.fuda (play a matching card / draw / pass; after drawing a playable
card: play it or keep it; first to empty their hand wins) and the same uniformly random players.
It is the yardstick for `fuda bench american_page_one` in docs/benchmarks.md: no events, no
hidden information, no saves — just the game, as fast as straightforward Python goes.

    python docs/benchmarks/handwritten_american_page_one.py [games]
"""

from __future__ import annotations

import random
import sys
import time

SUIT = [c // 13 for c in range(52)] + [-1, -1]
RANK = [c % 13 + 1 for c in range(52)] + [0, 0]
JOKER = [False] * 52 + [True, True]


def playable(c: int, top: int) -> bool:
    return JOKER[c] or RANK[c] == 8 or JOKER[top] or SUIT[c] == SUIT[top] or RANK[c] == RANK[top]


def game(seed: int, rnd, players: int = 4) -> int:  # type: ignore[no-untyped-def]
    r = random.Random(seed)
    deck = list(range(54))
    r.shuffle(deck)
    hands = [[deck.pop() for _ in range(6)] for _ in range(players)]
    field = [deck.pop()]
    cur = r.randrange(players)
    decisions = 0
    while True:
        hand = hands[cur]
        top = field[-1]
        opts: list[int] = [c for c in hand if playable(c, top)]
        can_draw = bool(deck) or len(field) > 1
        if can_draw:
            opts.append(-1)
        if not opts:
            opts.append(-2)
        a = opts[int(rnd() * len(opts))]
        decisions += 1
        if a == -1:
            if not deck:
                deck = field[:-1]
                field = field[-1:]
                r.shuffle(deck)
            c = deck.pop()
            hand.append(c)
            if playable(c, field[-1]):
                decisions += 1
                a = c if rnd() < 0.5 else -2
        if a >= 0:
            hand.remove(a)
            field.append(a)
            if not hand:
                return decisions
        cur = (cur + 1) % players


def main() -> None:
    import gc

    gc.disable()    # as `fuda bench` does during its playouts
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    best = 0.0
    for rnd_round in range(5):
        rnd = random.Random(rnd_round).random
        t = time.perf_counter()
        dec = sum(game(rnd_round * n + i, rnd) for i in range(n))
        dt = time.perf_counter() - t
        best = max(best, n / dt)
    print(f"hand-written American Page One: {best:,.0f} games/s ({dec / n:.1f} decisions per game)")


if __name__ == "__main__":
    main()
