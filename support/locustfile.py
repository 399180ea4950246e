"""Phones at live tables, for locust (driven by ``support/load.py``).

Each simulated phone sits at one table (``LOAD_TABLES``: a JSON file listing each table's
edit token, play id and players) in its own seat, polls the play every 2 s as the page
does (204 while nothing changed, else the fresh fragment, whose version it then polls
with) and taps a stepper of its own player every 5 s. Every tap the server acknowledged
(200) is written to ``LOAD_ACKS`` at the end with the version it created, so the driver
can check each one is in the database.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from locust import FastHttpUser, events, task

POLL_SECONDS = 2.0
EDIT_SECONDS = 5.0
# Each seat taps two birds of its own (8 cards of a bird exist, all may be one player's).
BIRDS = (
    ("bird-of-paradise", "hoopoe"),
    ("scarlet-ibis", "shoebill"),
    ("hornbill", "crowned-crane"),
    ("secretarybird", "king-vulture"),
)
MOST = 8  # cards of one bird
VERSION = re.compile(r'data-version="(\d+)"')
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
#: What htmx sends with each of the page's requests: the answer is the panel alone.
HTMX = {"HX-Request": "true"}

TABLES: list[dict[str, Any]] = json.loads(Path(os.environ["LOAD_TABLES"]).read_text())
SEATS = itertools.count()
ACKS: list[dict[str, Any]] = []


class Phone(FastHttpUser):
    """One phone: polls every 2 s, taps every 5 s, remembers what the server acknowledged.

    locust's fast client (geventhttpclient): the load generator shares the machine's two
    cores with the server, so the less it spends per request, the more the server gets.
    """

    def on_start(self) -> None:
        """Take the next free seat and open the play page (session cookie, CSRF token)."""
        number = next(SEATS)
        # Phones at different tables keep their own rhythm: each starts its poll and tap
        # cycles at its own moment (seeded, so a run can be repeated), not in step with
        # every other phone that locust started in the same second.
        self.phase = random.Random(number)
        table = TABLES[(number // 4) % len(TABLES)]
        self.seat = number % 4
        self.base = f"/t/{table['edit']}/plays/{table['play']}"
        self.play = table["play"]
        self.taps = 0
        self.version = 0
        self.token = ""
        self.open_page()
        self.next_poll = time.monotonic() + self.phase.uniform(0, POLL_SECONDS)
        self.next_tap = time.monotonic() + self.phase.uniform(0, EDIT_SECONDS)

    def open_page(self) -> None:
        """Load the page as a phone does, for its CSRF token and current version."""
        with self.client.get(self.base, name="play page", catch_response=True) as answer:
            token = CSRF.search(answer.text or "")
            if answer.status_code != 200 or token is None:
                answer.failure(f"play page: {answer.status_code}")
                return
            self.token = token.group(1)
            self.take(answer.text)

    def take(self, html: str) -> None:
        """What the answer shows: the version the next poll asks about."""
        found = VERSION.search(html)
        if found:
            self.version = int(found.group(1))

    def wait_time(self) -> float:
        """Until this phone's next poll or tap is due (locust sleeps between tasks)."""
        return max(0.0, min(self.next_poll, self.next_tap) - time.monotonic())

    @task
    def live(self) -> None:
        """Poll every POLL_SECONDS and tap every EDIT_SECONDS, from this phone's own phase.

        One step per task: between steps the phone is in locust's wait, where a run that
        ends stops it at once (a task that loops forever held every run open for the
        whole ``--stop-timeout``).
        """
        now = time.monotonic()
        if now >= self.next_poll:
            self.poll()
            self.next_poll += POLL_SECONDS
        if now >= self.next_tap:
            self.tap()
            self.next_tap += EDIT_SECONDS

    def poll(self) -> None:
        """Ask whether the play changed since the version this phone shows."""
        if not self.token:
            self.open_page()
            return
        url = f"{self.base}/poll?version={self.version}"
        with self.client.get(url, name="poll", headers=HTMX, catch_response=True) as answer:
            if answer.status_code == 200:
                self.take(answer.text or "")
            elif answer.status_code != 204:
                answer.failure(f"poll: {answer.status_code}")

    def tap(self) -> None:
        """Set one of this phone's own birds to a new count, as a stepper tap does."""
        if not self.token:
            self.open_page()
            return
        self.taps += 1
        bird = BIRDS[self.seat][self.taps % 2]
        value = (self.taps // 2) % MOST + 1  # never the value the bird holds now
        path = f"players[{self.seat}].display.{bird}"
        headers = {
            **HTMX,
            "X-CSRFToken": self.token,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        data = urlencode({"path": path, "value": str(value)})
        with self.client.post(
            f"{self.base}/edit", data=data, name="tap", headers=headers, catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"tap: {answer.status_code}")
                return
            found = VERSION.search(answer.text or "")
            if found is None:
                answer.failure("tap: no version in the answer")
                return
            self.take(answer.text or "")
            ACKS.append({"play": self.play, "path": path, "value": value, "number": self.version})


@events.quitting.add_listener
def write_acks(**_kwargs: Any) -> None:
    """Hand the acknowledged taps to the driver."""
    Path(os.environ["LOAD_ACKS"]).write_text(json.dumps(ACKS))
