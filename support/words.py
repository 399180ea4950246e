"""The harness of the words checks (issue 36): whether what an engine says to people is
all in the reader's language (``tests/games/test_words_translated.py``).

Under the pseudo-language of :mod:`support.pseudo` every message comes out wrapped in
⟦ ⟧, so English words left outside the brackets were built without gettext. Each game
has its :class:`Examples` (in :mod:`support.word_examples`); the checks run them through
the helpers here:

- :func:`assert_translated` looks at every human-facing string of a JSON document (the
  keys of :data:`HUMAN_KEYS`) and leaves out what is not the app's words: identifiers
  (:data:`IDENTIFIERS`) and the players' names (:func:`names_in`);
- :func:`assert_scored_in_pseudo` scores a valid state and words it everywhere people
  read it: the result, the Finish button, the tiebreak values, each field of the history
  and the play-along picture;
- :func:`assert_history_in_pseudo` words a :class:`Change` as the edit history and the
  conflict messages do; what a player typed (a map row, a key: :func:`entered`) is shown
  as it is and left out;
- :func:`answer` and :func:`problems_json` turn an endpoint's answer or refusal into the
  JSON a client reads.

>>> from companion.games.text import _, speaking
>>> from support.pseudo import PSEUDO
>>> with speaking(PSEUDO):
...     said = {"warnings": [_("%(name)s wins.", name="Ann"), "Ben wins."]}
>>> english_left(said, names=["Ann", "Ben"])
[('warnings[1]', 'Ben wins.')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import Game
from companion.games import owl_about as oa
from companion.games.problems import InvalidStateError, Problem, problem_messages
from support.every_game import leaves
from support.pseudo import english_words, texts_at

#: Where a JSON answer holds words for people: problems and their pages' sentences,
#: breakdown lines, warnings, readings, referee verdicts (``words``), OddVille's
#: ``place`` and ``tiebreak_words``, Lucky's ``decided_words``, ``effects``,
#: ``reminder``, ``missing`` and a Machine's ``name``.
HUMAN_KEYS = (
    "message",
    "label",
    "warnings",
    "text",
    "words",
    "messages",
    "place",
    "tiebreak_words",
    "decided_words",
    "effects",
    "reminder",
    "missing",
    "name",
)

#: Strings under :data:`HUMAN_KEYS` that are identifiers, not words: a tiebreaker's
#: ``label`` in an answer stays English (``decided_by`` names it; clients key on it).
IDENTIFIERS = re.compile(r"(^|\.)tiebreak\[\d+\]\.label$")

#: The refusal of a path that is not edited on its own (not a value's problem).
REFUSED_PATH = "This cannot be changed here."

#: A JSON path into a state, as the engines take it.
Path = list[str | int]


@dataclass(frozen=True)
class Change:
    """One change of a state, as the edit history words it."""

    state: Mapping[str, Any]
    path: Path
    previous: Any
    value: Any


@dataclass(frozen=True)
class Examples:
    """What a game's checks run on besides its conformance strategy of valid states.

    ``refused``: states the engine refuses (``validate``) or finds impossible
    (``table_problems``); ``scored``: valid states worth scoring on purpose (an ending, a
    warning, a reading); ``requests``: endpoint name and body, answered or refused;
    ``edits``: a path and a form's text that ``parse_edit`` refuses; ``changes``: lines of
    the edit history; ``endings``: finished results (JSON) whose end the Finish button
    words, beyond those of the scored states; ``words``: for a game that says more to the
    pages (a side described, a round's Fate cards...), a function that says it (called
    inside the pseudo-language, so that the words are built there).
    """

    refused: Sequence[object] = ()
    scored: Sequence[Mapping[str, Any]] = ()
    requests: Sequence[tuple[str, object]] = ()
    edits: Sequence[tuple[Path, str]] = ()
    changes: Sequence[Change] = ()
    endings: Sequence[Mapping[str, Any]] = ()
    words: Callable[[], list[str]] | None = None

    @property
    def filled(self) -> bool:
        """Whether it has the kinds of examples every game has (refused and scored
        states, requests, form edits, history lines)."""
        return all((self.refused, self.scored, self.requests, self.edits, self.changes))


def names_in(document: object) -> list[str]:
    """The player names a request, state or result holds, to leave out of the check: they
    are the players' words, not the app's. Names stand in its ``players`` (names, or
    players with a ``name``), its ``standings`` and ``escape`` (each a ``player``), the
    keys of its ``decks`` and ``powers``, and in the games of a series (``games``) and
    the ``table`` a request carries.

    >>> names_in({"players": [{"name": "Ann "}, "Ben", " "], "decks": {"Cy": {}}})
    ['Ann', 'Ben', 'Cy']
    >>> names_in({"games": [{"players": ["Di"]}], "escape": {"player": "Eve", "by": "x"}})
    ['Eve', 'Di']
    """
    if not isinstance(document, Mapping):
        return []
    entries = [*_listed(document, "players"), *_listed(document, "standings")]
    entries.append(document.get("escape"))
    for key in ("decks", "powers"):
        keyed = document.get(key)
        entries += list(keyed) if isinstance(keyed, Mapping) else []
    found = [name for name in map(_name_of, entries) if name]
    for game in _listed(document, "games"):
        found += names_in(game)
    return found + names_in(document.get("table"))


def _listed(document: Mapping[str, Any], key: str) -> list[Any]:
    """The items of a list under ``key`` (none when it is anything else)."""
    items = document.get(key)
    return items if isinstance(items, list) else []


def _name_of(entry: object) -> str | None:
    """A player's name: the entry itself, or its ``name`` or ``player``; blanks are none."""
    if isinstance(entry, Mapping):
        entry = entry.get("name", entry.get("player"))
    return (entry.strip() or None) if isinstance(entry, str) else None


def english_left(document: object, *, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every human-facing string of a JSON document (path and text) that still holds
    English words outside the pseudo-language's brackets, once ``names`` (the players'
    words, texts shown as typed) are taken out."""
    # An empty name would be taken out between every two letters: no word would be left.
    values = [name for name in names if name.strip()]
    return [
        (path, text)
        for path, text in texts_at(document, HUMAN_KEYS)
        if not IDENTIFIERS.search(path) and english_words(text, values=values)
    ]


def assert_translated(document: object, *, names: Iterable[str] = ()) -> None:
    """No human-facing string of ``document`` holds English left untranslated."""
    assert english_left(document, names=names) == []


def problems_json(problems: Sequence[Problem]) -> dict[str, Any]:
    """Problems as the API lists them (with their readings), and the pages' sentences
    (one for those left out)."""
    return {
        "problems": [problem.to_json() for problem in problems],
        "messages": problem_messages(problems),
        "readings": [problem.reading.to_json() for problem in problems if problem.reading],
    }


def answer(handler: Callable[[object], object], body: object) -> object:
    """An endpoint's answer, or its problems when it refuses the request."""
    try:
        return handler(body)
    except InvalidStateError as refused:
        return problems_json(refused.problems)


def assert_scored_in_pseudo(game: Game, state: Mapping[str, Any]) -> None:
    """Score a valid state and word every part of it that people read: the result, the
    Finish button, each tiebreak value, each field of the history with its value (those
    edited on their own) and the play-along picture."""
    names = names_in(state)
    result = game.checked_score(state).to_json()
    assert_translated(result, names=names)
    ending = game.over_words(result) if result["finished"] else game.going_on_words(result)
    values = [
        tiebreak.say(value["value"])
        for standing in result["standings"]
        for tiebreak, value in zip(game.tiebreaks, standing["tiebreak"], strict=True)
    ]
    assert_translated({"words": [ending, *values]}, names=names)
    for path, value in leaves(state):
        try:
            game.parse_edit(path, as_text(value))
        except InvalidStateError as refused:
            if refused.problems[0].message.strip("⟦⟧") == REFUSED_PATH:
                continue  # not edited on its own: never in the history
        assert_field_in_pseudo(game, state, path, [value])
    if game.has_play_along:
        assert_translated(play_along_words(game, state), names=names)


def play_along_words(game: Game, state: Mapping[str, Any]) -> dict[str, Any]:
    """The rule breaks and card names the play-along picture shows (Owl About's tricks)."""
    board = game.board(state)
    said: list[str] = []
    if isinstance(board, oa.Board) and board.current is not None:
        for trick in board.current.tricks:
            for play in trick.plays:
                said += [*play.broken, play.label]
    return {"words": said}


def assert_history_in_pseudo(game: Game, change: Change) -> None:
    """What the edit history says of a change: the game's own words (if it has some),
    else the field and the values before and after, which conflict messages say too
    ("... at the same time: it is now ...")."""
    said = game.describe_change(change.state, change.path, change.previous, change.value)
    values = [change.previous, change.value]
    assert_field_in_pseudo(game, change.state, change.path, values, said=said)


def assert_field_in_pseudo(
    game: Game,
    state: Mapping[str, Any],
    path: Path,
    values: Sequence[Any],
    *,
    said: str | None = None,
) -> None:
    """A field of the history in the reader's language: the game's words for its change
    (``said``), the field's name, and its ``values`` as people read them.

    A value shown as it was typed (a map row, a name, an unknown key) is the player's
    text, not the app's words: left out when it is shown just as it was entered, and its
    texts (:func:`entered`) taken out of what the app says of the value otherwise.
    """
    names = names_in(state)
    words = [*([] if said is None else [said]), game.describe_path(state, path)]
    assert_translated({"words": words}, names=names)
    shown = [
        text for value in values if (text := game.display_value(path, value)) != as_text(value)
    ]
    typed = [text for value in values for text in entered(value)]
    assert_translated({"words": shown}, names=[*names, *typed])


def entered(value: object) -> list[str]:
    """Every text of a JSON value, keys included: what a player may have typed.

    >>> entered(["FF", {"flora": "A", "size": 2}, None])
    ['FF', 'flora', 'size', 'A']
    """
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [*value, *(text for item in value.values() for text in entered(item))]
    if isinstance(value, list):
        return [text for item in value for text in entered(item)]
    return []


def as_text(value: object) -> str:
    """A stored value as a form would send it (nothing for ``None``).

    >>> as_text(True), as_text(None), as_text(3)
    ('true', '', '3')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)
