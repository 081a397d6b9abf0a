"""Random playouts take each decision inside the compiled rules (Game.playout: choices, responses
and their act events made inline). They must play exactly the game a driver loop plays through
apply_raw with the same random numbers: same events, same final state, for every bundled ruleset."""

from __future__ import annotations

import random

import pytest

from interpreter.api import load, load_text
from interpreter.resources import bundled_rulesets


def drive(game, st, rnd):
    while not st.over:
        for p in st.to_move():
            opts = st.opts if st.schosen is None else st.sopts[st.pend[1].index(p)]
            game.apply_raw(st, p, opts[int(rnd() * len(opts))])
            if st.over:
                break


@pytest.mark.parametrize("name", bundled_rulesets())
def test_playout_plays_the_game_apply_raw_plays(name):
    game = load(name)
    for seed in range(4):
        inline, driven = game.new_state(seed), game.new_state(seed)
        n = game.playout(inline, random.Random(seed).random)
        drive(game, driven, random.Random(seed).random)
        assert inline.ev == driven.ev
        assert inline.to_json() == driven.to_json()
        assert n == driven.ndec


@pytest.mark.parametrize("name", [*bundled_rulesets(), "coup", "tichu", "six_nimmt"])
def test_a_playout_cut_short_stops_inline_where_apply_raw_stops(name):
    """Bots' rollouts stop after N decisions (`evaluate … after N`, the rollout limit): the rules take
    the decisions inline up to there and wait at the next one, as a driver loop of N apply_raw
    calls leaves them — and the game played on from there is the same game."""
    game = load(name)
    for seed in range(3):
        for cut in (1, 7, 40):
            inline, driven = game.new_state(seed), game.new_state(seed)
            rnd, rnd2 = random.Random(seed).random, random.Random(seed).random
            n = game.playout(inline, rnd, cut)
            k = 0
            while not driven.over and k < cut:
                for p in driven.to_move():
                    opts = driven.opts if driven.schosen is None else driven.sopts[driven.pend[1].index(p)]
                    game.apply_raw(driven, p, opts[int(rnd2() * len(opts))])
                    k += 1
                    if driven.over or k >= cut:
                        break
            assert n == k and inline.ev == driven.ev and inline.to_json() == driven.to_json()
            game.playout(inline, rnd)
            drive(game, driven, rnd2)
            assert inline.to_json() == driven.to_json()


@pytest.mark.parametrize("name", bundled_rulesets())
def test_a_quiet_playout_plays_the_same_game_and_leaves_the_log_alone(name):
    """quiet=True (simulate's all-random games, bots' rollouts): the rules compiled without their
    events play the same decisions to the same end; the state's log stays as it was."""
    game = load(name)
    for seed in range(6):
        loud, quiet = game.new_state(seed), game.new_state(seed)
        before = list(quiet.ev)
        n = game.playout(loud, random.Random(seed).random)
        assert game.playout(quiet, random.Random(seed).random, quiet=True) == n
        assert quiet.ev == before
        a, b = loud.to_json(), quiet.to_json()
        a.pop("ev"), b.pop("ev")
        assert a == b
        assert game.result(loud) == game.result(quiet)
    for seed in range(3):                      # cut short and weighted, as bots' rollouts play
        loud, quiet = game.new_state(seed), game.new_state(seed)
        game.playout(loud, random.Random(seed).random, 40, weighted=True)
        game.playout(quiet, random.Random(seed).random, 40, weighted=True, quiet=True)
        a, b = loud.to_json(), quiet.to_json()
        a.pop("ev"), b.pop("ev")
        assert a == b
    later = game.new_state(0)                  # and the game's own (loud) rules are untouched
    game.playout(later, random.Random(0).random)
    assert len(later.ev) > len(before)


def test_an_event_whose_values_draw_at_random_stays_in_the_quiet_rules():
    """Leaving out an event must not leave out what its values do: a logged random number."""
    from interpreter.compile import quiet_source

    game = load_text(ROLLS)
    src = quiet_source(game.comp.source)
    assert "st.ev.append" in src and src.count("\n") == game.comp.source.count("\n")
    for seed in range(5):
        loud, quiet = game.new_state(seed), game.new_state(seed)
        game.playout(loud, random.Random(seed).random)
        game.playout(quiet, random.Random(seed).random, quiet=True)
        assert loud.g == quiet.g and loud.z == quiet.z


ROLLS = """
ruleset rolls
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var total: int = 0
setup { deal 3 from deck to hand }
phase play {
    repeat 6 {
        log "a roll of {random([1, 2, 3, 4, 5, 6])}"
        choose current {
            add "add" { total += random([1, 2, 3, 4, 5, 6]) }
            wait "wait" { }
        }
        current = next(current)
    }
    end game
}
"""


ENDLESS = """
ruleset endless
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
limit 40 decisions
setup { deal 3 from deck to hand }
phase play {
    while true {
        choose current {
            swap c in hand[current] "swap {c}" { move c to deck  move top(deck) to hand[current] }
            wait "wait" { }
        }
        current = next(current)
    }
}
"""


def test_playout_stops_at_the_decision_limit_like_apply_raw():
    game = load_text(ENDLESS)
    inline, driven = game.new_state(1), game.new_state(1)
    game.playout(inline, random.Random(1).random)
    drive(game, driven, random.Random(1).random)
    assert inline.capped and inline.ndec == 40
    assert inline.ev == driven.ev


SIZES = """
ruleset sizes
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var seen: list of bool = []
setup { deal 2 from deck to hand }
phase play {
    while size(hand[current]) > 0 {
        seen = seen + [size(hand[current]) == 0, size(deck) != 0, size(hand[next(current)]) >= 1]
        choose current { drop c in hand[current] "drop {c}" { move c to deck } }
        current = next(current)
    }
    end game
}
"""


def test_size_tests_become_truth_tests_with_the_same_values():
    game = load_text(SIZES)
    body = game.comp.source[game.comp.source.index("def P"):]
    assert "len(" not in body.split("def E")[0]
    st = game.new_state(0)
    game.playout(st, random.Random(0).random)
    seen = next(st.g[v.slot] for v in game.prog.vars if v.name == "seen")
    # the first turn: an own hand of 2 (not empty), a deck left, the other hand not empty
    assert st.over and seen[:3] == (False, True, True)
