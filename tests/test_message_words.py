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


@pytest.mark.parametrize("body, words", [
    ("if 3 in [top(deck)] { }", "an int is never in a list of card"),
])
def test_type_words_take_their_article(body: str, words: str) -> None:
    with pytest.raises(FudaError) as info:
        load_text(OWNER_VAR.replace("hint = sec[players[1]]", body))
    assert words in info.value.first.message
