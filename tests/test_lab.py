"""The balance lab: stored studies (resume, interruption), compare, report, heuristics, workers."""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist

import pytest

from interpreter.runner import simulate as sim
from interpreter.runner.cli import main
from interpreter.runner.compare import (
    ALPHA,
    compare,
    compare_summaries,
    diff_mean,
    diff_paired_mean,
    diff_paired_proportion,
    diff_proportion,
    format_compare,
    holm,
    interval_p,
    paired_table_diff,
    student_p,
    student_q,
)
from interpreter.runner.heuristics import game_measures, study_measures
from interpreter.runner.simulate import Summary
from interpreter.runner.study import Store, run_study


def test_a_study_is_stored_and_resumed(tmp_path, capsys):
    db = tmp_path / "s.sqlite"
    assert main(["simulate", "american_page_one", "-n", "30", "--study", "a", "--db", str(db), "-q", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["games"] == 30
    assert main(["simulate", "american_page_one", "-n", "50", "--study", "a", "--db", str(db), "-q", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["games"] == 50
    store = Store(db)
    results = store.results("a")
    assert [r["seed"] for r in results] == [sim.game_seed(0, i) for i in range(50)]
    # the stored games are the games a plain simulation plays
    plain = sim.simulate("american_page_one", {}, 50, show_progress=False)
    assert [g["winners"] for g in plain.games] == [r["winners"] for r in results]


def test_an_interrupted_study_keeps_its_games(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    real = sim.iter_games

    def interrupted(jobs, *a, **k):  # type: ignore[no-untyped-def]
        for i, g in enumerate(real(jobs, *a, **k)):
            if i == 17:
                raise KeyboardInterrupt
            yield g

    monkeypatch.setattr(sim, "iter_games", interrupted)
    store = Store(db)
    study = store.open_study("b", "american_page_one", {}, [], 0, 40)
    with pytest.raises(KeyboardInterrupt):
        run_study(store, study, show_progress=False)
    assert len(store.done("b")) == 17
    monkeypatch.setattr(sim, "iter_games", real)
    assert len(run_study(store, study, show_progress=False)) == 40



def test_a_killed_study_says_what_it_kept(tmp_path):
    """SIGTERM (a kill, a closed terminal: SIGHUP) stops the fuda command as Ctrl-C does."""
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-c", "from interpreter.runner.cli import main; raise SystemExit(main())",
           "simulate", "john", "-n", "1000000", "--study", "k", "--db", str(db), "-q"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (db.exists() and Store(db).done("k")) and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "games are stored" in err and "Traceback" not in err
    # the pool ends its workers with SIGTERM: they take it plainly, without a traceback each
    done = subprocess.run([*cmd[:3], "simulate", "john", "-n", "6", "--workers", "2", "-q"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr

def test_a_study_name_is_one_experiment(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.open_study("c", "american_page_one", {}, [], 0, 10)
    from interpreter.errors import FudaError

    with pytest.raises(FudaError) as e:
        store.open_study("c", "american_page_one", {"players": 3}, [], 0, 10)
    assert e.value.first.code == "E503"


def test_a_study_is_refused_when_its_ruleset_changed_since_it_began(tmp_path, capsys):
    """QA: a study resumed after the ruleset was edited added games of the new rules to the old ones."""
    db = tmp_path / "s.sqlite"
    f = tmp_path / "g.fuda"
    text = (Path(__file__).parent / "errors" / "_valid_minimal.fuda").read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    assert main(["simulate", str(f), "-n", "5", "--study", "g", "--db", str(db), "-q"]) == 0
    f.write_text(text.replace("int 1..5 = 2", "int 1..5 = 3"), encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", str(f), "-n", "10", "--study", "g", "--db", str(db), "-q"]) == 1
    err = capsys.readouterr().err
    assert "error[E505]" in err and "changed since study 'g' began" in err and "new --study name" in err
    assert len(Store(db).results("g")) == 5
    assert main(["simulate", str(f), "-n", "10", "--study", "g2", "--db", str(db), "-q"]) == 0


def test_a_file_that_is_not_a_study_file_is_a_diagnostic(tmp_path, capsys):
    """Another program's SQLite file is refused untouched; a row edited by hand is an E503 too."""
    import sqlite3

    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE games (x)")
    con.commit()
    con.close()
    assert main(["simulate", "john", "-n", "2", "-q", "--study", "s", "--db", str(other)]) == 1
    err = capsys.readouterr().err
    assert "E503" in err and "is not a fuda study file" in err and "games has no column" in err
    con = sqlite3.connect(other)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["games"]
    con.close()
    db = tmp_path / "s.sqlite"
    Store(db).open_study("c", "john", {}, [], 0, 2)
    con = sqlite3.connect(db)
    con.execute("UPDATE studies SET seats = 'not json'")
    con.commit()
    con.close()
    assert main(["report", "c", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "E503" in err and "is damaged" in err and "Traceback" not in err


def test_workers_give_the_same_games():
    a = sim.simulate("american_page_one", {"players": 3}, 24, seed=5, workers=1, show_progress=False)
    b = sim.simulate("american_page_one", {"players": 3}, 24, seed=5, workers=2, show_progress=False)
    assert a.games == b.games


def test_rotated_seats_put_every_bot_in_every_chair(tmp_path, capsys):
    assert sim.seats_for(["a", "b"], 3, 0, rotate=True) == ["a", "b", "random"]
    assert sim.seats_for(["a", "b"], 3, 1, rotate=True) == ["random", "a", "b"]
    assert sim.seats_for(["a", "b"], 3, 4, rotate=False) == ["a", "b", "random"]
    db = tmp_path / "s.sqlite"
    args = ["simulate", "american_page_one", "--players", "2", "-n", "6", "--seat", "ismcts:4", "--rotate",
            "--study", "rot", "--db", str(db), "-q", "--json"]
    assert main(args) == 0
    stats = json.loads(capsys.readouterr().out)
    games = Store(db).results("rot")
    assert [g["seats"] for g in games] == [["ismcts:4", "random"], ["random", "ismcts:4"]] * 3
    by_bot = {b["bot"]: b for b in stats["bots"]}
    assert by_bot["ismcts:4"]["chairs"] == by_bot["random"]["chairs"] == 6
    assert by_bot["ismcts:4"]["wins"] == sum(1 for g in games if g["seats"][g["winners"][0]] == "ismcts:4")
    assert Store(db).study("rot").rotate
    # a game of a rotated study replays by its seed with the seats it recorded
    g = games[1]
    from interpreter.api import load

    again = sim.run_game(load("american_page_one", {"players": 2}), g["seed"], g["seats"])
    assert again.ndec == g["length"]


def test_compare_two_variants(capsys):
    r = compare("american_page_one", {"players": 3}, {"players": 3, "stop_at_first_winner": False}, 60,
                show_progress=False)
    rows = {row["statistic"]: row for row in r["rows"]}
    length = rows["game length (decisions)"]
    assert length["b"] > length["a"] and length["significant"]      # playing on for places takes longer
    text = format_compare(r)
    assert "game length (decisions)" in text and "difference significant at 95%" in text
    assert main(["compare", "american_page_one", "--a", "players=2", "--b", "players=2,stop_at_first_winner=false",
                 "-n", "20", "-q"]) == 0
    assert "first-player win rate" in capsys.readouterr().out


def test_compare_a_variant_file_against_its_base(capsys):
    variant = "rulesets/variants/american_page_one_classic.fuda"
    assert main(["compare", "american_page_one", "--b", variant, "-n", "20", "-q", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["rulesets"] == ["american_page_one", variant] and r["paired"] and r["games"] == [20, 20]
    assert main(["compare", "american_page_one", "--a", "players=3", "--b", variant, "-n", "2", "-q"]) == 1
    assert "A is a game of 3 players and B of 4" in capsys.readouterr().err
    # the base options apply to both sides
    assert main(["compare", "american_page_one", "--b", variant, "--players", "3", "-n", "2", "-q"]) == 0


def test_compare_a_variant_by_its_name(capsys):
    """QA9 P5: `--b dominion_mixed` was E406 "a variant is NAME=VALUE … or an options file"."""
    assert main(["compare", "american_page_one", "--b", "american_page_one_classic", "-n", "4", "-q", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rulesets"] == ["american_page_one", "american_page_one_classic"]
    assert main(["compare", "american_page_one", "--b", "american_page_one_clasic", "-n", "2", "-q"]) == 1
    err = capsys.readouterr().err
    assert "or another ruleset (a .fuda file or a ruleset's name)" in err
    assert "did you mean american_page_one_classic?" in err


def test_compare_two_stored_studies_without_playing(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "s.sqlite")
    for name, opt in (("short", "stop_at_first_winner=true"), ("long", "stop_at_first_winner=false")):
        assert main(["simulate", "american_page_one", "-n", "40", "--set", opt, "--study", name, "--db", db,
                     "-q"]) == 0
    assert main(["simulate", "american_page_one_classic", "-n", "40", "--study", "classic", "--db", db, "-q"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(sim, "iter_games", lambda *a, **k: pytest.fail("compare played games"))
    assert main(["compare", "--study", "short", "--study", "long", "--db", db, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["studies"] == ["short", "long"] and r["games"] == [40, 40]
    length = next(row for row in r["rows"] if row["statistic"] == "game length (decisions)")
    assert length["b"] > length["a"] and length["significant"]
    assert main(["compare", "--study", "short", "--db", db]) == 1     # two studies, not one
    assert "exactly two --study" in capsys.readouterr().err
    # a variant against its base: both rulesets are named
    assert main(["compare", "--study", "short", "--study", "classic", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("A = american_page_one stop_at_first_winner=true  vs  "
                                              "B = american_page_one_classic defaults")


def test_difference_intervals():
    d, lo, hi = diff_proportion(50, 100, 50, 100)
    assert d == 0 and lo < 0 < hi
    d, lo, hi = diff_proportion(20, 200, 120, 200)
    assert d == pytest.approx(0.5) and 0 < lo < hi < 1
    _, _, d, lo, hi, _ = diff_mean([1.0, 2.0, 3.0] * 20, [11.0, 12.0, 13.0] * 20)
    assert d == pytest.approx(10) and lo > 9


def test_paired_difference_intervals():
    """Games of the same seed are paired: what the two variants share cancels out."""
    # uncorrelated pairs (φ = 0): Newcombe's paired interval is his independent one
    table = [(True, True)] * 25 + [(True, False)] * 25 + [(False, True)] * 25 + [(False, False)] * 25
    assert diff_paired_proportion(table) == pytest.approx(diff_proportion(50, 100, 50, 100))
    # the same outcome in almost every pair: the interval is much narrower than for independent samples
    table = [(True, True)] * 45 + [(False, False)] * 45 + [(False, True)] * 9 + [(True, False)] * 1
    d, lo, hi = diff_paired_proportion(table)
    di, loi, hii = diff_proportion(46, 100, 54, 100)
    assert d == pytest.approx(di) == pytest.approx(0.08) and lo < d < hi and hi - lo < (hii - loi) / 2
    assert lo > 0          # significant paired, not independently
    assert loi < 0
    # means: a constant per-game difference is known exactly, however spread the games are
    ma, mb, d, lo, hi, p = diff_paired_mean([(x, x + 2.0) for x in (10.0, 50.0, 90.0)] * 10)
    assert (ma, mb, d, lo, hi) == pytest.approx((50.0, 52.0, 2.0, 2.0, 2.0)) and p == 2.0 ** -29    # the sign test's


def test_a_mean_of_few_games_has_no_interval_and_is_never_significant_by_itself():
    """qa15 Q4: one pair of games gave a zero-width interval and p = 0 ("significant, p < 0.0001");
    a handful of games took the normal's 1.96 where Student's t is wider."""
    assert diff_paired_mean([(79.0, 148.0)])[3:] == (-math.inf, math.inf, 1.0)
    assert diff_mean([79.0], [148.0])[3:] == (-math.inf, math.inf, 1.0)
    assert diff_mean([1.0], [5.0, 6.0, 7.0])[5] == 1.0
    # no spread in n >= 2 pairs: the sign test (2 pairs: p = 0.5), not p = 0
    assert diff_paired_mean([(10.0, 11.0), (20.0, 21.0)])[5] == 0.5
    assert diff_mean([1.0, 1.0], [2.0, 2.0])[5] == pytest.approx(2 / 6)       # the permutation test's
    # Student's t: 97.5% quantiles from the tables, and p at them is 5%
    for df, q in ((1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (30, 2.042), (10**6, 1.960)):
        assert student_q(df) == pytest.approx(q, abs=2e-3)     # at ALPHA = erfc(1.96/√2), a hair under 5%
    assert student_p(2.0, 10) == pytest.approx(0.0734, abs=1e-4)
    # four pairs: the interval is d ± t(3) se, and its p agrees with it
    ma, mb, d, lo, hi, p = diff_paired_mean([(0.0, 1.0), (0.0, 2.0), (0.0, 3.0), (0.0, 4.0)])
    assert d == 2.5 and hi - d == pytest.approx(3.182 * math.sqrt((5 / 3) / 4), abs=1e-3)
    assert p == pytest.approx(0.0305, abs=1e-4) and lo > 0      # t = 3.873 on 3 degrees of freedom
    # compare: one game a side never makes a mean significant
    def games(length):
        return [{"seed": 0, "first": 0, "winners": [0], "draw": False, "capped": False, "length": length,
                 "scores": [length, 0], "places": [1, 2]}]
    r = compare_summaries(Summary("r", 1, 2, 0.0, games(79)), Summary("r", 1, 2, 0.0, games(148)), {}, {})
    length = next(row for row in r["rows"] if row["statistic"] == "game length (decisions)")
    assert length["ci95"] is None and length["p"] == 1.0 and not length["significant_alone"]
    assert "game length (decisions) 79.00 → 148.00 (+69.00, too few games for a 95% CI, p = 1): no significant" \
        in format_compare(r)


def test_holm_adjusts_p_values_step_down():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.8]) == [1.0, 1.0]


@pytest.mark.parametrize("table", [(90, 1, 8, 101), (45, 1, 9, 45), (25, 25, 25, 25), (10, 0, 0, 90), (3, 17, 2, 8)])
def test_a_statistic_s_p_value_is_below_5_percent_exactly_when_its_interval_excludes_zero(table):
    """One statistic alone is judged as before: its p-value is its own interval's test."""
    d, lo, hi = paired_table_diff(*table)
    p = interval_p(d, lambda z: paired_table_diff(*table, z)[1:])
    assert (p < ALPHA) == (lo > 0 or hi < 0)
    lo_p, hi_p = paired_table_diff(*table, z=NormalDist().inv_cdf(1 - p / 2))[1:]
    assert d == 0 or min(abs(lo_p), abs(hi_p)) < 1e-6      # the interval at level 1 - p just touches zero


def test_compare_corrects_for_the_many_statistics_it_tests():
    """fix15: each statistic was called significant when its own 95% interval excluded zero, so with
    seven at once a change in noise was often flagged. P0's win rate here moves 3.5 points with
    p = 0.017 alone, but the test is one of six: corrected by Holm-Bonferroni it is not significant."""
    def games(p0_wins):    # 200 games of two players, P0 first; the seeds the same on both sides
        return [{"seed": i, "first": 0, "winners": [0] if p0_wins(i) else [1], "draw": False, "capped": False,
                 "length": 50, "scores": [0, 0], "places": [1, 2] if p0_wins(i) else [2, 1]} for i in range(200)]
    a = Summary("r", 200, 2, 0.0, games(lambda i: i < 91))
    b = Summary("r", 200, 2, 0.0, games(lambda i: i < 90 or 91 <= i < 99))
    r = compare_summaries(a, b, {}, {"house": True})
    p0 = next(row for row in r["rows"] if row["statistic"] == "P0 win rate")
    assert r["tests"] == 6 and r["correction"] == "holm"
    assert p0["ci95"][0] > 0 and p0["significant_alone"]       # the uncorrected test flags it
    assert p0["p"] == pytest.approx(0.0171, abs=1e-4) and p0["p_holm"] == pytest.approx(6 * p0["p"])
    assert not p0["significant"] and not any(row["significant"] for row in r["rows"])
    text = format_compare(r)
    assert ("P0 win rate 45.5% → 49.0% (+3.5 points, 95% CI [+0.6, +6.4], p = 0.017): no significant difference "
            "once corrected for the other statistics (Holm-corrected p = 0.103)") in text
    assert "6 statistics tested at once: each p-value is corrected for them all by Holm–Bonferroni" in text
    # a larger change stays significant after the correction
    b = Summary("r", 200, 2, 0.0, games(lambda i: i < 90 or 91 <= i < 115))
    p0 = next(row for row in compare_summaries(a, b, {}, {})["rows"] if row["statistic"] == "P0 win rate")
    assert p0["significant"] and p0["p_holm"] < ALPHA


def test_compare_pairs_games_by_seed(tmp_path, capsys):
    r = compare("american_page_one", {"players": 3}, {"players": 3, "stop_at_first_winner": False}, 60,
                show_progress=False)
    assert r["paired"] and "paired by seed" in format_compare(r)
    # two studies of different seeds cannot be paired: independent intervals
    db = str(tmp_path / "s.sqlite")
    assert main(["simulate", "john", "-n", "10", "--study", "x", "--db", db, "-q"]) == 0
    assert main(["simulate", "john", "-n", "10", "--seed", "100", "--study", "y", "--db", db, "-q"]) == 0
    assert main(["simulate", "john", "-n", "10", "--set", "doubt_rule=true", "--study", "z", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert main(["compare", "--study", "x", "--study", "y", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paired"] is False
    assert main(["compare", "--study", "x", "--study", "z", "--db", db]) == 0
    assert "paired by seed" in capsys.readouterr().out


def test_report_writes_html_with_plots(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    db = tmp_path / "s.sqlite"
    assert main(["simulate", "american_page_one", "-n", "40", "--study", "r", "--db", str(db), "-q"]) == 0
    out = tmp_path / "r.html"
    assert main(["report", "r", "--db", str(db), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("<img") >= 2 and "Win rates" in page and "first player wins" in page
    # two variants side by side, and the plots as files
    assert main(["simulate", "american_page_one", "-n", "40", "--set", "players=3", "--study", "r3", "--db", str(db),
                 "-q"]) == 0
    assert main(["report", "r", "r3", "--db", str(db), "-o", str(out), "--plots", str(tmp_path / "png")]) == 0
    page = out.read_text(encoding="utf-8")
    assert "Side by side" in page and page.count("<h2>Study") == 2
    pngs = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert "compare-first-player-s-win-rate-by-study.png" in pngs and "r3-win-rates.png" in pngs
    assert (tmp_path / "png" / "r-win-rates.png").read_bytes().startswith(b"\x89PNG")


def test_heuristics_from_estimates():
    g = {"winners": [1], "estimates": [(0, 0.8), (1, 0.3), (0, 0.7), (1, 0.9), (0, 0.2), (1, 0.95)]}
    m = game_measures(g, 2)
    assert m is not None
    assert m["lead_changes"] == 1.0
    assert m["drama"] > 0
    assert 0 < m["decisiveness"] < 1
    s = study_measures([g, {"winners": [0], "estimates": []}], 2)
    assert s["fairness"] == 1.0 and s["games_with_estimates"] == 1


def test_heuristics_of_a_winning_side():
    """Team games (Napoleon and his adjutant) were left out: the winners are a side."""
    g = {"winners": [0, 2], "estimates": [(1, 0.9), (0, 0.4), (2, 0.5), (1, 0.3), (2, 0.95)]}
    m = game_measures(g, 4)
    assert m == pytest.approx({"lead_changes": 1.0, "drama": (0.65 + 0.5 + 0.4) / 5, "decisiveness": 1.0 - 3 / 5})
    assert game_measures({"winners": [0, 1, 2, 3], "estimates": [(0, 0.5)]}, 4) is None   # everybody won


def test_lead_handed_between_partners_is_no_lead_change():
    """newcomer47 P8: two ISMCTS partners' estimates overtaking each other counted as lead changes
    (85.5 with drama 0 and decisiveness 1): the lead changes only when another side takes it."""
    g = {"winners": [0, 2], "sides": [0, 1, 0, 1],
         "estimates": [(0, 0.6), (2, 0.7), (0, 0.8), (2, 0.9), (1, 0.5), (3, 0.55), (0, 0.95)]}
    assert game_measures(g, 4) == pytest.approx({"lead_changes": 0.0, "drama": 0.0, "decisiveness": 1.0})
    g = {**g, "estimates": [*g["estimates"], (3, 0.99), (1, 0.2), (2, 1.0)]}     # P3 leads, then P2
    assert game_measures(g, 4)["lead_changes"] == 2.0
    # a game with sides records them (its allies at the end); losing partners are one side too
    g = sim.play_one("euchre", {}, 1, ["ismcts:4", "random", "ismcts:4", "random"])
    assert g["sides"] == [0, 1, 0, 1]
    assert "sides" not in sim.play_one("american_page_one", {}, 1, ["ismcts:4", "random"])


def test_ismcts_seats_report_heuristics(capsys):
    assert main(["simulate", "american_page_one", "-n", "2", "--players", "2", "--seat", "ismcts:15",
                 "--seat", "ismcts:15", "-q", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["heuristics"]["games_with_estimates"] >= 1


def test_ray_backend_gives_the_same_games():
    pytest.importorskip("ray")
    a = sim.simulate("american_page_one", {}, 16, seed=9, show_progress=False)
    b = sim.simulate("american_page_one", {}, 16, seed=9, show_progress=False, backend="ray")
    assert a.games == b.games


def test_report_listing_creates_no_file(tmp_path, capsys):
    db = tmp_path / "new" / "s.sqlite"
    assert main(["report", "--db", str(db)]) == 0
    assert "no studies in" in capsys.readouterr().out
    assert main(["report", "x", "--db", str(db)]) == 1
    assert "there is no study 'x'" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
    Store(tmp_path / "e.sqlite")
    assert main(["report", "--db", str(tmp_path / "e.sqlite")]) == 0
    assert "no studies in" in capsys.readouterr().out


def test_report_to_a_place_that_cannot_take_it_is_an_error_not_a_bug(tmp_path, capsys):
    db = str(tmp_path / "s.sqlite")
    assert main(["simulate", "john", "-n", "4", "--study", "j", "--db", db, "-q"]) == 0
    (tmp_path / "taken").write_text("x")
    cases = [["-o", str(tmp_path / "missing" / "r.html")], ["-o", str(tmp_path)],
             ["-o", str(tmp_path / "r.html"), "--plots", str(tmp_path / "taken")]]
    for extra in cases:
        capsys.readouterr()
        assert main(["report", "j", "--db", db, *extra]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: cannot use ") and "internal error" not in err
    assert not (tmp_path / "r.html").exists()       # nothing half-written when the plots folder is wrong


def test_compare_refuses_studies_that_cannot_be_compared(tmp_path, capsys):
    db = str(tmp_path / "s.sqlite")
    assert main(["simulate", "john", "-n", "4", "--study", "two", "--db", db, "-q"]) == 0
    assert main(["simulate", "american_page_one", "-n", "4", "--study", "four", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert main(["compare", "--study", "two", "--study", "four", "--db", db]) == 1
    assert "of 2 and 4 players" in capsys.readouterr().err


def test_report_exports_every_game_as_csv(tmp_path, capsys):
    import csv
    import io

    db = str(tmp_path / "s.sqlite")
    assert main(["simulate", "napoleon", "-n", "6", "--seat", "ismcts:5", "--rotate", "--study", "nap", "--db", db,
                 "-q"]) == 0
    assert main(["simulate", "john", "-n", "4", "--set", "doubt_rule=true", "--study", "jo", "--db", db, "-q"]) == 0
    store = Store(db)
    capsys.readouterr()
    assert main(["report", "nap", "jo", "--db", db, "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 6 * 5 + 4 * 2
    for name in ("nap", "jo"):
        for g in store.results(name):
            mine = [r for r in rows if r["study"] == name and r["seed"] == str(g["seed"])]
            assert [r["player"] for r in mine] == [f"P{p}" for p in range(len(g["places"]))]
            assert [int(r["place"]) for r in mine] == g["places"]
            assert [float(r["score"]) for r in mine] == [float(x) for x in g["scores"]]
            assert {r["player"] for r in mine if r["won"] == "1"} == {f"P{p}" for p in g["winners"]}
            assert [r["seat"] for r in mine] == g["seats"] and {r["length"] for r in mine} == {str(g["length"])}
            assert sum(r["first"] == "1" for r in mine) == 1
    nap = [r for r in rows if r["study"] == "nap"]
    assert {r["seat"] for r in nap[:5]} == {"ismcts:5", "random"} and nap[5]["seat"] == "random"  # rotated
    assert sum("napoleon" in r["roles"].split(";") for r in nap) == 6      # one Napoleon a game, in public
    assert {r["options"] for r in rows if r["study"] == "jo"} == {'{"doubt_rule": true}'}
    out = tmp_path / "games.csv"
    assert main(["report", "jo", "--db", db, "--csv", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out and out.read_text(encoding="utf-8").count("\n") == 1 + 4 * 2


def test_results_are_split_by_the_declared_roles_only(tmp_path):
    f = tmp_path / "parts.fuda"
    f.write_text('ruleset parts\nplayers 3\ncards standard(jokers = 0) in deck\nzone deck: pile hidden\n'
                 'var boss: player = none role "Boss | ボス"\nvar spy: player = none hidden role\n'
                 'var leader: player = none "Leader | リーダー"\n'
                 'setup { boss = players[1]\n spy = players[2]\n leader = players[0] }\n'
                 'phase play { win boss }\n', encoding="utf-8")
    summary = sim.play_one(str(f), {}, 1, ["random"] * 3)
    assert summary["roles"] == {"boss": 1}      # not the leader (no role), not the spy (hidden at the end)
