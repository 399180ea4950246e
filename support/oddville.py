"""OddVille through the pages, for tests: its forms and the play's stored state."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.games.grid import neighbours
from companion.games.oddville import (
    CHARACTERS,
    GUILDS,
    Bonus,
)
from companion.games.oddville.facts import FACING, MAIN_SQUARE_EDGES, WORKERS_TO_END
from companion.models import Play
from support.client import TableLinks, post_game_form


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


KIND_VALUES: dict[str, list[int | None]] = {
    "diamond": [4, 5],
    "diamonds": [None],
    "adjacent": [None],
    "column": [None],
    "row": [None],
    "adjacent-x3": [None],
    "shields": [None],
    "guild": [1, 2],
}


@st.composite
def cities(draw: st.DrawFn) -> dict[str, Any]:
    """A valid three-player table: a connected city grown from the Main Square, whose
    entered edges meet (houses on houses, streets on streets), nobody owning more than the
    6 buildings the end of the game allows."""
    placed = {(0, 0)}
    edges_at = {(0, 0): MAIN_SQUARE_EDGES}
    buildings = dict.fromkeys(PLAYERS, 0)
    workers = dict.fromkeys(PLAYERS, 0)
    city: list[dict[str, Any]] = [sq(*draw(st.lists(st.sampled_from(PLAYERS), unique=True)))]
    for owner in city[0]["owners"]:
        workers[owner] += 1
    for _ in range(draw(st.integers(0, 14))):
        frontier = sorted(
            {n for cell in placed for n in neighbours(cell) if n[0] >= 0 and n not in placed}
        )
        at = draw(st.sampled_from(frontier))
        placed.add(at)
        kind = draw(st.sampled_from(sorted(KIND_VALUES)))
        value = draw(st.sampled_from(KIND_VALUES[kind]))
        guild = draw(st.sampled_from([None, *GUILDS]))
        if kind == "guild" and guild is None:
            guild = "rooster"
        free = [p for p in PLAYERS if workers[p] < WORKERS_TO_END and buildings[p] < 6]
        owner = draw(st.sampled_from([None, *free]))
        if owner is not None:
            workers[owner] += 1
            buildings[owner] += 1
        entry = card(at, kind, owner, value=value, guild=guild, shield=draw(st.integers(0, 3)))
        if draw(st.booleans()):
            edges = list(draw(st.text(alphabet="HS", min_size=4, max_size=4)))
            for offset, (mine, theirs) in FACING.items():
                other = edges_at.get((at[0] + offset[0], at[1] + offset[1]))
                if other is not None:
                    edges[mine] = other[theirs]  # a laid card matches its neighbours
            entry["edges"] = edges_at[at] = "".join(edges)
            entry["bonus"] = draw(st.sampled_from([b.value for b in Bonus]))
        city.append(entry)
    held = draw(st.lists(st.sampled_from(sorted(CHARACTERS)), unique=True, max_size=6))
    characters: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for key in held:
        characters[draw(st.sampled_from(PLAYERS))].append(key)
    board = {p: draw(st.integers(0, 9 - workers[p])) for p in PLAYERS}
    return {
        "players": PLAYERS,
        "ended_by": draw(st.sampled_from([None, *PLAYERS])),
        "city": city,
        "characters": characters,
        "resource_workers": board,
    }
