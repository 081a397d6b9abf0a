"""Files → one merged list of declarations.

A ruleset names itself with ``ruleset NAME``; a variant adds ``extends BASE`` and then declares what
it adds or changes. Merging keeps the base's order: a declaration marked ``override`` replaces the
base's declaration of the same name in place (one that calls ``base(…)`` keeps the base's under a
hidden name); ``override enum`` adds members after the base's; ``option NAME = value`` (no type)
changes a base option's default; ``windows NAMES after W`` puts windows into the base's order;
``players``, ``cards``, ``windows``, ``limit``, ``show`` and ``evaluate`` replace the base's;
anything new is appended. A name declared twice without
``override`` is an error, as is overriding nothing.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import ast as A
from . import sugar
from .errors import Diagnostic, FudaError, Span, did_you_mean, error
from .parse import normal_text, parse_module
from .resources import bundled_rulesets, example_rulesets, find_ruleset

SINGLETONS = (A.PlayersDecl, A.CardsDecl, A.WindowsDecl, A.LimitDecl, A.ShowDecl, A.EvaluateDecl, A.AlliesDecl,
              A.BeliefDecl, A.ScoreDecl)


@dataclasses.dataclass
class Source:
    """A merged ruleset: its declarations, the text of every file read (for carets), the chain."""

    decls: list[A.Decl]
    sources: dict[str, str]
    chain: list[str]          # file names, variant first, base last
    path: Path
    files: list[Path] = dataclasses.field(default_factory=list)   # the files read (for caching by mtime)
    # mistakes in how a variant meets its base (E102, E404, E407…): the checker reports them with its
    # own, so that one run shows them all (the merged declarations leave the faulty ones out)
    merge_diags: list[Diagnostic] = dataclasses.field(default_factory=list)


def resolve(name_or_path: str, relative_to: Path | None = None, besides: Path | None = None) -> Path | None:
    """A ruleset file from a path, a name next to ``relative_to``, or a bundled ruleset's name.
    ``besides``: the file asking, which is never its own base (a variant may share its base's name)."""
    p = Path(name_or_path)
    if p.suffix == ".fuda" and p.is_file():
        return p
    if relative_to is not None:
        for cand in (relative_to / f"{name_or_path}.fuda", relative_to.parent / f"{name_or_path}.fuda"):
            if cand.is_file() and (besides is None or cand.resolve() != besides.resolve()):
                return cand
    if p.suffix != ".fuda":
        return find_ruleset(name_or_path)
    return None


def display_name(path: Path) -> str:
    """How a file is named in diagnostics: relative to the working directory when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read(path: Path) -> str:
    """A ruleset file's text (E005 if it cannot be read or is not UTF-8)."""
    return read_text(path, "E005", display_name(path))


def read_text(path: Path, code: str, shown: str | None = None, what: str = "file") -> str:
    """The text of a file fuda reads (a ruleset, scenario, log, options or persona file): a file
    that cannot be read, or is not UTF-8, is a diagnostic ``code`` pointing at the first bad byte."""
    file = shown or str(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        why = f"no {what} {file}" if isinstance(e, FileNotFoundError) else f"cannot read the {what}: {e.strerror or e}"
        raise FudaError([Diagnostic(code, why, Span(file, 0, 0, 0, 0))]) from None
    try:
        return data.decode("utf-8-sig")    # a byte order mark (some editors write one) is not text
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[start:e.start].decode("utf-8", "replace")) + 1
        raise FudaError([Diagnostic(code, f"the {what} is not UTF-8 text (byte 0x{data[e.start]:02x})",
                                    Span(file, line, col, line, col + 1), "save it as UTF-8")],
                        {file: data.decode("utf-8", "replace")}) from None


def locate(name_or_path: str) -> Path:
    """The file of a ruleset named on the command line: E005 for a path that names no file, E504
    for a name that is no bundled ruleset."""
    found = resolve(name_or_path)
    if found is None and name_or_path.endswith(".fuda"):
        if Path(name_or_path).is_dir():
            raise error("E005", f"{name_or_path} is a folder, not a ruleset file")
        where = "" if Path(name_or_path).is_absolute() else f" (in {Path.cwd()})"
        stem, names = Path(name_or_path).stem, bundled_rulesets() + example_rulesets()
        raise error("E005", f"no file {name_or_path}{where}",
                    hint=f"did you mean {stem}? (a ruleset fuda ships is named without .fuda)" if stem in names else
                    did_you_mean(stem, names) or "a bundled ruleset is named without .fuda (`fuda list` shows them)")
    if found is None:
        raise error("E504", f"no ruleset named {name_or_path!r}",
                    hint=did_you_mean(name_or_path, bundled_rulesets() + example_rulesets())
                    or "`fuda list` shows the bundled rulesets; a file path must end in .fuda")
    return found


def load_source(name_or_path: str, text: str | None = None) -> Source:
    """Parse a ruleset (and its bases) and merge them. ``text`` parses that text as the file instead."""
    path = Path(name_or_path) if text is not None else locate(name_or_path)
    sources: dict[str, str] = {}
    chain: list[tuple[str, A.Module]] = []
    files: list[Path] = []
    seen: set[Path] = set()
    current: Path | None = path
    current_text = text
    via: tuple[Span, str] | None = None
    while current is not None:
        key = current.resolve()
        if key in seen:
            assert via is not None
            raise error("E405", f"circular extends: {via[1]} is already part of this chain", via[0],
                        hint=" → ".join([f for f, _ in chain] + [display_name(current)]), sources=sources)
        seen.add(key)
        fname = display_name(current)
        if current_text is None:
            files.append(key)
        src = normal_text(current_text if current_text is not None else read(current))
        current_text = None
        sources[fname] = src
        try:
            module = parse_module(src, fname)
        except FudaError as e:
            e.sources.update(sources)
            raise
        chain.append((fname, module))
        ext = [d for d in module.decls if isinstance(d, A.ExtendsDecl)]
        if len(ext) > 1:
            raise error("E102", "a ruleset extends one base only", ext[1].span, sources=sources)
        if not ext:
            break
        here = current.resolve().parent      # the file's own folder, wherever fuda was started
        base: Path | None = _base_path(ext[0], here, current, sources) if ext[0].path else \
            resolve(ext[0].base, here, besides=current)
        if base is None and resolve(ext[0].base, here) == current.resolve():
            raise error("E405", f"circular extends: {ext[0].base} is this file itself", ext[0].span,
                        hint="extend another ruleset (a bundled name or a .fuda file next to this one)",
                        sources=sources)
        if base is None:
            near = [f.stem for d in (here, here.parent) for f in d.glob("*.fuda")] + bundled_rulesets() + example_rulesets()
            guess = did_you_mean(ext[0].base, near)
            where = (f"a base is a bundled ruleset's name (fuda list) or a file {ext[0].base}.fuda in "
                     f"{display_name(here)}/ or {display_name(here.parent)}/")
            raise error("E403", f"base ruleset {ext[0].base!r} not found", ext[0].span,
                        hint=f"{guess} ({where})" if guess else where, sources=sources)
        via = (ext[0].span, ext[0].base)
        current = base
    decls: list[A.Decl] = []
    diags: list[Diagnostic] = []
    for _fname, module in reversed(chain):
        decls = _merge(decls, module.decls, diags, is_base=not decls)
    decls = _without_orphan_bases(decls)
    decls = sugar.write_out(decls, diags)
    return Source(decls, sources, [f for f, _ in chain], path, files, diags)


def _base_path(ext: A.ExtendsDecl, here: Path, current: Path, sources: dict[str, str]) -> Path:
    """The file `extends "PATH"` names, relative to the extending file's folder (E403 if missing)."""
    base = here / ext.base
    if base.suffix != ".fuda" or not base.is_file():
        whole = base.with_name(base.name + ".fuda")
        hint = f"write the file's name whole: extends \"{ext.base}.fuda\" (.fuda is not added to a path)" \
            if base.suffix != ".fuda" and whole.is_file() else \
            f"a base in quotes is a .fuda file's path from {display_name(here)}/ (looked for {display_name(base)})"
        raise error("E403", f"base ruleset {ext.base!r} not found", ext.span, hint=hint, sources=sources)
    if base.resolve() == current.resolve():
        raise error("E405", f"circular extends: {ext.base} is this file itself", ext.span,
                    hint="extend another ruleset", sources=sources)
    return base


def _type_text(t: A.TypeRef | None) -> str:
    if t is None:
        return "nothing"
    return f"list of {_type_text(t.of)}" if t.name == "list" else t.name


def _signature(d: A.Decl) -> str | None:
    """What an override must keep of the base: parameter types and result (fn, rule, effect,
    ordering), an option's type (its range and members may change), a variable's type and scope
    (its initial value and visibility may change)."""
    if isinstance(d, A.FnDecl | A.RuleDecl):
        return f"({', '.join(_type_text(p.type) for p in d.params)}) -> {_type_text(d.ret)}"
    if isinstance(d, A.EffectDecl | A.OrderingDecl | A.OptionsDecl):
        return f"({', '.join(_type_text(p.type) for p in d.params)})"
    if isinstance(d, A.OptionDecl) and d.type is not None:
        t = d.type
        return "int" if t.kind == "range" else "one of its members" if t.kind == "enum" else str(t.name)
    if isinstance(d, A.VarDecl):
        vt = _type_text(d.type) if d.type is not None else _literal_type(d.init)
        return None if vt is None else f"{vt}{'' if d.scope == 'global' else ' per ' + d.scope}"
    return None


def _literal_type(e: A.Expr) -> str | None:
    """The type a variable without one gets from a literal initial value (else unknown here)."""
    return e.kind if isinstance(e, A.Lit) and e.kind != "none" else None


def _same_but_result(was: str | None, now: str | None) -> bool:
    """A function's result type may be left out (inferred) on either side."""
    if was is None or now is None:
        return False
    (pa, ra), (pb, rb) = was.rsplit(" -> ", 1), now.rsplit(" -> ", 1)
    return pa == pb and "nothing" in (ra, rb)


def _key(d: A.Decl) -> str:
    if isinstance(d, A.SetupDecl):
        return "setup"
    if isinstance(d, A.RulesetDecl):
        return "\0ruleset"
    if isinstance(d, SINGLETONS):
        return "\0" + type(d).__name__
    return d.key


def _merge(base: list[A.Decl], new: list[A.Decl], diags: list[Diagnostic], is_base: bool) -> list[A.Decl]:
    out = list(base)
    where: dict[str, int] = {_key(d): i for i, d in enumerate(out)}
    own: dict[str, A.Decl] = {}
    for d in new:
        if isinstance(d, A.ExtendsDecl):
            continue
        k = _key(d)
        if k in own and not isinstance(d, A.RulesetDecl):
            twice = f"{_what(d)} is declared twice" if type(d) is type(own[k]) else \
                f"{_what(d)}: the name is already taken by {_what(own[k])}"
            diags.append(Diagnostic("E102", twice, d.span, f"the first is at {own[k].span}"))
            if type(d) is not type(own[k]):
                out.append(d)       # kept for the checker (a phase, a rule): no errors that follow from its absence
            continue
        own[k] = d
        if isinstance(d, A.WindowsDecl) and d.place is not None:
            put = _put_windows(d, base, diags, is_base)
            if put is None:
                continue
            d = put
        if isinstance(d, (A.RulesetDecl, *SINGLETONS)):
            if k in where:
                old = out[where[k]]
                out[where[k]] = dataclasses.replace(d, replaces=old) if isinstance(d, A.CardsDecl) \
                    and isinstance(old, A.CardsDecl) else d
            else:
                where[k] = len(out)
                out.append(d)
            continue
        if isinstance(d, A.OptionDecl) and d.type is None:
            if k not in where or not isinstance(out[where[k]], A.OptionDecl):
                diags.append(Diagnostic("E404", f"option {d.name} changes the default of an option the base "
                                        "does not declare", d.span,
                                        did_you_mean(d.name, [x.key for x in out if isinstance(x, A.OptionDecl)])
                                        or "declare a new option with a type: option NAME: bool = false"))
                continue
            old = out[where[k]]
            assert isinstance(old, A.OptionDecl)
            out[where[k]] = dataclasses.replace(old, default=d.default, label=d.label or old.label)
            continue
        if k in where:
            old = out[where[k]]
            if not d.override:
                diags.append(Diagnostic("E102", f"{_what(d)} is already declared", d.span,
                                        None if is_base else _redeclared_hint(d, old)))
                continue
            if type(old) is not type(d):
                diags.append(Diagnostic("E309", f"override of {_what(old)} must be of the same kind", d.span))
                continue
            if isinstance(d, A.EnumDecl):
                assert isinstance(old, A.EnumDecl)
                out[where[k]] = _more_members(old, d, diags)
                continue
            was, now = _signature(old), _signature(d)
            unknown = isinstance(d, A.VarDecl) and None in (was, now)     # a type inferred from an expression
            if was != now and not unknown and not (isinstance(d, A.FnDecl) and _same_but_result(was, now)):
                what = "type" if isinstance(d, A.OptionDecl | A.VarDecl) else "signature"
                diags.append(Diagnostic("E407", f"override of {_what(d)} changes its {what} {was} to {now}",
                                        d.span, f"the base ({old.span}) and its callers use {was}; keep it"))
                if isinstance(d, A.FnDecl | A.RuleDecl | A.EffectDecl):
                    # its body is checked too, against its own header, under a name nothing calls: every
                    # mistake at once, none that follows from the base's callers meeting the new signature
                    out.append(dataclasses.replace(d, name=f"{d.name} (override)", override=False))
                continue
            if isinstance(d, A.OptionDecl) and d.label is None and isinstance(old, A.OptionDecl):
                d = dataclasses.replace(d, label=old.label)     # a new range or default, the same words
            out[where[k]] = d
            hidden = _base_version(old, d, where)
            if hidden is not None:
                where[hidden.key] = len(out)
                out.append(hidden)
        else:
            if isinstance(d, A.RequireDecl) and d.override and d.name is None:
                named = [x.name for x in out if isinstance(x, A.RequireDecl) and x.name]
                diags.append(Diagnostic("E404", "override of a require without a name: which one it replaces is unsaid",
                                        d.span, f"name the base's: override require NAME: CONDITION \"message\" "
                                        f"(the base names {', '.join(named)})" if named else
                                        "the base names no require; an unnamed one cannot be replaced"))
                continue
            if d.override:
                diags.append(Diagnostic("E404", f"override of {_what(d)}, which the base does not declare",
                                        d.span, did_you_mean(d.key, [x.key for x in out if type(x) is type(d)])
                                        or "remove `override` to declare something new"))
                continue
            where[k] = len(out)
            out.append(d)
    return out


def _redeclared_hint(d: A.Decl, old: A.Decl) -> str:
    """What a variant can do about a name its base declares: `override` only where it is taken (not
    by a zone, so E102 must not send the designer to a refusal; an enum's `override` adds members)."""
    at = f"declared at {old.span}"
    if isinstance(d, A.ZoneDecl):
        return f"{at}; a variant cannot replace a zone: declare a new zone under another name"
    if isinstance(d, A.EnumDecl):
        return f"{at}; write `override enum` to add members to it"
    return f"{at}; write `override` to replace it"


def _without_orphan_bases(decls: list[A.Decl]) -> list[A.Decl]:
    """Without the base versions no one calls any more (a variant of a variant replaced the
    override that called ``base(…)``): they would be compiled for nothing."""
    while True:
        hidden = {d.name for d in decls if isinstance(d, A.FnDecl | A.RuleDecl) and "@" in d.name}
        if not hidden:
            return decls
        orphans = hidden - {n.func for n in A.walk(decls) if isinstance(n, A.Call)}
        if not orphans:
            return decls
        decls = [d for d in decls if getattr(d, "name", None) not in orphans]


def _put_windows(d: A.WindowsDecl, base: list[A.Decl], diags: list[Diagnostic], is_base: bool) -> A.WindowsDecl | None:
    """``windows NAMES before|after W``: the base's windows order (its ``windows`` line, else its
    windows in declaration order) with NAMES put in at that place, so that a variant adding a
    window does not restate the order, and a window the base adds later still is in it."""
    if is_base:
        diags.append(Diagnostic("E404", f"`windows … {d.place} {d.anchor}` puts windows into a base's order, and "
                                "this ruleset has no base", d.span, f"write the whole order: windows {', '.join(d.names)}, …"))
        return None
    old = next((x for x in base if isinstance(x, A.WindowsDecl)), None)
    if old is not None:
        names, spans = list(old.names), list(old.name_spans)
    else:
        ws = [x for x in base if isinstance(x, A.WindowDecl)]
        names, spans = [w.name for w in ws], [w.span for w in ws]
    assert d.anchor is not None and d.anchor_span is not None
    if d.anchor not in names:
        diags.append(Diagnostic("E107", f"window {d.anchor} is not in the base's windows order", d.anchor_span,
                                did_you_mean(d.anchor, names) or (f"the base's order: windows {', '.join(names)}"
                                                                  if names else "the base has no windows")))
    new = [(n, sp) for n, sp in zip(d.names, d.name_spans, strict=True) if n not in names]
    for n, sp in zip(d.names, d.name_spans, strict=True):
        if n in names:
            diags.append(Diagnostic("E102", f"window {n} is already in the base's windows order", sp,
                                    f"the base's order: windows {', '.join(names)}"))
    # after a mistake the new windows go last: no second error for a window then missing from the order
    i = names.index(d.anchor) + (d.place == "after") if d.anchor in names else len(names)
    return A.WindowsDecl(span=d.span, names=names[:i] + [n for n, _ in new] + names[i:],
                         name_spans=spans[:i] + [sp for _, sp in new] + spans[i:])


def _more_members(old: A.EnumDecl, d: A.EnumDecl, diags: list[Diagnostic]) -> A.EnumDecl:
    """``override enum NAME { … }``: the base's members first, in their order (each keeps its
    index, so cards, options and saved games that name one still do), then the variant's."""
    had = {m.name: m for m in old.members}
    for m in d.members:
        if m.name in had:
            diags.append(Diagnostic("E102", f"enum {d.name} already has {m.name}", m.span,
                                    f"the base declares it at {had[m.name].span}; an override of an enum lists only "
                                    "the members it adds"))
    return dataclasses.replace(old, members=old.members + [m for m in d.members if m.name not in had])


def _base_version(old: A.Decl, d: A.Decl, where: dict[str, int]) -> A.Decl | None:
    """The replaced declaration kept under a hidden name when the override ``d`` calls ``base(…)``
    (each such call renamed to it), so that an override adds to the base's version instead of
    copying it. A base phase becomes a rule without parameters; an override of an override calls
    its own base, as each level's hidden name differs (``NAME@FILE``, never a name one can write)."""
    if not isinstance(d, A.FnDecl | A.RuleDecl | A.PhaseDecl):
        return None
    calls = [n for n in A.walk(d.body) if isinstance(n, A.Call) and n.func == A.BASE_CALL]
    if not calls:
        return None
    name = f"{d.name}@{Path(old.span.file).stem}"
    n = 2
    while name in where:
        name, n = f"{d.name}@{Path(old.span.file).stem}{n}", n + 1
    for c in calls:
        c.func = name
    if isinstance(old, A.PhaseDecl):
        return A.RuleDecl(span=old.span, name=name, params=[], body=old.body)
    assert isinstance(old, A.FnDecl | A.RuleDecl)     # the kind of d (E309 otherwise)
    return dataclasses.replace(old, name=name, override=False)


def _what(d: A.Decl) -> str:
    kind = type(d).__name__.removesuffix("Decl").lower()
    name = getattr(d, "name", None)
    return f"{kind} {name}" if name else kind
