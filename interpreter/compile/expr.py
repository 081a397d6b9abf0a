"""Expressions → Python expressions (``ExprGen``): names to frame slots or locals, card attributes
to tuple lookups, quantifiers and aggregates to loops or helpers, texts to formatters worded only
when read, constants folded.
"""

from __future__ import annotations

import ast as pyast
import builtins as pybuiltins
import re
import sys
from typing import TYPE_CHECKING, Any

from .. import ast as A
from .. import types as T
from ..builtins import BUILTINS
from ..check import (
    ITEM_FIELDS,
    FnSym,
    LocalSym,
    OrderingSym,
    RuleSym,
    VarSym,
    ZoneSym,
    const_value,
    text_plain,
)
from ..engine import runtime
from .compiled import _ident, type_code
from .hoist import Hoister, cheap

if TYPE_CHECKING:
    from .program import Compiler


FIELD_INDEX = {"kind": 0, "controller": 1, "source": 2, "times": 3, "negated": 4}


_CONST_TUPLE = re.compile(r"\(*\(((?:\s*-?\d+\s*,)*(?:\s*-?\d+\s*)?)\)\)*")


_PY_BUILTINS = set(dir(pybuiltins))
_RUNTIME_NAMES = set(dir(runtime)) | {"ALL", "AUTO", "STOP", "ZM", "NSTATIC", "_RuleFailure", "_Goto", "_frame"}


def _is_local_name(name: str, consts: dict[str, Any]) -> bool:
    """A name generated code reads that is local to the function it is in (``st``, ``Z``, ``l0``,
    ``fr``, ``h1`` …), not a module constant, helper or Python builtin."""
    if name in ("Z", "G", "LOC"):
        return True
    return not (name in consts or name in _RUNTIME_NAMES or name in _PY_BUILTINS or name[:1].isupper())


# arithmetic whose `number` result may leave the finite range (runtime._num checks it)
_MAY_OVERFLOW = frozenset({"+", "-", "*", "/", "//"})


def _is_number(t: Any) -> bool:
    """A `number` (not an int: Python's ints do not overflow)."""
    return t is not None and t.kind == "number"


def _plain_number(code: str) -> bool:
    """Generated code that is already a number in range: a literal, or a checked result."""
    if code.startswith("_num(") and code.endswith(")") and _balanced(code[5:-1]):
        return True
    try:
        x = pyast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return isinstance(x, int | float) and not isinstance(x, bool) and abs(x) <= sys.float_info.max


def _impure(e: Any) -> bool:
    if isinstance(e, A.Call) and e.func == "random" and isinstance(e.ref, tuple):
        return True
    if isinstance(e, A.Node):
        return any(_impure(getattr(e, f)) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
    if isinstance(e, list | tuple):
        return any(_impure(x) for x in e)
    return False


def _size(e: Any) -> int:
    if isinstance(e, A.Node):
        return 1 + sum(_size(getattr(e, f)) for f in e.__dataclass_fields__ if f not in ("span", "ty", "ref"))
    if isinstance(e, list | tuple):
        return sum(_size(x) for x in e)
    return 0


def _uses(e: Any, counts: dict[int, int]) -> None:
    if isinstance(e, A.Name) and isinstance(e.ref, LocalSym):
        counts[id(e.ref)] = counts.get(id(e.ref), 0) + 1
    if isinstance(e, A.Node):
        for f in e.__dataclass_fields__:
            if f not in ("span", "ty", "ref"):
                _uses(getattr(e, f), counts)
    elif isinstance(e, list | tuple):
        for x in e:
            _uses(x, counts)


_CONSUMES = {"size", "sum", "min", "max", "of_a_kind", "random", "index_of", "sorted", "reversed"}


_LEN = re.compile(r"\(len\((.*)\)\)")
_EMPTINESS = {(">", "0"): "not not ", ("!=", "0"): "not not ", (">=", "1"): "not not ", ("==", "0"): "not "}


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _never_none(f: FnSym) -> bool:
    """False for a function typed int, number or bool whose result may yet be none (`best` of an
    empty list, an item's field of another effect): it is not inlined, and its return checks the
    value (the checker types those as never none); every other function costs what it did."""
    if f.ret.kind not in ("int", "number", "bool") or f.decl is None:
        return True
    return not _may_be_none(f.decl.body)


def _may_be_none(e: A.Expr) -> bool:
    if isinstance(e, A.LetIn):
        return _may_be_none(e.body)
    if isinstance(e, A.IfExpr):
        return _may_be_none(e.then) or _may_be_none(e.other)
    if isinstance(e, A.Best):
        return True
    return isinstance(e, A.Attr) and isinstance(e.ref, tuple) and e.ref[:1] == ("field",) \
        and e.name not in ITEM_FIELDS and (e.ty is None or e.ty.kind != "bool")    # a bool reads false


class ExprGen:
    """Expression → Python source. ``names`` maps LocalSym ids to the Python that reads them.

    Small functions are inlined (their parameters replaced by the argument code); an argument
    read several times is hoisted out of option loops when it does not depend on them."""

    INLINE_SIZE = 60

    def __init__(self, cg: Compiler, names: dict[int, str], mode: str, hoister: Hoister | None = None,
                 depth: int = 0, fn: str | None = None) -> None:
        self.cg = cg
        self.names = names
        self.mode = mode
        self.hoister = hoister
        self.depth = depth
        self.fn = fn            # the `fn` whose body this generates (its code is noted in fn_sites)
        # while a text's value is written (fmt): its language and whether cards show as hands show them,
        # for a text inside it (`"{if n == 0 then "none" else "{cs}"}"`) to write its values the same way
        self.text_ctx: tuple[int, bool] | None = None
        # the language `label(x)` reads in a function a text calls (its Japanese half: 1), none outside one
        self.label_lang = 0

    def called_lang(self, f: FnSym) -> int:
        """The language a call of ``f`` here gives its `label(x)`s: the text's around it (also through
        a function a text called), when ``f`` reads one at all."""
        lang = self.text_ctx[0] if self.text_ctx is not None else self.label_lang
        return lang if lang and self.cg.reads_label(f) else 0

    def inline(self, f: FnSym, args: list[A.Expr], given: list[str]) -> str | None:
        """``f`` called with ``args``, its body written in place; ``given`` gets the code of each
        parameter's value (None: not inlined)."""
        assert f.decl is not None
        if self.depth >= 4 or _size(f.decl.body) > self.INLINE_SIZE or any(_impure(a) for a in args) \
                or isinstance(f.decl.body, A.LetIn) or not _never_none(f):
            return None
        uses: dict[int, int] = {}
        _uses(f.decl.body, uses)
        names = dict(self.names)
        for param, arg in zip(f.params, args, strict=True):
            code = self.gen(arg)
            if uses.get(id(param), 0) > 1 and not cheap(code):
                if self.hoister is not None and self.hoister.can(arg):
                    code = self.hoister.add(code)
                else:
                    return None
            names[id(param)] = code if cheap(code) and not code.startswith("-") else f"({code})"
            given.append(names[id(param)])
        for loc in f.locals:
            if loc.comp:
                self.cg.fresh += 1
                names[id(loc)] = f"k{self.cg.fresh}"
        sub = ExprGen(self.cg, names, self.mode, self.hoister, self.depth + 1, fn=f.name)
        sub.label_lang = self.called_lang(f)
        return f"({sub.gen(f.decl.body)})"

    def local(self, sym: LocalSym) -> str:
        n = self.names.get(id(sym))
        if n is not None:
            return n
        if sym.comp:
            return f"c{sym.slot}"
        return f"fr[{sym.slot + 2}]" if self.mode == "frame" else f"l{sym.slot}"

    def seq(self, e: A.Expr) -> str:
        """An expression used as something to iterate over."""
        code = self.gen(e)
        if e.ty is not None and e.ty.kind == "zone":
            return f"Z[{code}]"
        return code

    def iter_src(self, e: A.Expr) -> str:
        """Something only iterated over: a range or a fresh list need not become a tuple first;
        the players are spelt out (a constant, and quantifiers over them are unrolled)."""
        code = self.seq(e)
        if code == "PLAYERS":
            return repr(tuple(range(self.cg.p.players)))
        inner = code[6:-1]
        if code.startswith("tuple(") and inner.startswith(("range(", "[")) and _balanced(inner):
            return inner
        return code

    def zone_or_seq(self, e: A.Expr) -> str:
        return self.seq(e)

    def gen(self, e: A.Expr | None) -> str:
        if e is None:
            return "None"
        if isinstance(e, A.Binary | A.Unary | A.IfExpr):
            ok, v = const_value(e)
            if ok and isinstance(v, bool | int | float | str | type(None)):
                return repr(v)
        m = getattr(self, "g_" + type(e).__name__)
        code: str = m(e)
        if self.fn is not None:
            self.cg.fn_sites.append((code, e.span, self.fn, None))
        return code

    def g_Lit(self, e: A.Lit) -> str:
        return repr(e.value)

    def g_Name(self, e: A.Name) -> str:
        r = e.ref
        if isinstance(r, LocalSym):
            return self.local(r)
        if isinstance(r, VarSym):
            return f"G[{r.slot}]"
        if isinstance(r, ZoneSym):
            if r.kind == "sequence" and not r.per_player:
                return f"tuple(st.sq[{r.seq_base}])"
            return str(r.base)
        if isinstance(r, tuple):
            if r[0] == "const":
                return repr(r[1])
            if r[0] == "players":
                return "PLAYERS"
            if r[0] == "active":
                return "_active(st)"
            if r[0] == "stack":
                return "tuple(st.stack)"
            if r[0] == "all_cards":
                return "ALLCARDS"
        raise AssertionError(f"unresolved name {e.name}")

    def g_Attr(self, e: A.Attr) -> str:
        r = e.ref
        if isinstance(r, tuple) and r[0] == "const":
            return repr(r[1])
        obj = self.gen(e.obj)
        kind = r[0]
        if kind == "cardattr":
            if self.hoister is not None:
                hoisted = self.hoister.attr(f"A_{_ident(r[1])}", obj)
                if hoisted is not None:
                    return hoisted
            return f"A_{_ident(r[1])}[{obj}]"
        if kind == "cardname":
            return f"NAMES[{obj}]"
        if kind == "cardvar":
            return f"G[{r[1].slot} + {obj}]"
        if kind == "field":   # a missing item is a KeyError, reported as "no longer on the stack"
            return f"st.items[{obj}][{self.field_index(r[1])}]"
        if kind == "sq":
            return f"{obj}[{0 if r[1] == 'x' else 1}]"
        raise AssertionError(kind)

    def field_index(self, name: str) -> int:
        if name in FIELD_INDEX:
            return FIELD_INDEX[name]
        return 5 + self.cg.p.item_fields[name][0]

    def g_Index(self, e: A.Index) -> str:
        r = e.ref
        kind = r[0]
        if kind == "pvar":
            return f"G[{r[1].slot} + {self.gen(e.args[0])}]"
        if kind == "zonefam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"({z.base} + {self.gen(e.args[0])})"
        if kind == "seqfam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"tuple(st.sq[{z.seq_base} + {self.gen(e.args[0])}])"
        if kind in ("gridxy", "gridsq"):
            z = self.cg.zone((e.obj.ty or T.ANY).name)
            sid = self.cg.span(e.span)
            w, h = z.width, z.height
            if kind == "gridxy":
                return f"_cell({z.base}, {w}, {h}, {self.gen(e.args[0])}, {self.gen(e.args[1])}, {sid})"
            return f"_cellsq({z.base}, {w}, {h}, {self.gen(e.args[0])}, {sid})"
        if kind == "zonei":
            return f"Z[{self.gen(e.obj)}][{self.gen(e.args[0])}]"
        return f"{self.seq_rows(e.obj)}[{self.gen(e.args[0])}]"

    def g_Slice(self, e: A.Slice) -> str:
        lo = "" if e.lo is None else self.gen(e.lo)
        hi = "" if e.hi is None else self.gen(e.hi)
        t = e.obj.ty or T.ANY
        src = f"Z[{self.gen(e.obj)}]" if t.kind == "zone" else self.seq_rows(e.obj) if t.kind == "seq" \
            else self.gen(e.obj)
        return f"tuple({src}[{lo}:{hi}])"

    def seq_rows(self, e: A.Expr) -> str:
        """A sequence's zones read in place (no copy) where the list is only looked at: `lines[p][i]`."""
        r = e.ref
        if isinstance(e, A.Index) and isinstance(r, tuple) and r[0] == "seqfam":
            z = e.obj.ref
            assert isinstance(z, ZoneSym)
            return f"st.sq[{z.seq_base} + {self.gen(e.args[0])}]"
        if isinstance(e, A.Name) and isinstance(r, ZoneSym) and r.kind == "sequence" and not r.per_player:
            return f"st.sq[{r.seq_base}]"
        return self.gen(e)

    def g_Call(self, e: A.Call) -> str:
        r = e.ref
        if isinstance(r, FnSym):
            given: list[str] = []
            code = self.inline(r, e.args, given)
            if code is None:
                given = [self.gen(a) for a in e.args]
                lang = self.called_lang(r)      # a function that reads `label(x)`: its Japanese copy
                code = f"F_{_ident(r.name)}{'__ja' if lang else ''}(st{''.join(', ' + g for g in given)})"
            self.cg.fn_sites.append((code, e.span, self.fn, r.name))
            self.cg.fn_args[(code, e.span)] = [(p.name, g, a.span) for p, g, a in zip(r.params, given, e.args, strict=True)]
            return code
        args = [self.gen(a) for a in e.args]
        if e.func in ("min", "max") and isinstance(e.args[0], A.ListLit) and len(e.args[0].items) >= 2:
            return f"{e.func}({', '.join(self.gen(x) for x in e.args[0].items)})"   # max([a, b]): no list
        if e.func in ("size", "index_of") and e.args:
            args[0] = self.seq_rows(e.args[0])     # a sequence only looked at: no copy
        if e.func in _CONSUMES and e.args and isinstance(e.args[0], A.Comprehension) \
                and args[0].startswith("tuple([") and args[0].endswith("])"):
            args[0] = args[0][6:-1]                # consumed at once: the list need not become a tuple
        if isinstance(r, OrderingSym):     # noted as a fn's call is: a tier's failure says where it was called
            code = f"O_{_ident(r.name)}(st{''.join(', ' + a for a in args)})"
            self.cg.fn_sites.append((code, e.span, self.fn, r.name))
            return code
        if isinstance(r, RuleSym):
            assert r.proc
            return f"R{r.proc.index}(st{''.join(', ' + a for a in args)})"
        if isinstance(r, tuple) and r[0] == "const":
            return repr(r[1])
        if e.func in ("sum", "of_a_kind") and e.args and isinstance(e.args[0], A.Comprehension):
            agg = self.aggregate(e.func, e.args[0])
            if agg is not None:
                return agg
        if e.func == "label":       # as "{x}": by the member's label, in the language of the text around it
            if self.text_ctx is None and self.label_lang:       # or of the text that called this function
                return self.fmt(e.args[0], self.label_lang)
            return self.g_Format(A.Format(span=e.span, parts=[e.args[0]]))
        b = BUILTINS[e.func]
        code = b.gen(args, [a.ty or T.ANY for a in e.args], self.cg)
        return f"_num({code})" if e.func == "sum" and _is_number(e.ty) else "(" + code + ")"

    def g_Unary(self, e: A.Unary) -> str:
        return f"(not {self.gen(e.operand)})" if e.op == "not" else f"(-{self.gen(e.operand)})"

    def g_Binary(self, e: A.Binary) -> str:
        op = e.op
        lt, rt = e.left.ty, e.right.ty
        left, right = self.gen(e.left), self.gen(e.right)
        if op in ("in", "notin"):
            neg = "not " if op == "notin" else ""
            if rt is not None and rt.kind == "zone" and lt is not None and lt.kind == "card":
                if left.strip("()").isdigit():      # a card constant (card("♠Q"), a fn inlined to one): never none
                    return f"({neg}(LOC[{left}] == {right}))"
                return f"({neg}(LOC[{left}] == {right}) if {left} is not None else {'True' if neg else 'False'})"
            return f"({left} {'not in' if neg else 'in'} {self.seq(e.right)})"
        if op == "..":
            return f"tuple(range({left}, {right} + 1))"
        if op in ("and", "or") and left in ("True", "False"):     # an option folded to a constant
            return right if (left == "True") == (op == "and") else left
        if (op, right) in (("and", "True"), ("or", "False")) and lt is not None and lt.kind == "bool":
            return left
        if op in ("==", "!=") and "None" in (left, right):
            other = right if left == "None" else left
            try:
                return repr((pyast.literal_eval(other) is None) == (op == "=="))   # folded
            except (ValueError, SyntaxError):
                return f"({other} {'is' if op == '==' else 'is not'} None)"   # no rich comparison
        if (m := _LEN.fullmatch(left)) and _balanced(m.group(1)) and (op, right) in _EMPTINESS:
            return f"({_EMPTINESS[op, right]}{m.group(1)})"     # size(x) > 0: x's truth, no len() call
        if isinstance(e.left, A.Binary) and e.left.op == op and op in ("+", "-", "*", "and", "or") \
                and left.startswith("(") and left.endswith(")") and _top_op(left) == op:
            left = left[1:-1]       # a + b + c, not ((a + b) + c): Python limits nested brackets
        if op in _MAY_OVERFLOW and _is_number(e.ty):
            return f"_num({left} {op} {right})"     # no infinity or NaN in the state (ints cannot overflow)
        return f"({left} {op} {right})"

    def g_Format(self, e: A.Format) -> str:
        """A text value (one language): values as `_fmt` shows them, but a labelled enum member by
        its label's first half, as a log would show it (`"{level}{strain}"` → `7♠`, not `7S`)."""
        segs = []
        for p in e.parts:
            if isinstance(p, str):
                segs.append(repr(p))
                continue
            if self.text_ctx is not None:       # inside a text being written: in its language and manner
                segs.append(self.fmt(p, *self.text_ctx))
                continue
            tc = type_code(p.ty or T.ANY)
            enum = tc[5:] if tc.startswith("list:") else tc
            if enum.startswith("enum:") and enum[5:] in self.cg.p.enums and self.cg.p.enums[enum[5:]].shown is not None:
                segs.append(self.fmt_value(self.gen(p), tc, 0))
            else:
                segs.append(f"_fmt(st, {self.gen(p)}, {tc!r})")
        return "(" + " + ".join(segs or ["''"]) + ")"

    def g_IfExpr(self, e: A.IfExpr) -> str:
        return f"({self.gen(e.then)} if {self.gen(e.cond)} else {self.gen(e.other)})"

    def g_ListLit(self, e: A.ListLit) -> str:
        items = [self.gen(x) for x in e.items]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    g_TupleLit = g_ListLit

    def _var(self, e: A.Comprehension | A.Quantifier | A.Best) -> str:
        sym = e.ref
        assert isinstance(sym, LocalSym)
        return self.local(sym)

    def g_Comprehension(self, e: A.Comprehension) -> str:
        v = self._var(e)
        cond = f" if {self.gen(e.cond)}" if e.cond is not None else ""
        # a list comprehension, then a tuple: much faster than tuple(generator) on small lists
        return f"tuple([{self.gen(e.elem)} for {v} in {self.iter_src(e.source)}{cond}])"

    def aggregate(self, func: str, e: A.Comprehension) -> str | None:
        """sum / of_a_kind of a comprehension as one loop in a helper function (AG0, AG1 …): no list
        is built (in Python 3.11 a list comprehension is a function call of its own, then the list is
        walked again). The helper takes the local names the comprehension reads. sum only over ints
        (a float sum would depend on how Python adds); of_a_kind counts in a dict what
        ``_of_a_kind`` counts with a set and ``list.count`` (the same hashing and equality)."""
        if func == "sum" and (e.elem.ty is None or e.elem.ty.kind not in ("int", "bool")):
            return None
        v = self._var(e)
        parts = [self.gen(e.elem), self.iter_src(e.source), self.gen(e.cond) if e.cond is not None else "True"]
        try:
            trees = [pyast.parse(x, mode="eval") for x in parts]
        except SyntaxError:
            return None
        nodes = [n for t in trees for n in pyast.walk(t)]
        if any(isinstance(n, pyast.Lambda | pyast.NamedExpr | pyast.comprehension) for n in nodes) \
                or v in {n.id for n in pyast.walk(trees[1]) if isinstance(n, pyast.Name)}:
            return None         # keep it simple: no nested comprehension, no lambda
        used = {n.id for n in nodes if isinstance(n, pyast.Name)} - {v}
        params = sorted(n for n in used if _is_local_name(n, self.cg.consts))
        if len(params) > 6 or "_e" in used:
            return None
        for n in nodes:
            if isinstance(n, pyast.Name) and n.id == v:
                n.id = "_e"     # one helper for the same loop whatever its variable is called
        elem, src, cond = (pyast.unparse(t) for t in trees)
        sp = self.cg.span(e.span)
        loop = [f"    for _e in {src}:"]
        ind = "        "
        if e.cond is not None:
            loop.append(f"{ind}if {cond}:")
            ind += "    "
        if func == "sum":
            body = ["    _a = 0", *loop, f"{ind}_a += {elem}", "    return _a"]
        else:   # the count of the most frequent element; 1 when all differ, 0 when there are none
            body = ["    _n = {}; _m = 0", *loop, f"{ind}_v = {elem}", f"{ind}if _v in _n:",
                    f"{ind}    _k = _n[_v] = _n[_v] + 1", f"{ind}    if _k > _m: _m = _k",
                    f"{ind}else:", f"{ind}    _n[_v] = 1", "    return _m or (1 if _n else 0)"]
        key = "\n".join([", ".join(params), *body])
        name = self.cg.aggregates.get(key, (f"AG{len(self.cg.aggregates)}", sp))[0]
        self.cg.aggregates.setdefault(key, (name, sp))
        return f"{name}({', '.join(params)})"

    def g_Quantifier(self, e: A.Quantifier) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        consts = _CONST_TUPLE.fullmatch(src)
        if consts is not None and e.kind in ("any", "all") and _size(e.cond) <= 40:
            # over a few constants (jacks(), [♠, ♥, ♦, ♣]): unrolled, no generator
            values = [x.strip() for x in consts.group(1).split(",") if x.strip()]
            if len(values) <= 8:
                assert isinstance(e.ref, LocalSym)
                parts = []
                for x in values:
                    sub = ExprGen(self.cg, {**self.names, id(e.ref): x}, self.mode, self.hoister, self.depth, self.fn)
                    parts.append(f"({sub.gen(e.cond)})")
                if not parts:
                    return "False" if e.kind == "any" else "True"
                return "(" + (" or " if e.kind == "any" else " and ").join(parts) + ")"
        cond = self.gen(e.cond)
        if e.kind == "any":
            return f"any({cond} for {v} in {src})"
        if e.kind == "all":
            return f"all({cond} for {v} in {src})"
        return f"sum(1 for {v} in {src} if {cond})"

    def g_Best(self, e: A.Best) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        ok, _ = const_value(e.key)
        if ok:      # every element ties: the first one
            if e.cond is None:
                return f"next(iter({src}), None)"
            return f"next(({v} for {v} in {src} if {self.gen(e.cond)}), None)"
        if e.cond is not None:
            src = f"[{v} for {v} in {src} if {self.gen(e.cond)}]"
        k = e.key
        if isinstance(k, A.Call) and isinstance(k.ref, OrderingSym) and len(k.args) == 1 \
                and isinstance(k.args[0], A.Name) and k.args[0].ref is e.ref:
            code = f"OB_{_ident(k.ref.name)}(st, {src})"     # see Compiler.gen_ordering
            self.cg.fn_sites.append((code, k.span, self.fn, k.ref.name))
            return code
        return f"max({src}, key=lambda {v}: {self.gen(e.key)}, default=None)"

    def g_SortedBy(self, e: A.SortedBy) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        if e.cond is not None:
            src = f"[{v} for {v} in {src} if {self.gen(e.cond)}]"
        if const_value(e.key)[0]:
            return f"tuple({src})"
        if _key_never_none(e.key):      # sorted as it is: the same order, without a wrapper per element
            return f"tuple(sorted({src}, key=lambda {v}: {self.gen(e.key)}))"
        return f"tuple(sorted({src}, key=lambda {v}: _none_last({self.gen(e.key)})))"

    def g_DistinctBy(self, e: A.DistinctBy) -> str:
        v = self._var(e)
        src = self.iter_src(e.source)
        if e.cond is not None:
            src = f"[{v} for {v} in {src} if {self.gen(e.cond)}]"
        return f"_first_by({src}, lambda {v}: {self.gen(e.key)})"

    def fmt(self, e: A.Expr, lang: int = 0, shown: bool = False) -> str:
        """Code showing a value in a text as _fmt does; the common types by a table lookup.
        ``shown``: a card as the ruleset's `show` writes it (labels and prompts, drawn when read)."""
        outer, self.text_ctx = self.text_ctx, (lang, shown)
        try:
            return self._fmt(e, lang, shown)
        finally:
            self.text_ctx = outer

    def _fmt(self, e: A.Expr, lang: int, shown: bool) -> str:
        tc = type_code(e.ty or T.ANY)
        # labels and prompts: cards as the hands show them (`show`, a card's label), and a card its chooser
        # cannot see by its place (Game.hidden_places), never by its face
        if shown and tc in ("card", "list:card"):
            return f"_shown(st, {self.gen(e)}, {lang})" if tc == "card" else f"_shown_list(st, {self.gen(e)}, {lang})"
        if shown and isinstance(e, A.Attr) and isinstance(e.ref, tuple) and e.ref[0] == "cardattr":
            # `{c.rank}` of a card the reader cannot see (a stack item's card in a window's prompt): "?"
            return f"('?' if _unseen(st, {self.gen(e.obj)}) else {self.fmt_value(self.gen(e), tc, lang)})"
        return self.fmt_value(self.gen(e), tc, lang)

    def fmt_value(self, code: str, tc: str, lang: int = 0) -> str:
        """``lang``: the half of the text (0 English, 1 Japanese) — an effect, a card or a zone shows
        its label there."""
        if tc == "int":
            return f"_int_text({code})"
        if tc == "zone":
            return f"_zone_text(st, {code}, {lang})"
        elem = tc[5:] if tc.startswith("list:") else tc
        tag = elem          # the name of the table
        names: list[str] | None = None
        if elem == "effect":        # players read "7渡し", not give_card
            names = [text_plain(e.decl.label, lang) if e.decl is not None and e.decl.label is not None else e.name
                     for e in self.cg.p.effects]
            table = self.cg.const(f"TXT_effect_{lang}", {None: "none", **dict(enumerate(names))})
            return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"
        if elem == "player":        # a seat's name in the text's language (`seats`), else P1
            seats = self.cg.p.seat_names
            names = [seats[q][lang] if seats else f"P{q}" for q in range(self.cg.p.players)]
            tag = f"player_{lang}" if seats else tag
        elif elem == "card":        # as players read them, in the text's language (a card's label)
            labels = self.cg.p.cards.labels
            names = [labels[n][lang] if n in labels else n for n in self.cg.p.cards.names]
            tag = f"card_{lang}" if labels else tag
        elif elem.startswith("enum:") and elem[5:] in self.cg.p.enums:
            en = self.cg.p.enums[elem[5:]]
            if en.shown is not None:    # a labelled member reads as its label, in the text's language
                table = self.cg.const(f"TXT_{_ident(elem.replace(':', '_'))}_{lang}",
                                      {None: "none", **{i: s[lang] for i, s in enumerate(en.shown)}})
                return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"
            names = [str(m) for m in en.members]
        if names is None:
            return f"_fmt(st, {code}, {tc!r})"
        table = self.cg.const(f"TXT_{_ident(tag.replace(':', '_'))}", {None: "none", **dict(enumerate(names))})
        return f"_fmt_list({table}, {code})" if elem != tc else f"{table}[{code}]"

    def text(self, t: A.Text, shown: bool = True) -> str:
        """A label or prompt → a Python expression building (english, japanese). Cards in it read as
        the hands show them (the ruleset's `show`), but in the `show` text itself (``shown``)."""
        halves = []
        for lang, parts in enumerate(_both_halves(t)):
            segs = []
            for p in parts:
                if isinstance(p, str):
                    segs.append(repr(p))
                else:
                    segs.append(self.fmt(p, lang, shown))
            halves.append(" + ".join(segs) if segs else "''")
        if len(halves) == 1:
            return f"(({halves[0]}),) * 2"
        return f"(({halves[0]}), ({halves[1]}))"

    def text_later(self, t: A.Text) -> str:
        """A logged message → ``(formatter, (values…))``: the values it shows are taken now, the words
        are made when the log is read (by the formatter, game.texts[k]); a zone is named now, since
        a sequence's zones are named by their places."""
        args: list[str] = []
        halves = []
        for lang, parts in enumerate(_both_halves(t)):
            segs = []
            for p in parts:
                if isinstance(p, str):
                    segs.append(repr(p))
                    continue
                if self.cg.reads_label(p):
                    # a member's label is taken now, in each language (`{if c.spy then "Spy" else label(c.role)}`)
                    outer, self.text_ctx = self.text_ctx, (lang, False)
                    try:
                        code, tc = self.gen(p), type_code(p.ty or T.ANY)
                    finally:
                        self.text_ctx = outer
                else:
                    code, tc = self.gen(p), type_code(p.ty or T.ANY)
                if "zone" in tc:    # named now (a sequence's zones by their places), by label per language
                    code, tc = self.fmt_value(code, tc, lang), "text"
                if code not in args:
                    args.append(code)
                segs.append(self.fmt_value(f"a[{args.index(code)}]", tc, lang))
            halves.append(" + ".join(segs) if segs else "''")
        body = f"(({halves[0]}),) * 2" if len(halves) == 1 else f"(({halves[0]}), ({halves[1]}))"
        k = len(self.cg.text_fns)
        self.cg.text_fns.append(body)
        return f"({k}, ({''.join(a + ', ' for a in args)}))"


def _both_halves(t: A.Text) -> list[list[Any]]:
    """A text's English and Japanese halves; one without ` | ` is both, its values shown in each
    language (`"{c.kind}"` reads 猫 under --lang ja when the member is labelled "Cat | 猫")."""
    if len(t.parts) == 1 and any(not isinstance(p, str) for p in t.parts[0]):
        return [t.parts[0], t.parts[0]]
    return list(t.parts)


def _key_never_none(e: A.Expr) -> bool:
    """Whether a sort key surely holds no none, inside a tuple either: a literal, arithmetic (which
    fails on none), a count. Such a key needs no `_none_last`."""
    if isinstance(e, A.Lit):
        return e.kind != "none"
    if isinstance(e, A.Binary):
        return e.op in ("+", "-", "*", "/", "//", "%")
    if isinstance(e, A.Unary):
        return e.op == "-"
    if isinstance(e, A.TupleLit):
        return all(_key_never_none(x) for x in e.items)
    return isinstance(e, A.Quantifier) and e.kind == "count"


def _top_op(code: str) -> str | None:
    """The operator at the top of a generated expression: a left operand whose own operator was
    folded away (`true and (a or b)` is `(a or b)`) must keep its brackets in `… and c`."""
    try:
        body = pyast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(body, pyast.BoolOp):
        return "and" if isinstance(body.op, pyast.And) else "or"
    if isinstance(body, pyast.BinOp):
        return {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*"}.get(type(body.op))
    return None
