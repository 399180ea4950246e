"""Owl About history wording: fields and values in words for the edit history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.owl_about.cards import DECK, card

#: A player's entry in a per-player field of a round, named for the history.
_SINGULAR = {"penalties": "penalty", "trophies": "trophies", "hands": "hand"}


def _label(code: object) -> str:
    return card(code).label if isinstance(code, str) and code in DECK else str(code)


def _tricks_in_words(tricks: Sequence[Any]) -> str:
    if not tricks:
        return "no trick"
    last = tricks[-1]
    if not isinstance(last, dict):
        return f"{len(tricks)} tricks"
    cards = ", ".join(_label(c) for c in last.get("cards", [])) or "no card yet"
    count = f"{len(tricks)} trick{'s' if len(tricks) != 1 else ''}"
    return f"{count} (the last led by {last.get('lead')}: {cards})"
