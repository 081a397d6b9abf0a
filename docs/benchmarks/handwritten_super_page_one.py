"""A hand-written, plain-Python 超ページワン (Super Page One) with the same decisions as
rulesets/super_page_one.fuda under its default options (play on until one player is left, 2-stacking,
ドボン and 革命 on, 6 cards, no page-one penalty) and the same uniformly random players.
It is the yardstick for `fuda bench super_page_one` in docs/benchmarks.md: no events, no hidden
information, no saves — just the game, as fast as straightforward Python goes.

The decisions, each a uniform pick among exactly the options fuda offers: the turn (a matching card /
draw / pass when neither is possible), playing a card just drawn (asked after every draw:
keeping it is the only option when it does not fit), answering 2ドロー (a 2 or draw the
total), revealing a K at the start of one's turn, 7渡し (a target or not giving) and the card given,
10捨て (or not) and the card discarded, and the response windows of every effect on the stack — Qエコー,
then J無効, then Kキックバック — where each player holding an eligible card, in turn order after the
effect's controller (the controller last), picks one of those cards or passes; a response reopens the
windows. ドボン and 革命 are checked after every card move from the first turn on.

    python docs/benchmarks/handwritten_super_page_one.py [games]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

SUIT = [c // 13 for c in range(52)] + [-1, -1]
RANK = [c % 13 + 1 for c in range(52)] + [0, 0]          # A=1 … K=13; Jokers (52, 53) have 0
VANILLA = [c < 52 and RANK[c] in (1, 3, 4, 6) for c in range(54)]
QUEEN = [s * 13 + 11 for s in range(4)]                   # the Q of each suit
KINGS = (12, 25, 38, 51)
RANK_OF = RANK.__getitem__
LIMIT = 5000                                              # the ruleset's decision limit

# kinds of stack items
DRAW_TWO, SKIP, GIVE, REVERSE, DISCARD, JOKER, PLAYED, NULLIFY, ECHO, KICKBACK = range(10)
ECHOABLE = (True, True, True, True, True, False, False, False, False, True)     # the Qエコー window
NEGATABLE = (True, True, True, True, True, False, False, True, True, True)      # the J無効 window
KIND, CTRL, SRC, TIMES, NEGATED, ARG = range(6)           # an item: [kind, controller, source, times, negated, arg]


class GameOver(Exception):
    """One player is left (or the decision limit is reached)."""


def game(seed: int, rnd: Callable[[], float], players: int = 4) -> int:
    """One game with random players; returns the number of decisions taken."""
    n = players
    r = random.Random(seed)
    deck = list(range(54))
    r.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(min(6, 53 // n)):
        for h in hands:
            h.append(deck.pop())
    field = [deck.pop()]                                  # 場
    while not VANILLA[field[-1]] and any(VANILLA[c] for c in deck):
        deck.insert(0, field.pop())
        field.append(deck.pop())
    discard: list[int] = []                               # 捨て札ゾーン
    won: list[int] = []                                   # the cards of special winners
    out = [False] * n
    revealed = [False] * 54
    played_by = [-1] * 54
    active = n
    direction = 1
    pending = 0                                           # 2ドロー total for the next player
    skips = 0
    free_for = -1                                         # may play anything (after a Joker)
    decisions = 0

    def decide(k: int) -> int:
        nonlocal decisions
        decisions += 1
        if decisions >= LIMIT:
            raise GameOver
        return int(rnd() * k)

    def nxt(p: int) -> int:
        for _ in range(n):
            p = (p + direction) % n
            if not out[p]:
                return p
        return p

    def responders(ctrl: int) -> list[int]:
        """Active players in turn order after ctrl, ctrl last."""
        res = []
        q = ctrl
        for _ in range(n):
            q = (q + direction) % n
            if not out[q]:
                res.append(q)
        return res

    def go_out(p: int) -> None:
        nonlocal active
        if not out[p]:
            out[p] = True
            active -= 1
            if active <= 1:
                raise GameOver

    def shrank(p: int) -> None:
        if not hands[p] and not out[p]:
            go_out(p)

    # ---- special wins, checked after every card move
    def dobon(p: int, t: int) -> bool:
        h = hands[p]
        return 0 < len(h) <= t and sum(map(RANK_OF, h)) == t and 52 not in h and 53 not in h

    def revolution(p: int) -> bool:
        h = hands[p]
        if len(h) < 4:
            return False
        cnt = [0] * 14
        for c in h:
            cnt[RANK[c]] += 1
        jokers = cnt[0]
        cnt[0] = 0
        return max(cnt) + jokers >= 4

    def special_win(p: int) -> None:
        h = hands[p]
        for c in h:
            revealed[c] = False
        won.extend(h)
        h.clear()
        go_out(p)

    def top_changed(gainer: int) -> None:
        t = RANK[field[-1]]
        if t:
            for p in range(n):
                if 0 < len(hands[p]) <= t and dobon(p, t):
                    special_win(p)
        if gainer >= 0 and revolution(gainer):
            special_win(gainer)

    def gained(p: int) -> None:
        if dobon(p, RANK[field[-1]]) or revolution(p):
            special_win(p)

    def lost(p: int) -> None:
        if dobon(p, RANK[field[-1]]):
            special_win(p)

    # ---- the effect stack
    def activate(kind: int, ctrl: int, src: int, arg: object = None) -> None:
        it: list = [kind, ctrl, src, 1, False, arg]
        while not it[NEGATED] and respond(it):
            pass
        if not it[NEGATED]:
            resolve(it)

    def respond(it: list) -> bool:
        """The windows for an item in order; True if someone responded (the windows then reopen)."""
        kind = it[KIND]
        src = it[SRC]
        if ECHOABLE[kind]:                                # Qエコー: the Q of the source's suit
            q = QUEEN[SUIT[src]]
            for p in range(n):
                h = hands[p]
                if q in h:
                    if decide(2) == 0:
                        h.remove(q)
                        discard.append(q)
                        lost(p)
                        shrank(p)
                        activate(ECHO, p, q, it)
                        return True
                    break
        if NEGATABLE[kind]:                               # J無効: any J
            for p in responders(it[CTRL]):
                js = [c for c in hands[p] if RANK[c] == 11]
                if js:
                    i = decide(len(js) + 1)
                    if i < len(js):
                        j = js[i]
                        hands[p].remove(j)
                        discard.append(j)
                        lost(p)
                        shrank(p)
                        activate(NULLIFY, p, j, it)
                        return True
        if src == field[-1] and len(field) > 1:          # Kキックバック: take the source back from 場
            by = played_by[src]
            for p in responders(it[CTRL]):
                if p != by:
                    ks = [c for c in hands[p] if RANK[c] == 13 and not revealed[c]]
                    if ks:
                        i = decide(len(ks) + 1)
                        if i < len(ks):
                            revealed[ks[i]] = True
                            activate(KICKBACK, p, ks[i])
                            return True
        return False

    def resolve(it: list) -> None:
        nonlocal pending, skips, direction, free_for
        kind = it[KIND]
        ctrl = it[CTRL]
        times = it[TIMES]
        if kind == DRAW_TWO:
            pending += it[ARG] * times
        elif kind == SKIP:
            skips += times
        elif kind == GIVE:
            h = hands[ctrl]
            target = it[ARG]
            for _ in range(times):
                if not h or out[target]:
                    break
                c = h.pop(decide(len(h)))
                revealed[c] = False
                hands[target].append(c)
                t = RANK[field[-1]]
                for p in sorted((ctrl, target)):
                    if dobon(p, t):
                        special_win(p)
                if revolution(target):
                    special_win(target)
                shrank(ctrl)
        elif kind == REVERSE:
            if active > 2 and times % 2:
                direction = -direction
        elif kind == DISCARD:
            h = hands[ctrl]
            for _ in range(times):
                if not h:
                    break
                c = h.pop(decide(len(h)))
                revealed[c] = False
                discard.append(c)
                lost(ctrl)
                shrank(ctrl)
        elif kind == JOKER:
            free_for = nxt(ctrl)
        elif kind == NULLIFY:
            it[ARG][NEGATED] = True
        elif kind == ECHO:
            it[ARG][TIMES] *= 2
        elif kind == KICKBACK:
            for _ in range(times):
                if len(field) <= 1 or out[ctrl]:
                    break
                hands[ctrl].append(field.pop())
                top_changed(ctrl)

    # ---- drawing and playing
    def refill() -> None:
        keep = field.pop()
        deck.extend(field)
        field.clear()
        field.append(keep)
        deck.extend(discard)
        discard.clear()
        deck.extend(won)
        won.clear()
        r.shuffle(deck)

    def draw(p: int, k: int) -> int:
        last = -1
        h = hands[p]
        for _ in range(k):
            if out[p]:
                break
            if not deck:
                refill()
            if deck:
                last = deck.pop()
                h.append(last)
                gained(p)
        return last

    def playable(p: int, c: int) -> bool:
        t = field[-1]
        return c >= 52 or RANK[c] == 8 or free_for == p or t >= 52 or SUIT[c] == SUIT[t] or RANK[c] == RANK[t]

    def play_card(p: int, c: int) -> None:
        nonlocal pending
        h = hands[p]
        h.remove(c)
        revealed[c] = False
        field.append(c)
        top_changed(-1)
        if not h:
            go_out(p)
        played_by[c] = p
        if c >= 52:
            activate(JOKER, p, c)
            return
        rank = RANK[c]
        if rank == 2:
            total = pending + 2
            pending = 0
            activate(DRAW_TWO, p, c, total)
        elif rank == 5:
            activate(SKIP, p, c)
        elif rank == 9:
            activate(REVERSE, p, c)
        elif rank == 7 and h:                             # 7渡し: a target, or not giving
            others = [q for q in responders(p) if q != p]
            i = decide(len(others) + 1)
            if i < len(others):
                activate(GIVE, p, c, others[i])
            else:
                kick_chance(p, c)
        elif rank == 10 and h:                            # 10捨て or not
            if decide(2) == 0:
                activate(DISCARD, p, c)
            else:
                kick_chance(p, c)
        else:
            kick_chance(p, c)

    def kick_chance(p: int, c: int) -> None:
        """A card without an effect opens only the K window, if someone else holds an unrevealed K."""
        if len(field) > 1:
            mine = hands[p]
            for k in KINGS:
                if not revealed[k] and k not in mine:
                    for h in hands:
                        if k in h:
                            activate(PLAYED, p, c)
                            return

    def can_kick(p: int) -> bool:
        if len(field) > 1 and played_by[field[-1]] != p:
            h = hands[p]
            for k in KINGS:
                if k in h and not revealed[k]:
                    return True
        return False

    def offer_kick(p: int) -> None:
        while can_kick(p):
            ks = [c for c in hands[p] if RANK[c] == 13 and not revealed[c]]
            i = decide(len(ks) + 1)
            if i == len(ks):
                return
            revealed[ks[i]] = True
            activate(KICKBACK, p, ks[i])

    def take_turn(p: int) -> None:
        nonlocal skips, pending, free_for
        if skips > 0:
            skips -= 1
        elif pending > 0:                                 # 2ドロー: stack a 2 or draw the total
            if can_kick(p):
                offer_kick(p)
            if not out[p]:
                twos = [c for c in hands[p] if RANK[c] == 2]
                i = decide(len(twos) + 1)
                if i < len(twos):
                    play_card(p, twos[i])
                else:
                    k = pending
                    pending = 0
                    draw(p, k)
        else:
            if can_kick(p):
                offer_kick(p)
            if not out[p]:
                h = hands[p]
                t = field[-1]
                if free_for == p or t >= 52:
                    opts = h[:]
                else:
                    s = SUIT[t]
                    rank = RANK[t]
                    opts = [c for c in h if c >= 52 or RANK[c] == 8 or SUIT[c] == s or RANK[c] == rank]
                if deck or len(field) > 1 or discard or won:
                    opts.append(-1)
                elif not opts:
                    opts.append(-2)
                a = opts[decide(len(opts))]
                if a == -1:
                    d = draw(p, 1)
                    if d >= 0 and not out[p]:     # asked even when only keeping it is legal, as fuda asks
                        if decide(2 if playable(p, d) else 1) == 0 and playable(p, d):
                            play_card(p, d)
                elif a >= 0:
                    play_card(p, a)
        if free_for == p:
            free_for = -1

    cur = r.randrange(n)
    try:
        t = RANK[field[-1]]                               # special wins count from the first turn on
        for p in range(n):
            if dobon(p, t):
                special_win(p)
        for p in range(n):
            if revolution(p):
                special_win(p)
        while True:
            take_turn(cur)
            cur = nxt(cur)
    except GameOver:
        pass
    return decisions


def main() -> None:
    import gc

    gc.disable()    # as `fuda bench` does during its playouts
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    best = 0.0
    for rnd_round in range(5):
        rnd = random.Random(rnd_round).random
        t = time.process_time()
        dec = sum(game(rnd_round * n + i, rnd) for i in range(n))
        dt = time.process_time() - t
        best = max(best, n / dt)
    print(f"hand-written Super Page One: {best:,.0f} games/s ({dec / n:.1f} decisions per game)")


if __name__ == "__main__":
    main()
