"""``fuda lsp``: a language server, so an editor shows a ruleset's mistakes as the author types and
answers hover, go to definition, the outline, completion and highlighting (runner/editor.py does
the work).

It speaks the Language Server Protocol over stdin/stdout through pygls (the optional ``lsp`` extra):
the protocol's framing, lifecycle and document sync are pygls's job, well kept and widely used, not
something to hand-write. LSP counts columns in UTF-16 code units from 0; fuda's spans count
characters from 1 — converted here, so Japanese names and suit symbols land where they should.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Diagnostic, Span
from . import editor

SEVERITY = {"error": 1, "warning": 2}


def utf16(line_text: str, col: int) -> int:
    """A 1-based character column as an LSP (0-based UTF-16) one."""
    return len(line_text[:max(col - 1, 0)].encode("utf-16-le")) // 2


def column(line_text: str, character: int) -> int:
    """An LSP (0-based UTF-16) position as a 1-based character column."""
    units = 0
    for i, ch in enumerate(line_text):
        if units >= character:
            return i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text) + 1


def lsp_range(span: Span, text: str) -> dict[str, Any]:
    """A span of ``text`` as an LSP range; a span with no line (a whole file) is its start."""
    lines = text.splitlines() or [""]
    if span.line <= 0:
        return {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}

    def at(line: int, col: int) -> dict[str, int]:
        src = lines[line - 1] if line <= len(lines) else ""
        return {"line": line - 1, "character": utf16(src, col)}

    end_line, end_col = (span.end_line, span.end_col) if span.end_line > 0 else (span.line, span.col + 1)
    return {"start": at(span.line, span.col), "end": at(end_line, end_col)}


def lsp_diagnostic(d: Diagnostic, path: str, text: str) -> dict[str, Any]:
    """A fuda diagnostic as the editor shows it. One about another file (the base a variant
    extends) is shown at the top of this one, naming its place."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    if d.span.file != editor.file_name(path):
        where = str(d.span) if d.span.line > 0 else d.span.file
        return {"range": lsp_range(Span("", 0, 0, 0, 0), text), "severity": SEVERITY.get(d.severity, 1),
                "code": d.code, "source": "fuda", "message": f"{where}: {message}"}
    return {"range": lsp_range(d.span, text), "severity": SEVERITY.get(d.severity, 1), "code": d.code,
            "source": "fuda", "message": message}


def encode_tokens(found: list[tuple[int, int, int, str]], text: str) -> list[int]:
    """editor.tokens() in LSP's semantic-token encoding: five numbers per token, each position
    relative to the previous token's, in UTF-16 units."""
    lines = text.splitlines()
    data: list[int] = []
    last_line, last_start = 0, 0
    for line, col, length, kind in found:
        src = lines[line - 1]
        start = utf16(src, col)
        size = utf16(src, col + length) - start
        data += [line - 1 - last_line, start - last_start if line - 1 == last_line else start, size,
                 editor.TOKEN_TYPES.index(kind), 0]
        last_line, last_start = line - 1, start
    return data


ANSWERED = object()      # a request answered already (with an error) while it was read: nothing more to do


def bad_position(data: dict[str, Any]) -> str | None:
    """What is wrong with a request's position (a negative line or character), if anything."""
    pos = data.get("params", {}).get("position") if isinstance(data.get("params"), dict) else None
    if not isinstance(pos, dict):
        return None
    wrong = [k for k in ("line", "character") if isinstance(pos.get(k), int) and pos[k] < 0]
    return f"position {', '.join(f'{k} {pos[k]}' for k in wrong)}: lines and characters count from 0" if wrong else None


def _answering_protocol() -> Any:   # pragma: no cover - exercised by tests/test_lsp.py in a subprocess
    """pygls's protocol, but a request whose parameters do not fit (a negative position) is answered
    with JSON-RPC's "invalid params" error: pygls logged it and dropped it, and the editor waited."""
    from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
    from pygls.protocol import LanguageServerProtocol

    class Answering(LanguageServerProtocol):
        def structure_message(self, data: dict[str, Any]) -> Any:
            request = "jsonrpc" in data and "id" in data and "method" in data
            if request and (why := bad_position(data)) is not None:
                self._send_response(data["id"], error=JsonRpcInvalidParams(why).to_response_error())
                return ANSWERED
            try:
                return super().structure_message(data)
            except JsonRpcException as e:
                if not request:
                    raise
                self._send_response(data["id"], error=e.to_response_error())
                return ANSWERED

        def handle_message(self, message: Any) -> None:
            if message is not ANSWERED:
                super().handle_message(message)

    return Answering


def serve() -> None:        # pragma: no cover - exercised by tests/test_lsp.py in a subprocess
    """Run the server on stdin/stdout until the editor shuts it down."""
    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path

    server = LanguageServer("fuda", "0.1.0", text_document_sync_kind=t.TextDocumentSyncKind.Full,
                            protocol_cls=_answering_protocol())
    kinds = {"option": t.SymbolKind.Constant, "enum": t.SymbolKind.Enum, "zone": t.SymbolKind.Array,
             "var": t.SymbolKind.Variable, "fn": t.SymbolKind.Function, "rule": t.SymbolKind.Method,
             "phase": t.SymbolKind.Namespace, "effect": t.SymbolKind.Event, "window": t.SymbolKind.Interface,
             "check": t.SymbolKind.Boolean, "ordering": t.SymbolKind.Operator, "setup": t.SymbolKind.Constructor,
             "cards": t.SymbolKind.Class, "ruleset": t.SymbolKind.Module, "card attribute": t.SymbolKind.Field}

    def doc(uri: str) -> tuple[str, str]:
        """The document's path and text; one the editor never opened and that cannot be read from
        disk is empty (nothing is known there), not an error sent back with a traceback."""
        try:
            return to_fs_path(uri) or uri, server.workspace.get_text_document(uri).source
        except (OSError, ValueError):
            return to_fs_path(uri) or uri, ""

    def rng(span: Span, text: str) -> t.Range:
        r = lsp_range(span, text)
        return t.Range(t.Position(**r["start"]), t.Position(**r["end"]))

    def publish(uri: str) -> None:
        path, text = doc(uri)
        found = []
        for d in editor.diagnostics(path, text):
            x = lsp_diagnostic(d, path, text)
            found.append(t.Diagnostic(range=t.Range(t.Position(**x["range"]["start"]), t.Position(**x["range"]["end"])),
                                      message=x["message"], severity=t.DiagnosticSeverity(x["severity"]),
                                      code=x["code"], source="fuda"))
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=found))

    def cursor(uri: str, pos: t.Position) -> tuple[str, str, int, int]:
        path, text = doc(uri)
        lines = text.splitlines()
        src = lines[pos.line] if pos.line < len(lines) else ""
        return path, text, pos.line + 1, column(src, pos.character)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: t.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: t.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: t.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        path, text = doc(params.text_document.uri)
        return [t.DocumentSymbol(name=s.name, detail=s.kind, kind=kinds.get(s.kind, t.SymbolKind.EnumMember),
                                 range=rng(s.span, text), selection_range=rng(s.name_span, text))
                for s in editor.outline(path, text)]

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(params: t.HoverParams) -> t.Hover | None:
        said = editor.hover(*cursor(params.text_document.uri, params.position))
        if said is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=said))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(params: t.DefinitionParams) -> t.Location | None:
        path, text, line, col = cursor(params.text_document.uri, params.position)
        span = editor.definition(path, text, line, col)
        if span is None:
            return None
        if span.file == editor.file_name(path):
            return t.Location(uri=params.text_document.uri, range=rng(span, text))
        target = Path(span.file).resolve()
        try:
            other = target.read_text(encoding="utf-8")
        except OSError:
            return None
        return t.Location(uri=from_fs_path(str(target)) or str(target), range=rng(span, other))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION)
    def complete(params: t.CompletionParams) -> list[t.CompletionItem]:
        path, text = doc(params.text_document.uri)
        return [t.CompletionItem(label=name, detail=kind,
                                 kind=t.CompletionItemKind.Keyword if kind == "keyword" else t.CompletionItemKind.Variable)
                for name, kind in editor.completions(path, text)]

    @server.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    t.SemanticTokensLegend(token_types=editor.TOKEN_TYPES, token_modifiers=[]))
    def colours(params: t.SemanticTokensParams) -> t.SemanticTokens:
        path, text = doc(params.text_document.uri)
        return t.SemanticTokens(data=encode_tokens(editor.tokens(path, text), text))

    server.start_io()
