"""Parallel simulation is a speed-up measured by a command (docs/balance.md), not a timed test; here
we check only that any number of workers plays exactly the same games."""

from __future__ import annotations

from interpreter.runner.simulate import simulate


def test_two_workers_play_the_same_games_as_one():
    one = simulate("jekyll_hyde", {}, 40, seed=2, workers=1, show_progress=False)
    two = simulate("jekyll_hyde", {}, 40, seed=2, workers=2, show_progress=False)
    assert one.games == two.games


def test_no_more_worker_processes_than_games(monkeypatch):
    """Found by QA: --workers 100000 for 2 games tried to fork 100000 processes (the command hung)."""
    import multiprocessing as mp

    asked: list[int] = []
    real = mp.get_context

    class Counting:
        def __init__(self, ctx):
            self.ctx = ctx

        def Pool(self, processes, **kw):     # noqa: N802 (multiprocessing's name)
            asked.append(processes)
            return self.ctx.Pool(processes, **kw)

    monkeypatch.setattr(mp, "get_context", lambda *a: Counting(real(*a)))
    three = simulate("jekyll_hyde", {}, 3, seed=2, workers=100_000, show_progress=False)
    assert asked == [3]
    assert three.games == simulate("jekyll_hyde", {}, 3, seed=2, workers=1, show_progress=False).games
