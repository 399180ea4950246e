"""Bytes on the wire (not a test): what a tap, a live update and a full page weigh.

Three plays: a 4-player Odd World game with full displays, an Owl About game in the middle
of a round, and a 10 x 12 Oddland map late in a play-along game. For each: the answer to
a tap (phone A), the live update another phone (B) gets at its next poll, and the full
page; raw, gzip and brotli bytes as Flask-Compress sends them. Also the milliseconds to
render the full Odd World page (GET, in process), and the forms and hidden inputs its
panel holds.

Run: .venv/bin/python benchmarks/bytes.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask

from companion import create_app
from companion.services import plays
from support import scenes
from support.phones import Phone

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
ENCODINGS = ("identity", "gzip", "br")
AUTHOR = plays.Author("bnch", None)


def sizes(send: Callable[[dict[str, str]], Any]) -> dict[str, int]:
    """Bytes of the same answer in each encoding (``send`` is called once per encoding)."""
    return {encoding: len(send({"Accept-Encoding": encoding}).data) for encoding in ENCODINGS}


def show(label: str, found: dict[str, int]) -> None:
    raw, gz, br = (found[e] for e in ENCODINGS)
    print(f"{label:<44} raw {raw:>7,}  gzip {gz:>6,}  br {br:>6,}")


def candidates(found: Any) -> list[tuple[str, dict[str, str]]]:
    return found if isinstance(found, list) else [found]


def measure(
    label: str,
    app: Flask,
    token: str,
    play_id: int,
    tap: Callable[[Phone, int], Any],
    seat: str = "all",
) -> None:
    """The tap answer, the other phone's live update and the full page of one play."""
    a = Phone(app, token, play_id, seat)
    step = [0]

    def send_tap(extra: dict[str, str]) -> Any:
        # A new tap for each encoding (the same tap twice would be a conflict); the phone
        # then takes the answer, as its page would.
        # A tap may be refused (an Oddland token where none fits): the next one is tried.
        for path, data in candidates(tap(a, step[0])):
            response = a.post(path, data, extra)
            if response.status_code == 200:
                break
        assert response.status_code == 200, response.status_code
        step[0] += 1
        a.take(response)
        return response

    show(f"{label}: tap answer", sizes(send_tap))
    # One more tap, then B's live update (B holds the page from before it).
    b = Phone(app, token, play_id, seat)
    for path, data in candidates(tap(a, step[0])):
        response = a.post(path, data, {})
        if response.status_code == 200:
            a.take(response)
            break

    def send_poll(extra: dict[str, str]) -> Any:
        response = b.poll(extra)
        assert response.status_code == 200, response.status_code
        return response

    show(f"{label}: live update", sizes(send_poll))
    show(
        f"{label}: full page",
        sizes(lambda e: a.client.get(f"{a.url}?seat={seat}", headers=e)),
    )


def render_ms(app: Flask, token: str, play_id: int) -> None:
    client = app.test_client()
    url = f"/t/{token}/plays/{play_id}?seat=all"
    client.get(url)
    runs = timeit.repeat(lambda: client.get(url), number=50, repeat=5)
    ms = statistics.median(runs) / 50 * 1000
    print(f"Odd World 4-player play page GET, test client: {ms:.2f} ms")
    panel = client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
    forms, hidden = panel.count("<form"), panel.count('type="hidden"')
    print(f"Odd World 4-player panel: {forms} forms, {hidden} hidden inputs")


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    for label, build in (
        ("Odd World, 4 players, everyone", scenes.odd_world),
        ("Owl About, mid-round", scenes.owl_about),
        ("Oddland, 10x12 play-along map", scenes.oddland),
    ):
        scene = build(app, client)
        measure(label, app, scene.links.edit, scene.play_id, scene.tap)
        if build is scenes.odd_world:
            render_ms(app, scene.links.edit, scene.play_id)


if __name__ == "__main__":
    main()
