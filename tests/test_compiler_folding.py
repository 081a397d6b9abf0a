"""The compiler folds options and literals out of conditions and flattens chains of one operator;
neither may change what a condition means. Random boolean and arithmetic expressions over options,
literals and a local are compiled into one ruleset and compared with Python's own evaluation (a
newcomer's Spades found `true and (a == 1 or a == 2) and a == 5` compiled as `a == 1 or (…)`)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from interpreter.api import load_text

HEAD = """
ruleset folding
players 2
option on: bool = true
option off: bool = false
option two: int = 2
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    let a = 1
    let b = 3
"""

ATOMS = {"true": True, "false": False, "on": True, "off": False,
         "a == 1": True, "a == 2": False, "b > two": True, "b < two": False}
NUMS = {"a": 1, "b": 3, "two": 2, "1": 1, "0": 0}


def _bools(depth: int) -> st.SearchStrategy[tuple[str, bool]]:
    atom = st.sampled_from(sorted(ATOMS.items()))
    if depth == 0:
        return atom
    sub = _bools(depth - 1)
    return st.one_of(
        atom,
        st.tuples(sub, st.sampled_from(["and", "or"]), sub).map(lambda t: _b(f"{t[0][0]} {t[1]} {t[2][0]}")),
        sub.map(lambda x: (f"({x[0]})", x[1])),
        sub.map(lambda x: _b(f"not ({x[0]})")),
    )


def _b(code: str) -> tuple[str, bool]:
    """A condition and its value by Python's rules (fuda's precedence: not, and, or — as Python's)."""
    return code, bool(eval(code, {}, {"true": True, "false": False, "on": True, "off": False, **NUMS}))


def _nums(depth: int) -> st.SearchStrategy[tuple[str, int]]:
    atom = st.sampled_from(sorted(NUMS.items()))
    if depth == 0:
        return atom
    sub = _nums(depth - 1)
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}
    return st.one_of(
        atom,
        st.tuples(sub, st.sampled_from(sorted(ops)), sub).map(
            lambda t: (f"{t[0][0]} {t[1]} {t[2][0]}", _py(f"{t[0][0]} {t[1]} {t[2][0]}"))),
        sub.map(lambda x: (f"({x[0]})", x[1])),
    )


def _py(code: str) -> int:
    return int(eval(code, {}, dict(NUMS)))      # the same precedence as fuda's + - *


REGRESSIONS = [_b(c) for c in ("true and (a == 1 or a == 2) and a == 2", "on and (a == 2 or a == 1) and b < two",
                                "(a == 1 or a == 2) and true and a == 2", "off or (a == 1 and a == 2) or off")]


@settings(max_examples=40, deadline=None)
@given(st.lists(_bools(3), min_size=20, max_size=20), st.lists(_nums(3), min_size=10, max_size=10))
@example(REGRESSIONS * 5, [("a", 1)] * 10)
def test_folded_and_flattened_conditions_mean_what_they_say(conds, sums):
    body = "".join(f'    log "c{i}: {{{code}}}"\n' for i, (code, _) in enumerate(conds))
    body += "".join(f'    log "n{i}: {{{code}}}"\n' for i, (code, _) in enumerate(sums))
    game = load_text(HEAD + body + "}\n")
    logged = [e["text"] for e in game.new_state(1).view(None)["log"] if e["kind"] == "log"]
    want = [f"c{i}: {'true' if v else 'false'}" for i, (_, v) in enumerate(conds)]
    want += [f"n{i}: {v}" for i, (_, v) in enumerate(sums)]
    assert logged == want, [(c, w) for c, w, g in zip([c for c, _ in conds] + [c for c, _ in sums], want, logged,
                                                       strict=True) if w != g]


def test_index_of_a_fixed_list_is_a_table_lookup_with_the_same_answers():
    """Dominion newcomer: `[3, 5, 6][index_of(Kind, k)]` spent a third of the game in index_of; a
    list fixed at compile time (an enum, constants) is looked up in a table: first place, -1 if absent."""
    g = load_text("""
ruleset idx
players 2
enum Kind { copper, silver, gold }
cards standard() in deck
zone deck: pile hidden
var got: list of int = []
setup {
    got = [index_of(Kind, k) for k in [gold, copper, silver]]
        + [index_of([5, 7, 5, 9], n) for n in [5, 9, 4]] + [index_of(["a", "b"], "b")]
}
phase play { }
""")
    assert "_index_of(" not in g.comp.source and "IDX" in g.comp.source
    assert g.new_state(1).view(None)["vars"]["got"] == [2, 0, 1, 0, 3, -1, 1]
