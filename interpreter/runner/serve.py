"""``fuda serve``: a game at a table in the web browser. Standard library only: a threading HTTP
server with a small JSON API over a :class:`~.table.Table`, and one static page (``web/``) that
draws any view.

API (docs/cli.md): ``GET /api/state?seat=N&lang=en|ja``, ``GET /api/version``, ``GET /api/log``,
``POST /api/act`` ``{"seat": N, "action": ID}``, ``POST /api/undo`` ``{"seat": N}``, ``POST /api/new``.
Every error is JSON ``{"error": …}`` with a 4xx or 5xx status, never a traceback.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..errors import FudaError
from .table import Table, TableError

DEFAULT_PORT = 8765         # used when free; else any free port
MAX_BODY = 64 * 1024
MAX_WAIT = 60.0             # seconds a GET /api/state?wait=… may wait for the bots
STATIC = {"/": ("index.html", "text/html"), "/index.html": ("index.html", "text/html"),
          "/table.css": ("table.css", "text/css"), "/table.js": ("table.js", "text/javascript")}


def page(name: str) -> bytes:
    """A file of the page, shipped as package data."""
    return (resources.files("interpreter.runner") / "web" / name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    server: TableServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:       # quiet: the terminal shows the URL only
        if os.environ.get("FUDA_DEBUG"):
            super().log_message(format, *args)

    # ------------------------------------------------------------------ routing
    def _handle(self) -> None:
        self._answer(self.command)

    # every method gets JSON: the page and API by GET, POST (HEAD: a GET's headers); any other, the
    # JSON refusal (405 on a path of the API), not the HTTP server's own HTML page
    do_GET = do_POST = do_HEAD = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _handle

    def _answer(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            body = self._body() if method == "POST" else {}
            if method not in ("GET", "HEAD", "POST"):
                self._read()        # read, so that the connection stays in step for the next request
            if method in ("GET", "HEAD") and url.path in STATIC:
                name, kind = STATIC[url.path]
                self._send(200, page(name), f"{kind}; charset=utf-8")
                return
            route = ROUTES.get(("GET" if method == "HEAD" else method, url.path))
            if route is None:
                if url.path in STATIC or any(path == url.path for _, path in ROUTES):
                    raise TableError(405, f"{url.path} does not take {method}")
                raise TableError(404, f"no such page or API: {url.path}")
            status, answer, extra = route(self.server.table, query, body)
            self._json(status, answer, extra)
        except TableError as e:
            self._json(e.status, e.as_json())
        except FudaError as e:      # a rule that failed while the game moved on
            self._json(500, {"error": f"a rule failed: {e.first.message}", "detail": e.format()})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:      # a bug in fuda: said as JSON, never a traceback to the page
            self._json(500, {"error": f"internal error: {type(e).__name__}: {e}"})

    def _body(self) -> dict[str, Any]:
        raw = self._read()
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise TableError(400, f"malformed JSON: {e}") from None
        except RecursionError:
            raise TableError(400, "malformed JSON: nested too deeply") from None
        if not isinstance(data, dict):
            raise TableError(400, "the request body is a JSON object: {\"seat\": N, …}")
        return data

    def _read(self) -> bytes:
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise TableError(400, "a bad Content-Length") from None
        if n < 0:
            raise TableError(400, "a bad Content-Length (negative)")
        if n > MAX_BODY:
            raise TableError(413, f"a request body of more than {MAX_BODY} bytes")
        return self.rfile.read(n) if n else b""

    def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8",
                   headers)

    def _send(self, status: int, body: bytes, kind: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


# ---------------------------------------------------------------------- the API
Answer = tuple[int, Any, dict[str, str] | None]


def _lang(table: Table, query: dict[str, str]) -> int | None:
    lang = query.get("lang")
    if lang in (None, ""):
        return None
    if lang not in ("en", "ja"):
        raise TableError(400, f"lang is en or ja, not {lang!r}")
    return 1 if lang == "ja" else 0


def api_state(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    seat = table.seat(query["seat"]) if "seat" in query else table.default_seat()
    if "wait" in query:         # until no bot is to move (at most this many seconds)
        try:
            wait = min(max(float(query["wait"] or 0), 0.0), MAX_WAIT)
        except ValueError:
            raise TableError(400, f"wait is a number of seconds, not {query['wait']!r}") from None
        table.settle(wait)
    return 200, table.state(seat, _lang(table, query)), None


def api_version(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    return 200, {"version": table.version}, None


def api_log(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    log = table.log()
    name = f"{table.game.name}-{table.seed}.json"
    return 200, log, {"Content-Disposition": f'attachment; filename="{name}"'} if "download" in query else None


def api_act(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    seat = table.seat(body.get("seat"), acting=True)
    assert seat is not None
    return 200, table.act(seat, body.get("action"), _lang(table, body)), None


def api_undo(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    seat = table.seat(body.get("seat"), acting=True)
    assert seat is not None
    return 200, table.undo(seat, _lang(table, body)), None


def api_new(table: Table, query: dict[str, str], body: dict[str, Any]) -> Answer:
    table.new_game()
    seat = table.seat(body["seat"]) if body.get("seat") not in (None, "") else table.default_seat()
    return 200, table.state(seat, _lang(table, body)), None


ROUTES = {("GET", "/api/state"): api_state, ("GET", "/api/version"): api_version, ("GET", "/api/log"): api_log,
          ("POST", "/api/act"): api_act, ("POST", "/api/undo"): api_undo, ("POST", "/api/new"): api_new}


# ---------------------------------------------------------------------- the server
class TableServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], table: Table) -> None:
        self.table = table
        super().__init__(address, Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[0], self.server_address[1]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(name, f"[{name}]" if ":" in name else name)
        return f"http://{shown}:{port}/"


class TableServer6(TableServer):
    address_family = socket.AF_INET6


def make_server(table: Table, host: str = "127.0.0.1", port: int | None = None) -> TableServer:
    """A server for ``table``: on ``port``; without one, on 8765 when it is free, else on any free port."""
    kind = TableServer6 if ":" in host else TableServer        # an IPv6 address: ::1, ::
    if port is not None:
        return kind((host, port), table)
    try:
        return kind((host, DEFAULT_PORT), table)
    except OSError:
        return kind((host, 0), table)


def can_open_browser() -> bool:
    """A browser can be started: a desktop session (or $BROWSER) — never a text browser in this terminal."""
    if os.environ.get("BROWSER"):
        return True
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(table: Table, host: str = "127.0.0.1", port: int | None = None, browser: bool = True) -> None:
    """Serve the table until Ctrl-C (or a kill), then stop cleanly; the URL is printed first."""
    server = make_server(table, host, port)
    print(f"{table.game.title_in(table.lang)}: {server.url}  (Ctrl-C stops)", flush=True)
    if browser and can_open_browser():
        webbrowser.open(server.url)
    if table.background:
        table.start_bots()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
        server.server_close()
    print("stopped" + (f"; the game log is in {table.log_file()}" if table.log_path else ""), flush=True)
