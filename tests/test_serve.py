"""`fuda serve`: the table's API functions directly, and one real server on port 0 driven with urllib —
a game played to its end, hidden information, refusals, undo, the log that replays, the page."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from interpreter.api import load
from interpreter.engine import observe
from interpreter.engine.state import State
from interpreter.runner.cli import main
from interpreter.runner.history import rebuilt
from interpreter.runner.replay import read_log, replay
from interpreter.runner.serve import TableServer, make_server
from interpreter.runner.table import LOG_TAIL, Table, TableError

from .conftest import ROOT

SEATS = ["human", "random", "random", "random"]
WEB = ROOT / "interpreter" / "runner" / "web"


def table(seats: list[str] | None = None, seed: int = 3, background: bool = False, **options: Any) -> Table:
    return Table(load("american_page_one", options), seats or SEATS, seed, background=background)


# ---------------------------------------------------------------------- the API functions
def test_a_table_plays_to_the_end_choosing_the_first_legal_action():
    t = table()
    moves = 0
    while not t.st.over:
        d = t.state(0)
        assert d["to_move"] == [0] and d["actions"], "the bots move until the human is to decide"
        t.act(0, d["actions"][0]["id"])
        moves += 1
        assert moves < 500
    d = t.state(0)
    assert d["view"]["over"] and d["view"]["result"]
    assert not d["actions"]
    with pytest.raises(TableError) as e:
        t.act(0, "draw")
    assert e.value.status == 400


def test_an_illegal_action_is_refused_with_the_legal_ones():
    t = table()
    legal = [a["id"] for a in t.state(0)["actions"]]
    with pytest.raises(TableError) as e:
        t.act(0, "play nothing")
    assert e.value.status == 400 and e.value.as_json()["legal"] == [a.id for a in t.game.legal_actions(t.st, 0)]
    assert sorted(e.value.as_json()["legal"]) == sorted(legal)
    assert t.actions == [] or all(p != 0 for p, _ in t.actions)        # nothing was played for P0


def test_an_action_may_be_typed_as_fuda_play_takes_it():
    t = table()
    d = t.state(0)
    first = next(a for a in d["actions"] if a["cards"])
    ascii_name = first["id"].replace("♥", "H").replace("♠", "S").replace("♦", "D").replace("♣", "C")
    n = len(t.actions)
    t.act(0, ascii_name)
    assert t.actions[n] == (0, first["id"])


def test_seats_a_request_names():
    t = table(["human", "random", "human", "random"])
    assert t.seat("P2") == 2 and t.seat("0") == 0 and t.seat(None) is None
    for bad in ("7", "x", "-1", "P9", "①", "²", "P①", "٢"):     # qa14 F1/F2: a Unicode digit was a 500
        with pytest.raises(TableError, match="unknown seat"):
            t.seat(bad)
    assert t.seat("２") == 2 and t.seat("Ｐ２") == 2     # a Japanese keyboard's full width (qa15 Q14)
    with pytest.raises(TableError, match="played by a bot"):
        t.seat(1)
    with pytest.raises(TableError, match="name the seat"):
        t.seat(None, acting=True)


def test_hot_seat_only_the_seat_to_move_acts():
    t = table(["human", "human", "random", "random"])
    d0 = t.state(0)
    assert d0["humans"] == [0, 1]
    with pytest.raises(TableError, match="not to move"):
        t.act(1, "draw")
    assert t.state(1)["actions"] == []


def test_undo_takes_back_the_last_choice_and_what_followed():
    t = table()
    before = t.state(0)
    assert not before["can_undo"]
    with pytest.raises(TableError, match="nothing to undo"):
        t.undo(0)
    # a real choice (more than one legal action), then the bots' replies
    while len(t.state(0)["actions"]) < 2:
        t.act(0, t.state(0)["actions"][0]["id"])
    before = t.state(0)
    t.act(0, before["actions"][-1]["id"])
    assert t.state(0)["can_undo"]
    n = t.undo(0)["undone"]
    after = t.state(0)
    assert n >= 1 and after["moves"] == before["moves"]
    assert after["view"]["zones"] == before["view"]["zones"] and after["actions"] == before["actions"]


def test_a_new_game_takes_the_next_seed():
    t = table(seed=10)
    t.act(0, t.state(0)["actions"][0]["id"])
    t.new_game()
    d = t.state(0)
    assert d["game"]["seed"] == 11 and d["game"]["number"] == 2
    assert d["moves"] == len(t.actions) and all(p != 0 for p, _ in t.actions)      # only the bots have moved


def test_with_several_humans_the_next_seed_does_not_follow_from_the_last():
    """QA8 B-seed-hotseat: the last game's seed is told when it is over; the next game's must not be
    that + 1, nor may an undo take the table back into the game whose seed everyone has seen."""
    t = table(["human", "human", "random", "random"], seed=10)
    t.st.over = True
    assert t.state(0)["game"]["seed"] == 10
    with pytest.raises(TableError, match="start a new game"):
        t.undo(0)
    t.new_game()
    assert t.seed != 11 and t.state(0)["game"]["seed"] is None


def test_bots_in_the_background_play_on_their_own():
    t = table(["random"] * 4, background=True)
    assert t.state(None)["thinking"] and not t.actions, "nothing is played before the table is served"
    thread = t.start_bots()
    assert t.settle(60)
    d = t.state(None)
    assert d["view"]["over"] and not d["thinking"] and d["seat"] is None and not d["actions"]
    t.close()
    thread.join(5)
    assert not thread.is_alive()


def test_long_runs_of_numbers_are_one_choice():
    ids = ["fold"] + [f"bet {n}" for n in range(20, 420, 20)] + ["call"]
    from interpreter.runner.table import _grouped

    g = _grouped(ids)
    assert g[0] == {"first": 0, "count": 1}
    assert g[1] == {"first": 1, "count": 20, "prefix": "bet", "lo": 20, "hi": 400, "step": 20}
    assert g[2] == {"first": 21, "count": 1}


def test_the_game_log_is_written_after_every_change(tmp_path):
    path = tmp_path / "game.json"
    t = Table(load("american_page_one", {}), SEATS, 5, 0, str(path))
    t.act(0, t.state(0)["actions"][0]["id"])
    assert json.loads(path.read_text(encoding="utf-8"))["actions"] == [list(a) for a in t.actions]
    t.new_game()
    assert (tmp_path / "game-2.json").is_file()


def test_with_several_humans_the_log_file_waits_for_the_end_of_the_game(tmp_path):
    """QA9 B6: `fuda serve --log FILE` with two humans died at start (the 403 guard of /api/log hit the
    table's own writer). The file is written once the game is over, or when the table stops."""
    path = tmp_path / "game.json"
    t = Table(load("american_page_one", {}), ["human", "human", "random", "random"], 5, 0, str(path))
    p = t.st.to_move()[0]
    t.act(p, t.st.legal_actions(p)[0].id, 0)
    assert not path.exists(), "nobody at the table may read the seed from the file mid-game"
    t.close()
    assert json.loads(path.read_text(encoding="utf-8"))["actions"] == [list(a) for a in t.actions]
    path.unlink()
    t = Table(load("american_page_one", {}), ["human", "human", "random", "random"], 5, 0, str(path))
    while not t.st.over:
        p = t.st.to_move()[0]
        t.act(p, t.st.legal_actions(p)[0].id, 0)
    assert json.loads(path.read_text(encoding="utf-8"))["seed"] == 5
    t.new_game()
    assert not (tmp_path / "game-2.json").exists()
    assert t.log_file() == tmp_path / "game-2.json"     # what `fuda serve` names when it stops (qa10 P5)


# ---------------------------------------------------------------------- a real server
@pytest.fixture
def server() -> Iterator[TableServer]:
    t = table(background=True)
    t.start_bots()
    srv = make_server(t, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        t.close()
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def call(srv: TableServer, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    url = f"http://127.0.0.1:{srv.server_address[1]}{path}"
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"},
                                 method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode("utf-8")
            return r.status, json.loads(text) if r.headers.get_content_type() == "application/json" else text
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode("utf-8"))


def _tokens(data: Any) -> set[str]:
    return set(re.findall(r"[^\s\"\[\]{},:()|]+", json.dumps(data, ensure_ascii=False)))


def _at(srv: TableServer, answer: dict[str, Any]) -> State:
    """The state an answer was made from: the game replayed through the moves it had seen (the bots
    move on their own thread, so the table may have moved on since)."""
    t = srv.table
    with t.lock:
        return rebuilt(t.game, t.seed, t.actions[:answer["moves"]])


def _hidden_from(st: State, seat: int) -> set[str]:
    """The cards in other players' zones (those named [Pn]) that ``seat``'s view does not show, as
    the full state knows them."""
    game = st.game
    v = observe.view(st, seat)
    out = set()
    for slot in range(game.static_slots):
        name = game.zone_name(st, slot)
        if f"[P{seat}]" in name or not re.search(r"\[P\d+\]", name):
            continue
        for c, shown in zip(st.z[slot], v["zones"][name]["cards"], strict=True):
            if shown is None:
                out.add(game.card_names[c])
    return out


def _check_hidden(srv: TableServer, answer: dict[str, Any], seat: int = 0) -> None:
    """The answer for ``seat`` is that seat's view, and names no card the view (with its whole log)
    does not name: no card of another player's hand that the seat may not see."""
    st = _at(srv, answer)
    full = observe.view(st, seat)
    assert answer["view"]["zones"] == json.loads(json.dumps(observe.view(st, seat, log_tail=LOG_TAIL)["zones"]))
    leaked = (_tokens(answer) - _tokens(full)) & _hidden_from(st, seat)
    assert not leaked, f"P{seat} was sent hidden cards {leaked}"
    for name, z in answer["view"]["zones"].items():
        if re.search(r"\[P\d+\]", name) and f"[P{seat}]" not in name:
            assert z["cards"] == full["zones"][name]["cards"]


def test_a_game_through_the_server_to_its_end_with_hidden_information_kept(server, tmp_path):
    status, d = call(server, "/api/state?seat=0&wait=30")
    assert status == 200 and d["seat"] == 0 and not d["thinking"]
    _check_hidden(server, d)
    assert _hidden_from(_at(server, d), 0), "the others' hands are hidden from P0"
    moves = 0
    while not d["view"]["over"]:
        status, answer = call(server, "/api/act", {"seat": 0, "action": d["actions"][0]["id"]})
        assert status == 200, answer
        _check_hidden(server, answer)
        status, d = call(server, "/api/state?seat=0&lang=ja&wait=30")      # once the bots have moved
        assert status == 200 and d["game"]["lang"] == "ja" and not d["thinking"]
        _check_hidden(server, d)
        moves += 1
        assert moves < 500
    assert d["view"]["result"]
    # the log downloaded replays to the same result
    status, log = call(server, "/api/log")
    assert status == 200 and log["format"] == "fuda-log/1" and log["seats"] == SEATS
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    st = replay(read_log(str(path)), str(path))
    assert st.over and st.game.result(st) == d["view"]["result"]
    assert main(["replay", str(path)]) == 0


def test_the_server_refuses_bad_requests_with_json(server):
    status, d = call(server, "/api/act", {"seat": 0, "action": "play nothing"})
    assert status == 400 and "not legal" in d["error"] and d["legal"]
    assert d["legal"] == [a.id for a in server.table.game.legal_actions(server.table.st, 0)]
    for body, word in [({"seat": 9, "action": "draw"}, "unknown seat"), ({"seat": 1, "action": "draw"}, "bot"),
                       ({"action": "draw"}, "name the seat"), ({"seat": 0}, "name the action")]:
        status, d = call(server, "/api/act", body)
        assert status == 400 and word in d["error"], (body, d)
    status, d = call(server, "/api/act", raw=b"{not json")
    assert status == 400 and "malformed JSON" in d["error"]
    status, d = call(server, "/api/act", raw=b"[1, 2]")
    assert status == 400 and "JSON object" in d["error"]
    status, d = call(server, "/api/state?seat=x")
    assert status == 400 and "unknown seat" in d["error"]
    status, d = call(server, "/api/state?lang=fr")
    assert status == 400
    status, d = call(server, "/api/state?wait=soon")
    assert status == 400 and "seconds" in d["error"]
    status, d = call(server, "/api/nothing")
    assert status == 404 and "error" in d
    status, d = call(server, "/api/state", {"seat": 0})
    assert status == 405


def test_undo_and_new_game_through_the_server(server):
    status, d = call(server, "/api/undo", {"seat": 0})
    assert status == 400 and d["error"].startswith("nothing to undo")
    _, d = call(server, "/api/state?seat=0&wait=30")
    while len(d["actions"]) < 2:
        call(server, "/api/act", {"seat": 0, "action": d["actions"][0]["id"]})
        _, d = call(server, "/api/state?seat=0&wait=30")
    before = d
    call(server, "/api/act", {"seat": 0, "action": d["actions"][-1]["id"]})
    _, d = call(server, "/api/state?seat=0&wait=30")
    assert d["can_undo"]
    status, d = call(server, "/api/undo", {"seat": 0})
    assert status == 200 and d["undone"] >= 1 and d["view"]["zones"] == before["view"]["zones"]
    status, d = call(server, "/api/new", {"seat": 0})
    assert status == 200 and d["game"]["number"] == 2 and d["game"]["seed"] == 4
    status, v = call(server, "/api/version")
    assert v["version"] >= d["version"]      # the bots may have moved since


def test_the_page_is_served(server):
    status, text = call(server, "/")
    assert status == 200 and "table.js" in text and "table.css" in text
    for name in ("/table.js", "/table.css"):
        status, text = call(server, name)
        assert status == 200 and text == (WEB / name[1:]).read_text(encoding="utf-8")


def test_the_page_parses():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    subprocess.run([node, "--check", str(WEB / "table.js")], check=True, capture_output=True)


def test_fuda_serve_help(capsys):
    with pytest.raises(SystemExit) as e:
        main(["serve", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--seat", "--seed", "--port", "--host", "--options", "--set", "--players", "--lang", "--log",
                 "--no-browser"):
        assert flag in out


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_qa8_fuda_serve_refuses_a_port_out_of_range(capsys, port):
    """QA8 B-serve-port: --port 70000 was an internal error (the socket library's OverflowError)."""
    with pytest.raises(SystemExit) as e:
        main(["serve", "american_page_one", "--no-browser", "--port", port])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "is not a port (a whole number from 0 to 65535)" in err and "internal error" not in err


def test_fuda_serve_refuses_a_seat_that_is_no_bot(capsys):
    assert main(["serve", "american_page_one", "--seat", "human", "--seat", "wizard", "--no-browser",
                 "--port", "0"]) == 1
    assert "wizard" in capsys.readouterr().err


def test_fuda_serve_serves_until_ctrl_c(tmp_path):
    log = tmp_path / "g.json"
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.runner.cli", "serve", "american_page_one",
                             "--seat", "human", "--seat", "persona:miles", "--seed", "2", "--port", "0",
                             "--no-browser", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        url = None
        for _ in range(5):
            line = proc.stdout.readline()
            m = re.search(r"http://\S+", line)
            if m:
                url = m.group(0)
                break
        assert url, "the URL is printed"
        with urllib.request.urlopen(url + "api/state", timeout=30) as r:
            d = json.loads(r.read())
        assert d["seat"] == 0 and d["seats"][1]["kind"] == "persona:miles"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "stopped" in out
    assert json.loads(log.read_text(encoding="utf-8"))["seed"] == 2


CLICKS = r"""
const vm = require("vm"), fs = require("fs");
const ctx = vm.createContext({ console });
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), ctx);
const out = vm.runInContext(`
  const sent = [];
  post = (path, body) => { sent.push(body.action); };
  draw = () => {};
  ui.data = { actions: [
    { id: "move ♠Q (3,0)", cards: ["♠Q"] }, { id: "move ♠Q (1,0)", cards: ["♠Q"] },
    { id: "play ♥7", cards: ["♥7"] }, { id: "play ♥8", cards: ["♥8"] }, { id: "discard ♥8", cards: ["♥8"] },
    { id: "give ♠A ♣2", cards: ["♠A", "♣2"] }, { id: "give ♠A ♣3", cards: ["♠A", "♣3"] },
    { id: "join ♠5 0", cards: ["♠5"] }, { id: "take hand[P1][2]", cards: [] } ] };
  const steps = [];
  pick("♥7"); steps.push([sent.slice(), ui.selected.slice()]);                    // the only action it makes
  pick("♥8"); steps.push([sent.slice(), ui.selected.slice()]);                    // two: lit, not taken
  steps.push([candidates(ui.selected).map((a) => a.id)]);
  pick("♠Q"); steps.push([sent.slice(), ui.selected.slice(), [...targets()]]);    // starts over with ♠Q
  pick("(3,0)"); steps.push([sent.slice(), ui.selected.slice()]);                 // completes the move
  pick("♠A"); pick("♣3"); steps.push([sent.slice()]);                             // two cards, in any order
  pick("♠5"); steps.push([sent.slice(), ui.selected.slice()]);                    // an argument that is no card: lit
  pick("hand[P1][2]"); steps.push([sent.slice()]);                                // a face-down card, by its place
  JSON.stringify(steps);
`, ctx);
console.log(out);
"""


def test_a_click_on_a_card_takes_the_one_action_it_makes_or_lights_them(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "clicks.js"
    script.write_text(CLICKS, encoding="utf-8")
    out = subprocess.run([node, str(script), str(WEB / "table.js")], check=True, capture_output=True, text=True)
    steps = json.loads(out.stdout)
    assert steps[0] == [["play ♥7"], []]
    assert steps[1] == [["play ♥7"], ["♥8"]]
    assert steps[2] == [["play ♥8", "discard ♥8"]]
    assert steps[3] == [["play ♥7"], ["♠Q"], ["(3,0)", "(1,0)"]]
    assert steps[4] == [["play ♥7", "move ♠Q (3,0)"], []]
    assert steps[5] == [["play ♥7", "move ♠Q (3,0)", "give ♠A ♣3"]]
    assert steps[6] == [["play ♥7", "move ♠Q (3,0)", "give ♠A ♣3"], ["♠5"]]
    assert steps[7] == [["play ♥7", "move ♠Q (3,0)", "give ♠A ♣3", "take hand[P1][2]"]]


def test_the_log_is_kept_from_a_table_of_several_humans_until_the_game_is_over():
    """QA: the log names every secret choice and the seed that dealt every hand; any browser at a
    table of several humans could read the others' hands from it mid-game."""
    from interpreter.runner.table import TableError

    t = table(["human", "human", "random", "random"])
    with pytest.raises(TableError) as e:
        t.log()
    assert e.value.status == 403 and "once the game is over" in e.value.message
    # nor the seed in any seat's or a spectator's state (QA: `fuda replay RULESET --seed S` shows every hand)
    assert {t.state(seat)["game"]["seed"] for seat in (0, 1, None)} == {None}
    while not t.st.over:
        p = t.st.to_move()[0]
        t.act(p, t.st.legal_actions(p)[0].id, 0)
    assert t.log()["format"] == "fuda-log/1"
    assert t.state(0)["game"]["seed"] == 3
    assert table(["human", "random", "random", "random"]).state(0)["game"]["seed"] == 3
    assert table(["human", "random", "random", "random"]).log()["actions"] == []    # one human: as fuda play --log


def test_a_negative_content_length_or_json_nested_too_deep_is_a_400(server):
    """QA: both were a 500 "internal error"."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    conn.putrequest("POST", "/api/act")
    conn.putheader("Content-Length", "-5")
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 400 and "Content-Length" in json.loads(r.read())["error"]
    conn.close()
    status, d = call(server, "/api/act", raw=b"[" * 20_000 + b"]" * 20_000)
    assert status == 400 and "nested too deeply" in d["error"]


def test_other_methods_get_the_json_refusal_and_head_the_headers(server):
    """QA: PUT, PATCH, DELETE got the HTTP server's own HTML 501 page. The refusal is JSON like every
    other (405 on a path of the API or a page, 404 elsewhere), and a body sent along is read, so the
    same connection answers the next request. HEAD gets a GET's headers without its body."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    for method, path, status in [("PUT", "/api/act", 405), ("PATCH", "/api/state", 405),
                                 ("DELETE", "/", 405), ("OPTIONS", "/api/nothing", 404)]:
        conn.request(method, path, body=b"not json at all", headers={"Content-Type": "text/plain"})
        r = conn.getresponse()
        assert r.status == status and r.headers.get_content_type() == "application/json", (method, path)
        assert method in json.loads(r.read())["error"] or status == 404
    conn.request("HEAD", "/api/state?seat=0")
    r = conn.getresponse()
    assert r.status == 200 and int(r.headers["Content-Length"]) > 0 and r.read() == b""
    conn.request("GET", "/api/version")
    r = conn.getresponse()
    assert r.status == 200 and "version" in json.loads(r.read())
    conn.close()


TOLD = r"""
const vm = require("vm"), fs = require("fs");
const ctx = vm.createContext({ console });
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), ctx);
console.log(vm.runInContext(`JSON.stringify([
  { kind: "move", text: "♥Q: Pond → Hand[P0]", drawn: true },
  { kind: "move", text: "♣Q: Passed[P3] → Hand[P0]", handed_to: 0 },
  { kind: "move", text: "♥J: Discard → Hand[P1]", seen_into: 1 },
  { kind: "move", text: "a card: Pond → Hand[P1]" },
  { kind: "log", text: "Go fish!" }, { kind: "log", text: "quiet", quiet: true }, { kind: "turn", text: "turn" },
].filter((e) => told(e, { viewer: 0 })).map((e) => e.text))`, ctx));
"""


def test_the_events_list_tells_a_card_drawn_unseen_into_the_viewers_hand(tmp_path):
    """qa36b: `fuda play` tells the card fished from the pond (newcomer55 P10); the browser's events
    left every move out unless "card moves" was ticked, so the card was unsaid there."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "told.js"
    script.write_text(TOLD, encoding="utf-8")
    out = subprocess.run([node, str(script), str(WEB / "table.js")], check=True, capture_output=True, text=True)
    assert json.loads(out.stdout) == ["♥Q: Pond → Hand[P0]", "♣Q: Passed[P3] → Hand[P0]",
                                      "♥J: Discard → Hand[P1]", "Go fish!"]
