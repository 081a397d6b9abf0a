"""Plain-terminal rendering of a view (never of a state): zones, grids as boards, sequences as
rows of zones, variables, the stack, recent events and the decision with numbered choices."""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..engine import observe
from ..words import say


def width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, n: int) -> str:
    return s + " " * max(n - width(s), 0)


def half(label: str | None, lang: int) -> str:
    """One language of an "English | 日本語" label."""
    if not label:
        return ""
    parts = label.split(" | ")
    return parts[min(lang, len(parts) - 1)]


def cards(cs: list[str | None], labels: dict[str, str] | None = None, peeked: Iterable[int] = ()) -> str:
    """Cards as a hand shows them; labels of several words ("Plum Warbler") kept apart by " · ";
    three or more alike in a row as one, counted (a supply pile: "Copper ×46"); a card shown to
    the viewer (alone or with every player) that lies face down (``peeked``, its position) in
    brackets: "(♣7)"."""
    labels = labels or {}
    shown = [labels.get(c, c) if c is not None else "▒" for c in cs]
    for i in peeked:
        shown[i] = f"({shown[i]})"
    return (" · " if any(" " in x for x in shown) else " ").join(counted(shown))


def counted(texts: list[str]) -> list[str]:
    """Three or more alike in a row as one, counted: ["Copper ×46"]."""
    runs: list[str] = []
    i = 0
    while i < len(texts):
        j = i
        while j < len(texts) and texts[j] == texts[i]:
            j += 1
        runs += [f"{texts[i]} ×{j - i}"] if j - i >= 3 else texts[i:j]
        i = j
    return runs


def cards_seen(cards: list[str], lang: int) -> str:
    """Moved cards as a viewer saw them: the seen ones by name, the others counted."""
    seen = [c for c in cards if c != say("a_card", lang)]
    unseen = len(cards) - len(seen)
    if not unseen:
        return " ".join(counted(seen))
    if seen:
        return say("and_n_cards", lang, cs=" ".join(counted(seen)), n=unseen)
    return say("a_card", lang) if unseen == 1 else say("n_cards", lang, n=unseen)


def zone_body(z: dict[str, Any], labels: dict[str, str], lang: int = 0, line: bool = False) -> str:
    """A zone's cards on one line; ``line``: a row of a sequence, whose cards read as a line of
    places, left to right, with no "◀ top" (rows of one layout look alike)."""
    shown = z["cards"]
    if z["size"] == 0:
        return "—"
    if all(c is None for c in shown):
        return say("one_card", lang) if z["size"] == 1 else say("cards", lang, n=z["size"])
    # piles list bottom first; a pile shown sorted has no top on screen
    top = "  " + say("top", lang) if z.get("pile") and not z.get("sorted") and not line and z["size"] > 1 \
        and shown[-1] is not None and len({labels.get(c, c) for c in shown}) > 1 else ""  # one card alike all through: no top
    body = cards(shown, labels, z.get("peeked", ()))
    if any(c is None for c in shown):
        return f"{body}{top}  ({z['size']})"
    return body + top


def render_sequences(v: dict[str, Any], labels: dict[str, str], lang: int = 0) -> list[str]:
    """Sequences of zones, one zone per row, front first. In a two-player game the rows of a per-player
    sequence face each other: the other player's back at the top, the two front zones touching in
    the middle, the viewer's (or P0's) back at the bottom. (With more players, two rows on screen are
    the others hidden while empty, `if false`: listed like the rest.)"""
    sequences: dict[str, list[str]] = v.get("sequences", {})
    zone_labels: dict[str, str] = v.get("zone_labels", {})
    zones = v["zones"]
    me = v["viewer"]
    seat = seat_namer(v)
    groups: dict[str, dict[int | None, list[str]]] = {}
    for key, names in sequences.items():
        m = re.fullmatch(r"(.+)\[P(\d+)\]", key)
        base, owner = (m.group(1), int(m.group(2))) if m else (key, None)
        groups.setdefault(base, {})[owner] = names

    def row(tag: str, name: str) -> str:
        z = zones.get(name, {"size": 0, "cards": []})
        own = name if not re.fullmatch(r".+\[\d+\]", name) else ""      # a declared zone in the row
        return f"    {pad(tag, 10)}│ " + (f"{observe.called(own, zone_labels, v.get('seat_names'))}: " if own else "") \
            + zone_body(z, labels, line=True)

    out: list[str] = []
    for name, by_owner in groups.items():
        base = zone_labels.get(name, name)          # the sequence as players call it
        owners = sorted(by_owner, key=lambda o: -1 if o is None else o)
        if len(owners) == 2 and None not in owners and v["players"] == 2:
            near = me if me in owners else owners[0]
            far = owners[1] if near == owners[0] else owners[0]
            out.append("  " + say("seq_facing", lang, z=base, far=far, near=near))
            far_rows = by_owner[far]
            for i in reversed(range(len(far_rows))):
                out.append(row(f"{seat(far)} [{i}]", far_rows[i]))
            out.append("    " + "─" * 10 + "┼" + "─" * 12 + " " + say("seq_front", lang))
            for i, name in enumerate(by_owner[near]):
                out.append(row(f"{seat(near)} [{i}]", name))
            continue
        for owner in owners:
            who = f"[{seat(owner)}]" if owner is not None else ""
            out.append("  " + say("seq_front_first", lang, z=f"{base}{who}") + ("" if by_owner[owner] else say("seq_empty", lang)))
            for i, name in enumerate(by_owner[owner]):
                out.append(row(f"[{i}]", name))
    return out


def seat_namer(v: dict[str, Any]) -> Callable[[int | None], str]:
    """A player as the view's reader calls them: the seat's name (`seats`), else P1."""
    names: list[str] = v.get("seat_names") or []
    return lambda q: "—" if q is None else names[q] if q < len(names) else f"P{q}"


def render(v: dict[str, Any], lang: int = 0, log_lines: int = 8, title: str = "",
           order: dict[str, int] | None = None, people: dict[int, str] | None = None) -> str:
    """The screen of ``fuda play``. ``order``: card name → deck position, to show the viewer's own
    hands sorted (a hand has no order a player needs; the view keeps the real one) — unless the
    ruleset sorts them itself (``show … sorted by``: the view's ``order``). ``people``: who plays a
    seat, shown beside it (a persona's name, a bot's kind)."""
    by = v.get("order") or order
    out: list[str] = []
    labels: dict[str, str] = v.get("labels", {})
    me = v["viewer"]
    seat = seat_namer(v)
    head = f"== {title or v['ruleset']} — {say('head_phase', lang, x=v.get('phase_label', v['phase']))}"
    deciding = v.get("to_move") or []
    if len(deciding) <= 1 and v.get("turn_begun", True):     # a simultaneous choice is nobody's turn
        head += " — " + say("head_turn", lang, p=seat(v["current"]))
    if deciding and deciding != [v["current"]]:     # an answer out of turn, a simultaneous choice
        head += " — " + say("to_decide", lang, ps=", ".join(seat(q) for q in deciding))
    if me is not None:
        head += " — " + say("you_are", lang, p=seat(me))
    out.append(head + " ==")
    seats = []
    score_name = v.get("score_label")      # a labelled score is shown from the start
    keeps_score = score_name is not None or any(s["score"] for s in v["seats"])     # then a 0 is a score too
    for s in v["seats"]:
        mark = say("you", lang) if s["player"] == me else ""
        # once the game is over, the results say every place: no seat is "out" more than another
        extra = "" if not s["out"] or v.get("over") else \
            say("out_place", lang, n=s["place"]) if s["place"] else say("sitting_out", lang)
        score = "" if not keeps_score else f" {score_name} {_number(s['score'] or 0)}" if score_name \
            else say("score", lang, s=_number(s["score"] or 0))
        who = f" {people[s['player']]}" if people and s["player"] in people else ""
        seats.append(f"{seat(s['player'])}{who}{mark}{extra}{score}")
    types = v.get("var_types", {})
    # enum members by their labels, in the view's language; players by their seats' names; cards as
    # the zones show them
    members = {**v.get("enum_labels", {}), "player": {str(q): x for q, x in enumerate(v.get("seat_names") or [])},
               "card": labels}
    named: dict[str, str] = v.get("var_labels", {})     # a variable without a label is bookkeeping
    per_seat = [k for k, x in v["vars"].items() if k in named and isinstance(x, dict)]
    if per_seat:        # chips, bets, flags: one line a seat, like a table's place cards
        out.append(say("seats", lang).rstrip())
        wide = max(width(x) for x in seats)
        for s, text in zip(v["seats"], seats, strict=True):
            who = f"P{s['player']}"
            entries = [f"{named[k]} {_val(v['vars'][k][who], types.get(k, ''), lang, members)}"
                       for k in per_seat if who in v["vars"][k]]
            out.append(f"  {pad(text, wide)}  " + " · ".join(entries))
    else:
        out.append(say("seats", lang) + " | ".join(seats))
    grids: dict[str, dict[tuple[int, int], dict[str, Any]]] = {}
    seqs: dict[str, list[tuple[int, list[str | None]]]] = {}
    sequences: dict[str, list[str]] = v.get("sequences", {})
    in_seq = {n for names in sequences.values() for n in names}
    families: dict[str, list[str]] = {}      # per-player zones: one line for a family all empty
    for name in v["zones"]:
        m = re.fullmatch(r"(.+)\[P\d+\]", name)
        if m:
            families.setdefault(m.group(1), []).append(name)
    empty = {f: names for f, names in families.items()
             if len(names) > 1 and all(not v["zones"][n]["cards"] for n in names)}
    # some of a family empty (a hand laid down by the one partner who sits out): one line for them
    blank = {f: [n for n in names if not v["zones"][n]["size"]] for f, names in families.items() if f not in empty}
    blank = {f: names for f, names in blank.items() if len(names) > 1}
    zl: dict[str, str] = v.get("zone_labels", {})
    passing = set(v.get("transient_zones", ()))

    def called(name: str) -> str:
        return observe.called(name, zl, v.get("seat_names"))

    for name, z in v["zones"].items():
        if not z["size"] and re.fullmatch(r"[^\[\]]+(\[P\d+\])?", name) and \
                (name.split("[", 1)[0] not in zl or name.split("[", 1)[0] in passing):
            continue            # an unlabelled or `transient` zone while empty: a place cards only pass through
        m = re.fullmatch(r"(.+)\[P\d+\]", name)
        if m and m.group(1) in empty:
            names = empty[m.group(1)]
            if name == names[0]:
                last = called(names[-1])[len(called(m.group(1))):]     # "[P3]", or the seat's name
                out.append(f"  {pad(f'{called(name)}…{last}', 18)} {zone_body(z, labels, lang)}")
            continue
        if m and m.group(1) in blank and name in blank[m.group(1)]:
            names = blank[m.group(1)]
            if name == names[0]:
                rest = "".join(", " + called(n)[len(called(m.group(1))):] for n in names[1:])
                out.append(f"  {pad(called(name) + rest, 18)} {zone_body(z, labels, lang)}")
            continue
        m = re.fullmatch(r"(.+)\[(\d+),(\d+)\]", name)
        if m:
            grids.setdefault(m.group(1), {})[(int(m.group(2)), int(m.group(3)))] = z
            continue
        if name in in_seq:
            continue            # drawn with its sequence below
        m = re.fullmatch(r"(.+\[P\d+\]|[^\[\]]+)\[(\d+)\]", name)
        if m and not sequences:
            seqs.setdefault(m.group(1), []).append((int(m.group(2)), z["cards"]))
            continue
        mine = f"[P{me}]" in name
        if (mine and not z.get("pile") or z.get("sorted")) and by and None not in z["cards"]:
            ix = sorted(range(z["size"]), key=lambda i: by.get(z["cards"][i], 0))
            peeked = set(z.get("peeked", ()))
            z = {**z, "cards": [z["cards"][i] for i in ix], "peeked": [k for k, i in enumerate(ix) if i in peeked]}
        out.append(f"  {pad(called(name) + (say('you', lang) if mine else ''), 18)} {zone_body(z, labels, lang)}")
    cv = v.get("card_vars", {})
    for gname, cells in grids.items():
        w = max(x for x, _ in cells) + 1
        h = max(y for _, y in cells) + 1
        out.append(f"  {called(gname)}:")
        # a square holding more cards than its top one says how many (a pile under the top card)
        colw = max([6] + [width(labels.get(c or "", c or "")) + (4 if z.get("peeked") else 2)
                          + (len(f"({len(z['cards'])})") if len(z["cards"]) > 1 else 0)
                          for z in cells.values() for c in z["cards"]])
        out.append("     " + "".join(pad(f"{x}", colw) for x in range(w)))
        for y in range(h):
            row = []
            for x in range(w):
                cell = cells.get((x, y), {"size": 0, "cards": []})
                cs = cell["cards"]
                top = cs[-1] if cs else None
                txt = "·" if not cs else cards([top], labels, [0] if len(cs) - 1 in cell.get("peeked", ()) else [])
                if top and top in cv and top not in labels:
                    flags = "".join(k[0] for k, val in cv[top].items() if val is True)
                    txt += f"*{flags}" if flags else ""
                txt += f"({len(cs)})" if len(cs) > 1 else ""
                row.append(pad(txt, colw))
            out.append(f"   {y} " + "".join(row))
    for sname, lines in seqs.items():
        lines.sort()
        out.append(f"  {called(sname)}: " + "  |  ".join(cards(c, labels) or "—" for _, c in lines) + "   (front → back)")
    out.extend(render_sequences(v, labels, lang))
    shown_vars = [f"{named[k]} = {_val(x, types.get(k, ''), lang, members)}" for k, x in v["vars"].items()
                  if k in named and k not in per_seat]
    out.extend(_wrapped(shown_vars))
    in_sight = _cards_in_sight(v, me)
    # each card with the zone it lies in: three Wilds alike on three groups read apart
    where = {c: called(name) for name, z in v["zones"].items() for c in z["cards"] if c}
    card_lines = [f"{labels.get(c, c)} ({where[c]}): "
                  + ", ".join(f"{named[k]} = {_val(x, types.get(k, ''), lang, members)}" for k, x in vals.items() if k in named)
                  for c, vals in cv.items() if c in in_sight and any(k in named for k in vals)]
    marks = [f"{called(name)}[{i}]: " + ", ".join(f"{named[k]} = {_val(x, types.get(k, ''), lang, members)}"
                                                  for k, x in vals.items() if k in named)
             for name, z in v["zones"].items() for i, vals in z.get("marks", {}).items()
             if any(k in named for k in vals)]        # `back` variables of cards out of sight
    out.extend(_wrapped((card_lines if not grids else []) + marks, sep="; "))
    if v["stack"]:
        out.append("  " + say("stack", lang) + " ; ".join(
            f"#{it['id']} {it.get('label', it['effect'])}{say('stack_by', lang, p=seat(it['controller']))}"
            + (f" ({labels.get(it['source'], it['source'])})" if it["source"] else "")
            + (f" ×{it['times']}" if it["times"] != 1 else "") + (say("negated", lang) if it["negated"] else "")
            + "".join(f" · {label} {_field(it[name], code, lang, members)}" for name, code, label in it.get("fields", []))
            for it in v["stack"]))
    # what the screen shows already: cards where they lie, whose turn it is, a row's zones
    # (but the cards handed to the viewer from another player's zone, one line a pass: they arrive
    # unseen, the cards the viewer drew into their hand, which the hand does not tell apart, and the
    # cards the viewer saw go into another's hand, where the screen does not show them)
    recent: list[str] = []
    handed = ""
    moved: list[str] = []
    for e in v["log"]:
        if e.get("quiet") or e["kind"] in ("turn", "insert", "remove_zone") or \
                e["kind"] == "move" and "seen_into" not in e and not e.get("drawn") \
                and (e.get("handed_to") != me or me is None):
            continue
        if e["kind"] == "move" and handed == e["path"]:     # ♣Q ♦6: Passed[P3] → Hand[P0]; unseen ones counted
            moved.append(e["text"].rpartition(": ")[0])
            recent[-1] = f"{cards_seen(moved, lang)}: {recent[-1].rpartition(': ')[2]}"
            continue
        handed = e["path"] if e["kind"] == "move" else ""
        moved = [e["text"].rpartition(": ")[0]]
        recent.append(e["text"])
    log = fold_reveals(recent, lang)[-log_lines:]
    if log:
        out.append(say("recent", lang))
        out.extend(f"  · {text}" for text in log)
    if v.get("chosen"):
        out.append("  " + say("chosen", lang) + ", ".join(seat(p) for p in v["chosen"]))
    if v.get("over"):
        out.append(result_line(v.get("result") or [], v.get("score_label"), seat, lang))
    return "\n".join(out)


def result_line(res: list[dict[str, Any]], score_name: str | None, seat: Callable[[int], str], lang: int) -> str:
    """``result: North win (place 1), …`` — the end of a screen and of a replay. The scores are shown
    when the ruleset names its score or any seat scored: a game that keeps no score shows none."""
    scored = score_name is not None or any(r["score"] for r in res)
    return say("result", lang) + ", ".join(
        say("result_one", lang, p=seat(r["player"]), o=say(r["outcome"], lang) if r["outcome"] else "—",
            n=r["place"], s=(f", {score_name} {_number(r['score'])}" if score_name else
                             say("result_score", lang, s=_number(r["score"]))) if scored else "") for r in res)


def fold_reveals(texts: list[str], lang: int = 0) -> list[str]:
    """Reveals of several cards in a row as one line, ``reveal ♠8 ♥8 ♦8 to everyone``, and so hides:
    ``♠8 ♥8 ♦8 out of sight again`` (a hand shown to one player and hidden again: an Uno challenge)."""
    reveal = re.escape(say("reveal", lang, c="CARDS", to="WHOM")).replace("CARDS", "(.+?)").replace("WHOM", "(.+)")
    hides = [(w, re.escape(say(w, lang, c="CARDS")).replace("CARDS", "(.+?)")) for w in ("hide", "hide_seen")]
    out: list[str] = []
    for t in texts:
        if out and (m := re.fullmatch(reveal, t)) and (prev := re.fullmatch(reveal, out[-1])) \
                and prev.group(2) == m.group(2):
            out[-1] = say("reveal", lang, c=f"{prev.group(1)} {m.group(1)}", to=m.group(2))
            continue
        for word, rx in hides:
            if out and (h := re.fullmatch(rx, t)) and (was := re.fullmatch(rx, out[-1])):
                out[-1] = say(word, lang, c=f"{was.group(1)} {h.group(1)}")
                break
        else:
            out.append(t)
    return out


def _wrapped(items: list[str], sep: str = ", ", width: int = 100) -> list[str]:
    """Items on indented lines of about ``width`` characters, never split inside an item."""
    lines: list[str] = []
    for it in items:
        if lines and len(lines[-1]) + len(sep) + len(it) <= width:
            lines[-1] += sep + it
        else:
            lines.append("  " + it)
    return lines


def _cards_in_sight(v: dict[str, Any], me: int | None) -> set[str]:
    """The cards whose variables the screen shows: the viewer's own, those of hands (also another
    player's hand in sight: Hanabi's clues) and of zones in a sequence (lines of cards), and the top
    card of every pile — not a whole discard pile's history."""
    seq_zones = {n for names in v.get("sequences", {}).values() for n in names}
    out: set[str] = set()
    for name, z in v["zones"].items():
        cards = [c for c in z["cards"] if c]
        if f"[P{me}]" in name or name in seq_zones or not z.get("pile") or z.get("sorted"):
            out.update(cards)
        elif z["cards"] and z["cards"][-1]:
            out.add(z["cards"][-1])
    return out


def _number(x: Any) -> Any:
    """125, not 125.0: a whole number as the log writes it."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def _val(x: Any, code: str = "", lang: int = 0, members: dict[str, dict[str, str]] | None = None) -> str:
    """A variable's value for the terminal as the language writes it: players as P1, true/false
    (はい/いいえ), none as —, a member of an enum by its label (``members``: the view's enum_labels),
    a card by its label (``members["card"]``: the view's labels), also in a list."""
    if x is None or x == "" or x == []:      # nothing yet, as an empty zone shows
        return "—"
    if isinstance(x, bool):
        return say("true" if x else "false", lang)
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else repr(round(x, 10))
    if isinstance(x, dict):         # a per-player variable: P0: 1, P1: 3 (North: 1, East: 3 with `seats`)
        seats = (members or {}).get("player", {})
        return ", ".join(f"{seats.get(k[1:], k)}: {_val(v, code, lang, members)}" for k, v in x.items())
    if isinstance(x, list):
        return "[" + ", ".join(_val(v, code[5:] if code.startswith("list:") else "", lang, members) for v in x) + "]"
    if code == "card" and isinstance(x, str):
        return (members or {}).get("card", {}).get(x, x)
    if code == "player" and isinstance(x, int) and not isinstance(x, bool):
        return (members or {}).get("player", {}).get(str(x), f"P{x}")
    if code.startswith("enum:") and members:
        return members.get(code[5:], {}).get(str(x), str(x))
    return str(x)


def _field(x: Any, code: str, lang: int, members: dict[str, dict[str, str]] | None = None) -> str:
    """A stack item's field on screen: another item as #id, the rest as variables show."""
    return f"#{x}" if code == "item" and x is not None else _val(x, code, lang, members)


def render_choices(decision: dict[str, Any], lang: int = 0, columns: int | None = None,
                   card_labels: dict[str, str] | None = None) -> str:
    """The numbered legal actions; a long list in columns across the terminal (``columns``: its
    width), numbered down each column, so that the board above stays on the screen.
    ``card_labels``: the view's, to write a folded entry's example as the player reads the cards."""
    lines = []
    if decision.get("prompt"):
        lines.append(half(decision["prompt"], lang))
    entries = []
    legal = decision["legal"]
    i = 0
    ids = [a["id"] for a in legal]
    counts = Counter(x.split(" ", 1)[0] for x in ids)
    labels = menu_labels(legal, lang)
    folded: set[str] = set()
    while i < len(legal):
        run, prefix, lo, hi, step = number_run(ids, i)
        if run > 1:         # `raise 40` … `raise 1000`: one entry, typed as `raise N` or by number
            every = "" if step == 1 else say("run_step", lang, n=step)
            entries.append(f"{i + 1:>2}–{i + run}. {prefix} {lo}..{hi}{every}")
            i += run
            continue
        name = ids[i].split(" ", 1)[0]
        if counts[name] > _MANY:    # Hearts' 286 passes of three cards: one entry, typed by its cards
            if name not in folded:
                folded.add(name)
                run = next(k for k in range(i, len(ids) + 1) if k == len(ids) or ids[k].split(" ", 1)[0] != name) - i
                # its numbers, when they run in a row (not spread through the hand's order)
                at = f"{i + 1:>2}–{i + run}. " if run == counts[name] else "    "
                entries.append(at + say("many_choices", lang, a=name, n=counts[name],
                                        ex=typed_by_label(ids[i], card_labels or {})))
            i += 1
            continue
        entries.append(f"{i + 1:>2}. {menu_entry(legal[i], labels, lang)}")
        i += 1
    term = columns if columns is not None else shutil.get_terminal_size((100, 40)).columns
    wide = max((width(e) for e in entries), default=0) + 3
    ncol = max(1, min(6, (term - 2) // wide)) if len(entries) > _ONE_COLUMN else 1
    nrow = -(-len(entries) // ncol)
    for r in range(nrow):
        row = [entries[c * nrow + r] for c in range(ncol) if c * nrow + r < len(entries)]
        lines.append("  " + "".join(pad(e, wide) for e in row[:-1]) + row[-1])
    return "\n".join(lines)


def typed_by_label(action_id: str, card_labels: dict[str, str]) -> str:
    """An action's id with its cards by their labels (`exchange Diamonds Gold`, not `dia1 gold5`),
    as a player who sees only the labels types it; labels of several words apart by commas."""
    name, *values = action_id.split(" ")
    shown = [card_labels.get(v, v) for v in values]
    return " ".join([name, (", " if any(" " in v for v in shown) else " ").join(shown)]) if shown else name


def menu_entry(a: dict[str, Any], labels: Counter[str], lang: int) -> str:
    """A legal action (``a``: its entry in a view's decision) as the menu shows it: its label alone
    where that names it, else its id with the label after it. ``labels``: how many of the menu's
    actions read each label (casefolded), for a label shared by several."""
    label = half(a.get("label"), lang)
    same = label is not None and label.casefold() in (a["id"].casefold(), a["id"].replace("_", " ").casefold())
    extra = f" ({label})" if label and not same else ""       # a label that only repeats the id is left out
    # one that names every value of the id (`play ♥A` as "lead ♥A"; a card by its label: `play blue6`
    # as "play Blue 6", ``read``), unique and so typed as it reads; judged on the English half, whose
    # words are the ids' (銀 is how the Japanese half says silver)
    en = {t.strip(",.;:()") for t in (half(a.get("label"), 0) or "").casefold().split()}
    names_all = " " in a["id"] and label is not None and labels[label.casefold()] == 1 and any(
        all(w.strip(",") in en for w in ids.casefold().split()[1:]) for ids in (a["id"], a.get("read", a["id"])))
    en_label = half(a.get("label"), 0).casefold()
    en_same = en_label != "" and en_label in (a["id"].casefold(), a["id"].replace("_", " ").casefold())
    if label and not same and (a.get("copy") or names_all
                               or " " in a["id"] and label.casefold().startswith(a["id"].casefold() + " ")
                               or " " not in a["id"] and en_same and labels[label.casefold()] == 1):
        # one that goes on from a whole id is shown alone, one naming a card by the name of its copy
        # (`play R7a`: players see a Red 7, and type it), and an option without values whose English
        # half is its id (`withdraw "withdraw | 取り下げる"`): the label only says the id in Japanese
        return label
    return f"{a['id']}{extra}"


def menu_labels(legal: list[dict[str, Any]], lang: int) -> Counter[str]:
    """How many of a menu's actions read each label (casefolded): see menu_entry."""
    return Counter(half(a.get("label"), lang).casefold() for a in legal)


_ONE_COLUMN = 12        # choices listed one a line up to this many
_MANY = 60              # more actions of one option than this are one entry (a bridge auction's 35 bids are not)
_NUMBERED = re.compile(r"^(.*\S) (-?\d+)$")
_RUN = 6                # this many actions that differ only by an evenly spaced last number make one entry


def number_run(ids: list[str], i: int) -> tuple[int, str, int, int, int]:
    """The run of actions from ``ids[i]`` on that differ only by a last number in even steps:
    (length, prefix, first number, last number, step); length 1 when there is none."""
    none = (1, "", 0, 0, 0)
    m = _NUMBERED.match(ids[i])
    if m is None or i + 1 >= len(ids):
        return none
    m2 = _NUMBERED.match(ids[i + 1])
    lo = int(m.group(2))
    if m2 is None or m2.group(1) != m.group(1) or int(m2.group(2)) <= lo:
        return none
    step = int(m2.group(2)) - lo
    n = 2
    while i + n < len(ids):
        mk = _NUMBERED.match(ids[i + n])
        if mk is None or mk.group(1) != m.group(1) or int(mk.group(2)) != lo + n * step:
            break
        n += 1
    return (n, m.group(1), lo, lo + (n - 1) * step, step) if n >= _RUN else none


def compact_ids(ids: list[str]) -> list[str]:
    """Action ids with each run of numbers written once (`raise 40..1000`), for messages."""
    out = []
    i = 0
    while i < len(ids):
        n, prefix, lo, hi, step = number_run(ids, i)
        out.append(ids[i] if n == 1 else f"{prefix} {lo}..{hi}" + (f" (step {step})" if step != 1 else ""))
        i += n
    return out


_WRITTEN_RUN = re.compile(r"^(.*\S) (-?\d+)\.\.(-?\d+)(?: \(step (\d+)\))?$")


def run_ids(a: str) -> list[str]:
    """The actions a run written as ``compact_ids`` writes it stands for (`bet 2..5`: bet 2 … bet 5),
    a run of any length copied or cut from a listing; anything else stands for itself."""
    m = _WRITTEN_RUN.match(a)
    if m is None:
        return [a]
    lo, hi, step = int(m.group(2)), int(m.group(3)), int(m.group(4) or 1)
    return [f"{m.group(1)} {k}" for k in range(lo, hi + 1, step)] if lo <= hi and step > 0 else [a]


def folded_listing(message: str) -> str:
    """A refusal's list of legal actions with runs of amounts written once (`raise 40..990 (step
    10)`), as `fuda play` lists them (scenarios, replays): a hundred bet sizes would bury the failure."""
    head, sep, listing = message.partition("; legal actions:\n")
    if not sep:
        return message
    ids = [re.sub(r"^\s*\d+\.\s", "", line) for line in listing.splitlines()]
    return head + sep + "\n".join(f"  {a}" for a in compact_ids(ids))
