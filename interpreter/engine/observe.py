"""The one door out of a state: what a given player may see.

``view(state, player)`` is used by the CLI, bots, per-player logs and tests alike. A card is
named only if it is visible to that player now: its zone is public, or the player owns an
owner-only zone, or the card was turned face up or revealed to them. Hidden variables, other
players' owner-only variables and unrevealed simultaneous choices never appear. ``player=None``
is a spectator: public information only. ``full_view`` is for replays and debugging only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..check import text_plain
from ..words import say
from . import runtime as R

if TYPE_CHECKING:
    from .game import Action, Game
    from .state import State


def zone_visible(st: State, slot: int, p: int | None) -> bool:
    game = st.game
    if slot < game.static_slots:
        z = game.prog.zones[game.zone_decl[slot]]
        owner = game.zone_owner[slot]
    else:
        seq, owner = st.dyn[slot - game.static_slots]
        z = game.prog.zones[game.seq_decl[seq]]
    assert z.decl is not None
    vis = z.decl.visibility
    if vis == "public":
        return True
    if p is None or vis == "hidden":
        return False
    if vis == "owner":
        return owner == p
    return owner != p  # others


def card_visible(st: State, c: int, p: int | None) -> bool:
    if st.vis[c] == R.ALL:
        return True
    if p is not None and st.vis[c] >> p & 1:
        return True
    return zone_visible(st, st.loc[c], p)


def _names_a_copy(st: State, a: Action, p: int) -> bool:
    """Whether action ``a`` names a card ``p`` sees that has an identical copy (Uno's two Red 7s,
    `R7a`, `R7b`): its id tells the copies apart by names players never see, and a menu shows its
    label instead. Cards out of p's sight are not looked at: that a card has a copy tells its face."""
    game = st.game
    if not game.copies or st.pend is None or a.raw[0] < 0:
        return False
    for j, many in game.sites[st.pend[0]].options[a.raw[0]].card_args:
        v = a.raw[j]
        if any(c in game.copies and card_visible(st, c, p) for c in (() if v is None else v if many else (v,))):
            return True
    return False


def remembered(st: State, p: int | None) -> set[int]:
    """The cards ``p`` cannot see now but still knows the place of: perfect recall, as information-set
    search assumes. A card p saw (moved where p could see it, or revealed to p) stays known while it
    lies where p last saw it: a move of it p did not see, a shuffle of its zone, or a move p did not
    see of any card out of its zone (p cannot tell which card left), or one p saw of an identical
    copy of it out of its zone (a ♠A went, which one p cannot tell), makes p lose it. Worked out from
    the events alone, backwards from now: only what p was shown and where cards went in p's sight
    decide the answer, never which hidden card moved."""
    if p is None:
        return set()
    zone = list(st.loc)          # each card's zone at the point the walk has reached
    open_: set[int] = set(range(len(zone)))      # cards the walk has not decided yet
    known: set[int] = set()
    bit = 1 << p
    copies, faces = st.game.copies, st.game.faces
    for ev in reversed(st.ev):
        if not open_:
            break
        kind = ev[0]
        if kind == R.EV_MOVE:
            c, src, mask = ev[2], ev[3], ev[5]
            if c in open_:
                open_.discard(c)
                if mask & bit:
                    known.add(c)
            if mask & bit and c in copies:  # p saw a ♠A leave, not which: nor where its copies lie
                open_ -= {d for d in open_ if zone[d] == src and faces[d] == faces[c]}
            if not mask & bit:          # some card left src unseen: p cannot place the others there
                open_ -= {d for d in open_ if zone[d] == src}
                if len(ev) > 7:         # put `at` a depth p was not told: nor those of the zone it went into
                    open_ -= {d for d in open_ if zone[d] == ev[4]}
            zone[c] = src
        elif kind == R.EV_REVEAL:
            if ev[3] & bit and ev[2] in open_:
                open_.discard(ev[2])
                known.add(ev[2])
        elif kind == R.EV_SHUFFLE:
            open_ -= {d for d in open_ if zone[d] == ev[2]}
        elif kind == R.EV_SWAP:
            a, b, mask = ev[2], ev[3], ev[4]
            for c in (a, b):
                if c in open_:
                    open_.discard(c)
                    if mask & bit:
                        known.add(c)
            if not mask & bit:
                open_ -= {d for d in open_ if zone[d] in (zone[a], zone[b])}
            zone[a], zone[b] = zone[b], zone[a]
    return {c for c in known if not card_visible(st, c, p)}


def _value(st: State, v: Any, code: str, p: int | None) -> Any:
    """A variable's value as JSON-ready data; cards the viewer cannot see become null."""
    if v is None:
        return None
    if code == "card":
        return st.game.card_names[v] if card_visible(st, v, p) else None
    if code == "card!":         # a card every player can work out: named even where it lies hidden
        return st.game.card_names[v]
    if code.startswith("enum:"):
        return st.game.enum_members[code[5:]][v]
    if code.startswith("list:"):
        return [_value(st, x, code[5:], p) for x in v]
    if code == "zone":
        return st.game.zone_name(st, v)
    if code == "effect":
        return st.game.effects[v].name
    if code == "square":
        return list(v)
    if isinstance(v, tuple):
        return list(v)
    return v


def _field_labels(prog: Any, kind: int) -> dict[str, Any]:
    """An effect's own parameter labels: effects sharing a field name may call it differently, and a
    field one effect labels may be bookkeeping in another."""
    decl = prog.effects[kind].decl
    return {} if decl is None else {p.name: p.label for p in decl.params if p.label is not None}


def _enum_shown(prog: Any, v: Any, enum: str, lang: int) -> str:
    """An enum value (or a list of them) by its members' labels, in ``lang``, as screens show them."""
    en = prog.enums.get(enum)

    def one(x: int) -> str:
        if en is None:
            return str(x)
        if en.shown is not None:
            lab = en.shown[x]
            return str(lab[min(lang, len(lab) - 1)])
        return str(en.members[x])
    return "[" + ", ".join(one(x) for x in v) + "]" if isinstance(v, list | tuple) else one(v)


def _window_called(w: Any, lang: int) -> str:
    """A window as a log names it: its label in the reader's language, or its name where the label
    reads the stack item (which may be gone by the time the log is read)."""
    label = w.decl.label if w.decl is not None else None
    if label is None:
        return str(w.name)
    parts = label.parts[min(lang, len(label.parts) - 1)]
    return str(w.name) if any(not isinstance(x, str) for x in parts) else "".join(parts).strip()


def called(name: str, labels: dict[str, str], seats: list[str] | None = None) -> str:
    """A zone as players call it: its label (``labels``: zone name → label in their language), with
    the owner or place its name carries ("hand[P0]" → "Hand[P0]"; "Hand[North]" with ``seats``, the
    seats' names)."""
    base = name.split("[", 1)[0]
    rest = name[len(base):]
    if seats is not None and rest:
        rest = re.sub(r"\[P(\d+)\]", lambda m: f"[{seats[int(m.group(1))]}]", rest)
    return labels.get(base, base) + rest


def var_visible(st: State, slot: int, visibility: str, owner: int | None, p: int | None) -> bool:
    """Whether ``p`` sees the variable at ``slot``; of a per-card one, also whether they see its card
    (`back`: a value on the card's back is seen wherever the card lies)."""
    if visibility in ("public", "back") or slot in st.revealed:
        return True
    if visibility == "owner":
        return p is not None and owner == p
    return False


def _marks(st: State, c: int, backs: list[Any], p: int | None) -> dict[str, Any]:
    """The `back` variables of card ``c`` that differ from their initial values (a clue, a token)."""
    from ..compile import named_code, type_code

    return {v.name: _value(st, st.g[v.slot + c], named_code(type_code(v.type), v.named), p)
            for v in backs if st.g[v.slot + c] != v.init}


def view(st: State, p: int | None, log_tail: int | None = None, lang: int = 0,
         said: dict[int, str] | None = None) -> dict[str, Any]:
    """``lang``: 0 English, 1 Japanese — for `show` labels and log lines (texts "English | 日本語");
    ``said``: the option labels actions were chosen by, by event index, for a reader's screen
    (``render_event``; the JSON API leaves it out: tools read ids)."""
    from ..compile import named_code, type_code

    game: Game = st.game
    prog = game.prog
    g = st.g
    n = game.n
    bs = prog.builtin_slots
    zones: dict[str, Any] = {}
    backs = [v for v in prog.vars[5:] if v.visibility == "back"]
    marked: set[str] = set()
    # `zone … if COND` on a sequence not in this game: left out, its zones too, while it holds no card
    unused = {i for i, zi in enumerate(game.seq_decl)
              if not prog.zones[zi].in_game and not any(st.z[s] for s in st.sq[i])}
    for slot in list(range(game.static_slots)) + [s for i, q in enumerate(st.sq) if i not in unused for s in q]:
        cards = st.z[slot]
        shown = [game.card_names[c] if card_visible(st, c, p) else None for c in cards]
        zsym = prog.zones[game.zone_decl[slot]] if slot < game.static_slots else None   # None: a sequence's
        if zsym is not None and not zsym.in_game and not cards:
            continue            # `zone … if COND`: not in this game's options (and holding nothing)
        decl = zsym.decl if zsym is not None else None
        pile = decl is None or decl.kind == "pile"
        zones[game.zone_name(st, slot)] = entry = {"size": len(cards), "cards": shown, "pile": pile}
        if decl is not None and decl.sorted:
            entry["sorted"] = True
        if p is not None and not zone_visible(st, slot, p):     # shown to p, face down for the table
            peeked = [i for i, c in enumerate(cards) if st.vis[c] != R.ALL and st.vis[c] >> p & 1]
            if peeked:
                entry["peeked"] = peeked
        if backs and None in shown:     # what everyone sees on the backs of the cards hidden here
            marks = {str(i): m for i, c in enumerate(cards) if shown[i] is None and (m := _marks(st, c, backs, p))}
            if marks:
                entry["marks"] = marks
                marked.update(k for m in marks.values() for k in m)
    variables: dict[str, Any] = {}
    card_vars: dict[str, dict[str, Any]] = {}
    for v in prog.vars[5:]:
        code = named_code(type_code(v.type), v.named)      # "card!": a card every player can name
        flag = v.shown_by       # `var … if FLAG`: left out while the (public) FLAG is false
        if v.scope == "global":
            # `var … if COND` not in this game's options: left out while unset
            if var_visible(st, v.slot, v.visibility, None, p) and (v.in_game or g[v.slot] != v.init) \
                    and (flag is None or bool(g[flag.slot]) != v.shown_unless):
                variables[v.name] = _value(st, g[v.slot], code, p)
        elif v.scope == "player":
            seen = [q for q in range(n) if var_visible(st, v.slot + q, v.visibility, q, p)
                    and (flag is None or bool(g[flag.slot + (q if flag.scope == "player" else 0)]) != v.shown_unless)]
            if not v.in_game and all(g[v.slot + q] == v.init for q in seen):
                continue        # judged by what this viewer sees: an unseen value must not show the line
            entries = {f"P{q}": _value(st, g[v.slot + q], code, p) for q in seen}
            if entries:
                variables[v.name] = entries
        else:
            for c in range(game.ncards):
                val = g[v.slot + c]
                if val != v.init and card_visible(st, c, p) and var_visible(st, v.slot + c, v.visibility, None, p):
                    card_vars.setdefault(game.card_names[c], {})[v.name] = _value(st, val, code, p)
    labels: dict[str, str] = {}
    if game.show_fn is not None or prog.cards.labels:     # `show`, else the cards' own labels
        for c in range(game.ncards):
            if card_visible(st, c, p):
                label = game.show(st, c, lang) if game.show_fn is not None else game.card_texts[lang][c]
                if label is not None and label != game.card_names[c]:
                    labels[game.card_names[c]] = label
    order: dict[str, int] = {}
    if game.show_order_fn is not None:         # `show c sorted by KEY`: the order of a hand on screen
        in_order = game.sorted_cards(st, [c for c in range(game.ncards) if card_visible(st, c, p)])
        order = {game.card_names[c]: i for i, c in enumerate(in_order)}
    stack: list[dict[str, Any]] = []
    for iid in st.stack:
        item = st.items[iid]
        eff = game.effects[item[0]]
        decl = prog.effects[item[0]].decl
        entry = {"id": iid, "effect": eff.name,
                 "label": text_plain(decl.label, lang) if decl is not None and decl.label is not None else eff.name,
                 "controller": item[1],
                 "source": game.card_names[item[2]] if item[2] is not None and card_visible(st, item[2], p) else None,
                 "times": item[3], "negated": item[4]}
        fields: list[list[str]] = []
        for (name, ty), idx in zip(prog.effects[item[0]].params, eff.fields, strict=True):
            entry[name] = _value(st, item[5 + idx], type_code(ty), p)
            label = _field_labels(prog, item[0]).get(name)
            if label is not None:       # one without a label (in this effect) is the rules' bookkeeping
                fields.append([name, type_code(ty), text_plain(label, lang)])
        entry["fields"] = fields       # the effect's labelled fields: name, type and label, for screens
        stack.append(entry)
    to_move = st.to_move()
    out: dict[str, Any] = {
        "ruleset": game.name,
        "viewer": p,
        "players": n,
        "current": g[0],
        # whether a turn has begun yet (a `turn`, or rules that set `current` themselves): before it,
        # `current` is only its initial value, nobody's turn (a game whose players all choose at once)
        "turn_begun": prog.sets_current or any(e[0] == R.EV_TURN for e in st.ev),
        "direction": g[1],
        "phase": prog.phases[st.phase].name if 0 <= st.phase < len(prog.phases) else "setup",
        "phase_label": _on_screen(prog.phases[st.phase], lang) if 0 <= st.phase < len(prog.phases) else "setup",
        "to_move": to_move,
        "over": st.over,
        "seats": [{"player": q, "out": bool(g[bs["out"] + q]), "place": g[bs["place"] + q],
                   "score": g[bs["score"] + q]} for q in range(n)],
        # `score "Points | 文"`: the score's name in ``lang``, shown at every seat even while all are 0
        "score_label": text_plain(prog.score_label, lang) if prog.score_label is not None else None,
        "zones": zones,
        "vars": variables,
        "card_vars": card_vars,
        # how players call the variables (their labels, in ``lang``); one without a label is bookkeeping
        "var_labels": {v.name: text_plain(v.decl.label, lang) for v in prog.vars[5:]
                       if v.decl is not None and v.decl.label is not None
                       and (v.name in variables or v.name in marked or any(v.name in cv for cv in card_vars.values()))},
        # how players call the zones (their labels, in ``lang``), for screens; the keys stay names
        "zone_labels": {z.name: text_plain(z.decl.label, lang) for z in prog.zones
                        if z.decl is not None and z.decl.label is not None},
        # zones declared `transient`: screens leave them out while empty, as they do unlabelled ones
        "transient_zones": [z.name for z in prog.zones if z.decl is not None and z.decl.transient],
        # how players call the seats (`seats "North | 北", …`), P0 first; P0, P1, … when unnamed
        "seat_names": game.seat_texts[lang],
        "var_types": {v.name: type_code(v.type) for v in prog.vars[5:]
                      if v.name in variables or v.name in marked
                      or v.scope == "card" and any(v.name in cv for cv in card_vars.values())},
        "enum_labels": {},
        "labels": labels,
        "order": order,
        "stack": stack,
    }
    # the members of labelled enums the variables shown hold, as players read them in ``lang``
    held = {code.rsplit(":", 1)[-1] for code in [*out["var_types"].values(), *(f[1] for it in stack for f in it["fields"])]
            if "enum:" in code}
    out["enum_labels"] = {name: {m: lab[min(lang, len(lab) - 1)] for m, lab in zip(en.members, en.shown, strict=True)}
                          for name, en in prog.enums.items() if en.shown is not None and name in held}
    if game.seq_decl:       # each sequence's zones, front first (a declared zone may stand in one)
        out["sequences"] = {
            prog.zones[zi].name + (f"[P{game.seq_owner[i]}]" if game.seq_owner[i] is not None else ""):
                [game.zone_name(st, slot) for slot in st.sq[i]]
            for i, zi in enumerate(game.seq_decl) if i not in unused}
    if st.schosen is not None and st.pend is not None:
        out["chosen"] = [q for q, c in zip(st.pend[1], st.schosen, strict=True) if c is not None]
    if p is not None and p in to_move:
        out["decision"] = {
            "prompt": game.prompt(st, p),
            "legal": [{"id": a.id, "label": a.label, **({"copy": True} if _names_a_copy(st, a, p) else {}),
                       **({"read": read} if (read := game.id_read(st, a)) != a.id else {})}
                      for a in game.legal_actions(st, p)],
        }
    if st.over:
        out["result"] = game.result(st)
        out["capped"] = st.capped
    first = 0 if log_tail is None else max(len(st.ev) - log_tail, 0) if log_tail else len(st.ev)
    out["log"] = [e for e in (render_event(st, st.ev[i], p, lang, at=i, said=said.get(i) if said else None)
                              for i in range(first, len(st.ev))) if e is not None]
    return out


def event_span(st: State, ev: tuple[Any, ...]) -> str:
    game = st.game
    sid = ev[1]
    if ev[0] == R.EV_ACT and sid < 0:
        site = game.sites[ev[3]]
        opt = ev[4]
        sid = site.options[opt[0]].span if opt[0] >= 0 else site.span
    if 0 <= sid < len(game.spans):
        return str(game.spans[sid])
    return ""


def seen_span(st: State, ev: tuple[Any, ...], everyone: bool) -> str:
    """The rule span a reader of the log is shown: all of them in the full log (replays, designers);
    for a player or spectator only a decision's own place, since the line behind any other event
    tells which code ran — the option a secret choice took, the branch of an `if` on a hidden card."""
    if everyone:
        return event_span(st, ev)
    if ev[0] != R.EV_ACT:
        return ""
    sid = st.game.sites[ev[3]].span
    return str(st.game.spans[sid]) if 0 <= sid < len(st.game.spans) else ""


def _seen_after(st: State, at: int, cards: list[int]) -> dict[int, int]:
    """Who saw each of an action's cards where the action put it, up to the next action: the masks
    of its moves, swaps and reveals logged by the option's own block (a card moved twice there,
    via a hidden pile face up onto the table, is seen where it ended), and by the rules only that block
    calls. Once the rules log something after that block, in the phase or rule that posed the decision
    or a rule only it calls, the action is over: a card passed on there was not put there by the
    action (a marked card handed to the next player). Of events logged elsewhere (a rule called from
    both, an effect, the engine's own), a card's first move counts. A
    shuffle of the card's zone, or a second move or a swap logged elsewhere, loses it (gathered and
    dealt anew, by the block or after it): whoever sees it after that did not see this action's card
    (newcomer50's leak)."""
    game = st.game
    act = st.ev[at]
    site = game.sites[act[3]]
    info = site.options[act[4][0]]
    body, after, scope, spans = info.body, info.after, site.scope, game.spans
    seen = dict.fromkeys(cards, 0)
    zone: dict[int, int] = {}       # the zone a move or swap put a card in
    moved: set[int] = set()
    lost: set[int] = set()
    for i in range(at + 1, len(st.ev)):
        ev = st.ev[i]
        k = ev[0]
        if k == R.EV_ACT:
            break
        span = spans[ev[1]] if ev[1] >= 0 else None
        own = span is not None and any(span.within(b) for b in body)
        if not own and span is not None and (scope is not None and span.within(scope)
                                             or any(span.within(a) for a in after)):
            break
        if k == R.EV_MOVE and ev[2] in seen:
            c = ev[2]
            if c in lost or (c in moved and not own):
                lost.add(c)
            else:
                seen[c] |= ev[5] if _singled(st, i, seen) else 0
                moved.add(c)
            zone[c] = ev[4]
        elif k == R.EV_REVEAL and ev[2] in seen and ev[2] not in lost and _singled(st, i, seen):
            seen[ev[2]] |= ev[3]
        elif k == R.EV_SWAP:
            for c, z in ((ev[2], ev[5][1]), (ev[3], ev[5][0])):
                if c in seen and own and c not in lost:
                    seen[c] |= ev[4]
                    moved.add(c)
                elif c in seen:
                    lost.add(c)
                if c in seen:
                    zone[c] = z
        elif k == R.EV_SHUFFLE:
            lost.update(c for c in cards if (zone[c] if c in zone else _zone_then(st, i, c)) == ev[2])
    return seen


def _singled(st: State, at: int, cards: dict[int, int]) -> bool:
    """Whether the move or reveal at ``at`` singles out the action's cards: one statement moving or
    revealing other cards with them (a whole hand handed on, `reveal hand`) shows where they went, not
    which of them the action chose."""
    kind, sid = st.ev[at][:2]
    i = at
    while i > 0 and st.ev[i - 1][:2] == (kind, sid):
        i -= 1
    while i < len(st.ev) and st.ev[i][:2] == (kind, sid):
        if st.ev[i][2] not in cards:
            return False
        i += 1
    return True


def _zone_then(st: State, at: int, c: int) -> int:
    """The zone card ``c`` lay in at event ``at``: where its next move or swap took it from, else its zone now."""
    for ev in st.ev[at + 1:]:
        if ev[0] == R.EV_MOVE and ev[2] == c:
            return int(ev[3])
        if ev[0] == R.EV_SWAP and c in (ev[2], ev[3]):
            return int(ev[5][0] if c == ev[2] else ev[5][1])
    return st.loc[c]


def render_event(st: State, ev: tuple[Any, ...], p: int | None | str = "all", lang: int = 0,
                 at: int | None = None, said: str | None = None) -> dict[str, Any] | None:
    """An event as {"kind", "text", "rule"} for viewer ``p`` ("all": unfiltered, for replays),
    or None if the viewer may not see it at all. A move also has its "path" ("Deck → Hand[P0]"),
    the text after the card. ``said``: an act's option label as its chooser read it ("English |
    日本語"), which readers' logs show instead of the id — to the full log and to the chooser only:
    the checker keeps a label to what its chooser may see, not what the others may."""
    game = st.game
    everyone = p == "all"
    viewer = None if everyone else p

    def card(c: int | None, mask: int | None = None) -> str:
        """A card as the viewer saw it when the event happened (``mask``: who could see it then)."""
        if c is None:
            return "none"
        if everyone or viewer == "all":
            return game.card_texts[lang][c]
        who = viewer if isinstance(viewer, int) else None
        if mask is None:
            seen = card_visible(st, c, who)
        else:
            seen = mask == R.ALL or (who is not None and bool(mask >> who & 1))
        return game.card_texts[lang][c] if seen else say("a_card", lang)

    seats = game.seats_in(lang)

    def player(q: int | None) -> str:
        return game.seat(q, lang)

    k = ev[0]
    text: str
    quiet = False
    if k == R.EV_ACT:
        who, site_id, opt, mask = ev[2], ev[3], ev[4], ev[5]
        site = game.sites[site_id]
        cards = [c for i, is_list in site.options[opt[0]].card_args
                 for c in ((opt[i],) if not is_list else opt[i]) if c is not None] if opt[0] >= 0 else []
        # who saw each card: one mask for them all, or each card's (Game._cards_mask)
        masks = dict(zip(cards, mask[1], strict=True)) if isinstance(mask, tuple) else dict.fromkeys(cards, mask)
        if not everyone and any(m != R.ALL for m in masks.values()):
            idx = at if at is not None else _index_of_event(st, ev)
            if idx is not None:
                masks = {c: m | after for (c, m), after in zip(masks.items(), _seen_after(st, idx, cards).values(),
                                                                  strict=True)}
        # a secret choice; a simultaneous window's answer that counted is announced (a 7th element)
        announced = len(ev) > 6 and ev[6]
        if (site.kind == "simul" or site.hidden) and not announced and not everyone and who != viewer:
            text = say("has_chosen", lang, p=player(who))
        elif opt[0] == -1 and site.kind == "window" and not everyone and who != viewer:
            return None         # only players who could respond are asked: a pass would tell who could
        elif opt[0] == -1:      # a pass in a response window says which window it was
            text = say("pass", lang, p=player(who)) + (f" ({_window_called(game.prog.windows[site.window], lang)})"
                                                       if site.kind == "window" else "")
        elif said and (everyone or viewer == who) and not announced:
            halves = said.split(" | ")
            text = f"{player(who)}: {halves[min(lang, len(halves) - 1)]}"
        else:
            info = site.options[opt[0]]
            parts = [info.name]
            places = ev[7] if len(ev) > 7 else [None] * len(info.binder_types)    # zones of sequences, as chosen
            for v, code, pos in zip(opt[1:], info.binder_types, places, strict=True):
                parts.append(_fmt_for(st, v, code, lambda c: card(c, masks.get(c, R.ALL)), lang) if pos is None
                             else _zones_at(st, v, pos))
            parts = [w for w in parts if w]         # an empty list of cards writes nothing
            text = f"{player(who)}: {' '.join(parts[:1] + [R._words(parts[1:])] if len(parts) > 1 else parts)}"
            if announced:       # a simultaneous window's answer that counts, told to the table
                text = say("first_answer", lang, p=player(who), x=text.partition(": ")[2])
    elif k == R.EV_MOVE:
        c, src, dst, mask = ev[2], ev[3], ev[4], ev[5]
        if len(ev) > 6 and isinstance(ev[6][0], str):        # names, as states saved before 2026-11-23 have
            src_name, dst_name = ev[6]
        else:                                                # places in sequences when the card moved
            places = ev[6] if len(ev) > 6 else (None, None)
            src_name, dst_name = game.zone_name(st, src, places[0]), game.zone_name(st, dst, places[1])
        src_name, dst_name = called(src_name, game.zone_texts[lang], seats), called(dst_name, game.zone_texts[lang], seats)
        under = say("bottom", lang) if ev[1] in game.comp.under_spans else ""       # `move … under`
        if src == dst and not under and not (len(ev) > 7 and ev[7] == "at"):        # reordered in its zone
            under = say("to_top", lang)
        path = f"{src_name} → {dst_name}{under}"
        owner = game.zone_owner
        moved: dict[str, Any] = {"kind": "move", "text": f"{card(c, mask)}: {path}",
                                 "rule": seen_span(st, ev, everyone), "path": path}
        if dst < game.static_slots and src < game.static_slots and owner[dst] is not None \
                and owner[src] not in (None, owner[dst]) and not game.zone_mask[src] >> owner[dst] & 1:
            # from one player's zone, out of the receiver's sight, into another's (a pass, a steal);
            # not a face-up trick gathered into its winner's pile
            moved["handed_to"] = owner[dst]
        elif not everyone and dst < game.static_slots and owner[dst] not in (None, viewer) \
                and game.prog.zones[game.zone_decl[dst]].kind == "hand" and mask is not None \
                and (mask == R.ALL or isinstance(viewer, int) and mask >> viewer & 1) \
                and not (game.zone_mask[dst] == R.ALL or isinstance(viewer, int) and game.zone_mask[dst] >> viewer & 1):
            # a card the viewer saw go into another's hand, where the screen no longer shows it
            # (a discard taken): the recent lines tell it (not a trick gathered into a face-down pile)
            moved["seen_into"] = owner[dst]
        elif isinstance(viewer, int) and dst < game.static_slots and src < game.static_slots \
                and owner[dst] == viewer and owner[src] != viewer and game.prog.zones[game.zone_decl[dst]].kind == "hand" \
                and not game.zone_mask[src] >> viewer & 1 and src not in game.top_slots \
                and mask is not None and (mask == R.ALL or mask >> viewer & 1):
            # a card drawn unseen into the viewer's own hand (from the stock): the hand on screen does
            # not say which card is new, the recent lines do (one taken off a face-up top was seen)
            moved["drawn"] = True
        return moved
    elif k == R.EV_SHUFFLE:
        text = say("shuffle", lang, z=called(game.zone_name(st, ev[2]), game.zone_texts[lang], seats))
    elif k == R.EV_TURN:
        text = say("turn", lang, p=player(ev[2]))
    elif k == R.EV_PHASE:
        text = say("phase", lang, x=_labelled(game.prog.phases[ev[2]], lang))
    elif k == R.EV_PUSH:
        _, _, iid, eff, ctl, src, mask = ev
        text = say("activate", lang, i=iid, e=_labelled(game.prog.effects[eff], lang), p=player(ctl)) + (
            say("activate_from", lang, c=card(src, mask)) if src is not None else "")
    elif k == R.EV_RESOLVE:
        text = say("resolve", lang, i=ev[2])
    elif k == R.EV_NEGATE:
        text = say("negate", lang, i=ev[2])
    elif k == R.EV_FIZZLE:
        text = say("fizzle", lang, i=ev[2])
    elif k == R.EV_MODIFY:
        iid, idx, val = ev[2], ev[3], ev[4]
        from ..compile import type_code

        fields = sorted(game.prog.item_fields.items(), key=lambda f: f[1][0])
        names = ["kind", "controller", "source", "times", "negated"] + [n for n, _ in fields]
        codes = ["int", "player", "card", "int", "bool"] + [type_code(t) for _, (_, t) in fields]
        code = codes[idx] if idx < len(codes) else ""
        name = names[idx] if idx < len(names) else str(idx)
        label = _field_labels(game.prog, ev[5]).get(name) if len(ev) > 5 else game.prog.item_field_labels.get(name)
        if val is None:
            shown = "none"
        elif label is not None and code.startswith(("enum:", "list:enum:")):     # as the stack line shows it
            shown = _enum_shown(game.prog, val, code.rsplit(":", 1)[-1], lang)
        else:
            shown = _fmt_for(st, val, code, card, lang) if code else str(val)
        text = f"#{iid} {text_plain(label, lang)} = {shown}" if label is not None else f"#{iid}.{name} = {shown}"
        quiet = idx >= 5 and label is None      # a field without a label: the rules' bookkeeping
    elif k == R.EV_FINISH:
        text = say("finish", lang, p=player(ev[2]), n=ev[3]) if ev[3] else say("sit_out", lang, p=player(ev[2]))
    elif k == R.EV_REJOIN:
        text = say("rejoin", lang, p=player(ev[2]))
    elif k == R.EV_WIN:
        text = say("winner", lang, ps=", ".join(player(q) for q in ev[2])) if ev[2] else say("nobody_wins", lang)
        if len(ev) > 3:         # `win L draw M`
            text += say("draw_too", lang, ps=", ".join(player(q) for q in ev[3]))
    elif k == R.EV_LOSE:
        text = say("loses", lang, p=player(ev[2]))
    elif k == R.EV_END:
        text = say("game_over", lang) + (say("as_draw", lang) if ev[2] else "")
    elif k == R.EV_LOG:
        text = game.message(st, ev[2], lang)
    elif k == R.EV_TELL:
        if not everyone and ev[2] != viewer:
            return None
        text = say("told", lang, p=player(ev[2])) + game.message(st, ev[3], lang)
    elif k == R.EV_REVEAL:
        _, _, c, mask = ev
        if not everyone and mask != R.ALL and (viewer is None or not mask >> viewer & 1):
            return None
        to = say("everyone", lang) if mask == R.ALL else ", ".join(player(q) for q in range(game.n) if mask >> q & 1)
        text = say("reveal", lang, c=card(c, mask), to=to)
    elif k == R.EV_HIDE:
        _, _, c, mask = ev
        if not everyone and mask != R.ALL and (viewer is None or not mask >> viewer & 1):
            return None         # it was never face up for this viewer: nothing changed in their sight
        # face up for all, it turns face down; shown to some, they no longer see it (a peek forgotten)
        text = say("hide" if mask == R.ALL else "hide_seen", lang, c=card(c, mask))
    elif k == R.EV_REVEALVAR:
        text = say("revealed", lang, v=_slot_name(game, ev[2], lang))
    elif k == R.EV_HIDEVAR:
        text = say("hidden_again", lang, v=_slot_name(game, ev[2], lang))
    elif k == R.EV_CHECK:
        if not everyone:        # its condition may read what the viewer cannot see: they see what it does
            return None
        chk = game.prog.checks[ev[2]]
        text = f"check {chk.name}" + (f" for {player(ev[3])}" if ev[3] is not None else "")
    elif k == R.EV_SWAP:
        a, b = card(ev[2], ev[4]), card(ev[3], ev[4])
        if len(ev) > 5:         # the zones they lay in (not in states saved before 2026-11-25)
            a, b = (f"{x} ({called(game.zone_name(st, z, pos), game.zone_texts[lang], seats)})"
                    for x, z, pos in zip((a, b), ev[5], ev[6], strict=True))
        text = say("swap", lang, a=a, b=b)
    elif k == R.EV_CAP:
        text = say("cap_lose" if game.limit_loses else "cap", lang, n=ev[2])
    elif k == R.EV_INSERT:
        _, _, seq, slot, front = ev
        z = game.prog.zones[game.seq_decl[seq]]
        owner = game.seq_owner[seq]
        what = called(game.zone_name(st, slot), game.zone_texts[lang], seats) if slot < game.static_slots \
            else say("new_zone", lang)
        if isinstance(front, tuple):        # beside a zone: named by its place then
            after, beside, pos = front
            text = say("inserted_beside", lang, z=what, side=say("after" if after else "before", lang),
                       at=called(game.zone_name(st, beside, pos), game.zone_texts[lang], seats))
        else:
            text = say("inserted", lang, z=what, side=say("front" if front else "back", lang),
                       seq=called(f"{z.name}{'' if owner is None else f'[P{owner}]'}", game.zone_texts[lang], seats))
    elif k == R.EV_REMOVEZONE:
        z = game.prog.zones[game.seq_decl[ev[2]]]
        owner = game.seq_owner[ev[2]]
        text = say("closes_up", lang, seq=called(f"{z.name}{'' if owner is None else f'[P{owner}]'}",
                                                 game.zone_texts[lang], seats))
    elif k == R.EV_REVERSE:
        text = say("reversed", lang)
    else:
        text = R.EV_NAMES[k] if k < len(R.EV_NAMES) else str(k)
    out = {"kind": "sit_out" if k == R.EV_FINISH and not ev[3] else R.EV_NAMES[k], "text": text,
           "rule": seen_span(st, ev, everyone)}
    if k == R.EV_ACT and len(ev) > 6 and ev[6]:
        out["announced"] = True
    if k == R.EV_MODIFY and quiet:
        out["quiet"] = True         # screens may leave it out, as they leave out unlabelled variables
    return out


def action_seen(st: State, raw: tuple[Any, ...], viewer: int | None, lang: int = 0) -> str | None:
    """A pending action, not taken, as ``viewer`` would see it named (what a character at the table
    may say it almost did): cards the viewer cannot see now are "a card"; None for a choice that
    is secret (hidden or simultaneous), which cannot be named at all."""
    game = st.game
    if st.pend is None:
        return None
    site = game.sites[st.pend[0]]
    if site.kind == "simul" or site.hidden:
        return None
    if raw[0] < 0:
        return "pass"
    info = site.options[raw[0]]
    def card(c: int | None) -> str:
        return "none" if c is None else game.card_names[c] if card_visible(st, c, viewer) else say("a_card", lang)
    return " ".join(w for w in [info.name] + [_fmt_for(st, v, code, card, lang)
                                              for v, code in zip(raw[1:], info.binder_types, strict=True)] if w)


def _index_of_event(st: State, ev: tuple[Any, ...]) -> int | None:
    for i in range(len(st.ev) - 1, -1, -1):
        if st.ev[i] is ev:
            return i
    return None


def _zones_at(st: State, v: Any, pos: Any) -> str:
    """A zone (or a list of zones) of a sequence named by the place it had when it was chosen."""
    if isinstance(v, tuple):
        return R._words([st.game.zone_name(st, z, p) for z, p in zip(v, pos, strict=True)])
    return st.game.zone_name(st, v, pos)


def _fmt_for(st: State, v: Any, code: str, card: Any, lang: int) -> str:
    """A value of an action in an event: cards as ``card`` shows them, players by their seats."""
    if code == "card":
        return str(card(v))
    if code.startswith("list:"):
        return R._words([_fmt_for(st, x, code[5:], card, lang) for x in v])
    if code == "player" and v is not None:
        return st.game.seat(v, lang)
    return R._fmt(st, v, code)


def var_at(game: Game, slot: int) -> tuple[Any, int] | None:
    """The variable holding State.g[slot] and the entry's index (a player, a card; 0 for a global)."""
    for v in reversed(game.prog.vars):
        width = {"global": 1, "player": game.n, "card": game.ncards}[v.scope]
        if v.slot <= slot < v.slot + width:
            return v, slot - v.slot
    return None


def _slot_name(game: Game, slot: int, lang: int = 0) -> str:
    found = var_at(game, slot)
    if found is None:
        return str(slot)
    v, i = found
    name = _labelled(v, lang)
    return f"{name}[P{i}]" if v.scope == "player" else name


def _on_screen(sym: Any, lang: int) -> str:
    """A phase as a screen heads it: by its label in the reader's language where it has one (the
    log keeps the English name, which scenarios and tests match)."""
    decl = getattr(sym, "decl", None)
    if decl is not None and getattr(decl, "label", None) is not None:
        return text_plain(decl.label, lang)
    return str(sym.name)


def _labelled(sym: Any, lang: int) -> str:
    """A phase, effect or variable as named to players: by its name in English (what the rules and
    the tests call it), by its label in Japanese where it has one."""
    decl = getattr(sym, "decl", None)
    if lang and decl is not None and getattr(decl, "label", None) is not None:
        return text_plain(decl.label, lang)
    return str(sym.name)


def full_view(st: State) -> dict[str, Any]:
    """Everything, for replays and debugging — never for a player."""
    out = view(st, None)
    game = st.game
    out["viewer"] = "all"
    for slot in list(range(game.static_slots)) + [s for q in st.sq for s in q]:
        entry = out["zones"].get(game.zone_name(st, slot))
        if entry is not None:       # None: a zone `if` left out, empty
            entry["cards"] = [game.card_names[c] for c in st.z[slot]]
    out["log"] = [render_event(st, e, "all", at=i) for i, e in enumerate(st.ev)]
    return out


__all__ = ["view", "full_view", "render_event", "card_visible", "zone_visible", "text_plain"]
