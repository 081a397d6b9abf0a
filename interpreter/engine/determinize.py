"""Determinization: a full state that one player cannot tell from the real one.

Information-set search (bots/ismcts.py) plays many possible worlds consistent with what a player
knows. ``determinize(state, player, rng)`` builds one such world from the player's point of view:

- The cards the player cannot see are dealt anew: the sorted list of unseen cards, shuffled with
  the bot's own generator, fills the unseen positions zone by zone (zone sizes are public). The
  result depends only on what the player sees and the bot's seed, never on where the hidden cards
  really are. A deck dealt from several piles keeps each card where moves every player saw could
  have taken a card of its pile (``card_reach``), and a ruleset's ``belief`` is followed.
- A card the rules *name* (named.py: a card literal, a called card worked out from public facts),
  in a variable or a local of a waiting rule, keeps its identity wherever the world deals it. What
  else names a hidden card (a variable or local set from a place, `top(deck)`; a stack item; a
  pending option over a zone; a recorded key, `record top(deck)`) follows that card's *position*: it
  names whichever card now lies there.
- Hidden variables are drawn afresh from their type (a player, an enum member, a bool, an unseen
  card; other types keep their initial value); per-player variables that only their owner sees are
  shuffled among the other players; a per-card variable of the cards out of the player's sight
  (unseen, or only remembered) keeps each zone's values, dealt at random over those cards
  (`_unseen_values`), but for those written on the back (`back`), which stay with the card's place,
  and `hidden` ones, which are drawn from their type; a hidden per-card variable of a
  card in sight is drawn from its type like a hidden global.
- Other players' options in a simultaneous decision are those of the sampled world (worked out
  anew: the real ones would tell what their real hands allow), their unrevealed choices are redrawn
  among them — also while the decision's blocks run, one player's after another's (the choices
  wait in the rule's frame) — and the game's random generator is replaced, so the future shuffles
  are unknown too.

The player has perfect recall of cards (``observe.remembered``): a card it saw and can still place
— one it passed face down to a neighbour, one turned up and face down again where it lies — keeps
its place in every world, like a card it sees. The event log is dropped (search does not read it).
"""

from __future__ import annotations

import ast
import math
import random
from collections.abc import Callable
from typing import Any

from . import runtime as R
from .observe import card_visible, remembered, var_visible
from .state import State


def determinize(st: State, player: int | None, rng: random.Random, known: set[int] | None = None,
                reach: list[int] | None = None) -> State:
    """A world ``player`` cannot tell from ``st`` (None: what every player sees, a spectator's).
    ``known``: ``remembered(st, player)``, ``reach``: ``card_reach(st)``, when the caller has them
    already (a search asks once a move)."""
    game = st.game
    prog = game.prog
    n = game.ncards
    if known is None:
        known = remembered(st, player)
    if reach is None:
        reach = card_reach(st)
    s = st.clone()
    s.ev = []
    s.ck_ok = False         # cards dealt anew may meet a check's condition: the next pass is full
    in_sight = [card_visible(st, c, player) for c in range(n)]
    visible = [c in known or in_sight[c] for c in range(n)]
    unseen = [c for c in range(n) if not visible[c]]
    fresh = unseen[:]
    rng.shuffle(fresh)
    sigma = list(range(n))                 # old card → the card now at its position
    k = 0
    for slot, cards in enumerate(st.z):
        if not cards:
            continue
        new = s.z[slot]
        for i, c in enumerate(cards):
            if not visible[c]:
                d = fresh[k]
                k += 1
                sigma[c] = d
                new[i] = d
                s.loc[d] = slot

    def card(v: Any) -> Any:
        return sigma[v] if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n else v

    def by_code(v: Any, code: str) -> Any:
        if v is None:
            return None
        if code == "card":
            return card(v)
        if code in ("card!", "list:card!"):     # cards the rules name (named.py): the same in every world
            return v
        if code.startswith("list:") and ("card" in code or "choices:" in code):   # cards, melds of them…
            return tuple(by_code(x, code[5:]) for x in v)
        if code.startswith("choices:"):
            site = game.sites[int(code[8:])]
            return tuple(option(site, o) for o in v) if v is not None else None
        return v

    def option(site: Any, o: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
        if o is None or o[0] < 0:
            return o
        args = site.options[o[0]].found_args       # a card the rules name (`c in all_cards`) stays
        if not args:
            return o
        out = list(o)
        for i, is_list in args:
            out[i] = tuple(card(x) for x in o[i]) if is_list else card(o[i])
        return tuple(out)

    from ..compile import type_code

    # variables: first what the player cannot know, drawn afresh — a belief then reads the world as
    # the player imagines it, never a real secret
    resampled: set[int] = set()
    for v in prog.vars[5:]:
        width = {"global": 1, "player": game.n, "card": n}[v.scope]
        if v.scope == "card":
            if v.visibility == "hidden":     # not even its card's holder reads it: a guess
                for c in range(n):
                    if not in_sight[c]:
                        s.g[v.slot + sigma[c]] = _sample(v, rng, game, unseen)
                        resampled.add(v.slot + sigma[c])
            elif v.visibility != "back":      # those on the back stay with their places: below
                # a card only remembered (out of sight) may have been given other values since
                _unseen_values(st, s, v.slot, in_sight, sigma, rng, by_code, type_code(v.type))
            for c in range(n):      # a hidden value of a card in sight: the card is seen, not the value
                if in_sight[c] and not var_visible(st, v.slot + c, v.visibility, None, player):
                    s.g[v.slot + c] = _sample(v, rng, game, unseen)
                    resampled.add(v.slot + c)
            continue
        owners = [None] if v.scope == "global" else list(range(game.n))
        hidden_slots = [v.slot + i for i in range(width)
                        if not var_visible(st, v.slot + i, v.visibility, owners[i], player)]
        if v.visibility == "owner" and v.scope == "player":
            values = [st.g[slot] for slot in hidden_slots]   # the others' roles, dealt out anew
            rng.shuffle(values)
            for slot, val in zip(hidden_slots, values, strict=True):
                s.g[slot] = val
        else:
            for slot in hidden_slots:
                s.g[slot] = _sample(v, rng, game, unseen)
        resampled.update(hidden_slots)
    if (game.belief_fn is not None or reach is not None) and unseen:
        _believe(st, s, sigma, unseen, rng, reach)
    # what lies at a position goes with the position: its visibility mask
    for c in unseen:
        s.vis[sigma[c]] = st.vis[c]
    # then the cards found by their place (named.py): the card the world dealt there
    for v in prog.vars[5:]:
        width = {"global": 1, "player": game.n, "card": n}[v.scope]
        code = type_code(v.type)
        if v.scope == "card" and v.visibility == "back":       # written on the back: it stays with the place
            for c in unseen:
                s.g[v.slot + sigma[c]] = st.g[v.slot + c] if v.named else by_code(st.g[v.slot + c], code)
        if v.named:
            continue
        for slot in range(v.slot, v.slot + width):
            if slot in resampled or v.scope == "card" and not in_sight[slot - v.slot]:
                continue
            s.g[slot] = by_code(st.g[slot], code)
    # frames of waiting rules
    for fr in s.frames:
        codes = game.comp.frame_types.get(fr[0])
        if codes is None:
            continue
        for i in range(2, min(len(fr), len(codes))):
            fr[i] = by_code(fr[i], codes[i])
            if codes[i].startswith("choices:") and fr[i] is not None and codes[i - 1] == "list:player":
                fr[i] = _others_redrawn(s, fr, i, player, rng)
    # recorded keys holding cards found by their place (`record top(deck)`): the cards now there
    if s.tcard:
        _recount(s, card)
    # the effect stack
    fields = [(5 + idx, type_code(ty)) for idx, ty in prog.item_fields.values()]
    for item in s.items.values():
        item[2] = card(item[2])
        for i, code in fields:
            item[i] = by_code(item[i], code)
    # the pending decision
    if s.pend is not None:
        site = game.sites[s.pend[0]]
        if s.opts is not None:
            s.opts = [option(site, o) for o in s.opts]  # type: ignore[misc]
        if s.sopts is not None:
            s.sopts = [[option(site, o) for o in os] for os in s.sopts]  # type: ignore[misc]
            assert s.schosen is not None
            for i, q in enumerate(s.pend[1]):
                if q == player:
                    continue
                # the others choose among what their hands in this world allow: their real options,
                # carried over by place, told how many (and where) they had of what the options test
                try:
                    mine = game.site_options(s, site, q)
                except Exception as e:      # a world where the rules fail: the search drops it
                    raise game.rule_error(s, e) from None
                if mine:
                    s.sopts[i] = mine
                if s.schosen[i] is not None:
                    s.schosen[i] = rng.choice(s.sopts[i])       # their choice is unknown: redraw it
    s.rng = rng.getrandbits(64)
    s.seed = -1
    return s


def card_reach(st: State) -> list[int] | None:
    """Where each card may lie, by what every player saw, in a deck dealt from several piles
    (`cards { … in ZONE { … } }`: Citadels' characters and districts): per card a bit per zone slot
    (one bit for all the zones of sequences), set for the pile it starts in and for every zone a move
    or swap took a card to from one that may hold it. A world deals a card only where it may lie (a
    character into no district hand). None when every card starts in one pile."""
    game = st.game
    homes = game.prog.cards.homes
    bases = sorted({z.base for z in homes}) if homes is not None else []
    if homes is None or len(bases) < 2:
        return None
    last = game.static_slots
    masks = [1 << b for b in bases]
    for ev in st.ev:
        if ev[0] == R.EV_MOVE:
            pairs: tuple[tuple[int, int], ...] = ((ev[3], ev[4]),)
        elif ev[0] == R.EV_SWAP:
            pairs = ((ev[5][0], ev[5][1]), (ev[5][1], ev[5][0]))
        else:
            continue
        for src, dst in pairs:
            a, b = 1 << min(src, last), 1 << min(dst, last)
            for i, m in enumerate(masks):
                if m & a:
                    masks[i] = m | b
    index = {b: i for i, b in enumerate(bases)}
    return [masks[index[z.base]] for z in homes]


def _recount(s: State, card: Callable[[Any], Any]) -> None:
    """Deal the cards inside recorded keys anew like every other placed card (``card``: old → the
    card now at its position), so that `occurrences` never tells a world which card was recorded.
    Records of the same key that named their cards stay where they are."""
    tally = dict(s.tally)
    tcard: dict[str, tuple[str, int]] = {}
    for k, (shape, m) in s.tcard.items():
        tally[k] -= m
        if not tally[k]:
            del tally[k]
        new = repr(_reshape(ast.literal_eval(k), shape, card))
        tally[new] = tally.get(new, 0) + m
        tcard[new] = (shape, tcard[new][1] + m if new in tcard else m)
    s.tally = tally
    s.tcard = tcard


def _reshape(v: Any, shape: str, card: Callable[[Any], Any]) -> Any:
    """``v`` with the cards ``shape`` (compile/compiled.py: record_shape) locates mapped by ``card``."""
    if v is None or shape == "-":
        return v
    if shape == "card":
        return card(v)
    if shape.startswith("list:"):       # a list of cards, or of lists of cards (`record [[c]]`)
        return tuple(_reshape(x, shape[5:], card) for x in v)
    parts, depth, start = [], 0, 1            # "(a;(b;c);d)": split at the top level
    for i, ch in enumerate(shape[1:-1], 1):
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            parts.append(shape[start:i])
            start = i + 1
    parts.append(shape[start:-1])
    return tuple(_reshape(x, p, card) for x, p in zip(v, parts, strict=True))


def _unseen_values(st: State, s: State, base: int, visible: list[bool], sigma: list[int], rng: Any,
                   by_code: Callable[[Any, str], Any], code: str) -> None:
    """A per-card variable of the cards the player cannot see: each zone's unseen cards keep that
    zone's values among them, dealt out at random over its unseen places. Values the rules gave every
    card alike (`flag = true` for all) stay as they are, a zone's cards of one owner keep that owner;
    which of a hand's cards carries a value that differs is not told."""
    for cards in st.z:
        hid = [c for c in cards if not visible[c]]
        if not hid:
            continue
        vals = [st.g[base + c] for c in hid]
        if any(x != vals[0] for x in vals):
            rng.shuffle(vals)
        for c, x in zip(hid, vals, strict=True):
            s.g[base + sigma[c]] = by_code(x, code)


def _others_redrawn(s: State, fr: list[Any], i: int, player: int | None, rng: random.Random) -> tuple[Any, ...]:
    """A simultaneous decision's choices while its blocks run (frame slot ``i``, after the players
    who chose and before the block counter): the other players' choices are secret (they are told
    "P1 has chosen"; their blocks show what they did), so each is redrawn among the options the
    world gives them now."""
    site = s.game.sites[int(s.game.comp.frame_types[fr[0]][i][8:])]
    out = list(fr[i])
    for j, q in enumerate(fr[i - 1]):
        if q != player:
            try:
                opts = site.enum(s, fr, q)
            except Exception as e:      # a world where the rules fail: the search drops it
                raise s.game.rule_error(s, e) from None
            if opts:
                out[j] = rng.choice(opts)
    return tuple(out)


def _sample(v: Any, rng: random.Random, game: Any, unseen: list[int]) -> Any:
    """A value for a variable the player cannot see, from its type alone."""
    kind = v.type.kind
    if kind == "player":
        return rng.randrange(game.n)
    if kind == "enum":
        return rng.randrange(len(game.enum_members[v.type.name]))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "card":
        return rng.choice(unseen) if unseen else rng.randrange(game.ncards)      # wherever the world put it
    return v.init


BELIEF_PASSES = 4   # rounds of repair before a world is kept as it is
BELIEF_SWEEPS = 2   # weighted beliefs: rounds over the dealt places


def _believe(st: State, s: State, sigma: list[int], unseen: list[int], rng: random.Random,
             reach: list[int] | None) -> None:
    """The ruleset's ``belief`` (a function of a card: may a world deal it where it lies?), and where
    cards may lie at all (``reach``, card_reach): a card dealt where they say no swaps places with
    another dealt card, both then believed, tried in a random order; a few rounds, after which the
    world is kept as it is. The `back` variables stay with the places (they are what the belief
    reads: a clue on a card back)."""
    game = st.game
    ok_fn = game.belief_fn
    last = game.static_slots
    backs = [v.slot for v in game.prog.vars[5:] if v.scope == "card" and v.visibility == "back"]
    at = {c: (st.loc[c], st.z[st.loc[c]].index(c)) for c in unseen}     # each dealt place, by the real card
    unseen = sorted(unseen, key=at.__getitem__)     # the places in their order, not the real cards' (a secret)
    for c in unseen:
        for b in backs:
            s.g[b + sigma[c]] = st.g[b + c]

    def log_weight(d: int) -> float:
        """The card's weight where it lies, as a logarithm (-inf: never; a whole number of any size)."""
        if reach is not None and not reach[d] >> min(s.loc[d], last) & 1:
            return -math.inf
        if ok_fn is None:
            return 0.0
        try:
            w = ok_fn(s, d)
        except Exception:       # a belief that cannot be read in this world does not forbid it
            return 0.0
        if w is True or w is False or w is None:
            return 0.0 if w is True else -math.inf
        return math.log(w) if w > 0 else -math.inf

    def ok(d: int) -> bool:
        return log_weight(d) > -math.inf

    def swap(c1: int, c2: int) -> None:
        d1, d2 = sigma[c1], sigma[c2]
        (z1, i1), (z2, i2) = at[c1], at[c2]
        s.z[z1][i1], s.z[z2][i2] = d2, d1
        s.loc[d2], s.loc[d1] = z1, z2
        sigma[c1], sigma[c2] = d2, d1
        for b in backs:
            s.g[b + d1], s.g[b + d2] = s.g[b + d2], s.g[b + d1]

    order = unseen[:]
    for _ in range(BELIEF_PASSES):
        bad = [c for c in unseen if not ok(sigma[c])]
        if not bad:
            break
        for c in bad:
            if ok(sigma[c]):
                continue
            others = [b for b in bad if b != c]     # tried first: one swap may mend both
            rng.shuffle(others)
            rng.shuffle(order)
            for c2 in (*others, *order):
                if c2 == c:
                    continue
                was = ok(sigma[c2])
                swap(c, c2)
                if ok(sigma[c]) + ok(sigma[c2]) > was:   # fewer misplaced: a token of one pile dealt into
                    break                               # another's goes on from there (a cycle of three)
                swap(c, c2)
    if game.belief_weighted and len(unseen) > 1:
        _weigh(unseen, at, sigma, log_weight, swap, rng)


def _weigh(unseen: list[int], at: dict[int, tuple[int, int]], sigma: list[int], lw: Callable[[int], float],
           swap: Callable[[int, int], None], rng: random.Random) -> None:
    """A weighted belief: the world's likelihood is the product of its cards' weights where they lie.
    Each dealt place in turn (a random order, BELIEF_SWEEPS times) keeps its card or trades it with
    a random place of another zone, the zone drawn in proportion to the world each choice makes
    times the zone's number of places (a heat bath over zones): a card whose weight depends on where
    it lies ends in each zone about as often as the weights say, on a big deck too. Weights are
    compared as logarithms, so 4e300 against 1e300 is 4 against 1; a weight 0 is never chosen."""
    zones: dict[int, list[int]] = {}
    for c in unseen:
        zones.setdefault(at[c][0], []).append(c)
    if len(zones) < 2:
        return
    order = unseen[:]
    for _ in range(BELIEF_SWEEPS):
        rng.shuffle(order)
        for c in order:
            here = at[c][0]
            choices: list[tuple[float, int | None]] = [(lw(sigma[c]) + math.log(len(zones[here])), None)]
            for z, places in zones.items():
                if z == here:
                    continue
                c2 = places[int(rng.random() * len(places))]
                base = lw(sigma[c2])
                swap(c, c2)
                after = lw(sigma[c]) + lw(sigma[c2])
                swap(c, c2)
                choices.append((after - base + math.log(len(places)) if base > -math.inf else after, c2))
            top = max(lw for lw, _ in choices)
            if top == -math.inf:
                continue        # nowhere it may lie: kept as it is
            ps = [math.exp(lw - top) for lw, _ in choices]
            r = rng.random() * sum(ps)
            for pr, (_, other) in zip(ps, choices, strict=True):
                r -= pr
                if r < 0:
                    if other is not None:
                        swap(c, other)
                    break

