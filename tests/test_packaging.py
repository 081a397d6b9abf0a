"""`pip install .` (not only an editable install) ships the grammar and the bundled rulesets:
build a wheel, install it into a scratch directory and load a ruleset by name from there."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from .conftest import ROOT


def test_wheel_ships_grammar_and_rulesets(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                    "-q", "-w", str(wheels)], check=True, capture_output=True)
    (wheel,) = wheels.glob("fuda-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "interpreter/grammar/fuda.lark" in names
    assert "interpreter/rulesets/american_page_one.fuda" in names
    assert any(n.startswith("interpreter/rulesets/tests/") and n.endswith(".yaml") for n in names)
    assert any(n.startswith("interpreter/rulesets/personas/") and n.endswith(".yaml") for n in names)
    # every ruleset, example game, scenario, options and persona file of the source tree
    data = {"interpreter/" + str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*")
            if p.suffix in (".fuda", ".yaml")}
    assert data <= names, f"missing from the wheel: {sorted(data - names)}"
    # the page of `fuda serve`
    assert {f"interpreter/runner/web/{f}" for f in ("index.html", "table.css", "table.js")} <= names
    # every module of the source tree is in the wheel (a package missing from pyproject's list is not)
    sources = {str(p.relative_to(ROOT)) for p in (ROOT / "interpreter").rglob("*.py")}
    assert sources <= names, f"missing from the wheel: {sorted(sources - names)}"

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)
    code = ("import interpreter.api as a, interpreter.resources as r;"
            "assert str(r.rulesets_dir()).startswith(%r), r.rulesets_dir();"
            "g = a.load('american_page_one'); s = g.new_state(1); print(g.name, len(s.legal_actions()))")
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run([sys.executable, "-c", code % str(target)], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True)
    assert out.stdout.startswith("american_page_one ")
