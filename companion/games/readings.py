"""The app's readings: where a rulebook leaves room, the choice the app made, said aloud.

A :class:`Reading` has an id (``<game>/<name>``), which is also the id of the rules entry
that explains it (a clarification), and the app's words: a sentence saying the choice is
the app's and why. An
answer carries every reading it applied in ``readings``: a score, a referee verdict, or
a refusal (the problems that rest on one). Each game lists the readings its engine can
apply in ``Game.readings``; a test checks that each has its clarification entry and that
some answer carries it.

>>> five = Reading("odd-world/players", "2 to 5 is the app's reading.")
>>> readings_json([five, five])
[{'id': 'odd-world/players', 'text': "2 to 5 is the app's reading.", 'rule': 'odd-world/players'}]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.text import N_, _


@dataclass(frozen=True)
class Reading:
    """One reading the app makes where the rulebook is silent or leaves room."""

    #: Stable id, ``<game>/<name>``, clients may key on it; the id of its rules entry too
    #: (a rule id, ``problems.RuleId``, which names what problems and results apply).
    id: str
    #: The app's words: what it assumes, saying that the choice is the app's, and why;
    #: in English, marked for translation (``N_``) where written, said with ``_(text)``.
    text: str

    @property
    def rule(self) -> str:
        """The rules entry (a clarification) that explains the reading: its own id."""
        return self.id

    def to_json(self) -> dict[str, str]:
        """The API shape of a reading: its ``text`` in the reader's language."""
        return {"id": self.id, "text": _(self.text), "rule": self.rule}


def places_reading(slug: str) -> Reading:
    """The reading of a game whose tiebreakers also order the places below first (its
    ``<slug>/tiebreak/places`` entry explains it).

    >>> places_reading("oddville").id
    'oddville/tiebreak/places'
    """
    return Reading(
        f"{slug}/tiebreak/places",
        N_(
            "Putting players tied on points below first place in order with the tiebreakers"
            " is the app's reading: the rulebook's tiebreakers only say who wins."
        ),
    )


def unique_readings(readings: Iterable[Reading | None]) -> tuple[Reading, ...]:
    """The readings given, each once, in the order first met (``None`` left out).

    >>> a, b = Reading("g/a", "A."), Reading("g/b", "B.")
    >>> [r.id for r in unique_readings([a, None, b, a])]
    ['g/a', 'g/b']
    """
    return tuple(dict.fromkeys(r for r in readings if r is not None))


def readings_json(readings: Iterable[Reading | None]) -> list[dict[str, str]]:
    """The API's ``readings``: each reading once, in the order first met."""
    return [reading.to_json() for reading in unique_readings(readings)]
