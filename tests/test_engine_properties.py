"""Engine invariants, checked along random games of every bundled ruleset (DESIGN.md §3):
cards are neither created nor destroyed, clones and JSON round trips are exact at every step,
the same seed replays the same events, and no view ever names a card hidden from its player (but for the cards the rules name,
named.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from interpreter.api import load
from interpreter.engine.observe import card_visible, render_event, view, zone_visible
from interpreter.engine.runtime import ALL
from interpreter.engine.state import State
from interpreter.resources import bundled_rulesets

RULESETS = bundled_rulesets()
CONSTRUCTS = Path(__file__).parent / "constructs"


def conserved(st: State) -> None:
    seen = sorted(c for zone in st.z for c in zone)
    assert seen == list(range(st.game.ncards)), "a card was created or destroyed"
    for slot, zone in enumerate(st.z):
        for c in zone:
            assert st.loc[c] == slot, f"card {c} is in zone {slot} but loc says {st.loc[c]}"


_NAME_RE: dict[int, re.Pattern[str]] = {}


def no_hidden_card(st: State, p: int | None, with_log: bool = True) -> None:
    names = st.game.card_names
    rx = _NAME_RE.get(id(st.game))
    if rx is None:
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        rx = _NAME_RE[id(st.game)] = re.compile(rf"(?<![\w♠♥♦♣])({alts})(?![\w])")
    hidden = {names[c] for c in range(st.game.ncards) if not card_visible(st, c, p)}
    seen = view(st, p, log_tail=None if with_log else 0)
    for v in st.game.prog.vars:     # a card the rules name (named.py: Napoleon's called card) is public
        if v.named and v.type.kind in ("card", "list"):
            seen["vars"].pop(v.name, None)
    text = json.dumps(seen, ensure_ascii=False)
    shown = hidden.intersection(rx.findall(text))
    assert not shown, f"the view of {p} names hidden cards {sorted(shown)}"


def roundtrip(st: State) -> None:
    data = st.to_json()
    back = State.from_json(json.loads(json.dumps(data, ensure_ascii=False)), st.game)
    assert back.to_json() == data
    assert st.clone().to_json() == data


def options_for(name: str, rng: random.Random) -> dict[str, object]:
    prog = load(name).prog
    return {"players": rng.randint(prog.min_players, prog.max_players)}


MAX_STEPS = 400   # invariants are checked at every step; that every game *ends* is the soak's job


def play(st: State, rng: random.Random, each_step, max_steps: int = MAX_STEPS) -> None:  # type: ignore[no-untyped-def]
    game = st.game
    steps = 0
    while not st.over and steps < max_steps:
        steps += 1
        for p in st.to_move():
            legal = game.legal_actions(st, p)
            game.apply(st, p, legal[rng.randrange(len(legal))])
            each_step(st)
            if st.over:
                break


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**31 - 1))
def test_cards_conserved_and_exact_round_trips(name, seed):
    rng = random.Random(seed)
    game = load(name, options_for(name, rng))
    st = game.new_state(seed)
    conserved(st)
    roundtrip(st)

    steps = [0]

    def check(s: State) -> None:
        # a round trip costs as much as the event log is long: at most every third step, and at the end
        steps[0] += 1
        conserved(s)
        if steps[0] % 3 == 0 or s.over or s.stack or s.schosen is not None:
            roundtrip(s)

    play(st, rng, check)


@pytest.mark.parametrize("name", RULESETS + [str(CONSTRUCTS / "masks.fuda"), str(CONSTRUCTS / "offer.fuda")])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**31 - 1))
def test_views_never_show_hidden_cards(name, seed):
    """The live parts of a view name only cards visible now; each log entry names only cards its
    viewer could see just before or just after the step that produced it."""
    rng = random.Random(seed)
    game = load(name, options_for(name, rng))
    st = game.new_state(seed)
    viewers = [None, *range(game.n)]
    names = game.card_names

    def visible(s: State) -> dict[int | None, set[str]]:
        return {p: {names[c] for c in range(game.ncards) if card_visible(s, c, p)} for p in viewers}

    def named(text: str, s: State) -> set[str]:
        rx = _NAME_RE.get(id(s.game))
        if rx is None:
            alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            rx = _NAME_RE[id(s.game)] = re.compile(rf"(?<![\\w♠♥♦♣])({alts})(?![\\w])")
        return set(rx.findall(text))

    for p in viewers:
        no_hidden_card(st, p, with_log=False)
    steps = 0
    while not st.over and steps < MAX_STEPS:
        steps += 1
        for p in st.to_move():
            before = visible(st)
            n_ev = len(st.ev)
            legal = game.legal_actions(st, p)
            game.apply(st, p, legal[rng.randrange(len(legal))])
            after = visible(st)
            for q in viewers:
                no_hidden_card(st, q, with_log=False)
                during = passed_by(st, n_ev, q)
                for ev in st.ev[n_ev:]:
                    r = render_event(st, ev, q)
                    if r is not None:
                        leaked = named(r["text"], st) - before[q] - after[q] - during
                        assert not leaked, f"P{q} reads {sorted(leaked)} in {r['text']!r}"
            if st.over:
                break


def passed_by(st: State, since: int, q: int | None) -> set[str]:
    """Cards that were in view of ``q`` at some moment of a step (judged from the zones themselves,
    not from the masks the engine wrote): moved through a zone q sees, or turned face up / shown to q."""
    names = st.game.card_names
    out: set[str] = set()
    for ev in st.ev[since:]:
        if ev[0] == 1 and (zone_visible(st, ev[3], q) or zone_visible(st, ev[4], q)) or ev[0] == 15 and (ev[3] == ALL or (q is not None and ev[3] >> q & 1)):   # a move
            out.add(names[ev[2]])
    return out


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=5, deadline=None)
@given(seed=hs.integers(0, 2**31 - 1))
def test_same_seed_same_events(name, seed):
    logs = []
    for _ in range(2):
        rng = random.Random(seed)
        game = load(name, options_for(name, rng))
        st = game.new_state(seed)
        play(st, rng, lambda s: None)
        logs.append(st.ev)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("name", RULESETS)
def test_a_clone_continues_like_the_original(name):
    rng = random.Random(7)
    game = load(name)
    st = game.new_state(7)
    for _ in range(15):
        if st.over:
            break
        p = st.to_move()[0]
        st.apply(p, rng.choice(st.legal_actions(p)))
    twin = State.from_json(json.loads(json.dumps(st.to_json())))
    copy = st.clone()
    for s in (st, twin, copy):
        r = random.Random(99)
        play(s, r, lambda _s: None)
    assert st.ev == twin.ev == copy.ev
    assert st.result() == twin.result() == copy.result()


@pytest.mark.parametrize("name", RULESETS)
def test_games_leave_no_reference_cycles(name):
    """Playouts run with the cyclic GC paused (bench, simulate, ISMCTS rollouts): a finished game,
    a phase change or a rule failure must leave nothing only that collector could free."""
    import gc

    game = load(name)
    rnd = random.Random(3).random
    gc.collect()
    gc.disable()
    try:
        for i in range(15):
            game.playout(game.new_state(i), rnd)
        assert gc.collect() == 0
    finally:
        gc.enable()
