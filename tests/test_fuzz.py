"""Mutation fuzzing of what users hand to fuda: rulesets, scenario files and game logs, each mutated
at random (a line deleted, doubled or shifted, a token replaced). Whatever the mutation, fuda must
answer with a diagnostic (FudaError, or `fuda replay` exiting 0 or 1), never an internal error or a
hang. A few mutations run in every suite; FUDA_SOAK=1 pytest -m soak runs thousands (the runs that
found the bugs fixed on 2026-11-23: a list as a YAML key, a turn loop without decisions)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load, load_text
from interpreter.errors import FudaError
from interpreter.runner.cli import main
from interpreter.runner.play import play
from interpreter.runner.scenario import run_scenario

from .conftest import ROOT

QUICK, SOAK = 12, 1500
TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+|\S")
ODD = ["0", "-1", "99", "none", "true", "[]", "{}", "(", ")", ":", "and", "not", "\"x\"", "1..0", "- ", "'",
       "null", "[1, 2]", "&a", "*a"]


def mutate(rng: random.Random, text: str) -> str:
    """One random edit of a line: delete, duplicate, indent, dedent, or replace one of its tokens
    (by nothing, another token of the file, or an odd value)."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    k = rng.randrange(7)
    if k == 0:
        del lines[i]
    elif k == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif k == 2:
        lines[i] = "  " + lines[i]
    elif k == 3:
        lines[i] = lines[i].lstrip()
    else:
        toks = list(TOKEN.finditer(lines[i]))
        if toks:
            m = rng.choice(toks)
            rep = "" if k == 4 else rng.choice(TOKEN.findall(text)) if k == 5 else rng.choice(ODD)
            lines[i] = lines[i][:m.start()] + rep + lines[i][m.end():]
    return "\n".join(lines)


def mutated(rng: random.Random, files: list[Path]) -> tuple[Path, str]:
    f = rng.choice(files)
    text = f.read_text(encoding="utf-8")
    for _ in range(rng.choice([1, 1, 2])):
        text = mutate(rng, text)
    return f, text


RULESETS = sorted((ROOT / "rulesets").glob("*.fuda")) + sorted((ROOT / "rulesets" / "variants").glob("*.fuda")) \
    + sorted((ROOT / "tests" / "constructs").glob("*.fuda"))
SCENARIOS = sorted((ROOT / "rulesets" / "tests").rglob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


def fuzz_rulesets(seed: int, n: int) -> None:
    for i in range(n):
        rng = random.Random(seed * 1_000_003 + i)
        f, text = mutated(rng, RULESETS)
        try:
            game = load_text(text, {}, filename=str(f))
            for s in range(2):
                game.playout(game.new_state(s), random.Random(s).random, max_decisions=300)
        except FudaError as e:
            e.format()


def fuzz_scenarios(seed: int, n: int, tmp: Path) -> None:
    for i in range(n):
        rng = random.Random(seed * 1_000_003 + i)
        f, text = mutated(rng, SCENARIOS)
        p = tmp / f.name
        p.write_text(text, encoding="utf-8")
        outcome = run_scenario(p)            # a failing scenario is an outcome, not an exception
        assert outcome.passed or outcome.message


def _logs(tmp: Path) -> list[dict[str, Any]]:
    out = []
    for name in ("american_page_one", "john", "napoleon", "super_page_one"):
        g = load(name)
        p = tmp / f"{name}.json"
        play(g, ["random"] * g.n, seed=5, log_path=str(p), out=io.StringIO())
        out.append(json.loads(p.read_text(encoding="utf-8")))
    return out


def _paths(x: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at] if at else []
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else []
    for k, v in items:
        found += _paths(v, (*at, k))
    return found


def fuzz_logs(seed: int, n: int, tmp: Path) -> None:
    logs = _logs(tmp)
    odd: list[Any] = [None, True, -1, 0, 10**9, 1.5, "", "x", [], {}, [[]], [0, "fly"], [99, 1], "P0"]
    for i in range(n):
        rng = random.Random(seed * 1_000_003 + i)
        log = copy.deepcopy(rng.choice(logs))
        for _ in range(rng.choice([1, 1, 2])):
            at = rng.choice(_paths(log))
            parent = log
            for k in at[:-1]:
                parent = parent[k]
            if rng.random() < 0.2:
                del parent[at[-1]]
            else:
                parent[at[-1]] = copy.deepcopy(rng.choice(odd))
        p = tmp / "mutated.json"
        p.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["replay", str(p)])
        assert code in (0, 1), (log, err.getvalue())


def test_mutated_rulesets_get_diagnostics() -> None:
    fuzz_rulesets(0, QUICK)


def test_mutated_scenarios_get_diagnostics(tmp_path: Path) -> None:
    fuzz_scenarios(0, QUICK * 4, tmp_path)


def test_mutated_game_logs_get_diagnostics(tmp_path: Path) -> None:
    fuzz_logs(0, QUICK * 4, tmp_path)


@pytest.mark.soak
def test_soak_mutated_rulesets() -> None:
    fuzz_rulesets(1, SOAK * 2)


@pytest.mark.soak
def test_soak_mutated_scenarios(tmp_path: Path) -> None:
    fuzz_scenarios(1, SOAK, tmp_path)


@pytest.mark.soak
def test_soak_mutated_game_logs(tmp_path: Path) -> None:
    fuzz_logs(1, SOAK // 3, tmp_path)
