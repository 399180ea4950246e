"""Owl About history wording: fields and values in words for the edit history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.owl_about.cards import DECK, card
from companion.games.text import N_, _, ngettext

#: A round's per-player fields, and one player's entry in each, named for the history
#: (``%(round)s`` is the round's number, ``%(player)s`` the player's name).
_PLAYER_FIELDS = {
    # TRANSLATORS: a field of the edit history: the VP a player lost for wrong cards.
    "penalties": N_("Round %(round)s: %(player)s's penalty"),
    # TRANSLATORS: a field of the edit history: the trophies a player won in a round.
    "trophies": N_("Round %(round)s: %(player)s's trophies"),
    # TRANSLATORS: a field of the edit history: the cards a player was dealt (a hand).
    "hands": N_("Round %(round)s: %(player)s's hand"),
}

#: A round's own fields, named for the history (``%(round)s`` is the round's number).
_ROUND_FIELDS = {
    "penalties": N_("Round %(round)s penalties"),
    "trophies": N_("Round %(round)s trophies"),
    "hands": N_("Round %(round)s hands"),
    # TRANSLATORS: whether a round is being played trick by trick at the table.
    "open": N_("Round %(round)s open"),
}


def _label(code: object) -> str:
    return card(code).label if isinstance(code, str) and code in DECK else str(code)


def _cards_in_words(codes: Sequence[object]) -> str:
    """Cards of a trick as the history lists them ("6, Night 6"), or that there is none."""
    return ", ".join(_label(c) for c in codes) or _("no card yet")


def _tricks_in_words(tricks: Sequence[Any]) -> str:
    if not tricks:
        return _("no trick")
    last = tricks[-1]
    if not isinstance(last, dict):
        return ngettext("%(num)s trick", "%(num)s tricks", len(tricks))
    return ngettext(
        "%(num)s trick (the last led by %(lead)s: %(cards)s)",
        "%(num)s tricks (the last led by %(lead)s: %(cards)s)",
        len(tricks),
        lead=last.get("lead"),
        cards=_cards_in_words(last.get("cards", [])),
    )
