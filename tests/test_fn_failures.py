"""Run-time failures inside functions: where the caret goes and what the hint says (newcomer19's
Cribbage: a failure in a `fn` pointed at the rule line that called it), and a function typed int
that comes out none (said at its return, not where the value is used far away)."""

from __future__ import annotations

import random
import textwrap

import pytest

from interpreter.api import load_text
from interpreter.errors import RuleRuntimeError

FNS = textwrap.dedent("""\
    ruleset fn_failures
    players 2
    cards standard() in deck
    zone deck: pile hidden
    zone crib: pile hidden
    zone table: pile public
    fn suit_of_first(cs: list of card) -> Suit = cs[0].suit
    fn points(cs: list of card) -> int = if suit_of_first(cs) == ♠ then 1 else 0
    fn stepped(cs: list of card) -> int {
        let s = suit_of_first(cs)
        if s == ♠ then size(cs) else 0
    }
    fn longest() -> int = best k in 3..size(table) where k > 100 by k
    fn plain() -> int = size(table) + 1
    option which: int = 0
    setup { }
    phase play {
        choose players[0] { go { } }
        if which == 0 { let n = points(cards(crib)) }
        if which == 1 { log "{stepped(cards(crib))}" }
        if which == 2 { let r = longest()
                        let s = r + 1 }
        if which == 3 { let r = plain() }
        end game
    }
""")


def failure(which: int, quiet: bool = False) -> tuple[str, str, str]:
    """(message, the source the caret is under, hint) of the failure of variant ``which``."""
    g = load_text(FNS, options={"which": which})
    st = g.new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        if quiet:
            g.playout(st, random.Random(1).random, quiet=True)
        else:
            st.apply(0, "go")
    d = e.value.diagnostics[0]
    line = FNS.splitlines()[d.span.line - 1]
    assert d.span.end_line == d.span.line
    return d.message, line[d.span.col - 1:d.span.end_col - 1], d.hint or ""


@pytest.mark.parametrize("quiet", [False, True])
def test_a_failure_in_an_inlined_function_points_at_its_expression_with_the_calls(quiet):
    msg, under, hint = failure(0, quiet)
    assert msg == "a position past the end: position 0 of crib, which holds 0 cards" and under == "cs[0]"
    assert hint.startswith("in suit_of_first, called from points at ") and ":8:41, called at " in hint
    assert hint.endswith(":19:29")       # the rule's line: `points(cards(crib))`


def test_a_failure_in_a_function_with_steps_points_into_the_function_it_calls():
    msg, under, hint = failure(1)
    assert under == "cs[0]" and hint.startswith("in suit_of_first, called from stepped at ")
    assert ":10:13, called at " in hint and hint.endswith(":20:27")


def test_a_function_typed_int_that_comes_out_none_fails_at_its_return():
    msg, under, hint = failure(2)
    assert msg == "longest returned none, but it returns int"
    assert under == "best k in 3..size(table) where k > 100 by k" and hint.endswith(":21:29")


def test_the_none_check_costs_only_the_functions_that_may_give_none():
    src = load_text(FNS).comp.source
    assert src.count("_r is None") == 1 and "F_longest(st)" in src     # not inlined, checked
    assert "F_plain(st)" not in src.split("def P", 1)[1]                 # still inlined, unchecked


def test_a_none_return_inside_another_function_names_both():
    """QA: the hint named the caller (`in wrap`) and left out where it called the function that failed."""
    g = load_text(textwrap.dedent("""\
        ruleset chain
        players 2
        cards standard() in deck
        zone deck: pile hidden
        zone table: pile public
        fn longest() -> int = best k in 3..size(table) where k > 100 by k
        fn wrap() -> int = longest() + 1
        setup { log "{wrap()}" }
        phase play { end game }
    """))
    with pytest.raises(RuleRuntimeError) as e:
        g.new_state(0)
    d = e.value.diagnostics[0]
    assert d.message == "longest returned none, but it returns int"
    assert d.hint and d.hint.startswith("in longest, called from wrap at ") and ":7:20, called at " in d.hint


def test_a_simulated_failure_keeps_the_calls_beside_the_seed_to_replay(tmp_path):
    """QA: `fuda simulate` replaced the hint naming the calls by the one naming the seed."""
    from interpreter.runner.simulate import play_one

    f = tmp_path / "chain.fuda"
    f.write_text(textwrap.dedent("""\
        ruleset chain
        players 2
        cards standard() in deck
        zone deck: pile hidden
        zone crib: pile hidden
        fn first_suit(cs: list of card) -> Suit = cs[0].suit
        setup { }
        phase play {
            choose players[0] { go { } }
            let s = first_suit(cards(crib))
            end game
        }
    """), encoding="utf-8")
    with pytest.raises(RuleRuntimeError) as e:
        play_one(str(f), {}, 3, ["random", "random"])
    hint = e.value.diagnostics[0].hint or ""
    assert hint.startswith("in first_suit, called at ") and "in the game with seed 3: fuda replay" in hint


def test_a_function_named_with_a_unicode_digit_compiles():
    """qa14 F1's pattern elsewhere: `fn f²` validated, then the compiled module's `F_f²` was a Python
    SyntaxError (an internal error): ² passed str.isdigit as a digit of an identifier."""
    g = load_text("ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
                  "var x : int = 0\nfn f²(c: int) -> int = c + 1\nfn g١(c: int) -> int = c + 2\n"
                  "setup { x = f²(x) + g١(1) }\nphase play { end game }\n")
    st = g.new_state(0)
    assert st.view(None)["vars"]["x"] == 4


@pytest.mark.parametrize("quiet", [False, True])
@pytest.mark.parametrize(("part", "said"), [
    ("let c = second(players[0], 4)", "past the end: position 4 of row[P0], which holds 3 cards"),
    ("move row[players[1]][n] to deck", "past the end: position 5 of row[P1], which holds 3 cards"),
    ("let c = cards(row[players[0]])[0 - n]",
     "before the start: position -5 (counted from the end) of row[P0], which holds 3 cards"),
    ("let xs = [1, 2, 3]\n    let x = xs[n] + 1", "past the end: position 5 of a list of 3"),
    ("let c = row[players[0]][size(row[players[0]])]", "past the end: position 3 of row[P0], which holds 3 cards"),
    ("let c = second(players[0], size(deck))", "past the end: position 46 of row[P0], which holds 3 cards"),
    ("let c = cards(row[players[0]])[max(size(deck), n)]", "past the end: position 46 of row[P0], which holds 3 cards"),
    ("let c = row[players[0]][random([5, 6])]", "past the end of a list or a zone"),     # not drawn again
])
def test_a_position_past_the_end_is_said_with_the_position_and_the_size(part, said, quiet):
    """newcomer45 P7: E601 "a position past the end of a list or a zone" named neither; the zone
    too, where the list is one. qa17 Q18: also with a pure built-in in the subscript (`size(…)`,
    in a fn or not); a negative position is before the start."""
    src = ("ruleset ix\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nzone row: pile per player hidden\n"
           "var n: int = 5\nfn second(p: player, i: int) -> card = row[p][i]\n"
           "setup { deal 3 from deck to row }\nphase play {\n    choose players[0] { go { } }\n    " + part
           + "\n    end game\n}\n")
    g = load_text(src)
    st = g.new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        if quiet:
            g.playout(st, random.Random(1).random, quiet=True)
        else:
            st.apply(0, "go")
    assert e.value.diagnostics[0].message == "a position " + said


ARGS = textwrap.dedent("""\
    ruleset arg_failures
    players 2
    cards standard() in deck
    zone deck: pile hidden
    zone table: pile public
    fn rk(c: card) -> int = c.rank
    fn stepped_rk(c: card) -> int {
        let r = c.rank
        r + 0
    }
    fn first_rank(cs: list of card) -> int = rk(cs[5])
    option which: int = 0
    setup { move top(deck) to table }
    phase play {
        choose players[0] { go { } }
        if which == 0 { let n = rk(cards(table)[5]) }
        if which == 1 { let n = stepped_rk(cards(table)[5]) }
        if which == 2 { let n = first_rank(cards(table)) }
        end game
    }
""")


@pytest.mark.parametrize("which, under, hint", [
    (0, "let n = rk(cards(table)[5])", ""),
    (1, "let n = stepped_rk(cards(table)[5])", ""),
    (2, "cs[5]", "in first_rank, called at <ruleset>.fuda:18:29")])
@pytest.mark.parametrize("quiet", [False, True])
def test_a_failing_argument_is_the_caller_s_failure_not_the_function_s(which, under, hint, quiet):
    """fix29 2: `rk(cards(table)[5])` put the caret on rk's `c.rank` with "in rk, called at …", though
    what failed is the argument (a position past the end), the caller's own code — inlined or not,
    from a rule or from another function."""
    g = load_text(ARGS, options={"which": which})
    st = g.new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        if quiet:
            g.playout(st, random.Random(1).random, quiet=True)
        else:
            st.apply(0, "go")
    d = e.value.diagnostics[0]
    assert d.message == "a position past the end: position 5 of table, which holds 1 card"
    assert ARGS.splitlines()[d.span.line - 1][d.span.col - 1:d.span.end_col - 1].strip() == under
    assert (d.hint or "") == hint
