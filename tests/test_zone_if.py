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
