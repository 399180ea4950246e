"""A new table for a browser test whose subject comes after the home page.

Typing a roster on the home page (a tap on "Add a player" per name, each answered by the
server) took 1-2 s of every browser test. A test about a game, a page or live updates
gets its table the way the home page's form sends it, in one request from the phone
itself (its cookies, so the table is this phone's), and then opens the table page.

The roster itself stays tested in the browser where it is the subject: the whole-game
tests (Odd World, Owl About, Lucky's, tests/e2e/test_*_phones.py) type theirs, and
test_small_things.py, test_connection.py and test_live_table.py test its taps, focus,
offline taps and a name typed while an answer is on its way.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urljoin

from playwright.sync_api import Page, expect

from support.client import CSRF_HEADER

SEE_OTHER = 303


def open_new_table(page: Page, base: str, names: Sequence[str]) -> None:
    """Create a table of ``names`` (seating order) as the home page's form does, and open
    it on ``page``."""
    home = page.request.get(base + "/")
    token = CSRF_HEADER.search(home.text())
    assert token, "the home page hands out no CSRF token"
    form: dict[str, str] = {f"players-{i}": name for i, name in enumerate(names)}
    form.update(csrf_token=token.group(1), action="create")
    created = page.request.post(base + "/tables", form=form, max_redirects=0)
    assert created.status == SEE_OTHER, created.text()[:500]
    page.goto(urljoin(base + "/", created.headers["location"]))
    expect(page.locator(".lead").first).to_have_text(", ".join(names))
