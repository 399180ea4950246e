"""Owl About form edits: hands, cards and names typed into a form, and new rounds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.owl_about.cards import DECK
from companion.games.owl_about.state import _unknown_card
from companion.games.problems import InvalidStateError, Problem
from companion.games.text import _


def _card_from_text(where: str, raw: str) -> str:
    code = raw.strip().upper()
    if code not in DECK:
        raise InvalidStateError([Problem(where, _unknown_card(raw.strip()))])
    return code


def _name_from_text(where: str, raw: str) -> str:
    name = raw.strip()
    if not name:
        raise InvalidStateError([Problem(where, _("Pick a player."))])
    return name


def new_round(players: Sequence[str], *, summarised: bool = False) -> dict[str, Any]:
    """An empty round to append to ``rounds``: no tricks yet, or zero trophies each.

    >>> new_round(["A", "B", "C"])
    {'tricks': [], 'trophies': None, 'penalties': {}}
    >>> new_round(["A", "B", "C"], summarised=True)["trophies"]
    {'A': 0, 'B': 0, 'C': 0}
    """
    if summarised:
        return {"tricks": None, "trophies": dict.fromkeys(players, 0), "penalties": {}}
    return {"tricks": [], "trophies": None, "penalties": {}}
