"""Where the grammar and the bundled rulesets live, in a source checkout and in an installed package."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _dir(package: str, fallback: str) -> Path:
    """The directory of a data package: the checkout's top level when this code runs from a source
    checkout (its grammar/ beside interpreter/: a git worktree run with PYTHONPATH reads its own files,
    not those an editable install points at), else the installed package (``interpreter.grammar``)."""
    if (_ROOT / "grammar" / "fuda.lark").is_file():
        return _ROOT / fallback
    try:
        path = Path(str(resources.files(package)))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _ROOT / fallback


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    return (_dir("interpreter.grammar", "grammar") / "fuda.lark").read_text(encoding="utf-8")


def rulesets_dir() -> Path:
    return _dir("interpreter.rulesets", "rulesets")


def bundled_rulesets() -> list[str]:
    """Names of the bundled rulesets: base games and variants."""
    root = rulesets_dir()
    names = [p.stem for p in sorted(root.glob("*.fuda"))]
    names += [p.stem for p in sorted((root / "variants").glob("*.fuda"))]
    return names


def example_rulesets() -> list[str]:
    """Names of the example games (rulesets/examples/, docs/examples.md): other well-known card
    games written in fuda, playable by name like the bundled ones."""
    return [p.stem for p in sorted((rulesets_dir() / "examples").glob("*.fuda"))]


def find_ruleset(name: str) -> Path | None:
    """A bundled ruleset or example game by name (e.g. ``my_variant``, ``hanabi``), or None."""
    root = rulesets_dir()
    for candidate in (root / f"{name}.fuda", root / "variants" / f"{name}.fuda", root / "examples" / f"{name}.fuda"):
        if candidate.is_file():
            return candidate
    return None
