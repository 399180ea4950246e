"""A play's result as the engine scores it now: the one source of every score shown.

Plays cache their result with the engine version that computed it (for leaderboards);
:func:`current_result` recomputes it when the engine changed since, so the play pages and
the table's running totals always agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games import GAMES, Game
from companion.games.problems import InvalidStateError
from companion.models import Play


def game_of(play: Play) -> Game:
    """The engine that scores this play."""
    return GAMES[play.game]


#: How the pages introduce an impossible table (the API refuses it with a 422).
IMPOSSIBLE_TABLE = "Not a table the rules allow: "


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
            *(IMPOSSIBLE_TABLE + p.message for p in problems),
        ]
    return result


def current_result(play: Play) -> dict[str, Any] | None:
    """The play's result, recomputed when the engine changed since it was cached."""
    game = game_of(play)
    if play.engine_version != game.engine_version or play.result is None:
        return result_json(game, play.state)
    return play.result
