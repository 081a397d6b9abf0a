"""`zone … if COND`: a zone that the options leave out of the game is left off every view (and so
off screens and the browser table) while it holds nothing (tests/constructs/zone_if.fuda)."""

from __future__ import annotations

from interpreter.api import load, load_text
from interpreter.engine.observe import full_view

from .test_constructs import CONSTRUCTS

SRC = (CONSTRUCTS / "zone_if.fuda").read_text(encoding="utf-8")


def test_a_zone_of_an_option_not_taken_is_off_the_views():
    st = load(str(CONSTRUCTS / "zone_if.fuda")).new_state(1)
    for p in (None, 0, 1):
        assert "dukes" not in st.view(p)["zones"]
        assert "copper" in st.view(p)["zones"]
    assert "dukes" not in full_view(st)["zones"]


def test_under_the_option_it_is_a_zone_like_any_other():
    st = load(str(CONSTRUCTS / "zone_if.fuda"), {"expansion": True}).new_state(1)
    assert st.view(0)["zones"]["dukes"]["cards"] == ["duke1", "duke2"]


def test_cards_put_there_anyway_are_shown():
    text = SRC.replace("    if expansion {\n        for c in", "    if true {\n        for c in").replace(
        "if expansion {\n        for i", "if true {\n        for i")
    st = load_text(text, filename="zone_if.fuda").new_state(1)
    assert st.view(0)["zones"]["dukes"]["size"] == 2


SEQ = '''ruleset zseq
players 2
option on: bool = false
cards standard() in deck
zone deck: pile hidden "Deck"
zone lines: sequence per player public "Lines" if on
setup { }
phase play {
    choose players[0] {
        ins "insert" { insert lines[players[0]] back as z }
        put "put" { insert lines[players[0]] back as z
                    move top(deck) to z }
    }
    end game draw
}
'''


def test_a_sequence_of_an_option_not_taken_is_off_the_views_and_screens_while_it_holds_no_card():
    """QA9 D7: an empty sequence under `if` was still listed under `sequences` and drawn on screens."""
    from interpreter.runner.render import render

    game = load_text(SEQ, filename="zseq.fuda")
    st = game.new_state(1)
    assert "sequences" not in st.view(0) or st.view(0)["sequences"] == {}
    assert "Lines" not in render(st.view(0))
    st.apply(0, "ins")
    assert not st.view(None).get("sequences") and not any(z.startswith("lines") for z in st.view(None)["zones"])
    st = game.new_state(1)
    st.apply(0, "put")
    assert st.view(None)["sequences"]["lines[P0]"] and "lines[P1]" not in st.view(None)["sequences"]
    on = load_text(SEQ, filename="zseq.fuda", options={"on": True}).new_state(1)
    assert set(on.view(0)["sequences"]) == {"lines[P0]", "lines[P1]"}


VAR_IF = '''ruleset varif
players 2
option m: int 1..5 = 1
cards standard(jokers = 0) in deck
zone deck: pile hidden
var feels: int per player = 0 "Feels" if m == 5
var sick: player = none "Sick" if m == 5
var round: int = 1 "Round"
setup { }
phase play {
    choose players[0] { go "go" { feels[players[1]] = 2 } }
    choose players[0] { stop "stop" { end game draw } }
}
'''


def test_a_variable_of_an_option_not_taken_is_off_the_views_while_unset():
    """The Crew newcomer: mission 5's `feels` took a place on every seat's line in every mission."""
    from interpreter.runner.render import render

    st = load_text(VAR_IF, filename="varif.fuda").new_state(0)
    assert sorted(st.view(0)["vars"]) == ["round"] and "Feels" not in render(st.view(0))
    st.apply(0, "go")                               # set anyway: shown
    assert st.view(0)["vars"]["feels"] == {"P0": 0, "P1": 2}
    on = load_text(VAR_IF, filename="varif.fuda", options={"m": 5}).new_state(0)
    assert sorted(on.view(0)["vars"]) == ["feels", "round", "sick"]


def test_a_variable_s_if_is_a_fixed_condition():
    import pytest

    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as e:
        load_text(VAR_IF.replace("if m == 5\nvar sick", "if m\nvar sick"), filename="varif.fuda")
    assert e.value.first.code == "E201" and "a variable's `if` is a condition" in e.value.first.message


def test_a_variable_s_if_judges_by_what_the_viewer_sees():
    """QA13 B1: an `owner` variable under `if` appeared on P0's screen as soon as P1's hidden value
    changed, telling P0 that P1 held a heart."""
    text = '''ruleset varif_leak
players 2
option extra: bool = false
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner "Hand"
var hearts: int per player = 0 owner "Hearts held" if extra
setup {
    shuffle deck
    deal 2 from deck to hand
    for p in players { hearts[p] = size([c for c in hand[p] where c.suit == ♥]) }
}
phase play { choose players[0] { a "a" { end game draw } } }
'''
    game = load_text(text, filename="varif_leak.fuda")
    seen = set()
    for seed in range(12):
        st = game.new_state(seed)
        mine, theirs = st.g[game.prog.vars[-1].slot], st.g[game.prog.vars[-1].slot + 1]
        shown = "hearts" in st.view(0)["vars"]
        assert shown == (mine != 0), (seed, mine, theirs)
        seen.add((mine != 0, theirs != 0))
    assert (False, True) in seen        # a game where only P1 holds a heart: P0 sees no line
