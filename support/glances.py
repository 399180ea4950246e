"""How each registered game's play page is reached and what a phone mostly does there:
its main control, for the browser tests of the table at a glance
(tests/e2e/test_glance.py: nothing moves under a finger, the control is on the first
screen). A new game is added to :data:`GLANCES` (docs/development.md, "Adding a game");
its main control may be a button to tap or a box to type in (``Glance.typed``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from playwright.sync_api import Locator, Page

from companion.games import owl_about as oa

#: Owl About cards with four copies: one tapped at one spot card after card, one elsewhere.
OWL_CARD, OWL_OTHER = [code for code, copies in oa.DECK.items() if copies >= 4][:2]


@dataclass(frozen=True)
class Glance:
    """How a game's play page is reached and what its main control is."""

    #: The options page's start button, when the game has one.
    options: str | None
    #: The player's main control on a fresh play page (after ``ready``).
    control: Callable[[Page], Locator]
    #: What another phone taps: a change of the same kind elsewhere.
    other: Callable[[Page], Locator]
    #: What completes a trick or round after the first two taps, tapped ``completing_taps``
    #: times on this phone (none: the game has no tricks or rounds).
    completing: Callable[[Page], Locator] | None = None
    completing_taps: int = 1
    #: A tap that gets the fresh play ready (Owl About: who leads the first round).
    ready: str | None = None
    #: Where entering starts, when that is not ``control`` (OddVille: the palette's card
    #: choice comes before the city's places).
    first: Callable[[Page], Locator] | None = None
    #: When ``control`` is a box to type in (a count, a card) rather than a button: what
    #: is typed into it, a value a time and sent with Enter (``other`` the same way).
    typed: Sequence[str] = ()

    def use(self, target: Locator, turn: int = 0) -> None:
        """Tap ``target``, or type this glance's ``turn``-th value into it."""
        if not self.typed:
            target.click()
            return
        target.fill(self.typed[turn % len(self.typed)])
        target.press("Enter")


GLANCES: dict[str, Glance] = {
    "odd-world": Glance(
        options=None,
        control=lambda p: p.get_by_role("button", name="One more Bird-of-paradise for Ann"),
        other=lambda p: p.get_by_role("button", name="One more Hoopoe for Ben"),
    ),
    "owl-about": Glance(
        options="Start Owl About",
        ready="Ann leads",
        control=lambda p: p.locator(f'.owl-pick[value="{OWL_CARD}"]'),
        other=lambda p: p.locator(f'.owl-pick[value="{OWL_OTHER}"]'),
        # Two cards are down after the first two taps: the third completes the trick.
        completing=lambda p: p.locator(f'.owl-pick[value="{OWL_CARD}"]'),
    ),
    "oddland": Glance(
        options="Start Oddland",
        control=lambda p: p.locator('.ol-tap[aria-label^="Row 2, col 2"]'),
        other=lambda p: p.locator('.ol-tap[aria-label^="Row 3, col 3"]'),
    ),
    "luckys-misadventures": Glance(
        options=None,
        control=lambda p: p.locator(".lm-pick").first,
        other=lambda p: p.locator(".lm-pick:not([disabled])").nth(2),
        # One Fate card is out after the first tap (the second hits a used card): two more
        # complete the round.
        completing=lambda p: p.locator(".lm-pick:not([disabled])").nth(4),
        completing_taps=2,
    ),
    "oddville": Glance(
        options="Start OddVille",
        control=lambda p: p.get_by_role("button", name=re.compile(r"\brow 2, col 1\b")),
        other=lambda p: p.get_by_role("button", name=re.compile(r"\brow 1, col 2\b")),
        first=lambda p: p.locator(".ov-points .ov-choice").first,
    ),
}
