"""`var … if FLAG`: a variable that means nothing yet (a bid not made, the highest bid outside the
auction) is left off every view while a public bool variable is false — entry by entry when the
flag is per player — so an int need not show 0 as if 0 had been bid (tests/constructs/var_shown_if.fuda)."""

from __future__ import annotations

import pytest

from interpreter.api import check_ruleset, load, load_text
from interpreter.errors import FudaError

from .test_constructs import CONSTRUCTS

SRC = (CONSTRUCTS / "var_shown_if.fuda").read_text(encoding="utf-8")


def test_shown_while_the_flag_is_true_entry_by_entry():
    st = load(str(CONSTRUCTS / "var_shown_if.fuda")).new_state(1)
    v = st.view(0)["vars"]
    assert "bid" not in v and v["high"] == 0 and "resting" not in v     # not bid yet, bidding
    st.apply(0, "say 0")
    v0, v1 = st.view(0)["vars"], st.view(1)["vars"]
    assert v0["bid"] == {"P0": 0}               # bid 0: shown to its owner now that it is made
    assert "bid" not in v1                      # owner-only still: P1 sees nothing of it
    st.apply(1, "say 2")
    assert st.view(1)["vars"]["bid"] == {"P1": 2} and st.view(1)["vars"]["high"] == 2
    st.apply(2, "say 1")
    v = st.view(None)["vars"]
    assert v["bid"] == {"P0": 0, "P1": 2, "P2": 1}      # revealed, all made
    assert "high" not in v and v["resting"] == 2      # the auction over: the rest shows, not the high bid


def test_the_flag_must_be_a_public_bool_variable(tmp_path):
    def first(text: str) -> str:
        f = tmp_path / "v.fuda"
        f.write_text(text, encoding="utf-8")
        with pytest.raises(FudaError) as info:
            check_ruleset(str(f))
        return info.value.first.code + ": " + info.value.first.message

    assert "has_bid is owner: whether bid is shown would tell it" in first(
        SRC.replace("var has_bid: bool per player = false", "var has_bid: bool per player = false owner"))
    assert "has_bid is per player, high is not" in first(SRC.replace('"Highest bid" if bidding',
                                                                      '"Highest bid" if has_bid'))
    assert "names a bool variable; high is not one" in first(SRC.replace('"Rest" if not bidding',
                                                                         '"Rest" if not high'))
    # a fixed condition is still the options' `var … if` (tests/test_zone_if.py)
    assert load_text(SRC.replace("if not bidding", "if size(players) > 3"), filename="v.fuda").new_state(0) \
        .view(None)["vars"].get("resting") is None
