"""A play-along game at a table: with replays remembered, the map the pages and the result
show after laying cards, the play-along undo and the shared undo is the one a fresh
replay of the stored cards gives."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.games import oddland as engine
from companion.games.oddland import placement
from companion.services import oddland as service
from support.client import HTMX, TableLinks, create_table, csrf
from support.oddland import post, start_oddland, state_of, turn_form


@contextmanager
def no_cache() -> Iterator[None]:
    """Replays inside lay every card again."""
    kept = placement.REPLAYS
    placement.REPLAYS = placement.ReplayCache(size=0)
    try:
        yield
    finally:
        placement.REPLAYS = kept


def fresh(state: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The board and result of a stored state with every card laid again."""
    with no_cache():
        return service.board(state), engine.GAME.score(state).to_json(), engine.parse(state)


def same_as_fresh(app: Flask, play: int) -> None:
    """What the cache gives for the stored play equals a fresh replay."""
    state = state_of(app, play)
    board, result, table = fresh(state)
    for _ in range(2):
        assert service.board(state) == board
        assert engine.GAME.score(state).to_json() == result
        assert engine.parse(state).analysis.tokens == table.analysis.tokens
        assert engine.parse(state).analysis.spaces == table.analysis.spaces


def test_moves_and_undos_give_the_state_a_fresh_replay_gives(
    app: Flask, client: FlaskClient
) -> None:
    links: TableLinks = create_table(client, ["Ann", "Ben"])
    play = start_oddland(client, links.edit, play_along="y")
    turns = [
        turn_form(0, 0, "FSWM"),
        turn_form(-2, 0, "WWFF", player="Ben", species="flora"),
        turn_form(0, 2, "MMSS", player="Ben", species="owloose", space="top-right"),
    ]
    for laid, form in enumerate(turns):
        response = post(client, links.edit, play, "turn", action="place", laid=str(laid), **form)
        assert response.status_code == 200, response.get_data(as_text=True)
        same_as_fresh(app, play)
    assert post(client, links.edit, play, "turn/undo", laid="3").status_code == 200
    same_as_fresh(app, play)
    assert len(state_of(app, play)["cards"]) == 2
    # The shared undo puts the card back: the longer game is remembered already.
    token = csrf(client, f"/t/{links.edit}")
    client.post(f"/t/{links.edit}/plays/{play}/undo", data={"csrf_token": token}, headers=HTMX)
    assert len(state_of(app, play)["cards"]) == 3
    same_as_fresh(app, play)
    page = client.get(f"/t/{links.edit}/plays/{play}").get_data(as_text=True)
    assert "Owloose (A)" in page
