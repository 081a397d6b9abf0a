"""Option conditions worked out at compile time: a `where` that reads only the option's card, one
hoisted card (a pile's top) and card attributes becomes a [top][card] table lookup; a term of an
`or` that does not read the option (a variable) is tested once ahead of the loop and the rest may
still be a table; anything else that reads the state is not tabulated. All list the same actions."""

from __future__ import annotations

from interpreter.api import load_text

RULES = """
ruleset tables
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone pile: pile public
zone hand: hand per player owner
var lenient: bool = false
fn fits(c: card, t: card) -> bool = c.suit == t.suit or c.rank == t.rank
setup {
    deal 5 from deck to hand
    move top(deck) to pile
}
phase play {
    while true {
        choose current {
            play c in hand[current] where fits(c, top(pile)) "play {c}" { move c to pile }
            slip c in hand[current] where lenient or fits(c, top(pile)) "slip {c}" { move c to pile }
            nudge c in hand[current] where fits(c, top(pile)) or lenient and c.rank == 99 "nudge {c}" { move c to pile }
            draw "draw" { move top(deck) to hand[current] }
        }
        current = next(current)
    }
}
"""


def test_a_card_condition_is_a_table_and_lists_the_same_actions():
    game = load_text(RULES)
    src = game.comp.source
    assert src.count("_t = CT") == 2                     # `play` and `slip` are looked up, `nudge` is not
    st = game.new_state(4)
    played = 0
    for _ in range(12):
        p = st.to_move()[0]
        legal = [a.id for a in st.legal_actions(p)]
        plays = sorted(x[5:] for x in legal if x.startswith("play "))
        assert plays == sorted(x[5:] for x in legal if x.startswith("slip "))   # by tables
        assert plays == sorted(x[6:] for x in legal if x.startswith("nudge "))  # and by code
        played += bool(plays)
        st.apply(p, "play " + plays[0] if plays else "draw")
    assert played >= 3


GUARDED = """
ruleset guarded
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone pile: pile public
zone hand: hand per player owner
var lenient: bool = false
setup {
    deal 5 from deck to hand
    move top(deck) to pile
}
phase play {
    while true {
        choose current {
            king c in hand[current] where c.rank == 13 and c.suit != top(pile).suit "king {c}" { move c to pile }
            monarch c in hand[current] where (lenient or c.rank == 13) and c.suit != top(pile).suit "monarch {c}" { move c to pile }
            draw "draw" { move top(deck) to hand[current] }
        }
        current = next(current)
    }
}
"""


def test_a_card_attribute_test_first_skips_the_loop_when_none_of_its_cards_is_there():
    """`where c.rank == 13 and …`: at most four cards can pass, so the hand is looped over only when
    one of them is in it (the `monarch` option, whose test reads a variable first, always loops)."""
    game = load_text(GUARDED)
    assert game.comp.source.count("if LOC[12] == ") == 1
    st = game.new_state(2)
    kings = 0
    for _ in range(40):
        p = st.to_move()[0]
        legal = [a.id for a in st.legal_actions(p)]
        ks = sorted(x[5:] for x in legal if x.startswith("king "))
        assert ks == sorted(x[8:] for x in legal if x.startswith("monarch "))
        kings += bool(ks)
        st.apply(p, "king " + ks[0] if ks else "draw")
    assert kings > 0


FLAGGED = """
ruleset flagged
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone pile: pile public
zone hand: hand per player owner
var open: bool = false
setup {
    deal 5 from deck to hand
    move top(deck) to pile
}
phase play {
    while true {
        choose current {
            shed c in hand[current] where open and c.suit == top(pile).suit "shed {c}" { move c to pile }
            drop c in hand[current] where c.suit == top(pile).suit and open "drop {c}" { move c to pile }
            draw "draw" { move top(deck) to hand[current]; open = not open }
        }
        current = next(current)
    }
}
"""


def test_a_leading_variable_test_of_an_and_rules_the_loop_out():
    """`where open and …`: the flag is tested once, and while it is false the hand is not looped
    over at all; a flag after a term on the card stays in the loop. Both list the same actions."""
    game = load_text(FLAGGED)
    src = game.comp.source
    assert src.count("    if (G[") == 1 and "for b" in src.split("    if (G[", 1)[1].split("\n")[1]
    st = game.new_state(3)
    shed = 0
    for _ in range(40):
        p = st.to_move()[0]
        legal = [a.id for a in st.legal_actions(p)]
        s = sorted(x[5:] for x in legal if x.startswith("shed "))
        assert s == sorted(x[5:] for x in legal if x.startswith("drop "))
        shed += bool(s)
        st.apply(p, "shed " + s[0] if s else "draw")
    assert shed > 0


WHOLLY_FIXED = """
ruleset g
players 2
option mode: bool = false
cards standard() in deck
zone deck: pile hidden
var on: bool = true
fn many() -> list of card = [c for c in all_cards where c.rank > 2]
setup { }
phase play {
    choose players[0] {
        a c in many() where mode "a {c}" { }
        b c in many() where on "b {c}" { }
        flip "flip" { }
    }
}
"""


def test_a_where_that_reads_no_binder_rules_the_loop_out_before_its_list_is_built():
    """Go Fish's ask-for-a-card option (`c in wanted(p) where ask_for == one_card`) built its list of
    cards at every decision and threw each away: a where of fixed terms alone is now tested once,
    ahead of the loop, and nothing is left to test in it."""
    game = load_text(WHOLLY_FIXED)
    src = game.comp.source
    e0 = src[src.index("def E0("):src.index("return out", src.index("def E0("))]
    assert "    if (False):\n        for b" in e0 and "    if (G[" in e0
    assert "            if " not in e0      # no test left inside the loops
    ids = [a.id for a in game.new_state(0).legal_actions(0)]
    assert len(ids) == 4 * 11 + 1 and ids[-1] == "flip" and not any(i.startswith("a ") for i in ids)
