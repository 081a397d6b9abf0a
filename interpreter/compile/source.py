"""The generated code as text: the label blocks of a resumable procedure and the passes over them
(jumps threaded, short tails duplicated, unused alias prologues dropped), and the quiet copy of the
module that playouts run without writing events.
"""

from __future__ import annotations

import re


class _Block:
    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[tuple[int, str, int]] = []


_JUMP = re.compile(r"(L = |fr\[1\] = )(\d+)")


def _thread_jumps(blocks: list[_Block]) -> list[_Block]:
    """Follow blocks that only jump, drop blocks nothing reaches, and renumber the rest."""
    alias: dict[int, int] = {}
    for i, b in enumerate(blocks):
        if len(b.lines) == 1:
            m = re.fullmatch(r"L = (\d+); continue", b.lines[0][1])
            if m and b.lines[0][0] == 0:
                alias[i] = int(m.group(1))

    def final(k: int) -> int:
        seen = set()
        while k in alias and k not in seen:
            seen.add(k)
            k = alias[k]
        return k

    def retarget(text: str) -> str:
        return _JUMP.sub(lambda m: m.group(1) + str(final(int(m.group(2)))), text)

    lines = [[(ind, retarget(t), sp) for ind, t, sp in b.lines] for b in blocks]
    reached = {final(0)}
    todo = [final(0)]
    while todo:
        k = todo.pop()
        for _, t, _ in lines[k]:
            for m in _JUMP.finditer(t):
                j = int(m.group(2))
                if j not in reached:
                    reached.add(j)
                    todo.append(j)
    order = [k for k in range(len(blocks)) if k in reached]
    if order[0] != final(0):
        order.remove(final(0))
        order.insert(0, final(0))
    new = {k: i for i, k in enumerate(order)}
    out = []
    for k in order:
        nb = _Block()
        nb.lines = [(ind, _JUMP.sub(lambda m: m.group(1) + str(new[int(m.group(2))]), t), sp)
                    for ind, t, sp in lines[k]]
        out.append(nb)
    return out


def _duplicate_tails(blocks: list[_Block], limit: int = 24, passes: int = 3) -> None:
    """Replace a jump to a small block by a copy of that block, so straight-line paths (a decision's
    continuation up to the next decision) run without going back through the dispatcher."""
    jump = re.compile(r"(?:(.*); )?L = (\d+); continue$")
    for _ in range(passes):
        changed = False
        for i, b in enumerate(blocks):
            out: list[tuple[int, str, int]] = []
            for ind, text, sp in b.lines:
                m = jump.fullmatch(text)
                k = int(m.group(2)) if m else -1
                if m and k != i and 0 < len(blocks[k].lines) <= limit and not _jumps_to(blocks[k], i):
                    if m.group(1):
                        out.append((ind, m.group(1), sp))
                    out.extend((ind + d, t, s) for d, t, s in blocks[k].lines)
                    changed = True
                else:
                    out.append((ind, text, sp))
            b.lines = out
        if not changed:
            break


def _jumps_to(b: _Block, target: int) -> bool:
    return any(re.search(rf"\bL = {target}; continue", t) for _, t, _ in b.lines)


_ALIASES = "Z = st.z; G = st.g; LOC = st.loc"
# top(z) of a zone at a fixed slot, as builtins._top1 writes it: it cannot fail, so it may be read early
_TOP_OF_SLOT = re.compile(r"\((\(Z\[(\d+)\]\[-1\] if Z\[\2\] else None\))\)")


def _prune_prologues(out: list[tuple[int, str, int]]) -> None:
    """A function that begins with the three state aliases keeps only those its body uses
    (the line stays, so line numbers still map to rule spans)."""
    for i, (ind, text, sp) in enumerate(out):
        if ind != 1 or not text.startswith(_ALIASES) or i == 0 or out[i - 1][0] != 0:
            continue
        body = []
        for ind2, t2, _ in out[i + 1:]:
            if ind2 == 0:
                break
            body.append(t2)
        rest = text[len(_ALIASES):]
        used = "\n".join(body) + rest
        kept = [f"{n} = st.{a}" for n, a in (("Z", "z"), ("G", "g"), ("LOC", "loc")) if re.search(rf"\b{n}\b", used)]
        out[i] = (ind, "; ".join(kept) + rest if kept else rest.removeprefix("; ") or "pass", sp)


def quiet_source(source: str) -> str:
    """The generated module without its events (``st.ev.append(…)`` becomes ``None``, which
    Python compiles to nothing, so every line keeps its number and rule span): for playouts whose log nobody reads (Game.playout quiet)."""
    key = "st.ev.append("
    out: list[str] = []
    i = 0
    while (j := source.find(key, i)) >= 0:
        out.append(source[i:j])
        k = j + len(key)
        depth = 1
        while depth:
            ch = source[k]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch in "'\"":           # a string: skip to its end (escapes included)
                k += 1
                while source[k] != ch:
                    k += 2 if source[k] == "\\" else 1
            k += 1
        pure = all(_pure(m.group(1)) for m in _CALLED.finditer(source, j + len(key), k - 1))
        out.append("None" if pure else source[j:k])   # a call that may draw: kept
        i = k
    out.append(source[i:])
    return "".join(out)


_CALLED = re.compile(r"([A-Za-z_][\w.]*)\s*\(")
# what an event's values may call and still be left out: nothing that changes the state or draws
_PURE_IN_EVENTS = {"if", "else", "and", "or", "not", "in", "tuple", "len", "min", "max", "sum", "_amask", "_next",
                   "_cell_card", "_active", "_top", "_zone_text", "_fmt", "_int_text", "st.game.act_event"}
# the ruleset's functions (no randomness in them: E313) and the compiler's aggregate helpers
_PURE_GENERATED = re.compile(r"F_\w+|AG\d+")


def _pure(name: str) -> bool:
    return name in _PURE_IN_EVENTS or _PURE_GENERATED.fullmatch(name) is not None
