"""``fuda play``: humans at a plain terminal prompt and bots in any seats.

A human sees only their own view. Input is a choice number or an action id (``play ♥7``; ASCII
card names like ``H7`` work too); anything else is refused with the legal choices listed.
Commands: ``help``, ``list``, ``log``, ``undo``, ``save FILE``, ``quit``. Every game can be
written as a log (``--log``) that ``fuda replay`` re-runs exactly.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..bots.base import Bot, make_bot
from ..engine.game import Action, Game
from ..engine.observe import card_visible
from ..engine.state import State
from ..errors import FudaError, os_reason
from ..words import say, typed_number
from .history import rebuilt, undo_point
from .render import half, menu_entry, menu_labels, render, render_choices
from .replay import option_labels


class Quit(Exception):
    pass


class Undo(Exception):
    """A human takes back their last real decision (and every move made since)."""


SLOW_MOVE = 5.0     # seconds: a bot slower than this on a move gets the advice to cut its rollouts short
SHORT_LIST = 12      # a refusal repeats the choices when there are at most this many


class Human:
    name = "human"

    def __init__(self, lang: int, inp: Callable[[str], str], out: TextIO, save: Callable[[str], object],
                 table: dict[str, Any] | None = None) -> None:
        self.lang = lang
        self.input = inp
        self.out = out
        self.save = save
        self.table = table if table is not None else {}     # shared by the humans of one game

    def choose(self, st: State, player: int, legal: list[Action]) -> Action:
        if len(legal) == 1 and not self.table.get("hot") and not self.table.get("ask_all"):   # taken, and told
            print(say("only_choice", self.lang, p=st.game.seat(player, self.lang), a=half(legal[0].label, self.lang) or legal[0].id),
                  file=self.out)
            return legal[0]
        # at a hot seat even a forced move is asked: taking it for them would tell whoever is at the
        # screen that the player had one choice (Love Letter: the Countess a King or Prince forces)
        last = self.table.get("shown")
        if last != player and (last is not None or self.table.get("hot")):   # hot seat: the screen changes hands
            # (also the first screen, and the first after a resume: whoever sits there may be another)
            print("\n" + say("hot_seat", self.lang, p=st.game.seat(player, self.lang)), file=self.out)
            try:
                self.input("")
            except EOFError:
                raise Quit() from None
            if self.out.isatty():
                print("\033[2J\033[H", end="", file=self.out)     # clear P{last}'s cards off the screen
        self.table["shown"] = player
        v = st.view(player, self.lang, said=self.table.get("said"))
        legal = hand_order(legal, v, st.game.card_index)
        print("", file=self.out)
        print(render(v, self.lang, title=st.game.title_in(self.lang), order=st.game.card_index,
                     people=self.table.get("people")), file=self.out)
        print(render_choices(v["decision"], self.lang, card_labels=v.get("labels")), file=self.out)
        while True:
            try:
                raw = self.input(f"{st.game.seat(player, self.lang)}> ").strip()
            except EOFError:
                raise Quit() from None
            if not raw:
                continue
            word, _, rest = raw.partition(" ")
            command = word.lower()          # commands in any case; actions are matched by the game
            if command in ("quit", "exit", "q") and not rest:
                raise Quit()
            if command in ("help", "?") and not rest:
                print(say("help", self.lang, ex=legal[0].id), file=self.out)
                continue
            if command == "undo" and not rest:
                raise Undo()
            if command == "list" and not rest:
                print(render_choices(v["decision"], self.lang, card_labels=v.get("labels")), file=self.out)
                continue
            if command == "log" and not rest:     # as `fuda replay --player` shows it: a deal on a line a path
                from .replay import format_events

                for line in format_events(st, player, self.lang, spans=False,
                                          said=self.table.get("said")).splitlines()[:-1][-40:]:
                    print(line, file=self.out)
                continue
            if command == "save":
                if rest.strip():
                    self.save(rest.strip())
                else:
                    print(say("save_needs", self.lang), file=self.out)
                continue
            if typed_number(raw.removeprefix("#")) is not None:
                picked = _by_number(raw, legal, self.lang)
                if isinstance(picked, Action):
                    return picked
                print(picked if picked else say("bad_number", self.lang, n=len(legal)), file=self.out)
                continue
            try:
                opt = st.game.find_action(st, player, raw)
                return menu_first(legal, next(a for a in legal if a.raw == opt), raw)
            except FudaError:
                why = _why_not(st, raw, legal, self.lang, v["decision"]["legal"])
                if len(legal) <= SHORT_LIST:
                    print(say("not_legal", self.lang, a=repr(raw)), file=self.out)
                else:               # a long list would push the hand off the screen
                    print(say("not_legal_long", self.lang, a=repr(raw), n=len(legal)), file=self.out)
                if why:             # right below the refusal, above the menu (a newcomer read past it there)
                    print(why, file=self.out)
                if len(legal) <= SHORT_LIST:
                    print(render_choices(v["decision"], self.lang, card_labels=v.get("labels")), file=self.out)


def _by_number(raw: str, legal: list[Action], lang: int = 0) -> Action | str | None:
    """A number typed: the menu's line (`#18` always), or the one action whose only value it is
    (`say 18` when the menu is shorter). When it is both, and they differ, the question to ask
    (a bid of 18 must not become line 18, `say 55`); None when it is neither."""
    n = typed_number(raw.removeprefix("#"))
    assert n is not None
    line = legal[n - 1] if 1 <= n <= len(legal) else None
    if raw.startswith("#"):
        return line
    valued = [a for a in legal if len(a.args) == 1 and a.id.split()[-1:] == [str(n)]]
    if len(valued) != 1 or line is valued[0]:
        return line
    if line is None:
        return valued[0]
    return say("number_both", lang, n=n, line=line.id, a=valued[0].id)


def _why_not(st: State, raw: str, legal: list[Action], lang: int, shown: list[dict[str, Any]]) -> str | None:
    """What a refused input named, when it starts with an option's name (`order up` for order_up
    too): an option of this decision with nothing legal now (`knock` with too much deadwood), an
    action of it that its `where` rules out (`play ♠K` when ♥ must be followed: its else text), a
    value it does not take now (`take 7` for 1..3), or, starting with no option's name nor a legal
    action's label, no option of this decision at all: its choices then as the menu shows them
    (``shown``: the view's entries of ``legal``, in its order)."""
    if st.pend is None or not raw.strip():
        return None
    low = " ".join(raw.lower().replace(":", " ").replace(",", " ").split())     # "chopsticks: a, b" as typed
    site = st.game.sites[st.pend[0]]
    declared = list(dict.fromkeys([o.name for o in site.options] + (["pass"] if site.kind == "window" else [])))
    named = next((n for n in declared for form in (n.lower(), n.lower().replace("_", " "))
                  if low == form or low.startswith(form + " ")), None)
    if named is not None:       # values that are off, or an option with nothing legal now
        mine = [a for a in legal if a.name == named]
        if mine and low in (named.lower(), named.lower().replace("_", " ")) and mine[0].args:
            some = ", ".join(a.id for a in mine[:5]) + (", …" if len(mine) > 5 else "")
            return say("needs_values", lang, a=named, ex=some)     # `buy` for `buy copper`
        if mine and (odd := _unseen_card_word(st, raw, named, mine)) is not None:
            labelled = _cards_labelled(st, odd)         # `sell 7` for House 7, named h7
            if labelled:
                values = [w for a in mine for w in a.id.split()[1:]]
                return say("card_labelled", lang, o=named, w=odd, cards=_cards_are(st, labelled, lang),
                           vs=_values_shown(st, list(dict.fromkeys(values)), lang))
            return say("no_such_card", lang, o=named, w=odd)     # a typo is not a rule's refusal
        if mine and (count := _values_off(st, raw, named, mine, lang)) is not None:
            return count        # `play G2 S1` for one card: neither is the else text's to refuse
        why = st.game.refusal_reason(st, legal[0].player, named, lang) if legal else None
        # where the values typed must be for the rules to be what refused them: the legal actions' values;
        # with an else text, the values the option takes at all (`bid 19` for 1..18 is not the where's)
        offered = [a.id for a in mine] if why is None else st.game.option_domain(st, legal[0].player, named)
        if mine and offered and (away := _card_elsewhere(st, raw, named, mine, offered, lang)) is not None:
            return away     # `play 92` where 92 lies on a row: not one of the cards the option takes from
        if mine and offered and (off := _value_not_offered(st, raw, named, offered, lang)) is not None:
            return off
        if mine:        # others of it are legal: this one the `where` rules out, as its else text may say
            return say("this_not_legal_why", lang, a=raw.strip(), o=named, why=why) if why else None
        return say("none_legal_why", lang, a=named, why=why) if why else say("none_legal", lang, a=named)
    if any((a.label or "").lower().startswith(low) for a in legal):
        return None
    word = low.split()[0]
    labels = menu_labels(shown, lang)
    first: dict[str, int] = {}          # each option's first line, and how many lines it has
    lines: dict[str, int] = {}
    for i, a in enumerate(legal):
        first.setdefault(a.name, i)
        lines[a.name] = lines.get(a.name, 0) + 1
    names = [menu_entry(shown[i], labels, lang) + (" …" if lines[n] > 1 else "") for n, i in first.items()]
    return say("no_such_option", lang, a=word, names=", ".join(names))


def _values_typed(raw: str, named: str) -> list[str]:
    """The words typed after option ``named`` (`order up ♠J` or `order_up ♠J`: ["♠J"]), as typed."""
    low = " ".join(raw.lower().replace(":", " ").replace(",", " ").split())
    words = raw.replace(":", " ").replace(",", " ").split()
    return words[len(named.split("_")) if low.startswith(named.lower().replace("_", " ") + " ") else 1:]


def _values_off(st: State, raw: str, named: str, mine: list[Action], lang: int) -> str | None:
    """When more (or fewer) values are typed after option ``named`` than its legal actions take,
    each value one word (`play G2 S1` where `play` binds one card): how many it takes, with an
    example — the first values typed, when they make a legal action."""
    if any(", " in a.id for a in mine) or len(counts := {len(a.id.split()) - 1 for a in mine}) != 1:
        return None     # values of several words, or lists of cards of several lengths: not told apart
    k = counts.pop()
    words = _values_typed(raw, named)
    typed = st.game.typed_norm(" ".join([named, *words])).split()[1:]
    if len(typed) in (0, k):
        return None
    example = mine[0]
    if len(typed) > k:
        try:
            found = st.game.find_action(st, mine[0].player, " ".join([named, *words[:k]]))
            example = next((a for a in mine if a.raw == found), example)
        except FudaError:
            pass
    site = st.game.sites[st.pend[0]] if st.pend is not None else None
    info = site.options[mine[0].raw[0]] if site is not None and mine[0].raw[0] >= 0 else None
    cards = info is not None and all(t in ("card", "list:card") for t in info.binder_types)
    key = "takes_nothing" if k == 0 else ("takes_one_" if k == 1 else "takes_") + ("card" if cards else "value") \
        + ("" if k == 1 else "s")
    return say(key, lang, o=named, n=k, ex=example.id)


def _value_not_offered(st: State, raw: str, named: str, offered: list[str], lang: int) -> str | None:
    """Of the values typed after option ``named``, each one word, the first that no action of it in
    ``offered`` (ids) takes in its place (`take 7` where take is offered with 1, 2 and 3): the values
    it takes there now, a run of whole numbers as LO..HI, cards by their labels — with the card meant
    when the word is a word of a label (`sell 2` for House 2, named h2)."""
    ids = [a.split()[1:] for a in offered]
    if any(", " in a for a in offered) or len({len(x) for x in ids}) != 1:
        return None     # values of several words, or lists of cards of several lengths: not told apart
    words = _values_typed(raw, named)
    typed = st.game.typed_norm(" ".join([named, *words])).split()[1:]
    if len(typed) != len(ids[0]):
        return None
    for i, w in enumerate(typed):
        values = list(dict.fromkeys(x[i] for x in ids))
        if w.casefold() in {v.casefold() for v in values}:
            continue
        if len(words) == len(typed):
            w = words[i]        # as typed (`North`, `h7`), where each value was one word
        if all(typed_number(v.removeprefix("-")) is not None for v in values):
            ns = sorted(int(v) for v in values)
            if ns == list(range(ns[0], ns[-1] + 1)) and len(ns) > 2:
                return say("value_not_in", lang, o=named, w=w, lo=ns[0], hi=ns[-1])
            values = [str(n) for n in ns]
        labelled = _cards_labelled(st, w)
        meant = [c for c in labelled if st.game.card_names[c] in values]
        if meant:
            cards = [f"{st.game.card_texts[lang][c]} ({st.game.card_names[c]})" for c in meant]
            return say("card_meant", lang, o=named, w=w, cards=_either(cards, lang))
        if labelled:
            return say("card_labelled", lang, o=named, w=w, cards=_cards_are(st, labelled, lang),
                       vs=_values_shown(st, values, lang))
        return say("value_not_among", lang, o=named, w=w, vs=_values_shown(st, values, lang))
    return None


def _values_shown(st: State, values: list[str], lang: int) -> str:
    """An option's values as the table calls them (seats by their names, cards by their labels), the
    first eight."""
    game = st.game
    seats = {f"P{q}": name for q, name in enumerate(game.seat_texts[lang])}
    shown = [seats.get(v) or (game.card_texts[lang][game.card_index[v]] if v in game.card_index else v) for v in values]
    return ", ".join(shown[:8]) + (", …" if len(shown) > 8 else "")


def _cards_labelled(st: State, word: str) -> list[int]:
    """The cards whose label, in either language, is ``word`` or has it as a word (`7` of House 7)
    — when no card is named so: a player who typed what the card shows."""
    game = st.game
    low = word.casefold()
    if low in (n.casefold() for n in game.card_names):
        return []
    return [c for c in range(game.ncards)
            if any(low == t.casefold() or low in t.casefold().split() for t in (texts[c] for texts in game.card_texts))]


def _cards_are(st: State, cards: list[int], lang: int) -> str:
    """`House 7 is h7` for each label of ``cards``, the first three (deck order; the deck is no
    secret); identical copies on one, `Wizard is Z1 … Z4`."""
    game = st.game
    names: dict[str, list[str]] = {}
    for c in cards:
        names.setdefault(game.card_texts[lang][c], []).append(game.card_names[c])
    said = [say("card_is", lang, label=label, name=ns[0] if len(ns) == 1 else f"{ns[0]} … {ns[-1]}")
            for label, ns in list(names.items())[:3]]
    return ", ".join(said) + (", …" if len(names) > 3 else "")


def _either(items: list[str], lang: int) -> str:
    """`a, b or c` (the first four)."""
    items = items[:4]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + say("or", lang) + items[-1]


def _card_elsewhere(st: State, raw: str, named: str, mine: list[Action], offered: list[str],
                    lang: int) -> str | None:
    """Of the cards typed after option ``named`` (by name, or as the screen shows them: Hanabi's
    `G1`), one the chooser sees lying in a zone none of the option's actions takes a card from — the
    legal ones ``mine``, or those in ``offered`` (ids: with an else text, all the option takes, its
    `where` aside) — (6 nimmt!'s `play 92`, 92 lying on a row; `play G1`, G1 in another's hand):
    where it is."""
    from ..engine.runtime import _zone_text

    game = st.game
    index = {n.lower(): i for i, n in enumerate(game.card_names)}
    taken = _cards_taken(st, mine) | {index[w] for a in offered for w in a.lower().split()[1:] if w in index}
    zones = {st.loc[c] for c in taken}
    if not zones:
        return None
    shown = _seen_as(st, mine[0].player)
    for w in _values_typed(raw, named):
        c = index.get(game.typed_card(w).lower())
        by_name = [c] if c is not None and card_visible(st, c, mine[0].player) else []
        for c in by_name or shown.get(w.lower(), []):
            if c not in taken and st.loc[c] not in zones:
                said = game.card_names[c] if by_name else w
                return say("card_elsewhere", lang, o=named, w=said, z=_zone_text(st, st.loc[c], lang))
    return None


def _cards_taken(st: State, mine: list[Action]) -> set[int]:
    """The cards the legal actions ``mine`` (of one option) take, named or by their place."""
    info = st.game.sites[st.pend[0]].options[mine[0].raw[0]] if st.pend is not None and mine[0].raw[0] >= 0 else None
    if info is None:
        return set()
    return {c for a in mine for i, is_list in info.card_args for c in ((a.raw[i],) if not is_list else a.raw[i])
            if c is not None}


def _seen_as(st: State, player: int) -> dict[str, list[int]]:
    """The cards ``player`` sees by each word the screen shows them by (the ruleset's `show` text, in
    either language: Hanabi's `G1` for g1a), lower case: what a player may type for one of them."""
    game = st.game
    out: dict[str, list[int]] = {}
    if game.show_fn is None:
        return out
    for c in range(len(game.card_names)):
        if card_visible(st, c, player):
            for lang in (0, 1):
                for w in (game.show(st, c, lang) or "").split():
                    if c not in out.setdefault(w.lower(), []):
                        out[w.lower()].append(c)
    return out


def _unseen_card_word(st: State, raw: str, named: str, mine: list[Action]) -> str | None:
    """Of the values typed after option ``named`` (whose actions take cards), a word that is no name
    or label word of a card the chooser sees nor any value of the option's legal actions (`play ZZ`,
    a card of another deck, one in a hidden hand): the option's else text would be about a card that
    is not there. Where each value is one word, only the words in the cards' places count: a number
    out of its range beside a card is the number's to refuse."""
    game = st.game
    info = game.sites[st.pend[0]].options[mine[0].raw[0]] if st.pend is not None and mine[0].raw[0] >= 0 else None
    if info is None or not info.card_args:
        return None
    player = mine[0].player
    known = {w.lower() for a in mine for w in a.id.split()[1:]}
    known.update(w.lower() for c in range(len(game.card_names)) if card_visible(st, c, player)
                 for lang in (0, 1) for w in [game.card_names[c], *game.card_texts[lang][c].split()])
    known.update(_seen_as(st, player))      # as the screen shows them (`show`): Hanabi's G1
    words = _values_typed(raw, named)
    typed = game.typed_norm(" ".join([named, *words])).split()[1:]
    if len(typed) == len(info.binder_types) and not any(many for _, many in info.card_args):
        # one word a value: only the cards' places hold card words (`put c6 5`: the 5 is n's)
        words = [(words if len(words) == len(typed) else typed)[i - 1] for i, _ in info.card_args]
    for w in words:
        seat = game.typed_seats.get(w.lower())        # a seat by its name (`give ♠A East`): no card word
        if w.lower() not in known and game.typed_card(w).lower() not in known and seat is None:
            return w
    return None


def menu_first(legal: list[Action], found: Action, typed: str) -> Action:
    """Of the actions that read as the label typed (identical copies: `play Guard`), the one the menu
    (``legal``, in its order) shows first; any other input stands as found."""
    said = " ".join(typed.split()).casefold()
    if not found.label or said not in {" ".join(h.split()).casefold() for h in found.label.split(" | ")}:
        return found
    return next((a for a in legal if a.label == found.label), found)


def hand_order(legal: list[Action], v: dict[str, Any], deck: dict[str, int]) -> list[Action]:
    """The choices of each option together, the options in the rules' order (Jaipur's one "take
    Silver" no longer after 31 exchanges), and within one in the order the hand is shown (by the
    first card an action names: deck order, or the ruleset's ``show … sorted by``), the others
    after them as the rules list them; the view's
    list is put in the same order, so a number picks what it shows. The cards of a pile, which the
    screen shows as they lie, go together in the pile's order (bottom first, as it reads left to
    right), where the first of them would stand."""
    by = v.get("order") or deck
    first = [next((w for w in a.id.split() if w in by), None) for a in legal]
    laid = {c: (name, k) for name, z in v.get("zones", {}).items() if z.get("pile") and not z.get("sorted")
            for k, c in enumerate(z["cards"]) if c is not None}
    anchor: dict[str, int] = {}         # a pile → where its choices stand: its first card's in deck order
    for w in first:
        if w is not None and w in laid:
            anchor[laid[w][0]] = min(anchor.get(laid[w][0], by[w]), by[w])

    kinds = {name: k for k, name in enumerate(dict.fromkeys(a.id.split(" ", 1)[0] for a in legal))}

    def key(i: int) -> tuple[int, int, int, int, int]:
        kind = kinds[legal[i].id.split(" ", 1)[0]]      # each option's actions together, in the rules' order
        w = first[i]
        if w is None:
            return (kind, 1, 0, 0, i)
        if w in laid:
            return (kind, 0, anchor[laid[w][0]], 1 + laid[w][1], i)
        return (kind, 0, by[w], 0, i)

    perm = sorted(range(len(legal)), key=key)
    if v.get("decision"):
        v["decision"]["legal"] = [v["decision"]["legal"][i] for i in perm]
    return [legal[i] for i in perm]


def game_log(game: Game, seed: int, actions: list[tuple[int, str]], seats: list[str],
             lang: int = 0, carried: dict[str, Any] | None = None, rules: str | None = None,
             match: str | None = None) -> dict[str, Any]:
    """A replayable log; a ruleset file is named by its full path, so the log resumes from anywhere,
    and in the language it was played in. ``carried``: what a match's game started with (its
    `carried` variables from the game before), which replaying it needs too; ``rules``: the rules a
    resumed game was begun under (its log's), kept so that a replay still warns they have changed;
    ``match``: the match a game belongs to, so that ``--resume LOG --match NAME`` counts it there."""
    ruleset = str(Path(game.ruleset).resolve()) if game.ruleset.endswith(".fuda") else game.ruleset
    out = {"format": "fuda-log/1", "ruleset": ruleset, "options": game.options_given, "seed": seed,
           "seats": seats, "lang": "ja" if lang else "en", "rules": rules or game.rules_hash,
           "actions": [[p, a] for p, a in actions]}
    if carried:
        out["carried"] = carried
    if match:
        out["match"] = match
    return out


def _name_reason(e: OSError | ValueError, path: str) -> str:
    """Why a file cannot be saved to; Python's ValueError is a NUL byte in the name (pasted text)."""
    return os_reason(e, path) if isinstance(e, OSError) else "a file name cannot hold a NUL character"


def check_writable(path: str) -> None:
    """A log that cannot be written is refused before the game starts, not found out at its end
    (OSError: the command's 'cannot use FILE' error). Nothing is left behind."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    existed = p.exists()
    with open(p, "a", encoding="utf-8"):
        pass
    if not existed:
        p.unlink()


def play(game: Game, seats: list[str], seed: int, lang: int = 0, log_path: str | None = None,
         inp: Callable[[str], str] | None = None, out: TextIO | None = None,
         resume: list[tuple[int, str]] | None = None, actions: list[tuple[int, str]] | None = None,
         autosave: str | None = None, carried: dict[str, Any] | None = None, ask_all: bool = False,
         rules: str | None = None, match: str | None = None, again: str = "") -> State:
    """Play to the end (or until a human quits). ``resume``: actions of a saved game to replay
    first. With ``log_path`` the game log is written whatever happens, so nothing is lost; without
    one, a game with a human that stops unfinished is written to ``autosave``.
    ``actions``: a list that receives every (player, action id) played (match play keeps them);
    ``carried``: the `carried` variables' values from a match's previous game; ``ask_all``: a
    human is asked also where one action is legal (scripted input: a line a decision); ``rules``:
    a resumed game's rules as its log names them (``game_log``); ``match``: the match the game is
    of (its log says so); ``again``: what the command that continues a stopped game adds
    (`` --match NAME``)."""
    if actions is None:
        actions = []
    out = out or sys.stdout

    def save(path: str) -> bool:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                json.dump(game_log(game, seed, actions, seats, lang, carried, rules, match), f, ensure_ascii=False, indent=1)
        except (OSError, ValueError) as e:
            print(say("cannot_save", lang, path=path, why=_name_reason(e, path)), file=out)
            return False
        # at a hot seat whoever is at the screen reads this: a game that goes on is not to be replayed
        hidden = table["hot"] and not st.over
        print(say("saved_hot" if hidden else "saved", lang, n=len(actions), path=path), file=out)
        own.add(Path(path).resolve())
        return True

    def save_asked(path: str) -> bool:
        """`save FILE` at the prompt: as ``--log``, a file that holds something (another saved game)
        is refused; this game's own log, and a file it has saved to already, are updated. `~` is the
        home folder, as a shell would read it (the prompt is not a shell)."""
        path = os.path.expanduser(path)
        p = Path(path)
        try:
            taken = p.resolve() not in own and p.is_file() and p.stat().st_size > 0
        except (OSError, ValueError) as e:    # a name too long, a NUL byte pasted in: said, and the game goes on
            print(say("cannot_save", lang, path=path, why=_name_reason(e, path)), file=out)
            return False
        if taken:
            print(say("save_over", lang, path=path), file=out)
            return False
        return save(path)

    own = {Path(p).resolve() for p in (log_path,) if p}     # the files this game may write over

    agents: list[Bot | Human] = []
    table: dict[str, Any] = {}
    for i, spec in enumerate(seats):
        alias = sum(1 for s in seats[:i] if s == spec)      # the same persona again: an alias name
        agents.append(Human(lang, inp or input, out, save_asked, table) if spec == "human"
                      else make_bot(spec, seed * 1000 + i, alias=alias))
    for i, agent in enumerate(agents):
        if hasattr(agent, "react"):
            print(f"  {game.seat(i, lang)}: {agent.name}", file=out)
    # who sits where, for the seats line of a human's screen: a persona by name, a bot by its kind
    table["people"] = {i: agent.name for i, agent in enumerate(agents) if not isinstance(agent, Human)}
    humans = [i for i, seat in enumerate(seats) if seat == "human"]
    pauses = game.pauses if humans else frozenset()     # bots alone go straight on
    table["hot"] = len(humans) > 1          # a hot seat: what one player is told, the others may read
    table["ask_all"] = ask_all              # `--ask-all`: a single legal action is asked too (scripts)
    viewer = humans[0] if len(humans) == 1 else None     # hot seat: what is printed between screens is public
    slow_told = False           # the advice for a slow bot is given once a game
    decided: list[int] = []     # where in ``actions`` a human had a real choice: the points undo goes back to
    st = game.new_state(seed, carried=carried)
    for p, done in resume or []:
        if p in humans and len(game.legal_actions(st, p)) > 1:
            decided.append(len(actions))
        game.apply(st, p, done)
        actions.append((p, done))
    # the labels actions were chosen by, by event index: screens show them for the human's own actions
    said: dict[int, str] = option_labels(st, carried) if resume else {}
    table["said"] = said
    if resume:
        print(say("resumed", lang, n=len(resume)), file=out)
    try:
        while not st.over:
            for p in st.to_move():
                legal = game.legal_actions(st, p)
                t0 = time.perf_counter()
                try:
                    a = agents[p].choose(st, p, legal)
                except Undo:
                    st = _undo(game, seed, st, p, actions, decided, lang, out, carried)
                    said.clear()
                    said.update(option_labels(st, carried))
                    break           # the position has changed: ask again whoever is to move there
                if not slow_told and not isinstance(agents[p], Human) and game.eval_fn is None \
                        and time.perf_counter() - t0 > SLOW_MOVE:
                    slow_told = True
                    print(say("slow_bot", lang, s=f"{time.perf_counter() - t0:.0f}"), file=out)
                _say(agents[p], game.seat(p, lang), out)     # what they said while choosing (a misplay the table caught) comes first
                at = len(st.ev)
                game.stop_before = pauses       # around the move only: a bot's search never stops there
                try:
                    game.apply(st, p, a)
                finally:
                    game.stop_before = frozenset()
                if a.label:
                    said[at] = a.label
                seen = _public_text(st, at, viewer, lang)
                if not isinstance(agents[p], Human) and seen is not None:   # as the (first) human, or a spectator, saw it
                    print(f"  {game.seat(p, lang)} ({agents[p].name}){seen}", file=out)
                for line in _told(st, at, viewer, lang):
                    print(f"    · {line}", file=out)
                chatter(agents, st, at, out, lang)
                if isinstance(agents[p], Human) and len(legal) > 1:
                    decided.append(len(actions))
                actions.append((p, a.id))
                if not st.over and st.pend is None:     # stopped as a `pause` phase begins
                    _pause(st, viewer, lang, inp or input, out, said if viewer is not None else None, table["people"])
                    game.run(st)
                if st.over:
                    break
    except Quit:
        print(say("stopped", lang), file=out)
        return st
    finally:
        # a game stopped unfinished (quit, end of input, Ctrl-C) is kept: in its log, or else (no
        # log, or one that cannot be written now) under FUDA_HOME when a human was playing
        for path in dict.fromkeys([log_path, autosave if humans else None]):
            if path and not st.over and save(path):
                print(say("continue", lang, path=path) + again, file=out)
                break
    print("", file=out)
    print(render(st.view(viewer, lang, said=said if viewer is not None else None), lang, title=game.title_in(lang),
                 order=game.card_index, people=table["people"]), file=out)
    if table["hot"]:            # kept off the shared screen until now (cli._table_line)
        print(say("seed_was", lang, seed=seed), file=out)
    if log_path:                # a finished game: its log after its result
        save(log_path)
    return st


def _pause(st: State, viewer: int | None, lang: int, inp: Callable[[str], str], out: TextIO,
           said: dict[int, str] | None, people: dict[int, str]) -> None:
    """A `pause` phase begins again: the table as the last hand left it (its melds, the hands its end
    revealed), before the phase gathers and deals, until Enter — the humans would otherwise see it
    only as log lines under the next hand's deal. At a hot seat the screen is the public one."""
    v = st.view(viewer, lang, said=said)
    print("", file=out)
    print(render(v, lang, title=st.game.title_in(lang), order=st.game.card_index, people=people), file=out)
    print("\n" + say("pause", lang, phase=v["phase_label"]), file=out)
    try:
        inp("")
    except EOFError:
        raise Quit() from None


def _undo(game: Game, seed: int, st: State, p: int, actions: list[tuple[int, str]], decided: list[int],
          lang: int, out: TextIO, carried: dict[str, Any] | None = None) -> State:
    """Take back P{p}'s last real decision and every move made since: the game is replayed from its
    seed up to that point (state is deterministic given the actions), so the chance draws come out as
    before. In hot seat, another human's later decision is not taken back for them."""
    back, other = undo_point(actions, decided, p)
    if other is not None:
        print(say("undo_other", lang, q=game.seat(other, lang)), file=out)
        return st
    if back is None:
        print(say("no_undo", lang), file=out)
        return st
    st = rebuilt(game, seed, actions[:back], carried)
    print(say("undone", lang, n=len(actions) - back), file=out)
    del actions[back:]
    decided[:] = [i for i in decided if i < back]
    return st


def chatter(agents: list[Any], st: State, since: int, out: TextIO, lang: int = 0) -> None:
    """What the characters at the table say about what just happened."""
    for seat, name, line in talk(agents, st, since):
        print(f"  {name} ({st.game.seat(seat, lang)}): 「{line}」", file=out)


def talk(agents: list[Any], st: State, since: int) -> list[tuple[int, str, str]]:
    """The characters' lines about the events ``st.ev[since:]``: (seat, name, line). Talk is
    public: every player may read it."""
    out: list[tuple[int, str, str]] = []
    for i, agent in enumerate(agents):
        if hasattr(agent, "react"):
            agent.react(st, since)
            out.extend((i, agent.name, line) for line in said(agent))
    return out


def said(agent: Any) -> list[str]:
    """What an agent has said since last asked (a persona's lines; other agents say nothing)."""
    return agent.take_lines() if hasattr(agent, "take_lines") else []


def _say(agent: Any, seat: str, out: TextIO) -> None:
    for line in said(agent):
        print(f"  {agent.name} ({seat}): 「{line}」", file=out)


TOLD = ("log", "tell", "finish", "rejoin", "win", "lose")


def _told(st: State, at: int, viewer: int | None, lang: int = 0) -> list[str]:
    """What the rules said as an action's consequence (their log lines, who went out, won or lost,
    the cards the viewer drew unseen into their hand), as the viewer reads it: printed as it
    happens, so that nothing scrolls past unseen."""
    from ..engine.observe import render_event

    out = []
    for i in range(at + 1, len(st.ev)):
        ev = render_event(st, st.ev[i], viewer, lang, at=i)
        if ev is not None and (ev["kind"] in TOLD or ev.get("announced") or ev.get("drawn")):
            out.append(ev["text"])
    return out


def _public_text(st: State, at: int, viewer: int | None, lang: int = 0) -> str | None:
    """What a human (or, with None, a spectator) may learn of a bot's action (the event at ``at``),
    to follow the bot's name: ": play ♠Q", or " has chosen" / " が選んだ" (a simultaneous choice);
    hidden cards masked; None when they may not learn of it at all (a pass in a response window)."""
    from ..engine.observe import render_event

    ev = render_event(st, st.ev[at], viewer, lang, at=at)
    if not ev:
        return None
    who, sep, what = ev["text"].partition(": ")
    return f": {what}" if sep else " " + ev["text"].partition(" ")[2]    # "P1 has chosen"
