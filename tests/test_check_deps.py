"""State-based checks after a single card moved: only the conditions that read one of its two zones are
tried, and a check `for p in L` that reads a per-player zone only as ZONE[p] only for the owners of those
zones (docs/language.md §18). The result must be the same as trying every check for every player."""

from __future__ import annotations

from interpreter.api import load_text
from interpreter.check import check
from interpreter.compile.check_deps import _check_deps, _grows_with
from interpreter.compile.expr import ExprGen
from interpreter.load import load_source

RULES = """
ruleset deps_test
players 3
cards standard() in deck
zone deck: pile hidden
zone pile: pile public
zone hand: hand per player owner
var fired: list of player = []
var big: list of player = []

fn full(q: player) -> bool = size(hand[q]) >= 3
fn matching(q: player) -> bool = size(pile) > 0 and size(hand[q]) == top(pile).rank

# reads hand[p] only (through a function): tried for the owner of a moved card's zones
check three for p in players when full(p) and not (p in fired) {
    fired += [p]
}
# reads the shared pile: tried for everyone when the pile changes
check matched for p in players when matching(p) and not (p in big) {
    big += [p]
}
# asks where a card is: tried after every move
check marker when holder(card("♠A")) == players[2] {
    move card("♠A") to pile
}
# reads a neighbour's hand: hand is read for every player
check neighbour for p in players when size(hand[next(p)]) > 10 {
    log "{p}"
}

setup { }

phase play {
    while true {
        choose players[0] {
            give c in cards(deck), q in players where c.rank <= 3 "give {c} to {q}" {
                move c to hand[q]
            }
            lay c in cards(deck) where c.suit == ♥ and c.rank <= 3 "lay {c}" {
                move c to pile
            }
            drop c in cards(hand[players[1]]) "drop {c}" {
                move c to deck
            }
            stop { end game }
        }
    }
}
"""


def test_dependencies_of_each_check():
    prog = check(load_source("deps.fuda", RULES))
    deps = _check_deps(prog)
    assert deps[0] == ({"hand"}, set())            # three: its own hand only (through a function)
    assert deps[1] == ({"hand"}, {"pile"})         # matched: its own hand and the shared pile
    assert deps[2] is None                          # marker asks holder(): any move may matter
    assert deps[3] == (set(), {"hand"})             # neighbour reads hand[next(p)]: every hand


def test_conditions_that_only_grow_with_a_zone():
    """A condition that cards arriving can make true but cards leaving cannot (sizes at least, four of
    a kind, `c in zone`, `any`/`count`, sums and `and`/`or` of such): a card leaving that zone does
    not send the check to be tried again."""
    prog = check(load_source("deps.fuda", RULES))
    three, matched, _, neighbour = (c.decl.cond for c in prog.checks)
    assert _grows_with(three, "hand")                  # size(hand[q]) >= 3 and not (p in fired)
    assert not _grows_with(matched, "hand")            # size(hand[q]) == top(pile).rank
    assert _grows_with(neighbour, "hand")
    cases = {
        "size(hand[p]) <= 3": False,
        "any c in hand[p] where c.rank == 13": True,
        "(count c in hand[p] where c.rank == 13) >= 2": True,
        "all c in hand[p] where c.rank == 13": False,
        "not (any c in hand[p] where c.rank == 13)": False,
        "of_a_kind([c.rank for c in hand[p] where not c.joker]) + (if card(\"♠A\") in hand[p] then 1 else 0) >= 4": True,
        "size(hand[p]) - size(pile) >= 2": True,
        "sum([c.rank for c in hand[p]]) >= 10": False,
        "size(hand[p]) > 0 and top(pile).rank == 3": True,      # the pile is another zone
        "size(hand[p]) > 0 and top(hand[p]).rank == 3": False,
    }
    for text, grows in cases.items():
        src = RULES.replace("fn full(q: player) -> bool = size(hand[q]) >= 3",
                            f"fn full(q: player) -> bool = size(hand[q]) >= 3\nfn probe(p: player) -> bool = {text}")
        prog = check(load_source("deps.fuda", src))
        assert _grows_with(prog.fns["probe"].decl.body, "hand") is grows, text


def vars_of(st):
    return st.view(None)["vars"]


def test_only_owners_are_tried_and_checks_still_fire(monkeypatch):
    monkeypatch.setattr(ExprGen, "INLINE_SIZE", 0)     # keep full() and matching() as calls to count them
    game = load_text(RULES, filename="deps.fuda")
    ns = game.comp.namespace
    calls: list[tuple[str, int]] = []
    for name in ("F_full", "F_matching"):
        f = ns[name]

        def wrapped(st, p, _f=f, _n=name[2:]):
            calls.append((_n, p))
            return _f(st, p)
        ns[name] = wrapped
    st = game.new_state(1)
    st.apply(0, "give ♣A P1")          # nothing known yet: a full pass (every check, every player)
    assert {p for _, p in calls} == {0, 1, 2}
    calls.clear()
    st.apply(0, "give ♣2 P1")
    # deck → hand[P1]: the pile did not change, so both checks are tried for P1 alone
    assert calls == [("full", 1), ("matching", 1)]
    calls.clear()
    st.apply(0, "lay ♥2")
    # deck → pile: `matched` reads the pile: tried for P0, then P1, whose 2 cards match the ♥2
    # (`three` does not read the pile: not tried; then, as something holds, the full pass)
    assert calls[:3] == [("matching", 0), ("matching", 1), ("full", 0)]
    assert vars_of(st)["big"] == [1]
    st.apply(0, "give ♣3 P1")
    assert vars_of(st)["fired"] == [1]
    # hand[P1] → deck: `three` only grows with the hand and is not tried; `matched` is, for P1
    calls.clear()
    st.apply(0, "drop ♣A")
    assert calls == [("matching", 1)]
    assert vars_of(st)["fired"] == [1]
    # a check that asks where a card is (holder) is tried after every move
    st.apply(0, "give ♠A P2")
    assert st.view(None)["zones"]["pile"]["cards"] == ["♥2", "♠A"]


def test_a_check_list_may_read_variables():
    """`for p in seats_from(current)`: the list itself reads the state (the driver once failed on it)."""
    game = load_text(RULES.replace("check three for p in players", "check three for p in seats_from(current)"),
                     filename="deps.fuda")
    st = game.new_state(1)
    for c in ("♣A", "♣2", "♣3"):
        st.apply(0, f"give {c} P2")
    assert vars_of(st)["fired"] == [2]


MANY = """
ruleset many_test
players 2
cards standard() in deck
zone deck: pile hidden
zone pile: pile public
zone spare: pile public
zone hand: hand per player owner
var fired: list of player = []

fn full(q: player) -> bool = size(hand[q]) >= 3

check three for p in players when full(p) and not (p in fired) {
    fired += [p]
}

setup { }

phase play {
    while true {
        choose players[0] {
            spades q in players "spades {q}" {
                move [c for c in deck where c.suit == ♠ and c.rank <= 3] to hand[q]
            }
            lay "lay" { move top(deck) to pile }
            mixed "mixed" { move [top(deck), top(hand[players[1]])] to spare }
            empty "empty" { move spare to pile }
            mix "mix" { shuffle deck }
            stop { end game }
        }
    }
}
"""


def test_moves_of_several_cards_and_shuffles_take_the_fast_pass(monkeypatch):
    """Cards moved from one zone to another (a whole zone, a filter of one) change what one card's
    move changes: the checks are tried as after one card; from several zones, a full pass; nothing
    moved, nothing tried; a shuffle changes one zone."""
    monkeypatch.setattr(ExprGen, "INLINE_SIZE", 0)
    game = load_text(MANY, filename="many.fuda")
    ns = game.comp.namespace
    calls: list[int] = []
    f = ns["F_full"]

    def wrapped(st, p):
        calls.append(p)
        return f(st, p)
    ns["F_full"] = wrapped
    st = game.new_state(1)
    st.apply(0, "lay")                  # nothing known yet: a full pass
    assert calls == [0, 1]
    calls.clear()
    st.apply(0, "mix")                  # the deck is not read
    st.apply(0, "empty")                # nothing moved
    assert calls == []
    st.apply(0, "spades P1")            # deck → hand[P1], three cards at once: P1 alone, and it fires
    assert calls[0] == 1 and vars_of(st)["fired"] == [1]
    calls.clear()
    st.apply(0, "mixed")                # from the deck and from a hand: every check, every player
    assert calls == [0, 1]
