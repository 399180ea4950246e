"""The table page's cost in process, on a table like a real evening's (a benchmark).

A group's table of four players that played every game (one of each, finished), a
finished three-game Odd World series, two more finished Odd World games and one still
being played: every section of the page has something to show. The request is the one a
phone on that page sends (htmx's header and its session cookie), built once with
werkzeug's ``EnvironBuilder`` and answered by calling the WSGI app directly, so the
figure is the app's own work and nothing else. Prints the best of several runs (the
least disturbed by other processes), in CPU time and by the clock, and the SQL
statements one request runs.

With ``--draw`` every request draws the page anew (no markup kept: what the first
request after a change costs; the games' results stay kept, as they are after a change
of one game); ``--cold`` keeps no result either (a worker's first drawing).
``--capped`` measures the largest table the caps allow instead (``support/heavy.py``:
200 games, the last with 500 changes), ``--series`` with its games played as 66
three-game series; ``--history`` measures the history page of its longest game, ``--tap``
a tap in another of its unfinished games (the budget's "tap at the capped table").
``--profile`` profiles instead of timing, ``--sql`` lists the statements.

Run: .venv/bin/python benchmarks/table_page.py [--capped [--series] [--history|--tap]]
     [--draw] [--cold] [--profile] [--sql]
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from sqlalchemy import event, select, update  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Play, Series  # noqa: E402
from companion.services import groups, tables  # noqa: E402
from companion.web import table_pages  # noqa: E402
from companion.web.cache import Cache  # noqa: E402
from support import heavy  # noqa: E402
from support.client import HTMX, csrf, edit, start_play  # noqa: E402
from support.every_game import STARTERS  # noqa: E402
from support.groups import create_group, start_group_table  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
HOST = "bench.test"
REPEATS = 7
CALLS = 200
#: The field ``--tap`` taps (Ann's hoopoes, in an unfinished Odd World game).
TAPPED = "players[0].display.hoopoe"
#: Requests per run at the capped table (each is many times the evening's).
CAPPED_CALLS = 20


def finish(client: FlaskClient, token: str, play_id: int) -> None:
    """Finish a play as its page's button does (confirmed)."""
    data = {"csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    response = client.post(f"/t/{token}/plays/{play_id}/finish", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)


def busy_table(app: Flask, client: FlaskClient) -> str:
    """The evening described above; returns the table's edit token."""
    links = create_group(client, "Thursdays", PLAYERS)
    with app.app_context(), app.test_request_context():
        found = groups.find(links.edit)
        assert found is not None
        ids = [p.id for p in found.group.players]
    token = start_group_table(client, links.edit, ids)
    for start in STARTERS.values():
        finish(client, token, start(client, token))
    series = start_play(client, token, series=True)
    for game in range(3):
        edit(client, token, series, path="players[0].display.hoopoe", value=str(game + 2))
        finish(client, token, series)
        if game < 2:
            following = client.post(
                f"/t/{token}/plays/{series}/next", data={"csrf_token": csrf(client)}
            )
            assert following.status_code == 303, following.get_data(as_text=True)
            series = int(following.headers["Location"].split("/plays/")[1].split("?")[0])
    for score in (3, 5):
        single = start_play(client, token)
        edit(client, token, single, path=f"players[{score % 4}].display.shoebill", value="2")
        finish(client, token, single)
    start_play(client, token)
    return token


def phone_environ(
    client: FlaskClient, path: str, form: dict[str, str] | None = None
) -> dict[str, Any]:
    """The WSGI environ of the phone's request (a post when ``form`` is given): htmx's
    header and its session cookie."""
    cookie = client.get_cookie("session", domain=HOST)
    assert cookie is not None
    headers = {**HTMX, "Cookie": f"session={cookie.value}"}
    built = EnvironBuilder(
        path=path,
        base_url=f"http://{HOST}",
        headers=headers,
        method="GET" if form is None else "POST",
        data=form,
    )
    return built.get_environ()


def tapper(app: Flask, client: FlaskClient, path: str) -> Callable[[], bytes]:
    """A stepper tap posted as the phone does it (its CSRF token and session cookie), each
    to another value so that each one changes the play."""
    token = csrf(client, path.split("/plays/")[0])
    taps = iter(range(1, 10**9))

    def environ() -> dict[str, Any]:
        form = {"csrf_token": token, "path": TAPPED, "value": str(next(taps) % 8 + 1)}
        return phone_environ(client, path, form)

    def call() -> bytes:
        return caller(app, environ())()

    return call


def caller(app: Flask, environ: dict[str, Any]) -> Callable[[], bytes]:
    """One request through the WSGI app, its body read to the end."""
    statuses: list[str] = []

    def start_response(status: str, _headers: Any, _exc_info: Any = None) -> None:
        statuses.append(status)

    def call() -> bytes:
        body = b"".join(app(dict(environ), start_response))
        assert statuses[-1].startswith("200"), statuses[-1]
        return body

    return call


@contextmanager
def counted_statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement run inside the block."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def best_ms(call: Callable[[], bytes], calls: int = CALLS) -> tuple[float, float]:
    """Milliseconds per request, the best of several runs of many requests: of this
    process's CPU time (its own work: on a shared machine the clock also counts the time
    other processes held the cores), and of the clock."""
    cpu, clock = [], []
    for _ in range(REPEATS):
        started, began = time.process_time(), time.perf_counter()
        for _ in range(calls):
            call()
        cpu.append((time.process_time() - started) / calls * 1000)
        clock.append((time.perf_counter() - began) / calls * 1000)
    return min(cpu), min(clock)


def capped_table(app: Flask, client: FlaskClient) -> heavy.HeavyTable:
    """The largest table the caps allow (its games in series with ``--series``)."""
    with app.app_context(), app.test_request_context():
        table = heavy.capped_table()
        if "--series" in sys.argv:
            in_series(table.edit)
    client.get(f"/t/{table.edit}")  # the phone's session
    return table


def in_series(token: str) -> None:
    """Link the table's games, three by three, into Odd World series (inside an app
    context)."""
    found = tables.find(token)
    assert found is not None
    ids = db.session.scalars(
        select(Play.id).where(Play.table_id == found.table.id).order_by(Play.id)
    ).all()
    length = 3
    for start in range(0, len(ids) - len(ids) % length, length):
        series = Series(table_id=found.table.id, game="odd-world", length=length)
        db.session.add(series)
        db.session.flush()
        db.session.execute(
            update(Play)
            .where(Play.id.in_(ids[start : start + length]))
            .values(series_id=series.id, series_index=Play.id - ids[start])
        )
    db.session.commit()


def main() -> None:
    """Print the page's cost, and the statements it runs."""
    folder = Path(tempfile.mkdtemp(prefix="table-page-"))
    settings = {"INSTANCE_PATH": str(folder), "SECRET_KEY": "bench", "SERVER_NAME": HOST}
    app = create_app({**settings, "RATELIMIT_ENABLED": False})
    client = app.test_client()
    capped = capped_table(app, client) if "--capped" in sys.argv else None
    token = capped.edit if capped else busy_table(app, client)
    if "--draw" in sys.argv or "--cold" in sys.argv:
        app.extensions[table_pages.CACHE_KEY] = Cache(1, max_size=0)  # keeps nothing
    if "--cold" in sys.argv:
        app.extensions[table_pages.RESULTS_KEY] = Cache(1, max_size=0)
    name, path = "table page", f"/t/{token}"
    if capped and "--history" in sys.argv:
        name, path = "history page", f"/t/{token}/plays/{capped.longest_play}/history"
    page = caller(app, phone_environ(client, path))
    if capped and "--tap" in sys.argv:
        name, page = "tap", tapper(app, client, f"/t/{token}/plays/{capped.short_play}/edit")
    body = page()
    with counted_statements(app) as statements:
        page()
    print(f"{name}: {len(body)} bytes, {len(statements)} SQL statements", flush=True)
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.runcall(lambda: [page() for _ in range(CALLS)])
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        return
    if "--sql" in sys.argv:
        print("\n".join(statements))
    kept = "kept markup"
    if "--draw" in sys.argv or "--cold" in sys.argv:
        kept = "drawn every time" + (", nothing kept" if "--cold" in sys.argv else "")
    calls = CAPPED_CALLS if "--capped" in sys.argv else CALLS
    cpu, clock = best_ms(page, calls)
    print(f"{name} ({kept}), in process: {cpu:.3f} ms CPU ({clock:.3f} ms clock)", flush=True)


if __name__ == "__main__":
    main()
