"""The editor services (runner/editor.py) and `fuda lsp` speaking the protocol to a client."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interpreter.runner import editor
from interpreter.runner.lsp import column, encode_tokens, lsp_diagnostic, utf16

from .conftest import ROOT

SPO = str(ROOT / "rulesets" / "super_page_one.fuda")
TEXT = Path(SPO).read_text(encoding="utf-8")


def at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, col) of the nth occurrence of needle, 1-based."""
    hits = [(i, ln.index(needle)) for i, ln in enumerate(text.splitlines(), 1) if needle in ln]
    line, col = hits[nth]
    return line, col + 1


def test_a_mistake_is_reported_where_validate_reports_it():
    bad = TEXT.replace("while can_kick(p)", "while can_kik(p)")
    found = editor.diagnostics(SPO, bad)
    assert [(d.code, d.span.line, d.hint) for d in found] == [("E104", at(bad, "can_kik")[0], "did you mean can_kick?")]
    assert editor.diagnostics(SPO, TEXT) == []


def test_go_to_definition_finds_globals_in_the_base_and_locals_in_the_declaration():
    line, col = at(TEXT, "draw_cards(")                 # declared by american_page_one, which this extends
    span = editor.definition(SPO, TEXT, line, col + 2)
    assert span is not None and span.file.endswith("american_page_one.fuda")
    base = (ROOT / "rulesets" / "american_page_one.fuda").read_text(encoding="utf-8").splitlines()
    assert base[span.line - 1][span.col - 1:].startswith("draw_cards(")
    line, col = at(TEXT, "while can_kick(p)")
    span = editor.definition(SPO, TEXT, line, col + len("while can_kick("))   # the p of offer_kick(p: player)
    assert span is not None and TEXT.splitlines()[span.line - 1].startswith("rule offer_kick(p: player)")


def test_hover_shows_the_declaration_and_the_comment_above_it():
    line, col = at(TEXT, "while can_kick(p)")
    said = editor.hover(SPO, TEXT, line, col + len("while "))
    assert said is not None and "(fn)" in said and "fn can_kick(p: player)" in said
    assert "[seed] a revealed K stays revealed" in said
    # a function written over two lines is shown whole (its first line ends mid-condition)
    assert "and (any k in kings() where k in 手札[p] and not revealed(k))" in said
    line, col = at(TEXT, "size(")
    assert "size(zone or list)" in (editor.hover(SPO, TEXT, line, col) or "")


def test_outline_and_completion_name_the_declarations():
    kinds = {s.name: s.kind for s in editor.outline(SPO, TEXT)}
    assert kinds["offer_kick"] == "rule" and kinds["kickback"] == "effect" and kinds["捨て札ゾーン"] == "zone"
    names = dict(editor.completions(SPO, TEXT))
    assert names["draw_cards"] == "rule" and names["size"] == "built-in" and names["choose"] == "keyword"


def test_columns_are_utf16_for_the_editor():
    line = "zone 𝔸 捨て札 x"
    assert utf16(line, 8) == 8 and column(line, 8) == 8       # 𝔸 is two UTF-16 units
    text = "ruleset x\nplayers 2\nvar 札: int = nope\n"
    d = next(d for d in editor.diagnostics("x.fuda", text) if d.code == "E101")
    shown = lsp_diagnostic(d, "x.fuda", text)
    assert shown["range"]["start"] == {"line": 2, "character": len("var 札: int = ")} and shown["source"] == "fuda"


def test_highlighting_colours_names_by_what_they_are():
    line = at(TEXT, "rule offer_kick")[0]
    mine = [(TEXT.splitlines()[ln - 1][c - 1:c - 1 + n], kind) for ln, c, n, kind in editor.tokens(SPO, TEXT)
            if ln in (line, line + 3)]
    assert mine[:3] == [("rule", "keyword"), ("offer_kick", "function"), ("player", "keyword")]
    assert ("手札", "variable") in mine and ("13", "number") in mine and ("revealed", "function") in mine
    text = '# ♠\nlog "札 {x}" 12\n'
    found = editor.tokens("x.fuda", text)
    assert [k for *_, k in found] == ["comment", "keyword", "string", "number"]
    assert encode_tokens(found, text) == [0, 0, 3, 1, 0, 1, 0, 3, 0, 0, 0, 4, 7, 2, 0, 0, 8, 2, 3, 0]


# ------------------------------------------------------------------ the protocol, end to end
class Client:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter.runner.cli", "lsp"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, method: str, params: Any, request: bool = True) -> int | None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return msg.get("id")

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while (line := self.proc.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def until(self, pred: Any) -> dict[str, Any]:
        for _ in range(50):
            msg = self.read()
            if pred(msg):
                return msg
        raise AssertionError("no such message")

    def ask(self, method: str, params: Any) -> Any:
        i = self.send(method, params)
        return self.until(lambda m: m.get("id") == i)["result"]


@pytest.mark.skipif(not __import__("importlib").util.find_spec("pygls"), reason="needs the lsp extra")
def test_fuda_lsp_answers_an_editor():
    c = Client()
    try:
        c.ask("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.send("initialized", {}, request=False)
        uri = Path(SPO).as_uri()
        bad = TEXT.replace("while can_kick(p)", "while can_kik(p)")
        c.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "fuda", "version": 1,
                                                         "text": bad}}, request=False)
        diags = c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]["diagnostics"]
        line, col = at(bad, "can_kik")
        assert [(d["code"], d["range"]["start"]) for d in diags] == [("E104", {"line": line - 1, "character": col - 1})]
        c.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                          "contentChanges": [{"text": TEXT}]}, request=False)
        assert c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]["diagnostics"] == []
        line, col = at(TEXT, "while can_kick(p)")
        pos = {"line": line - 1, "character": col - 1 + len("while ")}
        hover = c.ask("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        assert "fn can_kick" in hover["contents"]["value"]
        where = c.ask("textDocument/definition", {"textDocument": {"uri": uri}, "position": pos})
        assert where["uri"] == uri and where["range"]["start"]["line"] == at(TEXT, "fn can_kick")[0] - 1
        outline = c.ask("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert "offer_kick" in {s["name"] for s in outline}
        colours = c.ask("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["data"]
        assert colours == encode_tokens(editor.tokens(SPO, TEXT), TEXT) and len(colours) > 1000
        # a document never opened, nowhere on disk: nothing is known there (QA: a traceback came back)
        nowhere = {"textDocument": {"uri": "file:///nowhere/x.fuda"}}
        assert c.ask("textDocument/hover", {**nowhere, "position": {"line": 0, "character": 0}}) is None
        assert c.ask("textDocument/documentSymbol", nowhere) == []
        # QA12 P1: a negative position got no answer at all (pygls logged a traceback and dropped it)
        i = c.send("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": -5}})
        answer = c.until(lambda m: m.get("id") == i)
        assert answer["error"]["code"] == -32602 and "line -1" in answer["error"]["message"]
        assert c.ask("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos}) is not None
        c.ask("shutdown", None)
        c.send("exit", None, request=False)
        assert c.proc.wait(timeout=10) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_go_to_definition_finds_a_functions_step():
    text = (ROOT / "tests" / "constructs" / "functions.fuda").read_text(encoding="utf-8")
    path = str(ROOT / "tests" / "constructs" / "functions.fuda")
    line, col = at(text, "5 * five")
    span = editor.definition(path, text, line, col + len("5 * "))
    assert span is not None and text.splitlines()[span.line - 1].strip().startswith("let five = ")


FIELDS = """ruleset hover_fields
players 2
enum Role { duke, captain }
cards { attr role: Role
        card "D" role = duke } in deck
zone deck: pile hidden
effect tax(role: Role = duke, sure: bool = false) { log "tax" }
effect steal(role: Role = captain) { log "steal" }
window w (it, p) when it.kind == tax {
    ask_ where it.role == duke and it.sure and top(deck).role == duke "ask" { }
}
setup { }
phase play { activate tax() by players[0] }
"""


def test_hover_on_an_item_field_names_the_effects_declaring_it_not_a_card_attribute():
    """Newcomer QA: `it.role` showed the card attribute `attr role`, and other item fields nothing."""
    line, col = at(FIELDS, "it.role")
    said = editor.hover("f.fuda", FIELDS, line, col + len("it.r"))
    assert said is not None and said.startswith("(item field) role: Role — a parameter of effects tax, steal")
    assert "effect steal(role: Role = captain)" in said and "attr role" not in said
    said = editor.hover("f.fuda", FIELDS, line, at(FIELDS, "it.sure")[1] + len("it."))
    assert said is not None and said.startswith("(item field) sure: bool — a parameter of effect tax (reads false ")
    assert editor.hover("f.fuda", FIELDS, *at(FIELDS, "kind == tax")) == \
        "(item field) kind: effect — every stack item has it"
    said = editor.hover("f.fuda", FIELDS, line, at(FIELDS, ").role")[1] + 2)      # a card's role
    assert said is not None and said.startswith("(card attribute)") and "attr role: Role" in said
    # a file with a mistake elsewhere: the window's item name still says it is an item
    broken = FIELDS.replace("phase play { activate tax()", "phase play { activate taxx()")
    said = editor.hover("f.fuda", broken, line, col + len("it.r"))
    assert said is not None and said.startswith("(item field) role: Role")


def test_go_to_definition_of_an_item_field_lands_on_the_effect_parameter():
    line, col = at(FIELDS, "it.role")
    span = editor.definition("f.fuda", FIELDS, line, col + len("it.r"))
    assert span is not None and (span.line, span.col) == at(FIELDS, "role: Role = duke")
    span = editor.definition("f.fuda", FIELDS, line, at(FIELDS, ").role")[1] + 2)     # the card's: the attribute
    line, col = at(FIELDS, "attr role")
    assert span is not None and (span.line, span.col) == (line, col + len("attr "))


def test_an_options_group_is_outlined_and_found_from_its_use():
    path = str(ROOT / "tests" / "constructs" / "option_groups.fuda")
    text = Path(path).read_text(encoding="utf-8")
    assert {s.name: s.kind for s in editor.outline(path, text)}["quick"] == "options"
    line, col = at(text, "use quick(current)")
    span = editor.definition(path, text, line, col + len("use "))
    assert span is not None and text.splitlines()[span.line - 1].startswith("options quick(")
    said = editor.hover(path, text, line, col + len("use "))
    assert said is not None and "(options)" in said
    line, col = at(text, "offer q in others(current) { use quick(q, 12) }")     # the offer's own binder
    span = editor.definition(path, text, line, col + len("offer q in others(current) { use quick("))
    assert span is not None and span.line == line


NAMED = """ruleset named
players 2
cards standard(jokers = 0) in deck
zone deck: pile hidden
var n: int = 0
var k: int = 0
rule r(p: player, k: int = 2) { n += k }
options inner(p: player, k: int = 2) { x "x {k}" { n += k } }
options outer(p: player, k: int = 5) { use inner(p, k = k + 1) }
setup { r(players[0], k = n) }
phase play { choose players[0] { use outer(players[0]) } end game }
"""


@pytest.mark.parametrize("needle, target", [("k = k + 1", "k: int = 2) { x"), ("k = n", "k: int = 2) { n")])
def test_a_named_argument_is_the_parameter_of_what_is_called(needle: str, target: str):
    """qa10 P4: `k` in `use inner(p, k = k + 1)` went to outer's `k`, in `r(p, k = n)` to the var k."""
    line, col = at(NAMED, needle)
    span = editor.definition("n.fuda", NAMED, line, col)
    assert span is not None and (span.line, span.col) == at(NAMED, target)
    said = editor.hover("n.fuda", NAMED, line, col)
    assert said is not None and said.startswith("parameter `k` of ")
    line, col = at(NAMED, "k + 1")      # the value is the caller's: outer's k
    span = editor.definition("n.fuda", NAMED, line, col)
    assert span is not None and (span.line, span.col) == at(NAMED, "k: int = 5")


def test_an_enum_member_named_like_the_ruleset_and_an_option_s_own_members_are_found():
    """QA12 B7/D1: `skull` in Skull's rules went to the `ruleset skull` line; the members of an
    option's own list (`manual` of schnapsen's `claims`) had no hover nor definition."""
    path = str(ROOT / "rulesets" / "examples" / "skull.fuda")
    text = Path(path).read_text(encoding="utf-8")
    line, col = at(text, "c.face == skull")
    col += len("c.face == ")
    said = editor.hover(path, text, line, col) or ""
    assert "(member of Face)" in said and "enum Face" in said
    span = editor.definition(path, text, line, col)
    assert span is not None and "enum Face" in text.splitlines()[span.line - 1]
    assert ("skull", "member of Face") in [(s.name, s.kind) for s in [editor.declared(path, text)["skull"]]]
    title_line, title_col = at(text, "ruleset skull")
    assert "(ruleset)" in (editor.hover(path, text, title_line, title_col + len("ruleset ")) or "")
    kinds = {(ln, c): k for ln, c, _n, k in editor.tokens(path, text)}
    assert kinds[(line, col)] == "enumMember"
    path = str(ROOT / "rulesets" / "examples" / "schnapsen.fuda")
    text = Path(path).read_text(encoding="utf-8")
    line, col = at(text, "claims == manual")
    col += len("claims == ")
    assert "(member of option claims)" in (editor.hover(path, text, line, col) or "")
    span = editor.definition(path, text, line, col)
    assert span is not None and text.splitlines()[span.line - 1].startswith("option claims:")
    assert text.splitlines()[span.line - 1][span.col - 1:].startswith("manual")


def test_an_option_s_own_member_named_like_another_enum_s_is_itself_on_its_declaration():
    """QA13 B3: on `option s: {lspt, b}`, hover and definition went to Mode's member lspt."""
    from interpreter.runner.editor import definition, hover

    text = ("ruleset lspt\nplayers 2\nenum Mode { lspt, other }\noption m: Mode = lspt\noption s: {lspt, b} = b\n"
            "cards standard() in deck\nzone deck: pile hidden\nsetup { }\nphase play { end game }\n")
    col = text.splitlines()[4].index("lspt") + 2
    assert "member of option s" in (hover("lspt.fuda", text, 5, col) or "")
    span = definition("lspt.fuda", text, 5, col)
    assert span is not None and (span.line, span.col) == (5, 12)
    col = text.splitlines()[2].index("lspt") + 2
    assert "member of Mode" in (hover("lspt.fuda", text, 3, col) or "")
    assert "ruleset" in (hover("lspt.fuda", text, 1, 10) or "")
