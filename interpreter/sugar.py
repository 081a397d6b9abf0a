"""Constructs written out in simpler ones once a ruleset and its bases are merged (load.py), so that
the checker, compiler and engine only ever see the core language:

- ``options NAME(params) { options }`` and ``use NAME(args) [{ then }]`` among a decision's or
  window's options: the group's options put in place, each parameter replaced by its argument (as
  written: the argument is read where the parameter stands), each block followed by ``then``;
- ``choose P optional { options }``: the options, plus a ``pass`` offered only while one of them
  may be taken; a player with nothing to take is not asked (an empty ``otherwise``);
- ``offer p in L { options }``: a round of optional choices, the players of ``L`` in order (those
  out skipped); after an option is taken the round starts again from the first of ``L``; it ends
  when every player of ``L`` in a row has passed or had nothing to take (Durak's throw-in, any
  "anyone may add …"); ``offer … ask all`` asks everyone of ``L`` each time, with a ``pass`` always.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import fields, replace
from itertools import count
from typing import Any

from . import ast as A
from .errors import Diagnostic, Span, did_you_mean

PASS = "pass"


def write_out(decls: list[A.Decl], diags: list[Diagnostic]) -> list[A.Decl]:
    """Every ``use`` of an options group, then every ``choose … optional`` and ``offer``, written
    out in place; mistakes are added to ``diags``."""
    groups = {d.name: d for d in decls if isinstance(d, A.OptionsDecl)}
    rules = {d.name for d in decls if isinstance(d, A.RuleDecl)}
    done: set[str] = set()
    cyclic: set[str] = set()
    copies_made = count(1)
    # per decision (by id), the names bound anywhere in its declaration: the caller's locals a group's
    # own names must keep apart from (a `let c` before `use plays(…)` whose option binds c)
    local_names: dict[int, set[str]] = {}
    for d in decls:
        names = {b for n in A.walk(d) if (b := A.bound_name(n)) is not None}
        names.update(p.name for p in getattr(d, "params", []))      # a rule's or an enclosing group's
        local_names.update((id(h), names) for h in _holders(d))

    def expand(holder: Any, inside: list[str]) -> None:
        failed = len(diags)
        if isinstance(holder, A.OptionsDecl):
            holder.uses = _once_each(holder, groups, twice)
        for use in reversed(holder.uses):
            group = groups.get(use.name)
            if group is None:
                hint = f"{use.name} is a rule: call it in a block, {use.name}(…)" if use.name in rules else \
                    did_you_mean(use.name, groups) or "declare it: options NAME(p: player) { OPTION … }"
                diags.append(Diagnostic("E101", f"unknown options group {use.name}", use.span, hint))
                continue
            if use.name in inside:
                diags.append(Diagnostic("E307", f"options {use.name} uses itself", use.span,
                                        " → ".join([*inside, use.name])))
                cyclic.add(use.name)
                continue
            if use.name not in done:
                for n in _holders(group):
                    expand(n, [*inside, use.name])
                done.add(use.name)
            if use.name in cyclic:      # said once (E307): its options are not written out again
                failed = -1
                continue
            group.used = True
            args = _arguments(use, group, diags)
            if args is None:
                continue
            use.params = group.params
            copies = []
            taken = {n.name for a in args.values() for n in A.walk(a) if isinstance(n, A.Name)}
            taken |= local_names.get(id(holder), set())
            taken |= {n.name for n in A.walk(use.then) if isinstance(n, A.Name)}    # the block after the use
            for o in group.options:
                o = _substitute(_apart(deepcopy(o), taken), args)
                o.body.extend(deepcopy(use.then))
                k = next(copies_made)
                for n in A.walk(o):
                    n.span = replace(n.span, copy=k)
                o.origin = use
                copies.append(o)
            holder.options[use.at:use.at] = copies
        if not holder.options and len(diags) == failed and not isinstance(holder, A.WindowDecl | A.OptionsDecl):
            why = "".join(dict.fromkeys(overridden(groups.get(u.name), u) for u in holder.uses))
            diags.append(Diagnostic("E309", f"this decision has no options: the groups it uses have none{why}",
                                    holder.uses[0].span))
        holder.uses = []

    for g in groups.values():
        _shadowing(g, diags)
    twice: list[tuple[A.OptionsDecl, Diagnostic]] = []     # said only of a group some decision uses
    for n in _holders(decls):
        expand(n, [])
    diags.extend(d for g, d in twice if g.used)
    for n in list(A.walk(decls)):
        if isinstance(n, A.Choose) and n.optional and n.options:
            _own_pass(n, diags)
            optional_choice(n)
            n.optional = False
        for f in fields(n):     # type: ignore[arg-type]
            v = getattr(n, f.name, None)
            if isinstance(v, list):
                setattr(n, f.name, _offers(v, diags))
            if isinstance(n, A.If):         # the blocks of its (condition, block) branches
                n.branches = [(cond, _offers(block, diags)) for cond, block in n.branches]
    return decls


def _offers(block: list[Any], diags: list[Diagnostic]) -> list[Any]:
    """The block with each `offer` written out as the decisions it stands for."""
    if not any(isinstance(x, A.Offer) for x in block):
        return block
    return [y for x in block for y in (_offer(x, diags) if isinstance(x, A.Offer) else [x])]


def _once_each(holder: A.OptionsDecl, groups: dict[str, A.OptionsDecl],
               twice: list[tuple[A.OptionsDecl, Diagnostic]]) -> list[A.UseOptions]:
    """The uses of a group but the second (and later) of one group inside it: `use inner(p)` twice in
    `outer` puts inner's options twice in every decision that uses outer — E102 at that `use`, as
    a second `use` written in a decision is, once, and it is left out (no error per decision)."""
    first: dict[str, A.UseOptions] = {}
    kept: list[A.UseOptions] = []
    for use in holder.uses:
        group = groups.get(use.name)
        if use.name in first and group is not None and (group.options or group.uses):
            twice.append((holder, Diagnostic(
                "E102", f"options {use.name} is used twice in options {holder.name} (also at {first[use.name].span}): "
                f"each decision that uses {holder.name} would have its options twice{overridden(group, use)}",
                use.span, "use it once")))
            continue
        first.setdefault(use.name, use)
        kept.append(use)
    return kept


def overridden(group: A.OptionsDecl | None, use: A.UseOptions) -> str:
    """" — because of the override at FILE:L:C" when the group a base's `use` takes in is a
    variant's override: a mistake at the base's line that the variant's author made there."""
    if group is None or not group.override or group.span.file == use.span.file:
        return ""
    return f" — because of the override at {group.span}"


def _holders(node: object) -> list[Any]:
    """The decisions, windows and groups in ``node`` that take in a group with ``use``."""
    return [n for n in A.walk(node) if isinstance(n, A.Choose | A.Offer | A.Simultaneous | A.WindowDecl
                                                   | A.OptionsDecl) and n.uses]


def _arguments(use: A.UseOptions, group: A.OptionsDecl, diags: list[Diagnostic]) -> dict[str, A.Expr] | None:
    """The argument of each parameter (a default where it is left out), or None after an error."""
    shown = f"{group.name}({', '.join(p.name for p in group.params)})"
    if overridden(group, use):      # a variant renamed a parameter, or dropped a default, that the base's use relies on
        shown += "; an override keeps the parameters' names and defaults: the base's uses rely on them"
    if len(use.args) > len(group.params):
        diags.append(Diagnostic("E202", f"options {group.name} takes {len(group.params)} argument"
                                f"{'s' if len(group.params) != 1 else ''}, got {len(use.args) + len(use.kwargs)}",
                                use.span, shown))
        return None
    given = {p.name: a for p, a in zip(group.params, use.args, strict=False)}
    for kw in use.kwargs:
        if kw.name not in {p.name for p in group.params} or kw.name in given:
            unknown = kw.name not in {p.name for p in group.params}
            diags.append(Diagnostic("E207", f"options {group.name} has no parameter {kw.name}{overridden(group, use)}"
                                    if unknown else f"{kw.name} is given twice", kw.span, shown))
            return None
        given[kw.name] = kw.value
    for p in group.params:
        if p.name not in given and p.default is not None:
            given[p.name] = p.default
    missing = [p.name for p in group.params if p.name not in given]
    if missing:
        diags.append(Diagnostic("E202", f"options {group.name} needs {', '.join(missing)}{overridden(group, use)}",
                                use.span, shown))
        return None
    use.args, use.kwargs = [given[p.name] for p in group.params], []
    return given


def _apart(option: A.Option, taken: set[str]) -> A.Option:
    """The option with the names bound inside it (binders, `let`s, loops) that the arguments use or
    the caller binds renamed apart (`p` → `pʹ`), so that an argument `p` (the caller's) is not
    captured by a binder `p` of the group, nor clashes with it or with the caller's locals."""
    bound = {b for n in A.walk(option) if (b := A.bound_name(n)) is not None}
    renamed = {name: name + "ʹ" for name in bound & taken}
    if not renamed:
        return option
    for n in A.walk(option):
        if isinstance(n, A.Name | A.Let | A.Insert) and n.name in renamed:
            n.name = renamed[n.name]
        elif isinstance(getattr(n, "var", None), str) and n.var in renamed:  # type: ignore[attr-defined]
            n.var = renamed[n.var]  # type: ignore[attr-defined]
    return option


def _shadowing(group: A.OptionsDecl, diags: list[Diagnostic]) -> None:
    """E109: a name bound inside a group (a binder, a `let`, a loop) may not be one of its parameters,
    which every use replaces by its argument; E102: a parameter named twice."""
    seen: set[str] = set()
    for p in group.params:
        if p.name in seen:
            diags.append(Diagnostic("E102", f"parameter {p.name} is declared twice", p.span))
        seen.add(p.name)
    params = {p.name for p in group.params}
    for n in A.walk(group.options):
        bound = A.bound_name(n)
        if bound is not None and bound in params:
            diags.append(Diagnostic("E109", f"{bound} is a parameter of options {group.name}", n.span,
                                    "name the binder or local otherwise"))


def _substitute(node: Any, args: dict[str, A.Expr]) -> Any:
    """``node`` with every name of a parameter replaced by (a copy of) its argument."""
    if isinstance(node, A.Name) and node.name in args:
        return deepcopy(args[node.name])
    if isinstance(node, A.Node):
        for f in fields(node):      # type: ignore[arg-type]
            if f.name not in ("span", "ty", "ref", "origin"):
                v = getattr(node, f.name, None)
                if isinstance(v, A.Node | list | tuple):
                    setattr(node, f.name, _substitute(v, args))
        return node
    if isinstance(node, list):
        return [_substitute(x, args) for x in node]
    if isinstance(node, tuple):
        return tuple(_substitute(x, args) for x in node)
    return node


def _own_pass(choose: A.Choose | A.Offer, diags: list[Diagnostic]) -> None:
    """An optional choice brings its own pass: an option of that name would be a second one."""
    clash = next((o for o in choose.options if o.name == PASS), None)
    if clash is None:
        return
    if clash.origin is not None:        # the group is right where the decision brings no pass: say which use
        diags.append(Diagnostic("E102", f"an optional choice has its own pass option: options {clash.origin.name} "
                                f"has one too, at {clash.span}", clash.origin.span,
                                "use the group in a choose without optional, or leave its pass out"))
    else:
        diags.append(Diagnostic("E102", "an optional choice has its own pass option: leave this one out", clash.span,
                                "or write choose … without optional, with a pass of your own"))
    choose.options.remove(clash)


def _offer(o: A.Offer, diags: list[Diagnostic]) -> list[A.Stmt]:
    _own_pass(o, diags)
    if not o.options:       # its `use`s failed (reported)
        return []
    return offer(o.span, o.var, o.players, o.label, o.options, o.ask_all)


def optional_choice(choose: A.Choose, ask_all: bool = False) -> A.Choose:
    """``choose P optional``: a ``pass`` while another option is legal, otherwise nobody is asked
    (``ask_all``: a ``pass`` always, so that being asked tells nothing)."""
    sp = choose.span
    if ask_all:
        label = A.Text(span=sp, parts=[["pass"], ["パス"]])
        choose.options.append(A.Option(span=sp, name=PASS, binders=[], where=None, label=label, body=[], implied=True))
        return choose
    legal: A.Expr | None = None
    for o in choose.options:
        # copies: the checker marks every name with what it refers to, here the quantifier's binder
        cond: A.Expr = deepcopy(o.where) if o.where is not None else _lit(sp, True)
        for b in reversed(o.binders):            # `x in L, y in M where C`: any x in L where any y in M where C
            cond = A.Quantifier(span=o.span, kind="any", var=b.var, source=deepcopy(b.source), cond=cond)
        legal = cond if legal is None else A.Binary(span=sp, op="or", left=legal, right=cond)
    assert legal is not None
    label = A.Text(span=sp, parts=[["pass"], ["パス"]])
    choose.options.append(A.Option(span=sp, name=PASS, binders=[], where=legal, label=label, body=[], implied=True))
    if choose.otherwise is None:
        choose.otherwise = []
    return choose


def offer(span: Span, var: str, players: A.Expr, label: A.Text | None, options: list[A.Option],
          ask_all: bool = False) -> list[A.Stmt]:
    """``offer p in L { options }`` as a loop: ``i`` walks ``L`` (a player named twice is asked
    once); taking an option sets it back to 0."""
    i, acted = f"{var}#{span.line}:{span.col}#i", f"{var}#{span.line}:{span.col}#acted"
    given, players = players, A.Call(span=players.span, func="unique", args=[deepcopy(players)])
    for o in options:
        o.body.insert(0, A.Assign(span=o.span, target=_name(o.span, acted), op="=", value=_lit(o.span, True)))
    choose = optional_choice(A.Choose(span=span, player=_name(span, var), label=label, options=options), ask_all)
    out = A.Index(span=span, obj=A.Name(span=span, name="out"), args=[_name(span, var)])
    body: list[A.Stmt] = [
        A.Let(span=span, name=var, value=A.Index(span=span, obj=deepcopy(players), args=[_name(span, i)]),
              readonly=True),
        A.Let(span=span, name=acted, value=_lit(span, False)),
        A.If(span=span, branches=[(A.Unary(span=span, op="not", operand=out), [choose])]),    # out: not asked
        A.If(span=span, branches=[(_name(span, acted), [A.Assign(span=span, target=_name(span, i), op="=",
                                                                  value=_lit(span, 0))])],
             orelse=[A.Assign(span=span, target=_name(span, i), op="+=", value=_lit(span, 1))]),
    ]
    size = A.Call(span=span, func="size", args=[players])
    return [A.Let(span=span, name=i, value=_lit(span, 0)),
            A.While(span=span, cond=A.Binary(span=span, op="<", left=_name(span, i), right=size), body=body,
                    offer=given)]


def _name(span: Span, name: str) -> A.Name:
    return A.Name(span=span, name=name)


def _lit(span: Span, value: bool | int) -> A.Lit:
    return A.Lit(span=span, kind="bool" if isinstance(value, bool) else "int", value=value)
