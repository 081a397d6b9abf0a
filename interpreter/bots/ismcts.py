"""A generic information-set Monte Carlo tree search bot (SO-ISMCTS, Cowling et al. 2012).

Each iteration samples a world the bot cannot tell from the real one (engine/determinize.py),
walks down the tree choosing, at each decision of any player, the action with the best upper
confidence bound among those available in this world ("availability" counts stand in for the
parent's visits), adds one new node, finishes the game with random play (weighted where options
declare a ``rollout weight``) — or, when the ruleset declares ``evaluate``, plays that many random
decisions and asks the ruleset's evaluation how well each player stands — and credits every node
on the way with each player's reward. Nodes are keyed by the actions taken (their raw options), so
response windows, simultaneous decisions (taken one player at a time inside the search), chance and
multi-part choices need nothing special. The bot never reads what its view does not show: the
hidden parts of the real state are replaced before any search (tests/test_ismcts.py poisons them).

Strength: ``iterations`` per move (the default, 300: a fixed budget keeps games reproducible from
their seed, and is under a second a move for every bundled ruleset on a 2-core VM, see
docs/bots.md), or ``seconds`` per move instead. Rewards are a
player's finishing place scaled to 0…1 (first = 1), blended with the score when scores differ.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine.determinize import card_reach, determinize
from ..engine.game import Action
from ..engine.observe import remembered
from ..engine.state import State
from ..errors import RuleRuntimeError
from .base import reseed


class Node:
    __slots__ = ("visits", "avail", "reward", "children")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * players
        self.children: dict[Any, Node] = {}


OUTCOME_REWARD = {"win": 1.0, "lose": 0.0}


def rewards(st: State) -> list[float]:
    """Each player's result in 0…1: place (first = 1, last = 0), blended with the score. When the
    places tell nobody apart (one player alone against the game), the outcome does: win 1, lose 0."""
    res = st.game.result(st)
    n = len(res)
    places = [r["place"] or n for r in res]
    worst = max(places)
    best = min(places)
    out = [(worst - pl) / (worst - best) if worst > best else OUTCOME_REWARD.get(r["outcome"], 0.5)
           for pl, r in zip(places, res, strict=True)]
    scores = [float(r["score"] or 0) for r in res]
    lo, hi = min(scores), max(scores)
    way = score_direction(places, scores) if worst > best else 1
    if hi > lo and way:
        out = [0.5 * a + 0.5 * ((s - lo) if way > 0 else (hi - s)) / (hi - lo) for a, s in zip(out, scores, strict=True)]
    elif worst == best and st.game.eval_fn is not None:
        # a table that ends alike (a cooperative game: one outcome, one shared score) tells the bots
        # nothing by comparison; the ruleset's evaluate judges how well it ended
        try:
            ev = st.game.evaluate(st) or [0.5] * n
        except RuleRuntimeError:    # written for a game under way (12 / size(deck)): the outcome alone
            return out
        out = [0.5 * a + 0.5 * e for a, e in zip(out, ev, strict=True)]
    return out


def score_direction(places: list[int], scores: list[float]) -> int:
    """How the score counts towards a good result, as the places tell: 1 where a better place never
    has the lower score (most points win), -1 where it never has the higher (Hearts: fewest points
    win, a ranking `by -score[p]`), 0 where places and scores disagree (the score is then left out)."""
    pairs = [(scores[i], scores[j]) for i in range(len(places)) for j in range(len(places)) if places[i] < places[j]]
    if all(a >= b for a, b in pairs):
        return 1
    if all(a <= b for a, b in pairs):
        return -1
    return 0


DEFAULT_ITERATIONS = 300


class ISMCTS:
    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None,
                 exploration: float = 0.7, rollout_limit: int = 2000) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = None if seconds is not None else iterations
        self.c = exploration
        self.rollout_limit = rollout_limit
        self.last_iterations = 0
        self.last_estimate: float | None = None     # the chosen action's mean reward for the bot
        self.last_visits: dict[str, int] = {}       # how often the search tried each legal action (by id)
        self.last_failed = 0                        # sampled worlds whose rules failed (dropped)

    # ---------------------------------------------------------------- the search
    def choose(self, st: State, player: int, legal: list[Action]) -> Action:
        reseed(self.rng, self.seed, st)
        if len(legal) == 1:
            self.last_estimate = None
            self.last_visits = {legal[0].id: 0}
            return legal[0]
        game = st.game
        root = Node(game.n)
        game.quiet_rules()          # its rollouts' rules, compiled once, not on the clock
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        limit = self.iterations if self.iterations is not None else 10**9
        known = remembered(st, player)     # the same every world: worked out once a move
        reach = card_reach(st)
        it = 0
        self.last_failed = 0
        while it < limit:
            if deadline is not None and it > 0 and time.perf_counter() > deadline:
                break
            try:
                self.iterate(determinize(st, player, self.rng, known, reach), root)
            except RuleRuntimeError as e:
                # a sampled world the rules never reach (a Kitten dealt into a hand, so the pile runs
                # dry): the world is dropped, never the real game — unless no world works at all (a
                # rule that fails everywhere, a weight dividing by zero, is the ruleset's mistake)
                self.last_failed += 1
                failure = e
            it += 1
        if it and self.last_failed == it:
            # no world worked: the rules fail in the real game too (the ruleset's mistake: said), or
            # only in the worlds this player imagines (a `belief` would keep them to what the rules
            # allow): then the bot knows nothing better than a random choice
            try:
                self.iterate(st.clone(), Node(game.n))
            except RuleRuntimeError:
                raise failure from None
            self.last_iterations = it
            self.last_estimate = None
            self.last_visits = {a.id: 0 for a in legal}
            return legal[self.rng.randrange(len(legal))]
        self.last_iterations = it
        wanted = {game.option_key(st, player, a.raw): a for a in legal}
        self.last_visits = {a.id: root.children[k].visits if k in root.children else 0 for k, a in wanted.items()}
        best = max((k for k in root.children if k in wanted), key=lambda k: root.children[k].visits, default=None)
        if best is None:
            self.last_estimate = None
            return legal[0]
        ch = root.children[best]
        self.last_estimate = ch.reward[player] / ch.visits if ch.visits else None
        return wanted[best]

    def iterate(self, s: State, root: Node) -> None:
        game = s.game
        rng = self.rng
        node = root
        path = [root]
        expanded = False
        while not s.over and not expanded:
            p, opts = _decider(s)
            # the bot's own decision: a card it cannot see is an option by its place, not by which
            # card the sampled world put there (else it could learn the real card from its legal list)
            ws = game.rollout_weights(s, p, opts) if game.weighted else None
            if node is root:
                keys = [game.option_key(s, p, o) for o in opts]
            else:
                # deeper in the tree players are modelled as the rollouts play: never an option of
                # rollout weight 0 (unless all are), else a wide decision is explored evenly and its
                # wildest options (an opponent's hopeless overbid) decide what the bot's move seems worth
                if ws is not None and any(ws) and not all(ws):
                    opts = [o for o, w in zip(opts, ws, strict=True) if w > 0]
                    ws = [w for w in ws if w > 0]
                keys = opts
            untried = []
            for i, k in enumerate(keys):
                child = node.children.get(k)
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                k = keys[_expand(ws, untried, rng)]
                child = Node(game.n)
                child.avail = 1
                node.children[k] = child
                expanded = True
            else:
                k = self.select(node, keys, p, ws)
                child = node.children[k]
            o = k if keys is opts else opts[keys.index(k)]
            game.apply_raw(s, p, o)
            node = child
            path.append(node)
        after = game.eval_after
        game.playout(s, rng.random, self.rollout_limit if after is None else after, weighted=True, quiet=True)
        r = rewards(s) if s.over else (game.evaluate(s) or [0.5] * game.n)
        for nd in path:
            nd.visits += 1
            rw = nd.reward
            for i, x in enumerate(r):
                rw[i] += x
        # the reward credited to a child is read for the player who chose it (see select)

    def select(self, node: Node, opts: list[Any], p: int, ws: list[float] | None = None) -> Any:
        """The option with the best upper confidence bound for player ``p``; with rollout weights
        ``ws``, plus a progressive bias (Chaslot et al. 2008), (weight ÷ the heaviest) × ½√avail ÷
        (visits + 1): the ruleset's hint leads while an option has few visits and fades after."""
        best = None
        best_val = -1.0
        c = self.c
        top = max(ws) if ws else 0.0
        for i, o in enumerate(opts):
            ch = node.children[o]
            if not ch.visits:       # expanded in a world that then failed (dropped): try it first
                return o
            val = ch.reward[p] / ch.visits + c * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits)
            if top > 0:
                val += ws[i] / top * math.sqrt(ch.avail) / (ch.visits + 1) * 0.5     # type: ignore[index]
            if val > best_val:
                best, best_val = o, val
        assert best is not None
        return best


def _expand(ws: list[float] | None, untried: list[int], rng: random.Random) -> int:
    """Which untried option to add to the tree: at random, in proportion to the options' rollout
    weights ``ws`` where the rules declare them (the moves the rollouts think likely come first;
    at the root, those of weight 0 once the others are tried)."""
    if ws is not None:
        total = sum(ws[i] for i in untried)
        if total > 0:
            r = rng.random() * total
            for i in untried:
                r -= ws[i]
                if r < 0 and ws[i] > 0:
                    return i
            return max(i for i in untried if ws[i] > 0)      # (rounding left r at 0)
    return untried[int(rng.random() * len(untried))]


def _decider(s: State) -> tuple[int, list[tuple[Any, ...]]]:
    """Who decides next and their options (simultaneous deciders one at a time)."""
    if s.schosen is None:
        assert s.pend is not None and s.opts is not None
        return s.pend[1][0], s.opts
    assert s.pend is not None and s.sopts is not None
    for i, q in enumerate(s.pend[1]):
        if s.schosen[i] is None:
            return q, s.sopts[i]
    raise RuntimeError("no decider")
