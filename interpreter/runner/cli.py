"""The ``fuda`` command. Every user mistake prints ``file:line:col: error[code]: message`` with the
source line and a caret, and exits 1; a Python traceback is never the report (set FUDA_DEBUG=1
to see one for an internal error)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, FudaError, Span, os_reason
from ..words import n_players, say

EPILOG = "Rulesets are named (fuda list) or given as .fuda files. Docs: docs/cli.md, docs/language.md in the fuda source."


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The option values of --options FILE, --set and --players (the later win)."""
    from ..api import read_options_file

    opts: dict[str, Any] = {}
    in_file: dict[str, tuple[Span, Span]] = {}
    if getattr(args, "options", None):
        opts.update(read_options_file(args.options))
        in_file, text = _places_in(args.options)
        args.given_in_file = (in_file, args.options, text)
        # the ruleset the options are given to: `ruleset`, `replay RULESET --seed`, `validate FILE…`
        target = getattr(args, "ruleset", None) or (args.log if getattr(args, "seed", None) is not None
                                                      and hasattr(args, "log") else None)
        for given in [target] if target else getattr(args, "files", None) or []:
            _check_meant_for(args.options, text, given)
    for kv in getattr(args, "set", None) or []:
        if "=" not in kv:
            from ..errors import error

            raise error("E406", f"--set takes NAME=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        opts[k.strip()] = _scalar(v.strip())
        in_file.pop(k.strip(), None)
    if getattr(args, "players", None) is not None:
        opts["players"] = args.players
        in_file.pop("players", None)
    return opts


def _places_in(path: str) -> tuple[dict[str, tuple[Span, Span]], str]:
    """Where each option of an options file is written (its key, its value), and the file's text."""
    from ..load import read_text
    from .yaml_file import Located

    loc = Located.of(path, read_text(Path(path), "E406", path, "options file"))
    top = ("options",) if any(k[:1] == ("options",) and len(k) == 2 for k in loc.keys) else ()
    places = {str(k[-1]): (loc.span(k, at_key=True), loc.span(k)) for k in loc.keys if k[:-1] == top}
    return places, loc.text


def _fresh(folder: Path, stem: str) -> Path:
    """A file in ``folder`` that does not exist yet: STEM.json, else STEM-2.json, … (a game kept
    there is never written over by another of the same ruleset and seed)."""
    path, k = folder / f"{stem}.json", 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.json"
    return path


def _check_meant_for(path: str, text: str, ruleset: str | None) -> None:
    """An options file of the form ``{ruleset: NAME, options: {…}}`` is for that ruleset or a
    variant of it: given to another, its values would silently mean something else (E406)."""
    import yaml

    from ..load import load_source
    from .yaml_file import Located

    data = yaml.safe_load(text)
    meant = data.get("ruleset") if isinstance(data, dict) and isinstance(data.get("options"), dict) else None
    if meant is None or not ruleset:
        return
    chain = [Path(f).stem for f in load_source(ruleset).chain]
    if Path(str(meant)).stem not in chain:
        raise Located.of(path, text).error(
            "E406", f"this options file is for {meant}, not {chain[0]}", ("ruleset",),
            hint="a file's ruleset: is checked; give the file to that ruleset (or a variant of it), "
                 "or drop the key")


def _as_given(e: FudaError, args: argparse.Namespace) -> FudaError:
    """An unknown option or a bad value that came from an options file is shown in that file (the
    option's declaration in a hint): the mistake is there, not in the ruleset."""
    given = getattr(args, "given_in_file", None)
    if not given:
        return e
    places, path, text = given
    diags = []
    for d in e.diagnostics:
        at = places.get(d.subject) if d.subject else None
        if at is None:
            diags.append(d)
            continue
        key, value = at
        hint = d.hint if d.code == "E401" else "; ".join(x for x in (d.hint, f"the option is declared at {d.span}") if x)
        diags.append(Diagnostic(d.code, d.message, key if d.code == "E401" else value, hint, d.severity, d.subject))
    return FudaError(diags, {**e.sources, path: text})


def _wins(text: str) -> int:
    """A match's target: a whole number of wins from 0 (none)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of wins (0 for none)")
    return n


def _count(text: str) -> int:
    """A number of games, rounds or workers: a whole number from 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return n


def _port(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535; beyond it the socket library raised OverflowError."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (a whole number from 0 to 65535)")
    return n


def _name(text: str) -> str:
    """A study's name: some visible text."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a study needs a name")
    return text


def _players(prog: Any) -> str:
    """"2–6 players", or "4 players" when the count is fixed."""
    lo, hi = prog.min_players, prog.max_players
    return n_players(lo) if lo == hi else f"{lo}–{hi} players"


def _seat(text: str) -> int:
    """A player, as the game writes it (P2) or by number (2)."""
    from ..words import typed_seat

    p = typed_seat(text)
    if p is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a player (P0, P1, … or 0, 1, …)")
    return p


def _scalar(v: str) -> Any:
    """A --set value as YAML reads it, but for a word it would make a bool that is no true or false
    (on, off, yes, no): kept as typed, so that it names the member of that name (yaml_file.typed_word).
    A reading that is a list or a mapping (`-` is a list of none) is kept as typed too: an option
    holds one value, and a refusal then quotes what was typed."""
    import yaml

    from .yaml_file import typed_word

    try:
        read = yaml.safe_load(v)
    except yaml.YAMLError:
        return v
    return v if isinstance(read, list | dict) else typed_word(v, read)


def _add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--options", metavar="FILE", help="YAML file of option values (a table's house rules)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="set one option (repeatable)")
    p.add_argument("--players", type=int, metavar="N", help="number of players (the players option)")


def _add_table(p: argparse.ArgumentParser) -> None:
    """The seats, seed, language and log of a game played at a table: ``fuda play`` and ``fuda serve``."""
    p.add_argument("--seat", action="append", metavar="KIND",
                   help="human | random | rollout | ismcts | ismcts:ITERATIONS | ismcts:SECONDSs | persona:ID (repeat per seat; "
                        "personas: miles, parker, … — docs/bots.md in the fuda source)")
    p.add_argument("--seed", type=int, help="game seed (default: random)")
    p.add_argument("--lang", choices=["en", "ja"], help="label language (default en; a resumed game keeps its own)")
    p.add_argument("--log", metavar="FILE", help="keep a replayable game log in FILE (written whatever happens, also on quit)")


def _half(text: str, lang: int) -> str:
    """One language of an "English | 日本語" text (one text serves both)."""
    halves = text.split(" | ")
    return halves[min(lang, len(halves) - 1)]


def _lang(args: argparse.Namespace) -> int:
    return 1 if getattr(args, "lang", "en") == "ja" else 0


# ------------------------------------------------------------------ commands
def cmd_validate(args: argparse.Namespace) -> int:
    from ..api import check_ruleset

    bad = 0
    opts = _options(args)
    for f in args.files:
        try:
            prog = check_ruleset(f, opts)
        except FudaError as e:
            print(_as_given(e, args).format(), file=sys.stderr)
            n = len(e.diagnostics)
            print(f"{f}: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
            bad += 1
            continue
        for w in prog.warnings:
            print(w.format(prog.sources), file=sys.stderr)
        if args.strict and prog.warnings:
            bad += 1
            print(f"{f}: {len(prog.warnings)} warning{'s' if len(prog.warnings) != 1 else ''} (errors with --strict)",
                  file=sys.stderr)
            continue
        if not args.quiet:
            nc = len(prog.cards.names)
            nw = len(prog.warnings)
            print(f"{f}: ok ({prog.name}, {_players(prog)}, "
                  f"{nc} card{'s' if nc != 1 else ''}, {nw} warning{'s' if nw != 1 else ''})")
    return 1 if bad else 0


def cmd_list(args: argparse.Namespace) -> int:
    from .. import ast as A
    from ..api import check_ruleset
    from ..ast import walk
    from ..check import text_plain
    from ..resources import bundled_rulesets, example_rulesets

    names = [args.name] if args.name else bundled_rulesets()
    examples = [] if args.name else example_rulesets()
    for name in names + examples:
        if examples and name == examples[0]:
            print("\nexample games (docs/examples.md in the fuda source):")
        try:
            prog = check_ruleset(name)
        except FudaError as e:
            if args.name:       # the one asked for: its mistakes in full (E504 when there is none)
                raise
            print(f"{name}: does not validate ({e.first.code}: {e.first.message})")
            continue
        base = f" (extends {prog.chain[1].rsplit('/', 1)[-1].removesuffix('.fuda')})" if len(prog.chain) > 1 else ""
        title = prog.title if args.lang is None else _half(prog.title, _lang(args))
        fixed = prog.min_players == prog.max_players
        print(f"{name}{base} — {title} — {_players(prog)}"
              + ("" if fixed else f" (default {prog.options['players'].default})"))
        if args.verbose or args.name == name:
            for oname, o in prog.options.items():
                if oname == "players":
                    continue
                vals = ""
                if o.members:
                    vals = " {" + ", ".join(o.members) + "}"
                elif o.lo is not None:
                    vals = f" {o.lo}..{o.hi}"
                default = o.members[o.default] if o.members and isinstance(o.default, int) else o.default
                shown = str(default).lower() if isinstance(default, bool) else str(default)
                # both languages, as the title, or the one --lang asks for
                halves = [text_plain(o.decl.label, i) for i in range(len(o.decl.label.parts))] \
                    if o.decl and o.decl.label else [""]
                label = " | ".join(dict.fromkeys(halves)) if args.lang is None else \
                    halves[min(_lang(args), len(halves) - 1)]
                kind = "" if o.members and str(o.type) == oname else str(o.type)    # `moon: {a, b}`, its own list
                # a default made of other options follows the values set for them, not only theirs
                read = dict.fromkeys(n.name for n in walk(o.decl.default if o.decl else None)
                                     if isinstance(n, A.Name) and n.name in prog.options and n.name != oname)
                if read:
                    shown += f" (follows {', '.join(read)})"
                print(f"    {oname}: {(kind + vals).strip()} = {shown}   {label}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from ..api import load
    from .home import fuda_home
    from .play import play

    if getattr(args, "match", None):
        return _play_match(args)
    if args.games is not None or args.first_to is not None:
        print(f"error: {'--games' if args.games is not None else '--first-to'} counts the games of a match: "
              "give it with --match NAME", file=sys.stderr)
        return 2
    resume = None
    carried: dict[str, Any] = {}
    rules = match = None
    if args.resume and (args.set or args.options or args.players):
        given = "--set" if args.set else "--options" if args.options else "--players"
        print(f"error: --resume plays on the saved game's ruleset and options, which its moves replay from; "
              f"{given} cannot change them (start a new game instead)", file=sys.stderr)
        return 2
    if args.resume:
        from .replay import check_seats, read_log, replay, rules_changed

        saved = read_log(args.resume)
        again = replay(saved, args.resume)      # an action that no longer replays: E503 naming it, before play starts
        if not args.seat:
            check_seats(saved, args.resume, again.game.n)
        if (note := rules_changed(saved, again, args.resume)) is not None:
            print(note, file=sys.stderr)
        args.ruleset, args.seed = saved.ruleset, saved.seed
        args.seat = args.seat or saved.seats
        args.lang = args.lang or saved.lang
        resume = [(p, a) for p, a in saved.actions]
        carried = saved.carried
        rules = saved.rules         # kept: the game began under them (a replay warns they have changed)
        match = saved.match         # kept too: the game can still be counted in its match
        if match:
            print(f"note: this is a game of match {match}; it is counted there only when continued "
                  f"with --resume {args.resume} --match {match}", file=sys.stderr)
        game = load(saved.ruleset, saved.options)
        args.log = args.log or args.resume
    else:
        if not args.ruleset:
            print("error: name a ruleset (or --resume a saved game)", file=sys.stderr)
            return 2
        if args.log and Path(args.log).is_file() and Path(args.log).stat().st_size > 0:
            print(f"error: {args.log} already holds something (a saved game?): a new game would write over it; "
                  f"continue that game with --resume {args.log}, or name another --log file", file=sys.stderr)
            return 2
        game = load(args.ruleset, _options(args))
    seats, seed = _seating(args, game.n)
    print(_table_line(game, seats, seed, _lang(args)))
    # at a hot seat the seed is told only after the result: the file's name must not tell it before
    tag = time.strftime("%Y%m%d-%H%M%S") if seats.count("human") > 1 else str(seed)
    autosave = str(_fresh(fuda_home() / "games", f"{Path(game.ruleset).stem}-{tag}"))
    play(game, seats, seed, _lang(args), args.log, resume=resume, autosave=autosave, carried=carried,
         ask_all=args.ask_all, rules=rules, match=match)
    return 0


def _table_line(game: Any, seats: list[str], seed: int, lang: int) -> str:
    """The first line of a game: who sits where, and the seed — unless several humans share the
    screen: the seed deals every hand (`fuda replay --seed` shows them), so it is told at the end."""
    hot = seats.count("human") > 1
    return say("table_hot" if hot else "table", lang, title=game.title_in(lang), n=game.n,
               s="" if game.n == 1 else "s", seed=seed) \
        + ", ".join(f"{game.seat(i, lang)} {s}" for i, s in enumerate(seats))


def cmd_serve(args: argparse.Namespace) -> int:
    from ..api import load
    from .serve import serve
    from .table import Table

    game = load(args.ruleset, _options(args))
    seats, seed = _seating(args, game.n)
    lang = _lang(args)
    print(_table_line(game, seats, seed, lang))
    table = Table(game, seats, seed, lang, args.log, background=True)     # the bots move on their own thread
    try:
        serve(table, args.host, args.port, browser=not args.no_browser)
    except OSError as e:
        where = f"{args.host}:{args.port}" if args.port is not None else args.host
        print(f"error: cannot serve on {where}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


def _play_match(args: argparse.Namespace, inp: Any = input) -> int:
    """fuda play --match NAME: games whose scores add up per seat, saved after every game. A game
    stopped before its end is kept as a plain one is (its log names the match), and
    ``--resume LOG --match NAME`` finishes it and counts it in the match, once."""
    from ..api import load
    from ..errors import error
    from .home import fuda_home
    from .match import MatchStore
    from .play import game_log, play
    from .replay import seat_problem

    if args.resume and (args.set or args.options or args.players):
        flag = "--set" if args.set else "--options" if args.options else "--players"
        print(f"error: --resume plays on the saved game's ruleset and options, which its moves replay from; "
              f"{flag} cannot change them", file=sys.stderr)
        return 2
    flags = f" --match {args.match}" + (f" --match-db {args.match_db}" if args.match_db else "")
    with MatchStore(args.match_db) as store:
        m = store.get(args.match)
        given = _options(args)
        resumed = None
        if args.resume:
            from .replay import check_seats, read_log, replay, rules_changed

            saved = read_log(args.resume)
            if m is None or saved.match != m.name:
                what = f"a game of match {saved.match!r}" if saved.match else "no match's game"
                print(f"error: {args.resume} is {what}; --resume LOG --match NAME finishes a game "
                      f"that match NAME began" + ("" if m is not None else f" (there is no match {args.match!r} "
                                                                           f"in {store.path})"), file=sys.stderr)
                return 2
            before = replay(saved, args.resume)
            if not args.seat:
                check_seats(saved, args.resume, before.game.n)
            if (note := rules_changed(saved, before, args.resume)) is not None:
                print(note, file=sys.stderr)
            resumed = saved
            args.lang = args.lang or saved.lang
            game = load(saved.ruleset, saved.options)
            if game.n != m.players:
                print(f"error: match {m.name} is for {m.players} players, not {game.n}", file=sys.stderr)
                return 2
            seats = _seats(args.seat or saved.seats, game.n)
            print(m.standings(_score_name(game, _lang(args)), game.seats_in(_lang(args))))
        elif m is None:
            if not args.ruleset:
                print(f"error: there is no match {args.match!r} in {store.path}; name a ruleset to start it",
                      file=sys.stderr)
                return 2
            game = load(args.ruleset, given)
            seats = _seats(args.seat, game.n)
            where = str(Path(args.ruleset).resolve()) if args.ruleset.endswith(".fuda") else args.ruleset
            m = store.create(args.match, where, game.n, dict(given), seats,    # a file: found from anywhere
                             args.first_to or None)
            print(f"new match {m.name} ({store.path})")
        else:
            if args.ruleset and args.ruleset != m.ruleset and not (
                    args.ruleset.endswith(".fuda") and str(Path(args.ruleset).resolve()) == m.ruleset):
                print(f"error: match {m.name} plays {m.ruleset}, not {args.ruleset}", file=sys.stderr)
                return 2
            options = {**m.options, **given}       # settings changed between games are remembered
            try:
                game = load(m.ruleset, options)
            except FudaError as e:      # the name is the match file's, not typed: say so
                if e.first.code not in ("E504", "E005"):
                    raise
                raise error("E503", f"the match file {store.path}: matches.ruleset of match {m.name}: "
                            f"{e.first.message}", hint=e.first.hint) from None
            if game.n != m.players:
                print(f"error: match {m.name} is for {m.players} players, not {game.n}", file=sys.stderr)
                return 2
            if not args.seat and (bad := seat_problem(m.seats)) is not None:
                raise error("E503", f"the match file {store.path} is damaged: matches.seats of match {m.name}: "
                            f"P{bad[0]}: {bad[1].message}",
                            hint="; ".join(x for x in (bad[1].hint, "--seat KIND … replaces the saved seats") if x))
            seats = _seats(args.seat or m.seats, game.n)
            print(m.standings(_score_name(game, _lang(args)), game.seats_in(_lang(args))))
        if args.first_to is not None and (args.first_to or None) != m.first_to:    # remembered, as options are
            m = store.set_first_to(m, args.first_to or None)
            print(m.standings(_score_name(game, _lang(args)), game.seats_in(_lang(args))).splitlines()[-1]
                  if m.first_to else f"match {m.name}: no target of wins now; it goes on as long as games are played")
        if m.winners:
            print(f"error: match {m.name} is over: {_won_by(m, game, _lang(args))}; to play on, raise its "
                  f"target ({flags.strip()} --first-to {max(m.wins) + 1}) or start another match", file=sys.stderr)
            return 2
        played = 0
        while True:
            if resumed is not None:
                seed, carried, log_path = resumed.seed, resumed.carried, args.log or args.resume
                print(f"{game.title_in(_lang(args))} — match {m.name}, a game begun before ({args.resume}): "
                      + ", ".join(f"P{i} {s}" for i, s in enumerate(seats)))
            else:
                seed = args.seed + m.games if args.seed is not None else int.from_bytes(os.urandom(4), "little")
                told = f"seed {seed}" if seats.count("human") <= 1 else "seed told when the game is over"
                print(f"{game.title_in(_lang(args))} — match {m.name}, game {m.games + 1}, {told}: "
                      + ", ".join(f"P{i} {s}" for i, s in enumerate(seats)))
                carried, log_path = _carried_into(game, m.carried, m.carried_kinds), args.log
            actions: list[tuple[int, str]] = []
            # stopped before its end, the game is kept as a plain game is (cmd_play), its log naming the match
            tag = time.strftime("%Y%m%d-%H%M%S") if seats.count("human") > 1 else str(seed)
            autosave = str(_fresh(fuda_home() / "games", f"{Path(game.ruleset).stem}-{tag}"))
            st = play(game, seats, seed, _lang(args), log_path, out=sys.stdout, actions=actions, carried=carried,
                      ask_all=args.ask_all, autosave=autosave, match=m.name, again=flags,
                      resume=[(p, a) for p, a in resumed.actions] if resumed is not None else None,
                      rules=resumed.rules if resumed is not None else None)
            if not st.over:
                print(f"this game is not counted yet; match {m.name} stays at {m.games} "
                      f"game{'s' if m.games != 1 else ''}")
                return 0
            log = game_log(game, seed, actions, seats, _lang(args), carried,
                           resumed.rules if resumed is not None else None, m.name)
            if game.carried_values(st):
                log["carried_next"] = game.carried_values(st)
                log["carried_kinds"] = game.carried_kinds()     # a player 1 is no int 1 (_carried_into)
            if resumed is not None and (twin := store.counted(m.name, seed, log["actions"])) is not None:
                print(f"this game is counted already: it is game {twin} of match {m.name}")
                return 0
            resumed = None
            try:
                m = store.record(m, game.result(st), seed, dict(game.options_given), log, seats)
            except FudaError:
                # the match file failed: the finished game is not lost, its log goes beside the others
                kept = fuda_home() / "games" / f"{m.name}-{m.games + 1}.json"
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
                print(f"the game could not be added to match {m.name}; its log is kept in {kept} "
                      f"(fuda replay {kept})", file=sys.stderr)
                raise
            played += 1
            print(m.standings(_score_name(game, _lang(args)), game.seats_in(_lang(args))))
            if m.winners:
                print(f"match {m.name} is over: {_won_by(m, game, _lang(args))}")
                return 0
            if args.games is not None:
                if played >= args.games:
                    return 0
            elif "human" not in seats:
                return 0
            else:
                try:
                    again = inp("another game? [y/N] ").strip().lower()
                except EOFError:
                    again = ""
                if again not in ("y", "yes"):
                    print(f"saved: continue with fuda play --match {m.name}"
                          + (f" --match-db {args.match_db}" if args.match_db else ""))
                    return 0


def _won_by(m: Any, game: Any, lang: int) -> str:
    names = game.seats_in(lang)
    return " and ".join(names[p] if names else f"P{p}" for p in m.winners) + \
        f" won it, first to {m.first_to} win{'s' if m.first_to != 1 else ''}"


def _carried_into(game: Any, kept: dict[str, Any], kinds: dict[str, str] | None = None) -> dict[str, Any]:
    """What a match's next game starts with: the previous game's `carried` variables. Each one the
    ruleset (changed since) no longer carries, or that no longer fits (its type changed, its enum
    member is gone), starts from its initial value, with a note; the others are carried. ``kinds``:
    the variables' kinds in the game before (a player kept as its seat number is no int)."""
    out = {k: v for k, v in kept.items() if k in game.carried_names}
    dropped = sorted(set(kept) - set(out))
    for name in list(out):
        try:
            game.carried_in({name: out[name]}, kinds)
        except FudaError as e:
            print(f"note: {e.first.message}; {name} starts from its initial value")
            del out[name]
    if dropped:
        print(f"note: the ruleset no longer carries {', '.join(dropped)}: left out")
    return out


def _seating(args: argparse.Namespace, n: int) -> tuple[list[str], int]:
    """The seats and the seed of a game at a table (``fuda play``, ``fuda serve``): a seat that is no
    bot, or a log that cannot be written, is refused before the game starts."""
    from ..bots.base import make_bot
    from .play import check_writable

    seats = _seats(args.seat, n)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    for s in seats:
        if s != "human":
            make_bot(s, 0)
    if args.log:
        check_writable(args.log)
    return seats, seed


def _seats(given: list[str] | None, n: int) -> list[str]:
    """The seats of a played game: as given (P0 human when none are), the rest random bots."""
    from .simulate import check_seat_count

    seats = list(given or ["human"])
    check_seat_count(seats, n)
    return seats + ["random"] * (n - len(seats))


def _nothing_stored(path: Path, kind: str, name: str | None, as_json: bool) -> int:
    """Reading a match or study file that does not exist: say so, and create nothing (nor its folder)."""
    if name:
        print(f"error: there is no {kind} {name!r} in {path} (no such file)", file=sys.stderr)
        return 1
    print("[]" if as_json else f"no {'studies' if kind == 'study' else 'matches'} in {path} (no such file)")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from ..api import load
    from .match import MatchStore, default_db, number_text

    path = Path(args.match_db) if args.match_db else default_db()
    if not path.exists():
        return _nothing_stored(path, "match", args.name, args.json)
    with MatchStore(path) as store:
        if not args.name:
            names = store.names()
            if args.json:
                print(json.dumps([_match_dict(store.get(n)) for n in names], ensure_ascii=False, indent=1))
                return 0
            if not names:
                print(f"no matches in {store.path}")
            for n in names:
                m = store.get(n)
                assert m is not None
                print(f"{m.name}: {m.ruleset}, {m.players} players, {m.games} game{'s' if m.games != 1 else ''} "
                      f"(last {m.updated})")
            return 0
        if args.delete and store.delete(args.name):     # a damaged match too, unread
            print(f"deleted match {args.name}")
            return 0
        m = store.get(args.name)
        if m is None:
            print(f"error: there is no match {args.name!r} in {store.path}", file=sys.stderr)
            return 1
        games = store.game_rows(args.name)
        if args.json:
            d = _match_dict(m)
            d["game_list"] = [{k: g[k] for k in ("number", "seed", "options", "result", "finished", "log")}
                              for g in games]      # each log replays: fuda replay FILE
            print(json.dumps(d, ensure_ascii=False, indent=1))
            return 0
        try:        # the ruleset's names for its seats and score, if it still loads as the match began
            game = load(m.ruleset, m.options)
            seat_names, score = game.seats_in(0), _score_name(game, 0)
        except FudaError:
            seat_names, score = None, "score"
        print(m.standings(score, seat_names))
        for g in games:
            scores = " ".join(f"{seat_names[r['player']] if seat_names else 'P' + str(r['player'])}:"
                              f"{number_text(r['score'])}"
                              for r in g["result"])
            print(f"  game {g['number']:>3}  seed {g['seed']}  {scores}")
    return 0


def _score_name(game: Any, lang: int) -> str:
    """What the ruleset calls its score (`score "Points | 点"`), for a match's totals."""
    from ..check import text_plain

    label = game.prog.score_label
    return text_plain(label, lang) if label is not None else "score"


def _match_dict(m: Any) -> dict[str, Any]:
    return {"name": m.name, "ruleset": m.ruleset, "players": m.players, "options": m.options, "seats": m.seats,
            "games": m.games, "scores": m.scores, "wins": m.wins, "created": m.created, "updated": m.updated,
            "carried": m.carried, "first_to": m.first_to, "winners": m.winners}


def cmd_simulate(args: argparse.Namespace) -> int:
    from .heuristics import study_measures
    from .simulate import Summary, format_stats, simulate, simulate_hints

    if args.address and args.backend != "ray":
        print("error: --address is the address of a Ray cluster: add --backend ray", file=sys.stderr)
        return 2

    if args.native:
        _native(args)
    if args.study:
        import time

        from ..api import load
        from .study import Store, run_study

        game = load(args.ruleset, _options(args))
        store = Store(args.db)
        study = store.open_study(args.study, args.ruleset, _options(args), args.seat or [], args.seed, args.n,
                                 args.rotate, game.fingerprint)
        start = time.perf_counter()
        stored = len(store.done(study.name))
        try:
            games = run_study(store, study, args.workers, not args.quiet, args.backend, args.address)
        except KeyboardInterrupt:
            done = len(store.done(study.name))
            print(f"interrupted: {done} of {study.games} games are stored in {store.path}; "
                  "run the same command again to resume", file=sys.stderr)
            return 130
        s = Summary(args.ruleset, len(games), game.n, time.perf_counter() - start, games, len(games) - stored)
    else:
        s = simulate(args.ruleset, _options(args), args.n, args.seed, args.workers, args.seat or [],
                     show_progress=not args.quiet, backend=args.backend, address=args.address, rotate=args.rotate)
    stats = s.stats()
    measures = study_measures(s.games, s.players)
    if measures.get("games_with_estimates"):
        stats["heuristics"] = measures
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=1))
    else:
        print(format_stats(stats))
        if "heuristics" in stats:
            h = stats["heuristics"]
            print(f"heuristics: fairness {h['fairness']:.3f}, lead changes {h['lead_changes']:.2f}, "
                  f"drama {h['drama']:.3f}, decisiveness {h['decisiveness']:.3f} "
                  f"({h['games_with_estimates']} games with bot estimates)")
        from ..api import load

        game = load(args.ruleset, _options(args))
        for hint in simulate_hints(stats, args.seat or [], game.weighted, game.eval_fn is not None):
            print(f"hint: {hint}")
    return 0


def _native(args: argparse.Namespace) -> None:
    """--native: the rules compiled to C before the games start (the workers forked from here
    inherit them); where they cannot be, the games are played in Python, told on stderr."""
    from ..api import load
    from ..compile.native import NativeError

    try:
        load(args.ruleset, _options(args)).use_native(note=lambda text: print(text, file=sys.stderr, flush=True))
    except NativeError as e:
        print(f"note: --native: {e}; the games are played in Python", file=sys.stderr)


def cmd_compare(args: argparse.Namespace) -> int:
    from ..api import read_options_file
    from .compare import compare, format_compare

    def opts(spec: str | None) -> dict[str, Any]:
        if not spec:
            return {}
        if spec.endswith((".yaml", ".yml")):
            got = read_options_file(spec)
            _check_meant_for(spec, _places_in(spec)[1], args.ruleset)
            return got
        out: dict[str, Any] = {}
        for kv in spec.split(","):
            k, eq, v = kv.partition("=")
            if not eq:
                from ..errors import did_you_mean, error
                from ..resources import bundled_rulesets, example_rulesets

                raise error("E406", "a variant is NAME=VALUE,NAME=VALUE, an options file (.yaml) or another ruleset "
                                    f"(a .fuda file or a ruleset's name); got {kv!r}",
                            hint=did_you_mean(kv, bundled_rulesets() + example_rulesets()))
            out[k.strip()] = _scalar(v.strip())
        return out

    if args.study:
        from ..errors import error
        from .compare import compare_studies
        from .study import Store, default_db

        if len(args.study) != 2 or args.a or args.b:
            raise error("E505", "compare stored studies with exactly two --study NAME (and no --a/--b)")
        path = Path(args.db) if args.db else default_db()
        if not path.exists():       # not made as an empty study file, as it was
            return _nothing_stored(path, "study", args.study[0], args.json)
        r = compare_studies(Store(path), *args.study)
        print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else format_compare(r))
        return 0
    if args.ruleset is None:
        from ..errors import error

        raise error("E505", "name a ruleset (or two stored studies: --study A --study B)")
    base = _options(args)
    # a side given as a .fuda file, or by a bundled or example ruleset's name (`--b dominion_mixed`), is
    # another ruleset (a variant against its base), at the base options
    from ..resources import bundled_rulesets, example_rulesets

    named = set(bundled_rulesets() + example_rulesets())
    ra, rb = (spec if spec and (spec.endswith(".fuda") or spec in named) else args.ruleset
              for spec in (args.a, args.b))
    oa, ob = ({**base, **(opts(spec) if r == args.ruleset else {})} for spec, r in ((args.a, ra), (args.b, rb)))
    r = compare(args.ruleset, oa, ob, args.n, args.seed, args.workers, args.seat or [],
                show_progress=not args.quiet, rotate=args.rotate, rulesets=(ra, rb))
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else format_compare(r))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    import base64

    from .compare import options_text
    from .report import report, report_plots
    from .study import Store, default_db

    path = Path(args.db) if args.db else default_db()
    if not path.exists():
        return _nothing_stored(path, "study", args.study[0] if args.study else None, False)
    store = Store(path)
    if not args.study:
        if not store.names():
            print(f"no studies in {path}")
        for name in store.names():
            st = store.study(name)
            seats = " ".join(st.seats) if st.seats else "random"
            print(f"{name}: {st.ruleset} {options_text(st.options)} seats {seats}"
                  f"{' rotated' if st.rotate else ''} — {len(store.done(name))}/{st.games} games")
        return 0
    if args.csv:
        from .export import games_csv

        table = games_csv(store, args.study)
        if args.csv == "-":
            sys.stdout.write(table)
        else:
            Path(args.csv).write_text(table, encoding="utf-8")
            print(f"wrote {args.csv} ({table.count(chr(10)) - 1} rows)")
        return 0
    page = report(store, args.study)
    out = args.output or f"{'-'.join(args.study)}.html"
    d = Path(args.plots) if args.plots else None
    if d is not None:           # before writing anything: a plots folder that cannot be one
        d.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"wrote {out}")
    if d is not None:
        for name, png in report_plots(store, args.study):
            (d / f"{name}.png").write_bytes(base64.b64decode(png))
            print(f"wrote {d / name}.png")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .replay import (
        carried_text,
        check_seats,
        format_events,
        option_labels,
        read_log,
        replay,
        replay_seed,
        rules_changed,
    )

    viewer: int | None | str = None if args.spectator else "all" if args.player is None else args.player
    failed = None
    log = None
    if args.log.endswith(".json") or os.path.isfile(args.log) and not args.log.endswith(".fuda"):
        given = [f for f, v in (("--options", args.options), ("--set", args.set), ("--players", args.players),
                                ("--seed", args.seed), ("--seat", args.seat)) if v is not None]
        if given:       # they would be ignored: the log's moves replay only under its own settings
            print(f"error: a game log replays with the ruleset, options, seed and seats it was played with; "
                  f"{', '.join(given)} cannot change them (they are for RULESET --seed SEED)", file=sys.stderr)
            return 2
        log = read_log(args.log)
        st = replay(log, args.log)
        check_seats(log, args.log, st.game.n, reseat=False)      # a damaged log, as play --resume refuses it
        if (note := rules_changed(log, st, args.log)) is not None:
            print(note, file=sys.stderr)
    else:
        if args.seed is None:
            print("error: give a game log (.json) or a ruleset with --seed", file=sys.stderr)
            return 2
        def moving(s: Any) -> None:     # searching bots take a while: say that the game goes on
            print(f"\r  replaying seed {args.seed}: {s.ndec} decisions", end="", file=sys.stderr, flush=True)

        slow = sys.stderr.isatty() and any(k != "random" for k in args.seat or [])
        st, failed = replay_seed(args.log, _options(args), args.seed, args.seat or [], moving if slow else None)
        if slow:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    if args.player is not None and not 0 <= args.player < st.game.n:
        print(f"error: --player P{args.player}: this game has players P0–P{st.game.n - 1}", file=sys.stderr)
        return 2
    if log is not None and log.carried and viewer == "all":     # a match's game: where the one before left it
        print(carried_text(st, log.carried))
    said = option_labels(st, log.carried if log is not None else None)    # the labels players chose by
    print(format_events(st, viewer, _lang(args), spans=not args.no_rules, moves=not args.no_moves,
                        each_move=args.each_move, said=said))
    if failed is not None:      # the events that led to it, then the failure
        raise failed
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from ..errors import did_you_mean
    from ..resources import bundled_rulesets, example_rulesets
    from .scenario import run_scenario, scenario_files

    shipped = bundled_rulesets() + example_rulesets()
    for name in args.files:     # `fuda test hanbi`: a name, not a file, and no game of that name
        if not Path(name).exists() and Path(name).suffix in ("", ".fuda") and name not in shipped:
            stem = Path(name).stem
            guess = f"did you mean {stem}?" if stem in shipped else did_you_mean(stem, shipped)
            print(f"{name}: error[E501]: no file or folder {name}, and no game fuda ships is named {name}"
                  + (f"\n  hint: {guess} (a game's name runs the scenarios shipped with it)" if guess else ""))
            return 1
    files = scenario_files(args.files)
    failed = 0
    first: dict[str, str] = {}      # a report → the file that gave it first (a mistake in the ruleset they share)
    for f in files:
        o = run_scenario(f)
        if o.passed:
            if args.verbose or args.events:
                print(f"PASS {o.file} ({o.steps} step{'' if o.steps == 1 else 's'})")
        else:
            failed += 1
            if o.message in first:
                print(f"FAIL {o.file}: the same error as {first[o.message]}")
            else:       # the report, in order: on standard output, like pytest
                first[o.message] = o.file
                print(f"FAIL {o.file}\n{o.message}")
        if args.events:
            print("\n".join(o.events) if o.events else "  (no events)")
    if not files:
        print(f"no scenario files (*.yaml) in {' '.join(args.files)}")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed or not files else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import bench, format_bench

    if args.bot:
        from .bench import bench_bot, format_bench_bot

        rb = bench_bot(args.ruleset, _options(args), args.bot, seed=args.seed, native=not args.no_native,
                       note=lambda text: print(text, file=sys.stderr, flush=True))
        if not rb["positions"] and not args.json:
            print(f"{rb['ruleset']}: no decision with two or more actions came up in random games: nothing to search")
            return 0
        print(json.dumps(rb, ensure_ascii=False, indent=1) if args.json else format_bench_bot(rb))
        if not args.json and (rb["default_move_seconds"] or 0) > 1:
            if not rb["evaluates"] and rb["decisions_per_game"] > 40:
                print(f"  over a second: the random rollouts play this ruleset to its end "
                      f"({rb['decisions_per_game']:.0f} decisions a game); declare `evaluate … after N decisions` "
                      "to cut them short (docs/bots.md in the fuda source)")
            elif rb["evaluates"]:
                print("  over a second, though `evaluate` cuts the rollouts short: each decision costs; "
                      "`fuda bench --profile` shows which of the rules' parts take the time")
            else:
                print(f"  over a second, with short rollouts ({rb['decisions_per_game']:.0f} decisions a game): "
                      "each decision costs; `fuda bench --profile` shows which of the rules' parts take the time")
        return 0
    if args.profile:
        from .profile import format_profile, profile

        rp = profile(args.ruleset, _options(args), args.n if args.n != 1000 else 200, args.seed)
        print(json.dumps(rp, ensure_ascii=False, indent=1) if args.json else format_profile(rp))
        return 0
    r = bench(args.ruleset, _options(args), args.n, args.rounds, args.seed,
              note=lambda text: print(text, file=sys.stderr, flush=True), native=not args.no_native)
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else format_bench(r))
    return 0


def cmd_parse(args: argparse.Namespace) -> int:
    from pydantic import TypeAdapter

    from ..ast import Module
    from ..load import locate, read
    from ..parse import parse_module

    path = locate(args.file)
    m = parse_module(read(path), str(path))
    print(TypeAdapter(Module).dump_json(m, indent=1, serialize_as_any=True).decode())
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    from ..api import load

    print(load(args.ruleset, _options(args)).comp.source)
    return 0


def cmd_lsp(args: argparse.Namespace) -> int:
    from ..errors import error

    try:
        import pygls  # noqa: F401
    except ImportError:
        raise error("E505", "fuda lsp speaks the Language Server Protocol through pygls: pip install 'fuda[lsp]'") \
            from None
    from .lsp import serve

    serve()
    return 0


# ------------------------------------------------------------------ parser
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="fuda", description="fuda — card games as text: validate, play, simulate.",
                                 epilog=EPILOG)
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")

    p = sub.add_parser("validate", help="check rulesets and report every mistake with its place",
                       description="Parse and check ruleset files; print file:line:col errors and warnings.")
    p.add_argument("files", nargs="+", metavar="FILE", help=".fuda files or bundled ruleset names")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    _add_options(p)
    p.set_defaults(fn=cmd_validate)

    p = sub.add_parser("list", help="bundled rulesets and their options",
                       description="List the bundled rulesets; -v (or a name) shows their options.")
    p.add_argument("name", nargs="?", help="show this ruleset's options")
    p.add_argument("-v", "--verbose", action="store_true", help="show every ruleset's options")
    p.add_argument("--lang", choices=["en", "ja"], help="titles and option labels in one language (default: both)")
    p.set_defaults(fn=cmd_list)

    p = sub.add_parser("play", help="play in the terminal against bots",
                       description="Play a ruleset at the terminal. Each --seat is one player in seat order; "
                                   "missing seats are random bots (with no --seat, P0 is human). You see only "
                                   "your view; with bots only, you watch as a spectator. A game stopped "
                                   "unfinished is kept (--log FILE, else ~/.fuda/games/) and can be resumed.")
    p.add_argument("ruleset", nargs="?")
    _add_table(p)
    p.add_argument("--resume", metavar="LOG", help="continue a saved game (a --log file); it keeps being saved there")
    p.add_argument("--ask-all", action="store_true",
                   help="ask every decision, also one with a single legal action (for scripted input: one line a decision)")
    p.add_argument("--match", metavar="NAME",
                   help="match play: add this game's scores to the match NAME (created if new, continued if saved)")
    p.add_argument("--match-db", metavar="FILE", help="the SQLite file of matches (default ~/.fuda/matches.sqlite)")
    p.add_argument("--games", type=_count, metavar="N",
                   help="with --match: play N games (default: one, or ask after each game when a human plays)")
    p.add_argument("--first-to", type=_wins, metavar="N",
                   help="with --match: the match is over when a seat has won N games (best of three: 2); "
                        "remembered; 0 removes it")
    _add_options(p)
    p.set_defaults(fn=cmd_play)

    p = sub.add_parser("serve", help="play in the web browser against bots (a table for any ruleset)",
                       description="Serve a game at a table in the web browser: seats, options and the log as "
                                   "for fuda play. Prints the URL and serves until Ctrl-C; a new game at the "
                                   "table takes the next seed. The page draws any ruleset from the seat's view; "
                                   "the JSON API is in docs/cli.md of the fuda source.")
    p.add_argument("ruleset")
    _add_table(p)
    p.add_argument("--port", type=_port, metavar="P", help="port (default: 8765 when free, else any free one)")
    p.add_argument("--host", default="127.0.0.1", metavar="H",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser (only print the URL)")
    _add_options(p)
    p.set_defaults(fn=cmd_serve)

    p = sub.add_parser("match", help="list saved matches or show one's scores and games",
                       description="Match play (fuda play --match NAME) keeps scores and the game count per seat "
                                   "in an SQLite file. Without NAME: list the matches; with NAME: its standings "
                                   "and games.")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("--match-db", metavar="FILE", help="the SQLite file of matches (default ~/.fuda/matches.sqlite)")
    p.add_argument("--delete", action="store_true", help="delete the match NAME")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(fn=cmd_match)

    p = sub.add_parser("simulate", help="many bot games: win rates with confidence intervals",
                       description="Play N games between bots and report per-seat and first-player win rates "
                                   "(Wilson 95% intervals), scores, game length and speed.")
    p.add_argument("ruleset")
    p.add_argument("-n", type=_count, default=1000, help="number of games (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="base seed; game i uses seed*1000000+i")
    p.add_argument("--workers", type=_count, default=1, help="worker processes (default 1)")
    p.add_argument("--seat", action="append", metavar="KIND",
                   help="bot per seat: random (default), rollout, ismcts, ismcts:N, ismcts:Ns, persona:ID")
    p.add_argument("--rotate", action="store_true",
                   help="alternate seats: game i moves every bot i chairs on, so each bot plays every chair "
                        "equally often; results are also given per bot")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--study", metavar="NAME", type=_name, help="store every game in the study database; rerun to resume")
    p.add_argument("--db", metavar="PATH", help="study database (default ~/.fuda/studies.sqlite or $FUDA_HOME)")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local processes (default) or a Ray cluster (pip install 'fuda[ray]')")
    p.add_argument("--address", help="Ray cluster address (default: start or join a local one)")
    p.add_argument("--native", action="store_true",
                   help="play the games by the rules compiled to C by Cython (pip install 'fuda[native]' and a C "
                        "compiler; built once per ruleset and options, from seconds to a few minutes by its size): the same games, "
                        "about 1.5x faster")
    _add_options(p)
    p.set_defaults(fn=cmd_simulate)

    p = sub.add_parser("compare", help="two variants, the same seeds: differences with confidence intervals",
                       description="Simulate a ruleset under options A and under options B with the same "
                                   "seeds and report every statistic's difference with a 95% interval and a "
                                   "verdict. A and B are YAML options files, NAME=VALUE,NAME=VALUE lists or other rulesets "
                                   "(a file or a shipped game's name: a variant). "
                                   "With --study A --study B, two stored studies are compared instead, "
                                   "without playing again.")
    p.add_argument("ruleset", nargs="?")
    p.add_argument("--a", metavar="OPTIONS", help="variant A: an options file, k=v,k=v, or another ruleset "
                                                  "(FILE.fuda or a shipped name, e.g. a variant of RULESET); "
                                                  "default: RULESET's defaults")
    p.add_argument("--b", metavar="OPTIONS", help="variant B, the same way")
    p.add_argument("-n", type=_count, default=1000, help="games per variant")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=_count, default=1)
    p.add_argument("--seat", action="append", metavar="KIND", help="bot per seat, as in simulate")
    p.add_argument("--rotate", action="store_true", help="alternate seats, as in simulate")
    p.add_argument("--study", action="append", metavar="NAME",
                   help="a stored study (give two: compare them without re-running)")
    p.add_argument("--db", metavar="PATH", help="study database (default ~/.fuda/studies.sqlite or $FUDA_HOME)")
    p.add_argument("--json", action="store_true")
    p.add_argument("-q", "--quiet", action="store_true")
    _add_options(p)
    p.set_defaults(fn=cmd_compare)

    p = sub.add_parser("report", help="an HTML page (statistics, heuristics, plots) for a stored study",
                       description="Write an HTML report of studies stored by `fuda simulate --study` "
                                   "(several names: the variants side by side, then each); without a name, "
                                   "list the stored studies.")
    p.add_argument("study", nargs="*")
    p.add_argument("--plots", metavar="DIR", help="also write every plot as a PNG file into DIR")
    p.add_argument("--db", metavar="PATH", help="study database (default ~/.fuda/studies.sqlite or $FUDA_HOME)")
    p.add_argument("-o", "--output", metavar="FILE", help="default: STUDY.html")
    p.add_argument("--csv", metavar="FILE", help="instead of the page, every game as CSV rows, one per player "
                                                 "(- for standard output)")
    p.set_defaults(fn=cmd_report)

    p = sub.add_parser("replay", help="re-run a saved game (or a simulated one by seed) and print it",
                       description="Replay a game log written by `fuda play --log`, or RULESET --seed SEED "
                                   "(a game of `fuda simulate`), printing every event and the rule behind it.")
    p.add_argument("log", metavar="LOG|RULESET")
    p.add_argument("--seed", type=int, help="with a ruleset: the game seed to re-run")
    p.add_argument("--seat", action="append", metavar="KIND", help="bots per seat, as in simulate")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--player", type=_seat, metavar="P", help="show only what this player saw (P1 or 1)")
    who.add_argument("--spectator", action="store_true", help="show only what every player saw (no hand's cards)")
    p.add_argument("--lang", choices=["en", "ja"], default="en")
    p.add_argument("--no-rules", action="store_true", help="omit the rule locations")
    moves = p.add_mutually_exclusive_group()
    moves.add_argument("--no-moves", action="store_true", help="omit card movements")
    moves.add_argument("--each-move", action="store_true",
                       help="one line per card moved (by default the moves of one statement share a line per path)")
    _add_options(p)
    p.set_defaults(fn=cmd_replay)

    p = sub.add_parser("test", help="run scenario files (rule tests as data)",
                       description="Run scenario YAML files or directories of them.")
    p.add_argument("files", nargs="+", metavar="SCENARIO")
    p.add_argument("-v", "--verbose", action="store_true", help="name the scenarios that pass too")
    p.add_argument("--events", action="store_true",
                   help="print every event of each scenario's game, as fuda replay does (to see what happened)")
    p.set_defaults(fn=cmd_test)

    p = sub.add_parser("bench", help="measure random playouts/s, decisions/s and clone cost on one core",
                       description="Benchmark a ruleset on one core: best of several rounds of random games.")
    p.add_argument("ruleset")
    p.add_argument("-n", type=_count, default=1000, help="games per round (default 1000)")
    p.add_argument("--rounds", type=_count, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", help="measure a bot's search speed instead: --bot ismcts (iterations/s)")
    p.add_argument("--no-native", action="store_true",
                   help="time the rules in Python only (by default also compiled to C by Cython where it and a C "
                        "compiler are installed, as simulate --native plays them)")
    p.add_argument("--profile", action="store_true",
                   help="show where random games spend their time, by the ruleset's rules, functions and "
                        "decisions (200 games unless -n)")
    p.add_argument("--json", action="store_true")
    _add_options(p)
    p.set_defaults(fn=cmd_bench)

    p = sub.add_parser("parse", help="print a ruleset's syntax tree as JSON",
                       description="Parse one file (no checks) and print its AST (pydantic-serialised).")
    p.add_argument("file")
    p.set_defaults(fn=cmd_parse)

    p = sub.add_parser("compile", help="print the Python a ruleset compiles to",
                       description="Show the generated code (for engine developers and the curious).")
    p.add_argument("ruleset")
    _add_options(p)
    p.set_defaults(fn=cmd_compile)

    p = sub.add_parser("lsp", help="a language server for editors: errors as you type, hover, go to definition",
                       description="Serve the Language Server Protocol on stdin/stdout for .fuda files: the "
                                   "errors and warnings of `fuda validate` as you type, hover, go to definition, "
                                   "outline and completion. Needs pygls: pip install 'fuda[lsp]'. "
                                   "Editor set-up: docs/cli.md in the fuda source.")
    p.set_defaults(fn=cmd_lsp)
    return ap


def _stop_as_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class _CutShort:
    """stdout or stderr of the fuda command, whose reader may stop reading (`fuda validate x.fuda |
    head -1`): what is written after that goes nowhere and the command runs to its end, so that its
    exit code stays its own (1 with errors), not a success (`set -o pipefail` in CI)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            self._to_nowhere()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._to_nowhere()

    def _to_nowhere(self) -> None:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, self._stream.fileno())
        os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    # a number of any length is read and shown (Python refuses past 4,300 digits by default, with
    # a ValueError from deep inside JSON or YAML): the files are the user's own
    sys.set_int_max_str_digits(0)
    ap = build_parser()
    args = ap.parse_args(argv)
    if argv is None:
        # the fuda command: a kill or a closed terminal stops like Ctrl-C (a study says what it
        # kept, a game in play is saved to be resumed)
        import signal

        signal.signal(signal.SIGTERM, _stop_as_interrupt)
        signal.signal(signal.SIGHUP, _stop_as_interrupt)
        sys.stdout, sys.stderr = _CutShort(sys.stdout), _CutShort(sys.stderr)
    if not getattr(args, "fn", None):
        ap.print_help()
        return 2
    try:
        return int(args.fn(args))
    except FudaError as e:
        print(_as_given(e, args).format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OSError as e:    # a file or folder the user named cannot be written or read: not a bug
        where = f" {e.filename}" if e.filename else ""
        print(f"error: cannot use{where}: {os_reason(e, e.filename)}", file=sys.stderr)
        return 1
    except RecursionError:  # a YAML or JSON file (or value) nested thousands deep
        print("error: the input is nested too deeply to read (lists or mappings inside each other "
              "hundreds of levels deep)", file=sys.stderr)
        return 1
    except Exception as e:  # an engine bug, not a user mistake
        if os.environ.get("FUDA_DEBUG"):
            raise
        print(f"fuda: internal error: {type(e).__name__}: {e}\n"
              "(this is a bug in fuda; FUDA_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
