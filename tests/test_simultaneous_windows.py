"""Simultaneous response windows (`window … simultaneous`): every responder is asked at once, each
sees only that the others have chosen, and the first in responder order who answered is the one who
does (tests/constructs/simul_window.fuda; the scenario simul_window_first_doubter.yaml walks one)."""

from __future__ import annotations

import json
import random
import textwrap
from typing import Any

import pytest

from interpreter.api import load, load_text
from interpreter.bots.ismcts import ISMCTS
from interpreter.engine.determinize import determinize
from interpreter.engine.observe import view
from interpreter.engine.state import State
from interpreter.runner.scenario import Runner, parse_scenario

from .conftest import ROOT, random_game
from .test_constructs import full_zone
from .test_ismcts import poison

CONSTRUCTS = ROOT / "tests" / "constructs"


def dealt(hands: dict[str, list[str]], steps: str = "[]", **options: Any) -> State:
    """The construct's game with these hands, after the scenario's steps."""
    opts = "".join(f"\noptions: {{{k}: {v}}}" for k, v in options.items())
    text = textwrap.dedent(f"""\
        ruleset: simul_window.fuda{opts}
        setup: {{zones: {json.dumps({f"hand[{p}]": cs for p, cs in hands.items()}, ensure_ascii=False)}}}
        steps: {steps}
    """)
    sc, loc = parse_scenario(text, str(CONSTRUCTS / "<inline>.yaml"))
    r = Runner(sc, loc, CONSTRUCTS)
    r.run()
    return r.st


HANDS = {"P0": ["♠2", "♠3"], "P1": ["♥4"], "P2": ["♥5", "♣K"], "P3": ["♦A"]}


def log(st: State, p: int | None) -> list[str]:
    return [e["text"] for e in st.view(p)["log"]]


def test_everyone_who_can_answer_is_asked_at_once_with_their_own_options():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    assert st.to_move() == [1, 2, 3]
    assert [a.id for a in st.legal_actions(2)] == ["doubt", "doubt_with ♣K", "pass"]
    assert [a.id for a in st.legal_actions(3)] == ["doubt", "vouch ♦A", "pass"]
    assert st.game.prompt(st, 2) == "Doubt P0? | ダウト?"


def test_a_player_with_nothing_to_answer_is_not_asked():
    st = dealt({**HANDS, "P1": []})
    st.apply(0, "put ♠2")
    assert st.to_move() == [2, 3]


def test_all_passing_lets_the_item_resolve_and_the_passes_stay_private():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    for p in (3, 1, 2):
        st.apply(p, "pass")
    assert "P0's claim of 1 stands" in log(st, None)
    assert not any("pass" in t for t in log(st, 0))
    assert any(t.startswith("P1: pass") for t in log(st, 1))


def test_an_answer_that_leaves_the_item_in_play_asks_everyone_again():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    st.apply(3, "vouch ♦A")
    st.apply(1, "pass")
    st.apply(2, "pass")
    assert st.view(None)["stack"][0]["rank"] == 2     # rank 1 + 1
    assert st.to_move() == [1, 2]           # asked anew; P3, whose hand is now empty, has nothing
    for p in (1, 2):
        st.apply(p, "pass")
    assert "P0's claim of 2 stands" in log(st, None)


def test_the_answers_that_did_not_count_stay_secret_from_the_others():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    st.apply(3, "vouch ♦A")
    st.apply(1, "doubt")
    st.apply(2, "pass")
    # P1 comes first after the claimant: P1's doubt counts; P3's vouch was never made
    assert st.view(None)["vars"]["doubter"] == 1
    assert full_zone(st, "hand[P3]") == ["♦A"]
    for p in (0, 2):
        assert "P1 answers first: doubt" in log(st, p) and "P3 has chosen" in log(st, p)
        assert not any("vouch" in t for t in log(st, p))
    assert any("vouch" in t for t in log(st, 3))


def test_mid_window_a_saved_game_resumes_and_a_clone_is_independent():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    st.apply(2, "doubt_with ♣K")
    data = json.loads(json.dumps(st.to_json(), ensure_ascii=False))
    back = State.from_json(data, st.game)
    assert back == st and back.to_move() == [1, 3]
    cl = st.clone()
    cl.apply(1, "doubt")
    cl.apply(3, "pass")
    for s in (st, back):
        s.apply(1, "pass")
        s.apply(3, "pass")
    assert back == st and back.ev == st.ev
    assert st.view(None)["vars"]["doubter"] == 2 and cl.view(None)["vars"]["doubter"] == 1


@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_with_every_card_kept(seed):
    g = load(str(CONSTRUCTS / "simul_window.fuda"), {"players": 3 + seed % 2})
    st = random_game(g, seed)
    assert st.over
    assert sorted(c for z in st.z for c in z) == list(range(g.ncards))
    assert random_game(g, seed).ev == st.ev


def test_the_bots_worlds_redraw_the_others_choices_and_keep_its_own():
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    st.apply(3, "vouch ♦A")
    st.apply(1, "doubt")
    rng = random.Random(4)
    kinds = set()
    for _ in range(40):
        w = determinize(st, 2, rng)          # asked: P1, P2, P3; P2 is deciding
        assert w.schosen[1] is None and w.sopts[1] == st.sopts[1]
        assert w.schosen[0] in w.sopts[0] and w.schosen[2] in w.sopts[2]
        kinds.add(w.schosen[0][0])
    assert len(kinds) > 1                    # P1's doubt is not known in the bot's worlds


@pytest.mark.parametrize("seed", [1, 2])
def test_ismcts_answers_legally_and_reads_only_its_view(seed):
    st = dealt(HANDS)
    st.apply(0, "put ♠2")
    st.apply(1, "doubt")
    other = poison(st, 2, seed)
    assert view(other, 2, log_tail=0) == view(st, 2, log_tail=0)
    a = ISMCTS(seed, iterations=60).choose(st, 2, st.legal_actions(2))
    b = ISMCTS(seed, iterations=60).choose(other, 2, other.legal_actions(2))
    assert a in st.legal_actions(2) and a.id == b.id


def test_a_responder_named_twice_is_asked_once():
    """QA: `responders [q, q]` left the decision waiting for a second answer that never came."""
    text = (CONSTRUCTS / "simul_window.fuda").read_text(encoding="utf-8").replace(
        "responders others(it.controller)", "responders [next(it.controller), next(it.controller)]")
    g = load_text(text, {}, filename="twice.fuda")
    st = g.new_state(3)
    st.apply(0, st.legal_actions(0)[0])
    assert st.to_move() == [1]
    st.apply(1, "doubt")
    assert st.view(None)["vars"]["doubter"] == 1


def test_a_players_log_never_tells_by_its_rule_line_which_secret_option_was_taken():
    """QA: "P0 has chosen" carried the line of the option chosen (scissors' line), and a move the line
    of the branch of an `if` on a hidden card. A player's or spectator's log shows a decision's own
    place only and no line for other events; the full log (replays) keeps every line."""
    from interpreter.api import load_text
    from interpreter.engine.observe import full_view

    text = """ruleset rps
players 3
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner
zone pile: pile public
var choice: int per player = 0 owner
setup { deal 1 from deck to hand }
phase play {
    simultaneous p in players "Rock, paper or scissors" {
        rock "rock" { choice[p] = 0 }
        paper "paper" { choice[p] = 1 }
        scissors "scissors" { choice[p] = 2 }
    }
    if top(hand[players[0]]).rank > 7 {
        move top(hand[players[0]]) to deck
    } else {
        move top(hand[players[0]]) to deck
    }
}
"""
    game = load_text(text, filename="rps.fuda")
    rules = set()
    for option in ("rock", "scissors"):
        st = game.new_state(1)
        st.apply(0, option)
        act = [e for e in st.view(1)["log"] if e["kind"] == "act"][-1]
        assert act["text"] == "P0 has chosen"
        rules.add(act["rule"])
    assert rules == {"rps.fuda:10:5"}           # the simultaneous decision, whichever option
    lines = set()
    for seed in range(12):
        st = game.new_state(seed)
        for p in range(3):
            st.apply(p, "rock")
        moves = [e for e in st.view(1)["log"] if e["kind"] == "move" and "deck" in e["text"].lower()]
        assert moves and all(e["rule"] == "" for e in moves)
        lines |= {e["rule"] for e in full_view(st)["log"] if e["kind"] == "move" and e["rule"].endswith(":9")}
    assert len(lines) == 2          # the full log still tells the two branches apart
