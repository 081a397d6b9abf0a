"""Decision prompts that interpolate values (rule parameters, globals, the player asked by a
simultaneous decision), the table lookups that format texts, the scenario view log, and the
`fuda play` line for a bot's simultaneous choice."""

from __future__ import annotations

import io

import pytest

from interpreter.api import load_text
from interpreter.errors import FudaError
from interpreter.runner.play import play

PROMPTS = """
ruleset prompt_test "Prompts | 質問"
players 2
enum Hue { warm "Warm | 暖", cold }
cards {
    attr hue: Hue
    card "a1" hue = warm
    card "a2" hue = cold
    card "a3" hue = warm
} in deck
zone deck: pile hidden
zone hand: hand per player owner
var n: int = 3
var shade: Hue = cold
var last: player = none

rule pick(k: int) {
    simultaneous p in players "{p}: give {k} of {size(hand[p])} | {p}: {k}枚渡す" {
        give c in hand[p] "give {c}" { move c to deck }
    }
}

setup {
    deal 1 from deck to hand
}

phase play {
    choose current "pick from {n}, {shade} | {n}から選ぶ {shade}" {
        go "go" { last = current }
    }
    pick(n - 2)
    log "{last} {n} {shade} {top(deck)} {[last, next(last)]} {[shade, warm]} | {last}"
}
"""


def test_prompts_interpolate_globals_rule_parameters_and_the_player_asked():
    game = load_text(PROMPTS)
    st = game.new_state(1)
    assert st.view(0)["decision"]["prompt"] == "pick from 3, cold | 3から選ぶ cold"
    st.apply(0, "go")
    assert st.to_move() == [0, 1]
    assert st.view(0)["decision"]["prompt"] == "P0: give 1 of 1 | P0: 1枚渡す"
    assert st.view(1)["decision"]["prompt"] == "P1: give 1 of 1 | P1: 1枚渡す"


def test_texts_format_players_cards_enums_and_lists_as_before():
    game = load_text(PROMPTS)
    st = game.new_state(1)
    st.apply(0, "go")
    for p in (0, 1):
        st.apply(p, st.legal_actions(p)[0])
    last = [e["text"] for e in st.view(None)["log"]][-2]
    # a member reads as its label where it has one (warm "Warm | 暖"), else as its name (cold)
    assert last.startswith("P0 3 cold ") and last.endswith(" P0 P1 cold Warm")


def test_play_prints_a_bots_simultaneous_choice_as_chosen_only():
    game = load_text(PROMPTS)
    out = io.StringIO()
    answers = iter(["1", "1"])
    play(game, ["random", "human"], seed=1, inp=lambda _prompt: next(answers), out=out)
    text = out.getvalue()
    assert "P0 (random) has chosen" in text
    assert "P0 (random): give" not in text
    out = io.StringIO()
    answers = iter(["1", "1"])
    play(game, ["random", "human"], seed=1, inp=lambda _prompt: next(answers), out=out, lang=1)
    assert "P0 (random) が選んだ" in out.getvalue()     # not "P0 (random): が選んだ"


def test_logged_messages_are_worded_when_read():
    """A log event keeps the values it shows (cards, players, a changing list) and its formatter;
    the words are made when the log is read, the same as when it happened. Events of states saved
    before that keep their (english, japanese) words and still read."""
    from interpreter.engine import runtime as R
    from interpreter.engine.observe import render_event

    game = load_text("""
ruleset logged
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var seen: list of card = []
setup {
    seen = [top(deck)]
    log "{players[1]} sees {seen} | {players[1]} は {seen} を見る"
    seen += [bottom(deck)]
}
phase play { end game }
""")
    st = game.new_state(2)
    (ev,) = [e for e in st.ev if e[0] == R.EV_LOG]
    assert isinstance(ev[2][0], int)                       # a formatter and the values of then
    first = game.card_names[st.g[next(v.slot for v in game.prog.vars if v.name == "seen")][0]]
    assert render_event(st, ev, None)["text"] == f"P1 sees {first}"
    assert render_event(st, ev, None, lang=1)["text"] == f"P1 は {first} を見る"
    old = (R.EV_LOG, ev[1], ("words of then", "当時の言葉"))
    assert render_event(st, old, None, lang=1)["text"] == "当時の言葉"


def test_a_text_inside_an_interpolation_may_interpolate_too():
    """A newcomer's Coup: `{if … then "a" else "x{1}"}` was a syntax error."""
    game = load_text('ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                     'var n: int = 3\nsetup { }\nphase play {\n'
                     '    log "t: {if n > 2 then "big {n}" else "x{1}"} | 大: {if n > 2 then "大 {n * 2}" else "小"}"\n'
                     '    log "{{literal}} and {n}"\n    end game\n}\n')
    st = game.new_state(0)
    game.playout(st, lambda: 0.5)
    assert [e["text"] for e in st.view(None)["log"]][1:3] == ["t: big 3", "{literal} and 3"]
    assert [e["text"] for e in st.view(None, lang=1)["log"]][1] == "大: 大 6"


def test_a_prompt_shows_a_card_attribute_its_reader_cannot_see_as_a_question_mark():
    """`"Doubt a {it.card.rank}?"`: the claimed card lies face down, so a responder reads "Doubt a ??"
    (language.md §27 listed the attribute as shown); `{it.card}` already read "a card". A reader who
    sees the card reads its rank."""
    from pathlib import Path

    from interpreter.engine.state import State

    text = (Path(__file__).parent / "constructs" / "simul_window.fuda").read_text(encoding="utf-8").replace(
        '"Doubt {it.controller}? | ダウト?"', '"Doubt {it.controller}\'s {it.card.rank} ({it.card})? | ダウト?"')
    game = load_text(text, filename="simul_window.fuda")
    st: State = game.new_state(3)
    p = st.to_move()[0]
    st.apply(p, st.legal_actions(p)[0].id)
    asked = st.to_move()
    assert asked and p not in asked
    assert game.prompt(st, asked[0]) == f"Doubt P{p}'s ? (a card)? | ダウト?"
    card = st.items[st.stack[-1]][5 + game.prog.item_fields["card"][0]]
    from interpreter.engine import runtime

    st.vis[card] = runtime.ALL      # as if it lay face up
    rank = int(game.card_names[card][1:].replace("A", "1").replace("J", "11").replace("Q", "12").replace("K", "13"))
    assert game.prompt(st, asked[0]) == f"Doubt P{p}'s {rank} ({game.card_names[card]})? | ダウト?"


def test_a_text_value_shows_a_labelled_enum_member_by_its_label():
    """Bridge newcomer: `note = "dealer is {seat}"` stored `dealer is north` where a log printed
    `North`. A text value is one language: a labelled member reads as its label's first half."""
    st = load_text("""
ruleset enum_text_value
players 2
enum Seat { north "North | 北", south "South | 南" }
enum Plain { up, down }
cards standard() in deck
zone deck: pile hidden
var seat: Seat = north
var note: text = ""
setup {
    note = "dealer is {seat}, then {[north, south]}, {down}"
    log "{note} | {seat}"
}
phase play { }
""").new_state(1)
    assert st.view(None)["vars"]["note"] == "dealer is North, then North South, down"
    assert st.view(None, lang=1)["log"][0]["text"] == "北"


def test_label_of_an_enum_member_is_its_label_in_the_text_s_language():
    """qa16 V10: `show c as "{if c.spy then "Spy" else c.role}"` was E201 (text and Role), and
    `text(c.role)` is the id: label(x) is the member's label — in the language of the text it is
    written into, else its first half (a text value) — and the id of a member without one."""
    st = load_text("""
ruleset enum_label
players 2
enum Seat { north "North | 北", south }
cards standard() in deck
zone deck: pile hidden
var seat: Seat = north
var note: text = ""
setup {
    note = label(seat)
    log "{if seat == south then "S" else label(seat)} {label(south)} | {if seat == south then "南" else label(seat)}"
}
phase play { }
""").new_state(1)
    assert st.view(None)["vars"]["note"] == "North"
    assert st.view(None)["log"][0]["text"] == "North south"
    assert st.view(None, lang=1)["log"][0]["text"] == "北"


SCORED = """
ruleset scored
players 2
cards standard() in deck
zone deck: pile hidden
score "Points | 文"
setup { }
phase play {
    choose current { go n in [1, 2] { score[current] += n } }
    end game ranking p in players by score[p]
}
"""


def test_a_labelled_score_is_shown_by_its_label_from_the_start(tmp_path):
    """Koi-Koi newcomer: the match total in 文 was hidden while every score was 0 and could not be
    named. `score "Points | 文"` names it on the seats and in the results, zeros included."""
    from interpreter.runner.render import render

    g = load_text(SCORED)
    st = g.new_state(1)
    assert st.view(0)["score_label"] == "Points" and st.view(0, lang=1)["score_label"] == "文"
    assert "P0 (you) Points 0 | P1 Points 0" in render(st.view(0))
    st.apply(0, "go 2")
    assert "P0 win (place 1, Points 2), P1 lose (place 2, Points 0)" in render(st.view(0))
    assert "P0 勝ち (1位, 文 2)" in render(st.view(0, lang=1), lang=1)
    assert load_text(SCORED.replace('score "Points | 文"\n', "")).new_state(1).view(0)["score_label"] is None
    from interpreter.api import load

    (tmp_path / "scored.fuda").write_text(SCORED, encoding="utf-8")
    (tmp_path / "mon.fuda").write_text('ruleset mon\nextends scored\nscore "Mon | 文"\n', encoding="utf-8")
    assert load(str(tmp_path / "mon.fuda")).new_state(1).view(0)["score_label"] == "Mon"


def test_a_score_label_is_plain_text():
    import pytest

    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as info:
        load_text(SCORED.replace('score "Points | 文"', 'score "Points {current}"'))
    assert info.value.first.code == "E309" and "the score's label is plain text" in info.value.first.message


def test_qa8_a_score_label_is_not_blank():
    """QA8 P-score-blank: `score ""` was accepted, and results read "P0 lose (place 2,  -3)"."""
    import pytest

    from interpreter.errors import FudaError

    for blank in ('score ""', 'score "Points | "', 'score "  "'):
        with pytest.raises(FudaError) as info:
            load_text(SCORED.replace('score "Points | 文"', blank))
        assert info.value.first.code == "E309" and "the score's label is blank" in info.value.first.message


def test_a_card_a_list_binder_names_is_named_in_its_label_too():
    """Citadels newcomer B1: `name c in all_cards "name the {c}"` read "name the a card" for a card
    in a hidden zone, though the action's id named it (`name Assassin`)."""
    from interpreter.api import load_text

    game = load_text("""ruleset named
players 2
cards {
    card "Assassin"
    card "Bishop"
} in deck
zone deck: pile hidden
zone hand: hand per player owner
setup { move card("Bishop") to hand[players[0]] }
phase play {
    choose players[0] "Name a character" {
        name c in all_cards "name the {c}" { end game draw }
        take c in deck "take {c}" { end game draw }
    }
}
""")
    st = game.new_state(1)
    labels = {a.id: a.label for a in st.legal_actions(0)}
    assert labels["name Assassin"] == "name the Assassin" and labels["name Bishop"] == "name the Bishop"
    taken = [label for aid, label in labels.items() if aid.startswith("take")]
    assert taken == ["take deck[0]"]              # a card chosen from a hidden zone: still by its place


def test_a_text_inside_a_label_shows_its_cards_as_the_label_does():
    """Jaipur newcomer B1: `{cs}` in a label read "Gold Gold", but the same list inside a nested text,
    `{if size(cs) == 0 then "none" else "{cs}"}`, read the cards' names "gold1 gold2"."""
    from interpreter.api import load_text

    game = load_text("""ruleset nested
players 2
cards {
    for i in 1..3 { card "gold{i}" "Gold | 金" }
} in deck
zone deck: pile public
zone hand: hand per player owner
setup { move card("gold3") to hand[players[1]] }
phase play {
    choose players[0] {
        give cs in subsets(sorted(deck), 2) "give {if size(cs) == 0 then "none" else "{cs}"}" { end game draw }
        peek c in hand[players[1]] "see {if true then "{c}" else "-"}" { end game draw }
    }
}
""")
    labels = [a.label for a in game.new_state(0).legal_actions(0)]
    assert labels[0] == "give Gold Gold | give 金 金"
    assert labels[-1] == "see hand[P1][0]"        # a card the chooser cannot see: still by its place


LABELLED = """
ruleset labelled "Labels"
players 2
cards standard(jokers = 0) in deck
option n: int = 3 "deal cards"
option style: {calm "calm", bold "bold"} = calm
enum tint { rose "rose", blue }
zone deck: pile hidden "the deck"
zone hand: hand per player owner "hand"
var k: tint = rose "k"
require n > 0 "need cards"
setup { shuffle deck deal n from deck to hand }
phase play "Play" {
    choose current { go "go {n}" { log "dealt {n}, {{n}} as written" } }
    end game
}
"""


@pytest.mark.parametrize("label, what", [
    ('"Labels"', "the ruleset's title"), ('"deal cards"', "the label of n"), ('calm "calm"', "the label of calm"),
    ('rose "rose"', "the label of rose"), ('"the deck"', "the label of deck"), ('owner "hand"', "the label of hand"),
    ('rose "k"', "the label of k"), ('"need cards"', "a require's message"), ('"Play"', "the label of play")])
def test_a_declaration_label_that_would_show_a_value_is_e309_not_printed_as_braces(label, what):
    """Helpers saw `hand of {…}` on screen: a declaration's label is fixed text."""
    load_text(LABELLED)     # `{n}` in a choice's option and a log, `{{n}}` anywhere: fine
    with pytest.raises(FudaError) as info:
        load_text(LABELLED.replace(label, label[:-1] + ' {n}"', 1))
    assert info.value.first.code == "E309" and f"{what} is plain text: it cannot show values" in info.value.first.message
    assert "`{{` and `}}` write the braces" in (info.value.first.hint or "")


def test_a_folded_menu_entry_gives_its_example_as_the_player_reads_the_cards_and_the_example_is_accepted():
    """newcomer49 P8: Jaipur's 134 exchanges folded into one entry whose example named the cards by
    ids the screen never shows (`exchange dia1 silv1 gold5 spic3`)."""
    game = load_text("""
ruleset fold
players 2
cards { for i in 1..9 { card "c{i}" "Fruit {i} | 果物{i}" } } in deck
zone deck: pile public
zone hand: hand per player owner
setup { }
phase play {
    choose players[0] { take cs in subsets(cards(deck), 3) "take {cs}" { move cs to hand[players[0]] } }
}
""")
    for lang, example in ((0, "take Fruit 1, Fruit 2, Fruit 3"), (1, "take 果物1 果物2 果物3")):
        out = io.StringIO()
        answers = iter(["", example])       # a line to see the menu, then its example as typed
        play(game, ["human", "random"], seed=1, inp=lambda _prompt, a=answers: next(a), out=out, lang=lang)
        text = out.getvalue()
        assert "84 choices" in text or "84 通り" in text
        assert f"{example}\n" in text and "c1" not in text
        assert f"P0: {example}" in text.replace("を取る", "")
