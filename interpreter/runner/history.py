"""A played game's history as its actions: where an undo goes back to, and the state rebuilt from them.

Shared by ``fuda play`` (the terminal) and ``fuda serve`` (the browser table): state is
deterministic given (ruleset, options, seed, actions), so taking back a move is replaying the
game from its seed up to the point before it.
"""

from __future__ import annotations

from typing import Any

from ..engine.game import Game
from ..engine.state import State


def undo_point(actions: list[tuple[int, str]], decided: list[int], p: int) -> tuple[int | None, int | None]:
    """Where P{p}'s undo goes back to: (index into ``actions`` of their last real decision, None);
    (None, q) when another human q has decided since (not taken back for them); (None, None) when
    P{p} has decided nothing yet. ``decided``: the indices of the humans' real decisions (more than
    one legal action)."""
    mine = [i for i in decided if actions[i][0] == p]
    if not mine:
        return None, None
    back = mine[-1]
    other = next((actions[i][0] for i in decided if i > back), None)
    if other is not None:
        return None, other
    return back, None


def rebuilt(game: Game, seed: int, actions: list[tuple[int, str]],
            carried: dict[str, Any] | None = None) -> State:
    """The game replayed from its seed (and what it was carried into with) through ``actions``:
    the chance draws come out as before."""
    st = game.new_state(seed, carried=carried)
    for q, done in actions:
        game.apply(st, q, done)
    return st
