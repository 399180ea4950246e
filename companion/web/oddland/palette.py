"""The palette of a phone (tool, player, species, direction) and its play-along card being
entered (where it goes, its terrains, the token), remembered per play in its session, so
that live refreshes and no-JavaScript round trips keep them."""

from __future__ import annotations

from collections.abc import Mapping

from flask import session

from companion.services.tables import PlayGlance

SESSION_KEY = "oddland"
DRAFT_KEY = "oddland-card"
#: Palettes remembered per phone (the newest plays only, to keep the cookie small).
REMEMBERED_PLAYS = 4


def remembered(play_id: int) -> dict[str, str]:
    """This phone's palette for the play (empty: the defaults)."""
    return _remembered_in(SESSION_KEY, play_id)


def remember(play_id: int, palette: Mapping[str, str]) -> None:
    """Keep this phone's palette for the play (the cookie is only rewritten on a change)."""
    _remember_in(SESSION_KEY, play_id, palette)


def _remembered_in(key: str, play_id: int) -> dict[str, str]:
    return dict(session.get(key, {}).get(str(play_id), {}))


def _remember_in(key: str, play_id: int, values: Mapping[str, str]) -> None:
    if _remembered_in(key, play_id) == dict(values):
        return
    saved = dict(session.get(key, {}))
    saved.pop(str(play_id), None)
    saved[str(play_id)] = dict(values)
    session[key] = dict(list(saved.items())[-REMEMBERED_PLAYS:])


def draft(play_id: int, *, laid: int) -> dict[str, str]:
    """The play-along card this phone is entering, while no card was laid since."""
    found = _remembered_in(DRAFT_KEY, play_id)
    return found if found.get("laid") == str(laid) else {}


def keep_draft(play_id: int, values: Mapping[str, str]) -> None:
    """Keep the play-along card being entered (``laid``: the cards on the map under it)."""
    _remember_in(DRAFT_KEY, play_id, values)


def kept(play: PlayGlance) -> dict[str, dict[str, str]]:
    """All this phone keeps for the play: what its panel shows from the session."""
    return {"palette": remembered(play.id), "draft": _remembered_in(DRAFT_KEY, play.id)}
