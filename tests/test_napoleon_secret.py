"""ナポレオン's adjutant is secret until the called card is played (issue 4): along random games with
sampled house rules, no view of any player — Napoleon included — nor a spectator's shows who the
adjutant is, or the called card's place, before the reveal; a spectator's log says nothing about
it either. (Hidden cards in general are the property tests' job; this is the secret role.)"""

from __future__ import annotations

import json
import random

import pytest

from interpreter.api import load
from tests.test_soak import sample_options


@pytest.mark.parametrize("seed", range(12))
def test_nobody_sees_the_adjutant_before_the_card_is_played(seed):
    rng = random.Random(seed)
    options = sample_options("napoleon", rng)
    options["adjutant_exchange"] = seed % 2 == 0
    game = load("napoleon", options)
    st = game.new_state(seed)
    names = game.card_names
    slots = {v.name: v.slot for v in game.prog.vars}
    steps = 0
    while not st.over and steps < 300:
        steps += 1
        p = st.to_move()[0]
        legal = game.legal_actions(st, p)
        game.apply(st, p, legal[rng.randrange(len(legal))])
        if st.g[slots["adjutant_known"]] or st.g[slots["called"]] is None:
            continue
        called = names[st.g[slots["called"]]]
        for q in [None, *range(game.n)]:
            v = st.view(q)
            assert "adjutant" not in v["vars"], f"P{q} sees the adjutant"      # (the called card is public)
            holder = [z for z, info in v["zones"].items() if called in (info["cards"] or [])]
            assert not holder or q is not None and holder == [f"手札[P{q}]"], \
                f"P{q} sees the called card {called} in {holder}"
            if q is None:
                text = json.dumps(v["log"], ensure_ascii=False)
                assert "adjutant is" not in text and "副官は" not in text
