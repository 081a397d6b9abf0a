"""The engine knows no particular game: no game, card-role or zone names of the bundled games in
interpreter/ (the same words the pre-stop hook greps for), nor in the page of fuda serve."""

from __future__ import annotations

import re

from .conftest import ROOT

WORDS = re.compile(
    r"napoleon|ナポレオン|mighty|マイティ|jekyll|hyde|ジキル|ハイド|potion|秘薬|\bjohn\b|ジョン|senretsu|戦列|"
    r"page.?one|ページワン|dobon|ドボン|革命|adjutant|副官|yoromeki|よろめき|セイムツー|same.?two|キックバック|"
    r"kickback|エコー|横カード|変えカード|補充カード|山札|手札", re.IGNORECASE)


def test_interpreter_names_no_game():
    hits = []
    web = sorted((ROOT / "interpreter" / "runner" / "web").glob("*"))        # the page of fuda serve too
    for path in sorted((ROOT / "interpreter").rglob("*.py")) + web + [ROOT / "grammar" / "fuda.lark"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WORDS.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)
