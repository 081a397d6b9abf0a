"""Statements the parser writes out in simpler ones, so that the checker, compiler and engine only
ever see the core language:

- ``choose P optional { options }``: the options, plus a ``pass`` offered only while one of them
  may be taken; a player with nothing to take is not asked (an empty ``otherwise``);
- ``offer p in L { options }``: a round of optional choices, the players of ``L`` in order (those
  out skipped); after an option is taken the round starts again from the first of ``L``; it ends
  when every player of ``L`` in a row has passed or had nothing to take (Durak's throw-in, any
  "anyone may add …"); ``offer … ask all`` asks everyone of ``L`` each time, with a ``pass`` always.
"""

from __future__ import annotations

from copy import deepcopy

from . import ast as A
from .errors import Span

PASS = "pass"


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
