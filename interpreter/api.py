"""The library's front door: load a ruleset (by bundled name or path) with options into a Game.

``load`` parses, checks and compiles; results are cached per (file contents, options), so a
simulation's thousands of games compile once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .check import Program, check
from .errors import Diagnostic, FudaError, Span, did_you_mean, error
from .load import load_source, read_text

if TYPE_CHECKING:
    from .engine.game import Game

# (name or path as given, where it lies, options) → (game, [(file, mtime)…]): a simulation's thousands
# of games load once; "mine.fuda" in another folder is another ruleset
_CACHE: dict[tuple[str, str, str], tuple[Game, list[tuple[Path, float]]]] = {}


def check_ruleset(name_or_path: str, options: dict[str, Any] | None = None,
                  text: str | None = None) -> Program:
    """Parse and check (no compilation): what ``fuda validate`` runs."""
    return check(load_source(name_or_path, text), options)


def load(name_or_path: str, options: dict[str, Any] | None = None) -> Game:
    """A playable Game for a bundled ruleset name or a .fuda path, with option overrides."""
    options = dict(options or {})
    try:
        key: tuple[str, str, str] | None = (name_or_path, _where(name_or_path),
                                            json.dumps(options, sort_keys=True, ensure_ascii=False, default=str))
    except ValueError:      # a value that holds itself (a YAML anchor loop): the check below says what is wrong
        key = None
    hit = _CACHE.get(key) if key else None
    if hit is not None and all(_mtime(f) == t for f, t in hit[1]):
        return hit[0]
    from .compile import compile_program
    from .engine.game import Game

    src = load_source(name_or_path)
    prog = check(src, options)
    game = Game(prog, compile_program(prog), name_or_path, options)
    if key:
        _CACHE[key] = (game, [(f, _mtime(f)) for f in src.files])
    return game


def _where(name_or_path: str) -> str:
    """The file a path names, wherever the process now stands (a bundled name stays itself)."""
    try:
        path = Path(name_or_path)
        return str(path.resolve()) if path.is_file() else name_or_path
    except (OSError, ValueError):
        return name_or_path


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def load_text(text: str, options: dict[str, Any] | None = None, filename: str = "<ruleset>.fuda") -> Game:
    """A Game from ruleset text (tests and tools); ``extends`` resolves bundled names."""
    from .compile import compile_program
    from .engine.game import Game

    src = load_source(filename, text)
    prog = check(src, options)
    return Game(prog, compile_program(prog), filename, dict(options or {}))


def read_options_file(path: str) -> dict[str, Any]:
    """An options file (YAML mapping of option → value) for --options."""
    import yaml

    from .runner.yaml_file import KEY_NOT_A_NAME, Located, keep_words, safe_load

    text = read_text(Path(path), "E406", path, "options file")
    try:
        data = safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        span = Span(path, (mark.line + 1) if mark else 1, (mark.column + 1) if mark else 1,
                    (mark.line + 1) if mark else 1, (mark.column + 2) if mark else 2)
        raise FudaError([Diagnostic("E406", f"options file is not valid YAML: {getattr(e, 'problem', e)}", span)],
                        {path: text}) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise error("E406", f"options file {path} must map option names to values (NAME: VALUE lines)",
                    Span(path, 1, 1, 1, 2), sources={path: text})
    top: tuple[str, ...] = ()
    loc = Located.of(path, text)
    if isinstance(data.get("options"), dict):
        # beside `options:` only `ruleset:` (checked against the ruleset given): another key, a note or a
        # misspelt `option:`, would be dropped unread
        for extra in data:
            if extra not in ("options", "ruleset"):
                raise loc.error("E406", f"an options file with `options:` holds only `options` and `ruleset`; "
                                        f"{extra!r} is neither", (extra,), at_key=True,
                                hint=did_you_mean(str(extra), ["ruleset"]) or
                                "put every option under the one `options:` (a note in a # comment)")
        data, top = data["options"], ("options",)
    else:
        for k, v in data.items():       # `option: {…}`: a misspelt `options:`, not an option of the ruleset
            if isinstance(v, dict) and did_you_mean(str(k), ["options"]):
                raise loc.error("E406", f"{k!r} holds a mapping: is it `options:` misspelt?", (k,), at_key=True,
                                hint="write options: (the option names and values under it)")
    keep_words(loc, data, top)       # `mode: on` names the member on, not true
    for k in data:
        if not isinstance(k, str):      # `on: true`: YAML read the key as a bool (or a number, none)
            raise loc.error("E406", "this key is not a name", (*top, k), at_key=True, hint=KEY_NOT_A_NAME)
    return dict(data)
