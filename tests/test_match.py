"""Match play (fuda play --match NAME): per-seat scores, wins and the game count accumulate over
games, are saved in SQLite after every game, and can be loaded to continue; every stored game log
replays to its stored result."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from interpreter.runner.cli import main
from interpreter.runner.match import SCHEMA, MatchStore, default_db
from interpreter.runner.replay import GameLog, replay


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_scores_accumulate_and_a_match_continues(capsys, tmp_path):
    db = str(tmp_path / "m.sqlite")
    code, out, err = run(capsys, "play", "american_page_one", "--match", "club", "--match-db", db,
                         "--seat", "random", "--games", "3", "--seed", "11", "--players", "3")
    assert code == 0, err
    assert "new match club" in out and "club — american_page_one, 3 games" in out
    with MatchStore(db) as store:
        m = store.get("club")
        assert m is not None and m.games == 3 and m.players == 3
        games = store.game_rows("club")
        assert [g["number"] for g in games] == [1, 2, 3]
        assert [g["seed"] for g in games] == [11, 12, 13]
        for p in range(3):
            assert m.scores[p] == sum(g["result"][p]["score"] for g in games)
            assert m.wins[p] == sum(g["result"][p]["outcome"] == "win" for g in games)
    # continued later without naming the ruleset: the saved seats and options are used
    code, out, err = run(capsys, "play", "--match", "club", "--match-db", db, "--games", "2", "--seed", "11")
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("club")
        assert m is not None and m.games == 5 and m.seats == ["random"] * 3
        games = store.game_rows("club")
        assert [g["seed"] for g in games][3:] == [14, 15]
        for p in range(3):
            assert m.scores[p] == sum(g["result"][p]["score"] for g in games)
        # each stored game log replays to the stored result
        for g in games:
            st = replay(GameLog.model_validate(g["log"]))
            assert st.over and st.result() == g["result"]


def test_napoleon_match_and_remembered_settings(capsys, tmp_path):
    db = str(tmp_path / "nap.sqlite")
    code, _, err = run(capsys, "play", "napoleon", "--match", "jazz", "--match-db", db, "--seat", "random",
                       "--games", "2", "--seed", "3", "--set", "yoromeki=false")
    assert code == 0, err
    # settings changed between games are remembered for the next ones
    code, _, err = run(capsys, "play", "--match", "jazz", "--match-db", db, "--games", "1", "--set", "sametwo=over_mighty")
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("jazz")
        assert m is not None and m.games == 3 and m.players == 5
        assert m.options == {"yoromeki": False, "sametwo": "over_mighty"}
        games = store.game_rows("jazz")
        assert games[0]["options"] == {"yoromeki": False}
        assert games[2]["options"] == {"yoromeki": False, "sametwo": "over_mighty"}
        assert sum(m.scores) == sum(r["score"] for g in games for r in g["result"]) > 0
    code, out, _ = run(capsys, "match", "--match-db", db)
    assert code == 0 and "jazz: napoleon, 5 players, 3 games" in out
    code, out, _ = run(capsys, "match", "jazz", "--match-db", db)
    assert code == 0 and "game   3" in out and "P4  random" in out
    code, out, _ = run(capsys, "match", "jazz", "--match-db", db, "--json")
    data = json.loads(out)
    assert data["games"] == 3 and len(data["game_list"]) == 3
    log = data["game_list"][0]["log"]           # each game's log, as fuda replay reads it
    assert replay(GameLog.model_validate(log), "x").over
    code, out, _ = run(capsys, "match", "jazz", "--match-db", db, "--delete")
    assert code == 0
    with MatchStore(db) as store:
        assert store.get("jazz") is None and store.names() == []


def test_match_refusals(capsys, tmp_path):
    db = str(tmp_path / "r.sqlite")
    code, _, err = run(capsys, "play", "--match", "nothing", "--match-db", db)
    assert code == 2 and "there is no match 'nothing'" in err
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "1", "--players", "2")[0] == 0
    code, _, err = run(capsys, "play", "napoleon", "--match", "m", "--match-db", db)
    assert code == 2 and "plays american_page_one" in err
    code, _, err = run(capsys, "play", "--match", "m", "--match-db", db, "--players", "3")
    assert code == 2 and "is for 2 players" in err
    code, _, err = run(capsys, "play", "--match", "m", "--match-db", db, "--resume", "x.json")
    assert code == 1 and "x.json" in err        # a match's stopped game may be resumed; this one is missing
    code, _, err = run(capsys, "match", "missing", "--match-db", db)
    assert code == 1


def test_reading_creates_no_file(capsys, tmp_path):
    db = tmp_path / "new" / "m.sqlite"
    code, out, _ = run(capsys, "match", "--match-db", str(db))
    assert code == 0 and "no matches in" in out
    assert run(capsys, "match", "--match-db", str(db), "--json")[1].strip() == "[]"
    code, _, err = run(capsys, "match", "club", "--match-db", str(db))
    assert code == 1 and "there is no match 'club'" in err
    assert not (tmp_path / "new").exists()


def test_the_store_is_plain_sqlite(tmp_path):
    db = tmp_path / "s.sqlite"
    with MatchStore(db) as store:
        m = store.create("a", "napoleon", 5, {}, ["human"] + ["random"] * 4)
        result = [{"player": p, "outcome": "win" if p < 2 else "lose", "place": 1, "score": 3 - p} for p in range(5)]
        m = store.record(m, result, 1, {}, {"format": "fuda-log/1", "ruleset": "napoleon", "actions": []})
        m = store.record(m, result, 2, {}, {"format": "fuda-log/1", "ruleset": "napoleon", "actions": []})
        assert m.games == 2 and m.scores == [6, 4, 2, 0, -2] and m.wins == [2, 2, 0, 0, 0]
    con = sqlite3.connect(db)
    assert con.execute("SELECT games FROM matches WHERE name = 'a'").fetchone() == (2,)
    assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)
    con.close()


def test_other_or_damaged_files_are_diagnostics(capsys, tmp_path):
    """Another program's SQLite file, a file that is not SQLite, a row edited by hand: an E503
    naming the file, never an internal error — and the other program's table is left as it was."""
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE matches (team TEXT)")
    con.commit()
    con.close()
    code, _, err = run(capsys, "match", "--match-db", str(other))
    assert code == 1 and "E503" in err and "is not a fuda match file" in err and "no column" in err
    con = sqlite3.connect(other)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["matches"]
    con.close()
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, " * 100, encoding="utf-8")
    code, _, err = run(capsys, "match", "--match-db", str(text))
    assert code == 1 and "E503" in err and "cannot open the match file" in err
    db = tmp_path / "m.sqlite"
    with MatchStore(db) as store:
        store.create("m", "john", 2, {}, ["random", "random"])
    con = sqlite3.connect(db)
    con.execute("UPDATE matches SET options = '{bad'")
    con.commit()
    con.close()
    code, _, err = run(capsys, "match", "m", "--match-db", str(db))
    assert code == 1 and "E503" in err and "is damaged" in err and "Traceback" not in err


def test_a_game_the_match_file_cannot_take_is_kept(capsys, tmp_path, monkeypatch):
    """The match file fails as a game ends (disk full, locked): the game's log is kept under
    FUDA_HOME/games and replays; the error is a diagnostic."""
    from interpreter.errors import error

    monkeypatch.setenv("FUDA_HOME", str(tmp_path))

    def fail(*_args, **_kw):
        raise error("E503", "the match file cannot be used: database or disk is full")

    monkeypatch.setattr(MatchStore, "record", fail)
    code, _, err = run(capsys, "play", "american_page_one", "--match", "club", "--match-db",
                       str(tmp_path / "m.sqlite"), "--seat", "random", "--games", "1", "--seed", "3",
                       "--players", "2")
    kept = tmp_path / "games" / "club-1.json"
    assert code == 1 and "E503" in err and str(kept) in err
    assert run(capsys, "replay", str(kept))[0] == 0


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.setenv("FUDA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "matches.sqlite"
    monkeypatch.delenv("FUDA_HOME")
    assert default_db().parts[-2:] == (".fuda", "matches.sqlite")


def test_match_help(capsys):
    import pytest

    from interpreter.runner.cli import build_parser
    for argv in (["match", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(argv)
        out = capsys.readouterr().out
        assert "--match-db" in out


def test_a_match_of_a_ruleset_file_is_continued_from_another_folder(capsys, tmp_path, monkeypatch):
    """The match kept the path as typed (page_one.fuda), so it could not be continued elsewhere."""
    from pathlib import Path

    src = Path(__file__).parent / "constructs" / "turns.fuda"
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "mine.fuda").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    db = str(tmp_path / "m.sqlite")
    monkeypatch.chdir(tmp_path / "g")
    code, _, err = run(capsys, "play", "mine.fuda", "--match", "m", "--match-db", db, "--seat", "random",
                       "--seat", "random", "--seat", "random", "--seat", "random", "--seed", "1")
    assert code == 0, err
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "play", "--match", "m", "--match-db", db, "--seed", "2")
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("m")
        assert m is not None and m.games == 2 and m.ruleset == str(tmp_path / "g" / "mine.fuda")


def test_a_match_or_study_file_of_the_wrong_shape_is_e503_not_a_crash(capsys, tmp_path):
    """QA: valid JSON of another shape (hand-edited, another program) crashed `fuda match`, `report`…"""
    db = str(tmp_path / "m.sqlite")
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "1", "--seed", "1")[0] == 0
    for sql in ("UPDATE matches SET options = '[1]'", "UPDATE games SET result = '[1]'",
                "UPDATE seats SET score = 'abc'", "UPDATE matches SET games = -3"):
        bad = tmp_path / "bad.sqlite"
        bad.write_bytes((tmp_path / "m.sqlite").read_bytes())
        with sqlite3.connect(bad) as c:
            c.execute(sql)
        c.close()
        code, _, err = run(capsys, "match", "m", "--match-db", str(bad))
        assert code == 1 and "E503" in err and "damaged" in err, (sql, err)
        assert "Error:" not in err      # QA12 P3: in words, not Python's class names (TypeError: …)
    sdb = str(tmp_path / "s.sqlite")
    r = run(capsys, "simulate", "american_page_one", "-n", "3", "--study", "s", "--db", sdb)
    assert r[0] == 0, r
    with sqlite3.connect(sdb) as c:
        c.execute("UPDATE games SET result = '{\"seed\": 3}' WHERE idx = 1")
    c.close()
    code, out, err = run(capsys, "report", "--db", sdb, "--csv", "-", "s")
    # QA12 P4: one damaged game no longer makes the study unusable: it is left out, with a warning
    assert code == 0 and "warning:" in err and "game 1 of study 's'" in err and "winners" in err
    games = {line.split(",")[3] for line in out.splitlines()[1:]}
    assert games == {"0", "2"}, out
    with sqlite3.connect(sdb) as c:
        c.execute("UPDATE games SET result = '{\"seed\": ' WHERE idx = 2")
    c.close()
    code, out, err = run(capsys, "report", "--db", sdb, "-o", str(tmp_path / "s.html"), "s")
    assert code == 0 and "games.result of game 2 of study 's' is not valid JSON" in err and "Error" not in err
    # a continued study plays the damaged games again, and they are whole again
    r = run(capsys, "simulate", "american_page_one", "-n", "3", "--study", "s", "--db", sdb)
    assert r[0] == 0 and "2 damaged game(s)" in r[2], r
    code, out, err = run(capsys, "report", "--db", sdb, "-o", str(tmp_path / "s.html"), "s")
    assert code == 0 and "warning" not in err, err


@pytest.mark.parametrize("damage, words", [
    ("""json_set(result, '$.places', json('[]'), '$.scores', json('[]'))""",
     "its places, scores and seats are not one for each player (0, 0, 4)"),
    ("""json_set(result, '$.winners', json('[7]'))""", "its winners or first player are not among its 4 players"),
])
def test_a_stored_study_game_with_no_place_for_a_seat_is_left_out(capsys, tmp_path, damage, words):
    """qa15 Q15 (a study's rows): `places: []` passed as a game and `fuda report` was an internal
    IndexError; it is a damaged game, left out with its warning, the file untouched."""
    sdb = tmp_path / "s.sqlite"
    assert run(capsys, "simulate", "american_page_one", "-n", "3", "--study", "s", "--db", str(sdb))[0] == 0
    with sqlite3.connect(sdb) as c:
        c.execute(f"UPDATE games SET result = {damage} WHERE idx = 1")
    c.close()
    before = sdb.read_bytes()
    code, out, err = run(capsys, "report", "--db", str(sdb), "--csv", "-", "s")
    assert code == 0 and f"games.result of game 1 of study 's': {words}; left out" in err, err
    assert {line.split(",")[3] for line in out.splitlines()[1:]} == {"0", "2"}, out
    assert sdb.read_bytes() == before


def test_a_stored_study_game_of_another_player_count_is_left_out(capsys, tmp_path):
    """fix29 7: a row whole on its own but of 3 players in a study of 4 was read with the others — the
    reports read every game as one of the same seats. It is a damaged game, left out with its warning
    (the study's count: that of most of its games), the file untouched; a continued study plays it again."""
    sdb = tmp_path / "s.sqlite"
    assert run(capsys, "simulate", "american_page_one", "-n", "3", "--study", "s", "--db", str(sdb))[0] == 0
    with sqlite3.connect(sdb) as c:
        c.execute("""UPDATE games SET result = json_set(result, '$.places', json('[1, 2, 3]'), '$.scores',
                     json('[0, 0, 0]'), '$.seats', json('["random", "random", "random"]'), '$.winners', json('[0]'),
                     '$.first', 0) WHERE idx = 1""")
    c.close()
    before = sdb.read_bytes()
    code, out, err = run(capsys, "report", "--db", str(sdb), "--csv", "-", "s")
    assert code == 0 and "game 1 of study 's' has 3 players, the study's games 4; left out" in err, err
    assert {line.split(",")[3] for line in out.splitlines()[1:]} == {"0", "2"}, out
    assert sdb.read_bytes() == before
    r = run(capsys, "simulate", "american_page_one", "-n", "3", "--study", "s", "--db", str(sdb))
    assert r[0] == 0 and "1 damaged game(s)" in r[2], r
    code, out, err = run(capsys, "report", "--db", str(sdb), "--csv", "-", "s")
    assert code == 0 and "warning" not in err and len(out.splitlines()) == 1 + 3 * 4, (out, err)


def test_the_totals_call_the_score_what_the_ruleset_calls_it(capsys, tmp_path):
    """A Hearts newcomer's match read `score 86` where the ruleset says `score "Points | 点"`."""
    rules = tmp_path / "pts.fuda"
    rules.write_text('ruleset pts\nplayers 2\ncards standard() in deck\nzone deck: pile hidden\nscore "Points | 点"\n'
                     'setup { }\nphase play { score[players[0]] = 3\n end game }\n', encoding="utf-8")
    db = str(tmp_path / "m.sqlite")
    code, out, err = run(capsys, "play", str(rules), "--match", "m", "--match-db", db, "--seat", "random",
                         "--games", "1", "--seed", "1")
    assert code == 0, err
    assert "P0  random  Points      3" in out and " score " not in out


def test_standings_name_the_seats_as_the_ruleset_does(capsys, tmp_path):
    """QA9 P2: bridge_chicago's standings listed P0 … P3 while its result line named North … West."""
    db = str(tmp_path / "m.sqlite")
    code, out, err = run(capsys, "play", "bridge_chicago", "--match", "c", "--match-db", db,
                         "--seat", "random", "--games", "1", "--seed", "3")
    assert code == 0, err
    assert "\n  North  random  score" in out and "\n  P0 " not in out
    code, out, err = run(capsys, "match", "c", "--match-db", db)
    assert code == 0 and "\n  West   random  score" in out and "North:" in out, err


def test_a_match_game_stopped_early_is_kept_and_counted_once_when_finished(capsys, tmp_path, monkeypatch):
    """QA12 B2: a `--match` game left before its end was written nowhere. It is kept as a plain
    game is, its log names the match, and `--resume LOG --match NAME` finishes it and counts it —
    once: resumed again, it is not counted twice."""
    monkeypatch.setenv("FUDA_HOME", str(tmp_path))
    typed = iter(["1", "quit"])
    monkeypatch.setattr("builtins.input", lambda _p="": next(typed))
    db = str(tmp_path / "m.sqlite")
    code, out, err = run(capsys, "play", "american_page_one", "--match", "club", "--match-db", db,
                         "--games", "1", "--seed", "3", "--players", "2")
    kept = tmp_path / "games" / "american_page_one-3.json"
    assert code == 0, err
    assert f"fuda play --resume {kept} --match club --match-db {db}" in out and "not counted yet" in out
    assert json.loads(kept.read_text(encoding="utf-8"))["match"] == "club"
    again = ["play", "--resume", str(kept), "--match", "club", "--match-db", db, "--seat", "random",
             "--seat", "random", "--games", "1"]
    code, out, err = run(capsys, *again)
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("club")
        assert m is not None and m.games == 1 and store.game_rows("club")[0]["seed"] == 3
    code, out, err = run(capsys, *again)
    assert code == 0 and "counted already: it is game 1" in out
    with MatchStore(db) as store:
        assert store.get("club").games == 1
    code, _, err = run(capsys, "play", "--resume", str(kept), "--match", "other", "--match-db", db)
    assert code == 2 and "is a game of match 'club'" in err


def test_a_log_or_match_with_an_unknown_seat_kind_names_its_file(capsys, tmp_path):
    """QA12 P5: `fuda play --resume` said `unknown seat kind 'wizard'` naming no file; a log's
    `"lang": "fr"` was taken and rewritten as en without a word."""
    db = str(tmp_path / "m.sqlite")
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "1", "--seed", "1", "--players", "2")[0] == 0
    with sqlite3.connect(db) as c:
        c.execute("""UPDATE matches SET seats = '["wizard", "random"]'""")
    c.close()
    code, _, err = run(capsys, "play", "--match", "m", "--match-db", db, "--games", "1")
    assert code == 1 and f"match file {db}" in err and "matches.seats of match m: P0: unknown seat kind 'wizard'" in err
    log = tmp_path / "g.json"
    log.write_text(json.dumps({"format": "fuda-log/1", "ruleset": "american_page_one", "options": {"players": 2},
                               "seed": 1, "seats": ["human", "wizard"], "actions": []}), encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", str(log))
    assert code == 1 and f"{log}:1:" in err and "seats.1: unknown seat kind 'wizard'" in err
    log.write_text(json.dumps({"format": "fuda-log/1", "ruleset": "american_page_one", "options": {"players": 2},
                               "seed": 1, "seats": ["random", "random"], "lang": "fr", "actions": []}),
                   encoding="utf-8")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and "E503" in err and "game log lang" in err


@pytest.mark.parametrize("seats, hint", [(["human", "random"], "a seat was lost: give the 3 seats"),
                                         (["random"] * 4, "give the 3 seats with --seat")])
def test_a_log_whose_seats_do_not_seat_its_players_is_refused_naming_it(capsys, tmp_path, seats, hint):
    """fix15: a log with fewer seats than its game's players was resumed with random bots in the
    missing seats, without a word; one with too many was E505 naming no file. Both are E503 at the
    log's seats; --seat replaces them."""
    log = tmp_path / "g.json"
    log.write_text(json.dumps({"format": "fuda-log/1", "ruleset": "american_page_one", "options": {"players": 3},
                               "seed": 1, "seats": seats, "actions": []}, indent=1), encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", str(log))
    line = next(i for i, t in enumerate(log.read_text(encoding="utf-8").splitlines(), 1) if '"seats"' in t)
    assert code == 1 and f"{log}:{line}:" in err, err
    assert f"error[E503]: game log seats: {len(seats)} seats for a game of 3 players: the log is damaged" in err
    assert "\"seats\": [\n              ^\n" in err and hint in err
    db = str(tmp_path / "m.sqlite")
    log.write_text(log.read_text(encoding="utf-8").replace('"seed"', '"match": "m", "seed"'), encoding="utf-8")
    with MatchStore(db) as store:
        store.create("m", "american_page_one", 3, {"players": 3}, ["random"] * 3)
    code, _, err = run(capsys, "play", "--resume", str(log), "--match", "m", "--match-db", db)
    assert code == 1 and f"{log}:" in err and "game log seats" in err, err
    code, _, err = run(capsys, "replay", str(log))      # qa15 Q16: replayed without a word
    assert code == 1 and f"{log}:{line}:" in err and "the log is damaged" in err and "--seat" not in err, err


@pytest.mark.parametrize("damage, words", [
    ("DELETE FROM seats WHERE seat = 1", "the seats table has no row for P1 of match m: its score and wins are lost"),
    ("UPDATE seats SET seat = 7 WHERE seat = 2", "the seats table holds a seat 7 for match m, of 3 players"),
    ("""UPDATE matches SET seats = '["random", "random"]'""", "matches.seats of match m names 2 seats for 3 players"),
])
def test_a_match_whose_seats_lost_rows_is_refused_and_nothing_saved_is_lost(capsys, tmp_path, damage, words):
    """fix15: a match whose seats table lost a row was continued with that seat's totals from 0, and
    the next game's score for it was dropped too. A damaged match is refused in words, the file left
    as it was; it can still be deleted."""
    db = str(tmp_path / "m.sqlite")
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "2", "--seed", "1", "--players", "3")[0] == 0
    with sqlite3.connect(db) as c:
        c.execute(damage)
    c.close()
    before = open(db, "rb").read()
    for argv in (["play", "--match", "m", "--games", "1"], ["match", "m"], ["match"]):
        code, _, err = run(capsys, *argv, "--match-db", db)
        assert code == 1 and f"error[E503]: the match file {db} is damaged: {words}" in err, err
    assert open(db, "rb").read() == before
    code, out, _ = run(capsys, "match", "m", "--match-db", db, "--delete")
    assert code == 0 and "deleted match m" in out


@pytest.mark.parametrize("damage, words", [
    # qa14 F3: a huge count was an OverflowError; 10**9 would have allocated gigabytes
    ("UPDATE matches SET players = '1000000000000000000000000000000'",
     "matches.players of match m is not a player count (1 to 16): 1e+30"),
    ("UPDATE matches SET players = 1000000000", "matches.players of match m is not a player count (1 to 16)"),
    # qa14 F5: Python's words ("could not convert string to float: 'P0'"), naming neither table nor match
    ("UPDATE seats SET score = 'P0' WHERE seat = 1", "seats.score of P1 of match m is not a number: 'P0'"),
    ("UPDATE seats SET wins = 1.5 WHERE seat = 2", "seats.wins of P2 of match m is not a count of wins: 1.5"),
    ("UPDATE seats SET seat = '♥7' WHERE seat = 1", "the seats table holds a seat '♥7' for match m, of 3 players"),
    ("UPDATE games SET number = 'x'", "games.number of a game of match m is not a game's number: 'x'"),
    ("UPDATE games SET log = 5", "games.log of game 1 of match m is not a JSON object"),
    # qa15 Q15: JSON of the column's kind, but not what fuda wrote: no scores, no game to replay
    ("UPDATE games SET result = '[]'",
     "games.result of game 1 of match m is not a list of {player, score} objects, one for each of P0–P2"),
    ("""UPDATE games SET result = '[{"player": 0}, {"player": 0}, {"player": 1}]'""",
     "games.result of game 1 of match m is not a list of {player, score} objects, one for each of P0–P2"),
    ("UPDATE games SET log = '{}'", "games.log of game 1 of match m is not a fuda-log/1 game log: it has no format"),
    ("""UPDATE games SET log = json_set(log, '$.format', 'x')""",
     "games.log of game 1 of match m is not a fuda-log/1 game log: its format is 'x'"),
    ("""UPDATE games SET log = json_set(log, '$.actions', 'x')""",
     "games.log of game 1 of match m is not a fuda-log/1 game log: its actions: Input should be a valid list"),
    ("UPDATE matches SET seats = '[1, 2, 3]'", "matches.seats of match m is not a JSON list of seat kinds: '[1, 2, 3]'"),
    # qa14 F12: a NULL name was an AssertionError in the listing
    ("UPDATE matches SET name = NULL", "matches.name of a match of american_page_one is not a name: NULL"),
])
def test_a_damaged_value_of_a_match_file_is_refused_in_words(capsys, tmp_path, damage, words):
    """The rows of a match file are read in one place (match.MatchRow …): a value that is not as fuda
    wrote it is E503 naming the table and column, the match, and what it should be; the file untouched."""
    db = str(tmp_path / "m.sqlite")
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "1", "--seed", "1", "--players", "3")[0] == 0
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA foreign_keys = OFF")
        c.execute(damage)
    c.close()
    before = Path(db).read_bytes()
    for argv in (["match"], ["match", "m"], ["play", "--match", "m", "--games", "1"]):
        code, _, err = run(capsys, *argv, "--match-db", db)
        if "name = NULL" in damage and argv != ["match"]:
            assert code in (1, 2) and "there is no match 'm'" in err, err
            continue
        assert code == 1 and f"error[E503]: the match file {db} is damaged: {words}" in err, (argv, err)
    assert Path(db).read_bytes() == before


def test_a_match_file_naming_no_ruleset_says_the_name_is_the_files(capsys, tmp_path):
    """qa14 F5: `matches.ruleset = '[]'` was `error[E504]: no ruleset named '[]'`, as if typed."""
    db = str(tmp_path / "m.sqlite")
    assert run(capsys, "play", "american_page_one", "--match", "m", "--match-db", db, "--seat", "random",
               "--games", "1", "--seed", "1", "--players", "3")[0] == 0
    with sqlite3.connect(db) as c:
        c.execute("UPDATE matches SET ruleset = '[]'")
    c.close()
    code, _, err = run(capsys, "play", "--match", "m", "--match-db", db, "--games", "1")
    assert code == 1 and f"error[E503]: the match file {db}: matches.ruleset of match m: no ruleset named '[]'" in err


def test_a_study_row_that_names_no_game_or_holds_text_for_a_number_is_said_in_words(capsys, tmp_path):
    """qa14 F4: a game index 'x' was an internal error in `fuda simulate --study` (done() read it
    unguarded); F5: a base seed 'P0' was `invalid literal for int()` in `fuda report`."""
    sdb = str(tmp_path / "s.sqlite")
    assert run(capsys, "simulate", "american_page_one", "-n", "4", "-q", "--study", "s", "--db", sdb)[0] == 0
    with sqlite3.connect(sdb) as c:
        c.execute("UPDATE games SET idx = 'x' WHERE idx = 1")
    c.close()
    code, out, err = run(capsys, "simulate", "american_page_one", "-n", "4", "-q", "--study", "s", "--db", sdb)
    # the row names no game: left out with a warning; game 1 is played again beside it
    assert code == 0 and "games.idx of a game of study 's' is not a game's number: 'x'; left out" in err, err
    code, out, err = run(capsys, "report", "--db", sdb)
    assert code == 0 and "4/4 games" in out, out
    with sqlite3.connect(sdb) as c:
        c.execute("UPDATE studies SET name = NULL")
    c.close()
    code, _, err = run(capsys, "report", "--db", sdb)
    assert code == 1 and "studies.name of a study of american_page_one is not a name: NULL" in err, err
    with sqlite3.connect(sdb) as c:
        c.execute("UPDATE studies SET name = 's', base_seed = 'P0'")
    c.close()
    for argv in (["report", "--db", sdb], ["report", "--db", sdb, "--csv", "-", "s"],
                 ["simulate", "american_page_one", "-n", "4", "-q", "--study", "s", "--db", sdb]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and f"error[E503]: the study file {sdb} is damaged: studies.base_seed of study 's' " \
            "is not a seed: 'P0'" in err, (argv, err)


def test_a_match_first_to_n_wins_ends_when_a_seat_has_them_and_refuses_more_games(capsys, tmp_path):
    """newcomer49 P3: a best of three (Jaipur's seals, a Lost Cities match) could not be a match."""
    db = str(tmp_path / "m.sqlite")
    code, out, err = run(capsys, "play", "john", "--match", "bo3", "--match-db", db, "--first-to", "2",
                         "--seat", "random", "--seat", "random", "--games", "10", "--seed", "1")
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("bo3")
        assert m is not None and m.first_to == 2 and max(m.wins) == 2 and m.games < 10
        assert m.winners == [m.wins.index(2)]
    assert out.count("first to 2 wins: not won yet") == m.games - 1
    assert out.rstrip().endswith(f"match bo3 is over: P{m.winners[0]} won it, first to 2 wins")
    # over: no game more, and the way on is said
    code, _, err = run(capsys, "play", "--match", "bo3", "--match-db", db, "--games", "1")
    assert code == 2 and "match bo3 is over" in err and f"--first-to {max(m.wins) + 1}" in err
    # a higher target is remembered, and the match plays on to it
    code, out, err = run(capsys, "play", "--match", "bo3", "--match-db", db, "--first-to", "3", "--games", "10")
    assert code == 0, err
    with MatchStore(db) as store:
        m = store.get("bo3")
        assert m is not None and m.first_to == 3 and max(m.wins) == 3
    code, out, _ = run(capsys, "match", "bo3", "--match-db", db, "--json")
    assert json.loads(out)["first_to"] == 3 and json.loads(out)["winners"] == m.winners
    # without a target (0) it plays on as a plain match
    code, out, err = run(capsys, "play", "--match", "bo3", "--match-db", db, "--first-to", "0", "--games", "1")
    assert code == 0 and "is over" not in out + err
    assert "match bo3: no target of wins now" in out
    with MatchStore(db) as store:
        m2 = store.get("bo3")
        assert m2 is not None and m2.first_to is None and m2.games == m.games + 1


def test_first_to_0_on_a_match_without_a_target_changes_nothing(capsys, tmp_path):
    """No target given as 0 to a match without one: nothing to remember or tell (a seat's standings
    line was printed a second time as if it were the target's)."""
    db = str(tmp_path / "m.sqlite")
    run(capsys, "play", "john", "--match", "m", "--match-db", db, "--seat", "random", "--seat", "random",
        "--games", "1", "--seed", "1")
    code, out, err = run(capsys, "play", "--match", "m", "--match-db", db, "--first-to", "0", "--games", "1")
    assert code == 0, err
    rows = [ln for ln in out.splitlines() if ln.startswith("  P") and " wins " in ln]
    assert len(rows) == 4 and "no target" not in out     # two seats' standings, before and after the game


def test_games_or_first_to_without_a_match_is_refused(capsys):
    for flag, value in (("--games", "2"), ("--first-to", "2")):
        code, out, err = run(capsys, "play", "john", flag, value, "--seat", "random", "--seat", "random")
        assert code == 2 and f"error: {flag} counts the games of a match: give it with --match NAME" in err
        assert out == ""


def test_a_match_file_from_before_first_to_gains_the_column(tmp_path):
    db = tmp_path / "old.sqlite"
    before = SCHEMA.split(",\n    first_to INTEGER")
    assert len(before) == 2
    con = sqlite3.connect(db)      # the tables as fuda wrote them before `first_to`
    con.executescript(before[0] + before[1].split("\n", 1)[1])
    con.execute("INSERT INTO matches (name, ruleset, players, options, seats, games, created, updated) "
                "VALUES ('old', 'john', 2, '{}', '[\"random\", \"random\"]', 0, 'x', 'x')")
    con.executemany("INSERT INTO seats (match, seat, score, wins) VALUES ('old', ?, 0, 0)", [(0,), (1,)])
    con.commit()
    con.close()
    with MatchStore(db) as store:
        m = store.get("old")
        assert m is not None and m.first_to is None and m.winners == []
