"""next(p) is compiled inline; the inline form must be valid Python wherever an expression may stand,
also inside the iterable of a comprehension, a quantifier or `best` (where `:=` is not allowed)."""

from __future__ import annotations

from interpreter.api import load_text

RULESET = """
ruleset next_inline
players 4
cards standard() in deck
zone deck: pile hidden
var first: player = none
var any_first: player = none
var around: list of player = []
setup {
    let d = players[1]
    around = [q for q in seats_from(next(d))]
    first = best q in seats_from(next(d)) where q != players[3] by 0
    any_first = best q in seats_from(next(next(d))) by 0
    if any q in seats_from(next(d)) where q == d {
        log "{around} {first} {next(d)}"
    }
}
phase play { }
"""


def test_next_inside_comprehension_iterables():
    game = load_text(RULESET)
    st = game.new_state(1)
    g = {v.name: st.g[v.slot] for v in game.prog.vars}
    assert g["around"] == (2, 3, 0, 1)
    assert g["first"] == 2
    assert g["any_first"] == 3          # `by` a constant: the first element
    assert any(e[0] == 13 and game.message(st, e[2]) == "P2 P3 P0 P1 P2 P2" for e in st.ev)
