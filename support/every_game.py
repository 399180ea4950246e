"""Every registered game, for the tests that go through all of them: how to start a play
of it through the pages with the test client (``STARTERS``), a hypothesis strategy of its
valid states (``STRATEGIES``, for the conformance suite), and the fields of any game's
state (:func:`leaves`) for the checks that go through them. A new game is added to the
first two (docs/development.md, "Adding a game")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from hypothesis import strategies as st

from companion.games import GAMES
from support import luckys, odd_world, oddland, oddville, owl_about
from support.client import create_table, csrf, start_play
from support.groups import create_group
from support.oddland import start_oddland
from support.owl_about import start_owl


def start_luckys(client: FlaskClient, token: str) -> int:
    """Start a Lucky's Misadventures game at the table (no options)."""
    return start_play(client, token, "luckys-misadventures")


def start_oddville(client: FlaskClient, token: str, **colours: str) -> int:
    """Start OddVille through its options page (colours by seat unless given)."""
    page = client.post(
        f"/t/{token}/plays",
        data={"game": "oddville", "confirm": "yes", "csrf_token": csrf(client, f"/t/{token}")},
    )
    assert page.status_code == 303
    data = dict(colours)
    data["csrf_token"] = csrf(client, f"/t/{token}/plays/new/oddville")
    response = client.post(f"/t/{token}/plays/new/oddville", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].split("/plays/")[1].split("?")[0])


PLAYERS = ["Ann", "Ben", "Cy"]  # a count every game accepts


# How to start a play of each game through the pages; a new game must be added here.
STARTERS: dict[str, Callable[[FlaskClient, str], int]] = {
    "odd-world": start_play,
    "owl-about": start_owl,
    "oddland": start_oddland,
    "luckys-misadventures": start_luckys,
    "oddville": start_oddville,
}


#: A strategy of valid states per registered game (tests/games/test_conformance.py).
STRATEGIES: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "odd-world": odd_world.states(),
    "owl-about": owl_about.games(),
    "oddland": oddland.tables(),
    "luckys-misadventures": luckys.tables(),
    "oddville": oddville.cities(),
}


@dataclass
class Fixture:
    """A table's two links, one play of every game, and a group's two links."""

    edit: str
    view: str
    plays: dict[str, int]
    #: A group's two links (its routes are walked with these).
    group_edit: str = ""
    group_view: str = ""


def table_with_every_game(client: FlaskClient) -> Fixture:
    """A table and one play of every registered game, started through the pages."""
    links = create_table(client, PLAYERS)
    assert set(STARTERS) == set(GAMES), "start a play of every game in STARTERS"
    plays = {slug: start(client, links.edit) for slug, start in STARTERS.items()}
    group = create_group(client, "Walkers", PLAYERS)
    return Fixture(
        edit=links.edit,
        view=links.view,
        plays=plays,
        group_edit=group.edit,
        group_view=group.view,
    )


def leaves(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[list[str | int], Any]]:
    """Every scalar of a JSON-like state with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from leaves(value, (*path, index))
    else:
        yield list(path), node
