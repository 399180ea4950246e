"""A play's result as the engine scores it now: the one source of every score shown.

Plays cache their result with the engine version that computed it (for leaderboards),
in English whatever the phone's language (:func:`stored_result_json`): the stored result
serves the API, exports and statistics, which stay English. :func:`current_result`
recomputes it when the engine changed since, or when the reader reads another language
(its warnings, labels and readings are words), so the play pages and the table's running
totals always agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games import GAMES, Game, text
from companion.games.problems import InvalidStateError
from companion.games.text import _
from companion.models import Play


def game_of(play: Play) -> Game:
    """The engine that scores this play."""
    return GAMES[play.game]


#: How the pages introduce an impossible table (the API refuses it with a 422), in
#: English: :func:`impossible_table` says it in the reader's language.
IMPOSSIBLE_TABLE = "Not a table the rules allow: "


def impossible_table(problem: str) -> str:
    """A problem that makes a table impossible, as the pages warn of it, in the reader's
    language (``problem`` already is).

    >>> impossible_table("Only 8 Hoopoe cards exist.")
    'Not a table the rules allow: Only 8 Hoopoe cards exist.'
    """
    # TRANSLATORS: a warning under the standings; the problem is a whole sentence.
    return _("Not a table the rules allow: %(problem)s", problem=problem)


def result_json(game: Game, state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The engine's result of a state, as JSON (``None`` while it cannot be scored).

    An impossible table (:meth:`~companion.games.Game.table_problems`) is still scored,
    as entry passes through such states, and each of its problems joins the result's
    ``warnings``; those that entry under way produces (``pending``) only once the game
    is over, so a half-entered table is not nagged.
    """
    try:
        result = game.score(state).to_json()
    except InvalidStateError:
        return None
    problems = [p for p in game.table_problems(state) if result["finished"] or not p.pending]
    if problems:
        result["warnings"] = [
            *result["warnings"],
            *(impossible_table(p.message) for p in problems),
        ]
    return result


def stored_result_json(game: Game, state: Mapping[str, Any]) -> dict[str, Any] | None:
    """:func:`result_json` in English, as a play keeps it (whatever the phone's language)."""
    with text.in_english():
        return result_json(game, state)


def is_kept_result_current(play: Play) -> bool:
    """Whether the result the play keeps is the one its reader gets: scored by the engine
    as it is now, and the reader reads English (the language it is kept in)."""
    kept = play.engine_version == game_of(play).engine_version and play.result is not None
    return kept and text.language() == text.ENGLISH


def current_result(play: Play) -> dict[str, Any] | None:
    """The play's result in the reader's language: the kept one when it is current (see
    :func:`is_kept_result_current`), else scored again."""
    if is_kept_result_current(play):
        return play.result
    return result_json(game_of(play), play.state)
