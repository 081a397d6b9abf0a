"""A game at a table that front ends other than the terminal drive (``fuda serve``): the game, its
state and the actions played, as plain data, and the seats' bots.

Everything a seat is shown comes from ``observe.view`` for that seat (never from the state): its
view, its own legal actions (the view's decision) grouped as the terminal groups them, and the
table talk, which is public. Nothing here knows any particular game. A request the table cannot
take (an unknown seat, an illegal action) is a :class:`TableError` with a status and a message.
"""

from __future__ import annotations

import json
import secrets
import threading
from pathlib import Path
from typing import Any

from ..bots.base import make_bot
from ..engine import observe
from ..engine.game import Action, Game
from ..errors import FudaError
from ..words import say, typed_seat
from .history import rebuilt, undo_point
from .play import game_log, hand_order, menu_first, said, talk
from .render import compact_ids, number_run

LOG_TAIL = 600      # the events a state answer renders for its seat: the last this many
TALK_TAIL = 30      # and the last this many lines of table talk


class TableError(Exception):
    """A request the table refuses: HTTP ``status``, a message, and any extra fields (the legal actions)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra

    def as_json(self) -> dict[str, Any]:
        return {"error": self.message, **self.extra}


class Table:
    """One game at a time, with bots in the seats that are not ``human``; a new game takes the next seed.
    Every method takes the table's lock: the server answers requests on several threads.

    The bots move at once, inside the call that made it their turn (``act``, ``new_game``, …), or,
    with ``background``, one move at a time on a thread of their own (:meth:`start_bots`), so that a
    request is answered at once and a page sees their moves come; :meth:`settle` waits for them."""

    def __init__(self, game: Game, seats: list[str], seed: int, lang: int = 0, log_path: str | None = None,
                 background: bool = False) -> None:
        self.game = game
        self.seats = seats
        self.lang = lang
        self.log_path = log_path
        self.background = background
        self.humans = [i for i, s in enumerate(seats) if s == "human"]
        self.lock = threading.RLock()
        self.moved = threading.Condition(self.lock)     # notified whenever the table changes
        self.version = 0            # changes whenever the table does: a page polls it
        self.number = 0             # the games played at this table, this one included
        self.log_error: str | None = None
        self.failure: str | None = None     # a rule that failed while a bot moved in the background
        self.closed = False
        with self.lock:
            self._start(seed)

    # ------------------------------------------------------------------ the game
    def _start(self, seed: int) -> None:
        if self.number:
            self._write_log(final=True)     # the game left behind, as it stands
        self.seed = seed
        self.number += 1
        self.agents: list[Any] = []
        for i, spec in enumerate(self.seats):
            alias = sum(1 for s in self.seats[:i] if s == spec)      # the same persona again: an alias name
            self.agents.append(None if spec == "human" else make_bot(spec, seed * 1000 + i, alias=alias))
        self.actions: list[tuple[int, str]] = []
        self.decided: list[int] = []        # where in ``actions`` a human had a real choice: undo's points
        self.talk: list[dict[str, Any]] = []
        self.failure = None
        self.st = self.game.new_state(seed)
        self._advance()
        self._changed()

    def _bot_to_move(self) -> int | None:
        if self.st.over or self.failure:
            return None
        return next((p for p in self.st.to_move() if self.agents[p] is not None), None)

    def _bot_moves(self, p: int) -> None:
        agent = self.agents[p]
        a = agent.choose(self.st, p, self.game.legal_actions(self.st, p))
        self._said(p, agent.name, said(agent))      # what it said while choosing comes first
        self._apply(p, a)

    def _advance(self) -> None:
        """The bots move until a human is to decide or the game is over (in the background: they are woken)."""
        if self.background:
            self.moved.notify_all()
            return
        while (p := self._bot_to_move()) is not None:
            self._bot_moves(p)

    def start_bots(self) -> threading.Thread:
        """The bots' thread, for a table in the background: it moves while a bot is to move."""
        thread = threading.Thread(target=self._run_bots, name="fuda-bots", daemon=True)
        thread.start()
        return thread

    def _run_bots(self) -> None:
        with self.moved:
            while True:
                self.moved.wait_for(lambda: self.closed or self._bot_to_move() is not None)
                if self.closed:
                    return
                p = self._bot_to_move()
                assert p is not None
                try:
                    self._bot_moves(p)
                except FudaError as e:      # a rule failed: the table stops there, undo or a new game go on
                    self.failure = f"a rule failed: {e.first.message}"
                except Exception as e:      # a bug in fuda: said on the page, and the thread lives on
                    self.failure = f"internal error: {type(e).__name__}: {e}"
                self._changed()

    def close(self) -> None:
        """Stop the table: the bots' thread ends and the log (also of a game not over) is written."""
        with self.moved:
            self.closed = True
            self._write_log(final=True)
            self.moved.notify_all()

    def settle(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until no bot is to move; whether none is."""
        with self.moved:
            return self.moved.wait_for(lambda: self._bot_to_move() is None, timeout)

    def _apply(self, p: int, a: Action) -> None:
        at = len(self.st.ev)
        self.game.apply(self.st, p, a)
        self.actions.append((p, a.id))
        for seat, name, line in talk(self.agents, self.st, at):
            self._said(seat, name, [line])

    def _said(self, seat: int, name: str, lines: list[str]) -> None:
        self.talk.extend({"seat": seat, "name": name, "text": line} for line in lines)

    def _changed(self) -> None:
        self.version += 1
        self._write_log()
        self.moved.notify_all()

    def log_file(self) -> Path:
        """Where the current game's log goes: ``log_path``, and STEM-2.json, … for later games."""
        path = Path(self.log_path or "")
        return path.with_name(f"{path.stem}-{self.number}{path.suffix}") if self.number > 1 else path

    def _write_log(self, final: bool = False) -> None:
        """The current game's log in ``log_path`` (a later game at the table in STEM-2.json, …), written
        after every change, so nothing is lost whenever the server stops. At a table of several humans
        the file would tell the seed and every secret choice to whoever can read it mid-game: it is
        written once the game is over, or (``final``) when the table stops or moves to a new game."""
        if not self.log_path:
            return
        if len(self.humans) > 1 and not self.st.over and not final:
            return
        path = self.log_file()
        try:
            path.write_text(json.dumps(self._game_log(), ensure_ascii=False, indent=1), encoding="utf-8")
            self.log_error = None
        except OSError as e:
            self.log_error = f"cannot write {path}: {e.strerror or e}"

    # ------------------------------------------------------------------ requests
    def seat(self, raw: Any, acting: bool = False) -> int | None:
        """A seat as a request names it (0, "0", "P0"); None, absent or "spectator": the spectator
        (public information only), unless ``acting``. Only a human's seat is shown or acts: a bot's
        view is its own."""
        if raw is None or raw == "" or raw == "spectator":
            if acting:
                raise TableError(400, "name the seat that acts: \"seat\": N")
            return None
        text = str(raw)
        p = typed_seat(text)
        if p is None or p >= self.game.n:
            raise TableError(400, f"unknown seat {text!r}: the seats are 0–{self.game.n - 1}"
                             + (f" (humans: {', '.join(map(str, self.humans))})" if self.humans else ""))
        if p not in self.humans:
            raise TableError(400, f"P{p} is played by a bot ({self.seats[p]}): only a human seat is shown or acts",
                             humans=self.humans)
        return p

    def default_seat(self) -> int | None:
        return self.humans[0] if self.humans else None

    def state(self, seat: int | None, lang: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` may see it (None: a spectator)."""
        with self.lock:
            lang = self.lang if lang is None else lang
            st, game = self.st, self.game
            v = observe.view(st, seat, log_tail=LOG_TAIL, lang=lang)
            if seat is not None and v.get("decision"):
                hand_order(game.legal_actions(st, seat), v, game.card_index)   # the view's list in hand order
            legal = v.get("decision", {}).get("legal", [])
            names = set(game.card_names)
            shown = {c for z in v["zones"].values() for c in z["cards"] if c is not None}
            actions = [{**a, "cards": [w for w in a["id"].split() if w in names]} for a in legal]
            return {
                "version": self.version,
                "game": {"ruleset": game.name, "title": game.title_in(lang), "players": game.n,
                         # the seed deals every hand: at a table of several humans, told once the game is over
                         "seed": self.seed if len(self.humans) <= 1 or st.over else None,
                         "number": self.number, "lang": "ja" if lang else "en"},
                "seat": seat,
                "seats": [{"player": i, "kind": spec, "name": "human" if a is None else a.name}
                          for i, (spec, a) in enumerate(zip(self.seats, self.agents, strict=True))],
                "humans": self.humans,
                "to_move": v["to_move"],
                "prompt": v.get("decision", {}).get("prompt"),
                "actions": actions,
                "choices": _grouped([a["id"] for a in actions]),
                "can_undo": seat is not None and undo_point(self.actions, self.decided, seat)[0] is not None,
                "moves": len(self.actions),
                "talk": self.talk[-TALK_TAIL:],
                # how a hand is sorted on screen: the ruleset's `show … sorted by`, else deck order
                # (of the cards the view shows, and only those)
                "card_order": v.get("order") or {c: game.card_index[c] for c in shown},
                "log_error": self.log_error,
                "thinking": self._bot_to_move() is not None,      # a bot is to move: more is coming
                "failure": self.failure,
                "view": v,
            }

    def act(self, seat: int, action: Any, lang: int | None = None) -> dict[str, Any]:
        """``seat`` takes ``action`` (its id, or as ``fuda play`` accepts it typed); then the bots move.
        The table as ``seat`` sees it then."""
        with self.lock:
            st, game = self.st, self.game
            if not isinstance(action, str) or not action.strip():
                raise TableError(400, "name the action: \"action\": ID (one of the legal actions' ids)")
            if st.over:
                raise TableError(400, say("game_over", self.lang) + ": start a new game (POST /api/new)", legal=[])
            if seat not in st.to_move():
                who = ", ".join(f"P{q}" for q in st.to_move())
                raise TableError(400, f"P{seat} is not to move now ({who} {'is' if len(st.to_move()) == 1 else 'are'})",
                                 legal=[], to_move=st.to_move())
            # in the order the page lists them (hand order), so that a typed shared label takes the first shown
            legal = hand_order(game.legal_actions(st, seat), observe.view(st, seat), game.card_index)
            chosen = next((a for a in legal if a.id == action), None)
            if chosen is None:
                try:
                    raw = game.find_action(st, seat, action)
                    chosen = menu_first(legal, next(a for a in legal if a.raw == raw), action)
                except (FudaError, StopIteration):
                    ids = [a.id for a in legal]
                    raise TableError(400, f"{action!r} is not legal now for P{seat}; legal: "
                                     + ", ".join(compact_ids(ids)), legal=ids) from None
            if len(legal) > 1:
                self.decided.append(len(self.actions))
            self._apply(seat, chosen)
            self._advance()
            self._changed()
            return self.state(seat, lang)

    def undo(self, seat: int, lang: int | None = None) -> dict[str, Any]:
        """Take back ``seat``'s last real decision and every move made since: the table as ``seat`` sees
        it then, with ``undone``, the number of moves taken back."""
        with self.lock:
            if self.st.over and len(self.humans) > 1:     # its seed, which deals every hand, is out
                raise TableError(400, say("undo_over", self.lang))
            back, other = undo_point(self.actions, self.decided, seat)
            if other is not None:
                raise TableError(400, say("undo_other", self.lang, q=f"P{other}"))
            if back is None:
                raise TableError(400, say("no_undo", self.lang))
            n = len(self.actions) - back
            self.st = rebuilt(self.game, self.seed, self.actions[:back])
            del self.actions[back:]
            self.decided[:] = [i for i in self.decided if i < back]
            self.failure = None
            self._advance()
            self._changed()
            return {**self.state(seat, lang), "undone": n}

    def new_game(self) -> None:
        """A new game at the table: the next seed, the same seats. With several humans, a seed drawn
        afresh: the last one is shown once its game is over, and the next must not follow from it."""
        with self.lock:
            self._start(self.seed + 1 if len(self.humans) <= 1 else secrets.randbits(32))

    def log(self) -> dict[str, Any]:
        """The game log, as ``fuda play --log`` writes it: ``fuda replay`` re-runs it. It names every
        action, secret ones too, and the seed that dealt every hand: at a table of several humans it
        is given only once the game is over (one human plays against bots, whose hands they could
        not use a log to see in ``fuda play --log`` either)."""
        with self.lock:
            if len(self.humans) > 1 and not self.st.over:
                raise TableError(403, "the game log names every secret choice and the seed that dealt every hand: "
                                      "with several humans at the table it is given once the game is over")
            return self._game_log()

    def _game_log(self) -> dict[str, Any]:
        """The log, unguarded: for the table's own ``--log`` file, whose writing ``_write_log`` times."""
        return game_log(self.game, self.seed, list(self.actions), self.seats, self.lang)


def _grouped(ids: list[str]) -> list[dict[str, Any]]:
    """The legal actions as a page lists them: one entry an action, but a run that differs only by an
    evenly spaced last number (`bet 20` … `bet 400`) as one entry, as ``fuda play`` lists them."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(ids):
        n, prefix, lo, hi, step = number_run(ids, i)
        out.append({"first": i, "count": 1} if n == 1 else
                   {"first": i, "count": n, "prefix": prefix, "lo": lo, "hi": hi, "step": step})
        i += n
    return out
