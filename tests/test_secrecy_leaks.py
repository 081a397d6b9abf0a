"""The hidden-information warnings (W102, W104) against ways around them found by a QA pass (qa17):
each case leaked a hand or a secret value and went unwarned."""

from __future__ import annotations

from pathlib import Path

from interpreter.api import check_ruleset

_BASE = """ruleset b "b"
players 2
cards standard() in deck
zone deck: pile hidden "Deck"
zone hand: pile per player owner "Hand"
zone table: pile public "Table"
enum Col { red "Red | 赤", blue }
var hint: int = 0 "Hint"
var sec: int per player = 0 owner "Sec"
var sc: Col per player = blue owner "Col"
rule setv(x: int) { hint = x }
rule lg(x: int) { log "{x}" }
rule setc(c: card) { hint = c.rank }
setup {
    shuffle deck
    deal 3 from deck to hand
}
phase play {
    let p = players[0]
    let q = players[1]
    BODY
    end game ranking x in players by score[x]
}
"""


def _warnings(tmp_path: Path, body: str) -> list[str]:
    """The warnings (but unused declarations) of the small game with ``body`` as its phase's body."""
    f = tmp_path / "w.fuda"
    f.write_text(_BASE.replace("BODY", body.replace("\n", "\n    ")), encoding="utf-8")
    return [w.code for w in check_ruleset(str(f)).warnings if w.code != "W101"]


def test_an_option_label_showing_another_players_owner_variable_is_warned(tmp_path: Path) -> None:
    """Q2: `a "{sc[q]}"` in p's menu showed q's secret, as the prompt (warned) would."""
    assert _warnings(tmp_path, 'choose p "x" { a "{label(sc[q])}" { } b "b" { } }') == ["W104"]
    assert _warnings(tmp_path, 'choose p "x" { a "{sc[q]}" { } b "b" { } }') == ["W104"]
    assert _warnings(tmp_path, 'choose p "x" { a "{sc[p]}" { } b "b" { } }') == []       # p's own
    assert _warnings(tmp_path, 'reveal sc[q]\nchoose p "x" { a "{sc[q]}" { } b "b" { } }') == []
    assert _warnings(tmp_path, 'choose p "x" { t c in hand[q] "take {c}" { } }') == []   # its card: a place


def test_a_shuffle_undoes_a_reveal_by_place(tmp_path: Path) -> None:
    """Q3: `reveal top(deck)`, `shuffle deck`, then `{top(deck)}` named a card nobody was shown; a
    zone revealed whole stays face up through a shuffle (and a rule that shuffles counts too)."""
    assert _warnings(tmp_path, 'reveal top(deck)\nlog "{top(deck)}"') == []
    assert _warnings(tmp_path, 'reveal top(deck)\nshuffle deck\nlog "{top(deck)}"') == ["W104"]
    assert _warnings(tmp_path, "reveal hand[q][0]\nshuffle hand[q]\nhint = hand[q][0].rank") == ["W104"]
    assert _warnings(tmp_path, 'reveal hand[q]\nshuffle hand[q]\nlog "{top(hand[q])}"') == []
    assert _warnings(tmp_path, 'reveal top(deck)\nrepeat 2 { log "{top(deck)}"\nshuffle deck }') == ["W104"]


def test_a_rule_setting_a_public_variable_from_a_hidden_value_given_to_it_is_warned(tmp_path: Path) -> None:
    """Q4: `setc(top(hand[q]))` (`rule setc(c: card) { hint = c.rank }`) put q's card in every view;
    the same value logged through a rule was warned. A hidden variable given to such a rule too."""
    assert _warnings(tmp_path, "setc(top(hand[q]))") == ["W104"]
    assert _warnings(tmp_path, "setv(top(hand[q]).rank)") == ["W104"]
    assert _warnings(tmp_path, "setv(sec[q])") == ["W104"]
    assert _warnings(tmp_path, "lg(sec[q])") == ["W104"]
    assert _warnings(tmp_path, "setv(size(hand[q]))") == []
    assert _warnings(tmp_path, "setc(top(table))") == []
    assert _warnings(tmp_path, "reveal sec[q]\nsetv(sec[q])") == []
    assert _warnings(tmp_path, "reveal top(hand[q])\nsetc(top(hand[q]))") == []


def test_an_owner_entry_set_from_what_its_player_may_not_see_is_warned(tmp_path: Path) -> None:
    """Q7: `sec[p] = top(hand[q]).rank` showed q's card on p's screen; Q8: an entry revealed to all is
    public, also when set again. Set from the player's own cards or value, it tells them nothing new."""
    assert _warnings(tmp_path, "sec[p] = top(hand[q]).rank") == ["W104"]
    assert _warnings(tmp_path, "sec[p] = sec[q]") == ["W104"]
    assert _warnings(tmp_path, "if any d in hand[q] where d.rank == 13 { sec[p] = 1 }") == ["W104"]
    assert _warnings(tmp_path, "sec[p] = top(hand[p]).rank") == []
    assert _warnings(tmp_path, "if any d in hand[p] where d.rank == 13 { sec[p] = 1 }") == []
    assert _warnings(tmp_path, "sec[p] = sec[p] + size(hand[q])") == []
    assert _warnings(tmp_path, "reveal sec[q]\nsec[q] = top(hand[p]).rank") == ["W104"]
    assert _warnings(tmp_path, "reveal sec[q]\nif any d in hand[p] where d.rank == 13 { sec[q] = 1 }") == ["W104"]
    assert _warnings(tmp_path, "reveal sec[q]\nsec[q] = 3") == []


def test_a_reveal_that_shows_nothing_does_not_tell_the_table(tmp_path: Path) -> None:
    """Q9: `reveal hint` (public) or `reveal table` (a public zone) under an `if` on q's cards logs
    nothing, so it does not excuse `hint += 1` beside it; a reveal of hidden cards does."""
    cond = "if any d in hand[q] where d.rank == 13 "
    assert _warnings(tmp_path, cond + "{ reveal hint\nhint += 1 }") == ["W104"]
    assert _warnings(tmp_path, cond + "{ reveal table\nhint += 1 }") == ["W104"]
    assert _warnings(tmp_path, cond + "{ reveal table\nlog \"x\" }") == ["W104"]
    assert _warnings(tmp_path, cond + "{ reveal hand[q]\nhint += 1 }") == []
    assert _warnings(tmp_path, cond + "{ reveal sec[q]\nhint += 1 }") == []


def test_a_log_written_either_way_tells_nothing(tmp_path: Path) -> None:
    """Q14: `log "next"` in both branches of an `if` on q's cards was warned (it tells nothing) and,
    counting as the branch telling the table, let `hint += 1` beside it pass."""
    cond = "if any d in hand[q] where d.rank == 13 "
    assert _warnings(tmp_path, cond + '{ log "next"\nhint += 1 } else { log "next" }') == ["W104"]
    assert _warnings(tmp_path, cond + '{ log "next" } else { log "next" }') == []
    assert _warnings(tmp_path, cond + '{ log "king" } else { log "next" }') == ["W104"]
    assert _warnings(tmp_path, cond + '{ log "next" }') == ["W104"]


def test_a_reverse_shuffle_or_hide_under_an_if_on_hidden_cards_is_warned(tmp_path: Path) -> None:
    """Q10: the turn order, a shuffle and a hide are public: run only as q's cards are, they tell how
    the test went, as a public variable set there does."""
    cond = "if any d in hand[q] where d.rank == 13 "
    assert _warnings(tmp_path, cond + "{ reverse direction }") == ["W104"]
    assert _warnings(tmp_path, cond + "{ shuffle deck }") == ["W104"]
    assert _warnings(tmp_path, cond + "{ hide table }") == ["W104"]
    assert _warnings(tmp_path, "if size(hand[q]) > 2 { shuffle deck }") == []
