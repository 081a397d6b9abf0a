"""The native target (compile/native.py, Game.use_native): the rules compiled to C by Cython play
exactly the games the Python rules play — the same events, states and ends for the same seeds —
and a failure in C is reported as Python reports it. Built extensions are kept in pytest's cache
directory (conftest.py), so a second run of the suite does not build them again."""

from __future__ import annotations

import json
import random
import sysconfig

import pytest

from interpreter.api import load, load_text
from interpreter.compile import native
from interpreter.errors import RuleRuntimeError
from interpreter.runner.cli import main

pytestmark = pytest.mark.skipif(native.available() is not None,
                                reason=f"the native target cannot be built here: {native.available()}")


HIGH_CARD = """
ruleset high_card
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
zone hand: hand per player owner
setup { shuffle deck  deal 4 from deck to hand }
phase play {
    repeat 4 {
        for p in seats_from(current) {
            choose p {
                play c in hand[p] "play {c}" { move c to table  if c.rank > 10 { score[p] += 1 } }
            }
        }
    }
    end game ranking p in players by score[p]
}
"""

# the plain version of a loop over options beside the version that reads the top card's rank once:
# canasta's meld options read the top card in their source; with an empty discard it has no rank
NO_TOP = """
ruleset no_top
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone discard: pile public
zone hand: hand per player owner
setup { deal 3 from deck to hand  move top(deck) to discard }
phase play {
    repeat 10 {
        choose current {
            match c in (if top(discard).rank == 3 then cards(hand[current]) else cards(hand[current]))
                where c.rank == top(discard).rank "match" { move c to discard }
            take "take" { move top(discard) to hand[current] }
        }
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
var n: int = 0
rule again() { n += 1  again() }
setup { deal 1 from deck to hand }
phase play {
    choose current { go "go" { again() } }
    end game
}
"""


def play_both(game, seeds, **kw) -> None:
    """Each seed played by the Python rules and by the rules in C: the same game."""
    for seed in seeds:
        for quiet in (False, True):
            game.use_native(False)
            a = game.new_state(seed)
            na = game.playout(a, random.Random(seed).random, quiet=quiet, **kw)
            game.use_native()
            b = game.new_state(seed)
            nb = game.playout(b, random.Random(seed).random, quiet=quiet, **kw)
            game.use_native(False)
            assert na == nb
            assert a.to_json() == b.to_json()
            assert game.result(a) == game.result(b)


def test_the_rules_in_c_play_the_python_games():
    game = load_text(HIGH_CARD)
    game.use_native()
    compiled = "cython_function_or_method"           # not Python's: the rules and the engine's helpers
    assert type(game.native[0][1][0]).__name__ == compiled and type(game.native[0][0]["_shuffle"]).__name__ == compiled
    # a function type of their own, apart from that of modules Cython built with vectorcall (native.ABI)
    assert native.ABI in type(game.native[0][1][0]).__module__
    play_both(game, range(20))


def test_super_page_one_in_c_plays_the_python_games():
    """The issue's benchmark game, whose speed `fuda bench` reports for the rules in C: its effect
    stack, response windows and state-based checks give the same events, decision for decision;
    also a bot's rollouts (weighted, cut short after 40 decisions)."""
    game = load("super_page_one")
    try:
        play_both(game, range(30))
        play_both(game, range(5), max_decisions=40, weighted=True)
    finally:
        game.use_native(False)


def test_a_rule_failing_in_c_is_reported_as_in_python():
    """C code has no Python frames to find the failing part of a rule by: the playout is played
    again in Python from the same state and draws, and fails there, where Python reports it."""
    game = load_text(NO_TOP)
    said = []
    for in_c in (False, True):
        game.use_native(in_c)
        st = game.new_state(0)
        with pytest.raises(RuleRuntimeError) as e:
            game.playout(st, random.Random(0).random)
        said.append(str(e.value))
    assert said[0] == said[1] and "a value the rule needed was none" in said[0]


def test_a_setup_failing_in_c_is_reported_as_in_python():
    """A new game sets up in C too (bench and simulate time it); failing there, it is set up again
    in Python, which reports the rule."""
    game = load_text(NO_TOP.replace("move top(deck) to discard", "move top(discard) to hand[current]"))
    said = []
    for in_c in (False, True):
        game.use_native(in_c)
        with pytest.raises(RuleRuntimeError) as e:
            game.new_state(0)
        said.append(str(e.value))
    assert said[0] == said[1] and ":8:" in said[0] and "^" in said[0]


def test_rules_recursing_without_end_stop_in_c_as_in_python():
    """Calls between compiled functions count against Python's recursion limit (native.DEFINES):
    an endless recursion stops the game with E601, not the process with a crashed C stack."""
    game = load_text(ENDLESS)
    said = []
    for in_c in (False, True):
        game.use_native(in_c)
        with pytest.raises(RuleRuntimeError) as e:
            game.playout(game.new_state(0), random.Random(0).random)
        said.append(str(e.value))
    assert said[0] == said[1] and "the rules recurse without end" in said[0]


def test_a_damaged_cache_file_is_built_again_not_loaded(tmp_path, monkeypatch):
    """The dynamic loader crashes the process (SIGBUS) on a truncated extension: one whose bytes
    differ from its checksum is built again, never loaded."""
    monkeypatch.setenv("FUDA_CACHE", str(tmp_path))
    source = "def P0(st, fr):\n    return 'damaged'\n"
    text = native.module_text(source, {})
    cc = native._compiler()
    modname, path = native.target(text, cc)
    native._build(text, modname, path, cc, native.OPT, "tiny")
    assert native._intact(path)
    path.write_bytes(path.read_bytes()[:50_000])
    told = []
    (ns,) = native.load([(source, {})], "tiny", told.append)
    assert told and ns["P0"](None, None) == "damaged" and native._intact(path)


def test_a_cache_that_cannot_be_written_is_said_in_words(tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("FUDA_CACHE", str(blocked))
    with pytest.raises(native.NativeError, match="cannot build in .*a file/native: .*set FUDA_CACHE to a writable"):
        native.load([("def P0(st, fr):\n    return 'blocked'\n", {})], "tiny")
    path = tmp_path / "high_card_blocked.fuda"
    path.write_text(HIGH_CARD.replace("high_card", "high_card_blocked"))
    assert main(["simulate", str(path), "-n", "5", "--native", "-q"]) == 0
    assert "note: --native: cannot build in" in capsys.readouterr().err


def test_fuda_bench_times_the_rules_in_c(tmp_path, capsys):
    path = tmp_path / "high_card.fuda"
    path.write_text(HIGH_CARD)
    assert main(["bench", str(path), "-n", "20", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "in C, with the log" in out and "in C, quiet" in out
    assert main(["bench", str(path), "-n", "20", "--rounds", "1", "--no-native"]) == 0
    assert "in C" not in capsys.readouterr().out


def test_bench_bot_times_the_search_in_c_too_and_the_search_chooses_as_in_python():
    from interpreter.bots.ismcts import ISMCTS
    from interpreter.runner.bench import bench_bot

    r = bench_bot("american_page_one", {}, "ismcts", states=1, seconds=0.05)
    assert r["native_unavailable"] is None and r["native_iterations_per_second"] > 0
    assert bench_bot("american_page_one", {}, "ismcts", states=1, seconds=0.05,
                     native=False)["native_iterations_per_second"] is None
    game = load("american_page_one")
    for seed in range(3):
        st = game.new_state(seed)
        p = st.to_move()[0]
        chosen = []
        for in_c in (False, True):
            game.use_native(in_c)
            chosen.append(ISMCTS(seed, iterations=60).choose(st, p, st.legal_actions(p)))
        game.use_native(False)
        assert chosen[0] == chosen[1]


def test_without_a_c_compiler_bench_says_so_and_simulate_plays_in_python(tmp_path, capsys, monkeypatch):
    path = tmp_path / "high_card_nocc.fuda"
    path.write_text(HIGH_CARD.replace("high_card", "high_card_nocc"))
    real = sysconfig.get_config_var
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: "no-such-cc" if name == "CC" else real(name))
    assert main(["bench", str(path), "-n", "10", "--rounds", "1"]) == 0
    assert "in C               not measured: no C compiler: `no-such-cc`" in capsys.readouterr().out
    assert main(["simulate", str(path), "-n", "10", "--native", "-q"]) == 0
    out = capsys.readouterr()
    assert "note: --native: no C compiler" in out.err and "the games are played in Python" in out.err
    assert "high_card_nocc.fuda: 10 games" in out.out


def test_fuda_simulate_native_plays_the_same_games(tmp_path, capsys):
    path = tmp_path / "high_card_sim.fuda"
    path.write_text(HIGH_CARD.replace("high_card", "high_card_sim"))
    stats = []
    for flags in ([], ["--native"]):
        assert main(["simulate", str(path), "-n", "40", "--json", "-q", *flags]) == 0
        s = json.loads(capsys.readouterr().out)
        s.pop("seconds"), s.pop("games_per_second")
        stats.append(s)
    assert stats[0] == stats[1]
    load(str(path)).use_native(False)


def test_a_function_too_large_for_the_c_compiler_stays_in_python(tmp_path, monkeypatch):
    """gcc takes minutes on one huge function (a turn with every continuation spliced in): such a
    function is left out of the C module and bound to its Python version; the rest is compiled."""
    monkeypatch.setenv("FUDA_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "MAX_FUNCTION", 60)
    source = "def small(x):\n    return x + 1\ndef large(x):\n    return small(x) + small(x) + small(x) + small(x) + 1\n"
    python: dict = {}
    exec(source, python)
    (ns,) = native.load([(source, python)], "sizes")
    assert ns["large"] is python["large"] and ns["small"] is not python["small"]
    assert type(ns["small"]).__name__ == "cython_function_or_method" and ns["large"](1) == 9
