"""Primitive operations that compiled rules call: moving cards, turn order, randomness, results,
the effect stack. Nothing here knows any game; every function works on the plain-data ``State``.

Events are tuples ``(kind, span_id, …)``; ``EV`` names the kinds. Generated code raises
``GameOver`` to end the game and ``Goto`` to change phase from any depth.
"""

from __future__ import annotations

import math
import sys
from itertools import combinations as _combinations  # noqa: F401 (used by generated code)
from typing import TYPE_CHECKING, Any

from ..words import say

if TYPE_CHECKING:
    from .state import State

ALL = (1 << 62) - 1          # visibility mask "everyone" (a face-up card)
M64 = (1 << 64) - 1

# proc results
DONE, SUSPEND, CALL = 0, 1, 2

# event kinds
(EV_ACT, EV_MOVE, EV_SHUFFLE, EV_TURN, EV_PHASE, EV_PUSH, EV_RESOLVE, EV_NEGATE, EV_FIZZLE, EV_FINISH,
 EV_WIN, EV_LOSE, EV_END, EV_LOG, EV_TELL, EV_REVEAL, EV_REVEALVAR, EV_CHECK, EV_SWAP, EV_MODIFY, EV_CAP,
 EV_INSERT, EV_REVERSE, EV_REMOVEZONE, EV_HIDEVAR, EV_REJOIN, EV_HIDE) = range(27)
EV_NAMES = ["act", "move", "shuffle", "turn", "phase", "push", "resolve", "negate", "fizzle", "finish", "win",
            "lose", "end", "log", "tell", "reveal", "reveal_var", "check", "swap", "modify", "cap", "insert",
            "reverse", "remove_zone", "hide_var", "rejoin", "hide"]

# outcome codes kept in State.g
NO_OUTCOME, WIN, LOSE, DRAW = 0, 1, 2, 3
OUTCOME_NAMES = {NO_OUTCOME: None, WIN: "win", LOSE: "lose", DRAW: "draw"}


class GameOver(Exception):
    """Raised by a rule that ends the game; the driver stops running frames."""


class Goto(Exception):
    def __init__(self, phase: int) -> None:
        super().__init__(phase)
        self.phase = phase


class RuleFailure(Exception):
    """A rule asked for something impossible; carries the span id of the statement."""

    def __init__(self, message: str, span: int, code: str = "E601") -> None:
        super().__init__(message)
        self.span = span
        self.code = code


# a loop that counts (repeat N, for over a range) is refused past this many rounds, as a while is
LOOP_MAX = 1_000_000


def _many(n: Any, sp: int) -> Any:
    """A repeat count or a range looped over, as it is: one of a billion rounds would run for hours
    without a word (a count gone wrong, 1..1000000000 for 1..10), so it is a rule failure."""
    rounds = n if isinstance(n, int) else n.stop - n.start     # (len() of a huge range overflows)
    if rounds > LOOP_MAX:
        raise RuleFailure(f"this loop would run {rounds:,} times: a loop runs at most {LOOP_MAX:,} times", sp)
    return n


# ------------------------------------------------------------------ randomness
def _rng(st: State) -> int:
    """splitmix64: a 64-bit integer state kept in the State, so clones and saves replay exactly."""
    s = (st.rng + 0x9E3779B97F4A7C15) & M64
    st.rng = s
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _below(st: State, n: int) -> int:
    return _rng(st) % n


def _random(st: State, seq: Any) -> Any:
    if not seq:
        return None
    return seq[_rng(st) % len(seq)]


def _shuffle(st: State, z: int, sp: int) -> None:
    """Fisher–Yates; the swaps draw from a 64-bit LCG seeded by one splitmix64 output (fast and
    deterministic; the state's generator advances by one step per shuffle). Whoever had seen a card
    of the zone (revealed to them: a peek at the top three) no longer knows where it is; face-up
    cards stay face up."""
    cards = st.z[z]
    vis = st.vis
    for c in cards:
        if vis[c] and vis[c] != ALL:
            vis[c] = 0
    s = _rng(st)
    for i in range(len(cards) - 1, 0, -1):
        s = (s * 6364136223846793005 + 1442695040888963407) & M64
        j = (s >> 32) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    if st.game.stacked and z in st.game.stacked:
        _stack(st, z, False)
    st.ev.append((EV_SHUFFLE, sp, z))


def _stack(st: State, z: int, gather: bool) -> None:
    """A scenario's stacked deck (``Game.stacked``): its cards for zone ``z`` on top of it (the first
    listed topmost) and at its bottom (the first listed bottommost), the others in the order they
    lie. ``gather``: before setup, fetch them from wherever they start; after a shuffle, only those
    still in ``z`` (a card dealt from it is not called back)."""
    top, bottom = st.game.stacked[z]
    named = set(top) | set(bottom)
    if gather:
        for c in named:
            if st.loc[c] != z:
                st.z[st.loc[c]].remove(c)
                st.loc[c] = z
                st.vis[c] = 0
                st.z[z].append(c)
    cards = st.z[z]
    here = set(cards)
    cards[:] = [c for c in bottom if c in here] + [c for c in cards if c not in named] \
        + [c for c in reversed(top) if c in here]


# ------------------------------------------------------------------ cards and zones
# Events that name cards carry a mask of the players who could see those cards when the event
# happened (the zones involved and the cards' face-up/revealed state): logs are rendered with
# that mask, so what became visible later never rewrites history.
def _zmask(st: State, slot: int) -> int:
    """Players who see the cards of a zone slot (by the zone's visibility)."""
    game = st.game
    if slot < game.static_slots:
        return game.zone_mask[slot]  # type: ignore[no-any-return]
    seq, owner = st.dyn[slot - game.static_slots]
    return game.mask_for(game.seq_decl[seq], owner)  # type: ignore[no-any-return]


def _card_mask(st: State, c: int) -> int:
    return _zmask(st, st.loc[c]) | st.vis[c]

def _top(cards: list[int]) -> int | None:
    return cards[-1] if cards else None


def _bottom(cards: list[int]) -> int | None:
    return cards[0] if cards else None


def _topn(cards: list[int], n: int) -> tuple[int, ...]:
    return tuple(reversed(cards[-n:])) if n > 0 else ()


def _mv(st: State, c: int | None, dst: int, under: bool, face: int, sp: int, keep: bool = False) -> None:
    """Move one card. ``face``: 1 face up, 0 face down/default (a move forgets earlier reveals).
    ``keep``: under a secret's control, logged even where it lies already (body.py's secret_rules)."""
    if c is None:
        raise RuleFailure("there is no card to move (the zone is empty or the value is none)", sp)
    src = st.loc[c]
    cards = st.z[src]
    if not keep and src == dst and (cards[0] if under else cards[-1]) == c and _card_mask(st, c) == ALL:
        _stay(st, c, face, sp)
        return
    _mv1(st, c, src, dst, under, face, sp)


def _mv1(st: State, c: int, src: int, dst: int, under: bool, face: int, sp: int) -> None:
    """Move one card from ``src``, logged even where it already lies (``_mvat`` places it after)."""
    cards = st.z[src]
    game = st.game
    static = game.static_slots
    if dst >= static and dst not in st.sq[st.dyn[dst - static][0]]:
        _gone(dst, sp)
    mask = (game.zone_mask[src] if src < static else _zmask(st, src)) | \
        (game.zone_mask[dst] if dst < static else _zmask(st, dst)) | st.vis[c]
    if cards[-1] == c:
        cards.pop()
    else:
        cards.remove(c)
    if under:
        st.z[dst].insert(0, c)
    else:
        st.z[dst].append(c)
    st.loc[c] = dst
    st.vis[c] = ALL if face == 1 else 0
    if src >= static or dst >= static:      # positions in sequences change later: keep them
        st.ev.append((EV_MOVE, sp, c, src, dst, mask | st.vis[c], (_seq_pos(st, src), _seq_pos(st, dst))))
    else:
        st.ev.append((EV_MOVE, sp, c, src, dst, mask | st.vis[c]))
    if src >= static and not st.z[src]:
        _close_up(st, src, sp)


def _stay(st: State, c: int, face: int, sp: int) -> None:
    """A card everyone sees moved where it already lies (the top of its own zone; the bottom,
    moved under it) changes no place: no move is logged. (One that someone does not see is moved
    and logged all the same: the log's silence would tell them which card a hidden choice took.)
    What the move does to who sees it, it still does, as `hide` or `reveal … ` would and with their
    events: it forgets reveals, or turns it face up."""
    new = ALL if face == 1 else 0
    old = st.vis[c]
    if old != new:
        st.vis[c] = new
        st.ev.append((EV_REVEAL, sp, c, ALL) if new else (EV_HIDE, sp, c, old))


def _stays(st: State, cards: tuple[int, ...], dst: int, under: bool, face: int, sp: int) -> bool:
    """Cards everyone sees moved onto their own zone in the order they lie there, as its top ones
    (its bottom ones, moved under it): `move pile to pile`. Nothing changes place; True when so
    (_stay each)."""
    z = st.z[dst]
    k = len(cards)
    if not k or k > len(z) or tuple(z[:k] if under else z[len(z) - k:]) != cards or \
            any(_card_mask(st, c) != ALL for c in cards):
        return False
    for c in cards:
        _stay(st, c, face, sp)
    return True


def _tops(st: State) -> None:
    """The piles declared `top up` after cards moved: the top card face up (turned up where a
    card was taken off it: everyone is told), the cards under it face down (everyone saw them go
    under, and remembers them there)."""
    vis = st.vis
    for slot in st.game.top_slots:
        z = st.z[slot]
        if not z:
            continue
        c = z[-1]
        if vis[c] != ALL:
            vis[c] = ALL
            st.ev.append((EV_REVEAL, -1, c, ALL))
        for d in z[:-1]:
            if vis[d] == ALL:
                vis[d] = 0


def _unpeek(st: State, cards: Any, keep: int | None = None, dest: int | None = None, face: int = 0) -> None:
    """Cards picked in secret are about to move (secret_places.py): whoever does not see their zone
    cannot tell which cards leave it, so forgets what peeks told them of every card there. A card
    face up stays known: everyone sees it go. ``keep``: the player who chose in secret, who knows.
    ``dest``, ``face``: where they go and whether face up — whoever sees them land there (a partner
    handed a card from the hand they peeked at) sees which cards left, and keeps the rest; but a ♠A
    landing does not say which ♠A left: one who had not peeked at it forgets one ♠A they had, so
    that either copy leaves them the same."""
    vis = st.vis
    lands = 0 if dest is None else ALL if face else _zmask(st, dest)
    game = st.game
    for c in cards:
        if c is None or vis[c] == ALL:
            continue
        src = st.loc[c]
        sees = _zmask(st, src) | (1 << keep if keep is not None else 0)
        blind = lands & ~sees & ~vis[c] if c in game.copies else 0     # saw a copy land they had not peeked at
        for d in st.z[src]:
            if vis[d] != ALL:
                vis[d] &= sees | lands
        for q in range(game.n):
            if blind >> q & 1:
                twin = next((d for d in st.z[src] if d not in cards and vis[d] != ALL and vis[d] >> q & 1
                             and game.faces[d] == game.faces[c]), None)
                if twin is not None:
                    vis[twin] &= ~(1 << q)


def _unpeek_simul(st: State, cards: Any, who: int, later: Any, zones: int) -> int:
    """``_unpeek`` in the block of ``who``'s option of a simultaneous decision: the moved cards are
    known to ``who`` alone (and whoever sees their zone), but the choosers whose blocks run ``later``
    keep their peeks at the rest of the zone until their own block has run (``_forget_after``), so
    that each chooser's own moves read as theirs, not only the first's. ``zones``: a bit per zone
    slot secret cards left in this decision so far; returned with these cards' zones added."""
    vis = st.vis
    spare = 0
    for q in later:
        spare |= 1 << q
    for c in cards:
        if c is None or vis[c] == ALL:
            continue
        src = st.loc[c]
        sees = _zmask(st, src) | 1 << who
        vis[c] &= sees
        for d in st.z[src]:
            if d != c and vis[d] != ALL:
                vis[d] &= sees | spare
        zones |= 1 << src
    return zones


def _forget_after(st: State, who: int, zones: int) -> None:
    """After ``who``'s block in a simultaneous decision: ``who`` forgets their peeks at the zones
    that the blocks before it took secret cards from (``zones``), as the others did then
    (``_unpeek_simul``)."""
    vis = st.vis
    drop = ~(1 << who)
    while zones:
        src = zones.bit_length() - 1
        zones ^= 1 << src
        if not _zmask(st, src) >> who & 1:
            for d in st.z[src]:
                if vis[d] != ALL:
                    vis[d] &= drop


def _forget_rest(st: State, players: Any, ix: int, before: int, zones: int) -> None:
    """A simultaneous decision's block left by `break`, `continue`, `goto` or `end game`: its chooser
    forgets as after their block, and the choosers whose blocks will not run forget every zone taken
    from."""
    if before:
        _forget_after(st, players[ix - 1], before)
    if zones:
        for q in players[ix:]:
            _forget_after(st, q, zones)


def _mvat(st: State, cards: Any, dst: int, depth: int, face: int, sp: int, keep: bool = False) -> None:
    """`move … to Z at N`: the cards go onto Z as `move … to Z` puts them (the last one topmost), and
    the moved block then sits N cards down from the top (0: on top; past the bottom: at the bottom).
    How deep is told to nobody who cannot see Z (Exploding Kittens: the Kitten put back secretly):
    for them the move is of "a card", and peeks at Z's other cards are forgotten (the block slipped in
    among them), as a shuffle forgets them. A block everyone sees that lies there already, in its
    order, changes no place and logs no move (``_stay``), as `move … to Z` on top does — unless
    ``keep``: under a secret's control, where staying put is the secret."""
    moved = tuple(dict.fromkeys(cards))     # the compiler passes one card as a 1-tuple
    if None in moved:
        raise RuleFailure("there is no card to move (the value is none)", sp)
    z = st.z[dst]
    k = len(moved)
    if not keep and all(st.loc[c] == dst for c in moved):
        at = max(len(z) - k - max(depth, 0), 0)
        if tuple(z[at:at + k]) == moved and all(_card_mask(st, c) == ALL for c in moved):
            for c in moved:
                _stay(st, c, face, sp)
            return
    first = len(st.ev)
    for c in moved:     # logged even when on top already: the block may yet go down (and peeks go)
        _mv1(st, c, st.loc[c], dst, False, face, sp)
    block = z[len(z) - k:]
    del z[len(z) - k:]
    at = max(len(z) - max(depth, 0), 0)
    z[at:at] = block
    game = st.game
    sees = game.zone_mask[dst] if dst < game.static_slots else _zmask(st, dst)
    for i in range(first, len(st.ev)):      # the moves: seen by whoever sees Z (or the card face up)
        ev = st.ev[i]
        if ev[0] == EV_MOVE:    # marked "at": who did not see it cannot place Z's cards any more
            st.ev[i] = (*ev[:5], sees | st.vis[ev[2]], ev[6] if len(ev) > 6 else (None, None), "at")
    vis = st.vis
    for c in z:
        if vis[c] and vis[c] != ALL and c not in block:
            vis[c] = 0


def _plain_key(k: Any) -> Any:
    """A ranking key as written (its parts, not the (is there, value) pairs it is sorted by)."""
    return tuple(x[1] if x[0] else None for x in k) if isinstance(k, tuple) else k


def _seq_pos(st: State, slot: int) -> int | None:
    """A zone's place in its sequence now (None: not in a sequence; -1: no longer in it)."""
    static = st.game.static_slots
    if slot < static:
        return None
    row = st.sq[st.dyn[slot - static][0]]
    return row.index(slot) if slot in row else -1


def _no_card(sp: int) -> None:
    raise RuleFailure("there is no card to move (the zone is empty or the value is none)", sp)


def _mvall(st: State, cards: Any, dst: int, under: bool, face: int, sp: int, keep: bool = False) -> None:
    """Move cards one by one; moved ``under`` a pile they keep their order beneath it. ``keep``: as
    ``_mv``'s."""
    cards = tuple(cards)
    if not keep and _stays(st, cards, dst, under, face, sp):
        return
    order = reversed(cards) if under else cards
    static = st.game.static_slots
    if dst >= static:
        for c in order:
            _mv(st, c, dst, under, face, sp, keep)
        return
    z, loc, vis, ev, zm = st.z, st.loc, st.vis, st.ev, st.game.zone_mask
    target = z[dst]
    new = ALL if face == 1 else 0
    for c in order:
        if c is None:
            raise RuleFailure("there is no card to move (the value is none)", sp)
        src = loc[c]
        if src >= static:           # out of a zone of a sequence: names kept, it may close up
            _mv(st, c, dst, under, face, sp, keep)
            continue
        cs = z[src]
        if cs[-1] == c:
            cs.pop()
        else:
            cs.remove(c)
        if under:
            target.insert(0, c)
        else:
            target.append(c)
        loc[c] = dst
        ev.append((EV_MOVE, sp, c, src, dst, zm[src] | zm[dst] | vis[c] | new))
        vis[c] = new


def _deal(st: State, n: int | None, src: int, base: int, players: Any, sp: int, packets: bool = False) -> None:
    """One card at a time around ``players``, n rounds, from the top of ``src``; n None (``deal
    all``): until ``src`` is empty, the first players getting one more when it does not divide.
    ``packets`` (``deal … in packets``): the same cards each, but each player in turn takes theirs at
    once (a packet of n off the top), as games that deal 3 then 2 do."""
    z = st.z
    pile = z[src]
    loc, vis, ev = st.loc, st.vis, st.ev
    src_mask = _zmask(st, src)
    masks = {p: src_mask | _zmask(st, base + p) for p in players}
    every = n is None
    if n is not None and n < 0:
        raise RuleFailure(f"deal {n} cards each: a count below 0", sp)
    if n is None:
        n = -(-len(pile) // len(players)) if players else 0
    if packets:     # player by player, n (or their share) each
        k = len(players)
        share = [n] * k if not every else [len(pile) // k + (i < len(pile) % k) for i in range(k)]
        rounds: Any = [[p for p, m in zip(players, share, strict=True) for _ in range(m)]]
    else:           # round by round, one card each
        rounds = (players for _ in range(n))
    for order in rounds:
        for p in order:
            if not pile:
                if every:
                    break
                raise RuleFailure(f"deal ran out of cards ({n} each to {len(players)} players)", sp)
            c = pile.pop()
            dst = base + p
            z[dst].append(c)
            loc[c] = dst
            ev.append((EV_MOVE, sp, c, src, dst, masks[p] | vis[c]))
            vis[c] = 0
    if src >= st.game.static_slots and not pile:
        _close_up(st, src, sp)


def _swap(st: State, a: int | None, b: int | None, sp: int) -> None:
    """Exchange the places (zone and position) of two cards."""
    if a is None or b is None:
        raise RuleFailure("swap needs two cards", sp)
    za, zb = st.loc[a], st.loc[b]
    la, lb = st.z[za], st.z[zb]
    ia, ib = la.index(a), lb.index(b)
    both = _zmask(st, za) | _zmask(st, zb)
    # the zones the cards lay in, as a move's event names them (places in sequences as they are now)
    st.ev.append((EV_SWAP, sp, a, b, (both | st.vis[a]) & (both | st.vis[b]), (za, zb),
                  (_seq_pos(st, za), _seq_pos(st, zb))))
    la[ia], lb[ib] = b, a
    st.loc[a], st.loc[b] = zb, za
    st.vis[a] = st.vis[b] = 0          # like a move, a swap forgets earlier reveals


def _reveal(st: State, cards: Any, mask: int, sp: int, to: bool = False) -> None:
    """Show cards to the players of ``mask``. Shown to everyone (no `to`), a card every player sees
    already is not told again: `reveal row[p]` turns up the rest of a row. Shown ``to`` some players,
    every card is told, seen before or not: which card it was may be the news (Cluedo's "show one")."""
    if cards is None:
        raise RuleFailure("there is no card to reveal", sp)
    vis = st.vis
    for c in (cards,) if isinstance(cards, int) else tuple(cards):
        if to or vis[c] != ALL:
            vis[c] |= mask
            st.ev.append((EV_REVEAL, sp, c, mask))


def _hide(st: State, cards: Any, sp: int = -1) -> None:
    """Forget face up and reveals; the players who saw a card see it go face down (an event)."""
    for c in (cards,) if isinstance(cards, int) else tuple(cards):
        if st.vis[c]:
            st.ev.append((EV_HIDE, sp, c, st.vis[c]))
        st.vis[c] = 0


def _mask(players: Any) -> int:
    if isinstance(players, int):
        return 1 << players
    m = 0
    for p in players:
        m |= 1 << p
    return m


def _owner(st: State, z: int) -> int | None:
    game = st.game
    if z < game.static_slots:
        return game.zone_owner[z]
    return st.dyn[z - game.static_slots][1]


def _insert(st: State, seq: int, where: bool | tuple[bool, int], sp: int) -> int:
    """A new empty zone in a sequence: ``where`` True at the front (index 0), False at the back,
    (after, zone) just after or before a zone of the sequence (a split hand beside its hand)."""
    at = _insert_at(st, seq, where, sp)
    slot = len(st.z)
    st.z.append([])
    st.dyn.append((seq, st.game.seq_owner[seq]))
    _put_in(st, seq, slot, at, where, sp)
    return slot


def _insert_zone(st: State, seq: int, slot: int, where: bool | tuple[bool, int], sp: int) -> None:
    """Put an existing zone into a sequence (a deck that is itself a battle line, say)."""
    if slot in st.sq[seq]:
        raise RuleFailure("that zone is already in this sequence", sp)
    _put_in(st, seq, slot, _insert_at(st, seq, where, sp), where, sp)


def _insert_at(st: State, seq: int, where: bool | tuple[bool, int], sp: int) -> int:
    """The index a zone inserted ``where`` takes in the sequence."""
    row = st.sq[seq]
    if isinstance(where, bool):
        return 0 if where else len(row)
    after, beside = where
    if beside not in row:
        raise RuleFailure(f"insert … {'after' if after else 'before'} a zone that is not in this sequence", sp)
    return row.index(beside) + after


def _put_in(st: State, seq: int, slot: int, at: int, where: bool | tuple[bool, int], sp: int) -> None:
    """The zone into the row; the event tells where (beside a zone: which one, and its place then)."""
    told = where if isinstance(where, bool) else (where[0], where[1], st.sq[seq].index(where[1]))
    st.sq[seq].insert(at, slot)
    st.ev.append((EV_INSERT, sp, seq, slot, told))


def _gone(slot: int, sp: int) -> None:
    """A card sent to a zone that has left its sequence would be in no view, screen or count of
    the sequence: a rule mistake, not a place."""
    raise RuleFailure("this zone left its sequence when its last card went (a zone of a sequence "
                      "closes up when it empties): make a new one with `insert SEQ back as NAME`", sp)


def _close_up(st: State, slot: int, sp: int) -> None:
    """A zone of a sequence that empties leaves it: the zones behind move up."""
    seq = st.dyn[slot - st.game.static_slots][0]
    if slot in st.sq[seq]:
        st.sq[seq].remove(slot)
        st.ev.append((EV_REMOVEZONE, sp, seq, slot))


# ------------------------------------------------------------------ grids
def _cell(base: int, w: int, h: int, x: int, y: int, sp: int = -1) -> int:
    if not (0 <= x < w and 0 <= y < h):
        raise RuleFailure(f"square ({x}, {y}) is off the {w}×{h} grid", sp)
    return base + y * w + x


def _cellsq(base: int, w: int, h: int, sq: tuple[int, int] | None, sp: int = -1) -> int:
    if sq is None:
        raise RuleFailure("no square given (none)", sp)
    return _cell(base, w, h, sq[0], sq[1], sp)


_NOCARD = (None,)   # `(cell or _NOCARD)[-1]`: the top card of a grid cell, or None (inlined card_at)


def _cell_card(z: list[list[int]], base: int, w: int, sq: tuple[int, int] | None) -> int | None:
    if sq is None:
        return None
    cell = z[base + sq[1] * w + sq[0]]
    return cell[-1] if cell else None


_PATTERNS = (((1, 0), (-1, 0), (0, 1), (0, -1)),
             ((1, 1), (1, -1), (-1, 1), (-1, -1)),
             ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)))


_NEIGHBORS: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], ...]] = {}   # boards are small: memoized


def _neighbors(w: int, h: int, sq: tuple[int, int] | None, pattern: int) -> tuple[tuple[int, int], ...]:
    if sq is None:
        return ()
    x, y = sq
    key = (w, h, x, y, pattern)
    got = _NEIGHBORS.get(key)
    if got is None:
        got = _NEIGHBORS[key] = tuple((x + dx, y + dy) for dx, dy in _PATTERNS[pattern]
                                      if 0 <= x + dx < w and 0 <= y + dy < h)
    return got


def _manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _square_of(st: State, c: int | None) -> tuple[int, int] | None:
    if c is None:
        return None
    return st.game.cell_square.get(st.loc[c])


# ------------------------------------------------------------------ players
def _next(st: State, p: int, n: int) -> int:
    """The player n steps from p in the current direction, skipping players who are out."""
    g = st.g
    count = st.game.n
    if n == 1:
        q = (p + g[1]) % count
        if not g[2 + q]:
            return q
    step = g[1] if n > 0 else -g[1]
    k = abs(n)
    q = p
    guard = count * (k + 1)
    while k and guard:
        q = (q + step) % count
        guard -= 1
        if not g[2 + q]:
            k -= 1
    return q


def _active(st: State) -> tuple[int, ...]:
    g = st.g
    return tuple(p for p in range(st.game.n) if not g[2 + p])


_SEATS: dict[tuple[Any, ...], tuple[int, ...]] = {}
_RESPONDERS: dict[tuple[Any, ...], tuple[int, ...]] = {}


def _seats_from(st: State, p: int) -> tuple[int, ...]:
    """Players still in, in turn order from p (p first if still in): memoised on the seating."""
    g = st.g
    count = st.game.n
    key = (p, g[1], *g[2:2 + count])    # (start, direction, who is out)
    seats = _SEATS.get(key)
    if seats is None:
        seats = _SEATS[key] = tuple(q for q in ((p + g[1] * i) % count for i in range(count)) if not g[2 + q])
    return seats


def _others(st: State, p: int) -> tuple[int, ...]:
    return tuple(q for q in _seats_from(st, p) if q != p)


def _responders(st: State, controller: int | None) -> tuple[int, ...]:
    """Default window order: active players in turn order after the controller, the controller last."""
    if controller is None:
        return _active(st)
    g = st.g
    count = st.game.n
    key = (controller, g[1], *g[2:2 + count])
    seats = _RESPONDERS.get(key)
    if seats is None:
        seats = _RESPONDERS[key] = tuple(q for q in ((controller + g[1] * i) % count for i in range(1, count + 1))
                                         if not g[2 + q])
    return seats


def _first_answer(st: State, asked: tuple[int, ...]) -> int | None:
    """A simultaneous window's outcome: the first of ``asked`` (in responder order) whose choice is
    not a pass, its choice made ``st.choice``; None when all passed. Each choice was logged as a
    secret act; the one that counts is announced (its act again, marked public — its 7th element —
    appended), the
    others stay secret, as unspoken answers at a table do."""
    for q, c in zip(asked, st.choice, strict=True):
        if c[0] != -1:
            st.choice = c
            ev = st.ev
            for j in range(len(ev) - 1, max(len(ev) - len(asked), 0) - 1, -1):
                e = ev[j]
                if e[0] == EV_ACT and e[2] == q:
                    ev.append((*e[:6], True, *e[7:]))
                    break
            return q
    return None


# ------------------------------------------------------------------ lists and keys
def _index_of(seq: Any, x: Any) -> int:
    try:
        return list(seq).index(x)
    except ValueError:
        return -1


def _first_by(xs: Any, key: Any) -> tuple[Any, ...]:
    """`distinct x in L by KEY`: the first of L for each KEY, in L's order."""
    seen: set[Any] = set()
    out = []
    for x in xs:
        k = key(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return tuple(out)


def _none_last(k: Any) -> Any:
    """A sort key in which none comes after every value, also inside a tuple (`sorted … by`, `show …
    sorted by`): Python cannot compare none with a value."""
    if k is None:
        return (1, 0)
    if isinstance(k, tuple):
        return (0, tuple(_none_last(x) for x in k))
    return (0, k)


def _of_a_kind(seq: Any) -> int:
    """How many times the most frequent element occurs (0 for an empty list)."""
    s = seq if isinstance(seq, list | tuple) else tuple(seq)
    u = set(s)
    d = len(s) - len(u)             # repeats: none (all different) or one (one pair) need no counting,
    if d <= 1:                      # the usual cases of a hand in a state-based check
        return d + 1 if s else 0
    return max(map(s.count, u))


def _uniq(values: Any) -> Any:
    """A decision's binder source with each value once: a legal action is offered once however many
    times its source lists it (`n in [1, 1, 2]`), so a random seat does not pick it twice as often."""
    try:
        return dict.fromkeys(values)
    except TypeError:       # unhashable values (lists): compared one by one
        out: list[Any] = []
        for v in values:
            if v not in out:
                out.append(v)
        return out


def _distinct(face: tuple[int, ...], cards: Any) -> tuple[Any, ...]:
    """The cards with a face not seen before (``face``: card → its first identical copy)."""
    seen: set[int] = set()
    return tuple(c for c in cards if c is None or face[c] not in seen and not seen.add(face[c]))  # type: ignore[func-returns-value]


def _distinct_lists(face: tuple[int, ...], lists: Any) -> tuple[Any, ...]:
    """The card lists whose multiset of faces was not seen before."""
    seen: set[tuple[int, ...]] = set()
    out = []
    of = face.__getitem__
    for cs in lists:
        try:
            key = tuple(sorted(map(of, cs)))
        except TypeError:       # a none among them names no face
            key = tuple(sorted(face[c] for c in cs if c is not None))
        if key not in seen:
            seen.add(key)
            out.append(cs)
    return tuple(out)


def _replaced(seq: Any, i: int, x: Any) -> tuple[Any, ...]:
    out = list(seq)
    out[i] = x          # a position past the end fails as reading it does
    return tuple(out)


def _remove(seq: Any, x: Any) -> tuple[Any, ...]:
    out = list(seq)
    if x in out:
        out.remove(x)
    return tuple(out)


def _key(v: Any) -> str:
    return repr(v)


def _record(st: State, v: Any) -> None:
    k = repr(v)
    st.tally[k] = st.tally.get(k, 0) + 1


def _record_cards(st: State, v: Any, shape: str) -> None:
    """Record a key holding cards found by their place; ``shape`` (compile/compiled.py: record_shape) says
    where, so that a bot's sampled world can deal them anew; ``tcard`` counts these records
    apart from those of the same value found otherwise (a card the rules name)."""
    k = repr(v)
    st.tally[k] = st.tally.get(k, 0) + 1
    st.tcard[k] = (shape, st.tcard[k][1] + 1 if k in st.tcard else 1)


# ------------------------------------------------------------------ results
def _free_places(st: State) -> list[int]:
    """Places nobody holds. ``m`` players sharing place x hold x … x+m-1 (1, 1, 3: competition
    ranking, as `end game ranking` shares)."""
    n = st.game.n
    held: dict[int, int] = {}
    for x in st.g[2 + n:2 + 2 * n]:
        if x:
            held[x] = held.get(x, 0) + 1
    taken = {y for x, m in held.items() for y in range(x, x + m)}
    return [x for x in range(1, n + 1) if x not in taken]


def _finish(st: State, who: Any, sp: int, last: bool = False) -> None:
    """``who`` (a player, or players sharing one place) leave play with the best free place, or
    with ``last`` the worst (ranked below everyone still playing)."""
    g = st.g
    n = st.game.n
    players = [q for q in dict.fromkeys((who,) if isinstance(who, int) else who) if q is not None and not g[2 + n + q]]
    if not players:
        return
    free = _free_places(st)
    place = free[-len(players)] if last else free[0]
    for p in players:
        g[2 + p] = True
        g[2 + n + p] = place
        st.ev.append((EV_FINISH, sp, p, place))


def _sit_out(st: State, who: Any, sp: int) -> None:
    """``who`` leave play without a place (a round's knock-out): turns and `active` pass them by
    until `rejoin`; at the end of the game they are ranked as players still in it."""
    g = st.g
    for p in dict.fromkeys((who,) if isinstance(who, int) else who):
        if p is not None and not g[2 + p]:
            g[2 + p] = True
            st.ev.append((EV_FINISH, sp, p, 0))


def _rejoin(st: State, p: int, sp: int) -> None:
    """``p``, who finished, is back in play and gives up their place (a game of several hands)."""
    g = st.g
    n = st.game.n
    if not g[2 + p] or g[2 + 3 * n + p]:    # still playing, or the game's result is already given
        return
    g[2 + p] = False
    g[2 + n + p] = 0
    st.ev.append((EV_REJOIN, sp, p))


def _win(st: State, who: Any, sp: int, drawn: Any = ()) -> None:
    """``who`` win (place 1); ``drawn`` (not winning) draw, in the next place; the rest lose after
    them — each player's own result, as against a house. A loser who finished in a later place
    (`finish p last`: knocked out third of three) keeps it."""
    g = st.g
    n = st.game.n
    winners = (who,) if isinstance(who, int) else tuple(p for p in dict.fromkeys(who) if p is not None)
    drawn = tuple(p for p in ((drawn,) if isinstance(drawn, int) else tuple(drawn)) if p not in winners and p is not None)
    draw_place = 2 if winners else 1
    # after the drawn, or after the winners; with neither, 2 as `lose players` gives (the house's 1
    # is nobody's), never past the last place
    lose_place = min(draw_place + 1 if drawn else 2, _last_place(n))
    for p in range(n):
        if p in winners:
            g[2 + 3 * n + p], g[2 + n + p] = WIN, 1
        elif p in drawn:
            g[2 + 3 * n + p], g[2 + n + p] = DRAW, draw_place
        else:
            g[2 + 3 * n + p], g[2 + n + p] = LOSE, max(lose_place, g[2 + n + p])
    st.ev.append((EV_WIN, sp, winners, drawn) if drawn else (EV_WIN, sp, winners))
    _over(st)


def _last_place(n: int) -> int:
    """The worst place a loser takes: the last seat's — but 2 for a lone player, beaten by the game
    itself (a lost patience is no place 1, which wins)."""
    return max(n, 2)


def _lose(st: State, who: Any, sp: int) -> None:
    """``who`` (a player, or a side) lose, everyone else wins: winners who finished keep their places,
    the other winners share the best free one, and the losers share the place after the worst
    winner's (Old Maid: the last one holding the Joker; Durak's losing pair), whatever places they
    held before."""
    g = st.g
    n = st.game.n
    losers = [q for q in dict.fromkeys((who,) if isinstance(who, int) else who) if q is not None]
    if not losers:
        raise RuleFailure("lose names nobody (an empty list or none)", sp)
    for q in losers:
        g[2 + n + q] = 0
    unplaced = [q for q in range(n) if q not in losers and g[2 + n + q] == 0]
    if unplaced:
        best = _free_places(st)[0]
        for q in unplaced:
            g[2 + n + q] = best
    # the place after the worst winner's, as against a house (1 then 2 when nobody had finished; 2 for
    # a whole table that loses together, a cooperative game lost: the house's 1 is nobody's)
    after = min(max((g[2 + n + q] for q in range(n) if q not in losers), default=1) + 1, _last_place(n))
    for q in range(n):
        g[2 + 3 * n + q] = LOSE if q in losers else WIN
    for q in losers:
        g[2 + n + q] = after
        st.ev.append((EV_LOSE, sp, q))
    _over(st)


def _end(st: State, draw: bool, sp: int) -> None:
    """End the game: players without a place share the next one; place 1 wins unless all share it."""
    g = st.g
    n = st.game.n
    if not st.over:
        placed = [g[2 + n + p] for p in range(n)]
        free = _free_places(st)
        nxt = free[0] if free else n
        for p in range(n):
            if placed[p] == 0:
                g[2 + n + p] = nxt
        everyone_first = all(g[2 + n + p] == 1 for p in range(n))
        for p in range(n):
            if g[2 + 3 * n + p] == NO_OUTCOME:
                if (draw and placed[p] == 0) or everyone_first:
                    g[2 + 3 * n + p] = DRAW       # a drawn game: those still playing draw,
                else:                             # those who finished keep their place
                    g[2 + 3 * n + p] = WIN if g[2 + n + p] == 1 else LOSE
        # "(draw)" only if someone drew: with everyone finished, `end game draw` leaves the places
        st.ev.append((EV_END, sp, draw and any(g[2 + 3 * n + p] == DRAW for p in range(n))))
    _over(st)


def _end_ranking(st: State, players: Any, keys: Any, sp: int) -> None:
    """End the game with the unplaced players of ``players`` placed by their keys, greatest first,
    equal keys sharing a place (1, 1, 3); everyone else unplaced shares the place after them."""
    g = st.g
    n = st.game.n
    if not st.over:
        free = _free_places(st)
        seen: set[int] = set()
        ranked = []
        for p, k in zip(players, keys, strict=True):
            if g[2 + n + p] == 0 and p not in seen:
                seen.add(p)
                if isinstance(k, tuple):    # by a tuple: the first part, then the next (none below all)
                    k = tuple((x is not None, x if x is not None else 0) for x in k)
                ranked.append((k is not None, k, p))     # none ranks below every key
        try:
            ranked.sort(key=lambda t: (t[0], t[1]) if t[0] else (False, 0), reverse=True)
        except TypeError:
            raise RuleFailure("the ranking keys cannot be compared: " + ", ".join(
                f"P{p} {_plain_key(k)}" for has, k, p in ranked) + " (a key's parts must be of one kind for "
                "every player: numbers with numbers, texts with texts)", sp) from None
        place = 0
        for i, (has, k, p) in enumerate(ranked):
            if i == 0 or (has, k) != ranked[i - 1][:2]:
                place = free[i]
            g[2 + n + p] = place
        rest = [p for p in range(n) if g[2 + n + p] == 0]
        for p in rest:
            g[2 + n + p] = free[len(ranked)]
    _end(st, False, sp)


def _over(st: State) -> None:
    st.over = True
    raise GameOver()


# ------------------------------------------------------------------ decisions taken
_ONE_CARD = ((1, False),)      # an option whose only value is one card ("play ♥7")


NEVER = 1 << 62      # a playout's STOP when it is not cut short: no count of decisions reaches it


def _capped(st: State) -> None:
    """The decision limit is reached: the game ends drawn for those still playing — or lost, in
    the place after those who finished (`limit N decisions then lose`: a patience not finished is lost)."""
    st.capped = True
    st.frames.clear()
    st.ev.append((EV_CAP, -1, st.ndec))
    loses = st.game.limit_loses and not st.over
    if loses:       # the next free place, as `lose` gives them: never 1, which wins
        g, n = st.g, st.game.n
        free = _free_places(st)
        after = min(max(free[0] if free else n, 2), _last_place(n))
        for p in range(n):
            if g[2 + n + p] == 0:
                g[2 + n + p] = after
    _end(st, not loses, -1)


def _amask(st: State, site: int, opt: tuple[Any, ...], player: int) -> int | tuple[int, tuple[int, ...]]:
    """Who sees the cards an option names (Game.apply_raw's mask, for the compiled rules)."""
    game = st.game
    return game._cards_mask(st, opt, game.card_args[site][opt[0]], game.actor_reads[site][opt[0]] << player)  # type: ignore[no-any-return]


# ------------------------------------------------------------------ the effect stack
def _push(st: State, effect: int, controller: int | None, source: int | None, params: tuple[Any, ...],
          sp: int) -> int:
    """Put an activated effect on the stack; fields: kind, controller, source, times, negated, params…"""
    iid = st.nitem
    st.nitem = iid + 1
    item = [effect, controller, source, 1, False]
    fields = st.game.effect_fields[effect]
    item.extend(st.game.item_blank)
    for idx, v in zip(fields, params, strict=True):
        item[5 + idx] = v
    st.items[iid] = item
    st.stack.append(iid)
    st.ev.append((EV_PUSH, sp, iid, effect, controller, source, ALL if source is None else _card_mask(st, source)))
    return iid


def _negate(st: State, iid: int | None, sp: int) -> None:
    if iid is None or iid not in st.items:
        raise RuleFailure("there is no stack item to negate", sp)
    st.items[iid][4] = True
    st.ev.append((EV_NEGATE, sp, iid))


def _item(st: State, iid: int | None, sp: int) -> list[Any]:
    if iid is None or iid not in st.items:
        raise RuleFailure("that stack item has already left the stack", sp)
    return st.items[iid]


def _set_field(st: State, iid: int, idx: int, value: Any, sp: int) -> None:
    item = _item(st, iid, sp)
    if idx > 4 and idx not in st.game.item_has[item[0]]:   # kept on the item, read by nothing but windows
        game = st.game
        eff = game.effects[item[0]].name
        raise RuleFailure(f"item #{iid} ({eff}) has no field {game.item_field_names[idx]}: its effect {eff} does not "
                          "declare it (test it.kind first, or give the effect that parameter)", sp)
    item[idx] = value
    st.ev.append((EV_MODIFY, sp, iid, idx, value, item[0]))     # the item's effect: its field's label


def _reveal_var(st: State, slot: int, sp: int) -> None:
    """A hidden variable (or one player's owner-only entry) becomes public."""
    if slot not in st.revealed:
        st.revealed.append(slot)
        st.ev.append((EV_REVEALVAR, sp, slot))


def _hide_var(st: State, slot: int, sp: int) -> None:
    """A revealed variable (entry) goes back to its declared visibility: later values are secret
    again (what was seen stays in the players' memories and the log)."""
    if slot in st.revealed:
        st.revealed.remove(slot)
        st.ev.append((EV_HIDEVAR, sp, slot))


# ------------------------------------------------------------------ numbers
def _num(x: float) -> float:
    """A `number` result of arithmetic, refused when it left the finite range: an infinity or a
    NaN would make the state unequal to its own replay and its JSON unreadable (a rule failure,
    at the line, as division by zero is). ``x - x`` is 0 for every finite number and every int;
    an int past the float range is refused too (a `number` holding it would crash every average
    and every conversion later, language.md §25)."""
    if x - x == 0 and (type(x) is not int or -_MAX_NUMBER <= x <= _MAX_NUMBER):
        return x
    raise OverflowError("finite range")


_MAX_NUMBER = int(sys.float_info.max)      # the largest int a `number` may hold (about 1.8e308)


def _floor(x: float) -> int:
    return math.floor(x)


def _ceil(x: float) -> int:
    return math.ceil(x)


def _round(x: float) -> int:
    """Halves away from zero, as people round (Python's round() rounds halves to even)."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


# ------------------------------------------------------------------ text
def _words(items: list[str]) -> str:
    """A list in a text: "♠A ♥3", but "Pine bright, Cherry bright" when an item has several words."""
    return (", " if any(" " in x for x in items) else " ").join(items)


def _fmt_list(table: dict[Any, str], v: Any) -> str:
    """A list of players, cards or enum members as _fmt shows it, by the compiler's name table."""
    return "none" if v is None else _words([table[x] for x in v])


def _shown(st: State, c: Any, lang: int) -> str:
    """A card in a label or prompt as the ruleset's `show` writes it (its name if that fails)."""
    if c is None:
        return "none"
    if c in st.game.hidden_places:      # a card its chooser cannot see: its place, never its face
        return st.game.hidden_places[c] or say("a_card", lang)  # type: ignore[no-any-return]
    text = st.game.show(st, c, lang)
    return text if text is not None else st.game.card_texts[lang][c]  # type: ignore[no-any-return]


def _shown_list(st: State, cs: Any, lang: int) -> str:
    return "none" if cs is None else _words([_shown(st, c, lang) for c in cs])


def _zone_text(st: State, slot: Any, lang: int) -> str:
    """A zone in a text as players call it: its label in that language ("Hand[P0]")."""
    from .observe import called

    game = st.game
    return "none" if slot is None else called(game.zone_name(st, slot), game.zone_texts[lang], game.seats_in(lang))


def _unseen(st: State, c: int | None) -> bool:
    """Whether card ``c`` is one the reader of a label or prompt being written cannot see."""
    return c is not None and c in st.game.hidden_places


def _int_text(v: int | None) -> str:
    """An int in a text; none (an empty list's best or max) as every other none reads."""
    return "none" if v is None else str(v)


def _fmt(st: State, v: Any, code: str) -> str:
    """A value as players see it, by its static type code (see compile/compiled.py: type_code)."""
    if v is None:
        return "none"
    game = st.game
    if code == "card":
        hidden = game.hidden_places.get(v)        # `text(c)` in a label: the place, or "a card"
        return game.card_names[v] if hidden is None else hidden or "a card"
    if code == "player":
        return f"P{v}"
    if code.startswith("enum:"):
        return str(game.enum_members[code[5:]][v])
    if code == "bool":
        return "true" if v else "false"
    if code == "number" and isinstance(v, float):      # 3.6 for 3 * 1.2, 1234567.5 in full
        return str(int(v)) if v.is_integer() else repr(round(v, 10))
    if code == "zone":
        return game.zone_name(st, v)
    if code == "effect":
        return game.effects[v].name
    if code == "item":
        return f"#{v}"
    if code == "square":
        return f"({v[0]},{v[1]})"
    if code.startswith("list:"):
        return " ".join(_fmt(st, x, code[5:]) for x in v)
    if isinstance(v, tuple):
        return "(" + ", ".join(str(x) for x in v) + ")"
    return str(v)
