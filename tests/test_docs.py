"""The user documentation stays honest: every complete ruleset in docs/language.md and docs/tutorial.md
validates and plays (random games end without a rule failing), every scenario file in the docs passes, the tutorial's final ruleset plays exactly like the
bundled American Page One, and language.md lists every error code and built-in function.

A fenced block tagged ```fuda whose first line (after blank lines and # comments) starts with
`ruleset` is a complete ruleset; other ```fuda blocks are fragments and are not checked. Blocks of
one document are written, in document order, to one directory as NAME.fuda (NAME from the ruleset
line), so a later step of the tutorial replaces an earlier one and a variant block can `extends` a
ruleset written earlier in the same document (or a bundled ruleset such as american_page_one).
A ```yaml block with a top-level `ruleset:` key is a scenario file for the rulesets of its document
(for docs/cli.md: those of docs/language.md) or for a bundled ruleset; it must pass.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.api import check_ruleset, load
from interpreter.builtins import BUILTINS
from interpreter.errors import CODES
from interpreter.runner.scenario import run_scenario

from .conftest import ROOT

DOCS = [ROOT / "docs" / "language.md", ROOT / "docs" / "tutorial.md"]
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass
class Block:
    doc: Path
    line: int
    lang: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.doc.name}:{self.line}"

    @property
    def ruleset_name(self) -> str | None:
        """The NAME of the `ruleset NAME` line that opens a complete ruleset, else None."""
        for raw in self.text.splitlines():
            s = raw.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"ruleset\s+(\S+)", s)
            return m.group(1) if m else None
        return None

    @property
    def is_scenario(self) -> bool:
        return self.lang in ("yaml", "yml") and re.search(r"^ruleset:", self.text, re.M) is not None


def blocks(doc: Path) -> list[Block]:
    if not doc.is_file():
        return []
    text = doc.read_text(encoding="utf-8")
    return [Block(doc, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def rulesets(doc: Path) -> list[Block]:
    return [b for b in blocks(doc) if b.lang == "fuda" and b.ruleset_name]


def write_rulesets(doc: Path, upto: Block | None, into: Path) -> None:
    """Write the complete rulesets of ``doc`` in document order (up to and including ``upto``;
    all of them when ``upto`` is None, so each name keeps its last version)."""
    for b in rulesets(doc):
        (into / f"{b.ruleset_name}.fuda").write_text(b.text, encoding="utf-8")
        if b is upto:
            return


COMPLETE = [b for d in DOCS for b in rulesets(d)]
TUTORIAL = ROOT / "docs" / "tutorial.md"
LANGUAGE = ROOT / "docs" / "language.md"
CLI = ROOT / "docs" / "cli.md"
SCENARIOS = [b for d in [*DOCS, CLI] for b in blocks(d) if b.is_scenario]


def test_docs_exist_and_have_examples():
    for d in DOCS:
        assert d.is_file(), f"{d} is missing"
        assert rulesets(d), f"{d.name} has no complete ```fuda ruleset block"
    assert (ROOT / "docs" / "cli.md").is_file()


@pytest.mark.parametrize("block", COMPLETE, ids=[b.id for b in COMPLETE])
def test_ruleset_block_validates(block: Block, tmp_path: Path) -> None:
    write_rulesets(block.doc, block, tmp_path)
    path = tmp_path / f"{block.ruleset_name}.fuda"
    prog = check_ruleset(str(path))      # raises FudaError with file:line:col on any mistake
    if block.doc == TUTORIAL:            # the tutorial teaches clean files: no warnings either
        assert not prog.warnings, "\n".join(w.format(prog.sources) for w in prog.warnings)
    # and it plays: a few random games run to their end without a rule failing (an example once
    # finished every player before the deal and then failed)
    game = load(str(path))
    for seed in range(3):
        st = game.new_state(seed)
        game.playout(st, random.Random(seed).random)
        assert st.over


@pytest.mark.parametrize("block", SCENARIOS, ids=[b.id for b in SCENARIOS])
def test_scenario_block_passes(block: Block, tmp_path: Path) -> None:
    write_rulesets(LANGUAGE if block.doc == CLI else block.doc, None, tmp_path)
    path = tmp_path / f"scenario_{block.line}.yaml"
    path.write_text(block.text, encoding="utf-8")
    outcome = run_scenario(path)
    assert outcome.passed, f"{block.id}\n{outcome.message}"


def _random_game(ruleset: str, seed: int, options: dict) -> tuple[list[tuple[int, str]], list[dict]]:
    game = load(ruleset, options)
    st = game.new_state(seed)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while not st.over:
        for p in st.to_move():
            legal = game.legal_actions(st, p)
            a = legal[rng.randrange(len(legal))]
            actions.append((p, a.id))
            game.apply(st, p, a)
            if st.over:
                break
    return actions, game.result(st)


def test_tutorial_result_plays_like_american_page_one(tmp_path: Path) -> None:
    """Same seed, same choices → the same game, action by action, under several option sets."""
    write_rulesets(TUTORIAL, None, tmp_path)
    mine = tmp_path / "page_one.fuda"
    assert mine.is_file(), "the tutorial builds rulesets named page_one"
    for options in ({}, {"players": 2, "page_one_penalty": 2, "stop_at_first_winner": False},
                    {"players": 6, "hand_size": 3}):
        for seed in range(8):
            assert _random_game(str(mine), seed, options) == _random_game("american_page_one", seed, options), \
                f"seed {seed}, options {options}"


def test_every_error_code_is_documented() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    missing = [code for code in CODES if f"| {code} |" not in text]
    assert not missing, f"docs/language.md (section Error codes) lacks {missing}"


def test_every_builtin_function_is_documented() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    missing = [name for name in BUILTINS if f"`{name}(" not in text]
    assert not missing, f"docs/language.md (section Built-in values and functions) lacks {missing}"


def test_the_simulate_example_in_cli_md_is_what_the_command_prints(capsys):
    """The seeded example output in docs/cli.md (all but the timing) is what fuda prints."""
    from interpreter.runner.cli import main

    text = CLI.read_text(encoding="utf-8")
    block = text[text.index("$ fuda simulate american_page_one -n 1000 --players 3 -q\n"):]
    block = block[:block.index("```")].splitlines()
    assert main(block[0].split()[2:]) == 0
    got = capsys.readouterr().out.splitlines()
    assert got[0].startswith("american_page_one: 1000 games in ")
    assert got[1:] == block[2:]
