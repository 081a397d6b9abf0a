"""The example options files shipped in rulesets/options/ (a table's house rules): each is named
after its ruleset (RULESET_*.yaml), loads, and every value it sets is applied."""

from __future__ import annotations

import pytest

from interpreter.api import load, read_options_file
from interpreter.errors import FudaError
from interpreter.resources import bundled_rulesets

from .conftest import ROOT

FILES = sorted((ROOT / "rulesets" / "options").glob("*.yaml"))


def ruleset_of(path) -> str:  # type: ignore[no-untyped-def]
    names = [n for n in bundled_rulesets() if path.stem == n or path.stem.startswith(n + "_")]
    assert names, f"{path.name}: no bundled ruleset is named by its prefix"
    return max(names, key=len)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_options_file_applies(path):
    options = read_options_file(str(path))
    game = load(ruleset_of(path), options)
    prog = game.prog
    for name, value in options.items():
        o = prog.options[name]
        got = o.members[o.value] if o.members and isinstance(o.value, int) else o.value
        assert got == value, f"{name}: {got!r} != {value!r}"


@pytest.mark.parametrize("command", [["validate", "american_page_one"], ["simulate", "american_page_one", "-n", "2"]])
def test_a_mistake_in_an_options_file_is_shown_in_that_file(tmp_path, capsys, command):
    from interpreter.runner.cli import main

    f = tmp_path / "house.yaml"
    f.write_text("options:\n  hand_size: 11\n  stop_at_first_winnr: false\n", encoding="utf-8")
    assert main([*command, "--options", str(f)]) == 1
    err = capsys.readouterr().err
    assert f"{f}:2:14: error[E402]: option hand_size must be within 1..10; given value is 11" in err
    assert "hint: the option is declared at rulesets/american_page_one.fuda:11:1" in err
    if command[0] == "validate":    # every mistake at once; simulate stops at the first
        assert f"{f}:3:3: error[E401]: unknown option 'stop_at_first_winnr'" in err
    # the same value given again on the command line is the command line's: shown at the declaration
    assert main([*command, "--options", str(f), "--set", "hand_size=12", "--set", "stop_at_first_winner=false"]) == 1
    assert "american_page_one.fuda:11:1: error[E402]" in capsys.readouterr().err


def test_an_options_file_names_the_ruleset_it_is_for(tmp_path, capsys):
    """``{ruleset: NAME, options: …}`` is refused for another ruleset (its values would mean
    something else there), accepted for that ruleset and for variants of it."""
    from interpreter.runner.cli import main

    f = tmp_path / "house.yaml"
    f.write_text("ruleset: american_page_one\noptions:\n  hand_size: 5\n", encoding="utf-8")
    assert main(["simulate", "john", "-n", "1", "-q", "--options", str(f)]) == 1
    err = capsys.readouterr().err
    assert f"{f}:1:10: error[E406]: this options file is for american_page_one, not john" in err
    for argv in (["validate", "john"], ["replay", "john", "--seed", "1"]):     # every command checks it
        assert main([*argv, "--options", str(f)]) == 1
        assert "is for american_page_one, not john" in capsys.readouterr().err
    assert main(["compare", "john", "--a", str(f), "--b", "hand_size=6", "-n", "1", "-q"]) == 1
    assert "is for american_page_one, not john" in capsys.readouterr().err
    for ruleset in ("american_page_one", "super_page_one"):
        assert main(["simulate", ruleset, "-n", "1", "-q", "--options", str(f)]) == 0


def test_an_enum_member_named_off_or_on_is_chosen_though_yaml_reads_the_word_as_a_bool(tmp_path):
    """A newcomer's `{off, on_top, double}`: `--set bonus=off` and `bonus: off` in an options file or
    scenario came as YAML's false and were refused."""
    from interpreter.api import load_text

    text = ('ruleset enum_off\nplayers 2\noption bonus: {off, on_top, double} = double "Bonus"\n'
            "cards standard() in deck\nzone deck: pile hidden\nsetup { }\nphase play { }\n")
    assert load_text(text, {"bonus": False}).prog.options["bonus"].value == 0
    opts = tmp_path / "o.yaml"
    opts.write_text("bonus: off\n", encoding="utf-8")
    assert load_text(text, read_options_file(str(opts))).prog.options["bonus"].value == 0
    with pytest.raises(Exception) as e:
        load_text(text, {"bonus": True})            # no member is named on, yes or true
    assert "takes one of off, on_top, double" in str(e.value)


@pytest.mark.parametrize("key", ["on", "yes", "1"])
def test_an_options_file_key_yaml_reads_as_no_name_is_said_in_that_file(tmp_path, key):
    """qa11 B3: an option named `on` given as `on: true` was "unknown option 'True'" at the ruleset."""
    opts = tmp_path / "o.yaml"
    opts.write_text(f"{key}: true\n", encoding="utf-8")
    with pytest.raises(FudaError) as e:
        read_options_file(str(opts))
    d = e.value.first
    assert (d.code, d.span.file, d.message) == ("E406", str(opts), "this key is not a name")
    assert 'quote the name ("on": …)' in (d.hint or "")


ON_OFF = ('ruleset en\nplayers 2\nenum Mode { off "Off", on "On", yes "Yes", no "No", true_ "T", null "Null" }\n'
          'option mode: Mode = off\noption flag: bool = false\noption sw: {on, off, auto "Auto"} = auto\n'
          'cards standard() in deck\nzone deck: pile hidden\nsetup { log "mode={mode} flag={flag} sw={sw}" }\n'
          'phase play { end game draw }\n')


@pytest.mark.parametrize(("given", "shown"), [
    ("mode=on", "mode=On flag=false sw=Auto"), ("mode=off", "mode=Off"), ("mode=yes", "mode=Yes"),
    ("mode=no", "mode=No"), ("mode=ON", "mode=On"), ("sw=on", "sw=on"), ("sw=off", "sw=off"),
    ("flag=on", "flag=true"), ("flag=yes", "flag=true"), ("flag=no", "flag=false"), ("flag=true", "flag=true"),
    ("sw=yes", 'option sw takes one of on, off, auto; got "yes"'),
    ("mode=true", "true could be on or yes: name the member"),
    # QA8 B-enum-null: the member null was none (not a member) and, in an options file, true; and
    # an options file's `flag: false` was true
    ("mode=null", "mode=Null"), ("mode=Null", "mode=Null"), ("flag=false", "flag=false"),
    ("sw=null", 'option sw takes one of on, off, auto; got "null"'),
])
def test_an_option_word_names_the_member_of_that_exact_name(given, shown, tmp_path, capsys):
    """QA7 B-enum-onoff: `--set mode=on` was refused for an enum with members on and yes (YAML made
    both true), and `--set sw=yes` picked on. The word typed names the member of that name, in
    --set, in an options file and in a scenario's options; a bool option still reads on/yes/no."""
    from interpreter.runner.cli import main
    from interpreter.runner.scenario import run_scenario

    rules = tmp_path / "en.fuda"
    rules.write_text(ON_OFF, encoding="utf-8")
    name, value = given.split("=")
    opts = tmp_path / "o.yaml"
    opts.write_text(f"{name}: {value}\n", encoding="utf-8")
    refused = "takes one of" in shown or "could be" in shown
    for argv in (["--set", given], ["--options", str(opts)]):
        assert main(["replay", str(rules), "--seed", "1", "--no-rules", *argv]) == (1 if refused else 0)
        out, err = capsys.readouterr()
        assert shown in (err if refused else out)
    logged = next((line.split("log", 1)[1].strip() for line in out.splitlines() if " log " in line), "")
    scen = tmp_path / "s.yaml"
    scen.write_text(f"ruleset: {rules}\noptions: {{{name}: {value}}}\nsteps:\n"
                    f"  - expect: {{events: {{includes: [\"{logged}\"]}}}}\n", encoding="utf-8")
    outcome = run_scenario(str(scen))
    assert (shown in outcome.message) if refused else outcome.passed, outcome.message


@pytest.mark.parametrize("where", ["options file", "scenario"])
def test_a_yaml_anchor_that_holds_itself_is_a_wrong_value_not_an_internal_error(tmp_path, capsys, where):
    """QA9 B7: `hand_size: &a [*a]` crashed on "Circular reference detected" (the load cache's key)."""
    from interpreter.runner.cli import main

    if where == "options file":
        f = tmp_path / "house.yaml"
        f.write_text("hand_size: &a [*a]\n", encoding="utf-8")
        assert main(["simulate", "american_page_one", "-n", "1", "-q", "--options", str(f)]) == 1
        at = f"{f}:1:12"
    else:
        f = tmp_path / "sc.yaml"
        f.write_text("ruleset: american_page_one\noptions: {hand_size: &a [*a]}\nsteps: []\n", encoding="utf-8")
        assert main(["test", str(f)]) == 1
        at = f"{f}:2:22"
    out = capsys.readouterr()
    assert f"{at}: error[E402]: option hand_size is a whole number" in out.out + out.err


FOLLOWS = """ruleset follows_demo
players 2..4 default 3
option short: bool = false
option hand_size: int 1..10 = if short then 5 else 7
option spare: int = size(players) * 2
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner
setup {
    shuffle deck
    deal hand_size from deck to hand
}
phase play { }
"""


@pytest.mark.parametrize("given, hand_size, spare", [
    ({}, 7, 6),                                     # size(players) is the declared default's, 3
    ({"short": True}, 5, 6),                        # the value set, not short's default
    ({"short": "yes", "hand_size": 9}, 9, 6),       # unless this option is set too
    ({"players": 4}, 7, 8),
])
def test_an_option_default_made_of_other_options_follows_the_values_set(given, hand_size, spare):
    from interpreter.api import load_text

    prog = load_text(FOLLOWS, given).prog
    assert (prog.options["hand_size"].value, prog.options["spare"].value) == (hand_size, spare)


def test_a_default_that_follows_another_option_does_so_from_files_scenarios_and_the_command_line(tmp_path, capsys):
    from interpreter.runner.cli import main
    from interpreter.runner.scenario import run_scenario

    rules = tmp_path / "follows.fuda"
    rules.write_text(FOLLOWS, encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text("options:\n  short: true\n", encoding="utf-8")
    assert main(["simulate", str(rules), "-n", "1", "-q", "--options", str(house)]) == 0
    assert main(["replay", str(rules), "--seed", "1", "--set", "short=true"]) == 0
    dealt = next(line for line in capsys.readouterr().out.splitlines() if "deck → hand[P0]" in line)
    assert len(dealt.split(":", 1)[1].split("[")[0].split()) == 5
    scenario = tmp_path / "short.yaml"
    scenario.write_text("ruleset: follows.fuda\noptions: {short: true, players: 2}\nsteps:\n"
                        "  - expect: {zones: {\"hand[P0]\": {size: 5}, deck: {size: 42}}}\n", encoding="utf-8")
    outcome = run_scenario(scenario)
    assert outcome.passed, outcome.message
    assert main(["list", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "hand_size: int 1..10 = 7 (follows short)" in out and "spare: int = 6 (follows players)" in out
