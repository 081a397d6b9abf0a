"""Opt-in soak runs (FUDA_SOAK=1 pytest -m soak): many random games per bundled ruleset, each
must end without a rule failure and with every card accounted for."""

from __future__ import annotations

import os
import random

import pytest

from interpreter.api import load

GAMES = {"american_page_one": 10_000}
DEFAULT_GAMES = int(os.environ.get("FUDA_SOAK_GAMES", "0")) or None


@pytest.mark.soak
@pytest.mark.parametrize("name", sorted(GAMES))
def test_soak(name):
    n = DEFAULT_GAMES or GAMES[name]
    rng = random.Random(12345)
    base = load(name)
    lo, hi = base.prog.min_players, base.prog.max_players
    capped = 0
    for i in range(n):
        game = load(name, {"players": lo + i % (hi - lo + 1)})
        st = game.new_state(i)
        while not st.over:
            for p in st.to_move():
                opts = st.opts if st.schosen is None else st.sopts[st.pend[1].index(p)]
                game.apply_raw(st, p, opts[rng.randrange(len(opts))])
                if st.over:
                    break
        assert sorted(c for z in st.z for c in z) == list(range(game.ncards))
        capped += st.capped
    assert capped < n * 0.01, f"{capped} of {n} games hit the decision limit"
