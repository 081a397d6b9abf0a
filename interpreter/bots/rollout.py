"""The `rollout` seat: a random player that takes each action in proportion to its `rollout
weight` (language.md §28), as a searching bot imagines the players — a plausible random opponent
for `fuda simulate` where uniform play is not (a Gin player who never knocks).

The weights are worked out in a world sampled from the seat's view (engine/determinize.py), as the
bots' rollouts work them out, so that a weight reading another player's hand tells the seat nothing:
the option drawn there is matched to the real one by what the seat can see of it (its place, for a
card it cannot see)."""

from __future__ import annotations

import random
from typing import Any

from ..engine.determinize import determinize
from ..engine.game import Action
from ..engine.state import State
from .base import reseed


class RolloutBot:
    name = "rollout"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, st: State, player: int, legal: list[Action]) -> Action:
        reseed(self.rng, self.seed, st)
        game = st.game
        site = game.sites[st.pend[0]] if st.pend is not None else None
        if site is None or site.weights is None or len(legal) == 1:     # which decision it is, everyone sees
            return legal[int(self.rng.random() * len(legal))]
        if site.weights_fixed:      # numbers written out: the real options' weights tell nothing hidden
            raw = game._weighted_pick(st, player, [a.raw for a in legal], self.rng.random)
            return next(a for a in legal if a.raw == raw)
        world = determinize(st, player, self.rng)
        opts = _options_of(world, player)
        key = game.option_key(world, player, game._weighted_pick(world, player, opts, self.rng.random))
        mine = [a for a in legal if game.option_key(st, player, a.raw) == key]
        return mine[0] if mine else legal[int(self.rng.random() * len(legal))]


def _options_of(s: State, player: int) -> list[tuple[Any, ...]]:
    """``player``'s options in the pending decision (theirs among simultaneous deciders)."""
    assert s.pend is not None
    if s.schosen is None:
        assert s.opts is not None
        return s.opts
    assert s.sopts is not None
    return s.sopts[list(s.pend[1]).index(player)]
