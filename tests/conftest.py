"""Shared test helpers: loading rulesets from text, playing random games."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from interpreter.api import load_text
from interpreter.engine.game import Game
from interpreter.engine.state import State

ROOT = Path(__file__).resolve().parent.parent
SOAK = os.environ.get("FUDA_SOAK") == "1"


def game_from(text: str, **options: object) -> Game:
    return load_text(text, dict(options), filename="test.fuda")


def random_game(game: Game, seed: int, max_steps: int = 100_000) -> State:
    rng = random.Random(seed)
    st = game.new_state(seed)
    steps = 0
    while not st.over and steps < max_steps:
        for p in st.to_move():
            legal = game.legal_actions(st, p)
            game.apply(st, p, legal[rng.randrange(len(legal))])
            steps += 1
            if st.over:
                break
    return st


@pytest.fixture(autouse=True, scope="session")
def _native_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The rules compiled to C (`fuda bench`, `simulate --native`) are kept in pytest's cache
    directory, not the user's: a second run of the suite does not build them again (without
    pytest's cache, `-p no:cacheprovider`, in a directory of this run)."""
    cache = getattr(request.config, "cache", None)
    os.environ["FUDA_CACHE"] = str(cache.mkdir("fuda") if cache is not None else tmp_path_factory.mktemp("fuda"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SOAK:
        return
    skip = pytest.mark.skip(reason="soak run: set FUDA_SOAK=1")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
