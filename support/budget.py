"""The budget's run: live tables' polls while two clients loop the most expensive requests
there are (used by ``tests/deploy/test_budget.py`` and ``benchmarks/budget.py``).

The target (a benchmark's, not a test's: speed targets live in benchmarks): 20 live
tables keep their polls' p95 under 100 ms.

gunicorn as deployed (``support/servers.py``, 2 workers) on 127.0.0.1 with a SQLite
database holding 20 live tables, whose phones (``support/locustfile.py``, 4 a table) poll
every 2 s and tap every 5 s, and the largest table the caps allow (``support/heavy.py``:
every game it may hold, the last with the most changes a play keeps). Two clients loop,
each as fast as the server answers, every kind of expensive request:

- anonymous: the home page, and a new table posted with the largest form allowed (one
  field short of ``MAX_FORM_PARTS``);
- read-only link: the capped table's page, its longest play's history, its JSON and CSV
  exports;
- edit link: the longest play's page and history, a tap at the capped table (so the next
  export is built again), and the table's export.

Imports run from the command line only (``flask --app companion import``): no HTTP route
reaches them. The rate limits are raised so that every request does its work.

Bounded: locust runs ``SECONDS`` (its phones join during the first seconds; the figures
count from when all have joined), every request has a timeout, gunicorn is always stopped.
"""

from __future__ import annotations

import http.cookiejar
import math
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from companion import create_app
from companion.extensions import db
from support import heavy, load
from support.servers import app_env, free_port, gunicorn

LIVE_TABLES = 20
SECONDS = 8
#: Phones joining a second: all 80 within 2 s, then 6 s of figures.
SPAWN_RATE = 40
#: The budget's target for the live tables' polls.
POLL_P95_MS = 100.0
REQUEST_TIMEOUT = 30.0
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
MAX_FORM_PARTS = 500


@dataclass(frozen=True)
class Request:
    """One expensive request and the answer it must get."""

    kind: str
    path: str
    status: int
    form: dict[str, str] | None = None


def expensive_requests(table: heavy.HeavyTable) -> list[Request]:
    """Every kind of expensive request, in the order a client loops them."""
    edit, view = f"/t/{table.edit}", f"/t/{table.view}"
    longest = f"/plays/{table.longest_play}"
    largest_form = {f"players-{n}": "" for n in range(MAX_FORM_PARTS - 2)}
    return [
        Request("anonymous: home page", "/", 200),
        Request("anonymous: largest form", "/tables", 422, largest_form),
        Request("read-only: capped table page", view, 200),
        Request("read-only: longest history", f"{view}{longest}/history", 200),
        Request("read-only: export.json", f"{view}/export.json", 200),
        Request("read-only: export.csv", f"{view}/export.csv", 200),
        Request("editing: longest play page", f"{edit}{longest}", 200),
        Request("editing: longest history", f"{edit}{longest}/history", 200),
        Request(
            "editing: tap at the capped table",
            f"{edit}/plays/{table.short_play}/edit",
            200,
            {"path": "players[0].display.hoopoe"},
        ),
        Request("editing: export.json", f"{edit}/export.json", 200),
    ]


class Client(threading.Thread):
    """Loops the requests until told to stop; counts the answers per request."""

    def __init__(self, base: str, requests: list[Request], stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.requests = requests
        self.stop = stop
        self.answers: Counter[tuple[str, int]] = Counter()
        self.slowest: dict[str, float] = {}
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.token = ""
        self.taps = 0

    def run(self) -> None:
        self.token = CSRF.findall(self.fetch("/", None)[1])[0]
        while not self.stop.is_set():
            for request in self.requests:
                if self.stop.is_set():
                    return
                began = time.perf_counter()
                status, _ = self.fetch(request.path, self.form_of(request))
                took = time.perf_counter() - began
                self.answers[(request.kind, status)] += 1
                self.slowest[request.kind] = max(self.slowest.get(request.kind, 0.0), took)

    def form_of(self, request: Request) -> dict[str, str] | None:
        if request.form is None:
            return None
        form = {**request.form, "csrf_token": self.token}
        if "path" in form:
            self.taps += 1
            form["value"] = str(self.taps % 8 + 1)
        return form

    def fetch(self, path: str, form: dict[str, str] | None) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        headers = {"HX-Request": "true"} if form is not None else {}
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=REQUEST_TIMEOUT) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def prepare_heavy(database_url: str, folder: Path) -> heavy.HeavyTable:
    app = create_app(
        {"INSTANCE_PATH": str(folder), "SECRET_KEY": load.SECRET, "DATABASE_URL": database_url}
    )
    with app.app_context(), app.test_request_context():
        table = heavy.capped_table()
        db.engine.dispose()
    return table


@dataclass(frozen=True)
class Outcome:
    """What a run saw: answers by (kind, status), the phones' failures, the polls' p95 and
    the slowest answer of each kind of expensive request (ms)."""

    answers: Counter[tuple[str, int]]
    requests: list[Request]
    phone_failures: int
    failure_kinds: object
    poll_p95_ms: float
    slowest_ms: dict[str, int]

    def problems(self) -> list[str]:
        """Every answer that was wrong: an expected status never seen, any 5xx, a phone's
        failed request."""
        wrong = [
            f"{request.kind}: never answered {request.status}"
            for request in self.requests
            if self.answers[(request.kind, request.status)] == 0
        ]
        wrong += [
            f"{kind}: {status} x{n}" for (kind, status), n in self.answers.items() if status >= 500
        ]
        if self.phone_failures:
            wrong.append(f"phones: {self.phone_failures} failures {self.failure_kinds}")
        return wrong


def run(folder: Path, live_tables: int = LIVE_TABLES, seconds: int = SECONDS) -> Outcome:
    """Serve ``live_tables`` live tables and the capped table with gunicorn on 127.0.0.1
    while two clients loop the expensive requests for ``seconds``; what was seen."""
    url = f"sqlite:///{folder / 'companion.sqlite'}"
    tables_file = load.prepare(url, folder, live_tables)
    table = prepare_heavy(url, folder)
    port = free_port()
    unlimited = "100000 per hour"
    env = app_env(url, load.SECRET, RATE_LIMIT_EXPORTS=unlimited, RATE_LIMIT_TABLES=unlimited)
    stop = threading.Event()
    requests = expensive_requests(table)
    with gunicorn(port, env, folder / "gunicorn.log"):
        clients = [Client(f"http://127.0.0.1:{port}", requests, stop) for _ in range(2)]
        for client in clients:
            client.start()
        phones = load.run_locust(
            folder, tables_file, port, live_tables * load.PHONES_PER_TABLE, seconds, SPAWN_RATE
        )
        try:
            phones.wait(timeout=seconds + 60)
        finally:
            stop.set()
            for client in clients:
                client.join(REQUEST_TIMEOUT + 5)
    _, failures, _ = load.locust_totals(folder)
    return Outcome(
        answers=sum((client.answers for client in clients), Counter()),
        requests=requests,
        phone_failures=failures,
        failure_kinds=load.failure_kinds(folder) if failures else {},
        # No poll answered at all (every phone failed to open its play) is the worst case.
        poll_p95_ms=load.p95_by_request(folder).get("poll", math.inf),
        slowest_ms={
            r.kind: round(max(c.slowest.get(r.kind, 0) for c in clients) * 1000) for r in requests
        },
    )
