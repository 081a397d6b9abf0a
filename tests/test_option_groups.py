"""Options groups (`options NAME(params) { … }`, `use NAME(args) [{ then }]`): the group's options
written out in each decision that uses it (tests/constructs/option_groups.fuda and its variant)."""

from __future__ import annotations

import json

import pytest

from interpreter.api import check_ruleset, load, load_text
from interpreter.engine.state import State
from interpreter.errors import FudaError

from .conftest import random_game
from .test_constructs import CONSTRUCTS, scenario_state

HANDS = """
setup:
  zones:
    "hand[P0]": [♠2, ♠K, ♥3, ♦4]
    "hand[P1]": [♥K, ♥Q, ♥2, ♣5]
    "hand[P2]": [♦K, ♦2, ♦3, ♣4]
"""


def ids(st: State, p: int) -> list[str]:
    return [a.id for a in st.legal_actions(p)]


def test_a_use_writes_the_options_out_in_place_with_the_arguments():
    st = scenario_state("option_groups", HANDS + "steps: []")
    # least left out: its default 1; the group's options first, then the choice's own
    assert ids(st, 0) == ["flash ♠2", "flash ♠K", "flash ♥3", "flash ♦4", "fold", "poke"]


def test_each_use_runs_its_own_block_after_the_option():
    st = scenario_state("option_groups", HANDS + "steps: [{P0: flash ♠2}]")
    assert st.view(None)["vars"]["at_least"] == 1
    assert st.view(None)["vars"]["flashes"] == {"P0": 1, "P1": 0, "P2": 0}
    # the offer's use gives least by position (12): only queens and kings
    assert ids(st, 1) == ["flash ♥K", "flash ♥Q", "fold", "pass"]


def test_a_window_takes_the_group_with_its_own_arguments_and_block():
    st = scenario_state("option_groups", HANDS + "steps: [{P0: poke}]")
    assert st.to_move() == [1]
    assert ids(st, 1) == ["flash ♥K", "flash ♥Q", "fold", "pass"]
    st.apply(1, "flash ♥Q")
    assert st.view(None)["vars"]["answers"] == 1


OPTIONAL = """
ruleset optional_use
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone table: pile public
options high(p: player, least: int) {
    flash c in hand[p] where c.rank >= least "flash {c}" { move c to table }
}
setup { move card("CARD") to hand[players[0]] }
phase play {
    choose players[0] optional { use high(players[0], 13) }
    end game
}
"""


def test_an_optional_choice_passes_only_while_a_used_option_is_legal():
    st = load_text(OPTIONAL.replace("CARD", "♠K")).new_state(1)
    assert ids(st, 0) == ["flash ♠K", "pass"]
    st = load_text(OPTIONAL.replace("CARD", "♠Q")).new_state(1)
    assert st.over      # nothing to take: not asked


def test_a_variant_overrides_the_group_once_for_every_use():
    st = scenario_state("option_groups_variant", HANDS + "steps: []")
    assert ids(st, 0) == ["flash ♥3", "flash ♦4", "burn ♠2", "burn ♠K", "burn ♥3", "burn ♦4", "wait", "poke"]
    st = scenario_state("option_groups_variant", HANDS + "steps: [{P0: poke}]")
    assert ids(st, 1) == ["flash ♥K", "flash ♥Q", "burn ♥K", "burn ♥Q", "burn ♥2", "burn ♣5", "wait", "pass"]


@pytest.mark.parametrize("name", ["option_groups", "option_groups_variant"])
def test_random_games_end_and_survive_a_save(name):
    g = load(str(CONSTRUCTS / f"{name}.fuda"))
    for seed in range(40):
        st = random_game(g, seed)
        assert st.over
        back = State.from_json(json.loads(json.dumps(st.to_json())), g)
        assert back.to_json() == st.to_json()


def test_a_mistake_in_a_group_is_reported_once_at_the_group():
    text = (CONSTRUCTS / "option_groups.fuda").read_text().replace("c.rank >= least", "c.rank >= lest")
    with pytest.raises(FudaError) as e:
        load_text(text, filename="g.fuda")
    unknown = [d for d in e.value.diagnostics if d.code == "E101"]
    assert len(unknown) == 1 and unknown[0].span.line == 15


def test_an_unused_group_is_warned():
    text = (CONSTRUCTS / "option_groups.fuda").read_text() + "\noptions spare(p: player) { nap \"nap\" { } }\n"
    g = load_text(text, filename="g.fuda")
    assert [(w.code, w.message) for w in g.prog.warnings] == [("W101", "options spare is never used")]


GROUPS = """ruleset scoped
players 3
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var n: int = 0
options inner(q: player) {
    point p in players where p == q "point at {p} (= {q})" { n += 1 }
}
options outer(p: player) { use inner(p) }
setup { }
phase play {
    choose players[0] "go" { use outer(players[0]) }
    offer p in players { use inner(p) }
    end game
}
"""


def test_a_groups_names_are_its_own():
    """qa10 B2c: `use inner(p)` put the caller's `p` where the group binds a `p` of its own: the
    `where` read `p == p`, and every player was offered."""
    st = load_text(GROUPS).new_state(1)
    assert [(a.id, a.label) for a in st.legal_actions(0)] == [("point P0", "point at P0 (= P0)")]
    with pytest.raises(FudaError) as e:     # a group reading the caller's local `p` it was not given
        load_text(GROUPS.replace("options outer(p: player) { use inner(p) }",
                                 'options outer(p: player) { use inner(p) }\noptions peek() { look "{size(hand[p])}" { } }')
                  .replace("offer p in players { use inner(p) }", "offer p in players { use peek() }"))
    assert [(d.code, d.span.line) for d in e.value.diagnostics] == [("E101", 11)]


# a table game's declarations, for the groups' scope tests below
TABLE = """ruleset g
players 2
cards standard(jokers = 0) in deck
zone deck: pile public
zone hand: hand per player owner
zone table: pile public
"""


def test_a_groups_binder_may_share_a_name_with_the_callers_local():
    """Cuttle newcomer B1: `let c = …` before `use plays(…)`, whose option binds `c`, was E109 once
    per option, at the group's lines."""
    st = load_text(TABLE + """options plays(p: player) {
    put c in hand[p] "put {c}" { move c to table }
}
setup { move [card("♠A")] to hand[players[0]]  move [card("♥2")] to deck }
phase play {
    let c = top(deck)
    choose players[0] { use plays(players[0]) }
    move c to table
    end game
}
""").new_state(1)
    assert [(a.id, a.label) for a in st.legal_actions(0)] == [("put ♠A", "put ♠A")]
    st.apply(0, "put ♠A")
    assert st.over


def test_an_enclosing_groups_or_rules_parameter_does_not_capture_a_nested_groups_binder():
    """qa11 B1, B4: `outer(p, c)` using `plays(p)`, whose option binds `c`, put outer's `c` (the deck's
    top) in place of the played card; a rule's parameter named like a group's binder was E109."""
    g = load_text(TABLE + """options plays(p: player) {
    play c in hand[p] where c.rank > 5 "play {c}" { move c to table  log "played {c}" }
}
options outer(p: player, c: card) {
    use plays(p) { log "outer saw {c}" }
}
rule again(c: card) {
    choose players[0] {
        use plays(players[0])
    } otherwise {
        log "again saw {c}"
    }
}
setup { move [card("♠10"), card("♠2")] to hand[players[0]]  move [card("♥K"), card("♦3")] to deck }
phase play {
    choose players[0] {
        use outer(players[0], top(deck))
    }
    again(bottom(deck))
    end game
}
""")
    st = g.new_state(1)
    assert [a.id for a in st.legal_actions(0)] == ["play ♠10"]
    st.apply(0, "play ♠10")
    texts = [e["text"] for e in st.view(None)["log"]]
    assert texts[-6:] == ['P0: play ♠10', '♠10: hand[P0] → table', 'played ♠10', 'outer saw ♦3', 'again saw ♠A', 'game over']


def test_a_wrong_argument_is_one_error_and_a_parameter_named_twice_is_e102():
    with pytest.raises(FudaError) as e:
        load_text(GROUPS.replace("use outer(players[0])", "use outer(3)"))
    assert [d.code for d in e.value.diagnostics] == ["E201"]
    with pytest.raises(FudaError) as e:
        load_text(GROUPS.replace("options outer(p: player)", "options outer(p: player, p: int = 1)"))
    assert e.value.diagnostics[0].code == "E102"
    with pytest.raises(FudaError) as e:     # qa11 P4: a parameter named like a global, as for a rule
        load_text(GROUPS.replace("options outer(p: player)", "options outer(p: player, deck: int = 1)"))
    assert [(d.code, d.message) for d in e.value.diagnostics][:1] == [("E109", "deck hides the global deck "
                                                                        "(declared at <ruleset>.fuda:4:1)")]
    with pytest.raises(FudaError) as e:     # qa11 P5: a rule taken in with use
        load_text(GROUPS.replace("use outer(players[0])", "use tell_it(players[0])") + "rule tell_it(p: player) { }\n")
    assert (e.value.first.code, e.value.first.hint) == ("E101", "tell_it is a rule: call it in a block, tell_it(…)")


@pytest.mark.parametrize("where, at", [
    ('phase play {\n    use outer(players[0])\n    end game\n}', (13, 5)),                     # a statement
    ('phase play {\n    choose players[0] { x "x" { use outer(players[0]) } }\n    end game\n}', (13, 33)),
    ('phase play {\n    n = use outer(players[0])\n    end game\n}', (13, 9)),                 # a value
    ('phase play {\n    use outer\n    end game\n}', (13, 5)),
    ('phase play {\n    use outer(players[0]) { n = 1 }\n    end game\n}', (13, 5)),         # with a then-block
    ('fn f() -> int = use outer(players[0])\nphase play {\n    n = f()\n    end game\n}', (12, 17)),
])
def test_a_use_out_of_place_is_one_error_that_says_where_use_goes(where: str, at: tuple[int, int]):
    """qa10 P2: read as the name `use` and a call, it gave two errors, neither about groups."""
    text = GROUPS.replace("phase play {\n    choose players[0] \"go\" { use outer(players[0]) }\n"
                          "    offer p in players { use inner(p) }\n    end game\n}", where)
    with pytest.raises(FudaError) as e:
        load_text(text, filename="g.fuda")
    assert [(d.code, d.message, (d.span.line, d.span.col)) for d in e.value.diagnostics] \
        == [("E309", "`use outer(…)` stands among a decision's options", at)]
    assert "choose p { use outer(…) }" in (e.value.diagnostics[0].hint or "")


TAKEN = """ruleset taken
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var n: int = 0
options g(p: player) { x "x" { n += 1 } }
options b(p: player) { y "y" { break } }
setup { }
phase play {
    repeat 2 { choose players[0] { use b(players[0]) } }
    choose players[1] { use g(players[0]) use g(players[1]) }
    choose players[0] { use b(players[0]) }
    choose players[0] optional { use h() }
    choose players[0] hidden { use g(players[0]) z "z" { } }
    end game
}
options h() { pass "pass" { } x "x" { } }
"""


def test_a_mistake_only_one_use_makes_is_at_that_use():
    """qa10 P1: option twice because of two `use`s, a group's break where one use is outside a
    loop, a pass in a group an optional choice uses: the error was at the group's line, which is
    right for its other uses, and the decision was not named."""
    with pytest.raises(FudaError) as e:
        load_text(TAKEN, filename="t.fuda")
    assert [(d.code, d.span.line, d.span.col) for d in e.value.diagnostics] \
        == [("E102", 13, 34), ("E102", 11, 43), ("E304", 12, 25)]
    assert "options g is used twice (also at t.fuda:11:25)" in e.value.diagnostics[1].message
    assert "options b has one, at t.fuda:7:32" in e.value.diagnostics[2].message
    assert "options h has one too, at t.fuda:17:15" in e.value.diagnostics[0].message


NESTED_TWICE = """ruleset twice
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
options inner(p: player) { flash c in hand[p] "flash {c}" { } }
options outer(p: player) {
    use inner(p)
    use inner(p)
    fold "fold" { }
}
setup { deal 2 from deck to hand }
phase play {
    choose players[0] { use outer(players[0]) }
    choose players[1] { use outer(players[1]) }
    end game
}
"""


def test_a_group_used_twice_inside_another_is_an_error_at_the_second_use():
    """One group used twice in another put its options twice in each decision: E102 was at the inner
    group's option, naming neither use; it is at the second `use` inside the group, once however
    many decisions use it (and not at all for a group no decision uses: W101 only)."""
    with pytest.raises(FudaError) as e:
        load_text(NESTED_TWICE, filename="t.fuda")
    assert [(d.code, d.span.line, d.span.col) for d in e.value.diagnostics] == [("E102", 9, 5)]
    assert e.value.diagnostics[0].message == ("options inner is used twice in options outer (also at t.fuda:8:5): "
                                              "each decision that uses outer would have its options twice")
    unused = NESTED_TWICE.replace("use outer(players[0])", 'x "x" { }').replace("use outer(players[1])", 'y "y" { }')
    assert [w.code for w in load_text(unused).prog.warnings] == ["W101"]


def test_a_warning_in_a_group_names_the_hidden_decision_that_uses_it():
    text = TAKEN.replace('options g(p: player) { x "x" { n += 1 } }', 'options g(p: player) { x "x" { log "x" } }')
    text = "\n".join(x for x in text.splitlines() if "use g(players[0]) use g" not in x and "use b" not in x
                     and "use h" not in x and "options b" not in x and "options h" not in x)
    warns = [w for w in load_text(text, filename="t.fuda").prog.warnings if w.code == "W104"]
    assert len(warns) == 1 and warns[0].span.line == 6
    assert warns[0].message.endswith("(options g, used at t.fuda:9:32)")


HOOK = """ruleset hook
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var n: int = 0
options hook(p: player) { }
effect fx "FX" { n += 1 }
window w "w" (it, p) responders players { use hook(p) }
windows w
setup { deal 2 from deck to hand }
phase play {
    choose players[0] { use hook(players[0]) go "go" { activate fx by players[0] } }
    end game
}
"""


@pytest.mark.parametrize("decision", ["choose players[0] { use hook(players[0]) }",
                                      "offer p in players { use hook(p) }",
                                      "simultaneous p in players { use hook(p) }"])
def test_an_empty_group_is_a_hook_but_a_decision_needs_an_option(decision: str):
    """qa10 P3: beside other options, or in a window (which offers pass by itself), an empty group
    is a hook for a variant; a decision left with no option at all is E309, as `choose p { }` is."""
    st = load_text(HOOK).new_state(1)
    assert ids(st, 0) == ["go"]
    with pytest.raises(FudaError) as e:
        load_text(HOOK.replace("    end game", f"    {decision}\n    end game"))
    assert [(d.code, d.span.line) for d in e.value.diagnostics] == [("E309", 14)]


@pytest.mark.parametrize("override, code, line, message", [
    ("override options quick(p: player, most: int = 1) { x c in hand[p] \"x\" { } }",
     "E207", 25, "options quick has no parameter least — because of the override at v.fuda:3:1"),
    ("override options quick(p: player, least: int) { x c in hand[p] \"x\" { } }",
     "E202", 37, "options quick needs least — because of the override at v.fuda:3:1"),
    ("override options quick(p: player, least: int = 1) { poke \"poke\" { } }",
     "E102", 38, "options quick (at option_groups.fuda:37:13) has one, and so has the decision itself — because "
                 "of the override at v.fuda:3:1"),
    ("override options quick(p: player, least: int = 1) { }",
     "E309", 40, "the groups it uses have none — because of the override at v.fuda:3:1"),
    ("override options quick(p: player, least: int = 1) { x \"x\" { break } }",     # qa11 D4
     "E304", 37, "break outside a loop: options quick has one, at v.fuda:3:61 — because of the override at v.fuda:3:1"),
])
def test_an_override_that_breaks_the_bases_uses_is_named(tmp_path, monkeypatch, override, code, line, message):
    """qa10 D2: a renamed parameter, a dropped default, an option named like a using decision's,
    no options left: the error is at the base's `use`, which the variant's author cannot edit."""
    (tmp_path / "option_groups.fuda").write_text((CONSTRUCTS / "option_groups.fuda").read_text())
    (tmp_path / "v.fuda").write_text(f'ruleset v\nextends "option_groups.fuda"\n{override}\n')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FudaError) as e:
        check_ruleset("v.fuda")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.file) == (code, line, "option_groups.fuda") and message in d.message
