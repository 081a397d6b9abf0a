"""`carried` variables: a match's next game starts with the values the game before ended with (the
loser deals first, titles from the last round); game logs keep what a game started with, so that it
replays; scenario files say it with `carried:` (tests/constructs/carried.fuda)."""

from __future__ import annotations

import json
import textwrap

import pytest

from interpreter.api import load, load_text
from interpreter.errors import FudaError
from interpreter.runner.cli import main
from interpreter.runner.match import MatchStore
from interpreter.runner.replay import GameLog, replay
from interpreter.runner.scenario import run_scenario

from .conftest import ROOT

RULESET = str(ROOT / "tests" / "constructs" / "carried.fuda")


def test_a_game_starts_with_what_it_is_carried_into_and_tells_what_it_leaves():
    g = load(RULESET)
    st = g.new_state(1)
    assert g.carried_values(st) == {"first": 0, "games": 1, "lost": [0, 0], "mood": "calm"}
    st.apply(0, "take")
    left = g.carried_values(st)
    assert left == {"first": 1, "games": 1, "lost": [0, 1], "mood": "cross"}
    nxt = g.new_state(2, carried=json.loads(json.dumps(left)))     # as a file gives it back
    assert nxt.to_move() == [1] and g.carried_values(nxt)["games"] == 2
    assert nxt.view(None)["vars"]["first"] == 1


@pytest.mark.parametrize("values, words", [
    ({"nope": 1}, "no carried variable so named"),
    ({"chosen": 1}, "no carried variable so named"),          # a variable, but not a carried one
    ({"lost": [1]}, "one value for each of the 2 players"),
    ({"first": 5}, "5 is no player"),
    ({"mood": True}, "True is no Mood"),
    ({"games": 1.5}, "1.5 is no int"),
    ({"mood": "happy"}, "'happy' is no member of Mood (calm, cross)"),
    ({"games": None}, "null is no int (an int, number or bool is never none)"),     # QA7 P-carried-null
    ({"lost": [1, None]}, "null is no int"),
])
def test_a_carried_value_that_does_not_fit_is_refused_by_name(values, words):
    with pytest.raises(FudaError) as e:
        load(RULESET).new_state(0, carried=values)
    assert e.value.first.code == "E503" and words in e.value.first.message


@pytest.mark.parametrize("decl", ["var c: card = none carried", "var xs: list of int = [] carried",
                                  "var k: int per card = 0 carried"])
def test_only_values_that_mean_the_same_next_game_are_carried(decl):
    text = f"ruleset x\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n{decl}\nsetup {{ }}\nphase p {{ }}\n"
    with pytest.raises(FudaError) as e:
        load_text(text)
    assert e.value.first.code == "E309" and "carried" in e.value.first.message


def test_a_match_carries_the_values_from_game_to_game_and_its_logs_replay(capsys, tmp_path):
    db = str(tmp_path / "m.sqlite")
    assert main(["play", RULESET, "--match", "m", "--match-db", db, "--seat", "random", "--seat", "random",
                 "--games", "3", "--seed", "5"]) == 0
    assert main(["play", "--match", "m", "--match-db", db, "--games", "1", "--seed", "5"]) == 0   # continued later
    capsys.readouterr()
    with MatchStore(db) as store:
        games = store.game_rows("m")
        m = store.get("m")
    assert m is not None and m.carried == games[-1]["log"]["carried_next"]
    assert "carried" not in games[0]["log"]                    # the first game starts from the ruleset's values
    for before, after in zip(games, games[1:], strict=False):
        assert after["log"]["carried"] == before["log"]["carried_next"]
    assert [g["log"]["carried_next"]["games"] for g in games] == [1, 2, 3, 4]
    for g in games:                                         # the loser deals first in the next game
        loser = next(r["player"] for r in g["result"] if r["outcome"] == "lose")
        assert g["log"]["carried_next"]["first"] == loser
        st = replay(GameLog.model_validate(g["log"]))
        assert st.result() == g["result"] and st.game.carried_values(st) == g["log"]["carried_next"]
    # fuda replay says what the game was carried into
    path = tmp_path / "g2.json"
    path.write_text(json.dumps(games[1]["log"]), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.startswith("carried from the game before: first = P")


def test_a_log_with_a_carried_value_the_ruleset_no_longer_has_is_a_clear_error(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"format": "fuda-log/1", "ruleset": RULESET, "seed": 1, "actions": [],
                                "carried": {"first": "P1"}}), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "E503" in err and "'P1' is no player" in err and "Traceback" not in err


def test_a_scenario_starts_a_game_carried_into(tmp_path):
    f = tmp_path / "carried.yaml"
    f.write_text(textwrap.dedent(f"""\
        ruleset: {RULESET}
        carried: {{first: P1, games: 4, lost: {{P0: 2}}, mood: cross}}
        steps:
          - expect: {{to_move: [P1], vars: {{games: 5, lost: {{P0: 2, P1: 0}}, mood: cross}}}}
          - P1: give
          - expect: {{vars: {{first: P1, lost: {{P0: 2, P1: 1}}}}}}
    """), encoding="utf-8")
    assert run_scenario(str(f)).passed
    f.write_text(f"ruleset: {RULESET}\ncarried: {{chosen: P1}}\n", encoding="utf-8")
    o = run_scenario(str(f))
    assert not o.passed and "chosen is not carried from game to game" in o.message


def test_a_game_resumed_from_its_log_keeps_what_it_was_carried_into(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"format": "fuda-log/1", "ruleset": RULESET, "seed": 1, "actions": [],
                                "seats": ["random", "random"], "carried": {"first": 1, "games": 7}}),
                    encoding="utf-8")
    assert main(["play", "--resume", str(path)]) == 0
    capsys.readouterr()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["carried"] == {"first": 1, "games": 7} and saved["actions"][0][0] == 1     # P1 dealt first
    assert replay(GameLog.model_validate(saved)).view(None)["vars"]["games"] == 8


def test_a_carried_enum_member_is_kept_by_name_when_the_enum_is_reordered(capsys, tmp_path):
    """QA7 B-carried-enum: a carried enum was kept as its position, so sorting the enum between two
    games of a match started the next game with another member, with no note. It is written by
    name; a member that is gone is a note, and only that variable starts over (D-carried-dropped:
    one value that no longer fitted reset every carried variable)."""
    rules = tmp_path / "c.fuda"
    text = (ROOT / "tests" / "constructs" / "carried.fuda").read_text(encoding="utf-8")
    rules.write_text(text, encoding="utf-8")
    db = str(tmp_path / "m.sqlite")
    assert main(["play", str(rules), "--match", "m", "--match-db", db, "--seat", "random", "--seat", "random",
                 "--games", "1", "--seed", "1"]) == 0
    with MatchStore(db) as store:
        m = store.get("m")
    assert m is not None and m.carried["mood"] in ("calm", "cross")
    before = m.carried
    enum = 'enum Mood { calm "calm | 平静", cross "cross | 不機嫌" }'
    rules.write_text(text.replace(enum, 'enum Mood { happy, cross "cross | 不機嫌", calm "calm | 平静" }'),
                     encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--match", "m", "--match-db", db, "--games", "1", "--seed", "1"]) == 0
    assert "note" not in capsys.readouterr().out
    with MatchStore(db) as store:
        log = store.game_rows("m")[-1]["log"]
    assert log["carried"] == before                   # the same member, by name
    st = replay(GameLog.model_validate(log))
    assert st.game.carried_values(st)["mood"] == log["carried_next"]["mood"]
    # the member is renamed: a note, and only mood starts over
    rules.write_text(text.replace(enum, 'enum Mood { serene, angry }').replace("mood = cross", "mood = angry")
                     .replace("= calm carried", "= serene carried"), encoding="utf-8")
    assert main(["play", "--match", "m", "--match-db", db, "--games", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"note: carried value 'mood': '{log['carried_next']['mood']}' is no member of Mood (serene, angry); " \
        "mood starts from its initial value" in out
    with MatchStore(db) as store:
        last = store.game_rows("m")[-1]["log"]
    assert last["carried"] == {k: v for k, v in log["carried_next"].items() if k != "mood"}


@pytest.mark.parametrize(("old", "new", "note"), [
    ("var first: player = none carried", "var first: int = 0 carried", "'first': a player is no int"),
    ("var mood: Mood = calm carried", "var mood: text = \"calm\" carried", "'mood': an enum is no text"),
])
def test_qa8_a_carried_value_of_another_kind_is_dropped_with_a_note(capsys, tmp_path, old, new, note):
    """QA8 B-carried-player: a carried player became an int (its seat number) and an enum member a
    text (its name) silently when the variable's type changed; the match now keeps the kinds."""
    rules = tmp_path / "c.fuda"
    text = (ROOT / "tests" / "constructs" / "carried.fuda").read_text(encoding="utf-8")
    rules.write_text(text, encoding="utf-8")
    db = str(tmp_path / "m.sqlite")
    argv = ["play", str(rules), "--match", "m", "--match-db", db, "--seat", "random", "--seat", "random",
            "--games", "1", "--seed", "1"]
    assert main(argv) == 0
    changed = text.replace(old, new)
    if "first: int" in changed:
        changed = changed.replace("if first == none {", "if first == 0 {").replace("first = players[0]", "first = 0") \
            .replace("turn first {", "turn players[first] {").replace("first = next(current)", "first = 1") \
            .replace("first = current", "first = 0")
    rules.write_text(changed.replace("mood = cross", "mood = \"cross\"") if "mood: text" in new else changed,
                     encoding="utf-8")
    capsys.readouterr()
    assert main(["play", *argv[2:]]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert f"note: carried value {note}; " in out
    with MatchStore(db) as store:
        last = store.game_rows("m")[-1]["log"]
    assert note.split("'")[1] not in last["carried"] and "games" in last["carried"]


def test_a_carried_enum_written_as_a_position_by_an_older_fuda_is_still_read():
    g = load(RULESET)
    st = g.new_state(1, carried={"mood": 1, "first": 1})
    assert g.carried_values(st)["mood"] == "cross"


@pytest.mark.parametrize(("carried", "words", "col"), [
    ("{mood: on}", "'on' is not one of calm, cross", 17),
    ("{big: .inf}", "expected a finite number, got inf", 16),
    ("{big: .nan}", "expected a finite number", 16),
    ("[1]", "give each carried variable by name with its value: {first: P1, games: 3}", 10),
])
def test_a_scenario_carried_value_is_read_as_written_and_refused_at_its_line(tmp_path, carried, words, col):
    """QA7 P-carried-words: `carried: {mood: on}` said "True is not one of …" (YAML's bool), `.inf`
    was an E503 with no line, `carried: [1]` pydantic's "Input should be a valid dictionary"."""
    rules = tmp_path / "c.fuda"
    rules.write_text("ruleset c\nplayers 2\nenum Mood { calm, cross }\ncards standard() in deck\n"
                     "zone deck: pile hidden\nvar mood: Mood = calm carried\nvar big: number = 1 carried\n"
                     "setup { }\nphase play { end game draw }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: {rules}\ncarried: {carried}\n", encoding="utf-8")
    o = run_scenario(str(f))
    assert not o.passed and f"s.yaml:2:{col}: error[E501]" in o.message and words in o.message, o.message
