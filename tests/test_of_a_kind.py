"""of_a_kind(list): how many times the most frequent element occurs (n of a kind)."""

from __future__ import annotations

from interpreter.api import load_text

RULES = """
ruleset kinds
players 2
cards standard(jokers = 1) in deck
zone deck: pile hidden
zone hand: hand per player owner
var most: int = -1
var most_suit: int = -1
var none_left: int = -1
var distinct: int = -1
var total: int = -1
var spades: int = -1
setup {
    move [card("♠7"), card("♥7"), card("♦7"), card("♣2"), card("♠2"), card("JK1")] to hand[players[0]]
    most = of_a_kind([c.rank for c in hand[players[0]] where not c.joker])
    most_suit = of_a_kind([c.suit for c in hand[players[0]]])
    none_left = of_a_kind([c.rank for c in hand[players[1]]])
    distinct = of_a_kind([c.rank for c in hand[players[0]] where c.suit == ♠])
    total = sum([c.rank for c in hand[players[0]] where not c.joker])
    spades = sum([1 for c in hand[players[0]] where c.suit == ♠])
}
phase play { }
"""


def test_of_a_kind_counts_the_largest_group():
    st = load_text(RULES, filename="kinds.fuda").new_state(0)
    v = st.view(None)["vars"]
    assert v["most"] == 3            # three 7s
    assert v["most_suit"] == 2       # ♠7 ♠2
    assert v["none_left"] == 0       # an empty hand


def test_sum_and_of_a_kind_over_a_zone_loop_in_a_helper():
    """The compiler turns them into one loop each (AG helpers), with the builtins' results."""
    game = load_text(RULES, filename="kinds.fuda")
    assert "def AG" in game.comp.source
    v = game.new_state(0).view(None)["vars"]
    assert v["distinct"] == 1        # ♠7 ♠2: all different
    assert v["total"] == 25          # 7 + 7 + 7 + 2 + 2, the Joker left out
    assert v["spades"] == 2
