"""The fuda command, in-process: every subcommand, its help, and its refusal of bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load
from interpreter.runner.cli import build_parser, main
from interpreter.runner.play import play

from .conftest import ROOT

APO = str(ROOT / "rulesets" / "american_page_one.fuda")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("cmd", ["validate", "list", "play", "simulate", "replay", "test", "bench", "parse",
                                 "compile", "compare", "report", "match"])
def test_every_command_has_help(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args([cmd, "--help"])
    assert e.value.code == 0
    assert "usage: fuda " + cmd in capsys.readouterr().out


def test_validate_ok_and_error(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", APO)
    assert code == 0 and "ok" in out
    bad = tmp_path / "bad.fuda"
    bad.write_text("ruleset bad\nplayers 2\nzone z: pile\ncards standard() in z\nsetup { shuffle y }\nphase p { }\n",
                   encoding="utf-8")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 1
    assert f"{bad}:5:17: error[E101]: unknown name y" in err or "bad.fuda:5:17: error[E101]" in err
    assert "^" in err and "Traceback" not in err


def test_list_shows_rulesets_and_options(capsys):
    code, out, _ = run(capsys, "list", "american_page_one")
    assert code == 0
    assert "american_page_one" in out and "stop_at_first_winner" in out and "hand_size" in out


def test_list_shows_option_labels_in_the_languages_of_the_title(capsys):
    """Skull newcomer #8: the title came in both languages, the option labels in English only."""
    code, out, _ = run(capsys, "list", "american_page_one")
    assert "American Page One | アメリカンページワン" in out and "Cards dealt to each player | 配る枚数" in out
    code, out, _ = run(capsys, "list", "american_page_one", "--lang", "ja")
    assert "— アメリカンページワン —" in out and "   配る枚数" in out and "Cards dealt" not in out
    code, out, _ = run(capsys, "list", "american_page_one", "--lang", "en")
    assert "— American Page One —" in out and "Cards dealt to each player\n" in out and "配る" not in out


def test_test_command_runs_scenarios(capsys):
    code, out, _ = run(capsys, "test", str(ROOT / "rulesets" / "tests" / "american_page_one_matching.yaml"))
    assert code == 0 and "1 passed, 0 failed" in out


def test_simulate_reports_win_rates_with_intervals(capsys):
    code, out, _ = run(capsys, "simulate", "american_page_one", "-n", "40", "--players", "3", "-q", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["games"] == 40 and len(stats["seats"]) == 3
    assert sum(s["wins"] for s in stats["seats"]) == 40 - stats["draws"]
    for s in stats["seats"]:
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    assert stats["length"]["p50"] <= stats["length"]["p90"] <= stats["length"]["max"]


def test_a_game_that_opens_with_a_simultaneous_choice_has_no_first_player(capsys):
    code, out, _ = run(capsys, "simulate", str(ROOT / "tests/constructs/simul.fuda"), "-n", "6", "-q")
    assert code == 0 and "first player" not in out
    code, out, _ = run(capsys, "simulate", "american_page_one", "-n", "6", "-q")
    assert "first player wins" in out


def test_replay_shows_the_labels_actions_were_chosen_by(capsys):
    """Schnapsen newcomer P5: `fuda replay` read `P1: go_out` where the menu said "claim 66"."""
    hands = str(ROOT / "tests/constructs/hands.fuda")
    code, out, _ = run(capsys, "replay", hands, "--seed", "2", "--no-moves")
    assert code == 0 and "act  P0: lay " in out and "act  P1: lay " in out
    code, out, _ = run(capsys, "replay", hands, "--seed", "2", "--no-moves", "--lang", "ja", "--player", "1")
    assert "act  P1: " in out and "を出す" in out and "act  P0: play " in out


SIMUL_THEN_TURNS = """ruleset simul_then_turns
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
setup { deal 2 from deck to hand }
phase play {
    simultaneous p in players { keep c in hand[p] { move c to deck } }
    for p in seats_from(players[1]) {
        turn p { choose p { go { } stop { win p } } }
    }
    end game
}
"""


def test_a_simultaneous_opening_counts_the_first_to_go_after_it(capsys, tmp_path):
    """Skull newcomer: a game that opens with everyone choosing at once had no first-player line;
    the first player is then the first whose turn begins (or who decides alone) after it, and the
    output says so."""
    f = tmp_path / "st.fuda"
    f.write_text(SIMUL_THEN_TURNS, encoding="utf-8")
    code, out, _ = run(capsys, "simulate", str(f), "-n", "20", "-q")
    assert code == 0 and "first player wins" in out, out
    assert "(in 20 of them everyone chose at once first: the first player is the first to take a turn" in out
    code, out, _ = run(capsys, "simulate", str(f), "-n", "20", "-q", "--json")
    fp = json.loads(out)["first_player"]
    wins = json.loads(out)["seats"][1]["wins"]     # P1 takes the first turn
    assert fp["games"] == 20 and fp["after_simultaneous"] == 20 and fp["wins"] == wins


def test_simulate_splits_results_by_role_also_with_one_kind_of_bot(capsys):
    """Cribbage newcomer: what the dealer's chair is worth was reported only with different bots."""
    code, out, _ = run(capsys, "simulate", "jekyll_hyde", "-n", "20", "-q", "--json")
    roles = {r["role"]: r for r in json.loads(out)["bots_by_role"]}
    assert code == 0 and set(roles) == {"jekyll", "hyde"}
    assert roles["jekyll"]["games"] == roles["hyde"]["games"] == 20 and {r["bot"] for r in roles.values()} == {"random"}
    code, out, _ = run(capsys, "simulate", "jekyll_hyde", "-n", "20", "-q")
    assert "  as jekyll: random" in out and "  as hyde:   random" in out


def test_simulate_reports_a_cooperative_games_result_as_the_tables(capsys, tmp_path):
    """The Crew newcomer: a game the whole table wins or loses together printed a row per seat and a
    first player's win rate that meant nothing."""
    (tmp_path / "coop.fuda").write_text("""ruleset coop
players 3
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup { shuffle deck }
phase play {
    if top(deck).rank > 10 { win players } else { lose players }
}
""", encoding="utf-8")
    code, out, _ = run(capsys, "simulate", str(tmp_path / "coop.fuda"), "-n", "60", "-q", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["table"]["wins"] == stats["seats"][0]["wins"] > 0
    code, out, _ = run(capsys, "simulate", str(tmp_path / "coop.fuda"), "-n", "60", "-q")
    assert "the table won" in out and "first player wins" not in out
    code, out, _ = run(capsys, "simulate", "american_page_one", "-n", "5", "-q", "--json")
    assert "table" not in json.loads(out)


def test_simulate_names_the_seeds_of_draws_to_replay(capsys):
    """A newcomer's Spades showed 2 draws and no way to find them but replaying seeds one by one."""
    code, out, _ = run(capsys, "simulate", str(ROOT / "tests/constructs/evaluate.fuda"), "-n", "7", "-q", "--json")
    stats = json.loads(out)
    assert stats["draws"] == 7 and stats["draw_seeds"] == [0, 1, 2, 3, 4] and stats["capped_seeds"] == [0, 1, 2, 3, 4]
    code, out, _ = run(capsys, "simulate", str(ROOT / "tests/constructs/evaluate.fuda"), "-n", "2", "-q")
    assert "draws: 2 (seeds 0, 1)" in out


def test_simulate_hints_at_rollout_weights_when_games_stop_at_the_limit(capsys):
    """newcomer31: 279 of 300 Uno games stopped at the decision limit and nothing said what helps."""
    code, out, _ = run(capsys, "simulate", str(ROOT / "tests/constructs/evaluate.fuda"), "-n", "2", "-q")
    assert "hint: 2 of 2 games stopped at the decision limit: random seats may play on for ever; give the " \
           "options `rollout weight`s" in out and "--seat rollout" in out
    code, out, _ = run(capsys, "simulate", "american_page_one", "-n", "4", "-q")
    assert "hint:" not in out


def test_simulate_hints_at_evaluate_when_searching_seats_are_slow():
    """newcomer31: `fuda bench --bot ismcts` said what makes ISMCTS quick; a slow simulation did not."""
    from interpreter.runner.simulate import simulate_hints

    stats = {"games": 4, "played": 4, "seconds": 400.0, "capped": 0, "seats": [{}, {}], "length": {"mean": 100}}
    hints = simulate_hints(stats, ["ismcts:100"], weighted=False, evaluates=False)
    assert len(hints) == 1 and "about 2.0 s a move" in hints[0] and "`evaluate … after N decisions`" in hints[0]
    assert simulate_hints(stats, ["ismcts:100"], weighted=False, evaluates=True) == []
    assert simulate_hints({**stats, "seconds": 40.0}, ["ismcts:100"], weighted=False, evaluates=False) == []
    # qa11 P6: seats that already are the rollout players are not told to be them
    capped = {**stats, "seconds": 1.0, "capped": 4}
    assert "weigh the options that bring the end nearer" in simulate_hints(capped, ["rollout", "rollout"], True, True)[0]
    assert "check that the rules can end" in simulate_hints(capped, ["ismcts", "ismcts"], True, True)[0]
    assert "random seats" in simulate_hints(capped, ["rollout"], True, True)[0]      # the other seat is random


def test_simulate_with_workers_matches_one_worker(capsys):
    from interpreter.runner.simulate import simulate

    a = simulate("american_page_one", {}, 24, seed=3, workers=1, show_progress=False)
    b = simulate("american_page_one", {}, 24, seed=3, workers=2, show_progress=False)
    assert a.games == b.games


def test_replay_a_simulated_game_by_seed(capsys):
    from interpreter.runner.simulate import game_seed, play_one

    summary = play_one("american_page_one", {}, game_seed(0, 5), [])
    code, out, _ = run(capsys, "replay", "american_page_one", "--seed", str(game_seed(0, 5)))
    assert code == 0
    winners = [f"P{p}" for p in summary["winners"]]
    assert any(f"{w} win" in out for w in winners)
    assert "american_page_one.fuda:" in out          # every event names its rule


def test_play_refuses_illegal_input_and_writes_a_replayable_log(tmp_path, capsys):
    game = load("american_page_one", {"players": 2})
    answers = iter(["fly away", "99", "1"] + ["1"] * 500)
    out = io.StringIO()
    log = tmp_path / "game.json"
    st = play(game, ["human", "random"], seed=11, log_path=str(log), inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "refused: 'fly away' is not legal now" in text
    assert "refused: choose a number from 1 to" in text
    assert "  1. " in text                          # the legal choices, numbered
    assert st.over
    code, replayed, _ = run(capsys, "replay", str(log))
    assert code == 0 and "result:" in replayed


def test_a_unicode_digit_at_the_prompt_is_refused_not_a_traceback(capsys):
    """qa14 F1: '①' and '²' passed str.isdigit, and int() refused them: an internal error. A number
    is ASCII digits, or a Japanese keyboard's full-width ones."""
    game = load("american_page_one", {"players": 2})
    answers = iter(["①", "#²", "٣", "１", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=11, inp=lambda _prompt: next(answers), out=out, ask_all=True)
    text = out.getvalue()
    for typed in ("①", "#²", "٣"):
        assert f"refused: '{typed}' is not legal now" in text, text
    assert "refused: '１'" not in text and "P0: play" in text       # １ picked the first line
    with pytest.raises(SystemExit):
        build_parser().parse_args(["replay", "--player", "²", "x.json"])
    assert "argument --player: '²' is not a player" in capsys.readouterr().err
    assert build_parser().parse_args(["replay", "--player", "Ｐ２", "x.json"]).player == 2     # qa15 Q14


def test_save_to_a_name_no_file_can_have_is_refused_and_the_game_goes_on(tmp_path):
    """qa14 F6: `save a<NUL>b` (pasted text) was an internal error, and a name of 300 characters
    ended the game: the target was looked at outside the try that guards the write."""
    game = load("american_page_one", {"players": 2})
    long = tmp_path / ("y" * 300 + ".json")
    answers = iter(["save a\0b", f"save {long}", "1", f"save {tmp_path / 'ok.json'}", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=11, inp=lambda _prompt: next(answers), out=out, ask_all=True)
    text = out.getvalue()
    assert "cannot save to a\0b: a file name cannot hold a NUL character" in text
    assert f"cannot save to {long}: " in text
    assert json.loads((tmp_path / "ok.json").read_text(encoding="utf-8"))["actions"]       # played on, saved


def test_save_to_a_name_with_a_tilde_saves_in_the_home_folder(tmp_path, monkeypatch):
    """qa15 Q9: `save ~/x.json` made a folder named `~` where fuda ran; the prompt reads `~` as a
    shell would, the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "home").mkdir()
    game = load("american_page_one", {"players": 2})
    answers = iter(["save ~/x.json", "quit"])
    play(game, ["human", "random"], seed=11, inp=lambda _prompt: next(answers), out=io.StringIO(), ask_all=True)
    assert (tmp_path / "home" / "x.json").is_file() and not (tmp_path / "~").exists()


def test_undo_takes_back_the_last_choice_and_what_followed(tmp_path):
    game = load("american_page_one", {"players": 2})
    answers = iter(["undo", "1", "undo", "2", "quit"])
    out = io.StringIO()
    log = tmp_path / "game.json"
    play(game, ["human", "random"], seed=11, log_path=str(log), inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "nothing to undo" in text
    assert "took back 2 move(s)" in text            # P0's play ♠Q and P1's reply
    boards = [screen.split("   1. ")[0] for screen in text.split("\n== ")[1:]]
    assert boards[3] == boards[0] != boards[2]      # back to the first position, the same deal and draws
    actions = json.loads(log.read_text(encoding="utf-8"))["actions"]
    assert actions[0] == [0, "play ♥9"]             # the second choice shown, not the one taken back


def test_choices_are_listed_as_the_hand_is_shown_and_numbers_pick_what_they_show(tmp_path):
    game = load("american_page_one", {"players": 2})
    answers = iter(["1", "quit"])
    out = io.StringIO()
    log = tmp_path / "g.json"
    play(game, ["human", "random"], seed=11, log_path=str(log), inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "Hand[P0] (you)     ♠Q ♥9 ♥J ♣A ♣6 JK1" in text      # the zone by its label
    shown = [ln.split(". ", 1)[1] for ln in text.splitlines() if ln.startswith("   ") and ". play" in ln][:3]
    assert shown == ["play ♠Q", "play ♥9", "play JK1"]       # the rules list ♥9, JK1, ♠Q
    assert json.loads(log.read_text(encoding="utf-8"))["actions"][0] == [0, "play ♠Q"]


def test_a_number_that_is_also_a_bid_is_asked_about_not_taken(tmp_path):
    """Skat newcomer: typing `18` meant "say 18" and bid 55, the menu's line 18. Now it asks; `#18`
    is the line, the action's id is the bid, and a number past the menu's end is the action."""
    from interpreter.api import load_text

    game = load_text("""ruleset numbid
players 2
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    repeat 3 {
        choose players[0] "Bid" {
            say n in [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60] "say {n}" { }
            pass_ "pass" { }
        }
    }
}
""")
    answers = iter(["18", "#18", "say 18", "59", "quit"])
    out = io.StringIO()
    log = tmp_path / "g.json"
    play(game, ["human", "random"], seed=1, log_path=str(log), inp=lambda _prompt: next(answers), out=out)
    assert "18 is line 18 (say 55) and also say 18: type #18 for the line, or 'say 18'" in out.getvalue()
    taken = [a for _, a in json.loads(log.read_text(encoding="utf-8"))["actions"]]
    assert taken == ["say 55", "say 18", "say 59"]      # 59 is line 19, say 59: the same action


def test_undo_at_a_hot_seat_does_not_take_back_another_players_choice():
    game = load("american_page_one", {"players": 2})
    answers = iter(["", "1", "", "1", "", "undo", "quit"])      # "": the keyboard passed on
    out = io.StringIO()
    play(game, ["human", "human"], seed=11, inp=lambda _prompt: next(answers), out=out)
    assert "cannot undo: P1 has chosen since" in out.getvalue()


def test_bench_profile_names_the_rulesets_own_rules_and_functions(capsys):
    """Cribbage newcomer: nothing told a designer which part of the text was expensive."""
    code, out, _ = run(capsys, "bench", "american_page_one", "--profile", "-n", "30", "--json")
    r = json.loads(out)
    assert code == 0 and r["games"] == 30 and 0 < sum(x["share"] for x in r["rows"]) + r["rest"] <= 1.0001
    wheres = {x["where"] for x in r["rows"]}
    assert any(w.startswith("american_page_one.fuda:") for w in wheres)
    assert any("rule draw_cards" in x["what"] or "fn " in x["what"] or "options of a decision" in x["what"]
               for x in r["rows"])
    code, out, _ = run(capsys, "bench", "american_page_one", "--profile", "-n", "10")
    assert code == 0 and "share" in out and "american_page_one.fuda:" in out


COPIES = """ruleset copies2
players 2
cards {
    attr v: int = 1
    card "g1" "Guard | 衛兵"
    card "g2" "Guard | 衛兵"
    card "g3" "Guard | 衛兵"
    card "p1" "Priest | 司祭" v = 2
} in deck
zone deck: pile hidden
zone hand: hand per player owner
zone table: pile public
setup {
    move card("g3") to hand[players[0]]
    move card("p1") to hand[players[0]]
    move card("g1") to hand[players[0]]
    move card("g2") to table
}
phase play {
    choose players[0] {
        play c in hand[players[0]] "play {c}" { log "played {c.name}" }
        take c in table "take {c}" { log "took {c.name}" }
    }
    end game
}
"""


def test_a_typed_shared_label_takes_the_copy_the_menu_shows_first():
    """QA: `play Guard` played g3, the first copy in hand order, while the menu listed g1 first."""
    from interpreter.api import load_text
    from interpreter.runner.table import Table

    g = load_text(COPIES)
    out = io.StringIO()
    answers = iter(["play Guard"])
    st = play(g, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    assert "played g1" in out.getvalue() and st.over
    t = Table(g, ["human", "random"], seed=1)
    t.act(0, "play Guard")
    assert any("played g1" in e["text"] for e in t.state(0)["view"]["log"])


def test_replay_groups_a_statements_reveals_as_play_does():
    """Cribbage newcomer: `fuda replay` printed one reveal line per card of a shown hand."""
    from interpreter.api import load_text
    from interpreter.runner.replay import format_events

    st = load_text("""ruleset shown
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
setup { deal 3 from deck to hand  reveal hand[players[0]]  reveal top(deck) to players[1] }
phase play { end game }
""").new_state(0)
    text = format_events(st, spans=False)
    reveals = [line for line in text.splitlines() if line.strip().startswith("reveal")]
    assert reveals[0].split()[1:] == ["reveal", *reveals[0].split()[2:5], "to", "everyone"] and len(reveals) == 2
    each = format_events(st, spans=False, each_move=True).splitlines()
    assert sum(line.strip().startswith("reveal") for line in each) == 4


def test_replay_groups_a_deal_by_path_but_keeps_one_rules_cards_in_their_order():
    """newcomer51 P3: Blackjack's deal, one rule called for each card (P0, P1, the dealer, P0, P1,
    the hole), read as P1's two cards before the dealer's up card."""
    from interpreter.api import load_text
    from interpreter.runner.replay import format_events

    st = load_text("""ruleset dealt
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player public
zone dealer: pile public
zone hole: pile hidden
rule draw_to(z: zone) { move top(deck) to z }
setup {
    deal 2 from deck to hand
    for z in [hand[players[0]], hand[players[1]], dealer, hand[players[0]], hand[players[1]], hole] { draw_to(z) }
}
phase play { end game }
""").new_state(0)
    moves = [line.split(":")[0].split("move")[1].strip() for line in format_events(st, spans=False).splitlines()
             if line.strip().startswith("move")]
    assert moves == ["deck → hand[P0]", "deck → hand[P1]",         # the deal, round the players: a line each
                     "deck → hand[P0]", "deck → hand[P1]", "deck → dealer", "deck → hand[P0]", "deck → hand[P1]",
                     "deck → hole"]


def test_replay_rejects_a_damaged_log(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fuda-log/1", "ruleset": "american_page_one", "seed": 1, "actions": [[0, "fly"]]}',
                   encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and "E503" in err and "cannot be replayed" in err
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and "E503" in err and "Traceback" not in err


def test_a_log_that_no_longer_replays_lists_the_legal_actions_folded_and_names_no_stranger(tmp_path, capsys):
    """qa14 F8: a Hold'em log's refusal listed a hundred raises one a line (`fuda play` and the API
    write `raise 40..990 (step 10)`), and an action of P-1 or P7 in a 6-player log read `P7 is not to
    move now`, as if P7 sat at the table."""
    log = {"format": "fuda-log/1", "ruleset": "texas_holdem", "options": {"players": 6}, "seed": 3,
           "seats": ["random"] * 6, "actions": [[5, "fly"]]}
    bad = tmp_path / "th.json"
    bad.write_text(json.dumps(log), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and "fly is not legal now; legal actions:\n  fold\n  call\n  raise 40..990 (step 10)\n" in err, err
    assert len(err.splitlines()) < 10
    for p in (-1, 7):
        log["actions"] = [[p, "raise 850"]]
        bad.write_text(json.dumps(log), encoding="utf-8")
        code, _, err = run(capsys, "replay", str(bad))
        assert code == 1 and f"error[E503]: action 1 (P{p}: raise 850) names no player: the game has 6, P0–P5" in err
        assert err.startswith(f"{bad}:1:") and "^" in err and "not to move" not in err


def test_a_log_naming_no_ruleset_says_the_name_is_the_logs(tmp_path, capsys):
    """qa14 F10: a log whose ruleset is "P9" got a bare `E504: no ruleset named 'P9'`, as if typed."""
    bad = tmp_path / "p9.json"
    bad.write_text('{"format": "fuda-log/1",\n "ruleset": "P9", "seed": 1, "actions": []}', encoding="utf-8")
    for argv in (["replay", str(bad)], ["play", "--resume", str(bad)]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and f"{bad}:2:13: error[E503]: game log ruleset: no ruleset named 'P9'" in err, err
        assert err.splitlines()[1] == '     "ruleset": "P9", "seed": 1, "actions": []}' and "^^^^" in err


def test_bench_reports_speed(capsys):
    code, out, _ = run(capsys, "bench", "american_page_one", "-n", "30", "--rounds", "1", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["games_per_second"] > 0 and r["clone_us"] > 0 and r["decisions_per_game"] > 1


def test_bench_of_a_slow_ruleset_says_how_long_it_will_take_and_each_round(capsys, monkeypatch):
    """A newcomer's 大富豪 (20 games/s) sat through minutes of silence with the default rounds."""
    from interpreter.runner import bench

    code, _, err = run(capsys, "bench", "american_page_one", "-n", "20", "--rounds", "2")
    assert code == 0 and err == ""         # a few seconds at most: nothing to say
    monkeypatch.setattr(bench, "SILENT_SECONDS", 0.0)
    code, out, err = run(capsys, "bench", "american_page_one", "-n", "20", "--rounds", "2", "--json")
    lines = err.splitlines()
    assert code == 0 and json.loads(out)["rounds"] == 2 and len(lines) == 3, err
    assert lines[0].startswith("american_page_one: about ") and "-n and --rounds" in lines[0]
    assert lines[1].startswith("  round 1/2: ") and lines[2].startswith("  round 2/2: ") and "quiet" in lines[2]


def test_bench_of_a_slow_bot_without_an_evaluation_advises_one(capsys, monkeypatch):
    from interpreter.runner import bench as bench_mod

    real = bench_mod.bench_bot
    assert real("american_page_one", {}, "ismcts", states=1, seconds=0.02)["evaluates"] is False
    assert real(str(ROOT / "tests/constructs/evaluate.fuda"), {}, "ismcts", states=1, seconds=0.02)["evaluates"]
    slow = {"ruleset": "x", "bot": "ismcts", "players": 4, "positions": 8, "evaluates": False,
            "iterations_per_second": 16.0, "seconds_per_move": 1.0, "default_move_seconds": 18.75,
            "decisions_per_game": 190.0, "native_iterations_per_second": 20.0, "native_default_move_seconds": 15.0,
            "native_unavailable": None}
    monkeypatch.setattr(bench_mod, "bench_bot", lambda *a, **k: slow)
    code, out, _ = run(capsys, "bench", "american_page_one", "--bot", "ismcts")
    assert code == 0 and "18.75 s a move" in out and "evaluate … after N decisions" in out
    assert "in C (simulate --native): 20 iterations/s, 15.00 s a move" in out
    monkeypatch.setattr(bench_mod, "bench_bot", lambda *a, **k: {**slow, "evaluates": True})
    code, out, _ = run(capsys, "bench", "american_page_one", "--bot", "ismcts")
    assert "evaluate …" not in out and "--profile" in out
    # Hold'em newcomer: short random games (players shove) are not helped by cutting rollouts short
    monkeypatch.setattr(bench_mod, "bench_bot", lambda *a, **k: {**slow, "decisions_per_game": 11.8})
    code, out, _ = run(capsys, "bench", "american_page_one", "--bot", "ismcts")
    assert "evaluate …" not in out and "12 decisions a game" in out and "--profile" in out


def test_parse_prints_the_ast_as_json(capsys):
    code, out, _ = run(capsys, "parse", APO)
    assert code == 0
    data = json.loads(out)
    assert data["decls"][0]["name"] == "american_page_one"
    assert data["decls"][0]["span"]["line"] == data["decls"][0]["span"]["line"] > 0


def test_options_file_and_set(tmp_path, capsys):
    opts = tmp_path / "house.yaml"
    opts.write_text("hand_size: 7\nstop_at_first_winner: false\n", encoding="utf-8")
    code, out, _ = run(capsys, "simulate", "american_page_one", "-n", "5", "-q", "--json", "--options", str(opts),
                       "--set", "players=2")
    assert code == 0 and len(json.loads(out)["seats"]) == 2
    code, _, err = run(capsys, "simulate", "american_page_one", "-n", "5", "-q", "--set", "hand_size=99")
    assert code == 1 and "E402" in err


def test_a_quit_game_is_saved_and_resumes(tmp_path, capsys):
    game = load("american_page_one", {"players": 2})
    log = tmp_path / "g.json"
    answers = iter(["1", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=5, log_path=str(log), inp=lambda _p: next(answers), out=out)
    saved = json.loads(log.read_text(encoding="utf-8"))
    assert saved["actions"] and "--resume" in out.getvalue()
    answers2 = iter(["1"] * 500)
    out2 = io.StringIO()
    from interpreter.runner.replay import read_log

    lg = read_log(str(log))
    st = play(game, lg.seats, lg.seed, log_path=str(log), inp=lambda _p: next(answers2), out=out2,
              resume=[(p, a) for p, a in lg.actions])
    assert st.over and "resumed after" in out2.getvalue()
    final = json.loads(log.read_text(encoding="utf-8"))
    assert final["actions"][: len(saved["actions"])] == saved["actions"]


@pytest.mark.parametrize("bot", ["ismcts:20", "random", "rollout", "persona:miles"])
def test_bots_play_on_after_a_resume_as_in_the_game_never_stopped(tmp_path, bot):
    """QA7 B-resume-bots: a bot was seeded once a game, and a resumed game replays the saved moves
    without its searches, so its generator was elsewhere and it played another game than the one
    that was never stopped. Its randomness is now a function of its seat's seed and the number of
    actions taken (bots/base.py reseed)."""
    from interpreter.runner.replay import read_log

    game = load("john")

    def played(answers: list[str], log: Path, resume: list[tuple[int, str]] | None = None) -> list[list[Any]]:
        it = iter(answers)

        def inp(_prompt: str) -> str:
            return next(it, "quit")
        play(game, ["human", bot], seed=5, log_path=str(log), inp=inp, out=io.StringIO(), resume=resume)
        return json.loads(log.read_text(encoding="utf-8"))["actions"]    # type: ignore[no-any-return]

    whole = played(["1"] * 6, tmp_path / "a.json")
    half = tmp_path / "b.json"
    played(["1"] * 3, half)
    lg = read_log(str(half))
    resumed = played(["1"] * 3, tmp_path / "b.json", resume=[(p, a) for p, a in lg.actions])
    assert len(whole) == len(resumed) >= 12 and resumed == whole


def test_a_game_stopped_without_a_log_is_kept_under_fuda_home(tmp_path, capsys, monkeypatch):
    """No --log: quitting (or the input ending) still keeps the game, and it resumes from there."""
    monkeypatch.setenv("FUDA_HOME", str(tmp_path))
    answers = iter(["1"])

    def typed(_prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    code, out, _ = run(capsys, "play", "american_page_one", "--players", "2", "--seed", "8")
    kept = tmp_path / "games" / "american_page_one-8.json"
    assert code == 0 and f"fuda play --resume {kept}" in out
    assert len(json.loads(kept.read_text(encoding="utf-8"))["actions"]) >= 1
    monkeypatch.setattr("builtins.input", lambda _prompt: "1")
    code, out, err = run(capsys, "play", "--resume", str(kept), "--set", "nonexistent=3")
    assert code == 2 and "--set cannot change them" in err       # not dropped in silence (Kittens newcomer)
    code, out, _ = run(capsys, "play", "--resume", str(kept))
    assert code == 0 and "resumed after" in out and "result" in out.lower()


def test_a_kept_game_is_never_written_over_by_another_of_the_same_seed(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FUDA_HOME", str(tmp_path))
    for _ in range(2):
        monkeypatch.setattr("builtins.input", _typed(["1"]))      # one move, then the input ends
        assert run(capsys, "play", "american_page_one", "--players", "2", "--seed", "8")[0] == 0
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["american_page_one-8-2.json",
                                                                      "american_page_one-8.json"]


def _typed(answers: list[str]):
    it = iter(answers)

    def typed(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return typed


def test_a_save_that_cannot_be_written_is_refused_and_play_goes_on(tmp_path):
    game = load("american_page_one", {"players": 2})
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    answers = iter(["1", f"save {blocker}/g.json", f"save {tmp_path}/g.json", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=5, inp=lambda _p: next(answers), out=out)
    text = out.getvalue()
    assert f"cannot save to {blocker}/g.json" in text
    assert (tmp_path / "g.json").exists() and "game stopped." in text


def test_a_log_that_cannot_be_written_is_refused_before_the_game(tmp_path, capsys, monkeypatch):
    """Found by QA: --log into a path that cannot be written was found out only when the game ended,
    and the game was lost; and "File exists" did not say that a file stood where a folder must."""
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr("builtins.input", lambda _prompt: pytest.fail("the game started"))
    code, _, err = run(capsys, "play", "american_page_one", "--players", "2", "--log", f"{blocker}/g.json")
    assert code == 1 and f"error: cannot use {blocker}: it is a file, not a folder" in err
    fresh = tmp_path / "new" / "g.json"        # a log that can be written: the game is played
    answers = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda _prompt: next(answers))
    assert run(capsys, "play", "american_page_one", "--players", "2", "--log", str(fresh))[0] == 0
    assert json.loads(fresh.read_text(encoding="utf-8"))["format"] == "fuda-log/1"


def test_a_log_that_fails_at_the_end_falls_back_to_fuda_home(tmp_path):
    """A log that cannot be written when the game stops (a full disk, a folder removed): the game is
    kept under FUDA_HOME instead, and the command to continue it names that file."""
    game = load("american_page_one", {"players": 2})
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    kept = tmp_path / "home" / "g.json"
    answers = iter(["1", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=5, log_path=f"{blocker}/g.json", inp=lambda _p: next(answers), out=out,
         autosave=str(kept))
    text = out.getvalue()
    assert f"cannot save to {blocker}/g.json: {blocker} is a file, not a folder" in text
    assert f"fuda play --resume {kept}" in text and len(json.loads(kept.read_text(encoding="utf-8"))["actions"]) >= 1


@pytest.mark.parametrize(("argv", "words"), [
    (["bench", "john", "-n", "0"], "not a whole number from 1"),
    (["bench", "john", "--rounds", "0"], "not a whole number from 1"),
    (["simulate", "john", "-n", "-5"], "not a whole number from 1"),
    (["simulate", "john", "-n", "2", "--workers", "0"], "not a whole number from 1"),
    (["simulate", "john", "-n", "2", "--study", " "], "a study needs a name"),
    (["replay", "john", "--seed", "1", "--player", "-1"], "'-1' is not a player"),
])
def test_counts_below_one_are_refused(argv, words, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "code", "words"), [
    (["simulate", "john", "--players", "0", "-n", "1"], 1, "E402"),
    (["list", "jon"], 1, "error[E504]: no ruleset named 'jon'"),
    (["simulate", "jon", "-n", "1"], 1, "did you mean john?"),
    (["simulate", "john", "-n", "1", "--address", "ray://x"], 2, "add --backend ray"),
    (["replay", "john", "--seed", "1", "--player", "2"], 2, "this game has players P0–P1"),
    (["replay", "john", "--seed", "1", "--player", "P2"], 2, "this game has players P0–P1"),
])
def test_impossible_arguments_are_refused(argv, code, words, capsys):
    got, _, err = run(capsys, *argv)
    assert got == code and words in err and "internal error" not in err


def test_replay_player_as_the_game_writes_it(capsys):
    _, by_number, _ = run(capsys, "replay", "john", "--seed", "3", "--player", "1")
    _, by_name, _ = run(capsys, "replay", "john", "--seed", "3", "--player", "P1")
    assert by_name == by_number and "P1" in by_name


FAILS_SOMETIMES = """ruleset sometimes "Fails sometimes"
players 2
option rounds: int 1..9 = 3
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone empty: pile public
zone hand: hand per player owner

setup { shuffle deck }

phase play {
    for r in 1..rounds {
        choose current {
            safe "safe" { move top(deck) to hand[current] }
            risky "risky" { move top(empty) to hand[current] }
        }
        current = next(current)
    }
    end game
}
"""


def test_a_failing_simulated_game_is_named_and_replays_to_its_failure(capsys, tmp_path):
    path = tmp_path / "sometimes.fuda"
    path.write_text(FAILS_SOMETIMES)
    code, _, err = run(capsys, "simulate", str(path), "-n", "20", "--set", "rounds=4", "-q")
    assert code == 1 and "E601" in err and "in the game with seed" in err
    command = err.split("in the game with seed ")[1].split(": ", 1)[1].split(" shows it")[0]
    argv = command.split()
    assert argv[:3] == ["fuda", "replay", str(path)] and "rounds=4" in argv
    code, out, err = run(capsys, *argv[1:])
    assert code == 1 and "E601" in err and "internal error" not in err
    assert "risky" in out.splitlines()[-2] and "a rule failed" in out.splitlines()[-1]


@pytest.mark.parametrize(("seat", "words"), [("ismcts:0", "ismcts takes a number of iterations from 1"),
                                             ("ismcts:-5", "ismcts takes"), ("ismcts:0s", "a time above 0"),
                                             ("human", "a human seat plays in the terminal"),
                                             ("robot", "unknown seat kind 'robot'")])
def test_seats_that_are_no_bots_are_refused(seat, words, capsys):
    code, _, err = run(capsys, "simulate", "john", "-n", "1", "-q", "--seat", seat)
    assert code == 1 and words in err


def test_play_refuses_a_bad_seat_before_the_game_starts(capsys):
    code, out, err = run(capsys, "play", "john", "--seat", "robot")
    assert code == 1 and "unknown seat kind" in err and "seed" not in out


def test_resuming_a_log_that_no_longer_replays_names_the_action(tmp_path, capsys):
    log = tmp_path / "g.json"
    assert run(capsys, "play", "jekyll_hyde", "--seat", "random", "--seat", "random", "--seed", "3",
               "--log", str(log))[0] == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    data["actions"][3][1] = "play nothing"
    log.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = run(capsys, "play", "--resume", str(log))
    who = data["actions"][3][0]
    assert code == 1 and "E503" in err and f"action 4 (P{who}: play nothing) cannot be replayed" in err


@pytest.mark.parametrize("command", [["play", "john"], ["simulate", "john", "-n", "2", "-q"],
                                     ["replay", "john", "--seed", "1"], ["compare", "john", "-n", "2", "-q"]])
def test_more_seats_than_players_are_refused_everywhere(command, capsys):
    code, _, err = run(capsys, *command, "--seat", "random", "--seat", "random", "--seat", "random")
    assert code == 1 and "3 seats given for 2 players" in err


def test_play_prints_what_the_rules_say_as_it_happens():
    """Who went out (a ドボン on another player's turn, say) was only in the 8-line recent box, and a
    window's pass told everyone who could have responded."""
    import io

    from interpreter.api import load
    from interpreter.runner.play import play

    game = load("super_page_one", {})
    out = io.StringIO()
    st = play(game, ["random"] * 4, seed=3, out=out)
    text = out.getvalue()
    told = [line.strip()[2:] for line in text.splitlines() if line.startswith("    · ")]
    places = sorted(r["place"] for r in game.result(st))
    assert [t for t in told if " is out (place " in t] == [
        f"P{r['player']} is out (place {r['place']})" for r in sorted(game.result(st), key=lambda r: r["place"])
        if r["place"] < places[-1]]
    assert "pass (" not in text


def test_a_forced_move_is_taken_for_the_human_and_the_log_follows_the_result(tmp_path):
    import io

    from interpreter.api import load
    from interpreter.runner.play import play

    game = load("american_page_one", {"players": 2})
    out = io.StringIO()
    log = tmp_path / "g.json"
    st = play(game, ["human", "random"], seed=11, log_path=str(log), out=out, inp=lambda _prompt: "1")
    text = out.getvalue()
    assert st.over and "your only choice: " in text
    assert text.index("result:") < text.index("saved ")      # the result first, then where the log went


def test_a_log_of_a_ruleset_file_resumes_from_anywhere(tmp_path, monkeypatch, capsys):
    import shutil

    from interpreter.runner.cli import main

    from .conftest import ROOT

    mine = tmp_path / "game" / "mine.fuda"
    mine.parent.mkdir()
    shutil.copy(ROOT / "tests" / "errors" / "_valid_minimal.fuda", mine)
    monkeypatch.chdir(mine.parent)
    log = tmp_path / "kept" / "g.json"
    monkeypatch.setattr("builtins.input", lambda _p: "quit")
    assert main(["play", "mine.fuda", "--seed", "3", "--log", str(log)]) == 0
    assert json.loads(log.read_text(encoding="utf-8"))["ruleset"] == str(mine.resolve())
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    moved = tmp_path / "kept" / "mine.fuda"            # the ruleset moved next to its log
    mine.rename(moved)
    assert main(["replay", str(log)]) == 0 and "error" not in capsys.readouterr().err


def test_qa8_a_resumed_log_keeps_the_rules_it_was_played_under(tmp_path, monkeypatch, capsys):
    """QA8 P-resume-rewrites: `fuda play --resume LOG` wrote the current rules into LOG, so after one
    look a replay no longer warned that the game was played under other rules."""
    import shutil

    from interpreter.runner.cli import main

    from .conftest import ROOT

    mine = tmp_path / "mine.fuda"
    shutil.copy(ROOT / "tests" / "errors" / "_valid_minimal.fuda", mine)
    log = tmp_path / "g.json"
    monkeypatch.setattr("builtins.input", lambda _p: "quit")
    assert main(["play", str(mine), "--seed", "3", "--log", str(log)]) == 0
    before = json.loads(log.read_text(encoding="utf-8"))["rules"]
    mine.write_text(mine.read_text(encoding="utf-8").replace('"Pile | 場"', '"Table | 場"'), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--resume", str(log)]) == 0
    assert "the ruleset has changed" in capsys.readouterr().err
    assert json.loads(log.read_text(encoding="utf-8"))["rules"] == before
    assert main(["replay", str(log)]) == 0
    assert "the ruleset has changed since this game was saved" in capsys.readouterr().err


def test_hot_seat_passes_the_keyboard_and_prints_only_public_news():
    import io

    from interpreter.api import load
    from interpreter.runner.play import play

    game = load("american_page_one", {"players": 2})
    out = io.StringIO()
    answers = iter(["", "1", "", "1", "", "quit"] + ["quit"] * 10)
    play(game, ["human", "human"], seed=11, out=out, inp=lambda _p: next(answers))
    text = out.getvalue()
    assert text.index("pass the keyboard to P0, then press Enter") < text.index("you are P0")   # the first too
    assert "pass the keyboard to P1, then press Enter" in text
    assert "you are P1" in text and "you are P0" in text



def test_a_hot_seat_is_told_the_seed_when_the_game_is_over():
    """QA8 B-seed-hotseat: the seed deals every hand (`fuda replay --seed`), so at a hot seat it is
    not on the first line but after the result."""
    import io

    from interpreter.api import load
    from interpreter.runner.cli import _table_line
    from interpreter.runner.play import play

    game = load("jekyll_hyde", {})
    first = _table_line(game, ["human", "human"], 11, 0)
    assert "seed told when the game is over" in first and "11" not in first
    assert "seed 11" in _table_line(game, ["human", "random"], 11, 0)
    out = io.StringIO()
    st = play(game, ["human", "human"], seed=11, out=out, inp=lambda p: "" if p == "" else "1")
    assert st.over and out.getvalue().rstrip().endswith("seed 11")


def test_a_hot_seat_that_stops_does_not_show_the_seed(tmp_path, capsys, monkeypatch):
    """QA9 B2: quitting a hot seat printed the seed (in the kept file's name) and `fuda replay FILE`,
    which shows every hand, before the game was continued; `save FILE` suggested the replay too."""
    monkeypatch.setenv("FUDA_HOME", str(tmp_path))
    saved = tmp_path / "now.json"
    monkeypatch.setattr("builtins.input", _typed(["", "1", "", f"save {saved}", "1", "", "quit"]))
    code, out, _ = run(capsys, "play", "american_page_one", "--players", "2", "--seed", "8",
                       "--seat", "human", "--seat", "human")
    bare = out.replace(str(tmp_path), "TMP")      # pytest's own folder may be pytest-8
    assert code == 0 and "-8" not in bare and "seed 8" not in bare
    kept = next((tmp_path / "games").iterdir())
    assert kept.name.startswith("american_page_one-2") and kept.name != "american_page_one-8.json"   # its time
    assert json.loads(kept.read_text(encoding="utf-8"))["seed"] == 8
    assert f"fuda replay {saved}" not in out and f"fuda replay {kept}" not in out
    assert f"fuda replay --spectator {saved}" in out and f"fuda play --resume {kept}" in out


def test_suits_may_be_typed_in_ascii():
    from interpreter.api import load

    g = load("napoleon", {})
    st = g.new_state(7)
    p = st.to_move()[0]
    st.apply(p, "bid 13 S")
    assert st.view(None)["vars"]["trump"] == "♠" and st.view(None)["vars"]["bid"] == 13


def test_an_action_may_be_typed_run_together_or_split_otherwise():
    """`call ♠A`, `call SA`, `call s a` for the id `call ♠ A`, `call joker` for `call_joker` — when
    what was typed fits one legal action."""
    from interpreter.api import load

    g = load("napoleon", {})
    st = g.new_state(3)
    p = st.to_move()[0]
    while not any(a.id.startswith("call") for a in st.legal_actions(p)):
        st.apply(p, st.legal_actions(p)[0].id)
        p = st.to_move()[0]
    for typed in ("call ♠A", "call SA", "call s a", "CALL ♠ A"):
        assert g.find_action(st, p, typed) == g.find_action(st, p, "call ♠ A")
    assert g.find_action(st, p, "call S10") == g.find_action(st, p, "call ♠ 10")
    assert g.find_action(st, p, "call joker") == g.find_action(st, p, "call_joker")


def test_a_resumed_game_keeps_its_language(tmp_path, monkeypatch, capsys):
    from interpreter.runner.cli import main

    log = tmp_path / "g.json"
    monkeypatch.setattr("builtins.input", lambda _p: "quit")
    assert main(["play", "john", "--lang", "ja", "--seed", "5", "--log", str(log)]) == 0
    assert json.loads(log.read_text(encoding="utf-8"))["lang"] == "ja"
    capsys.readouterr()
    assert main(["play", "--resume", str(log)]) == 0
    assert "== ジョン — フェーズ 対戦 — 手番 P0 — あなたは P0 ==" in capsys.readouterr().out


def test_a_replay_with_searching_bots_says_that_it_moves():
    from interpreter.runner.replay import replay_seed

    seen: list[int] = []
    st, failed = replay_seed("john", {}, 1, ["ismcts:5"], progress=lambda s: seen.append(s.ndec))
    assert failed is None and st.over and seen == sorted(seen) and seen[-1] == st.ndec


def test_a_japanese_table_hears_the_rules_in_japanese(capsys):
    """`--lang ja`: the rules' log lines printed as they happen are in Japanese too (they were
    printed in English under a Japanese title)."""
    from interpreter.runner.cli import main

    assert main(["play", "napoleon", "--lang", "ja", "--seed", "3"] + ["--seat", "random"] * 5) == 0
    out = capsys.readouterr().out
    assert "    · P1: ♥で20枚" in out and "honours" not in out
    # fuda's own words too: the screen, the events, the result
    assert out.startswith("ナポレオン — 5人, シード 3: ")
    assert "== ナポレオン — フェーズ 得点 — 手番 P3 ==" in out and "席: P0 random 324点 |" in out and "| P4 random 324点" in out
    assert "勝者: P0, P1, P4" in out and "最近の出来事:" in out and "副官判明 = はい" in out
    assert "結果: P0 勝ち (1位, 324点)" in out
    assert not any(w in out for w in ("phase", "winner", "seats:", "recent:", "result:", "true", "false"))


def test_parse_names_a_missing_file_or_a_folder_as_validate_does(tmp_path, capsys, monkeypatch):
    """Found by QA: `fuda parse missing.fuda` said E504 "no ruleset" where validate says E005 "no file",
    and a folder named x.fuda was "no file" to both."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.fuda").mkdir()
    for cmd in ("parse", "validate", "compile"):
        code, _, err = run(capsys, cmd, "missing.fuda")
        assert code == 1 and "error[E005]: no file missing.fuda" in err, err
        code, _, err = run(capsys, cmd, "folder.fuda")
        assert code == 1 and "error[E005]: folder.fuda is a folder, not a ruleset file" in err, err
    code, _, err = run(capsys, "parse", "no_such_game")
    assert code == 1 and "error[E504]: no ruleset named 'no_such_game'" in err


def test_comparing_studies_of_a_missing_file_creates_none(tmp_path, capsys):
    """Found by QA: `fuda compare --study a --study b --db typo.sqlite` left an empty study file behind."""
    db = tmp_path / "typo.sqlite"
    code, _, err = run(capsys, "compare", "--study", "a", "--study", "b", "--db", str(db))
    assert code == 1 and f"there is no study 'a' in {db} (no such file)" in err
    assert not db.exists()


def test_a_slow_bot_without_an_evaluation_gets_the_advice_once(monkeypatch):
    """A bot slower than SLOW_MOVE on a move, in a ruleset without `evaluate`, is told once how to
    cut its rollouts short; a ruleset with one is not (the threshold is lowered, not timed)."""
    import io

    import interpreter.runner.play as play_mod

    monkeypatch.setattr(play_mod, "SLOW_MOVE", -1.0)
    out = io.StringIO()
    play(load("american_page_one", {"players": 2}), ["ismcts:5", "random"], seed=3, out=out)
    assert out.getvalue().count("evaluate … after N decisions") == 1
    out = io.StringIO()
    play(load(str(ROOT / "tests/constructs/evaluate.fuda"), {}), ["ismcts:5", "random"], seed=3, out=out)
    assert "evaluate … after N decisions" not in out.getvalue()


def test_fuda_test_events_prints_each_scenario_s_game(capsys):
    """`fuda test --events`: the whole log of each scenario's game (a newcomer could see only the last
    12 events of a failing step)."""
    code, out, _ = run(capsys, "test", "--events", str(ROOT / "rulesets/tests/napoleon_trump_exchange.yaml"))
    assert code == 0 and "PASS" in out
    assert "act  P0: call ♠ A" in out and "move  ♠9: Hand[P0] → Face-down pile" in out and "phase: play" in out


LAY_FACE_DOWN = """
ruleset lay_down
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone laid: pile per player owner
setup {
    shuffle deck
    deal 1 from deck to hand
    move top(deck) to hand[players[0]]
}
phase play {
    for p in players {
        choose p "Lay a card face down | 1枚伏せる" {
            lay c in hand[p] "lay {c} | {c} を伏せる" { move c to laid[p] }
        }
    }
    end game
}
"""


def test_a_hot_seat_only_choice_is_asked_like_any_other():
    """At a hot seat, P1's only choice (lay the one card it holds face down) was printed before the
    keyboard went to P1 — `P1: your only choice: lay ♦5` — for P0, still at the screen, to read; and
    then "P1: only one choice, taken" told P0 that P1 had one choice (Love Letter: the Countess forced
    by a King or Prince). The keyboard goes to P1, who takes it."""
    import io

    from interpreter.runner.play import play

    from .conftest import game_from

    game = game_from(LAY_FACE_DOWN)
    out = io.StringIO()
    answers = iter(["", "1", "", "1"] + ["quit"] * 10)
    st = play(game, ["human", "human"], seed=3, out=out, inp=lambda _p: next(answers))
    assert st.over
    laid = st.z[next(i for i in range(len(st.z)) if game.zone_name(st, i) == "laid[P1]")]
    assert len(laid) == 1
    text = out.getvalue()
    before_p1 = text.split("pass the keyboard to P1")[0]
    assert "only" not in before_p1 and game.card_names[laid[0]] not in before_p1


EMPTY_MAX = """ruleset empty_max
players 2
cards standard() in deck
zone deck: pile hidden
zone pile: pile public
fn longest(cs: list of card) -> int = max([c.rank for c in cs where c.rank > 20]) + size(cs)
rule score_it(p: player) {
    choose p { go { score[p] = longest(cards(deck)) + size(pile) } }
}
setup { }
phase play {
    let m = max([n for n in 3..size(pile)])
    end game
}
"""


def test_max_of_an_empty_list_of_numbers_fails_where_it_is_read_and_replay_shows_the_events(capsys, tmp_path):
    """A newcomer's Cribbage: max of an empty list was none, typed int, and failed later at a
    comparison with a hint about empty zones; and `fuda replay` printed no events for a game that
    failed before its first decision."""
    f = tmp_path / "empty_max.fuda"
    f.write_text(EMPTY_MAX, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(f), "--seed", "1")
    assert code == 1
    assert "phase: play" in out and "(the game stopped here: a rule failed)" in out
    assert "max of an empty list of numbers" in err and "empty_max.fuda:12:5" in err


def test_a_failing_function_says_which_rule_lines_called_it(tmp_path):
    f = tmp_path / "calls.fuda"
    f.write_text(EMPTY_MAX.replace("    let m = max([n for n in 3..size(pile)])\n", "    score_it(players[0])\n"),
                 encoding="utf-8")
    from interpreter.api import load
    from interpreter.errors import RuleRuntimeError
    st = load(str(f)).new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(0, "go")
    d = e.value.diagnostics[0]
    assert "max of an empty list" in d.message and d.span.line == 6       # in the function
    assert d.hint is not None and "calls.fuda:8:" in d.hint               # called from the rule's line


def test_fuda_test_reports_a_ruleset_error_once_for_all_its_scenarios(capsys, tmp_path):
    (tmp_path / "bad.fuda").write_text(EMPTY_MAX.replace("end game", "end gam"), encoding="utf-8")
    for i in range(3):
        (tmp_path / f"s{i}.yaml").write_text("ruleset: bad.fuda\nsteps: []\n", encoding="utf-8")
    code, out, _ = run(capsys, "test", str(tmp_path))
    assert code == 1 and out.count("unexpected name 'gam'") == 1
    assert out.count("the same error as") == 2 and "0 passed, 3 failed" in out


def test_replay_in_japanese_says_fuda_s_own_words_in_japanese(capsys):
    """Docs QA: the result line and a sequence's events stayed English under --lang ja."""
    code, out, _ = run(capsys, "replay", str(ROOT / "tests/constructs/lines.fuda"), "--seed", "1", "--lang", "ja")
    assert code == 0
    assert "新しい場 を 列[P0] の先頭に" in out and "結果: P0 引き分け (1位)" in out
    assert "at the back of" not in out and "result:" not in out


def test_a_scenarios_missing_ruleset_file_is_said_at_its_value_naming_the_folders_searched(capsys, tmp_path,
                                                                                             monkeypatch):
    """qa14 F11: `ruleset: holdem_audxt.fuda` said `no file … (in CWD)`, the working directory, with
    no place; the scenario's own folder is searched first."""
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "holdem_audit.fuda").write_text("", encoding="utf-8")
    sc = tmp_path / "s" / "ar.yaml"
    sc.write_text("name: a typo\nruleset: holdem_audxt.fuda\nsteps: []\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "test", str(sc))
    assert code == 1 and f"{sc}:2:10: error[E005]: no file holdem_audxt.fuda beside the scenario (in {sc.parent}) " \
        f"nor in the working directory ({tmp_path})\n    ruleset: holdem_audxt.fuda\n             ^^^^^" in out, out
    assert "hint: did you mean holdem_audit.fuda?" in out


def test_fuda_test_leaves_an_options_file_beside_the_scenarios_alone(capsys, tmp_path):
    """Docs QA: the tutorial's house.yaml next to its tests made `fuda test .` fail."""
    (tmp_path / "house.yaml").write_text("hand_size: 7\npage_one_penalty: 2\n", encoding="utf-8")
    (tmp_path / "t.yaml").write_text("ruleset: american_page_one\nsteps:\n  - expect: {over: false}\n",
                                     encoding="utf-8")
    (tmp_path / "flow.yaml").write_text("{ruleset: american_page_one, steps: [{expect: {over: false}}]}\n",
                                        encoding="utf-8")
    code, out, _ = run(capsys, "test", str(tmp_path))
    assert code == 0 and "2 passed, 0 failed" in out


def test_replay_puts_the_moves_of_one_statement_on_a_line_per_path(capsys):
    """A deal is a line per hand (cards in the order dealt); a player reads the others' cards as a
    count; --each-move gives every card its own line."""
    assert main(["replay", "napoleon", "--seed", "1", "--no-rules"]) == 0
    out = capsys.readouterr().out
    hands = [ln for ln in out.splitlines() if ln.strip().startswith("move  Deck → Hand[")]
    assert len(hands) == 5 and all(len(ln.split(": ")[1].split()) == 10 for ln in hands)
    assert main(["replay", "napoleon", "--seed", "1", "--no-rules", "--player", "P2"]) == 0
    out = capsys.readouterr().out
    assert "move  Deck → Hand[P0]: 10 cards" in out and "move  Deck → Widow: 3 cards" in out
    assert "Deck → Hand[P2]: 10 cards" not in out
    assert main(["replay", "napoleon", "--seed", "1", "--no-rules", "--each-move", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert sum(ln.endswith(": 山札 → 手札[P0]") for ln in out.splitlines()) == 10


def test_moved_cards_a_viewer_did_not_see_are_counted():
    from interpreter.runner.render import cards_seen
    assert cards_seen(["♠2", "a card", "♦5", "a card"], 0) == "♠2 ♦5 and 2 more"
    assert cards_seen(["伏せたカード"] * 3, 1) == "3枚"
    assert cards_seen(["a card"], 0) == "a card"          # not "1 cards" (Love Letter, Sushi Go newcomers)
    assert cards_seen(["♠2"], 0) == "♠2"


def test_a_refused_input_says_when_its_option_has_nothing_legal_or_does_not_exist():
    from interpreter.api import load_text

    game = load_text("ruleset r\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nsetup { }\n"
                     "phase play { choose players[0] {\n  knock where size(deck) > 60 { end game }\n"
                     "  wait_a_bit { end game }\n  stop { end game }\n} }\n")
    answers = iter(["knock", "fly away", "stop 3", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(no knock is legal now: the rules' conditions for it do not hold)" in text
    assert "(this decision has no fly: its choices are wait_a_bit, stop)" in text
    assert text.count("(this decision has no") == 1         # a legal option's name with values that are off


def test_a_refused_value_says_what_the_option_takes_and_choices_read_as_the_menu_shows_them():
    """Citadels and 6 nimmt! newcomers: `take 7` for 1..3 was refused without a reason, and an input
    naming no option listed the options' ids (build_district) where the menu shows their labels."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile public\n'
                     'setup { }\nphase play {\n choose players[0] { take n in 1..3 "take {n}" { } }\n'
                     ' choose players[0] { build_district c in top(deck, 2) "build the {c}" { }\n'
                     '                     wait "wait a turn" { } }\n end game draw }\n')
    answers = iter(["take 7", "take 2", "build ♣K", "build_district ♠A", "3"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "refused: 'take 7' is not legal now. Choose one of:\n  (take: 7 is not in 1..3)\n" in text
    assert text.count("   3. take 3") == 2         # the choices, listed again under the refusal
    assert "(this decision has no build: its choices are build the ♣Q …, wait (wait a turn))" in text
    assert "(build_district: ♠A is not one of its values now: ♣Q, ♣K)" in text
    # values picked by a `where` are listed; seats typed by name are read as seats, not as cards not seen
    game = load_text('ruleset r\nplayers 3 seats "North", "East", "South"\ncards standard(jokers = 0) in deck\n'
                     'zone deck: pile public\nsetup { }\nphase play {\n choose players[0] {\n'
                     '  take n in 1..9 where n % 2 == 1 "take {n}" { }\n'
                     '  give c in top(deck, 2), q in others(players[0]) "give {c} to {q}" { } }\n end game draw }\n')
    answers = iter(["take 4", "give ♣K North", "give ♠A East", "take 1"])
    out = io.StringIO()
    play(game, ["human", "random", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(take: 4 is not one of its values now: 1, 3, 5, 7, 9)" in text
    assert "(give: North is not one of its values now: East, South)" in text
    assert "(give: ♠A is not one of its values now: ♣Q, ♣K)" in text



def test_an_option_s_else_text_says_why_it_is_refused():
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar dw: int = 14\n'
                     'setup { }\nphase play { choose players[0] {\n'
                     '  knock where dw <= 10 else "your deadwood is {dw} | デッドウッド {dw}" { end game }\n'
                     '  wait { end game }\n  stop { end game }\n} }\n')
    st = game.new_state(1)
    assert game.refusal_reason(st, 0, "knock", 1) == "デッドウッド 14" and game.refusal_reason(st, 0, "wait") is None
    answers = iter(["knock", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    assert "(no knock is legal now: your deadwood is 14)" in out.getvalue()


def test_an_else_text_says_why_one_action_of_a_legal_option_is_refused():
    """A newcomer's Euchre: a card that does not follow suit was refused like a card not held."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'zone hand: hand per player owner\nsetup { move [card("♥2"), card("♥3"), card("♠K")] to hand[players[0]] }\n'
                     'phase play { choose players[0] {\n'
                     '  play c in hand[players[0]] where c.suit == ♥ else "you must follow ♥ | ♥ を出す" { end game }\n'
                     '} }\n')
    answers = iter(["play ♠K", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    assert "(play ♠K is not among the legal actions; play: you must follow ♥)" in out.getvalue()


def test_more_or_fewer_values_than_the_option_takes_are_told_as_such():
    """qa11 P9: `play G2 S1` where `play` binds one card was answered with the else text ("play: only
    gold"), which read as a refusal of G2; the count of values typed is what is off."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'zone hand: hand per player owner\nsetup { move [card("♥2"), card("♥3"), card("♠K")] to hand[players[0]] }\n'
                     'phase play { choose players[0] {\n'
                     '  play c in hand[players[0]] where c.suit == ♥ else "you must follow ♥ | ♥ を出す" { end game }\n'
                     '  give c in hand[players[0]], q in players where c.suit == ♥ else "hearts only" { end game }\n'
                     '  wait { end game }\n} }\n')
    answers = iter(["play ♥2 ♠K", "play SK H2", "give ♥2", "give ♥2 P1 P0", "wait now", "play SK", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(play takes one card: play ♥2)" in text
    assert text.count("(play takes one card: play ♥2)") == 2     # ♠K first: the first legal one as example
    assert "(give takes 2 values: give ♥2 P0)" in text and "(give takes 2 values: give ♥2 P1)" in text
    assert "(wait takes no values: wait)" in text
    assert "(play SK is not among the legal actions; play: you must follow ♥)" in text     # one value: the else text
    answers = iter(["play ♥2 ♠K", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out, lang=1)
    assert "(play で選ぶカードは 1 枚です: play ♥2)" in out.getvalue()


def test_a_card_typed_that_lies_where_the_option_takes_none_is_told_where_it_is():
    """6 nimmt! newcomer: `play 92`, 92 lying on a row, was refused with no reason ("not legal now")."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'zone row: pile public "Row | 列"\nzone hand: hand per player owner\n'
                     'setup { move [card("♥2"), card("♥3")] to hand[players[0]]\n move card("♠K") to row }\n'
                     'phase play { choose players[0] { play c in hand[players[0]] "play {c}" { end game } } }\n')
    answers = iter(["play SK", "play ♥9", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(play: ♠K is in Row, not among the cards it takes)" in text
    assert "(play: you see no card ♥9)" in text             # out of sight: as before


def test_a_card_typed_as_the_screen_shows_it_is_not_said_to_be_unseen():
    """qa14 F9: Hanabi's `play G1`, G1 shown in P1's hand (`show c as "{letter(c.hue)}{c.rank}"`, the
    card named g1a): "you see no card G1". Where the screen shows it is told; P0's own hand, hidden
    from P0, is never looked at by that text."""
    game = load("hanabi", {"players": 3})
    answers = iter(["play G1", "play Q9", "quit"])
    out = io.StringIO()
    play(game, ["human", "random", "random"], seed=4, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "Hand[P1]           G1 " in text
    assert "(play: G1 is in Hand[P1], not among the cards it takes)" in text and "no card G1" not in text
    assert "(play: you see no card Q9)" in text


def test_an_else_text_is_not_told_for_a_card_that_is_not_there():
    """Schnapsen newcomer: a typo (`play ZZ`), a card of no deck (`play S9` in a deck without nines)
    or one out of sight was answered with the option's else text, a rule that did not apply."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0, ranks = [1, 13]) in deck\nzone deck: pile hidden\n'
                     'zone hand: hand per player owner\n'
                     'setup { move [card("♥A"), card("♥K"), card("♠K")] to hand[players[0]] }\n'
                     'phase play { choose players[0] {\n'
                     '  play c in hand[players[0]] where c.suit == ♥ else "you must follow ♥" { end game }\n'
                     '} }\n')
    answers = iter(["play ZZ", "play S9", "play DK", "play SK", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(play: you see no card ZZ)" in text and "(play: you see no card S9)" in text
    assert "(play: you see no card DK)" in text         # ♦K: in the deck, out of sight
    assert "(play SK is not among the legal actions; play: you must follow ♥)" in text


def test_a_number_out_of_range_beside_a_card_is_refused_for_its_range():
    """qa15 Q11: in `put c in hand, n in 1..4`, `put c6 0` was "you see no card 0" and `put c2 5` was
    "no card is named 5 (Card 5 is c5)": the number is n's, and gets n's range, as a number alone
    does; a card typed in the card's place that is not there is still one not seen."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards {\n attr rank: int\n for r in 1..8 { card "c{r}" "Card {r}" rank = r }\n'
                     '} in deck\nzone deck: pile hidden\nzone hand: hand per player owner\nzone table: pile public\n'
                     'var lim: int = 3\n'
                     'setup { move [card("c2"), card("c6"), card("c8")] to hand[players[0]] }\n'
                     'phase play { choose players[0] {\n'
                     '  put c in hand[players[0]], n in 1..4 where n < lim and c.rank > 2 else "n under {lim}" "put {c} x{n}"'
                     ' { end game }\n} }\n')
    answers = iter(["put c6 0", "put c2 5", "put c6 ５", "put c5 1", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(put: 0 is not in 1..4)" in text and "(put: 5 is not in 1..4)" in text
    assert "(put: ５ is not in 1..4)" in text
    assert "no card 0" not in text and "no card is named 5" not in text
    assert "(put: you see no card c5)" in text


def test_an_else_text_is_told_only_for_a_value_its_where_refused():
    """newcomer42 P4 (For Sale): `bid 19` with 18 coins was answered "a bid must beat the highest bid,
    16", the where's else text, though 19 beats 16: it is outside the binder's 1..18, and said so.
    A value inside it that the where refuses still gets the else text; a card of the option's kind
    lying elsewhere is told where it is."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'zone row: pile public "Row"\nzone hand: hand per player owner\nvar high: int = 16\n'
                     'setup { move [card("♥2"), card("♠K")] to hand[players[0]]\n move card("♣5") to row }\n'
                     'phase play { choose players[0] {\n'
                     '  bid n in 1..18 where n > high else "a bid must beat the highest bid, {high}" { end game }\n'
                     '  play c in hand[players[0]] where c.suit == ♥ else "you must follow ♥" { end game }\n'
                     '} }\n')
    answers = iter(["bid 19", "bid 12", "bid 0", "play C5", "play SK", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "(bid: 19 is not in 1..18)" in text and "(bid: 0 is not in 1..18)" in text
    assert "(bid 12 is not among the legal actions; bid: a bid must beat the highest bid, 16)" in text
    assert "(play: ♣5 is in Row, not among the cards it takes)" in text
    assert "(play SK is not among the legal actions; play: you must follow ♥)" in text
    assert text.count("must beat") == 1 and text.count("must follow") == 1


def test_a_card_typed_by_what_its_label_shows_is_pointed_to_its_name():
    """newcomer42 P5 (For Sale): `sell 7` for the card labelled House 7 (named h7) was refused with
    no reason. A word of a label: the card meant, if the option takes it, else its name, with the
    choices; the labels are the deck's, no secret."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards {\n attr value: int\n for v in 1..12 { card "h{v}" "House {v} | 物件{v}" '
                     'value = v }\n} in deck\nzone deck: pile hidden\nzone owned: hand per player owner "Owned"\n'
                     'setup { move [card("h2"), card("h10"), card("h12")] to owned[players[0]]  move card("h1") to owned[players[1]] }\n'
                     'phase play { simultaneous p in players { sell c in owned[p] "sell {c}" { } }  end game }\n')
    answers = iter(["sell 7", "sell 2", "sell house", "sell h7", "sell h2 h10", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "refused: 'sell 7' is not legal now. Choose one of:\n" \
        "  (sell: no card is named 7 (House 7 is h7); its choices now: House 2, House 10, House 12)\n" \
        "   1. sell House 2" in text
    assert "(sell: no card is named 2: did you mean House 2 (h2)?)" in text
    assert "(sell: no card is named house: did you mean House 2 (h2), House 10 (h10) or House 12 (h12)?)" in text
    assert "(sell: you see no card h7)" in text and "(sell takes one card: sell h2)" in text
    answers = iter(["sell 7", "sell 2", "1"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out, lang=1)
    text = out.getvalue()
    assert "(sell: 7 という名のカードはありません (物件7 は h7)。今選べるのは 物件2, 物件10, 物件12)" in text
    assert "(sell: 2 という名のカードはありません: 物件2 (h2) ですか?)" in text


def test_an_else_text_shows_no_card_its_reader_cannot_see():
    """QA7 B-why-text: `steal where false else "P0 holds {top(hand[q])}"` printed P0's hidden card in
    P1's refusal; the else text is written as a prompt is (a hidden card as "a card", its attribute
    as "?"), and `fuda validate` warns of it (W104)."""
    from interpreter.api import load_text

    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'zone hand: hand per player owner\nsetup { deal 3 from deck to hand }\n'
                     'phase play { choose players[1] {\n'
                     '  steal where false else "P0 holds {top(hand[players[0]])} of {top(hand[players[0]]).suit}"'
                     ' { end game }\n  mine where false else "you hold {top(hand[players[1]])}" { end game }\n'
                     '  wait { end game }\n} }\n')
    assert [w.code for w in game.prog.warnings] == ["W104"]
    st = game.new_state(1)
    assert game.refusal_reason(st, 1, "steal") == "P0 holds a card of ?"
    own = game.refusal_reason(st, 1, "mine")
    assert own is not None and "a card" not in own


def test_the_log_command_shows_a_deal_on_a_line_a_path():
    """Exploding Kittens newcomer: `log` in fuda play listed the setup card by card (40 lines of it)."""
    import io

    from interpreter.api import load
    from interpreter.runner.play import play

    out = io.StringIO()
    answers = iter(["log", "quit"])
    play(load("american_page_one"), ["human", "random", "random", "random"], seed=3, out=out,
         inp=lambda _p: next(answers))
    text = out.getvalue()
    assert "Hand[P1]: 6 cards" in text and "a card: Draw pile → Hand[P1]" not in text


def test_replay_as_a_spectator_shows_no_hand(capsys):
    """Love Letter newcomer: a replay as every player saw it (State.view(None)) was not offered."""
    code, out, _ = run(capsys, "replay", "american_page_one", "--seed", "3", "--spectator", "--no-rules")
    assert code == 0 and "Draw pile → Hand[P0]: 6 cards" in out and "Hand[P1]: 6 cards" in out
    _, mine, _ = run(capsys, "replay", "american_page_one", "--seed", "3", "--player", "0", "--no-rules")
    assert "Draw pile → Hand[P0]: 6 cards" not in mine


def test_a_new_game_does_not_write_over_a_saved_one(tmp_path, capsys):
    """QA: `fuda play --log FILE` silently replaced another game kept in FILE."""
    kept = tmp_path / "kept.json"
    kept.write_text('{"format": "fuda-log/1", "ruleset": "john", "seed": 1, "actions": [[0, "x"]]}', encoding="utf-8")
    before = kept.read_text(encoding="utf-8")
    assert main(["play", "american_page_one", "--seat", "random", "--log", str(kept)]) == 2
    assert "--resume" in capsys.readouterr().err and kept.read_text(encoding="utf-8") == before


def test_very_long_numbers_and_very_deep_nesting_are_clear_errors(tmp_path, capsys):
    """QA: past 4,300 digits Python refuses to read a number, and YAML nested thousands deep
    overflows the stack: each was a traceback."""
    assert main(["validate", "american_page_one", "--set", "players=" + "9" * 5000]) == 1
    out = capsys.readouterr()
    assert "E402" in out.out + out.err and "internal error" not in out.err
    deep = tmp_path / "deep.yaml"
    deep.write_text("ruleset: american_page_one\noptions: {players: " + "[" * 3000 + "]" * 3000 + "}\n",
                    encoding="utf-8")
    ok = tmp_path / "ok.yaml"
    ok.write_text("ruleset: american_page_one\n", encoding="utf-8")
    assert main(["test", str(deep), str(ok)]) == 1
    out = capsys.readouterr()
    assert "nested too deeply" in out.out + out.err and "Traceback" not in out.out + out.err
    assert "internal error" not in out.err


def test_bench_profile_files_a_functions_steps_and_result_under_their_own_lines(tmp_path, capsys):
    """Gin Rummy newcomer: a braces-bodied `fn` was filed whole under its first `let`, though the
    work was in its last line. Each step and the result now have their own rows."""
    (tmp_path / "steps.fuda").write_text("""ruleset steps
players 2
cards standard() in deck
zone deck: pile hidden
var got: int = 0
fn heavy(n: int) -> int {
    let small = n + 1
    sum([size([c for c in deck where c.rank == k]) for k in 1..small])
}
setup { }
phase play {
    choose current { go n in 1..13 { got = heavy(n) } }
    end game draw
}
""", encoding="utf-8")
    code, out, _ = run(capsys, "bench", str(tmp_path / "steps.fuda"), "--profile", "-n", "200", "--json")
    rows = {x["where"]: x["what"] for x in json.loads(out)["rows"]}
    assert code == 0 and "steps.fuda:8" in rows and "sum(" in rows["steps.fuda:8"], rows


def test_an_option_typed_without_its_values_is_told_to_give_them():
    """Dominion newcomer: `buy` at the Buy phase read "'buy' is not legal now", though buy is an
    option of the decision; it only lacks its card."""
    from interpreter.errors import IllegalAction
    from interpreter.runner.play import play

    game = load("napoleon", {})
    st = game.new_state(7)
    p = st.to_move()[0]
    with pytest.raises(IllegalAction) as e:
        st.apply(p, "bid")
    assert "bid needs values: bid " in str(e.value)
    out = io.StringIO()
    answers = iter(["bid", "quit"] + ["quit"] * 5)
    play(game, ["human"] + ["random"] * 4, seed=7, out=out, inp=lambda _p: next(answers))
    assert "(bid needs its values: bid " in out.getvalue()


def test_resuming_a_game_under_an_edited_ruleset_warns(tmp_path, capsys):
    """Dominion newcomer: a game resumed after its ruleset was edited (the hands made public) went
    on under the new rules without a word. Its moves still replay; the log says it changed."""
    rules = tmp_path / "r.fuda"
    rules.write_text(LAY_FACE_DOWN, encoding="utf-8")
    log = tmp_path / "g.json"
    from interpreter.api import load
    from interpreter.runner.play import game_log

    saved = game_log(load(str(rules)), 3, [], ["random", "random"])
    assert saved["rules"] == load(str(rules)).rules_hash
    log.write_text(json.dumps(saved), encoding="utf-8")
    assert main(["replay", str(log)]) == 0 and "has changed" not in capsys.readouterr().err
    # a comment or a reformatting changes no rule (a Euchre newcomer's false alarm)
    rules.write_text("# a new comment\n" + LAY_FACE_DOWN.replace("\n", "\n\n"), encoding="utf-8")
    assert main(["replay", str(log)]) == 0 and "has changed" not in capsys.readouterr().err
    rules.write_text(LAY_FACE_DOWN.replace("owner", "public"), encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    assert "the ruleset has changed since this game was saved" in capsys.readouterr().err


def test_ask_all_asks_a_single_legal_action_too(capsys):
    """Dominion newcomer: a script piped into `fuda play` fell out of step where a single legal
    action was taken for the player; `--ask-all` asks every decision, one input line each."""
    from interpreter.runner.play import play

    from .conftest import game_from

    game = game_from("""ruleset forced
players 2
cards standard() in deck
zone deck: pile hidden
var got: int = 0
setup { }
phase play {
    choose players[0] { go { } }
    choose players[0] { pick n in [1, 2] { got = n } }
}
""")
    for ask_all, want in ((False, 1), (True, 2)):
        answers = iter(["1", "2"] + ["quit"] * 3)
        st = play(game, ["human", "random"], seed=1, out=io.StringIO(), inp=lambda _p, a=answers: next(a), ask_all=ask_all)
        assert st.view(None)["vars"]["got"] == want
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "--ask-all" in capsys.readouterr().out


def test_qa8_typed_and_scenario_text_is_read_as_nfc(tmp_path):
    """QA8 P-nfd: a ruleset reads カ + U+3099 as ガ, but an action typed so (macOS, some input
    methods), a scenario's card names and its expected texts were refused as no match."""
    import unicodedata

    from interpreter.runner.scenario import run_scenario

    text = ('ruleset u\nplayers 2\ncards {\n    card "ガ1"\n    card "x2"\n} in deck\nzone deck: pile public\n'
            'zone hand: hand per player public\nsetup { }\nphase play {\n'
            '    choose players[0] { play c in hand[players[0]] "play {c}" { log "ガ played" } }\n    end game draw\n}\n')
    def nfd(t: str) -> str:
        return unicodedata.normalize("NFD", t)

    assert nfd("ガ") != "ガ"
    (tmp_path / "u.fuda").write_text(text, encoding="utf-8")
    (tmp_path / "u.yaml").write_text(nfd('ruleset: u.fuda\nsetup:\n  zones:\n    "hand[P0]": [ガ1]\n'
                                         'steps:\n  - P0: play ガ1\n  - expect: {events: ["ガ played"]}\n'),
                                     encoding="utf-8")
    outcome = run_scenario(str(tmp_path / "u.yaml"))
    assert outcome.passed, outcome.message


def test_a_choice_of_hundreds_of_card_sets_is_one_menu_entry():
    """A Hearts newcomer's pass of three cards listed 286 lines and pushed the table off the screen."""
    from itertools import combinations

    from interpreter.runner.render import render_choices

    hand = ["♣2", "♣5", "♣8", "♦3", "♦9", "♥4", "♥J", "♠2", "♠7", "♠Q", "♠K", "♥A", "♦5"]
    legal = [{"id": "pass_three " + " ".join(cs)} for cs in combinations(hand, 3)] + [{"id": "wait"}]
    text = render_choices({"legal": legal}, columns=100)
    assert text.splitlines() == ["   1–286. pass_three …: 286 choices — type pass_three and its values, as "
                                 "pass_three ♣2 ♣5 ♣8", "  287. wait"]
    mixed = [{"id": f"{o} {x}"} for x in range(70) for o in ("lay", "hold")]   # interleaved in hand order
    assert len(render_choices({"legal": mixed}, columns=100).splitlines()) == 2    # qa10 B8
    bids = [{"id": f"bid {n}{s}"} for n in range(1, 8) for s in "♣♦♥♠N"]        # 35: listed as they are
    assert len(render_choices({"legal": bids}, columns=100).splitlines()) > 1


def test_fuda_test_names_a_shipped_game(tmp_path, capsys, monkeypatch):
    """QA9 D3: from a pip install the shipped scenarios were out of reach (`fuda test hanabi` → no file)."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "test", "-v", "hanabi")
    assert code == 0 and "PASS " in out and "examples/hanabi/" in out and " 0 failed" in out
    code, out, _ = run(capsys, "test", "-v", "dominion_mixed")
    assert code == 0 and out.count("PASS ") == 4
    code, out, _ = run(capsys, "test", "hanbi")     # a name misspelt: said, with the near one
    assert code == 1 and "no game fuda ships is named hanbi" in out and "did you mean hanabi?" in out


def test_fuda_test_names_a_base_game_and_runs_its_hooks_test_variants_too(tmp_path, capsys, monkeypatch):
    """hooks25: a hook's scenario runs a test variant beside it (`ruleset: senretsu_short_supply.fuda`,
    which `extends senretsu`): `fuda test senretsu` runs it with the game's own scenarios."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "test", "-v", "senretsu")
    assert code == 0 and "senretsu_short_supply.yaml" in out and "senretsu_setup.yaml" in out
    code, out, _ = run(capsys, "test", "-v", "napoleon")
    assert code == 0 and "napoleon_zero_sum.yaml" in out and "napoleon_zero_sum_alone.yaml" in out
    code, out, _ = run(capsys, "test", "-v", "american_page_one")     # super_page_one's are not its own
    assert code == 0 and "super_page_one" not in out


def test_a_hand_hidden_again_is_one_line_as_its_reveal_is():
    """An Uno newcomer's challenge: `reveal hand[p] to q` was one line, `hide hand[p]` one a card."""
    from interpreter.runner.render import fold_reveals

    assert fold_reveals(["♠8 out of sight again", "♥8 out of sight again", "♠8 turned face down",
                         "♦2 turned face down"]) == ["♠8 ♥8 out of sight again", "♠8 ♦2 turned face down"]
    assert fold_reveals(["♠8 を伏せる", "♥8 を伏せる"], 1) == ["♠8 ♥8 を伏せる"]


def test_save_at_the_prompt_does_not_write_over_another_saved_game(tmp_path):
    """QA12 B1: `save FILE` at the prompt replaced another game kept in FILE (`--log` refuses it);
    the game's own file may still be saved to again."""
    game = load("american_page_one", {"players": 2})
    kept = tmp_path / "kept.json"
    kept.write_text('{"format": "fuda-log/1", "ruleset": "john", "seed": 1, "actions": [[0, "x"]]}', encoding="utf-8")
    before = kept.read_text(encoding="utf-8")
    mine = tmp_path / "mine.json"
    answers = iter([f"save {kept}", f"save {mine}", "1", f"save {mine}", "quit"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=5, inp=lambda _p: next(answers), out=out)
    text = out.getvalue()
    assert kept.read_text(encoding="utf-8") == before and f"not saved: {kept} already holds something" in text
    assert text.count(f"to {mine}") == 2 and json.loads(mine.read_text(encoding="utf-8"))["actions"]


@pytest.mark.parametrize("extra", [["--set", "hand_size=5"], ["--options", "house.yaml"], ["--seed", "3"],
                                   ["--seat", "random"], ["--players", "3"]])
def test_replay_of_a_log_refuses_settings_it_would_ignore(tmp_path, capsys, extra):
    """QA12 P2: `fuda replay LOG --options/--set` were accepted and silently ignored."""
    log = tmp_path / "g.json"
    assert main(["play", "american_page_one", "--seat", "random", "--seat", "random", "--seed", "2",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "replay", str(log), *extra)
    assert code == 2 and extra[0] in err and "cannot change them" in err
    assert run(capsys, "replay", str(log))[0] == 0


def test_an_error_report_cut_short_by_its_reader_keeps_its_exit_code(tmp_path):
    """qa14 F7: `fuda validate bad.fuda | head -1` exited 0 once head had gone (BrokenPipeError was
    success): under `set -o pipefail` a broken ruleset passed. A reader gone before anything is
    written (the read end closed) is the same race lost every time."""
    import os
    import subprocess
    import sys

    bad = tmp_path / "bad.fuda"
    bad.write_text("ruleset bad\nplayers 2\nsetup { nosuch = 1\n nothere = 2 }\nphase p { end game }\n",
                   encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "interpreter.runner.cli", "validate", str(bad)], stdout=write,
                              stderr=write, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 1


def test_a_value_typed_in_full_width_digits_after_the_option_is_its_ascii_number():
    """qa15 Q5: `bid １８` was refused as "１８ is not in 1..18", though the bare menu number １８ is
    read as 18: a value typed after the option's name is read the same way."""
    for typed, played in (("bid １８", "P0 pays 18"), ("bid １", "Coins ($1,000) 17 · Bid 1"), ("bid １8", "P0 pays 18")):
        answers = iter([typed, "quit"])
        out = io.StringIO()
        play(load("for_sale"), ["human", "random", "random", "random"], seed=2,
             inp=lambda _prompt, answers=answers: next(answers), out=out)
        text = out.getvalue()
        assert "refused" not in text and played in text, text


def test_a_pause_phase_shows_the_hands_end_to_the_humans_before_the_next_deal():
    """newcomer47 P9: the next hand was dealt at once, so a human never saw how the last one ended.
    A `pause` phase stops `fuda play` as it begins again (not as play starts) until Enter; bots alone,
    and the game's events, go on as without it."""
    game = load(str(ROOT / "tests" / "constructs" / "pause_between_hands.fuda"))
    prompts: list[str] = []
    answers = iter(["1", "", "1"])

    def inp(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)
    out = io.StringIO()
    st = play(game, ["human", "random"], seed=3, inp=inp, out=out, ask_all=True)
    assert st.over and prompts == ["P0> ", "", "P0> "]
    # the phase by its label on screen (newcomer50 P4: the English half was never shown)
    paused = out.getvalue().split("— Deal next: press Enter to go on —")[0].rsplit("== pause_between_hands", 1)[1]
    assert "phase Deal" in paused and "Table              ♠Q" in paused     # the card the hand ended with
    assert game.stop_before == frozenset()
    plain = game.new_state(3)
    for p, a in [(0, "play ♠Q"), (0, "play ♥9")]:
        plain.game.apply(plain, p, next(x for x in plain.game.legal_actions(plain, p) if x.id == a))
    assert plain.ev == st.ev                      # the same events as a game nobody paused
    bots = play(game, ["random", "random"], seed=3, inp=lambda _p: pytest.fail("bots do not pause"), out=io.StringIO())
    assert bots.over


def test_the_same_file_name_in_another_folder_is_another_ruleset(tmp_path, monkeypatch):
    """Two tests' `mine.fuda` (4 and 2 players) in two folders: the second loaded the first's game,
    its cache keyed by the path as typed, and its log was refused as damaged (4 seats for 2)."""
    from interpreter.api import load

    for folder, players in (("a", 4), ("b", 2)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "mine.fuda").write_text(
            (ROOT / "tests" / "errors" / "_valid_minimal.fuda").read_text(encoding="utf-8")
            .replace("players 2..4 default 2", f"players {players}"), encoding="utf-8")
    for folder, players in (("a", 4), ("b", 2), ("a", 4)):
        monkeypatch.chdir(tmp_path / folder)
        assert load("mine.fuda").n == players


def test_a_log_line_not_found_shows_the_nearest_lines_first(tmp_path):
    """newcomer50 P9: the line that differed by a word lay early in a 68-line log, beyond the
    last 12 shown; it was found by bisecting substrings."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.yaml").write_text(
        "ruleset: " + str(ROOT / "tests" / "constructs" / "redealt_action_card.fuda") + "\nseed: 0\n"
        'setup: {zones: {"hand[P0]": [♠A, ♠2], "hand[P1]": [♥A, ♥2]}}\n'
        "steps:\n  - P0: bury ♠A\n  - expect: {view: [{player: P1, log: {includes: ['P0: bury ♠K']}}]}\n",
        encoding="utf-8")
    outcome = run_scenario(str(tmp_path / "s.yaml"))
    assert not outcome.passed
    assert "nothing contains 'P0: bury ♠K'; nearest ['P0: bury a card']; found (the last 12 of" in outcome.message


def test_an_empty_list_variable_shows_as_nothing_yet_like_an_empty_zone():
    """newcomer50 P5: `Favour [] · Actions used []` on every seat line all game long."""
    from interpreter.runner.render import _val

    assert _val([], "list:int", 0) == "—" and _val([1, 2], "list:int", 0) == "[1, 2]"


PATIENCE = """ruleset patience
players 1
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
setup { shuffle deck }
phase play {
    repeat 3 {
        choose players[0] {
            draw "draw" { move top(deck) to table  if top(table).rank == 13 { win players } }
            give_up "give up" { lose players }
        }
    }
    lose players
}
"""


def test_a_one_player_game_is_said_as_one_and_a_lost_one_is_no_place_1(tmp_path, capsys):
    """newcomer48 (Klondike) P2, P3, P5: a lost patience was place 1 (which wins), `simulate` printed
    a first-player line for the one seat, and every command said "1 players"."""
    from interpreter.api import load

    path = tmp_path / "patience.fuda"
    path.write_text(PATIENCE, encoding="utf-8")
    game = load(str(path))
    st = game.new_state(0)
    st.apply(0, "give_up")
    assert game.result(st) == [{"player": 0, "outcome": "lose", "place": 2, "score": 0}]
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "(patience, 1 player, 52 cards" in out
    code, out, _ = run(capsys, "list", str(path))
    assert "— 1 player" in out and "(default" not in out.splitlines()[0]
    code, out, _ = run(capsys, "simulate", str(path), "-n", "40", "-q")
    assert code == 0 and "first player wins" not in out and "P0 " in out
    mean_place = float(out.splitlines()[2].split()[-1])
    assert 1.0 < mean_place <= 2.0


def test_a_run_of_legal_actions_as_a_failure_lists_it_is_accepted_back(tmp_path):
    """newcomer48 P10: `build ♦K 2..7`, copied from the E502 listing into `legal:`, was refused by
    the very list that printed it."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "bets.fuda").write_text("""ruleset bets
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup { }
phase play { choose players[0] { bet n in 2..7 "bet {n}" { end game }  fold "fold" { end game } } }
""", encoding="utf-8")
    for expect, passes in (("{includes: ['bet 2..7']}", True), ("['bet 2..7', fold]", True),
                           ("{excludes: ['bet 2..7']}", False), ("{includes: ['bet 2..8']}", False),
                           # a part of a run: its actions are legal, included; excluded, it fails
                           ("{includes: ['bet 3..5']}", True), ("{excludes: ['bet 3..5']}", False),
                           ("{excludes: ['bet 8..9']}", True), ("['bet 2..4', 'bet 5..7', fold]", True),
                           ("{includes: ['bet 2..7 (step 2)']}", True), ("{includes: ['bet 2..8']}", False)):
        (tmp_path / "s.yaml").write_text(f"ruleset: bets.fuda\nsteps:\n  - expect: {{legal: {expect}}}\n",
                                         encoding="utf-8")
        outcome = run_scenario(str(tmp_path / "s.yaml"))
        assert outcome.passed == passes, (expect, outcome.message)
    assert "found ['bet 2..7', 'fold']" in outcome.message
