"""The built-in functions of the rules language: their types (for the checker) and the Python
expression each compiles to (for the compiler). One entry per function, so a reader finds both.

Generated code sees ``st`` (the state), ``Z`` (zone contents), ``G`` (variables), ``LOC`` (card →
zone slot) and the runtime helpers of interpreter/engine/runtime.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import types as T


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    check: Callable[[list[T.T]], T.T]
    gen: Callable[[list[str], list[T.T], Any], str]
    usage: str
    impure: bool = False


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise TypeError(msg)


def _zone(t: T.T) -> bool:
    return t.kind in ("zone", "any")


def _iter(t: T.T) -> T.T:
    et = T.elem_type(t)
    _need(et is not None, f"expected a list or a zone, got {t}")
    assert et is not None
    return et


def _seq_src(a: str, t: T.T) -> str:
    """A value usable as a Python sequence: zones become their card list."""
    return f"Z[{a}]" if t.kind == "zone" else a


def _index_of_src(a: list[str], t: list[T.T], c: Any) -> str:
    """index_of(LIST, x); of a list fixed when the rules are compiled (an enum, `[…]` of constants), a
    table lookup: `[3, 5, 6][index_of(Kind, k)]` reads a value per member at the cost of an index."""
    try:
        values = ast.literal_eval(a[0])
        table = {v: i for i, v in reversed(list(enumerate(values)))} if isinstance(values, tuple) else None
    except (ValueError, SyntaxError, TypeError):
        table = None
    if table is None:
        return f"_index_of({_seq_src(a[0], t[0])}, {a[1]})"
    name = next((k for k, v in c.consts.items() if k.startswith("IDX") and v == table), None)
    return f"{name or c.const(f'IDX{len(c.consts)}', table)}.get({a[1]}, -1)"


def _next1(p: str, c: Any) -> str:
    """next(p): the neighbour in the current direction, inline when they are not out."""
    if not re.fullmatch(r"[\w\[\]]+", p):
        return f"_next(st, {p}, 1)"
    n = c.p.players
    # no assignment expression (`:=`): Python refuses one inside a comprehension's iterable
    q = f"({p} + G[1]) % {n}"
    return f"({q} if not G[2 + {q}] else _next(st, {p}, 1))"


def _cards(ts: list[T.T]) -> T.T:
    _need(_zone(ts[0]), f"expected a zone, got {ts[0]}")
    return T.list_of(T.CARD)


_SIMPLE = re.compile(r"[\w\s\[\]+*-]*|\([\w\s\[\]+*-]*\)")


def _top1(z: str) -> str:
    """The top card, inline: a zone slot given by a little arithmetic (``9 + p``, no calls) is
    cheaper to compute twice than a call."""
    if _SIMPLE.fullmatch(z) and len(z) <= 24:
        return f"(Z[{z}][-1] if Z[{z}] else None)"
    return f"_top(Z[{z}])"


def _size(ts: list[T.T]) -> T.T:
    _need(ts[0].kind in ("zone", "list", "seq", "text", "tuple", "any"), f"size counts a zone or a list, not {ts[0]}")
    return T.INT


def _top(ts: list[T.T]) -> T.T:
    _need(_zone(ts[0]), f"expected a zone, got {ts[0]}")
    if len(ts) == 2:
        _need(T.assignable(ts[1], T.INT), "the count is a whole number")
        return T.list_of(T.CARD)
    return T.CARD


def _player_n(ts: list[T.T]) -> T.T:
    _need(T.assignable(ts[0], T.PLAYER), f"expected a player, got {ts[0]}")
    if len(ts) == 2:
        _need(T.assignable(ts[1], T.INT), "the step count is a whole number")
    return T.PLAYER


def _players_of(ts: list[T.T]) -> T.T:
    _need(T.assignable(ts[0], T.PLAYER), f"expected a player, got {ts[0]}")
    return T.list_of(T.PLAYER)


def _minmax(ts: list[T.T]) -> T.T:
    if len(ts) == 2:            # min(a, b): two numbers
        _need(all(T.is_numeric(t) for t in ts), f"min/max of two values need numbers, got {ts[0]} and {ts[1]}")
        return T.INT if all(t == T.INT for t in ts) else T.NUMBER
    et = _iter(ts[0])
    if not (T.is_numeric(et) or et.kind in ("key", "text")):    # the element with the greatest key is best's
        raise TypeError(f"min/max need numbers, got {et}",
                        "for the element with the greatest key write `best x in L by KEY` (`max(L)` of cards: "
                        "`best c in L by c.rank`), with the smallest `best x in L by -KEY`")
    return et


def _minmax_src(f: str, a: list[str], t: list[T.T]) -> str:
    if len(a) == 2:
        return f"{f}({a[0]}, {a[1]})"
    if T.is_numeric(_iter(t[0])):       # a number is never none: an empty list is the rules' mistake
        return f"{f}({_seq_src(a[0], t[0])})"
    return f"{f}({_seq_src(a[0], t[0])}, default=None)"


def _sum(ts: list[T.T]) -> T.T:
    et = _iter(ts[0])
    _need(T.is_numeric(et), f"sum adds numbers, got {et}")
    return et if et.kind != "any" else T.NUMBER


def _of_a_kind(ts: list[T.T]) -> T.T:
    _iter(ts[0])
    return T.INT


def _abs(ts: list[T.T]) -> T.T:
    _need(T.is_numeric(ts[0]), "abs takes a number")
    return ts[0]


def _to_int(ts: list[T.T]) -> T.T:
    _need(T.is_numeric(ts[0]), "expected a number")
    return T.INT


def _index_of(ts: list[T.T]) -> T.T:
    _iter(ts[0])
    return T.INT


def _remove(ts: list[T.T]) -> T.T:
    et = _iter(ts[0])
    return T.list_of(et)


def _replaced(ts: list[T.T]) -> T.T:
    _need(ts[0].kind in ("list", "any"), f"replaced takes a list, not {ts[0]}")
    _need(T.assignable(ts[1], T.INT), "a position is a whole number (0 is the first)")
    _need(ts[0].elem is None or T.assignable(ts[2], ts[0].elem), f"cannot store {ts[2]} in {ts[0]}")
    return T.list_of(ts[0].elem or ts[2])


def _same_list(ts: list[T.T]) -> T.T:
    return T.list_of(_iter(ts[0]))


def _distinct(ts: list[T.T]) -> T.T:
    et = _iter(ts[0])
    inner = T.elem_type(et) if et.kind == "list" else None
    _need(et.kind in ("card", "any") or (inner is not None and inner.kind in ("card", "any")),
          f"distinct takes a list of cards or of card lists, not {ts[0]}")
    return T.list_of(et)


def card_faces(cards: Any) -> tuple[int, ...]:
    """Each card's face, as the first card that looks the same: its label (or name) and attribute
    values, so identical copies (three Contessas; a double deck's two ♠A, whose `copy` differs)
    share one."""
    first: dict[Any, int] = {}
    vals = [v for a, v in cards.attrs.items() if a not in cards.copy_attrs]
    return tuple(first.setdefault((cards.labels.get(n, (n, n)), tuple(repr(v[i]) for v in vals)), i)
                 for i, n in enumerate(cards.names))


def _distinct_src(a: list[str], t: list[T.T], c: Any) -> str:
    """One element per face (``card_faces``); card lists compare as multisets of faces."""
    table = c.const("FACE", card_faces(c.p.cards))
    et = T.elem_type(t[0])
    helper = "_distinct" if et is not None and et.kind == "card" or t[0].kind == "zone" else "_distinct_lists"
    return f"{helper}({table}, {_seq_src(a[0], t[0])})"


def _flatten(ts: list[T.T]) -> T.T:
    et = _iter(ts[0])
    _need(et.kind in ("list", "zone", "any"), f"flatten joins lists (or zones: their cards), not {et}s")
    return T.list_of(T.CARD if et.kind == "zone" else (et.elem or T.ANY))


def _flatten_src(a: list[str], t: list[T.T]) -> str:
    """The elements of each list, or the cards of each zone (a sequence's, bottom first), in order."""
    et = T.elem_type(t[0])
    if et is not None and et.kind == "zone":
        return f"tuple([_c for _z in {_seq_src(a[0], t[0])} for _c in Z[_z]])"
    return f"tuple([_x for _l in {_seq_src(a[0], t[0])} for _x in _l])"


def _subsets(ts: list[T.T]) -> T.T:
    et = _iter(ts[0])
    _need(T.assignable(ts[1], T.INT), "the subset size is a whole number")
    return T.list_of(T.list_of(et))


def _square(ts: list[T.T]) -> T.T:
    _need(all(T.assignable(t, T.INT) for t in ts), "square(x, y) takes two whole numbers")
    return T.SQUARE


def _grid(t: T.T) -> None:
    _need(t.kind == "grid", f"expected a grid, got {t}")


def _squares(ts: list[T.T]) -> T.T:
    _grid(ts[0])
    return T.list_of(T.SQUARE)


def _neighbors(ts: list[T.T]) -> T.T:
    _grid(ts[0])
    _need(T.assignable(ts[1], T.SQUARE), "the second argument is a square")
    _need(ts[2] == T.enum("Pattern") or ts[2].kind == "any",
          "the pattern is orthogonal, diagonal or king (Pattern.king where an enum of the ruleset has a king)")
    return T.list_of(T.SQUARE)


def _dist(ts: list[T.T]) -> T.T:
    _need(all(T.assignable(t, T.SQUARE) for t in ts), "distances are between two squares")
    return T.INT


def _card_to(result: T.T) -> Callable[[list[T.T]], T.T]:
    def chk(ts: list[T.T]) -> T.T:
        _need(T.assignable(ts[0], T.CARD), f"expected a card, got {ts[0]}")
        return result
    return chk


def _revealed(ts: list[T.T]) -> T.T:
    _need(T.assignable(ts[0], T.CARD), f"expected a card, got {ts[0]}")
    _need(len(ts) == 1 or T.assignable(ts[1], T.PLAYER) and ts[1] != T.NONE,
          f"the second argument is a player, got {ts[-1]}")
    return T.BOOL


def _card_at(ts: list[T.T]) -> T.T:
    _grid(ts[0])
    _need(T.assignable(ts[1], T.SQUARE), "the second argument is a square")
    return T.CARD


def _wh(ts: list[T.T]) -> T.T:
    _grid(ts[0])
    return T.INT


def _owner(ts: list[T.T]) -> T.T:
    _need(_zone(ts[0]), f"expected a zone, got {ts[0]}")
    return T.PLAYER


def _any1(ts: list[T.T]) -> T.T:
    return T.INT


def _text(ts: list[T.T]) -> T.T:
    return T.TEXT


def _label(ts: list[T.T]) -> T.T:
    if ts[0].kind not in ("enum", "any"):
        raise TypeError(f"label takes a member of an enum, not {ts[0]}", 'write other values into a text: "{x}"')
    return T.TEXT


def _random(ts: list[T.T]) -> T.T:
    return _iter(ts[0])


def _card_at_src(sq: str, base: int, w: int) -> str:
    """card_at: inline for a square held in a plain name (option binders, loop variables: the hot
    case of board games), a call otherwise."""
    if re.fullmatch(r"[A-Za-z_]\w*", sq):
        return f"(None if {sq} is None else (Z[{base} + {sq}[1] * {w} + {sq}[0]] or _NOCARD)[-1])"
    return f"_cell_card(Z, {base}, {w}, {sq})"


def _neighbors_src(ctx: Any, t: T.T, sq: str, pattern: str) -> str:
    """neighbors: a table made once per board size, [pattern][square] → the squares next to it in
    the pattern's directions."""
    from .engine.runtime import _neighbors

    _, w, h = _grid_info(ctx, t)
    table = tuple({(x, y): _neighbors(w, h, (x, y), k) for y in range(h) for x in range(w)} for k in range(3))
    # a square off the board (or a 1×1 board) falls back to the general function
    return f"({ctx.const(f'NBR_{w}_{h}', table)}[{pattern}].get({sq}) or _neighbors({w}, {h}, {sq}, {pattern}))"


def _square_of_src(ctx: Any, c: str) -> str:
    """square_of: where a card stands on any grid (a table of cell slots), or none."""
    cells = {}
    for z in ctx.p.zones:
        if z.kind == "grid":
            for k in range(z.count):
                cells[z.base + k] = (k % z.width, k // z.width)
    table = ctx.const("CELL_SQUARE", cells)
    if re.fullmatch(r"[A-Za-z_]\w*", c):
        return f"(None if {c} is None else {table}.get(LOC[{c}]))"
    return f"_square_of(st, {c})"


def _grid_info(ctx: Any, t: T.T) -> tuple[int, int, int]:
    z = ctx.zone(t.name)
    return z.base, z.width, z.height


B: list[Builtin] = [
    Builtin("size", 1, 1, _size, lambda a, t, c: f"len({_seq_src(a[0], t[0])})", "size(zone or list)"),
    Builtin("top", 1, 2, _top,
            lambda a, t, c: _top1(a[0]) if len(a) == 1 else f"_topn(Z[{a[0]}], {a[1]})",
            "top(zone) or top(zone, n): the top card(s), topmost first"),
    Builtin("bottom", 1, 2, _top,
            lambda a, t, c: f"_bottom(Z[{a[0]}])" if len(a) == 1 else f"tuple(Z[{a[0]}][:{a[1]}])",
            "bottom(zone) or bottom(zone, n)"),
    Builtin("cards", 1, 1, _cards,
            lambda a, t, c: f"tuple(Z[{a[0]}])", "cards(zone): its cards, bottom first"),
    Builtin("zone_of", 1, 1, _card_to(T.ZONE), lambda a, t, c: f"LOC[{a[0]}]", "zone_of(card)"),
    Builtin("holder", 1, 1, _card_to(T.PLAYER),
            lambda a, t, c: f"ZOWN[LOC[{a[0]}]]" if not c.p.seq_count else f"_owner(st, LOC[{a[0]}])",
            "holder(card): the player whose zone holds it, or none"),
    Builtin("owner", 1, 1, _owner,
            lambda a, t, c: f"ZOWN[{a[0]}]" if not c.p.seq_count else f"_owner(st, {a[0]})", "owner(zone)"),
    Builtin("revealed", 1, 2, _revealed,
            lambda a, t, c: f"(st.vis[{a[0]}] == ALL)" if len(a) == 1 else f"(st.vis[{a[0]}] >> {a[1]} & 1 == 1)",
            "revealed(card) or revealed(card, player): is it face up for everyone, or shown to that player"),
    Builtin("next", 1, 2, _player_n,
            lambda a, t, c: _next1(a[0], c) if len(a) == 1 else f"_next(st, {a[0]}, {a[1]})",
            "next(player) or next(player, n): in turn order, skipping players who are out"),
    Builtin("prev", 1, 2, _player_n,
            lambda a, t, c: f"_next(st, {a[0]}, -({a[1] if len(a) > 1 else 1}))", "prev(player) or prev(player, n)"),
    Builtin("seat_after", 2, 2, _player_n, lambda a, t, c: f"(({a[0]}) + ({a[1]})) % {c.p.players}",
            "seat_after(player, n): n seats on in seat order, counting every seat (out or not): partners"),
    Builtin("others", 1, 1, _players_of, lambda a, t, c: f"_others(st, {a[0]})",
            "others(player): the other active players in turn order after them"),
    Builtin("seats_from", 1, 1, _players_of, lambda a, t, c: f"_seats_from(st, {a[0]})",
            "seats_from(player): active players in turn order starting with them"),
    Builtin("random", 1, 1, _random, lambda a, t, c: f"_random(st, {_seq_src(a[0], t[0])})",
            "random(list): one element, chosen with the game's seeded randomness", impure=True),
    Builtin("min", 1, 2, _minmax, lambda a, t, c: _minmax_src("min", a, t), "min(list) or min(a, b)"),
    Builtin("max", 1, 2, _minmax, lambda a, t, c: _minmax_src("max", a, t), "max(list) or max(a, b)"),
    Builtin("sum", 1, 1, _sum, lambda a, t, c: f"sum({_seq_src(a[0], t[0])})", "sum(list of numbers)"),
    Builtin("abs", 1, 1, _abs, lambda a, t, c: f"abs({a[0]})", "abs(number)"),
    Builtin("floor", 1, 1, _to_int, lambda a, t, c: f"_floor({a[0]})", "floor(number): the int at or below it"),
    Builtin("ceil", 1, 1, _to_int, lambda a, t, c: f"_ceil({a[0]})", "ceil(number): the int at or above it"),
    Builtin("round", 1, 1, _to_int, lambda a, t, c: f"_round({a[0]})",
            "round(number): the nearest int, halves away from zero (2.5 → 3, -2.5 → -3)"),
    Builtin("of_a_kind", 1, 1, _of_a_kind, lambda a, t, c: f"_of_a_kind({_seq_src(a[0], t[0])})",
            "of_a_kind(list): how many times its most frequent element occurs (4 for four of a kind)"),
    Builtin("index_of", 2, 2, _index_of, lambda a, t, c: _index_of_src(a, t, c),
            "index_of(list, x): its position (0 first), -1 if absent"),
    Builtin("remove", 2, 2, _remove, lambda a, t, c: f"_remove({_seq_src(a[0], t[0])}, {a[1]})",
            "remove(list, x): the list without the first x"),
    Builtin("replaced", 3, 3, _replaced, lambda a, t, c: f"_replaced({a[0]}, {a[1]}, {a[2]})",
            "replaced(list, i, x): the list with x at position i (what `xs[i] = x` stores)"),
    Builtin("unique", 1, 1, _same_list, lambda a, t, c: f"tuple(dict.fromkeys({_seq_src(a[0], t[0])}))",
            "unique(list): the list without repeats, each element where it first occurs"),
    Builtin("distinct", 1, 1, _distinct, _distinct_src,
            "distinct(cards or card lists): one of each face, first kept; identical copies count once"),
    Builtin("reversed", 1, 1, _same_list, lambda a, t, c: f"tuple(reversed({_seq_src(a[0], t[0])}))", "reversed(list)"),
    Builtin("sorted", 1, 1, _same_list, lambda a, t, c: f"tuple(sorted({_seq_src(a[0], t[0])}))", "sorted(list)"),
    Builtin("flatten", 1, 1, _flatten, lambda a, t, c: _flatten_src(a, t),
            "flatten(list of lists): their elements in one list; flatten(sequence or list of zones): their cards"),
    Builtin("subsets", 2, 2, _subsets,
            lambda a, t, c: f"tuple(_combinations({_seq_src(a[0], t[0])}, {a[1]}))",
            "subsets(list, k): every choice of k elements"),
    Builtin("square", 2, 2, _square, lambda a, t, c: f"({a[0]}, {a[1]})", "square(x, y)"),
    Builtin("squares", 1, 1, _squares,
            lambda a, t, c: repr(tuple((x, y) for y in range(_grid_info(c, t[0])[2])
                                       for x in range(_grid_info(c, t[0])[1]))),
            "squares(grid): every square, row by row"),
    Builtin("neighbors", 3, 3, _neighbors,
            lambda a, t, c: _neighbors_src(c, t[0], a[1], a[2]),
            "neighbors(grid, square, orthogonal|diagonal|king)"),
    Builtin("manhattan", 2, 2, _dist, lambda a, t, c: f"_manhattan({a[0]}, {a[1]})", "manhattan(square, square)"),
    Builtin("chebyshev", 2, 2, _dist, lambda a, t, c: f"_chebyshev({a[0]}, {a[1]})",
            "chebyshev(square, square): king-move distance"),
    Builtin("square_of", 1, 1, _card_to(T.SQUARE), lambda a, t, c: _square_of_src(c, a[0]),
            "square_of(card): where it stands on a grid, or none"),
    Builtin("card_at", 2, 2, _card_at, lambda a, t, c: _card_at_src(a[1], *_grid_info(c, t[0])[:2]),
            "card_at(grid, square): the card there, or none"),
    Builtin("width", 1, 1, _wh, lambda a, t, c: str(_grid_info(c, t[0])[1]), "width(grid)"),
    Builtin("height", 1, 1, _wh, lambda a, t, c: str(_grid_info(c, t[0])[2]), "height(grid)"),
    Builtin("occurrences", 1, 1, _any1, lambda a, t, c: f"st.tally.get(_key({a[0]}), 0)",
            "occurrences(key): how often `record key` has recorded it"),
    Builtin("text", 1, 1, _text, lambda a, t, c: f"_fmt(st, {a[0]}, {c.type_code(t[0])})",
            "text(x): x as it is shown to players"),
    Builtin("card", 1, 1, lambda ts: T.CARD, lambda a, t, c: "None", 'card("♠A"): a card by name'),
    # written as "{x}" would write it, in the text's language (ExprGen.g_Call), not by this gen
    Builtin("label", 1, 1, _label, lambda a, t, c: "None",
            "label(x): an enum member's label, in the language of the text it is written into"),
]

BUILTINS: dict[str, Builtin] = {b.name: b for b in B}
