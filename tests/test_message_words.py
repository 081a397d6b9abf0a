"""Messages built from a word read as written English and name what the writer wrote (qa17 Q17–Q24)."""

from __future__ import annotations

import pytest

from interpreter.api import load_text
from interpreter.errors import FudaError, a_noun

OWNER_VAR = """ruleset w
players 2
cards standard() in deck
zone deck: pile hidden
var hint: int = 0 "Hint"
var sec: int per player = 0 owner "Sec"
setup { }
phase play {
    hint = sec[players[1]]
    end game draw
}
"""


def test_a_noun_takes_an_before_a_vowel_also_in_backquotes() -> None:
    assert [a_noun(w) for w in ("int", "card", "`owner`", "`hidden`", "effect")] == \
        ["an int", "a card", "an `owner`", "a `hidden`", "an effect"]


def test_a_public_variable_set_from_an_owner_one_says_an_owner_variable() -> None:
    (w,) = [w for w in load_text(OWNER_VAR).prog.warnings if w.code == "W104"]
    assert "from sec (an `owner` variable)" in w.message
    (w,) = [w for w in load_text(OWNER_VAR.replace("hint = sec[players[1]]", 'log "{sec[players[1]]}"')).prog.warnings
            if w.code == "W104"]
    assert w.message.startswith("this log shows sec (an `owner` variable)")


@pytest.mark.parametrize("body, words", [
    ("if 3 in [top(deck)] { }", "an int is never in a list of card"),
])
def test_type_words_take_their_article(body: str, words: str) -> None:
    with pytest.raises(FudaError) as info:
        load_text(OWNER_VAR.replace("hint = sec[players[1]]", body))
    assert words in info.value.first.message


NEG = """ruleset n
players 2
cards standard() in deck
zone deck: pile hidden
option neg: int -5..-1 = -2 "Neg"
setup { }
phase play { end game draw }
"""


@pytest.mark.parametrize("typed", ["-", "[1]", "x"])
def test_a_set_value_that_is_no_number_is_quoted_as_typed_with_the_range(
        typed: str, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--set neg=-` said "given value [None]", YAML's reading of `-` (qa17 Q22)."""
    from interpreter.runner.cli import main

    (tmp_path / "n.fuda").write_text(NEG, encoding="utf-8")
    assert main(["validate", str(tmp_path / "n.fuda"), "--set", f"neg={typed}"]) == 1
    err = capsys.readouterr().err
    assert f'option neg is a whole number; given value "{typed}" is not' in err
    assert "hint: give a whole number within -5..-1" in err


BASE_NO_WINDOWS = """ruleset vb "vb"
players 2
cards standard() in deck
zone deck: pile hidden "Deck"
option n: int 1..5 = 3 "N"
require big: n >= 2 "n at least 2"
setup { }
phase play { end game draw }
"""


def _variant_errors(tmp_path, text: str) -> list:
    from interpreter.api import check_ruleset

    (tmp_path / "vb.fuda").write_text(BASE_NO_WINDOWS, encoding="utf-8")
    (tmp_path / "v.fuda").write_text('ruleset v "v"\nextends vb\n' + text, encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "v.fuda"))
    return info.value.diagnostics


def test_windows_after_in_a_variant_of_a_base_without_windows_says_so(tmp_path) -> None:
    """The hint read "the base's order: windows " with nothing after it (qa17 Q21)."""
    first = _variant_errors(tmp_path, "windows late after nowhere\n")[0]
    assert first.code == "E107" and first.hint == "the base has no windows"


@pytest.mark.parametrize("default", ["0", "9"])
def test_an_option_default_out_of_range_is_the_only_error_not_the_base_s_require_too(tmp_path, default: str) -> None:
    """The require was checked with the range's clamp, "n at least 2 (n = 1)", a value nobody wrote (qa17 Q17)."""
    errors = _variant_errors(tmp_path, f"option n = {default}\n")
    assert [(d.code, d.message) for d in errors] == \
        [("E402", f"option n must be within 1..5; default value is {default}")]


def test_a_given_option_value_out_of_range_is_the_only_error(tmp_path) -> None:
    from interpreter.api import check_ruleset

    (tmp_path / "vb.fuda").write_text(BASE_NO_WINDOWS, encoding="utf-8")
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "vb.fuda"), {"n": 9})
    assert [d.message for d in info.value.diagnostics] == ["option n must be within 1..5; given value is 9"]
    with pytest.raises(FudaError) as info:
        check_ruleset(str(tmp_path / "vb.fuda"), {"n": 1})
    assert [d.message for d in info.value.diagnostics] == ["n at least 2 (n = 1)"]


def test_a_w104_through_base_names_the_call_as_written_and_the_base_s_declaration(tmp_path) -> None:
    """It named the hidden declaration `say@hb`, written nowhere (qa17 Q20)."""
    from interpreter.api import load

    (tmp_path / "hb.fuda").write_text("""ruleset hb "hb"
players 2
cards standard() in deck
zone deck: pile hidden "Deck"
zone hand: pile per player owner "Hand"
rule say(c: card) { log "{c}" }
setup { shuffle deck  deal 3 from deck to hand }
phase play { end game draw }
""", encoding="utf-8")
    (tmp_path / "hv.fuda").write_text("""ruleset hv "hv"
extends hb
override rule say(c: card) {
    base(top(hand[players[1]]))
}
""", encoding="utf-8")
    (w,) = [w for w in load(str(tmp_path / "hv.fuda")).prog.warnings if w.code == "W104"]
    assert w.message.startswith("base (say of hb.fuda) logs its c, given the cards of hand here")


def test_black_maria_restates_the_moon_option_with_its_own_43() -> None:
    """qa17 Q24: the moon's labels said 26 in the variant whose moon_points() is 43; labels are fixed
    text (no `{moon_points()}`), so the variant restates them."""
    from interpreter.api import load

    from pathlib import Path

    g = load(str(Path(__file__).parent.parent / "rulesets/tests/examples/hearts/black_maria.fuda"))
    shown = g.prog.enums["moon"].shown
    assert shown is not None and [s[0] for s in shown][:2] == ["the others score 43", "the shooter subtracts 43"]
    assert [s[0] for s in load("hearts").prog.enums["moon"].shown or []][:2] == \
        ["the others score 26", "the shooter subtracts 26"]
