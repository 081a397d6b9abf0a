"""`show c as TEXT`: how the ruleset presents a card (views, the terminal), only for visible cards."""

from __future__ import annotations

from interpreter.runner.render import render, render_choices

from .conftest import game_from

RULES = """
ruleset show_test
players 2
cards standard(jokers = 2) in deck
zone deck: pile hidden
zone table: pile public
zone hand: hand per player owner
var range: int per card = 0
fn reach(c: card) -> int = if c.joker then c.range else c.rank
show c as "{c}·r{reach(c)} | {c}・射程{reach(c)}"
setup {
    move card("JK1") to table
    card("JK1").range = 4
    move card("♥5") to table
    move card("♠K") to hand[players[1]]
}
phase play {
    choose players[0] { wait { } }
}
"""


def test_labels_in_views_and_rendering():
    st = game_from(RULES).new_state(0)
    v = st.view(0)
    assert v["labels"]["JK1"] == "JK1·r4"
    assert v["labels"]["♥5"] == "♥5·r5"
    assert "♠K" not in v["labels"]            # hidden from P0: neither shown nor labelled
    assert st.view(1)["labels"]["♠K"] == "♠K·r13"
    text = render(v)
    assert "JK1·r4 ♥5·r5" in text
    assert st.game.show(st, 52, lang=1) == "JK1・射程4"


def test_show_is_checked_like_any_text(tmp_path):
    import pytest

    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as e:
        game_from(RULES.replace("{reach(c)} |", "{reech(c)} |"))
    assert e.value.first.code == "E104"


SORTED = """
ruleset sorted_test
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var trump: Suit = ♣
fn power(c: card) -> int = if c.rank == 1 then 14 else c.rank
show c sorted by (if c.suit == trump then 0 else 1, c.suit, 0 - power(c))
setup {
    move [card("♠2"), card("♣K"), card("♠A"), card("♥7"), card("♣A"), card("♠10")] to hand[players[0]]
}
phase play {
    choose players[0] {
        hearts "hearts are trump" { trump = ♥ }
    }
    choose players[0] { wait { } }
}
"""


def test_show_sorted_by_orders_a_hand_on_screen_as_the_rules_say_now():
    st = game_from(SORTED).new_state(0)
    v = st.view(0)
    hand = [c for c in sorted(v["zones"]["hand[P0]"]["cards"], key=v["order"].get)]
    assert hand == ["♣A", "♣K", "♠A", "♠10", "♠2", "♥7"]          # trump first, then by suit, strongest first
    assert "♣A ♣K ♠A ♠10 ♠2 ♥7" in render(v)
    assert "♠K" not in v["order"]                                   # only cards P0 may see are ranked
    st.apply(0, "hearts")
    assert "♥7 ♠A ♠10 ♠2 ♣A ♣K" in render(st.view(0))             # the order follows the trump
    assert "♠A" not in st.view(1)["order"]                          # P1 does not see P0's hand


def test_a_menu_leaves_out_a_label_that_only_repeats_the_id():
    st = game_from("""
        ruleset menu_labels
        players 2
        cards standard() in deck
        zone deck: pile hidden
        setup { }
        phase play {
            choose players[0] {
                draw_one "draw one | 一枚引く" { end game }
                pass "Pass" { end game }
                keep "keep the card" { end game }
            }
        }
    """).new_state(0)
    text = render_choices(st.view(0)["decision"], columns=200)
    assert "draw_one" in text and "draw_one (" not in text
    assert "pass" in text and "pass (Pass)" not in text and "keep (keep the card)" in text
