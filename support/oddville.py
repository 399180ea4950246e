"""OddVille through the pages, for tests: its forms and the play's stored state."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.models import Play
from support.client import TableLinks, post_game_form
from support.oddville_games import played_games


def post(
    client: FlaskClient, token: str, play_id: int, route: str, *, htmx: bool = True, **data: Any
) -> TestResponse:
    """Post one of the OddVille forms (with this phone's CSRF token)."""
    return post_game_form(client, token, play_id, "oddville", route, htmx=htmx, **data)


def state_of(client: FlaskClient, play_id: int) -> dict[str, Any]:
    """The play's stored state."""
    with client.application.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        return dict(play.state)


def tap(
    client: FlaskClient, links: TableLinks, play_id: int, at: str, **palette: str
) -> TestResponse:
    """A tap on the city at ``at`` with the palette ``palette``."""
    return post(client, links.edit, play_id, "tap", at=at, **palette)


SQUARE = "main-square"


RULEBOOK_PLAYERS = ["Blue", "Purple", "Red", "Yellow"]


def sq(*owners: str, at: tuple[int, int] = (0, 0)) -> dict[str, Any]:
    """The Main Square as the API takes it."""
    return {"at": list(at), "card": SQUARE, "owners": list(owners)}


def card(
    at: tuple[int, int],
    kind: str,
    owner: str | None = None,
    *,
    value: int | None = None,
    guild: str | None = None,
    shield: int = 0,
    counts: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A building as the API takes it."""
    points: dict[str, Any] = {"kind": kind}
    if value is not None:
        points["value"] = value
    if counts is not None:
        points["guild"] = counts
    entry: dict[str, Any] = {"at": list(at), "points": points, **extra}
    if owner is not None:
        entry["owner"] = owner
    if guild is not None:
        entry["guild"] = guild
    if shield:
        entry["shield"] = shield
    return entry


def table(city: list[dict[str, Any]], players: list[str] | None = None, **extra: Any) -> dict:
    return {"players": players or ["Ann", "Ben"], "city": city, **extra}


# The rulebook's picture, rebuilt as a city (Main Square C at the top centre):
#
#   row 1:  H  A  C  D
#   row 2:  E  B  F  G
#
# A and H are Diamond 4; B counts Masks (2 + 3); D counts diamonds (3 + 2); E scores 3 per
# adjacent card (H and B); F adds up the shields of its neighbours (B 1, G 2; C and E show
# none); G counts its column (D and itself). B, E and G are Mask cards.
RULEBOOK_CITY = [
    sq("Blue", "Red"),
    card((0, -1), "diamond", "Blue", value=4),  # A
    card((1, -1), "guild", "Purple", value=2, guild="mask", counts="mask", shield=1),  # B
    card((0, 1), "diamonds", "Purple"),  # D
    card((1, -2), "adjacent-x3", "Red", guild="mask"),  # E
    card((1, 0), "shields", "Red"),  # F
    card((1, 1), "column", "Yellow", guild="mask", shield=2),  # G
    card((0, -2), "diamond", "Yellow", value=4),  # H
]


RULEBOOK = table(RULEBOOK_CITY, RULEBOOK_PLAYERS, ended_by="Red")


PLAYERS = ["Ann", "Ben", "Cy"]


def cities() -> st.SearchStrategy[dict[str, Any]]:
    """Valid tables the rules can produce: games played by the rules to their end, or
    stopped before it with nobody entered as having ended it (``support/oddville_games``)."""
    return st.one_of(played_games(), played_games(finished=False))
