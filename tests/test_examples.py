"""The example games (rulesets/examples/, docs/examples.md): each validates, plays to its end in
random games, has scenario tests of its own (run by test_scenarios.py) and a line in the docs."""

from __future__ import annotations

import random

import pytest

from interpreter.api import load
from interpreter.resources import example_rulesets

from .conftest import ROOT

EXAMPLES = example_rulesets()
DOC = (ROOT / "docs" / "examples.md").read_text(encoding="utf-8")


def test_there_are_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_plays_to_the_end(name: str):
    game = load(name)
    for seed in range(3):
        st = game.new_state(seed)
        game.playout(st, random.Random(seed).random)
        assert st.over, f"{name} seed {seed} did not finish"
        assert len(game.result(st)) == game.n


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_has_scenarios_and_docs(name: str):
    dirs = [d for d in (ROOT / "rulesets" / "tests" / "examples").iterdir() if name.startswith(d.name)]
    assert dirs and any(d.glob("*.yaml") for d in dirs), f"{name}: no scenarios in rulesets/tests/examples/"
    assert f"`{name}`" in DOC, f"{name} is not in docs/examples.md"
