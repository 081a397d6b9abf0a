"""Scenario files: rule tests as data (YAML, validated by pydantic).

A scenario loads a ruleset with options and a seed, runs its setup, places given cards into
given zones and sets variables (``setup:``), starts play, then runs ``steps``: actions by any
player (responses on others' turns included), expected refusals, edits, and expectations about
zones, variables, legal actions, events, the stack, views and the result. See docs/cli.md.

Every problem is reported as ``file:line:col: error[code]: message`` at the YAML line concerned:
E501 for a malformed file, E502 for an expectation that does not hold (with what was found).
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import math
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .. import types as T
from ..engine import runtime as R
from ..engine.game import Game
from ..engine.observe import card_visible, render_event, view
from ..engine.state import State
from ..errors import FudaError, IllegalAction, RuleRuntimeError
from ..load import read_text
from .render import compact_ids, folded_listing, run_ids
from .yaml_file import Located, parse_yaml, typed_word

# ------------------------------------------------------------------ file model


class Strict(BaseModel):
    # a card named by a number (`"{v}"`: 6 nimmt!'s 1…104) may be written unquoted: `row1: [10]`
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)


class ZoneSpec(Strict):
    cards: list[str] | None = None        # exact contents, bottom → top
    top: list[str] | None = None          # these on top, first listed is the topmost
    bottom: list[str] | None = None       # these at the bottom, first listed is the bottommost
    contains: list[str] | None = None     # (expect) these are somewhere in it
    excludes: list[str] | None = None     # (expect) these are not in it
    unordered: list[str] | None = None    # (expect) exactly these, any order
    size: int | None = None               # (expect)
    empty: bool | None = None             # (expect)
    lines: list[list[str] | str] | None = None  # a sequence of zones, front first (a name: a declared zone)


class Stacked(Strict):
    top: list[str] = Field(default_factory=list)       # the first listed is the topmost
    bottom: list[str] = Field(default_factory=list)    # the first listed is the bottommost


class Edit(Strict):
    zones: dict[str, list[str] | list[list[str] | str] | ZoneSpec] = Field(default_factory=dict)
    rest: str | None = None
    vars: dict[str, Any] = Field(default_factory=dict)
    card_vars: dict[str, dict[str, Any]] = Field(default_factory=dict)
    face_up: list[str] = Field(default_factory=list)      # as `move … face up` leaves them: everyone sees them
    revealed: dict[str | int, list[str]] = Field(default_factory=dict)     # player → cards, as `reveal … to`
    face_down: list[str] = Field(default_factory=list)    # as `hide`: face up and reveals forgotten
    current: str | int | None = None


class LegalSpec(Strict):
    includes: list[str] | None = None
    excludes: list[str] | None = None
    exactly: list[str] | None = None
    count: int | None = None


class TextsSpec(Strict):
    includes: list[str] | None = None
    excludes: list[str] | None = None
    sequence: list[str] | None = None


class ViewSpec(Strict):
    player: str | int | None
    shows: list[str] | None = None
    hides: list[str] | None = None
    vars: dict[str, Any] | None = None
    hides_vars: list[str] | None = None
    log: list[str] | TextsSpec | None = None    # the log as this player reads it (hidden cards masked)


class Expect(Strict):
    to_move: list[str | int] | None = None
    current: str | int | None = None
    phase: str | None = None
    legal: list[str] | LegalSpec | None = None
    player: str | int | None = None           # whose legal actions `legal` (and `prompt`) looks at
    prompt: str | None = None                  # the pending decision's prompt as that player reads it
    zones: dict[str, list[str] | list[list[str] | str] | ZoneSpec] | None = None
    vars: dict[str, Any] | None = None
    card_vars: dict[str, dict[str, Any]] | None = None
    events: list[str] | TextsSpec | None = None
    new_events: list[str] | TextsSpec | None = None
    stack: list[str] | None = None
    over: bool | None = None
    winner: list[str | int] | None = None
    result: dict[Any, Any] | None = None       # keys: players, read by Run.player
    scores: dict[Any, float] | None = None
    places: dict[Any, int] | None = None
    view: ViewSpec | list[ViewSpec] | None = None


class Step(Strict):
    act: str | None = None                     # "P0: play ♥7" or with `player`
    player: str | int | None = None
    illegal: bool = False                       # the action must be refused
    expect: Expect | None = None
    set: Edit | None = None
    random: int | None = None                   # play this many random legal actions
    until_phase: str | list[str] | None = None  # stop as one of these phases begins (the end of a hand)


class Scenario(Strict):
    ruleset: str
    name: str | None = None
    description: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    skip_setup: bool = False
    stacked: dict[str, Stacked] = Field(default_factory=dict)   # cards on top of a zone before setup runs
    start_phase: str | None = None
    refused: str | None = None      # the ruleset with these options must be refused: an error code or words of it
    carried: dict[str, Any] = Field(default_factory=dict)    # a match's game: what the game before left

    @field_validator("carried", mode="before")
    @classmethod
    def _carried_mapping(cls, v: Any) -> Any:
        if not isinstance(v, dict):     # pydantic's words were "Input should be a valid dictionary"
            raise ValueError("give each carried variable by name with its value: {first: P1, games: 3}")
        return v
    setup: Edit | None = None
    steps: list[Step] = Field(default_factory=list)

    @field_validator("steps", mode="before")
    @classmethod
    def _shorthand(cls, v: Any) -> Any:
        """``- P0: play ♥7`` is short for ``- act: "P0: play ♥7"``."""
        if not isinstance(v, list):
            return v
        out = []
        for s in v:
            if isinstance(s, dict):
                keys = [k for k in s if isinstance(k, str) and re.fullmatch(r"P\d+", k)]
                if len(keys) == 1 and isinstance(s[keys[0]], str | int | float) and "act" not in s:
                    s = dict(s)     # a number too (`- P0: 1`): refused as an action, with the legal ones
                    s["act"] = f"{keys[0]}: {s.pop(keys[0])}"
            out.append(s)
        return out


# ------------------------------------------------------------------ YAML with positions
def load_scenario(path: str | Path) -> tuple[Scenario, Located]:
    p = Path(path)
    return parse_scenario(read_text(p, "E501", what="scenario"), str(p))


def parse_scenario(text: str, file: str) -> tuple[Scenario, Located]:
    loc = Located.of(file, text)
    return parse_yaml(loc, Scenario, "scenario", "a scenario is a mapping with ruleset, setup and steps",
                      _step_hint, _names_action), loc


_NAMED = {"legal", "events", "new_events", "stack", "log"}


def _names_action(path: tuple[Any, ...]) -> bool:
    """Whether the value at ``path`` is an action or a text (`- P0: yes`, `legal: [yes, pass]`), where
    an unquoted `yes` or `null` is the word, not YAML's bool or none."""
    step = len(path) == 3 and path[0] == "steps" and isinstance(path[2], str) and \
        (path[2] == "act" or re.fullmatch(r"P\d+", path[2]) is not None)
    return step or path[:1] == ("steps",) and any(part in _NAMED for part in path if isinstance(part, str))


def _step_hint(path: tuple[Any, ...]) -> str | None:
    """`- P0: …` that is not the shorthand: two players in one step, or an action that is no text."""
    if len(path) == 3 and path[0] == "steps" and isinstance(path[2], str) and re.fullmatch(r"P\d+", path[2]):
        return "a step is one action, written as text: - P0: draw (several actions: one step each)"
    if len(path) >= 2 and path[-2] == "legal" and path[-1] == "player":     # whose legal actions: beside it
        return "player goes beside legal, not inside it: expect: {player: P0, legal: {count: 3}}"
    if (path[:1] == ("setup",) and len(path) == 2 or len(path) == 4 and path[0] == "steps" and path[2] == "set") \
            and isinstance(path[-1], str):      # `setup: {score: {P0: 95}}` (a Hearts newcomer)
        return (f"a variable goes under vars: vars: {{{path[-1]}: …}} (score too); "
                "the keys here: " + ", ".join(Edit.model_fields))
    return None


# ------------------------------------------------------------------ running
@dataclass
class Outcome:
    name: str
    file: str
    passed: bool
    message: str = ""
    steps: int = 0
    events: list[str] = field(default_factory=list)     # the game's log as replay prints it (for --events)


class Runner:
    def __init__(self, sc: Scenario, loc: Located, base: Path) -> None:
        self.sc = sc
        self.loc = loc
        self.base = base
        self.game: Game
        self.st: State
        self.seen_events = 0
        self.paused = False     # stopped at a phase's start by `until_phase`: the next step goes on from there
        self.edited_at: int | None = None     # where the events after the setup edits begin (no start_phase)

    # -------------------------------------------------------------- helpers
    def player(self, v: Any, path: tuple[Any, ...]) -> int:
        if isinstance(v, int) and not isinstance(v, bool):
            p = v
        elif isinstance(v, str) and re.fullmatch(r"P\d+", v.strip()):
            p = int(v.strip()[1:])
        else:
            raise self.loc.error("E501", f"a player is written P0, P1, …; got {v!r}", path)
        if not 0 <= p < self.game.n:
            raise self.loc.error("E501", f"there is no player P{p} ({self.game.n} players)", path)
        return p

    def once(self, keys: Any, resolve: Callable[[Any, tuple[Any, ...]], int], path: tuple[Any, ...]) -> None:
        """Each key of a mapping names a different player or card: `P0` and `0`, `♠A` and `SA` are one
        written twice, and the second would silently win (a YAML duplicate key is caught on reading)."""
        seen: dict[int, Any] = {}
        for k in keys:
            x = resolve(k, (*path, k))
            if x in seen:
                spelt = f'"{k}"' if str(k) != str(k).strip() else k      # a key with spaces: quoted
                raise self.loc.error("E501", f"{spelt} is {seen[x]} again: written twice (the first would be lost)",
                                     (*path, k), at_key=True)
            seen[x] = k

    def card(self, name: str, path: tuple[Any, ...]) -> int:
        name = unicodedata.normalize("NFC", str(name))      # ガ as カ + U+3099: as the ruleset reads it
        idx = self.game.card_index.get(name)
        if idx is None:         # its label, or an alias in another case ("h7"), if it names one card
            idx = self.game.typed_cards.get(str(name).lower())
        if idx is None:
            from ..errors import did_you_mean

            low = str(name).lower()
            copies = [n for i, n in enumerate(self.game.card_names)
                      if any(texts[i].lower() == low for texts in self.game.card_texts)]
            if copies:
                return self.one_of_label(name, copies, path)
            raise self.loc.error("E501", f"no card is named {name!r}", path,
                                 "these options leave it out of the deck: only a zone's `excludes` may name it"
                                 if self.left_out(name) else did_you_mean(str(name), self.game.card_names))
        return idx

    def left_out(self, name: str) -> bool:
        """Whether ``name`` is no card of this game but one its options leave out of the deck (a
        `cards { if … }` not taken: Bohnanza's blue beans with three players), by name or label."""
        game = self.game
        low = str(name).casefold()
        if str(name) in game.card_index or str(name).lower() in game.typed_cards \
                or any(t.casefold() == low for texts in game.card_texts for t in texts):
            return False
        return any(low == n.casefold() or low in (t.casefold() for t in texts)
                   for n, texts in game.prog.cards.absent.items())

    def one_of_label(self, name: str, copies: list[str], path: tuple[Any, ...]) -> int:
        """A label where one card must be named (an edit places that card): the card if only one
        bears the label, else E501 naming the copies."""
        if len(copies) == 1:
            return self.game.card_index[copies[0]]
        shown = ", ".join(copies) if len(copies) <= 4 else f"{copies[0]}, {copies[1]} … {copies[-1]}"
        raise self.loc.error("E501", f"{name} is the label of {len(copies)} cards ({shown}): name one of them here",
                             path, "zone expectations (contains, excludes, cards …) take a label for any copy; "
                             "edits and card_vars place or set one card, and a view's shows and hides check one")

    def label_only(self, name: str, path: tuple[Any, ...]) -> bool:
        """Whether ``name`` is no card's name but the label of one or more (a copy: `Gold`)."""
        game = self.game
        if str(name) in game.card_index or str(name).lower() in game.typed_cards:
            return False
        low = str(name).lower()
        if any(t.lower() == low for texts in game.card_texts for t in texts):
            return True
        self.card(name, path)           # neither: the error, with its did-you-mean
        return False

    def fits(self, name: str, c: int, path: tuple[Any, ...]) -> bool:
        """Whether an expectation's ``name`` stands for card ``c``: its name, or its label (either
        language), which stands for any copy — expectations check cards, edits place one."""
        if self.label_only(name, path):
            return any(texts[c].lower() == str(name).lower() for texts in self.game.card_texts)
        return self.card(name, path) == c

    def zone_slots(self) -> dict[str, int]:
        """Zones by name; before the game is made (``stacked``), the declared ones."""
        out = {name: slot for slot, name in enumerate(self.game.zone_label)}
        if hasattr(self, "st"):
            for slot in [s for q in self.st.sq for s in q]:
                out[self.game.zone_name(self.st, slot)] = slot
        # per-player zones may be named with a bare index too: hand[0]
        for name, slot in list(out.items()):
            out.setdefault(re.sub(r"\[P(\d+)\]", r"[\1]", name), slot)
        return out

    def zone(self, name: str, path: tuple[Any, ...]) -> int:
        slots = self.zone_slots()
        key = name.replace(" ", "")
        if key in slots:
            return slots[key]
        from ..errors import did_you_mean

        # without the bare-index aliases (hand[0] beside hand[P0])
        named = [z for z in slots if re.sub(r"\[(\d+)\]$", r"[P\1]", z) == z or re.sub(r"\[(\d+)\]$", r"[P\1]", z) not in slots]
        hint = did_you_mean(key, named)
        # a seat by its name (hand[North]): scenario files write seats as P0, P1, …
        m = re.fullmatch(r"(.+?)\[(.+)\]", name.strip())
        if m and self.game.prog.seat_names:
            typed = " ".join(m[2].split()).lower()
            q = next((q for texts in self.game.seat_texts for q, t in enumerate(texts)
                      if " ".join(t.split()).lower() == typed), None)
            if q is not None and f"{m[1].strip()}[P{q}]" in slots:
                hint = f"seats are written P0, P1, …: {name.strip()} is {m[1].strip()}[P{q}]"
        raise self.loc.error("E501", f"no zone is named {name!r}", path,
                             hint or "zones: " + ", ".join(named[:12])
                             + (", …" if len(named) > 12 else ""),
                             at_key=bool(path) and path[-1] == name)

    def seq_index(self, name: str) -> int | None:
        m = re.fullmatch(r"(.+?)(?:\[P?(\d+)\])?", name.replace(" ", ""))
        if not m:
            return None
        for i, zi in enumerate(self.game.seq_decl):
            z = self.game.prog.zones[zi]
            owner = self.game.seq_owner[i]
            # table[0] is a zone of the shared sequence table, not the sequence: only lines[P0] names one
            if z.name == m.group(1) and (m.group(2) is None if owner is None else
                                         m.group(2) is not None and int(m.group(2)) == owner):
                return i
        return None

    def value(self, var_type: Any, v: Any, path: tuple[Any, ...]) -> Any:
        t = var_type
        word = self.loc.words.get(path) if v is None or isinstance(v, bool) else None
        if word is not None and (t.kind == "text" or t.kind == "enum" and (
                word in self.game.enum_members[t.name] or isinstance(v, bool))):
            v = word        # an unquoted `null`, `yes`, `off` as written: a member so named (Skat's Null game)
        if v is None or (v == "none" and t.kind != "text"):     # `none`, as texts write it (or YAML's null)
            return None
        if t.kind == "card":
            return self.card(v, path)
        if t.kind == "player":
            return self.player(v, path)
        if t.kind == "enum":
            members = self.game.enum_members[t.name]
            if v not in members:
                raise self.loc.error("E501", f"{v!r} is not one of {', '.join(members)}", path)
            return members.index(v)
        if t.kind == "list":
            if not isinstance(v, list):
                raise self.loc.error("E501", f"expected a list, got {v!r}", path)
            return tuple(self.value(t.elem or T.ANY, x, (*path, i)) for i, x in enumerate(v))
        if t.kind == "square" and isinstance(v, list):
            return tuple(v)
        if t.kind in SCALARS:
            fits, shown = SCALARS[t.kind]
            if not fits(v):
                got = f'the text "{v}"' if isinstance(v, str) else _shown(v)     # "1" in quotes is no number
                raise self.loc.error("E501", f"expected {shown}, got {got}", path,
                                     "write it without quotes" if isinstance(v, str) and fits(_scalar(v)) else None)
        return v

    def carried(self, given: dict[str, Any]) -> dict[str, Any]:
        """The scenario's `carried:` values (written as `vars:` are) as the game takes them: a game
        of a match that starts where the game before left its `carried` variables."""
        out: dict[str, Any] = {}
        for name, val in given.items():
            path = ("carried", name)
            v = self.var(name, path)
            if name not in self.game.carried_names:
                raise self.loc.error("E501", f"{name} is not carried from game to game", path, at_key=True,
                                     hint=f"declare it `var {name}: … = … carried`, or set it under setup: vars:")
            if v.scope == "player":
                each = list(self.game.g_init[v.slot:v.slot + self.game.n])
                for p, x in self.per_player(name, v, val, path).items():
                    each[p] = x
                out[name] = each
            else:
                out[name] = self.value(v.type, val, path)
        return out

    def per_player(self, name: str, v: Any, val: Any, path: tuple[Any, ...]) -> dict[int, Any]:
        """A per-player variable's values as a scenario writes them (`{P0: …, P1: …}`), by player."""
        if not isinstance(val, dict):
            raise self.loc.error("E501", f"{name} is per player: give {{P0: …, P1: …}}", path)
        self.once(val, self.player, path)
        return {self.player(who, (*path, who)): self.value(v.type, x, (*path, who)) for who, x in val.items()}

    def var(self, name: str, path: tuple[Any, ...]) -> Any:
        for v in self.game.prog.vars:
            if v.name == name:
                return v
        from ..errors import did_you_mean

        raise self.loc.error("E501", f"no variable is named {name!r}", path,
                             did_you_mean(name, [v.name for v in self.game.prog.vars]))

    # -------------------------------------------------------------- edits
    def edit(self, e: Edit, path: tuple[Any, ...]) -> None:
        st = self.st
        game = self.game
        rest_slot = self.zone(e.rest, (*path, "rest")) if e.rest else game.prog.cards.start_zone.base  # type: ignore[union-attr]
        placed: set[int] = set()
        plan: list[tuple[int, ZoneSpec, tuple[Any, ...]]] = []
        for zname, spec in e.zones.items():
            zpath = (*path, "zones", zname)
            if isinstance(spec, list) and (any(isinstance(x, list) for x in spec) or self.seq_index(zname) is not None):
                spec = ZoneSpec(lines=spec)  # type: ignore[arg-type]
            elif isinstance(spec, list):
                spec = ZoneSpec(cards=[str(x) for x in spec])
            if spec.lines is not None:
                self.set_lines(zname, spec.lines, zpath, rest_slot, placed)
                continue
            slot = self.zone(zname, zpath)
            twice = next((p for s, _, p in plan if s == slot), None)
            if twice is not None:       # `hand[P0]` and `hand[0]`: one zone, written twice
                raise self.loc.error("E501", f"{zname} is {twice[-1]} again: one zone written twice (the first "
                                     "would be lost)", zpath, at_key=True)
            plan.append((slot, spec, zpath))
        for _slot, spec, zpath in plan:
            names = (spec.cards or []) + (spec.top or []) + (spec.bottom or [])
            for n in names:
                c = self.card(n, zpath)
                if c in placed:
                    raise self.loc.error("E501", f"card {n} is placed twice", zpath)
                placed.add(c)
        displaced = any(c not in placed for slot, spec, _ in plan if spec.cards is not None for c in st.z[slot])
        for slot, spec, zpath in plan:
            if spec.cards is not None and slot == rest_slot and displaced:
                raise self.loc.error(
                    "E501", f"{zpath[-1]} would not hold exactly these cards: the cards the listed zones lose go "
                    f"to `rest`, and `rest` is {zpath[-1]}" + ("" if e.rest else " (the zone the cards start in)"),
                    zpath, "say where they go with `rest: ZONE` beside `zones:` (a discard pile, another "
                    "hand), or give the zone as {top: [...]} to put cards on top of what it holds")
            if spec.cards is not None:
                for c in list(st.z[slot]):
                    if c not in placed:
                        self.put(c, rest_slot, top=False)
                for n in spec.cards:
                    self.put(self.card(n, zpath), slot, top=True)
            for n in reversed(spec.top or []):
                self.put(self.card(n, zpath), slot, top=True)
            for n in reversed(spec.bottom or []):
                self.put(self.card(n, zpath), slot, top=False)
        for name, val in e.vars.items():
            vpath = (*path, "vars", name)
            v = self.var(name, vpath)
            if v.readonly:
                raise self.loc.error("E501", f"{name} is kept by the engine", vpath)
            if v.scope == "player":
                for p, x in self.per_player(name, v, val, vpath).items():
                    st.g[v.slot + p] = x
            elif v.scope == "card":
                raise self.loc.error("E501", f"{name} belongs to cards: use card_vars", vpath)
            else:
                st.g[v.slot] = self.value(v.type, val, vpath)
        self.once(e.card_vars, self.card, (*path, "card_vars"))
        for cname, vals in e.card_vars.items():
            c = self.card(cname, (*path, "card_vars", cname))
            for name, val in vals.items():
                vpath = (*path, "card_vars", cname, name)
                v = self.var(name, vpath)
                if v.scope != "card":
                    raise self.loc.error("E501", f"{name} is not a per-card variable", vpath)
                st.g[v.slot + c] = self.value(v.type, val, vpath)
        self.faces(e, path)
        if self.game.top_slots:     # a pile `top up` edited: its new top card face up
            from ..engine.runtime import _tops

            _tops(st)
        if e.current is not None:
            st.g[0] = self.player(e.current, (*path, "current"))

    def faces(self, e: Edit, path: tuple[Any, ...]) -> None:
        """Cards turned face up, face down or revealed to players (after the zones: placing a card
        lays it face down, as a move does)."""
        from ..engine.runtime import ALL

        vis = self.st.vis
        for key, names in (("face_down", e.face_down), ("face_up", e.face_up)):
            for i, n in enumerate(names):
                vis[self.card(n, (*path, key, i))] = ALL if key == "face_up" else 0
        for who, names in e.revealed.items():
            p = self.player(who, (*path, "revealed", who))
            for i, n in enumerate(names):
                c = self.card(n, (*path, "revealed", who, i))
                if vis[c] != ALL:
                    vis[c] |= 1 << p

    def put(self, c: int, slot: int, top: bool) -> None:
        st = self.st
        src = st.loc[c]
        st.z[src].remove(c)
        if top:
            st.z[slot].append(c)
        else:
            st.z[slot].insert(0, c)
        st.loc[c] = slot
        st.vis[c] = 0

    def set_lines(self, name: str, lines: list[list[str] | str], path: tuple[Any, ...], rest: int,
                  placed: set[int]) -> None:
        from ..engine import runtime as R

        st = self.st
        seq = self.seq_index(name)
        if seq is None:
            raise self.loc.error("E501", f"no sequence of zones is named {name!r}", path)
        for slot in list(st.sq[seq]):
            if slot >= self.game.static_slots:      # a declared zone in the row keeps its cards
                for c in list(st.z[slot]):
                    self.put(c, rest, top=False)
        st.sq[seq].clear()
        for i, names in enumerate(lines):
            if isinstance(names, str):              # a declared zone (a deck that is a line) by name
                R._insert_zone(st, seq, self.zone(names, (*path, i)), False, -1)
                continue
            slot = R._insert(st, seq, False, -1)
            for n in names:
                c = self.card(n, (*path, i))
                if c in placed:
                    raise self.loc.error("E501", f"card {n} is placed twice", (*path, i))
                placed.add(c)
                self.put(c, slot, top=True)

    def stacked(self, given: dict[str, Stacked]) -> dict[int, tuple[tuple[int, ...], tuple[int, ...]]]:
        """`stacked:` as the engine takes it (``Game.stacked``): zone slot → its cards on top and at
        the bottom, placed before the ruleset's setup runs (with `skip_setup`, before the edits) and kept
        there by the shuffles until play's first decision (a first phase's deal)."""
        out = {}
        placed: set[int] = set()
        for zname, spec in given.items():
            path = ("stacked", zname)
            slot = self.zone(zname, path)
            if slot in out:
                raise self.loc.error("E501", f"{zname} is one zone written twice (the first would be lost)", path,
                                     at_key=True)
            ends = []
            for key, names in (("top", spec.top), ("bottom", spec.bottom)):
                cs = []
                for k, n in enumerate(names):
                    c = self.card(n, (*path, key, k))
                    if c in placed:
                        raise self.loc.error("E501", f"card {n} is placed twice", (*path, key, k))
                    placed.add(c)
                    cs.append(c)
                ends.append(tuple(cs))
            out[slot] = (ends[0], ends[1])
        return out

    # -------------------------------------------------------------- running
    def refusal(self, ruleset: str) -> int:
        """`refused: E402` (or words of the message): the ruleset with these options must not load —
        a `require` of options that do not go together, an option value out of range."""
        from ..api import load

        sc = self.sc
        want = (sc.refused or "").strip()
        if sc.setup is not None or sc.steps or sc.stacked:
            raise self.loc.error("E501", "a scenario whose options are refused has no setup, stacked or steps: "
                                 "the game never starts", ("refused",))
        try:
            options = {k: typed_word(self.loc.words.get(("options", k), ""), v) for k, v in sc.options.items()}
            load(ruleset, options)
        except FudaError as e:
            if any(d.code == want or want.lower() in d.message.lower() for d in e.diagnostics):
                return 0
            raise self.loc.error("E502", f"refused, but not with {want!r}: {e.first.code} {e.first.message}",
                                 ("refused",)) from None
        raise self.loc.error("E502", f"these options should be refused ({want}), and the ruleset loads with them",
                             ("refused",))

    def ruleset_file(self) -> str:
        """The `ruleset:` to load: a bundled name, or a .fuda file beside the scenario, else in the
        working directory; one in neither is E005 at the value, naming both folders."""
        name = self.sc.ruleset
        beside = self.base / name
        if not name.endswith(".fuda"):
            return name
        if beside.is_file():
            return str(beside)
        if Path(name).exists():
            return name
        from ..errors import did_you_mean

        base, cwd = self.base.resolve(), Path.cwd()
        where = "" if Path(name).is_absolute() else f" beside the scenario (in {base})" + (
            "" if base == cwd else f" nor in the working directory ({cwd})")
        files = [p.name for p in self.base.glob("*.fuda")]
        raise self.loc.error("E005", f"no file {name}{where}", ("ruleset",),
                             did_you_mean(Path(name).name, files)
                             or "a bundled ruleset is named without .fuda (`fuda list` shows them)")

    def run(self) -> int:
        from ..api import load

        sc = self.sc
        ruleset = self.ruleset_file()
        if sc.refused is not None:
            return self.refusal(ruleset)
        try:
            options = {k: typed_word(self.loc.words.get(("options", k), ""), v) for k, v in sc.options.items()}
            self.game = load(ruleset, options)      # `mode: on` names the member on, as in an options file
        except FudaError as e:
            d = e.first
            if d.code == "E504":
                raise self.loc.error(d.code, d.message, ("ruleset",), d.hint) from None
            if d.code in ("E401", "E402") and d.subject in sc.options:   # at the option's key (a misspelling)
                # or value, as an options file; a bad default of the ruleset's own stays in the ruleset
                where = ("options", d.subject) if d.subject and ("options", d.subject) in self.loc.pos else ("options",)
                hint = d.hint if d.code == "E401" else \
                    "; ".join(x for x in (d.hint, f"the option is declared at {d.span}") if x)
                raise self.loc.error(d.code, d.message, where, hint, at_key=d.code == "E401") from None
            raise
        self.game.stacked = self.stacked(sc.stacked)
        # the stack holds through the setup, the edits and play's start: until play's first decision
        try:
            self.st = self.game.new_state(sc.seed, hold=True, skip_setup=sc.skip_setup,
                                          carried=self.carried(sc.carried))
            # new_events at the first expect: from here, past the setup's deal (and its first phase's
            # start), but with the decisions the setup asks and the steps answer (an expect among them counts)
            self.seen_events = len(self.st.ev)
            steps = list(sc.steps)
            i = 0
            rest: Step | None = None
            # steps that answer decisions taken during setup come before the setup edits; the step
            # answering the last one keeps its `until_phase`, `random` and `expect` for after play
            # begins, where the same keys a step later would see it
            while self.st.pend is not None and i < len(steps):
                s = steps[i]
                self.step(s.model_copy(update={"random": None, "expect": None, "until_phase": None}), ("steps", i))
                if self.st.pend is not None or s.act is None:
                    left = self.step(Step(random=s.random, expect=s.expect, until_phase=s.until_phase), ("steps", i),
                                     setup=True)
                    if left is not None:    # random play answered the setup's last decision: on after it
                        rest = Step(random=left, expect=s.expect, until_phase=s.until_phase)
                elif s.random is not None or s.expect is not None or s.until_phase is not None:
                    rest = Step(random=s.random, expect=s.expect, until_phase=s.until_phase)
                i += 1
            if self.st.pend is not None:
                raise self.loc.error("E502", "setup is still waiting for a decision; script it in steps", ("steps",))
            if sc.setup is not None:
                self.edit(sc.setup, ("setup",))
            if sc.start_phase is not None and sc.start_phase not in [p.name for p in self.game.prog.phases]:
                raise self.loc.error("E501", f"no phase named {sc.start_phase!r}", ("start_phase",))
            self.edited_at = len(self.st.ev) if sc.setup is not None and sc.start_phase is None else None
            stop = self.stop_phases(rest.until_phase, ("steps", i - 1, "until_phase")) if rest is not None else frozenset()
            self.game.stop_before = stop        # the answer's `until_phase` counts from the answer: the first phase too
            try:
                self.game.begin(self.st, sc.start_phase)
            finally:
                self.game.stop_before = frozenset()
        except RuleRuntimeError as e:
            if self.game.stacked and "a million times" in e.first.message:
                zones = ", ".join(sorted(self.game.zone_label[z] for z in self.game.stacked))
                e.diagnostics[0].hint = (f"the scenario stacks {zones}: its shuffles keep those cards in place "
                                         "until play's first decision, so a loop that shuffles until they move "
                                         "never ends; stack other cards, or start after that loop (start_phase)")
            raise
        finally:
            self.game.stacked = {}
        self.paused = self.stopped(stop)
        if rest is not None:
            self.step(rest, ("steps", i - 1), answered=True)
        while i < len(steps):
            self.step(steps[i], ("steps", i))
            i += 1
        return len(steps)

    def step(self, s: Step, path: tuple[Any, ...], answered: bool = False, setup: bool = False) -> int | None:
        """Run one step. ``answered``: its action was played already (it answered the setup's last
        decision, and play has begun), so its `until_phase` counts from there. ``setup``: it answers
        the setup's decisions; when its random actions answer the last one, the rest of the step waits
        for play to begin (the setup edits come first): returned is how many random actions are left."""
        if s.set is not None:
            self.edit(s.set, (*path, "set"))
            self.game.refresh_options(self.st)
            stuck = [p for p in ([] if self.st.over else self.st.to_move()) if not self.game.legal_actions(self.st, p)]
            if stuck:
                raise self.loc.error(
                    "E501", f"after this edit P{stuck[0]} has no legal action in the decision waiting: its options are "
                    "worked out anew from the edited state, but the rules that led to it ran before the edit (a "
                    "`let` or a variable they set keeps its old value)", (*path, "set"),
                    "make the edit a step earlier, before the rules that lead to the decision, or set what "
                    "they worked out too")
        stop = self.stop_phases(s.until_phase, (*path, "until_phase"))
        self.game.stop_before = stop
        try:
            if self.paused and not answered and (s.act is not None or s.random is not None or stop):
                self.paused = False             # on from the phase it stopped at: to the decision the
                if s.act is not None:           # action answers, whatever phases begin on the way there
                    self.game.stop_before = frozenset()
                self.game.run(self.st)
                self.game.stop_before = stop
                self.paused = self.stopped(stop)
            if s.act is not None and not self.paused:
                self.act(s, path)
                self.paused = self.stopped(stop)
            if (s.random is not None or stop and s.act is None and not answered) and not self.paused:
                rng = random.Random(self.sc.seed * 7919 + len(self.st.ev))
                n = s.random if s.random is not None else self.UNTIL_MAX
                for k in range(n):
                    if self.st.over or self.paused:
                        break
                    p = self.st.to_move()[0]
                    self.game.apply(self.st, p, rng.choice(self.game.legal_actions(self.st, p)))
                    self.paused = self.stopped(stop)
                    if setup and self.st.pend is None:
                        return n - k - 1
        finally:
            self.game.stop_before = frozenset()
        if stop and not self.paused:
            names = " or ".join(self.game.prog.phases[i].name for i in sorted(stop))
            now = "the game is over" if self.st.over else \
                f"it waits in {'the setup' if setup else 'phase ' + self.game.prog.phases[self.st.phase].name} " \
                "for " + ", ".join(f"P{p}" for p in self.st.to_move())
            raise self.loc.error("E502", f"phase {names} did not begin: {now}", (*path, "until_phase"),
                                 self.refused_hint())
        if s.expect is not None:
            self.expect(s.expect, (*path, "expect"))
            self.seen_events = len(self.st.ev)
        return None

    UNTIL_MAX = 10_000      # random actions an `until_phase` step alone plays at most

    def stop_phases(self, names: str | list[str] | None, path: tuple[Any, ...]) -> frozenset[int]:
        """The phases an `until_phase` step names, by index; an unknown name is E501."""
        from ..errors import did_you_mean

        known = [ph.name for ph in self.game.prog.phases]
        out = set()
        for i, name in enumerate([names] if isinstance(names, str) else names or []):
            if name not in known:
                at = path if isinstance(names, str) else (*path, i)
                raise self.loc.error("E501", f"no phase named {name!r}", at,
                                     did_you_mean(name, known) or "phases: " + ", ".join(known))
            out.add(known.index(name))
        return frozenset(out)

    def stopped(self, stop: frozenset[int]) -> bool:
        """Whether play stopped as a phase of ``stop`` began (``Game.stop_before``): no decision
        waits, and the last event is that phase's start."""
        st = self.st
        return bool(stop) and not st.over and st.pend is None and bool(st.ev) \
            and st.ev[-1][0] == R.EV_PHASE and st.ev[-1][2] in stop

    def act(self, s: Step, path: tuple[Any, ...]) -> None:
        text = s.act or ""
        who = s.player
        m = re.match(r"\s*(P\d+)\s*:\s*(.*)$", text)
        if m:
            who, text = m.group(1), m.group(2)
        if who is None:
            to_move = self.st.to_move()
            if len(to_move) != 1:
                raise self.loc.error("E501", "say who acts: \"P0: …\"", (*path, "act"))
            who = to_move[0]
        p = self.player(who, (*path, "act"))
        try:
            other = self.other_copy(p, text.strip())
            if other is not None:
                if s.illegal:
                    return
                raise self.loc.error("E602", f"P{p}: {text.strip()!r} would play another copy of {other[0]}: "
                                     f"it reads as {other[1]!r}", (*path, "act"),
                                     f"name the copy the action plays: \"P{p}: {other[1]}\"")
            self.game.apply(self.st, p, text.strip())
        except RuleRuntimeError as e:       # the rule's line, then the step that played it
            step = self.loc.error("E601", f"the rules failed while P{p} played {text.strip()!r}", (*path, "act"))
            raise RuleRuntimeError(e.diagnostics + step.diagnostics, {**e.sources, **step.sources}) from None
        except IllegalAction as e:
            if s.illegal:
                return
            typed = " ".join(text.split())
            cut = [a.id for a in self.game.legal_actions(self.st, p) if a.id.startswith(typed + " #")]
            hint = (f"YAML reads ` #` as the start of a comment, so the step lost its end: quote it, "
                    f"\"P{p}: {cut[0]}\"" if cut else self.refused_hint())
            raise self.loc.error("E602", f"P{p}: {folded_listing(e.first.message)}", (*path, "act"),
                                 hint) from None
        if s.illegal:
            raise self.loc.error("E502", f"P{p}: {text.strip()} was expected to be refused, but it was legal",
                                 (*path, "act"))

    def other_copy(self, p: int, text: str) -> tuple[str, str] | None:
        """A step must play the cards it names. One that names a card another copy of its face stands
        for (`keep bl2` where `distinct` offers bl1, `play ♠A` for the ♠A#2 in the hand), which `fuda
        play` would take as that copy: the cards named, and the id of the action it reads as."""
        game = self.game
        try:
            raw = game.find_action(self.st, p, text)
        except IllegalAction:
            return None         # refused as it is, with the legal actions listed
        aid = next((a.id for a in game.legal_actions(self.st, p) if a.raw == raw), None)
        if aid is None:
            return None
        ids = aid.split()[1:]
        # a word the id has as typed names what it names (an enum member); a card's label names it
        # (♠A, the face of the ♠A#2 played)
        lower = {w.lower() for w in ids} | {t.lower() for w in ids if w in game.card_index
                                            for texts in game.card_texts for t in [texts[game.card_index[w]]]}
        # the rest read as find_action reads it: a label or seat name of several words is one value
        # ("Gold Mine" is not the card labelled "Gold"), a seat's name is the seat, not a card so named
        words = text.split()
        rest = game.typed_norm(" ".join(words[:1] + [w for w in words[1:] if w.lower() not in lower]))
        typed = Counter(w for w in rest.split()[1:] if w in game.card_index)
        missing = typed - Counter(w for w in ids if w in game.card_index)
        return (", ".join(missing), aid) if missing else None

    def refused_hint(self) -> str | None:
        """Why an action may have been refused: the events since the last expect (the game may have
        ended, a card moved) and, when the first phase reshuffled or dealt over the setup edits, that."""
        since = self.log(self.seen_events)
        hints = []
        if self.edited_at is not None and self.seen_events <= self.edited_at and any(
                r["kind"] in ("shuffle", "move") for r in self.log(self.edited_at)):
            hints.append("the setup edits were made before the first phase ran, and it moved cards: if it "
                         "shuffles or deals, start after it (start_phase: NAME, with the vars it sets)")
        if since:
            texts = [r["text"] for r in since]
            more = f"the last 12 of {len(texts)} " if len(texts) > 12 else ""
            hints.append(f"{more}events since the last expect: " + "; ".join(texts[-12:]))
        return "\n  ".join(hints) or None

    # -------------------------------------------------------------- expectations
    def fail(self, path: tuple[Any, ...], msg: str) -> FudaError:
        return self.loc.error("E502", msg, path)

    def expect(self, e: Expect, path: tuple[Any, ...]) -> None:
        """Check every expectation of a step and report every one that fails, in the order written,
        with what happened since the last expect: the first failure is often not the cause."""
        st = self.st
        game = self.game
        failed: list[FudaError] = []
        keep = functools.partial(_kept, failed)
        with keep():
            if e.to_move is not None:
                want = sorted(self.player(x, (*path, "to_move")) for x in e.to_move)
                got = sorted(st.to_move())
                if want != got:
                    raise self.fail((*path, "to_move"), f"to move: expected {_ps(want)}, found {_ps(got)}")
        with keep():
            if e.current is not None:
                want_p = self.player(e.current, (*path, "current"))
                if st.g[0] != want_p:
                    raise self.fail((*path, "current"), f"current: expected P{want_p}, found P{st.g[0]}")
        with keep():
            if e.phase is not None:
                ph = game.prog.phases[st.phase].name if 0 <= st.phase < len(game.prog.phases) else "setup"
                if ph != e.phase:
                    raise self.fail((*path, "phase"), f"phase: expected {e.phase}, found {ph}")
        with keep():
            if e.legal is not None:
                self.expect_legal(e, path)
        with keep():
            if e.prompt is not None:
                self.expect_prompt(e, path)
        for zname, spec in (e.zones or {}).items():
            with keep():
                self.expect_zone(zname, spec, (*path, "zones", zname))
        for name, want in (e.vars or {}).items():
            each = False        # a per-player variable: each player's entry on its own
            if isinstance(want, dict):
                with keep():
                    if each := self.var(name, (*path, "vars", name)).scope == "player":
                        self.once(want, self.player, (*path, "vars", name))
            for part in [{who: w} for who, w in want.items()] if each else [want]:
                with keep():        # each player's entry on its own: every wrong one is reported
                    self.expect_var(name, part, (*path, "vars", name))
        self.once(e.card_vars or {}, self.card, (*path, "card_vars"))
        for cname, vals in (e.card_vars or {}).items():
            c = self.card(cname, (*path, "card_vars", cname))
            for name, want in vals.items():
                with keep():
                    v = self.var(name, (*path, "card_vars", cname, name))
                    if v.scope != "card":
                        raise self.loc.error("E501", f"{name} is not a per-card variable",
                                             (*path, "card_vars", cname, name))
                    got = st.g[v.slot + c]
                    if got != self.value(v.type, want, (*path, "card_vars", cname, name)):
                        raise self.fail((*path, "card_vars", cname, name),
                                        f"{cname}.{name}: expected {_shown(want)}, found "
                                        f"{_shown(self.show(v.type, got))}")
        with keep():
            if e.events is not None:
                self.expect_texts(e.events, [x["text"] for x in self.log(0)], (*path, "events"), "events")
        with keep():
            if e.new_events is not None:
                self.expect_texts(e.new_events, [x["text"] for x in self.log(self.seen_events)],
                                  (*path, "new_events"), "new events")
        with keep():
            if e.stack is not None:
                got_stack = [game.effects[st.items[i][0]].name for i in st.stack]
                if got_stack != e.stack:
                    raise self.fail((*path, "stack"), f"stack (bottom → top): expected {e.stack}, found {got_stack}")
        with keep():
            if e.over is not None and st.over != e.over:
                raise self.fail((*path, "over"), f"the game is {'over' if st.over else 'not over'}")
        res = game.result(st)
        with keep():
            if e.winner is not None:
                want = sorted(self.player(x, (*path, "winner")) for x in e.winner)
                got = sorted(r["player"] for r in res if r["outcome"] == "win")
                if not st.over or want != got:
                    raise self.fail((*path, "winner"), f"winners: expected {_ps(want)}, found "
                                    f"{_ps(got) if st.over else 'none (the game is not over)'}")
        with keep():
            if e.result is not None:
                self.once(e.result, self.player, (*path, "result"))
                for who, want in e.result.items():
                    p = self.player(who, (*path, "result", who))
                    got_r = res[p]
                    want_d = want if isinstance(want, dict) else {"outcome": want}
                    for k, v in want_d.items():
                        if got_r.get(k) != v:
                            raise self.fail((*path, "result", who),
                                            f"P{p} {k}: expected {_shown(v)}, found {_shown(got_r.get(k))}")
        for key, part, wanted in (("scores", "score", e.scores), ("places", "place", e.places)):
            self.once(wanted or {}, self.player, (*path, key))
            for who, want_v in (wanted or {}).items():
                with keep():
                    p = self.player(who, (*path, key, who))
                    if res[p][part] != want_v:
                        raise self.fail((*path, key, who),
                                        f"P{p} {part}: expected {_shown(want_v)}, found {_shown(res[p][part])}")
        if e.view is not None:
            for i, vs in enumerate(e.view if isinstance(e.view, list) else [e.view]):
                self.expect_view(vs, (*path, "view", i) if isinstance(e.view, list) else (*path, "view"), keep)

        if failed:
            diags = sorted((d for x in failed for d in x.diagnostics), key=lambda d: (d.span.line, d.span.col))
            since = [x["text"] for x in self.log(self.seen_events)]
            if since:
                more = f"the last 12 of {len(since)} " if len(since) > 12 else ""
                told = f"{more}events since the last expect: " + "; ".join(since[-12:])
            else:       # two expects in a row: the second sees only what happened in between
                told = "no events since the last expect: new_events counts from the step before"
            diags[-1].hint = f"{diags[-1].hint}\n  {told}" if diags[-1].hint else told
            raise FudaError(diags, failed[0].sources)

    def event_texts(self) -> list[str]:
        """Every event so far, as `fuda replay` prints it (none before the game began)."""
        if not hasattr(self, "st"):
            return []
        return [f"{i:>4} {r['kind']:>8}  {r['text']}" for i, r in
                ((i, render_event(self.st, self.st.ev[i], "all", at=i)) for i in range(len(self.st.ev)))
                if r is not None]

    def log(self, start: int) -> list[dict[str, Any]]:
        return [r for r in (render_event(self.st, self.st.ev[i], "all", at=i) for i in range(start, len(self.st.ev)))
                if r is not None]

    def viewed(self, var: Any, want: Any, p: int | None, path: tuple[Any, ...]) -> Any:
        """A scenario's value as a view shows it to ``p`` (cards it cannot see are null)."""
        from ..compile import named_code, type_code
        from ..engine.observe import _value

        code = named_code(type_code(var.type), getattr(var, "named", False))   # a card the rules name: by name
        return _value(self.st, self.value(var.type, want, path), code, p)

    def show(self, var_type: Any, v: Any) -> Any:
        """A variable's value as a scenario writes it, for messages: cards by name, players as P1."""
        from ..compile import type_code
        from ..engine.observe import _value

        if var_type.kind == "card":
            return None if v is None else self.game.card_names[v]
        return _players_named(var_type, _value(self.st, v, type_code(var_type), None))

    def chooser(self, e: Expect, path: tuple[Any, ...], key: str, what: str) -> int:
        """The player ``e.player`` names, else the one to move (``what``: said if several are)."""
        if e.player is not None:
            return self.player(e.player, (*path, "player"))
        tm = self.st.to_move()
        if len(tm) != 1:
            raise self.fail((*path, key), f"say whose {what} (player:); to move: {_ps(tm)}")
        return tm[0]

    def expect_prompt(self, e: Expect, path: tuple[Any, ...]) -> None:
        """The prompt as the player reads it (both languages, "English | 日本語"), containing the text."""
        assert e.prompt is not None
        p = self.chooser(e, path, "prompt", "prompt")
        got = self.game.prompt(self.st, p) if p in self.st.to_move() else None
        if got is None or " ".join(e.prompt.split()) not in " ".join(got.split()):
            found = "no decision of theirs is waiting" if p not in self.st.to_move() else \
                "the decision has no prompt" if got is None else repr(got)
            raise self.fail((*path, "prompt"), f"P{p} prompt: expected one containing {e.prompt!r}, found {found}")

    def expect_legal(self, e: Expect, path: tuple[Any, ...]) -> None:
        st = self.st
        p = self.chooser(e, path, "legal", "legal actions")
        legal = self.game.legal_actions(st, p)
        got = [a.id for a in legal]
        shown = compact_ids(got)          # a run of numbers once: `raise 40..1000`, not 961 ids

        def canon(a: str) -> str:
            """An action written as `act` accepts it (cards in another order, `H7`): the legal id it names."""
            if a in got:
                return a
            try:
                raw = self.game.find_action(st, p, a)
            except FudaError:
                return a
            return next((x.id for x in legal if x.raw == raw), a)
        spec = e.legal
        if isinstance(spec, list):
            spec = LegalSpec(exactly=spec)
        assert spec is not None
        spec = LegalSpec(exactly=None if spec.exactly is None else [canon(a) for a in spec.exactly],
                         includes=None if spec.includes is None else [canon(a) for a in spec.includes],
                         excludes=spec.excludes, count=spec.count)      # an id that must not be listed, as written
        lp = (*path, "legal")
        # a run as a failure lists it (`build ♦K 2..7`), or a part of one (`2..4`), stands for its actions
        def each(a: str) -> list[str]:
            return [a] if a in got else run_ids(a)

        if spec.exactly is not None and sorted(x for a in spec.exactly for x in each(a)) != sorted(got):
            raise self.fail(lp, f"P{p} legal actions: expected {spec.exactly}, found {shown}")
        for a in spec.includes or []:
            if any(x not in got for x in each(a)):
                raise self.fail(lp, f"P{p} legal actions: {a!r} is missing; found {shown}")
        for a in spec.excludes or []:
            if any(x in got for x in each(a)):
                raise self.fail(lp, f"P{p} legal actions: {a!r} should not be legal; found {shown}")
        if spec.count is not None and spec.count != len(got):
            raise self.fail(lp, f"P{p} legal actions: expected {spec.count}, found {len(got)}: {shown}")

    def expect_zone(self, zname: str, spec: list[str] | list[list[str] | str] | ZoneSpec,
                    path: tuple[Any, ...]) -> None:
        st = self.st
        names = self.game.card_names
        if isinstance(spec, list) and (any(isinstance(x, list) for x in spec) or self.seq_index(zname) is not None):
            spec = ZoneSpec(lines=spec)  # type: ignore[arg-type]
        elif isinstance(spec, list):
            spec = ZoneSpec(cards=[str(x) for x in spec])
        if spec.lines is not None:
            seq = self.seq_index(zname)
            if seq is None:
                raise self.loc.error("E501", f"no sequence of zones is named {zname!r}", path)
            static = self.game.static_slots
            got_lines = [self.game.zone_name(st, s) if s < static else sorted(names[c] for c in st.z[s])
                         for s in st.sq[seq]]
            want_lines = [self.game.zone_name(st, self.zone(ln, path)) if isinstance(ln, str)
                          else sorted(names[self.card(n, path)] for n in ln) for ln in spec.lines]
            if got_lines != want_lines:
                raise self.fail(path, f"{zname}: expected lines {want_lines}, found {got_lines}")
            return
        slot = self.zone(zname, path)
        cards = st.z[slot]
        got = [names[c] for c in cards]
        # every name checked before any comparison, which stops at the first card or a length that
        # differs: an unknown or left-out name is E501 with its did-you-mean, not a mismatch
        for n in [*(spec.cards or []), *(spec.unordered or []), *(spec.top or []), *(spec.bottom or []),
                  *(spec.contains or []), *(n for n in spec.excludes or [] if not self.left_out(n))]:
            self.label_only(n, path)

        def fit(ns: list[str], cs: list[int]) -> bool:
            return len(ns) == len(cs) and all(self.fits(n, c, path) for n, c in zip(ns, cs, strict=True))

        if spec.cards is not None and not fit(spec.cards, cards):
            raise self.fail(path, f"{zname} (bottom → top): expected {spec.cards}, found {got}")
        if spec.unordered is not None:
            left = list(cards)          # names first, then labels (any copy) take what is left
            for n in sorted(spec.unordered, key=lambda n: self.label_only(n, path)):
                c = next((c for c in left if self.fits(n, c, path)), None)
                if c is None:
                    raise self.fail(path, f"{zname}: expected {sorted(spec.unordered)} in any order, found {got}")
                left.remove(c)
            if left:
                raise self.fail(path, f"{zname}: expected {sorted(spec.unordered)} in any order, found {got}")
        if spec.top is not None and not fit(spec.top, list(reversed(cards))[:len(spec.top)]):
            raise self.fail(path, f"{zname} top (topmost first): expected {spec.top}, found {list(reversed(got))[:len(spec.top)]}")
        if spec.bottom is not None and not fit(spec.bottom, cards[:len(spec.bottom)]):
            raise self.fail(path, f"{zname} bottom: expected {spec.bottom}, found {got[:len(spec.bottom)]}")
        for n in spec.contains or []:
            if not any(self.fits(n, c, path) for c in cards):
                raise self.fail(path, f"{zname}: {n} is not there; found {got}")
        for n in spec.excludes or []:
            if self.left_out(n):        # in no zone of this game: its options leave it out of the deck
                continue
            if any(self.fits(n, c, path) for c in cards):
                raise self.fail(path, f"{zname}: {n} should not be there")
        if spec.size is not None and spec.size != len(got):
            raise self.fail(path, f"{zname}: expected {spec.size} cards, found {len(got)}: {got}")
        if spec.empty is not None and (len(got) == 0) != spec.empty:
            raise self.fail(path, f"{zname}: expected {'empty' if spec.empty else 'not empty'}, found {got}")

    def expect_var(self, name: str, want: Any, path: tuple[Any, ...]) -> None:
        v = self.var(name, path)
        st = self.st
        if v.scope == "card":       # as in an edit: one card's value would pass for all
            raise self.loc.error("E501", f"{name} belongs to cards: use card_vars", path)
        if v.scope == "player":
            if not isinstance(want, dict):
                raise self.loc.error("E501", f"{name} is per player: give {{P0: …}}", path)
            for who, w in want.items():
                p = self.player(who, (*path, who))
                self.compare_var(f"{name}[P{p}]", v.type, st.g[v.slot + p], w, (*path, who))
            return
        self.compare_var(name, v.type, st.g[v.slot], want, path)

    def compare_var(self, name: str, ty: T.T, got: Any, want: Any, path: tuple[Any, ...]) -> None:
        """A variable's value as expected: exactly, or for a list `{contains: […], excludes: […],
        size: N}` (a team of five chosen in any order)."""
        if ty.kind == "list" and isinstance(want, dict):
            keys = ("contains", "excludes", "size")
            if not want or set(want) - set(keys):
                raise self.loc.error("E501", f"{name}: a list is checked whole ([…]) or in part by "
                                     f"contains, excludes and size; got {_shown(want)}", path)
            for key in keys[:2]:
                if not isinstance(want.get(key, []), list):
                    raise self.loc.error("E501", f"{name}: {key} takes a list ([…]); got {_shown(want[key])}",
                                         (*path, key))
            if "size" in want and (not isinstance(want["size"], int) or isinstance(want["size"], bool)):
                raise self.loc.error("E501", f"{name}: size is a number of items; got {want['size']!r}",
                                     (*path, "size"))
            elem = T.elem_type(ty) or T.ANY
            items = list(got or ())
            shown = _shown(self.show(ty, got))
            for key, many in (("contains", True), ("excludes", False)):
                for x in want.get(key) or []:
                    if (self.value(elem, x, (*path, key)) in items) != many:
                        raise self.fail((*path, key), f"{name}: {'missing' if many else 'should not hold'} "
                                        f"{_shown(x)}; found {shown}")
            if "size" in want and len(items) != want["size"]:
                raise self.fail((*path, "size"), f"{name}: expected {want['size']} items, found {len(items)}: {shown}")
            return
        if isinstance(want, dict) and set(want) & {"contains", "excludes", "size"}:
            raise self.loc.error("E501", f"{name} is not a list: contains, excludes and size check a list", path)
        if got != self.value(ty, want, path):
            raise self.fail(path, f"{name}: expected {_shown(want)}, found {_shown(self.show(ty, got))}")

    def expect_texts(self, spec: list[str] | TextsSpec, texts: list[str], path: tuple[Any, ...], what: str) -> None:
        if isinstance(spec, list):
            spec = TextsSpec(sequence=spec)
        nfc = functools.partial(unicodedata.normalize, "NFC")      # as the ruleset's texts are read
        spec = TextsSpec(**{k: [nfc(str(t)) for t in v] if v is not None else None
                            for k, v in (("includes", spec.includes), ("excludes", spec.excludes),
                                         ("sequence", spec.sequence))})
        for t in spec.includes or []:
            if not any(_within(t, x) for x in texts):
                nearest = _nearest(t, texts)
                raise self.fail(path, f"{what}: nothing contains {t!r}; "
                                + (f"nearest {nearest}; found " if nearest else "found ") + _last(texts, 12))
        for t in spec.excludes or []:
            if any(_within(t, x) for x in texts):
                raise self.fail(path, f"{what}: {t!r} should not appear; found "
                                f"{[x for x in texts if _within(t, x)][:4]}")
        if spec.sequence is not None:
            i = at = 0
            for k, x in enumerate(texts):
                if i < len(spec.sequence) and _within(spec.sequence[i], x):
                    i += 1
                    at = k + 1
            if i < len(spec.sequence):      # what came after the last text found, and the likeliest near miss
                rest = texts[at:]
                close = difflib.get_close_matches(spec.sequence[i], rest, n=1, cutoff=0.6)
                near = f"; the closest: {close[0]!r}" if close else ""
                shown = str(rest) if len(rest) <= 16 else f"(the first 16 of {len(rest)}) {rest[:16]}"
                raise self.fail(path, f"{what}: {spec.sequence[i]!r} not found in order after "
                                f"{spec.sequence[:i]}{near}; found after them {shown}")

    def expect_view(self, vs: ViewSpec, path: tuple[Any, ...], keep: Callable[[], Any]) -> None:
        """Check one player's view; every part that fails (``keep``) is reported, not only the first."""
        p = None if vs.player is None else self.player(vs.player, (*path, "player"))
        v = view(self.st, p)
        import json

        text = json.dumps(v, ensure_ascii=False)
        with keep():
            cards = [(n, self.card(n, (*path, "shows"))) for n in vs.shows or []]
            missing = [n for n, c in cards if not card_visible(self.st, c, p) or f'"{self.game.card_names[c]}"' not in text]
            if missing:
                raise self.fail((*path, "shows"), f"{_viewer(p)}'s view should show {', '.join(missing)}")
        if vs.hides:        # a variable naming a card the rules name tells which card, not where it is
            named = {x.name for x in self.game.prog.vars if x.named and x.type.kind in ("card", "list")}
            text = json.dumps({**v, "vars": {k: x for k, x in v["vars"].items() if k not in named}},
                              ensure_ascii=False)
        with keep():
            shown = [n for n in vs.hides or [] if f'"{self.game.card_names[self.card(n, (*path, "hides"))]}"' in text]
            if shown:
                raise self.fail((*path, "hides"), f"{_viewer(p)}'s view shows {', '.join(shown)}, which should be "
                                f"hidden")
        seen = v["vars"]
        for name, want in (vs.vars or {}).items():
            vpath = (*path, "vars", name)
            var = self.var(name, vpath)
            if var.scope == "player":       # the entries listed, as for the top-level vars
                if not isinstance(want, dict):
                    raise self.loc.error("E501", f"{name} is per player: give {{P0: …}}", vpath)
                self.once(want, self.player, vpath)
                for who, w in want.items():
                    q = self.player(who, (*vpath, who))
                    got = seen.get(name, {}).get(f"P{q}", _HIDDEN)
                    with keep():
                        if got != self.viewed(var, w, p, (*vpath, who)):
                            raise self.fail((*vpath, who), f"{_viewer(p)} sees {name}[P{q}] = "
                                            f"{_shown(_players_named(var.type, got))}, expected {_shown(w)}")
            else:
                with keep():
                    got = seen.get(name, _HIDDEN)
                    if got != self.viewed(var, want, p, vpath):
                        raise self.fail(vpath, f"{_viewer(p)} sees {name} = {_shown(_players_named(var.type, got))}, "
                                        f"expected {_shown(want)}")
        for i, entry in enumerate(vs.hides_vars or []):
            epath = (*path, "hides_vars", i)
            name, _, who = entry.partition("[")
            var = self.var(name.strip(), epath)
            with keep():
                if who:                         # one player's entry: name[P1]
                    q = self.player(who.rstrip("]").strip(), epath)
                    if var.scope != "player":
                        raise self.loc.error("E501", f"{var.name} is not per player: write {var.name}", epath)
                    if f"P{q}" in seen.get(var.name, {}):
                        raise self.fail(epath, f"{_viewer(p)} sees {var.name}[P{q}] = "
                                        f"{_shown(seen[var.name][f'P{q}'])}, which should be hidden")
                elif seen.get(var.name) not in (None, {}):
                    raise self.fail(epath, f"{_viewer(p)} sees {var.name} = {_shown(seen[var.name])}, "
                                    "which should be hidden")
        if vs.log is not None:
            with keep():
                self.expect_texts(vs.log, [e["text"] for e in v["log"]], (*path, "log"), f"{_viewer(p)}'s log")


# a scenario value of a scalar type: does it fit, and how the type is said in a message
SCALARS: dict[str, tuple[Any, str]] = {
    "int": (lambda x: isinstance(x, int) and not isinstance(x, bool), "a whole number"),
    "number": (lambda x: isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x),
               "a finite number"),
    "bool": (lambda x: isinstance(x, bool), "true or false"),
    "text": (lambda x: isinstance(x, str), "a text"),
}
_HIDDEN = "(hidden)"     # what a view's missing variable or entry reads as in a message


def _players_named(var_type: Any, v: Any) -> Any:
    """Players in a value as a view gives it (seat numbers) → as scenarios write them (P1)."""
    if var_type.kind == "player" and isinstance(v, int) and not isinstance(v, bool):
        return f"P{v}"
    if var_type.kind == "list" and var_type.elem is not None and isinstance(v, list):
        return [_players_named(var_type.elem, x) for x in v]
    return v


def _scalar(text: str) -> Any:
    """A text as YAML would read it unquoted (``"1"`` → 1)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _shown(x: Any) -> str:
    """A value as a scenario writes it (``{P0: 1}``, ``[♠A, none]``, ``true``), for messages."""
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in x.items()) + "}"
    if isinstance(x, list | tuple):
        return "[" + ", ".join(_shown(v) for v in x) + "]"
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else repr(round(x, 10))
    return str(x)


@contextlib.contextmanager
def _kept(failed: list[FudaError]) -> Iterator[None]:
    """An expectation that does not hold (E502) is kept for the report and the next one is checked;
    a malformed one (E501) stops at once."""
    try:
        yield
    except FudaError as x:
        if x.first.code != "E502":
            raise
        failed.append(x)


def _ps(ps: list[int]) -> str:
    return "[" + ", ".join(f"P{p}" for p in ps) + "]"


def run_scenario(path: str | Path) -> Outcome:
    """Run one scenario file; failures come back as an Outcome with the formatted error."""
    p = Path(path)
    runner = None
    try:
        sc, loc = load_scenario(p)
        runner = Runner(sc, loc, p.parent)
        n = runner.run()
        return Outcome(sc.name or p.stem, str(p), True, steps=n, events=runner.event_texts())
    except FudaError as e:
        return Outcome(p.stem, str(p), False, e.format(), events=runner.event_texts() if runner else [])
    except RecursionError:          # YAML nested thousands deep: this file fails, the others still run
        return Outcome(p.stem, str(p), False, f"{p}: error[E501]: the file is nested too deeply to read")


def scenario_files(paths: list[str]) -> list[Path]:
    """The files named, and the scenarios found below the folders named: a YAML file there without
    `steps`, `setup` or `refused` (an options file kept beside the tests) is not one. A bundled or example
    ruleset's name (no such file here) stands for the scenarios shipped for it."""
    out: list[Path] = []
    for s in paths:
        p = Path(s)
        if not p.exists() and (shipped := shipped_scenarios(s)) is not None:
            out.extend(shipped)
        elif p.is_dir():
            out.extend(f for f in sorted(list(p.rglob("*.yaml")) + list(p.rglob("*.yml"))) if _is_scenario(f))
        else:
            out.append(p)
    return out


def shipped_scenarios(name: str) -> list[Path] | None:
    """The scenarios shipped with the bundled or example ruleset ``name`` (None: no such ruleset):
    an example game's folder (rulesets/tests/examples/NAME/, its variants' included), every scenario
    whose `ruleset:` names it, and every one whose `ruleset:` is a test variant beside it that
    `extends` it (a hook's scenario) — found wherever fuda is installed."""
    from ..resources import bundled_rulesets, example_rulesets, rulesets_dir

    if name not in bundled_rulesets() + example_rulesets():
        return None
    tests = rulesets_dir() / "tests"
    folder = tests / "examples" / name
    found = set(folder.rglob("*.y*ml")) if folder.is_dir() else set()
    named = re.compile(rf"^ruleset:\s*{re.escape(name)}\s*$", re.M)
    variant = re.compile(r"^ruleset:\s*(\S+\.fuda)\s*$", re.M)
    extends = re.compile(rf"^extends\s+{re.escape(name)}\s*$", re.M)
    for f in tests.rglob("*.y*ml"):
        try:
            text = f.read_text(encoding="utf-8")
            if named.search(text) or ((m := variant.search(text)) and (f.parent / m[1]).is_file()
                                      and extends.search((f.parent / m[1]).read_text(encoding="utf-8"))):
                found.add(f)
        except (OSError, UnicodeDecodeError):
            continue
    return sorted(f for f in found if f.suffix in (".yaml", ".yml") and _is_scenario(f))


def _is_scenario(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True         # let the run say what is wrong with it
    return re.search(r"(^|[{,]\s*)(steps|setup|refused)\s*:", head, re.M) is not None


def _viewer(p: int | None) -> str:
    return "the spectator" if p is None else f"P{p}"


def _nearest(t: str, texts: list[str], n: int = 3) -> list[str]:
    """The texts sharing the longest run with an expected one (at least half of it), best first:
    in a long log the line that differs by a word (`tradeoff a card, Pink`) is the one to see."""
    def run(x: str) -> int:
        m = difflib.SequenceMatcher(None, t, x, autojunk=False)
        return m.find_longest_match(0, len(t), 0, len(x)).size
    scored = sorted(((run(x), i) for i, x in enumerate(texts)), key=lambda r: (-r[0], r[1]))
    return [texts[i] for size, i in scored[:n] if size * 2 >= len(t)]


def _last(texts: list[str], n: int) -> str:
    """The last ``n`` texts, saying how many came before."""
    if len(texts) <= n:
        return str(texts)
    return f"(the last {n} of {len(texts)}) {texts[-n:]}"


def _within(t: str, x: str) -> bool:
    """Whether an expected text is part of an event's: an action as its id reads (`take ♥A ♠A ♠2`)
    also matches the log's form, whose values of several words are set apart (`take ♥A, ♠A ♠2`)."""
    return t in x or t.replace(", ", " ") in x.replace(", ", " ")
