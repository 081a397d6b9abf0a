"""One error family for everything a user can get wrong: rulesets, options, scenarios, replays, moves.

Every diagnostic carries a span (file, line, column, end) and a short code, and prints as
``file:line:col: error[code]: message`` followed by the source line, a caret under the span and an
optional hint. Python tracebacks are never the user's error report.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    # which written-out copy of this text (an options group's, at each `use`; sugar.py): two copies
    # of a binder are two locals, though they print, and are reported, alike
    copy: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def within(self, outer: Span) -> bool:
        """Whether this span lies inside ``outer`` (a statement in a block, a block in a phase)."""
        return self.file == outer.file and (outer.line, outer.col) <= (self.line, self.col) \
            and (self.end_line, self.end_col) <= (outer.end_line, outer.end_col)


NO_SPAN = Span("<unknown>", 0, 0, 0, 0)


@dataclass(slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    hint: str | None = None
    severity: str = "error"
    subject: str | None = None    # the option a value error is about, so a caller can show where it was given

    def __post_init__(self) -> None:
        if self.span.copy:      # a mistake in an options group is one mistake, however often it is used
            self.span = Span(self.span.file, self.span.line, self.span.col, self.span.end_line, self.span.end_col)

    def format(self, sources: dict[str, str] | None = None) -> str:
        head = f"{self.severity}[{self.code}]: {self.message}"
        if self.span.line > 0:
            head = f"{self.span}: {head}"
        elif self.span.file != NO_SPAN.file:    # a whole file (or <options>, <action>): no line to show
            head = f"{self.span.file}: {head}"
        lines = [head]
        text = (sources or {}).get(self.span.file)
        if text is not None and self.span.line > 0:
            src_lines = text.splitlines()
            if self.span.line <= len(src_lines):
                src = src_lines[self.span.line - 1]
                lines.append(f"    {src}")
                start = max(self.span.col - 1, 0)
                if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                    end = start + self.span.end_col - self.span.col
                else:
                    end = len(src)
                width = len(_pad(src[start:end]))     # wide (CJK) characters get two carets
                lines.append("    " + _pad(src[:start]) + "^" * max(width, 1))
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


def _pad(prefix: str) -> str:
    """Spaces as wide as ``prefix`` on a terminal: wide (CJK) characters take two columns."""
    import unicodedata

    return "".join("  " if unicodedata.east_asian_width(ch) in "WF" else " " for ch in prefix)


@dataclass
class FudaError(Exception):
    """Raised with one or more diagnostics; ``sources`` maps file names to their text for carets."""

    diagnostics: list[Diagnostic]
    sources: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        """Each diagnostic with its caret; several of one code at one place (a mistake in a loop
        that makes cards: the same E102 for Workshop1 … Workshop10) as the first and a count."""
        groups: dict[tuple[str, Span] | int, list[Diagnostic]] = {}
        for i, d in enumerate(self.diagnostics):
            groups.setdefault((d.code, d.span) if d.span != NO_SPAN else i, []).append(d)
        out = [g[0].format(self.sources) + (f"\n  (and {len(g) - 1} more like it at the same place)" if len(g) > 1 else "")
               for g in groups.values()]
        return "\n".join(out)

    @property
    def first(self) -> Diagnostic:
        return self.diagnostics[0]


def error(code: str, message: str, span: Span = NO_SPAN, hint: str | None = None,
          sources: dict[str, str] | None = None) -> FudaError:
    return FudaError([Diagnostic(code, message, span, hint)], dict(sources or {}))


class RuleRuntimeError(FudaError):
    """A rule failed while the game ran (e.g. moving a card that does not exist); points at the rule.
    ``state``: the game as it stood, when the failure came before anyone had it (a new game's setup)."""

    state: Any = None


class IllegalAction(FudaError):
    """An action that is not legal now; the message lists the legal ones."""


def a_noun(noun: str) -> str:
    """A noun with its article, for messages built from a word: "an int", "an `owner`", "a card"."""
    return f"an {noun}" if noun.lstrip("`")[:1] in "aeiou" else f"a {noun}"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    # a two-character name with one wrong character differs by half; a one-letter name is not a
    # misspelt long one (r is not red)
    names = [c for c in candidates if c != name and (len(name) > 2 or len(c) <= len(name) + 1)]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5 if len(name) <= 2 else 0.6)
    return f"did you mean {close[0]}?" if close else None


# Codes, grouped: E0xx syntax, E1xx names, E2xx types, E3xx structure, E4xx options/variants,
# E5xx scenario/replay/save files, E6xx runtime, W... warnings. docs/language.md lists them.
CODES: dict[str, str] = {
    "E001": "unexpected token",
    "E002": "unexpected character",
    "E003": "unexpected end of file",
    "E004": "bad text interpolation",
    "E005": "file not found or unreadable",
    "E101": "unknown name",
    "E102": "duplicate declaration",
    "E103": "unknown card attribute or field",
    "E104": "unknown function",
    "E105": "unknown phase",
    "E106": "unknown effect",
    "E107": "unknown window",
    "E108": "unknown card name",
    "E109": "shadowed name",
    "E110": "reserved name",
    "E201": "type mismatch",
    "E202": "wrong number of arguments",
    "E203": "not a zone that can hold cards",
    "E204": "not assignable",
    "E205": "condition is not a bool",
    "E206": "per-player zone or variable used without a player",
    "E207": "bad keyword argument",
    "E301": "unreachable phase",
    "E302": "missing setup",
    "E303": "no phase",
    "E304": "break or continue outside a loop",
    "E305": "return outside a rule",
    "E306": "decision where none may be taken",
    "E307": "recursive function",
    "E308": "missing ruleset header",
    "E309": "bad declaration",
    "E310": "empty deck",
    "E311": "bad player count",
    "E312": "return value missing",
    "E313": "randomness where none may happen",
    "E401": "unknown option",
    "E402": "bad option value",
    "E403": "variant base not found",
    "E404": "override of nothing",
    "E405": "circular extends",
    "E406": "options file invalid",
    "E407": "override changes the signature",
    "E501": "scenario file invalid",
    "E502": "scenario expectation failed",
    "E503": "replay or save file invalid",
    "E504": "unknown ruleset",
    "E505": "unknown seat kind",
    "E601": "rule failed at run time",
    "E602": "illegal action",
    "E603": "a check keeps firing",
    "W101": "unused declaration",
    "W102": "legal actions would tell hidden cards",
    "W103": "a card's show would tell a hidden value",
    "W104": "a log or prompt would name hidden cards",
    "W105": "a card's label does not tell it apart",
    "W106": "a name that is a keyword where expressions start",
    "W107": "a belief reads an owner variable",
    "W108": "a reveal of a public card variable",
    "W109": "a card named like a seat",
}



def os_reason(e: OSError, path: str | None = None) -> str:
    """Why a file cannot be used, in words. The file the system names is added when it is not
    ``path`` itself (a folder on the way); one standing where a folder is needed says so (the
    system's words, "File exists" or "Not a directory", name neither)."""
    if isinstance(e, FileExistsError | NotADirectoryError) and e.filename:
        return f"{'it' if str(e.filename) == path else e.filename} is a file, not a folder"
    reason = e.strerror or str(e)
    return f"{reason} ({e.filename})" if e.filename and str(e.filename) != path else reason
