"""A stack item has the fields of its own effect only (newcomer17's Coup, B2): one window serving
several effects read `it.flag` of an item whose effect has no `flag` and got none, set it without a
word, and an int field failed with a hint about empty zones."""

from __future__ import annotations

import textwrap

import pytest

from interpreter.api import load_text
from interpreter.errors import RuleRuntimeError

SRC = textwrap.dedent("""\
    ruleset item_fields
    players 2
    cards standard() in deck
    zone deck: pile hidden
    var seen: int = 0
    effect a(flag: bool = true, n: int = 0) { log "a" }
    effect b() { log "b" }
    option which: int = 0
    window w (it, p) when WHEN {
        poke "poke" { BODY }
    }
    setup { }
    phase play {
        activate b() by players[0]
        end game
    }
""")


def game(when: str, body: str = "seen += 1"):
    return load_text(SRC.replace("WHEN", when).replace("BODY", body))


def test_a_bool_field_an_item_s_effect_does_not_declare_reads_false():
    """A bool is never none: `it.flag == false` and `not it.flag` agree on an item of b."""
    for when in ("it.flag == false", "not it.flag"):
        st = game(when).new_state(0)
        assert [a.id for a in st.legal_actions(1)] == ["poke", "pass"], when
    st = game("it.flag").new_state(0)
    assert st.is_over()                 # the window stayed shut: b's item is not flagged


def test_setting_a_field_the_item_s_effect_does_not_declare_is_an_error():
    st = game("it.kind == b", "it.flag = true").new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(1, "poke")
    d = e.value.diagnostics[0]
    assert d.code == "E601" and d.message.startswith(
        "item #0 (b) has no field flag: its effect b does not declare it (test it.kind first")
    assert (d.span.line, d.span.col) == (10, 19)


def test_a_missing_int_field_in_a_comparison_names_the_item_and_the_field():
    with pytest.raises(RuleRuntimeError) as e:
        game("it.n < 1").new_state(0)
    d = e.value.diagnostics[0]
    assert d.message.startswith("item #0 (b) has no field n: its effect b does not declare it, so it reads none")
    assert "empty zone" not in d.message and (d.span.line, d.span.col) == (9, 23)
    with pytest.raises(RuleRuntimeError) as e:      # the same in a response's `+=`
        game("it.kind == b", "it.n += 1").new_state(0).apply(1, "poke")
    assert e.value.diagnostics[0].message.startswith("item #0 (b) has no field n")


def test_an_item_s_own_fields_are_set_as_before():
    g = load_text(SRC.replace("WHEN", "it.n < 1").replace("BODY", "it.n += 5").replace("activate b()", "activate a()"))
    st = g.new_state(0)
    st.apply(1, "poke")
    assert "#0.n = 5" in [e["text"] for e in st.view(None)["log"]] and st.is_over()


def test_a_missing_field_named_like_a_card_attribute_is_offered_beside_the_usual_reason():
    """`rank` is also the cards' attribute: the none may be a card's (`top(deck).rank`), so both are said."""
    src = SRC.replace(", n: int = 0", ", rank: int = 0").replace("WHEN", "it.rank < 1").replace("BODY", "seen += 1")
    with pytest.raises(RuleRuntimeError) as e:
        load_text(src).new_state(0)
    msg = e.value.diagnostics[0].message
    assert msg.startswith("a value the rule needed was none") and msg.endswith(
        "; or item #0 (b) has no field rank (its effect does not declare it)")
