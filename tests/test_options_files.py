"""The example options files shipped in rulesets/options/ (a table's house rules): each is named
after its ruleset (RULESET_*.yaml), loads, and every value it sets is applied."""

from __future__ import annotations

import pytest

from interpreter.api import load, read_options_file
from interpreter.resources import bundled_rulesets

from .conftest import ROOT

FILES = sorted((ROOT / "rulesets" / "options").glob("*.yaml"))


def ruleset_of(path) -> str:  # type: ignore[no-untyped-def]
    names = [n for n in bundled_rulesets() if path.stem == n or path.stem.startswith(n + "_")]
    assert names, f"{path.name}: no bundled ruleset is named by its prefix"
    return max(names, key=len)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_options_file_applies(path):
    options = read_options_file(str(path))
    game = load(ruleset_of(path), options)
    prog = game.prog
    for name, value in options.items():
        o = prog.options[name]
        got = o.members[o.value] if o.members and isinstance(o.value, int) else o.value
        assert got == value, f"{name}: {got!r} != {value!r}"
