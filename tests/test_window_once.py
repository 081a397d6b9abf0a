"""`window … once`: a responder is asked at most once an item by such a window, also when a response
reopens the windows (tests/constructs/reactions.fuda; the scenarios window_once_*.yaml walk it)."""

from __future__ import annotations

import json

from interpreter.api import load
from interpreter.engine.state import State

from .conftest import random_game
from .test_constructs import CONSTRUCTS, scenario_state

HANDS = """
setup:
  zones:
    "hand[P0]": [♠2, ♠3, ♠4]
    "hand[P1]": [♥K, ♥Q, ♥2]
    "hand[P2]": [♦K, ♦2, ♦3]
    "hand[P3]": [♣K, ♣Q, ♣2]
"""


def test_whom_a_once_window_asked_survives_a_save_mid_window():
    st = scenario_state("reactions", HANDS + "steps: [{P1: moat ♥K}]")
    back = State.from_json(json.loads(json.dumps(st.to_json())), st.game)
    for s in (st, back):
        s.apply(2, "pass")
        s.apply(3, "cheer ♣Q")
        assert s.over
    assert st.to_json() == back.to_json()


def test_a_player_who_could_not_answer_before_is_asked_after_a_reopening():
    # P2 holds no king: not asked (and so not counted as asked); the windows reopen after P3's cheer
    st = scenario_state("reactions", HANDS.replace("♦K", "♦5") + "steps: [{P1: pass}]")
    assert st.to_move() == [3]
    st.apply(3, "cheer ♣Q")
    assert st.over


def test_in_random_games_each_other_player_decides_at_most_once():
    for opts in ({}, {"at_once": True}, {"players": 2}):
        g = load(str(CONSTRUCTS / "reactions.fuda"), opts)
        for seed in range(30):
            st = random_game(g, seed)
            assert st.over
            assert st.ndec <= g.n - 1
