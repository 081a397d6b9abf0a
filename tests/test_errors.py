"""The corpus of malformed rulesets (tests/errors/): bad input gets a clear error, never a traceback.

Every ``tests/errors/**/*.fuda`` whose name does not start with ``_`` is one mistake in an otherwise
valid tiny ruleset. Its first lines say what the first diagnostic must be::

    # expect: E101 12:9          code, then line:col of the first diagnostic's span
    # message: unknown name      (optional) a part of its message
    # hint: did you mean turns?  (optional) a part of its hint
    # file: _other.fuda          (optional) the span is in this file (relative to this one), not in this one

Each file is checked through the API (``check_ruleset``) and through ``fuda validate`` (in-process).
Further tests: option values given through the API, options files, and rules that fail at run time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.api import check_ruleset, load, load_text, read_options_file
from interpreter.errors import CODES, FudaError, RuleRuntimeError
from interpreter.runner.cli import main
from interpreter.runner.scenario import parse_scenario

from .conftest import ROOT

ERRORS = ROOT / "tests" / "errors"
FILES = sorted(p for p in ERRORS.rglob("*.fuda") if not p.name.startswith("_"))
HEADER = re.compile(r"#\s*(expect|message|hint|file):\s*(.*?)\s*$")


@dataclass
class Expect:
    code: str
    line: int
    col: int
    message: str | None
    hint: str | None
    file: Path


def expectation(path: Path) -> Expect:
    fields: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = HEADER.match(raw)
        if not m:
            break
        fields[m.group(1)] = m.group(2)
    assert "expect" in fields, f"{path}: the first line must be `# expect: CODE LINE:COL`"
    m = re.fullmatch(r"([EW]\d{3})\s+(\d+):(\d+)", fields["expect"])
    assert m, f"{path}: bad expect line {fields['expect']!r}"
    where = (path.parent / fields["file"]).resolve() if "file" in fields else path.resolve()
    return Expect(m.group(1), int(m.group(2)), int(m.group(3)), fields.get("message"), fields.get("hint"), where)


def rel(path: Path) -> str:
    return str(path.resolve().relative_to(ROOT))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ERRORS)) for p in FILES])
def test_check_ruleset_reports_the_mistake(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exp = expectation(path)
    assert exp.code in CODES
    with pytest.raises(FudaError) as info:
        check_ruleset(rel(path))
    d = info.value.first
    assert (d.code, d.span.line, d.span.col) == (exp.code, exp.line, exp.col), info.value.format()
    assert Path(d.span.file).resolve() == exp.file, info.value.format()
    if exp.message is not None:
        assert exp.message in d.message, info.value.format()
    if exp.hint is not None:
        assert d.hint is not None and exp.hint in d.hint, info.value.format()
    assert d.span.end_line > d.span.line or d.span.end_col > d.span.col, "the span covers nothing"
    text = info.value.format()
    assert "Traceback" not in text


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ERRORS)) for p in FILES])
def test_fuda_validate_prints_the_mistake(path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    exp = expectation(path)
    rc = main(["validate", rel(path)])
    out, err = capsys.readouterr()
    assert rc == 1, out + err
    lines = err.splitlines()
    head = re.compile(rf"{re.escape(rel(exp.file))}:{exp.line}:{exp.col}: error\[{exp.code}\]: ")
    assert lines and head.match(lines[0]), err
    assert lines[1].startswith("    "), err                      # the source line
    assert re.fullmatch(r"\s+\^+", lines[2]), err                 # the caret under it
    assert "Traceback" not in err and "internal error" not in err
    assert "ok (" not in out


def test_insert_into_a_per_player_sequence_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """newcomer47 P7: the hint told the designer to declare what was declared, and the name the
    insert declares then came out as a follow-on "unknown name"."""
    monkeypatch.chdir(ROOT)
    with pytest.raises(FudaError) as info:
        check_ruleset(rel(ERRORS / "insert_per_player_sequence_whose.fuda"))
    assert [d.code for d in info.value.diagnostics] == ["E206"], info.value.format()


def test_the_corpus_is_large_and_valid_minimal_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert len(FILES) >= 70
    prog = check_ruleset(rel(ERRORS / "_valid_minimal.fuda"))
    assert prog.warnings == []
    codes = {expectation(p).code for p in FILES}
    for group in ("E0", "E1", "E2", "E3", "E4"):
        assert any(c.startswith(group) for c in codes), group


# ------------------------------------------------------------------ options given from outside
@pytest.mark.parametrize(("options", "code", "words"), [
    ({"nope": 1}, "E401", "unknown option 'nope'"),
    ({"hand_sise": 3}, "E401", "unknown option"),
    ({"hand_size": 99}, "E402", "within 1..10"),
    ({"hand_size": "lots"}, "E402", "whole number"),
    ({"stop_at_first_winner": "maybe"}, "E402", "bool"),
    ({"players": 9}, "E402", "players"),
])
def test_bad_options_through_the_api(options: dict[str, object], code: str, words: str) -> None:
    with pytest.raises(FudaError) as info:
        check_ruleset("american_page_one", options)
    assert info.value.first.code == code
    assert words in info.value.first.message


def test_bad_option_value_points_at_the_declaration() -> None:
    """A value given from outside is shown against the option's declaration (its type and range)."""
    with pytest.raises(FudaError) as info:
        check_ruleset("american_page_one", {"hand_size": 99})
    d = info.value.first
    text = (ROOT / "rulesets" / "american_page_one.fuda").read_text(encoding="utf-8")
    assert d.span.file.endswith("american_page_one.fuda")
    assert d.span.line == line_of(text, "option hand_size:")
    assert "option hand_size: int 1..10" in info.value.format()
    with pytest.raises(FudaError) as info:
        check_ruleset("american_page_one", {"nope": 1, 7: 1})  # type: ignore[dict-item]
    assert [d.code for d in info.value.diagnostics] == ["E401", "E401"]
    assert info.value.first.span.line == line_of(text, "ruleset american_page_one")


def test_unknown_option_suggests_a_close_name() -> None:
    with pytest.raises(FudaError) as info:
        check_ruleset("american_page_one", {"hand_sise": 3})
    assert info.value.first.hint == "did you mean hand_size?"


def test_bad_enum_option_value_through_the_api() -> None:
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8").replace(
        "var turns: int = 0", "var turns: int = 0\noption style: {strong, weak} = strong\nvar s: bool = style == weak")
    assert check_ruleset("style.fuda", {"style": "weak"}, text=text).option_values["style"] == 1
    with pytest.raises(FudaError) as info:
        check_ruleset("style.fuda", {"style": "stron"}, text=text)
    assert info.value.first.code == "E402"
    assert info.value.first.hint == "did you mean strong?"


def test_cli_bad_option_is_a_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "american_page_one", "--set", "nope=1"]) == 1
    err = capsys.readouterr().err
    assert "error[E401]" in err and "Traceback" not in err
    assert main(["validate", "american_page_one", "--set", "hand_size"]) == 1
    err = capsys.readouterr().err
    assert "error[E406]" in err and "Traceback" not in err


@pytest.mark.parametrize(("content", "words"), [
    ("- hand_size\n- 3\n", "must map option names to values"),
    ("just a text\n", "must map option names to values"),
    ("hand_size: [1, 2\n", "not valid YAML"),
    ("hand_size: 3\n  bad: indentation\n", "not valid YAML"),
])
def test_options_file_not_a_mapping_or_not_yaml(tmp_path: Path, content: str, words: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "house.yaml"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_options_file(str(f))
    assert info.value.first.code == "E406"
    assert words in info.value.first.message
    assert main(["validate", "american_page_one", "--options", str(f)]) == 1
    err = capsys.readouterr().err
    assert "error[E406]" in err and "Traceback" not in err


@pytest.mark.parametrize("key", ["[1, 2]", "{}", "{a: 1}"])
def test_scenario_with_a_list_or_mapping_as_a_key(key: str) -> None:
    """Found by mutating scenario files: the position index of the YAML once failed on such keys."""
    with pytest.raises(FudaError) as info:
        parse_scenario(f"ruleset: john\nsetup:\n  {key}: 1\n", "bad.yaml")
    d = info.value.first
    assert d.code == "E501" and "unhashable key" in d.message and (d.span.line, d.span.col) == (3, 3)


@pytest.mark.parametrize("expect, words", [
    ("{view: {player: P0, hides_vars: [secrte]}}", "no variable is named 'secrte'"),
    ("{view: {player: P0, vars: {secrte: 2}}}", "no variable is named 'secrte'"),
    ('{view: {player: P0, hides_vars: ["role[P0]"]}}', "P0 sees role[P0] = citizen, which should be hidden"),
    ("{view: {player: P0, hides_vars: [role]}}", "P0 sees role = {P0: citizen}, which should be hidden"),
    ('{view: {player: P0, hides_vars: ["secret[P1]"]}}', "secret is not per player: write secret"),
    ("{view: {player: P0, vars: {role: {P1: hunter}}}}", "P0 sees role[P1] = (hidden), expected hunter"),
    ("{view: {player: P0, vars: {role: citizen}}}", "role is per player: give {P0: …}"),
    ("{vars: {role: {P1: prey}}}", "role[P1]: expected prey, found hunter"),
    ("{vars: {calls: {P0: A}}}", 'expected a whole number, got the text "A"'),
    ('{vars: {calls: {P0: "0"}}}', 'expected a whole number, got the text "0"'),
])
def test_scenario_view_variables_are_checked_by_name(tmp_path: Path, expect: str, words: str) -> None:
    """A misspelt variable in a view passed silently; entries are checked one by one."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: {ROOT / 'tests' / 'constructs' / 'roles.fuda'}\n"
                 "setup: {vars: {role: {P0: citizen, P1: hunter, P2: prey, P3: citizen}}}\n"
                 f"steps:\n  - expect: {expect}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message, o.message



@pytest.mark.parametrize("expect, words", [
    ("{vars: {leader: P0}}", "leader: expected P0, found P1"),
    ("{vars: {order: [P0]}}", "order: expected [P0], found [P2, P0]"),
    ("{view: {player: P0, vars: {leader: P2}}}", "P0 sees leader = P1, expected P2"),
    ("{view: {player: null, shows: [♠A]}}", "the spectator's view should show ♠A"),     # QA8 P-PNone: PNone's
])
def test_scenario_failures_name_players_as_scenarios_write_them(tmp_path: Path, expect: str, words: str) -> None:
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 3\ncards standard() in deck\nzone deck: pile hidden\nvar leader: player = none\n"
        "var order: list of player = []\nsetup { leader = players[1]  order = [players[2], players[0]] }\n"
        "phase play { choose players[0] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: s.fuda\nsteps:\n  - expect: {expect}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message, o.message


@pytest.mark.parametrize("expect, words", [
    ("{vars: {marked: false}}", "marked belongs to cards: use card_vars"),
    ("{card_vars: {♠K: {n: 0}}}", "n is not a per-card variable"),
    ("{card_vars: {♠K: {marked: false}}}", "♠K.marked: expected false, found true"),
])
def test_a_per_card_variable_is_expected_under_card_vars_only(tmp_path: Path, expect: str, words: str) -> None:
    """Cuttle newcomer B3: `expect: vars:` naming a per-card variable compared the first card's value
    (and could pass), while an edit refused it."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
        "var marked: bool per card = false\nvar n: int = 0\nsetup { for c in deck { if c.rank > 1 { c.marked = true } } }\n"
        "phase play { choose players[0] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: s.fuda\nsteps:\n  - expect: {expect}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message, o.message


@pytest.mark.parametrize("steps, words", [
    ("  - until_phase: betwen\n", "3:18: error[E501]: no phase named 'betwen'"),
    ("  - until_phase: [deal, plya]\n", "did you mean play?"),
    ("  - P0: play ♣A\n    until_phase: [deal, between]\n", "phase deal or between did not begin: it waits in phase play for P1"),
    ("  - random: 100\n  - until_phase: deal\n", "phase deal did not begin: the game is over"),
    # QA13 B2: on from a stop, an action's step stopped at `play` before its decision and dropped the action
    ("  - until_phase: between\n  - P1: fly to the moon\n    until_phase: play\n", "P1 is not to move now"),
])
def test_a_scenario_until_phase_names_a_phase_that_begins(tmp_path: Path, steps: str, words: str) -> None:
    """Schnapsen newcomer P1: `until_phase` stops as a phase begins; a name that is no phase, or a
    phase the step never reached, fails at the step."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: {ROOT / 'tests' / 'constructs' / 'hands.fuda'}\nsteps:\n{steps}", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message, o.message


def test_every_failed_expectation_of_a_step_is_reported_in_order_with_the_events(tmp_path: Path) -> None:
    """Newcomer's report: only one failure was shown, not the first written, and not what happened."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: american_page_one\noptions: {players: 2}\nseed: 3\nsteps:\n  - expect:\n"
                 "      over: true\n      zones: {場: [♠2]}\n      to_move: [P1]\n", encoding="utf-8")
    o = run_scenario(f)
    lines = [ln for ln in o.message.splitlines() if "error[E502]" in ln]
    assert [ln.split(":")[1] for ln in lines] == ["6", "7", "8"]         # all three, as written
    assert "the game is not over" in lines[0] and "expected ['♠2']" in lines[1] and "to move" in lines[2]
    assert "events since the last expect: phase: play; turn: P0" in o.message


def test_every_failing_part_of_a_view_check_is_reported(tmp_path: Path) -> None:
    """newcomer45 P8: a `view:` check reported only its first failing part (`shows`), the failing
    `log` only once `shows` was removed; each view of a list is checked too."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nzone hand: hand per player owner\n"
        "var n: int = 1 hidden\nsetup { deal 2 from deck to hand }\nphase play { choose players[0] { wait { } } }\n",
        encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nskip_setup: true\nsetup: {zones: {\"hand[P0]\": [♠A, ♠2], \"hand[P1]\": [♥A]}}\n"
                 "steps:\n  - expect:\n      view:\n"
                 "        - {player: P0, shows: [♥A, ♠2, ♥2], hides: [♠A, ♠2], vars: {n: 2}, log: [zzz]}\n"
                 "        - {player: P1, shows: [♠A]}\n", encoding="utf-8")
    o = run_scenario(f)
    said = [ln.split("error[E502]: ")[1] for ln in o.message.splitlines() if "error[E502]" in ln]
    assert said == ["P0's view should show ♥A, ♥2", "P0's view shows ♠A, ♠2, which should be hidden",
                    "P0 sees n = (hidden), expected 2", "P0's log: 'zzz' not found in order after []; "
                    "found after them ['phase: play']", "P1's view should show ♠A"], o.message


def test_every_wrong_player_s_entry_of_a_variable_is_reported(tmp_path: Path) -> None:
    """A newcomer's Spades: only the first wrong player of a per-player variable was reported."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: jekyll_hyde\nsteps:\n  - expect:\n      vars: {score: {P0: 5, P1: 7}}\n",
                 encoding="utf-8")
    o = run_scenario(f)
    lines = [ln for ln in o.message.splitlines() if "error[E502]" in ln]
    assert len(lines) == 2 and "score[P0]" in lines[0] and "score[P1]" in lines[1]


def test_an_event_expected_as_the_action_id_matches_the_log_s_commas(tmp_path: Path) -> None:
    """Scopa newcomer: `take ♥A ♠A ♠2` (a card and a list of cards) is logged `take ♥A, ♠A ♠2`, so an
    event copied from the action's id did not match."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile public\nzone hand: hand per player owner\n"
        "setup { move [card(\"♥A\")] to hand[players[0]] }\nphase play { choose players[0] {\n"
        "  take c in hand[players[0]], t in [[card(\"♠A\"), card(\"♠2\")]] { end game }\n} }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsteps:\n  - P0: take ♥A ♠A ♠2\n  - expect:\n"
                 "      new_events: [\"P0: take ♥A ♠A ♠2\", \"P0: take ♥A, ♠A ♠2\"]\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "'P0: take ♥A, ♠A ♠2' not found in order after ['P0: take ♥A ♠A ♠2']" in o.message
    f.write_text("ruleset: s.fuda\nsteps:\n  - P0: take ♥A ♠A ♠2\n  - expect:\n"
                 "      new_events: [\"P0: take ♥A ♠A ♠2\"]\n      events: {excludes: [\"take ♥A ♠A ♠3\"]}\n",
                 encoding="utf-8")
    assert run_scenario(f).passed


def test_a_step_s_action_given_as_a_number_is_refused_as_an_action(tmp_path: Path) -> None:
    """qa11 P8: `- P0: 1` said "unknown key 'P0'"; it is an action that is not legal, with the legal ones."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: american_page_one\nsteps:\n  - P3: 1\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "error[E602]: P3: 1 is not legal now; legal actions:" in o.message, o.message


def test_a_scenario_key_yaml_reads_as_a_bool_gets_a_hint_to_quote_it(tmp_path: Path) -> None:
    """Cuttle newcomer: a per-card variable named `on` under card_vars read "Input should be a valid
    string" at `…♥J.1.[key]`."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: american_page_one\nsetup:\n  card_vars:\n    ♥J: {on: 3}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "this key is not a name" in o.message and 'quote the name ("on": …)' in o.message
    assert "[key]" not in o.message and "Input should" not in o.message
    for text, at in (("ruleset: american_page_one\non: 3\n", "s.yaml:2:1:"),           # qa11 B5
                     ("ruleset: american_page_one\nsteps:\n  - yes: play\n", "s.yaml:3:5:")):
        f.write_text(text, encoding="utf-8")
        o = run_scenario(f)
        assert not o.passed and f"{at} error[E501]" in o.message and "this key is not a name" in o.message, o.message


@pytest.mark.parametrize(("text", "words", "at"), [
    ("ruleset: john\nsetup:\n  zonez: {}\n", "unknown key 'zonez'", (3, 3, 8)),
    ("ruleset: american_page_one\nsetup:\n  zones:\n    hands[P0]: [♠7]\n", "no zone is named 'hands[P0]'",
     (4, 5, 14)),
    ("ruleset: american_page_one\noptions: {players: 5, hand_sise: 3}\n", "unknown option 'hand_sise'",
     (2, 23, 32)),
    ("ruleset: american_page_one\noptions:\n  players: 5\n  hand_size: 30\n", "hand_size must be within 1..10",
     (4, 14, 16)),
])
def test_a_misspelt_scenario_key_is_shown_at_the_key(tmp_path: Path, text: str, words: str,
                                                    at: tuple[int, int, int]) -> None:
    """Newcomers' report: the caret stood under the value of a misspelt key."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message
    line, col, end = at
    assert f"s.yaml:{line}:{col}:" in o.message and " " * (col + 3) + "^" * (end - col) in o.message.splitlines()


@pytest.mark.parametrize(("step", "words", "under"), [
    ("{zones: {場: {size: abc}}}", "expect.zones.場.size: Input should be a valid integer", "abc"),
    ("{zones: {場: {top: ♣3}}}", "expect.zones.場.top: Input should be a valid list", "♣3"),
    ("{new_events: 5}", "expect.new_events: Input should be a valid list", "5"),
])
def test_a_scenario_value_of_several_shapes_is_faulted_where_it_goes_wrong(tmp_path: Path, step: str, words: str,
                                                                          under: str) -> None:
    """Found by QA: `{size: abc}` said "場.list[str]: Input should be a valid list", the error of the
    shape least like the value (a zone may be a list of cards or a mapping), under the whole mapping."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: american_page_one\nsteps:\n  - expect: {step}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words in o.message, o.message
    assert "list[str]" not in o.message and "Spec" not in o.message
    line, caret = o.message.splitlines()[1:3]
    assert f"s.yaml:3:{line.index(under) - 3}: " in o.message and caret.strip() == "^" * len(under), o.message


def test_a_game_log_on_one_line_is_faulted_under_the_value(tmp_path: Path) -> None:
    """Found by QA: in a log written on one line the caret ran from the bad value to the end of the line."""
    from interpreter.runner.replay import read_log

    f = tmp_path / "g.json"
    f.write_text('{"format": "fuda-log/1", "ruleset": "john", "seed": "abc", "actions": []}', encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_log(str(f))
    shown = info.value.format().splitlines()
    assert "game log seed: Input should be a valid integer" in shown[0]
    assert shown[2] == " " * shown[1].index('"abc"') + "^^^^^"
    f.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_log(str(f))
    assert info.value.first.message.startswith("game log: Input should be")


@pytest.mark.parametrize(("reader", "text", "code"), [
    ("options", "a: &x [*x]\n", "E401"),
    ("scenario", "ruleset: &x [*x]\n", "E501"),
    ("scenario", "ruleset: john\nsteps: &x\n  - expect: {legal: *x}\n", "E501"),
])
def test_a_yaml_file_that_contains_itself(tmp_path: Path, reader: str, text: str, code: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Found by QA: an alias inside its own anchor (`&x [*x]`) sent the index of YAML places round
    for ever: an internal error (RecursionError) instead of the mistake at its place."""
    f = tmp_path / "cycle.yaml"
    f.write_text(text, encoding="utf-8")
    argv = ["validate", "american_page_one", "--options", str(f)] if reader == "options" else ["test", str(f)]
    assert main(argv) == 1
    shown = capsys.readouterr()
    assert f"error[{code}]" in shown.out + shown.err and "internal error" not in shown.err


def test_a_match_file_behind_a_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert main(["play", "john", "--match", "m", "--match-db", str(blocker / "m.sqlite"), "--seat", "random",
                 "--seat", "random", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert f"cannot open the match file {blocker / 'm.sqlite'}: {blocker} is a file, not a folder" in err, err


@pytest.mark.parametrize("step", ["{P0: play ♥7, P1: draw}", "P0:", "{P0: [play, ♥7]}"])
def test_a_step_that_is_not_one_action_as_text_says_how_to_write_one(tmp_path: Path, step: str) -> None:
    """Found by QA: `- {P0: draw, P1: draw}` or `- P0:` with no text said only "unknown key 'P0'"."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: american_page_one\nsteps:\n  - {step}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "unknown key 'P0'" in o.message
    assert "hint: a step is one action, written as text: - P0: draw" in o.message


def _read_ruleset(p: str) -> object:
    return check_ruleset(p)


def _read_scenario(p: str) -> object:
    from interpreter.runner.scenario import load_scenario
    return load_scenario(p)


def _read_log(p: str) -> object:
    from interpreter.runner.replay import read_log
    return read_log(p)


def _read_persona(p: str) -> object:
    from interpreter.bots.persona import load_persona_file
    return load_persona_file(Path(p))


@pytest.mark.parametrize(("reader", "suffix", "code"), [
    (_read_ruleset, ".fuda", "E005"), (_read_scenario, ".yaml", "E501"), (_read_log, ".json", "E503"),
    (read_options_file, ".yaml", "E406"), (_read_persona, ".yaml", "E501"),
], ids=["ruleset", "scenario", "log", "options", "persona"])
def test_every_file_fuda_reads_may_be_missing_or_not_utf8(reader, suffix: str, code: str, tmp_path: Path) -> None:
    """Found by feeding each reader bytes that are not UTF-8: four of five were internal errors."""
    bad = tmp_path / f"bad{suffix}"
    bad.write_bytes(b"# first line\n# caf\xe9 au lait\n")
    with pytest.raises(FudaError) as info:
        reader(str(bad))
    d = info.value.first
    assert d.code == code and "not UTF-8" in d.message and "0xe9" in d.message
    assert (d.span.line, d.span.col) == (2, 6)
    assert "    # caf\ufffd au lait\n         ^" in info.value.format()
    with pytest.raises(FudaError) as info:
        reader(str(tmp_path / f"missing{suffix}"))
    if suffix == ".fuda":   # a ruleset is looked up by name or path first: a path is a file to find
        assert info.value.first.code == "E005" and f"no file {tmp_path / 'missing.fuda'}" == info.value.first.message
    else:
        first = info.value.first     # "no scenario missing.yaml": the file named in the message too (a Tichu newcomer)
        assert first.code == code and first.message.startswith("no ") and f"missing{suffix}" in first.message


def test_list_names_a_ruleset_file_or_says_why_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "mine.fuda"
    f.write_text((ROOT / "tests" / "errors" / "_valid_minimal.fuda").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["list", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{f} — Minimal | 最小 — 2–4 players (default 2)") and "hand_size: int 1..5 = 2" in out
    assert main(["list", "jon"]) == 1
    assert "error[E504]: no ruleset named 'jon'" in capsys.readouterr().err
    assert main(["list", "john.fuda"]) == 1
    err = capsys.readouterr().err
    assert "error[E005]: no file john.fuda" in err
    # QA9 D6: an exact name was answered "did you mean bridge?" for bridge_chicago.fuda
    assert "did you mean john? (a ruleset fuda ships is named without .fuda)" in err
    assert main(["list", "bridge_chicago.fuda"]) == 1
    assert "did you mean bridge_chicago?" in capsys.readouterr().err


def test_options_file_missing(tmp_path: Path) -> None:
    with pytest.raises(FudaError) as info:
        read_options_file(str(tmp_path / "nowhere.yaml"))
    assert info.value.first.code == "E406"


def test_options_file_values_are_checked(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("hand_size: 11\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset("american_page_one", read_options_file(str(f)))
    assert info.value.first.code == "E402"


# ------------------------------------------------------------------ files that cannot be read
def test_unknown_ruleset_and_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "missing.fuda"))
    assert info.value.first.code == "E005"      # a path that names no file
    with pytest.raises(FudaError) as info:
        check_ruleset("no_such_game")
    assert info.value.first.code == "E504"
    bad = tmp_path / "latin1.fuda"
    bad.write_bytes('ruleset x "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(FudaError) as info:
        check_ruleset(str(bad))
    assert info.value.first.code == "E005"
    assert main(["validate", str(bad), str(tmp_path / "missing.fuda"), "no_such_game"]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "error[E005]: no file" in err and "error[E504]" in err and "Traceback" not in err


def test_byte_order_mark_is_not_a_mistake(tmp_path: Path) -> None:
    f = tmp_path / "bom.fuda"
    f.write_bytes(b"\xef\xbb\xbf" + (ERRORS / "_valid_minimal.fuda").read_bytes())
    assert check_ruleset(str(f)).name == "minimal"


def test_old_mac_line_ends_and_decomposed_letters_read_as_typed(tmp_path: Path) -> None:
    """Found by QA: a file with CR line ends (old Mac editors) was one comment line (five errors at
    1:1), and a name typed with a combining mark (カ + U+3099 for ガ, from a copy-paste) was an
    unexpected character, or another name than the same word typed directly."""
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8")
    f = tmp_path / "cr.fuda"
    f.write_bytes(text.replace("\n", "\r").encode("utf-8"))
    assert check_ruleset(str(f)).name == "minimal"
    typed = text.replace("var turns: int = 0", "var ガード: int = 0").replace("turns += 1", "\u30ab\u3099\u30fc\u30c8\u3099 += 1")
    assert check_ruleset("nfd.fuda", text=typed).warnings == []
    bad = typed.replace("move c to pile", "move c\rmove d to pile")       # a place after a CR is counted right
    with pytest.raises(FudaError) as info:
        check_ruleset("nfd.fuda", text=bad)
    assert info.value.first.span.line == line_of(bad.replace("\r", "\n"), "move d")
    assert re.search(r"\n +move d to pile\n +\^", info.value.format())


def test_every_mistake_is_reported_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker goes on after a mistake: two independent mistakes give two diagnostics."""
    monkeypatch.chdir(ROOT)
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8")
    text = text.replace("turns += 1", "turnz += 1").replace("move c to pile", "move c to piel")
    with pytest.raises(FudaError) as info:
        check_ruleset("two.fuda", text=text)
    assert [d.code for d in info.value.diagnostics] == ["E101", "E101"]


@pytest.mark.parametrize(("old", "new"), [
    ("current = players[0]", "current = players[0]\n" + "if true {\n" * 400 + "turns += 1\n" + "}\n" * 400),
    ("current = players[0]", "current = players[0]\n    turns = " + " + ".join(["turns"] * 450)),
    ("current = players[0]", "current = players[0]\n    turns = " + " + ".join(["turns"] * 2000)),
], ids=["blocks", "expression", "long_expression"])
def test_nesting_too_deep_is_a_diagnostic(old: str, new: str, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    """Hundreds of blocks or operators inside one another hit Python's recursion limit: a diagnostic."""
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8").replace(old, new)
    with pytest.raises(FudaError) as info:
        check_ruleset("deep.fuda", text=text)
    assert info.value.first.code == "E309"
    assert "too deeply" in info.value.first.message
    f = tmp_path / "deep.fuda"
    f.write_text(text, encoding="utf-8")
    assert main(["validate", str(f)]) == 1
    err = capsys.readouterr().err
    assert "error[E309]" in err and "Traceback" not in err and "internal error" not in err


def test_words_left_after_a_statement_are_one_error_that_names_the_first() -> None:
    """QA: `deal 1 from deck to hand at 1` gave two "does nothing" errors, at `at` and at `1`."""
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8")
    text = text.replace("current = players[0]", "current = players[0]\n    deal 1 from deck to hand at 1")
    with pytest.raises(FudaError) as info:
        check_ruleset("dealat.fuda", text=text)
    (d,) = info.value.diagnostics
    assert d.code == "E309" and "`at` is not part of the statement before it" in d.message
    assert d.hint and "move CARD to ZONE at N" in d.hint


# ------------------------------------------------------------------ rules that fail at run time
RT_HEAD = """ruleset runtime "Run-time failures"
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone empty: pile public
zone hand: hand per player owner
"""


def line_of(text: str, needle: str) -> int:
    return next(i for i, s in enumerate(text.splitlines(), start=1) if needle in s)


def runtime_failure(text: str, seed: int = 0, actions: tuple[str, ...] = (), code: str = "E601") -> RuleRuntimeError:
    game = load_text(text, filename="runtime.fuda")
    with pytest.raises(RuleRuntimeError) as info:
        st = game.new_state(seed)
        for a in actions:
            st.apply(st.to_move()[0], a)
    err = info.value
    assert err.first.code == code
    assert err.first.span.file == "runtime.fuda"
    shown = err.format()
    assert re.search(r"\n\s+\^+", shown) and "Traceback" not in shown
    return err


def test_runtime_move_from_an_empty_zone() -> None:
    text = RT_HEAD + """
setup {
    move top(empty) to hand[players[0]]
}

phase play {
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.span.line == line_of(text, "move top(empty)")
    assert "no card to move" in err.first.message


def test_runtime_move_from_an_empty_zone_through_api_load(tmp_path: Path) -> None:
    f = tmp_path / "empty_move.fuda"
    text = RT_HEAD + "\nsetup {\n    shuffle deck\n    move top(empty) to hand[players[0]]\n}\n\nphase play {\n    end game\n}\n"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RuleRuntimeError) as info:
        load(str(f)).new_state(0)
    assert info.value.first.code == "E601"
    assert info.value.first.span.line == line_of(text, "move top(empty)")


def test_runtime_choose_without_a_legal_option() -> None:
    text = RT_HEAD + """
setup {
    shuffle deck
}

phase play {
    choose current {
        play c in hand[current] "play {c}" {
            move c to empty
        }
    }
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.span.line == line_of(text, "choose current")
    assert "otherwise" in err.first.message


def test_runtime_deal_runs_out_of_cards() -> None:
    text = RT_HEAD + """
setup {
    deal 30 from deck to hand
}

phase play {
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.span.line == line_of(text, "deal 30")
    assert "ran out" in err.first.message


def test_runtime_failure_inside_a_rule_points_at_the_rule() -> None:
    """A failure after a player's action points at the statement of the called rule, not the caller."""
    text = RT_HEAD + """
rule take_from_empty(p: player) {
    log "{p} takes"
    move top(empty) to hand[p]
}

setup {
    shuffle deck
}

phase play {
    choose current {
        go "go" {
            take_from_empty(current)
        }
    }
    end game
}
"""
    err = runtime_failure(text, actions=("go",))
    assert err.first.span.line == line_of(text, "move top(empty) to hand[p]")


def test_runtime_position_past_the_end() -> None:
    text = RT_HEAD + """
setup {
    move deck[60] to empty
}

phase play {
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.span.line == line_of(text, "deck[60]")


def test_runtime_check_keeps_firing_points_at_the_check() -> None:
    text = RT_HEAD + """var n: int = 0

check forever when size(deck) > 0 {
    n += 1
}

setup {
    shuffle deck
}

phase play {
    move top(deck) to empty
    choose current {
        go "go" {
            end game
        }
    }
}
"""
    err = runtime_failure(text, code="E603")
    assert err.first.span.line == line_of(text, "check forever")
    assert "keeps firing" in err.first.message


# ------------------------------------------------------------------ known engine bugs (not error reporting)
def test_runtime_turn_of_none() -> None:
    text = RT_HEAD + """
setup {
    shuffle deck
}

phase play {
    let p: player = none
    turn p {
        choose p {
            go "go" {
                end game
            }
        }
    }
}
"""
    runtime_failure(text)


class Hang(Exception):
    pass


@pytest.mark.parametrize("play", [
    "phase play {\n    while true {\n        n += 1\n    }\n}\n",
    "phase play {\n    goto other\n}\n\nphase other {\n    goto play\n}\n",
    # a loop that could wait for a decision but takes none on the path it runs (found by mutation)
    "phase play {\n    while true {\n        turn players[0] {\n            if n < 0 {\n"
    "                choose players[0] {\n                    go \"go\" {\n                        end game\n"
    "                    }\n                }\n            }\n        }\n    }\n}\n",
], ids=["while_true", "goto_cycle", "turns_without_decisions"])
def test_runtime_endless_loop_without_decisions(play: str) -> None:
    import signal

    text = RT_HEAD + "var n: int = 0\nlimit 1000 decisions\n\nsetup {\n    shuffle deck\n}\n\n" + play
    game = load_text(text, filename="runtime.fuda")

    def stop(signum: int, frame: object) -> None:
        raise Hang("new_state() still running after 1 s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(RuleRuntimeError):
            game.new_state(0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("loop", [
    "repeat n + 1000000000 {\n        n += 1\n    }",
    "repeat 10000000000000000000000000 {\n        n += 1\n    }",
    "for i in 1..n + 100000000000000000000000 {\n        n += 1\n    }",
    # with a decision inside: the loop is run step by step (and its range was made a tuple first)
    "for i in 1..1000000000000 {\n        if n < 0 {\n            turn players[0] {\n"
    "                choose players[0] {\n                    go \"go\" { }\n                }\n"
    "            }\n        }\n    }",
], ids=["repeat", "repeat_constant", "for_range", "for_range_with_decision"])
def test_runtime_loop_counted_past_a_million(loop: str) -> None:
    """Found by QA: `repeat 1000000000` or `for i in 1..1000000000` (a count gone wrong) ran for hours
    without a word, and a huge range with a decision inside filled the memory: E601 at the loop."""
    import signal

    text = RT_HEAD + "var n: int = 0\n\nsetup {\n    shuffle deck\n}\n\nphase play {\n    " + loop + "\n    end game\n}\n"

    def stop(signum: int, frame: object) -> None:
        raise Hang("new_state() still running after 5 s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        err = runtime_failure(text)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert "times: a loop runs at most 1,000,000 times" in err.first.message
    assert err.first.span.line == line_of(text, loop.split("\n")[0])


def test_loops_up_to_a_million_rounds_run() -> None:
    text = RT_HEAD + "var n: int = 0\n\nsetup {\n    shuffle deck\n}\n\nphase play {\n" \
        "    repeat 1000 {\n        for i in 1..1000 {\n            n += 1\n        }\n    }\n    end game\n}\n"
    st = load_text(text, filename="runtime.fuda").new_state(0)
    assert st.over and st.view(None, 0)["vars"]["n"] == 1_000_000


def test_long_expression_compiles() -> None:
    text = (ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8").replace(
        "current = players[0]", "current = players[0]\n    turns = " + " + ".join(["turns"] * 250))
    check_ruleset("long.fuda", text=text)
    load_text(text, filename="long.fuda").new_state(0)


def test_reading_through_a_none_variable_names_it() -> None:
    """Newcomers' report: the E601 for a none did not say which value it was."""
    text = RT_HEAD + """
var leader: player = none
setup {
    shuffle deck
}
phase play {
    while size(hand[leader]) > 0 {
        move top(hand[leader]) to deck
    }
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.message.endswith("; leader is none")
    assert err.first.span.line == line_of(text, "while size(hand[leader])")


@pytest.mark.parametrize("where", ["rule", "phase", "option"])
def test_reading_through_a_none_local_names_it(where: str) -> None:
    """Crew newcomer: `won[w] += 1` with a local `w` that is none named no value; globals were named.
    A rule's local (a function of its own), a phase's (kept in its frame) and an option block's."""
    body = """let w: player = none
    for p in players { if size(hand[p]) > 100 { w = p } }
    won[w] += k"""
    text = RT_HEAD + "var won: int per player = 0\nvar nobody: player = none\n" + {
        "rule": f"rule tally(k: int) {{\n    {body}\n}}\nsetup {{ }}\nphase play {{ tally(1)\n end game }}\n",
        "phase": f"setup {{ }}\nphase play {{\n    let k = 1\n    {body}\n    end game\n}}\n",
        "option": f"setup {{ }}\nphase play {{ choose players[0] {{ go k in 1..2 {{\n    {body}\n}} }}\n end game }}\n",
    }[where]
    err = runtime_failure(text, actions=("go 1",) if where == "option" else ())
    assert err.first.message.endswith("; w is none") and err.first.span.line == line_of(text, "won[w] += k")
    # a global and a local of the statement, both none
    err = runtime_failure(text.replace("won[w] += k", "won[w] += k + size(hand[nobody])"),
                          actions=("go 1",) if where == "option" else ())
    assert err.first.message.endswith("; nobody and w are none")


@pytest.mark.parametrize("call, said", [("wins(w)", "the parameter p of wins is none (given w)"),
                                        ("twice(w)", "the parameter p of wins is none "
                                                     "(given p, twice's parameter, given w)"),
                                        ("won[w]", "w is none")])
def test_a_local_given_to_a_function_that_failed_on_it_is_named(call: str, said: str) -> None:
    """A function (inlined, or called) that reads through the none it was given: its parameter is
    named, with what the call gave it (fix22: it was named as the caller's local, `w is none`); a
    rule's own line names its local, but not the local it is setting (`let n = …`: none only as it
    is not set)."""
    text = RT_HEAD + f"""var won: int per player = 0
fn wins(p: player) -> int = won[p] + 1
fn twice(p: player) -> int = if size(deck) > 100 then 0 else wins(p) * won[p]
setup {{ }}
phase play {{
    let w: player = none
    let n = {call}
    end game
}}
"""
    err = runtime_failure(text)
    assert err.first.message.endswith("; " + said), err.first.message


@pytest.mark.parametrize("body, said", [
    ('log "{f(top(empty))}"', "; the parameter c of f is none (given top(empty))"),
    ("let x = top(empty)\n    log \"{f(x)}\"", "; the parameter c of f is none (given x)"),
    ('log "{g(top(deck), top(empty))}"', "; the parameter e of g is none (given top(empty))"),
    ('log "{g(t, t)}"', "; the parameter d of g is none (given t)"),
    ('log "{h(top(empty))}"', "; the parameter c of f is none (given d, h's parameter, given top(empty))"),
    ('log "{k(t, top(empty))}"', "; the parameter d of g is none (given a, k's parameter, given t)"),
    ('log "{both(t, top(empty))}"',
     "; the parameters c and d of pair are none (c given c, both's parameter, given t; "
     "d given d, both's parameter, given top(empty))"),
    ('log "{m(t, top(empty))}"', "; the parameters c and d of pair are none "
     "(c given a, m's parameter, given t; d given b, m's parameter, given top(empty))"),
])
def test_a_none_parameter_of_a_function_is_named_with_its_function(body: str, said: str) -> None:
    """fix22: a fn that reads through a none it was given named nothing (`f(top(empty))`) or the
    caller's local as if the fn's line read it; it names the parameter and the fn, with the argument
    given — inlined (f), compiled on its own (g, of named steps) or called from another fn (h), and
    then (qa17 Q19) followed out to what that fn was given; several parameters each with theirs."""
    text = RT_HEAD + f"""var t: card = none
fn f(c: card) -> int = c.rank
fn g(d: card, e: card) -> int {{
    let x = 1
    d.rank + e.rank + x
}}
fn h(d: card) -> int = f(d) + 1
fn k(a: card, b: card) -> int = g(a, b) * 2
fn pair(c: card, d: card) -> int = [c, d][0].rank
fn both(c: card, d: card) -> int = pair(c, d)
fn m(a: card, b: card) -> int = pair(a, b) + 1
setup {{ }}
phase play {{
    {body}
    end game
}}
"""
    err = runtime_failure(text)
    assert err.first.message.endswith(said), err.first.message


def test_a_local_given_to_an_ordering_that_failed_on_it_is_named() -> None:
    """qa15 Q6: an ordering's tier that reads through the none it was given names the caller's local,
    as a `fn` does: the caret stays on the tier, the hint names the call itself (fix21 4: not the
    calling line's start), also of a `best … by` the ordering."""
    text = RT_HEAD + """var t: card = none
ordering power(c: card) {
    tier c.rank > 10 by c.rank
    tier true by 0
}
setup { }
phase play {
    let x = t
    let a = top(deck)
    log "{power(x) > power(a)}"
    end game
}
"""
    err = runtime_failure(text)
    assert err.first.message.endswith("; x is none"), err.first.message
    row = line_of(text, "log ")
    col = text.splitlines()[row - 1].index("power(x)") + 1
    assert err.first.span.line == line_of(text, "tier c.rank") and err.first.hint == f"in power, called at runtime.fuda:{row}:{col}", \
        err.first.hint
    arg = text.replace('log "{power(x) > power(a)}"', 'log "{power(cards(deck)[99]) > power(a)}"')
    err = runtime_failure(arg)      # the argument failed, before the ordering ran: no "in power"
    assert err.first.span.line == row and "power" not in (err.first.hint or ""), err.first.hint
    best = text.replace('log "{power(x) > power(a)}"', 'log "{best c in [a, x] by power(c)}"')
    err = runtime_failure(best)
    col = best.splitlines()[row - 1].index("power(c)") + 1
    assert err.first.span.line == line_of(text, "tier c.rank") and err.first.hint == f"in power, called at runtime.fuda:{row}:{col}", \
        err.first.hint


def test_responders_that_include_none_are_named_at_the_clause() -> None:
    """Newcomers' report: the failure showed at the window's options, not at its responders."""
    text = RT_HEAD + """
effect strike(victim: player) { log "{victim} is hit" }
effect boom(n: int) { log "boom {n}" }
window parry (it, p) responders [it.victim] {
    block c in hand[p] "block with {c}" { move c to empty }
}
setup {
    shuffle deck
    deal 2 from deck to hand
}
phase play {
    activate boom(1)
    end game
}
"""
    err = runtime_failure(text)
    assert "the responders of window parry include none" in err.first.message
    assert err.first.span.line == line_of(text, "responders [it.victim]") and err.first.span.col == 33


def test_a_variant_may_be_named_after_its_base(tmp_path: Path) -> None:
    """A house-rule file american_page_one.fuda that extends american_page_one takes the bundled
    base (it was "circular extends": the file found itself next to itself)."""
    f = tmp_path / "american_page_one.fuda"
    f.write_text('ruleset house "House"\nextends american_page_one\noverride option hand_size: int 1..10 = 5\n',
                 encoding="utf-8")
    prog = check_ruleset(str(f))
    assert prog.name == "house" and prog.options["hand_size"].value == 5


def test_a_bad_value_in_a_game_log_is_shown_at_its_line(tmp_path: Path) -> None:
    from interpreter.runner.replay import read_log

    f = tmp_path / "g.json"
    f.write_text('{\n "format": "fuda-log/1",\n "ruleset": "john",\n "options": {},\n "seed": "abc",\n'
                 ' "seats": [],\n "actions": []\n}\n', encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_log(str(f))
    d = info.value.first
    assert d.code == "E503" and "game log seed" in d.message and (d.span.line, d.span.col) == (5, 10)



def test_a_variant_is_not_warned_about_what_its_base_declares(tmp_path: Path) -> None:
    """A base variable left unused by an override failed `validate --strict` of the variant, which
    cannot remove it; the variant's own unused declarations are still warned about."""
    (tmp_path / "base.fuda").write_text("ruleset wbase\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                                        "var rank: int = 1\nrule step { rank += 1 }\nsetup { step() }\n"
                                        "phase play { }\n", encoding="utf-8")
    (tmp_path / "var.fuda").write_text("ruleset wvar\nextends base\nvar mine: int = 0\noverride rule step { }\n",
                                       encoding="utf-8")
    prog = check_ruleset(str(tmp_path / "var.fuda"))
    assert [(w.code, w.message) for w in prog.warnings] == [("W101", "var mine is never used")]


def test_a_variant_s_mistakes_with_its_base_come_with_the_others(tmp_path: Path) -> None:
    """An E407 hid the variant's E402 until it was fixed: one run shows both."""
    (tmp_path / "v.fuda").write_text("ruleset v\nextends jekyll_hyde\noverride var ego: text = \"calm\"\n"
                                     "option roles = sideways\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "v.fuda"))
    assert [d.code for d in info.value.diagnostics] == ["E407", "E402"]


def test_a_card_a_variant_s_deck_leaves_out_is_blamed_on_that_deck(tmp_path: Path) -> None:
    """qa16 V7: a variant's `cards` line without the Qs made the base's `card("♠Q")` E108 with
    "did you mean ♠A?", sending the reader to edit the base; and a deck without the Joker the base
    reads as `all_cards[52]` (while its option keeps it in) validated and failed at run time.
    Both now name the variant's `cards` line, at validate, and only where the base's deck had it."""
    (tmp_path / "b.fuda").write_text(
        "ruleset b\nplayers 2\noption joker: bool = true\ncards standard(jokers = if joker then 1 else 0) in deck\n"
        "zone deck: pile hidden\nfn queen() -> card = card(\"♠Q\")\nfn jk() -> card = all_cards[52]\n"
        "setup { log \"{queen()} {jk()}\" }\nphase play { end game }\n", encoding="utf-8")
    (tmp_path / "short.fuda").write_text("ruleset s\nextends b\ncards standard(ranks = 1..10, jokers = 1) in deck\n",
                                         encoding="utf-8")
    (tmp_path / "nojoker.fuda").write_text("ruleset n\nextends b\ncards standard() in deck\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "short.fuda"))
    d = info.value.first        # (and all_cards[52], past its 41 cards)
    assert (d.code, Path(d.span.file).name, d.span.line) == ("E108", "b.fuda", 6)
    assert f"because of the cards at {tmp_path / 'short.fuda'}:3:1" in d.message
    assert d.hint is not None and "did you mean" not in d.hint and "variant's deck leaves ♠Q out" in d.hint
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "nojoker.fuda"))
    [d] = info.value.diagnostics
    assert (d.code, Path(d.span.file).name, d.span.line) == ("E108", "b.fuda", 7)
    assert "all_cards[52] is past the end of the deck (52 cards" in d.message and "nojoker.fuda:3:1" in d.message
    assert check_ruleset(str(tmp_path / "nojoker.fuda"), {"joker": False}).name == "n"   # the base's deck: 52 too
    (tmp_path / "own.fuda").write_text('ruleset o\nextends b\ncards {\n    card "x"\n} in deck\n'
                                       "override fn queen() -> card = all_cards[0]\noverride fn jk() -> card = all_cards[0]\n"
                                       "fn up(c: card) -> bool = c.rank > 1\n", encoding="utf-8")
    (tmp_path / "b.fuda").write_text((tmp_path / "b.fuda").read_text(encoding="utf-8") + "fn hi(c: card) -> bool = c.rank > 10\n",
                                     encoding="utf-8")
    with pytest.raises(FudaError) as info:     # an attribute the base reads and the variant's own deck lacks
        check_ruleset(str(tmp_path / "own.fuda"))
    assert [(d.code, Path(d.span.file).name, "because of the cards at" in d.message) for d in info.value.diagnostics] \
        == [("E103", "b.fuda", True), ("E103", "own.fuda", False)]
    with pytest.raises(FudaError) as info:      # the base's own mistake keeps its "did you mean"
        check_ruleset("b", text="ruleset b\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                      "fn queen() -> card = card(\"♠Z\")\nsetup { log \"{queen()}\" }\nphase play { end game }\n")
    assert "because of" not in info.value.first.message


def test_an_override_option_without_a_label_keeps_the_base_s(tmp_path: Path) -> None:
    """qa16 V8: `override option hand_size: int 1..20 = 20` (the way to widen the range E402's hint
    now gives) dropped "Cards dealt to each player" from menus and `fuda list`; a label given is used."""
    v = tmp_path / "v.fuda"
    v.write_text("ruleset v\nextends american_page_one\noverride option hand_size: int 1..20 = 20\n", encoding="utf-8")
    o = check_ruleset(str(v)).options["hand_size"]
    assert (o.hi, o.default) == (20, 20)
    assert o.decl is not None and o.decl.label is not None and o.decl.label.plain == "Cards dealt to each player"
    v.write_text('ruleset v\nextends american_page_one\noverride option hand_size: int 1..20 = 20 "Deal"\n',
                 encoding="utf-8")
    o = check_ruleset(str(v)).options["hand_size"]
    assert o.decl is not None and o.decl.label is not None and o.decl.label.plain == "Deal"


def test_an_override_with_a_wrong_signature_has_its_body_checked_too(tmp_path: Path) -> None:
    """qa16 V9: an override's E407 hid every mistake in its body until the header was fixed; the body
    is now checked against the header it declares, and nothing follows from the base's callers."""
    v = tmp_path / "v.fuda"
    v.write_text('ruleset v\nextends american_page_one\noverride rule after_play(p: player) {\n    log "{nope}"\n'
                 "    p = 3\n}\noverride fn wild(c: card, n: int) -> bool = c.rank == n\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(v))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("E407", 3), ("E407", 7), ("E101", 4), ("E201", 5)]
    assert "(override)" not in info.value.format()


def test_a_base_in_the_parent_folder_is_found_from_wherever_fuda_is_started(tmp_path: Path, monkeypatch) -> None:
    """`fuda validate probe.fuda` run inside tests/ missed the base one folder up: the parent of
    "probe.fuda" as typed is "." (a newcomer's Hold'em). A base found nowhere names both folders."""
    (tmp_path / "base.fuda").write_text("ruleset pbase\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                                        "setup { }\nphase play { }\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "probe.fuda").write_text("ruleset probe\nextends base\n", encoding="utf-8")
    (tmp_path / "tests" / "lost.fuda").write_text("ruleset lost\nextends nowhere\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "tests")
    assert check_ruleset("probe.fuda").name == "probe"
    assert check_ruleset("./probe.fuda").name == "probe"
    with pytest.raises(FudaError) as info:
        check_ruleset("lost.fuda")
    d = info.value.first
    assert d.code == "E403" and d.hint is not None and "nowhere.fuda in ./ or " in d.hint


_OPTION_BASE = ("ruleset w\nplayers 2\ncards standard(jokers = 1) in deck\nzone deck: pile hidden\n"
                "zone pile: pile public\nzone hand: hand per player owner\nsetup { deal 5 from deck to hand }\n"
                "phase play {\n    let q = next(current)\n    choose current {\n        {OPTION}\n    }\n}\n")


def _warnings_of(tmp_path: Path, base: str, hole: str, part: str) -> list[str]:
    """The warnings (but unused declarations) of a small game: ``base`` with ``part`` in ``hole``."""
    f = tmp_path / "w.fuda"
    f.write_text(base.replace(hole, part), encoding="utf-8")
    return [w.code for w in check_ruleset(str(f)).warnings if w.code != "W101"]


def _option_warnings(tmp_path: Path, option: str) -> list[str]:
    """The warnings of a small game whose one decision offers ``option``."""
    return _warnings_of(tmp_path, _OPTION_BASE, "{OPTION}", option)


def test_a_where_that_tests_cards_the_chooser_cannot_see_is_warned(tmp_path: Path) -> None:
    """W102: `draw c in hand[q] where not c.joker` tells the drawer where the Joker is (a newcomer's
    Old Maid). Testing one's own hand, or a public zone, is fine."""
    def warnings(option: str) -> list[str]:
        return _option_warnings(tmp_path, option)
    assert warnings("draw c in hand[q] where not c.joker { move c to hand[current] }") == ["W102"]
    assert warnings("peek c in deck where c.rank > 5 { }") == ["W102"]
    assert warnings("draw c in hand[q] { move c to hand[current] }") == []
    assert warnings("play c in hand[current] where not c.joker { move c to pile }") == []
    assert warnings("take c in pile where c.rank > 5 { }") == []
    assert warnings("flip c in deck where not revealed(c) { reveal c }") == []     # face up or not: public
    # qa11 B2: shown to the chooser, nothing they do not see; shown to another, that player's secret
    assert warnings("see c in hand[q] where revealed(c, current) { }") == []
    assert warnings("see c in hand[q] where revealed(c, q) { }") == ["W102"]


def test_a_where_guarded_by_revealed_to_the_chooser_reads_only_cards_they_saw(tmp_path: Path) -> None:
    """qa11 P1: `take c in hand[q] where revealed(c, current) and c.rank > 10` is true only for cards
    the chooser was shown (or, with `revealed(c)`, face up): no W102, in either order of the `and`,
    through a function, nor for the label. Not a guard: `or`, `not`, a reveal to another player."""
    def warnings(option: str) -> list[str]:
        return _option_warnings(tmp_path, option)
    assert warnings("t c in hand[q] where revealed(c, current) and c.rank > 10 { }") == []
    assert warnings("t c in hand[q] where c.rank > 10 and revealed(c, current) { }") == []
    assert warnings("t c in hand[q] where revealed(c) and (c.rank > 10 or c.joker) { }") == []
    assert warnings('t c in hand[q] where revealed(c, current) and c.rank > 10 "take {c.rank}" { }') == []
    assert warnings("r n in 1..13 where any x in hand[q] where revealed(x, current) and x.rank == n { }") == []
    assert warnings("t c in hand[q] where revealed(c, current) or c.rank > 10 { }") == ["W102"]
    assert warnings("t c in hand[q] where not revealed(c, current) and c.rank > 10 { }") == ["W102"]
    assert warnings("t c in hand[q] where revealed(c, q) and c.rank > 10 { }") == ["W102"]
    assert warnings("t c in hand[q] where revealed(c, current) and revealed(c, q) { }") == ["W102"]
    assert warnings('t c in hand[q] where c.rank > 10 "take {c.rank}" { }') == ["W102", "W102"]
    assert warnings("r n in 1..13 where any x in hand[q] where x.rank == n { }") == ["W102"]
    base = _OPTION_BASE.replace("phase play", "fn seen_by(c: card, p: player) -> bool = revealed(c, p)\nphase play")
    assert _warnings_of(tmp_path, base, "{OPTION}", "t c in hand[q] where seen_by(c, current) and c.rank > 10 { }") == []
    assert _warnings_of(tmp_path, base, "{OPTION}", "t c in hand[q] where seen_by(c, q) and c.rank > 10 { }") == ["W102"]


def test_top_of_each_top_up_pile_of_a_list_written_out_is_seen(tmp_path: Path) -> None:
    """port6: `take c in tops()` with `fn tops() = [top(z) for z in [dis_a, dis_b] where size(z) > 0]`
    of `top up` piles was W102 "names the cards of dis_a" (the list names the zones, it reads none);
    `top(discards(k))` through a function was not. What is done with each zone is what is read."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone dis_a: pile hidden top up\nzone dis_b: pile hidden top up\nzone dis_c: pile hidden\n"
            "zone hand: hand per player owner\nsetup { deal 2 from deck to hand }\n"
            "phase play {\n    choose current {\n        {OPTION}\n    }\n    {LOG}\n}\n")
    def warnings(option: str, log: str = "") -> list[str]:
        return _warnings_of(tmp_path, base.replace("{LOG}", log), "{OPTION}", option)
    assert warnings("t c in [top(z) for z in [dis_a, dis_b] where size(z) > 0] { }") == []
    assert warnings("t c in [top(z) for z in [dis_a, dis_b]] { }") == []
    assert warnings("n k in 0..1 where any z in [dis_a, dis_b] where top(z) != none { }") == []
    assert warnings("ok { }", 'log "{[top(z) for z in [dis_a, dis_b]]}"') == []
    assert warnings("t c in [top(z) for z in [dis_a, dis_c]] { }") == ["W102"]
    assert warnings("t c in [bottom(z) for z in [dis_a, dis_b]] { }") == ["W102"]
    assert warnings("n k in 0..1 where any z in [dis_a, dis_b] where bottom(z).rank > 5 { }") == ["W102"]
    assert warnings("ok { }", 'log "{[top(z) for z in [dis_a, dis_c]]}"') == ["W104"]


def test_a_zone_held_in_a_let_is_followed_by_the_warnings(tmp_path: Path) -> None:
    """QA8 B-zone-let: `let z = hand[q]` then `take c in cards(z)` or `log "{top(z)}"` named the
    other hand's cards with no warning; reading through the `let` is reading the zone."""
    base = _OPTION_BASE.replace("    let q = next(current)\n", "    let q = next(current)\n    let z = hand[q]\n"
                                "    let mine = hand[current]\n    {LOG}\n")
    def warnings(option: str, log: str = "") -> list[str]:
        return _warnings_of(tmp_path, base.replace("{OPTION}", option), "{LOG}", log)
    assert warnings("take c in cards(z) { }") == ["W102"]
    assert warnings("take c in cards(mine) { }") == []
    assert warnings("peek where size(z) > 2 { }", 'log "{size(z)} cards"') == []
    assert warnings("peek { }", 'log "{top(z)}"') == ["W104"]


def test_a_label_that_shows_a_card_the_chooser_cannot_see_is_warned(tmp_path: Path) -> None:
    """W102 for labels: `take c in hand[q] "take the {c.rank}"` labelled each face-down place with the
    rank lying there (the bare `{c}` is shown as the place; `c.rank` was computed from the card)."""
    def warnings(option: str) -> list[str]:
        return _option_warnings(tmp_path, option)
    assert warnings('take c in hand[q] "take {c} of rank {c.rank}" { move c to hand[current] }') == ["W102"]
    assert warnings('peek c in deck "peek at {text(c)}" { }') == ["W102"]
    assert warnings('take c in hand[q] "take {c} | {c} を取る" { move c to hand[current] }') == []
    assert warnings('play c in hand[current] "play {c} ({c.rank})" { move c to pile }') == []
    assert warnings('take c in pile "take {c.rank}" { }') == []


def test_a_list_of_cards_the_chooser_cannot_see_is_warned(tmp_path: Path) -> None:
    """W102 for lists: `take c in cards(hand[q])` listed P1's whole hand by name in P0's legal actions
    (`take ♥10`, `take ♠A`, `take ♣9`), where `take c in hand[q]` offers places."""
    def warnings(option: str) -> list[str]:
        return _option_warnings(tmp_path, option)
    assert warnings("take c in cards(hand[q]) { move c to hand[current] }") == ["W102"]
    assert warnings("pick cs in subsets(sorted(hand[q]), 2) { }") == ["W102"]
    assert warnings("peek c in [top(deck)] { }") == ["W102"]
    assert warnings("give cs in subsets(sorted(hand[current]), 2) { }") == []
    assert warnings("take c in cards(pile) { }") == []
    assert warnings("guess n in 0..size(hand[q]) { }") == []
    assert warnings("call c in [card(\"♠A\"), card(\"♥A\")] { }") == []


def test_a_where_or_list_that_reads_unseen_cards_around_the_option_is_warned(tmp_path: Path) -> None:
    """W102 around the option: a Love Letter Guard whose guesses left out the ranks the target holds
    (`guess r in 1..13 where not (any c in hand[q] where c.rank == r)`) told the guesser the target's
    card; so would a function doing it, or a list of guesses built from that hand. Testing one's own
    hand, counting, or testing a pile for emptiness tells nothing."""
    base = _OPTION_BASE.replace("setup {", "fn holds(p: player, r: int) -> bool = any c in hand[p] where c.rank == r\n"
                                "setup {")

    def warnings(option: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{OPTION}", option)
    assert warnings("guess r in 1..13 where not (any c in hand[q] where c.rank == r) { }") == ["W102"]
    assert warnings("guess r in 1..13 where not holds(q, r) { }") == ["W102"]
    assert warnings("guess r in [x for x in 1..13 where holds(q, x)] { }") == ["W102"]
    assert warnings("guess r in 1..13 where holds(current, r) { }") == []
    assert warnings("guess r in 1..13 where size(hand[q]) > r { }") == []
    assert warnings("guess r in 1..13 where top(deck) != none { }") == []


def test_a_binder_over_a_let_or_fn_of_unseen_cards_is_warned(tmp_path: Path) -> None:
    """W102 through a `let` or a function (QA7 B-let-binder): `let l = cards(hand[q])` then `a c in l`
    named P1's hidden hand in P0's action ids (`a duke3`), as the inline list is warned; so did a
    `let` of their ranks (`g r in rs`: P1's five ranks) and a function returning the cards."""
    base = _OPTION_BASE.replace("setup {", "fn mine(p: player) -> list of card = cards(hand[p])\nsetup {") \
        .replace("    choose current {", "    {LET}\n    choose current {")

    def warnings(let: str, option: str) -> list[str]:
        return _warnings_of(tmp_path, base.replace("{OPTION}", option), "{LET}", let)
    assert warnings("let l = cards(hand[q])", "a c in l { }") == ["W102"]
    assert warnings("let d = distinct(hand[q])", "b c in d { }") == ["W102"]
    assert warnings("let l = cards(hand[q])\n    let m = l", "a c in m { }") == ["W102"]
    assert warnings("let rs = [c.rank for c in hand[q]]", "g r in rs { }") == ["W102"]
    assert warnings("let x = 0", "take c in mine(q) { }") == ["W102"]
    assert warnings("let l = cards(hand[current])", "a c in l { }") == []
    assert warnings("let rs = [c.rank for c in hand[current]]", "g r in rs { }") == []
    assert warnings("let x = 0", "take c in mine(current) { }") == []
    assert warnings("let n = size(hand[q])", "g r in 0..n { }") == []


def test_a_binder_over_a_rule_s_parameter_of_unseen_cards_is_warned(tmp_path: Path) -> None:
    """W102 through a rule's parameter: `rule pick(p, cs) { choose p { take c in cs … } }` called with
    another player's hand names it (the call comes after the rule's body is checked); given the
    chooser's own hand, by the parameter naming that player or another way, it does not."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\n"
            "rule pick(p: player, cs: list of card) {\n    let l = cs\n    choose p { take c in l { } }\n}\n"
            "rule relay(p: player, cs: list of card) { pick(p, cs) }\n"
            "setup { deal 3 from deck to hand }\nphase play {\n    let q = players[0]\n    {CALL}\n    end game\n}\n")

    def warnings(call: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{CALL}", call)
    assert warnings("pick(players[1], cards(hand[q]))") == ["W102"]
    assert warnings("relay(players[1], cards(hand[players[0]]))") == ["W102"]
    assert warnings("pick(q, cards(hand[q]))") == []
    assert warnings("pick(current, cards(hand[current]))") == []
    assert warnings("relay(q, cards(hand[q]))") == []


def test_a_count_of_anything_but_a_zone_is_read(tmp_path: Path) -> None:
    """`size(…)` was taken for a count of the zone (QA7 B-size-hole): `size(distinct(hand[q]))` tells
    that P1 holds a pair, `size([c for c in hand[q] where c.joker])` whether they hold the Joker. Only
    the size of a zone, or of a list as long as one, is public."""
    def warnings(option: str) -> list[str]:
        return _option_warnings(tmp_path, option)
    assert warnings("look where size(distinct(hand[q])) < 5 { }") == ["W102"]
    assert warnings("look where size([c for c in hand[q] where c.joker]) > 0 { }") == ["W102"]
    assert warnings('look "P1 shows {size(distinct(hand[q]))} faces" { }') == ["W102"]
    assert warnings("look where size(hand[q]) > 2 { }") == []
    assert warnings("look where size(cards(hand[q])) > 2 { }") == []
    assert warnings("look where size(sorted(hand[q])) > 2 { }") == []
    assert warnings("look where size([c.rank for c in hand[q]]) > 2 { }") == []
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\nvar faces: int per player = 0\nsetup { deal 5 from deck to hand }\n"
            "phase play {\n    {LOG}\n    end game\n}\n")

    def logged(log: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{LOG}", log)
    assert logged('log "{size(distinct(hand[current]))} faces"') == ["W104"]
    assert logged("faces[current] = size(distinct(hand[current]))") == ["W104"]
    assert logged('let l = [c for c in hand[current] where c.rank > 10]\n    log "{size(l)} high"') == ["W104"]
    assert logged('let l = cards(hand[current])\n    log "{size(l)} cards"') == []
    assert logged('log "{size(hand[current])} cards"') == []


def test_a_show_that_reads_a_hidden_variable_is_warned(tmp_path: Path) -> None:
    """W103: `show c sorted by (if c.suit == trump …)` with a hidden trump ordered every hand trumps
    first — the view's `order` told the hidden trump (so did a label through a function)."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\nvar trump: Suit = none hidden\nvar lead: Suit = none\n"
            "var mark: bool per card = false hidden\nfn strong(c: card) -> bool = c.suit == trump\n"
            "{SHOW}\nsetup { deal 5 from deck to hand\n trump = ♠\n lead = ♥\n top(deck).mark = true }\n"
            "phase play { end game }\n")
    def warnings(show: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{SHOW}", show)
    assert warnings("show c sorted by (if c.suit == trump then 0 else 1)") == ["W103"]
    assert warnings('show c as "{c}{if strong(c) then "*" else ""} | {c}"') == ["W103"]
    assert warnings('show c as "{c}{if c.mark then "!" else ""} | {c}"') == ["W103"]
    assert warnings("show c sorted by (if c.suit == lead then 0 else 1)") == []
    assert warnings('show c as "{c}·{c.rank} | {c}" sorted by c.rank') == []
    # the cards of a zone some viewers cannot see, not only hidden variables (QA7 B-show-cards)
    assert warnings('show c as "{c}{if c.suit == top(deck).suit then "*" else ""} | {c}"') == ["W103"]
    assert warnings("show c sorted by (if c.suit == top(deck).suit then 0 else 1, c.rank)") == ["W103"]
    assert warnings("show c sorted by (size(deck), c.rank)") == []


def test_revealed_in_a_log_is_read_alike_directly_and_through_a_function(tmp_path: Path) -> None:
    """qa11 P2: `log "{revealed(top(hand[q]), p)}"` was not warned while the same through `fn seen_by(c,
    p) = revealed(c, p)` was, and `revealed(c)` the other way round. Whether a card was shown to `p` is
    `p`'s secret (W102 holds it so, qa11 B2): W104 both ways; whether it is face up is public: neither."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\nfn seen_by(c: card, p: player) -> bool = revealed(c, p)\n"
            "fn up(c: card) -> bool = revealed(c)\nfn high(c: card) -> bool = revealed(c) and c.rank > 10\n"
            "setup { deal 5 from deck to hand }\nphase play {\n    let q = next(current)\n    {LOG}\n    end game\n}\n")
    def warnings(log: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{LOG}", log)
    assert warnings('log "{revealed(top(hand[q]), current)}"') == ["W104"]
    assert warnings('log "{seen_by(top(hand[q]), current)}"') == ["W104"]
    assert warnings('log "{revealed(top(hand[q]))}"') == []
    assert warnings('log "{up(top(hand[q]))}"') == []
    assert warnings('log "{high(top(hand[q]))}"') == []
    assert warnings('log "{size([c for c in hand[q] where up(c)])}"') == []
    assert warnings('log "{size([c for c in hand[q] where seen_by(c, current)])}"') == ["W104"]


def test_revealed_of_a_card_a_function_finds_by_its_place_reads_no_face(tmp_path: Path) -> None:
    """newcomer45 P1: `where not revealed(slot(q, i))`, `fn slot(p, i) = row[p][i]`, was W102 (and an
    `if` on such a test around a log W104) where `revealed(row[q][i])` written out was not: a card a
    function finds by its place is read as written out. A card found by its face is read."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone row: pile per player hidden\nfn slot(p: player, i: int) -> card = row[p][i]\n"
            "fn spot(p: player, i: int) -> card = if i < 3 then row[p][i] else top(row[p])\n"
            "fn pick(p: player, i: int) -> card = if row[p][0].rank > 5 then row[p][i] else row[p][0]\n"
            "fn high(p: player) -> card = best c in row[p] by c.rank\n"
            "fn all_up(p: player) -> bool = all i in 0..2 where revealed(slot(p, i))\n"
            "setup { deal 3 from deck to row }\nphase play {\n    let q = current\n    {PART}\n    end game\n}\n")
    def warnings(part: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{PART}", part)
    def where(cond: str) -> list[str]:
        return warnings(f'choose q {{\n        f i in 0..2 where {cond} "f {{i}}" {{ }}\n    }}')
    assert where("not revealed(row[q][i])") == []
    assert where("not revealed(slot(q, i))") == []
    assert where("not revealed(spot(q, i))") == []
    assert where("revealed(slot(q, i), q)") == []
    assert warnings('if all_up(q) { log "all up" }') == []
    assert where("not revealed(pick(q, i))") == ["W102"]      # which card: the faces tell
    assert where("not revealed(high(q))") == ["W102"]
    assert where("not revealed(slot(q, row[next(q)][0].rank))") == ["W102"]     # the place: a face tells
    assert where("not revealed(slot(q, i), next(q))") == ["W102"]      # shown to another: their secret


def test_a_label_showing_a_hidden_card_whole_by_its_place_is_not_warned(tmp_path: Path) -> None:
    """newcomer45 P6: `"replace {s}: {spot_card(p, s)}"` was W102, though a reader who cannot see the
    card reads "a card" there: a card shown whole by its place reads nothing of the zone. Anything
    more of it (`.rank`), or a card a function picks by its face, is warned."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone row: pile per player hidden\nfn slot(p: player, i: int) -> card = row[p][i]\n"
            "fn high(p: player) -> card = best c in row[p] by c.rank\n"
            "setup { deal 3 from deck to row }\nphase play {\n    let q = current\n"
            "    choose q {\n        f i in 0..2 LABEL { }\n    }\n    end game\n}\n")
    def warnings(label: str) -> list[str]:
        return _warnings_of(tmp_path, base, "LABEL", label)
    assert warnings('"f {i}: {slot(q, i)}"') == []
    assert warnings('"f {i}: {row[q][i]}"') == []
    assert warnings('"f {i}: {top(row[q])}"') == []
    assert warnings('"f {i}: {slot(q, i).rank}"') == ["W102"]
    assert warnings('"f {i}: {high(q)}"') == ["W102"]      # the highest card, named where the chooser saw it
    assert warnings('"f {i}: {row[q][high(q).rank % 3]}"') == ["W102"]


def test_reveal_of_a_public_card_variable_is_warned(tmp_path: Path) -> None:
    """newcomer34 P3: `reveal up` of a public card variable validated silently and revealed the
    variable (a no-op) where `reveal [up]`, the card, was meant: W108. A hidden one is revealed."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\nvar up: card = none\nvar ups: list of card = []\n"
            "var mine: card = none hidden\nvar each: card per player = none\n"
            "setup { deal 2 from deck to hand }\nphase play {\n    {LOG}\n    end game\n}\n")
    def warnings(stmt: str) -> list[str]:
        return [w for w in _warnings_of(tmp_path, base, "{LOG}", stmt) if w != "W104"]
    assert warnings("up = top(hand[current])\n    reveal up") == ["W108"]
    assert warnings("ups = cards(hand[current])\n    reveal ups") == ["W108"]
    assert warnings("each[current] = top(hand[current])\n    reveal each[current]") == ["W108"]
    assert warnings("up = top(hand[current])\n    reveal [up]") == []
    assert warnings("mine = top(hand[current])\n    reveal mine") == []
    assert warnings("let t = top(hand[current])\n    reveal t") == []


def test_a_card_named_like_a_seat_is_warned(tmp_path: Path) -> None:
    """Newcomers named cards `P1` (and like a seat's name) unwarned: W109, at the card or its label."""
    base = ('ruleset w\nplayers 2..3{SEATS}\ncards {\n    attr v: int = 0\n    {CARD}\n    card "fine"\n} in deck\n'
            "zone deck: pile hidden\nsetup { }\nphase play { end game }\n")

    def warnings(card: str, seats: str = "") -> list[str]:
        return _warnings_of(tmp_path, base.replace("{SEATS}", seats), "{CARD}", card)
    named = ' seats "North | 北", "East | 東", "South | 南"'
    assert warnings('card "P1"') == ["W109"]
    assert warnings('card "p7"') == ["W109"]              # any seat's id, in any case
    assert warnings('card "Ｐ２"') == ["W109"]            # full width reads the same
    assert warnings('card "c" "P0"') == ["W109"]          # a label, too
    assert warnings('card "north"', named) == ["W109"]
    assert warnings('card "c" "East card | 東"', named) == ["W109"]    # either language
    assert warnings('card "P1x"') == warnings('card "north"') == warnings('card "c" "P"') == []
    game = load_text(base.replace("{SEATS}", "").replace("{CARD}", 'card "P1"'))
    d = game.prog.warnings[0]
    assert d.code == "W109" and "reads as seat P1" in d.message and d.span.line == 5


def test_a_log_that_names_hidden_cards_is_warned(tmp_path: Path) -> None:
    """W104: `log "top is {top(deck)}"` named the hidden top card in every player's log."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\nzone pile: pile public\n"
            "zone hand: hand per player owner\nsetup { deal 5 from deck to hand\n move top(deck) to pile }\n"
            "phase play {\n    {LOG}\n    end game\n}\n")
    def warnings(log: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{LOG}", log)
    assert warnings('log "top is {top(deck)}"') == ["W104"]
    assert warnings('log "{current} holds {cards(hand[current])}"') == ["W104"]
    assert warnings('log "{current} holds {size(hand[current])} cards"') == []
    assert warnings('log "{owner(hand[current])} plays"') == []         # names a player, no card
    assert warnings('log "on the pile: {top(pile)}"') == []
    assert warnings('tell current "you hold {cards(hand[current])}"') == []
    assert warnings('choose current "the top is {top(deck)}" { ok { } }') == ["W104"]
    assert warnings('choose current "you hold {cards(hand[current])}" { ok { } }') == []
    assert warnings('choose current "P1 holds {cards(hand[next(current)])}" { ok { } }') == ["W104"]
    # shown to everyone first (a showdown, a dealer turning the hole card), then logged: no warning
    assert warnings('reveal hand[current]\n    log "{current} shows {cards(hand[current])}"') == []
    assert warnings('reveal hand[current]\n    if true { log "{cards(hand[current])}" }') == []
    assert warnings('reveal hand[current] to current\n    log "{cards(hand[current])}"') == ["W104"]
    # through a local (a newcomer's Koi-Koi: `let d = top(deck)`, then the log), and a local of it
    assert warnings('let d = top(deck)\n    log "{current} flips {d}"') == ["W104"]
    assert warnings('let d = top(deck)\n    let e = d\n    log "{e.rank}"') == ["W104"]
    # through a function (Exploding Kittens newcomer: `fn top_kind() = top(deck).kind`)
    fn_base = base.replace("setup {", "fn top_rank() -> int = top(deck).rank\nfn ranks(p: player) -> list of int = "
                           "[c.rank for c in hand[p]]\nsetup {")
    assert _warnings_of(tmp_path, fn_base, "{LOG}", 'log "top: {top_rank()}"') == ["W104"]
    assert _warnings_of(tmp_path, fn_base, "{LOG}", 'log "{ranks(current)}"') == ["W104"]
    assert _warnings_of(tmp_path, fn_base, "{LOG}", 'tell current "{ranks(current)}"') == []
    # shown by a rule it was given to (Sushi Go newcomer: `lay(c)` moved it to a public zone)
    rule_base = base.replace("setup {", "rule lay(c: card) { move c to pile }\nsetup {")
    assert _warnings_of(tmp_path, rule_base, "{LOG}", 'let d = top(deck)\n    lay(d)\n    log "{d}"') == []
    assert warnings('let d = top(pile)\n    log "{d}"') == []
    # the local's card shown first: moved to a public zone, face up, or revealed
    assert warnings('let d = top(deck)\n    move d to pile\n    log "{d}"') == []
    assert warnings('let d = top(deck)\n    move d to hand[current] face up\n    log "{d}"') == []
    assert warnings('let d = top(deck)\n    reveal d\n    log "{d}"') == []
    assert warnings('let d = top(deck)\n    choose current "take {d}?" { ok { } }') == ["W104"]
    assert warnings('for c in hand[current] { log "{c}" }') == ["W104"]        # a loop's card too
    assert warnings('for c in pile { log "{c}" }') == []


def test_a_card_s_own_variable_set_from_that_card_is_not_warned(tmp_path: Path) -> None:
    """QA7 P-W104-percard: `for c in deck { c.power = c.rank }` was warned "power is public", but a
    per-card variable shows only with its card, to those who see it. Another card's face still is."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
            "zone hand: hand per player owner\nvar power: int per card = 0\nvar twin: card per card = none\n"
            "setup {\n    {SET}\n    deal 2 from deck to hand\n}\nphase play { end game }\n")

    def warnings(stmt: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{SET}", stmt)
    assert warnings("for c in deck { c.power = c.rank }") == []
    assert warnings("for c in deck { c.power = c.rank * 2 + size(deck) }") == []
    assert warnings("for c in deck { c.power = top(deck).rank }") == ["W104"]
    assert warnings("for c in deck { c.power = c.twin.rank }") == ["W104"]
    assert warnings("for c in deck { c.twin = top(deck) }") == ["W104"]


def test_an_if_on_unseen_cards_around_a_log_or_another_s_decision_is_warned(tmp_path: Path) -> None:
    """QA7 B-W-misses: `if top(hand[q]).rank > 10 { log "…" }` told the table whether P1's card is
    high by the log line appearing (W104), and `if high(q) { choose current … }` told P0 by being
    asked at all (W102, the twin of a window's `when`); `score` and `current` set from hidden cards
    showed them in every view, as a declared public variable does (W104). A branch that shows the
    cards, a decision of their own holder, or a test of one's own hand in a prompt are fine."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\nzone pile: pile public\n"
            "zone hand: hand per player owner\nfn high(p: player) -> bool = top(hand[p]).rank > 10\n"
            "setup { deal 5 from deck to hand }\nphase play {\n    let q = next(current)\n    {DO}\n    end game\n}\n")

    def warnings(stmt: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{DO}", stmt)
    assert warnings('if top(hand[q]).rank > 10 { log "something happens" }') == ["W104"]
    assert warnings('if size(hand[q]) > 1 { log "ok" } elif high(q) { } else { log "low" }') == ["W104"]
    assert warnings('if high(q) { choose current { ok { } } }') == ["W102"]
    assert warnings("score[q] = top(hand[q]).rank") == ["W104"]
    assert warnings("current = best p in players by top(hand[p]).rank") == ["W104"]
    assert warnings('if high(q) { choose q { ok { } } }') == []
    assert warnings('if high(q) { reveal hand[q]\n log "a high card" }') == []
    assert warnings('if high(q) { move top(hand[q]) to pile\n log "played" }') == []
    assert warnings('if high(q) { choose q { ok { log "q says so" } } }') == []
    assert warnings('if size(hand[q]) > 1 { log "many" } elif high(q) { }') == []
    assert warnings('if top(pile) == none { log "empty" }') == []
    assert warnings("score[q] = size(hand[q])") == []


def test_an_if_on_unseen_cards_around_a_public_variable_or_a_move_is_warned(tmp_path: Path) -> None:
    """qa16 V1: `if any d in hand[q] where d.rank == 13 { hint += 1 }` (or `{ draw(q) }`) told the table
    whether P1 holds a K by the public value (the hand's size) changing, as a log there is W104 — also
    through a rule or an effect called. A branch that tells the table anyway (a log, a decision, a
    card shown) and a mark on the card tested itself (a clue) are left to what they tell."""
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\nzone pile: pile public\n"
            "zone hand: hand per player owner\nvar hint: int = 0\nvar mine: int per player = 0 owner\n"
            "var told: bool per card = false back\n"
            "fn high(p: player) -> bool = any d in hand[p] where d.rank == 13\n"
            "rule draw(p: player) { move top(deck) to hand[p] }\nrule bump { hint += 1 }\n"
            "effect more { draw(current) }\neffect quiet { }\n"
            "setup { deal 5 from deck to hand }\nphase play {\n    let q = next(current)\n    {DO}\n    end game\n}\n")

    def warnings(stmt: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{DO}", stmt)
    assert warnings("if high(q) { hint += 1 }") == ["W104"]
    assert warnings("if size(hand[q]) > 9 { } elif high(q) { } else { hint = 2 }") == ["W104"]
    assert warnings("if high(q) { draw(q) }") == ["W104"]
    assert warnings("if high(q) { move top(deck) to hand[current] }") == ["W104"]
    assert warnings("if high(q) { bump() }") == ["W104"]
    assert warnings("if high(q) { activate more() }") == ["W104"]
    assert warnings("if high(q) { activate quiet() }") == ["W104"]      # on the stack for all to see
    assert warnings("for c in hand[q] { if c.rank == 13 { hint += 1 } }") == ["W104"]
    assert warnings("if high(q) { mine[q] += 1 }") == []               # only q sees it
    assert warnings("if size(hand[q]) > 3 { hint += 1\n draw(q) }") == []    # a count is public
    assert warnings("if high(q) { hint += 1\n reveal hand[q] }") == []      # a showdown
    assert warnings("if high(q) { move top(hand[q]) to pile }") == []
    assert warnings('if high(q) { choose q { ok { hint += 1 } } } else { draw(q) }') == []
    assert warnings("for c in hand[q] { if c.rank == 13 { c.told = true } }") == []   # a clue
    reveal_first = "reveal hand[q]\n    if high(q) { hint += 1 }"
    assert warnings(reveal_first) == []


def test_any_and_all_may_end_an_and_or_or_not() -> None:
    """A newcomer's Cribbage wrote `size(cs) >= 4 and all c in cs where …` (a syntax error then):
    any/all may be the last operand of and/or/not, their condition still taking all after it;
    `count` keeps needing brackets there, since `a and count > 3` may compare a variable `count`."""
    from interpreter.api import load_text
    src = ("ruleset q\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar count: int = 0\n"
           "fn flush(cs: list of card) -> bool = size(cs) >= 2 and all c in cs where c.suit == ♠ or c.rank == 1\n"
           "fn bare(cs: list of card) -> bool = not any c in cs where c.rank == 1\n"
           "fn both(cs: list of card) -> bool = size(cs) == 0 or any c in cs where c.joker\n"
           "fn v() -> bool = true and count > 3\n"
           "setup { }\nphase play { end game }\n")
    fns = load_text(src).prog.fns
    body = fns["flush"].decl.body
    assert body.op == "and" and type(body.right).__name__ == "Quantifier" and body.right.cond.op == "or"
    assert fns["bare"].decl.body.op == "not" and fns["both"].decl.body.op == "or"
    assert fns["v"].decl.body.right.op == ">"       # count here is the variable


def test_a_local_whose_value_is_wrong_is_still_declared():
    """`let c = card("S7")` with no such card: one error, not a second `unknown name c` after it."""
    with pytest.raises(FudaError) as e:
        load_text('ruleset t\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n'
                  'setup { let c = card("S0")  move c to deck }\nphase play { end game }\n')
    assert [d.code for d in e.value.diagnostics] == ["E108"]


def test_a_name_spelt_like_an_expression_keyword_is_warned(tmp_path: Path) -> None:
    f = tmp_path / "kw.fuda"
    f.write_text("ruleset kw\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar count: int = 0\n"
                 "setup { count += 1  let best = 2  count += 1 + best }\nphase play { end game }\n", encoding="utf-8")
    w = [(x.code, x.span.line) for x in check_ruleset(str(f)).warnings]
    assert w == [("W106", 5), ("W106", 6)]


def test_an_enum_member_spelt_like_an_expression_keyword_is_warned_where_declared(tmp_path: Path) -> None:
    """newcomer46 P8: `option phases: {all "…", odd "…"}` was accepted where declared; reading the
    member failed later, with the caret on the label after it. W106 at the member now, and the
    error where it is read points at the keyword itself."""
    src = ("ruleset kw\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
           'option phases: {all "all ten phases", odd "odd phases"} = odd "Phases played"\n'
           "setup { }\nphase play { if phases == odd { end game } }\n")
    f = tmp_path / "kw.fuda"
    f.write_text(src, encoding="utf-8")
    w = [(x.code, x.span.line, x.span.col) for x in check_ruleset(str(f)).warnings]
    assert w == [("W106", 5, 17)]
    with pytest.raises(FudaError) as e:
        load_text(src.replace('= odd "Phases', '= all "Phases'))
    d = e.value.first
    assert (d.code, d.span.col, d.span.end_col) == ("E001", 59, 62) and "`all` begins `all x in LIST" in d.message


@pytest.mark.parametrize(("lines", "warned"), [
    ("let zs = [table]\n    move f to zs[0]", False),
    ("move f to where_to(f)", False),
    ("insert rows back as z\n    move f to z", False),
    ("let zs = [table]\n    zs = [hand[players[0]]]\n    move f to zs[0]", True),
    ("let z = if size(deck) > 3 then table else hand[players[0]]\n    move f to z", True),
])
def test_w104_knows_a_card_moved_where_everyone_sees_it_through_locals_and_functions(
        tmp_path: Path, lines: str, warned: bool) -> None:
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                 "zone hand: hand per player owner\nzone table: pile public\nzone rows: sequence public\n"
                 "fn where_to(c: card) -> zone = table\nsetup {\n    shuffle deck\n    deal 3 from deck to hand\n"
                 f"    let f = top(hand[players[1]])\n    {lines}\n    log \"{{f}}\"\n}}\nphase play {{ }}\n",
                 encoding="utf-8")
    assert ("W104" in [w.code for w in check_ruleset(str(f)).warnings]) == warned


@pytest.mark.parametrize(("call", "warned"), [
    ("put(f, table)", False), ("put(f, hand[players[0]])", True), ("outer(f)", False), ("outer_hand(f)", True),
])
def test_w104_follows_a_called_rule_into_the_zone_it_is_given(tmp_path: Path, call: str, warned: bool) -> None:
    """QA: `rule put(c: card, z: zone) { move c to z }` called as `put(a, table)` still warned, and
    so did a rule that calls it."""
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                 "zone hand: hand per player owner\nzone table: pile public\n"
                 "rule put(c: card, z: zone) { move c to z }\nrule outer(c: card) { put(c, table) }\n"
                 "rule outer_hand(c: card) { put(c, hand[players[1]]) }\n"
                 f"setup {{\n    shuffle deck\n    let f = top(deck)\n    {call}\n    log \"{{f}}\"\n}}\nphase play {{ }}\n",
                 encoding="utf-8")
    assert ("W104" in [w.code for w in check_ruleset(str(f)).warnings]) == warned


_WINDOW_LEAK = """ruleset window_leak
players 2
cards {
    attr duke: bool = false
    card "Duke" duke = true
    card "Other"
    card "Other2"
} in deck
zone deck: pile hidden
zone hand: hand per player owner
effect tax() { log "tax" }
window challenge_w LABEL (it, p) WHEN responders [players[1]] ASK {
    challenge WHERE "challenge" { negate it }
    block b in hand[p] where b.duke "block with {b}" { negate it }
}
setup { shuffle deck  deal 1 from deck to hand }
phase play { activate tax() by players[0] }
"""


@pytest.mark.parametrize(("parts", "warnings"), [
    ({}, []),
    ({"WHERE": "where not (any c in hand[it.controller] where c.duke)"}, ["the where of option challenge reads"]),
    ({"WHEN": "when not (any c in hand[it.controller] where c.duke)"},        # the claimant's hand: QA
     ["the when of window challenge_w reads the cards of hand"]),
    ({"WHEN": "when any c in all_cards where c.duke and holder(c) != none and zone_of(c) == hand[holder(c)]"},
     []),                                                                      # whoever holds one: asking tells it
    ({"WHEN": "when not (any c in deck where c.duke)"}, ["the when of window challenge_w reads the cards of deck"]),
    ({"WHEN": "when not (any c in hand[it.controller] where c.duke)", "ASK": "ask all"},
     ["the when of window challenge_w reads the cards of hand"]),
    ({"LABEL": '"Challenge? (they hold {top(hand[it.controller])})"'}, ["this prompt shows the cards of hand"]),
])
def test_w102_and_w104_look_into_response_windows(tmp_path: Path, parts: dict[str, str], warnings: list[str]) -> None:
    """Coup newcomer: a window's where, when or prompt that read the claimant's hand got no warning,
    and "challenge" was offered only to bluffs."""
    text = _WINDOW_LEAK
    for key in ("LABEL", "WHEN", "ASK", "WHERE"):
        text = text.replace(key, parts.get(key, ""))
    f = tmp_path / "w.fuda"
    f.write_text(text, encoding="utf-8")
    got = [w.message for w in check_ruleset(str(f)).warnings if w.code in ("W102", "W104")]
    assert len(got) == len(warnings) and all(g.startswith(w) for g, w in zip(got, warnings, strict=True)), got


@pytest.mark.parametrize(("lines", "warned"), [
    ('announce(cards(crib))', True),                          # the rule logs its parameter
    ('reveal crib\n    announce(cards(crib))', False),        # shown to everyone first
    ('lay(cards(crib))', False),                              # the rule shows them before its log
    ('relay(cards(crib))', True),                             # handed on to a rule that logs them
    ('announce(cards(table))', False),                        # a public zone
    ('let d = describe(cards(crib))\n    log "{d}"', True),   # a text made of the cards, kept in a let
    ('let n = size(crib)\n    log "{n}"', False),             # a count tells nothing of the faces
    ('each(cards(crib))', True),                              # QA: a loop over the parameter logs each card
    ('let t = ""\n    for c in crib { t += "{c} " }\n    log "{t}"', True),   # QA: a text built with +=
    ('activate shout(top(crib))', True),                      # QA: an effect's parameter
    ('put(top(crib), table)', False),                         # QA: moved to a public zone first
    ('put(top(crib), deck)', True),
    ('count_them(cards(crib))', False),                       # QA: a rule that only counts its cards
    ('for p in players { reveal crib }\n    log "{cards(crib)}"', False),   # QA: a showdown in a loop
])
def test_w104_follows_cards_into_a_rule_that_logs_them_and_texts_kept_in_lets(
        tmp_path: Path, lines: str, warned: bool) -> None:
    """Cribbage newcomer: a show written as `count_cards(p, cards(crib), …)` logged the crib unwarned,
    and so did `let d = describe(cards(crib))` then `log "{d}"`."""
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nzone crib: pile hidden\n"
                 "zone table: pile public\nfn describe(cs: list of card) -> text = \"{cs}\"\n"
                 "rule announce(cs: list of card) { log \"crib: {cs}\" }\n"
                 "rule relay(xs: list of card) { announce(xs) }\n"
                 "rule lay(cs: list of card) { if size(cs) > 0 { move cs to table\n log \"{cs}\" } }\n"
                 "rule each(cs: list of card) { for c in cs { log \"{c}\" } }\n"
                 "rule put(c: card, z: zone) { move c to z\n log \"{c} goes\" }\n"
                 "effect shout(c: card) { log \"{c}\" }\n"
                 "rule count_them(cs: list of card) { log \"{size(cs)} cards\" }\n"
                 f"setup {{\n    shuffle deck\n    move top(deck, 4) to crib\n    {lines}\n}}\nphase play {{ }}\n",
                 encoding="utf-8")
    assert ("W104" in [w.code for w in check_ruleset(str(f)).warnings]) == warned


@pytest.mark.parametrize(("decl", "lines", "warned"), [
    ("var top: int per player = 0", "top[p] = best_rank(p)", True),
    ("var top: int per player = 0 owner", "top[p] = best_rank(p)", False),     # only its owner sees it
    ("var top: int per player = 0", "top[p] = size(hole[p])", False),           # a count
    ("var top: list of int per player = []", "top[p] = [index_of(cards(hole[p]), c) for c in hole[p]]", False),
    ("var top: int per player = 0", "reveal hole[p]\n        top[p] = best_rank(p)", False),   # shown first
])
def test_w104_warns_of_a_public_variable_set_from_hidden_cards(tmp_path: Path, decl: str, lines: str,
                                                              warned: bool) -> None:
    """Hold'em newcomer: `top_rank[p] = best_rank(p)` of a hidden hand showed it in every view unwarned,
    while logging the same value was W104."""
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                 "zone hole: hand per player owner\nfn best_rank(p: player) -> int = max([0] + [c.rank for c in hole[p]])\n"
                 f"{decl}\nsetup {{\n    shuffle deck\n    deal 2 from deck to hole\n    for p in players {{\n"
                 f"        {lines}\n    }}\n}}\nphase play {{ }}\n", encoding="utf-8")
    assert ("W104" in [w.code for w in check_ruleset(str(f)).warnings]) == warned


@pytest.mark.parametrize(("lines", "warned"), [
    ('log "the secret is {secret}"', True),
    ('log "{told(players[0])}"', True),                               # through a function
    ('log "P0 holds {mine[players[0]]}"', True),                      # an owner variable, in everyone's log
    ('reveal secret\n    log "the secret was {secret}"', False),     # shown first: a showdown
    ('choose players[0] "yours: {mine[players[0]]}" { ok "ok" { } }', False),     # its owner's prompt
    ('choose players[0] "theirs: {mine[players[1]]}" { ok "ok" { } }', True),
    ('tell players[0] "the secret is {secret}"', False),
    ('log "{size(deck)} cards"', False),
])
def test_w104_warns_of_a_log_or_prompt_showing_a_hidden_variable(tmp_path: Path, lines: str, warned: bool) -> None:
    """A `hidden` or `owner` variable in a log line was shown to every player unwarned (language.md
    §27 listed it among what the warnings do not follow), where a card of a hidden zone was W104."""
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                 "var secret: int = 3 hidden\nvar mine: int per player = 0 owner\n"
                 "fn told(p: player) -> int = secret + mine[p]\n"
                 f"setup {{ }}\nphase play {{\n    {lines}\n}}\n", encoding="utf-8")
    found = [w for w in check_ruleset(str(f)).warnings if w.code == "W104"]
    assert bool(found) == warned, found
    if found:
        assert "variable" in found[0].message and "reveal" in (found[0].hint or "")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), "nan", "1e400"])
def test_a_number_option_must_be_finite(value: object) -> None:
    """QA: `--set r=nan` (or inf, 1e400) crashed every command with NameError: the value was folded
    into the compiled rules as Python code that names nothing."""
    from interpreter.api import load_text

    src = "ruleset o\nplayers 2\noption r: number = 1.5\ncards standard() in deck\nzone deck: pile hidden\n" \
          "setup { log \"{r}\" }\nphase play { }\n"
    with pytest.raises(FudaError) as info:
        load_text(src, options={"r": value})
    assert info.value.first.code == "E402" and "must be a finite number" in info.value.first.message


def test_w107_a_belief_that_reads_an_owner_variable() -> None:
    """QA: a belief reading who holds what (an owner variable) learnt it in the bots' worlds."""
    from interpreter.api import check_ruleset as check_text

    src = """ruleset b
players 3
cards { attr duke: bool = false  card "Duke" duke = true  card "x" } in deck
zone deck: pile hidden
zone hand: hand per player owner
var has_duke: bool per player = false OWNER
fn holds(p: player) -> bool = has_duke[p]
fn likely(c: card) -> number = if c.duke and holder(c) != none and holds(holder(c)) then 9 else 1
belief likely
setup { }
phase play { end game }
"""
    assert "W107" in [w.code for w in check_text("b.fuda", text=src.replace("OWNER", "owner")).warnings]
    assert "W107" not in [w.code for w in check_text("b.fuda", text=src.replace("OWNER", "")).warnings]


def test_a_refused_scenario_step_lists_a_run_of_amounts_once(tmp_path: Path) -> None:
    """Hold'em newcomer: one wrong step listed all hundred bet sizes, one a line."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "b.fuda").write_text("ruleset b\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                                     "setup { }\nphase play { choose players[0] { bet n in 1..100 \"bet {n}\" { } "
                                     "fold { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: b.fuda\nsteps:\n  - P0: bet 500\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "  bet 1..100\n  fold" in o.message and "bet 57" not in o.message


def test_w102_says_once_what_an_optional_choice_leaks() -> None:
    """Coup newcomer: the `pass` that `optional` adds repeated the warning, naming an option the file lacks."""
    from interpreter.api import check_ruleset as check_text

    prog = check_text("o.fuda", text="""ruleset o
players 2
cards { attr duke: bool = false  card "Duke" duke = true  card "Other" } in deck
zone deck: pile hidden
zone hand: hand per player owner
setup { shuffle deck  deal 1 from deck to hand }
phase play {
    choose players[1] optional {
        challenge where not (any c in hand[players[0]] where c.duke) "challenge" { }
    }
}
""")
    assert [w.code for w in prog.warnings] == ["W102"] and "option challenge" in prog.warnings[0].message


@pytest.mark.parametrize(("text", "words", "line"), [
    ("ruleset: american_page_one\nsteps:\n  - expect:\n      to_move: [P1]\n      to_move: [P0]\n",
     "duplicate key 'to_move' (also on line 4)", 5),
    ("ruleset: american_page_one\nsetup:\n  zones:\n    deck: [♠A]\n", "deck would not hold exactly these cards", 4),
    ("ruleset: american_page_one\nsetup:\n  zones:\n    手札[P0]: [♠A]\n    手札[0]: [♠2]\n",
     "手札[0] is 手札[P0] again: one zone written twice", 5),
    ("ruleset: super_page_one\nsetup:\n  card_vars:\n    ♠A: {played_by: P0}\n    SA: {played_by: P1}\n",
     "SA is ♠A again: written twice", 5),
    ("ruleset: super_page_one\nsteps:\n  - expect:\n      card_vars:\n        ♠A: {played_by: none}\n"
     "        sa: {played_by: P1}\n", "sa is ♠A again: written twice", 6),
    ("ruleset: american_page_one\nsteps:\n  - expect:\n      scores:\n        P0: 0\n        \" P0\": 1\n",
     "\" P0\" is P0 again: written twice", 6),
    ("ruleset: american_page_one\nsteps:\n  - expect:\n      places: {P0: 1, 0: 2}\n",      # QA: numbers
     "0 is P0 again: written twice", 4),
])
def test_a_scenario_that_would_silently_test_less_is_refused(tmp_path: Path, text: str, words: str, line: int) -> None:
    """Love Letter newcomer: a key written twice dropped the first expectation (PyYAML keeps the last),
    and `deck: [Princess]` kept the deck's other cards under it (they went to `rest`, the deck)."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text(text.replace("deck:", "山札:"), encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and words.replace("deck", "山札") in o.message and f"s.yaml:{line}:" in o.message, o.message


def test_an_options_file_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    from interpreter.api import read_options_file

    f = tmp_path / "house.yaml"
    f.write_text("players: 3\nplayers: 4\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_options_file(str(f))
    assert info.value.first.code == "E406" and "duplicate key 'players'" in info.value.first.message


def test_a_ruleset_s_own_enum_member_wins_over_a_built_in_one(tmp_path: Path) -> None:
    """Love Letter newcomer: `enum Role { …, king }` clashed with the built-in Pattern.king, and in a
    card attribute the error said "king is not known before the game starts"."""
    f = tmp_path / "k.fuda"
    body = ('ruleset k\nplayers 2\nenum Role { guard, king }\n{MORE}cards {\n    attr role: Role\n'
            '    card "K" role = king\n} in deck\nzone deck: pile hidden\nvar r: Role = king\nsetup { r = king }\n'
            'phase play { }\n')
    f.write_text(body.replace("{MORE}", ""), encoding="utf-8")
    assert check_ruleset(str(f)).name == "k"
    f.write_text(body.replace("{MORE}", "enum Rank { king }\n"), encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(f))
    d = info.value.first
    assert d.code == "E101" and "several enums" in d.message and d.hint == "Role.king or Rank.king"


def test_a_ruleset_edited_during_a_simulation_stops_it() -> None:
    """Sushi Go newcomer: `fuda simulate` picked up an edit of the file mid-run and mixed the games
    of two rulesets in one table (their seeds no longer replayed)."""
    from interpreter.runner.simulate import play_one

    assert play_one("american_page_one", {}, 1, ["random"] * 4)["length"] > 0
    with pytest.raises(FudaError) as info:
        play_one("american_page_one", {}, 1, ["random"] * 4, fingerprint="0" * 16)
    assert info.value.first.code == "E505" and "changed while the games were played" in info.value.first.message


def test_a_ruleset_broken_during_a_simulation_says_it_changed(tmp_path: Path) -> None:
    """QA: a syntax error saved mid-run stopped `fuda simulate` with a bare E001, as if the file
    had been wrong from the start."""
    from interpreter.api import load
    from interpreter.runner.simulate import play_one

    f = tmp_path / "g.fuda"
    f.write_text((ERRORS / "_valid_minimal.fuda").read_text(encoding="utf-8"), encoding="utf-8")
    fp = load(str(f)).fingerprint
    assert play_one(str(f), {}, 1, ["random"] * 2, fingerprint=fp)["length"] > 0
    f.write_text("ruleset g\nplayers 2 2 2\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        play_one(str(f), {}, 1, ["random"] * 2, fingerprint=fp)
    codes = [d.code for d in info.value.diagnostics]
    assert codes[0] == "E505" and "no longer loads" in info.value.first.message and "E001" in codes


def test_qa_w102_reads_labels_around_the_option_and_leaves_backs_faces_up_and_places_alone(tmp_path: Path) -> None:
    """QA: a label listing the target's hand (`"f {[c.rank for c in hand[q]]}"`) was not warned, and
    W102 fired on `any c in hand[q] where c.told == r` (a back), `revealed(c)` and a card's place."""
    base = _OPTION_BASE.replace("setup {", "var told: int per card = 0 back\nsetup {")

    def warnings(option: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{OPTION}", option)
    assert warnings('f x in 0..1 "f {[c.rank for c in hand[q]]}" { }') == ["W102"]
    assert warnings('e r in 1..13 "e {r} {count c in hand[q] where c.rank == r}" { }') == ["W102"]
    assert warnings("g r in 1..13 where not (any c in hand[q] where c.told == r) { }") == []
    assert warnings("g r in 1..13 where (count c in hand[q] where revealed(c)) > r { }") == []
    assert warnings("g c in hand[q] where index_of(cards(hand[q]), c) == 0 { }") == []


def test_qa_w104_trusts_only_a_rule_that_surely_shows_the_card(tmp_path: Path) -> None:
    base = ("ruleset w\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\nzone pile: pile public\n"
            "{RULE}\nsetup { }\nphase play {\n    let d = top(deck)\n    lay(d)\n    log \"{d}\"\n    end game\n}\n")
    surely = _warnings_of(tmp_path, base, "{RULE}", "rule lay(c: card) { move c to pile }")
    maybe = _warnings_of(tmp_path, base, "{RULE}", "rule lay(c: card) { if size(deck) > 100 { move c to pile } }")
    early = _warnings_of(tmp_path, base, "{RULE}", "rule lay(c: card) {\n    if size(deck) > 100 { return }\n"
                         "    move c to pile\n}")
    assert surely == [] and maybe == ["W104"] and early == []     # a return inside an if leaves the move sure


def test_qa_a_ranking_of_keys_that_cannot_be_compared_says_so() -> None:
    from interpreter.api import load_text

    game = load_text("ruleset r\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                     "var k: tuple per player = (0, 0)\nsetup { k[players[1]] = (\"x\", 1) }\n"
                     "phase play { end game ranking p in players by k[p] }\n")
    with pytest.raises(FudaError) as info:
        game.new_state(0)
    assert "the ranking keys cannot be compared: P0 (0, 0), P1 ('x', 1)" in info.value.first.message


def test_qa_a_zone_given_as_a_list_is_not_the_rest_of_another(tmp_path: Path) -> None:
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: american_page_one\nsetup:\n  rest: 場\n  zones:\n    場: [♠A]\n    山札: [♠2]\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "場 would not hold exactly these cards" in o.message


def test_a_quoted_number_in_a_scenario_is_called_a_text(tmp_path: Path) -> None:
    """Exploding Kittens newcomer: `turns_left: "1"` said "expected a whole number, got 1"."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text('ruleset: american_page_one\nsetup:\n  vars: {direction: "1"}\n', encoding="utf-8")
    o = run_scenario(f)
    assert 'got the text "1"' in o.message and "write it without quotes" in o.message


def test_a_yaml_alias_bomb_is_read_once_not_expanded(tmp_path):
    """QA: a 400-byte "billion laughs" scenario never finished: fuda's walk for error places
    expanded every alias (PyYAML itself shares them). Each node is now walked once."""
    from interpreter.runner.scenario import run_scenario

    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefghi", "bcdefghij", strict=True):
        lines.append(f"{cur}: &{cur} [{','.join(['*' + prev] * 9)}]")
    f = tmp_path / "laughs.yaml"
    f.write_text("\n".join(lines) + "\nruleset: american_page_one\n", encoding="utf-8")
    o = run_scenario(str(f))
    assert not o.passed and "E501" in o.message


@pytest.mark.parametrize(("comment", "silenced"), [
    ("   # fuda: ignore[W102] (the hand is shown in setup)", True),
    ("   # fuda: ignore", True),
    ("   # fuda: ignore[W104, W102]", True),
    ("   # fuda: ignore[W104]", False),
    ("   # ignore", False),
    ("", False),
])
def test_a_warning_is_silenced_on_its_line(tmp_path: Path, comment: str, silenced: bool) -> None:
    """Bridge newcomer: the dummy's hand, revealed to all in another rule, still gave W102 on the
    declarer's play, with no way to say so, and `validate --strict` failed on a correct ruleset."""
    f = tmp_path / "w.fuda"
    f.write_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                 "zone hand: hand per player owner\nzone table: pile public\n"
                 "setup {\n    deal 3 from deck to hand\n    reveal hand[players[1]]\n}\nphase play {\n"
                 "    choose players[0] {\n"
                 f"        play c in hand[players[1]] where c.rank > 5 \"play {{c}}\" {{ move c to table }}{comment}\n"
                 "        nothing \"nothing\" { }\n    }\n}\n", encoding="utf-8")
    assert ("W102" not in [w.code for w in check_ruleset(str(f)).warnings]) == silenced
    if comment:     # a comment alone on the line above does the same
        text = f.read_text(encoding="utf-8").replace(f"{{ move c to table }}{comment}\n",
                                                     "{ move c to table }\n")
        text = text.replace("        play c in", f"        {comment.strip()}\n        play c in")
        f.write_text(text, encoding="utf-8")
        assert ("W102" not in [w.code for w in check_ruleset(str(f)).warnings]) == silenced


@pytest.mark.parametrize("stmt", [
    "x = x * 2", "x *= 2", "x = x + x", "x = sum([x, x])", "score[random(players)] += score[players[0]] + score[players[1]] + x",
    "n = n * 2\n        x = n / 3", "n = n * 2\n        x = x * n",
], ids=["times", "times_assign", "plus", "sum", "random_player_score", "int_division", "int_times_number"])
def test_qa_a_number_out_of_range_stops_at_its_line(stmt: str) -> None:
    """QA7 B-nan-json: x * 2 repeated went on to inf and inf - inf to nan, which views, serve's JSON
    and saves wrote as bare Infinity/NaN (no JSON) and which made a state unequal to its replay; an
    int too large to become a number was an internal error. Now E601 at the line, as 1 / 0 is."""
    text = RT_HEAD + "var x: number = 1.5\nvar n: int = 1\n\nsetup {\n    repeat 1100 {\n        " + stmt + \
        "\n    }\n}\n\nphase play {\n    end game\n}\n"
    err = runtime_failure(text)
    assert "a number out of range" in err.first.message
    assert err.first.span.line == line_of(text, stmt.split("\n")[-1])


@pytest.mark.parametrize("stmt", ["score[players[0]] = n", "x = n", "score[players[1]] += n"],
                         ids=["score", "number_var", "score_plus"])
def test_qa8_an_int_past_the_float_range_is_no_number(stmt: str) -> None:
    """QA8 B-bigint-number: `score[p] = n` with n = 10**400 was stored as is; `fuda simulate` then
    died averaging the scores and a match lost the game. Now E601 at the assignment."""
    text = RT_HEAD + "var x: number = 1.5\nvar n: int = 1\n\nsetup {\n    repeat 400 {\n        n *= 10\n    }\n" \
        f"    {stmt}\n}}\n\nphase play {{\n    end game\n}}\n"
    err = runtime_failure(text)
    assert "a number out of range" in err.first.message
    assert err.first.span.line == line_of(text, stmt)


def test_qa8_a_huge_int_is_no_number_option_or_initial_value() -> None:
    """QA8 B-bigint-number: `--set r=1000…0` (401 digits) was taken as the number option's value."""
    from interpreter.api import load_text

    big = "1" + "0" * 400
    src = "ruleset o\nplayers 2\noption r: number = 1.5\ncards standard() in deck\nzone deck: pile hidden\n" \
          "setup { log \"{r}\" }\nphase play { }\n"
    with pytest.raises(FudaError) as info:
        load_text(src, options={"r": int(big)})
    assert info.value.first.code == "E402" and "too large" in info.value.first.message
    with pytest.raises(FudaError) as info:
        load_text(src.replace("setup {", "var v: number = " + big + "\nsetup {"))
    assert info.value.first.code == "E201" and "out of range" in info.value.first.message


def test_qa8_statistics_of_scores_near_the_top_of_the_range() -> None:
    """QA8 B-bigint-number: means and intervals of scores near 1.8e308 overflowed (a crash)."""
    from interpreter.runner.compare import diff_mean, diff_paired_mean
    from interpreter.runner.simulate import mean

    top = 1.5e308
    assert mean([top, top, top]) == pytest.approx(top) and mean([int(top)] * 3) == pytest.approx(top)
    ma, mb, d, lo, hi, _ = diff_mean([top, top * 0.9], [top * 0.5, top * 0.4])
    assert ma == pytest.approx(top * 0.95) and lo < d < hi and d == pytest.approx(-top * 0.5)
    ma, mb, d, lo, hi, _ = diff_paired_mean([(top, top * 0.5), (top * 0.9, top * 0.4)])
    assert mb == pytest.approx(top * 0.45) and lo <= d <= hi and d == pytest.approx(-top * 0.5)
    assert diff_mean([1.0, 2.0], [3.0, 5.0])[2] == 2.5      # the same as ever below 1e150


def test_number_arithmetic_in_range_is_unchanged() -> None:
    """The check of number results (runtime._num) leaves finite values, ints and a player drawn at
    random in a per-player target alone (drawn once per statement)."""
    text = RT_HEAD + "var x: number = 1.5\n\nsetup {\n    repeat 10 {\n        score[random(players)] += x\n" \
        "        x = x * 2 - x\n    }\n}\n\nphase play {\n    end game\n}\n"
    st = load_text(text, filename="runtime.fuda").new_state(3)
    assert sum(r["score"] for r in st.result()) == 15.0


def test_qa8_one_card_name_repeated_by_a_loop_is_counted():
    """QA8 P-twice: ten `card "x"` in a loop said "card x is declared twice", without the count."""
    from interpreter.api import load_text

    with pytest.raises(FudaError) as e:
        load_text('ruleset dup\nplayers 2\ncards {\n    for i in 1..10 { card "x" }\n} in deck\n'
                  'zone deck: pile hidden\nsetup { }\nphase play { }\n')
    text = e.value.format()
    assert "card x is declared twice" in text and "(and 8 more like it at the same place)" in text


def test_one_mistake_repeated_by_a_loop_is_printed_once_with_a_count():
    """Dominion newcomer: a card loop declared twice printed the same E102 and caret ten times."""
    from interpreter.api import load_text

    with pytest.raises(FudaError) as e:
        load_text('ruleset dup\nplayers 2\ncards {\n    for i in 1..5 { card "W{i}" }\n'
                  '    for i in 1..5 { card "W{i}" }\n} in deck\nzone deck: pile hidden\nsetup { }\nphase play { }\n')
    text = e.value.format()
    assert len(e.value.diagnostics) == 5 and text.count("error[E102]") == 1
    assert "(and 4 more like it at the same place)" in text


@pytest.mark.parametrize("number", ["1e3", "2.5E4"])
def test_qa8_a_number_with_an_exponent_gets_a_hint(number: str) -> None:
    """QA8 P-exp-literal: `let x = 1e3` said only that `e3` is not part of the statement."""
    from interpreter.api import load_text

    with pytest.raises(FudaError) as info:
        load_text("ruleset m\nplayers 2\ncards standard(ranks=[1]) in deck\nzone deck: pile hidden\nsetup { }\n"
                  f"phase play {{\n    let x = {number}\n    log \"{{x}}\"\n}}\n")
    d = info.value.first
    assert d.code == "E309" and d.hint is not None and "without an exponent" in d.hint


def test_qa8_a_scenario_names_a_player_by_number_in_revealed(tmp_path: Path) -> None:
    """QA8 D-scenario-player-number: `revealed: {1: [♠A]}` was refused (pydantic: "Input should be
    a valid string") though cli.md says players are P0, P1 … or the numbers 0, 1 …"""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nsetup { }\n"
        "phase play { choose players[0] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsetup:\n  revealed: {1: [♠A]}\nsteps:\n"
                 "  - expect: {view: {player: 1, shows: [♠A]}}\n  - expect: {view: {player: 0, hides: [♠A]}}\n",
                 encoding="utf-8")
    o = run_scenario(f)
    assert o.passed, o.message


STALE = """ruleset stale
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone table: pile public
setup { }
phase play {
    let high = [c for c in hand[players[0]] where c.rank > 10]
    choose players[0] { play c in high where c in hand[players[0]] "play {c}" { move c to table } }
    end game
}
"""


def test_a_set_that_leaves_the_waiting_decision_with_no_action_says_so(tmp_path: Path) -> None:
    """A newcomer's Euchre scenario: the options came from a `let` worked out before the edit."""
    from interpreter.runner.scenario import Runner

    (tmp_path / "stale.fuda").write_text(STALE, encoding="utf-8")
    text = ("ruleset: stale.fuda\nsetup:\n  zones: {\"hand[P0]\": [♠K]}\nsteps:\n"
            "  - expect: {legal: [play ♠K]}\n  - set:\n      zones: {\"hand[P0]\": [♠2]}\n  - P0: play ♠2\n")
    sc, loc = parse_scenario(text, str(tmp_path / "stale.yaml"))
    with pytest.raises(FudaError) as info:
        Runner(sc, loc, tmp_path).run()
    d = info.value.first
    assert d.code == "E501" and "no legal action in the decision waiting" in d.message and d.span.line == 7


def test_validate_goes_on_after_a_deal_to_one_players_hand() -> None:
    """`deal 3 from deck to hand[p]` is one mistake among the file's others, not the end of the check."""
    text = STALE.replace("setup { }", "setup {\n    deal 3 from deck to hand[players[0]]\n    deal 2 from deck to "
                         "hand[players[1]]\n}").replace("c.rank > 10", "c.rank > J")
    with pytest.raises(FudaError) as info:
        load_text(text)
    found = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert found == [("E309", 8), ("E309", 9), ("E101", 12)]
    assert "ranks are numbers: J is 11" in (info.value.diagnostics[2].hint or "")


@pytest.mark.parametrize("decl, call", [("phase hand { end game }", "goto hand"),
                                        ("rule hand() { end game }", "hand()"),
                                        ("options hand() { x \"x\" { } }", "choose players[0] { use hand }")])
def test_a_name_taken_twice_is_one_error_not_its_consequences(decl: str, call: str) -> None:
    """A newcomer named a phase like a zone: "the ruleset has no phase" and "unknown phase" followed."""
    text = STALE.replace("    end game\n}", f"    {call}\n}}\n{decl}")
    with pytest.raises(FudaError) as info:
        load_text(text)
    assert [d.code for d in info.value.diagnostics] == ["E102"]


@pytest.mark.parametrize("text", ["ruleset: john\nsetup:\n  score: {P0: 95}\n",
                                  "ruleset: john\nsteps:\n  - set:\n      score: {P0: 95}\n"])
def test_a_variable_written_beside_vars_is_pointed_under_it(text: str) -> None:
    with pytest.raises(FudaError) as info:
        parse_scenario(text, "s.yaml")
    assert "a variable goes under vars: vars: {score: …}" in (info.value.first.hint or "")


def test_an_options_group_used_as_a_function_says_where_use_goes() -> None:
    text = STALE.replace("phase play {", 'options g(p: player) { x "x" { } }\nphase play {\n    g(players[0])')
    with pytest.raises(FudaError) as info:
        load_text(text)
    d = next(d for d in info.value.diagnostics if d.code == "E104")
    assert "options group" in d.message and "use g(" in (d.hint or "")


@pytest.mark.parametrize("options, line, col, words", [
    ('{"bogus": 3}', 4, 14, "unknown option 'bogus'"),
    ('{"hand_size": 99}', 4, 27, "hand_size"),
])
def test_a_game_log_s_bad_option_is_shown_in_the_log(tmp_path: Path, options: str, line: int, col: int,
                                                     words: str) -> None:
    """QA12 D3: a log's unknown option or bad option value was reported at the ruleset's `ruleset`
    line, the log not named; it is the log's mistake (E503), at the key or the value."""
    from interpreter.runner.replay import read_log, replay

    f = tmp_path / "g.json"
    f.write_text('{\n "format": "fuda-log/1",\n "ruleset": "american_page_one",\n "options": ' + options
                 + ',\n "seed": 1,\n "seats": [],\n "actions": []\n}\n', encoding="utf-8")
    with pytest.raises(FudaError) as info:
        replay(read_log(str(f)), str(f))
    d = info.value.first
    assert d.code == "E503" and words in d.message and d.span.file == str(f)
    assert (d.span.line, d.span.col) == (line, col)


@pytest.mark.parametrize("third", ["note: house rules of Tuesday", "extra: 1"])
def test_an_options_file_with_options_and_two_more_keys_is_faulted_there(tmp_path: Path, third: str) -> None:
    """QA12 B5: `{options, ruleset, note}` was read flat and blamed on the ruleset's first line as
    an unknown option 'options'; it is E406 in the options file, at the key that is one too many."""
    from interpreter.api import read_options_file

    f = tmp_path / "note.yaml"
    f.write_text(f"options: {{hand_size: 3}}\nruleset: american_page_one\n{third}\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        read_options_file(str(f))
    d = info.value.first
    assert d.code == "E406" and "is neither" in d.message and (d.span.file, d.span.line, d.span.col) == (str(f), 3, 1)


@pytest.mark.parametrize("text, line, words, hint", [
    ("options:\n  hand_size: 5\noption:\n  page_one_penalty: 2\n", 3, "'option' is neither", "the one `options:`"),
    ("options: {hand_size: 5}\nnote: house rules of Tuesday\n", 2, "'note' is neither", "# comment"),
    ("options: {hand_size: 5}\nrulset: american_page_one\n", 2, "'rulset' is neither", "did you mean ruleset?"),
    ("option:\n  hand_size: 5\n", 1, "'option' holds a mapping: is it `options:` misspelt?", "write options:"),
])
def test_an_options_file_s_stray_key_beside_options_is_an_error_there(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                      text: str, line: int, words: str,
                                                                      hint: str) -> None:
    """fix15: a second key beside `options:` (a note, a misspelt `option:`) was dropped unread; only
    `ruleset:` may stand there, and anything else is E406 at that key, with its line and a caret."""
    from interpreter.runner.cli import main

    f = tmp_path / "house.yaml"
    f.write_text(text, encoding="utf-8")
    assert main(["simulate", "american_page_one", "-n", "1", "-q", "--options", str(f)]) == 1
    err = capsys.readouterr().err
    key = text.splitlines()[line - 1].split(":")[0]
    assert f"{f}:{line}:1: error[E406]: " in err and words in err and hint in err
    assert f"\n    {text.splitlines()[line - 1]}\n    {'^' * len(key)}\n" in err


def test_a_variant_s_bad_option_default_is_one_error_in_the_variant(tmp_path: Path) -> None:
    """QA12 B6/P6: a refused default left the option without a value, and the base's rules that use
    it were faulted too (two E201 in the bundled base); a scenario naming the variant put the
    variant's mistake at its own `ruleset:` line."""
    from interpreter.runner.scenario import run_scenario

    v = tmp_path / "v.fuda"
    v.write_text("ruleset lc_v\nextends lost_cities\noption six_colours = 1\n", encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(v))
    assert [(d.code, d.span.file, d.span.line) for d in info.value.diagnostics] == [("E402", str(v), 3)]
    s = tmp_path / "s.yaml"
    s.write_text("ruleset: v.fuda\nsteps: []\n", encoding="utf-8")
    o = run_scenario(s)
    assert not o.passed and f"{v}:3:22: error[E402]" in o.message, o.message


def test_a_function_of_fixed_values_is_a_fixed_value(tmp_path: Path) -> None:
    """The Crew newcomer: `evaluate progress in 0..max(1, n_tasks())` was E201 although n_tasks()
    reads only an option, so the mission table had to be written twice."""
    from interpreter.api import load

    f = tmp_path / "fx.fuda"
    f.write_text("""ruleset fx
players 2
option mission: int 1..3 = 2
cards standard() in deck
zone deck: pile hidden
fn n_tasks() -> int = [1, 4, 2][mission - 1]
fn twice(k: int, extra: int = 1) -> int = 2 * k + extra
var budget: int = twice(n_tasks())
fn progress(p: player) -> int = size(deck) % 5
evaluate progress in 0..max(1, n_tasks()) after 20 decisions
setup { }
phase play { end game draw }
""", encoding="utf-8")
    st = load(str(f), {"mission": 3}).new_state(0)
    assert st.view(None)["vars"]["budget"] == 5
    assert not [w for w in st.game.prog.warnings if "never used" in w.message and "fn" in w.message]  # QA13
    f.write_text(f.read_text(encoding="utf-8").replace("[1, 4, 2][mission - 1]", "size(deck)"), encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(f))
    d = info.value.first
    assert d.code == "E201" and "deck is not known before the game starts" in d.message and d.span.line == 6


def test_an_enum_is_the_list_of_its_members_in_fixed_values(tmp_path: Path) -> None:
    """Wizard and Bohnanza newcomers (fix16 1): `for h in Hue` in the deck was E201 'Hue is not known
    before the game starts', and `index_of(Hue, h)`, the per-member table of §5, was not fixed either."""
    from interpreter.api import load

    f = tmp_path / "en.fuda"
    f.write_text("""ruleset en
players 2
enum Hue { blue, green, red }
fn copies(h: Hue) -> int = [2, 3, 1][index_of(Hue, h)]
cards {
    attr hue: Hue
    for h in Hue { for i in 1..copies(h) { card "{h}{i}" hue = h } }
} in deck
zone deck: pile hidden
var kinds: int = size(Hue)
var where_red: int = index_of(Hue, red) + index_of([1, 2], 5)
setup { }
phase play { if kinds == where_red { end game draw } end game draw }
""", encoding="utf-8")
    g = load(str(f))
    st = g.new_state(0)
    assert st.view(None)["vars"]["kinds"] == 3
    assert st.view(None)["vars"]["where_red"] == 1
    assert sorted(g.card_names) == ["blue1", "blue2", "green1", "green2", "green3", "red1"]
    f.write_text(f.read_text(encoding="utf-8").replace("index_of(Hue, red)", "index_of(3, red)"), encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(f))
    d = info.value.first
    assert d.code == "E201" and "index_of takes a list, not int" in d.message and d.span.line == 11


_BIDS = ("ruleset b\nplayers 3\ncards standard() in deck\nzone deck: pile hidden\nvar bid: int per player = 0 owner\n"
         "setup { }\n{BODY}\n")
_RULES = 'rule hide_all { for p in players { hide bid[p] } }\nrule announce { log "P0 bid {bid[players[0]]}" }\n'


def test_w104_follows_reveals_in_option_blocks_and_across_rules_and_phases(tmp_path: Path) -> None:
    """Wizard newcomer (fix16 2): a log of bids revealed in every option of the decision before it, or
    before the call of the rule that logs them, or in the phase that goes to the logging one, was
    W104. A reveal in only some options, a call before the reveal, a hide in between (also by a
    rule, or in a loop's later round) still leave the log warned."""
    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, _BIDS, "{BODY}", (_RULES if "announce()" in body else "") + body)

    bid = 'for p in players {{ choose p {{ say n in 0..2 "bid {{n}}" {{ bid[p] = n {R} }} {O} }} }}'
    total = 'log "total {sum([bid[q] for q in players])}"'
    reveal_all = "for p in players { reveal bid[p] }"
    assert warnings(f"phase play {{ {bid.format(R='reveal bid[p]', O='')}\n {total} }}") == []
    assert warnings(f"phase play {{ {bid.format(R='reveal bid[p]', O='')}\n announce() }}") == []
    assert warnings(f"phase play {{ {bid.format(R='', O='')}\n {reveal_all}\n announce() }}") == []
    assert warnings(f"phase one {{ {bid.format(R='', O='')}\n {reveal_all}\n goto two }}\n"
                    f"phase two {{ announce()\n hide_all()\n goto one }}") == []
    assert warnings(f"phase play {{ if size(deck) > 3 {{ {reveal_all} }} else {{ {reveal_all} }}\n {total} }}") == []
    # still told to some players only
    one_option = bid.format(R="reveal bid[p]", O='keep "keep" { }')
    assert warnings(f"phase play {{ {one_option}\n {total} }}") == ["W104"]
    assert warnings(f"phase play {{ {one_option}\n announce() }}") == ["W104"]
    assert warnings(f"phase play {{ {bid.format(R='', O='')}\n announce()\n {reveal_all} }}") == ["W104"]
    assert warnings(f"phase play {{ {reveal_all}\n hide_all()\n announce() }}") == ["W104"]
    assert warnings(f"phase play {{ {reveal_all}\n while size(deck) > 0 {{ announce()\n hide_all() }} }}") == ["W104"]
    assert warnings(f"phase one {{ {reveal_all}\n goto two }}\nphase two {{ announce()\n goto three }}\n"
                    "phase three { goto two }") == []
    assert warnings(f"phase one {{ {reveal_all}\n goto two }}\nphase two {{ announce()\n hide_all()\n goto three }}\n"
                    "phase three { goto two }") == ["W104"]
    assert warnings(f"phase one {{ if size(deck) > 3 {{ {reveal_all} }}\n goto two }}\nphase two {{ announce() }}") \
        == ["W104"]


_SECRET = ("ruleset s\nplayers 3\ncards standard() in deck\nzone deck: pile hidden\nvar known: bool = false\n"
           "var who: player = none hidden\nsetup { }\n{RULE}\n"
           "phase play { {CALL}\n for p in players { score[p] = if p == who then 1 else 0 } }\n")


def test_w104_counts_what_a_called_rule_always_reveals_as_its_hides(tmp_path: Path) -> None:
    """fix29 1 (Napoleon): `reveal_adjutant()` whose body ends in `reveal adjutant`, then a score set
    from the hidden `adjutant`, was W104 though a `hide` in a called rule counts after the call. A
    reveal the rule makes only sometimes (under an `if`, after a `return` may leave), then hides,
    or of its own parameter's entry, still leaves the read warned."""
    def warnings(rule: str, call: str = "show_who()") -> list[str]:
        return _warnings_of(tmp_path, _SECRET.replace("{RULE}", rule),
                            "{CALL}", call)

    assert warnings("rule show_who { if not known { known = true } reveal who }") == []
    assert warnings("rule show_who { if not known { reveal who } else { reveal who } }") == []
    assert warnings("rule inner { reveal who }\nrule show_who { inner() }") == []
    assert warnings("rule show_who { reveal who }", "if size(deck) > 3 { show_who() } else { show_who() }") == []
    # still told to some players only
    assert warnings("rule show_who { if not known { reveal who } }") == ["W104"]
    assert warnings("rule show_who { reveal who\n hide who }") == ["W104"]
    assert warnings("rule show_who { if known { return }\n reveal who }") == ["W104"]
    assert warnings("rule show_who { reveal who }\nrule unsay { hide who }", "show_who()\n unsay()") == ["W104"]
    assert warnings("rule show_who { reveal who }\nrule unsay { hide who }",
                    "if size(deck) > 3 { show_who()\n unsay() } else { show_who() }") == ["W104"]


def test_a_count_of_whole_zones_through_a_function_is_not_a_read(tmp_path: Path) -> None:
    """Bohnanza newcomer (fix16 3): `fn both(p) = cards(table) + cards(hand[p])`, then
    `size(both(q))` in a where was W102, though it counts whole zones as `size(hand[q])` does. A
    count of some of the cards (through a comprehension with a where, a count whose condition reads
    the faces) is still warned, in a where (W102) and in a log (W104)."""
    f = tmp_path / "w.fuda"
    f.write_text("""ruleset w
players 2
cards standard() in deck
zone deck: pile hidden
zone table: pile public
zone hand: pile per player owner
fn both(p: player) -> list of card = cards(table) + cards(hand[p])
fn trad(p: player, a: player) -> list of card = if p == a then cards(table) + cards(hand[p]) else cards(hand[p])
fn highs(p: player) -> list of card = [c for c in hand[p] where c.rank > 10]
setup { shuffle deck  deal 3 from deck to hand }
phase play {
    choose players[0] {
        a n in 1..3 where n < size(both(players[1])) "a {n}" { }
        b n in 1..3 where n < size(trad(players[1], players[0])) "b {n}" { }
        c n in 1..3 where n < size(both(players[1])) + size(highs(players[1])) "c {n}" { }
        d n in 1..3 where n < size([x for x in both(players[1])]) "d {n}" { }
        e n in 1..3 where n < (count x in both(players[1]) where revealed(x)) "e {n}" { }
        f n in 1..3 where n < (count x in both(players[1]) where x.rank > 10) "f {n}" { }
    }
    log "{size(both(players[1]))}"
    log "{size(highs(players[1]))}"
}
""", encoding="utf-8")
    got = [(w.code, w.span.line) for w in check_ruleset(str(f)).warnings if w.code != "W101"]
    assert got == [("W102", 15), ("W102", 18), ("W104", 21)], got


@pytest.mark.parametrize("steps", [
    "  - P0: two\n    expect: {phase: play, to_move: [P1], vars: {pick: 2}, new_events: {sequence: [\"P0: two\", \"phase: play\"]}}\n",
    "  - P0: two\n  - expect: {phase: play, to_move: [P1], vars: {pick: 2}, new_events: {sequence: [\"P0: two\", \"phase: play\"]}}\n",
])
def test_an_expect_beside_the_action_answering_the_setup_sees_play_begun(tmp_path: Path, steps: str) -> None:
    """qa15 Q8: the `expect` of the step answering the setup's last decision ran before play began
    (phase setup, no one to move), where the same expect a step later saw the first phase: one state."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar pick: int = 0\n"
        "setup { choose players[0] \"Pick\" { one \"one\" { pick = 1 } two \"two\" { pick = 2 } } }\n"
        "phase play { choose players[1] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsteps:\n" + steps, encoding="utf-8")
    o = run_scenario(f)
    assert o.passed, o.message


@pytest.mark.parametrize("steps, failed", [
    ("  - P0: two\n    until_phase: first\n    expect: {phase: first, to_move: [], vars: {pick: 2}}\n"
     "  - P1: wait\n    expect: {phase: later}\n", None),
    ("  - P0: two\n    until_phase: play\n    expect: {phase: play, to_move: [], new_events: {sequence: "
     "[\"P0: two\", \"phase: first\", \"first 2\", \"phase: play\"]}}\n"
     "  - until_phase: later\n    expect: {phase: later}\n", None),
    ("  - P0: two\n    until_phase: later\n", "phase later did not begin: it waits in phase play for P1"),
])
def test_an_until_phase_beside_the_action_answering_the_setup_counts_from_it(tmp_path: Path, steps: str,
                                                                            failed: str | None) -> None:
    """fix22: the `until_phase` of the step answering the setup's last decision was checked before
    play began ("phase play did not begin": nothing had); it counts from the answer, as beside any
    action — the first phase too — and its `expect` sees the state it stopped at."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar pick: int = 0\n"
        "setup { choose players[0] \"Pick\" { one \"one\" { pick = 1 } two \"two\" { pick = 2 } } }\n"
        "phase first { log \"first {pick}\"\n goto play }\nphase play { choose players[1] { wait { goto later } } }\n"
        "phase later { choose players[1] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsteps:\n" + steps, encoding="utf-8")
    o = run_scenario(f)
    if failed is None:
        assert o.passed, o.message
    else:
        assert not o.passed and "E502" in o.message and failed in o.message, o.message


@pytest.mark.parametrize("steps, failed", [
    ("  - until_phase: first\n  - expect: {phase: first, to_move: []}\n", None),
    ("  - until_phase: later\n    expect: {phase: later}\n", None),
    ("  - random: 1\n    until_phase: first\n  - expect: {phase: first, to_move: []}\n", None),
    ("  - random: 1\n    until_phase: play\n    expect: {phase: play, to_move: []}\n", None),
    ("  - random: 2\n    expect: {phase: later}\n", None),
    ("  - random: 1\n    until_phase: later\n", "phase later did not begin: it waits in phase play for P1"),
])
def test_random_play_answering_the_setup_s_decision_goes_on_into_play(tmp_path: Path, steps: str,
                                                                     failed: str | None) -> None:
    """fix30 (qa17 Q11, Q16): `until_phase` alone while the setup waited for a decision ended in an
    internal IndexError (random play ran on past the setup, before play began); `random: 1` answering
    the setup's last decision checked the `until_phase` beside it before play began ("phase first
    did not begin: it waits in phase first for "). Random play answering the setup's last decision
    goes on after it as an action does: its `until_phase`, the random actions left and `expect`
    count from there."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nvar pick: int = 0\n"
        "setup { choose players[0] \"Pick\" { one \"one\" { pick = 1 } two \"two\" { pick = 2 } } }\n"
        "phase first { log \"first {pick}\"\n goto play }\nphase play { choose players[1] { wait { goto later } } }\n"
        "phase later { choose players[1] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsteps:\n" + steps, encoding="utf-8")
    o = run_scenario(f)
    if failed is None:
        assert o.passed, o.message
    else:
        assert not o.passed and "E502" in o.message and failed in o.message, o.message


def test_an_until_phase_while_the_setup_waits_says_so(tmp_path: Path) -> None:
    """fix30 (qa17 Q16): the E502 of an `until_phase` whose random play left the setup waiting named
    the first phase and no one ("it waits in phase first for ")."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
        "setup { choose players[0] { a { } }\n choose players[1] { b { } } }\n"
        "phase first { choose players[1] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: s.fuda\nsteps:\n  - random: 1\n    until_phase: first\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "phase first did not begin: it waits in the setup for P1" in o.message, o.message


@pytest.mark.parametrize("zones, words", [
    ('{"hand[P0]": [c9]}', "no card is named 'c9'"),
    ('{"hand[P0]": {top: [c1, c2, c9]}}', "no card is named 'c9'"),
    ('{"hand[P0]": {unordered: [c1, c9]}}', "no card is named 'c9'"),
    ("{pile: {contains: [c9]}}", "no card is named 'c9'"),        # an empty zone: its names checked too
])
def test_a_zone_s_exact_list_in_an_expect_checks_its_names(tmp_path: Path, zones: str, words: str) -> None:
    """qa15 Q9: `hand[P0]: [c9]` (no such card) failed as a mismatch, E502 "expected ['c9'], found …",
    where `contains` said E501 with a did-you-mean: every form checks its names first."""
    from interpreter.runner.scenario import run_scenario

    (tmp_path / "s.fuda").write_text(
        "ruleset s\nplayers 2\ncards { for r in 1..8 { card \"c{r}\" } } in deck\nzone deck: pile hidden\n"
        "zone pile: pile\nzone hand: hand per player owner\nsetup { deal 2 from deck to hand }\n"
        "phase play { choose players[0] { wait { } } }\n", encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(f"ruleset: s.fuda\nsteps:\n  - expect: {{zones: {zones}}}\n", encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "E501" in o.message and words in o.message and "did you mean c8" in o.message, o.message


def test_a_zone_s_exact_list_names_a_card_the_options_leave_out(tmp_path: Path) -> None:
    """qa15 Q9: Bohnanza's blue beans are out of a 3-player game: the list form says so, as `contains` does."""
    from interpreter.runner.scenario import run_scenario

    f = tmp_path / "s.yaml"
    f.write_text("ruleset: bohnanza\noptions: {players: 3}\nsteps:\n  - expect: {zones: {\"hand[P0]\": [blue1]}}\n",
                 encoding="utf-8")
    o = run_scenario(f)
    assert not o.passed and "E501" in o.message and "these options leave it out of the deck" in o.message, o.message


_HANDS = ("ruleset h\nplayers 2\ncards {\n    attr rank: int\n    for r in 1..8 {\n        card \"c{r}\" \"Card {r}\" rank = r\n"
          "    }\n} in deck\nzone deck: pile hidden\nzone hand: hand per player owner \"Hand\"\nvar v: int = 0 \"V\"\n"
          "setup { shuffle deck\n deal 2 from deck to hand }\nphase play {\n{BODY}\n"
          "choose players[0] \"wait\" { ok \"ok\" { } }\nwin players[0] }\n")


def test_w104_a_reveal_counts_only_for_the_cards_it_reveals(tmp_path: Path) -> None:
    """qa15 Q1–Q3: a reveal of another player's entry of a per-player zone, or of `top(Z)`, in a
    branch, an option or plainly, was taken for the whole zone; and a card moved into a revealed zone
    since was taken as revealed. Each is W104 now; the same entry, revealed whole, is still quiet."""
    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, _HANDS, "{BODY}", body)

    read = "v = sum([c.rank for c in hand[players[1]]])"
    # Q1: a card moved in after the reveal (also by a deal, or in a loop's round before) was not revealed
    assert warnings(f"reveal hand[players[1]]\n move top(deck) to hand[players[1]]\n {read}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n deal 1 from deck to hand\n {read}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n repeat 2 {{ {read}\n move top(deck) to hand[players[1]] }}") == ["W104"]
    # Q3: another player's hand; the top card of the deck only
    assert warnings(f"reveal hand[players[0]]\n {read}") == ["W104"]
    assert warnings("reveal top(deck)\n v = sum([c.rank for c in deck])") == ["W104"]
    # Q2: the same, through the branches of an if or the options of a decision
    assert warnings(f"if size(deck) > 3 {{ reveal hand[players[1]] }} else {{ reveal hand[players[0]] }}\n {read}") \
        == ["W104"]
    assert warnings(f'choose players[0] "p" {{ a "a" {{ reveal hand[players[1]] }} b "b" {{ reveal top(hand[players[1]]) '
                    f"}} }}\n {read}") == ["W104"]
    assert warnings(f'choose players[0] "p" {{ a "a" {{ reveal hand[players[1]]\n move top(deck) to hand[players[1]] }} '
                    f'b "b" {{ reveal hand[players[1]] }} }}\n {read}') == ["W104"]
    # quiet: the very entry (plainly, in every branch, after a move in and a reveal again), every
    # player's, or the very expression read
    assert warnings(f"reveal hand[players[1]]\n {read}") == []
    assert warnings(f"if size(deck) > 3 {{ reveal hand[players[1]] }} else {{ reveal hand[players[1]] }}\n {read}") == []
    assert warnings(f"reveal hand[players[1]]\n move top(deck) to hand[players[1]]\n reveal hand[players[1]]\n {read}") \
        == []
    assert warnings(f"for p in players {{ reveal hand[p] }}\n {read}") == []
    assert warnings('reveal top(deck)\n log "{top(deck)}"') == []
    assert warnings('log "{top(deck)}"') == ["W104"]


def test_w104_a_move_into_a_zone_local_or_a_swap_of_card_locals_undoes_a_reveal(tmp_path: Path) -> None:
    """fix21 1: a move into a zone held in a local (`let z = hand[p]`, a rule's zone parameter) or a
    swap of card locals puts an unrevealed card in the revealed hand, as `move c to hand[p]` does:
    plainly, in every branch, in a loop's earlier round or a called rule. A zone local revealed is
    its zone's entry revealed, so a move into that entry undoes it too."""
    base = _HANDS.replace("zone deck: pile hidden\n", "zone deck: pile hidden\nzone table: pile\n") \
        .replace("phase play {", "rule put(y: zone) { move top(deck) to y }\nrule ex(a: card, b: card) { swap a with b }\n"
                 "phase play {")

    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, base, "{BODY}", "let z = hand[players[1]]\n let a = top(hand[players[1]])\n "
                            f"let b = top(deck)\n let t = top(table)\n {body}")

    log = 'log "{hand[players[1]]}"'
    assert warnings(f"reveal hand[players[1]]\n move top(deck) to z\n {log}") == ["W104"]
    assert warnings('reveal hand[players[1]]\n move top(deck) to z\n log "{z}"') == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n if size(deck) > 3 {{ move top(deck) to z }} else {{ move top(deck) to z }}"
                    f"\n {log}") == ["W104"]
    assert warnings(f"if size(deck) > 3 {{ reveal hand[players[1]]\n move top(deck) to z }} else {{ reveal hand[players[1]]"
                    f"\n move top(deck) to z }}\n {log}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n repeat 2 {{ {log}\n move top(deck) to z }}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n repeat 2 {{ {log}\n let y = hand[players[1]]\n move top(deck) to y }}") \
        == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n put(z)\n {log}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n swap a with b\n {log}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n repeat 2 {{ {log}\n swap a with b }}") == ["W104"]
    assert warnings(f"reveal hand[players[1]]\n ex(a, b)\n {log}") == ["W104"]
    assert warnings('reveal z\n move top(deck) to hand[players[1]]\n log "{z}"') == ["W104"]
    # quiet: the move or swap is elsewhere; the zone local's entry revealed, read either way
    assert warnings(f"reveal hand[players[1]]\n put(table)\n move top(deck) to table\n {log}") == []
    assert warnings(f"reveal hand[players[1]]\n swap t with b\n ex(t, b)\n {log}") == []
    assert warnings(f'reveal z\n {log}\n log "{{z}}"') == []


def test_w104_a_field_of_a_revealed_expression_is_revealed(tmp_path: Path) -> None:
    """fix21 2: `reveal top(deck)` quieted `{top(deck)}` but not `{top(deck).rank}`: what is worked out
    from the revealed card is everyone's too — in a log, a public variable, an if around a log. Not
    another card (`bottom(deck)`, another player's top), nor after a move into the deck."""
    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, _HANDS, "{BODY}", body)

    assert warnings('log "{top(deck).rank}"') == ["W104"]
    assert warnings('reveal top(deck)\n log "{top(deck).rank} {top(deck).rank + 1}"') == []
    assert warnings("reveal top(deck)\n v = top(deck).rank") == []
    assert warnings('reveal top(deck)\n if top(deck).rank > 3 { log "high" }') == []
    assert warnings('if size(deck) > 3 { reveal top(deck) } else { reveal top(deck) }\n log "{top(deck).rank}"') == []
    assert warnings('reveal top(deck)\n log "{bottom(deck).rank}"') == ["W104"]
    assert warnings('reveal top(hand[players[1]])\n log "{top(hand[players[0]]).rank}"') == ["W104"]
    assert warnings('reveal top(deck)\n move top(hand[players[0]]) to deck\n log "{top(deck).rank}"') == ["W104"]


def test_w104_a_reveal_over_seats_from_is_every_player_only_while_nobody_is_out(tmp_path: Path) -> None:
    """fix21 3: a reveal of each hand in a loop over `seats_from(q)` (or `active`) was taken for every
    hand; it is, in rules that never take a player out of play. With a `finish` or a `sit out`
    anywhere, the players out are left out of it (and their hands unrevealed): W104."""
    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, _HANDS, "{BODY}", body)

    read = "v = sum([c.rank for c in hand[players[1]]])"
    for src in ("seats_from(players[1])", "active", "players"):
        assert warnings(f"for p in {src} {{ reveal hand[p] }}\n {read}") == [], src
    for src in ("seats_from(players[1])", "active"):
        assert warnings(f"for p in {src} {{ reveal hand[p] }}\n {read}\n sit out players[0]") == ["W104"], src
        assert warnings(f"for p in {src} {{ reveal hand[p] }}\n {read}\n finish players[0]") == ["W104"], src
    assert warnings(f"for p in players {{ reveal hand[p] }}\n {read}\n finish players[0]") == []
    assert warnings(f"for p in others(players[0]) {{ reveal hand[p] }}\n {read}") == ["W104"]


def test_w104_a_loop_over_active_reads_the_hands_an_earlier_loop_over_active_revealed(tmp_path: Path) -> None:
    """newcomer46 P6: `for q in active { reveal hand[q] }`, then `for q in active { v += … hand[q] … }`
    was W104 in rules with a `sit out`: the second loop meets only players the first one met (players
    only leave `active` there). Not so with a `rejoin` anywhere (a player back is met unrevealed), nor
    for a hand read outside such a loop, nor after a card moved into the hands."""
    def warnings(body: str) -> list[str]:
        return _warnings_of(tmp_path, _HANDS, "{BODY}", body)

    reveal, out = "for p in active { reveal hand[p] }", "sit out players[0]"
    read = "for q in active { v = sum([c.rank for c in hand[q]]) }"
    assert warnings(f"{reveal}\n {out}\n {read}") == []
    assert warnings(f"{reveal}\n {read}\n {out}") == []
    assert warnings(f"{reveal}\n {read}\n {out}\n rejoin players[0]") == ["W104"]
    assert warnings(f"{reveal}\n v = sum([c.rank for c in hand[players[1]]])\n {out}") == ["W104"]
    assert warnings(f"{reveal}\n deal 1 from deck to hand\n {read}\n {out}") == ["W104"]
    assert warnings(f"for p in others(players[0]) {{ reveal hand[p] }}\n {read}\n {out}") == ["W104"]


_SECRET_BIDS = ("ruleset b\nplayers 3\ncards {\n    card \"a\"\n    card \"b\"\n} in deck\nzone deck: pile hidden\n"
         "var bid: int per player = 0 owner \"Bid\"\nvar total: int = 0 \"Total\"\nsetup { shuffle deck }\n"
         "{RULE}phase bidding \"Bidding\" {\n    simultaneous p in players \"Bid\" {\n        bid n in 0..3 \"bid {n}\" "
         "{ bid[p] = n }\n    }\n{BODY}\n    choose players[0] \"P0\" { ok \"ok\" { } }\n    win players[0]\n}\n")


def test_w104_a_public_variable_set_from_a_secret_variable(tmp_path: Path) -> None:
    """fix21 6 (qa15 Q12's assignment form): `total = sum([bid[q] for q in players])` with some bids
    still secret shows them in every view, as the log of it would: W104, with the log's rules — quiet
    once every bid (or that very entry) was revealed, also before every call of the rule that sets
    it; warned again after a hide, or where only other players' bids were revealed."""
    def warnings(body: str) -> list[str]:
        rule = "rule add { total = sum([bid[q] for q in players]) }\n" if "add()" in body else ""
        return _warnings_of(tmp_path, _SECRET_BIDS.replace("{RULE}", rule), "{BODY}", body)

    sums = "total = sum([bid[q] for q in players])"
    assert warnings("    add()") == ["W104"]
    assert warnings(f"    {sums}") == ["W104"]
    assert warnings("    score[players[0]] = bid[players[0]]") == ["W104"]
    assert warnings(f"    if size(deck) > 0 {{ for p in others(players[0]) {{ reveal bid[p] }} }} "
                    f"else {{ for p in players {{ reveal bid[p] }} }}\n    {sums}") == ["W104"]
    assert warnings(f"    for p in players {{ reveal bid[p] }}\n    hide bid[players[0]]\n    {sums}") == ["W104"]
    assert warnings("    reveal bid[players[1]]\n    total = bid[players[0]]") == ["W104"]
    assert warnings(f"    for p in players {{ reveal bid[p] }}\n    {sums}") == []
    assert warnings("    for p in players { reveal bid[p] }\n    add()") == []
    assert warnings("    reveal bid[players[1]]\n    total = bid[players[1]]") == []
