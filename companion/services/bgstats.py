"""Send a finished play to BG Stats through its documented push link.

BG Stats (the play-logging app) opens ``bgstats://app.bgstatsapp.com/createPlay.html``
with one query parameter, ``data``: the play as URL-encoded JSON. Its fields: the sending
app (``sourceName``) and its id for the play (``sourcePlayId``, stable, so sending again
updates rather than duplicates), ``playDate`` ("YYYY-MM-DD HH:MM:SS", UTC),
``durationMin``, the ``game`` (``name``, ``sourceGameId``, ``highestWins``, ``noPoints``)
and the ``players`` (``name``, ``sourcePlayerId``, ``score``, ``winner``, ``rank``,
``startPlayer``, ``seatOrder``). Every boolean is always sent: the app is known to refuse
a play that leaves one out.

Nothing is sent by the server: the page shows the link, the phone opens it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from companion.games import GAMES
from companion.games.ranking import ScoreOrder
from companion.models import Play
from companion.services.results import current_result

PUSH_LINK = "bgstats://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Odd Companion"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"
ID_LENGTH = 16


def _opaque(*parts: object) -> str:
    """A stable id that says nothing about the table (its uid never leaves the server)."""
    text = ":".join(str(p) for p in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:ID_LENGTH]


def play_data(play: Play) -> dict[str, Any] | None:
    """The createPlay payload of a finished play, or ``None`` (not finished, or its
    result cannot be computed)."""
    return play_data_with(play, current_result(play))


def play_data_with(play: Play, result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """:func:`play_data` from the play's current result, read already."""
    if not play.finished or result is None or play.finished_at is None:
        return None
    game = GAMES[play.game]
    table = play.table
    seats = list(play.player_ids or {})
    seats += [s["player"] for s in result["standings"] if s["player"] not in seats]
    # The group member of each name as played (through the seat, so a rename since then
    # keeps the same id, and BG Stats matches the same person every time).
    by_id = {p.id: p.group_player_id for p in table.players}
    members = {name: by_id.get(pid) for name, pid in (play.player_ids or {}).items()}
    minutes = max(1, round((play.finished_at - play.created_at).total_seconds() / 60))
    players = []
    for standing in sorted(result["standings"], key=lambda s: seats.index(s["player"])):
        seat = seats.index(standing["player"])
        member = members.get(standing["player"])
        who = ("member", table.group_id, member) if member else ("seat", table.uid, seat)
        players.append(
            {
                "name": standing["player"],
                "sourcePlayerId": _opaque(*who),
                "score": standing["score"],
                "winner": bool(standing["winner"]),
                "rank": standing["rank"],
                # The first seat of the seating order starts, as the play was entered.
                "startPlayer": seat == 0,
                "seatOrder": seat + 1,
            }
        )
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": _opaque("play", table.uid, play.id),
        "playDate": play.finished_at.strftime(PLAY_DATE),
        "durationMin": minutes,
        "game": {
            "name": game.name,
            "sourceGameId": game.slug,
            "highestWins": game.score_order is ScoreOrder.HIGHEST_FIRST,
            "noPoints": False,
        },
        "players": players,
    }


def push_link(play: Play) -> str | None:
    """The link that opens BG Stats with this play filled in, or ``None``."""
    return push_link_with(play, current_result(play))


def push_link_with(play: Play, result: Mapping[str, Any] | None) -> str | None:
    """:func:`push_link` from the play's current result, read already."""
    data = play_data_with(play, result)
    if data is None:
        return None
    encoded = quote(json.dumps(data, separators=(",", ":"), ensure_ascii=False), safe="")
    return f"{PUSH_LINK}?data={encoded}"
