"""Exports cost a table's other phones nothing: a repeated export of an unchanged table or
group is served from what was built (any change builds it again), exports are rate-limited
per network, and they take turns beside the one-request-at-a-time gate, not in it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import transfer, transfer_stream
from companion.web import gate
from companion.web import groups as groups_web
from support.client import create_table, csrf, edit, start_play
from support.groups import create_group

TOO_MANY = 429


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_repeated_table_export_is_built_once_per_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    start_play(client, links.edit)
    play = start_play(client, links.edit)
    built = _counting(monkeypatch, transfer_stream, "table_json")
    plays_built = _counting(monkeypatch, transfer, "play_head_json")
    first = client.get(f"/t/{links.edit}/export.json").data  # read whole, as a phone does
    assert len(plays_built) == 2
    again = client.get(f"/t/{links.view}/export.json")  # the read-only link: the same file
    assert again.data == first
    assert len(built) == 1
    edit(client, links.edit, play, path="players[0].display.hoopoe", value="2")
    changed = client.get(f"/t/{links.edit}/export.json").data
    assert len(built) == 2
    assert len(plays_built) == 3, "the play that did not change is not built again"
    assert changed != first
    assert b'"hoopoe": 2' in changed
    assert client.get(f"/t/{links.edit}/export.csv").status_code == 200
    assert len(built) == 2  # CSV is its own file, written from the stored results


def test_a_repeated_group_export_is_built_once_per_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_group(client, "Fridays", ["Ann", "Ben"])
    built = _counting(monkeypatch, transfer_stream, "group_json")
    first = client.get(f"/g/{links.edit}/export.json").data
    assert client.get(f"/g/{links.view}/export.json").data == first
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


def test_an_export_is_built_in_turns_at_the_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], _start_response: Callable[..., Any]) -> Iterable[bytes]:
        seen["turn"] = environ[gate.TURN]
        seen["held"] = environ[gate.TURN].locked()  # the view itself runs in a turn
        return [b""]

    gated = gate.Gate(app, at_once=1, max_body=100)
    gated({"PATH_INFO": "/t/x/export.json"}, None)
    assert seen["held"]
    turn = seen["turn"]
    assert not turn.locked()  # the answer is sent outside the gate

    monkeypatch.setattr(transfer_stream, "SLICE_SECONDS", 0.0)  # each piece a turn of its own
    built_in_turn: list[bool] = []

    def pieces() -> Iterator[str]:
        for number in range(3):
            built_in_turn.append(turn.locked())
            yield str(number)

    sent = []
    for part in transfer_stream.in_turns(pieces(), turn):
        assert not turn.locked(), "a part is sent between turns: taps and polls go"
        sent.append(part)
    assert sent == ["0", "1", "2"]
    assert built_in_turn == [True, True, True]


def test_the_table_page_lists_the_latest_finished_plays_exports(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A capped table's 500 finished plays, each with its BG Stats link and exports, made
    its page a second of work: it lists the latest few, the rest are in the table's export."""
    monkeypatch.setattr(groups_web, "KEEP_LINKS", 2)
    links = create_table(client, ["Ann", "Ben"])
    finished = []
    for _ in range(3):
        play = start_play(client, links.edit)
        url = f"/t/{links.edit}/plays/{play}"
        data = {"csrf_token": csrf(client, url), "confirm": "yes"}
        assert client.post(f"{url}/finish", data=data).status_code == 303
        finished.append(play)
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    listed = [p for p in finished if f"/plays/{p}/export.json" in page]
    assert listed == finished[1:]
    assert "1 older game is in the whole table's export." in page
