"""A phone's OddVille palette (what the next tap gives) and the card it is moving,
remembered per play in its session, so that live refreshes and no-JavaScript round trips
keep them (as Oddland's palette is)."""

from __future__ import annotations

from collections.abc import Mapping

from flask import session

from companion.services.tables import PlayGlance

SESSION_KEY = "oddville"
#: Palettes remembered per phone (the newest plays only, to keep the cookie small).
REMEMBERED_PLAYS = 4


def remembered(play_id: int) -> dict[str, str]:
    """This phone's palette for the play (empty: the defaults)."""
    return dict(session.get(SESSION_KEY, {}).get(str(play_id), {}))


def kept(play: PlayGlance) -> dict[str, str]:
    """What the play's panel shows from this phone's session: its palette."""
    return remembered(play.id)


def remember(play_id: int, palette: Mapping[str, str]) -> None:
    """Keep this phone's palette for the play (the cookie is only rewritten on a change)."""
    if remembered(play_id) == dict(palette):
        return
    saved = dict(session.get(SESSION_KEY, {}))
    saved.pop(str(play_id), None)
    saved[str(play_id)] = dict(palette)
    session[SESSION_KEY] = dict(list(saved.items())[-REMEMBERED_PLAYS:])
