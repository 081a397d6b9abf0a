"""The ISMCTS bot and the determinizer it relies on."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load, load_text
from interpreter.bots.base import make_bot
from interpreter.bots.ismcts import ISMCTS, rewards, score_direction
from interpreter.engine import runtime as R
from interpreter.engine.determinize import determinize
from interpreter.engine.observe import card_visible, remembered, view
from interpreter.engine.state import State

from .conftest import game_from


def midgame(name: str, options: dict[str, object], seed: int, steps: int) -> State:
    game = load(name, options)
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.over:
            break
        p = st.to_move()[0]
        st.apply(p, rng.choice(st.legal_actions(p)))
    return st


def poison(st: State, player: int, seed: int, pile: Any = None) -> State:
    """Another world the player cannot tell apart: the cards it has never seen trade places (the
    events that moved them unseen are told of the cards now in their places), the hidden variables
    and the random generator differ. A card it saw once stays: its history is the player's too.
    ``pile``: a card → the pile it was dealt from, for a deck of several: cards trade within one."""
    s = st.clone()
    n = s.game.ncards
    seen = {c for c in range(n) if card_visible(st, c, player)}
    bit = 1 << player
    for ev in st.ev:
        if ev[0] == R.EV_MOVE and ev[5] & bit or ev[0] == R.EV_REVEAL and ev[3] & bit:
            seen.add(ev[2])
        elif ev[0] == R.EV_SWAP and ev[4] & bit:
            seen.update(ev[2:4])
    unseen = [c for c in range(n) if c not in seen]
    pi = list(range(n))
    for key in {None if pile is None else pile(c) for c in unseen}:
        group = [c for c in unseen if pile is None or pile(c) == key]
        perm = group[:]
        random.Random(seed).shuffle(perm)
        for a, b in zip(group, perm, strict=True):
            pi[a] = b
    s.z = [[pi[c] for c in zone] for zone in st.z]
    for slot, zone in enumerate(s.z):
        for c in zone:
            s.loc[c] = slot
    for c in unseen:
        s.vis[pi[c]] = st.vis[c]
    s.ev = [(ev[0], ev[1], pi[ev[2]], *ev[3:]) if ev[0] in (R.EV_MOVE, R.EV_REVEAL) else
            (ev[0], ev[1], pi[ev[2]], pi[ev[3]], *ev[4:]) if ev[0] == R.EV_SWAP else ev for ev in st.ev]
    s.tally = dict(st.tally)
    s.tcard = {}
    for k, (shape, m) in st.tcard.items():         # recorded cards found by their place
        s.tally[k] -= m
        new = repr(_mapped(ast.literal_eval(k), shape, pi))
        s.tally[new] = s.tally.get(new, 0) + m
        s.tcard[new] = (shape, m)
    s.tally = {k: m for k, m in s.tally.items() if m}
    s.rng ^= 0x5DEECE66D
    s.game.refresh_options(s)       # the pending options of this world (a face-down card: the one now there)
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ismcts_plays_only_legal_actions(seed):
    st = midgame("american_page_one", {"players": 3}, seed, 7)
    bot = ISMCTS(seed, iterations=40)
    for _ in range(12):
        if st.over:
            break
        p = st.to_move()[0]
        legal = st.legal_actions(p)
        a = bot.choose(st, p, legal)
        assert a in legal
        st.apply(p, a)


def _mapped(v, shape: str, pi: list[int]):
    """A recorded key with the cards its shape places (compile/compiled.py: record_shape) traded as ``pi`` says."""
    if shape == "card":
        return pi[v]
    if shape.startswith("list:"):
        return tuple(_mapped(x, shape[5:], pi) for x in v)
    if shape.startswith("("):
        return tuple(_mapped(x, sh, pi) for x, sh in zip(v, shape[1:-1].split(";"), strict=True))
    return v


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_ismcts_never_reads_hidden_state(seed):
    st = midgame("american_page_one", {"players": 3}, seed, 5)
    if st.over:
        pytest.skip("game ended early")
    p = st.to_move()[0]
    other = poison(st, p, seed)
    assert view(other, p, log_tail=0) == view(st, p, log_tail=0)        # the same from p's chair
    assert [c for z in other.z for c in z] != [c for z in st.z for c in z]  # but really another world
    assert remembered(other, p) == remembered(st, p)
    a = ISMCTS(99, iterations=60).choose(st, p, st.legal_actions(p))
    b = ISMCTS(99, iterations=60).choose(other, p, other.legal_actions(p))
    assert a.id == b.id


def test_determinized_worlds_keep_what_the_player_sees():
    st = midgame("american_page_one", {"players": 4}, 11, 9)
    p = st.to_move()[0]
    rng = random.Random(3)
    for _ in range(5):
        d = determinize(st, p, rng)
        assert sorted(c for z in d.z for c in z) == list(range(st.game.ncards))
        assert [len(z) for z in d.z] == [len(z) for z in st.z]
        for slot, zone in enumerate(st.z):
            for i, c in enumerate(zone):
                if card_visible(st, c, p):
                    assert d.z[slot][i] == c
        assert view(d, p, log_tail=0)["zones"] == view(st, p, log_tail=0)["zones"]
        d.game.legal_actions(d, p)


HIDDEN_ROLES = """
ruleset roles_test
players 3
enum Role { leader, spy, citizen }
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
var role: Role per player = citizen owner
var secret: player = none hidden
setup {
    shuffle deck
    deal 2 from deck to hand
    role[players[1]] = spy
    secret = players[1]
}
phase play {
    choose current { ok { } }
}
"""


def test_determinized_roles_and_secrets_are_resampled():
    st = game_from(HIDDEN_ROLES).new_state(0)
    g = st.game
    seen_roles = set()
    seen_secret = set()
    rng = random.Random(0)
    for _ in range(40):
        d = determinize(st, 0, rng)
        role = next(v for v in g.prog.vars if v.name == "role")
        secret = next(v for v in g.prog.vars if v.name == "secret")
        assert d.g[role.slot + 0] == st.g[role.slot + 0]          # its own role it knows
        seen_roles.add((d.g[role.slot + 1], d.g[role.slot + 2]))
        seen_secret.add(d.g[secret.slot])
    assert len(seen_roles) == 2                                    # spy is P1 or P2 in its worlds
    assert len(seen_secret) > 1


def test_seat_specs():
    assert make_bot("ismcts:25", 1).iterations == 25            # type: ignore[attr-defined]
    assert make_bot("ismcts:0.2s", 1).seconds == 0.2             # type: ignore[attr-defined]
    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as e:
        make_bot("genius", 1)
    assert e.value.first.code == "E505"


CONSTRUCTS = Path(__file__).parent / "constructs"


def test_a_ruleset_evaluation_scales_to_0_1_and_clamps():
    game = load(str(CONSTRUCTS / "evaluate.fuda"), {})
    st = game.new_state(0)
    assert game.evaluate(st) == [0.5, 0.5]
    st.apply(0, "take")
    assert game.evaluate(st) == [0.55, 0.45]
    coins = next(v for v in game.prog.vars if v.name == "coins")
    st.g[coins.slot] = 50
    assert game.evaluate(st) == [1.0, 0.0]
    assert game.eval_after == 2
    assert load("american_page_one", {}).evaluate(st) is None


def test_evaluate_s_range_may_be_worked_out_from_options():
    """A newcomer's Hold'em wanted `in 0..starting_chips * 6`: the bounds are fixed values."""
    from interpreter.errors import FudaError

    text = (CONSTRUCTS / "evaluate.fuda").read_text(encoding="utf-8").replace(
        "evaluate wealth in -10..10", "option span: int 1..100 = 10\nevaluate wealth in -span..span * 1.5")
    assert game_from(text).eval_range == (-10, 15.0)
    assert game_from(text, span=40).eval_range == (-40, 60.0)
    with pytest.raises(FudaError) as info:
        game_from(text.replace("-span..span * 1.5", "0..true"))
    assert info.value.first.code == "E201" and "takes numbers, not bool" in info.value.first.message
    with pytest.raises(FudaError) as info:
        game_from(text.replace("-span..span * 1.5", "span..0"))
    assert info.value.first.code == "E309" and "range 10..0 is empty" in info.value.first.message


@pytest.mark.parametrize("ruleset, wanted", [("evaluate.fuda", "take"), ("evaluate_variant.fuda", "pass")])
def test_ismcts_follows_the_ruleset_evaluation_where_rollouts_say_nothing(ruleset, wanted):
    game = load(str(CONSTRUCTS / ruleset), {})
    for seed in range(5):
        st = game.new_state(seed)
        bot = ISMCTS(seed, iterations=60)
        assert bot.choose(st, 0, st.legal_actions(0)).id == wanted


BLIND_PICK = """
ruleset blind_pick
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone box: pile hidden
setup {
    shuffle deck
    move (best c in deck where c.rank == 1 by 0) to hand[players[1]]
    deal 2 from deck to hand for [players[1]]
    shuffle hand[players[1]]
}
phase play {
    choose players[0] "Take one of P1's cards" {
        take c in hand[players[1]] "take {c}" {
            move c to box
            if c.rank == 1 { win players[0] } else { lose players[0] }
        }
    }
}
"""


def test_a_card_picked_face_down_is_a_place_not_a_name():
    """Choosing from a zone one cannot see: the options name places, the log keeps the card secret
    when it goes where the chooser cannot see, and a bot cannot find the ace by its legal list."""
    game = game_from(BLIND_PICK)
    st = game.new_state(0)
    legal = st.legal_actions(0)
    assert [a.id for a in legal] == ["take hand[P1][0]", "take hand[P1][1]", "take hand[P1][2]"]
    assert [a.label for a in legal] == ["take hand[P1][0]", "take hand[P1][1]", "take hand[P1][2]"]
    assert [a.id for a in game.legal_actions(st, 0)] == [a.id for a in legal]
    shown = game_from(BLIND_PICK.replace("zone box", 'show c as "{c.suit}{c.rank}"\nzone box')).new_state(0)
    assert [a.label for a in shown.legal_actions(0)] == [a.label for a in legal]    # Hanabi: `show` told the rank
    st.apply(0, "take hand[P1][1]")
    own = [e["text"] for e in st.view(0)["log"] if e["kind"] == "act"]
    assert own == ["P0: take a card"]
    assert [e["text"] for e in st.view(1)["log"] if e["kind"] == "act"][0].startswith("P0: take ")
    wins = 0
    for seed in range(40):
        st = game.new_state(seed)
        bot = ISMCTS(seed)
        st.apply(0, bot.choose(st, 0, st.legal_actions(0)))
        wins += st.game.result(st)[0]["outcome"] == "win"
    assert wins <= 25       # a third by luck (13 expected); reading the ids, it won all 40


def test_ismcts_plays_to_win_alone():
    """One player against the game: every place is the same, so the outcome is the reward."""
    game = game_from("""
ruleset solo
players 1
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    choose players[0] {
        a "a" { }
        b "b" { }
        c "c" { }
        good "good" { win players[0] }
    }
    win []
}
""")
    for seed in range(5):
        st = game.new_state(seed)
        assert ISMCTS(seed, iterations=40).choose(st, 0, st.legal_actions(0)).id == "good"


def test_rollout_weights_count_in_bots_rollouts_only():
    """Weighted playouts pick options in proportion to their weights (weight 0: never); plain
    playouts — random seats, all-random simulations — stay uniform."""
    game = load(str(CONSTRUCTS / "rollout_weight.fuda"), {})
    assert game.weighted
    picks: dict[bool, list[str]] = {True: [], False: []}
    for weighted in (True, False):
        for seed in range(200):
            st = game.new_state(seed)
            st.apply(0, "dare")
            game.playout(st, random.Random(seed).random, None, weighted=weighted)
            picks[weighted].append(st.game.result(st)[1]["outcome"])
    assert picks[True].count("win") == 200                 # P1 always punishes
    assert 0 < picks[False].count("win") < 30              # one answer in thirty
    assert not load("american_page_one", {}).weighted


@pytest.mark.parametrize("careful, wanted", [(True, "safe"), (False, "dare")])
def test_ismcts_models_the_other_players_by_the_rollout_weights(careful, wanted):
    """Deeper in the tree too, players are modelled as the rollouts play: with P1's give-ups of
    weight 0 the bot sees that a dare is punished; with all weights 1 the thirty answers are
    explored evenly and a dare looks good (the trap rollout weights are for)."""
    game = load(str(CONSTRUCTS / "rollout_weight.fuda"), {"careful_answers": careful})
    for seed in range(5):
        st = game.new_state(seed)
        assert ISMCTS(seed, iterations=40).choose(st, 0, st.legal_actions(0)).id == wanted


def test_weight_0_options_stay_open_to_the_bot_deciding():
    """At the decision being searched every legal option is considered, whatever its weight."""
    game = load(str(CONSTRUCTS / "rollout_weight.fuda"), {})
    st = game.new_state(0)
    st.apply(0, "dare")
    bot = ISMCTS(0, iterations=60)
    assert bot.choose(st, 1, st.legal_actions(1)).id == "punish"
    st2 = game.new_state(0)
    st2.apply(0, "dare")
    assert {a.id for a in st2.legal_actions(1)} >= {"give 1", "punish"}


def test_a_weight_that_fails_is_a_located_rule_error():
    """A rollout weight is evaluated only by searching bots; when it fails (dividing by zero,
    reading through none) the bot's search stops with the rule's E601 at the weight, as a
    failing `where` does — not an internal error."""
    from interpreter.errors import RuleRuntimeError

    game = game_from(one_choice("""
        a n in 1..3 rollout weight n / (n - n) "a {n}" { win players[0] }
        b "b" { win players[1] }"""))
    st = game.new_state(0)
    with pytest.raises(RuleRuntimeError) as e:
        ISMCTS(0, iterations=5).choose(st, 0, st.legal_actions(0))
    d = e.value.first
    assert (d.code, d.span.line, "division by zero") == ("E601", 9, d.message)


def one_choice(options: str) -> str:
    """A two-player ruleset that is one decision of P0's, with these options."""
    return f"""
ruleset one_choice
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
setup {{ }}
phase play {{
    choose players[0] {{{options}
    }}
}}
"""


LOTTERY = one_choice("""
        pick n in 1..30 rollout weight if n == 7 then 5 else 1 "pick {n}" {
            let w = random(players)
            win w
        }""")


def test_the_weights_lead_the_search_where_results_cannot_tell_options_apart():
    """A progressive bias: where thirty options are worth the same (a coin flip each), the search
    spends its visits on the one the ruleset weighs most, and picks it; without a hint any of them."""
    game = game_from(LOTTERY)
    picks = [ISMCTS(seed, iterations=300).choose(st := game.new_state(seed), 0, st.legal_actions(0)).id
             for seed in range(10)]
    assert picks.count("pick 7") >= 8       # 300 iterations over 30 coin flips: nearly always
    plain = game_from(LOTTERY.replace("rollout weight if n == 7 then 5 else 1 ", ""))
    picks = [ISMCTS(seed, iterations=300).choose(st := plain.new_state(seed), 0, st.legal_actions(0)).id
             for seed in range(5)]
    assert len(set(picks)) > 1


def test_an_evaluation_may_give_a_number_such_as_a_score():
    """A newcomer's Hearts: `score` is a number, and an evaluation of it needed round()."""
    from interpreter.api import load_text

    game = load_text("ruleset r\nplayers 2\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n"
                     "fn standing(p: player) -> number = score[p] / 2\nevaluate standing in -10..10\n"
                     "setup { score[players[0]] = 5 }\nphase play {\n    choose players[0] { wait { } }\n}\n")
    assert game.evaluate(game.new_state(0)) == [0.625, 0.5]


MEMORY = """
ruleset memory_test
players 3
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile hidden
zone hand: hand per player owner
setup {
    shuffle deck
    deal 3 from deck to hand
    repeat 4 { move top(deck) to table }
}
phase play {
    choose players[0] {
        pass c in hand[players[0]] { move c to hand[players[1]] }
    }
    choose players[0] {
        peek c in table {
            reveal c
            hide c
        }
    }
    choose players[1] {
        bury c in hand[players[1]] { move c to deck }
    }
    choose players[0] { ok { } }
    shuffle table
    choose players[0] { ok { } }
}
"""


def test_a_player_remembers_the_cards_it_saw_while_they_stay_put():
    """Perfect recall: a card P0 passed face down, and one turned up and down again where it lies,
    keep their places in P0's worlds; a card leaving that hand unseen (P0 cannot tell which) or a
    shuffle of that pile makes P0 lose them. The answer never depends on which hidden card moved."""
    game = game_from(MEMORY)
    table, hand1 = 1, 2 + 1                      # zone slots: deck 0, table 1, hand[P0..P2] 2..4
    st = game.new_state(4)
    gift = st.z[2][0]
    st.apply(0, st.legal_actions(0)[0])          # P0 passes a card to P1, face down
    assert gift in st.z[hand1] and not card_visible(st, gift, 0)
    assert remembered(st, 0) == {gift} and remembered(st, 2) == set() and remembered(st, 1) == set()
    seen = st.z[table][2]
    st.apply(0, st.legal_actions(0)[2])          # P0 turns up a card of the table, and down again
    assert not card_visible(st, seen, 0) and not card_visible(st, seen, 2)
    assert remembered(st, 0) == {gift, seen} and remembered(st, 2) == {seen}
    rng = random.Random(1)
    for _ in range(10):
        d = determinize(st, 0, rng)
        assert d.z[table][2] == seen and d.z[hand1].index(gift) == st.z[hand1].index(gift)
        assert view(d, 0, log_tail=0)["zones"] == view(st, 0, log_tail=0)["zones"]
    assert any(determinize(st, 2, rng).z[hand1] != st.z[hand1] for _ in range(10))   # P2 never saw it
    buried = []
    for k in range(3):                           # P1 buries one of its cards: whichever, P0 loses the gift
        s = st.clone()
        s.apply(1, s.legal_actions(1)[k])
        buried.append(remembered(s, 0))
    assert buried == [{seen}] * 3
    st.apply(1, st.legal_actions(1)[0])
    st.apply(0, "ok")                            # …and the table is shuffled: nothing is left
    assert remembered(st, 0) == set()




@pytest.mark.parametrize("seed", [1, 2])
def test_ismcts_never_reads_hidden_state_it_remembers_nothing_more(seed):
    """The poisoned world of a player who remembers cards (P1 saw a card of the table turned up):
    the remembered cards stay, the rest trade places, and the bot's choice is the same."""
    st = game_from(MEMORY).new_state(seed)
    st.apply(0, st.legal_actions(0)[0])
    st.apply(0, st.legal_actions(0)[1])
    assert remembered(st, 1)
    other = poison(st, 1, seed)
    assert view(other, 1, log_tail=0) == view(st, 1, log_tail=0)
    assert remembered(other, 1) == remembered(st, 1)
    a = ISMCTS(7, iterations=40).choose(st, 1, st.legal_actions(1))
    b = ISMCTS(7, iterations=40).choose(other, 1, other.legal_actions(1))
    assert a.id == b.id


@pytest.mark.parametrize("name", ["jekyll_hyde", "john", "napoleon", "senretsu", "super_page_one"])
def test_no_bundled_ruleset_lets_the_bot_read_hidden_state(name):
    """The poisoned-world test on every bundled game, early and late: the same choice. (It caught
    Napoleon's worlds redrawing hidden bookkeeping through the real places of cards.)"""
    from interpreter.resources import bundled_rulesets

    assert name in bundled_rulesets()
    for seed, steps in ((4, 9), (4, 20), (1, 40)):
        st = midgame(name, {}, seed, steps)
        if st.over or len(st.legal_actions(st.to_move()[0])) < 2:
            continue
        p = st.to_move()[0]
        other = poison(st, p, seed)
        assert view(other, p, log_tail=0) == view(st, p, log_tail=0)
        a = ISMCTS(99, iterations=40).choose(st, p, st.legal_actions(p))
        b = ISMCTS(99, iterations=40).choose(other, p, other.legal_actions(p))
        assert a.id == b.id, (seed, steps)


OTHERS_OPTIONS = """
ruleset simul_options
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone hand: hand per player owner
zone given: pile per player owner
setup {
    shuffle deck
    deal 4 from deck to hand
}
phase play {
    simultaneous p in players {
        give c in hand[p] where c.rank >= 11 { move c to given[p] }
        keep { }
    }
    end game
}
"""


@pytest.mark.parametrize("seed", range(6))
def test_the_others_simultaneous_options_are_those_of_the_sampled_world(seed):
    """A world's other deciders choose among what their sampled hands allow, not among the real
    options carried over by place: those told the bot how many face cards P1 holds and where."""
    game = game_from(OTHERS_OPTIONS)
    st = game.new_state(seed)
    site = game.sites[st.pend[0]]
    rng = random.Random(seed)
    counts = set()
    for _ in range(30):
        d = determinize(st, 0, rng)
        assert d.sopts[0] == st.sopts[0]                    # its own options, cards it sees
        assert d.sopts[1] == site.enum(d, d.frames[-1], 1)  # P1's, from the hand P1 holds in this world
        counts.add(len(d.sopts[1]))
    assert len(counts) > 1


SECRET_BID_2P = """
ruleset secret_bid
players 2
cards standard() in deck
zone deck: pile hidden
var bid: int per player = 0 owner "Bid | 入札"
setup {
    for p in players {
        choose p hidden "Your bid | 入札" {
            bid n in 0..3 "bid {n} | {n} を入札" { bid[p] = n }
        }
    }
    for p in players { reveal bid[p] }
}
phase play { end game }
"""


@pytest.mark.xfail(strict=True, reason="design decision: owner-only per-player values are shuffled among the "
                   "other players, right for dealt roles (the multiset is known) but with one other player it "
                   "copies a secretly chosen value into every world; the engine cannot tell dealt from chosen")
def test_a_secret_bid_is_not_known_in_the_bots_worlds():
    """docs/language.md's secret_bid with 2 players: P1's worlds all held P0's real hidden bid."""
    game = game_from(SECRET_BID_2P)
    st = game.new_state(0)
    st.apply(0, "bid 3")
    assert view(st, 1)["vars"]["bid"] == {"P1": 0}         # P1 does not see P0's bid
    bid = next(v for v in game.prog.vars if v.name == "bid")
    rng = random.Random(0)
    assert {determinize(st, 1, rng).g[bid.slot] for _ in range(30)} != {3}


HIDDEN_LOCAL = """
ruleset hidden_local
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
setup { shuffle deck }
phase play {
    let s = top(deck).suit
    choose current "Guess the suit of the top card | 山札の一番上のマーク" {
        guess x in [♠, ♥, ♦, ♣] { move top(deck) to table }
    }
    end game
}
"""


@pytest.mark.xfail(strict=True, reason="design decision: a frame local of a non-card type keeps its value in the "
                   "bot's worlds; one computed from a hidden card (let s = top(deck).suit) is the real card's. A "
                   "card local follows the card's place, but a value computed from it cannot be worked out again")
def test_a_local_computed_from_a_hidden_card_is_not_known_in_the_bots_worlds():
    game = game_from(HIDDEN_LOCAL)
    st = game.new_state(0)
    rng = random.Random(0)
    slot = 2 + next(i for i, code in enumerate(game.comp.frame_types[st.frames[-1][0]][2:]) if code == "enum:Suit")
    worlds = [determinize(st, 0, rng) for _ in range(30)]
    assert len({d.frames[-1][slot] for d in worlds}) > 1


HIDDEN_CARD_VAR = """
ruleset trap
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
var trap: bool per card = false hidden
setup {
    shuffle deck
    move top(deck) to table
    move top(deck) to table
    choose players[0] hidden "Arm a card | 仕掛ける" {
        arm c in table { c.trap = true }
    }
}
phase play {
    choose current { take c in table { move c to deck } }
    end game
}
"""


def test_a_hidden_per_card_value_of_a_card_in_sight_is_guessed():
    """P0 secretly marks a card on the table: P1 sees the cards, not the mark (its view has no
    card_vars), yet every world of P1's held the real mark. It is drawn from its type, like a
    hidden global."""
    game = game_from(HIDDEN_CARD_VAR)
    st = game.new_state(0)
    st.apply(0, st.legal_actions(0)[1])
    assert view(st, 1)["card_vars"] == {}
    trap = next(v for v in game.prog.vars if v.name == "trap")
    table = next(z for z in st.z if z and all(card_visible(st, c, 1) for c in z))
    rng = random.Random(0)
    marks = {tuple(determinize(st, 1, rng).g[trap.slot + c] for c in table) for _ in range(30)}
    assert len(marks) > 1


HIDDEN_CARD_IN_PUBLIC_VAR = """
ruleset peeked
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
zone table: pile public
var last: card = none
setup {
    shuffle deck
    last = top(deck)
}
phase play {
    choose current "Guess the suit of the top card | 山札の一番上のマーク" {
        guess x in [♠, ♥, ♦, ♣] { move top(deck) to table }
    }
    end game
}
"""


def test_a_public_card_variable_set_from_a_hidden_place_is_not_known_in_the_bots_worlds():
    game = game_from(HIDDEN_CARD_IN_PUBLIC_VAR)
    st = game.new_state(0)
    assert view(st, 0)["vars"]["last"] is None          # the view does not name it
    last = next(v for v in game.prog.vars if v.name == "last")
    rng = random.Random(0)
    assert len({determinize(st, 0, rng).g[last.slot] for _ in range(30)}) > 1


NESTED_SIMUL = """
ruleset simul_nested
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var bid: int per player = 0 owner
setup { }
phase play {
    simultaneous p in players "Your bid | 入札" {
        bid n in 1..3 "bid {n} | {n} を入札" {
            bid[p] = n
            choose p "Sure? | 確定?" { yes { } no { } }
        }
    }
    for p in players { reveal bid[p] }
    end game
}
"""


def test_the_others_simultaneous_choices_stay_secret_while_the_blocks_run():
    """P0 and P1 bid at once; P0's block asks P0 a question before P1's block has run. P0's view says
    only `P1 has chosen`, yet every world of P0's held P1's real bid among the frame's choices."""
    game = game_from(NESTED_SIMUL)
    st = game.new_state(0)
    st.apply(0, "bid 1")
    st.apply(1, "bid 3")
    assert st.to_move() == [0] and "P1 has chosen" in [e["text"] for e in view(st, 0)["log"]]
    codes = game.comp.frame_types[st.frames[-1][0]]
    ch = next(i for i, code in enumerate(codes) if code.startswith("choices:"))
    rng = random.Random(0)
    worlds = [determinize(st, 0, rng) for _ in range(30)]
    assert {d.frames[-1][ch][0] for d in worlds} == {st.frames[-1][ch][0]}     # its own bid it knows
    assert len({d.frames[-1][ch][1] for d in worlds}) > 1


def test_a_sampled_world_whose_rules_fail_is_dropped_not_the_real_game():
    """Exploding Kittens newcomer: worlds dealt the Bomb into a hand, their deck ran dry, and the E601
    raised inside the search stopped `fuda simulate`, blamed on a line that never fails in play."""
    from interpreter.api import load

    from .conftest import ROOT

    game = load(str(ROOT / "tests" / "constructs" / "world_breaks_invariant.fuda"))
    failed = 0
    for seed in range(6):
        st = game.new_state(seed)
        bot = ISMCTS(seed, iterations=60)
        while not st.over:
            p = st.to_move()[0]
            legal = st.legal_actions(p)
            if p == 0:
                st.apply(p, bot.choose(st, p, legal))
                failed += bot.last_failed
            else:
                st.apply(p, legal[0])
    assert failed > 0


def test_a_belief_keeps_the_worlds_to_what_the_rules_allow():
    """`belief FN`: a sampled world deals a card only where FN holds — the Bomb never into a hand
    (Exploding Kittens: no world fails then), a card clued "3" on its back is a 3 (Hanabi)."""
    from interpreter.api import load
    from interpreter.engine.determinize import determinize

    from .conftest import ROOT

    base = (ROOT / "tests" / "constructs" / "world_breaks_invariant.fuda").read_text(encoding="utf-8")
    game = game_from(base + "fn plausible(c: card) -> bool = not c.bomb or holder(c) == none\nbelief plausible\n")
    st = game.new_state(1)
    st.apply(0, "draw")
    bomb = game.card_names.index("Bomb")
    rng = random.Random(0)
    for _ in range(50):
        w = determinize(st, 1, rng)
        assert not game.zone_name(w, w.loc[bomb]).startswith("hand")
    bot = ISMCTS(0, iterations=100)
    bot.choose(st, 1, st.legal_actions(1))
    assert bot.last_failed == 0

    clues = load(str(ROOT / "tests" / "constructs" / "belief.fuda"))
    st = clues.new_state(2)
    st.apply(1, st.legal_actions(1)[0])
    told = next(v.slot for v in clues.prog.vars if v.name == "told")

    def rank(d: int) -> int:
        r = clues.card_names[d][1:]
        return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(r) or int(r)
    for _ in range(30):
        w = determinize(st, 0, rng)
        marked = [d for d in range(clues.ncards) if w.g[told + d]]
        assert marked and all(rank(d) == w.g[told + d] for d in marked)


PILES = """
ruleset piles
players 2
cards {
    attr kind: int = 0
    for i in 1..12 { card "g{i}" }
    in pile_a { for i in 1..4 { card "a{i}" kind = 1 } }
    in pile_b { for i in 1..4 { card "b{i}" kind = 2 } }
    in pile_c { for i in 1..4 { card "c{i}" kind = 3 } }
} in deck
zone deck: pile hidden
zone pile_a: pile hidden
zone pile_b: pile hidden
zone pile_c: pile hidden
fn kind_of(z: zone) -> int = if z == pile_a then 1 else if z == pile_b then 2 else if z == pile_c then 3 else 0
fn fits(c: card) -> bool = c.kind == kind_of(zone_of(c))
belief fits
setup { }
phase play { choose players[0] { go "go" { } } }
"""


def test_a_belief_of_several_kinds_each_in_its_own_pile_sorts_every_world_out():
    """Jaipur's bonus tokens of 3, 4 and 5 in three face-down piles: a token of one pile dealt into
    another could not trade with a deck card in one swap that fitted both, and 115 of 120 worlds
    kept misplaced tokens. A trade that leaves fewer misplaced is kept, so every world fits."""
    from interpreter.engine.determinize import determinize

    game = game_from(PILES)
    st = game.new_state(0)
    rng = random.Random(0)
    kinds = {"a": "pile_a", "b": "pile_b", "c": "pile_c"}
    for _ in range(40):
        w = determinize(st, 0, rng)
        for d in range(game.ncards):
            name = game.card_names[d]
            assert game.zone_name(w, w.loc[d]) == kinds.get(name[0], "deck"), name


MIX = """
ruleset mix
players 2
cards {
    attr a: bool = false
    for i in 1..9 { card "B{i}" }
    in adeck { for i in 1..3 { card "A{i}" a = true } }
} in deck
zone deck: pile hidden
zone adeck: pile hidden
zone hand: hand per player owner
zone discard: pile hidden
setup {
    shuffle deck
    shuffle adeck
    move top(adeck) to hand[players[1]]
    move top(deck) to discard
    move top(adeck) to discard
}
phase play {
    choose players[0] {
        say_a "it is an A" { if top(hand[players[1]]).a { win players[0] } else { win players[1] } }
        say_b "it is a B" { if top(hand[players[1]]).a { win players[1] } else { win players[0] } }
    }
}
"""


def test_cards_of_several_piles_are_dealt_only_where_the_moves_could_take_them():
    """newcomer52 P3: Citadels' characters and districts are one deck of two piles (`in ZONE`), and
    worlds dealt a character into a district hand (a bot guessed P1's card, which came from the A
    pile, was a B nine times in ten). A card lies only where moves every player saw could take a
    card of its pile: P1's hand holds an A, the deck only Bs, the discard one of each pile."""
    from interpreter.engine.determinize import card_reach

    game = game_from(MIX)
    st = game.new_state(0)
    rng = random.Random(0)
    seen_in_discard = set()
    for _ in range(40):
        w = determinize(st, 0, rng)
        where = {game.card_names[d]: game.zone_name(w, w.loc[d]) for d in range(game.ncards)}
        assert [n for n, z in where.items() if z == "hand[P1]"][0].startswith("A")
        assert all(n.startswith("B") for n, z in where.items() if z == "deck")
        seen_in_discard |= {n[0] for n, z in where.items() if z == "discard"}
    assert seen_in_discard == {"A", "B"}        # the discard may hold any: both piles went there
    bot = ISMCTS(0, iterations=100)
    assert bot.choose(st, 0, st.legal_actions(0)).id == "say_a"
    # without belief: piles that never moved keep their own cards; one pile alone needs nothing
    piles = game_from(PILES.replace("belief fits\n", ""))
    st = piles.new_state(0)
    for _ in range(20):
        w = determinize(st, 0, rng)
        assert all(piles.zone_name(w, w.loc[d]) == {"a": "pile_a", "b": "pile_b", "c": "pile_c"}.get(
            piles.card_names[d][0], "deck") for d in range(piles.ncards))
    assert card_reach(game_from(CLAIMS.replace("WEIGHT", "1")).new_state(0)) is None


def test_worlds_of_a_deck_of_several_piles_never_depend_on_where_the_hidden_cards_lie():
    """The poisoned-world test on a deck of two piles: the unseen cards trade places within their
    piles (a world the rules could make), and every world is the same for the same seed. The
    repairs that keep each pile's cards where its moves went took the dealt places in the order of
    the real cards lying there, so the worlds differed with them."""
    game = game_from(MIX.replace("move top(adeck) to discard", "move top(adeck) to discard\n"
                                 "    move top(adeck) to hand[players[0]]\n    move top(deck) to hand[players[1]]"))
    homes = game.prog.cards.homes
    for seed in range(4):
        st = game.new_state(seed)
        other = poison(st, 0, seed, lambda c: homes[c].base)
        assert view(other, 0, log_tail=0) == view(st, 0, log_tail=0)
        assert [c for z in other.z for c in z] != [c for z in st.z for c in z]
        for k in range(3):
            assert determinize(st, 0, random.Random(k)).z == determinize(other, 0, random.Random(k)).z
        a = ISMCTS(seed, iterations=40).choose(st, 0, st.legal_actions(0))
        assert a.id == ISMCTS(seed, iterations=40).choose(other, 0, other.legal_actions(0)).id


CLAIMS = """
ruleset claims
players 2
cards {
    attr duke: bool = false
    card "Duke" duke = true
    for i in 1..9 { card "c{i}" }
} in deck
zone deck: pile hidden
zone hand: hand per player owner
var claimed: bool = false
fn likely(c: card) -> number = if c.duke and claimed and holder(c) == players[1] then WEIGHT else 1
belief likely
setup { shuffle deck  deal 1 from deck to hand for [players[0]]  deal 3 from deck to hand for [players[1]]  claimed = true }
phase play { choose players[0] { go "go" { } } }
"""


@pytest.mark.parametrize(("weight", "lo", "hi"), [("1", 0.2, 0.47), ("9", 0.65, 0.97), ("0", 0.0, 0.0)])
def test_a_weighted_belief_deals_a_claimed_card_to_its_claimant_more_often(weight, lo, hi):
    """Coup newcomer: worlds dealt the claimant's cards at random, whatever they had claimed, so the
    bots challenged every claim. A belief giving numbers weighs the worlds: with weight 9 on the Duke
    in the claimant's hand (3 of the 9 places P0 cannot see), about 27 / 33 of worlds put it there."""
    game = game_from(CLAIMS.replace("WEIGHT", weight))
    assert game.belief_weighted
    share = claimant_holds(game, seeds=40, rng=random.Random(3))
    assert lo <= share <= hi, share


def claimant_holds(game, seeds: int, rng: random.Random) -> float:
    """How often P0's sampled worlds deal the Duke into P1's hand (10 worlds a game, over the games in
    which P0 does not hold it: nothing to imagine there)."""
    duke = game.card_names.index("Duke")
    worlds = hits = 0
    for seed in range(seeds):
        st = game.new_state(seed)
        if game.zone_name(st, st.loc[duke]) == "hand[P0]":
            continue
        for _ in range(10):
            w = determinize(st, 0, rng)
            worlds += 1
            hits += game.zone_name(w, w.loc[duke]) == "hand[P1]"
    return hits / worlds


def test_a_weighted_belief_holds_on_a_big_deck_and_with_huge_weights():
    """QA: on a 40-card deck a weight of 1000 put the card where the belief said a third of the time
    (the swaps rarely touched it), and 4e300 against 1e300 counted as no opinion (the product overflowed)."""
    big = CLAIMS.replace('for i in 1..9 { card "c{i}" }', 'for i in 1..39 { card "c{i}" }')
    huge = "1" + "0" * 300
    for weight, lo, hi in (("1000 else 1", 0.93, 1.0), (f"4{huge[1:]} else {huge}", 0.5, 0.75)):
        src = big if weight.startswith("1000") else CLAIMS
        share = claimant_holds(game_from(src.replace("WEIGHT else 1", weight)), seeds=30, rng=random.Random(4))
        assert lo <= share <= hi, (weight, share)


COOPERATIVE = """
ruleset together
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var team: int = 0
fn shared(p: player) -> number = team
evaluate shared in 0..3
setup { }
phase play {
    choose players[0] {
        a "one" { team = 1 }
        b "three" { team = 3 }
    }
    for p in players { score[p] = team }
    end game draw
}
"""


def test_a_cooperative_game_s_bots_aim_at_the_shared_score():
    """Hanabi newcomer: a score shared by the whole table gave the bots no reward (rewards compare
    players); a finished game that tells nobody apart is judged by the ruleset's evaluate."""
    from interpreter.bots.ismcts import rewards

    game = game_from(COOPERATIVE)
    low, high = game.new_state(0), game.new_state(0)
    low.apply(0, "a")
    high.apply(0, "b")
    assert rewards(low)[0] < rewards(high)[0] == 0.75
    st = game.new_state(0)
    assert ISMCTS(0, iterations=40).choose(st, 0, st.legal_actions(0)).id == "b"


def test_a_simultaneous_decision_of_a_changing_subset_of_players_is_searched():
    from interpreter.api import load
    from interpreter.runner.simulate import run_game

    from .conftest import ROOT

    game = load(str(ROOT / "tests" / "constructs" / "simul_subset.fuda"))
    assert run_game(game, 0, ["ismcts:20", "random", "random"]).over     # fuda simulate's first game


def test_a_simultaneous_decision_of_nobody_decides_nothing():
    """Sushi Go newcomer: `simultaneous p in []` waited for nobody, forever."""
    st = game_from("""
ruleset nobody
players 2
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    simultaneous p in [q for q in players where false] { ok "ok" { } }
    log "after"
    end game
}
""").new_state(0)
    assert st.over and "after" in [e["text"] for e in st.view(None)["log"]]


def _qa(name: str):
    from interpreter.api import load

    from .conftest import ROOT
    return load(str(ROOT / "tests" / "constructs" / f"qa_{name}.fuda"))


def test_qa_a_labelled_card_the_chooser_cannot_see_is_shown_by_place_only():
    """QA: a card's label (`card "king" "King"`) named the hidden card in the option label, and
    typing it took that card; a label's other text equal to a card name was rewritten by place."""
    from interpreter.errors import FudaError

    st = _qa("labelleak").new_state(1)
    takes = [a for a in st.legal_actions(0) if a.name == "take"]
    assert [a.label for a in takes] == [a.id for a in takes]
    with pytest.raises(FudaError):
        st.apply(0, "take King")
    g = _qa("namesub")
    assert {a.label for seed in range(6) for a in g.new_state(seed).legal_actions(0)} == {
        "take hand[P1][0] (beware the king)", "take hand[P1][1] (beware the king)"}


def test_qa_bots_imagine_secrets_afresh_also_for_beliefs_and_cards_on_backs():
    """QA: `belief` read the real hidden variables (the Bomb always where it really was), and a card
    written on a back kept the real hidden card in every world."""
    from collections import Counter

    from interpreter.engine.determinize import determinize

    rng = random.Random(0)
    g = _qa("belief_leak")
    st = g.new_state(1)
    bomb = g.card_names.index("Bomb")
    assert g.zone_name(st, st.loc[bomb]) == "hand[P1]"
    where = Counter(g.zone_name(w, w.loc[bomb]) for w in (determinize(st, 0, rng) for _ in range(200)))
    assert where["deck"] > 20
    g = _qa("backcard")
    st = g.new_state(1)
    link = next(v.slot for v in g.prog.vars if v.name == "link")
    c = g.card_names.index(_first_of(st, "hand[P0]"))
    hand, deck = st.loc[c], st.loc[st.g[link + c]]
    worlds = [determinize(st, 1, rng) for _ in range(50)]
    linked = [w.g[link + w.z[hand][0]] for w in worlds]      # on the back of the card at P0's first place
    assert sum(x == st.g[link + c] for x in linked) < 10
    assert all(x == w.z[deck][-1] for x, w in zip(linked, worlds, strict=True))      # the world's top card


def _first_of(st, zone):
    from interpreter.engine.observe import full_view
    return full_view(st)["zones"][zone]["cards"][0]


@pytest.mark.parametrize("name", ["simdup", "simnone", "allfail", "coop3"])
def test_qa_searching_bots_finish_games_the_rules_finish(name):
    """QA: a player named twice in a simultaneous hung the game; a world breaking a simultaneous
    option crashed ISMCTS (TypeError); a rule failing in every imagined world (a King P0 never saw
    go to P1) and an evaluate unreadable on a finished cooperative game stopped the real game."""
    from interpreter.runner.simulate import run_game

    g = _qa(name)
    for seed in range(3):
        assert run_game(g, seed, ["ismcts:20"] * g.n).over


RECORDED = """
ruleset recorded
players 2
cards {
    for i in 1..4 { card "c{i}" }
} in deck
zone deck: pile hidden
setup {
    shuffle deck
    record top(deck)
    record (1, top(deck))
    record all_cards[0]
}
phase play {
    choose players[0] "Which card lies on top of the face-down deck?" {
        guess c in all_cards "guess {c}" {
            if occurrences(c) > 0 and occurrences((1, c)) > 0 { win players[0] } else { win players[1] }
        }
    }
}
"""


def test_a_recorded_hidden_card_is_dealt_anew_in_the_bots_worlds():
    """QA7 B-bot-tally: `record top(deck)` kept the real card in every sampled world, so a bot
    guessing the face-down top card was always right. A recorded card found by its place follows
    its position (inside a tuple too); a card the rules name (`all_cards[0]`) keeps its identity."""
    game = game_from(RECORDED)
    c1 = 0                              # all_cards[0]
    tops = set()
    for seed in range(6):
        st = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(8):
            w = determinize(st, 0, rng)
            top = w.z[0][-1]
            assert w.tally == {repr(top): 1 + (top == c1), repr((1, top)): 1} | ({repr(c1): 1} if top != c1 else {})
            tops.add(top)
        other = poison(st, 0, seed)
        assert repr((1, other.z[0][-1])) in other.tally     # the poisoned world is one the rules could make
        assert ISMCTS(5, iterations=30).choose(st, 0, st.legal_actions(0)).id == \
            ISMCTS(5, iterations=30).choose(other, 0, other.legal_actions(0)).id
    assert len(tops) == 4               # any card may be on top in the bot's mind


def test_worlds_keep_each_zones_values_of_per_card_variables():
    """A value the rules gave every card stays in every world; a hand's cards keep the hand's values
    among them, but which of them carries the one that differs is drawn anew."""
    game = load(str(Path(__file__).parent / "constructs" / "card_values.fuda"))
    st = game.new_state(3)
    flag, odd = (next(v for v in game.prog.vars if v.name == name) for name in ("flag", "odd"))
    hand1 = next(slot for slot in range(game.static_slots) if game.zone_name(st, slot) == "hand[P1]")
    places = set()
    for seed in range(30):
        w = determinize(st, 0, random.Random(seed))
        assert all(w.g[flag.slot + c] for c in range(game.ncards))
        hand = w.z[hand1]
        assert sorted(w.g[odd.slot + c] for c in hand) == [False, False, True]
        places.add(next(i for i, c in enumerate(hand) if w.g[odd.slot + c]))
    assert len(places) > 1


def test_ismcts_knows_a_value_the_rules_gave_every_card():
    game = load(str(Path(__file__).parent / "constructs" / "card_values.fuda"))
    for seed in range(5):
        st = game.new_state(seed)
        bot = make_bot("ismcts:100", seed)
        assert game.legal_actions(st, 0)[0].id == "bet_true"
        assert bot.choose(st, 0, game.legal_actions(st, 0)).id == "bet_true"


NESTED = """
ruleset nested
players 2
cards standard(ranks = [1, 2, 3, 4]) in deck
zone deck: pile hidden
zone hand: hand per player owner
var melds: list of list of card = []
setup {
    shuffle deck
    deal 1 from deck to hand
    melds = [cards(hand[players[0]])]       # fuda: ignore[W104]
    record [[top(deck)]]
}
phase play {
    choose players[1] { guess c in all_cards { if c in melds[0] { win players[1] } else { win players[0] } } }
}
"""


def test_cards_in_lists_of_lists_follow_their_places_in_worlds():
    """QA8 B-bot-nested: a list of lists of cards (melds) and a recorded `[[top(deck)]]` kept their
    real cards in the worlds, so a bot knew a hidden card."""
    game = game_from(NESTED)
    st = game.new_state(1)
    melds = next(v for v in game.prog.vars if v.name == "melds")
    real = st.g[melds.slot][0][0]
    (key,) = st.tally
    held = {determinize(st, 1, random.Random(seed)).g[melds.slot][0][0] for seed in range(20)}
    keys = {k for seed in range(20) for k in determinize(st, 1, random.Random(seed)).tally}
    assert len(held) > 3 and len(keys) > 3 and key in st.tally and real in range(game.ncards)


LOWEST_WINS = """ruleset lowest_wins
players 3
cards standard() in deck
zone deck: pile hidden
setup { }
phase play {
    choose players[0] {
        win_it "take 0 points: I win" { score[players[1]] = 10  score[players[2]] = 5 }
        lose_it "take 10 points: I lose" { score[players[0]] = 10  score[players[1]] = 5 }
    }
    end game ranking p in players by -score[p]
}
"""


def test_where_the_fewest_points_win_the_bot_counts_points_that_way():
    """A newcomer's Hearts: with `ranking … by -score[p]` the score pulled against the places, and
    winning was worth what losing was (the bot took the winning move half the time)."""
    g = load_text(LOWEST_WINS)
    won, lost = g.new_state(1), g.new_state(1)
    won.apply(0, "win_it")
    lost.apply(0, "lose_it")
    assert rewards(won)[0] == 1.0 and rewards(lost)[0] == 0.0
    assert rewards(won) == [1.0, 0.0, 0.5]
    for seed in range(6):
        st = g.new_state(seed)
        assert ISMCTS(seed, iterations=30).choose(st, 0, st.legal_actions(0)).id == "win_it"


def test_a_score_that_disagrees_with_the_places_is_left_out():
    assert score_direction([1, 2, 3], [9, 5, 1]) == 1
    assert score_direction([1, 2, 3], [1, 5, 9]) == -1
    assert score_direction([1, 2, 3], [5, 9, 1]) == 0
    assert score_direction([1, 1, 2], [6, 4, 0]) == 1      # Napoleon's side: shares differ within a place


TRAP = """ruleset trap
players 2
cards standard() in deck
zone deck: pile hidden
zone hand: hand per player owner
var trap: bool per card = false hidden
setup {
    shuffle deck
    deal 3 from deck to hand
}
phase play {
    turn players[1] {
        choose current hidden "Where does the trap go?" {
            in_hand "in my hand" { top(hand[current]).trap = true }
            in_deck "in the deck" { top(deck).trap = true }
        }
    }
    turn players[0] {
        choose current "Guess" {
            guess_hand "hand" { if any c in hand[players[1]] where c.trap { win current } else { lose current } }
            guess_deck "deck" { if any c in deck where c.trap { win current } else { lose current } }
        }
    }
}
"""


def test_a_hidden_card_variable_of_unseen_cards_is_guessed_not_kept_by_zone():
    """qa9 B3: the worlds kept each zone's values of a `hidden` per-card variable, so they put the
    trap where it really was, and a searching bot won a fair guess 40 times in 40."""
    g = load_text(TRAP)
    base = next(v for v in g.prog.vars if v.name == "trap").slot
    worlds = {}
    for real in ("in_hand", "in_deck"):
        st = g.new_state(5)
        st.apply(1, real)
        rng = random.Random(1)
        found = []
        for _ in range(40):
            w = determinize(st, 0, rng)
            found.append(sorted(g.zone_name(w, w.loc[c]) for c in range(g.ncards) if w.g[base + c]
                                and g.zone_name(w, w.loc[c]) != "hand[P0]"))
        worlds[real] = found
    assert worlds["in_hand"] == worlds["in_deck"]       # the worlds do not depend on the real choice


@pytest.mark.parametrize("fn, ok", [("fn wealth(p: player) -> int = coins[p] - coins[next(p)]", True),
                                    ("fn wealth(p: player) -> number = coins[p] - coins[next(p)]", True),
                                    ("fn wealth(p: player) = score[p] + coins[p]", True),
                                    ("fn wealth(p: player) -> number = score[p] + coins[p]", True),
                                    ("fn wealth(p: player) -> int = round(score[p]) + coins[p]", True),
                                    ("fn wealth(p: player) -> int = score[p] + coins[p]", False)])
def test_evaluate_takes_an_int_or_a_number_and_an_int_over_score_is_told_how(fn, ok):
    """A newcomer's evaluation over the score was refused: `score[p]` is a number, so a function
    declared `-> int` over it is E201 — its hint says `-> number` (evaluate takes either) or round."""
    from interpreter.errors import FudaError

    text = (CONSTRUCTS / "evaluate.fuda").read_text(encoding="utf-8")
    text = text.replace("fn wealth(p: player) -> int = coins[p] - coins[next(p)]", fn)
    if ok:
        assert game_from(text).eval_range == (-10, 10)
        return
    with pytest.raises(FudaError) as info:
        game_from(text)
    d = info.value.first
    assert d.code == "E201" and "score[p] is a number" in d.hint and "-> number" in d.hint


@pytest.mark.parametrize("var", ["coins", "score"])
def test_evaluate_may_name_a_per_player_variable_of_numbers(var):
    """`evaluate score in 0..10` (or an int variable of the ruleset's) needs no function written
    around it; a variable of anything but numbers is E201."""
    from interpreter.errors import FudaError

    text = (CONSTRUCTS / "evaluate.fuda").read_text(encoding="utf-8").replace(
        "evaluate wealth in -10..10", f"evaluate {var} in 0..10").replace(
        "coins[current] += 1", "coins[current] += 1\n score[current] += 1")
    game = game_from(text)
    st = game.new_state(0)
    st.apply(0, "take")
    assert game.evaluate(st) == [0.1, 0.0]
    with pytest.raises(FudaError) as info:
        game_from(text.replace(f"evaluate {var} in", "var names: text per player = \"\"\nevaluate names in"))
    assert info.value.first.code == "E201" and "names holds text" in info.value.first.message
