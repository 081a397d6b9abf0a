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


def test_a_sorted_zone_shows_sorted_to_everyone_who_sees_its_cards():
    """`zone … sorted`: a public pile of captured cards (a Koi-Koi newcomer re-stacked it by a rule
    after every turn) or an open hand shows in the `show … sorted by` order (else deck order) to every
    viewer, with no top marked; a zone without it keeps its real order, and the zone's real order
    is never changed."""
    zones = 'zone hand: hand per player owner\nzone taken: pile per player public sorted "Taken"\n' \
            'zone field: pile public "Field"'
    cards = 'move [card("♥K"), card("♣2"), card("♥3")] to taken[players[1]]\n' \
            '    move [card("♥Q"), card("♣3"), card("♥4")] to field\n    move [card("♠2")'
    text = SORTED.replace("zone hand: hand per player owner", zones).replace('move [card("♠2")', cards)
    st = game_from(text).new_state(0)
    for viewer in (0, 1, None):
        v = st.view(viewer)
        assert v["zones"]["taken[P1]"]["sorted"] and "sorted" not in v["zones"]["field"]
        screen = render(v)
        assert "Taken[P1]" in screen and "♣2 ♥K ♥3" in screen, screen
        assert "♥Q ♣3 ♥4  " in screen and "♣2 ♥K ♥3  " not in screen      # the field keeps its order and top
    slot = next(z for z in range(st.game.static_slots) if st.game.zone_name(st, z) == "taken[P1]")
    assert [st.game.card_names[c] for c in st.z[slot]] == ["♥K", "♣2", "♥3"]      # as they were moved
    unsorted = text.replace("show c sorted by (if c.suit == trump then 0 else 1, c.suit, 0 - power(c))\n", "")
    g = game_from(unsorted)
    deck = {name: i for i, name in enumerate(g.card_names)}      # as fuda play passes it
    assert "♥3 ♥K ♣2" in render(g.new_state(0).view(1), order=deck)     # deck order: ♥ before ♣


def test_sorted_is_for_piles_and_hands(tmp_path):
    import pytest

    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as e:
        game_from(SORTED.replace("zone hand: hand per player owner", "zone hand: hand per player owner\n"
                                 "zone board: grid(3, 3) sorted"))
    assert e.value.first.code == "E309" and "`sorted` is for piles and hands" in e.value.first.message


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


def test_a_menu_over_a_pile_follows_the_pile_as_it_lies():
    """newcomer43 P6 (Bohnanza): a hand that keeps its order (a pile) was offered in deck order,
    `pick ♠2, pick ♠10, …` under `♠10 ♣J ♠2 ♥K`. A pile's choices go together in its order (bottom
    first, as the screen reads), where the first would stand; a sorted hand keeps its order; the
    engine's order of legal actions (the binder's: bots, saved games) is left as it was."""
    from interpreter.runner.play import hand_order
    from interpreter.runner.table import Table

    g = game_from("""
        ruleset pile_menu
        players 2
        cards standard() in deck
        zone deck: pile hidden
        zone row: pile per player owner "Row"
        zone hand: hand per player owner "Hand"
        zone field: pile public "Field"
        setup {
            move [card("♣J"), card("♠2"), card("♥K"), card("♠10")] to row[players[0]]
            move [card("♦3"), card("♠5")] to hand[players[0]]
            move [card("♦5"), card("♠A")] to field
        }
        phase play {
            choose players[0] {
                pick c in row[players[0]] "pick {c}" { end game }
                take c in field "take {c}" { end game }
                lay c in hand[players[0]] "lay {c}" { end game }
                wait { end game }
            }
        }
    """)
    st = g.new_state(0)
    ids = [a.id for a in g.legal_actions(st, 0)]
    v = st.view(0)
    shown = [a.id for a in hand_order(g.legal_actions(st, 0), v, g.card_index)]
    # each option's together, in the rules' order (newcomers 49 and 50: options mixed by card were unreadable)
    assert shown == ["pick ♣J", "pick ♠2", "pick ♥K", "pick ♠10", "take ♦5", "take ♠A", "lay ♠5", "lay ♦3", "wait"]
    assert [a["id"] for a in v["decision"]["legal"]] == shown              # the menu the numbers pick from
    assert [a.id for a in g.legal_actions(st, 0)] == ids                    # the engine's own order: untouched
    assert "♣J ♠2 ♥K ♠10" in render(v)
    table = Table(g, ["human", "random"], seed=0)
    assert [a["id"] for a in table.state(0)["actions"]] == shown            # the web table lists them so too


def test_a_variable_of_cards_shows_them_as_the_zones_do():
    """newcomer43 P4 (Bohnanza): `Offered = [chili18, stink15]` on the screen that showed the same
    cards as `Chili bean` in every zone, menu and log line. A card variable, a list of cards and a
    per-player one show their cards by label."""
    st = game_from("""
        ruleset card_vars
        players 2
        cards {
            attr n: int
            card "chili18" "Chili bean | チリ" n = 1
            card "stink15" "Stink bean | ステンチ" n = 2
            card "soy3" "Soy bean | ソイ" n = 3
        }
        zone deck: pile public "Deck"
        var offered: list of card = [] "Offered | 提示"
        var last: card = none "Last | 最後"
        var kept: list of card per player = [] "Kept | 保管"
        setup {
            offered = [card("chili18"), card("stink15")]
            last = card("soy3")
            kept[players[1]] = [card("soy3")]
        }
        phase play { choose players[0] { wait { end game } } }
    """).new_state(0)
    screen = render(st.view(0))
    assert "Offered = [Chili bean, Stink bean]" in screen and "Last = Soy bean" in screen, screen
    assert "Kept [Soy bean]" in screen and "chili18" not in screen and "soy3" not in screen
    assert "提示 = [チリ, ステンチ]" in render(st.view(0, lang=1), 1)
