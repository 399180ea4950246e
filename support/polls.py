"""How a browser test sees another phone's change: it asks the page's poll, it never waits.

A play page and a table page each hold a hidden poll element that asks the server for
news every ``POLL_SECONDS`` and, at once, on a ``poll-now`` event. A test that waits for
a live update uses this module:

- ``poll_now(page)`` asks once (e.g. before checking that nothing changed);
- ``polls_answered(page)`` asks twice, each time until the answer has landed: what a test
  checking that live updates leave something alone used to wait two poll timers for;
- ``expect_live(locator)`` is Playwright's ``expect(locator)`` whose assertions ask the
  poll, check briefly, and ask again until they hold or ``LIVE_TIMEOUT_MS`` has passed.
  An ask can be dropped (a request of that element still open, or the phone typing in
  the live region, which skips polls on purpose); the next ask covers it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from playwright.sync_api import Error, Locator, LocatorAssertions, Page, expect

#: How long a live update may take to show on a loaded machine before a test fails.
LIVE_TIMEOUT_MS = 6000
#: How long one ask is given to be answered and shown before the poll is asked again.
ASK_EVERY_MS = 400

# The poll element listens for ``poll-now`` on itself, or (``poll-now from:body``) on the
# body. Ask both ways; the element's own event does not bubble, so no poll is asked twice.
_ASK = """() => {
  for (const poll of document.querySelectorAll(
      '[hx-trigger*="poll-now"], [data-hx-trigger*="poll-now"]')) {
    poll.dispatchEvent(new Event('poll-now', {bubbles: false}));
  }
  if (document.body) document.body.dispatchEvent(new Event('poll-now'));
}"""


#: No poll of the page is on its way, and no answer is being swapped in or settling.
_POLLS_QUIET = """() => !document.querySelector(
  '[data-poll].htmx-request, .htmx-swapping, .htmx-settling')"""
#: How many answered polls stand for "live updates came meanwhile": the first may find a
#: change, the second then finds the page as that change left it.
POLLS_TO_SETTLE = 2


def polls_answered(page: Page, *, times: int = POLLS_TO_SETTLE) -> None:
    """Ask the page's poll ``times`` times, each once the last has been answered, swapped
    in and settled; instead of waiting ``times`` poll timers for live updates to come.

    A poll the page does not send (a field of its region in use, another page loading)
    is not sent now either, as on its timer.
    """
    for _ in range(times):
        page.wait_for_function(_POLLS_QUIET)
        poll_now(page)
        page.wait_for_function(_POLLS_QUIET)


def poll_now(*pages: Page) -> None:
    """Ask each page's poll for news now, instead of waiting for its timer."""
    for page in pages:
        try:
            page.evaluate(_ASK)
        except Error:
            # The page is between two documents (a navigation): the new one polls anew,
            # and a caller that waits for something asks again.
            continue


class LiveExpectation:
    """``expect(locator)`` whose assertions ask the page's poll until they hold."""

    def __init__(self, locator: Locator, timeout_ms: float) -> None:
        self._locator = locator
        self._timeout_ms = timeout_ms

    def __getattr__(self, name: str) -> Callable[..., None]:
        getattr(expect(self._locator), name)  # an unknown assertion fails here, not later

        def check(*args: Any, **kwargs: Any) -> None:
            within_ms = kwargs.pop("timeout", None) or self._timeout_ms
            deadline = time.monotonic() + within_ms / 1000
            while True:
                poll_now(self._locator.page)
                try:
                    getattr(expect(self._locator), name)(*args, timeout=ASK_EVERY_MS, **kwargs)
                except AssertionError:
                    if time.monotonic() >= deadline:
                        raise
                else:
                    return

        return check


def expect_live(locator: Locator, *, timeout_ms: float = LIVE_TIMEOUT_MS) -> LocatorAssertions:
    """Like ``expect(locator)`` for what another phone changed: asks the poll, never waits.

    ``expect_live(ben.locator(".owl-next")).to_have_text("Ann")``; an assertion's own
    ``timeout`` is the whole time it may take.
    """
    return cast(LocatorAssertions, LiveExpectation(locator, timeout_ms))
