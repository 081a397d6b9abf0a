"""ジョン in the terminal: `fuda play` draws the 4×4 board with each card's owner, name and the
sideways mark of the 横カード (the ruleset's `show`), and a player's own 変えカード by name only."""

from __future__ import annotations

from interpreter.api import load
from interpreter.runner.render import render


def test_board_rows_show_owner_rank_and_sideways_mark():
    st = load("john").new_state(5)
    text = render(st.view(0))
    lines = text.splitlines()
    board = lines.index("  盤:")
    header, rows = lines[board + 1], lines[board + 2: board + 6]
    assert header.split() == ["0", "1", "2", "3"]
    # P1 (black) at the top: J · K Q from P1's left, rotated; the leftover card in front of the K
    assert rows[0].split() == ["0", "P1:♠J", "·", "P1:♠K(king)", "P1:♠Q"]
    assert rows[1].split() == ["1", "·", "·", "P1:♣5", "·"]
    # P0 (red) at the bottom: Q K · J from P0's left
    assert rows[2].split() == ["2", "·", "P0:♦A", "·", "·"]
    assert rows[3].split() == ["3", "P0:♥Q", "P0:♥K(king)", "·", "P0:♥J"]
    # the owner sees their 変えカード (plain names), the opponent's only as a count
    reserve = next(ln for ln in lines if ln.strip().startswith("変えカード[P0]"))
    assert "♥7" in reserve and "P0:" not in reserve
    assert next(ln for ln in lines if ln.strip().startswith("変えカード[P1]")).split()[-2:] == ["11", "cards"]
