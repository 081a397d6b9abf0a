"""Parallel simulation is a speed-up measured by a command (docs/balance.md), not a timed test; here
we check only that any number of workers plays exactly the same games."""

from __future__ import annotations

from interpreter.runner.simulate import simulate


def test_two_workers_play_the_same_games_as_one():
    one = simulate("jekyll_hyde", {}, 40, seed=2, workers=1, show_progress=False)
    two = simulate("jekyll_hyde", {}, 40, seed=2, workers=2, show_progress=False)
    assert one.games == two.games
