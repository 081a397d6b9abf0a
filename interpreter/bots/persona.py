"""Personas: characters who sit at the table — a name and aliases, a playing strength and style,
and lines they say when things happen. They are data (YAML files under rulesets/personas/,
validated by pydantic); the play is ISMCTS, bent by the style:

- ``strength``: ISMCTS iterations a move;
- ``boldness`` with ``bold_actions``: a preference for actions of those names (bidding, challenging);
- ``misplay``: the chance of playing a random legal action instead; with ``corrected`` the table
  notices and the persona takes it back and plays properly (the move is only talked about);
- ``chattiness``: the chance to say something when a line fits.

Lines are keyed by what happened, for any ruleset: ``action:NAME`` (the persona took an action of
that name), ``won`` / ``lost`` / ``draw`` (the game ended), ``revealed`` (a secret became public;
``revealed_mine`` when the secret was about the persona itself — the secret role was its own),
``misplay`` (the table corrected them), and ``log:PATTERN`` / ``log_mine:PATTERN`` /
``log_other:PATTERN`` for the ruleset's own log lines (a regular expression; ``{me}`` stands for the
persona's seat in ``log_mine`` — ``{me} wins trick`` — and for any other seat in ``log_other``).
"""

from __future__ import annotations

import random
import re
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..engine.determinize import determinize
from ..engine.game import Action
from ..engine.observe import action_seen, render_event, var_at
from ..engine.state import State
from ..errors import error
from ..load import read_text
from .base import reseed
from .ismcts import ISMCTS


class Style(BaseModel):
    model_config = ConfigDict(extra="forbid")
    boldness: float = Field(0.0, ge=0.0, le=5.0)
    bold_actions: list[str] = []
    misplay: float = Field(0.0, ge=0.0, le=1.0)
    corrected: bool = False
    chattiness: float = Field(0.5, ge=0.0, le=1.0)


_LOG_KEYS = ("log", "log_mine", "log_other", "log_ally", "log_foe")
_SAMPLES = 64       # worlds sampled to tell a partner from a foe (a 1-in-10 chance slips by 0.1%)


class PersonaFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    aliases: list[str] = Field(min_length=1)
    description: str = ""
    strength: int = Field(200, ge=1, le=100_000)
    style: Style = Field(default_factory=lambda: Style(boldness=0.0, misplay=0.0, chattiness=0.5))
    lines: dict[str, list[str]] = {}

    @field_validator("lines")
    @classmethod
    def _keys(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for k, lines in v.items():
            kind = k.split(":", 1)[0]
            if kind not in ("action", "won", "lost", "draw", "revealed", "revealed_mine", "misplay", *_LOG_KEYS):
                raise ValueError(f"unknown line key {k!r}: use action:NAME, won, lost, draw, revealed, revealed_mine, "
                                 "misplay, log:PATTERN, log_mine:PATTERN, log_other:PATTERN, log_ally:PATTERN or "
                                 "log_foe:PATTERN")
            if kind in _LOG_KEYS:
                try:
                    re.compile(k.split(":", 1)[1].replace("{me}", "P0"))
                except (re.error, IndexError) as e:
                    raise ValueError(f"{k!r}: not a valid pattern ({e})") from None
            if not lines:
                raise ValueError(f"{k!r} has no lines")
        return v


def personas_dir() -> Path:
    from ..resources import rulesets_dir

    return rulesets_dir() / "personas"


def load_persona_file(path: Path) -> PersonaFile:
    from ..runner.yaml_file import Located, parse_yaml

    loc = Located.of(str(path), read_text(path, "E501", what="persona file"))
    return parse_yaml(loc, PersonaFile, "persona", "a persona file is a mapping: id, name, aliases, strength, style, lines")


def all_personas() -> dict[str, PersonaFile]:
    out = {}
    for f in sorted(personas_dir().glob("*.yaml")):
        p = load_persona_file(f)
        out[p.id] = p
    return out


class PersonaBot:
    """ISMCTS with a character."""

    def __init__(self, persona: PersonaFile, seed: int, alias: int = 0) -> None:
        self.persona = persona
        self.name = persona.name if alias == 0 else persona.aliases[(alias - 1) % len(persona.aliases)]
        self.seed = seed ^ 0x5EED
        self.rng = random.Random(self.seed)
        self.search = ISMCTS(seed, iterations=persona.strength)
        self.said: list[str] = []
        self.last_line: dict[str, str] = {}
        self.seat: int | None = None

    # ---------------------------------------------------------------- play
    def choose(self, st: State, player: int, legal: list[Action]) -> Action:
        self.seat = player
        reseed(self.rng, self.seed, st)
        style = self.persona.style
        if len(legal) > 1 and self.rng.random() < style.misplay:
            wrong = legal[int(self.rng.random() * len(legal))]
            if not style.corrected:
                return wrong
            self.say("misplay", {"action": _at_table(st, wrong)})
        a = self.search.choose(st, player, legal)
        if style.boldness and style.bold_actions and len(legal) > 1:
            a = self.bolder(st, player, a, legal)
        seen = action_seen(st, a.raw, None)
        if seen is not None:        # a secret choice (hidden, simultaneous) is not talked about: not even its kind
            self.say(f"action:{a.name}", {"action": seen})
        self.last_estimate = self.search.last_estimate
        return a

    def bolder(self, st: State, player: int, chosen: Action, legal: list[Action]) -> Action:
        """With probability boldness/(1+boldness), prefer a bold action over a timid choice: the
        one the search tried most among those the rules' rollout weights allow (the bid that hand
        might make — a random bid from the whole range ran every auction up to the top); none
        allowed, the choice stands."""
        bold = [a for a in legal if a.name in self.persona.style.bold_actions]
        if not bold or chosen in bold:
            return chosen
        b = self.persona.style.boldness
        if self.rng.random() >= b / (1 + b):
            return chosen
        # weighed in a world sampled from the persona's view: a weight may read what it cannot see,
        # so each option is weighed as that world has it (a face-down card: the one it put there)
        seen = determinize(st, player, self.rng) if st.game.weighted else None
        ws = st.game.rollout_weights(seen, player, [_in_world(st, seen, player, a.raw) for a in bold]) \
            if seen is not None else None
        if ws is not None:
            bold = [a for a, w in zip(bold, ws, strict=True) if w > 0]
            if not bold:            # bold, not reckless: no bid that hand might make
                return chosen
        visits = self.search.last_visits
        return max(bold, key=lambda a: visits.get(a.id, 0))

    # ---------------------------------------------------------------- talk
    def say(self, key: str, values: dict[str, str] | None = None) -> None:
        lines = self.persona.lines.get(key)
        if not lines or self.rng.random() > self.persona.style.chattiness:
            return
        fresh = [x for x in lines if x != self.last_line.get(key)] or lines     # not the same line twice running
        line = fresh[int(self.rng.random() * len(fresh))]
        self.last_line[key] = line
        for k, v in (values or {}).items():
            line = line.replace("{" + k + "}", v)
        self.said.append(line)

    def react(self, st: State, since: int) -> None:
        """Lines for what happened in the events ``st.ev[since:]`` (as this seat saw them)."""
        reseed(self.rng, ~self.seed, st)        # talk too: the same lines in a resumed game
        seats = st.game.seat_texts[0]       # as the events read (P1, or the seats' names)
        me = seats[self.seat] if self.seat is not None else None
        for i in range(since, len(st.ev)):
            ev = st.ev[i]
            r = render_event(st, ev, self.seat, at=i)
            if r is None:
                continue
            if r["kind"] == "reveal_var":   # a secret about this seat itself is not news to it
                self.say("revealed_mine" if _names_seat(st, ev[2], self.seat) else "revealed")
            if r["kind"] == "log":
                side = partial(self._side, st, {})       # asked once per seat and log line
                fits = [key for key in self.persona.lines if _log_matches(key, r["text"], me, side, seats)]
                if any(k.startswith(("log_ally:", "log_foe:")) for k in fits):   # log_other: when side is unknown
                    fits = [k for k in fits if not k.startswith("log_other:")]
                for key in fits:
                    self.say(key)
        if st.over and self.seat is not None:
            outcome = st.game.result(st)[self.seat]["outcome"]
            self.say({"win": "won", "lose": "lost"}.get(outcome, "draw"))

    def _side(self, st: State, memo: dict[int, bool | None], q: int) -> bool | None:
        if q not in memo:
            memo[q] = self.counts_as_ally(st, q)
        return memo[q]

    def counts_as_ally(self, st: State, q: int) -> bool | None:
        """Is seat ``q`` on this persona's side, as everyone at the table can know? The ruleset's
        ``allies`` function, read in worlds sampled from what all players see (talk is public: a
        secret partner cheering the other's tricks would give the secret away): the same answer in all
        of them, or None — it is not known yet. Without the function, nobody else is."""
        if self.seat is None or st.game.allies_fn is None:
            return False
        first = st.game.allied(determinize(st, None, self.rng), self.seat, q)
        for _ in range(_SAMPLES - 1):
            if st.game.allied(determinize(st, None, self.rng), self.seat, q) != first:
                return None
        return first

    def take_lines(self) -> list[str]:
        out, self.said = self.said, []
        return out


def _at_table(st: State, a: Action) -> str:
    """An action as a line said at the table may name it: as everyone sees it (talk is public: a
    card laid face down is "a card"; a secret choice is not named)."""
    return action_seen(st, a.raw, None) or "…"


def _in_world(st: State, world: State, player: int, raw: tuple[Any, ...]) -> tuple[Any, ...]:
    """``player``'s pending option ``raw`` of ``st`` as the sampled ``world`` has it (determinize keeps
    the player's own options in their order, each card carried to the one now at its place)."""
    own, mine = (st.opts, world.opts) if st.schosen is None else \
        (st.sopts[st.pend[1].index(player)], world.sopts[st.pend[1].index(player)])  # type: ignore[index,union-attr]
    assert own is not None and mine is not None
    return mine[own.index(raw)]


def _names_seat(st: State, slot: int, seat: int | None) -> bool:
    """Does the variable (entry) at ``slot`` hold the player ``seat`` (or is it ``seat``'s own entry)?"""
    from ..compile import type_code

    found = var_at(st.game, slot)
    if found is None:
        return False
    v, i = found
    return (v.scope == "player" and i == seat) or (type_code(v.type) == "player" and st.g[slot] == seat)


def _log_matches(key: str, text: str, me: str | None, ally: Any = None, seats: list[str] | None = None) -> bool:
    """Does a ``log…:`` line key fit this log line, for seat ``me``? ``log_other`` is about any
    other seat, ``log_ally`` / ``log_foe`` about one that ``ally(seat)`` says is / is not on me's
    side (None: me cannot tell, and neither fits). ``seats``: how the log calls each seat (P0, P1, …
    unless the ruleset names them)."""
    kind, _, pat = key.partition(":")
    if kind == "log":
        return re.search(pat, text) is not None
    if kind not in _LOG_KEYS or me is None:
        return False
    mine = re.search(pat.replace("{me}", re.escape(me)), text) is not None
    if kind == "log_mine" or mine:
        return mine and kind == "log_mine"
    names = "|".join(re.escape(n) for n in seats) if seats else r"P\d+"
    other = re.search(pat.replace("{me}", f"({names})", 1).replace("{me}", f"(?:{names})"), text)
    if other is None or kind == "log_other":
        return other is not None
    who = other.group(1)
    side = ally(seats.index(who) if seats else int(who[1:])) if ally is not None else False
    return side is not None and side == (kind == "log_ally")


def make_persona(spec: str, seed: int, alias: int = 0) -> PersonaBot:
    pid = spec.split(":", 1)[1] if ":" in spec else spec
    people = all_personas()
    if pid not in people:
        from ..errors import did_you_mean

        raise error("E505", f"no persona {pid!r}", hint=did_you_mean(pid, people) or "personas: " + ", ".join(people))
    return PersonaBot(people[pid], seed, alias)


def describe(persona: PersonaFile) -> dict[str, Any]:
    return {"id": persona.id, "name": persona.name, "aliases": persona.aliases, "strength": persona.strength}
