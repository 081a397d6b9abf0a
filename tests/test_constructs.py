"""Unit tests for every construct family of the rules language, on tiny rulesets in tests/constructs/.

Scenario files in tests/scenarios/ cover what a scenario can say; these tests use the Python API for
the rest: views, logs per viewer, labels, errors, JSON round trips, clones, determinism.
"""

from __future__ import annotations

import json
import random
import textwrap
from typing import Any

import pytest

from interpreter.api import load, load_text
from interpreter.engine.observe import full_view, remembered, render_event
from interpreter.engine.state import State
from interpreter.errors import FudaError, IllegalAction, RuleRuntimeError
from interpreter.load import load_source
from interpreter.runner.render import render
from interpreter.runner.scenario import Runner, parse_scenario

from .conftest import ROOT, random_game

CONSTRUCTS = ROOT / "tests" / "constructs"


# ------------------------------------------------------------------ helpers
def game(name: str, **options: Any):
    return load(str(CONSTRUCTS / f"{name}.fuda"), options)


def scenario_state(name: str, yaml_text: str) -> State:
    """A state built by a scenario snippet (setup edits and steps) on tests/constructs/NAME.fuda."""
    text = f"ruleset: {name}.fuda\n" + textwrap.dedent(yaml_text)
    sc, loc = parse_scenario(text, str(CONSTRUCTS / f"<inline {name}>.yaml"))
    r = Runner(sc, loc, CONSTRUCTS)
    r.run()
    return r.st


def log_texts(st: State, viewer: Any = "all", lang: int = 0) -> list[str]:
    out = []
    for ev in st.ev:
        r = render_event(st, ev, viewer, lang)
        if r is not None:
            out.append(r["text"])
    return out


def view_log(st: State, p: int | None) -> list[str]:
    return [e["text"] for e in st.view(p)["log"]]


def ids(st: State, p: int) -> list[str]:
    return [a.id for a in st.legal_actions(p)]


def vars_of(st: State, viewer: int | None = None) -> dict[str, Any]:
    return st.view(viewer)["vars"]


def zone_cards(st: State, zone: str, viewer: int | None = None) -> list[str | None]:
    return st.view(viewer)["zones"][zone]["cards"]


def full_zone(st: State, name: str) -> list[str]:
    """The true contents of a zone (bottom → top), whatever anyone may see."""
    g = st.game
    for slot in list(range(g.static_slots)) + [s for q in st.sq for s in q]:
        if g.zone_name(st, slot) == name:
            return [g.card_names[c] for c in st.z[slot]]
    raise KeyError(name)


def saved(st: State) -> dict[str, Any]:
    """to_json through real JSON text."""
    return json.loads(json.dumps(st.to_json(), ensure_ascii=False))


# ================================================================== 1. cards & decks
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_standard_deck_size_and_jokers_follow_the_option(jokers):
    g = game("deck_standard", jokers=jokers)
    assert g.ncards == 52 + jokers
    assert g.card_names[:3] == ["♠A", "♠2", "♠3"]
    assert g.card_names[52:] == [f"JK{i + 1}" for i in range(jokers)]
    st = g.new_state(0)
    v = vars_of(st)
    assert v["n_cards"] == 52 + jokers
    assert v["n_jokers"] == jokers
    assert v["n_spades"] == 13
    assert v["rank_sum"] == 4 * sum(range(1, 14))      # Jokers count 0
    assert v["n_red"] == 26 + (1 if jokers >= 1 else 0)  # JK1 is red, JK2 black
    assert v["queen"] == [12, 1]
    if jokers >= 1:
        assert v["jk1_colour"] == "red" and v["jk_rank"] == 0 and v["jk_suitless"] is True
    else:
        assert v["jk1_colour"] is None and v["jk_rank"] == -1
    assert v["jk2_colour"] == ("black" if jokers == 2 else None)


def test_a_card_label_from_a_text_value_holding_both_halves_gives_each_language_its_own():
    """newcomer49 P1: `card "{g[0]}" "{g[2]}"` with g[2] = "Apple | りんご" labelled the card with
    the whole text in English, and the options naming it were cut at the card's bar ("take Apple")."""
    st = load_text(textwrap.dedent("""
        ruleset bar_label
        players 2
        cards {
            for g in [("a", "Apple | りんご"), ("b", "Bean | 豆")] { card "{g[0]}" "{g[1]}" }
        } in deck
        zone deck: pile public
        zone hand: hand per player owner
        setup { }
        phase play {
            choose players[0] {
                take cs in [cards(deck)] "take {cs} | {cs} を取る" { move cs to hand[players[0]] }
                one c in deck "take {c} alone | {c} だけ取る" { move c to hand[players[0]] }
            }
        }
        """)).new_state(0)
    assert [a.label for a in st.legal_actions(0)] == [
        "take Apple Bean | りんご 豆 を取る", "take Apple alone | りんご だけ取る", "take Bean alone | 豆 だけ取る"]
    assert st.view(0)["labels"] == {"a": "Apple", "b": "Bean"} and st.view(0, lang=1)["labels"] == {"a": "りんご", "b": "豆"}


@pytest.mark.parametrize("card_line", ['card "Apple | りんご"', 'for g in [("a", "Apple | りんご")] { card "{g[1]}" }'])
def test_a_card_name_in_two_languages_is_refused(card_line):
    """A name is the card's id: written in two halves its Japanese half was dropped unsaid; taken
    from a text value holding " | " it cut every option naming the card ("take Apple | りんご alone")."""
    with pytest.raises(FudaError) as info:
        load_text(f"ruleset bar_name\nplayers 2\ncards {{\n    {card_line}\n}} in deck\nzone deck: pile public\n"
                  "setup { }\nphase play { }\n")
    d = info.value.first
    assert d.code == "E309" and "a card's name is its id, one text in every language" in d.message
    assert 'card "apple" "Apple | りんご"' in (d.hint or "")


def test_cards_with_labels_are_read_by_their_labels_and_named_by_their_names():
    """A card's label ("Pine bright | 松に光") is how players read it, in their language: option
    labels, prompts, logs, events and the screen; its name stays its id (actions, scenarios, saves)."""
    g = game("card_labels")
    st = g.new_state(0)
    legal = st.legal_actions(0)
    assert [a.id for a in legal] == ["play plain", "play 桜に光"]
    assert legal[1].label == "play Cherry bright | 桜に光 を出す"
    assert st.view(0)["decision"]["prompt"] == "Play one of plain, Cherry bright | plain 桜に光 から出す"
    assert st.view(0)["labels"]["桜に光"] == "Cherry bright" and "plain" not in st.view(0)["labels"]
    assert st.view(0, lang=1)["labels"] == {}       # the Japanese labels are the names
    assert st.view(0)["zones"]["hand[P0]"]["cards"] == ["plain", "桜に光"]
    st.apply(0, "play cherry bright")           # the label as the menu shows it, in any case
    assert view_log(st, 1)[-4:-1] == ["P0: play Cherry bright", "Cherry bright: hand[P0] → table",
                                      "P0 plays Cherry bright"]
    ja = [e["text"] for e in st.view(1, lang=1)["log"]]
    assert "P0 は 桜に光 を出した" in ja and "桜に光: hand[P0] → table" in ja
    st2 = g.new_state(0)
    st2.apply(0, "play 桜に光")                   # by its name, as scenarios and saved games do
    assert st2.to_json()["z"] == st.to_json()["z"]


@pytest.mark.parametrize("decks", [2, 3])
def test_several_standard_decks_keep_their_cards_apart(decks):
    g = game("deck_standard", jokers=2, decks=decks)
    assert g.ncards == 52 * decks + 2
    assert g.card_names[51:54] == ["♣K", "♠A#2", "♠2#2"] and g.card_names[-2:] == ["JK1", "JK2"]
    assert len(set(g.card_names)) == g.ncards
    for alias, name in [("SA#2", "♠A#2"), ("S1#2", "♠A#2"), ("SA", "♠A"), ("DQ#2", "♦Q#2")]:
        assert g.card_names[g.card_index[alias]] == name
    v = vars_of(g.new_state(0))
    assert v["n_spades"] == 13 * decks and v["n_second"] == 52 and v["n_jokers"] == 2
    assert v["rank_sum"] == 4 * decks * sum(range(1, 14))


def test_a_further_decks_copies_read_and_are_typed_as_their_faces():
    """newcomer51 P5: a shoe's cards read `♣J#3` in logs, menus and on the screen. A copy keeps its
    name as its id (`play ♠A#2`, scenario files, saved games) and reads as the card it is."""
    st = scenario_state("deck_copies", """
        setup: {zones: {"hand[P0]": [♥5, "♠A#2"]}}
    """)
    acts = st.legal_actions(0)
    assert [(a.id, a.label) for a in acts] == [("play ♥5", "play ♥5"), ("play ♠A#2", "play ♠A")]
    st.apply(0, "play ♠A")          # as the menu reads it: the copy in the hand
    assert full_zone(st, "table") == ["♠A#2"]
    assert {"♠A: Hand[P0] → table", "P0: play ♠A"} <= set(view_log(st, 1))
    assert zone_cards(st, "table", 1) == ["♠A#2"] and st.view(1)["labels"] == {"♠A#2": "♠A"}
    assert "♠A" in render(st.view(1)) and "#2" not in render(st.view(1))      # the screen


def test_a_scenario_step_plays_the_copy_it_names():
    """newcomer50 P6: `- P0: keep bl2` moved bl1, the copy `distinct` offered, silently. A step
    naming a copy that is not the action's is refused, and counts as refused under `illegal: true`;
    a copy's face (its label, ♠A for ♠A#2) names it. `distinct` takes a double deck's two ♠A for
    one face (newcomer53 P1)."""
    with pytest.raises(FudaError) as e:
        scenario_state("deck_copies", """
            setup: {zones: {"hand[P0]": [♠A, "♠A#2"]}}
            steps:
              - expect: {legal: [play ♠A]}
              - P0: play ♠A#2
        """)
    d = e.value.first
    assert d.code == "E602" and "'play ♠A#2' would play another copy of ♠A#2: it reads as 'play ♠A'" in d.message
    assert d.hint == 'name the copy the action plays: "P0: play ♠A"'
    st = scenario_state("deck_copies", """
        setup: {zones: {"hand[P0]": [♠A, "♠A#2"]}}
        steps:
          - {act: "P0: play SA#2", illegal: true}
          - P0: play ♠A
    """)
    assert full_zone(st, "table") == ["♠A"]
    st = scenario_state("deck_copies", """
        setup: {zones: {"hand[P0]": [♥5, "♠A#2"]}}
        steps:
          - P0: play ♠A
    """)
    assert full_zone(st, "table") == ["♠A#2"]


def test_a_loop_that_shuffles_a_stacked_pile_until_it_changes_is_told_why_it_never_ends():
    """newcomer52 P1: Citadels' "the King is never discarded face up" reshuffled until the top card
    changed; a scenario stacking the King there ran a million rounds and said only that the loop's
    condition never changed. The error says the scenario's stack holds the cards in place."""
    with pytest.raises(RuleRuntimeError) as e:
        scenario_state("reshuffle_until", """
            stacked: {deck: {top: [k]}}
            steps:
              - P0: ok
        """)
    d = e.value.first
    assert "a million times" in d.message and d.hint is not None and d.hint.startswith(
        "the scenario stacks deck: its shuffles keep those cards in place until play's first decision")


def test_label_in_a_function_reads_the_language_of_the_text_that_calls_it():
    """newcomer52 P2: a piece of a `show` text shared by both halves through a function showed
    `荘園 (Noble)`: `label(x)` in a function read the English half whatever text called it. Inlined
    or not (`long_note` has named steps), through another function, in a show text, a log and a label."""
    g = game("label_in_fn")
    st = g.new_state(0)
    en, ja = st.view(0, lang=0), st.view(0, lang=1)
    assert en["labels"] == {"m1": "Manor (Noble)", "t1": "Tavern (Trade)"}
    assert ja["labels"] == {"m1": "荘園 (貴族)", "t1": "酒場 (商業)"}
    assert " (Noble) (Trade, 2)" in [e["text"] for e in en["log"]]
    assert " (貴族) (商業, 2)" in [e["text"] for e in ja["log"]]
    assert [a.label for a in st.legal_actions(0)] == ["ok  (Trade) | ok  (商業)"]
    assert vars_of(st, 0)["kept"] == " (Noble, 2)"      # outside a text: the first half, as before
    # qa36: a function of another result (a count of the cards whose label reads "Noble") called
    # from the Japanese half counted none there
    assert "nobles 1" in [e["text"] for e in en["log"]] and "貴族 1" in [e["text"] for e in ja["log"]]


def test_insert_after_or_before_a_zone_puts_the_new_one_beside_it():
    """newcomer51 P2: a split hand went to the back of the row of hands, not beside the hand it was
    split from. `insert SEQ after Z as NAME` / `before Z`, and `insert ZONE into SEQ after Z`."""
    st = game("insert_beside").new_state(0)
    row = st.view(None)["sequences"]["hands[P0]"]
    dealt = [e["text"].split(":")[0] for e in st.view(None)["log"] if e["kind"] == "move"]
    assert [dealt.index(full_zone(st, z)[-1]) for z in row] == [3, 0, 2, 4, 1]     # d a c spare b
    texts = [e["text"] for e in st.view(None)["log"] if e["kind"] == "insert"]
    assert texts[2:] == ["a new zone after Hands[P0][0]", "a new zone before Hands[P0][0]",
                         "spare after Hands[P0][2]"]
    again = State.from_json(json.loads(json.dumps(st.to_json())), st.game)
    assert [e["text"] for e in again.view(None)["log"]] == [e["text"] for e in st.view(None)["log"]]
    with pytest.raises(RuleRuntimeError) as e:
        game("insert_beside", stray=True).new_state(0)
    assert "insert … after a zone that is not in this sequence" in e.value.first.message


def test_a_card_picked_in_secret_and_seen_landing_leaves_the_peeks_at_the_rest():
    """newcomer53 P8: a partner who knew the bidder's hand forgot all of it when the bidder passed
    cards back in secret, though the partner sees which cards arrive. Whoever sees a secretly
    picked card land knows which card left: they keep the rest; a card buried unseen still makes
    every peek at that hand forgotten."""
    st = scenario_state("peek_handed", """
        setup: {zones: {"hand[P1]": [♠A, ♠2, ♠3]}}
        steps:
          - P1: give ♠A
    """)
    assert sorted(c for c in zone_cards(st, "hand[P1]", 0) if c) == ["♠2", "♠3"]
    assert zone_cards(st, "hand[P1]", 2) == [None, None]
    st.apply(1, "bury ♠2")
    assert zone_cards(st, "hand[P1]", 0) == [None]


def test_a_scenario_checks_a_list_variable_in_part():
    """newcomer54 P7: a team of five picked in any order could be checked only as the exact list.
    `vars: {team: {contains: […], excludes: […], size: N}}`, also per player."""
    scenario_state("list_vars", """
        steps:
          - expect:
              vars:
                team: {contains: [P0, P2], excludes: [P1], size: 2}
                tricks: {P1: {contains: [4, 3], size: 3}, P0: {size: 0}}
    """)
    for spec, said in (("team: {contains: [P1]}", "team: missing P1; found [P2, P0]"),
                       ("team: {excludes: [P2]}", "team: should not hold P2"),
                       ("tricks: {P1: {size: 2}}", "tricks[P1]: expected 2 items, found 3"),
                       # qa36b: a misspelt or empty check passed, or read as the whole list; a
                       # single item was read letter by letter; a size in quotes failed as 2 ≠ 2
                       ("team: {contain: [P1]}", "team: a list is checked whole ([…]) or in part by"),
                       ("team: {}", "team: a list is checked whole"),
                       ("team: {contains: [P0], exact: 2}", "team: a list is checked whole"),
                       ("team: {contains: P0}", "team: contains takes a list ([…]); got P0"),
                       ("tricks: {P1: {excludes: 4}}", "tricks[P1]: excludes takes a list"),
                       ("team: {size: '2'}", "team: size is a number of items; got '2'"),
                       ("n: {size: 0}", "n is not a list: contains, excludes and size check a list")):
        with pytest.raises(FudaError) as e:
            scenario_state("list_vars", f"""
                steps:
                  - expect: {{vars: {{{spec}}}}}
            """)
        assert said in e.value.first.message, e.value.first.message


@pytest.mark.parametrize(("step", "table", "south"), [("build Gold Mine", ["gm"], ["g"]),
                                                      ("meld Gold Mine Silver", ["gm", "s1"], ["g"]),
                                                      ("give Gold Mine South", [], ["g", "gm"]),
                                                      ("give gm North", [], ["g"])])
def test_a_scenario_step_naming_its_cards_by_labels_or_seats_is_not_taken_for_another_card(step, table, south):
    """qa36: a step was read word by word for the cards it names, so the label "Gold Mine" named
    the card labelled "Gold", and the seat North the card named North: the step was refused (E602)
    as playing another copy. It is read as the action is found: labels and seats of several words
    whole, a seat's name the seat."""
    st = scenario_state("step_labels", f"steps: [{{act: \"P0: {step}\"}}]")
    assert full_zone(st, "table") == table and full_zone(st, "hand[P1]") == south


def test_a_decision_with_no_legal_option_says_whose_and_which_options():
    """newcomer55 P9: "no option of this decision is legal" left the designer to work out whose
    decision it was and which options it had."""
    g = load_text("ruleset noopt\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                  "zone hand: hand per player owner\nsetup { }\nphase play {\n"
                  '    choose players[1] { play c in hand[players[1]] "play {c}" { }  pass where size(deck) == 0 "pass" { } }\n}\n')
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    assert e.value.first.message == ("no option of this decision of P1 is legal (play, pass: each one's where is "
                                     "false, or it has no values to offer) and it has no otherwise")
    # qa36b: a named seat by its name (and id), options put there by `use`, in a rule
    g = load_text("ruleset noopt\nplayers 2 seats \"North\", \"South\"\ncards standard() in deck\n"
                  "zone deck: pile hidden\nzone hand: hand per player owner\n"
                  'options acts(p: player) { play c in hand[p] "play {c}" { } }\n'
                  'rule ask(p: player) { choose p { use acts(p)  pass where size(deck) == 0 "pass" { } } }\n'
                  "setup { }\nphase play { ask(players[1]) }\n")
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    assert e.value.first.message.startswith("no option of this decision of South (P1) is legal (play, pass: ")


@pytest.mark.parametrize(("shown", "give", "left"), [("♠3", "♠A", ["♠3"]), ("♠3", "♠A#2", ["♠3"]),
                                                     ("♠A#2", "♠A", ["♠A#2"]), ("♠A#2", "♠A#2", ["♠A"]),
                                                     ("♠4", "♠3", ["♠4", "♠A"])])
def test_a_copy_seen_landing_does_not_say_which_copy_left(shown, give, left):
    """qa36b: P0 was shown P1's ♠A (and one more card); P1 hands over a ♠A in secret. Seeing a ♠A
    land does not tell whether it was the one shown or P1's other copy: kept, the peek showed a ♠A
    still in P1's hand exactly when P1 had two. Shown both ♠A, P0 knows one is left, whichever went
    (Pinochle's partner who passed both ♦K and got one back); a card of another face handed over
    leaves the peeks. The bots' recall forgets a copy's twins there too."""
    st = scenario_state("peek_handed_twin", f"""
        setup: {{zones: {{"hand[P1]": [♠A, ♠A#2, ♠3, ♠4], "hand[P0]": [♥A, ♥2, ♥3]}}}}
        steps:
          - P1: show ♠A
          - P1: show {shown}
          - P1: give {give}
    """)
    assert sorted(c for c in zone_cards(st, "hand[P1]", 0) if c) == left
    assert remembered(st, 0) == set()


@pytest.mark.parametrize(("short", "size", "first"), [(True, 24, ["♠A", "♠9", "♠10"]), (False, 52, ["♠A", "♠2", "♠3"])])
def test_a_standard_deck_stripped_to_some_ranks(short, size, first):
    """`standard(ranks = …)`: the 36-, 32- or 24-card decks of Durak, Piquet, Euchre; the ranks may
    come from an option, the names and ASCII aliases stay the standard ones."""
    g = load_text(textwrap.dedent(f"""
        ruleset stripped
        players 2
        option short: bool = {str(short).lower()}
        cards standard(ranks = if short then [1] + (9..13) else 1..13) in deck
        zone deck: pile hidden
        setup {{ }}
        phase play {{ end game }}
    """))
    assert g.ncards == size and g.card_names[:3] == first
    assert g.card_names[g.card_index["H9" if short else "H2"]] == ("♥9" if short else "♥2")
    ranks = {g.prog.cards.attrs["rank"][c] for c in range(g.ncards)}
    assert ranks == ({1, 9, 10, 11, 12, 13} if short else set(range(1, 14)))


def test_a_custom_deck_named_with_suit_symbols_takes_ascii_aliases():
    g = load_text(textwrap.dedent("""
        ruleset custom_suits
        players 2
        enum Suit { ♠, ♥ }
        cards {
            attr suit: Suit
            for s in [♠, ♥] { for r in ["6", "A"] { card "{s}{r}" suit = s } }
            card "S6x"
        } in deck
        zone deck: pile hidden
        var first: card = none
        setup { first = card("S6") }
        phase play { end game }
    """))
    assert g.card_names[g.card_index["S6"]] == "♠6" and g.card_names[g.card_index["HA"]] == "♥A"
    assert vars_of(g.new_state(0))["first"] == "♠6"


def test_standard_deck_card_variables_start_at_their_default():
    st = game("deck_standard").new_state(0)
    # only ♦Q was changed, and the deck is hidden: card variables show for visible cards only
    assert st.view(None)["card_vars"] == {}
    g = st.game
    marked = next(v for v in g.prog.vars if v.name == "marked")
    tally = next(v for v in g.prog.vars if v.name == "tally")
    q = g.card_index["♦Q"]
    assert st.g[marked.slot + q] is True and st.g[tally.slot + q] == 2
    assert sum(1 for c in range(g.ncards) if st.g[marked.slot + c]) == 1


def test_ascii_aliases_name_the_same_cards():
    g = game("deck_standard", jokers=2)
    for alias, name in [("SA", "♠A"), ("S1", "♠A"), ("H10", "♥10"), ("DQ", "♦Q"), ("D12", "♦Q"), ("CK", "♣K"),
                        ("Joker1", "JK1"), ("Joker2", "JK2")]:
        assert g.card_names[g.card_index[alias]] == name
    assert "Joker" not in g.card_index           # ambiguous with two Jokers
    assert game("deck_standard", jokers=1).card_index["Joker"] == game("deck_standard", jokers=1).card_index["JK1"]


def test_ascii_aliases_in_actions():
    st = scenario_state("deck_standard", """
        setup: {zones: {table: [♥10, ♠A]}}
    """)
    st.apply(0, "mark H10")
    assert st.view(None)["card_vars"]["♥10"] == {"marked": True, "tally": 1}


def test_custom_deck_attributes_and_fractional_values():
    g = game("deck_custom")
    assert g.ncards == 17
    assert g.card_names[:6] == ["purple1", "purple2", "purple3", "purple4", "purple5", "red1"]
    assert g.card_names[-2:] == ["2+", "half"]
    v = vars_of(g.new_state(0))
    assert v == {"n_cards": 17, "total": 48, "n_red": 5, "n_special": 2, "biggest": 5}
    assert ids(g.new_state(0), 0) == ["play 2+", "done"]


@pytest.mark.parametrize(("max_value", "specials", "size"), [(3, False, 9), (3, True, 11), (7, False, 21), (7, True, 23)])
def test_custom_deck_size_depends_on_options(max_value, specials, size):
    g = game("deck_custom", max_value=max_value, specials=specials)
    assert g.ncards == size
    assert vars_of(g.new_state(0))["n_cards"] == size


def test_card_literal_must_name_a_card():
    with pytest.raises(FudaError) as e:
        load_text(textwrap.dedent("""
            ruleset bad
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            setup { }
            phase play { move card("JK1") to deck }
        """))
    assert e.value.first.code == "E108"


@pytest.mark.parametrize("players, names", [
    (2, ["aA", "aJ", "bA", "bJ"]),
    (4, ["aA", "aJ", "bA", "bJ", "starA", "starJ"]),
])
def test_a_deck_may_depend_on_the_number_of_players_and_read_tuples(players, names):
    text = (ROOT / "tests" / "errors" / "type_players_count_in_deck.fuda").read_text(encoding="utf-8")
    text = text.replace("if players >= 4", "if size(players) >= 4").replace(
        "setup { }", 'setup {\n    log "{sum([c.value for c in deck])}"\n}')
    g = load_text(text, {"players": players})
    assert g.card_names == names
    assert [e["text"] for e in g.new_state(0).view(None)["log"] if e["kind"] == "log"] == [str(6 * len(names))]


# ================================================================== 2. zones & visibility
def test_owner_hand_hidden_from_others_but_counted():
    st = game("zones").new_state(0)
    for p in range(3):
        v = st.view(p)
        for q in range(3):
            hand = v["zones"][f"hand[P{q}]"]
            assert hand["size"] == 2
            if q == p:
                assert None not in hand["cards"]
                assert hand["cards"] == full_zone(st, f"hand[P{q}]")
            else:
                assert hand["cards"] == [None, None]
    spectator = st.view(None)["zones"]
    assert all(spectator[f"hand[P{q}]"]["cards"] == [None, None] for q in range(3))
    assert spectator["deck"]["size"] == 52 - 9 and set(spectator["deck"]["cards"]) == {None}


def test_others_zone_visible_to_everyone_but_its_owner():
    st = game("zones").new_state(0)
    for p in range(3):
        v = st.view(p)["zones"]
        for q in range(3):
            shown = v[f"forehead[P{q}]"]["cards"]
            assert shown == ([None] if p == q else full_zone(st, f"forehead[P{q}]"))
    assert all(st.view(None)["zones"][f"forehead[P{q}]"]["cards"] == [None] for q in range(3))


def test_revealed_card_in_hand_is_public_until_it_moves():
    st = game("zones").new_state(0)
    a, b = full_zone(st, "hand[P0]")
    st.apply(0, f"show {a}")
    for p in (None, 1, 2):
        assert zone_cards(st, "hand[P0]", p) == [a, None]
    st.apply(0, f"play {a}")                     # to the public table: still visible, now as public
    assert zone_cards(st, "table", None) == [a]
    st.apply(0, "stash")                          # something else; then b is revealed to P2 only
    st.apply(0, f"whisper {b} P2")
    assert zone_cards(st, "hand[P0]", 2) == [b]
    assert zone_cards(st, "hand[P0]", 1) == [None]
    assert zone_cards(st, "hand[P0]", None) == [None]
    st.apply(0, f"bury {b}")                      # moving forgets the reveal
    assert zone_cards(st, "deck", 2)[0] is None
    assert full_zone(st, "deck")[0] == b
    assert f"{b}: Hand[P0] → Deck (bottom)" in log_texts(st)


def test_reveal_to_one_player_shows_in_their_log_only():
    st = game("zones").new_state(0)
    a = full_zone(st, "hand[P0]")[0]
    st.apply(0, f"whisper {a} P1")
    assert f"reveal {a} to P1" in view_log(st, 1)
    assert not any("reveal" in t for t in view_log(st, 2))
    assert not any("reveal" in t for t in view_log(st, None))


def test_reveal_to_a_list_of_players():
    st = game("zones", players=3).new_state(0)
    a, b = full_zone(st, "hand[P0]")
    st.apply(0, f"flash {b}")
    assert zone_cards(st, "hand[P0]", 1) == [None, b] and zone_cards(st, "hand[P0]", 2) == [None, b]
    assert zone_cards(st, "hand[P0]", None) == [None, None]
    assert f"reveal {b} to P1, P2" in view_log(st, 1)
    assert not any("reveal" in t for t in view_log(st, None))


def test_revealed_to_one_player():
    """Cuttle newcomer: a hand shown to one opponent while a permanent lies on the table; with only
    `revealed(c)` (to everyone) the check could never see its work done and fired for ever."""
    g = load_text(textwrap.dedent("""
        ruleset shown
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        var n: int = 0
        var dealt: bool = false
        check glasses when dealt and any c in hand[players[0]] where not revealed(c, players[1]) {
            reveal hand[players[0]] to players[1]
            n += 1
        }
        setup { deal 2 from deck to hand  dealt = true }
        phase play { choose players[0] {
            tell c in hand[players[0]] where revealed(c, players[1]) and not revealed(c, players[2])
                and not revealed(c) { end game }
        } }
        """))
    st = g.new_state(1)
    assert vars_of(st)["n"] == 1 and len(g.legal_actions(st, 0)) == 2
    assert zone_cards(st, "hand[P0]", 2) == [None, None]
    with pytest.raises(FudaError) as e:         # qa11 P3: nobody's eyes
        load_text(textwrap.dedent("""
            ruleset r
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            setup { }
            phase play { if revealed(top(deck), none) { end game } }
            """))
    assert e.value.first.code == "E201" and "the second argument is a player, got none" in e.value.first.message


def test_face_up_move_into_hidden_zone_then_hide():
    st = game("zones").new_state(0)
    top = full_zone(st, "deck")[-1]
    st.apply(0, "flip")
    assert full_zone(st, "pool") == [top]
    assert all(zone_cards(st, "pool", p) == [top] for p in (None, 0, 1, 2))
    st.apply(0, f"unflip {top}")
    assert all(zone_cards(st, "pool", p) == [None] for p in (None, 0, 1, 2))


def test_deal_log_hides_card_names_from_others():
    st = game("zones").new_state(0)
    mine = full_zone(st, "hand[P0]")
    for t in view_log(st, 1):
        assert not any(c in t for c in mine), t
    assert any(mine[0] in t for t in view_log(st, 0))


DEAL_ALL = """ruleset deal_all_test "Deal all"
players 3..6 default 4
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone spare: pile hidden
setup {
    move [c for c in deck where c.rank == 13] to spare
    shuffle deck
    deal all from deck to hand for seats_from(players[1])
    deal all from spare to hand
}
phase play { end game }
"""


@pytest.mark.parametrize(("n", "sizes"), [(4, [13, 13, 13, 13]), (5, [10, 11, 11, 11, 9]), (6, [9, 9, 9, 9, 8, 8])])
def test_deal_all_empties_the_zone_the_first_getting_the_odd_cards(n, sizes):
    """48 cards round from P1, then the four kings round from P0."""
    st = load_text(DEAL_ALL, {"players": n}).new_state(3)
    assert [len(full_zone(st, f"hand[P{p}]")) for p in range(n)] == sizes
    assert full_zone(st, "deck") == [] and full_zone(st, "spare") == []


def test_deal_in_packets_gives_each_player_their_cards_at_once():
    """Schnapsen newcomer: `deal 3 … in packets` then `deal 2 … in packets` (a packet each, player by
    player) where `deal n` goes round one card at a time; `for L` and `deal all` work as with rounds,
    the first players of the order getting the odd cards. Events are a deal's: a move per card."""
    st = game("deal_packets").new_state(0)      # an unshuffled deck: ♣K on top, then ♣Q …
    assert full_zone(st, "hand[P0]") == ["♣K", "♣Q", "♣J", "♣5", "♣4", "♣3"]
    assert full_zone(st, "hand[P1]") == ["♣10", "♣9", "♣8", "♣7", "♣6"]
    assert log_texts(st)[:4] == ["♣K: deck → hand[P0]", "♣Q: deck → hand[P0]", "♣J: deck → hand[P0]",
                                 "♣10: deck → hand[P1]"]
    assert [len(full_zone(st, f"rest[P{p}]")) for p in (0, 1)] == [21, 20]
    assert full_zone(st, "rest[P0]")[:2] == ["♣2", "♣A"] and full_zone(st, "deck") == []
    st3 = game("deal_packets", players=3).new_state(0)
    assert [len(full_zone(st3, f"rest[P{p}]")) for p in range(3)] == [13, 13, 12]
    # `packets` stays free as a name
    g = load_text(DEAL_ALL.replace("deal all from spare to hand", "deal packets from spare to hand in packets")
                  + "var packets: int = 1\n")
    assert [len(full_zone(g.new_state(0), f"hand[P{p}]")) for p in range(4)] == [13, 13, 13, 13]


LOOP_AFTER_DEAL = """
ruleset loop_after_deal
players 3
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner
zone table: pile public
setup {
    deal 2 from deck to hand
    for c in top(deck, 3) {
        move c to table
    }
    deal 1 from deck to hand
        for [players[0], players[1]]
    deal 0 from deck to hand
    for draw in [1, 2] { log "{draw}" }
    let xs = [c.rank
              for c in table]
    move top(deck) to table
    at = 3
    if true { offer += at; log "{offer}" }
}
var at: int = 0
var offer: int = 1
phase play { end game }
"""


def test_a_for_loop_on_the_line_after_a_deal_is_a_loop():
    """Newcomers' first slip (Hanabi, twice): `deal … to hand` then `for c in … {` on the next line
    read the loop as the deal's `for PLAYERS` ending. A line starting `for NAME in` is a loop; a
    `for LIST` on its own line still ends the deal, and a comprehension's `for` stays its own. The
    loop variable may be a keyword read as a name (`draw`) without losing track. Likewise a keyword
    assigned at the start of a statement is a variable (`at = 3` after a move, `offer += …`)."""
    st = load_text(LOOP_AFTER_DEAL).new_state(0)
    assert len(full_zone(st, "table")) == 4 and "4" in view_log(st, None)   # `at = 3` after a move, `offer +=`
    assert [len(full_zone(st, f"hand[P{p}]")) for p in range(3)] == [3, 3, 2]


def test_a_shuffle_forgets_a_peek_but_not_a_face_up_card():
    """Exploding Kittens newcomer: after See the Future and a Shuffle the peeker still saw those cards,
    at their new places."""
    st = load_text("""
ruleset peek
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup {
    reveal top(deck, 3) to players[0]
    move top(deck) to deck face up
    shuffle deck
}
phase play { end game }
""").new_state(0)
    shown = [c for c in st.view(0)["zones"]["deck"]["cards"] if c]
    assert len(shown) == 1 and shown == [c for c in st.view(1)["zones"]["deck"]["cards"] if c]


def test_top_n_and_bottom_and_tell():
    st = game("zones").new_state(0)
    deck = full_zone(st, "deck")
    st.apply(0, "peek")
    assert f"(to P0) top two: {deck[-1]} {deck[-2]}" in view_log(st, 0)
    assert f"(to P0) bottom: {deck[0]}" in view_log(st, 0)
    assert not any("top two" in t for t in view_log(st, 1) + view_log(st, None))
    assert "peeked" not in vars_of(st, 0)       # a hidden variable: not even its setter sees it


def test_swap_forgets_reveals_like_a_move():
    g = load_text(textwrap.dedent("""
        ruleset swap_reveal
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { deal 1 from deck to hand }
        phase play {
            let mine = top(hand[players[0]])
            reveal mine
            swap mine with top(deck)
            choose players[0] { stop { end game } }
        }
    """))
    st = g.new_state(0)
    swapped = full_zone(st, "deck")[-1]
    assert zone_cards(st, "deck", 1)[-1] is None, f"{swapped} is still face up on the hidden deck"


def test_a_swap_s_log_names_the_zones_the_cards_lay_in():
    """newcomer45 P12: a swap read `swap ♥Q and ♣3` (`swap a card and a card` to who sees neither),
    not where either card was, as a move says. A state saved before keeps its plain line."""
    g = load_text(textwrap.dedent("""
        ruleset swap_log
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden "Deck"
        zone row: pile per player hidden "Row"
        zone drawn: pile per player owner "Drawn"
        setup { deal 2 from deck to row  move top(deck) to drawn[players[0]] }
        phase play {
            swap top(drawn[players[0]]) with row[players[0]][0]
            choose players[0] { stop { end game } }
        }
    """))
    from interpreter.engine import runtime as R

    st = g.new_state(0)
    ev = next(e for e in st.ev if e[0] == R.EV_SWAP)
    drawn, laid = g.card_names[ev[2]], g.card_names[ev[3]]      # P0 sees both: one lay in their Drawn, one ends there
    assert f"swap {drawn} (Drawn[P0]) and {laid} (Row[P0])" in view_log(st, 0)
    assert "swap a card (Drawn[P0]) and a card (Row[P0])" in view_log(st, 1)
    st.ev[st.ev.index(ev)] = ev[:5]
    assert f"swap {drawn} and {laid}" in view_log(st, 0)


def test_a_reveal_of_a_zone_tells_only_the_cards_not_shown_already():
    """newcomer45 P4: `reveal row[p]` to turn up the rest of a row re-announced the cards already face
    up (`for c in row[p] { if not revealed(c) { reveal c } }` instead was W104 for what followed)."""
    g = load_text(textwrap.dedent("""
        ruleset reveal_rest
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone row: pile per player hidden "Row"
        var last: int per player = 0
        setup { deal 4 from deck to row }
        phase play {
            let p = players[0]
            reveal row[p][0]
            reveal row[p][1] to p
            reveal row[p][1] to p
            reveal row[p]
            last[p] = sum([c.rank for c in row[p]])
            choose p { stop { end game } }
        }
    """))
    assert not [w for w in g.prog.warnings if w.code == "W104"]
    st = g.new_state(0)
    row = [g.card_names[c] for c in st.z[g.zone_label.index("row[P0]")]]
    reveals = [t for t in view_log(st, 1) if t.startswith("reveal")]
    assert reveals == [f"reveal {c} to everyone" for c in row], reveals      # row[0] once
    # shown to P0 twice: told twice (fix30: which card a player was shown may be the news)
    assert [t for t in view_log(st, 0) if t.startswith("reveal")][1:3] == [f"reveal {row[1]} to P0"] * 2


def test_a_card_shown_again_to_a_player_who_saw_it_is_told_again():
    """fix30 (qa17 Q12): `reveal c to p` of a card p had seen logged nothing, so in a "show one card"
    game (Cluedo) p could not tell which of the cards they knew they were shown. A reveal to some
    players tells every card; only a reveal to everyone skips the cards everyone sees already."""
    g = load_text(textwrap.dedent("""
        ruleset show_one
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: pile per player owner
        setup { deal 3 from deck to hand }
        phase play {
            let p = players[0]
            let q = players[1]
            reveal top(hand[q]) to p
            choose q hidden "show P0 a card" {
                s c in hand[q] { reveal c to p }
            }
            end game
        }
    """))
    st = g.new_state(0)
    top = g.card_names[st.z[g.zone_label.index("hand[P1]")][-1]]
    st.apply(1, f"s {top}")
    assert [t for t in view_log(st, 0) if t.startswith("reveal")] == [f"reveal {top} to P0"] * 2


def test_past_log_does_not_name_a_card_that_was_hidden_then():
    g = load_text(textwrap.dedent("""
        ruleset log_leak
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        zone table: pile public
        setup { deal 2 from deck to hand }
        phase play {
            choose players[0] { pass_card c in hand[players[0]] "pass {c}" { move c to hand[players[1]] } }
            choose players[1] { play c in hand[players[1]] "play {c}" { move c to table } }
            choose players[2] { stop { end game } }
        }
    """))
    st = g.new_state(0)
    a = full_zone(st, "hand[P0]")[0]
    st.apply(0, f"pass_card {a}")
    assert "a card: hand[P0] → hand[P1]" in view_log(st, 2)
    st.apply(1, f"play {a}")
    # P2 never saw which card P0 passed; playing it later must not rewrite that part of the log
    assert "a card: hand[P0] → hand[P1]" in view_log(st, 2)
    assert f"P0: pass_card {a}" not in view_log(st, 2)


def test_an_action_masks_only_the_cards_a_reader_did_not_see():
    """An option naming a card on the public table and one from a hidden hand: another player's log
    names the first and masks the second (the same, compiled inline, in a playout's events)."""
    text = textwrap.dedent("""
        ruleset mixed_mask
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        zone table: pile public
        zone kept: pile hidden
        setup { deal 2 from deck to hand; move top(deck) to table }
        phase play {
            choose players[1] {
                keep a in [top(table)], d in hand[players[1]] "keep {d} under {a}" { move d to kept }
            }
            choose players[0] { stop { end game } }
        }
    """)
    st = load_text(text).new_state(0)
    up, d = full_zone(st, "table")[-1], full_zone(st, "hand[P1]")[0]
    st.apply(1, f"keep {up} {d}")
    assert f"P1: keep {up}, a card" in view_log(st, 0)
    assert f"P1: keep {up} {d}" in view_log(st, 1)
    assert d not in " ".join(view_log(st, 0))


# ================================================================== 3. grids
def test_grid_cells_and_geometry():
    st = game("grid").new_state(0)
    v = vars_of(st)
    assert v["corner"] == [2, 1, 3] and v["edge"] == [3, 2, 5] and v["centre"] == [4, 4, 8]
    assert v["dist"] == [5, 3, 4, 4, 16]
    assert v["at"] == [1, 1] and v["found"] == "♥Q" and v["here"] is None
    assert st.view(None)["zones"]["board[2,2]"]["cards"] == ["♥Q"]
    assert len([z for z in st.view(None)["zones"] if z.startswith("board[")]) == 16


def test_grid_king_moves_and_edges():
    st = game("grid").new_state(0)
    assert sorted(ids(st, 0)) == sorted(["step (0,0)", "step (1,0)", "step (2,0)", "step (0,1)", "step (2,1)",
                                         "step (0,2)", "step (1,2)", "east", "stop"])
    st.apply(0, "step (2,1)")
    assert vars_of(st)["at"] == [2, 1]
    # (3,3) holds ♦J, (2,2) ♥Q: both excluded
    assert "step (3,2)" in ids(st, 0) and "step (2,2)" not in ids(st, 0)
    st.apply(0, "step (3,2)")
    assert "step (3,3)" not in ids(st, 0)
    assert sorted(a for a in ids(st, 0) if a.startswith("step")) == ["step (2,1)", "step (2,3)", "step (3,1)"]


def test_off_grid_access_is_a_runtime_error():
    st = game("grid").new_state(0)
    st.apply(0, "step (2,0)")
    st.apply(0, "east")                          # (3,0)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(0, "east")                      # (4,0) is off the 4×4 grid
    d = e.value.first
    assert d.code == "E601"
    assert "off the 4×4 grid" in d.message
    assert d.span.file.endswith("grid.fuda")
    src = (CONSTRUCTS / "grid.fuda").read_text(encoding="utf-8").splitlines()
    assert "board[s.x + 1, s.y]" in src[d.span.line - 1]


# ================================================================== 4. sequences
def test_lines_insert_index_and_close_up():
    st = game("lines").new_state(0)
    assert vars_of(st)["nlines"] == 0
    st.apply(0, "back")
    st.apply(0, "back")
    st.apply(0, "front")
    st.apply(0, "grow 1")
    z = st.view(None)["zones"]
    assert [z[f"lines[P0][{i}]"]["size"] for i in range(3)] == [1, 2, 1]
    assert vars_of(st)["sizes"] == [1, 2, 1]
    last = full_zone(st, "lines[P0][2]")
    st.apply(0, "take 0")                        # line 0 empties and closes up
    assert vars_of(st)["sizes"] == [2, 1]
    assert full_zone(st, "lines[P0][1]") == last
    assert "lines[P0][2]" not in st.view(None)["zones"]
    assert "an empty zone of Lines[P0] closes up" in view_log(st, None)


def test_lines_are_per_player():
    st = game("lines").new_state(0)
    st.apply(0, "back")
    st.apply(0, "other")
    assert vars_of(st)["nlines"] == 0           # P1's lines
    st.apply(1, "front")
    st.apply(1, "front")
    assert vars_of(st)["sizes"] == [1, 1]
    zones = st.view(None)["zones"]
    assert "lines[P0][0]" in zones and "lines[P1][1]" in zones and "lines[P0][1]" not in zones


def test_shared_sequence():
    g = load_text(textwrap.dedent("""
        ruleset shared_row
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone discard: pile public
        zone row: sequence public
        var sizes: list of int = []
        setup { }
        phase play {
            insert row back as a
            move top(deck) to a
            insert row front as b
            move top(deck) to b
            move top(deck) to b
            sizes = [size(z) for z in row]
            choose players[0] { take i in 0..size(row) - 1 "take {i}" { move row[i] to discard } }
            sizes = [size(z) for z in row]
        }
    """))
    st = g.new_state(0)
    assert vars_of(st)["sizes"] == [2, 1]
    assert ids(st, 0) == ["take 0", "take 1"]
    st.apply(0, "take 0")
    assert vars_of(st)["sizes"] == [1]
    assert full_zone(st, "row[0]") == ["♣K"]


def test_a_move_into_a_zone_that_closed_up_is_a_rule_failure():
    """A zone that left its sequence is in no view or count of it: a card sent there would vanish."""
    g = load_text(textwrap.dedent("""
        ruleset refill_row
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone taken: pile public
        zone row: sequence public
        setup { }
        phase play {
            insert row back as z
            move top(deck) to z
            move z to taken
            move top(deck) to z
        }
    """))
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    d = e.value.first
    assert d.code == "E601" and "left its sequence" in d.message and d.span.line == 13


def test_deal_from_a_line_closes_it_up():
    g = load_text(textwrap.dedent("""
        ruleset deal_line
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        zone lines: sequence per player public
        var n: int = 0
        setup { }
        phase play {
            insert lines[players[0]] back as a
            move top(deck) to a
            insert lines[players[0]] back as b
            move top(deck) to b
            deal 1 from lines[players[0]][0] to hand for [players[0]]
            n = size(lines[players[0]])
        }
    """))
    st = g.new_state(0)
    assert vars_of(st)["n"] == 1


def test_past_log_keeps_the_zone_names_of_its_time():
    st = game("lines").new_state(0)
    st.apply(0, "back")
    first = [t for t in view_log(st, None) if t.startswith("a new zone")]
    assert first == ["a new zone at the back of Lines[P0]"]
    moves_then = [t for t in view_log(st, None) if "→ Lines" in t]
    st.apply(0, "front")
    assert "a new zone at the back of Lines[P0]" in view_log(st, None)
    assert "a new zone at the front of Lines[P0]" in view_log(st, None)
    # a move into the first line still names it as it was then, though it is lines[P0][1] now
    assert moves_then and all(t in view_log(st, None) for t in moves_then)


# ================================================================== 5. players & turn order
def test_next_prev_reverse_finish():
    st = game("turns").new_state(0)
    v = vars_of(st)
    assert v["nexts"] == [1, 2, 3, 0] and v["prevs"] == [3, 0, 1, 2] and v["nexts2"] == [2, 3, 0, 1]
    st.apply(0, "flip_order")
    v = vars_of(st)
    assert v["nexts"] == [3, 0, 1, 2] and v["dir"] == -1 and v["seats"] == [0, 3, 2, 1]
    assert st.view(None)["direction"] == -1
    assert "turn order reversed" in view_log(st, None)
    st.apply(0, "finish_player P3")
    v = vars_of(st)
    assert v["nexts"] == [2, 0, 1, 2] and v["act"] == [0, 1, 2] and v["oth"] == [2, 1]
    assert st.view(None)["seats"][3] == {"player": 3, "out": True, "place": 1, "score": 0}
    st.apply(0, "pass_turn")
    assert st.to_move() == [2]


def test_finishing_everyone_but_one_then_end_game():
    st = game("turns", players=3).new_state(0)
    st.apply(0, "finish_player P0")              # current moves on to P1
    assert st.to_move() == [1]
    st.apply(1, "finish_player P2")
    st.apply(1, "end_now")
    res = st.result()
    assert [r["place"] for r in res] == [1, 3, 2]
    assert [r["outcome"] for r in res] == ["win", "lose", "lose"]
    assert st.over and st.to_move() == [] and st.legal_actions(1) == []


def test_rejoin_brings_finished_players_back_for_the_next_hand():
    st = game("turns").new_state(0)
    st.apply(0, "finish_player P3")
    st.apply(0, "finish_player P1")
    st.apply(0, "new_hand")
    v = vars_of(st)
    assert v["act"] == [0, 1, 2, 3] and v["nexts"] == [1, 2, 3, 0]
    assert [s["place"] for s in st.view(None)["seats"]] == [0, 0, 0, 0]
    assert "P3 is back in play" in view_log(st, None) and "P1 is back in play" in view_log(st, None)
    assert "P0 is back in play" not in view_log(st, None)       # never out: nothing to say
    st.apply(0, "finish_player P1")                # the places are free again
    assert st.view(None)["seats"][1]["place"] == 1


def test_finish_last_ranks_below_everyone_still_playing():
    st = game("turns", players=5).new_state(0)
    st.apply(0, "knock_out P2")                  # first out: place 5
    st.apply(0, "finish_player P4")              # first to finish: place 1
    st.apply(0, "knock_out P0")                  # second out: place 4; current moves on to P1
    assert vars_of(st)["act"] == [1, 3] and st.to_move() == [1]
    st.apply(1, "end_now")                       # the two still playing share place 2
    assert [r["place"] for r in st.result()] == [4, 2, 5, 2, 1]
    assert [r["outcome"] for r in st.result()] == ["lose", "lose", "lose", "lose", "win"]


def test_players_finishing_together_share_a_place():
    st = game("turns", players=5).new_state(0)
    st.apply(0, "finish_pair P2")                # P0 and P2 share place 1; current moves on to P1
    assert [s["place"] for s in st.view(None)["seats"]] == [1, 0, 1, 0, 0]
    assert st.to_move() == [1]
    st.apply(1, "knock_out_pair P4")             # P1 and P4 share the worst two places: 4 (and 5)
    assert [s["place"] for s in st.view(None)["seats"]] == [1, 4, 1, 0, 4]
    st.apply(3, "end_now")                       # P3 takes place 3: 1 and 2 are P0's and P2's
    assert [r["place"] for r in st.result()] == [1, 4, 1, 3, 4]
    assert [r["outcome"] for r in st.result()] == ["win", "lose", "win", "lose", "lose"]
    assert {"P0 is out (place 1)", "P2 is out (place 1)", "P1 is out (place 4)", "P4 is out (place 4)"} \
        <= set(view_log(st, None))


def test_finish_takes_a_player_or_a_list_of_players():
    with pytest.raises(FudaError, match="finish takes a player or a list of players, not int"):
        load_text('ruleset f\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nsetup { }\n'
                  "phase play { finish 3 }")


RANKING = """ruleset ranking_test "Ranking"
players 3..6 default 5
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup { }
phase play {
    choose current {
        set_scores "scores" {
            score[players[0]] = 3
            score[players[1]] = 7
            score[players[2]] = 3
            score[players[3]] = 1
        }
    }
    choose current {
        knock_out "P4 is out" { finish players[4] last }
        stay "stay" { }
    }
    end game ranking p in [players[0], players[1], players[2], players[3]] by -score[p]
}
"""


@pytest.mark.parametrize(("second", "places", "winners"), [
    ("knock_out", [2, 4, 2, 1, 5], [3]),      # lowest score first; ties share a place (1, 2, 2, 4)
    ("stay", [2, 4, 2, 1, 5], [3]),           # P4, not in the list, takes the place after them
])
def test_end_game_ranking_places_by_key_ties_sharing(second, places, winners):
    st = load_text(RANKING).new_state(0)
    st.apply(0, "set_scores")
    st.apply(0, second)
    assert [r["place"] for r in st.result()] == places
    assert [r["player"] for r in st.result() if r["outcome"] == "win"] == winners


def test_end_game_with_nobody_placed_is_a_draw_for_all():
    st = game("turns").new_state(0)
    st.apply(0, "score 2")
    st.apply(0, "end_now")
    assert [r["outcome"] for r in st.result()] == ["draw"] * 4
    assert [r["place"] for r in st.result()] == [1] * 4
    assert st.result()[0]["score"] == 2


END_WAYS = """ruleset end_ways
players 4
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup { }
phase play {
    choose players[0] {
        side_loses "the pair P1, P3 loses" { finish players[0]  lose [players[1], players[3]] }
        all_out_draw "everyone out, then end game draw" {
            finish players[2]
            finish [players[0], players[1]]
            finish players[3]
            end game draw
        }
        some_draw "P2 out, the others draw" { finish players[2]  end game draw }
        loser_had_finished "P1, P0 out; then P3 and P1 lose" {
            finish players[1]
            finish players[0]
            lose [players[3], players[1]]
        }
        nobody { lose [p for p in players where p == none] }
        all_lose "a cooperative game lost" { lose players }
        last_then_lose "P0 finished last, then P1, P2 lose" { finish players[0] last  lose [players[1], players[2]] }
        last_then_win "P0, then P1 knocked out; P2 wins" { finish players[0] last  finish players[1] last  win players[2] }
    }
}
"""


@pytest.mark.parametrize(("action", "places", "outcomes", "draw_said"), [
    ("side_loses", [1, 3, 2, 3], ["win", "lose", "win", "lose"], False),
    ("all_out_draw", [2, 2, 1, 4], ["lose", "lose", "win", "lose"], False),
    ("some_draw", [2, 2, 1, 2], ["draw", "draw", "win", "draw"], True),
    ("loser_had_finished", [2, 3, 1, 3], ["win", "lose", "win", "lose"], False),
    ("all_lose", [2, 2, 2, 2], ["lose", "lose", "lose", "lose"], False),     # Hanabi: not place 1
    ("last_then_lose", [4, 4, 4, 1], ["win", "lose", "lose", "win"], False),  # QA: not place 5 of 4
    ("last_then_win", [4, 3, 1, 2], ["lose", "lose", "win", "lose"], False),  # Skull newcomer: knocked out keep places
])
def test_a_side_loses_and_end_game_draw_says_draw_only_if_someone_draws(action, places, outcomes, draw_said):
    st = load_text(END_WAYS).new_state(0)
    st.apply(0, action)
    assert [r["place"] for r in st.result()] == places
    assert [r["outcome"] for r in st.result()] == outcomes
    assert ("game over (draw)" in view_log(st, None)) == draw_said


def test_lose_with_nobody_fails():
    st = load_text(END_WAYS).new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(0, "nobody")
    assert "lose names nobody" in e.value.first.message


def test_playing_after_the_end_is_refused():
    st = game("turns").new_state(0)
    st.apply(0, "lose_me")
    with pytest.raises(IllegalAction) as e:
        st.apply(0, "pass_turn")
    assert e.value.first.code == "E602" and "over" in e.value.first.message


# ================================================================== 6. roles & hidden information
@pytest.mark.parametrize("seed", range(6))
def test_each_player_sees_only_their_own_role(seed):
    st = game("roles").new_state(seed)
    g = st.game
    role = next(v for v in g.prog.vars if v.name == "role")
    truth = {f"P{p}": g.enum_members["Role"][st.g[role.slot + p]] for p in range(4)}
    assert sorted(truth.values()) == ["citizen", "citizen", "hunter", "prey"]
    for p in range(4):
        assert vars_of(st, p)["role"] == {f"P{p}": truth[f"P{p}"]}
    assert "role" not in vars_of(st, None)


@pytest.mark.parametrize("seed", range(6))
def test_secret_is_hidden_from_every_view_until_revealed(seed):
    st = game("roles").new_state(seed)
    secret_var = next(v for v in st.game.prog.vars if v.name == "secret")
    secret = st.g[secret_var.slot]
    assert secret in (1, 2, 3)
    for p in (None, 0, 1, 2, 3):
        v = st.view(p)
        assert "secret" not in v["vars"]
        assert "secret" not in json.dumps(v["log"])
    st.apply(0, "call")
    assert all("secret" not in vars_of(st, p) for p in (None, 0, 1, 2, 3))
    st.apply(0, "unmask")
    for p in (None, 0, 1, 2, 3):
        assert vars_of(st, p)["secret"] == secret
    assert "revealed: secret" in view_log(st, None)


def test_revealing_one_role_entry():
    st = scenario_state("roles", """
        setup: {vars: {role: {P0: citizen, P1: hunter, P2: prey, P3: citizen}}}
    """)
    st.apply(0, "out_role P2")
    assert vars_of(st, None)["role"] == {"P2": "prey"}
    assert vars_of(st, 1)["role"] == {"P1": "hunter", "P2": "prey"}
    assert "revealed: role[P2]" in view_log(st, 3)


def test_a_revealed_variable_can_be_hidden_again():
    st = scenario_state("roles", """
        setup: {vars: {secret: P2, role: {P0: citizen, P1: hunter, P2: prey, P3: citizen}}}
    """)
    st.apply(0, "unmask")
    assert vars_of(st, 3)["secret"] == 2
    st.apply(0, "mask")                 # hidden again, then changed: nobody learns the new value
    assert all("secret" not in vars_of(st, p) for p in (None, 0, 1, 2, 3))
    assert "hidden again: secret" in view_log(st, 3)
    assert determinized_secrets(st) > {3}               # a bot no longer knows it either
    st.apply(0, "out_role P1")
    assert vars_of(st, 2)["role"] == {"P1": "hunter", "P2": "prey"}


def determinized_secrets(st: State) -> set[Any]:
    from interpreter.engine.determinize import determinize

    slot = next(v for v in st.game.prog.vars if v.name == "secret").slot
    rng = random.Random(0)
    return {determinize(st, 0, rng).g[slot] for _ in range(60)}


def test_a_hidden_decision_shows_the_others_only_that_it_was_taken():
    st = game("roles").new_state(0)
    st.apply(0, "ask")
    assert st.to_move() == [1]
    st.apply(1, "guess 2")
    assert "P1: guess 2" in view_log(st, 1)
    assert "P1: guess 2" in [render_event(st, e, "all")["text"] for e in st.ev]     # the replay shows it
    for p in (None, 0, 2, 3):
        assert "P1 has chosen" in view_log(st, p) and "guess 2" not in view_log(st, p)
        assert "guess" not in vars_of(st, p) or "P1" not in vars_of(st, p)["guess"]
    assert vars_of(st, 1)["guess"] == {"P1": 2}
    assert json.dumps(st.view(2)).count("guess 2") == 0


# ================================================================== 7. flow
def test_setup_decision_comes_before_the_first_phase():
    st = game("flow").new_state(0)
    assert st.view(None)["phase"] == "setup"
    assert st.to_move() == [1]
    assert st.view(1)["decision"]["prompt"] == "Pick a start | 開始を選ぶ"
    st.apply(1, "start 3")
    v = vars_of(st)
    assert v["picked"] == 3 and v["trail"] == [1, 3, 0, 0, 0]
    assert st.view(None)["phase"] == "main"


def test_rule_returning_from_inside_a_decision_and_a_loop():
    st = game("flow").new_state(0)
    st.apply(1, "start 1")
    st.apply(1, "num 4")
    st.apply(0, "num 2")
    st.apply(1, "zero")
    assert vars_of(st)["trail"] == [1, 3, 0, 40, 20, -1]
    assert vars_of(st)["who"] == [1, 0, 1]
    st.apply(0, "leave")
    for _ in range(4):
        st.apply(0, "more")
    st.apply(0, "more")                          # the loop in count_up runs out: return 99
    assert vars_of(st)["trail"][-1] == 99
    st.apply(0, "enough")
    assert vars_of(st)["trail"][-2:] == [99, 1]
    assert st.view(None)["phase"] == "second"


def test_goto_from_a_called_rule_inside_a_loop_and_phase_end_ends_the_game():
    st = game("flow").new_state(0)
    for p, a in [(1, "start 1"), (1, "zero"), (0, "zero"), (1, "zero"), (0, "leave"), (0, "enough"), (0, "enough")]:
        st.apply(p, a)
    assert st.view(None)["phase"] == "second"
    st.apply(1, "stay")
    st.apply(0, "jump")
    assert st.over
    assert vars_of(st)["trail"][-1] == 999
    assert log_texts(st)[-2:] == ["phase: finale", "game over"]
    assert [r["outcome"] for r in st.result()] == ["draw", "draw"]


def test_phase_without_goto_that_nobody_reaches_is_an_error():
    with pytest.raises(FudaError) as e:
        load_text(textwrap.dedent("""
            ruleset unreachable
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            setup { }
            phase one { end game }
            phase two { end game }
        """))
    assert e.value.first.code == "E301"


# ================================================================== 8. decisions
def test_labels_and_prompts_are_bilingual():
    st = scenario_state("decisions", """
        setup: {zones: {"hand[P0]": [♠7, ♥9]}}
    """)
    acts = st.legal_actions(0)
    assert [a.id for a in acts] == ["give ♠7 P1", "give ♥9 P1"]
    assert acts[0].label == "give ♠7 to P1 | ♠7 を P1 に渡す"
    assert acts[0].name == "give"
    d = st.view(0)["decision"]
    assert d["prompt"] == "Give a card | カードを渡す"
    assert d["legal"][1] == {"id": "give ♥9 P1", "label": "give ♥9 to P1 | ♥9 を P1 に渡す"}
    assert "decision" not in st.view(1)


def test_illegal_action_lists_the_legal_ones():
    st = scenario_state("decisions", """
        setup: {zones: {"hand[P0]": [♠7, ♥9]}}
    """)
    with pytest.raises(IllegalAction) as e:
        st.apply(0, "give ♠7 P2")
    msg = e.value.first.message
    assert e.value.first.code == "E602"
    assert "give ♠7 P2 is not legal now" in msg
    assert "1. give ♠7 P1" in msg and "2. give ♥9 P1" in msg
    with pytest.raises(IllegalAction) as e2:
        st.apply(1, "give ♠7 P1")
    assert "not to move" in e2.value.first.message
    # by index and by Action object
    st.apply(0, st.legal_actions(0)[1])
    assert full_zone(st, "hand[P1]")[-1] == "♥9"


def test_subsets_ranges_and_enum_generators():
    st = scenario_state("decisions", """
        setup: {zones: {"hand[P0]": [♠2, ♠7, ♠9, ♥K, ♥3]}}
    """)
    st.apply(0, "give ♥K P1")
    assert ids(st, 0) == ["discard ♠2 ♠7", "discard ♠2 ♠9", "discard ♠7 ♠9", "keep"]
    with pytest.raises(IllegalAction):
        st.apply(0, "discard ♠2 ♥3")
    st.apply(0, "discard s9 ♠7")     # a choice of several cards: named in any order, ASCII or not
    assert full_zone(st, "table") == ["♠7", "♠9"]
    assert ids(st, 1) == [f"bid {n}" for n in (12, 14, 16, 18, 20)]
    st.apply(1, "bid 18")
    assert ids(st, 1) == ["name_trump ♠", "name_trump ♥"]
    assert st.legal_actions(1)[1].label == "trump ♥ | 切り札は ♥"
    st.apply(1, "name_trump ♥")
    assert vars_of(st) == {"bid": 18, "trump": "♥", "drew": False}


def test_otherwise_runs_when_nothing_is_legal_and_no_otherwise_is_an_error():
    st = scenario_state("decisions", """
        setup: {zones: {"hand[P0]": [♠7], "hand[P2]": [♣4], deck: {top: [♣5]}}}
        steps:
          - P0: give ♠7 P1
          - P0: keep
          - P1: bid 12
          - P1: name_trump ♠
          - P2: draw
    """)
    assert st.over
    assert "P2 has no king" in log_texts(st)
    # a decision with no legal option and no otherwise
    g = load_text(textwrap.dedent("""
        ruleset stuck
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { }
        phase play {
            choose players[0] { play c in hand[players[0]] "play {c}" { } }
        }
    """))
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    assert e.value.first.code == "E601" and "otherwise" in e.value.first.message



def test_option_condition_with_a_term_the_same_for_every_option():
    """`where A or B` with A not reading the option (a variable against the player) is tested once
    before the loop; the options are those of the plain condition, whether A holds or not, and B's
    failure on an empty pile (top is none) stays out of reach while A holds."""
    g = load_text(textwrap.dedent("""
        ruleset split_condition
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone pile: pile public
        zone hand: hand per player owner
        var free_for: player = none
        fn matches(c: card) -> bool = c.suit == top(pile).suit or c.rank == top(pile).rank
        setup {
            move card("♠3") to hand[players[0]]
            move card("♥3") to hand[players[0]]
            move card("♥9") to hand[players[0]]
            free_for = players[0]
        }
        phase play {
            while true {
                choose players[0] {
                    play c in hand[players[0]] where free_for == players[0] or c.rank == 9 or matches(c) "play {c}" {
                        move c to pile
                    }
                    open "open | 開放" { free_for = players[0] }
                    close "close | 閉鎖" { free_for = none }
                    top "top ♠9 | ♠9" { move card("♠9") to pile }
                }
            }
        }
    """))
    assert "out.append(OPT0_0[b" in g.comp.source and "if (G[" in g.comp.source
    st = g.new_state(0)
    assert ids(st, 0) == ["play ♠3", "play ♥3", "play ♥9", "open", "close", "top"]   # pile empty
    st.apply(0, "top")                                                # ♠9 on the pile
    assert ids(st, 0)[:3] == ["play ♠3", "play ♥3", "play ♥9"]
    st.apply(0, "close")
    assert ids(st, 0) == ["play ♠3", "play ♥9", "open", "close", "top"]


# ================================================================== 9. simultaneous decisions
def _simul_state() -> State:
    return scenario_state("simul", """
        setup: {zones: {"hand[P0]": [♠A, ♠2], "hand[P1]": [♥3, ♥4]}}
    """)


def test_simultaneous_choices_are_hidden_until_everyone_chose():
    st = _simul_state()
    assert sorted(st.to_move()) == [0, 1]
    assert ids(st, 0) == ["give ♠A", "give ♠2"] and ids(st, 1) == ["give ♥3", "give ♥4"]
    assert st.view(0)["decision"]["prompt"] == "Pick a card to pass | 渡すカードを選ぶ"
    st.apply(0, "give ♠2")
    assert st.to_move() == [1]
    assert ids(st, 0) == []
    for p in (1, None):
        v = st.view(p)
        assert v["chosen"] == [0]
        assert "♠2" not in json.dumps(v, ensure_ascii=False)
        assert "P0 has chosen" in [e["text"] for e in v["log"]]
    assert "P0: give ♠2" in view_log(st, 0)
    assert full_zone(st, "hand[P0]") == ["♠A", "♠2"]      # the body has not run
    with pytest.raises(IllegalAction):
        st.apply(0, "give ♠A")
    st.apply(1, "give ♥4")
    assert vars_of(st)["order"] == [0, 1]
    assert full_zone(st, "hand[P0]") == ["♠A", "♥4"] and full_zone(st, "hand[P1]") == ["♥3", "♠2"]
    # after the bodies ran, P1's choice still reads "has chosen" to P0 (the card itself moved to P0)
    assert "P1 has chosen" in view_log(st, 0)


def test_simultaneous_with_three_players():
    st = scenario_state("simul", """
        options: {players: 3}
        setup: {zones: {"hand[P0]": [♠A], "hand[P1]": [♥3], "hand[P2]": []}}
    """)
    assert sorted(st.to_move()) == [0, 1, 2]
    assert ids(st, 2) == ["nothing"]
    st.apply(2, "nothing")
    st.apply(1, "give ♥3")
    assert sorted(st.to_move()) == [0]
    st.apply(0, "give ♠A")
    assert vars_of(st)["order"] == [0, 1, 2]
    assert full_zone(st, "hand[P1]") == ["♠A"] and full_zone(st, "hand[P2]") == ["♥3"]


def test_a_simultaneous_decision_nobody_can_take_names_the_player_and_nobody_may_win():
    g = load_text("""
ruleset stuck
players 3
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner
setup {
    deal 1 from deck to hand for [players[0], players[2]]
}
phase play {
    simultaneous p in players "Play | 出す" {
        play c in hand[p] "play {c}" { }
    }
}
""", filename="stuck.fuda")
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    assert e.value.first.message == "P1 has no legal option in this simultaneous decision"
    g2 = load_text("ruleset nobody\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                   "setup { win [] }\nphase play { }\n", filename="nobody.fuda")
    st = g2.new_state(0)
    assert "nobody wins" in [e["text"] for e in st.view(None)["log"]]
    assert [r["outcome"] for r in g2.result(st)] == ["lose", "lose"]


@pytest.mark.parametrize("statement, outcomes, places, text", [
    ("win [players[0]] draw players[2]", ["win", "lose", "draw"], [1, 3, 2], "winner: P0; draw: P2"),
    ("win [] draw [players[1], players[2]]", ["lose", "draw", "draw"], [2, 1, 1], "nobody wins; draw: P1, P2"),
    ("win players[1] draw []", ["lose", "win", "lose"], [2, 1, 2], "winner: P1"),
    # newcomer51 P6: nobody beat or tied the dealer: place 2, as `lose players` gives (it was 1)
    ("win [] draw []", ["lose", "lose", "lose"], [2, 2, 2], "nobody wins"),
])
def test_each_player_gets_their_own_result_against_a_house(statement, outcomes, places, text):
    g = load_text(f"ruleset house\nplayers 3\ncards standard() in deck\nzone deck: pile hidden\n"
                  f"setup {{ }}\nphase play {{\n    {statement}\n}}\n", filename="house.fuda")
    st = g.new_state(0)
    assert [r["outcome"] for r in g.result(st)] == outcomes and [r["place"] for r in g.result(st)] == places
    assert text in [e["text"] for e in st.view(None)["log"]]
    assert State.from_json(json.loads(json.dumps(st.to_json())), g).ev == st.ev


# ================================================================== 10. effects & stack & windows
def test_stack_view_while_a_window_is_open():
    st = scenario_state("stack", """
        setup:
          zones: {"hand[P0]": [♠2], "hand[P1]": [♦7], "hand[P2]": [♠A]}
          current: P0
        steps:
          - P0: attack ♠2
    """)
    v = st.view(2)
    assert v["stack"] == [{"id": 0, "effect": "draw_two", "label": "Draw two", "controller": 0, "source": "♠2", "times": 1,
                           "negated": False, "victim": 1, "amount": 2,
                           "fields": [["victim", "player", "victim"], ["amount", "int", "amount"]]}]
    assert "#0 Draw two by P0 (♠2) · victim P1 · amount 2" in render(v)
    assert v["current"] == 0 and v["to_move"] == [1]
    # (a window prompt is its label's English half only, unlike a choose prompt: "en | ja")
    assert st.view(1)["decision"]["prompt"].startswith("Echo")
    assert [(a.id, a.label) for a in st.legal_actions(1)] == [("echo ♦7", "echo with ♦7 | ♦7 で倍にする"),
                                                               ("pass", "pass | パス")]
    st.apply(1, "echo ♦7")
    assert st.view(None)["stack"][0]["times"] == 2
    st.apply(2, "cancel ♠A")
    assert st.view(None)["stack"] == []
    assert vars_of(st)["drawn"]["P1"] == 0


def test_effect_named_and_positional_args_by_and_from():
    st = scenario_state("stack", """
        setup:
          zones: {"hand[P0]": [♠2], "hand[P1]": [♦2]}
          current: P0
        steps:
          - P0: attack ♠2
          - P1: stack_two ♦2
    """)
    v = vars_of(st)
    # positional: draw_two(next(current), 2) from ♠2 by current (P0); named: by P1 from ♦2
    assert v["drawn"] == {"P0": 0, "P1": 0, "P2": 4}
    assert v["last_by"] == 1 and v["last_source"] == "♦2"
    texts = log_texts(st)
    assert "activate #0 draw_two by P0 from ♠2" in texts
    assert "activate #1 draw_two by P1 from ♦2" in texts
    assert texts.index("resolve #1") < texts.index("#0 is negated: no effect")


def test_a_changed_item_field_is_logged_as_its_type():
    st = scenario_state("stack", """
        setup:
          zones: {"hand[P0]": [♠2], "hand[P1]": [♦K]}
          current: P0
        steps:
          - P0: attack ♠2
          - P1: redirect ♦K
    """)
    assert "#0 victim = P2" in log_texts(st)      # the field by its label
    assert vars_of(st)["drawn"] == {"P0": 0, "P1": 0, "P2": 2}


def test_a_stack_line_shows_labelled_fields_by_label_and_leaves_bookkeeping_out():
    """Coup newcomer: the stack line showed every field, bookkeeping included, by its name, and an
    enum field by its member's name even in Japanese."""
    from interpreter.runner.render import render

    g = load_text("""
ruleset claims
players 2
cards standard() in deck
zone deck: pile hidden
enum Role { duke "Duke | 公爵", captain "Captain | 船長" }
effect tax(role: Role = duke "claims | 主張", closed: bool = false) "Tax | 徴税" { }
window challenge "Challenge? | チャレンジ?" (it, p) responders [players[1]] when not it.closed {
    doubt "doubt | ダウト" { it.closed = true }
}
setup { }
phase play { activate tax() by players[0] }
""")
    st = g.new_state(0)
    v = st.view(1, lang=1)
    assert v["stack"][0]["fields"] == [["role", "enum:Role", "主張"]] and v["stack"][0]["closed"] is False
    screen = render(v, 1)
    assert "· 主張 公爵" in screen and "closed" not in screen
    st.apply(1, "doubt")
    v = st.view(1, lang=1)
    assert "closed" not in render(v, 1)
    modify = [e for e in v["log"] if e["kind"] == "modify"]
    assert modify == [{"kind": "modify", "text": "#0.closed = true", "rule": modify[0]["rule"], "quiet": True}]


def test_each_effect_labels_its_own_fields_and_a_modify_shows_enum_labels():
    """QA: effects sharing a parameter name shared the first one's label (and a field one of them left
    unlabelled showed), and a modify event showed an enum value by its name."""
    g = load_text("""
ruleset two_claims
players 2
cards standard() in deck
zone deck: pile hidden
enum Role { duke "Duke | 公爵", captain "Captain | 船長" }
effect tax(role: Role = duke "claims | 主張") "Tax" { }
effect block(role: Role = duke) "Block" { }
window w "Change?" (it, p) responders [players[1]] when it.role == duke {
    change "change" { it.role = captain }
    counter "counter" { activate block() by p }
}
setup { }
phase play { activate tax() by players[0] }
""")
    st = g.new_state(0)
    assert st.view(1, lang=1)["stack"][0]["fields"] == [["role", "enum:Role", "主張"]]
    st.apply(1, "counter")          # the block's role is not labelled: bookkeeping there
    assert [it["fields"] for it in st.view(1, lang=1)["stack"]] == [[["role", "enum:Role", "主張"]], []]
    st = g.new_state(0)
    st.apply(1, "change")
    assert "#0 主張 = 船長" in [e["text"] for e in st.view(1, lang=1)["log"]]


WINDOW_PROMPT = """ruleset window_prompt "Window prompts"
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone discard: pile public
zone hand: hand per player owner
setup {
    shuffle deck
    deal 3 from deck to hand
}
effect strike(victim: player) { log "{victim} is hit" }
window parry "{it.victim}: parry the {it.kind} of {it.controller} ({size(deck)} left)? | {p}: 受ける?" (it, p) {
    discard_one c in hand[p] "discard {c}" { move c to discard }
}
phase play {
    choose current {
        play c in hand[current] "play {c}" {
            move c to discard
            activate strike(next(current)) by current from c
        }
    }
}
"""


def test_a_window_prompt_shows_the_item_and_the_responder():
    st = load_text(WINDOW_PROMPT).new_state(0)
    st.apply(0, 0)
    assert st.to_move() == [1]
    assert st.view(1)["decision"]["prompt"] == "P1: parry the strike of P0 (46 left)? | P1: 受ける?"
    st.apply(1, "pass")
    assert "P1: pass (parry)" in log_texts(st)      # which question was declined
    # only players who could respond are asked: the others may not learn who was
    assert "P1: pass (parry)" in log_texts(st, 1)
    assert not any("pass" in t for t in log_texts(st, 0) + log_texts(st, 2) + log_texts(st, None))


def test_a_pass_names_the_window_by_its_label_in_the_readers_language():
    """Kittens newcomer: `P1: pass (nope_window)` named the window by its identifier, also in Japanese."""
    src = WINDOW_PROMPT.replace('"{it.victim}: parry the {it.kind} of {it.controller} ({size(deck)} left)? | {p}: 受ける?"',
                                '"Parry | 受け"')
    st = load_text(src).new_state(0)
    st.apply(0, 0)
    st.apply(1, "pass")
    assert "P1: pass (Parry)" in log_texts(st) and "P1: パス (受け)" in [e["text"] for e in st.view(1, lang=1)["log"]]


def test_a_card_the_responder_cannot_see_shows_as_a_card_in_labels_and_prompts():
    """QA: a response label `{it.source}` and a window prompt `Challenge the {it.source}?` printed the
    claimant's hidden card on the responder's screen; only an option's own cards were shown by place.
    Any other card reads "a card": its place would tell where that card lies (QA again)."""
    g = load_text("""
ruleset claims
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
effect claim() "Claim" { }
window w "Challenge the {it.source}? | {it.source} に挑む?" (it, p) {
    challenge "challenge {it.source}" { }
}
setup { shuffle deck  deal 3 from deck to hand }
phase play { activate claim() by players[0] from top(hand[players[0]]) }
""")
    v = g.new_state(1).view(1)
    assert v["decision"]["prompt"] == "Challenge the a card? | 伏せたカード に挑む?"
    assert "challenge a card | challenge 伏せたカード" in [a["label"] for a in v["decision"]["legal"]]


def test_stack_event_kinds_in_order():
    st = scenario_state("stack", """
        setup:
          zones: {"hand[P0]": [♠2, ♥A], "hand[P1]": [], "hand[P2]": [♠A]}
          current: P0
        steps:
          - P0: attack ♠2
          - P2: cancel ♠A
          - P0: cancel ♥A
    """)
    kinds = [ev[0] for ev in st.ev]
    from interpreter.engine import runtime as R
    names = [R.EV_NAMES[k] for k in kinds if k in (R.EV_PUSH, R.EV_RESOLVE, R.EV_NEGATE, R.EV_FIZZLE)]
    assert names == ["push", "push", "push", "resolve", "negate", "fizzle", "resolve"]
    assert vars_of(st)["drawn"]["P1"] == 2


def test_custom_responders_and_ask_all():
    st = scenario_state("windows", """
        setup: {zones: {"hand[P0]": [], "hand[P1]": [], "hand[P2]": [], "hand[P3]": []}, current: P2}
        steps:
          - P2: fire 7
    """)
    # quiet: nobody has cards → skipped; judge: n = 7 → P0 asked with pass only
    asked = []
    while st.to_move():
        p = st.to_move()[0]
        if not st.view(None)["stack"]:
            break
        assert ids(st, p) == ["pass"]
        asked.append(p)
        st.apply(p, "pass")
    assert asked == [0, 3, 2, 1, 0]
    assert vars_of(st)["result_n"] == 7


def test_players_who_are_out_are_not_asked_even_when_a_responders_list_names_them():
    st = scenario_state("windows", """
        setup: {zones: {"hand[P0]": [], "hand[P1]": [], "hand[P2]": [], "hand[P3]": []}, current: P2}
        steps:
          - P2: leave P0
          - P2: fire 7
    """)
    asked = []
    while st.to_move() and st.view(None)["stack"]:
        p = st.to_move()[0]
        asked.append(p)
        st.apply(p, "pass")
    assert asked == [3, 2, 1]          # judge names P0 and poll names everyone: P0 is out, not asked


def test_response_window_on_another_players_turn_is_reported_in_to_move():
    st = scenario_state("stack", """
        options: {players: 4}
        setup:
          zones: {"hand[P0]": [♠7], "hand[P1]": [], "hand[P2]": [♠2], "hand[P3]": [♥A]}
          current: P2
        steps:
          - P2: attack ♠2
    """)
    # P3 is the victim; echo: P3, P0 (has ♠7), P1, P2 — P3 has no 7: P0 first
    assert st.to_move() == [0] and st.view(None)["current"] == 2
    st.apply(0, "pass")
    assert st.to_move() == [3] and ids(st, 3) == ["cancel ♥A", "pass"]
    st.apply(3, "pass")
    assert vars_of(st)["drawn"]["P3"] == 2 and st.view(None)["current"] == 3


_TWO_WINDOWS = textwrap.dedent("""
    ruleset window_order
    players 2
    cards standard(jokers = 0) in deck
    zone deck: pile hidden
    var seen: list of int = []
    effect ping() { seen += [0] }
    window second_declared "Second declared | 後" (it, p) { b where size(seen) == 0 { } }
    window first_declared "First declared | 先" (it, p) { a where size(seen) == 0 { } }
    setup { }
    phase play {
        activate ping() by players[0]
        end game
    }
""")


def test_windows_open_in_declaration_order_without_a_windows_line():
    st = load_text(_TWO_WINDOWS).new_state(0)
    assert ids(st, 1) == ["b", "pass"]
    st.apply(1, "pass")
    assert ids(st, 0) == ["b", "pass"]
    st.apply(0, "pass")
    assert ids(st, 1) == ["a", "pass"]
    st.apply(1, "pass")
    st.apply(0, "pass")
    assert st.over and vars_of(st)["seen"] == [0]


def test_window_prompt_names_the_open_window_without_a_windows_line():
    st = load_text(_TWO_WINDOWS).new_state(0)
    assert st.view(1)["decision"]["prompt"].startswith("Second declared")
    st.apply(1, "pass")
    st.apply(0, "pass")
    assert ids(st, 1) == ["a", "pass"]
    assert st.view(1)["decision"]["prompt"].startswith("First declared")


_EFFECT_DECISIONS = textwrap.dedent("""
    ruleset effect_decisions
    players 2
    cards standard(jokers = 0) in deck
    zone deck: pile hidden
    var got: list of int = []
    effect gift(n: int) "Gift | 贈り物" {
        choose controller "How many? | いくつ?" {
            take k in 1..n "take {k} | {k} 取る" { got += [k * times] }
        }
    }
    window w "Boost | 強化" (it, p) {
        boost where it.times == 1 "boost | 強化" {
            choose p { double { it.times *= 2 } triple { it.times *= 3 } }
        }
    }
    setup { }
    phase play {
        activate gift(3) by players[0]
        activate gift(1) by players[1]
    }
""")


def test_decisions_inside_a_response_and_an_effect_body_survive_a_round_trip():
    g = load_text(_EFFECT_DECISIONS)
    st = g.new_state(0)
    assert st.to_move() == [1] and ids(st, 1) == ["boost", "pass"]
    st.apply(1, "boost")
    assert ids(st, 1) == ["double", "triple"]          # a decision inside a response body
    copy = State.from_json(saved(st), g)
    for s in (st, copy):
        s.apply(1, "triple")
    # the boosted item has times 3: nobody can boost again, it resolves; its body asks P0
    assert ids(st, 0) == ["take 1", "take 2", "take 3"]
    assert st.view(0)["decision"]["prompt"] == "How many? | いくつ?"
    for s in (st, copy):
        s.apply(0, "take 2")
        s.apply(0, "pass")                               # second gift: P0 may boost, passes; P1 too
        s.apply(1, "pass")
        s.apply(1, "take 1")
    assert st.over and copy.ev == st.ev
    assert vars_of(st)["got"] == [6, 1]


# ================================================================== 11. checks
def test_check_keeps_firing_is_a_runtime_error():
    st = scenario_state("checks", """
        setup: {zones: {"hand[P0]": [♠K], "hand[P1]": [♠Q], "hand[P2]": [♠J], table: []}, current: P0}
    """)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(0, "panic")
    assert "keeps firing" in e.value.first.message
    assert e.value.first.span.file.endswith("checks.fuda")


def test_check_keeps_firing_has_its_own_code():
    st = scenario_state("checks", """
        setup: {zones: {"hand[P0]": [♠K], "hand[P1]": [♠Q], "hand[P2]": [♠J], table: []}, current: P0}
    """)
    with pytest.raises(RuleRuntimeError) as e:
        st.apply(0, "panic")
    assert e.value.first.code == "E603"


def test_check_wins_on_another_players_turn_in_the_log():
    st = scenario_state("checks", """
        setup: {zones: {"hand[P0]": [♠5, ♠A], "hand[P1]": [♥2, ♥3], "hand[P2]": [♦4], table: []}, current: P0}
    """)
    st.apply(0, "play ♠5")
    assert st.over and st.game.winners(st) == [1]
    assert "check match for P1" in [e["text"] for e in full_view(st)["log"]]      # a replay shows the check
    assert "winner: P1" in view_log(st, 2)          # a player sees what it did (the check line: next test)


def test_a_check_that_fires_is_not_news_to_the_players():
    """`check ace_held for p when (any c in hand[p] where c.rank == 1)` whose block only tells p: every
    player's log read `check ace_held for P1` — P0 learned that P1 holds an ace. Players see what a
    check does (its moves, logs, tells to them), not that its condition held."""
    g = load_text(textwrap.dedent("""
        ruleset secret_check
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        var warned: bool per player = false owner
        check ace_held for p in players when not warned[p] and (any c in hand[p] where c.rank == 1) {
            warned[p] = true
            tell p "you hold an ace | エースがある"
        }
        setup {
            shuffle deck
            deal 5 from deck to hand
        }
        phase play {
            choose current { ok { } }
            end game
        }
    """), {}, filename="secret_check.fuda")
    fired = 0
    for seed in range(6):
        st = g.new_state(seed)
        for p in (0, 1):
            assert not [t for t in view_log(st, p) if t.startswith("check")]
        fired += sum(1 for e in full_view(st)["log"] if e["text"].startswith("check ace_held"))
    assert fired


def test_check_reading_direction_fires_after_reverse():
    g = load_text(textwrap.dedent("""
        ruleset reverse_check
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var flipped: bool = false
        check backwards when direction == -1 and not flipped {
            flipped = true
        }
        setup { }
        phase play {
            choose players[0] { rev { reverse direction } }
            choose players[0] { stop { end game } }
        }
    """))
    st = g.new_state(0)
    st.apply(0, "rev")
    assert vars_of(st)["flipped"] is True


def test_check_reading_scores_and_current():
    g = load_text(textwrap.dedent("""
        ruleset score_check
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        check target for p in active when score[p] >= 3 {
            win p
        }
        setup { }
        phase play {
            while true {
                choose current {
                    gain n in 1..2 "gain {n}" { score[current] += n }
                    skip { }
                }
                current = next(current)
            }
        }
    """))
    st = g.new_state(0)
    st.apply(0, "gain 2")
    st.apply(1, "skip")
    st.apply(2, "gain 1")
    assert not st.over
    st.apply(0, "gain 1")
    assert st.over and st.game.winners(st) == [0]
    assert [r["score"] for r in st.result()] == [3, 0, 1]


def test_checks_run_after_what_they_read_a_reveal_and_a_negation():
    """Checks run after the kinds of change they look at: one reading `revealed` after a reveal, one
    reading the stack after a negation (a check reading neither is not run by them)."""
    g = load_text(textwrap.dedent("""
        ruleset reads_check
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var shown: bool = false
        var spotted: bool = false
        effect boom "boom" { }
        effect cancel(victim: item) "cancel" { negate victim }
        windows answer
        window answer (it, p) when it.kind == boom {
            stop "stop it" { activate cancel(it) by p }
        }
        check face when not shown and revealed(top(deck)) {
            shown = true
        }
        check fizzled when not spotted and (any i in stack where i.negated) {
            spotted = true
        }
        setup { }
        phase play {
            choose players[0] { show { reveal top(deck) } }
            activate boom() by players[0]
            choose players[0] { stop { end game } }
        }
    """))
    st = g.new_state(0)
    st.apply(0, "show")
    assert vars_of(st)["shown"] is True
    st.apply(1, "stop")                                  # P1 negates the boom: the check sees it
    assert vars_of(st)["spotted"] is True


def test_quantifiers_over_a_few_constants():
    """`any`/`all` over a constant list are unrolled by the compiler: the same answers, empty lists too."""
    g = load_text(textwrap.dedent("""
        ruleset quantifiers
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        var r: list of bool = []
        fn held(cs: list of card) -> bool = any c in cs where c in hand[players[0]]
        setup {
            move card("♠A") to hand[players[0]]
            r = [any x in [1, 2, 3] where x > 2, any x in [1, 2, 3] where x > 3, all x in [1, 2, 3] where x > 0,
                 all x in [1, 2, 3] where x > 1, held([card("♥K"), card("♠A")]), held([card("♥K")]),
                 any s in [♠, ♥] where s == ♥]
        }
        phase play { end game }
    """))
    lines = g.comp.source.splitlines()      # only the function's own body (its list is a parameter) loops
    assert [ln.strip()[:10] for ln in lines if "any(" in ln or "all(" in ln] == ["return any"]
    assert vars_of(g.new_state(0))["r"] == [True, False, True, False, True, False, True]



def test_quantifier_tests_of_ifs_compile_to_loops():
    """`if [not] any/all …` loops ahead of the `if` and stops at the first deciding element:
    the same branches as the expressions, for empty and non-empty lists, in plain rules and in
    rules that wait for decisions."""
    g = load_text(textwrap.dedent("""
        ruleset quantifier_ifs
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var r: list of int = []
        rule probe(xs: list of int) {
            if any x in xs where x > 2 { r += [1] } else { r += [0] }
            if not (any x in xs where x > 2) { r += [1] } else { r += [0] }
            if all x in xs where x > 2 { r += [1] } else { r += [0] }
            if not (all x in xs where x > 2) { r += [1] } elif size(xs) == 0 { r += [9] } else { r += [0] }
        }
        rule waits(xs: list of int) {
            if any x in xs where x > 2 {
                choose players[0] { go "go | 進む" { r += [5] } }
            } else {
                r += [6]
            }
        }
        setup { }
        phase play {
            for xs in [[], [1, 2], [1, 3], [3, 4]] { probe(xs) }
            waits([1, 2])
            waits([4])
            end game
        }
    """))
    assert "_q = True; break" in g.comp.source and "any(" not in g.comp.source
    st = g.new_state(0)
    st.apply(0, "go")
    assert vars_of(st)["r"] == [0, 1, 1, 9,  0, 1, 0, 1,  1, 0, 0, 1,  1, 0, 1, 0,  6, 5]


def test_best_by_an_ordering_is_the_first_strongest():
    """`best x in S by o(x)` runs the ordering's tiers in one loop (OB_…); it must pick what the
    key of every element compared one by one picks, the first of equals on a tie."""
    g = game("orderings", joker_tops=False)
    assert "OB_strength(st, " in g.comp.source
    ns = g.comp.namespace
    st = g.new_state(0)
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(g.ncards), rng.randint(0, 6))
        st.g[[v.slot for v in g.prog.vars if v.name == "trump"][0]] = rng.randrange(4)
        expect = max(cards, key=lambda c: ns["O_strength"](st, c), default=None)
        assert ns["OB_strength"](st, cards) == expect


# ================================================================== 12. orderings
@pytest.mark.parametrize(("options", "winner"), [
    ({}, "JK1"),
    ({"joker_tops": False}, "♠3"),
    ({"joker_tops": False, "ace": "low"}, "♠3"),
])
def test_best_in_trick_depends_on_options(options, winner):
    st = scenario_state("orderings", f"""
        options: {json.dumps(options)}
        setup: {{zones: {{trick: [♣5, ♥K, ♠3, ♣A, JK1]}}}}
    """)
    assert vars_of(st)["winner"] == winner


def test_ace_option_changes_the_lead_winner():
    for ace, winner in (("high", "♣A"), ("low", "♣5")):
        st = scenario_state("orderings", f"""
            options: {{ace: {ace}}}
            setup: {{zones: {{trick: [♣5, ♥K, ♣A, ♦Q]}}}}
        """)
        assert vars_of(st)["winner"] == winner


def test_bad_enum_option_value_is_refused():
    with pytest.raises(FudaError) as e:
        game("orderings", ace="middle")
    assert e.value.first.code == "E402"


# ================================================================== 13. repetition
def test_repetition_counts_with_api():
    st = game("repetition").new_state(0)
    for p, a in [(0, "shift"), (1, "shift"), (0, "shift"), (1, "shift")]:
        st.apply(p, a)
    assert st.over
    assert vars_of(st)["history"] == [1, 1, 2, 2, 3]
    assert [r["outcome"] for r in st.result()] == ["draw", "draw"]


# ================================================================== 14. options & variants
def test_option_defaults_and_api_overrides():
    v = vars_of(game("opts_base").new_state(0))
    assert v == {"banner": "hello", "total": 3.0, "steps": 1, "strictness": False, "mode": "slow"}
    g = game("opts_base", players=2, hand_size=1, speed="fast", bonus=0.25, greeting="hi", strict=True)
    assert g.n == 2
    st = g.new_state(0)
    assert vars_of(st) == {"banner": "hi", "total": 0.5, "steps": 2, "strictness": True, "mode": "fast"}
    assert st.view(None)["zones"]["hand[P1]"]["size"] == 1


@pytest.mark.parametrize(("options", "code"), [
    ({"hand_size": 9}, "E402"),
    ({"speed": "warp"}, "E402"),
    ({"strict": "maybe"}, "E402"),
    ({"colour": 1}, "E401"),
    ({"players": 7}, "E402"),
])
def test_bad_option_values(options, code):
    with pytest.raises(FudaError) as e:
        game("opts_base", **options)
    assert e.value.first.code == code


def test_an_int_option_s_range_may_have_negative_bounds():
    """newcomer45 P2: `int -5..0` was a syntax error (a joker worth -2 or -5 at some tables)."""
    from interpreter.api import check_ruleset

    src = textwrap.dedent("""
        ruleset negative
        players 2
        option joker_value: int -5..0 = -2
        option other: int - 3 .. -1 = -1
        cards standard() in deck
        zone deck: pile hidden
        setup { }
        phase play { end game }
    """)
    prog = check_ruleset("negative.fuda", text=src)
    assert prog.option_values == {"joker_value": -2, "other": -1, "players": 2}
    assert check_ruleset("negative.fuda", text=src, options={"joker_value": -5}).option_values["joker_value"] == -5
    with pytest.raises(FudaError) as e:
        check_ruleset("negative.fuda", text=src, options={"joker_value": -6})
    assert e.value.first.message == "option joker_value must be within -5..0; given value is -6"


def test_variant_overrides_and_additions():
    g = game("opts_variant")
    st = g.new_state(0)
    assert st.view(None)["zones"]["hand[P0]"]["size"] == 4
    assert vars_of(st)["steps"] == 3
    assert [r["score"] for r in st.result()] == [0, 15, 0]
    assert [e.name for e in g.effects] == ["shout"]
    st2 = game("opts_variant", shout_size=9, hand_size=2).new_state(0)
    assert [r["score"] for r in st2.result()] == [0, 19, 0]
    assert st2.view(None)["zones"]["hand[P2]"]["size"] == 2
    # the base itself is unchanged
    base = game("opts_base").new_state(0)
    assert vars_of(base)["steps"] == 1 and [r["score"] for r in base.result()] == [1, 0, 0]
    with pytest.raises(FudaError) as e:
        game("opts_base", shout_size=3)
    assert e.value.first.code == "E401"


def test_same_name_twice_without_override_is_refused(tmp_path):
    (tmp_path / "base.fuda").write_text((CONSTRUCTS / "opts_base.fuda").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    (tmp_path / "v.fuda").write_text("ruleset v\nextends base\nrule award(p: player) { }\n", encoding="utf-8")
    with pytest.raises(FudaError) as e:
        load(str(tmp_path / "v.fuda"))
    assert e.value.first.code == "E102"
    (tmp_path / "w.fuda").write_text("ruleset w\nextends base\noverride rule nothing_here { }\n", encoding="utf-8")
    with pytest.raises(FudaError) as e2:
        load(str(tmp_path / "w.fuda"))
    assert e2.value.first.code == "E404"


def test_an_override_calls_the_base_version():
    """qa16 V2: base(…) in an override runs the declaration it replaces (fn, rule, phase); a variant
    of a variant calls its own base, which calls the first base."""
    st = game("base_calls").new_state(0)
    assert vars_of(st)["steps"] == 10                      # base() * 10, the base's 1
    assert [r["score"] for r in st.result()] == [12, 12, 0]    # (5 + 1) * 2: before, the base's +1, after
    again = game("base_calls_again").new_state(0)
    assert vars_of(again)["steps"] == 11
    assert [r["score"] for r in again.result()] == [1012, 1012, 0]
    # a third level that replaces the override without calling base(): the base version only the
    # replaced override called is left out (the phase's is still called)
    src = load_source(str(CONSTRUCTS / "third.fuda"), "ruleset third\nextends base_calls\n"
                      "override rule award(p: player) {\n    score[p] += 2\n}\n")
    assert [d.name for d in src.decls if "@" in getattr(d, "name", "")] == ["step_size@opts_base", "play@opts_base"]


@pytest.mark.parametrize(("body", "message", "hint"), [
    ("rule extra(p: player) {\n    base(p)\n}\n",
     "base(…) calls the declaration an override replaces, and here nothing is overridden", "override rule NAME"),
    ("override effect shout(n: int) {\n    base(n)\n}\n", "here nothing is overridden", "override fn NAME"),
    ("override rule award(p: player) {\n    base(p, 2)\n}\n", "base takes 1 argument, got 2", "base(p)"),
])
def test_base_call_mistakes(tmp_path, body, message, hint):
    for name in ("opts_base", "opts_variant"):
        (tmp_path / f"{name}.fuda").write_text((CONSTRUCTS / f"{name}.fuda").read_text(encoding="utf-8"),
                                               encoding="utf-8")
    (tmp_path / "v.fuda").write_text(f"ruleset v\nextends opts_variant\n{body}", encoding="utf-8")
    with pytest.raises(FudaError) as e:
        load(str(tmp_path / "v.fuda"))
    d = e.value.first
    assert (d.code, d.span.line, d.span.col) == ("E104" if "nothing" in message else "E202", 4, 5)
    assert message in d.message and hint in (d.hint or "")


def test_a_variant_adds_members_to_a_base_enum():
    """qa16 V4: `override enum` appends: the base's members keep their place (and index)."""
    g = load(str(ROOT / "rulesets" / "tests" / "examples" / "love_letter" / "love_letter_spy.fuda"))
    role = g.prog.enums["Role"]
    assert role.members == ["guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess", "spy"]
    assert role.labels[-1] == "Spy"


@pytest.mark.parametrize(("text", "message", "hint"), [
    ("override enum Role { spy, guard }", "enum Role already has guard",
     "love_letter.fuda:25:5; an override of an enum lists only the members it adds"),
    ("override enum Role { spy, spy }", "Role lists spy twice", ""),
    ("enum Role { spy }", "enum Role is already declared", "write `override enum` to add members to it"),
    ("override enum Rank { ace }", "override of enum Rank, which the base does not declare", ""),
])
def test_enum_override_mistakes(text, message, hint):
    with pytest.raises(FudaError) as e:
        load_text(f"ruleset v\nextends love_letter\n{text}\n")
    d = e.value.first
    assert d.span.line == 3 and message in d.message and hint in (d.hint or "")


BIG_DURAK = "ruleset v\nextends durak\nplayers 2..8\ncards standard() in talon\n"


def test_a_variant_replaces_a_named_require():
    """qa16 V6: the base's `require enough_cards` refused 7 players even with 52 cards; the E402 says
    whose require it is and how a variant replaces it."""
    with pytest.raises(FudaError) as e:
        load_text(BIG_DURAK, {"players": 7})
    d = e.value.first
    assert d.code == "E402" and d.span.file.endswith("durak.fuda") and d.span.line == 22
    assert "a require of durak.fuda" in d.hint and "override require enough_cards: CONDITION" in d.hint
    g = load_text(BIG_DURAK + 'override require enough_cards: hand_size * size(players) <= 52 "too many"\n',
                  {"players": 7})
    assert g.n == 7
    with pytest.raises(FudaError) as e2:
        load_text(BIG_DURAK + 'override require enough_cards: hand_size * size(players) <= 40 "too many"\n',
                  {"players": 7})
    assert e2.value.first.message.startswith("too many") and e2.value.first.span.line == 5


@pytest.mark.parametrize(("text", "code", "message", "hint"), [
    ('override require hand_size < 9 "x"', "E404", "override of a require without a name",
     "the base names enough_cards, show_trump_needs_perevodnoy"),
    ('override require enough: true "x"', "E404", "override of require enough, which the base does not declare",
     "did you mean require enough_cards?"),
    ('require enough_cards: true "x"', "E102", "require enough_cards is already declared", "write `override`"),
    ('require hand_size > 9 "few"', "E402", "few (hand_size = 6)", "it has no name, so a variant cannot replace it"),
])
def test_require_override_mistakes(text, code, message, hint):
    with pytest.raises(FudaError) as e:
        load_text(f"ruleset v\nextends durak\n{text}\n")
    d = e.value.first
    assert (d.code, d.span.line) == (code, 3) and d.message.startswith(message) and hint in (d.hint or "")


DODGE = 'window dodge (it, p) {\n    dodge "dodge | 回避" { }\n}\n'


@pytest.mark.parametrize(("base", "line", "order"), [
    ("windows", "windows dodge after quiet", ["quiet", "dodge", "judge", "poll"]),     # the base's windows line
    ("windows", "windows dodge before quiet", ["dodge", "quiet", "judge", "poll"]),
    ("reactions", "windows dodge after react", ["react", "dodge", "react_all"]),       # no line: declaration order
])
def test_a_variant_puts_a_window_into_the_base_order(tmp_path, base, line, order):
    """qa16 V11: `windows NAME after|before W` in a variant, without restating the base's order."""
    (tmp_path / "b.fuda").write_text((CONSTRUCTS / f"{base}.fuda").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "v.fuda").write_text(f"ruleset v\nextends b\n{DODGE}{line}\n", encoding="utf-8")
    assert [w.name for w in load(str(tmp_path / "v.fuda")).prog.windows] == order


@pytest.mark.parametrize(("text", "code", "where", "message", "hint"), [
    ("windows dodge after qiuet", "E107", (6, 21), "window qiuet is not in the base's windows order",
     "did you mean quiet?"),
    ("windows dodge, judge after poll", "E102", (6, 16), "window judge is already in the base's windows order",
     "the base's order: windows quiet, judge, poll"),
    ("", "E107", (3, 1), "window dodge is not in the windows order",
     "add it to: windows quiet, judge, poll, or put it into the base's order: windows dodge after poll"),
])
def test_window_order_mistakes_in_a_variant(tmp_path, text, code, where, message, hint):
    (tmp_path / "b.fuda").write_text((CONSTRUCTS / "windows.fuda").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "v.fuda").write_text(f"ruleset v\nextends b\n{DODGE}{text}\n", encoding="utf-8")
    with pytest.raises(FudaError) as e:
        load(str(tmp_path / "v.fuda"))
    d = e.value.first
    assert (d.code, d.span.line, d.span.col) == (code, *where) and d.message == message and d.hint == hint
    assert len(e.value.diagnostics) == 1


def test_a_window_place_needs_a_base():
    with pytest.raises(FudaError) as e:
        load_text((CONSTRUCTS / "windows.fuda").read_text(encoding="utf-8").replace(
            "windows quiet, judge, poll", "windows quiet after judge"))
    assert e.value.first.code == "E404" and "this ruleset has no base" in e.value.first.message


# ================================================================== 15. texts & logs
def test_logs_in_both_languages():
    st = scenario_state("texts", """
        setup: {zones: {"hand[P1]": [♥Q]}}
        steps:
          - P0: greet P1
    """)
    en = log_texts(st, "all", 0)
    ja = log_texts(st, "all", 1)
    assert "P2 says hi" in en and "P2 が挨拶" in ja
    assert "same in both languages" in en and "same in both languages" in ja
    assert "P0 greets P1" in en and "P0 が P1 に挨拶" in ja
    assert "(P1 へ) あなたのカードは ♥Q" in ja


def test_tell_is_visible_only_to_its_player():
    st = scenario_state("texts", """
        setup: {zones: {"hand[P1]": [♥Q]}}
    """)
    assert "(to P1) your card is ♥Q" in view_log(st, 1)
    for q in (0, 2, None):
        assert not any("your card" in t for t in view_log(st, q))
        assert "♥Q" not in json.dumps(st.view(q), ensure_ascii=False)
    labels = {a.id: a.label for a in st.legal_actions(0)}
    assert labels == {"greet P1": "greet P1 | P1 に挨拶", "greet P2": "greet P2 | P2 に挨拶",
                      "silent": "stay silent | 黙る"}
    assert st.view(0)["decision"]["prompt"] == "Pick one | 一つ選ぶ"


def test_text_builtin():
    g = load_text(textwrap.dedent("""
        ruleset text_fn
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var note: text = ""
        setup { }
        phase play { note = "to " + text(players[1]) }
    """))
    st = g.new_state(0)
    assert vars_of(st)["note"] == "to P1"


def test_text_literal_in_expression_interpolates():
    g = load_text(textwrap.dedent("""
        ruleset text_lit
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var note: text = ""
        setup { }
        phase play { note = "to {players[1]}" }
    """))
    assert vars_of(g.new_state(0))["note"] == "to P1"


def test_keyword_as_option_name_after_another_option():
    load_text(textwrap.dedent("""
        ruleset kw_option
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var x: int = 0
        setup { }
        phase play {
            choose players[0] {
                a { x = 1 }
                reverse { x = 2 }
            }
        }
    """))


def test_statement_starting_with_card_literal():
    load_text(textwrap.dedent("""
        ruleset kw_card
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var x: int = 0
        var marked: bool per card = false
        setup { }
        phase play {
            x = 1
            card("♠A").marked = true
        }
    """))


def test_numbers_become_ints_and_read_as_people_write_them():
    g = load_text("""
ruleset numbers
players 2
cards standard() in deck
zone deck: pile hidden
fn lead(p: player) -> int = round(score[p] - max([score[q] for q in others(p)]))
setup { }
phase play {
    score[players[0]] += 3 * 1.2
    log "{score[players[0]]} {lead(players[0])} {floor(-2.5)} {ceil(2.1)} {round(2.5)} {round(-2.5)} {round(0.49)}"
    score[players[1]] = 1234567.5
    log "{score[players[1]]}"
    end game
}
""", filename="numbers.fuda")
    st = g.new_state(0)
    assert [e["text"] for e in st.view(None)["log"] if e["kind"] == "log"] == ["3.6 4 -3 3 3 -3 0", "1234567.5"]
    assert [r["score"] for r in g.result(st)] == [3.6, 1234567.5]


# ================================================================== 16. engine contract
def _fingerprint(st: State) -> tuple:
    return (json.dumps(st.to_json(), sort_keys=True, ensure_ascii=False), tuple(log_texts(st)))


def test_clone_is_independent():
    st = game("zones").new_state(4)
    before = _fingerprint(st)
    cl = st.clone()
    assert cl == st
    a = full_zone(cl, "hand[P0]")[0]
    cl.apply(0, f"show {a}")
    cl.apply(0, f"play {a}")
    cl.apply(0, "peek")
    assert _fingerprint(st) == before
    assert cl != st
    assert ids(st, 0)[0] == f"show {a}"
    # and the other way round
    st.apply(0, "stop")
    assert not cl.over and st.over


def test_clone_mid_window_is_independent():
    st = scenario_state("stack", """
        setup: {zones: {"hand[P0]": [♠2], "hand[P1]": [♦7], "hand[P2]": [♠A]}, current: P0}
        steps:
          - P0: attack ♠2
    """)
    cl = st.clone()
    cl.apply(1, "echo ♦7")
    assert st.view(None)["stack"][0]["times"] == 1
    st.apply(1, "pass")
    st.apply(2, "pass")
    assert vars_of(st)["drawn"]["P1"] == 2
    cl.apply(2, "pass")
    assert vars_of(cl)["drawn"]["P1"] == 4


def test_clone_mid_simultaneous_decision_is_independent():
    st = _simul_state()
    st.apply(1, "give ♥3")
    cl = st.clone()
    cl.apply(0, "give ♠A")
    assert st.to_move() == [0] and ids(st, 0) == ["give ♠A", "give ♠2"]
    assert full_zone(st, "hand[P1]") == ["♥3", "♥4"] and full_zone(cl, "hand[P1]") == ["♥4", "♠A"]
    st.apply(0, "give ♠2")
    assert full_zone(st, "hand[P1]") == ["♥4", "♠2"]


def _round_trip_and_continue(st: State, moves: list[tuple[int, str]]) -> None:
    data = saved(st)
    back = State.from_json(data, st.game)
    assert back == st
    assert back.to_move() == st.to_move()
    for p in set(st.to_move()):
        assert ids(back, p) == ids(st, p)
    assert back.view(None) == st.view(None)
    # without the game: the ruleset is loaded again from the saved identity
    again = State.from_json(data)
    assert again == st
    for p, a in moves:
        st.apply(p, a)
        back.apply(p, a)
        again.apply(p, a)
    assert back.ev == st.ev and again.ev == st.ev
    assert back == st and again == st


_DAMAGE: list[tuple[str, Any]] = [
    ("items", lambda d: d.update(items=[])), ("tally", lambda d: d.update(tally=1.5)),
    ("tcard", lambda d: d.update(tcard=1)), ("vis", lambda d: d.update(vis=[])),
    ("z_card", lambda d: d["z"][0].__setitem__(0, 10 ** 30)), ("z_twice", lambda d: d["z"][0].append(d["z"][0][0])),
    ("loc", lambda d: d["loc"].__setitem__(0, d["loc"][0] + 1)), ("pend", lambda d: d.update(pend=True)),
    ("pend_site", lambda d: d.update(pend=[10 ** 6, [0]])), ("opts", lambda d: d["opts"].__setitem__(0, [0, None])),
    ("frame_label", lambda d: d["frames"][-1].__setitem__(1, 999)), ("ev", lambda d: d["ev"].__setitem__(0, 5)),
    ("ev_field", lambda d: d["ev"][0].__setitem__(2, "x")),
]


@pytest.mark.parametrize("damage", [f for _, f in _DAMAGE], ids=[k for k, _ in _DAMAGE])
def test_qa8_a_damaged_saved_state_is_e503(damage):
    """QA8 B-state-json: a damaged fuda-state/1 raised AttributeError in from_json, or loaded and then
    failed at the first view or move with IndexError/KeyError. Its shape is now checked against the
    ruleset (and every view and menu tried) when it is loaded."""
    st = game("orderings").new_state(0)
    st.apply(st.to_move()[0], st.legal_actions(st.to_move()[0])[0].id)
    assert st.to_move() and st.frames and st.opts
    data = saved(st)
    damage(data)
    with pytest.raises(FudaError) as e:
        State.from_json(data, st.game)
    assert e.value.first.code == "E503" and "damaged" in e.value.first.message


def test_a_saved_state_of_other_compiled_rules_is_refused_clearly():
    """A saved state resumes compiled procedures at their labels: from other compiled rules (another
    option value here; a changed ruleset or compiler alike) it is refused with E503, not misread."""
    st = game("orderings").new_state(0)
    data = saved(st)
    assert State.from_json(data, st.game) == st
    other = game("orderings", ace="low")
    with pytest.raises(FudaError) as e:
        State.from_json(data, other)
    assert e.value.first.code == "E503" and "fuda replay" in e.value.first.message
    del data["compiled"]                     # saved before states named their compiled rules
    assert State.from_json(data, st.game) == st
    # the name does not depend on what was compiled before in the process, nor on the file's path
    load("napoleon")
    text = (CONSTRUCTS / "orderings.fuda").read_text(encoding="utf-8")
    assert load_text(text, filename="elsewhere/orderings.fuda").fingerprint == st.game.fingerprint


def test_json_round_trip_mid_game():
    st = game("zones").new_state(5)
    a, b = full_zone(st, "hand[P0]")
    st.apply(0, f"show {a}")
    st.apply(0, "flip")
    _round_trip_and_continue(st, [(0, f"whisper {b} P1"), (0, "peek"), (0, f"bury {a}"), (0, "stop")])


def test_json_round_trip_mid_window_with_stack_items():
    st = scenario_state("stack", """
        setup: {zones: {"hand[P0]": [♠2, ♥A], "hand[P1]": [♦7], "hand[P2]": [♠A]}, current: P0}
        steps:
          - P0: attack ♠2
          - P1: pass
          - P2: cancel ♠A
    """)
    assert len(st.stack) == 2 and st.to_move() == [0]
    _round_trip_and_continue(st, [(0, "cancel ♥A"), (1, "echo ♦7"), (1, "wait")])
    assert vars_of(st)["drawn"]["P1"] == 4


def test_json_round_trip_mid_simultaneous_decision():
    st = _simul_state()
    st.apply(1, "give ♥3")
    _round_trip_and_continue(st, [(0, "give ♠A"), (1, "give ♠A"), (0, "give ♥3")])
    assert st.over


def test_json_round_trip_inside_a_called_rule_frame():
    st = game("flow").new_state(0)
    for p, a in [(1, "start 1"), (1, "zero"), (0, "zero"), (1, "zero"), (0, "leave"), (0, "more")]:
        st.apply(p, a)
    assert len(st.frames) >= 2                  # suspended inside count_up
    _round_trip_and_continue(st, [(0, "enough"), (0, "more"), (0, "enough"), (1, "stay"), (0, "jump")])
    assert st.over and vars_of(st)["trail"][-3:] == [2, 2, 999]


def test_same_seed_same_game():
    g = game("contract")
    a = random_game(g, 11)
    b = random_game(g, 11)
    assert a.ev == b.ev and a == b
    c = random_game(g, 12)
    assert c.ev != a.ev


def test_new_state_same_seed_identical_setup():
    g = game("roles")
    for seed in range(5):
        assert g.new_state(seed) == g.new_state(seed)
    assert len({json.dumps(g.new_state(s).to_json()["g"]) for s in range(12)}) > 1


def test_decision_limit_caps_the_game_as_a_draw():
    g = game("contract")
    st = random_game(g, 3)
    assert st.over and st.capped
    assert st.ndec == 10
    assert [r["outcome"] for r in st.result()] == ["draw", "draw"]
    assert "decision limit reached (10): the game ends, a draw for the players still in it" in log_texts(st)
    assert st.view(0)["capped"] is True


def test_parameters_may_have_defaults_that_calls_leave_out():
    """A newcomer's Coup passed every per-item flag at every activate."""
    g = load_text(textwrap.dedent("""
        ruleset r
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var got: list of int = []
        var who: player = none
        effect claim(target: player = none, challenged: bool = false, n: int = 2) "Claim" {
            got += [n]
            if challenged { got += [100] }
            who = target
        }
        fn plus(a: int, b: int = 10) -> int = a + b
        rule add(x: int = 5) { got += [x] }
        setup { }
        phase play {
            activate claim()
            activate claim(players[1], n = 7)
            got += [if who == players[1] then 1 else 0]
            activate claim(challenged = true)
            got += [plus(1), plus(1, 2)]
            add()
            add(x = 6)
            end game
        }
    """))
    st = g.new_state(0)
    g.playout(st, lambda: 0.5)
    assert vars_of(st)["got"] == [2, 7, 1, 2, 100, 11, 3, 5, 6]


def test_min_max_of_two_numbers_and_unique():
    """Small built-ins a newcomer's Hold'em missed: min(a, b), max(a, b) (also in fixed values),
    unique(list)."""
    text = """
ruleset mm
players 2
option cap: int 1..50 = min(30, 20)
cards standard(jokers = 0) in deck
zone deck: pile hidden
var a: int = 0
var b: number = 0
var u: list of int = []
setup {
    a = min(cap, 7) + max(3, size(deck))
    b = max(1.5, 1)
    u = unique([3, 1, 3, 2, 1])
}
phase play { }
"""
    game = load_text(text)
    st = game.new_state(1)
    g = {v.name: st.g[v.slot] for v in game.prog.vars}
    assert (g["a"], g["b"], g["u"], game.prog.options["cap"].value) == (59, 1.5, (3, 1, 2), 20)
    with pytest.raises(FudaError) as info:
        load_text(text.replace("max(1.5, 1)", "max(1.5, true)"))
    assert info.value.first.code == "E201" and "need numbers" in info.value.first.message


def test_distinct_offers_each_face_once_and_card_lists_as_multisets_of_faces():
    """Identical copies (same label, same attributes) give one choice, not one per copy: the first
    copy stands for them; a card with another's label but other attributes is another face."""
    st = scenario_state("distinct", """
        setup: {zones: {"hand[P0]": [duke1, duke2, contessa1, contessa3, odd]}}
    """)
    assert ids(st, 0) == [
        "show_one duke1", "show_one contessa1", "show_one odd",
        "give_back duke1 duke2", "give_back duke1 contessa1", "give_back duke1 odd",
        "give_back contessa1 contessa3", "give_back contessa1 odd"]
    assert [a.label for a in st.legal_actions(0)][:3] == ["reveal Duke", "reveal Contessa | reveal 伯爵夫人", "reveal Duke"]
    with pytest.raises(FudaError) as info:
        load_text((CONSTRUCTS / "distinct.fuda").read_text(encoding="utf-8").replace(
            "distinct(hand[current])", "distinct([1, 2])"))
    assert info.value.first.code == "E201" and "list of cards or of card lists" in info.value.first.message


def test_a_decision_offers_each_action_once():
    """A binder over a list that repeats a value (two sevens' ranks, a variable appended to twice,
    a literal) offers the action once: the decision's raw options hold no duplicate, so a random seat
    is not twice as likely to pick it (a newcomer's 大富豪 found `pick 1 5` listed twice)."""
    st = scenario_state("once_each", """
        setup: {zones: {"hand[P0]": [♠7, ♥7, ♣K]}}
    """)
    assert ids(st, 0) == ["ask 7", "ask 13", "step 2 5", "show ♠7", "show ♥7", "show ♣K"]
    assert len(set(st.opts or ())) == len(st.opts or ())


def test_actions_whose_ids_read_alike_are_numbered_so_a_log_names_one():
    """Gin Rummy newcomer: a run laid out whole or as two melds read `lay ♠A ♠2` both; `fuda play`
    took the second, the log kept the id, and the replay took the first. The later ones get `#2` …"""
    game = load_text("""ruleset dup_ids
players 2
cards standard(ranks = [1, 2]) in deck
zone deck: pile hidden
zone rows: sequence public "Rows"
var laid: int = 0
setup { }
phase play {
    let a = card("♠A")
    let b = card("♠2")
    choose players[0] {
        lay g in [[[a, b]], [[a], [b]]] "lay out {g}" {
            for m in g {
                insert rows back as z
                move m to z
            }
            laid = size(rows)
        }
    }
}
""")
    st = game.new_state(0)
    assert ids(st, 0) == ["lay ♠A ♠2", "lay ♠A ♠2 #2"]
    st.apply(0, "lay ♠A ♠2 #2")
    assert vars_of(st)["laid"] == 2


def test_sources_that_cannot_repeat_are_looped_over_as_they_are():
    """Only a source that might repeat a value pays for the check: zones, ranges, literals of distinct
    constants, filters and sortings of them, and locals, functions and rules whose every definition is
    such are proven (distinct_values.py) — the bundled games' hot decisions among them."""
    src = load(CONSTRUCTS / "once_each.fuda").comp.source
    enum = src[src.index("def E0("):src.index("def LB0(")]
    assert enum.count("_uniq(") == 3       # the ranks, the appended variable, the literal [5, 5]
    text = (CONSTRUCTS / "once_each.fuda").read_text(encoding="utf-8").replace(
        "ask r in ranks(players[0])", "ask r in mine").replace("    choose players[0] {", """    let mine = small(players[0])
    choose players[0] {""").replace("phase play {", """rule small(p: player) -> list of int {
    let low = [r for r in 1..13 where r < 8]
    if size(hand[p]) > 2 {
        return sorted(low)
    }
    return [1, 2, 3]
}
phase play {""")

    def wrapped(text: str) -> int:
        src = load_text(text).comp.source
        return src[src.index("def E0("):src.index("def LB0(")].count("_uniq(")

    assert wrapped(text) == 2
    assert wrapped(text.replace("return [1, 2, 3]", "return [1, 2, 2]")) == 3
    assert "_uniq(" not in load("napoleon").comp.source


def test_require_states_a_condition_on_the_options():
    """`require COND "message"` holds the options a table chooses to what the rules need together:
    checked at load with the chosen values (E402 naming them), not a condition (E201)."""
    text = """
ruleset rq
players 2..6
option small_blind: int 1..1000 = 10
option big_blind: int 1..2000 = 20
option sizing: {free, preset} = free
require big_blind >= small_blind * 2 "the big blind is at least twice the small blind"
require sizing == free or size(players) <= 4 "preset sizes are for four players at most"
cards standard() in deck
zone deck: pile hidden
setup { }
phase play { }
"""
    assert load_text(text, {"big_blind": 40, "small_blind": 20}).n == 2
    with pytest.raises(FudaError) as info:
        load_text(text, {"small_blind": 50})
    d = info.value.first
    assert (d.code, d.span.line) == ("E402", 7)
    assert d.message == "the big blind is at least twice the small blind (big_blind = 20, small_blind = 50)"
    assert load_text(text, {"sizing": "preset", "players": 4}).n == 4
    with pytest.raises(FudaError) as info:
        load_text(text, {"sizing": "preset", "players": 5})
    assert info.value.first.message == "preset sizes are for four players at most (players = 5, sizing = preset)"
    with pytest.raises(FudaError) as info:
        load_text(text.replace("require big_blind >= small_blind * 2", "require big_blind"))
    assert info.value.first.code == "E201" and "true or false" in info.value.first.message


def test_a_square_may_be_typed_without_its_brackets():
    """`flip 3 2` was refused for `flip (3,2)` (a newcomer's Concentration)."""
    game = load(str(CONSTRUCTS / "grid.fuda"), {})
    st = game.new_state(1)
    p = st.to_move()[0]
    want = game.find_action(st, p, "step (2,1)")
    assert game.find_action(st, p, "step 2 1") == want == game.find_action(st, p, "step 2,1")
    with pytest.raises(IllegalAction):
        game.find_action(st, p, "step 21")


def test_lose_keeps_the_places_of_players_who_finished():
    """`lose p` after others went out (Old Maid): they keep their places and win, p is last; with
    nobody out, p is second and the rest share first (as against a house)."""
    text = """
ruleset om
players 4
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup { }
phase play {
    choose players[0] {
        ranked { finish players[2]
                 finish players[0]
                 finish players[3]
                 lose players[1] }
        early { finish players[3]
                lose players[1] }
        house { lose players[1] }
    }
}
"""
    game = load_text(text)

    def after(action: str) -> list[tuple[str, int]]:
        st = game.new_state(1)
        st.apply(0, action)
        return [(r["outcome"], r["place"]) for r in game.result(st)]

    assert after("ranked") == [("win", 2), ("lose", 4), ("win", 1), ("win", 3)]
    assert after("early") == [("win", 2), ("lose", 3), ("win", 2), ("win", 1)]
    assert after("house") == [("win", 1), ("lose", 2), ("win", 1), ("win", 1)]


def test_a_grid_s_size_may_come_from_options():
    """`grid(cols, 4)` (a newcomer's Concentration wanted a table size option)."""
    text = """
ruleset gs
players 2
option cols: int 1..13 = 13
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: grid(cols, 52 // cols) hidden
setup { }
phase play { }
"""
    assert len(load_text(text).new_state(1).view(0)["zones"]) == 1 + 13 * 4
    assert len(load_text(text, {"cols": 4}).new_state(1).view(0)["zones"]) == 1 + 4 * 13
    with pytest.raises(FudaError) as info:
        load_text(text.replace("grid(cols, 52 // cols)", "grid(cols, true)"))
    assert info.value.first.code == "E201" and "whole number" in info.value.first.message


def test_labels_and_prompts_show_cards_as_the_hands_do():
    """Napoleon's hand showed `Joker` while its choices read `discard JK1`: a card in a label or a
    prompt is written by the ruleset's `show`; ids and logs keep names, `show` itself sees names."""
    text = """
ruleset sh
players 2
cards standard(jokers = 1) in deck
zone deck: pile hidden
zone hand: hand per player owner
show c as "{if c.joker then "Joker" else text(c)} | {if c.joker then "ジョーカー" else text(c)}"
setup { move card("JK1") to hand[players[0]] }
phase play {
    choose players[0] "Which of {cards(hand[players[0]])}? | どれ?" {
        discard c in hand[players[0]] "discard {c} | {c} を捨てる" { log "out: {c}" }
    }
}
"""
    game = load_text(text)
    st = game.new_state(1)
    (a,) = st.legal_actions(0)
    assert a.id == "discard JK1" and a.label == "discard Joker | ジョーカー を捨てる"
    assert st.view(0)["decision"]["prompt"].startswith("Which of Joker?")
    st.apply(0, a)
    assert "out: JK1" in [e["text"] for e in st.view(0)["log"]]


def test_hide_is_an_event_for_those_who_saw_the_card():
    """`hide` wrote nothing (a newcomer's Concentration: a replay could not show the cards going
    face down again): those who saw the card see it turned face down; the others see nothing."""
    text = """
ruleset hd
players 3
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup {
    reveal top(deck)
    reveal bottom(deck) to players[1]
    hide top(deck)
    hide bottom(deck)
    hide deck[3]
}
phase play { }
"""
    game = load_text(text)
    st = game.new_state(2)
    top, bottom = game.card_names[st.z[0][-1]], game.card_names[st.z[0][0]]
    logs = {p: [e["text"] for e in st.view(p)["log"]] for p in (0, 1)}
    assert f"{top} turned face down" in logs[0] and f"{top} turned face down" in logs[1]
    assert f"{bottom} out of sight again" in logs[1]        # shown to P1 only: not "turned face down" (Kittens)
    assert not any("a card turned" in t or bottom in t for t in logs[0])
    from interpreter.engine.observe import full_view

    texts = [e["text"] for e in full_view(st)["log"]]
    assert sum("turned face down" in t or "out of sight" in t for t in texts) == 2     # deck[3] was never up


def test_a_card_attribute_may_be_a_text_of_the_deck_s_loop_values():
    """`card "{s}{r}.{d}" face = "{s}{r}"`: the name interpolated the loop values, an attribute could
    not (E201; a newcomer's six-deck shoe)."""
    text = """
ruleset shoe
players 2
option decks: int 1..8 = 2
enum Mark { ♠, ♥ }
cards {
    attr mark: Mark
    attr face: text
    attr wild: bool
    for d in 1..decks {
        for s in [♠, ♥] {
            for r in ["A", "K"] {
                card "{s}{r}.{d}" mark = s face = "{s}{r} {d > 1}" wild = false
            }
        }
    }
}
zone deck: pile hidden
var f: text = ""
setup { f = card("♥K.2").face }
phase play { }
"""
    game = load_text(text)
    st = game.new_state(1)
    assert game.ncards == 8 and st.g[next(v.slot for v in game.prog.vars if v.name == "f")] == "♥K true"


DEALS_FIRST = """ruleset deals_first
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone table: pile public
setup { }
phase deal {
    move all_cards to deck
    shuffle deck
    deal 2 from deck to hand
    goto play }
phase play {
    choose current { play c in hand[current] { move c to table } }
    end game
}
"""


def _failing(tmp_path, steps: str):
    """The first diagnostic of a scenario on DEALS_FIRST that must fail."""
    (tmp_path / "deals_first.fuda").write_text(DEALS_FIRST, encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: deals_first.fuda\n" + textwrap.dedent(steps), encoding="utf-8")
    sc, loc = parse_scenario(path.read_text(encoding="utf-8"), str(path))
    with pytest.raises(FudaError) as e:
        Runner(sc, loc, tmp_path).run()
    return e.value.diagnostics[0]


def test_cards_named_by_numbers_may_be_written_unquoted_in_a_scenario(tmp_path):
    """6 nimmt! newcomer: `row: [10]` was "Input should be a valid string"; YAML reads 10 as an int."""
    (tmp_path / "numbers.fuda").write_text(textwrap.dedent("""
        ruleset numbers
        players 2
        cards {
            attr value: int
            for v in 1..20 { card "{v}" value = v }
        } in deck
        zone deck: pile hidden
        zone row: pile public
        zone hand: hand per player owner
        setup { }
        phase play { choose players[0] { play c in hand[players[0]] "play {c}" { move c to row } } }
    """), encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent("""
        ruleset: numbers.fuda
        setup:
          zones: {row: [10], "hand[P0]": [12, 3]}
          rest: deck
        steps:
          - expect: {legal: [play 12, play 3], view: {player: P1, shows: [10], hides: [12]}}
          - P0: play 12
          - expect: {zones: {row: [10, 12]}}
    """), encoding="utf-8")
    sc, loc = parse_scenario(path.read_text(encoding="utf-8"), str(path))
    r = Runner(sc, loc, tmp_path)
    r.run()
    assert full_zone(r.st, "row") == ["10", "12"]
    # YAML 1.1 would read 010 as 8 and 0x0A as 10: they stay the text written (QA13 B4)
    for odd in ("010", "0x0A", "1_0"):
        path.write_text(path.read_text(encoding="utf-8").replace("row: [10]", f"row: [{odd}]"), encoding="utf-8")
        sc, loc = parse_scenario(path.read_text(encoding="utf-8"), str(path))
        with pytest.raises(FudaError) as e:
            Runner(sc, loc, tmp_path).run()
        assert f"no card is named '{odd}'" in e.value.first.message
        path.write_text(path.read_text(encoding="utf-8").replace(f"row: [{odd}]", "row: [10]"), encoding="utf-8")


def _refused(tmp_path, steps: str) -> str:
    d = _failing(tmp_path, steps)
    assert d.code == "E602"
    return d.hint or ""


def test_a_refused_step_tells_what_happened_since_the_last_expect(tmp_path):
    hint = _refused(tmp_path, """
        start_phase: play
        setup: {zones: {"hand[P0]": [♠7]}}
        steps:
          - P0: play ♠7
          - P0: play ♠7
    """)
    assert "events since the last expect" in hint and "game over" in hint
    assert "start_phase" not in hint


def test_a_refused_step_after_a_first_phase_that_dealt_over_the_setup_edits_says_so(tmp_path):
    hint = _refused(tmp_path, """
        setup: {zones: {"hand[P0]": [♠7]}}
        steps:
          - P0: play ♠7
    """)
    assert "setup edits were made before the first phase ran" in hint and "start_phase" in hint


def test_a_sequence_not_found_names_its_near_miss_among_the_events_after_the_last_match(tmp_path):
    """A newcomer's Cribbage: the failure showed the last 16 events, not the ones after the match,
    and nothing pointed at the line that was almost right (cards listed in another order)."""
    msg = _failing(tmp_path, """
        start_phase: play
        setup: {zones: {"hand[P0]": [♠7]}}
        steps:
          - P0: play ♠7
          - expect:
              new_events: {sequence: ["P0: play ♠7", "♠7: hand[P0] → tabel"]}
    """).message
    assert "the closest: '♠7: hand[P0] → table'" in msg and "found after them ['♠7: hand[P0] → table'" in msg


def test_labels_must_tell_cards_apart_and_may_name_enum_members_in_the_reader_s_language():
    """Docs QA of card labels: two cards labelled alike (or a label that is another card's name) were
    accepted silently, and a label's {member} showed the member's name, not its label."""
    from interpreter.api import check_ruleset
    src = textwrap.dedent("""
        ruleset lab
        players 2
        enum Hue { purple "Purple | 紫", red "Red | 赤" }
        cards {
            attr hue: Hue
            for h in [purple, red] { card "{h}1" "{h} one | {h}の1" hue = h }
            card "A" "Same" hue = purple
            card "B" "Same" hue = red
            card "C" "red1"
            card "D" "Guard" hue = red
            card "E" "Guard" hue = red
        } in deck
        zone deck: pile public
        setup { }
        phase play { end game }
    """)
    prog = check_ruleset("lab.fuda", text=src)
    assert prog.cards.labels["purple1"] == ("Purple one", "紫の1")
    assert sorted(w.message.split(":")[0] for w in prog.warnings if w.code == "W105") == [
        "card B is labelled 'Same', and card A is labelled so", "card C is labelled 'red1', and card red1 is named so"]
    # D and E are identical copies (Love Letter's Guards): one label for both is no mistake
    g = load_text(src)
    assert "same" not in g.typed_cards and g.card_names[g.typed_cards["purple one"]] == "purple1"


def test_cards_of_a_list_may_be_typed_by_labels_they_share_but_hidden_ones_only_by_place():
    """Newcomer QA: `one Beta` was taken but `two Alpha Beta` (a list of cards, two of them labelled
    alike) refused. The labels a player can read name the cards, in any order and mixed with names;
    of identical copies the menu's first is taken. A card the player cannot see is typed by its
    place alone: its label or name typed finds nothing, so typing cannot probe where it lies."""
    g = load_text(textwrap.dedent("""
        ruleset label_typing
        players 2
        cards {
            card "A1" "Alpha"
            card "A2" "Alpha"
            card "B1" "Beta"
            card "C1" "Gamma Ray"
            card "C2" "Gamma Ray"
        } in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup {
            move [card("A1"), card("A2"), card("B1")] to hand[players[0]]
            move [card("C1"), card("C2")] to hand[players[1]]
        }
        phase play {
            choose players[0] "two" { two cs in subsets(sorted(hand[players[0]]), 2) "pick {cs}" { } }
            choose players[0] "two" { two cs in subsets(sorted(hand[players[0]]), 2) "pick {cs}" { } }
            choose players[0] "one" { one c in hand[players[0]] "pick {c}" { } }
            choose players[0] "take" { take c in hand[players[1]] { } }
            end game
        }
    """))
    st = g.new_state(0)
    legal = st.legal_actions(0)
    assert [a.id for a in legal] == ["two A1 A2", "two A1 B1", "two A2 B1"]
    assert g.find_action(st, 0, "two Beta alpha") == legal[1].raw      # the menu's first
    assert g.find_action(st, 0, "two Alpha Alpha") == legal[0].raw
    assert g.find_action(st, 0, "two a2 Beta") == legal[2].raw          # a name wins over the label
    with pytest.raises(IllegalAction):
        st.apply(0, "two Alpha Alpha Beta")         # one word too many
    st.apply(0, "two Beta alpha")
    st.apply(0, "two alpha b1")
    assert g.find_action(st, 0, "one Alpha") == st.legal_actions(0)[0].raw
    st.apply(0, "one Alpha")
    assert [a.id for a in st.legal_actions(0)] == ["take hand[P1][0]", "take hand[P1][1]"]
    for typed in ("take Gamma Ray", "take C1", "take gamma"):
        with pytest.raises(IllegalAction):
            st.apply(0, typed)
    st.apply(0, "take hand[P1][1]")
    assert st.is_over()


def test_card_literals_take_aliases_in_any_case_and_say_the_first_deck_has_no_number():
    src = ("ruleset lit\nplayers 2\ncards standard(decks = 2) in deck\nzone deck: pile hidden\n"
           'setup {{ log "{{card("{a}")}} {{card("{a}").name}}" }}\nphase play {{ end game }}\n')
    g = load_text(src.format(a="h10"))
    assert [e["text"] for e in g.new_state(0).view(None)["log"]][0] == "♥10 ♥10"
    # a further deck's copy reads as its face; its name keeps the deck's number
    assert load_text(src.format(a="sa#2")).new_state(0).view(None)["log"][0]["text"] == "♠A ♠A#2"
    with pytest.raises(FudaError) as e:
        load_text(src.format(a="♠A#1"))
    assert e.value.first.code == "E108" and "the first deck's cards carry no number: ♠A" in (e.value.first.hint or "")


# ================================================================== functions with steps; sorted … by
def test_function_steps_and_sorted_by():
    """`fn f(…) { let a = …  RESULT }` names steps; `sorted x in L [where C] by KEY` orders a list by
    a number, a tuple, an ordering or an enum, ties in the list's own order."""
    st = scenario_state("functions", """
        setup: {zones: {"hand[P0]": [♥5, ♠6, ♣7, ♦8, ♥8, ♠K, ♥10], "hand[P1]": [♣2]}}
    """)
    v = vars_of(st, 0)
    assert v["runs_p0"] == 8                        # 5-6-7-8 twice (two 8s): the longest runs only
    assert v["level_p0"] == "high"
    assert v["by_rank"] == ["♥5", "♠6", "♣7", "♥8", "♦8", "♥10", "♠K"]
    assert v["high_first"] == ["♠K", "♥10"]
    assert v["by_strength"] == ["♥5", "♣7", "♦8", "♥8", "♥10", "♠6", "♠K"]
    assert v["by_level"] == ["♥5", "♠6", "♣7", "♦8", "♥8", "♠K", "♥10"]    # ties keep the hand's order
    assert v["players_by_size"] == [1, 0]
    assert v["plain_sorted"] == ["♠6", "♠K", "♥5", "♥8", "♥10", "♦8", "♣7"]   # sorted(list) still works


def test_function_steps_compile_to_assignments_and_are_not_inlined():
    g = game("functions")
    src = g.comp.source
    body = src[src.index("def F_runs("):src.index("def F_level(")]
    assert body.count(" = ") >= 3 and "return" in body
    assert "F_runs(st, " in src[src.index("def R"):]      # called, not inlined into the rule


def test_none_sorts_after_every_key_also_inside_a_tuple():
    g = load_text(textwrap.dedent("""
        ruleset sort_none
        players 2
        cards standard(jokers = 2) in deck
        zone deck: pile public
        var by_suit: list of card = []
        var by_rank: list of card = []
        fn key(c: card) -> int = if c.rank == 1 then none else c.rank
        setup {
            by_suit = sorted c in deck where c.rank == 1 or c.joker by (c.suit, c.rank)
            by_rank = sorted c in deck where c.rank <= 2 by key(c)
        }
        phase play { end game }
    """))
    v = vars_of(g.new_state(0), None)
    assert v["by_suit"] == ["♠A", "♥A", "♦A", "♣A", "JK1", "JK2"]      # suitless Jokers last
    assert v["by_rank"][:6] == ["JK1", "JK2", "♠2", "♥2", "♦2", "♣2"] and v["by_rank"][6:] == ["♠A", "♥A", "♦A", "♣A"]


# ================================================================== offer; choose … optional
def _offer_state(hands: dict[str, list[str]], table: list[str]) -> State:
    zones = {f"hand[{p}]": cs for p, cs in hands.items()}
    return scenario_state("offer", f"""
        setup: {{zones: {json.dumps({**zones, "table": table}, ensure_ascii=False)}}}
    """)


def test_an_offer_asks_in_order_skips_who_has_nothing_and_starts_again_after_an_option():
    st = _offer_state({"P0": ["♥2", "♠3"], "P1": ["♣4"], "P2": ["♥5", "♥6"]}, ["♥9"])
    assert st.to_move() == [0] and ids(st, 0) == ["add ♥2", "pass"]
    st.apply(0, "pass")
    assert st.to_move() == [2]                      # P1 holds no heart: not asked
    st.apply(2, "add ♥5")
    assert st.to_move() == [0]                      # an option taken: from the first again
    st.apply(0, "add ♥2")                           # three on the table: anyone may stop now
    assert st.to_move() == [0] and ids(st, 0) == ["stop", "pass"]
    st.apply(0, "pass")
    st.apply(1, "pass")
    assert ids(st, 2) == ["add ♥6", "stop", "pass"]
    st.apply(2, "pass")                             # everyone has passed in a row
    assert vars_of(st)["rounds_done"] == 1
    assert st.to_move() == []                       # P0's optional discard: nothing above 10, not asked
    assert st.over


def test_an_offer_ask_all_asks_everyone_and_a_player_named_twice_once():
    """Durak newcomer: an offer asked only those who could act, so every pass told the table who held
    a card of a rank in play; `ask all` asks everyone. A player the list names twice is asked once."""
    text = (CONSTRUCTS / "offer.fuda").read_text(encoding="utf-8").replace(
        'offer p in players "Add', 'offer p in [players[1], players[1], players[2]] ask all "Add')
    st = load_text(text, filename="offer.fuda").new_state(0)      # empty hands: nobody could add
    assert st.to_move() == [1] and ids(st, 1) == ["pass"]
    st.apply(1, "pass")
    assert st.to_move() == [2] and ids(st, 2) == ["pass"]
    st.apply(2, "pass")
    assert vars_of(st)["rounds_done"] == 1 and st.over
    plain = load_text(text.replace(" ask all", ""), filename="offer.fuda").new_state(0)
    assert plain.over and vars_of(plain)["rounds_done"] == 1    # without it, nobody is asked


def test_an_offer_in_the_then_block_of_an_if_is_an_offer():
    """Tichu newcomer: an offer in an `if`'s block (not its `else`) was E309 "unsupported statement
    Offer", because the blocks of an `if`'s branches were not written out."""
    text = (CONSTRUCTS / "offer.fuda").read_text(encoding="utf-8").replace(
        '    offer p in players "Add', '    if true {\n    offer p in [players[1]] ask all "Add').replace(
        "    rounds_done += 1", "    }\n    rounds_done += 1")
    st = load_text(text, filename="offer.fuda").new_state(0)
    assert st.to_move() == [1] and ids(st, 1) == ["pass"]
    st.apply(1, "pass")
    assert vars_of(st)["rounds_done"] == 1


def test_a_function_that_is_a_card_constant_tested_in_a_zone_compiles_without_a_warning():
    """Tichu newcomer: `if ace() in hand[p]` with `fn ace() -> card = card("♠A")` inlined the card's
    number and guarded it with `(0) is not None`, which Python warns of on every run."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        st = load_text(textwrap.dedent("""
            ruleset const_in_zone
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            fn ace() -> card = card("♣A")
            var there: bool = false
            setup { }
            phase play { there = ace() in deck
                         end game draw }
        """)).new_state(0)
    assert vars_of(st)["there"] is True


def test_an_offer_skips_players_who_are_out():
    g = load_text(textwrap.dedent("""
        ruleset offer_out
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { deal 1 from deck to hand; finish players[0] }
        phase play {
            offer p in players { take where true "take" { end game } }
            end game draw
        }
    """))
    st = g.new_state(0)
    assert st.to_move() == [1]


def test_break_in_an_offer_ends_it_and_an_optional_choice_offers_its_pass():
    st = _offer_state({"P0": ["♥2", "♠K"], "P1": [], "P2": ["♥5"]}, ["♥9", "♥8"])
    st.apply(0, "add ♥2")
    st.apply(0, "stop")
    assert vars_of(st)["rounds_done"] == 1
    assert ids(st, 0) == ["discard ♠K", "pass"]
    st.apply(0, "pass")
    assert st.over and "P0: pass" in view_log(st, 1)



def test_flatten_and_an_int_that_is_none_in_a_text():
    g = load_text(textwrap.dedent("""
        ruleset flat
        players 2
        cards standard() in deck
        zone deck: pile public
        zone row: sequence public "Row"
        var pairs: list of card = []
        var on_row: list of card = []
        var nums: list of int = []
        setup {
            insert row back as a
            move top(deck, 2) to a
            insert row back as b
            move top(deck) to b
            pairs = flatten(subsets(top(deck, 3), 2))
            on_row = flatten(row)
            nums = flatten([[1, 2], [], [3]])
            log "best of nothing: {best i in 0..-1 by i}"
        }
        phase play { end game }
    """))
    st = g.new_state(0)
    v = vars_of(st, None)
    assert v["nums"] == [1, 2, 3] and len(v["pairs"]) == 6
    assert v["on_row"] == full_zone(st, "row[0]") + full_zone(st, "row[1]")
    assert "best of nothing: none" in view_log(st, None)



def test_an_enum_name_is_the_list_of_its_members():
    g = load_text(textwrap.dedent("""
        ruleset enum_list
        players 2
        cards standard() in deck
        zone deck: pile hidden
        enum Mood { calm, angry, bored }
        var suits: list of Suit = []
        var n: int = 0
        setup { suits = [s for s in Suit where s != ♥]  n = size(Mood) }
        phase play { choose players[0] { feel m in Mood where m != bored { end game } } }
    """))
    st = g.new_state(0)
    assert vars_of(st)["suits"] == ["♠", "♦", "♣"] and vars_of(st)["n"] == 3
    assert ids(st, 0) == ["feel calm", "feel angry"]


def test_a_back_variable_is_seen_at_the_card_s_place_by_those_who_cannot_see_the_card():
    """Hanabi newcomer: a clue about a card its holder cannot see was shown to nobody but those who
    saw the card. `back`: its holder sees it at the place, others with the card, and a bot's worlds
    keep it with the place whichever card they deal there."""
    from interpreter.engine.determinize import determinize

    g = game("back")
    assert [w.code for w in g.prog.warnings if w.code != "W101"] == []
    st = g.new_state(2)
    st.apply(1, st.legal_actions(1)[0])
    told = {i: c for i, c in enumerate(full_zone(st, "hand[P0]")) if st.view(1)["card_vars"].get(c)}
    assert told
    mine = st.view(0)["zones"]["hand[P0]"]
    assert mine["cards"] == [None] * 3 and set(mine["marks"]) == {str(i) for i in told}
    assert st.view(0)["var_labels"]["told"] == "Told"
    assert f"Hand[P0][{min(told)}]: Told = " in render(st.view(0))       # fuda play prints it under the zones
    assert st.view(1)["zones"]["hand[P0]"].get("marks") is None       # P1 sees the cards, and the marks with them
    labels = [a.label for a in st.legal_actions(0)]
    assert all(lab.startswith("play hand[P0][") for lab in labels) and len(labels) == len(told)
    rng = random.Random(0)
    for _ in range(10):
        w = determinize(st, 0, rng)
        assert w.view(0)["zones"]["hand[P0]"]["marks"] == mine["marks"]


def test_back_is_only_for_per_card_variables():
    with pytest.raises(FudaError) as info:
        load_text("ruleset b\nplayers 2\ncards standard() in deck\nzone deck: pile back\n"
                  "var t: int per player = 0 back\nsetup { }\nphase p { }\n")
    assert [d.code for d in info.value.diagnostics] == ["E309", "E309"]


def test_a_text_without_halves_shows_its_values_in_the_reader_s_language():
    """Exploding Kittens newcomer: `show c as "{c.kind}"` and `log "{…kind}"` read Cat under --lang ja."""
    g = load_text("""
ruleset one_text
players 2
enum Kind { cat "Cat | 猫", dog "Dog | 犬" }
cards {
    attr kind: Kind
    card "c1" kind = cat
    card "d1" kind = dog
} in table
zone table: pile public
show c as "{c.kind}"
setup { log "{card("c1").kind}" }
phase play { choose players[0] { wait "{card("d1").kind}" { } } }
""")
    st = g.new_state(0)
    assert st.view(0, lang=1)["labels"] == {"c1": "猫", "d1": "犬"} and st.view(0)["labels"]["c1"] == "Cat"
    assert [e["text"] for e in st.view(0, lang=1)["log"]][0] == "猫"
    assert st.legal_actions(0)[0].label == "Dog | 犬"


@pytest.mark.parametrize(("big", "names"), [(False, ["b"]), (True, ["a", "c"])])
def test_a_deck_if_takes_else_and_an_option_read_in_the_branch_left_out_is_used(big, names):
    """Hanabi newcomer: `} else {` in a deck was a syntax error, and an option read only under an
    `if` whose condition another option's default made false was W101 "never used"."""
    from interpreter.api import check_ruleset

    src = textwrap.dedent("""
        ruleset deck_else
        players 2
        option big: bool = false
        option extra: bool = true
        cards {
            attr v: int = 0
            if big {
                card "a" v = 1
                if extra { card "c" v = 3 }
            } else {
                card "b" v = 2
            }
        } in deck
        zone deck: pile hidden
        setup { }
        phase play { end game }
    """)
    prog = check_ruleset("deck_else.fuda", text=src, options={"big": big})
    assert prog.cards.names == names and not prog.warnings


@pytest.mark.parametrize(("n", "names"), [(1, ["a"]), (2, ["b"]), (3, ["c"])])
def test_a_deck_if_takes_elif(n, names):
    """QA: `elif` in a deck was a syntax error although statements have it."""
    from interpreter.api import check_ruleset

    src = textwrap.dedent("""
        ruleset deck_elif
        players 2
        option n: int 1..3 = 1
        cards {
            if n == 1 { card "a" } elif n == 2 { card "b" } else { card "c" }
        } in deck
        zone deck: pile hidden
        setup { }
        phase play { end game }
    """)
    prog = check_ruleset("deck_elif.fuda", text=src, options={"n": n})
    assert prog.cards.names == names and not prog.warnings


def test_end_game_ranking_by_a_tuple_breaks_ties_with_its_next_part():
    """Sushi Go newcomer: the score, then puddings — `by (score[p], …)` was refused."""
    st = load_text("""
ruleset tie_break
players 3
cards standard() in deck
zone deck: pile hidden
var puddings: int per player = 0
setup {
    score[players[0]] = 5
    score[players[1]] = 5
    puddings[players[1]] = 2
    score[players[2]] = 7
}
phase play { end game ranking p in players by (score[p], puddings[p]) }
""").new_state(0)
    assert [r["place"] for r in st.result()] == [3, 2, 1]


@pytest.mark.parametrize(("stmt", "places"), [
    ("end game ranking p in [leader, players[2], players[0]] by score[p]", [2, 3, 1]),
    ("win [leader, players[1]]", [2, 1, 2]),
    ("simultaneous p in [leader] { a \"a\" { } }\n    end game ranking p in players by score[p]", [2, 3, 1]),
])
def test_a_none_in_a_list_of_players_is_left_out(stmt, places):
    """QA: a none in a player list was left out by `win` and `simultaneous` but failed `end game ranking`."""
    st = load_text(f"""
ruleset none_left_out
players 3
cards standard() in deck
zone deck: pile hidden
var leader: player = none
setup {{ score[players[2]] = 5; score[players[0]] = 3 }}
phase play {{
    {stmt}
}}
""").new_state(0)
    assert st.over and [r["place"] for r in st.result()] == places


def test_sit_out_takes_a_player_out_of_play_without_a_place_until_rejoin():
    """Love Letter newcomer: a round's knock-out took `finish q last`, and the screen and the log then
    gave a place ("P1 out #4") that meant nothing in a game of rounds."""
    from interpreter.runner.render import render

    g = load_text("""
ruleset sitting
players 4
cards standard() in deck
zone deck: pile hidden
var seen: list of player = []
var after: player = none
setup {
    sit out [players[1], players[3]]
    seen = active
    after = next(players[0])
}
phase play {
    choose players[0] { go "go" { } }
    rejoin players[1]
    finish players[3]
    seen = active
    end game
}
""")
    st = g.new_state(0)
    v = st.view(0)
    assert v["vars"]["seen"] == [0, 2] and v["vars"]["after"] == 2
    assert [(s["out"], s["place"]) for s in v["seats"]] == [(False, 0), (True, 0), (False, 0), (True, 0)]
    assert {"kind": "sit_out", "text": "P1 sits out"} in [{k: e[k] for k in ("kind", "text")} for e in v["log"]]
    assert "P1 は休み" in [e["text"] for e in st.view(0, lang=1)["log"]]
    screen = render(v)
    assert "P1 sits out" in screen and "#0" not in screen
    st.apply(0, "go")
    assert st.over and [r["place"] for r in st.result()] == [2, 2, 2, 1]


def test_a_quantifier_may_be_the_else_of_an_if_expression():
    """Hold'em newcomer: `if a then b else best q in L … by 0` was a syntax error about statements."""
    g = load_text("""
ruleset eb
players 3
cards standard() in deck
zone deck: pile hidden
var lead: player = none
var k: int = 0 hidden
fn first_left() -> player = if lead != none then lead else best q in players where q != players[0] by 0
fn n_big() -> int = if k > 0 then k else count c in all_cards where c.rank > 10
setup { lead = first_left()  k = n_big() }
phase play { end game }
""")
    st = g.new_state(0)
    assert st.view(None)["vars"]["lead"] == 1 and st.g[g.prog.vars[-1].slot] == 12


def test_a_negative_position_counts_from_the_end():
    """Hold'em newcomer: `xs[-1]` worked but the docs said nothing of negative positions."""
    g = load_text("""
ruleset negi
players 2
cards standard() in deck
zone deck: pile hidden
var a: int = 0
var b: card = none
setup { let xs = [10, 20, 30]  a = xs[-1] + xs[-3]  b = deck[-1] }
phase play { end game }
""")
    st = g.new_state(0)
    v = st.view(None)
    assert v["vars"]["a"] == 40 and st.g[g.prog.vars[-1].slot] == st.z[st.loc[0]][-1]


def test_move_at_a_depth_puts_the_card_there_and_tells_the_others_nothing_of_it():
    """Exploding Kittens newcomer: a secret place in the deck took moving the whole deck onto itself."""
    g = game("move_at")
    for n, from_top in [(0, 0), (2, 2), (50, 50)]:
        st = g.new_state(3)
        card = full_zone(st, "hand[P0]")[0]
        st.apply(0, f"put {n}")
        deck = full_zone(st, "deck")
        assert len(deck) == 51 and deck[len(deck) - 1 - from_top] == card
        assert "a card: hand[P0] → deck" in view_log(st, 1) and not any(f"put {n}" in t for t in view_log(st, 1))
    with pytest.raises(FudaError) as info:
        load_text("ruleset m\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n"
                  "setup { move top(deck) under deck at 2 }\nphase p { }\n")
    assert info.value.first.code == "E309"


def test_move_at_stacks_as_a_plain_move_and_tells_nobody_the_depth():
    """QA: `at 0` turned a moved pile upside down against `move … to Z`, and a bot that had watched a
    public card go into the deck `at N` remembered exactly where; peeks showed the depth too."""

    st = load_text("""
ruleset at_order
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone a: pile public
zone b: pile public
zone table: pile public
setup {
    move top(deck, 3) to a
    move top(deck, 3) to b
    reveal top(deck, 2) to players[1]
    let plain = [c for c in cards(a)]
    move a to table
    move b to table at 0
    move top(table) to deck at 3
}
phase play { end game }
""").new_state(0)
    table = full_zone(st, "table")
    assert len(table) == 5 and table[:3] == sorted(table[:3], key=table.index)     # a's three, then b's
    assert remembered(st, 1) == set() and st.view(1)["zones"]["deck"]["cards"] == [None] * 47
    assert any(t.startswith("a card: table → deck") for t in view_log(st, 1))


def test_a_hidden_pick_of_the_card_already_on_top_is_logged_as_any_other():
    """qa15 Q7: P1 picks a card of their hidden hand, in secret, and puts it on top. Had the move of
    the card already on top logged nothing, P0 would learn which card P1 took from the silence."""
    g = load_text("""
ruleset pick_top
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: pile per player owner
setup { deal 3 from deck to hand }
phase main {
    choose players[1] hidden "pick" {
        pick c in hand[players[1]] "pick {c}" { move c to hand[players[1]] }
    }
    end game draw
}
""")
    for k in range(3):
        st = g.new_state(0)
        st.apply(1, st.legal_actions(1)[k].id)
        assert any(t.startswith("a card: hand[P1] → hand[P1]") for t in view_log(st, 0)), view_log(st, 0)


def test_move_at_of_a_card_already_on_top_still_slips_it_down_and_forgets_peeks():
    """A card moved onto the zone where it lies on top logs no move, but `at N` then takes it N
    cards down: that is a move, and whoever had peeked at the zone can no longer place its cards."""
    st = load_text("""
ruleset at_top
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup {
    reveal top(deck, 2) to players[1]
    move top(deck) to deck at 3
}
phase play { end game }
""").new_state(0)
    assert remembered(st, 1) == set()
    assert any(t.startswith("a card: deck → deck") for t in view_log(st, 1))


def test_move_at_that_leaves_cards_everyone_sees_where_they_lay_logs_no_move():
    """fix22: `move c to Z at N` with c already N cards down was logged as a move, though nothing
    changed place, unlike `move c to Z` with c on top. Everyone seeing the card(s), it logs nothing
    (a face-down move still turns it face down, as `hide`); a card someone does not see is logged."""
    st = load_text("""
ruleset at_still
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
setup {
    move top(deck, 4) to table
    let second = cards(table)[2]
    let pair = [cards(table)[1], cards(table)[2]]
    let hid = cards(deck)[size(deck) - 3]
    let up = cards(deck)[size(deck) - 2]
    reveal up
    move second to table at 1
    move pair to table at 1
    move up to deck at 1 face up
    move hid to deck at 2
    move up to deck at 1
    move second to table at 0
}
phase play { end game }
""").new_state(0)
    assert view_log(st, 0)[4:] == ["reveal ♣8 to everyone", "a card: deck → deck", "♣8 turned face down",
                                   "♣J: table → table", "phase: play", "game over"]
    assert full_zone(st, "table") == ["♣K", "♣Q", "♣10", "♣J"]


def test_a_move_under_a_hidden_decision_is_logged_even_where_the_card_stays():
    """fix30 (qa17 Q1): a hidden decision's move that left a card everyone sees where it lay logged
    nothing, any other choice "a card: deck → deck": the others learned the secret choice. Under a
    secret's control (a hidden decision's block, a rule called from one) the move is always logged."""
    g = load_text("""
ruleset still_secret
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
rule back(x: card) { move x to deck }
setup { shuffle deck }
phase play {
    let d = cards(deck)[size(deck) - 2]
    reveal top(deck)
    reveal d
    choose players[0] hidden "where" {
        put n in 0..2 { move d to deck at n }
    }
    reveal top(deck)
    choose players[0] hidden "which" {
        same { back(top(deck)) }
        other { back(cards(deck)[size(deck) - 2]) }
    }
    end game
}
""")
    for n in range(3):
        for which in ("same", "other"):
            st = g.new_state(0)
            st.apply(0, f"put {n}")
            moves = [t for t in view_log(st, 1) if "deck → deck" in t]
            assert moves == ["a card: deck → deck (put somewhere in it)"] or moves == ["a card: deck → deck"], moves
            st.apply(0, which)
            assert len([t for t in view_log(st, 1) if "deck → deck" in t]) == 2, (n, which, view_log(st, 1))


def test_back_marks_are_printed_with_a_board_too():
    st = game("qa_backgrid").new_state(1)
    assert "Board[1,1][0]: Told = 9" in render(st.view(1))


def test_an_enum_variable_reads_as_its_member_s_label_on_the_screen():
    """QA: `var favourite: Col = blue "Fav | 好き"` showed `好き = blue`; logs and prompts said 青."""
    st = load_text('ruleset e\nplayers 2\nenum Col { red "Red | 赤", blue "Blue | 青" }\ncards standard() in deck\n'
                   'zone deck: pile hidden\nvar favourite: Col = blue "Fav | 好き"\nsetup { }\n'
                   'phase play { choose players[0] { go "go" { } } }\n').new_state(0)
    assert "好き = 青" in render(st.view(0, lang=1), 1) and "Fav = Blue" in render(st.view(0))


def test_a_per_player_variable_named_like_a_statement_word_is_assigned():
    """QA: `var log: int per player` could be declared but `log[p] += 5` was a syntax error."""
    st = load_text("""
ruleset kw
players 2
cards standard() in deck
zone deck: pile hidden
zone t: pile public
var log: int per player = 0
var deal: int per player = 0
setup {
    log[players[0]] += 5
    deal[players[1]] = log[players[0]] + 1
    move [top(deck), bottom(deck)] to t
    move [c for c in top(deck, 2)] to t
    log "{log[players[0]]} {deal[players[1]]} {size(t)}"
}
phase play { end game }
""").new_state(1)
    assert "5 6 4" in view_log(st, None)


def test_a_fn_or_rule_named_as_a_built_in_is_refused():
    """A newcomer's own `fn distinct` replaced the built-in added later, unseen, while W104 still
    reasoned about the built-in `top`."""
    for decl in ("fn top(z: zone) -> card = none", "rule distinct() { }"):
        text = f"ruleset b\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\n{decl}\nsetup {{ }}\nphase p {{ }}\n"
        with pytest.raises(FudaError) as info:
            load_text(text)
        assert info.value.first.code == "E102" and "name of a built-in function" in info.value.first.message


@pytest.mark.parametrize("how", ["take", "index", "swap"])
@pytest.mark.parametrize("pick", [0, 3])
def test_a_card_picked_in_secret_is_not_followed_by_a_peek(how, pick):
    """QA7 B-peek-tracks: P0 peeked at the top card; P1 then moved a card of the deck in secret. The
    log named the peeked card to P0 when it was the one picked, and the peeked card still showing
    told P0 it was not. Whichever P1 picks, P0 now reads "a card" and knows no card of the deck."""
    g = game("secret_picks", how=how)
    st = g.new_state(3)
    peeked = g.card_names[st.z[0][-1]]
    assert [c for c in st.view(0)["zones"]["deck"]["cards"] if c] == [peeked]
    st.apply(1, st.legal_actions(1)[pick])          # 0: the bottom card; 3: the peeked top card
    v = st.view(0)
    assert not [c for c in v["zones"]["deck"]["cards"] if c]
    assert not remembered(st, 0)
    after = [e["text"] for e in v["log"]][[e["text"] for e in v["log"]].index("P1 has chosen") + 1:]
    assert after[0] in ("a card: Deck → Hand[P1]", "swap a card (Deck) and a card (Deck)"), after


def test_a_card_moved_by_its_place_is_still_followed_by_a_peek():
    """`move top(deck) to …`: everyone knows which card that is, so the peeker sees it go."""
    g = game("secret_picks", how="top")
    st = g.new_state(3)
    assert st.over
    peeked = st.view(1)["zones"]["hand[P1]"]["cards"][0]
    assert f"reveal {peeked} to P0" in [e["text"] for e in st.view(0)["log"]]
    assert f"{peeked}: Deck → Hand[P1]" in [e["text"] for e in st.view(0)["log"]]
    assert remembered(st, 0) == {g.card_names.index(peeked)}


def test_an_identical_copy_may_be_typed_for_the_card_an_action_names():
    """QA7 P-distinct-copy: `play c in distinct(hand[p])` offers one `play captain1` for two
    Captains; typing the other copy the hand shows, `play captain3`, was refused. A copy the player
    sees names the action; a copy it cannot see (in another hand) does not."""
    g = load_text("""
ruleset copies
players 2
cards {
    card "captain1" "Captain"
    card "captain2" "Captain"
    card "captain3" "Captain"
    card "duke1" "Duke"
} in deck
zone deck: pile hidden
zone hand: hand per player owner
setup {
    move [all_cards[0], all_cards[2], all_cards[3]] to hand[players[0]]
    move all_cards[1] to hand[players[1]]
}
phase play {
    choose players[0] { play c in distinct(hand[players[0]]) { move c to deck } }
}
""")
    st = g.new_state(1)
    assert [a.id for a in st.legal_actions(0)] == ["play captain1", "play duke1"]
    twin = st.clone()
    st.apply(0, "play captain3")
    assert g.card_names[st.z[0][-1]] == "captain1"
    with pytest.raises(IllegalAction):
        twin.apply(0, "play captain2")          # P1's copy: P0 cannot see it


def test_a_card_attribute_may_be_a_negative_number():
    """Dominion newcomer: `card "Curse1" vp = -1` was E001 (only `(-1)` was read)."""
    g = load_text("""
ruleset neg
players 2
cards {
    attr vp: int = 0
    card "Curse1" vp = -1
    card "Estate1" vp = 1
} in deck
zone deck: pile hidden
var total: int = 0
setup { total = sum([c.vp for c in deck]) }
phase play { }
""")
    st = g.new_state(1)
    assert st.view(None)["vars"]["total"] == 0 and g.prog.cards.attrs["vp"] == [-1, 1]


def test_a_variant_may_extend_a_base_by_its_path(tmp_path):
    """Dominion newcomer: a test variant in tests/mixed/ could not extend ../../dominion.fuda."""
    from interpreter.api import load

    (tmp_path / "tests" / "mixed").mkdir(parents=True)
    (tmp_path / "base.fuda").write_text((CONSTRUCTS / "opts_base.fuda").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    variant = tmp_path / "tests" / "mixed" / "v.fuda"
    variant.write_text('ruleset v\nextends "../../base.fuda"\nlimit 77 decisions\n', encoding="utf-8")
    assert load(str(variant)).prog.limit == 77
    variant.write_text('ruleset v\nextends "../base.fuda"\n', encoding="utf-8")
    with pytest.raises(FudaError) as e:
        load(str(variant))
    assert e.value.first.code == "E403" and "a base in quotes is a .fuda file's path" in (e.value.first.hint or "")
    # QA8 D-extends-hint: without .fuda the hint said only where it looked
    variant.write_text('ruleset v\nextends "../../base"\n', encoding="utf-8")
    with pytest.raises(FudaError) as e:
        load(str(variant))
    assert e.value.first.code == "E403" and 'extends "../../base.fuda"' in (e.value.first.hint or "")


def test_a_pile_top_up_shows_its_top_card_and_hides_the_cards_under_it():
    """Gin Rummy and Dominion newcomers: a discard pile whose top card only is face up could not be
    declared (both hid the pile and turned cards up and down by hand). `top up` keeps its top card
    face up after every move, shuffle or scenario edit; a card seen on top is remembered under it."""
    g = game("top_up")
    st = g.new_state(2)
    first = st.view(1)["zones"]["discards"]["cards"][-1]
    st.apply(0, st.legal_actions(0)[0])
    pile = st.view(1)["zones"]["discards"]["cards"]
    assert pile[0] is None and pile[-1] is not None and st.view(None)["zones"]["discards"]["cards"][-1] == pile[-1]
    assert remembered(st, 1) == {g.card_names.index(first)}          # seen on top, now under it
    assert f"P0: put {pile[-1]}" in log_texts(st, 1) and f"{pile[-1]}: Hand[P0] → Discards" in log_texts(st, 1)
    assert [a.label for a in st.legal_actions(1)] == [f"take {pile[-1]}"]
    st.apply(1, "take")                                  # the card under it is turned up for everyone
    assert f"reveal {first} to everyone" in log_texts(st, 0)
    assert st.view(0)["zones"]["discards"]["cards"] == [first]
    assert not [w for w in g.prog.warnings if w.code in ("W102", "W104")]
    with pytest.raises(FudaError) as e:
        load_text("ruleset t\nplayers 2\ncards standard() in deck\nzone deck: hand hidden top up\nsetup { }\nphase p { }\n")
    assert e.value.first.code == "E309" and "`top up` is for a pile" in e.value.first.message
    assert "a hand shows sorted to its owner" in (e.value.first.hint or "")      # QA8 P-topup-flags


@pytest.mark.parametrize(("second", "warned"), [("top up", False), ("", True)])
def test_the_top_of_a_pile_top_up_picked_by_a_function_is_public(second: str, warned: bool):
    """Lost Cities newcomer: `top(discards(k))`, the discard piles reached through a function (as the
    docs suggest for a pile per colour), was W102 although every such pile shows its top."""
    g = load_text(textwrap.dedent(f"""
        ruleset t
        players 2
        enum Pile {{ a, b }}
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone dis_a: pile hidden top up
        zone dis_b: pile hidden {second}
        zone hand: hand per player owner
        fn discards(k: Pile) -> zone = [dis_a, dis_b][index_of(Pile, k)]
        setup {{ shuffle deck  move top(deck) to dis_a  move top(deck) to dis_b }}
        phase play {{ choose players[0] {{
            take c in [top(discards(k)) for k in Pile] "take {{c}}" {{ move c to hand[players[0]] }}
        }} }}
        """))
    assert [w.code for w in g.prog.warnings] == (["W102"] if warned else [])


@pytest.mark.parametrize(("source", "warned"), [("top(discards, 1)", False), ("top(discards, 2)", True),
                                                 ("[top(discards)]", False)])
def test_the_top_card_of_a_pile_top_up_as_a_list_of_one_is_public(source: str, warned: bool):
    """newcomer46 P2: `take c in top(discards, 1)` was W102 although that one card is face up; the
    second card of `top(discards, 2)` lies face down, so that one still warns."""
    g = load_text(textwrap.dedent(f"""
        ruleset t
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone discards: pile hidden top up
        zone hand: hand per player owner
        setup {{ shuffle deck  move top(deck) to discards  move top(deck) to discards }}
        phase play {{ choose players[0] {{
            take c in {source} where c != none "take {{c}}" {{ move c to hand[players[0]] }}
        }} }}
        """))
    assert [w.code for w in g.prog.warnings] == (["W102"] if warned else [])


@pytest.mark.parametrize(("flags", "words"), [
    ("pile top up top up", "`top up` is written twice"), ("pile hidden public", "a zone has one visibility"),
    ("pile per player owner per player", "`per player` is written twice"),
])
def test_qa8_a_zone_word_written_twice_is_e309(flags, words):
    """QA8 P-topup-flags: `pile top up top up` was accepted, and `pile hidden public` silently hidden."""
    with pytest.raises(FudaError) as e:
        load_text(f"ruleset t\nplayers 2\ncards standard() in deck\nzone deck: {flags}\nsetup {{ }}\nphase p {{ }}\n")
    assert e.value.first.code == "E309" and words in e.value.first.message


def test_a_card_put_under_the_top_of_a_pile_top_up_is_not_named():
    """QA8 B-topup-under: only a card that lands on top is seen landing; one slipped under the top
    (`under`, `at 1`) lies as the pile's visibility says, and a secret pick stays secret."""
    src = (CONSTRUCTS / "top_up.fuda").read_text(encoding="utf-8")
    for how in ("under discards", "to discards at 1"):
        g = load_text(src.replace("put c in hand[players[0]] { move c to discards }",
                                  f"put c in hand[players[0]] {{ move c {how} }}"), filename="top_up.fuda")
        st = g.new_state(2)
        c = st.legal_actions(0)[0]
        st.apply(0, c)
        card = c.id.split()[1]
        assert not any(card in t for t in log_texts(st, 1)), log_texts(st, 1)
        assert any(t.startswith("a card: Hand[P0] → Discards") for t in log_texts(st, 1))
    g = load_text(src.replace("{ move c to discards } }\n    choose players[1] { take",
                              "{ move c to discards at 0 } }\n    choose players[1] { take"), filename="top_up.fuda")
    st = g.new_state(2)
    c = st.legal_actions(0)[0].id.split()[1]
    st.apply(0, f"put {c}")                 # `at 0` is the top: turned up for everyone
    assert f"reveal {c} to everyone" in log_texts(st, 1) and st.view(1)["zones"]["discards"]["cards"][-1] == c


def test_a_packet_of_cards_put_on_a_pile_top_up_shows_only_its_top_card():
    """Dominion's Clean-up: a hand discarded at once onto a squared pile shows the card that ends on
    top, not the others (ex2's port of Dominion kept its discard pile unsquared for this)."""
    g = load_text((CONSTRUCTS / "top_up.fuda").read_text(encoding="utf-8").replace(
        "choose players[0] { put c in hand[players[0]] { move c to discards } }",
        "move hand[players[0]] to discards"), filename="top_up.fuda")
    st = g.new_state(2)
    log = log_texts(st, 1)
    assert log.count("a card: Hand[P0] → Discards") == 3
    top = st.view(None)["zones"]["discards"]["cards"][-1]
    assert f"reveal {top} to everyone" in log and st.view(1)["zones"]["discards"]["cards"] == [None] * 3 + [top]


def test_a_scenario_edit_of_a_pile_top_up_turns_its_new_top_card_up():
    st = scenario_state("top_up", """
        setup:
          zones:
            discards: [♣2, ♠3]
          rest: deck
        """)
    assert st.view(1)["zones"]["discards"]["cards"] == [None, "♠3"]


def test_a_step_cut_by_a_yaml_comment_is_told_so():
    """Mini-Magic newcomer: `- P1: kill #0` unquoted reaches fuda as `kill`; the refusal says why."""
    with pytest.raises(FudaError) as e:
        scenario_state("item_binder", """
            steps:
              - P1: kill #0
            """)
    assert e.value.first.code == "E602" and "YAML reads ` #` as the start of a comment" in (e.value.first.hint or "")


def test_an_action_typed_as_the_log_prints_it():
    """Mini-Magic newcomer: the log sets values of several words apart by ", " (`bolt Lightning
    Bolt, P1`); typed back so, it is the action."""
    g = load_text(textwrap.dedent("""
        ruleset bolt
        players 2
        cards { for i in 1..2 { card "bolt{i}" "Lightning Bolt" } } in deck
        zone deck: pile public
        setup { }
        phase play {
            choose players[0] { bolt c in deck, q in players "{c} at {q}" { log "hit" } }
        }
        """))
    st = g.new_state(0)
    st.apply(0, "bolt Lightning Bolt, P1")
    assert st.over and "P0: bolt Lightning Bolt, P1" in log_texts(st)


@pytest.mark.parametrize("how, act", [(1, "first"), (1, "second"), (2, "take 1"), (3, "t3 false"), (4, "t4 1"),
                                      (5, "t5 1"), (6, None)])
def test_a_hidden_choice_is_not_told_by_which_peeked_card_moves(how, act):
    """QA8 B-peek-branch: options or an `if` on a secret that move different cards by their place
    told the peeker which one was chosen; every spelling now reads "a card" to them."""
    g = load(str(CONSTRUCTS / "secret_branch.fuda"), {"how": how})
    st = g.new_state(3)
    st.apply(0, act or st.legal_actions(0)[1])
    assert st.over
    moves = [t for t in log_texts(st, 1) if t.endswith("Deck → Hand[P0]")]
    assert moves == ["a card: Deck → Hand[P0]"], moves


def test_players_in_a_deck_and_an_initial_value_are_players():
    """Skull newcomer: `attr seat: player` with `seat = players[i]` was "attribute seat is player, not
    int": in fixed values `players` was a list of numbers."""
    g = load_text(textwrap.dedent("""
        ruleset sd
        players 3
        cards {
            attr seat: player
            for i in 0..size(players) - 1 { card "mat{i}" seat = players[i] }
        } in deck
        zone deck: pile hidden
        var dealer: player = players[2]
        var order: list of player = players
        setup { }
        phase play { choose dealer { pick c in deck where c.seat == dealer "pick {c}" { end game } } }
        """))
    st = g.new_state(1)
    assert st.to_move() == [2] and [a.id for a in st.legal_actions(2)] == ["pick deck[2]"]    # mat2, P2's
    assert vars_of(st)["order"] == [0, 1, 2]



TWO_DECKS = """ruleset twodecks
players 2
cards {
    attr value: int
    for v in 1..9 { card "c{v}" value = v }
    attr task: bool = false
    in task_deck {
        for v in 1..4 { card "t{v}" value = v task = true }
        in market { card "m1" value = 0 }
    }
    card "c10" value = 10
} in deck
zone deck: pile hidden "Deck"
zone task_deck: pile hidden "Tasks"
zone market: pile public "Market"
zone hand: hand per player owner
setup { }
phase play { choose players[0] { take t in task_deck "take a task" { move t to hand[players[0]] } }
             end game draw }
"""


def test_cards_declared_in_a_zone_of_their_own_start_there():
    """The Crew newcomer: a second deck (the task cards) had to be one deck moved apart in setup,
    every replay opening with a 36-card move."""
    st = load_text(TWO_DECKS, filename="twodecks.fuda").new_state(1)
    # an attribute's default right before `in ZONE {` is not read as `false in task_deck` (Citadels newcomer)
    assert "attr task: bool = false\n    in task_deck {" in TWO_DECKS
    assert full_zone(st, "deck") == [f"c{v}" for v in range(1, 11)]
    assert full_zone(st, "task_deck") == ["t1", "t2", "t3", "t4"]
    assert full_zone(st, "market") == ["m1"] and st.view(1)["zones"]["market"]["cards"] == ["m1"]
    from interpreter.engine.runtime import EV_MOVE

    assert not [e for e in st.ev if e[0] == EV_MOVE]     # they start there: nothing moved


@pytest.mark.parametrize("zone, message", [("tasks_deck", "unknown zone tasks_deck"),
                                           ("hand", "cards start in one shared zone; hand is not one")])
def test_cards_in_a_zone_must_name_a_shared_pile_or_hand(zone: str, message: str):
    with pytest.raises(FudaError) as e:
        load_text(TWO_DECKS.replace("in task_deck {", f"in {zone} {{"), filename="twodecks.fuda")
    d = e.value.first
    assert message in d.message and d.span.line == 7 and d.span.col == 8


@pytest.mark.parametrize("body, error", [
    ("options: {hand_size: 99}\nrefused: E402\n", None),
    ("options: {hand_size: 99}\nrefused: must be within\n", None),
    ("options: {hand_size: 3}\nrefused: E402\n", "should be refused (E402), and the ruleset loads with them"),
    ("options: {hand_size: 99}\nrefused: E401\n", "refused, but not with 'E401': E402"),
    ("options: {hand_size: 99}\nrefused: E402\nsteps:\n  - expect: {over: false}\n", "has no setup, stacked or steps"),
])
def test_a_scenario_may_expect_its_options_refused(tmp_path, body: str, error: str | None):
    """6 nimmt! newcomer: no scenario could state that a setting is refused (a `require`)."""
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: american_page_one\n" + body, encoding="utf-8")
    sc, loc = parse_scenario(path.read_text(encoding="utf-8"), str(path))
    if error is None:
        assert Runner(sc, loc, tmp_path).run() == 0
    else:
        with pytest.raises(FudaError) as e:
            Runner(sc, loc, tmp_path).run()
        assert error in e.value.first.message and e.value.first.span.line == 3


def test_a_deal_of_a_negative_count_is_a_rule_failure():
    """QA13: `deal k` with k below 0 dealt nothing and said nothing."""
    g = load_text(textwrap.dedent("""
        ruleset negdeal
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        var k: int = -2
        setup { }
        phase play { deal k from deck to hand
                     end game draw }
    """))
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    assert e.value.first.code == "E601" and "below 0" in e.value.first.message


def test_best_by_a_tuple_compares_part_by_part():
    """Jaipur newcomer P1: `best … by (rupees, bonus)` was refused while `sorted … by` took a tuple."""
    g = load_text(textwrap.dedent("""
        ruleset best_tuple
        players 3
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var bonus: int per player = 0
        var w: player = none
        setup { }
        phase play {
            for p in players { score[p] = 5 }
            score[players[0]] = 3
            bonus[players[2]] = 1
            w = best p in players by (score[p], bonus[p])
            end game draw
        }
    """))
    assert vars_of(g.new_state(0))["w"] == 2
    with pytest.raises(FudaError) as e:
        load_text(textwrap.dedent("""
            ruleset best_cards
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            var c: card = none
            setup { }
            phase play { c = best x in all_cards by (x.rank, x)
                         end game draw }
        """))
    assert e.value.first.code == "E201" and "tuple of them" in e.value.first.message


def test_a_tier_by_a_tuple_compares_part_by_part():
    """Citadels newcomer: `tier … by (a, b)` was refused while `best … by` and `sorted … by` took a tuple."""
    g = load_text(textwrap.dedent("""
        ruleset tier_tuple
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var picked: card = none
        ordering strength(c: card) {
            tier c.suit == ♠ by (c.rank % 2, c.rank)
            tier true by (c.rank, -index_of([♠, ♥, ♦, ♣], c.suit))
        }
        setup { }
        phase play {
            picked = best c in [card("♥K"), card("♣K"), card("♠4"), card("♠Q"), card("♠3")] by strength(c)
            log "{picked} {strength(card("♥K")) > strength(card("♣K"))} {strength(card("♠4")) < strength(card("♠3"))}"
            end game draw
        }
    """))
    st = g.new_state(0)
    assert "♠3 true true" in log_texts(st)
    with pytest.raises(FudaError) as e:
        load_text(textwrap.dedent("""
            ruleset tier_cards
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            ordering o(c: card) { tier true by (c.rank, c) }
            setup { }
            phase play { if o(top(deck)) > o(top(deck)) { end game draw } }
        """))
    assert e.value.first.code == "E201" and "not (int, card)" in e.value.first.message
    # sorted … by orders cards too, and checks a tuple's parts as the others do
    with pytest.raises(FudaError) as e:
        load_text(textwrap.dedent("""
            ruleset sorted_parts
            players 2
            cards standard(jokers = 0) in deck
            zone deck: pile hidden
            zone hand: hand per player owner
            setup { let a = sorted c in deck by (c.rank, c)
                    let b = sorted c in deck by (c.rank, hand) }
            phase play { end game draw }
        """))
    assert [d.message.rsplit("not ", 1)[1] for d in e.value.diagnostics] == ["(int, per-player zone hand)"]


def test_a_part_of_a_list_zone_or_sequence_is_cut_by_positions():
    """6 nimmt! newcomer: no way to take the first n of a list (the lowest cards of a sorted hand).
    `xs[a:b]` cuts lists, a zone's cards and a sequence's zones, and cuts where the list ends."""
    g = load_text(textwrap.dedent("""
        ruleset slices
        players 2
        option n: int 1..4 = 3
        cards {
            attr v: int
            for i in [10, 20, 30, 40, 50][:n] { card "c{i}" v = i }
        } in deck
        zone deck: pile public
        zone low: pile public
        zone rows: sequence
        var xs: list of int = [5, 6, 7, 8]
        setup {
            move (sorted c in deck by -c.v)[:2] to low
            insert rows back as r0
            move top(deck) to r0
            log "{xs[:2]}|{xs[2:]}|{xs[-1:]}|{xs[1:3]}|{xs[:10]}|{xs[5:]}|{xs[:]}"
            log "{[c.v for c in low[:1]]}|{size(rows[:1])}|{size(rows[1:])}|{low[-1:] == [top(low)]}"
        }
        phase play { end game draw }
    """), {"n": 3})
    texts = log_texts(g.new_state(0))
    assert "5 6|7 8|8|6 7|5 6 7 8||5 6 7 8" in texts
    assert "30|1|0|true" in texts
    for bad, code, words in [("let a = hand[:2]", "E201", "say whose"),
                             ('let a = cards(deck)["a":]', "E201", "whole number"),
                             ("let a = 5[1:]", "E201", "cut from a list")]:
        with pytest.raises(FudaError) as e:
            load_text(textwrap.dedent(f"""
                ruleset bad_slice
                players 2
                cards standard(jokers = 0) in deck
                zone deck: pile hidden
                zone hand: hand per player owner
                setup {{ {bad} }}
                phase play {{ end game draw }}
            """))
        err = e.value.first
        assert err.code == code and words in f"{err.message} {err.hint}", err
    # a part of a hidden hand is its cards: a log of it is warned, as a log of the hand is
    g = load_text(textwrap.dedent("""
        ruleset slice_secret
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { deal 3 from deck to hand
                log "{hand[players[1]][:2]}" }
        phase play { end game draw }
    """))
    assert [w.code for w in g.prog.warnings] == ["W104"]


@pytest.mark.parametrize("sequences", [False, True])
def test_a_move_that_leaves_cards_where_they_lie_logs_no_move(sequences):
    """Newcomers: `move all from pile to pile`, or a card to the top of its own zone, logged a move
    where nothing changed place. Such a move logs nothing; one that reorders its zone is a move "to
    the top"; one that forgets a reveal or turns the card face up logs that, as hide/reveal do. With a
    sequence declared, moves go through the runtime's functions rather than inline code: the same."""
    g = load_text(textwrap.dedent("""
        ruleset same_zone
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone pile: pile public
        zone hand: hand per player owner
        """ + ("zone rows: sequence\n" if sequences else "") + """
        setup {
            move top(deck, 3) to pile
            log "a"
            move pile to pile
            move cards(pile) to pile
            move top(pile) to pile
            move bottom(pile) under pile
            move bottom(pile, 2) under pile
            log "b"
            move bottom(pile) to pile
            log "c"
            move top(deck) to hand[players[0]]
            reveal hand[players[0]] to players[1]
            move top(hand[players[0]]) to hand[players[0]]
            reveal top(deck)
            move top(deck) to deck
            move top(pile) to pile face up
            move top(pile) to pile face up
        }
        phase play { end game draw }
    """))
    st = g.new_state(0)
    texts = log_texts(st)
    k = texts.index("a")
    assert texts[k + 1] == "b"
    top3 = texts[texts.index("c") - 1]
    assert top3.endswith(": pile → pile (to the top)"), texts
    after = texts[texts.index("c") + 1:]
    # a card someone does not see (the spectator: ♣10 is P0's, shown to P1) is moved and logged all the
    # same: the log's silence would tell them which card a hidden choice took
    assert after == ["♣10: deck → hand[P0]", "reveal ♣10 to P1", "♣10: hand[P0] → hand[P0] (to the top)",
                     "reveal ♣9 to everyone", "♣9 turned face down", "reveal ♣K to everyone",
                     "phase: play", "game over (draw)"]
    assert "♣9 turned face down" in view_log(st, 1) and st.vis[g.prog.cards.names.index("♣9")] == 0
    assert st.vis[g.prog.cards.names.index("♣10")] == 0


def test_a_stacked_deck_is_dealt_by_setup_and_kept_only_there():
    """newcomer44 P6: a scenario fixes the cards the setup deals and turns (no search of seeds); the
    other cards are shuffled as the seed says, and the game made next is not stacked."""
    named = ["♠2", "♥2", "♦2", "♠3", "♥3", "♦3", "♥7"]
    st = scenario_state("turned_card", f"seed: 5\nstacked:\n  deck: {{top: [{', '.join(named)}], bottom: [♣K]}}\n")
    assert full_zone(st, "turned") == ["♥7"] and vars_of(st)["trump"] == "♥"
    assert full_zone(st, "hand[P0]") == ["♠2", "♠3"] and full_zone(st, "deck")[0] == "♣K"
    rest = [st.game.card_index[n] for n in full_zone(st, "deck")[1:]]
    assert len(rest) == 44 and rest != sorted(rest)         # the others shuffled all the same
    plain = st.game.new_state(5, hold=True)     # the same game made again: not stacked
    assert st.game.stacked == {} and full_zone(plain, "turned") != ["♥7"]


@pytest.mark.parametrize("body, message", [
    ("stacked: {deck: {top: [♠2], bottom: [♠2]}}\n", "card ♠2 is placed twice"),
    ("stacked: {dek: {top: [♠2]}}\n", "no zone is named 'dek'"),
    ("stacked: {deck: {top: [♠22]}}\n", "no card is named '♠22'"),
    ("stacked: {deck: [♠2]}\n", "stacked.deck: Input should be"),
])
def test_a_stacked_deck_that_cannot_be_is_e501(body: str, message: str):
    with pytest.raises(FudaError) as e:
        scenario_state("turned_card", body)
    assert e.value.first.code == "E501" and message in e.value.first.message, e.value.first.message
    assert load(str(CONSTRUCTS / "turned_card.fuda")).stacked == {}


BEANS = ('ruleset d\nplayers 2..3\nenum Bean { blue "Blue bean | 青豆", red "Red bean | 赤豆" }\n'
         'cards {\n attr bean: Bean\n for b in [blue, red] {\n  if size(players) > 2 or b != blue {\n'
         '   for i in 1..2 { card "{b}{i}" "{b} | {b}" bean = b }\n  }\n }\n} in deck\n'
         'zone deck: pile hidden\nsetup { }\nphase play { choose players[0] { wait { end game } } }\n')
STRIPPED = ('ruleset s\nplayers 2\ncards standard(ranks = [1] + (7..13)) in deck\nzone deck: pile hidden\n'
            'zone table: pile public\nsetup { move card("♠A") to table }\n'
            'phase play { choose players[0] { wait { end game } } }\n')


@pytest.mark.parametrize("ruleset, zones, error", [
    (BEANS, "deck: {excludes: [Blue bean, blue2, 青豆], contains: [Red bean]}", None),
    (STRIPPED, "deck: {excludes: [♠2, S3, H6]}", None),
    (BEANS, "deck: {excludes: [Purple bean]}", "no card is named 'Purple bean'"),      # in no deck: a typo
    (BEANS, "deck: {contains: [Blue bean]}", "no card is named 'Blue bean'"),          # left out: only excludes
    (STRIPPED, "table: {excludes: [♠A, ♠2]}", "table: ♠A should not be there"),
])
def test_a_zone_s_excludes_may_name_a_card_the_options_leave_out(tmp_path, ruleset: str, zones: str,
                                                                 error: str | None):
    """newcomer43 P5 (Bohnanza): with three players the blue beans are left out of the deck, and
    `excludes: [Blue bean]` was E501, so no test could say a variety is absent. A card of a `cards {
    if … }` not taken, or a rank `standard(ranks = …)` strips, is in no zone; a name of no deck stays
    E501, and naming a left-out card anywhere else says why."""
    (tmp_path / "r.fuda").write_text(ruleset, encoding="utf-8")
    text = f"ruleset: r.fuda\nsteps:\n  - expect:\n      zones: {{{zones}}}\n"
    sc, loc = parse_scenario(text, str(tmp_path / "t.yaml"))
    if error is None:
        assert Runner(sc, loc, tmp_path).run() == 1
        return
    with pytest.raises(FudaError) as e:
        Runner(sc, loc, tmp_path).run()
    assert error in e.value.first.message
    assert ("these options leave it out of the deck" in (e.value.first.hint or "")) == ("contains" in zones)


def test_best_where_by_0_is_the_first_element_that_meets_the_condition():
    """language.md §23's idiom for "the first element that matches" (For Sale newcomer, fix16 6):
    every key equal, the first of equals in the list's order wins; none when nothing meets it."""
    g = load_text(textwrap.dedent("""\
        ruleset first_match
        players 4
        cards standard() in deck
        zone deck: pile hidden
        var passed: bool per player = false
        setup { passed[players[2]] = true }
        phase play {
            let p = players[1]
            log "next in {best q in seats_from(next(p)) where not passed[q] by 0}"
            log "first of [5, 8, 6] above 5: {best x in [5, 8, 6] where x > 5 by 0}"
            log "none: {best x in [1, 2] where x > 5 by 0}"
            end game draw
        }
    """))
    texts = log_texts(g.new_state(0))
    assert "next in P3" in texts and "first of [5, 8, 6] above 5: 8" in texts and "none: none" in texts, texts



def test_distinct_by_a_key_offers_one_choice_per_key():
    """newcomer47 P6: suits never matter in Canasta, yet `distinct(…)` keeps one action per suit
    (it collapses identical faces only). `distinct c in L [where C] by KEY` keeps the first of L for
    each KEY, in L's order; a key that cannot be compared for equality is E201."""
    st = scenario_state("distinct_by", """
        setup: {zones: {"hand[P0]": [♠7, ♥7, "♠7#2", ♣A, ♦9, ♣7, ♠9]}}
    """)
    assert ids(st, 0) == ["meld ♠7", "meld ♦9"]
    st.game.apply(st, 0, st.legal_actions(0)[0])
    assert full_zone(st, "table") == ["♠7", "♥7", "♠7#2", "♣7"]
    assert "2 kinds of pair" in [e["text"] for e in st.view(None)["log"]]     # ♠7 ♥7 and ♠7 ♠7#2 are one
    with pytest.raises(FudaError) as e:
        load_text((CONSTRUCTS / "distinct_by.fuda").read_text(encoding="utf-8").replace("by d.rank", "by hand"))
    assert e.value.first.code == "E201" and e.value.first.message.startswith("distinct … by"), e.value.format()


def test_an_empty_list_of_cards_leaves_no_space_in_an_action_id():
    """newcomer46 P4: a list binder that may be empty gave ids with a trailing space (`pick 1 `),
    shown in E502 listings and kept in saved games; an old id with the space is still taken."""
    g = load_text(textwrap.dedent("""
        ruleset e
        players 2
        cards standard() in deck
        zone deck: pile hidden
        zone hand: hand per player owner
        setup { deal 2 from deck to hand }
        phase play {
            choose players[0] {
                pick n in 1..2, cs in [[], cards(hand[players[0]])[:1]] "pick {n} {cs}" { }
            }
        }
        """))
    st = g.new_state(1)
    ids = [a.id for a in st.legal_actions(0)]
    c = ids[1].split()[2]
    assert ids == ["pick 1", f"pick 1 {c}", "pick 2", f"pick 2 {c}"]
    st.apply(0, "pick 1 ")
    assert "P0: pick 1" in [e["text"] for e in st.view(1)["log"]]


def test_tuples_compare_part_by_part_and_a_comprehension_nests_in_an_element():
    """newcomer49 P5: both worked, while the reference said `<`/`>` took numbers, texts and keys."""
    st = load_text(textwrap.dedent("""
        ruleset tuples
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        var bonus: int per player = 0
        setup { }
        phase play {
            score[players[0]] += 1
            bonus[players[1]] += 2
            let a = (score[players[0]], bonus[players[0]])
            let b = (score[players[1]], bonus[players[1]])
            log "{a > b} {a < b} {(1, 2) < (1, 3)} {(1, 2) >= (1, 2)}"
            log "{flatten([[q for q in players] for r in 1..2])}"
            end game
        }
        """)).new_state(0)
    assert log_texts(st)[-3:-1] == ["true false true true", "P0 P1 P0 P1"]


ITEMS = """
ruleset items
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var xs: list of int = [1, 2, 3]
var stakes: list of int per player = [10, 20]
var grid: list of list of int = [[0, 0], [0, 0]]
var marks: list of int per card = [0, 0]
setup { }
phase play {
    xs[1] = 7
    xs[0] += 5
    stakes[players[1]][1] -= 3
    grid[1][0] = 9
    let c = top(deck)
    c.marks[-1] = 4
    let ys = [4, 5]
    ys[-1] = 6
    BODY
    log "{xs}; {stakes[players[0]]}; {stakes[players[1]]}; {grid}; {c.marks}; {ys}"
    end game
}
"""


def test_an_item_of_a_list_is_assigned_in_any_variable_or_local():
    """newcomer50 P3 and newcomer51 P1: `stakes[p][i] = n` was E204 without a hint; both rebuilt
    their lists with slices, one helper function per element type."""
    st = load_text(ITEMS.replace("BODY", "")).new_state(0)
    assert log_texts(st)[-2] == "6 7 3; 10 20; 10 17; 0 0 9 0; 0 4; 4 6"


@pytest.mark.parametrize("body, code, words, at", [
    ('xs[0] = "a"', "E201", "cannot store text in an item of list of int", '"a"'),
    ('xs["a"] = 1', "E201", "a position is a whole number (0 is the first): expected int, got text", '"a"'),
    ("xs[0] /= 2", "E201", "/= would make a fraction but the target is a whole number", "xs[0] /= 2"),
    ("grid[1][0] = [1]", "E201", "cannot store list of int in an item of list of int", "[1]"),
    ("xs[0][1] = 2", "E204", "this holds an int, not a list: only a list's items can be assigned", "xs[0]"),
    ("xs[random([0, 1])] += 1", "E204", "+= reads the item and sets it: its position would be worked out twice",
     "random([0, 1])"),
    ("grid[random([0, 1])][0] = 1", "E204", "the list is read and then set: this would be worked out twice",
     "random([0, 1])"),
    ("random(cards(deck)).marks[0] = 1", "E204", "the list is read and then set", "random(cards(deck))"),
    ("deck[0] = 1", "E204", "this cannot be assigned", "deck[0]"),
])
def test_an_item_assignment_that_cannot_be_is_refused_in_words(body, code, words, at):
    """Said of the item, where the mistake is — not of `replaced`, which the designer never wrote; a
    list worked out by chance would be read from one list and stored in another (grid's row 2 set to
    row 3's values with the 0 changed)."""
    with pytest.raises(FudaError) as info:
        load_text(ITEMS.replace("BODY", body))
    d = info.value.first
    assert d.code == code and words in d.message and len(info.value.diagnostics) == 1
    assert "replaced" not in d.message + (d.hint or "")
    line = ITEMS.replace("BODY", body).splitlines()[d.span.line - 1]
    assert line[d.span.col - 1:].startswith(at)


def test_an_item_past_the_end_fails_as_reading_it_does():
    with pytest.raises(RuleRuntimeError) as info:
        load_text(ITEMS.replace("BODY", "xs[3] = 1")).new_state(0)
    assert info.value.first.code == "E601" and "past the end" in info.value.first.message


def test_a_public_list_item_set_from_hidden_cards_is_warned():
    game_text = ITEMS.replace("BODY", "xs[0] = top(deck).rank")
    from interpreter.api import check_ruleset
    warnings = [d for d in check_ruleset("items.fuda", text=game_text).warnings if d.code == "W104"]
    assert warnings and "xs is public" in warnings[0].message


@pytest.mark.parametrize("body, warned", [
    ("top(deck).marks[0] = 1", False), ("top(deck).marks[0] += 1", False),
    ("let d = top(deck)\n    d.marks[0] += 1", False),
    ("top(deck).marks[0] = top(deck).rank", True), ("xs[top(deck).rank % 3] = 1", True),
    ("xs[0] += top(deck).rank", True), ("xs[1] = size(deck)", False), ("xs[1] = max([top(deck).rank, 1])", True),
])
def test_a_card_list_item_set_on_an_unseen_card_is_not_warned_for_its_own_old_value(body, warned):
    """`top(deck).marks[0] = 1` stores replaced(top(deck).marks, 0, 1): the card's own marks, read
    where they are set, show only with the card (as `c.marks = …` of a local c); W104 said marks
    were set from the deck. The position and the value set still tell."""
    from interpreter.api import check_ruleset
    text = ITEMS.replace("BODY", body)
    first = ITEMS.splitlines().index("    BODY") + 1      # the body's lines (the fixture's log warns of c)
    lines = range(first, first + body.count("\n") + 1)
    diags = check_ruleset("items.fuda", text=text).warnings
    assert any(d.code == "W104" and d.span.line in lines for d in diags) == warned


@pytest.mark.parametrize("players, then, outcomes, places", [
    (1, "", ["draw"], [1]), (1, " then lose", ["lose"], [2]),
    (2, " then draw", ["draw", "draw"], [1, 1]), (2, " then lose", ["lose", "lose"], [2, 2]),
])
def test_the_decision_limit_draws_or_loses_as_the_ruleset_says(players, then, outcomes, places):
    """newcomer48 P4: a patience stopped at the limit was a draw, which a searching bot prefers to
    giving up (a loss): it played every game on to the limit."""
    g = load_text(f"ruleset capped\nplayers {players}\ncards standard() in deck\nzone deck: pile hidden\n"
                  f"limit 5 decisions{then}\nsetup {{ }}\n"
                  "phase play { while true { choose current { wait \"wait\" { } }  current = next(current) } }\n")
    st = g.new_state(0)
    g.playout(st, random.Random(0).random)
    assert st.capped and st.ndec == 5
    assert [r["outcome"] for r in g.result(st)] == outcomes and [r["place"] for r in g.result(st)] == places
    driven = g.new_state(0)
    while not driven.over:
        driven.apply(driven.to_move()[0], "wait")
    assert g.result(driven) == g.result(st)
    # the log says which (it said "a draw" when they lost)
    said = "lost for the players still in it" if then == " then lose" else "a draw for the players still in it"
    assert f"decision limit reached (5): the game ends, {said}" in log_texts(st)


def test_at_a_losing_limit_those_still_playing_share_the_place_after_those_who_finished():
    """qa35a: with one player finished first, the two still playing took place 3 (the last), where
    `lose` gives the place after the worst winner's: 2."""
    g = load_text("ruleset capped3\nplayers 3\ncards standard() in deck\nzone deck: pile hidden\n"
                  "limit 4 decisions then lose\nsetup { finish players[0] }\n"
                  "phase play { while true { choose current { wait \"wait\" { } }  current = next(current) } }\n")
    st = g.new_state(0)
    g.playout(st, random.Random(0).random)
    assert [(r["outcome"], r["place"]) for r in g.result(st)] == [("win", 1), ("lose", 2), ("lose", 2)]
