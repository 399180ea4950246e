"""Exports cost a table's other phones nothing: a repeated export of an unchanged table or
group is served from what was built (any change builds it again), exports are rate-limited
per network, and they take turns beside the one-request-at-a-time gate, not in it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import transfer
from companion.web import gate
from support.client import create_table, csrf, edit, start_play
from support.groups import create_group

TOO_MANY = 429


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(transfer, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(transfer, name, counted)
    return calls


def test_a_repeated_table_export_is_built_once_per_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    built = _counting(monkeypatch, "export_table")
    first = client.get(f"/t/{links.edit}/export.json")
    again = client.get(f"/t/{links.view}/export.json")  # the read-only link: the same file
    assert again.data == first.data
    assert len(built) == 1
    edit(client, links.edit, play, path="players[0].display.hoopoe", value="2")
    changed = client.get(f"/t/{links.edit}/export.json")
    assert len(built) == 2
    assert changed.data != first.data
    assert b'"hoopoe": 2' in changed.data
    assert client.get(f"/t/{links.edit}/export.csv").status_code == 200
    assert len(built) == 3  # CSV is its own file


def test_a_repeated_group_export_is_built_once_per_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_group(client, "Fridays", ["Ann", "Ben"])
    built = _counting(monkeypatch, "export_group")
    first = client.get(f"/g/{links.edit}/export.json")
    assert client.get(f"/g/{links.view}/export.json").data == first.data
    assert len(built) == 1
    add = {"action": "add", "name": "Cy", "csrf_token": csrf(client, f"/g/{links.edit}")}
    assert client.post(f"/g/{links.edit}/players", data=add).status_code == 303
    assert b'"Cy"' in client.get(f"/g/{links.edit}/export.json").data
    assert len(built) == 2


def test_exports_are_rate_limited_per_network(app: Flask, client: FlaskClient) -> None:
    app.config["RATE_LIMIT_EXPORTS"] = "3 per hour"
    links = create_table(client, ["Ann", "Ben"])
    urls = [f"/t/{links.edit}/export.json", f"/t/{links.view}/export.csv"]
    answers = [client.get(urls[i % 2]).status_code for i in range(4)]
    assert answers == [200, 200, 200, TOO_MANY]
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    assert other.get(urls[0]).status_code == 200


def test_an_export_does_not_wait_for_the_gate() -> None:
    ran: list[str] = []

    def app(environ: dict[str, Any], _start_response: Callable[..., Any]) -> Iterable[bytes]:
        ran.append(environ["PATH_INFO"])
        return [b""]

    gated = gate.Gate(app, at_once=1, max_body=100)
    with gated.turns:  # a long request holds the gate
        for path in ("/t/x/export.json", "/g/y/export.csv", "/t/x/plays/3/export.json"):
            worker = threading.Thread(target=gated, args=({"PATH_INFO": path}, None))
            worker.start()
            worker.join(5)
            assert not worker.is_alive(), f"{path} waited for the gate"
        tap = threading.Thread(target=gated, args=({"PATH_INFO": "/t/x/plays/3/edit"}, None))
        tap.start()
        tap.join(0.05)
        assert tap.is_alive(), "a tap still takes its turn"
    tap.join(5)
    assert ran[-1] == "/t/x/plays/3/edit"
