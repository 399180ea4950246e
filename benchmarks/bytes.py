"""Bytes on the wire (not a test): what a tap, a live update and a full page weigh.

Three plays: a 4-player Odd World game with full displays, an Owl About game in the middle
of a round, and a 12 x 12 Oddland map late in a play-along game. For each: the answer to
a tap (phone A, which sends the digests of the pieces it holds, as its script does), the
live update another phone (B) gets at its next poll, and the full page; raw, gzip and
brotli bytes as Flask-Compress sends them. Also the milliseconds to render the full
Odd World page (GET, in process). ``--whole`` leaves out the digests: the answers are the
whole panel, as before "only what changed".

Run: .venv/bin/python benchmarks/bytes.py [--whole]
"""

from __future__ import annotations

import gzip
import re
import statistics
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import brotli
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.extensions import db
from companion.games.odd_world import BIRDS
from companion.models import Play
from companion.services import plays
from tests import oob
from tests.helpers import HTMX, create_table, csrf, start_play

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
ENCODINGS = ("identity", "gzip", "br")
AUTHOR = plays.Author("bnch", None)
#: Cards on the Oddland map before the measured turns (36 make the 12 x 12 map).
LAID = 32


def text_of(response: Any) -> str:
    """The answer's markup, whatever encoding it came in."""
    data = response.data
    encoding = response.headers.get("Content-Encoding")
    if encoding == "gzip":
        data = gzip.decompress(data)
    elif encoding == "br":
        data = brotli.decompress(data)
    return str(data.decode())


def sizes(client: FlaskClient, send: Callable[[dict[str, str]], Any]) -> dict[str, Any]:
    """Bytes of the same answer in each encoding (``send`` is called once per encoding),
    and the ids of the elements it holds."""
    found: dict[str, Any] = {}
    for encoding in ENCODINGS:
        response = send({"Accept-Encoding": encoding})
        found[encoding] = len(response.data)
        html = text_of(response)
        found["ids"] = [_described(html, *where) for where in oob.elements(html)]
    return found


def _described(html: str, ident: str, start: int, end: int) -> str:
    """An element of an answer: its id, its size and how many stubs it holds."""
    kept = html.count("data-keep", start, end)
    return f"{ident}({(end - start) // 1000}k{f'/{kept} kept' if kept else ''})"


def show(label: str, found: dict[str, Any]) -> None:
    raw, gz, br = (found[e] for e in ENCODINGS)
    print(f"{label:<44} raw {raw:>7,}  gzip {gz:>6,}  br {br:>6,}")
    if "-v" in sys.argv:
        print("    holds:", " ".join(found["ids"][:16]))


class Phone:
    """A phone showing a play: its client (own session) and the panel it holds."""

    def __init__(self, app: Flask, token: str, play_id: int, seat: str, digests: bool) -> None:
        self.client = app.test_client()
        self.url = f"/t/{token}/plays/{play_id}"
        self.seat = seat
        self.digests = digests
        self.page = text_of(self.client.get(f"{self.url}?seat={seat}"))
        self.token = csrf(self.client, f"/t/{token}")

    def headers(self, extra: dict[str, str]) -> dict[str, str]:
        found = {**HTMX, **extra}
        if self.digests:
            found[oob.HEADER] = oob.header_of(self.page)
        return found

    def poll_url(self) -> str:
        found = re.search(r'hx-get="([^"]+\/poll\?[^"]+)"', self.page)
        assert found, "no poll on the page"
        return found.group(1).replace("&amp;", "&")

    def post(self, path: str, data: dict[str, str], extra: dict[str, str]) -> Any:
        body = {"csrf_token": self.token, "seat": self.seat, **data}
        return self.client.post(self.url + path, data=body, headers=self.headers(extra))

    def poll(self, extra: dict[str, str]) -> Any:
        return self.client.get(self.poll_url(), headers=self.headers(extra))

    def take(self, response: Any) -> None:
        """Apply an answer as htmx would: each element with an id it holds (the whole
        panel, a fragment such as Owl About's trick, or out-of-band pieces) replaces its
        namesake."""
        self.page = oob.apply(self.page, text_of(response))


def candidates(found: Any) -> list[tuple[str, dict[str, str]]]:
    return found if isinstance(found, list) else [found]


def measure(
    label: str,
    app: Flask,
    token: str,
    play_id: int,
    tap: Callable[[Phone, int], Any],
    digests: bool,
    seat: str = "all",
) -> None:
    """The tap answer, the other phone's live update and the full page of one play."""
    a = Phone(app, token, play_id, seat, digests)
    step = [0]

    def send_tap(extra: dict[str, str]) -> Any:
        # A new tap for each encoding (the same tap twice would be a conflict); the phone
        # then takes the answer, as its page would.
        # A tap may be refused (an Oddland token where none fits): the next one is tried.
        for path, data in candidates(tap(a, step[0])):
            response = a.post(path, data, extra)
            if response.status_code == 200:
                break
        assert response.status_code == 200, text_of(response)[:500]
        step[0] += 1
        a.take(response)
        return response

    show(f"{label}: tap answer", sizes(a.client, send_tap))
    # One more tap, then B's live update (B holds the page from before it).
    b = Phone(app, token, play_id, seat, digests)
    for path, data in candidates(tap(a, step[0])):
        response = a.post(path, data, {})
        if response.status_code == 200:
            a.take(response)
            break

    def send_poll(extra: dict[str, str]) -> Any:
        response = b.poll(extra)
        assert response.status_code == 200, response.status_code
        return response

    show(f"{label}: live update", sizes(b.client, send_poll))
    show(
        f"{label}: full page",
        sizes(a.client, lambda e: a.client.get(f"{a.url}?seat={seat}", headers=e)),
    )


def odd_world(app: Flask, client: FlaskClient, digests: bool) -> None:
    links = create_table(client, PLAYERS)
    play_id = start_play(client, links.edit)
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        keys = list(BIRDS)
        players = [
            {
                "name": name,
                "display": {k: (i + j) % 3 for j, k in enumerate(keys)},
                "face_down": keys[i],
            }
            for i, name in enumerate(PLAYERS)
        ]
        plays.replace_value(play, path="players", value=players, author=AUTHOR)

    def tap(phone: Phone, step: int) -> tuple[str, dict[str, str]]:
        key = keys[step % len(keys)]
        field = rf'name="path" value="players\[1\]\.display\.{key}">'
        current = re.search(field + r'<input type="hidden" name="base" value="(\d+)"', phone.page)
        assert current, key
        n = int(current.group(1))
        value = n + 1 if n < 2 else n - 1
        return "/edit", {"path": f"players[1].display.{key}", "base": str(n), "value": str(value)}

    measure("Odd World, 4 players, everyone", app, links.edit, play_id, tap, digests)
    render_ms(app, links.edit, play_id)


def render_ms(app: Flask, token: str, play_id: int) -> None:
    client = app.test_client()
    url = f"/t/{token}/plays/{play_id}?seat=all"
    client.get(url)
    runs = timeit.repeat(lambda: client.get(url), number=50, repeat=5)
    ms = statistics.median(runs) / 50 * 1000
    print(f"Odd World 4-player play page GET, test client: {ms:.2f} ms")


def owl_about(app: Flask, client: FlaskClient, digests: bool) -> None:
    from tests.web.test_owl_about_pages import deck_rows, start_owl, start_round, tap_all

    links = create_table(client, PLAYERS)
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Ann")
    rows = deck_rows(4, 9)
    for row in rows[:3]:
        tap_all(client, links.edit, play_id, row)
    cards = [code for row in rows[3:] for code in row]

    def tap(phone: Phone, step: int) -> tuple[str, dict[str, str]]:
        form = re.search(r'class="owl-picker".*?</form>', phone.page, re.S)
        assert form, "no picker"
        fields = dict(re.findall(r'name="(rounds|trick|seen)" value="([^"]*)"', form.group(0)))
        return "/owl-about/card", {**fields, "card": cards[step]}

    measure("Owl About, mid-round", app, links.edit, play_id, tap, digests)


def oddland(app: Flask, client: FlaskClient, digests: bool) -> None:
    import random

    from benchmarks.oddland_bench import play_along_turns
    from tests.web.test_oddland_pages import start_oddland

    links = create_table(client, PLAYERS)
    play_id = start_oddland(client, links.edit, play_along="y")
    turns = play_along_turns(random.Random(7))[:36]
    species = ["begator", "owloose", "pangeroo", "pigehorse", "grizzsleep", "flora"]
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        laid: list[dict[str, Any]] = []
        for k, turn in enumerate(turns[:LAID]):
            card = turn.card.model_dump()
            cell = [card["at"][0] + 1, card["at"][1]]
            token = {"player": PLAYERS[k % 4], "species": species[k % 6], "cells": [cell]}
            for tried in ({"card": card, "token": token}, {"card": card}):
                try:
                    plays.replace_value(play, path="cards", value=[*laid, tried], author=AUTHOR)
                except plays.EditRefused:
                    db.session.rollback()
                    continue
                laid.append(tried)
                break

    def tap(phone: Phone, step: int) -> list[tuple[str, dict[str, str]]]:
        turn = turns[LAID + step]
        (r, c), t = turn.card.at, turn.card.terrains
        card = {"action": "place", "laid": str(LAID + step), "row": str(r), "col": str(c),
                "top_left": t[0][0], "top_right": t[0][1], "bottom_left": t[1][0],
                "bottom_right": t[1][1], "space": "bottom-left", "second": ""}  # fmt: skip
        return [
            ("/oddland/turn", {**card, "player": who, "species": kind})
            for kind in species
            for who in PLAYERS
        ]

    measure("Oddland, 12x12 play-along map", app, links.edit, play_id, tap, digests)


def main() -> None:
    digests = "--whole" not in sys.argv
    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    print("answers:", "only what changed" if digests else "the whole panel")
    odd_world(app, client, digests)
    owl_about(app, client, digests)
    oddland(app, client, digests)


if __name__ == "__main__":
    main()
