"""The `rollout` seat (bots/rollout.py): random in proportion to the rules' rollout weights, worked out
in a world sampled from its own view."""

from __future__ import annotations

import textwrap

from interpreter.api import load, load_text
from interpreter.bots.base import make_bot
from interpreter.runner.simulate import run_game

from .conftest import ROOT


def test_a_rollout_seat_plays_as_the_weights_say():
    game = load(str(ROOT / "tests" / "constructs" / "rollout_weight.fuda"))
    wins = [0, 0]
    for seed in range(40):      # P1's give-ups weigh 0: after a random P0's dare it always punishes
        st = run_game(game, seed, ["random", "rollout"])
        for r in game.result(st):
            wins[r["player"]] += r["outcome"] == "win"
    assert wins[0] == 0 and wins[1] >= 10


def test_a_weight_that_reads_a_hidden_hand_tells_the_rollout_seat_nothing():
    """P1's guess weighs 1 only for the card P0 holds: read in the real game it would always hit;
    worked out in a world P1 samples, it hits about one time in fifty-one."""
    game = load_text(textwrap.dedent("""
        ruleset guess
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { shuffle deck  deal 1 from deck to hand }
        phase play {
            choose players[1] {
                guess c in all_cards where not (c in hand[players[1]])
                        rollout weight (if c in hand[players[0]] then 1 else 0) {
                    if c in hand[players[0]] { win players[1] } else { win players[0] }
                }
            }
        }
    """))
    hits = 0
    for seed in range(60):
        st = game.new_state(seed)
        bot = make_bot("rollout", seed)
        game.apply_raw(st, 1, bot.choose(st, 1, game.legal_actions(st, 1)).raw)
        hits += game.result(st)[1]["outcome"] == "win"
    assert hits < 10


def test_a_rollout_seat_samples_no_world_where_the_weights_read_nothing(monkeypatch):
    """Hanabi newcomer: a rollout seat was five times slower than a random one even with the weights
    written out as numbers: it sampled a world for every decision."""
    import interpreter.bots.rollout as rollout

    game = load_text(textwrap.dedent("""
        ruleset fixed
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { shuffle deck  deal 2 from deck to hand }
        phase play {
            choose players[0] { play c in hand[players[0]] { } }
            choose players[1] {
                low rollout weight 3 * 3 - 9 { win players[0] }
                high rollout weight (if 2 > 1 then 1 else 0) { win players[1] }
            }
        }
    """))

    def no_world(*args, **kwargs):
        raise AssertionError("sampled a world")

    monkeypatch.setattr(rollout, "determinize", no_world)
    for seed in range(20):
        st = run_game(game, seed, ["rollout", "rollout"])
        assert game.result(st)[1]["outcome"] == "win"


def test_a_weight_that_reads_none_of_its_binders_is_worked_out_once_a_decision():
    """Hold'em newcomer: `bet n in 1..100 rollout weight 1 / size(…)` worked the weight out for each of
    the hundred actions, which made the search three times slower."""
    game = load_text(textwrap.dedent("""
        ruleset bets
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        fn spread() -> number = 1 / size(deck)
        setup { }
        phase play {
            choose players[0] {
                bet n in 1..100 rollout weight spread() "bet {n}" { }
                raise n in 1..3 rollout weight n "raise {n}" { }
                fold rollout weight 2 { }
            }
        }
    """))
    st = game.new_state(0)
    site = game.sites[st.pend[0]]
    assert site.weights_shared == frozenset({0})
    calls = []
    real = site.weights

    def counted(*args):
        calls.append(args[-1][0])
        return real(*args)

    site.weights = counted
    try:
        ws = game.rollout_weights(st, 0, st.opts)
    finally:
        site.weights = real
    assert ws == [1 / 52] * 100 + [1, 2, 3] + [2]
    assert calls.count(0) == 1 and calls.count(1) == 3 and calls.count(2) == 1


def test_without_any_rollout_weight_a_rollout_seat_is_a_random_one():
    """A newcomer's Hearts ran 25× slower with rollout seats that could only play uniformly."""
    game = load("american_page_one")
    assert not game.weighted
    for seed in range(3):
        a = run_game(game, seed, ["rollout", "random", "rollout", "random"])
        b = run_game(game, seed, ["random"] * 4)
        assert a.to_json() == b.to_json()
