"""What an editor asks about a ruleset while its author types: the mistakes, an outline, what a
name is (hover), where it is declared, and the names that fit here (completion).

These are pure functions of a file's text (and of the bases it extends, read from disk), so they are
tested without an editor; ``fuda lsp`` (runner/lsp.py) only carries them over the Language Server
Protocol. Lines and columns are 1-based and count characters, like every Span in fuda.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import ast as A
from ..builtins import BUILTINS
from ..check import ITEM_FIELDS, check
from ..errors import Diagnostic, FudaError, Span
from ..load import Source, display_name, load_source
from ..parse import parse_module

WORD = re.compile(r"(?!\d)[\w♠♥♦♣♤♡♢♧★☆]+")      # the grammar's NAME (grammar/fuda.lark)
# one line of a ruleset, piece by piece, for highlighting
PIECES = re.compile(r'(?P<comment>#.*)|(?P<string>"(\\.|\{[^{}\n]*\}|[^"\\\n])*")|(?P<number>\d+(\.\d+)?)'
                    r"|(?P<name>" + WORD.pattern + ")")
# how each kind of name is coloured (LSP semantic token types)
TOKEN_TYPES = ["keyword", "comment", "string", "number", "function", "variable", "parameter", "type",
               "enumMember", "property", "event", "namespace"]
KIND_TOKEN = {"fn": "function", "rule": "function", "ordering": "function", "built-in": "function",
              "zone": "variable", "var": "variable", "option": "parameter", "enum": "type",
              "card attribute": "property", "options": "function", "effect": "event", "window": "event", "check": "event",
              "phase": "namespace", "ruleset": "namespace"}

# what each kind of declaration is called in an outline and on hover
KINDS: dict[type, str] = {
    A.OptionDecl: "option", A.EnumDecl: "enum", A.ZoneDecl: "zone", A.VarDecl: "var", A.FnDecl: "fn",
    A.RuleDecl: "rule", A.PhaseDecl: "phase", A.EffectDecl: "effect", A.WindowDecl: "window",
    A.CheckDecl: "check", A.OrderingDecl: "ordering", A.SetupDecl: "setup", A.CardsDecl: "cards",
    A.RulesetDecl: "ruleset", A.OptionsDecl: "options",
}


@dataclass(frozen=True)
class Symbol:
    """A declared name: where it is, what kind, its first source line and the comment above it."""
    name: str
    kind: str
    span: Span              # the whole declaration
    name_span: Span         # just the name, where go-to-definition lands
    signature: str
    doc: str


def diagnostics(path: str, text: str) -> list[Diagnostic]:
    """Every error (or, when there is none, every warning) ``fuda validate`` reports for this text."""
    from ..api import check_ruleset

    try:
        return list(check_ruleset(path, text=text).warnings)
    except FudaError as e:
        return list(e.diagnostics)
    except RecursionError:          # pragma: no cover - the checker reports deep nesting itself
        return []


def file_name(path: str) -> str:
    """How spans name this file (relative to the working directory, as diagnostics print it)."""
    return display_name(Path(path))


def outline(path: str, text: str) -> list[Symbol]:
    """This file's own declarations, in order (empty while it does not parse)."""
    name = file_name(path)
    try:
        module = parse_module(text, name)
    except FudaError:
        return []
    return [s for d in module.decls for s in _symbols(d, {name: text})]


def declared(path: str, text: str) -> dict[str, Symbol]:
    """Every name declared by this file and the bases it extends (a variant's override wins)."""
    try:
        src = load_source(path, text)
    except FudaError:
        return {s.name: s for s in outline(path, text)}
    found: dict[str, Symbol] = {}
    titles = []
    for d in src.decls:
        for s in _symbols(d, src.sources):
            if s.kind == "ruleset":     # no rule can name the ruleset: `skull` in its rules is the member
                titles.append(s)
            else:
                found.setdefault(s.name, s)
    for s in titles:
        found.setdefault(s.name, s)
    return found


def word_at(text: str, line: int, col: int) -> str | None:
    """The name under (or just before) the cursor."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    return next((m.group() for m in WORD.finditer(lines[line - 1]) if m.start() + 1 <= col <= m.end() + 1), None)


def lookup(path: str, text: str, line: int, col: int) -> tuple[str, Span | None, Symbol | None] | None:
    """The name under the cursor, where it is bound if it is a parameter or local name of the
    declaration holding it, else its declaration in the ruleset or its bases (if any)."""
    word = word_at(text, line, col)
    if word is None:
        return None
    local = _local(path, text, word, line, col)
    if local is None:       # on a declaration's own name (the `ruleset NAME` line, an option's own member):
        own = next((s for s in outline(path, text) if s.name == word and s.name_span.line == line     # that one,
                    and s.name_span.col <= col <= s.name_span.col + len(word)), None)   # whatever shares its name
        if own is not None:
            return word, None, own
    return word, local, None if local is not None else declared(path, text).get(word)


def definition(path: str, text: str, line: int, col: int) -> Span | None:
    """Where the name under the cursor is declared."""
    found = lookup(path, text, line, col)
    if found is None:
        return None
    word, local, sym = found
    field = _item_field(path, text, line, col, word)
    if field is not None:       # an item's field: the first effect declaring it (none for kind, times…)
        params = _field_params(word, field)
        if not params:
            return None
        p = params[0][1]
        return Span(p.span.file, p.span.line, p.span.col, p.span.line, p.span.col + len(word))
    named = _named_argument(path, text, line, col, word)
    if named is not None:       # `k` in `use g(p, k = 1)`: the parameter of what is called, not a `k` here
        param = named[1]
        return None if param is None else \
            Span(param.span.file, param.span.line, param.span.col, param.span.line, param.span.col + len(word))
    return local if local is not None else sym.name_span if sym is not None else None


def hover(path: str, text: str, line: int, col: int) -> str | None:
    """What the name under the cursor is, as Markdown: its declaration line and the comment above
    it, or a built-in function's usage."""
    found = lookup(path, text, line, col)
    if found is None:
        return None
    word, local, sym = found
    field = _item_field(path, text, line, col, word)
    if field is not None:
        return _field_hover(word, field)
    named = _named_argument(path, text, line, col, word)
    if named is not None:
        callee, p, ruleset = named
        if p is None or ruleset is None:
            b = BUILTINS.get(callee.split()[-1])
            return f"named argument `{word}` of {callee}" + (f"\n\n`{b.usage}`" if b is not None else "")
        return f"parameter `{word}` of {callee}\n\n```fuda\n{_source_of(p.span, ruleset.sources)}\n```"
    if local is not None:
        src = text.splitlines()[local.line - 1].strip()
        return f"local name `{word}`\n\n```fuda\n{src}\n```"
    if sym is not None:
        where = "" if sym.span.file == file_name(path) else f" — from {sym.span.file}"
        body = f"({sym.kind}{where})\n\n```fuda\n{sym.signature}\n```"
        return body + (f"\n\n{sym.doc}" if sym.doc else "")
    b = BUILTINS.get(word)
    if b is not None:
        return f"(built-in)\n\n`{b.usage}`"
    return None


def completions(path: str, text: str) -> list[tuple[str, str]]:
    """(name, kind) of everything that may be written in a ruleset: the declared names, the
    built-in functions and the language's keywords."""
    names = [(s.name, s.kind) for s in declared(path, text).values()]
    names += [(b, "built-in") for b in sorted(BUILTINS)]
    return names + [(k, "keyword") for k in keywords()]


def tokens(path: str, text: str) -> list[tuple[int, int, int, str]]:
    """(line, col, length, type) of every piece worth colouring: comments, texts, numbers,
    keywords and declared or built-in names (by their kind; TOKEN_TYPES)."""
    kinds = {name: s.kind for name, s in declared(path, text).items()}
    words = set(keywords())
    found = []
    for i, src in enumerate(text.splitlines(), 1):
        for m in PIECES.finditer(src):
            what = m.lastgroup
            if what == "name":
                word = m.group()
                kind = kinds.get(word) or ("built-in" if word in BUILTINS else None)
                if kind is None:        # a keyword used as a name (`fn role`) is coloured as the name
                    what = "keyword" if word in words else None
                else:
                    what = "enumMember" if kind.startswith("member of") else KIND_TOKEN.get(kind)
            if what is not None:
                found.append((i, m.start() + 1, m.end() - m.start(), what))
    return found


@functools.cache
def keywords() -> list[str]:
    """The language's keywords, from the grammar itself."""
    from ..parse import parser

    return sorted({t.pattern.value for t in parser().terminals
                   if t.pattern.type == "str" and WORD.fullmatch(t.pattern.value)})


# ------------------------------------------------------------------ helpers
def _item_field(path: str, text: str, line: int, col: int, word: str) -> Source | None:
    """The ruleset, checked, when the name under the cursor is a stack item's field (`it.role`):
    a card attribute of the same name is another thing, so the checked tree decides which `.NAME`
    this is (the window's own item name, where checking stopped short of it)."""
    src_line = text.splitlines()[line - 1]
    at = next((m.start() for m in WORD.finditer(src_line) if m.start() + 1 <= col <= m.end() + 1), 0)
    if at == 0 or src_line[at - 1] != ".":
        return None
    try:
        src = load_source(path, text)
    except FudaError:
        return None
    try:
        check(src)
    except FudaError:
        pass                # the names it reached before the first error are resolved all the same
    name = file_name(path)
    for d in src.decls:
        if d.span.file != name or not (d.span.line <= line <= d.span.end_line):
            continue
        for n in A.walk(d):
            if isinstance(n, A.Attr) and n.name == word and n.span.end_line == line \
                    and n.span.end_col - len(word) == at + 1 and _is_item(n, d):
                return src
    return None


def _named_argument(path: str, text: str, line: int, col: int, word: str
                    ) -> tuple[str, A.Param | None, Source | None] | None:
    """(what is called, its parameter, the ruleset) when the name under the cursor names an argument:
    `k` in `use g(p, k = 1)`, `r(p, k = n)` or `activate fx(k = 1)`. The parameter is None for a
    built-in's or an undeclared callee's."""
    name = file_name(path)
    try:
        module = parse_module(text, name)
    except FudaError:
        return None
    for n in A.walk(module.decls):
        kwargs = getattr(n, "kwargs", None)
        if not isinstance(kwargs, list) or not any(isinstance(kw, A.KwArg) and kw.name == word
                                                   and (kw.span.line, kw.span.col) <= (line, col) <= (kw.span.line, kw.span.col + len(word))
                                                   for kw in kwargs):
            continue
        callee, kinds = (n.name, (A.OptionsDecl,)) if isinstance(n, A.UseOptions) else \
            (n.effect, (A.EffectDecl,)) if isinstance(n, A.Activate) else \
            (n.func, (A.RuleDecl, A.FnDecl, A.OrderingDecl)) if isinstance(n, A.Call) else (None, ())
        if callee is None:
            return None
        try:
            src = load_source(path, text)
        except FudaError:
            return None
        decl = next((d for d in src.decls if isinstance(d, kinds) and d.name == callee), None)
        if decl is None:
            return f"{'built-in ' if callee in BUILTINS else ''}{callee}", None, None
        what = f"{KINDS[type(decl)]} {callee}"
        return what, next((p for p in decl.params if p.name == word), None), src
    return None


def _field_params(word: str, src: Source) -> list[tuple[A.EffectDecl, A.Param]]:
    """The effects that declare parameter ``word``, with it."""
    return [(d, p) for d in src.decls if isinstance(d, A.EffectDecl) for p in d.params if p.name == word]


def _is_item(e: A.Attr, holder: A.Decl) -> bool:
    if isinstance(e.ref, tuple):
        return e.ref[:1] == ("field",)
    return isinstance(holder, A.WindowDecl) and isinstance(e.obj, A.Name) and e.obj.name == holder.item_var


def _field_hover(word: str, src: Source) -> str:
    if word in ITEM_FIELDS:
        return f"(item field) {word}: {ITEM_FIELDS[word]} — every stack item has it"
    decls = _field_params(word, src)
    if not decls:
        return f"(item field) {word}"
    first = decls[0][1]
    kind = _source_of(first.type.span, src.sources)
    said = ", ".join(d.name for d, _ in decls)
    lines = [_source_of(Span(d.span.file, d.span.line, 1, d.span.line, 10**6), src.sources).strip() for d, _ in decls]
    other = "false" if kind == "bool" else "none"       # language.md §17: an item has its effect's fields only
    return (f"(item field) {word}: {kind} — a parameter of effect{'s' if len(decls) > 1 else ''} {said}"
            f" (reads {other} on an item of another effect)\n\n```fuda\n" + "\n".join(lines) + "\n```")


def _source_of(span: Span, sources: dict[str, str]) -> str:
    lines = sources.get(span.file, "").splitlines()
    if not 0 < span.line <= len(lines):
        return ""
    if span.end_line != span.line:
        return lines[span.line - 1][span.col - 1:]
    return lines[span.line - 1][span.col - 1:span.end_col - 1]


def _symbols(d: A.Decl, sources: dict[str, str]) -> Iterator[Symbol]:
    kind = KINDS.get(type(d))
    if kind is None:
        return
    name = getattr(d, "name", None) or d.key
    yield _symbol(name, kind, d.span, sources, whole=isinstance(d, A.FnDecl))
    if isinstance(d, A.EnumDecl):
        for m in d.members:
            yield _symbol(m.name, f"member of {d.name}", m.span, sources)
    if isinstance(d, A.OptionDecl) and d.type is not None and d.type.kind == "enum":    # `option claims: manual | …`
        for m in d.type.members:
            yield _symbol(m.name, f"member of option {d.name}", m.span, sources)
    if isinstance(d, A.CardsDecl):
        for item in d.items:
            if isinstance(item, A.CardAttrDecl):
                yield _symbol(item.name, "card attribute", item.span, sources)


_HOVER_LINES = 8        # a function written over several lines is shown whole, up to this many


def _symbol(name: str, kind: str, span: Span, sources: dict[str, str], whole: bool = False) -> Symbol:
    """``whole``: the signature is the declaration's text (a function over several lines: its
    first line often ends at `=`), else its first line."""
    lines = sources.get(span.file, "").splitlines()
    first = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    at = first.find(name, max(span.col - 1, 0))
    name_span = Span(span.file, span.line, at + 1, span.line, at + 1 + len(name)) if at >= 0 else span
    doc: list[str] = []
    i = span.line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):     # the comment block right above
        doc.insert(0, lines[i].lstrip()[1:].strip())
        i -= 1
    signature = first.strip()
    if whole and span.end_line > span.line:
        body = lines[span.line - 1:min(span.end_line, span.line - 1 + _HOVER_LINES)]
        signature = "\n".join(x.rstrip() for x in body).strip() + ("\n…" if span.end_line - span.line >= _HOVER_LINES else "")
    return Symbol(name, kind, span, name_span, signature, " ".join(doc))


def _local(path: str, text: str, word: str, line: int, col: int) -> Span | None:
    """The nearest binding of ``word`` before the cursor inside the declaration holding it — a
    parameter, ``let``, ``for``, an option's binder or a comprehension's name."""
    name = file_name(path)
    try:
        module = parse_module(text, name)
    except FudaError:
        return None
    here = (line, col)
    holder = next((d for d in module.decls if (d.span.line, d.span.col) <= here <= (d.span.end_line, d.span.end_col)),
                  None)
    if holder is None:
        return None
    best: Span | None = None
    for node, bound in _bindings(holder):
        at = (node.span.line, node.span.col)
        if bound == word and at <= here and (best is None or at >= (best.line, best.col)):
            best = node.span
    if best is None and isinstance(holder, A.WindowDecl) and word in (holder.item_var, holder.player_var):
        best = holder.span
    return best


def _bindings(node: object) -> Iterator[tuple[A.Node, str]]:
    """Every node below ``node`` that binds a name, with the name."""
    for n in A.walk(node):
        if isinstance(n, A.Param | A.Let | A.LetIn):
            yield n, n.name
        elif isinstance(n, A.For | A.Binder | A.Comprehension | A.Quantifier | A.Best | A.CardFor | A.CheckDecl
                        | A.ShowDecl | A.Offer | A.Simultaneous) and n.var:
            yield n, n.var
