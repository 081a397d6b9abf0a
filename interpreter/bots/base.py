"""The bot interface: a bot sees what its seat may see (``State.view``) and the legal actions."""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..engine.game import Action
from ..engine.state import State


class Bot(Protocol):
    name: str

    def choose(self, st: State, player: int, legal: list[Action]) -> Action: ...


def reseed(rng: random.Random, seed: int, st: State) -> None:
    """Seed a bot's generator for the decision at hand from its seat's seed (the game's seed and
    the seat) and how many actions the game has taken (``st.ndec``): a game rebuilt from its
    actions — `fuda play --resume`, an undo, a served table's undo — has its bots play on as they
    would have, though the searches of the moves replayed never ran."""
    rng.seed((seed << 32) + st.ndec)


class RandomBot:
    """Uniformly random among the legal actions (seeded: the same seed plays the same game)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, st: State, player: int, legal: list[Action]) -> Action:
        reseed(self.rng, self.seed, st)
        return legal[int(self.rng.random() * len(legal))]


def make_bot(spec: str, seed: int, **kw: Any) -> Bot:
    """A bot from a seat spec: ``random``, ``rollout`` (random by the ruleset's rollout weights),
    ``ismcts`` (300 iterations a move), ``ismcts:N`` (N iterations a
    move), ``ismcts:Ns`` (N seconds a move) or ``persona:ID`` (a character; ``alias`` = how many
    seats before this one the same persona already took)."""
    kind, _, arg = spec.partition(":")
    if kind == "random":
        return RandomBot(seed)
    if kind == "rollout":
        from .rollout import RolloutBot

        return RolloutBot(seed)
    if kind == "persona":
        from .persona import make_persona

        return make_persona(spec, seed, int(kw.get("alias", 0)))
    if kind == "ismcts":
        from .ismcts import ISMCTS

        if not arg:
            return ISMCTS(seed)
        try:
            if arg.endswith("s") and float(arg[:-1]) > 0:
                return ISMCTS(seed, seconds=float(arg[:-1]))
            if int(arg) >= 1:
                return ISMCTS(seed, iterations=int(arg))
        except ValueError:
            pass
        from ..errors import error

        raise error("E505", f"seat {spec!r}: ismcts takes a number of iterations from 1 (ismcts:200) or a "
                    "time above 0 (ismcts:0.5s)")
    from ..errors import error

    if kind == "human":     # make_bot makes bots: the terminal seats humans (fuda play)
        raise error("E505", "a human seat plays in the terminal: fuda play --seat human",
                    hint="bots' seats: random, rollout, ismcts, ismcts:200, ismcts:0.5s, persona:miles")
    raise error("E505", f"unknown seat kind {spec!r}",
                hint="seats: human (fuda play), random, rollout, ismcts, ismcts:200, ismcts:0.5s, persona:miles")
