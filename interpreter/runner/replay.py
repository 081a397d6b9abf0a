"""``fuda replay``: re-run a saved game log (or a simulated game by its seed) and print it,
every event with the rule that produced it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ..check import text_plain
from ..engine import runtime as R
from ..engine.observe import render_event
from ..engine.state import State
from ..errors import Diagnostic, FudaError, RuleRuntimeError, Span, error
from ..load import read_text
from .render import cards_seen, fold_reveals, folded_listing, result_line


class GameLog(BaseModel):
    model_config = ConfigDict(extra="ignore")
    format: str
    ruleset: str
    options: dict[str, Any] = {}
    seed: int = 0
    seats: list[str] = []
    lang: Literal["en", "ja"] | None = None     # the language it was played in (logs before 2026-11-23 have none)
    carried: dict[str, Any] = {}     # a match's game: the `carried` variables it started with
    rules: str | None = None         # the rules it was played under (Game.rules_hash; older logs have none)
    match: str | None = None         # the match it is a game of (fuda play --match), where --resume counts it
    actions: list[tuple[int, str]]


def read_log(path: str) -> GameLog:
    p = Path(path)
    text = read_text(p, "E503", path, "game log")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FudaError([Diagnostic("E503", f"not a JSON game log: {e.msg}", Span(path, e.lineno, e.colno,
                                                                                   e.lineno, e.colno + 1))],
                        {path: text}) from None
    try:
        log = GameLog.model_validate(data)
    except ValidationError as e:
        from .yaml_file import Located, first_error  # JSON is YAML: the same places for keys and values

        where, err = first_error(e, data)
        raise Located.of(path, text).error("E503", f"game log {'.'.join(map(str, where))}: {err['msg']}"
                                           if where else f"game log: {err['msg']}",
                                           where, at_key=err["type"] == "extra_forbidden") from None
    if log.format != "fuda-log/1":
        raise error("E503", f"{path}: format {log.format!r} is not fuda-log/1")
    beside = p.parent / Path(log.ruleset).name
    if log.ruleset.endswith(".fuda") and not Path(log.ruleset).is_file() and beside.is_file():
        log.ruleset = str(beside)       # a log kept next to its ruleset file, read from elsewhere
    return log


def seat_problem(seats: list[str]) -> tuple[int, Diagnostic] | None:
    """The first seat that names no kind of player (`wizard`), and why."""
    from ..bots.base import make_bot

    for i, s in enumerate(seats):
        if s != "human":
            try:
                make_bot(s, 0)
            except FudaError as e:
                return i, e.first
    return None


def check_seats(log: GameLog, path: str, n: int, reseat: bool = True) -> None:
    """A log whose seats do not seat its game's ``n`` players, or name no kind of player, is E503 in
    the log, at its seats (it is the log's mistake; ``--seat`` may replace the seats where the game
    goes on, ``reseat``, not in a replay). A log with no seats at all seats a human at P0 and random
    bots beside, as a new game does."""
    from .yaml_file import Located

    if not Path(path).is_file():
        return
    if "seats" in log.model_fields_set and len(log.seats) != n:
        few = len(log.seats) < n
        raise Located.of(path, read_text(Path(path), "E503", path, "game log")).error(
            "E503", f"game log seats: {len(log.seats)} seat{'s' if len(log.seats) != 1 else ''} for a game of {n} "
            "players: the log is damaged", ("seats",),
            hint=("a seat was lost" if few else "") + (": " if few and reseat else "")
            + (f"give the {n} seats with --seat KIND … (one per player)" if reseat else ""))
    found = seat_problem(log.seats)
    if found is None:
        return
    i, d = found
    hint = "; ".join(x for x in (d.hint, "--seat KIND … replaces the saved seats" if reseat else None) if x)
    raise Located.of(path, read_text(Path(path), "E503", path, "game log")).error(
        "E503", f"game log seats.{i}: {d.message}", ("seats", i), hint=hint)


def rules_changed(log: GameLog, st: State, path: str) -> str | None:
    """A warning when the ruleset (its text, options or fuda itself) is not the one the game was
    saved under: its moves still replay, but what they meant — who saw what, what was legal — may
    have changed."""
    if log.rules is None or st.game.same_rules(log.rules):
        return None
    return (f"warning: {path}: the ruleset has changed since this game was saved ({st.game.ruleset}); its "
            f"{len(log.actions)} moves still replay, under the rules as they are now")


def load_logged(log: GameLog, path: str = "<log>") -> Any:
    """The game a log was played with. An unknown option or a bad value among the log's options is
    the log's mistake, not the ruleset's: E503 in the log, at the option's key (unknown) or value."""
    from ..api import load

    try:
        return load(log.ruleset, log.options)
    except FudaError as e:
        if e.first.code in ("E504", "E005"):        # the log's name for its ruleset, not one typed
            raise _at_log(path, ("ruleset",), f"game log ruleset: {e.first.message}", e.first.hint) from None
        mine = [d for d in e.diagnostics if d.subject in log.options and d.code in ("E401", "E402")]
        if not mine or not Path(path).is_file():
            raise
        from .yaml_file import Located

        text = read_text(Path(path), "E503", path, "game log")
        loc = Located.of(path, text)
        diags = []
        for d in e.diagnostics:
            if d in mine:
                hint = d.hint if d.code == "E401" else "; ".join(
                    x for x in (d.hint, f"the option is declared at {d.span}") if x)
                d = Diagnostic("E503", f"game log options: {d.message}",
                               loc.span(("options", d.subject), at_key=d.code == "E401"), hint, d.severity, d.subject)
            diags.append(d)
        raise FudaError(diags, {**e.sources, path: text}) from None


def _at_log(path: str, where: tuple[Any, ...], message: str, hint: str | None = None) -> FudaError:
    """An E503 at ``where`` in the log file (its line and a caret), or naming it when it is no file."""
    if not Path(path).is_file():
        return error("E503", f"{path}: {message}", hint=hint)
    from .yaml_file import Located

    return Located.of(path, read_text(Path(path), "E503", path, "game log")).error("E503", message, where, hint)


def replay(log: GameLog, path: str = "<log>") -> State:
    game = load_logged(log, path)
    try:
        st = game.new_state(log.seed, carried=log.carried)
    except FudaError as e:
        if e.first.code != "E503":
            raise
        raise error("E503", f"{path}: {e.first.message}", hint=e.first.hint) from None
    for i, (p, a) in enumerate(log.actions):
        if not 0 <= p < game.n:     # not a player who may not move now: no player at all
            raise _at_log(path, ("actions", i, 0), f"action {i + 1} (P{p}: {a}) names no player: the "
                          f"game has {game.n}, P0–P{game.n - 1}", hint="the log is damaged")
        try:
            game.apply(st, p, a)
        except FudaError as e:
            raise error("E503", f"{path}: action {i + 1} (P{p}: {a}) cannot be replayed: "
                        f"{folded_listing(e.first.message)}",
                        hint="was the ruleset or its options changed since the game was saved?") from None
    return st


def carried_text(st: State, carried: dict[str, Any]) -> str:
    """The line saying what a match's game started with: its `carried` variables as the game
    before left them."""
    from ..compile import type_code

    types = {v.name: v for v in st.game.prog.vars}
    slots = st.game.carried_in(carried)         # as the game holds them (an enum member by position)
    parts = []
    for name in carried:
        v = types[name]
        code = type_code(v.type)
        shown = R._fmt(st, slots[v.slot], code) if v.scope == "global" else \
            ", ".join(f"P{p} {R._fmt(st, slots[v.slot + p], code)}" for p in range(st.game.n))
        parts.append(f"{name} = {shown}")
    return "carried from the game before: " + "; ".join(parts)


def replay_seed(ruleset: str, options: dict[str, Any], seed: int,
                seats: list[str], progress: Any = None) -> tuple[State, RuleRuntimeError | None]:
    """Re-run the game ``fuda simulate`` played with this game seed; a rule that fails on the way
    is returned with the game as it stood, so that what led to it can be shown."""
    from ..api import load
    from .simulate import run_game

    game = load(ruleset, options)
    try:
        st = game.new_state(seed)
    except RuleRuntimeError as e:       # setup, or the first phase before its first decision
        return e.state, e
    try:
        run_game(game, seed, seats, st=st, progress=progress)
    except RuleRuntimeError as e:
        return st, e
    return st, None


# event kinds too long for the column, as the listing shows them
_SHORT = {"reveal_var": "reveal", "hide_var": "hide", "remove_zone": "remove"}


def option_labels(st: State, carried: dict[str, Any] | None = None) -> dict[int, str]:
    """The label each action of ``st``'s game was chosen by, as its chooser read it in the menu
    ("English | 日本語"), by event index: worked out by playing the game again from its seed, since
    a label may read the state of the moment. Actions whose option has no label are left out."""
    game = st.game
    out: dict[int, str] = {}
    try:
        again = game.new_state(st.seed, carried=carried)
        for i, ev in enumerate(st.ev):
            if ev[0] != R.EV_ACT:
                continue
            if again.pend is None or len(again.ev) != i:    # not the same game (it cannot be): no more labels
                break
            if ev[4][0] >= 0 and (label := game._action(again, game.sites[again.pend[0]], ev[2], ev[4]).label):
                out[i] = label
            game.apply_raw(again, ev[2], ev[4])
    except FudaError:       # a game that stopped at a failing rule fails there again: the labels up to it
        pass
    return out


def _move_lines(moves: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The moves of one statement as lines of (path, cards): a line per path when they went round
    the paths in turn (a deal: P0, P1, P0, P1 …), else a line per run along one path, in order —
    one rule dealing a card at a time to P0, P1, the dealer, P0, P1 must not read as P1's two
    cards before the dealer's."""
    paths = [m["path"] for m in moves]
    cycle = list(dict.fromkeys(paths))
    dealt_round = all(p == cycle[i % len(cycle)] for i, p in enumerate(paths))
    out: list[tuple[str, list[str]]] = []
    for m in moves:
        card = m["text"][:-len(m["path"]) - 2]      # "CARD: PATH"
        line = next((ln for ln in out if ln[0] == m["path"]), None) if dealt_round else \
            (out[-1] if out and out[-1][0] == m["path"] else None)
        if line is None:
            out.append((m["path"], [card]))
        else:
            line[1].append(card)
    return out


def format_events(st: State, viewer: int | None | str = "all", lang: int = 0, spans: bool = True,
                  moves: bool = True, each_move: bool = False, said: dict[int, str] | None = None) -> str:
    """The game's events as the viewer saw them, one a line. The moves one statement makes in a
    row (a deal, a gather) share a line per path, ``Deck → Hand[P0]: ♥4 ♦7 ♦2``, and its reveals a
    line per whom (``reveal ♠8 ♥8 to everyone``, as `fuda play` shows them), unless ``each_move``;
    cards the viewer did not see are counted; ``said``: the labels actions were chosen by
    (``option_labels``), shown for the viewer's own actions (all of them in the full log)."""
    said = said or {}
    shown = [(i, r) for i, ev in enumerate(st.ev)
             if (r := render_event(st, ev, viewer, lang, at=i, said=said.get(i))) is not None and (moves or r["kind"] != "move")]
    lines = []
    k = 0
    while k < len(shown):
        i, r = shown[k]
        run = 1
        while not each_move and r["kind"] in ("move", "reveal", "hide") and k + run < len(shown) \
                and shown[k + run][1]["kind"] == r["kind"] and st.ev[shown[k + run][0]][1] == st.ev[i][1]:
            run += 1
        rule = f"  [{r['rule']}]" if spans and r["rule"] else ""
        if run == 1:
            lines.append(f"{_SHORT.get(r['kind'], r['kind']):>8}  {r['text']}{rule}")
        elif r["kind"] in ("reveal", "hide"):
            lines.extend(f"{r['kind']:>8}  {t}{rule}" for t in fold_reveals([m["text"] for _, m in shown[k:k + run]], lang))
        else:
            lines.extend(f"{'move':>8}  {path}: {cards_seen(cards, lang)}{rule}"
                         for path, cards in _move_lines([m for _, m in shown[k:k + run]]))
        k += run
    if not st.over:
        who = st.to_move()
        lines.append(f"(the game is not finished: {', '.join(st.game.seat(p, lang) for p in who)} to move)" if who else
                     "(the game stopped here: a rule failed)")
        return "\n".join(lines)
    label = st.game.prog.score_label        # `score "Points | 文"`: named, and shown even when 0
    lines.append(result_line(st.game.result(st), text_plain(label, lang) if label is not None else None,
                             lambda q: st.game.seat(q, lang), lang))
    return "\n".join(lines)
