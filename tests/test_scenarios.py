"""Every scenario file of every ruleset (rulesets/tests/) and of the engine tests (tests/scenarios/)."""

from __future__ import annotations

import pytest

from interpreter.runner.scenario import run_scenario

from .conftest import ROOT

FILES = sorted((ROOT / "rulesets" / "tests").rglob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    outcome = run_scenario(path)
    assert outcome.passed, outcome.message


def test_there_are_scenarios():
    assert len(FILES) > 0
