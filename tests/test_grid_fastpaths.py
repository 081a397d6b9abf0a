"""Grid built-ins on their fast paths: `card_at` inlined for a square held in a name (also when that
name holds none), `neighbors` from a table per board size (a square off the board or none still
answered), `square_of` from a table of cells, comprehensions built as lists."""

from __future__ import annotations

from .conftest import game_from

RULES = """
ruleset grid_fast
players 2
cards standard() in deck
zone deck: pile hidden
zone board: grid(3, 2) public
zone wide: grid(5, 5) public
var found: list of card = []
var missing: list of card = []
var around: list of int = []
var evens: list of int = []
var edges: list of int = []
var places: list of square = []
setup {
    move card("♠A") to board[0, 0]
    move card("♠2") to board[2, 1]
    move card("♠3") to wide[2, 1]
}
phase play {
    let nowhere: square = none
    missing = [card_at(board, s) for s in [nowhere, square(0, 0), square(1, 0)]]
    found = [card_at(board, s) for s in squares(board) where card_at(board, s) != none]
    around = [size(neighbors(board, square(1, 1), king)), size(neighbors(wide, square(1, 1), king)),
              size(neighbors(board, square(1, 1), king))]
    evens = [n * 2 for n in 1..4 where n != 3]
    edges = [size(neighbors(board, square(-1, 0), orthogonal)), size(neighbors(board, nowhere, king)),
             size(neighbors(board, square(2, 1), diagonal))]
    let c = card("♠3")
    places = [square_of(c), square_of(card("♠2")), square_of(top(deck))]
}
"""


def test_grid_fast_paths():
    st = game_from(RULES).new_state(0)
    names = st.game.card_names
    g = {v.name: v.slot for v in st.game.prog.vars}
    assert [None if c is None else names[c] for c in st.g[g["missing"]]] == [None, "♠A", None]
    assert [names[c] for c in st.g[g["found"]]] == ["♠A", "♠2"]
    # the same square on boards of two sizes: 5 neighbours on the 3×2 board, 8 on the 5×5 one
    assert list(st.g[g["around"]]) == [5, 8, 5]
    assert list(st.g[g["evens"]]) == [2, 4, 8]
    # off the board: (-1, 0) still has (0, 0) beside it; none has no neighbours; a corner one diagonal
    assert list(st.g[g["edges"]]) == [1, 0, 1]
    assert list(st.g[g["places"]]) == [(2, 1), (2, 1), None]
