"""A loaded ruleset ready to play: ``Game`` owns the compiled rules and static tables and runs
states forward; ``State`` (state.py) is the plain data it runs.

The driver executes the frame on top of ``State.frames`` until a procedure asks for a decision;
``apply`` stores the chosen option and runs again. The effect stack is a generic procedure here:
push → open each window in order for the top item → ask eligible players in order → a response
runs (and may push more items) → windows reopen for whatever is on top → all pass → resolve.
"""

from __future__ import annotations

import ast as pyast
import collections
import functools
import hashlib
import math
import re
import sys
import traceback
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..check import Program, text_plain
from ..compile import Compiled
from ..decks import ASCII_SUITS
from ..errors import Diagnostic, IllegalAction, RuleRuntimeError, Span, error
from ..words import ascii_digits
from . import runtime as R
from .observe import card_visible
from .state import State, tuplify

FnSite = tuple[str, Span, "str | None", "str | None"]     # see compile/compiled.py: Compiled.fn_sites
EVAL_AFTER = 20             # rollout decisions before a ruleset's `evaluate` is asked, unless it says


@dataclass(frozen=True, slots=True)
class Action:
    """A legal action: stable text id (``play ♥7``), the option's name and its values."""
    player: int
    id: str
    name: str
    args: tuple[Any, ...]
    raw: tuple[Any, ...]
    label: str = ""

    def __str__(self) -> str:
        return self.id


class Game:
    def __init__(self, prog: Program, comp: Compiled, ruleset: str, options: dict[str, Any]) -> None:
        self.prog = prog
        self.comp = comp
        self.ruleset = ruleset
        self.options_given = dict(options)
        self.name = prog.name
        self.title = prog.title
        self.n = prog.players
        self.ncards = len(prog.cards.names)
        self.card_names = prog.cards.names
        # what players call each seat, per language: `seats "North | 北", …`, else P0, P1, …
        self.seat_texts = [[names[q][lang] if (names := prog.seat_names) else f"P{q}" for q in range(self.n)]
                           for lang in (0, 1)]
        # a seat typed by its name ("pick east" for "pick P1"), when the name is one word
        self.typed_seats = {name.lower(): f"P{q}" for texts in self.seat_texts for q, name in enumerate(texts)
                            if prog.seat_names and len(name.split()) == 1}
        # … and a name of several words ("give ♣K North West"), matched whole, longest first
        self.spaced_seats = sorted(((re.compile(rf"(?<!\S){re.escape(' '.join(name.split()))}(?!\S)", re.I), f"P{q}")
                                    for texts in self.seat_texts for q, name in enumerate(texts)
                                    if prog.seat_names and len(name.split()) > 1), key=lambda x: -len(x[0].pattern))
        # how players read each card, per language: its label ("Pine-Crane | 松に鶴"), else its name
        labels = prog.cards.labels
        self.card_texts = [[labels[n][lang] if n in labels else n for n in self.card_names] for lang in (0, 1)]
        self.card_index = {n: i for i, n in enumerate(prog.cards.names)}
        for alias, target in prog.cards.aliases.items():
            self.card_index.setdefault(alias, self.card_index[target])
        # what a person may type: a card's name or alias in any case ("h7", "joker1"); an exact name wins
        self.typed_cards: dict[str, int] = {}
        for name, i in self.card_index.items():
            self.typed_cards.setdefault(name.lower(), i)
        # a card's label typed for it ("Pine-Crane"; "Pine Crane" in a typed action), in either
        # language and any case, when it is the label of that card alone
        by_label: dict[str, set[int]] = {}
        for lang_texts in self.card_texts:
            for i, text in enumerate(lang_texts):
                by_label.setdefault(text.lower(), set()).add(i)
        labelled = {t: next(iter(cs)) for t, cs in by_label.items() if len(cs) == 1 and t.strip()}
        for text, i in labelled.items():
            self.typed_cards.setdefault(text, i)
        self.typed_cards.update(self.card_index)
        self.spaced_labels = sorted(((re.compile(rf"(?<!\S){re.escape(t)}(?!\S)", re.I), i)
                                     for t, i in labelled.items() if " " in t.strip()), key=lambda x: -len(x[0].pattern))
        # suits typed in ASCII ("bid 20 S" for "bid 20 ♠") when the deck has the standard suits
        suit = prog.enums.get("Suit")
        self.typed_suits = {a.lower(): s for s, a in ASCII_SUITS.items()} \
            if suit is not None and set(ASCII_SUITS) <= set(suit.members) else {}
        self.static_slots = prog.static_slots
        self.limit = prog.limit
        self.limit_loses = prog.limit_loses
        # phases at whose start play stops, waiting for ``run`` (a scenario's `until_phase`: the end
        # of a hand seen before the next one's deal); empty in play
        self.stop_before: frozenset[int] = frozenset()
        # the phases declared `pause`: `fuda play` stops at their start (``stop_before``) for its humans
        self.pauses = frozenset(i for i, ph in enumerate(prog.phases) if ph.decl is not None and ph.decl.pause)
        # a scenario's stacked deck: zone slot → (cards on top, topmost first; at the bottom,
        # bottommost first), placed before setup runs and kept there by its shuffles; empty in play
        self.stacked: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        # zone slot tables
        self.zone_owner: list[int | None] = []
        self.zone_decl: list[int] = []            # slot → index into prog.zones
        # how events call the zones, per language: by their labels (a zone without one by its name;
        # a sequence's zones as "Label[i]")
        self.zone_texts: list[dict[str, str]] = [
            {z.name: text_plain(z.decl.label, lang) for z in prog.zones
             if z.decl is not None and z.decl.label is not None} for lang in (0, 1)]
        self.zone_label: list[str] = []
        self.cell_square: dict[int, tuple[int, int]] = {}
        for zi, z in enumerate(prog.zones):
            if z.kind == "sequence":
                continue
            assert z.decl
            for k in range(z.count):
                slot = z.base + k
                self.zone_decl.append(zi)
                if z.kind == "grid":
                    x, y = k % z.width, k // z.width
                    self.cell_square[slot] = (x, y)
                    self.zone_owner.append(None)
                    self.zone_label.append(f"{z.name}[{x},{y}]")
                elif z.per_player:
                    self.zone_owner.append(k)
                    self.zone_label.append(f"{z.name}[P{k}]")
                else:
                    self.zone_owner.append(None)
                    self.zone_label.append(z.name)
        self.seq_owner: list[int | None] = []
        self.seq_decl: list[int] = []
        for zi, z in enumerate(prog.zones):
            if z.kind == "sequence":
                for k in range(z.count):
                    self.seq_owner.append(k if z.per_player else None)
                    self.seq_decl.append(zi)
        self.zone_mask = [self.mask_for(self.zone_decl[slot], self.zone_owner[slot])
                          for slot in range(self.static_slots)]
        comp.namespace["ZM"] = self.zone_mask
        # the piles whose top card lies face up (`top up`): kept so after every statement that moves cards
        self.top_slots = [slot for slot in range(self.static_slots)
                          if (d := prog.zones[self.zone_decl[slot]].decl) is not None and d.top_up]
        comp.namespace["NSTATIC"] = self.static_slots
        self.effect_fields = [e.fields for e in comp.effects]
        self.n_item_fields = len(prog.item_fields)
        # an item's parameter fields before its own are set: a bool its effect does not declare reads
        # false (a bool is never none), any other none
        by_index = sorted(prog.item_fields.items(), key=lambda f: f[1][0])
        self.item_blank = tuple(False if t.kind == "bool" else None for _, (_, t) in by_index)
        self.item_field_names = ["kind", "controller", "source", "times", "negated"] + [n for n, _ in by_index]
        self.item_has = [frozenset(5 + f for f in e.fields) for e in comp.effects]   # what each may be assigned
        self.procs = comp.procs
        self._quiet_rules: tuple[dict[str, Any], list[Any]] | None = None     # see playout(quiet=True)
        # after use_native: the rules compiled to C, with the log and quiet (namespace, procedures)
        self._native_rules: tuple[tuple[dict[str, Any], list[Any]], tuple[dict[str, Any], list[Any]]] | None = None
        self.native: tuple[tuple[dict[str, Any], list[Any]], tuple[dict[str, Any], list[Any]]] | None = None
        # ^ the same while playouts run them (use_native)
        self._gen_lines: dict[bool, list[str]] = {}                     # see _fn_line
        self._fn_lines: dict[tuple[bool, int], tuple[str, list[FnSite]]] = {}
        self.frame_sizes = comp.frame_sizes
        self.sites = comp.sites
        self.weighted = any(site.weights is not None for site in comp.sites)   # some `rollout weight`
        # per site and option: where the option's cards are; one extra () for a window's pass (-1),
        # and every one-card option sharing R._ONE_CARD (compared by identity on the hot path)
        self.card_args = [[R._ONE_CARD if info.card_args == R._ONE_CARD else info.card_args
                           for info in site.options] + [()] for site in comp.sites]
        # 1 where the chooser reads the cards an option names (named from a list); 0 where they
        # picked places in a zone, whose cards they see only if the zone or a reveal shows them
        self.actor_reads = [[0 if info.place_args else 1 for info in site.options] + [1] for site in comp.sites]
        # per site and option: where the option names zones, which a sequence may renumber later (an
        # act event keeps their places when chosen); only looked at when the ruleset has sequences
        self.zone_args = [[tuple(i + 1 for i, t in enumerate(info.binder_types) if t in ("zone", "list:zone"))
                           for info in site.options] + [()] for site in comp.sites]
        self.seq_acts = bool(prog.seq_count) and any(any(z) for z in self.zone_args)
        self.effects = comp.effects
        self.spans = comp.spans
        self.enum_members = {name: e.members for name, e in prog.enums.items()}
        self.show_fn = comp.namespace.get("SHOW")
        self._showing = False       # Game.show is running (a text inside `show` names cards by name)
        self.hidden_places: dict[int, str] | _Unseen = {}    # while a label or prompt is written: cards unseen, by place
        self.show_order_fn = comp.namespace.get("SHOW_ORDER")
        self.texts = comp.namespace["TEXTS"]      # formatters of logged messages
        ev = prog.evaluate
        self.eval_fn = comp.namespace.get("EVAL")
        self.allies_fn = comp.namespace.get("ALLIES")
        self.belief_fn = comp.namespace.get("BELIEF")
        # a belief giving weights (numbers), not yes or no: worlds are drawn in proportion to them
        self.belief_weighted = self.belief_fn is not None and prog.belief is not None \
            and prog.fns[prog.belief.fn].ret.kind != "bool"
        self.eval_range = prog.eval_range if ev is not None else (0, 1)
        self.eval_after = (ev.after or EVAL_AFTER) if ev is not None else None
        # the variables of a new game (values are immutable, so every game starts from a copy)
        g: list[Any] = [None] * prog.g_size
        for v in prog.vars:
            width = {"global": 1, "player": self.n, "card": self.ncards}[v.scope]
            for k in range(width):
                g[v.slot + k] = v.init
        g[0] = 0
        g[1] = 1
        bs = prog.builtin_slots
        for p in range(self.n):
            g[bs["out"] + p] = False
            g[bs["place"] + p] = 0
            g[bs["score"] + p] = 0
            g[bs["outcome"] + p] = R.NO_OUTCOME
        self.g_init = g

    def mask_for(self, zone_index: int, owner: int | None) -> int:
        """The players who see cards in a zone of this declaration and owner."""
        decl = self.prog.zones[zone_index].decl
        assert decl is not None
        vis = decl.visibility
        if vis == "public":
            return R.ALL
        if vis == "hidden" or owner is None:
            return 0
        if vis == "owner":
            return 1 << owner
        return R.ALL & ~(1 << owner)  # others

    def show(self, st: State, c: int, lang: int = 0) -> str | None:
        """The ruleset's `show` text for a card (None without a `show` declaration, or while it is
        being worked out: a label inside it names cards by name)."""
        if self.show_fn is None or self._showing:
            return None
        self._showing = True
        try:
            text = self.show_fn(st, c)
        except Exception:
            return None
        finally:
            self._showing = False
        return str(text[min(lang, len(text) - 1)])

    def sorted_cards(self, st: State, cards: list[int]) -> list[int]:
        """``cards`` in the order of the ruleset's ``show … sorted by KEY`` (ties, and every card when
        a key cannot be computed, in deck order)."""
        f = self.show_order_fn
        if f is None:
            return sorted(cards)
        try:
            keys = {c: R._none_last(f(st, c)) for c in cards}
            return sorted(cards, key=lambda c: (keys[c], c))
        except Exception:
            return sorted(cards)

    def evaluate(self, st: State) -> list[float] | None:
        """The ruleset's ``evaluate`` function for every player, scaled from its range to 0…1
        (values outside the range are clamped; ``none`` counts as the worst). None without one."""
        f = self.eval_fn
        if f is None:
            return None
        lo, hi = self.eval_range
        try:
            vals = [f(st, p) for p in range(self.n)]
        except (R.RuleFailure, RecursionError, *_PY_FAILURES) as e:
            raise self.rule_error(st, e) from None
        return [(min(hi, max(lo, v)) - lo) / (hi - lo) if v is not None else 0.0 for v in vals]

    def allied(self, st: State, p: int, q: int) -> bool | None:
        """Is ``p`` on ``q``'s side (the ruleset's ``allies`` function, read in ``st``: it may read
        secrets, so a persona passes worlds sampled from what the table sees)? None without one."""
        if self.allies_fn is None:
            return None
        try:
            return bool(self.allies_fn(st, p, q))
        except (R.RuleFailure, RecursionError, *_PY_FAILURES) as e:
            raise self.rule_error(st, e) from None

    def message(self, st: State, logged: Any, lang: int = 0) -> str:
        """A logged message in a language: (formatter, values) as the rules log it, or the
        (english, japanese) texts of states saved before 2026-11-23."""
        if isinstance(logged[0], int):
            logged = self.texts[logged[0]](st, logged[1])
        return logged[min(lang, len(logged) - 1)]  # type: ignore[no-any-return]

    def zone_name(self, st: State, slot: int, pos: int | None = None) -> str:
        """A zone slot's name; a zone of a sequence is named by its place there (now, or ``pos``)."""
        if slot < self.static_slots:
            return self.zone_label[slot]
        seq, owner = st.dyn[slot - self.static_slots]
        z = self.prog.zones[self.seq_decl[seq]]
        if pos is None:
            pos = st.sq[seq].index(slot) if slot in st.sq[seq] else -1
        who = f"[P{owner}]" if owner is not None else ""
        return f"{z.name}{who}[{pos}]" if pos >= 0 else f"{z.name}{who}[gone]"

    def seat(self, q: int | None, lang: int = 0) -> str:
        """A player as players call them (a seat's name, else P1); the id stays P1 everywhere else."""
        return "nobody" if q is None else self.seat_texts[lang][q]

    def seats_in(self, lang: int) -> list[str] | None:
        """The seats' names in one language, if the ruleset names them (`seats`)."""
        return self.seat_texts[lang] if self.prog.seat_names else None

    def title_in(self, lang: int) -> str:
        """The ruleset's title in one language (0 English, 1 Japanese; one title serves both)."""
        halves = self.title.split(" | ")
        return halves[min(lang, len(halves) - 1)]

    # -------------------------------------------------------------- identity
    def ident(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "options": self.options_given}

    @functools.cached_property
    def fingerprint(self) -> str:
        """Names the compiled rules: a saved state's frames and span ids are only meaningful to the
        same compiled module (the same ruleset text and options, the same compiler)."""
        code = self.comp.source.split("\n", 1)[1]          # not the header naming the file's path
        return hashlib.sha1(code.encode()).hexdigest()[:16]

    @functools.cached_property
    def rules_hash(self) -> str:
        """Names the rules as written and compiled: the compiled module and the words of every file
        of the ruleset (a zone's visibility is not in the generated code; comments and layout are
        not rules), so a saved game can tell it is resumed under edited rules."""
        from ..parse import words_of

        texts = "\0".join(" ".join(words_of(self.prog.sources.get(f, ""))) for f in self.prog.chain)
        return hashlib.sha1((self.fingerprint + texts).encode()).hexdigest()[:16]

    def same_rules(self, saved: str) -> bool:
        """Whether a game saved under rules hash ``saved`` was played under these rules (also a hash
        of an older fuda's, which took the files' whole text)."""
        texts = "\0".join(self.prog.sources.get(f, "") for f in self.prog.chain)
        return saved in (self.rules_hash, hashlib.sha1((self.fingerprint + texts).encode()).hexdigest()[:16])

    def __repr__(self) -> str:
        return f"<Game {self.name} players={self.n}>"

    # -------------------------------------------------------------- new games
    def new_state(self, seed: int = 0, hold: bool = False, skip_setup: bool = False,
                  carried: Mapping[str, Any] | None = None) -> State:
        """A new game, run up to its first decision. ``hold``: stop when setup is done, before the
        first phase starts (scenario files edit the state there, then call ``begin``);
        ``skip_setup``: do not run setup at all (all cards stay where the deck starts);
        ``carried``: the `carried` variables' values from the match's previous game
        (``carried_values``), which this game starts with instead of their initial values.

        After ``use_native`` the setup runs in C too; should it fail there, the game is set up
        again in Python (a new game depends on its seed alone), to be reported at the rule."""
        if self.native is not None:
            procs = self.procs
            self.procs = self.native[0][1]
            try:
                return self._new_state(seed, hold, skip_setup, carried)
            except Exception:
                pass
            finally:
                self.procs = procs
        return self._new_state(seed, hold, skip_setup, carried)

    def _new_state(self, seed: int, hold: bool, skip_setup: bool, carried: Mapping[str, Any] | None) -> State:
        prog = self.prog
        st = State.__new__(State)
        st.game = self
        st.seed = seed
        st.z = [[] for _ in range(self.static_slots)]
        start = prog.cards.start_zone
        assert start is not None
        if prog.cards.homes is None:
            st.z[start.base] = list(range(self.ncards))
            st.loc = [start.base] * self.ncards
        else:               # `in ZONE { … }` in the deck: those cards start there
            st.loc = [z.base for z in prog.cards.homes]
            for c, slot in enumerate(st.loc):
                st.z[slot].append(c)
        st.vis = [0] * self.ncards
        st.g = self.g_init[:]
        if carried:
            for slot, value in self.carried_in(carried).items():
                st.g[slot] = value
        st.sq = [[] for _ in range(prog.seq_count)]
        st.dyn = []
        st.frames = [] if skip_setup else [self._frame(self.comp.setup, ())]
        st.stack = []
        st.items = {}
        st.nitem = 0
        st.pend = None
        st.opts = None
        st.sopts = None
        st.schosen = None
        st.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & R.M64
        st.ev = []
        st.tally = {}
        st.tcard = {}
        st.over = False
        st.capped = False
        st.ndec = 0
        st.phase = -1
        st.revealed = []
        st.ret = None
        st.choice = None
        st.in_check = False
        st.ck_ok = False
        if hold or skip_setup:
            st.phase = -2
        for slot in self.stacked:
            R._stack(st, slot, True)
        try:
            self.run(st)
        except RuleRuntimeError as e:
            e.state = st        # what happened up to the failure, for `fuda replay`
            raise
        return st

    def carried_values(self, st: State) -> dict[str, Any]:
        """The `carried` variables as they stand — at a game's end, what the next game of a match
        starts with: a value, or a list with one per player (JSON-ready). An enum member is written
        by its name, so that the next game reads the same member if the enum was reordered."""
        out: dict[str, Any] = {}
        for v in self.prog.vars:
            if v.decl is not None and v.decl.carried:
                vals = st.g[v.slot:v.slot + (1 if v.scope == "global" else self.n)]
                if v.type.kind == "enum":
                    members = self.enum_members[v.type.name or ""]
                    vals = [members[x] if x is not None else None for x in vals]
                out[v.name] = vals[0] if v.scope == "global" else vals
        return out

    def carried_kinds(self) -> dict[str, str]:
        """The kind of each `carried` variable (player, int, enum…), kept beside its values: a match
        file writes a player as its seat number and an enum member by its name, which an int or a
        text variable of a changed ruleset would otherwise take as its own (``carried_in``)."""
        return {v.name: v.type.kind for v in self.prog.vars if v.decl is not None and v.decl.carried}

    @functools.cached_property
    def carried_names(self) -> frozenset[str]:
        """The ruleset's `carried` variables."""
        return frozenset(v.name for v in self.prog.vars if v.decl is not None and v.decl.carried)

    def carried_in(self, values: Mapping[str, Any], kinds: Mapping[str, str] | None = None) -> dict[int, Any]:
        """``values`` (as ``carried_values`` gives them, maybe read back from a file) checked against
        this ruleset: state slot → value. A name that is no carried variable, or a value that does not
        fit it, is E503 naming it; so is a value of another kind than the variable's now, when
        ``kinds`` (``carried_kinds`` of the game it comes from) says (an int may become a number)."""
        out: dict[int, Any] = {}
        carried = {v.name: v for v in self.prog.vars if v.decl is not None and v.decl.carried}
        for name, value in values.items():
            v = carried.get(name)
            if v is None:
                raise error("E503", f"carried value {name!r}: the ruleset has no carried variable so named",
                            hint=("carried variables: " + ", ".join(carried)) if carried else None)
            t = v.type
            was = (kinds or {}).get(name, t.kind)
            if was != t.kind and (was, t.kind) != ("int", "number"):
                raise error("E503", f"carried value {name!r}: {'an' if was[:1] in 'aeiou' else 'a'} {was} is no {t}")
            vals = [value] if v.scope == "global" else value
            if v.scope == "player" and not (isinstance(value, list | tuple) and len(value) == self.n):
                raise error("E503", f"carried value {name!r}: {name} is per player: one value for each of "
                            f"the {self.n} players, not {value!r}")
            for i, x in enumerate(vals):
                if t.kind == "enum" and isinstance(x, str):      # by name (an older fuda wrote positions)
                    members = self.enum_members[t.name or ""]
                    if x not in members:
                        raise error("E503", f"carried value {name!r}: {x!r} is no member of {t.name} "
                                            f"({', '.join(members)})")
                    x = members.index(x)
                elif not self._fits(t, x):
                    raise error("E503", f"carried value {name!r}: {'null' if x is None else repr(x)} is no {t}"
                                + (" (an int, number or bool is never none)" if x is None else ""))
                out[v.slot + i] = x
        return out

    def _fits(self, t: Any, x: Any) -> bool:
        if x is None:           # none belongs to every type but int, number and bool (language.md §25)
            return t.kind not in ("int", "number", "bool")
        if isinstance(x, bool):
            return t.kind == "bool"
        if t.kind in ("player", "enum"):        # a seat; an enum member's position (older files)
            count = self.n if t.kind == "player" else len(self.enum_members[t.name])
            return isinstance(x, int) and 0 <= x < count
        if t.kind == "int":
            return isinstance(x, int)
        if t.kind == "number":      # an int past the float range is no number (language.md §25)
            return isinstance(x, float) and math.isfinite(x) or isinstance(x, int) and abs(x) <= sys.float_info.max
        return t.kind == "text" and isinstance(x, str)

    def refresh_options(self, st: State) -> None:
        """Recompute the legal options of the pending decision (after a scenario edited the state)."""
        st.ck_ok = False          # the edit may have made a check condition true: the next pass is full
        if self.top_slots:
            R._tops(st)             # a pile `top up` edited: its top card face up
        if st.pend is None:
            return
        site = self.sites[st.pend[0]]
        if st.sopts is not None:
            st.sopts = [self.site_options(st, site, p) for p in st.pend[1]]
        else:
            st.opts = self.site_options(st, site, st.pend[1][0])

    @staticmethod
    def site_options(st: State, site: Any, player: int) -> list[tuple[Any, ...]]:
        """``player``'s legal options in the pending decision at ``site``, worked out anew (a
        window's with its pass)."""
        fr = st.frames[-1]
        if site.kind == "choose":
            return site.enum(st, fr)            # type: ignore[no-any-return]
        if site.kind == "simul":
            return site.enum(st, fr, player)    # type: ignore[no-any-return]
        return site.enum(st, fr[2], player) + [(-1,)]   # type: ignore[no-any-return]

    def begin(self, st: State, phase: str | None = None) -> None:
        """Start play after ``new_state(hold=True)``: the first phase, or the named one (stopped as
        it begins when it is one of ``stop_before``: ``run`` goes on)."""
        names = [ph.name for ph in self.prog.phases]
        idx = names.index(phase) if phase is not None else 0
        if st.frames or st.pend is not None:
            raise ValueError("setup is still waiting for a decision")
        st.phase = idx
        st.ck_ok = False
        st.frames.append(self._frame(self.comp.phases[idx], ()))
        st.ev.append((R.EV_PHASE, -1, idx))
        if idx not in self.stop_before:
            self.run(st)

    def _frame(self, fid: int, args: tuple[Any, ...]) -> list[Any]:
        fr: list[Any] = [fid, 0, *args]
        fr.extend([None] * (self.frame_sizes[fid] - len(fr)))
        return fr

    # -------------------------------------------------------------- running
    def resume(self, st: State) -> None:
        """Continue after a decision: the waiting procedure usually runs to its next decision by
        itself; the driver loop (``run``) takes over only when frames finish or call others."""
        fr = st.frames[-1]
        try:
            r = self.procs[fr[0]](st, fr)
        except Exception as e:   # ends, phase changes and rule failures: handled by run
            self.run(st, pending=e)
            return
        if r == 1:
            return
        if r == 0:
            st.frames.pop()
        self.run(st)

    def run(self, st: State, pending: BaseException | None = None) -> None:
        procs = self.procs
        frames = st.frames
        gotos = 0
        while True:
            try:
                if pending is not None:
                    e, pending = pending, None
                    try:
                        raise e
                    finally:        # no reference from this frame to the exception: its traceback
                        del e       # holds the frame, and playouts run with the cyclic GC paused
                while True:
                    if not frames:
                        if st.phase == -2:
                            return          # held after setup (see new_state)
                        if st.phase < 0 and self.comp.phases:
                            st.phase = 0
                            frames.append(self._frame(self.comp.phases[0], ()))
                            st.ev.append((R.EV_PHASE, -1, 0))
                            continue
                        R._end(st, False, -1)
                    fr = frames[-1]
                    r = procs[fr[0]](st, fr)
                    if r == 0:
                        frames.pop()
                    elif r == 1:
                        return
            except R.GameOver:
                frames.clear()
                st.pend = None
                st.opts = st.sopts = st.schosen = None
                return
            except R.Goto as gt:
                gotos += 1
                if gotos > 10_000:
                    raise self.runtime_error("the phases go to each other without end (no decision between)",
                                             self._failing_span()) from None
                frames.clear()
                st.stack.clear()
                st.items.clear()
                st.in_check = False
                st.phase = gt.phase
                frames.append(self._frame(self.comp.phases[gt.phase], ()))
                st.ev.append((R.EV_PHASE, -1, gt.phase))
                if gt.phase in self.stop_before:
                    return          # stopped as the phase begins, no decision waiting: ``run`` goes on
            except (R.RuleFailure, RecursionError, *_PY_FAILURES) as e:
                st.in_check = False
                raise self.rule_error(st, e) from None

    def rule_error(self, st: State, e: BaseException) -> RuleRuntimeError:
        """A rule's failure (or the Python error it caused) as a located diagnostic; call it in the
        ``except`` block, where the traceback shows the failing line of the rules."""
        if isinstance(e, RecursionError):
            return self.runtime_error("the rules recurse without end", self._failing_span())
        in_fn = self.fn_failure()
        if isinstance(e, R.RuleFailure):
            err = self.runtime_error(str(e), e.span, e.code)
        elif in_fn is not None and in_fn[0] is not None:       # the caret on the fn's failing expression
            sid = self._failing_span()
            err = self.runtime_error(self._none_said(st, sid, e, in_fn[0], param=in_fn[2]), sid)
            err.diagnostics[0].span = in_fn[0]
        else:
            sid = self._failing_span()
            callers = self._failing_span(calls=True)
            err = self.runtime_error(self._none_said(st, sid, e, caller=callers[-1] if callers else None), sid)
            if callers:         # a function's failure: which rule line called it (and through what)
                err.diagnostics[0].hint = "called from " + ", from ".join(
                    f"{sp.file}:{sp.line}:{sp.col}" for sp in (self.spans[c] for c in reversed(callers)))
        if in_fn is not None and in_fn[1]:
            err.diagnostics[0].hint = in_fn[1]
        return err

    def fn_failure(self) -> tuple[Span | None, str, str | None] | None:
        """For a failure inside a `fn` (often inlined into the rule's line): the innermost expression
        of the fn that failed, the calls that led there ("in suit_of_first, called from points at
        f.fuda:7:41, called at f.fuda:10:13"), worked out from the failing instruction's columns in
        each generated line and the code the compiler noted for fn bodies and calls (comp.fn_sites),
        and the parameters of that fn the expression reads that are none (``_params_none``). None
        when no fn took part."""
        if not self.comp.fn_sites:
            return None
        fname = f"<fuda:{self.prog.name}>"
        quiet = self._quiet_rules[0] if self._quiet_rules is not None else None
        where: tuple[Span, str] | None = None
        calls: list[tuple[str, Span | None]] = []       # (fn called, where), outermost first
        entered: list[tuple[Any, str | None]] = []      # for each: the frame running the call, its code
        ran: set[str] = set()            # the fns and orderings whose own compiled code ran when it failed
        tb = sys.exc_info()[2]
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == fname and 0 < tb.tb_lineno <= len(self.comp.line_spans):
                text, sites = self._fn_line(quiet is not None and tb.tb_frame.f_globals is quiet, tb.tb_lineno)
                own = self._fn_defs.get(code.co_name)
                ran.add(own or "")
                if own is not None and (not calls or calls[-1][0] != own):
                    calls.append((own, None))       # called from where the lines do not show it
                    entered.append((tb.tb_frame, None))
                    where = None                    # what failed is in this deeper fn, not the caller's line
                cols = _instruction_cols(code, tb.tb_lasti, text)
                for found in _covering(sites, text, cols):
                    context = calls[-1][0] if calls else None
                    site = next((x for x in found if x[2] == context), None)    # code of this fn only
                    if site is None:
                        continue
                    _, span, _, callee = site
                    if callee is None:
                        where = (span, context or "")
                    elif _in_argument(text, site[0], [g for _, g, _ in self.comp.fn_args.get((site[0], span), [])],
                                      cols):
                        continue            # an argument failed (`rk(cs[5])`): the caller's code, not rk's
                    else:                   # the failure is inside the fn called: not the caller's code
                        calls.append((callee, span))
                        entered.append((tb.tb_frame, site[0]))
                        where = None
            tb = tb.tb_next
        while calls and calls[-1][0] in self.prog.orderings and calls[-1][0] not in ran:
            calls.pop()     # an ordering's argument failed (`power(cs[5])`), before the ordering ran
        if not calls:
            return None
        inner = where[1] if where is not None else calls[-1][0]
        said = self._calls_said(inner, calls)       # calls now end with inner's
        frames = [(calls[i][0], *entered[i], calls[i][1]) for i in range(len(calls))]
        return (where[0] if where is not None else None), said, \
            self._params_none(frames, where[0] if where is not None else None)

    def _params_none(self, frames: list[tuple[str, Any, str | None, Span | None]], failed: Span | None) -> str | None:
        """The parameters of the innermost fn of ``frames`` that are none, of those its failing
        expression ``failed`` reads ("the parameter c of f is none (given top(empty))"), with what
        each was given — followed out through the fns that handed on their own parameter ("(given c,
        h's parameter, given top(empty))"). ``frames``: for each fn called, outermost first, its name,
        the frame running it (``call`` None) or the call's code ``call`` at ``at``. None when none is found."""
        fn = frames[-1][0]
        f = self.prog.fns.get(fn)
        if f is None:
            return None
        read = None
        if failed is not None:
            read = set(re.findall(r"[^\W\d]\w*", self._span_text(failed)))
        none = [(name, span) for name, value, span in self._given(*frames[-1])
                if value is None and (read is None or name in read)]
        if not none:
            return None
        given = [(name, self._given_said(name, arg_at, frames)) for name, arg_at in none]
        if len(given) > 1:
            known = "; ".join(f"{name} given {g}" for name, g in given if g)
            return f"the parameters {' and '.join(n for n, _ in given)} of {fn} are none" + (f" ({known})" if known else "")
        name, g = given[0]
        return f"the parameter {name} of {fn} is none" + (f" (given {g})" if g else "")

    def _given(self, fn: str, frame: Any, call: str | None, at: Span | None) -> list[tuple[str, Any, Span | None]]:
        """The values given to ``fn``'s parameters, with where each argument is written: read in
        ``frame``, the one running ``fn`` (``call`` None: no place), or the call's code ``call`` at
        ``at`` (the code the compiler noted for each parameter, evaluated there: an argument is pure,
        `random` is never inlined)."""
        f = self.prog.fns.get(fn)
        if f is None:
            return []
        if call is None:
            return [(p.name, frame.f_locals.get(f"l{p.slot}", 0), None) for p in f.params]
        given: list[tuple[str, Any, Span | None]] = []
        for name, code, span in self.comp.fn_args.get((call, at), []) if at is not None else []:
            try:
                value = eval(code, frame.f_globals, dict(frame.f_locals))   # noqa: S307 (the compiler's own code)
            except Exception:
                value = 0       # not known: not said
            given.append((name, value, span))
        return given

    def _given_said(self, name: str, arg_at: Span | None, frames: list[tuple[str, Any, str | None, Span | None]]) -> str:
        """What the parameter ``name`` of the last fn of ``frames`` was given, as ``arg_at`` writes it
        ("top(empty)"); an argument that is the calling fn's own parameter is followed out to what
        that fn was given ("c, h's parameter, given top(empty)"). Empty when nothing more is known
        than the name."""
        parts: list[str] = []
        while arg_at is not None:
            arg = " ".join(self._span_text(arg_at).split())
            if not arg or len(arg) > 40:
                break
            frames = frames[:-1]
            caller = self.prog.fns.get(frames[-1][0]) if frames else None
            if caller is None or arg not in {p.name for p in caller.params}:
                parts.append(arg)
                break
            parts.append(f"{arg}, {frames[-1][0]}'s parameter")
            arg_at = next((sp for n, _, sp in self._given(*frames[-1]) if n == arg), None)
        return "" if parts == [name] else ", given ".join(parts)

    def _span_text(self, sp: Span) -> str:
        """The source text ``sp`` covers."""
        lines = self.prog.sources.get(sp.file, "").splitlines()[sp.line - 1:sp.end_line]
        if not lines:
            return ""
        if len(lines) == 1:
            return lines[0][sp.col - 1:sp.end_col - 1]
        return "\n".join([lines[0][sp.col - 1:], *lines[1:-1], lines[-1][:sp.end_col - 1]])

    @staticmethod
    def _calls_said(inner: str, calls: list[tuple[str, Span | None]]) -> str:
        while calls and calls[-1][0] != inner:      # calls made inside the failing expression's fn
            calls.pop()
        said = [f"in {inner}"]
        for i in range(len(calls) - 1, -1, -1):
            site = calls[i][1]
            at = f" at {site.file}:{site.line}:{site.col}" if site is not None else ""
            said.append(f"called from {calls[i - 1][0]}{at}" if i > 0 else f"called{at or ' from a rule'}")
        return ", ".join(said)

    @functools.cached_property
    def _fn_defs(self) -> dict[str, str]:
        """The Python name of each fn compiled on its own (``F_points``), and of each ordering (``O_power``,
        ``OB_power``: the best by it) → the fn's or ordering's name."""
        from ..compile.compiled import _ident

        return {f"F_{_ident(name)}": name for name in self.prog.fns} \
            | {f"{k}_{_ident(name)}": name for name in self.prog.orderings for k in ("O", "OB")}

    def _fn_line(self, quiet: bool, lineno: int) -> tuple[str, list[FnSite]]:
        """Generated line ``lineno`` (of the rules without events, if ``quiet``: its columns may differ)
        and the fn codes noted in it; worked out once a line, as a search's sampled worlds may fail
        at one line again and again."""
        hit = self._fn_lines.get((quiet, lineno))
        if hit is None:
            if quiet not in self._gen_lines:
                from ..compile import quiet_source

                self._gen_lines[quiet] = (quiet_source(self.comp.source) if quiet else self.comp.source).split("\n")
            text = self._gen_lines[quiet][lineno - 1]
            hit = self._fn_lines[(quiet, lineno)] = (text, [s for s in self.comp.fn_sites if s[0] in text])
        return hit

    def _none_said(self, st: State, sid: int, e: BaseException, span: Span | None = None,
                   caller: int | None = None, param: str | None = None) -> str:
        """What failed, in words. For a rule that read through none, the likeliest culprits in the
        failing statement (or ``span``): an item field the item's effect does not declare ("item #0
        (b) has no field n"), else the game variables that are none now ("; leader is none"), and
        locals — in a fn, its parameters that are none (``param``: "the parameter c of f is none"),
        else the caller's locals that gave it the none; for a statement of no rule or phase (an
        `ordering`'s tier), the locals of the statement ``caller`` that called it, which gave it the
        none (`power(x)`: "x is none")."""
        if isinstance(e, IndexError):
            return self._index_said(st) or _explain(e)
        if not (isinstance(e, TypeError) and "NoneType" in str(e)) or not (span or 0 <= sid < len(self.spans)):
            return _explain(e)
        sp = span or self.spans[sid]
        text = "\n".join(self.prog.sources.get(sp.file, "").splitlines()[sp.line - 1:sp.end_line])
        fields = set(re.findall(r"\.([^\W\d]\w*)", text))
        for iid in reversed(st.stack):      # the top item first: the one a window looks at
            item = st.items[iid]
            for idx in range(5, len(item)):
                name = self.item_field_names[idx]
                if name in fields and item[idx] is None and idx not in self.item_has[item[0]]:
                    eff = self.effects[item[0]].name
                    if name in self.prog.cards.attrs:     # `c.role` may be the card attribute: both said
                        return f"{_explain(e)}; or item #{iid} ({eff}) has no field {name} (its effect does not declare it)"
                    return (f"item #{iid} ({eff}) has no field {name}: its effect {eff} does not declare it, so "
                            "it reads none (test it.kind first, or give the effect that parameter)")
        words = set(re.findall(r"[^\W\d]\w*", text))
        names = [v.name for v in self.prog.vars[5:] if v.scope == "global" and v.name in words
                 and st.g[v.slot] is None]
        # the statement's locals: also those given to a function that failed on them (`wins(w)`)
        stmt = self.spans[sid] if span is not None and 0 <= sid < len(self.spans) else sp
        if stmt is not sp:
            words = set(re.findall(r"[^\W\d]\w*", "\n".join(
                self.prog.sources.get(stmt.file, "").splitlines()[stmt.line - 1:stmt.end_line])))
        if param is not None:       # the fn's own parameter, not a local of the line that called it
            also = f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} none; " if names else ""
            return f"{_explain(e)}; {also}{param}"
        names += [n for n in self._locals_none(sid, stmt, words) if n not in names]
        if caller is not None and 0 <= caller < len(self.spans) and not any(
                p.span.file == stmt.file and p.span.line <= stmt.line <= p.span.end_line for p in self.prog.procs):
            at = self.spans[caller]
            said = set(re.findall(r"[^\W\d]\w*", "\n".join(
                self.prog.sources.get(at.file, "").splitlines()[at.line - 1:at.end_line])))
            names += [n for n in self._locals_none(caller, at, said) if n not in names]
        return _explain(e) + (f"; {' and '.join(names)} {'is' if len(names) == 1 else 'are'} none" if names else "")

    def _index_said(self, st: State) -> str | None:
        """A position past the end (or, negative, before the start), said with the values (`position 4
        of row[P0], which holds 3 cards`): the failing subscript of the innermost generated line, worked
        out again in its frame. None where that is not a plain subscript of reads and pure built-in
        calls (`size(hand[p])` is `len(…)`; any other call might change the state or draw at random)."""
        fname = f"<fuda:{self.prog.name}>"
        tb, last = sys.exc_info()[2], None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == fname and 0 < tb.tb_lineno <= len(self.comp.line_spans):
                last = tb
            tb = tb.tb_next
        if last is None:
            return None
        frame = last.tb_frame
        quiet = self._quiet_rules is not None and frame.f_globals is self._quiet_rules[0]
        text = self._fn_line(quiet, last.tb_lineno)[0]
        cols = _instruction_cols(frame.f_code, last.tb_lasti, text)
        try:
            node = pyast.parse(text[cols[0]:cols[1]], mode="eval").body if cols is not None else None
        except SyntaxError:
            return None
        if not isinstance(node, pyast.Subscript) or any(
                isinstance(n, pyast.Call) and not (isinstance(n.func, pyast.Name) and n.func.id in _PURE_CALLS)
                for n in pyast.walk(node)):
            return None

        def value(n: pyast.expr) -> Any:
            return eval(compile(pyast.Expression(n), fname, "eval"), frame.f_globals, frame.f_locals)

        try:
            seq, pos = value(node.value), value(node.slice)
            inner = node.value      # `Z[slot]`, or its copy `tuple(Z[slot])` (`cards(row[p])[i]`)
            if isinstance(inner, pyast.Call) and len(inner.args) == 1:
                inner = inner.args[0]
            zone = value(inner.slice) if isinstance(inner, pyast.Subscript) and isinstance(inner.value, pyast.Name) \
                and inner.value.id == "Z" else None
            n = len(seq)
        except Exception:       # what cannot be worked out again is not said
            return None
        if not isinstance(pos, int):
            return None
        what = f"{self.zone_name(st, zone)}, which holds {n} card{'' if n == 1 else 's'}" \
            if isinstance(zone, int) and 0 <= zone < len(st.z) else f"a list of {n}"
        if pos < 0:
            return f"a position before the start: position {pos} (counted from the end) of {what}"
        return f"a position past the end: position {pos} of {what}"

    def _locals_none(self, sid: int, sp: Span, words: set[str]) -> list[str]:
        """The locals (`let`, loop variables, parameters) the failing statement ``sp`` names that are
        none now (`won[w] += 1`: "w is none"): read in the generated frame running it, each local
        only where its own code (``l3``, ``fr[5]``) stands in that frame's failing line."""
        if sid < 0:
            return []
        fname = f"<fuda:{self.prog.name}>"
        found = None
        for frame, lineno in traceback.walk_tb(sys.exc_info()[2]):
            if frame.f_code.co_filename == fname and 0 < lineno <= len(self.comp.line_spans) \
                    and self.comp.line_spans[lineno - 1] == sid:
                found = frame, lineno
        procs = [p for p in self.prog.procs if p.span.file == sp.file and p.span.line <= sp.line
                 and (p.span.end_line, p.span.end_col) >= (sp.end_line, sp.end_col)]
        if found is None or not procs:
            return []
        frame, lineno = found
        quiet = self._quiet_rules is not None and frame.f_globals is self._quiet_rules[0]
        # not a local the line only assigns (`let n = won[w]`: n is none because it is not set yet)
        code = re.sub(r"(?:^|;)\s*(?:l\d+|fr\[\d+\])\s*=(?!=)", ";", self._fn_line(quiet, lineno)[0])
        proc = min(procs, key=lambda p: (p.span.end_line - p.span.line, p.span.end_col - p.span.col))
        fr = frame.f_locals.get("fr")

        def none_now(slot: int) -> bool:     # a plain procedure's `l3`, or slot 3 of a frame's list
            if re.search(rf"(?<![\w.\[])l{slot}(?!\w)", code):
                return frame.f_locals.get(f"l{slot}", 0) is None
            return f"fr[{slot + 2}]" in code and isinstance(fr, list) and len(fr) > slot + 2 and fr[slot + 2] is None

        out: list[str] = []
        for loc in proc.locals:
            if not loc.comp and loc.name in words and loc.name not in out and none_now(loc.slot):
                out.append(loc.name)
        return out

    def _failing_span(self, calls: bool = False) -> Any:
        """The rule span of the innermost generated line in the current exception's traceback; with
        ``calls``, the spans of the lines that called it (outermost first), where they differ."""
        tb = sys.exc_info()[2]
        sids: list[int] = []
        fname = f"<fuda:{self.prog.name}>"
        for frame, lineno in traceback.walk_tb(tb):
            if frame.f_code.co_filename == fname and 0 < lineno <= len(self.comp.line_spans):
                s = self.comp.line_spans[lineno - 1]
                if s >= 0 and (not sids or sids[-1] != s):
                    sids.append(s)
        if calls:
            return sids[:-1]
        return sids[-1] if sids else -1

    def runtime_error(self, msg: str, sid: int, code: str = "E601") -> RuleRuntimeError:
        span = self.spans[sid] if 0 <= sid < len(self.spans) else Span(self.prog.chain[0], 0, 0, 0, 0)
        return RuleRuntimeError([Diagnostic(code, msg, span)], dict(self.prog.sources))

    # -------------------------------------------------------------- decisions
    def legal_actions(self, st: State, player: int | None = None) -> list[Action]:
        pend = st.pend
        if pend is None:
            return []
        site_id, players = pend
        site = self.sites[site_id]
        if st.schosen is None:
            p = players[0]
            if player is not None and player != p:
                return []
            return _ids_apart([self._action(st, site, p, o) for o in st.opts or ()])
        if player is None:
            return []
        if player not in players:
            return []
        i = players.index(player)
        if st.schosen[i] is not None or st.sopts is None:
            return []
        return _ids_apart([self._action(st, site, player, o) for o in st.sopts[i]])

    def _action(self, st: State, site: Any, player: int, o: tuple[Any, ...]) -> Action:
        k = o[0]
        if k == -1:
            return Action(player, "pass", "pass", (), o, "pass | パス")
        info = site.options[k]
        parts, places = self._parts(st, info, player, o)
        # a card a list binder offers (`name c in all_cards`) is named: its id names it, so may its label
        named = {c for i, is_list in info.card_args if (i, is_list) not in info.place_args
                 for c in ((o[i],) if not is_list else o[i]) if c is not None}
        label = self.option_label(st, site, player, o, places, named)
        if not label and self.prog.cards.labels and info.card_args:     # the cards as players read them
            halves = [" ".join([info.name.replace("_", " ")] + self._values_read(st, info, o, parts, places, lang))
                      for lang in (0, 1)]
            label = " | ".join(dict.fromkeys(halves))
        return Action(player, _id_of(parts), info.name, tuple(o[1:]), o, label or "")

    def _parts(self, st: State, info: Any, player: int, o: tuple[Any, ...]) -> tuple[list[str], dict[int, str]]:
        """Option ``o``'s id, word by word (its name, then each value), as ``player`` reads it, and
        the cards of it they cannot see, each with its place (``_unseen_places``)."""
        places = self._unseen_places(st, player, o, info.place_args)
        return [info.name] + [R._fmt(st, v, tc) if not places else _fmt_seen(st, v, tc, places)
                              for v, tc in zip(o[1:], info.binder_types, strict=True)], places

    def _values_read(self, st: State, info: Any, o: tuple[Any, ...], parts: list[str], places: dict[int, str],
                     lang: int) -> list[str]:
        """An option's values as players read them: its cards by their labels in ``lang`` (by place
        where unseen), the others as its id writes them (``parts``, after the option's name)."""
        seen = [i for i, _ in info.card_args]
        return [R._words([self.card_texts[lang][c] if c not in places else places[c] for c in
                          ((v,) if isinstance(v, int) else v)]) if j + 1 in seen and v is not None else parts[j + 1]
                for j, v in enumerate(o[1:])]

    def id_read(self, st: State, a: Action) -> str:
        """``a``'s id as players read it, in English: its cards by their labels (`play Blue 6` for
        `play blue6`), its enum members too (`ask Black-eyed bean` for `ask blackeye`) — a menu
        shows a label that names those alone (fuda play)."""
        if a.raw[0] < 0 or st.pend is None:
            return a.id
        info = self.sites[st.pend[0]].options[a.raw[0]]
        cards = bool(info.card_args) and bool(self.prog.cards.labels)
        enums = {j: shown for j, tc in enumerate(info.binder_types)
                 if tc.startswith("enum:") and (shown := self.prog.enums[tc[5:]].shown)}
        if not cards and not enums:
            return a.id
        parts, places = self._parts(st, info, a.player, a.raw)
        values = self._values_read(st, info, a.raw, parts, places, 0) if cards else parts[1:]
        for j, shown in enums.items():
            if a.raw[j + 1] is not None:
                values[j] = shown[a.raw[j + 1]][0]
        return _id_of([a.name] + values)

    def _unseen_places(self, st: State, player: int, o: tuple[Any, ...],
                       card_args: tuple[tuple[int, bool], ...]) -> dict[int, str]:
        """The cards an option names that ``player`` cannot see, each with its place (``hand[P1][2]``,
        0 = bottom): choosing a face-down card is choosing a place, so ids and labels name that."""
        out: dict[int, str] = {}
        for i, is_list in card_args:
            for c in (o[i],) if not is_list else o[i]:
                at = self._place_key(st, player, c)
                if at != c:
                    out[c] = f"{self.zone_name(st, at[1])}[{at[2]}]"
        return out

    def option_key(self, st: State, player: int, o: tuple[Any, ...]) -> tuple[Any, ...]:
        """``o`` as ``player`` tells options apart: a card they cannot see stands as its place
        (zone slot, position), so that a search over sampled worlds cannot tell which card it is."""
        if o[0] < 0 or st.pend is None:
            return o
        place_args = self.sites[st.pend[0]].options[o[0]].place_args
        if not place_args:
            return o
        out = list(o)
        for i, is_list in place_args:
            vals = [self._place_key(st, player, c) for c in ((o[i],) if not is_list else o[i])]
            out[i] = tuple(vals) if is_list else vals[0]
        return tuple(out)

    @staticmethod
    def _place_key(st: State, player: int, c: int | None) -> Any:
        if c is None or card_visible(st, c, player):
            return c
        z = st.loc[c]
        return ("at", z, st.z[z].index(c))

    def option_label(self, st: State, site: Any, player: int, o: tuple[Any, ...],
                     places: dict[int, str] | None = None, named: set[int] | None = None) -> str | None:
        """``places``: the cards of ``o`` its chooser cannot see, which the label shows by their place
        (a `show` text reading the card's rank would tell it); ``named``: cards of ``o`` offered by
        name (a list binder's), shown as the id shows them."""
        self.hidden_places = _Unseen(st, player, places, named)
        try:
            lab = site.labels(*_site_args(st, site, player), o)
        except Exception:
            return None
        finally:
            self.hidden_places = {}
        return None if lab is None else " | ".join(dict.fromkeys(lab))

    def _pending_option(self, st: State, name: str) -> tuple[Any, int]:
        """The pending decision's site and the index of its option ``name``; (None, -1) if none."""
        if st.pend is None:
            return None, -1
        site = self.sites[st.pend[0]]
        k = next((i for i, o in enumerate(site.options) if o.name == name), None)
        return (None, -1) if k is None else (site, k)

    def refusal_reason(self, st: State, player: int, name: str, lang: int = 0) -> str | None:
        """Why option ``name`` of the pending decision has no legal action now, as its `where … else
        "…"` says (in ``lang``), or None where it says nothing. Written as a prompt is: a card
        ``player`` cannot see by its place, or "a card", never by its face."""
        site, k = self._pending_option(st, name)
        if site is None or site.reasons is None:
            return None
        self.hidden_places = _Unseen(st, player)
        try:
            why = site.reasons(*_site_args(st, site, player), (k,))
        except Exception:
            return None
        finally:
            self.hidden_places = {}
        return None if why is None else str(why[min(lang, len(why) - 1)])

    def option_domain(self, st: State, player: int, name: str) -> list[str] | None:
        """The ids option ``name`` of the pending decision would take with its `where` left out (`bid
        19` is outside `bid n in 1..18` whatever the where says), as ``player`` reads them: None for
        an option without an `else "why"` (whose text is all the where could be asked for)."""
        site, k = self._pending_option(st, name)
        if site is None or site.domain is None:
            return None
        try:
            tuples = site.domain(*_site_args(st, site, player), (k,))
        except Exception:
            return None
        if tuples is None:
            return None
        return [_id_of(self._parts(st, site.options[k], player, o)[0]) for o in tuples]

    def prompt(self, st: State, player: int) -> str | None:
        """The pending decision's prompt as ``player`` reads it: a card they cannot see (a stack item's
        source, a card a rule was given) by its place, never by its face."""
        self.hidden_places = _Unseen(st, player)
        try:
            return self._prompt(st, player)
        finally:
            self.hidden_places = {}

    def _prompt(self, st: State, player: int) -> str | None:
        if st.pend is None:
            return None
        site = self.sites[st.pend[0]]
        if site.kind == "window" and site.prompt is not None:     # a label that shows the item or responder
            fr = st.frames[-1]          # the stack's frame: [0, label, item, window, responders, next, player, -]
            try:
                # the one asked (fr[6]), or in a simultaneous window (hidden) the reader, one of them
                return " | ".join(dict.fromkeys(site.prompt(st, fr[2], player if site.hidden else fr[6])))
            except Exception:
                return None
        if site.kind == "window":
            w = self.prog.windows[site.window]
            from ..check import text_plain
            if w.decl is None or w.decl.label is None:
                return w.name
            halves = [text_plain(w.decl.label, i) for i in range(len(w.decl.label.parts))]
            return " | ".join(dict.fromkeys(halves))
        if site.prompt is None:
            return None
        try:
            fr = st.frames[-1]
            lab = site.prompt(st, fr, player) if site.kind == "simul" else site.prompt(st, fr)
        except Exception:
            return None
        return " | ".join(dict.fromkeys(lab))

    def find_action(self, st: State, player: int, action: Action | str | int | tuple[Any, ...]) -> tuple[Any, ...]:
        """The raw option for ``action`` (an Action, its text id, an index, or a raw tuple), or IllegalAction."""
        to_move = st.to_move()
        if st.over:
            raise self.illegal("the game is over", [])
        if player not in to_move:
            who = ", ".join(f"P{p}" for p in to_move)
            raise self.illegal(f"P{player} is not to move now ({who} {'is' if len(to_move) == 1 else 'are'})", [])
        if st.schosen is None:
            opts = st.opts or []
        else:
            assert st.sopts is not None and st.pend is not None
            opts = st.sopts[st.pend[1].index(player)]
        if isinstance(action, Action):
            if action.raw in opts and action.player == player:
                return action.raw
        elif isinstance(action, tuple):
            if action in opts:
                return action
        elif isinstance(action, int) and not isinstance(action, bool):
            if 0 <= action < len(opts):
                return opts[action]
        elif isinstance(action, str):
            legal = self.legal_actions(st, player)
            if not action.isascii():    # ガ typed as カ + U+3099 (macOS, some input methods): as rulesets are read
                action = unicodedata.normalize("NFC", action)
            want = " ".join(action.split())
            for a in legal:
                if a.id == want:
                    return a.raw
            # an action as the log prints it, its values of several words set apart by ", "
            # ("bolt_player Lightning Bolt, P1"): the words are what is typed
            want = want.replace(", ", " ")
            for a in legal:
                if a.id.replace(", ", " ") == want:
                    return a.raw
            low = [a for a in legal if a.id.lower() == want.lower()]
            if len(low) == 1:
                return low[0].raw
            # the label the menu shows beside the id, in either language ("play Willow-Rainman", the
            # ruleset's `show` of the card named 柳に小野道風), when it fits one action; of identical
            # copies (play Guard) the one the menu shows first
            some = [a for a in legal if want.lower() in {" ".join(h.split()).lower() for h in a.label.split(" | ")}]
            if some and len({a.label for a in some}) == 1:
                return some[0].raw
            norm = self.typed_norm(want)
            for a in legal:
                if a.id == norm:
                    return a.raw
            # the same cards named in another order ("give ♠Q ♣J" for "give ♣J ♠Q"), when that fits one action
            key = _unordered(norm)
            some = [a for a in legal if _unordered(a.id) == key]
            if len(some) == 1:
                return some[0].raw
            # cards typed by labels several cards share ("give_back Captain Contessa", identical
            # copies), in any order and mixed with names: of the actions that fit, the menu's first,
            # when they all read alike
            some = [a for a in legal if self._typed_labels_fit(st, player, a, norm.lower().split())]
            if some and len({a.label for a in some}) == 1:
                return some[0].raw
            # an identical copy named instead of the one the action names ("play captain3" where
            # `distinct` offers "play captain1"), a copy the player sees, when that fits one action
            some = [a for a in legal if self._copy_fits(st, player, a.id.split(), norm.split())]
            if len(some) == 1:
                return some[0].raw
            # run together or split differently ("call ♠A", "call SA" for "call ♠ A"; "call joker" for
            # "call_joker"), when that fits one action
            keys = {_squashed(norm), _squashed(want)}
            some = [a for a in legal if _squashed(a.id) in keys]
            if len(some) == 1:
                return some[0].raw
            # a square typed without its brackets ("flip 3 2", "flip 3,2" for "flip (3,2)")
            keys = {_bare(norm), _bare(want)}
            some = [a for a in legal if _bare(a.id) in keys]
            if len(some) == 1:
                return some[0].raw
            # an option typed without its values ("buy" for "buy copper"): say so
            some = [a for a in legal if a.name.lower() == want.lower() and a.raw[1:]]
            if some:
                shown = ", ".join(a.id for a in some[:5]) + (", …" if len(some) > 5 else "")
                raise self.illegal(f"{want} needs {'a value' if len(some[0].raw) == 2 else 'values'}: {shown}", legal)
        raise self.illegal(f"{action} is not legal now", self.legal_actions(st, player))

    def typed_norm(self, want: str) -> str:
        """An action as typed, its values written as ids: labels and seat names of several words made
        one, card aliases and suits made names (find_action; `fuda play` counts the values typed)."""
        # labels of several words typed for their cards: "play Pine Crane" for "play 松に鶴"
        for rx, i in self.spaced_labels:
            want = rx.sub(self.card_names[i].replace("\\", "\\\\"), want)
        # seat names of several words: "give ♣K North West" for "give ♣K P1" (not the option's name)
        if self.spaced_seats and " " in want:
            head, rest = want.split(" ", 1)
            for rx, seat in self.spaced_seats:
                rest = rx.sub(seat, rest)
            want = f"{head} {rest}"
        # card aliases: "play H7" for "play ♥7"; suits: "bid 20 S" for "bid 20 ♠"; full-width digits:
        # "bid １８" for "bid 18", as the bare menu number １８ is read
        words = want.split()
        return " ".join(words[:1] + [self.typed_suits.get(w.lower()) or self.typed_seats.get(w.lower())
                                     or ascii_digits(self.typed_card(w)) for w in words[1:]])

    def _typed_labels_fit(self, st: State, player: int, a: Action, words: list[str]) -> bool:
        """Whether ``words`` (typed, lower case, labels of one card alone already made names) name
        action ``a``: its option, then each value by its id words, and each card ``player`` can see
        also by its label in either language. A card it cannot see stands only as its place, so that
        typing a label never tells where a hidden card is."""
        if a.raw[0] < 0 or not words or words[0] != a.name.lower():
            return False
        info = self.sites[st.pend[0]].options[a.raw[0]] if st.pend is not None else None
        if info is None or not info.card_args:
            return False
        bag = words[1:]
        cards = dict(info.card_args)
        places = self._unseen_places(st, player, a.raw, info.place_args)
        for j, (v, tc) in enumerate(zip(a.raw[1:], info.binder_types, strict=True), start=1):
            if j not in cards or v is None:
                if not _take(bag, R._fmt(st, v, tc).lower().split()):
                    return False
                continue
            for c in (v,) if not cards[j] else v:
                if c is None or c in places:
                    if not _take(bag, [places[c].lower() if c is not None else "none"]):
                        return False
                elif not (_take(bag, [self.card_names[c].lower()]) or card_visible(st, c, player) and any(
                        _take(bag, self.card_texts[lang][c].lower().split()) for lang in (0, 1))):
                    return False
        return not bag

    @functools.cached_property
    def faces(self) -> tuple[int, ...]:
        from ..builtins import card_faces

        return card_faces(self.prog.cards)

    @functools.cached_property
    def copies(self) -> frozenset[int]:
        """The cards with an identical copy (the same face): only their names tell them apart."""
        seen = collections.Counter(self.faces)
        return frozenset(c for c, f in enumerate(self.faces) if seen[f] > 1)

    def _copy_fits(self, st: State, player: int, ids: list[str], words: list[str]) -> bool:
        """Whether typed ``words`` are the action id ``ids`` but for cards named by an identical
        copy (the same face) that ``player`` sees."""
        if len(ids) != len(words) or ids == words:
            return False
        for x, w in zip(ids, words, strict=True):
            if x == w:
                continue
            a, b = self.card_index.get(x), self.card_index.get(w)
            if a is None or b is None or self.faces[a] != self.faces[b] or not card_visible(st, b, player):
                return False
        return True

    def typed_card(self, word: str) -> str:
        """A typed word with a card's alias or case variant ("H7", "h7") made its name ("♥7")."""
        i = self.typed_cards.get(word, self.typed_cards.get(word.lower()))
        return word if i is None else self.card_names[i]

    def illegal(self, msg: str, legal: list[Action]) -> IllegalAction:
        if legal:
            listing = "\n".join(f"  {i + 1}. {a.id}" for i, a in enumerate(legal))
            msg = f"{msg}; legal actions:\n{listing}"
        return IllegalAction([Diagnostic("E602", msg, Span("<action>", 0, 0, 0, 0))])

    def apply(self, st: State, player: int, action: Action | str | int | tuple[Any, ...]) -> None:
        opt = self.find_action(st, player, action)
        self.apply_raw(st, player, opt)

    def _cards_mask(self, st: State, opt: tuple[Any, ...], card_args: tuple[tuple[int, bool], ...],
                    actor: int) -> int | tuple[int, tuple[int, ...]]:
        """Who could see the cards an option names when it was taken (``actor``: the bits of those who
        see them anyway). Several cards that not everyone saw alike: (all of them, each one's), so
        that a log names the cards a reader saw and masks only the others."""
        zm, loc, vis, static = self.zone_mask, st.loc, st.vis, self.static_slots
        mask = R.ALL
        first = None
        alike = True
        for i, is_list in card_args:
            for c in (opt[i],) if not is_list else opt[i]:
                if c is not None:
                    z = loc[c]
                    m = (zm[z] if z < static else R._zmask(st, z)) | vis[c]
                    if first is None:
                        first = m
                    elif m != first:
                        alike = False
                    mask &= m
        if alike:           # the usual case: one mask for them all
            return mask | actor
        each = tuple((zm[loc[c]] if loc[c] < static else R._zmask(st, loc[c])) | vis[c] | actor
                     for i, is_list in card_args for c in ((opt[i],) if not is_list else opt[i]) if c is not None)
        return mask | actor, each

    def act_event(self, st: State, player: int, site: int, opt: tuple[Any, ...], mask: Any) -> tuple[Any, ...]:
        """The act event of a choice that may name zones of sequences: it keeps where they stand now
        (None: not in a row), aligned with ``opt``'s values, after a 7th element (announced: False),
        so that the log names the zone chosen, whatever closes up later."""
        zone_args = self.zone_args[site][opt[0]]
        if not zone_args:
            return (R.EV_ACT, -1, player, site, opt, mask)
        places: list[Any] = [None] * (len(opt) - 1)
        for i in zone_args:
            v = opt[i]
            places[i - 1] = tuple(R._seq_pos(st, z) for z in v) if isinstance(v, tuple) else \
                R._seq_pos(st, v) if v is not None else None
        return (R.EV_ACT, -1, player, site, opt, mask, False, tuple(places))

    def apply_raw(self, st: State, player: int, opt: tuple[Any, ...]) -> None:
        """Apply a legal raw option (no checks: the fast path for bots and playouts).
        The event's span is found from (site, option) when the log is read; the event carries who
        could see the cards it names when it was taken (observe.py adds who saw them right after)."""
        pend = st.pend
        assert pend is not None
        card_args = self.card_args[pend[0]][opt[0]] if opt[0] >= 0 else ()
        mask: int | tuple[int, tuple[int, ...]]
        if not card_args:
            mask = R.ALL
        elif card_args == R._ONE_CARD and st.loc[opt[1]] < self.static_slots:   # the usual case, inline
            mask = self.zone_mask[st.loc[opt[1]]] | st.vis[opt[1]] | self.actor_reads[pend[0]][opt[0]] << player
        else:
            mask = self._cards_mask(st, opt, card_args, self.actor_reads[pend[0]][opt[0]] << player)
        if self.seq_acts:
            st.ev.append(self.act_event(st, player, pend[0], opt, mask))
        else:
            st.ev.append((R.EV_ACT, -1, player, pend[0], opt, mask))
        st.ndec += 1
        if st.schosen is not None:
            players = pend[1]
            st.schosen[players.index(player)] = opt
            if any(c is None for c in st.schosen):
                return
            st.choice = tuple(st.schosen)
            st.schosen = None
            st.sopts = None
        else:
            st.choice = opt
            st.opts = None
        st.pend = None
        if st.ndec >= self.limit:
            try:
                R._capped(st)
            except R.GameOver:
                st.pend = None
            return
        fr = st.frames[-1]             # resume (inline: this is the hot path)
        try:
            r = self.procs[fr[0]](st, fr)
        except Exception as e:
            self.run(st, pending=e)
            return
        if r != 1:
            if r == 0:
                st.frames.pop()
            self.run(st)

    def playout(self, st: State, rnd: Any, max_decisions: int | None = None, weighted: bool = False,
                quiet: bool = False) -> int:
        """Play uniformly random legal actions until the game ends (or ``max_decisions``);
        returns the number of decisions taken. What bots' rollouts, all-random simulations and
        `fuda bench` spend their time in: while it runs the rules take each decision themselves
        where they pose it (the same act events and decision limit as ``apply_raw``), so a game
        runs without returning here; only simultaneous decisions come back. ``weighted`` (bots'
        rollouts): options are picked in proportion to their `rollout weight`s where the rules
        give some; random seats and all-random simulations stay uniform.

        ``quiet``: for a caller that reads only the outcome (a rollout, an all-random game of a
        simulation), the game is played by the rules compiled without their events (quiet_source):
        the same decisions, moves and end, ~8 % faster, and the state's log is left as it was
        when the playout began.

        After ``use_native`` the game is played by the rules compiled to C. Should it fail there,
        it is played again from the same state and draws in Python, to be reported at the rule's
        line as it would have been (native code has no Python frames to find it by)."""
        if self.native is None:
            return self._playout(st, rnd, max_decisions, weighted, quiet, False)
        gen: Any = getattr(rnd, "__self__", None)
        if not (hasattr(gen, "getstate") and hasattr(gen, "setstate")):   # its draws could not be replayed
            return self._playout(st, rnd, max_decisions, weighted, quiet, False)
        before, drawn = st.clone(), gen.getstate()
        try:
            return self._playout(st, rnd, max_decisions, weighted, quiet, True)
        except Exception:
            st.restore(before)
            gen.setstate(drawn)
            return self._playout(st, rnd, max_decisions, weighted, quiet, False)

    def _playout(self, st: State, rnd: Any, max_decisions: int | None, weighted: bool, quiet: bool,
                 native: bool) -> int:
        procs = self.procs
        ns = self.comp.namespace
        ev = st.ev
        if native:
            assert self.native is not None
            ns, self.procs = self.native[quiet]
        elif quiet:
            ns, self.procs = self.quiet_rules()
        if quiet:
            st.ev = []          # what the runtime's helpers and apply_raw still log is dropped with it
        try:
            if weighted and self.weighted:
                return self._playout_steps(st, rnd, R.NEVER if max_decisions is None else max_decisions, True)
            start = st.ndec
            stop = R.NEVER if max_decisions is None else start + max_decisions
            ns["AUTO"] = rnd
            ns["STOP"] = stop       # cut short (a rollout's evaluation): the rules wait at that decision
            try:
                while not st.over and st.ndec < stop:
                    for p in st.to_move():
                        opts = st.opts if st.schosen is None else st.sopts[st.pend[1].index(p)]  # type: ignore[index,union-attr]
                        self.apply_raw(st, p, opts[int(rnd() * len(opts))])  # type: ignore[index,arg-type]
                        if st.over or st.ndec >= stop:
                            break
            finally:
                ns["AUTO"] = None
                ns["STOP"] = R.NEVER
            return st.ndec - start
        finally:
            self.procs = procs
            st.ev = ev

    def quiet_rules(self) -> tuple[dict[str, Any], list[Any]]:
        """The rules compiled without events, made on first use (~0.15 s for a large ruleset: a bot
        with a time budget asks for them before its clock starts): their namespace and procedures."""
        if self._quiet_rules is None:
            from ..compile import quiet_source

            ns = dict(self.comp.namespace)
            exec(compile(quiet_source(self.comp.source), f"<fuda:{self.prog.name}>", "exec"), ns)   # same lines: same spans
            self._quiet_rules = (ns, [ns[f"P{fid}"] for fid in range(len(self.procs))])
        return self._quiet_rules

    def use_native(self, on: bool = True, note: Callable[[str], None] | None = None) -> None:
        """From now on playouts run the rules compiled to C (compile/native.py: built once per
        ruleset and options, then loaded from the cache; ``note`` is told before a build): the
        same games, about 1.5× faster. ``on=False`` goes back to Python. Raises NativeError when
        they cannot be built (no Cython or C compiler)."""
        if on and self._native_rules is None:
            from ..compile import native, quiet_source

            # the engine's helpers compiled too (once for every ruleset), in place of the Python ones
            helpers = native.load([(native.helpers_source(R), vars(R))], "the engine's helpers", note,
                                  once="once for this version of fuda")[0]

            def compiled(ns: dict[str, Any]) -> dict[str, Any]:
                return {k: helpers[k] if k in helpers and v is getattr(R, k, None) and callable(v) else v
                        for k, v in ns.items()}

            loud, quiet = native.load([(self.comp.source, compiled(self.comp.namespace)),
                                       (quiet_source(self.comp.source), compiled(self.quiet_rules()[0]))],
                                      self.prog.name, note)
            count = len(self.procs)
            self._native_rules = ((loud, [loud[f"P{fid}"] for fid in range(count)]),
                                  (quiet, [quiet[f"P{fid}"] for fid in range(count)]))
        self.native = self._native_rules if on else None

    def _playout_steps(self, st: State, rnd: Any, max_decisions: int, weighted: bool = False) -> int:
        """Random play one decision at a time, stopping after ``max_decisions`` (rollouts cut short
        for a ruleset's evaluation), with the options' rollout weights if ``weighted``."""
        n = 0
        sites = self.sites
        while not st.over and n < max_decisions:
            for p in st.to_move():
                os_ = st.opts if st.schosen is None else st.sopts[st.pend[1].index(p)]  # type: ignore[index,union-attr]
                if weighted and sites[st.pend[0]].weights is not None:      # type: ignore[index]
                    o = self._weighted_pick(st, p, os_, rnd)                 # type: ignore[arg-type]
                else:
                    o = os_[int(rnd() * len(os_))]                          # type: ignore[index,arg-type]
                self.apply_raw(st, p, o)
                n += 1
                if st.over:
                    break
        return n

    def rollout_weights(self, st: State, player: int, opts: list[tuple[Any, ...]]) -> list[float] | None:
        """The pending options' `rollout weight`s (1 where an option declares none, a window's pass
        1, a negative weight 0), or None when this decision declares none."""
        site = self.sites[st.pend[0]]               # type: ignore[index]
        if site.weights is None:
            return None
        args = _site_args(st, site, player)
        shared = site.weights_shared
        try:
            if shared:          # an option whose weight reads none of its binders: once for all its actions
                once: dict[int, float] = {}
                ws = [once[o[0]] if o[0] in once else once.setdefault(o[0], site.weights(*args, o)) if o[0] in shared
                      else site.weights(*args, o) for o in opts]
            else:
                ws = [site.weights(*args, o) for o in opts]
        except (R.RuleFailure, RecursionError, *_PY_FAILURES) as e:
            raise self.rule_error(st, e) from None
        return [w if w > 0 else 0 for w in ws]

    def _weighted_pick(self, st: State, player: int, opts: list[tuple[Any, ...]], rnd: Any) -> tuple[Any, ...]:
        """An option drawn in proportion to its rollout weight; all weights 0: uniform."""
        ws = self.rollout_weights(st, player, opts)
        assert ws is not None
        total = sum(ws)
        if total <= 0:
            return opts[int(rnd() * len(opts))]
        r = rnd() * total
        for o, w in zip(opts, ws, strict=True):
            r -= w
            if r < 0:
                return o
        return next(o for o, w in zip(opts, ws, strict=True) if w > 0)

    # -------------------------------------------------------------- results
    def result(self, st: State) -> list[dict[str, Any]]:
        bs = self.prog.builtin_slots
        g = st.g
        return [{"player": p, "outcome": R.OUTCOME_NAMES[g[bs["outcome"] + p]], "place": g[bs["place"] + p],
                 "score": _tidy(g[bs["score"] + p])} for p in range(self.n)]

    def winners(self, st: State) -> list[int]:
        return [r["player"] for r in self.result(st) if r["outcome"] == "win"]


# the Python errors a rule's mistake can raise (reading through none, dividing by zero, …)
_PY_FAILURES = (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError, OverflowError)


def _bare(text: str) -> str:
    """An action id with brackets and commas read as spaces: "flip (3,2)" is "flip 3 2"."""
    return " ".join(re.sub(r"[(),]", " ", text).split()).lower()


def _squashed(text: str) -> str:
    """An action id with no spaces or underscores, in lower case: how it reads run together."""
    return re.sub(r"[\s_]+", "", text).lower()


def _site_args(st: State, site: Any, player: int) -> tuple[Any, ...]:
    """What a pending decision's label and weight functions take before the option: the state,
    then the frame (a window's: its stack item) and, but in a plain `choose`, the player."""
    fr = st.frames[-1]
    if site.kind == "window":
        return (st, fr[2], player)
    if site.kind == "simul":
        return (st, fr, player)
    return (st, fr)


def _tidy(x: Any) -> Any:
    """A score as people expect to read it: 3 * 1.2 is 3.6, not 3.5999999999999996 (floats
    rounded to 10 decimals, which no game's arithmetic needs)."""
    return round(x, 10) if isinstance(x, float) else x


def _fmt_seen(st: State, v: Any, code: str, places: dict[int, str]) -> str:
    """An option's value as its chooser sees it: the cards in ``places`` by their place."""
    if code == "card" and v in places:
        return places[v]
    if code == "list:card" and v is not None:
        return " ".join(places.get(c) or R._fmt(st, c, "card") for c in v)
    return R._fmt(st, v, code)


def _id_of(parts: list[str]) -> str:
    """An action's id from its words: an empty list of cards writes nothing (`lay_set 1`, not
    `lay_set 1 ` with a trailing space)."""
    return " ".join(w for w in parts if w)


def _ids_apart(actions: list[Action]) -> list[Action]:
    """Actions whose ids read alike (a run laid out whole or as 4 + 3: the same cards in a row) get
    `#2`, `#3` … after the first, in the rules' order: a log keeps ids, so each must name one action
    or a replay would take another."""
    seen: dict[str, int] = {}
    for a in actions:
        seen[a.id] = seen.get(a.id, 0) + 1
    if len(seen) == len(actions):
        return actions
    count: dict[str, int] = {}
    out = []
    for a in actions:
        k = count[a.id] = count.get(a.id, 0) + 1
        out.append(a if k == 1 else replace(a, id=f"{a.id} #{k}"))
    return out


class _Unseen:
    """The cards a label or prompt shows ``player`` that they cannot see, worked out as they are
    shown: the option's own cards (``places``) by their place (``hand[P1][2]``, 0 = bottom), since
    choosing a face-down card is choosing a place; any other (a stack item's source, a card a rule
    was given, `card("♠A")`) as "" — "a card" — since its place would tell where that card lies."""

    __slots__ = ("st", "player", "places", "named")

    def __init__(self, st: State, player: int, places: dict[int, str] | None = None,
                 named: set[int] | None = None) -> None:
        self.st, self.player, self.places, self.named = st, player, places or {}, named or set()

    def get(self, c: int) -> str | None:
        if c in self.places:
            return self.places[c]
        return None if c in self.named or card_visible(self.st, c, self.player) else ""

    def __contains__(self, c: int) -> bool:
        return self.get(c) is not None

    def __getitem__(self, c: int) -> str:
        place = self.get(c)
        assert place is not None
        return place


def _take(bag: list[str], words: list[str]) -> bool:
    """Remove ``words`` from ``bag`` (each once, any order) if all are there; say whether they were."""
    rest = list(bag)
    for w in words:
        if w not in rest:
            return False
        rest.remove(w)
    bag[:] = rest
    return True


def _instruction_cols(code: Any, lasti: int, text: str) -> tuple[int, int] | None:
    """The columns (characters, from 0) of the instruction at ``lasti`` in its line ``text``."""
    import itertools

    pos = next(itertools.islice(code.co_positions(), lasti // 2, None), None)
    if pos is None or pos[2] is None or pos[3] is None or pos[0] != pos[1]:
        return None
    raw = text.encode()         # the positions count UTF-8 bytes
    return len(raw[:pos[2]].decode(errors="ignore")), len(raw[:pos[3]].decode(errors="ignore"))


# Python built-ins the generated code calls that read and never change anything: a failing subscript
# made of these and reads is worked out again to say its position (_index_said)
_PURE_CALLS = frozenset({"tuple", "list", "len", "abs", "min", "max", "sum", "int"})


def _covering(sites: list[FnSite], text: str, cols: tuple[int, int] | None) -> list[list[FnSite]]:
    """The noted fn codes that stand in ``text`` around columns ``cols``, outermost first: at each
    place, every site whose code it is (the same code may come from several)."""
    if cols is None:
        return []
    lo, hi = cols
    found: dict[tuple[int, int], list[FnSite]] = {}
    for site in sites:
        code = site[0]
        i = text.find(code)
        while 0 <= i <= lo:
            if hi <= i + len(code):
                found.setdefault((i, i + len(code)), []).append(site)
                break
            i = text.find(code, i + 1)
    return [found[k] for k in sorted(found, key=lambda k: (k[1] - k[0], -k[0]), reverse=True)]


def _in_argument(text: str, call: str, given: list[str], cols: tuple[int, int] | None) -> bool:
    """Whether columns ``cols`` of ``text`` lie in the code of an argument ``given`` to the fn call whose
    code is ``call`` (the argument's code stands in the call's, inlined or not)."""
    if cols is None:
        return False
    lo, hi = cols
    i = text.find(call)
    while 0 <= i <= lo:
        if hi <= i + len(call):
            for g in given:
                k = text.find(g, i, i + len(call))
                while 0 <= k <= lo:
                    if hi <= k + len(g):
                        return True
                    k = text.find(g, k + 1, i + len(call))
        i = text.find(call, i + 1)
    return False


def _unordered(action_id: str) -> tuple[str, list[str]]:
    """An action id with its arguments in no particular order, case ignored."""
    words = action_id.lower().split() or [""]
    return words[0], sorted(words[1:])


def _explain(e: BaseException) -> str:
    msg = str(e)
    if isinstance(e, TypeError) and "NoneType" in msg:
        return "a value the rule needed was none (an empty zone's top card, a missing player or square?)"
    if isinstance(e, IndexError):
        return "a position past the end of a list or a zone"
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, OverflowError):    # runtime._num, or an int too large to become a number
        return "a number out of range: the result would be infinite or undefined (numbers reach about 1.8e308)"
    if isinstance(e, ValueError) and "empty" in msg and msg.startswith(("max(", "min(")):
        return f"{msg[:3]} of an empty list of numbers (for a value then, add one: {msg[:3]}([0] + L))"
    if isinstance(e, KeyError):
        return "a stack item that is no longer on the stack"
    return f"the rule failed: {type(e).__name__}: {msg}"


# ------------------------------------------------------------------ JSON
def state_from_json(data: dict[str, Any], game: Game | None = None) -> State:
    from ..errors import error

    if not isinstance(data, dict) or data.get("format") != "fuda-state/1":
        raise error("E503", "not a fuda saved state (format fuda-state/1 expected)")
    if game is None:
        from ..api import load

        ident = data.get("game") or {}
        game = load(ident.get("ruleset", ""), ident.get("options") or {})
    try:
        st = State.__new__(State)
        st.game = game
        st.seed = int(data.get("seed", 0))
        st.z = [list(map(int, c)) for c in data["z"]]
        st.loc = list(map(int, data["loc"]))
        st.vis = list(map(int, data["vis"]))
        st.g = [tuplify(v) for v in data["g"]]
        st.sq = [list(map(int, q)) for q in data["sq"]]
        st.dyn = [(int(a), b) for a, b in data["dyn"]]
        st.frames = [[tuplify(x) for x in f] for f in data["frames"]]
        st.stack = list(map(int, data["stack"]))
        st.items = {int(k): [tuplify(x) for x in v] for k, v in data["items"].items()}
        st.nitem = int(data["nitem"])
        st.pend = tuplify(data["pend"]) if data["pend"] is not None else None
        st.opts = [tuplify(o) for o in data["opts"]] if data["opts"] is not None else None
        st.sopts = [[tuplify(o) for o in os] for os in data["sopts"]] if data["sopts"] is not None else None
        st.schosen = [tuplify(c) if c is not None else None for c in data["schosen"]] \
            if data["schosen"] is not None else None
        st.rng = int(data["rng"])
        st.ev = [tuplify(e) for e in data["ev"]]
        st.tally = {str(k): int(v) for k, v in data["tally"].items()}
        st.tcard = {str(k): (str(v[0]), int(v[1])) for k, v in data.get("tcard", {}).items()}
        st.over = bool(data["over"])
        st.capped = bool(data["capped"])
        st.ndec = int(data["ndec"])
        st.phase = int(data["phase"])
        st.revealed = list(map(int, data["revealed"]))
        st.ret = None
        st.choice = None
        st.in_check = False
        st.ck_ok = False
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as e:
        raise error("E503", f"saved state is damaged: {type(e).__name__}: {e}") from None
    if len(st.loc) != game.ncards or len(st.g) != game.prog.g_size:
        raise error("E503", "saved state does not match its ruleset (was the ruleset changed?)")
    if data.get("compiled", game.fingerprint) != game.fingerprint:
        raise error("E503", "saved state comes from other compiled rules (the ruleset, its options or fuda "
                            "changed since): its game log (fuda replay) still replays it")
    damage = _damage(st, game)
    if damage is None:
        try:        # what the shape leaves out (events, options, frames' values): every view and menu
            for p in (None, *range(game.n)):
                st.view(p)
            for p in st.to_move():
                st.legal_actions(p)
            if st.pend is not None:     # the options saved are the ones the rules give (apply trusts them)
                site = game.sites[st.pend[0]]
                if st.schosen is None and st.opts != game.site_options(st, site, st.pend[1][0]):
                    damage = "opts: not the options of the pending decision"
                elif st.schosen is not None and st.sopts is not None and any(
                        c is None and os != game.site_options(st, site, p)
                        for p, c, os in zip(st.pend[1], st.schosen, st.sopts, strict=True)):
                    damage = "sopts: not the options of the pending decision"
        except Exception as e:      # noqa: BLE001 (a Python error here is the file's, reported as such)
            damage = f"{type(e).__name__}: {e}"
    if damage is not None:
        raise error("E503", f"saved state is damaged: {damage}")
    return st


def _damage(st: State, game: Game) -> str | None:
    """What in a loaded state cannot be a state of ``game``, or None: the places of the cards, the
    variables, sequences, frames, the stack and the pending decision, checked against the ruleset
    (a damaged file gave IndexError or KeyError at the first view or move, far from its cause)."""
    def ints(xs: Any, lo: int, hi: int) -> bool:
        return all(type(x) is int and lo <= x < hi for x in xs)

    nz, n = len(st.z), game.n
    if len(st.vis) != game.ncards or not ints(st.vis, 0, R.ALL + 1):
        return "vis: one visibility mask per card expected"
    if nz != game.static_slots + len(st.dyn):
        return "z: one list of cards per zone expected"
    if not ints(st.loc, 0, nz) or any(not ints(z, 0, game.ncards) for z in st.z):
        return "a card or a zone out of range"
    if sorted(c for z in st.z for c in z) != list(range(game.ncards)) \
            or any(st.loc[c] != i for i, z in enumerate(st.z) for c in z):
        return "every card must lie in one zone, the zone its place (loc) names"
    if len(st.sq) != game.prog.seq_count or any(not ints(q, 0, nz) for q in st.sq):
        return "sq: the zones of each sequence expected"
    if any(not 0 <= seq < len(st.sq) or not (owner is None or type(owner) is int and 0 <= owner < n)
           for seq, owner in st.dyn):
        return "dyn: a sequence and an owner per zone made in play expected"
    labels, types = game.comp.frame_labels, game.comp.frame_types
    simple = {"int": (None, None), "card": (0, game.ncards), "card!": (0, game.ncards), "player": (0, n),
              "zone": (0, nz), "item": (None, None)}
    for fr in st.frames:
        if not fr or type(fr[0]) is not int or not 0 <= fr[0] < len(game.procs) or len(fr) < 2 \
                or len(fr) != game.frame_sizes[fr[0]] or type(fr[1]) is not int \
                or not 0 <= fr[1] < labels.get(fr[0], fr[1] + 1):
            return "frames: a procedure, its place and its locals expected"
        for code, v in zip(types.get(fr[0], ()), fr, strict=False):     # a card, a player…: in range
            lo, hi = simple.get(code, (0, 0))
            if v is not None and (lo, hi) != (0, 0) and (type(v) is not int or lo is not None
                                                          and hi is not None and not lo <= v < hi):
                return "frames: a local value out of range"
            if v is not None and code.startswith("list:") and not isinstance(v, tuple):
                return "frames: a list expected"
    if any(not isinstance(v, list) or not v or type(v[0]) is not int or not 0 <= v[0] < len(game.effects)
           for v in st.items.values()) or any(i not in st.items for i in st.stack):
        return "stack: items of the ruleset's effects expected"
    if not ints(st.revealed, 0, len(st.g)) or not 0 <= st.rng <= R.M64:
        return "revealed or rng out of range"
    if st.pend is not None:
        pend = st.pend
        if not isinstance(pend, tuple) or len(pend) != 2 or type(pend[0]) is not int \
                or not 0 <= pend[0] < len(game.sites) or not isinstance(pend[1], tuple) or not pend[1] \
                or not ints(pend[1], 0, n) or not st.frames:
            return "pend: a decision and the players it waits for expected"
        many = len(pend[1])
        if st.schosen is None:
            if st.opts is None or many != 1:
                return "pend: the options of one player expected"
            sets = [st.opts]
        else:
            if st.sopts is None or len(st.sopts) != many or len(st.schosen) != many:
                return "pend: the options of each player deciding at once expected"
            sets = st.sopts
        options = game.sites[pend[0]].options
        if any(not isinstance(o, tuple) or not o or type(o[0]) is not int or not -1 <= o[0] < len(options)
               for os in sets for o in os):
            return "opts: options of the pending decision expected"
    if any(not isinstance(e, tuple) or len(e) < 2 or type(e[0]) is not int for e in st.ev):
        return "ev: events expected"
    return None
