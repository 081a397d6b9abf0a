"""Text → AST. Lark (LALR, contextual lexer, positions on) builds the tree; ``ToAst`` turns it into
pydantic nodes with spans; lark's exceptions become ``FudaError`` diagnostics naming expected tokens
in words. The grammar itself is grammar/fuda.lark and stays free of any Python.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from .errors import Diagnostic, FudaError, Span, error
from .resources import grammar_text


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer="basic", propagate_positions=True,
                start=["start", "expr"], maybe_placeholders=True, cache=True, postlex=_POSTLEX)


class _LineStarts:
    """Two readings of a line's first word that the grammar alone would get wrong:

    - A `deal … to hand` may end in `for PLAYERS`, so a `for p in players { … }` loop on the next line
      was read as the deal's ending (a syntax error at its `{`; newcomers met it first thing, after
      dealing). A line that starts with `for NAME in`, outside brackets, after a `deal` in the same
      block, is a loop: an empty statement `;` is put before it. (`deal … for` a list on a new line
      never reads `NAME in`: that would be a bool.)
    - A keyword that starts a statement (a line, or after `{`, `}`, `;`) and is assigned to or read a
      field of (`at = …`, `offer += 1`, `face.x`, `log[p] += 1`) is a name: a statement's optional
      ending (`move … at N`) or a statement word would otherwise take it.

    Lark starts this anew after each soft keyword (``_soft_keyword``) in the middle of a parse, so
    what it knows lives here between calls, and ``reset`` starts each parse."""
    always_accept = ()
    STARTS = {"LBRACE", "RBRACE", "SEMICOLON"}      # a statement may start after these, as on a new line
    HOLD_MAX = 64       # tokens held to see past a keyword's brackets (`log[p] =`)
    NAME_AFTER = {"EQUAL", "DOT", "__ANON_2", "__ANON_3", "__ANON_4", "__ANON_5", "__ANON_6"}    # = . += -= *= //= /=

    def reset(self) -> None:
        self.depth, self.dealt, self.prev_line, self.prev_type = 0, False, 0, ""
        self.queue: list[Token] = []    # tokens read from the lexer and not yet handed to the parser
        self.holding = ""               # "for" or "word": the queue's first token, told apart by what follows

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        while self.queue and not self.holding:      # left by the parse lark restarted
            yield self._note(self.queue.pop(0))
        for tok in stream:
            self.queue.append(tok)
            if self.holding == "for":
                if len(self.queue) < 3:
                    continue
                name = self.queue[1]
                if (name.type == "NAME" or _WORD.fullmatch(str(name)) and str(name) not in HARD) \
                        and self.queue[2].type == "IN":
                    self.queue.insert(0, Token.new_borrow_pos("SEMICOLON", ";", self.queue[0]))
            elif self.holding == "word":
                if self.queue[1].type == "LSQB" and len(self.queue) < self.HOLD_MAX:
                    # `log[p] += 1`: told apart by what follows the brackets (`move [a, b] to t` is a move)
                    depth = sum(+1 if t.type == "LSQB" else -1 if t.type == "RSQB" else 0 for t in self.queue[1:])
                    if depth > 0 or self.queue[-1].type == "RSQB":
                        continue
                    after = self.queue[-1]
                else:
                    after = self.queue[1]
                if after.type in self.NAME_AFTER:
                    self.queue[0] = Token.new_borrow_pos("NAME", str(self.queue[0]), self.queue[0])
            elif self.depth == 0 and (self.prev_line < (tok.line or 0) or self.prev_type in self.STARTS):
                if tok.type == "FOR" and self.dealt and self.prev_line < (tok.line or 0):
                    self.holding = "for"
                    continue
                if tok.type != "NAME" and str(tok) not in HARD and _WORD.fullmatch(str(tok)):
                    self.holding = "word"
                    continue
            self.holding = ""
            while self.queue:
                yield self._note(self.queue.pop(0))
        self.holding = ""
        while self.queue:
            yield self._note(self.queue.pop(0))

    def _note(self, t: Token) -> Token:
        if t.type in ("LPAR", "LSQB"):
            self.depth += 1
        elif t.type in ("RPAR", "RSQB"):
            self.depth = max(self.depth - 1, 0)
        elif t.type in ("LBRACE", "RBRACE", "SEMICOLON"):
            self.dealt = False
        elif t.type == "DEAL":
            self.dealt = True
        self.prev_line = t.end_line or self.prev_line
        self.prev_type = t.type
        return t


_POSTLEX = _LineStarts()
_POSTLEX.reset()


# Keywords are reserved only where they can stand: one lexer reads every keyword as a keyword (fast
# to start), and a keyword that does not fit where a name does is read as that name — so an option
# may be called `draw`, a variable `count` or a card attribute `face`. Control-flow words stay reserved.
HARD = {"if", "elif", "else", "while", "for", "repeat", "let", "return", "break", "continue", "true", "false",
        "none", "not", "and", "or", "in", "then"}
_WORD = re.compile(r"(?!\d)[\w♠♥♦♣♤♡♢♧★☆]+")


def _soft_keyword(e: UnexpectedInput) -> bool:
    """Error handler: feed a keyword that does not fit as a name, if a name fits."""
    if not isinstance(e, UnexpectedToken) or e.token.type == "NAME":
        return False
    word = str(e.token)
    if word in HARD or not _WORD.fullmatch(word):
        return False
    if word in _DECL_WORDS and e.token.column == 1:
        return False    # a declaration at the start of a line: most likely a '}' is missing before it
    ip = e.interactive_parser
    if "NAME" not in ip.accepts():
        return False
    if word == "use":
        _USES_AS_NAMES.append(e.token)
    ip.feed_token(Token.new_borrow_pos("NAME", str(e.token), e.token))
    return True


# `use` read as a name, where no decision's options stand: a syntax error right after `use g(…)` is
# said as that (`x = use g(…)` in a function, `use g(…) { … }` as a statement)
_USES_AS_NAMES: list[Token] = []


def _misplaced_use(tok: Token, file: str, text: str) -> Diagnostic | None:
    """The error for `use NAME(…)` that the parser stopped at or right after, if one was read as a name."""
    for use in reversed(_USES_AS_NAMES):
        if use.end_pos is None or tok.start_pos is None or use.end_pos > tok.start_pos:
            continue
        between = text[use.end_pos:tok.start_pos]
        if "\n" in between:      # a variable named use, ending a line
            return None
        if tok.type == "NAME" and between.isspace():
            name, length = str(tok), len("use" + between + str(tok))
        elif m := re.fullmatch(r"(\s+(\w+)(\s*\([^{}]*\))?)\s*", between):
            name, length = m.group(2), len("use" + m.group(1))
        else:
            return None
        span = Span(file, use.line or 1, use.column or 1, use.line or 1, (use.column or 1) + length)
        return Diagnostic("E309", f"`use {name}(…)` stands among a decision's options", span,
                          f"`use` goes among the options of a choose, offer, simultaneous or window: "
                          f"choose p {{ use {name}(…) }}")
    return None


def normal_text(text: str) -> str:
    """A ruleset's text as it is read: lines may end in CR LF or CR alone (old Mac editors; one CR
    file was a single comment line), and letters written as a base and a combining accent (``é`` as
    e + U+0301, ``ガ`` as カ + U+3099, from some copy-pastes) are the one character they look like,
    so that a name reads the same however it was typed (NFC)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def parse_module(text: str, file: str) -> A.Module:
    """Parse a whole ruleset file (its text as ``normal_text`` gives it)."""
    text = normal_text(text)
    _POSTLEX.reset()
    _USES_AS_NAMES.clear()
    try:
        tree = parser().parse(text, start="start", on_error=_soft_keyword)
        return ToAst(file).transform(tree)
    except UnexpectedInput as e:
        raise _syntax_error(e, file, text) from None
    except VisitError as e:
        if isinstance(e.orig_exc, FudaError):
            e.orig_exc.sources[file] = text     # not the padded text of an expression inside a text
            raise e.orig_exc from None
        if isinstance(e.orig_exc, RecursionError):
            raise too_deep(file, text) from None
        raise
    except RecursionError:
        raise too_deep(file, text) from None


def words_of(text: str) -> list[str]:
    """The ruleset's words as the lexer reads them: comments and layout left out (what names the
    rules, not how they are written down); the text itself where it cannot be read."""
    try:
        return [str(t) for t in parser().lex(normal_text(text))]
    except UnexpectedInput:
        return [text]


def too_deep(file: str, text: str) -> FudaError:
    """Python's recursion limit, hit by hundreds of operators, brackets or blocks inside one another."""
    return FudaError([Diagnostic("E309", "the rules nest too deeply to be read", Span(file, 1, 1, 1, 2),
                                 "split a very long expression with let, or deep blocks into rules")], {file: text})


def parse_expr(src: str, file: str, line: int, col: int) -> A.Expr:
    """Parse an expression that sits at (line, col) of ``file`` — used for {…} inside texts."""
    padded = "\n" * (line - 1) + " " * (col - 1) + src
    _POSTLEX.reset()
    _USES_AS_NAMES.clear()
    try:
        tree = parser().parse(padded, start="expr", on_error=_soft_keyword)
    except UnexpectedInput as e:
        raise _syntax_error(e, file, padded, code_prefix="in text: ", code="E004") from None
    expr: A.Expr = ToAst(file).transform(tree)
    return expr


# ------------------------------------------------------------------ error translation
_WORDS = {
    "NAME": "a name", "INT": "a whole number", "DECIMAL": "a number", "STRING": 'a text in "quotes"',
    "$END": "the end of the file", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "COLON": "':'", "DOT": "'.'", "EQUAL": "'='",
    "SEMICOLON": "';'", "VBAR": "'|'", "MINUS": "'-'", "PLUS": "'+'", "STAR": "'*'", "SLASH": "'/'",
}


def _describe_terminal(name: str) -> str:
    if name in _WORDS:
        return _WORDS[name]
    for t in parser().terminals:
        if t.name == name and t.pattern.type == "str":
            return f"'{t.pattern.value}'"
    return name.lower().replace("_", " ")


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    if tok.type == "NAME":
        return f"name '{tok}'"
    if tok.type in ("INT", "DECIMAL"):
        return f"number {tok}"
    if tok.type == "STRING":
        return f"text {tok}"
    return f"'{tok}'"


_DECL_WORDS = {"show", "ruleset", "extends", "players", "option", "enum", "cards", "zone", "var", "fn", "rule", "setup",
               "phase", "effect", "window", "windows", "check", "ordering", "limit", "override",
               "evaluate", "allies", "belief", "score", "options"}
_COMPARE = ("==", "!=", "<", ">", "<=", ">=")
_QUANT_WORDS = {"any": "any x in LIST where COND", "all": "all x in LIST where COND",
                "count": "count x in LIST where COND", "best": "best x in LIST by KEY",
                "sorted": "sorted x in LIST by KEY", "distinct": "distinct x in LIST by KEY"}
# words that start a statement: a variable so named cannot be assigned at the start of one
_STATEMENT_WORDS = {"move", "deal", "shuffle", "reveal", "hide", "swap", "choose", "offer", "simultaneous", "turn",
                    "goto", "activate", "negate", "win", "lose", "finish", "rejoin", "end", "log", "tell", "reverse",
                    "insert", "record"}
# a function's braces, still open where the parser stopped: `fn f(…) -> T { let a = …` (no other brace since)
_FN_BLOCK = re.compile(r"\bfn\s+\w+\s*\([^)]*\)[^={}]*\{[^{}]*$")
_FN_STEPS = "fn f(x: int) -> int { let a = x * 2  let b = a + 1  a * b }"


def _open_braces(text: str, before_line: int | None = None) -> list[tuple[int, int]]:
    """(line, col) of every '{' still open at the start of ``before_line`` (default: at the end);
    braces inside texts and comments do not count."""
    stack: list[tuple[int, int]] = []
    for n, src in enumerate(text.splitlines(), start=1):
        if before_line is not None and n >= before_line:
            break
        in_str = esc = False
        for c, ch in enumerate(src, start=1):
            if in_str:
                in_str = esc or ch != '"'
                esc = not esc and ch == "\\"
            elif ch == '"':
                in_str = True
            elif ch == "#":
                break
            elif ch == "{":
                stack.append((n, c))
            elif ch == "}" and stack:
                stack.pop()
    return stack


# statements whose optional ending starts with a word that may also start the next line
_OPTIONAL_ENDINGS = {"deal": ("for",), "move": ("face", "under"), "finish": ("last",), "activate": ("by", "from")}


def _swallowed_clause(line: str, previous: str) -> tuple[str, str] | None:
    """(statement, word) when ``line`` starts with a word that the statement on ``previous`` takes
    as its optional ending (`deal … to hand` then `for k in …`): the parser joined the two."""
    first = re.match(r"\s*(\w+)", line)
    stmt = re.match(r"(\w+)", previous)
    if not first or not stmt:
        return None
    word = first.group(1)
    return (stmt.group(1), word) if word in _OPTIONAL_ENDINGS.get(stmt.group(1), ()) else None


def _previous_line(text: str, line: int) -> str:
    """The last non-blank, non-comment line before ``line`` (1-based), stripped."""
    lines = text.splitlines()
    for i in range(min(line, len(lines) + 1) - 2, -1, -1):
        s = lines[i].split("#", 1)[0].strip()
        if s:
            return s
    return ""


def _syntax_error(e: UnexpectedInput, file: str, text: str, code_prefix: str = "", code: str = "") -> FudaError:
    """``code`` replaces the E00x code (E004 for an expression inside a text)."""
    line, col = max(getattr(e, "line", 1) or 1, 1), max(getattr(e, "column", 1) or 1, 1)
    hint = None
    in_text = bool(code)
    if isinstance(e, UnexpectedToken) and e.token.type != "$END" and not in_text \
            and (use := _misplaced_use(e.token, file, text)) is not None:
        return FudaError([use], {file: text})
    if isinstance(e, UnexpectedToken) and e.token.type != "$END":
        tok = e.token
        expected = sorted({_describe_terminal(t) for t in e.expected})
        shown = ", ".join(expected[:10]) + (", …" if len(expected) > 10 else "")
        msg = f"{code_prefix}unexpected {_describe_token(tok)}" + (f"; expected {shown}" if expected else "")
        end_col = (tok.end_column or col + 1) if tok.end_line == tok.line else col + len(str(tok))
        span = Span(file, tok.line or line, tok.column or col, tok.line or line, end_col)
        code = code or "E001"
        src = text.splitlines()[span.line - 1] if 0 < span.line <= len(text.splitlines()) else ""
        first = re.match(r"\w+", src)
        word = first.group(0) if first else ""
        before = re.search(r"(\w+)\s*$", src[:span.col - 1])
        opened = _open_braces(text, span.line) if word in _DECL_WORDS and not in_text else []
        if opened:
            hint = (f"`{word}` starts a declaration, but the '{{' at {opened[-1][0]}:{opened[-1][1]} "
                    f"is still open: is a '}}' missing before line {span.line}?")
        elif src.lstrip().startswith("[") and re.match(r"\s*let\b", _previous_line(text, span.line)) \
                and not _previous_line(text, span.line).rstrip().endswith(";") and not in_text:
            hint = ("a line starting with '[' goes on from the let above (read as an index into its value): "
                    "end the let with ';'")
        elif str(tok) == "let" and re.search(r"\bfn\b.*=\s*$", src[:span.col - 1]):
            hint = f"a function with named steps writes them in braces, without '=': {_FN_STEPS}"
        elif (tok.type != "NAME" or str(tok) == "}" or (before and before.group(1) in _STATEMENT_WORDS)) \
                and _FN_BLOCK.search(text[:tok.start_pos or 0]) and not in_text \
                and ("'}'" in expected or "'let'" in expected or tok.type == "NAME"):
            hint = (f"a function's braces hold lets, then its result (no return, nothing that acts): {_FN_STEPS}; "
                    "a rule may act and return")
            if str(tok) == "}":
                hint += "; a step's value goes on into a next line starting with (, [ or -: end the step with ';'"
        elif str(tok) == "where" and re.match(r"\s*for\b", src):
            hint = ("a for loop takes no where: test with an if inside the loop, or go over a filtered list, "
                    "for x in [x for x in L where C] { … }")
        elif (clause := _swallowed_clause(src, _previous_line(text, span.line))) is not None:
            hint = (f"the line before may go on with `{clause[1]}` (`{clause[0]} … {clause[1]} …`), so this line "
                    f"was read as part of it: end it with ';'")
        elif str(tok) in ("rollout", "where") and re.search(r"\b(where|rollout)\b|\"", src[:span.col - 1]):
            hint = 'an option\'s parts come in this order: NAME x in …, where … [else "why"], rollout weight …, "label" { … }'
        elif word == "extends" and str(tok) in (".", "/"):
            hint = "name the base without .fuda: `extends base` finds base.fuda next to this file or a bundled ruleset"
        elif str(tok) == "for" and re.search(r"\[[^\[\]]*\bfor\b[^\[\]]*$", src[:span.col - 1]):
            hint = ("a comprehension takes one for: collect in a loop (for z in L { for c in z { … } }), join lists "
                    "with +, or nest quantifiers (any z in L where any c in z where …)")
        elif str(tok) == "for" and re.search(r"\(\s*[^\[(]*$", src[:span.col - 1]):
            hint = "a list comprehension is written in brackets: sum([c.rank for c in hand[p]])"
        elif (str(tok) in ("=", "+=", "-=", "*=", "//=", "/=") and before and before.group(1) in _STATEMENT_WORDS
              and re.fullmatch(r"(.*[{;])?\s*\w+\s*", src[:span.col - 1])):
            hint = (f"`{before.group(1)}` starts a statement here, so a variable of that name cannot be assigned at "
                    "the start of one: choose another name (total, n_cards)")
        elif str(tok) == "in" and (mm := re.search(r"\b(min|max)\s+\w+\s*$", src[:span.col - 1])) \
                or tok.type == "NAME" and re.match(r"\w+\s+in\b", src[span.col - 1:]) \
                and (mm := re.search(r"\b(min|max)\s*$", src[:span.col - 1])):     # in a text's {…}: at the name
            hint = (f"{mm.group(1)} is a function of a list ({mm.group(1)}(L)); for the element with the "
                    f"{'smallest' if mm.group(1) == 'min' else 'greatest'} key write "
                    f"`best x in L by {'-' if mm.group(1) == 'min' else ''}KEY`")
        elif str(tok) == "," and (by := re.search(r"\bby\b((?:(?!\bby\b).)*)$", src[:span.col - 1])) \
                and by.group(1).count("(") == by.group(1).count(")"):
            hint = "several keys make a tuple, written in parentheses: by (a, b) — compared part by part"
        elif str(tok) == "=" and any("==" in x for x in expected):
            hint = "use == to compare; = assigns"
        elif before and before.group(1) == "override":
            hint = (f"{'an' if str(tok)[:1] in 'aeiou' else 'a'} {tok} cannot be overridden; override replaces "
                    "an option, var, fn, rule, setup, phase, effect, window, check, ordering, options group or "
                    "named require of the base, and adds members to an enum")
        elif str(tok) == "elif" and re.search(r"\bthen\b", src[:span.col - 1]):
            hint = "an if expression chains with else if: if A then X else if B then Y else Z"
        elif str(tok) == "if" and before and before.group(1) == "else":
            hint = "write elif: if A { … } elif B { … } else { … }"
        elif str(tok) in ("else", "elif") or (before and before.group(1) in ("else", "elif")):
            hint = f"{str(tok) if str(tok) in ('else', 'elif') else before.group(1)} comes right after the '}}' of an if block"  # type: ignore[union-attr]
        elif str(tok) in _COMPARE and (qm := re.search(r"\b(count|any|all|best)\b[^{]*\bwhere\b", src[:span.col - 1])):
            hint = (f"`{qm.group(1)} … where …` takes everything after it: to compare it, put it in parentheses, "
                    f"({qm.group(1)} x in L where C) {tok} …")
        elif str(tok) in _COMPARE and re.search(r"(==|!=|<=|>=|<|>)", src[:span.col - 1]):
            hint = "comparisons do not chain: write a < b and b < c"
        elif (tok.type == "NAME" and before and before.group(1) in _QUANT_WORDS
              and re.search(r"(\band|\bor|\bnot|[=<>+*/-])\s*\w+\s*$", src[:span.col - 1])):
            q = before.group(1)
            msg = f"{code_prefix}unexpected {_describe_token(tok)}"    # what the parser expected is beside the point
            op = re.search(r"(\band|\bor|\bnot|==|!=|<=|>=|[<>+*/-])\s*\w+\s*$", src[:span.col - 1])
            shown = op.group(1) if op else "=="
            form = _QUANT_WORDS[q].split(" where ")[0] + " where C" if q not in ("best", "sorted", "distinct") else _QUANT_WORDS[q]
            hint = (f"`{_QUANT_WORDS[q]}` takes everything after it, so it cannot stand right after `{shown}`: "
                    f"wrap it in parentheses, `… {shown} ({form.replace('LIST', 'L')})`"
                    + ("" if q in ("count", "best", "sorted", "distinct") else "; after and, or or not it needs none"))
        elif before and before.group(1) in _QUANT_WORDS and "a name" in expected:
            # the keyword read as a name (an enum member `all` as an option's default): the caret on it
            q = before.group(1)
            msg = f"{code_prefix}`{q}` begins `{_QUANT_WORDS[q]}` here, so it cannot stand for a name"
            span = Span(file, span.line, before.start(1) + 1, span.line, before.end(1) + 1)
            hint = f"`{q}` is a keyword in expressions ({_QUANT_WORDS[q]}); choose another name"
        elif (tok.type == "NAME" and "'{'" in expected) or expected == ["'{'"]:
            hint = "a block starts with '{'"
        elif str(tok) == "}" and len(expected) > 0:
            hint = "something is missing before this '}'"
    elif isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream if e.pos_in_stream is not None else -1
        ch = text[pos] if 0 <= pos < len(text) else "?"
        msg = f"{code_prefix}unexpected character {ch!r}"
        span = Span(file, line, col, line, col + 1)
        code = code or "E002"
        ascii_ch = unicodedata.normalize("NFKC", ch)
        kind = unicodedata.category(ch)
        if kind[0] in "CZM":    # a character that does not show, or not by itself: say which it is
            msg = f"{code_prefix}unexpected character U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()
        if kind[0] == "Z":
            hint = "a space fuda does not read as one (pasted text often carries it): write an ordinary space"
        elif kind[0] == "C":
            hint = "delete it: most editors do not show it (pasted text often carries it)"
        elif kind[0] == "M":
            hint = "a mark that joins no letter here: delete it, or write the letter with its mark as one character"
        elif ch == '"':
            hint = "a text must be closed on the same line"
        elif ch == "'":
            hint = 'texts use double quotes: "…"'
        elif ascii_ch != ch and ascii_ch.isascii():
            wide = unicodedata.east_asian_width(ch) in "FW"
            hint = f"{ch!r} is a {'full-width' if wide else 'look-alike'} character; write {ascii_ch!r}"
    else:  # UnexpectedEOF or a token at $END
        lines = text.splitlines() or [""]
        line = len(lines)
        col = len(lines[-1]) + 1
        msg = code_prefix + ("the expression ends too soon" if in_text else "unexpected end of file")
        if isinstance(e, UnexpectedToken | UnexpectedEOF):
            expected = sorted({_describe_terminal(t) for t in e.expected})
            msg += "; expected " + ", ".join(expected[:10]) + (", …" if len(expected) > 10 else "")
        span = Span(file, line, col, line, col + 1)
        code = code or "E003"
        opened = _open_braces(text) if not in_text else []
        last = re.search(r"(\w+)\s*$", text)
        if opened:
            hint = f"is a '}}' missing? the '{{' at {opened[-1][0]}:{opened[-1][1]} is never closed"
        elif last and last.group(1) in _QUANT_WORDS:        # `{count}`: a variable named like a keyword
            hint = f"`{last.group(1)}` is a keyword in expressions ({_QUANT_WORDS[last.group(1)]}); " \
                   "choose another name"
    if in_text and hint is None:
        hint = "{…} in a text holds an expression; write {{ or }} for a brace itself"
    return FudaError([Diagnostic(code, msg, span, hint)], {file: text})


# ------------------------------------------------------------------ tree → AST
def _span(file: str, meta: Any) -> Span:
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token) -> Span:
    return Span(file, tok.line or 0, tok.column or 0, tok.end_line or 0, tok.end_column or 0)


class _Tag:
    """A tagged helper value for grammar rules whose children are not told apart by type."""

    __slots__ = ("tag", "value", "extra")

    def __init__(self, tag: str, value: Any, extra: Any = None) -> None:
        self.tag, self.value, self.extra = tag, value, extra


def _get(children: list[Any], cls: type) -> list[Any]:
    return [c for c in children if isinstance(c, cls)]


def _option_items(children: list[Any]) -> tuple[list[A.Option], list[A.UseOptions]]:
    """A decision's options and its ``use``s, each ``use`` knowing how many options come before it."""
    options: list[A.Option] = []
    uses: list[A.UseOptions] = []
    for x in children:
        if isinstance(x, A.Option):
            options.append(x)
        elif isinstance(x, A.UseOptions):
            x.at = len(options)
            uses.append(x)
    return options, uses


def _first(children: list[Any], cls: type) -> Any:
    for c in children:
        if isinstance(c, cls):
            return c
    return None


def _tag(children: list[Any], tag: str) -> Any:
    for c in children:
        if isinstance(c, _Tag) and c.tag == tag:
            return c
    return None


def _names(children: list[Any]) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type == "NAME"]


def _override(children: list[Any]) -> bool:
    return any(isinstance(c, Token) and c.type == "OVERRIDE" for c in children)


_INTERP = re.compile(r"\{\{|\}\}|\{((?:[^{}]|\{[^{}]*\})*)\}|\\(.)")   # {expr}, which may hold a text with its own {…}


@v_args(meta=True)
class ToAst(Transformer):  # type: ignore[type-arg]
    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    def sp(self, meta: Any) -> Span:
        return _span(self.file, meta)

    def name_span(self, tok: Any) -> Span | None:
        """Where a binder's name is written (an error about the name points there)."""
        return _tok_span(self.file, tok) if isinstance(tok, Token) and tok.line else None

    # -------------------------------------------------------------- text
    def text(self, meta: Any, c: list[Any]) -> A.Text:
        tok: Token = c[0]
        raw = str(tok)[1:-1]
        halves: list[list[str | A.Expr]] = []
        start = 0
        # split at the first " | " outside braces
        depth, cut = 0, -1
        for i, ch in enumerate(raw):
            depth += ch == "{"
            depth -= ch == "}"
            if depth == 0 and raw.startswith(" | ", i):
                cut = i
                break
        pieces = [(raw, 0)] if cut < 0 else [(raw[:cut], 0), (raw[cut + 3:], cut + 3)]
        for piece, offset in pieces:
            halves.append(self.interpolate(piece, tok, start + offset))
        return A.Text(span=self.sp(meta), parts=halves)

    def interpolate(self, piece: str, tok: Token, offset: int) -> list[str | A.Expr]:
        """Literal parts and {expr} parts of (a half of) a text; ``offset``: where it starts in ``tok``."""
        parts: list[str | A.Expr] = []
        buf = ""
        pos = 0
        for m in _INTERP.finditer(piece):
            self.no_lone_brace(piece, pos, m.start(), tok, offset)
            buf += piece[pos:m.start()]
            pos = m.end()
            g = m.group(0)
            if g == "{{":
                buf += "{"
            elif g == "}}":
                buf += "}"
            elif g.startswith("\\"):
                buf += {"n": "\n", "t": "\t"}.get(m.group(2), m.group(2))
            else:
                if buf:
                    parts.append(buf)
                    buf = ""
                col = (tok.column or 1) + 1 + offset + m.start(1)
                parts.append(parse_expr(m.group(1), self.file, tok.line or 1, col))
        self.no_lone_brace(piece, pos, len(piece), tok, offset)
        buf += piece[pos:]
        if buf:
            parts.append(buf)
        return parts

    def no_lone_brace(self, piece: str, start: int, end: int, tok: Token, offset: int) -> None:
        """A ``{`` or ``}`` left in the literal part of a text is a typo (``{n of {n}``), not text."""
        i = next((i for i in range(start, end) if piece[i] in "{}"), -1)
        if i >= 0:
            col = (tok.column or 1) + 1 + offset + i
            line = tok.line or 1
            what = "a { that is not closed" if piece[i] == "{" else "a } that closes nothing"
            raise error("E004", f"in text: {what}", Span(self.file, line, col, line, col + 1),
                        f"write {piece[i] * 2} for a brace in the text")

    # -------------------------------------------------------------- declarations
    def start(self, meta: Any, c: list[Any]) -> A.Module:
        return A.Module(file=self.file, decls=list(c))

    def ruleset_decl(self, meta: Any, c: list[Any]) -> A.RulesetDecl:
        return A.RulesetDecl(span=self.sp(meta), name=str(c[0]), title=_first(c, A.Text))

    def extends_decl(self, meta: Any, c: list[Any]) -> A.ExtendsDecl:
        quoted = c[0].type == "STRING"          # a path: `extends "../../dominion.fuda"`
        return A.ExtendsDecl(span=_tok_span(self.file, c[0]), base=str(c[0])[1:-1] if quoted else str(c[0]),
                             path=quoted)

    def players_decl(self, meta: Any, c: list[Any]) -> A.PlayersDecl:
        lo = int(c[0])
        hi = next((t.value for t in c[1:] if isinstance(t, _Tag) and t.tag == "hi"), lo)
        default = next((t.value for t in c[1:] if isinstance(t, _Tag) and t.tag == "default"), None)
        seats: list[A.Text] = next((t.value for t in c[1:] if isinstance(t, _Tag) and t.tag == "seats"), [])
        return A.PlayersDecl(span=self.sp(meta), min=lo, max=hi, default=default, seats=seats)

    def seats_tail(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("seats", list(c))

    def range_tail(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("hi", int(c[0]))

    def default_tail(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("default", int(c[0]))

    def option_decl(self, meta: Any, c: list[Any]) -> A.OptionDecl:
        return A.OptionDecl(
            span=self.sp(meta), override=_override(c), name=str(_names(c)[0]), type=_first(c, A.OptType),
            default=_first(c, A.Expr), label=_first(c, A.Text))

    def opt_type_named(self, meta: Any, c: list[Any]) -> A.OptType:
        return A.OptType(span=self.sp(meta), kind="named", name=str(c[0]), members=[])

    def opt_type_range(self, meta: Any, c: list[Any]) -> A.OptType:
        return A.OptType(span=self.sp(meta), kind="range", name=str(c[0]), lo=c[1], hi=c[2], members=[])

    def int_bound(self, meta: Any, c: list[Any]) -> int:
        return int("".join(str(t) for t in c))

    def opt_type_enum(self, meta: Any, c: list[Any]) -> A.OptType:
        return A.OptType(span=self.sp(meta), kind="enum", name=None, members=c[0])

    def enum_decl(self, meta: Any, c: list[Any]) -> A.EnumDecl:
        return A.EnumDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]), members=c[-1])

    def enum_members(self, meta: Any, c: list[Any]) -> list[A.EnumMember]:
        return list(c)

    def enum_member(self, meta: Any, c: list[Any]) -> A.EnumMember:
        return A.EnumMember(span=_tok_span(self.file, c[0]), name=str(c[0]), label=_first(c, A.Text))

    def cards_template(self, meta: Any, c: list[Any]) -> A.CardsDecl:
        names = _names(c)
        args = c[1] or []
        zone = names[1] if len(names) > 1 else None
        return A.CardsDecl(
            span=self.sp(meta), template=str(names[0]), args=list(args),
            items=[], zone=str(zone) if zone else None, zone_span=_tok_span(self.file, zone) if zone else None)

    def cards_custom(self, meta: Any, c: list[Any]) -> A.CardsDecl:
        zone = _names(c)
        return A.CardsDecl(
            span=self.sp(meta), template=None, args=[], items=[x for x in c if isinstance(x, A.Node)],
            zone=str(zone[0]) if zone else None, zone_span=_tok_span(self.file, zone[0]) if zone else None)

    def card_attr(self, meta: Any, c: list[Any]) -> A.CardAttrDecl:
        return A.CardAttrDecl(span=self.sp(meta), name=str(c[0]), type=c[1],
                                              default=c[2] if len(c) > 2 else None)

    def card_def(self, meta: Any, c: list[Any]) -> A.CardDef:
        label = c[1] if len(c) > 1 and isinstance(c[1], A.Text) else None
        return A.CardDef(span=self.sp(meta), name=c[0], label=label, fields=list(c[2 if label else 1:]))

    def card_field(self, meta: Any, c: list[Any]) -> A.KwArg:
        return A.KwArg(span=self.sp(meta), name=str(c[0]), value=c[1])

    def card_for(self, meta: Any, c: list[Any]) -> A.CardFor:
        return A.CardFor(span=self.sp(meta), var=str(c[0]), source=c[1], items=list(c[2:]))

    def card_if(self, meta: Any, c: list[Any]) -> A.CardIf:
        other = _tag(c, "else")
        return A.CardIf(span=self.sp(meta), cond=c[0], items=[x for x in c[1:] if not isinstance(x, _Tag)],
                        other=other.value if other else [])

    def card_in(self, meta: Any, c: list[Any]) -> A.CardIn:
        return A.CardIn(span=self.sp(meta), zone=str(c[0]), zone_span=_tok_span(self.file, c[0]), items=list(c[1:]))

    def card_else(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("else", list(c))

    def card_elif(self, meta: Any, c: list[Any]) -> _Tag:
        """`elif` reads as `else { if … }`."""
        return _Tag("else", [self.card_if(meta, c)])

    def zone_decl(self, meta: Any, c: list[Any]) -> A.ZoneDecl:
        kind: _Tag = c[1]
        tags = [x for x in c if isinstance(x, _Tag)]
        flags = [t.tag for t in tags if t.tag not in ("kind", "if")]
        if len(flags) != len(set(flags)):       # `pile hidden public`: the first one won, silently
            twice = next(f for f in flags if flags.count(f) > 1)
            raise error("E309", {"vis": "a zone has one visibility", "per": "`per player` is written twice",
                                 "sorted": "`sorted` is written twice", "top_up": "`top up` is written twice",
                                 "transient": "`transient` is written twice"}
                        .get(twice, "a zone's word is written twice"), self.sp(meta))
        vis = next((t.value for t in tags if t.tag == "vis"), "public")
        return A.ZoneDecl(
            span=self.sp(meta), name=str(c[0]), kind=kind.value, width=kind.extra[0] if kind.extra else None,
            height=kind.extra[1] if kind.extra else None, per_player=any(t.tag == "per" for t in tags),
            visibility=vis, sorted=any(t.tag == "sorted" for t in tags), top_up=any(t.tag == "top_up" for t in tags),
            transient=any(t.tag == "transient" for t in tags), label=_first(c, A.Text), in_game=next((t.value for t in tags if t.tag == "if"), None))

    def decl_if(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("if", c[0])

    def zk_pile(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("kind", "pile")

    def zk_hand(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("kind", "hand")

    def zk_grid(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("kind", "grid", (c[0], c[1]))

    def zk_sequence(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("kind", "sequence")

    def per_player(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("per", True)

    def zone_sorted(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("sorted", True)

    def zone_top_up(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("top_up", True)

    def zone_transient(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("transient", True)

    def visibility(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("vis", str(c[0]))

    def var_decl(self, meta: Any, c: list[Any]) -> A.VarDecl:
        scope = _tag(c, "scope")
        vis = _tag(c, "vis")
        cond = _tag(c, "if")
        return A.VarDecl(
            span=self.sp(meta), override=_override(c), name=str(_names(c)[0]), type=_first(c, A.TypeRef),
            scope=scope.value if scope else "global", init=_first(c, A.Expr), in_game=cond.value if cond else None,
            visibility=vis.value if vis else "public", label=_first(c, A.Text),
            role=any(isinstance(x, Token) and x.type == "ROLE" for x in c),
            carried=any(isinstance(x, Token) and x.type == "CARRIED" for x in c))

    def scope_player(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("scope", "player")

    def scope_card(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("scope", "card")

    def fn_decl(self, meta: Any, c: list[Any]) -> A.FnDecl:
        params = next((x for x in c if isinstance(x, list)), None) or []
        return A.FnDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                                        params=params, ret=_first(c, A.TypeRef), body=_first(c, A.Expr))

    def fn_block(self, meta: Any, c: list[Any]) -> A.Expr:
        """The lets, innermost last, around the result."""
        body: A.Expr = c[-1]
        for let in reversed(c[:-1]):
            body = A.LetIn(span=let.span, name=let.name, type=let.type, value=let.value, body=body)
        return body

    def fn_let(self, meta: Any, c: list[Any]) -> A.Let:
        return A.Let(span=self.sp(meta), name=str(c[0]), type=_first(c, A.TypeRef), value=c[-1])

    def rule_decl(self, meta: Any, c: list[Any]) -> A.RuleDecl:
        lists = [x for x in c if isinstance(x, list)]
        params = lists[0] if len(lists) == 2 else []
        return A.RuleDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                                          params=params, ret=_first(c, A.TypeRef), body=lists[-1])

    def setup_decl(self, meta: Any, c: list[Any]) -> A.SetupDecl:
        return A.SetupDecl(span=self.sp(meta), override=_override(c), body=c[-1])

    def phase_decl(self, meta: Any, c: list[Any]) -> A.PhaseDecl:
        return A.PhaseDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                           label=_first(c, A.Text), body=c[-1],
                           pause=any(isinstance(x, Token) and x.type == "PAUSE" for x in c))

    def effect_decl(self, meta: Any, c: list[Any]) -> A.EffectDecl:
        lists = [x for x in c if isinstance(x, list)]
        params = lists[0] if len(lists) == 2 else []
        return A.EffectDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                                            params=params, label=_first(c, A.Text), body=lists[-1])

    def window_decl(self, meta: Any, c: list[Any]) -> A.WindowDecl:
        names = _names(c)
        options, uses = _option_items(c)
        when = _tag(c, "when")
        resp = _tag(c, "responders")
        ask = _tag(c, "ask_all")
        ask_expr = None
        if ask is not None:
            ask_expr = ask.value or A.Lit(span=self.sp(meta), kind="bool", value=True)
        return A.WindowDecl(
            span=self.sp(meta), override=_override(c), name=str(names[0]), label=_first(c, A.Text),
            item_var=str(names[1]), player_var=str(names[2]), when=when.value if when else None,
            responders=resp.value if resp else None, ask_all=ask_expr,
            simultaneous=_tag(c, "simultaneous") is not None, once=_tag(c, "once") is not None,
            options=options, uses=uses)

    def w_when(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("when", c[0])

    def w_responders(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("responders", c[0])

    def w_ask_all(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("ask_all", c[0] if c else None)

    def w_simultaneous(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("simultaneous", None)

    def w_once(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("once", None)

    def windows_decl(self, meta: Any, c: list[Any]) -> A.WindowsDecl:
        names = [x for x in c if isinstance(x, Token)]
        place: list[Token] = next((x for x in c if isinstance(x, list)), [])
        return A.WindowsDecl(span=self.sp(meta), names=[str(x) for x in names],
                             name_spans=[_tok_span(self.file, x) for x in names],
                             place=str(place[0]) if place else None, anchor=str(place[1]) if place else None,
                             anchor_span=_tok_span(self.file, place[1]) if place else None)

    def windows_place(self, meta: Any, c: list[Any]) -> list[Token]:
        return list(c)

    def check_decl(self, meta: Any, c: list[Any]) -> A.CheckDecl:
        cf = _tag(c, "check_for")
        exprs = _get(c, A.Expr)
        return A.CheckDecl(
            span=self.sp(meta), override=_override(c), name=str(_names(c)[0]), label=_first(c, A.Text),
            var=cf.value if cf else None, source=cf.extra if cf else None, cond=exprs[-1], body=c[-1])

    def check_for(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("check_for", str(c[0]), c[1])

    def ordering_decl(self, meta: Any, c: list[Any]) -> A.OrderingDecl:
        params = next((x for x in c if isinstance(x, list)), None) or []
        return A.OrderingDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                                              params=params, tiers=_get(c, A.Tier))

    def tier(self, meta: Any, c: list[Any]) -> A.Tier:
        return A.Tier(span=self.sp(meta), cond=c[0], by=c[1] if len(c) > 1 else None)

    def show_decl(self, meta: Any, c: list[Any]) -> A.ShowDecl:
        order = next((x for x in c if isinstance(x, _Tag) and x.tag == "sorted"), None)
        return A.ShowDecl(span=self.sp(meta), var=str(c[0]), text=_first(c, A.Text),
                          order=order.value if order is not None else None)

    def show_sorted(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("sorted", c[0])

    def require_decl(self, meta: Any, c: list[Any]) -> A.RequireDecl:
        name = c[1] if isinstance(c[0], Token) and c[0].type == "OVERRIDE" else c[0]
        return A.RequireDecl(span=self.sp(meta), override=_override(c),
                             name=str(name) if isinstance(name, Token) else None, cond=c[-2], text=c[-1])

    def limit_decl(self, meta: Any, c: list[Any]) -> A.LimitDecl:
        return A.LimitDecl(span=self.sp(meta), count=int(c[0]), unit=str(c[1]),
                           **({"then": str(c[2])} if len(c) > 2 else {}))

    def evaluate_decl(self, meta: Any, c: list[Any]) -> A.EvaluateDecl:
        after = (int(c[3]), str(c[4])) if len(c) > 3 else (None, None)
        return A.EvaluateDecl(span=self.sp(meta), fn=str(c[0]), lo=c[1], hi=c[2], after=after[0], unit=after[1])

    def score_decl(self, meta: Any, c: list[Any]) -> A.ScoreDecl:
        return A.ScoreDecl(span=self.sp(meta), label=c[0])

    def allies_decl(self, meta: Any, c: list[Any]) -> A.AlliesDecl:
        return A.AlliesDecl(span=self.sp(meta), fn=str(c[0]))

    def belief_decl(self, meta: Any, c: list[Any]) -> A.BeliefDecl:
        return A.BeliefDecl(span=self.sp(meta), fn=str(c[0]))

    def params(self, meta: Any, c: list[Any]) -> list[A.Param]:
        return list(c)

    def param(self, meta: Any, c: list[Any]) -> A.Param:
        label = c[-1] if len(c) > 2 and isinstance(c[-1], A.Text) else None
        rest = c[2:-1] if label is not None else c[2:]
        return A.Param(span=self.sp(meta), name=str(c[0]), type=c[1], default=rest[0] if rest else None, label=label)

    def type_named(self, meta: Any, c: list[Any]) -> A.TypeRef:
        return A.TypeRef(span=self.sp(meta), name=str(c[0]), of=None)

    def type_list(self, meta: Any, c: list[Any]) -> A.TypeRef:
        return A.TypeRef(span=self.sp(meta), name="list", of=c[0])

    # -------------------------------------------------------------- statements
    def block(self, meta: Any, c: list[Any]) -> list[A.Stmt]:
        """Statements in order (an empty statement, `;`, left out)."""
        return [x for s in c if s is not None for x in (s if isinstance(s, list) else [s])]

    def empty_stmt(self, meta: Any, c: list[Any]) -> None:
        return None

    def let_stmt(self, meta: Any, c: list[Any]) -> A.Let:
        return A.Let(span=self.sp(meta), name=str(c[0]), type=_first(c, A.TypeRef), value=c[-1])

    def expr_stmt(self, meta: Any, c: list[Any]) -> A.Stmt:
        if len(c) == 3 and c[1] is not None:
            return A.Assign(span=self.sp(meta), target=c[0], op=c[1], value=c[2])
        return A.ExprStmt(span=self.sp(meta), expr=c[0])

    def assign_op(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def if_stmt(self, meta: Any, c: list[Any]) -> A.If:
        branches = [(c[0], c[1])]
        orelse = None
        for x in c[2:]:
            if isinstance(x, _Tag):
                branches.append(x.value)
            elif isinstance(x, list):
                orelse = x
        return A.If(span=self.sp(meta), branches=branches, orelse=orelse)

    def elif_clause(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("elif", (c[0], c[1]))

    def while_stmt(self, meta: Any, c: list[Any]) -> A.While:
        return A.While(span=self.sp(meta), cond=c[0], body=c[1])

    def repeat_stmt(self, meta: Any, c: list[Any]) -> A.Repeat:
        return A.Repeat(span=self.sp(meta), count=c[0], body=c[1])

    def for_stmt(self, meta: Any, c: list[Any]) -> A.For:
        return A.For(span=self.sp(meta), var=str(c[0]), source=c[1], body=c[2])

    def break_stmt(self, meta: Any, c: list[Any]) -> A.Break:
        return A.Break(span=self.sp(meta))

    def continue_stmt(self, meta: Any, c: list[Any]) -> A.Continue:
        return A.Continue(span=self.sp(meta))

    def return_stmt(self, meta: Any, c: list[Any]) -> A.Return:
        return A.Return(span=self.sp(meta), value=c[0] if c else None)

    def move_stmt(self, meta: Any, c: list[Any]) -> A.Move:
        face = _tag(c, "face")
        at = _tag(c, "at")
        return A.Move(span=self.sp(meta), cards=c[0], dest=c[2], under=c[1] == "under",
                      face=face.value if face else None, at=at.value if at else None)

    def move_dir(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def face_mod(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("face", c[0])

    def at_mod(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("at", c[0])

    def face(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def deal_all(self, meta: Any, c: list[Any]) -> None:
        return None     # `deal all`: no count, until the zone is empty

    def deal_stmt(self, meta: Any, c: list[Any]) -> A.Deal:
        return A.Deal(span=self.sp(meta), count=c[0], source=c[1], dest=str(c[2]),
                      dest_span=_tok_span(self.file, c[2]), packets=c[3] is not None, players=c[4])

    def shuffle_stmt(self, meta: Any, c: list[Any]) -> A.Shuffle:
        return A.Shuffle(span=self.sp(meta), zone=c[0])

    def reveal_stmt(self, meta: Any, c: list[Any]) -> A.Reveal:
        return A.Reveal(span=self.sp(meta), what=c[0], to=c[1] if len(c) > 1 else None)

    def hide_stmt(self, meta: Any, c: list[Any]) -> A.Hide:
        return A.Hide(span=self.sp(meta), what=c[0])

    def swap_stmt(self, meta: Any, c: list[Any]) -> A.Swap:
        return A.Swap(span=self.sp(meta), a=c[0], b=c[1])

    def choose_stmt(self, meta: Any, c: list[Any]) -> A.Choose:
        other = c[-1] if isinstance(c[-1], list) else None
        flags = {x.type for x in c if isinstance(x, Token) and x.type in ("HIDDEN", "OPTIONAL")}
        rest = [x for x in c[1:] if not (isinstance(x, Token) and x.type in flags)]
        options, uses = _option_items(c)
        return A.Choose(span=self.sp(meta), player=c[0], label=_first(rest[:1], A.Text), options=options,
                        uses=uses, otherwise=other, hidden="HIDDEN" in flags, optional="OPTIONAL" in flags)

    def offer_stmt(self, meta: Any, c: list[Any]) -> A.Offer:
        options, uses = _option_items(c)
        return A.Offer(span=self.sp(meta), var=str(c[0]), players=c[1], label=_first(c[2:], A.Text),
                       options=options, uses=uses, ask_all=_tag(c, "ask_all") is not None)

    def offer_ask_all(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("ask_all", None)

    def simul_stmt(self, meta: Any, c: list[Any]) -> A.Simultaneous:
        options, uses = _option_items(c)
        return A.Simultaneous(span=self.sp(meta), var=str(c[0]), players=c[1],
                              label=_first(c[2:3], A.Text), options=options, uses=uses)

    def use_options(self, meta: Any, c: list[Any]) -> A.UseOptions:
        given = _tag(c, "args")
        args = given.value if given else []
        then = c[-1] if isinstance(c[-1], list) else []
        return A.UseOptions(span=self.sp(meta), name=str(c[0]), args=[a for a in args if not isinstance(a, A.KwArg)],
                            kwargs=[a for a in args if isinstance(a, A.KwArg)], then=then)

    def use_args(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("args", c[0] or [])

    def options_decl(self, meta: Any, c: list[Any]) -> A.OptionsDecl:
        options, uses = _option_items(c)
        return A.OptionsDecl(span=self.sp(meta), override=_override(c), name=str(_names(c)[0]),
                             params=_first([x for x in c if isinstance(x, list)], list) or [], options=options, uses=uses)

    def option(self, meta: Any, c: list[Any]) -> A.Option:
        binders = _tag(c, "binders")
        where = _tag(c, "where")
        weight = _tag(c, "weight")
        return A.Option(span=_tok_span(self.file, c[0]), name=str(c[0]),
                        binders=binders.value if binders else [], where=where.value[0] if where else None,
                        reason=where.value[1] if where else None,
                        weight=weight.value if weight else None, label=_first(c, A.Text), body=c[-1])

    def binders(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("binders", list(c))

    def binder(self, meta: Any, c: list[Any]) -> A.Binder:
        return A.Binder(span=self.sp(meta), var=str(c[0]), source=c[1])

    def where_clause(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("where", (c[0], c[1] if len(c) > 1 else None))

    def rollout_clause(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("weight", c[0])

    def turn_stmt(self, meta: Any, c: list[Any]) -> A.Turn:
        return A.Turn(span=self.sp(meta), player=c[0], body=c[1])

    def goto_stmt(self, meta: Any, c: list[Any]) -> A.Goto:
        return A.Goto(span=self.sp(meta), phase=str(c[0]))

    def activate_stmt(self, meta: Any, c: list[Any]) -> A.Activate:
        args = (c[1] if len(c) > 1 and not isinstance(c[1], _Tag) else None) or []
        by = _tag(c, "by")
        src = _tag(c, "from")
        return A.Activate(
            span=self.sp(meta), effect=str(c[0]), args=[a for a in args if not isinstance(a, A.KwArg)],
            kwargs=[a for a in args if isinstance(a, A.KwArg)], by=by.value if by else None,
            source=src.value if src else None)

    def by_clause(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("by", c[0])

    def from_clause(self, meta: Any, c: list[Any]) -> _Tag:
        return _Tag("from", c[0])

    def negate_stmt(self, meta: Any, c: list[Any]) -> A.Negate:
        return A.Negate(span=self.sp(meta), item=c[0])

    def win_stmt(self, meta: Any, c: list[Any]) -> A.Win:
        return A.Win(span=self.sp(meta), who=c[0], drawn=c[2] if len(c) > 2 else None)

    def lose_stmt(self, meta: Any, c: list[Any]) -> A.Lose:
        return A.Lose(span=self.sp(meta), who=c[0])

    def sit_out_stmt(self, meta: Any, c: list[Any]) -> A.Finish:
        return A.Finish(span=self.sp(meta), who=c[0], sit_out=True)

    def rejoin_stmt(self, meta: Any, c: list[Any]) -> A.Rejoin:
        return A.Rejoin(span=self.sp(meta), who=c[0])

    def finish_stmt(self, meta: Any, c: list[Any]) -> A.Finish:
        return A.Finish(span=self.sp(meta), who=c[0], last=len(c) > 1 and c[1] is not None)

    def end_stmt(self, meta: Any, c: list[Any]) -> A.End:
        return A.End(span=self.sp(meta), draw=bool(c and c[0] is not None))

    def end_ranking(self, meta: Any, c: list[Any]) -> A.End:
        """L's players without the none in it, as `win` and `lose` leave it out (a side missing a member)."""
        sp, var = self.sp(meta), str(c[0])

        def some() -> A.Binary:     # a node each: the checker binds each comprehension's names on its own
            return A.Binary(span=sp, op="!=", left=A.Name(span=sp, name=var), right=A.Lit(span=sp, kind="none", value=None))
        keys = A.Comprehension(span=sp, elem=c[2], var=var, source=c[1], cond=some())
        players = A.Comprehension(span=sp, elem=A.Name(span=sp, name=var), var=var, source=c[1], cond=some())
        return A.End(span=sp, players=players, keys=keys)

    def log_stmt(self, meta: Any, c: list[Any]) -> A.Log:
        return A.Log(span=self.sp(meta), text=c[0])

    def tell_stmt(self, meta: Any, c: list[Any]) -> A.Tell:
        return A.Tell(span=self.sp(meta), player=c[0], text=c[1])

    def reverse_stmt(self, meta: Any, c: list[Any]) -> A.Reverse:
        return A.Reverse(span=self.sp(meta))

    def insert_stmt(self, meta: Any, c: list[Any]) -> A.Insert:
        return A.Insert(span=self.sp(meta), seq=c[0], side=c[1][0], beside=c[1][1], name=str(c[2]))

    def insert_into(self, meta: Any, c: list[Any]) -> A.Insert:
        return A.Insert(span=self.sp(meta), seq=c[1], side=c[2][0], beside=c[2][1], zone=c[0])

    def side(self, meta: Any, c: list[Any]) -> tuple[str, A.Expr | None]:
        """`front`, `back`, or `after Z` / `before Z`: beside a zone of the sequence."""
        return str(c[0]), c[1] if len(c) > 1 else None

    def record_stmt(self, meta: Any, c: list[Any]) -> A.Record:
        return A.Record(span=self.sp(meta), key=c[0])

    # -------------------------------------------------------------- expressions
    def quantifier(self, meta: Any, c: list[Any]) -> A.Quantifier:
        return A.Quantifier(span=self.sp(meta), kind=c[0], var=str(c[1]), source=c[2], cond=c[3],
                            var_span=self.name_span(c[1]))

    def quant_kw(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    quant_any = quant_kw

    def best(self, meta: Any, c: list[Any]) -> A.Best:
        cond = c[2] if len(c) == 4 else None
        return A.Best(span=self.sp(meta), var=str(c[0]), source=c[1], key=c[-1], cond=cond,
                      var_span=self.name_span(c[0]))

    def sorted_by(self, meta: Any, c: list[Any]) -> A.SortedBy:
        cond = c[2] if len(c) == 4 else None
        return A.SortedBy(span=self.sp(meta), var=str(c[0]), source=c[1], key=c[-1], cond=cond,
                          var_span=self.name_span(c[0]))

    def distinct_by(self, meta: Any, c: list[Any]) -> A.DistinctBy:
        cond = c[2] if len(c) == 4 else None
        return A.DistinctBy(span=self.sp(meta), var=str(c[0]), source=c[1], key=c[-1], cond=cond,
                            var_span=self.name_span(c[0]))

    def if_expr(self, meta: Any, c: list[Any]) -> A.IfExpr:
        return A.IfExpr(span=self.sp(meta), cond=c[0], then=c[1], other=c[2])

    def _bin(self, meta: Any, op: str, left: A.Expr, right: A.Expr) -> A.Binary:
        return A.Binary(span=self.sp(meta), op=op, left=left, right=right)

    def or_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, "or", c[0], c[1])

    def and_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, "and", c[0], c[1])

    def not_op(self, meta: Any, c: list[Any]) -> A.Unary:
        return A.Unary(span=self.sp(meta), op="not", operand=c[0])

    def cmp_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, c[1], c[0], c[2])

    def comp_op(self, meta: Any, c: list[Any]) -> str:
        return str(c[0])

    def in_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, "in", c[0], c[1])

    def not_in_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, "notin", c[0], c[1])

    def range_op(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, "..", c[0], c[1])

    def arith(self, meta: Any, c: list[Any]) -> A.Binary:
        return self._bin(meta, c[1], c[0], c[2])

    add_op = comp_op
    mul_op = comp_op

    def neg(self, meta: Any, c: list[Any]) -> A.Unary:
        return A.Unary(span=self.sp(meta), op="-", operand=c[0])

    def attr(self, meta: Any, c: list[Any]) -> A.Attr:
        return A.Attr(span=self.sp(meta), obj=c[0], name=str(c[1]))

    def index(self, meta: Any, c: list[Any]) -> A.Index:
        return A.Index(span=self.sp(meta), obj=c[0], args=list(c[1:]))

    def slice(self, meta: Any, c: list[Any]) -> A.Slice:
        return A.Slice(span=self.sp(meta), obj=c[0], lo=c[1], hi=c[2])

    def call(self, meta: Any, c: list[Any]) -> A.Call:
        args = c[1] or []
        return A.Call(span=self.sp(meta), func=str(c[0]),
                                      args=[a for a in args if not isinstance(a, A.KwArg)],
                                      kwargs=[a for a in args if isinstance(a, A.KwArg)])

    def sorted_call(self, meta: Any, c: list[Any]) -> A.Call:
        return self.call(meta, ["sorted", c[0]])

    def distinct_call(self, meta: Any, c: list[Any]) -> A.Call:
        return self.call(meta, ["distinct", c[0]])

    def args(self, meta: Any, c: list[Any]) -> list[Any]:
        return list(c)

    def pos_arg(self, meta: Any, c: list[Any]) -> A.Expr:
        return c[0]  # type: ignore[no-any-return]

    def kw_arg(self, meta: Any, c: list[Any]) -> A.KwArg:
        return A.KwArg(span=self.sp(meta), name=str(c[0]), value=c[1])

    def int_lit(self, meta: Any, c: list[Any]) -> A.Lit:
        return A.Lit(span=self.sp(meta), kind="int", value=int(c[0]))

    def dec_lit(self, meta: Any, c: list[Any]) -> A.Lit:
        value = float(c[0])
        if value == float("inf"):       # the rules compute with finite numbers only (runtime._num)
            raise error("E201", "this number is too large (numbers reach about 1.8e308)", self.sp(meta))
        return A.Lit(span=self.sp(meta), kind="number", value=value)

    def str_lit(self, meta: Any, c: list[Any]) -> A.Lit | A.Format:
        raw = str(c[0])[1:-1]
        if "{" in raw.replace("{{", ""):
            return A.Format(span=self.sp(meta), parts=self.interpolate(raw, c[0], 0))
        value = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), raw)
        return A.Lit(span=self.sp(meta), kind="text", value=value.replace("{{", "{").replace("}}", "}"))

    def true_lit(self, meta: Any, c: list[Any]) -> A.Lit:
        return A.Lit(span=self.sp(meta), kind="bool", value=True)

    def false_lit(self, meta: Any, c: list[Any]) -> A.Lit:
        return A.Lit(span=self.sp(meta), kind="bool", value=False)

    def none_lit(self, meta: Any, c: list[Any]) -> A.Lit:
        return A.Lit(span=self.sp(meta), kind="none", value=None)

    def name(self, meta: Any, c: list[Any]) -> A.Name:
        return A.Name(span=self.sp(meta), name=str(c[0]))

    def tuple_lit(self, meta: Any, c: list[Any]) -> A.TupleLit:
        return A.TupleLit(span=self.sp(meta), items=[x for x in c if x is not None])

    def list_lit(self, meta: Any, c: list[Any]) -> A.ListLit:
        return A.ListLit(span=self.sp(meta), items=[x for x in c if x is not None])

    def comprehension(self, meta: Any, c: list[Any]) -> A.Comprehension:
        return A.Comprehension(span=self.sp(meta), elem=c[0], var=str(c[1]), source=c[2],
                               cond=c[3] if len(c) > 3 else None, var_span=self.name_span(c[1]))
