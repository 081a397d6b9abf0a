"""Cards the rules name (interpreter/named.py): which card values every player can work out, as the
views and a bot's sampled worlds treat them (docs/language.md §8, "Cards the rules name")."""

from __future__ import annotations

import random

from interpreter.api import load_text
from interpreter.engine.determinize import determinize
from interpreter.engine.observe import view

HEAD = """
ruleset named_probe
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: pile per player owner
zone table: pile public
"""

BODY = """
var lit: card = none
var by_fn: card = none
var called: card = none
var secretly: card = none
var placed: card = none
var via_hidden: card = none
var via_random: card = none
var via_holder: card = none
var via_mixed: card = none
var later: card = none
var from_later: card = none
var from_placed: card = none
var suit: Suit = ♠ hidden
var picked: list of card = []
fn ace_of(s: Suit) -> card = best c in all_cards where c.suit == s and c.rank == 1 by 0
rule keep(c: card) { via_mixed = c }
setup {
    shuffle deck
    deal 3 from deck to hand
    lit = card("♥Q")
    by_fn = ace_of(♦)
    from_later = later
    from_placed = via_random           # named until via_random is found placed (a fixed point)
    later = card("♣2")
    placed = top(deck)
    via_hidden = ace_of(suit)
    via_random = random(all_cards)
    via_holder = if holder(card("♠A")) == players[0] then card("♠A") else card("♠2")
    keep(card("♠3"))
    keep(top(deck))
    choose players[0] "Call | 指名" { call c in all_cards where c.rank == 13 { called = c } }
    choose players[1] hidden "Secretly | 秘密に" { mark c in all_cards where c.rank == 12 { secretly = c } }
    for c in hand[players[0]] { picked += [c] }
}
phase play { end game }
"""


def _game():
    return load_text(HEAD + BODY)


def _named(game):
    return {v.name: v.named for v in game.prog.vars if v.type.kind in ("card", "list")}


def test_what_the_rules_name_and_what_they_find_by_place():
    named = _named(_game())
    assert {k for k, v in named.items() if v} == {"lit", "by_fn", "called", "later", "from_later"}
    # placed: a zone's top, a hidden value read, a random pick, where a card lies, a parameter given
    # a placed card by one call, a hidden choice, the cards of a hand
    assert not any(named[k] for k in ("placed", "via_hidden", "via_random", "via_holder", "via_mixed",
                                      "secretly", "picked", "from_placed"))


def test_a_named_card_shows_in_every_view_while_a_placed_one_shows_only_where_it_is_seen():
    game = _game()
    st = game.new_state(0)
    st.apply(0, st.legal_actions(0)[0])      # call the first king
    st.apply(1, st.legal_actions(1)[0])
    for p in (0, 1, None):
        seen = view(st, p)["vars"]
        assert seen["lit"] == "♥Q" and seen["by_fn"] == "♦A" and seen["called"] is not None
        assert seen["placed"] is None           # the top of the hidden deck
    assert view(st, 0)["vars"]["picked"] == view(st, 0)["zones"]["hand[P0]"]["cards"]
    assert view(st, 1)["vars"]["picked"] == [None, None, None]


def test_bots_worlds_keep_named_cards_and_move_placed_ones_with_their_position():
    game = _game()
    st = game.new_state(0)
    st.apply(0, st.legal_actions(0)[0])
    st.apply(1, st.legal_actions(1)[0])
    slot = {v.name: v.slot for v in game.prog.vars}
    deck = next(i for i in range(game.static_slots) if game.zone_name(st, i) == "deck")
    rng = random.Random(0)
    worlds = [determinize(st, 1, rng) for _ in range(20)]
    assert {w.g[slot["called"]] for w in worlds} == {st.g[slot["called"]]}
    assert {w.g[slot["by_fn"]] for w in worlds} == {st.g[slot["by_fn"]]}
    assert len({w.g[slot["placed"]] for w in worlds}) > 1
    for w in worlds:            # it still names the top of the deck, whatever card that is now
        assert w.g[slot["placed"]] == w.z[deck][-1]


def test_a_function_step_is_as_named_as_its_value():
    """`fn f(…) { let a = …  RESULT }`: a step read by the result passes on whether it is named."""
    game = load_text(HEAD + """
        fn ace_of(s: Suit) -> card = best c in all_cards where c.suit == s and c.rank == 1 by 0
        fn ace_step(s: Suit) -> card { let a = ace_of(s)  a }
        fn top_step() -> card { let t = top(deck)  t }
        fn unread_step(s: Suit) -> card { let t = top(deck)  ace_of(s) }
        var by_step: card = none
        var by_top: card = none
        var by_unread: card = none
        setup { by_step = ace_step(♦)  by_top = top_step()  by_unread = unread_step(♣) }
        phase play { end game }
    """)
    named = _named(game)
    assert named["by_step"] and named["by_unread"] and not named["by_top"]
