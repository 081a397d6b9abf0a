"""Sequences in views and in the terminal: each sequence's zones front first (a declared zone may
stand in the row), and two players' rows of one per-player sequence drawn facing each other."""

from __future__ import annotations

from interpreter.api import load_text
from interpreter.runner.render import render, render_choices

from .conftest import game_from

RULES = """
ruleset facing_rows
players 2
cards standard(jokers = 0) in box
zone box: pile hidden
zone reserve: pile per player hidden "Reserve"
zone rows: sequence per player public "Rows"
var reach: int per card = 0
show c as "{c}·r{c.rank}"
setup {
    for p in players {
        move top(box, 5) to reserve[p]
        insert reserve[p] into rows[p] back
        insert rows[p] front as z
        move top(box) to z
        insert rows[p] back as y
        move top(box, 2) to y
    }
}
phase play {
    choose players[0] { wait { } }
}
"""


def test_view_lists_each_sequence_with_its_declared_zone():
    st = game_from(RULES).new_state(0)
    v = st.view(None)
    assert v["sequences"] == {"rows[P0]": ["rows[P0][0]", "reserve[P0]", "rows[P0][2]"],
                              "rows[P1]": ["rows[P1][0]", "reserve[P1]", "rows[P1][2]"]}
    assert v["zones"]["reserve[P1]"] == {"size": 5, "cards": [None] * 5, "pile": True}
    log = [e["text"] for e in v["log"]]
    assert "Reserve[P0] at the back of Rows[P0]" in log and "a new zone at the front of Rows[P0]" in log


def test_two_players_rows_face_each_other():
    st = game_from(RULES).new_state(0)
    v = st.view(1)
    text = render(v)
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("  Rows: P0 above, P1 below"))
    rows = lines[start + 1:start + 8]
    # the other player's back row at the top, the two front rows touching, the viewer's back below
    tags = [r.split("│")[0].split("┼")[0].strip() for r in rows]
    assert tags == ["P0 [2]", "P0 [1]", "P0 [0]", "─" * 10, "P1 [0]", "P1 [1]", "P1 [2]"]
    assert rows[1].endswith("Reserve[P0]: 5 cards")       # zones and sequences by their labels
    labels = v["labels"]
    front = v["zones"]["rows[P1][0]"]["cards"][0]
    assert rows[4].endswith(labels[front]) and "·r" in labels[front]
    # zones shown in a row are not listed again on their own
    assert not any(ln.lstrip().startswith("reserve[") for ln in lines)
    # a spectator sees P0 below
    spect = render(st.view(None))
    assert "Rows: P1 above, P0 below, front lines facing" in spect


def test_a_shared_sequence_is_one_column():
    g = game_from("""
        ruleset one_row
        players 2
        cards standard(jokers = 0) in deck
        zone deck: pile hidden
        zone row: sequence public
        setup {
            insert row back as a
            move top(deck) to a
            insert row back as b
        }
        phase play { choose players[0] { wait { } } }
    """)
    text = render(g.new_state(0).view(0))
    assert "  row: front first" in text
    assert "    [0]       │ ♣K" in text
    assert "    [1]       │ —" in text


def test_a_move_into_a_row_is_named_by_the_place_the_zone_had_then():
    """The log names a sequence's zone by its place when the card moved (the event keeps places,
    states saved before that keep names); later inserts in front do not rename history."""
    from interpreter.engine import runtime as R
    from interpreter.engine.observe import render_event

    st = game_from(RULES).new_state(0)
    moves = [ev for ev in st.ev if ev[0] == R.EV_MOVE and len(ev) > 6]
    texts = [render_event(st, ev, "all")["text"] for ev in moves]
    # `move top(box) to z` ran when z was the front zone of the row, before `insert rows[p] back as y`
    assert any(t.endswith("box → Rows[P0][0]") for t in texts)
    assert any(t.endswith("box → Rows[P0][2]") for t in texts)
    old = (*moves[0][:6], ("box", "somewhere[7]"))
    assert render_event(st, old, "all")["text"].endswith("box → somewhere[7]")


def test_the_play_screen_shows_variables_by_their_labels():
    from interpreter.api import load_text
    from interpreter.runner.render import render

    g = load_text("""
ruleset labelled
players 2
cards standard() in deck
zone deck: pile hidden
zone table: pile public
zone hand: hand per player owner
var bid: int = 3 "Bid | 宣言"
var started: bool = true
var played_by: player per card = none "Played by | 出した人"
setup {
    deal 2 from deck to hand;
    for c in top(deck, 3) {
        c.played_by = players[1]
        move c to table
    }
    for c in cards(hand[players[0]]) {
        c.played_by = players[0]
    }
}
phase play { choose players[0] { stop { end game } } }
""", {}, filename="labelled.fuda")
    st = g.new_state(0)
    en, ja = render(st.view(0), 0), render(st.view(0, lang=1), 1)
    assert "  Bid = 3" in en and "  宣言 = 3" in ja and "started" not in en
    table = st.view(0)["zones"]["table"]["cards"]
    mine = st.view(0)["zones"]["hand[P0]"]["cards"]
    line = next(x for x in en.splitlines() if "Played by" in x)
    # each card with its zone (newcomer46 P5: three Wilds alike on three groups could not be told apart)
    assert f"{table[-1]} (table): Played by = P1" in line and all(f"{c} (hand[P0]): Played by = P0" in line for c in mine)
    assert not any(f"{c} (table): Played by" in line for c in table[:-1])      # not the whole pile's history
    assert "started" in st.view(0)["vars"]                               # the view keeps it


def test_the_play_screen_sorts_ones_own_hand_and_folds_reveals():
    from interpreter.runner.render import render

    v = {"ruleset": "r", "phase": "play", "current": 0, "viewer": 0, "to_move": [0], "over": False,
         "seats": [{"player": 0, "out": False, "place": 0, "score": 0}],
         "zones": {"hand[P0]": {"size": 3, "cards": ["♣2", "♠K", "♠3"], "pile": False},
                   "pile": {"size": 2, "cards": ["♥2", "♣2"], "pile": True}},
         "vars": {}, "card_vars": {}, "stack": [],
         "log": [{"kind": "reveal", "text": "reveal ♠8 to everyone"}, {"kind": "reveal", "text": "reveal ♥8 to everyone"},
                 {"kind": "reveal", "text": "reveal ♦4 to P0"}]}
    screen = render(v, order={"♠3": 2, "♠K": 12, "♣2": 40, "♥2": 14})
    assert "hand[P0] (you)     ♠3 ♠K ♣2" in screen and "♥2 ♣2  ◀ top" in screen      # a pile keeps its order
    assert "  · reveal ♠8 ♥8 to everyone\n  · reveal ♦4 to P0" in screen


def test_a_long_list_of_choices_is_laid_out_in_columns():
    """Napoleon's 37 bids (or 53 cards to call) one a line pushed the board off a 50-row screen:
    a long list goes in columns across the terminal, numbered down each column."""
    from interpreter.api import load
    from interpreter.runner.render import render_choices, width

    game = load("napoleon", {})
    st = game.new_state(3)
    while st.to_move()[0] != 0:
        p = st.to_move()[0]
        st.apply(p, st.legal_actions(p)[-1])
    decision = st.view(0)["decision"]
    n = len(decision["legal"])
    text = render_choices(decision, 0, columns=120)
    rows = text.splitlines()[1:]
    assert len(rows) < n // 3 and all(width(r) <= 120 for r in rows)
    assert rows[0].split()[0] == "1." and f"{len(rows) + 1}." in rows[0]      # down each column
    assert all(f"{i}." in text for i in range(1, n + 1))
    short = {"prompt": None, "legal": decision["legal"][:3]}
    assert render_choices(short, 0, columns=120).splitlines() == ["   1. ♠ 12", "   2. ♥ 12", "   3. ♦ 12"]


def test_actions_that_differ_by_an_evenly_spaced_number_take_one_entry():
    """A no-limit bet bound over 20..413 printed 394 entries (a newcomer's Hold'em): a run of six or
    more actions differing only by their last number is one entry, keeping its numbers; short or
    uneven runs and other actions are listed as before."""
    from interpreter.runner.render import render_choices

    legal = ([{"id": "fold"}, {"id": "call", "label": "call 20"}] + [{"id": f"raise {n}"} for n in range(40, 1001)]
             + [{"id": f"all {n}"} for n in range(0, 100, 20)] + [{"id": f"pay {n}"} for n in (5, 10, 15, 20, 25, 30)])
    text = render_choices({"prompt": None, "legal": legal}, 0, columns=200)
    assert "1. fold" in text and "2. call (call 20)" in text
    assert " 3–963. raise 40..1000" in text and "raise 41" not in text
    assert "964. all 0" in text and "968. all 80" in text            # five only: listed one by one
    assert "969–974. pay 5..30 in steps of 5" in text
    assert "969–974. pay 5..30 (5刻み)" in render_choices({"prompt": None, "legal": legal}, 1, columns=200)


def test_messages_write_a_run_of_numbered_actions_once():
    """A failed `legal:` expectation listed 800 ids on one line; runs are written once there too."""
    from interpreter.runner.render import compact_ids

    ids = ["fold", *[f"raise {n}" for n in range(40, 1001)], *[f"pay {n}" for n in range(5, 35, 5)], "pay 99"]
    assert compact_ids(ids) == ["fold", "raise 40..1000", "pay 5..30 (step 5)", "pay 99"]
    assert compact_ids(["a 1", "a 2", "a 3"]) == ["a 1", "a 2", "a 3"]


def test_zones_are_called_by_their_labels_in_the_reader_s_language():
    """A newcomer's `zone hole: hand per player owner "Hole cards | 手札"` showed as hole[P0]: the
    screen names a zone by its label (the view's keys stay the names)."""
    from interpreter.api import load
    from interpreter.runner.render import render

    game = load("american_page_one", {"players": 2})
    st = game.new_state(3)
    en, ja = (render(st.view(0, lang), lang) for lang in (0, 1))
    assert "Draw pile" in en and "Hand[P0] (you)" in en and "Hand[P1]" in en
    assert "山札" in ja and "手札[P0]" in ja and "Draw pile" not in ja
    assert "手札[P0]" in st.view(0, 0)["zones"]


def test_per_player_variables_are_shown_a_line_a_seat():
    """`Folded = P0: false, P1: false, …` runs read badly at a poker table (a newcomer's Hold'em): a
    labelled per-player variable goes on its seat's line; the others stay where they were."""
    text = """
ruleset seats_demo
players 3
cards standard() in deck
zone deck: pile hidden
var chips: int per player = 100 "Chips | チップ"
var secret: int per player = 7 owner "Secret | 秘密"
var pot: int = 5 "Pot | ポット"
setup { chips[players[1]] = 90 }
phase play { }
"""
    game = load_text(text)
    screen = render(game.new_state(1).view(0), 0)
    lines = screen.splitlines()
    i = lines.index("seats:")
    assert lines[i + 1].split() == ["P0", "(you)", "Chips", "100", "·", "Secret", "7"]
    assert lines[i + 2].split() == ["P1", "Chips", "90"]          # P1's secret is not shown to P0
    assert "Pot = 5" in screen and "Chips =" not in screen


def test_whole_numbers_show_without_a_fraction():
    """Scores printed as 125.0 on the play screen and in results (a newcomer's Spades)."""
    text = """
ruleset nums
players 2
cards standard() in deck
zone deck: pile hidden
var ratio: number = 2.5 "Ratio | 比"
var whole: number = 0 "Whole | 整数"
setup { score[players[0]] = 125 * 1.0
        whole = 3 * 1.0 }
phase play { end game }
"""
    screen = render(load_text(text).new_state(1).view(0), 0)
    assert "score 125" in screen and "125.0" not in screen
    assert "Ratio = 2.5" in screen and "Whole = 3\n" in screen


def test_an_unlabelled_zone_is_left_off_the_screen_while_it_is_empty():
    """Two newcomers (Koi-Koi, Cribbage) wanted a zone cards only pass through kept off the screen:
    unlabelled, it shows only while it holds cards; a labelled zone always shows."""
    game = load_text("""ruleset transit
players 2
cards standard() in deck
zone deck: pile hidden "Deck | 山札"
zone cut: pile public
zone turned: pile public
zone table: pile public "Table | 場"
setup { move top(deck) to turned }
phase play { choose current { ok { } } }
""")
    screen = render(game.new_state(0).view(0))
    assert "cut" not in screen and "turned" in screen and "Table" in screen


def test_a_transient_zone_keeps_its_label_for_events_and_leaves_the_screen_while_empty():
    """Cuttle newcomer P6: a labelled zone cards only pass through showed `—` on every screen; a
    `transient` one is called by its label in events and shows only while it holds cards."""
    game = load_text("""ruleset transit_label
players 2
cards standard() in deck
zone deck: pile hidden "Deck | 山札"
zone seven: pile public transient "Revealed by a 7 | 7で公開"
zone hands: hand per player owner transient "Held | 手"
zone table: pile public "Table | 場"
setup { move top(deck) to seven }
phase play {
    choose players[0] { ok { move top(seven) to table } }
    choose players[0] { ok { } }
}
""")
    st = game.new_state(0)
    screen = render(st.view(0))
    assert "Revealed by a 7" in screen and "Held" not in screen and "Table" in screen
    assert st.view(0)["transient_zones"] == ["seven", "hands"]
    st.apply(0, "ok")
    screen = render(st.view(0))
    assert "Revealed by a 7" not in screen and "Table" in screen
    assert any("Revealed by a 7 → Table" in e["text"] for e in st.view(0)["log"])


def test_an_action_naming_a_zone_of_a_row_keeps_the_place_it_was_chosen_at():
    """Gin Rummy newcomer: an action naming a sequence's zone was rendered from the state of the
    moment — `rows[gone]` once the zone closed up, or another zone's name once one before it did
    (P0 chose rows[1], the log then read `mark rows[0]`). The act keeps the places chosen, also
    through a saved state."""
    from interpreter.engine.state import State

    g = game_from("""
ruleset shifted_zone
players 2
cards standard(ranks = [1, 2]) in deck
zone deck: pile hidden
zone rows: sequence public "Rows"
zone gone: pile public "Gone"
setup {
    for c in deck {
        insert rows back as r
        move c to r
    }
}
phase play {
    choose players[0] {
        mark z in rows "mark the row {z}" { log "marked {cards(z)}" }
    }
    choose players[0] {
        both zs in [[rows[1], rows[2]]] "mark two rows" { }
    }
    move rows[0] to gone
    move rows[1] to gone
    choose players[1] { done d in [1] { } }
}
""")
    st = g.new_state(1)
    st.apply(0, "mark rows[1]")
    st.apply(0, "both rows[1] rows[2]")
    logs = [e["text"] for e in st.view(None)["log"]]
    assert "P0: mark rows[1]" in logs and "P0: both rows[1] rows[2]" in logs, logs
    again = State.from_json(st.to_json(), g)
    assert [e["text"] for e in again.view(None)["log"]] == logs
    st = g.new_state(1)             # a playout takes the decisions inline: the same events
    g.playout(st, iter([1 / 8 + 0.01] + [0.0] * 9).__next__)
    assert [e["text"] for e in st.view(None)["log"] if e["kind"] == "act"] == \
        ["P0: mark rows[1]", "P0: both rows[1] rows[2]", "P1: done 1"]


def test_three_or_more_cards_alike_in_a_row_are_counted():
    """Dominion newcomer: a supply pile of 46 Coppers printed "Copper" 46 times, on the screen and
    in the replay's move lines. A pile of one card alike all through has no top to point at."""
    from interpreter.runner.render import cards, zone_body

    labels = {f"Copper{i}": "Copper" for i in range(5)} | {"Gold1": "Gold"}
    assert cards(["Copper0", "Copper1", "Gold1", "Copper2"], labels) == "Copper Copper Gold Copper"
    assert cards([f"Copper{i}" for i in range(5)] + ["Gold1", None, None, None], labels) == "Copper ×5 Gold ▒ ×3"
    pile = {"size": 5, "cards": [f"Copper{i}" for i in range(5)], "pile": True}
    assert zone_body(pile, labels) == "Copper ×5"
    assert zone_body({**pile, "cards": [*pile["cards"][:4], "Gold1"]}, labels) == "Copper ×4 Gold  ◀ top"


def test_logs_for_readers_show_the_labels_actions_were_chosen_by():
    """Schnapsen newcomer P5: the log said `P1: go_out` where the menu said "claim 66", also in a
    Japanese log. The full log (`fuda replay`) and a player's own actions show the label, in the
    reader's language; others' actions, the events, scenarios and JSON keep the id (a label is
    checked only against what its chooser may see)."""
    import random

    from interpreter.api import load
    from interpreter.runner.replay import format_events, option_labels

    from .conftest import ROOT

    game = load(str(ROOT / "tests" / "constructs" / "hands.fuda"))
    st = game.new_state(2)
    rng = random.Random(1)
    while not st.over:
        p = st.to_move()[0]
        game.apply(st, p, rng.choice(game.legal_actions(st, p)))
    said = option_labels(st)
    assert said and all(x.startswith("lay ") for x in said.values())
    full = format_events(st, "all", said=said)
    assert "act  P0: lay " in full and "act  P1: lay " in full and ": play " not in full
    ja = format_events(st, "all", 1, said=said)
    assert "を出す" in ja and ": lay " not in ja
    mine = format_events(st, 1, said=said)
    assert "P1: lay " in mine and "P0: play " in mine and "P0: lay " not in mine
    assert ": lay " not in format_events(st, "all")                  # no labels given: the ids
    log = [e["text"] for e in st.view(0, said=said)["log"]]
    assert any(t.startswith("P0: lay ") for t in log) and not any(t.startswith("P1: lay ") for t in log)
    assert not any(": lay " in e["text"] for e in st.view(0)["log"])     # the JSON API's view


def test_a_menu_label_that_names_the_id_s_values_is_shown_alone():
    """Schnapsen newcomer P5: `1. play ♥A (lead ♥A)` said it twice. A label naming every value of
    the id, unique among the choices, is shown alone (and typed as it reads); one that does not,
    or that two choices share, follows the id."""
    menu = render_choices({"legal": [
        {"id": "play ♥A", "label": "lead ♥A | ♥A をリード"},
        {"id": "marry ♠K", "label": "lead ♠K, showing the marriage (20) | ♠K をリード"},
        {"id": "go_out", "label": "claim 66 | 66を宣言"},
        {"id": "bid 3", "label": "raise | 上げる"},
        {"id": "take ♦2", "label": "pick ♦2 or ♦3 | 取る"},
        {"id": "take ♦3", "label": "pick ♦2 or ♦3 | 取る"},
    ]}, 0, columns=200)
    lines = [x.strip() for x in menu.splitlines()]
    assert lines[:4] == ["1. lead ♥A", "2. lead ♠K, showing the marriage (20)", "3. go_out (claim 66)", "4. bid 3 (raise)"]
    assert lines[4:] == ["5. take ♦2 (pick ♦2 or ♦3)", "6. take ♦3 (pick ♦2 or ♦3)"]
    assert render_choices({"legal": [{"id": "play ♥A", "label": "lead ♥A | ♥A をリード"}]}, 1).strip() == "1. ♥A をリード"
    # the Japanese half names the values its own way (銀 for silver): judged on the English half (Jaipur newcomer)
    ja = render_choices({"legal": [{"id": "sell silver 1", "label": "sell 1 Silver | 銀 を 1 枚売る"},
                                   {"id": "sell silver 2", "label": "sell 2 Silver | 銀 を 2 枚売る"}]}, 1, columns=200)
    assert [x.strip() for x in ja.splitlines()] == ["1. 銀 を 1 枚売る", "2. 銀 を 2 枚売る"]


def test_a_menu_label_that_names_an_enum_member_by_its_label_is_shown_alone():
    """fix22 (Bohnanza): `ask blackeye (ask for a Black-eyed bean)` beside `ask for a Chili bean`:
    a member whose label does not hold its name was shown with its id. The label naming the member
    by its label is shown alone, in either language; the member's name and the menu number are
    still what is typed, and the label too."""
    import io

    from interpreter.runner.play import play

    game = load_text("""ruleset en
players 2
enum Bean { blackeye "Black-eyed bean | ささげ", soy "Soy bean | 大豆" }
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    repeat 3 { choose players[0] {
        ask b in Bean "ask for a {b} | {b} を求める" { log "got {b}" }
        wish b in Bean "wish | 願う" { }
    } }
    end game
}
""")
    st = game.new_state(1)
    menu = [x.strip() for x in render_choices(st.view(0)["decision"], 0, columns=200).splitlines()]
    assert menu[:2] == ["1. ask for a Black-eyed bean", "2. ask for a Soy bean"], menu
    assert menu[2:] == ["3. wish blackeye (wish)", "4. wish soy (wish)"]     # a label naming no value: the id first
    ja = [x.strip() for x in render_choices(st.view(0, lang=1)["decision"], 1, columns=200).splitlines()]
    assert ja[:2] == ["1. ささげ を求める", "2. 大豆 を求める"], ja
    answers = iter(["ask blackeye", "2", "ask for a Black-eyed bean"])
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: next(answers), out=out)
    last = out.getvalue().rsplit("recent:", 1)[1]
    assert [x.strip("· ") for x in last.splitlines() if x.startswith("  · got")] == \
        ["got Black-eyed bean", "got Soy bean", "got Black-eyed bean"], last


def test_an_option_without_values_labelled_by_its_id_in_english_shows_its_japanese_label_alone():
    """fix29 5 (Bohnanza): `withdraw "withdraw | 取り下げる"` read `withdraw (取り下げる)` in Japanese, the
    id first, though the label only says the id in Japanese. A label saying more than the id in English
    (`go_out "claim 66"`) still follows it, and so does one two choices share; typing the label or the
    id takes it."""
    legal = [{"id": "withdraw", "label": "withdraw | 取り下げる"}, {"id": "go_out", "label": "claim 66 | 66 を宣言"},
             {"id": "keep", "label": "keep | 残す"}, {"id": "hold", "label": "hold | 残す"}]
    ja = [x.strip() for x in render_choices({"legal": legal}, 1, columns=200).splitlines()]
    assert ja == ["1. 取り下げる", "2. go_out (66 を宣言)", "3. keep (残す)", "4. hold (残す)"], ja
    en = [x.strip() for x in render_choices({"legal": legal}, 0, columns=200).splitlines()]
    assert en == ["1. withdraw", "2. go_out (claim 66)", "3. keep", "4. hold"], en
    game = load_text("ruleset w\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nsetup { }\n"
                     'phase play {\n repeat 2 { choose players[0] { withdraw "withdraw | 取り下げる" { log "out" }\n'
                     '  stay "stay | 留まる" { } } }\n end game\n}\n')
    st = game.new_state(1)
    assert game.find_action(st, 0, "取り下げる")[0] == game.find_action(st, 0, "withdraw")[0]


def test_a_menu_label_that_names_a_labelled_card_by_its_label_is_shown_alone():
    """newcomer44 P5 (Wizard): `play blue6 (play Blue 6)` on every line. A label naming the card by
    its label names it as well as its name would; one that leaves a value out still follows the id,
    and so does one two choices share."""
    from interpreter.api import load_text

    game = load_text("""ruleset lbl
players 2
cards {
    attr n: int
    card "blue6" "Blue 6 | 青6" n = 6
    card "red2" "Red 2 | 赤2" n = 2
    card "red3" "Red 3 | 赤3" n = 3
}
zone deck: pile hidden
zone hand: hand per player owner "Hand"
setup { move [card("red3"), card("blue6")] to hand[players[0]] }
phase play { choose players[0] {
    play c in hand[players[0]] "play {c} | {c} を出す" { end game }
    give c in hand[players[0]], k in 1..2 "give {c} to the {k} | {c} を渡す" { end game }
    bet c in hand[players[0]], k in 1..2 "bet {k} | {k} 賭ける" { end game }
} }
""")
    st = game.new_state(1)
    legal = st.view(0)["decision"]["legal"]
    assert {a["id"]: a.get("read") for a in legal}["play blue6"] == "play Blue 6"
    menu = [x.strip().split(". ", 1)[1] for x in render_choices(st.view(0)["decision"], 0, columns=200).splitlines()]
    assert {"play Blue 6", "play Red 3", "give Red 3 to the 2", "bet blue6 1 (bet 1)"} <= set(menu), menu
    assert not any("red2" in x or "Red 2" in x for x in menu)      # the card left out: the id first (bet)
    assert game.find_action(st, 0, "give Red 3 to the 2") == next(a.raw for a in game.legal_actions(st, 0)
                                                                  if a.id == "give red3 2")     # typed as it reads
    ja = render_choices(st.view(0, lang=1)["decision"], 1, columns=200)
    assert "赤3 を出す" in ja and "red3" not in ja.split("賭ける")[0].split("\n")[1]


def test_the_last_screen_of_a_game_shows_the_human_s_actions_by_their_labels():
    """QA13 B5: the closing screen of `fuda play` showed the human's own actions by their ids
    ("P0: lay ♣9") where every earlier screen had shown the labels ("P0: lay down ♣9")."""
    import io

    from interpreter.api import load_text
    from interpreter.runner.play import play

    game = load_text("""ruleset lbl
players 2
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner "Hand"
zone table: pile public "Table"
setup { deal 1 from deck to hand }
phase play {
    for p in players { turn p { choose p { lay c in hand[p] "lay down {c}" { move c to table } } } }
    end game
}
""")
    out = io.StringIO()
    play(game, ["human", "random"], seed=1, inp=lambda _prompt: "1", out=out)
    last = out.getvalue().split("== ")[-1]
    assert "P0: lay down " in last and "P0: lay ♣" not in last.replace("lay down", "")


LAYOUT = """
ruleset places
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone row: pile per player hidden "Row"
zone lone: pile per player hidden "Lone"
zone layout: sequence per player hidden "Layout"
zone pile: pile public "Pile"
setup {
    deal 3 from deck to row
    deal 3 from deck to lone
    move top(deck, 2) to pile
    for p in players {
        insert row[p] into layout[p] back
        reveal row[p][0] to p
        reveal row[p][2]
        reveal lone[p][0] to p
        reveal lone[p][2]
    }
}
phase play { choose players[0] { wait { } } }
"""


def test_a_face_down_card_shown_to_you_alone_is_marked_and_a_row_of_places_has_no_top():
    """newcomer45 P5: a card peeked at (face down, shown to you alone) printed as a face-up one does;
    it reads "(♣7)", by the view's `peeked` positions (your own hand, whose cards you see by the zone,
    is not marked). P10: a zone drawn as a row of a sequence is a line of places: no "◀ top"."""
    st = game_from(LAYOUT).new_state(0)
    v = st.view(0)
    names = {z: v["zones"][z]["cards"] for z in ("row[P0]", "lone[P0]")}
    assert v["zones"]["row[P0]"]["peeked"] == [0] and v["zones"]["lone[P0]"]["peeked"] == [0]
    assert "peeked" not in v["zones"]["row[P1]"] and "peeked" not in v["zones"]["pile"]
    assert "peeked" not in st.view(None)["zones"]["row[P0]"]
    screen = render(v)
    row = next(ln for ln in screen.splitlines() if "Row[P0]:" in ln)
    assert row.endswith(f"Row[P0]: ({names['row[P0]'][0]}) ▒ {names['row[P0]'][2]}  (3)")       # no top
    lone = next(ln for ln in screen.splitlines() if ln.lstrip().startswith("Lone[P0]"))
    assert lone.endswith(f"({names['lone[P0]'][0]}) ▒ {names['lone[P0]'][2]}  ◀ top  (3)")    # a pile: its top
    other = next(ln for ln in render(st.view(1)).splitlines() if "Row[P0]:" in ln)
    assert other.endswith(f"Row[P0]: ▒ ▒ {names['row[P0]'][2]}  (3)")


def test_two_rows_in_sight_of_a_four_player_game_do_not_face_each_other():
    """newcomer47 P2: a partnership's melds in the first seat's row, the other two rows hidden while
    empty (`if false`): the two rows on screen were drawn as a two-player game's, facing."""
    rules = """
ruleset four_rows
players 4
cards standard(jokers = 0) in box
zone box: pile hidden
zone melds: sequence per player public "Melds" if false
setup {
    for p in [players[0], players[1]] {
        insert melds[p] back as z
        move top(box, 3) to z
    }
}
phase play {
    choose players[0] { wait { } }
}
"""
    text = render(game_from(rules).new_state(0).view(0))
    assert "facing" not in text and "above" not in text, text
    assert "Melds[P0]: front first" in text and "Melds[P1]: front first" in text, text
    assert "Melds[P2]" not in text, text


def test_a_grid_square_holding_several_cards_says_how_many():
    """newcomer47 P3: a square showed its top card only, and nothing told that cards lay under it."""
    rules = """
ruleset squares
players 2
cards standard(jokers = 0) in box
zone box: pile hidden
zone board: grid(3, 1) public "Board"
setup {
    move top(box, 4) to board[1, 0] face up
    move top(box) to board[2, 0] face up
}
phase play {
    choose players[0] { wait { } }
}
"""
    st = game_from(rules).new_state(0)
    v = st.view(0)
    row = next(ln for ln in render(v).splitlines() if ln.startswith("   0 "))
    top, single = v["zones"]["board[1,0]"]["cards"][-1], v["zones"]["board[2,0]"]["cards"][0]
    assert f"{v['labels'].get(top, top)}(4)" in row and f"{v['labels'].get(single, single)}(" not in row, row


def test_a_face_down_card_shown_to_every_player_is_marked_for_each_until_it_is_turned_up():
    """qa17 Q24: the brackets mark a card the viewer sees that lies face down — shown to them alone
    or to every player alike (`reveal top(deck) to players`) — not only one shown to them alone; a
    card turned face up (`reveal top(deck)`) is not marked."""
    rules = """
ruleset shown_all
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden "Deck"
setup { reveal top(deck) to players }
phase play { choose players[0] { wait { } } }
"""
    g = game_from(rules)
    st = g.new_state(0)
    top = st.view(0)["zones"]["deck"]["cards"][-1]
    for p in (0, 1):
        assert st.view(p)["zones"]["deck"]["peeked"] == [51]
        assert f"({top})  ◀ top" in render(st.view(p))
    up = game_from(rules.replace("reveal top(deck) to players", "reveal top(deck)")).new_state(0)
    assert "peeked" not in up.view(0)["zones"]["deck"]
