"""Expressions: names resolved, types inferred and checked, texts, calls and their arguments, and the
bodies of functions.
"""

from __future__ import annotations

from dataclasses import replace

from .. import ast as A
from .. import distinct_values
from .. import types as T
from ..errors import Span, a_noun, did_you_mean
from .declarations import Declarations
from .symbols import (
    ITEM_FIELDS,
    SEAT_HINT,
    Abort,
    CheckSym,
    Ctx,
    EffectSym,
    EnumSym,
    FnSym,
    LocalSym,
    OptionsSym,
    OptionSym,
    OrderingSym,
    PhaseSym,
    RuleSym,
    Scope,
    VarSym,
    WindowSym,
    ZoneSym,
    _defaults,
)

# functions a Python habit reaches for, and what fuda calls them
_PYTHON_NAMES = {
    "len": "size(x) counts a zone's cards or a list's items; count x in L where C counts some",
    "count": "count x in L where C counts some items; size(x) counts them all",
    "print": 'log "…" writes to the game log', "str": 'text(x), or a text with {…}: "{x}"',
    "range": "a range is written a..b (both ends included): for i in 1..5",
}


# how the standard deck writes what players call a rank or suit by name (language.md §6)
_RANK_WORDS = {"a": 1, "ace": 1, "j": 11, "jack": 11, "q": 12, "queen": 12, "k": 13, "king": 13}
_SUIT_WORDS = {"spade": "♠", "heart": "♥", "diamond": "♦", "club": "♣"}


def _comparable_key(key: A.Expr, kt: T.T, also: tuple[str, ...] = ()) -> bool:
    """Whether `best … by` or an ordering's `tier … by` can compare KEY: a number, a text, an enum
    member, an ordering key, or a tuple of them written out, compared part by part; ``also``: kinds
    `sorted … by` orders too (cards, players, bools)."""
    parts = key.items if kt.kind == "tuple" and isinstance(key, A.TupleLit) else [key]
    return all(x.ty is not None and (T.is_numeric(x.ty) or x.ty.kind in ("key", "text", "enum", *also))
               for x in parts)


def _key_shown(key: A.Expr, kt: T.T) -> str:
    """A key's type for a refusal: a tuple written out by its parts' types (`(int, per-player zone hand)`)."""
    if kt.kind == "tuple" and isinstance(key, A.TupleLit):
        return "(" + ", ".join(str(x.ty) for x in key.items) + ")"
    return str(kt)


def _deck_word(name: str) -> str | None:
    """A hint for `c.rank == J` or `c.suit == hearts`: the standard deck's ranks are numbers, its
    suits the signs."""
    word = name.lower() if len(name) > 1 or name.isupper() else ""      # a local `a` is no ace
    if word in _RANK_WORDS:
        return f"the standard deck's ranks are numbers: {name} is {_RANK_WORDS[word]} (c.rank == {_RANK_WORDS[word]})"
    sign = _SUIT_WORDS.get(word.removesuffix("s"))
    if sign is not None:
        return f"the standard deck's suits are written as signs: c.suit == {sign} (♠ ♥ ♦ ♣)"
    return None


class Expressions(Declarations):
    """Expressions: names resolved, types inferred and checked, texts, calls and their arguments, and the
    bodies of functions."""

    # -------------------------------------------------------------- function bodies
    def check_fn(self, f: FnSym) -> None:
        if f.checked:
            return
        f.checked = True
        assert f.decl
        sc = Scope()
        for p in f.params:
            sc.names[p.name] = p
        self.fn_stack.append(f)
        try:
            t = self.expr(f.decl.body, sc, Ctx("fn", fn=f, pure=True))
            if f.decl.ret is None:
                f.ret = t
            elif not T.assignable(t, f.ret):
                result = f.decl.body
                while isinstance(result, A.LetIn):
                    result = result.body
                hint = None
                if f.ret == T.INT and t == T.NUMBER:     # score[p] is a number, whatever the ruleset puts in it
                    reads_score = any(isinstance(n, A.Name) and n.name == "score" for n in A.walk(result))
                    hint = (("score[p] is a number (a score may be a fraction); " if reads_score else "")
                            + f"declare `fn {f.name}(…) -> number` (`evaluate` takes either), or leave the "
                            "result type out, or make it whole with round(…), floor(…) or ceil(…)")
                self.err("E201", f"{f.name} returns {f.ret} but its body is {t}", result.span, hint)
        except Abort:
            pass
        finally:
            self.fn_stack.pop()

    def cond(self, e: A.Expr, sc: Scope, ctx: Ctx) -> None:
        try:
            pure = replace(ctx, pure=True)
            t = self.expr(e, sc, pure)
            if t.kind not in ("bool", "any"):
                counted = isinstance(e, A.Quantifier) and e.kind == "count"
                self.err("E205", f"a condition must be true or false; this is {t}", e.span,
                         "compare the count in parentheses: (count x in L where C) > 0 — `where` takes "
                         "everything after it" if counted else "compare it: x == y, size(z) > 0")
        except Abort:
            pass

    def impure(self, s: A.Stmt | A.Expr, ctx: Ctx) -> None:
        if ctx.pure:
            raise self.fail("E313", "randomness where the rules must not change the game", s.span,
                            "conditions and functions only look; shuffle or draw at random in a rule")

    def text(self, t: A.Text, sc: Scope, ctx: Ctx) -> None:
        for parts in t.parts:
            for p in parts:
                if not isinstance(p, str):
                    try:
                        pt = self.expr(p, sc, ctx)
                        if pt.kind == "tuple" or pt.kind == "list" and pt.elem is not None and pt.elem.kind == "tuple":
                            # its parts' types are not kept: a card would show as its number in the deck
                            self.err("E201", "a tuple cannot be shown in a text: show its parts", p.span,
                                     "{t[0]} and {t[1]}, each shown as its type is (a card by name or place)")
                    except Abort:
                        pass

    def want(self, e: A.Expr, ty: T.T, sc: Scope, ctx: Ctx, why: str) -> T.T:
        t = self.expr(e, sc, ctx)
        if not T.assignable(t, ty):
            raise self.fail("E201", f"{why}: expected {ty}, got {t}", e.span, self.member_hint(e, ty))
        return t

    def member_hint(self, e: A.Expr, ty: T.T) -> str | None:
        """A name that is also a member of the enum wanted: the global of that name hid it."""
        en = self.enums.get(ty.name or "") if ty.kind == "enum" else None
        if isinstance(e, A.Name) and en is not None and e.name in en.members:
            return f"{e.name} here is the {type(self.globals.get(e.name)).__name__[:-3].lower() or 'name'} " \
                   f"{e.name}, which hides the member: write {en.name}.{e.name} (or rename one of them)"
        return None

    def cards_expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> None:
        t = self.expr(e, sc, ctx)
        if t.kind in ("card", "zone", "any", "none"):
            return
        if t.kind == "list" and t.elem is not None and t.elem.kind in ("card", "any", "none"):
            return
        hint = None
        if t.kind == "zonefam":
            hint = f"{t.name} belongs to each player: write {t.name}[p]"
        raise self.fail("E201", f"expected a card, cards or a zone; got {t}", e.span, hint)

    def dest_zone(self, e: A.Expr, sc: Scope, ctx: Ctx, why: str = "cards move to a zone") -> None:
        t = self.expr(e, sc, ctx)
        if t.kind in ("zone", "any"):
            return
        if t.kind == "zonefam":
            raise self.fail("E206", f"{why}; {t.name} is a zone per player: say whose", e.span,
                            f"{t.name} belongs to each player: write {t.name}[p]")
        z = self.globals.get(t.name or "")
        whole = f"{t.name}[p]" if isinstance(z, ZoneSym) and z.per_player else f"{t.name}"
        hints = {"grid": f"{t.name} is a grid: name a square, {t.name}[x, y]",
                 "seq": f"{whole} is a sequence of zones: pick one, {whole}[i]",
                 "seqfam": f"{t.name} is a sequence of zones per player: {t.name}[p][i]"}
        raise self.fail("E203", f"{why}; this is {t}, which cannot hold cards", e.span, hints.get(t.kind))

    def value_expr(self, e: A.Expr, sc: Scope, ctx: Ctx, statement: bool = False) -> T.T:
        """An expression at the top of a statement: the one place a rule call may wait for decisions."""
        if isinstance(e, A.Call) and isinstance(self.globals.get(e.func), RuleSym) and sc.lookup(e.func) is None:
            return self.call(e, sc, ctx, top=True, statement=statement)
        return self.expr(e, sc, ctx)

    # -------------------------------------------------------------- expressions
    def expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> T.T:
        t = self._expr(e, sc, ctx)
        e.ty = t
        return t

    def _expr(self, e: A.Expr, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e, A.Lit):
            return {"int": T.INT, "number": T.NUMBER, "text": T.TEXT, "bool": T.BOOL, "none": T.NONE}[e.kind]
        if isinstance(e, A.Name):
            return self.name(e, sc, ctx)
        if isinstance(e, A.Attr):
            return self.attr(e, sc, ctx)
        if isinstance(e, A.Index):
            return self.index(e, sc, ctx)
        if isinstance(e, A.Slice):
            return self.slice(e, sc, ctx)
        if isinstance(e, A.Call):
            return self.call(e, sc, ctx)
        if isinstance(e, A.Unary):
            t = self.expr(e.operand, sc, ctx)
            if e.op == "not":
                if t.kind not in ("bool", "any"):
                    raise self.fail("E201", f"not takes true/false, not {t}", e.span)
                return T.BOOL
            if not T.is_numeric(t):
                raise self.fail("E201", f"- takes a number, not {t}", e.span)
            return t
        if isinstance(e, A.Binary):
            return self.binary(e, sc, ctx)
        if isinstance(e, A.IfExpr):
            self.cond(e.cond, sc, ctx)
            return self.join(self.expr(e.then, sc, ctx), self.expr(e.other, sc, ctx), e.other,
                             "the two branches of an if expression must have one type: else gives {b}, then {a}")
        if isinstance(e, A.ListLit):
            et: T.T | None = None
            for x in e.items:
                xt = self.expr(x, sc, ctx)
                et = xt if et is None else self.join(et, xt, x, "the items of a list must have one type: "
                                                                 "this one is {b}, the ones before it {a}")
            return T.list_of(et or T.ANY)
        if isinstance(e, A.TupleLit):
            for x in e.items:
                self.expr(x, sc, ctx)
            return T.TUPLE
        if isinstance(e, A.Format):
            for p in e.parts:
                if not isinstance(p, str):
                    self.expr(p, sc, ctx)
            return T.TEXT
        if isinstance(e, A.Comprehension | A.Quantifier | A.Best):
            st = self.expr(e.source, sc, ctx)
            et = T.elem_type(st)
            if et is None:
                raise self.fail("E201", f"{e.var} must range over a list or a zone, not {st}", e.source.span)
            inner = Scope(sc)
            if inner.lookup(e.var) is not None:
                self.err("E109", f"{e.var} is already a local name here", e.var_span or e.span)
            self.no_shadow(e.var, e.var_span or e.span)
            holder = ctx.proc if ctx.proc is not None else None
            if holder is not None:
                loc = holder.new_local(e.var, et, e.span, comp=True, readonly=True)
            else:
                assert ctx.fn is not None
                loc = LocalSym(e.var, e.span, type=et, slot=len(ctx.fn.locals), comp=True, readonly=True)
                ctx.fn.locals.append(loc)
            inner.names[e.var] = loc
            e.ref = loc
            if et == T.ZONE:
                self.comp_sources[id(loc)] = e.source
            if isinstance(e, A.Comprehension):
                if e.cond is not None:
                    self.cond(e.cond, inner, ctx)
                return T.list_of(self.expr(e.elem, inner, ctx))
            if isinstance(e, A.Quantifier):
                outer, self.in_where = self.in_where, e.kind
                try:
                    self.cond(e.cond, inner, ctx)
                finally:
                    self.in_where = outer
                return T.INT if e.kind == "count" else T.BOOL
            if e.cond is not None:
                self.cond(e.cond, inner, ctx)
            try:
                kt = self.expr(e.key, inner, ctx)
            except Abort:
                self.hint_key_reach(e, et)
                raise
            if isinstance(e, A.SortedBy):
                if not _comparable_key(e.key, kt, ("card", "player", "bool", "tuple")):
                    raise self.fail("E201", f"sorted … by a number, a text, an enum member, a card, a player, "
                                    f"an ordering or a tuple of them, not {_key_shown(e.key, kt)}", e.key.span)
                return T.list_of(et)
            if isinstance(e, A.DistinctBy):
                if not _comparable_key(e.key, kt, ("card", "player", "bool", "tuple")):
                    raise self.fail("E201", f"distinct … by a number, a text, an enum member, a card, a player, "
                                    f"an ordering or a tuple of them, not {_key_shown(e.key, kt)}", e.key.span)
                return T.list_of(et)
            if not _comparable_key(e.key, kt):
                raise self.fail("E201", f"best … by a number, a text, an enum member, an ordering or a tuple "
                                f"of them (compared part by part), not {_key_shown(e.key, kt)}", e.key.span)
            return et
        if isinstance(e, A.LetIn):
            return self.let_in(e, sc, ctx)
        raise self.fail("E309", f"unsupported expression {type(e).__name__}", e.span)  # pragma: no cover

    def hint_key_reach(self, e: A.Best, et: T.T) -> None:
        """`best c in deck by power(c).by` meant the `.by` of the card found: the key runs to the right,
        so the E103 at `power(c).by` gets a hint to bracket the `best`."""
        key, last = e.key, self.diags[-1] if self.diags else None
        assert self.cards is not None
        v = self.globals.get(key.name) if isinstance(key, A.Attr) else None
        if not isinstance(key, A.Attr) or last is None or last.code != "E103" or last.span != key.span \
                or et.kind != "card" or not (key.name in self.cards.attr_types or key.name == "name"
                                             or isinstance(v, VarSym) and v.scope == "card"):
            return
        word = "sorted" if isinstance(e, A.SortedBy) else "distinct" if isinstance(e, A.DistinctBy) else "best"
        self.diags[-1] = replace(last, hint=f"the key of `{word} … by` runs to the end: for the {key.name} of "
                                            f"the card it finds, write ({word} {e.var} in … by …).{key.name}")

    def let_type(self, s: A.Let | A.LetIn, vt: T.T) -> T.T:
        """The type of `let NAME[: TYPE] = VALUE` (a rule's or a function's step), whose value is ``vt``."""
        if s.type is not None:
            ty = self.type_ref(s.type)
            if not T.assignable(vt, ty):
                self.err("E201", f"{s.name} is {ty}; the value is {vt}", s.value.span)
            return ty
        if vt.kind == "none":
            raise self.fail("E201", f"give {s.name} a type: none does not tell", s.span, f"let {s.name}: card = none")
        return vt

    def let_in(self, e: A.LetIn, sc: Scope, ctx: Ctx) -> T.T:
        """A function's `let name = value`, then its body with the name in scope."""
        self.no_shadow(e.name, e.span)
        if sc.lookup(e.name) is not None or ctx.fn is not None and any(p.name == e.name for p in ctx.fn.params):
            self.err("E109", f"{e.name} is already a local name here", e.span, "choose another name")
        ty = self.let_type(e, self.expr(e.value, sc, ctx))
        assert ctx.fn is not None
        loc = LocalSym(e.name, e.span, type=ty, slot=len(ctx.fn.locals), comp=True, readonly=True)
        ctx.fn.locals.append(loc)
        e.ref = loc
        self.list_defs.append((loc, e.value))
        inner = Scope(sc)
        inner.names[e.name] = loc
        return self.expr(e.body, inner, ctx)

    def name(self, e: A.Name, sc: Scope, ctx: Ctx) -> T.T:
        loc = sc.lookup(e.name)
        if loc is not None:
            e.ref = loc
            return loc.type
        if ctx.fn is not None:
            loc2 = next((x for x in ctx.fn.params if x.name == e.name), None)
            if loc2 is not None:
                e.ref = loc2
                return loc2.type
        g = self.globals.get(e.name)
        if e.name == "players":
            e.ref = ("players",)
            return T.list_of(T.PLAYER)
        if e.name == "active":
            e.ref = ("active",)
            return T.list_of(T.PLAYER)
        if e.name == "stack":
            e.ref = ("stack",)
            return T.list_of(T.ITEM)
        if e.name == "all_cards":
            e.ref = ("all_cards",)
            return T.list_of(T.CARD)
        if isinstance(g, VarSym):
            g.used = True
            if g.scope != "global":
                raise self.fail("E206", f"{e.name} is per {g.scope}: say whose", e.span,
                                f"{e.name}[p]" if g.scope == "player" else f"c.{e.name}")
            e.ref = g
            return g.type
        if isinstance(g, OptionSym):
            g.used = True
            e.ref = ("const", g.value)
            return g.type
        if isinstance(g, ZoneSym):
            g.used = True
            e.ref = g
            return g.type
        if isinstance(g, EffectSym):
            g.used = True
            e.ref = ("const", g.index)
            return T.EFFECT
        if e.name in self.members:
            refs = self.members[e.name]
            if len(refs) > 1:
                raise self.fail("E101", f"{e.name} is a member of several enums: say which",
                                e.span, " or ".join(f"{r.enum.name}.{e.name}" for r in refs))
            refs[0].enum.used = True
            e.ref = ("const", refs[0].index)
            return refs[0].enum.type
        if isinstance(g, EnumSym):      # an enum as a value: the list of its members (for s in Suit)
            g.used = True
            e.ref = ("const", tuple(range(len(g.members))))
            return T.list_of(g.type)
        if isinstance(g, FnSym | RuleSym | OrderingSym):
            raise self.fail("E201", f"{e.name} is called with (…)", e.span, f"{e.name}(…)")
        if isinstance(g, PhaseSym | WindowSym | CheckSym):
            raise self.fail("E201", f"{e.name} is a {type(g).__name__.removesuffix('Sym').lower()}, not a value",
                            e.span)
        values = [n for n, g in self.globals.items() if not isinstance(g, EnumSym | PhaseSym | WindowSym | CheckSym)]
        cands = [*sc.all_names(), *values, *self.members, "players", "active", "stack", "all_cards"]
        raise self.fail("E101", f"unknown name {e.name}", e.span, _deck_word(e.name) or did_you_mean(e.name, cands))

    def attr(self, e: A.Attr, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e.obj, A.Name) and e.obj.name in self.enums and sc.lookup(e.obj.name) is None \
                and (not isinstance(self.globals.get(e.obj.name), OptionSym)
                     or e.name in self.enums[e.obj.name].members):   # an option's own enum: style.strong
            en = self.enums[e.obj.name]
            en.used = True
            if e.name not in en.members:
                raise self.fail("E103", f"{en.name} has no member {e.name}", e.span, did_you_mean(e.name, en.members))
            e.ref = ("const", en.members.index(e.name))
            return en.type
        ot = self.expr(e.obj, sc, ctx)
        assert self.cards is not None
        if ot.kind == "card":
            if e.name == "name":
                e.ref = ("cardname",)
                return T.TEXT
            if e.name in self.cards.attr_types:
                e.ref = ("cardattr", e.name)
                return self.cards.attr_types[e.name]
            v = self.globals.get(e.name)
            if isinstance(v, VarSym) and v.scope == "card":
                v.used = True
                e.ref = ("cardvar", v)
                return v.type
            deck = self.variant_deck
            if deck is not None and e.span.file != deck.span.file:     # the base's attribute, not the variant's deck's
                raise self.fail("E103", f"cards have no attribute {e.name} — because of the cards at {deck.span}",
                                e.span, f"the variant's deck declares no {e.name}: declare it there (attr {e.name}: …), "
                                "or override what reads it")
            raise self.fail("E103", f"cards have no attribute {e.name}", e.span,
                            did_you_mean(e.name, [*self.cards.attr_types, "name",
                                                  *[x.name for x in self.vars if x.scope == "card"]]))
        if ot.kind == "item":
            if e.name in ITEM_FIELDS:
                e.ref = ("field", e.name)
                return ITEM_FIELDS[e.name]
            if e.name in self.item_fields:
                e.ref = ("field", e.name)
                return self.item_fields[e.name][1]
            raise self.fail("E103", f"stack items have no field {e.name}", e.span,
                            did_you_mean(e.name, [*ITEM_FIELDS, *self.item_fields]))
        if ot.kind == "square":
            if e.name in ("x", "y"):
                e.ref = ("sq", e.name)
                return T.INT
            raise self.fail("E103", f"a square has x and y, not {e.name}", e.span)
        if ot.kind == "any":
            raise self.fail("E201", f"the type of this value is not known; .{e.name} cannot be checked", e.obj.span,
                            "give the value a type (let x: card = …)")
        raise self.fail("E103", f"{ot} has no attribute {e.name}", e.span)

    def index(self, e: A.Index, sc: Scope, ctx: Ctx) -> T.T:
        if isinstance(e.obj, A.Name) and sc.lookup(e.obj.name) is None:
            g = self.globals.get(e.obj.name)
            if isinstance(g, VarSym) and g.scope == "player":
                g.used = True
                if len(e.args) != 1:
                    raise self.fail("E202", f"{g.name}[p] takes one player", e.span)
                self.want(e.args[0], T.PLAYER, sc, ctx, f"{g.name}[…] takes a player")
                e.ref = ("pvar", g)
                e.obj.ty = T.ANY
                return g.type
            if isinstance(g, VarSym) and g.scope == "card":
                raise self.fail("E206", f"{g.name} belongs to cards: write c.{g.name}", e.span)
        ot = self.expr(e.obj, sc, ctx)
        if ot.kind == "zonefam":
            if len(e.args) != 1:
                raise self.fail("E202", f"{ot.name}[p] takes one player", e.span)
            self.want(e.args[0], T.PLAYER, sc, ctx, f"{ot.name}[…] takes a player")
            e.ref = ("zonefam",)
            return T.ZONE
        if ot.kind == "seqfam":
            if len(e.args) != 1:
                raise self.fail("E202", f"{ot.name}[p] takes one player", e.span)
            self.want(e.args[0], T.PLAYER, sc, ctx, f"{ot.name}[…] takes a player")
            e.ref = ("seqfam",)
            return T.T("seq", ot.name)
        if ot.kind == "grid":
            if len(e.args) == 2:
                self.want(e.args[0], T.INT, sc, ctx, "a grid square's x")
                self.want(e.args[1], T.INT, sc, ctx, "a grid square's y")
                e.ref = ("gridxy",)
            elif len(e.args) == 1:
                self.want(e.args[0], T.SQUARE, sc, ctx, f"{ot.name}[…] takes a square or x, y")
                e.ref = ("gridsq",)
            else:
                raise self.fail("E202", f"{ot.name}[…] takes a square or x, y", e.span)
            return T.ZONE
        if len(e.args) != 1:
            raise self.fail("E202", "indexing takes one position", e.span)
        self.want(e.args[0], T.INT, sc, ctx, "a position is a whole number (0 is the first)")
        if ot.kind == "seq":
            e.ref = ("seqi",)
            return T.ZONE
        if ot.kind == "list":
            e.ref = ("listi",)
            self.past_variant_deck(e)
            return ot.elem or T.ANY
        if ot.kind == "tuple" or ot.kind == "any":
            e.ref = ("listi",)
            return T.ANY
        if ot.kind == "zone":
            e.ref = ("zonei",)
            return T.CARD
        raise self.fail("E201", f"{ot} cannot be indexed", e.span)

    def past_variant_deck(self, e: A.Index) -> None:
        """E108: the base reads `all_cards[52]`, a card its deck had under these options and the
        variant's `cards` line leaves out (its Joker): refused here, not at run time."""
        deck, pos = self.variant_deck, e.args[0]
        if deck is None or self.cards is None or e.span.file == deck.span.file \
                or not (isinstance(e.obj, A.Name) and e.obj.ref == ("all_cards",)) \
                or not (isinstance(pos, A.Lit) and isinstance(pos.value, int)):
            return
        n = len(self.cards.names)
        if n <= pos.value < (self.base_deck_size or 0):
            self.err("E108", f"all_cards[{pos.value}] is past the end of the deck ({n} cards, counted from 0) — "
                     f"because of the cards at {deck.span}", e.span,
                     f"the base's deck has {self.base_deck_size} cards with these options: keep them in the "
                     "variant's deck, or override what reads this one")

    def slice(self, e: A.Slice, sc: Scope, ctx: Ctx) -> T.T:
        """`xs[lo:hi]` of a list, the cards of a zone or the zones of a sequence: a list, positions
        as `xs[i]` counts them (negative from the end), cut where the list ends rather than failing."""
        ot = self.expr(e.obj, sc, ctx)
        for b in (e.lo, e.hi):
            if b is not None:
                self.want(b, T.INT, sc, ctx, "a position is a whole number (0 is the first)")
        if ot.kind == "list":
            return ot
        if ot.kind == "zone":
            return T.list_of(T.CARD)
        if ot.kind == "seq":
            return T.list_of(T.ZONE)
        if ot.kind in ("tuple", "any"):
            return ot
        whose = {"zonefam": f"say whose: {ot.name}[p][…]", "seqfam": f"say whose: {ot.name}[p][…]"}.get(ot.kind)
        raise self.fail("E201", f"a part is cut from a list, a zone or a sequence, not {ot}", e.span, whose)

    def join(self, a: T.T, b: T.T, at: A.Expr, message: str) -> T.T:
        """One type for values that may stand for each other; values of unrelated types (a bool
        beside a number) are a mistake, not a list of anything."""
        t = T.join(a, b)
        if t.kind == "any" and a.kind != "any" and b.kind != "any":
            self.err("E201", message.format(a=a, b=b), at.span)
        return t

    def binary(self, e: A.Binary, sc: Scope, ctx: Ctx) -> T.T:
        op = e.op
        if op in ("and", "or"):
            for side in (e.left, e.right):
                t = self.expr(side, sc, ctx)
                if t.kind not in ("bool", "any"):
                    raise self.fail("E205", f"{op} joins true/false values; this is {t}", side.span)
            return T.BOOL
        lt = self.expr(e.left, sc, ctx)
        rt = self.expr(e.right, sc, ctx)
        if op in ("==", "!="):
            if not T.comparable(lt, rt):
                raise self.fail("E201", f"comparing {lt} with {rt} is always {'false' if op == '==' else 'true'}",
                                e.span, SEAT_HINT if {lt.kind, rt.kind} == {"player", "int"} else
                                self.member_hint(e.right, lt) or self.member_hint(e.left, rt))
            return T.BOOL
        if op in ("<", "<=", ">", ">="):
            ok = (T.is_numeric(lt) and T.is_numeric(rt)) or (lt == rt and lt.kind in ("text", "key", "tuple")) \
                or "any" in (lt.kind, rt.kind)
            if not ok:
                hint = None if self.in_where is None else (
                    f"`{self.in_where} … where` takes everything after it: for ({self.in_where} x in L where C) "
                    f"{op} 1, put the quantifier in parentheses")
                if hint is None and lt.kind == rt.kind == "card":
                    hint = f"to compare cards by their place in the deck (as sorted orders them): " \
                           f"index_of(all_cards, a) {op} index_of(all_cards, b); by rank: a.rank {op} b.rank"
                raise self.fail("E201", f"{op} compares numbers (or ordering keys); here {lt} and {rt}", e.span, hint)
            return T.BOOL
        if op in ("in", "notin"):
            et = T.elem_type(rt)
            if et is None and rt.kind != "text":
                raise self.fail("E201", f"`in` looks inside a list or a zone, not {rt}", e.right.span)
            if et is not None and not T.comparable(lt, et):
                raise self.fail("E201", f"{a_noun(str(lt))} is never in {a_noun(str(rt))}", e.span)
            return T.BOOL
        if op == "..":
            if not (T.assignable(lt, T.INT) and T.assignable(rt, T.INT)):
                raise self.fail("E201", f"a range runs between whole numbers; here {lt} and {rt}", e.span)
            return T.list_of(T.INT)
        if op == "+" and lt.kind == "list" and rt.kind == "list":
            return T.join(lt, rt)
        if op == "+" and lt.kind == "text" and rt.kind == "text":
            return T.TEXT
        if not (T.is_numeric(lt) and T.is_numeric(rt)):
            hint = None if self.in_where is None else (
                f"`{self.in_where} … where` takes everything after it: for ({self.in_where} x in L where C) {op} 1, "
                "put the quantifier in parentheses")
            raise self.fail("E201", f"{op} works on numbers; here {lt} and {rt}", e.span, hint)
        if op == "/" or T.NUMBER in (lt, rt):
            return T.NUMBER
        return T.INT

    # -------------------------------------------------------------- calls
    def call(self, e: A.Call, sc: Scope, ctx: Ctx, top: bool = False, statement: bool = False) -> T.T:
        g = self.globals.get(e.func) if sc.lookup(e.func) is None else None
        if isinstance(g, FnSym):
            g.used = True
            e.ref = g
            self.call_args(e.func, [(p.name, p.type) for p in g.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            if ctx.fn is not None:
                ctx.fn.calls.add(g.name)
            self.list_defs.extend(distinct_values.param_defs(g.params, e))
            if g in self.fn_stack:
                cycle = " → ".join([f.name for f in self.fn_stack[self.fn_stack.index(g):]] + [g.name])
                raise self.fail("E307", f"function {g.name} calls itself ({cycle})", e.span,
                                "a search of known depth is a comprehension over subsets (every choice of k melds: "
                                "subsets(melds, k)); or work it out in a rule with a loop, in a let before the "
                                "choose whose where reads it")
            self.check_fn(g)
            return g.ret
        if isinstance(g, RuleSym):
            g.used = True
            e.ref = g
            if ctx.kind in ("fn", "ordering") or (ctx.pure and not top):
                hint = "functions and conditions only look; turn the rule into a fn"
                if ctx.kind not in ("fn", "ordering"):      # a condition: the rule's result, asked first
                    hint += f", or call it before and test its result: let r = {g.name}(…), then if r"
                raise self.fail("E306", f"rule {g.name} cannot be called here: rules change the game", e.span, hint)
            assert g.proc
            self.call_args(e.func, [(p.name, p.type) for p in g.proc.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            self.flow_site(("rule", g.name), sc)     # W104: what the rule's logs may count as revealed
            if g.decl is not None:
                sc.forget(self.may_hide(g.decl.body, frozenset({g.name}), sc, self.given_names(g.decl, e, sc)))
            self.defs.extend(zip(g.proc.params, e.args, strict=False))     # a parameter is what it is given
            self.list_defs.extend(distinct_values.param_defs(g.proc.params, e))
            if not e.kwargs:        # what a parameter may hold, for W102 (zones_through_locals)
                given = {p.name: a for p, a in zip(g.proc.params, e.args, strict=False)}
                for p, a in zip(g.proc.params, e.args, strict=False):
                    self.local_defs.setdefault(id(p), []).append((a, sc, given))
            if ctx.proc is not None:
                ctx.proc.calls.append((g, e, top))
            if not statement and g.proc.ret is None:
                raise self.fail("E201", f"rule {A.written(g.name)} returns nothing", e.span)
            return g.proc.ret or T.NONE
        if isinstance(g, OrderingSym):
            g.used = True
            e.ref = g
            self.call_args(e.func, [(p.name, p.type) for p in g.params], e.args, e.kwargs, e.span, sc, ctx,
                           _defaults(g.decl))
            return T.KEY
        from ..builtins import BUILTINS
        b = BUILTINS.get(e.func)
        if b is None:
            cands = [*self.fns, *self.rules, *self.orderings, *BUILTINS]
            if e.func in self.rules or e.func in self.fns:      # its name another declaration took: E102 said so
                raise Abort()
            if isinstance(self.globals.get(e.func), OptionsSym):
                raise self.fail("E104", f"{e.func} is an options group, not a function", e.span,
                                f"`use {e.func}(…)` stands among a decision's options: choose p {{ use {e.func}(…) }}")
            if sc.lookup(e.func) is not None or e.func in self.globals:
                raise self.fail("E104", f"{e.func} is not a function", e.span, did_you_mean(e.func, cands))
            if e.func == A.BASE_CALL:
                raise self.fail("E104", "base(…) calls the declaration an override replaces, and here nothing "
                                "is overridden", e.span, "write it in the body of `override rule NAME`, "
                                "`override fn NAME` or `override phase NAME` in a variant (a ruleset that extends a base)")
            raise self.fail("E104", f"unknown function {e.func}", e.span,
                            _PYTHON_NAMES.get(e.func) or did_you_mean(e.func, [c for c in cands if "@" not in c]))
        if e.kwargs:
            raise self.fail("E207", f"{e.func} takes no named arguments", e.kwargs[0].span)
        if e.func == "card":
            return self.card_literal(e)
        if b.impure:
            self.impure(e, ctx)
        ats = [self.expr(a, sc, ctx) for a in e.args]
        if not (b.min_args <= len(ats) <= b.max_args):
            n = f"{b.min_args}" if b.min_args == b.max_args else f"{b.min_args}–{b.max_args}"
            raise self.fail("E202", f"{e.func} takes {n} argument{'s' if b.max_args != 1 else ''}, got {len(ats)}",
                            e.span, b.usage)
        try:
            rt = b.check(ats)
        except TypeError as te:
            # a TypeError's second argument, when given, is a hint of its own (what to write instead)
            raise self.fail("E201", f"{e.func}: {te.args[0]}", e.span,
                            te.args[1] if len(te.args) > 1 else b.usage) from None
        # `occurrences` reads the records, which a secret choice may have made (secret_places.secret)
        e.ref = ("builtin", b.name, self.tally) if b.name == "occurrences" else ("builtin", b.name)
        return rt

    def card_literal(self, e: A.Call) -> T.T:
        assert self.cards is not None
        if len(e.args) != 1 or not isinstance(e.args[0], A.Lit) or e.args[0].kind != "text":
            raise self.fail("E202", 'card(…) takes a card name in quotes: card("♠A")', e.span)
        name = str(e.args[0].value)
        name = self.cards.aliases.get(name, name)
        if name not in self.cards.names:        # an alias in another case ("h10", "sa#2"), as typed actions take
            folded = {k.lower(): v for k, v in [*self.cards.aliases.items(), *((n, n) for n in self.cards.names)]}
            name = folded.get(name.lower(), name)
        if name not in self.cards.names:
            deck = self.variant_deck
            if deck is not None and e.span.file != deck.span.file:     # the base names a card the variant left out
                raise self.fail("E108", f"no card is named {name} — because of the cards at {deck.span}",
                                e.args[0].span, f"the variant's deck leaves {name} out: keep it in that deck, or "
                                "override what names it")
            first = name[:-2] if name.endswith("#1") and name[:-2] in self.cards.names else None
            raise self.fail("E108", f"no card is named {name}", e.args[0].span,
                            f"the first deck's cards carry no number: {first}" if first else
                            did_you_mean(name, [*self.cards.names, *self.cards.aliases]))
        e.ref = ("const", self.cards.names.index(name))
        return T.CARD

    def call_args(self, name: str, params: list[tuple[str, T.T]], args: list[A.Expr], kwargs: list[A.KwArg],
                  span: Span, sc: Scope, ctx: Ctx, defaults: dict[str, A.Expr] | None = None) -> None:
        name = A.written(name)
        if len(args) > len(params):
            raise self.fail("E202", f"{name} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                            f"got {len(args) + len(kwargs)}", span,
                            f"{name}({', '.join(p for p, _ in params)})")
        given: dict[str, A.Expr] = {}
        for (pn, _), a in zip(params, args, strict=False):
            given[pn] = a
        for kw in kwargs:
            if kw.name not in dict(params):
                raise self.fail("E207", f"{name} has no parameter {kw.name}", kw.span,
                                did_you_mean(kw.name, [p for p, _ in params]) or
                                f"{name}({', '.join(p for p, _ in params)})")
            if kw.name in given:
                raise self.fail("E207", f"{kw.name} is given twice", kw.span)
            given[kw.name] = kw.value
        left_out = [p for p, _ in params if p not in given and p in (defaults or {})]
        for p in left_out:              # a parameter's default stands in for a left-out argument
            given[p] = (defaults or {})[p]
        missing = [p for p, _ in params if p not in given]
        if missing:
            raise self.fail("E202", f"{name} needs {', '.join(missing)}", span,
                            f"{name}({', '.join(p for p, _ in params)})")
        for pn, pt in params:
            at = self.expr(given[pn], sc, ctx)
            if not T.assignable(at, pt) and pn not in left_out:     # a default was checked where declared
                self.err("E201", f"{name}: {pn} is {pt}, got {at}", given[pn].span, self.member_hint(given[pn], pt))
        # keyword arguments (and defaults) are put in place positionally for the compiler
        if kwargs or left_out:
            args[:] = [given[p] for p, _ in params]
            kwargs.clear()
