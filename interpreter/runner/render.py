"""Plain-terminal rendering of a view (never of a state): zones, grids as boards, sequences as
rows of zones, variables, the stack, recent events and the decision with numbered choices."""

from __future__ import annotations

import re
import unicodedata
from typing import Any


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


def cards(cs: list[str | None], labels: dict[str, str] | None = None) -> str:
    labels = labels or {}
    return " ".join(labels.get(c, c) if c is not None else "▒" for c in cs)


def render(v: dict[str, Any], lang: int = 0, log_lines: int = 8, title: str = "") -> str:
    out: list[str] = []
    labels: dict[str, str] = v.get("labels", {})
    me = v["viewer"]
    head = f"== {title or v['ruleset']} — phase {v['phase']} — turn P{v['current']}"
    if me is not None:
        head += f" — you are P{me}"
    out.append(head + " ==")
    seats = []
    for s in v["seats"]:
        mark = " (you)" if s["player"] == me else ""
        extra = f" out #{s['place']}" if s["out"] else ""
        score = f" score {s['score']}" if s["score"] else ""
        seats.append(f"P{s['player']}{mark}{extra}{score}")
    out.append("seats: " + " | ".join(seats))
    grids: dict[str, dict[tuple[int, int], list[str | None]]] = {}
    seqs: dict[str, list[tuple[int, list[str | None]]]] = {}
    for name, z in v["zones"].items():
        m = re.fullmatch(r"(.+)\[(\d+),(\d+)\]", name)
        if m:
            grids.setdefault(m.group(1), {})[(int(m.group(2)), int(m.group(3)))] = z["cards"]
            continue
        m = re.fullmatch(r"(.+\[P\d+\]|[^\[\]]+)\[(\d+)\]", name)
        if m:
            seqs.setdefault(m.group(1), []).append((int(m.group(2)), z["cards"]))
            continue
        mine = f"[P{me}]" in name
        shown = z["cards"]
        if z["size"] == 0:
            body = "—"
        elif all(c is None for c in shown):
            body = f"{z['size']} card{'s' if z['size'] != 1 else ''}"
        elif any(c is None for c in shown):
            body = f"{cards(shown, labels)}  ({z['size']})"
        else:
            body = cards(shown, labels)
        out.append(f"  {pad(name + (' (you)' if mine else ''), 18)} {body}")
    cv = v.get("card_vars", {})
    for gname, cells in grids.items():
        w = max(x for x, _ in cells) + 1
        h = max(y for _, y in cells) + 1
        out.append(f"  {gname}:")
        colw = max([6] + [width(labels.get(c or "", c or "")) + 2 for cs in cells.values() for c in cs])
        out.append("     " + "".join(pad(f"{x}", colw) for x in range(w)))
        for y in range(h):
            row = []
            for x in range(w):
                cs = cells.get((x, y), [])
                top = cs[-1] if cs else None
                txt = "·" if not cs else (labels.get(top, top) if top else "▒")
                if top and top in cv and top not in labels:
                    flags = "".join(k[0] for k, val in cv[top].items() if val is True)
                    txt += f"*{flags}" if flags else ""
                row.append(pad(txt, colw))
            out.append(f"   {y} " + "".join(row))
    for sname, lines in seqs.items():
        lines.sort()
        out.append(f"  {sname}: " + "  |  ".join(cards(c, labels) or "—" for _, c in lines) + "   (front → back)")
    if v["vars"]:
        out.append("  " + ", ".join(f"{k} = {_val(x)}" for k, x in v["vars"].items()))
    if cv and not grids:
        out.append("  " + ", ".join(f"{c}: {vals}" for c, vals in cv.items()))
    if v["stack"]:
        out.append("  stack (top last): " + " ; ".join(
            f"#{it['id']} {it['effect']} by P{it['controller']}" + (f" ({it['source']})" if it["source"] else "")
            + (f" ×{it['times']}" if it["times"] != 1 else "") + (" NEGATED" if it["negated"] else "")
            for it in v["stack"]))
    log = [e for e in v["log"] if e["kind"] not in ("move", "turn")][-log_lines:]
    if log:
        out.append("recent:")
        out.extend(f"  · {e['text']}" for e in log)
    if v.get("chosen"):
        out.append("  already chosen: " + ", ".join(f"P{p}" for p in v["chosen"]))
    if v.get("over"):
        res = v.get("result") or []
        out.append("result: " + ", ".join(f"P{r['player']} {r['outcome']} (place {r['place']}"
                                            + (f", score {r['score']}" if r["score"] else "") + ")" for r in res))
    return "\n".join(out)


def _val(x: Any) -> str:
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_val(v)}" for k, v in x.items()) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_val(v) for v in x) + "]"
    return str(x)


def render_choices(decision: dict[str, Any], lang: int = 0) -> str:
    lines = []
    if decision.get("prompt"):
        lines.append(half(decision["prompt"], lang))
    for i, a in enumerate(decision["legal"]):
        label = half(a.get("label"), lang)
        extra = f"   ({label})" if label and label != a["id"] else ""
        lines.append(f"  {i + 1:>2}. {a['id']}{extra}")
    return "\n".join(lines)
