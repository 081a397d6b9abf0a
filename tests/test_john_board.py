"""ジョン in the terminal: `fuda play` draws the 4×4 board with each card's owner, name and the
sideways mark of the 横カード (the ruleset's `show`), and a player's own 変えカード by name only; and the
documented move cap, which ends a game nobody can win as a draw."""

from __future__ import annotations

import random

from interpreter.api import load
from interpreter.runner.render import render


def test_board_rows_show_owner_rank_and_sideways_mark():
    st = load("john").new_state(5)
    text = render(st.view(0))
    lines = text.splitlines()
    board = lines.index("  Board:")                # the grid by its label
    header, rows = lines[board + 1], lines[board + 2: board + 6]
    assert header.split() == ["0", "1", "2", "3"]
    # P1 (black) at the top: J · K Q from P1's left, rotated; the leftover card in front of the K
    assert rows[0].split() == ["0", "P1:♠J", "·", "P1:♠K(king)", "P1:♠Q"]
    assert rows[1].split() == ["1", "·", "·", "P1:♣5", "·"]
    # P0 (red) at the bottom: Q K · J from P0's left
    assert rows[2].split() == ["2", "·", "P0:♦A", "·", "·"]
    assert rows[3].split() == ["3", "P0:♥Q", "P0:♥K(king)", "·", "P0:♥J"]
    # the owner sees their 変えカード (plain names), the opponent's only as a count
    reserve = next(ln for ln in lines if ln.strip().startswith("Reserve[P0]"))
    assert "♥7" in reserve and "P0:" not in reserve
    assert next(ln for ln in lines if ln.strip().startswith("Reserve[P1]")).split()[-2:] == ["11", "cards"]


def test_move_cap_ends_the_game_as_a_draw():
    """The documented cap (`limit 1000 decisions` in john.fuda): a game nobody can win ends as a draw.
    With the loop rule off and only moves, swaps and heals played, no card is ever defeated."""
    st = load("john", {"loop_rule": False}).new_state(7)
    rng = random.Random(1)
    decisions = 0
    while not st.is_over():
        p = st.to_move()[0]
        quiet = [a for a in st.legal_actions(p) if a.name in ("move", "swap", "heal")]
        assert quiet, "this seed should always leave a quiet action"
        st.apply(p, rng.choice(quiet))
        decisions += 1
    assert decisions == 1000
    assert [r["outcome"] for r in st.result()] == ["draw", "draw"]
