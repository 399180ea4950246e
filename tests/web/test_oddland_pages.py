"""Oddland through the pages: options, painting the map, tokens, facts, scoring, saved
definitions, the play-along referee, conflicts and refusals (on SQLite and PostgreSQL)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.models import Play, SpeciesDefinition
from support.client import HTMX, TableLinks, create_table, csrf, standings_readings
from support.oddland import IN_BOX, KNOWN, post, start_oddland, state_of, turn_form

# --- helpers ---------------------------------------------------------------------------


def tap(
    client: FlaskClient,
    token: str,
    play_id: int,
    tool: str,
    cell: tuple[int, int],
    *,
    base: str = ".",
    player: str = "Ann",
    species: str = "begator",
    direction: str = "right",
) -> TestResponse:
    """Tap a space with a palette tool."""
    return post(
        client,
        token,
        play_id,
        "map",
        tool=tool,
        cell=f"{cell[0]},{cell[1]},{base}",
        player=player,
        species=species,
        direction=direction,
    )


def paint_rows(client: FlaskClient, token: str, play_id: int, rows: list[str]) -> None:
    """Paint a whole map, space by space."""
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if letter != ".":
                assert tap(client, token, play_id, letter, (r, c)).status_code == 200


def text(response: TestResponse) -> str:
    """A response as text with HTML apostrophes decoded."""
    return response.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann and Ben."""
    return create_table(client, ["Ann", "Ben"])


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    """An Oddland play (map entered at the end)."""
    return start_oddland(client, links.edit)


# --- options ---------------------------------------------------------------------------


def test_options_page_offers_species_sides_and_modes(
    client: FlaskClient, links: TableLinks
) -> None:
    page = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "oddland", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    assert page.status_code == 303
    html = text(client.get(page.headers["Location"]))
    for name in ("Begator", "Flora", "Owloose", "Pangeroo", "Whalephant", "Pigehorse"):
        assert f">{name}</label>" in html
    assert "Other species 1" in html
    assert "Play along" in html
    assert "Solo rules" not in html  # two players: solo rules are offered to one player only
    # The box has six double-sided species cards: six start on side A, the count says so.
    assert "6 of 6 species cards in play." in html
    grizzsleep = re.search(r'<select id="side_grizzsleep".*?</select>', html, re.S)
    assert grizzsleep is not None
    assert '<option selected value="">Not in play</option>' in grizzsleep[0]
    solo = create_table(client, ["Cy"])
    page = client.post(
        f"/t/{solo.edit}/plays",
        data={"game": "oddland", "csrf_token": csrf(client, f"/t/{solo.edit}")},
    )
    assert '<input checked id="solo" name="solo"' in text(client.get(page.headers["Location"]))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"solo": "y"}, "Solo rules are for 1 player; this table has 2."),
        ({"extra_name_0": "Begator"}, "Begator is already listed."),
        ({"extra_name_0": "!!!"}, "Use letters and digits"),
        ({"side_begator": "C"}, "Not a valid choice"),
        ({f"side_{key}": "" for key in KNOWN}, "Put at least one species card in play."),
        ({}, "The box has 6 species cards and 7 are in play"),
        ({"side_grizzsleep": "", "extra_name_0": "Sea Dragon"}, "and 7 are in play"),
    ],
)
def test_bad_options_are_422_and_start_nothing(
    app: Flask, client: FlaskClient, links: TableLinks, options: dict[str, str], message: str
) -> None:
    data = {f"side_{key}": "A" for key in KNOWN}
    data.update(options)
    data["csrf_token"] = csrf(client, f"/t/{links.edit}/plays/new/oddland")
    response = client.post(f"/t/{links.edit}/plays/new/oddland", data=data)
    assert response.status_code == 422
    assert message in text(response)
    with app.app_context():
        assert db.session.query(Play).count() == 0


def test_options_start_the_game_with_sides_extra_species_and_solo(
    app: Flask, client: FlaskClient
) -> None:
    solo = create_table(client, ["Ann"])
    play = start_oddland(
        client,
        solo.edit,
        side_owloose="B",
        side_grizzsleep="",
        side_pigehorse="",
        extra_name_0="Sea Dragon",
        extra_side_0="B",
        solo="y",
    )
    state = state_of(app, play)
    assert state["sides"]["owloose"] == "B"
    assert "grizzsleep" not in state["sides"]
    assert state["sides"]["sea-dragon"] == "B"
    assert state["solo"] is True
    assert "cards" not in state


def test_six_players_cannot_start_oddland(client: FlaskClient) -> None:
    six = create_table(client, ["A", "B", "C", "D", "E", "F"])
    data = {f"side_{key}": "A" for key in IN_BOX}
    data["csrf_token"] = csrf(client, f"/t/{six.edit}/plays/new/oddland")
    response = client.post(f"/t/{six.edit}/plays/new/oddland", data=data)
    assert response.status_code == 422
    assert "Oddland is for 1 to 5 players; this table has 6." in text(response)


# --- the map ---------------------------------------------------------------------------


def test_empty_map_page_and_fragment(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    assert "The map is empty." in page
    assert 'aria-label="Row 1, col 1: empty"' in page
    assert "games/oddland.css" in page
    fragment = text(client.get(f"/t/{links.edit}/plays/{play_id}", headers=HTMX))
    assert fragment.lstrip().startswith('<section id="play"')
    assert "<svg" in fragment


def test_painting_grows_the_map_and_draws_territories(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FFW", "FSW"])
    assert state_of(app, play_id)["map"] == ["FFW", "FSW"]
    # Tap again to change a space; its base is the letter shown.
    response = tap(client, links.edit, play_id, "M", (1, 1), base="S")
    assert response.status_code == 200
    html = text(response)
    assert state_of(app, play_id)["map"] == ["FFW", "FMW"]
    assert "Map of 6 spaces in 3 territories with 0 tokens." in html
    assert 'aria-label="Row 2, col 2: mountain"' in html
    assert 'class="ol-outline"' in html
    assert '<text class="ol-size"' in html
    # Growing up and left shifts the map: the new space becomes row 1, col 1.
    assert tap(client, links.edit, play_id, "W", (-1, -1)).status_code == 200
    assert state_of(app, play_id)["map"] == ["W", ".FFW", ".FMW"]


def test_clearing_a_space(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FFW"])
    assert tap(client, links.edit, play_id, "clear", (0, 2), base="W").status_code == 200
    assert state_of(app, play_id)["map"] == ["FF"]
    assert tap(client, links.edit, play_id, "clear", (0, 0), base="F").status_code == 200
    assert state_of(app, play_id)["map"] == [".F"]


def test_plain_form_post_redirects_back_and_remembers_the_tool(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = post(
        client, links.edit, play_id, "map", htmx=False, tool="W", cell="0,0,.", direction="right"
    )
    assert response.status_code == 303
    page = text(client.get(response.headers["Location"]))
    assert 'value="W" checked' in page
    assert 'aria-label="Row 1, col 1: water"' in page


def test_palette_is_remembered_across_refreshes(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = post(
        client, links.edit, play_id, "tool", tool="token", player="Ben", species="flora",
        direction="down",
    )  # fmt: skip
    assert response.status_code == 204
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}/poll?version=99", headers=HTMX))
    assert 'value="token" checked' in page
    assert '<option value="Ben" selected>' in page
    assert '<option value="down" selected>' in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"tool": "lava", "cell": "0,0,."}, "Pick a tool from the palette."),
        ({"tool": "F", "cell": "zero"}, "Tap a space of the map."),
        ({"tool": "F", "cell": "0,0,X"}, "Tap a space of the map."),
        ({"tool": "F", "cell": "9999,0,."}, "Tap a space of the map."),
        ({"tool": "F", "cell": "200,0,."}, "A map can span at most 148 rows"),
        ({"tool": "token", "cell": "0,0,.", "species": "dragon"}, "Pick a species in play"),
    ],
)
def test_bad_taps_are_422_and_store_nothing(
    app: Flask,
    client: FlaskClient,
    links: TableLinks,
    play_id: int,
    data: dict[str, str],
    message: str,
) -> None:
    data = {"player": "Ann", "species": "begator", "direction": "right", **data}
    response = post(client, links.edit, play_id, "map", **data)
    assert response.status_code == 422
    assert message in text(response)
    assert state_of(app, play_id)["map"] == []


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_stale_tap_on_the_same_space_is_a_conflict(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert tap(client, links.edit, play_id, "F", (0, 0)).status_code == 200
    # A second phone still shows the space empty and paints it water.
    clash = tap(app.test_client(), links.edit, play_id, "W", (0, 0), base=".")
    assert clash.status_code == 409
    assert "Someone changed row 1, col 1 at the same time: it is now forest." in text(clash)
    assert state_of(app, play_id)["map"] == ["F"]


def test_two_phones_painting_one_row_keep_both_spaces(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    other = app.test_client()
    assert tap(client, links.edit, play_id, "F", (0, 0)).status_code == 200
    assert tap(other, links.edit, play_id, "W", (0, 1)).status_code == 200
    assert tap(client, links.edit, play_id, "S", (0, 2)).status_code == 200
    assert state_of(app, play_id)["map"] == ["FWS"]


# --- tokens ----------------------------------------------------------------------------


def test_tokens_one_and_two_spaces_and_removal(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FFWW", "FSSW", "MM.."])
    assert tap(client, links.edit, play_id, "token", (0, 1), base="F").status_code == 200
    whale = tap(
        client, links.edit, play_id, "token", (1, 1), base="S", player="Ben",
        species="whalephant", direction="right",
    )  # fmt: skip
    assert whale.status_code == 200
    tokens = state_of(app, play_id)["tokens"]
    assert tokens == [
        {"player": "Ann", "species": "begator", "cells": [[0, 1]]},
        {"player": "Ben", "species": "whalephant", "cells": [[1, 1], [1, 2]]},
    ]
    html = text(whale)
    assert "Ann's Begator" in html
    assert 'aria-label="Row 2, col 3: shore, Ben\'s Whalephant"' in html
    removed = tap(client, links.edit, play_id, "remove", (1, 2), base="S")
    assert removed.status_code == 200
    assert len(state_of(app, play_id)["tokens"]) == 1


@pytest.mark.parametrize(
    ("cell", "species", "direction", "message"),
    [
        ((2, 3), "begator", "right", "Paint row 3, col 4 first: a token lies on a space."),
        ((0, 1), "flora", "right", "Row 1, col 2 already holds Ann's Begator."),
        ((0, 3), "whalephant", "right", "Paint row 1, col 5 first"),
        ((1, 0), "begator", "right", "Ann has only 1 Begator token."),
    ],
)
def test_illegal_tokens_are_422(
    app: Flask,
    client: FlaskClient,
    links: TableLinks,
    play_id: int,
    cell: tuple[int, int],
    species: str,
    direction: str,
    message: str,
) -> None:
    paint_rows(client, links.edit, play_id, ["FFWW", "FSSW", "MM.."])
    assert tap(client, links.edit, play_id, "token", (0, 1), base="F").status_code == 200
    response = tap(
        client, links.edit, play_id, "token", cell, species=species, direction=direction
    )
    assert response.status_code == 422
    assert message in text(response)
    assert len(state_of(app, play_id)["tokens"]) == 1


def test_clearing_a_token_space_is_refused(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FF"])
    tap(client, links.edit, play_id, "token", (0, 0), base="F")
    response = tap(client, links.edit, play_id, "clear", (0, 0), base="F")
    assert response.status_code == 422
    assert "Row 1, col 1 holds Ann's Begator: remove the token before clearing" in text(response)


def test_growing_above_moves_tokens_with_the_map(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FW"])
    tap(client, links.edit, play_id, "token", (0, 1), base="W")
    assert tap(client, links.edit, play_id, "M", (-1, 1)).status_code == 200
    state = state_of(app, play_id)
    assert state["map"] == [".M", "FW"]
    assert state["tokens"][0]["cells"] == [[1, 1]]
    # A move that cannot end well changes nothing, not even half-way.
    too_far = tap(client, links.edit, play_id, "F", (-200, 0))
    assert too_far.status_code == 422
    assert "A map can span at most 148 rows" in text(too_far)
    assert state_of(app, play_id) == state
    # Map and tokens moved in one edit: one undo puts both back.
    history = text(client.get(f"/t/{links.edit}/plays/{play_id}/history"))
    assert "1 token → 0 tokens" not in history
    token = csrf(client, f"/t/{links.edit}")
    undone = client.post(f"/t/{links.edit}/plays/{play_id}/undo", data={"csrf_token": token})
    assert undone.status_code == 303
    state = state_of(app, play_id)
    assert state["map"] == ["FW"]
    assert state["tokens"][0]["cells"] == [[0, 1]]


# --- facts and scores -------------------------------------------------------------------


def test_token_facts_are_shown(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    paint_rows(client, links.edit, play_id, ["FFWW", "FSSW", "MM.."])
    html = text(tap(client, links.edit, play_id, "token", (0, 1), base="F"))
    assert "Ann's Begator" in html
    assert "Territory: forest of 3." in html
    assert "Neighbouring territories: water 3, shore 2, mountain 2 (7 spaces)." in html
    assert '<th scope="row">Surrounding</th><td>6</td>' in html
    facts = text(client.get(f"/t/{links.view}/plays/{play_id}/oddland/facts"))
    assert "Territory: forest of 3." in facts
    assert "<svg" in facts
    fragment = text(client.get(f"/t/{links.view}/plays/{play_id}/oddland/facts", headers=HTMX))
    assert fragment.lstrip().startswith('<section class="ol-facts card"')
    assert "Territory: forest of 3." in fragment


def test_scores_and_tiebreak_are_explained(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    # Ann's Flora sits in a forest of 3, Ben's in a water of 1: both score 0.
    paint_rows(client, links.edit, play_id, ["FFFW"])
    tap(client, links.edit, play_id, "token", (0, 0), base="F", species="flora")
    html = text(
        tap(client, links.edit, play_id, "token", (0, 3), base="W", player="Ben", species="flora")
    )
    assert "Territories holding tokens, largest first decides: Ann 3, Ben 1. Ann leads." in html
    assert "Flora (A) at row 1, col 1: no scoring effect" in html


def test_manual_points_replace_the_computed_score(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FW"])
    tap(client, links.edit, play_id, "token", (0, 0), base="F", species="owloose")
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    assert "scored 0: the app does not know how Owloose A scores" in page
    assert 'class="ol-need"' in page
    saved = post(
        client, links.edit, play_id, "points", **{"pts-owloose-0": "6", "base-owloose-0": ""}
    )
    assert saved.status_code == 200
    html = text(saved)
    assert "Owloose: entered on the scoreboard" in html
    assert "Ann leads with 6 points." in html
    bad = post(
        client, links.edit, play_id, "points", **{"pts-owloose-1": "-2", "base-owloose-1": ""}
    )
    assert bad.status_code == 422
    assert "Points cannot be negative outside solo mode." in text(bad)
    words = post(client, links.edit, play_id, "points", **{"pts-owloose-1": "six"})
    assert words.status_code == 422
    assert "Ben, Owloose: Enter a whole number of points." in text(words)


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_stale_points_are_a_conflict(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    post(client, links.edit, play_id, "points", **{"pts-owloose-0": "6", "base-owloose-0": ""})
    clash = post(
        app.test_client(), links.edit, play_id, "points",
        **{"pts-owloose-0": "4", "base-owloose-0": ""},
    )  # fmt: skip
    assert clash.status_code == 409
    assert "Someone changed Ann's Owloose points at the same time: it is now 6." in text(clash)


def test_side_change(app: Flask, client: FlaskClient, links: TableLinks, play_id: int) -> None:
    response = post(client, links.edit, play_id, "side", species="begator", side="B")
    assert response.status_code == 200
    assert state_of(app, play_id)["sides"]["begator"] == "B"
    assert "Not known to the app" in text(response)
    bad = post(client, links.edit, play_id, "side", species="dragon", side="A")
    assert bad.status_code == 422
    # All 6 species cards of the box are in play: a 7th species is refused.
    seventh = post(client, links.edit, play_id, "side", name="Sea Dragon", side="B")
    assert seventh.status_code == 422
    assert "The box has 6 species cards" in text(seventh)
    assert "sea-dragon" not in state_of(app, play_id)["sides"]
    five = start_oddland(client, links.edit, **{f"side_{IN_BOX[-1]}": ""})
    added = post(client, links.edit, five, "side", name="Sea Dragon", side="B")
    assert added.status_code == 200
    assert state_of(app, five)["sides"]["sea-dragon"] == "B"
    assert '<th scope="row">Sea Dragon</th>' in text(added)
    nonsense = post(client, links.edit, five, "side", name="!!", side="A")
    assert nonsense.status_code == 422


@pytest.mark.both_backends("definitions are upserted per database")
def test_saved_definition_scores_and_is_reused_by_the_next_game(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FFWW", "FSSW", "MM.."])
    tap(client, links.edit, play_id, "token", (0, 0), base="F", species="owloose")
    response = post(
        client, links.edit, play_id, "definition", species="owloose", side="A", points="3",
        per="space", region="row", terrain="W", only_species="", two_space="smallest",
        solo_modifier="-2", count_own_space="y",
    )  # fmt: skip
    assert response.status_code == 200, text(response)
    html = text(response)
    assert "Defined by this table: 3 points per water space in its row (solo modifier -2)." in html
    assert "Owloose (A) at row 1, col 1: 2 water spaces in its row, 3 points each" in html
    with app.app_context():
        saved = db.session.query(SpeciesDefinition).one()
        assert (saved.species, saved.side, saved.rule["region"]) == ("owloose", "A", "row")
    later = start_oddland(client, links.edit)
    assert state_of(app, later)["definitions"]["owloose"]["A"]["terrain"] == "W"
    page = text(client.get(f"/t/{links.edit}/plays/{later}"))
    assert "Defined by this table: 3 points per water space in its row" in page
    forgot = post(
        client, links.edit, later, "definition", species="owloose", side="A", action="forget"
    )
    assert forgot.status_code == 200
    assert state_of(app, later)["definitions"] == {}
    with app.app_context():
        assert db.session.query(SpeciesDefinition).count() == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"points": "lots"}, "Not a valid integer value."),
        ({"points": "500"}, "Enter -99 to 99 points."),
        ({"only_species": "flora"}, 'A species filter only works with "per": "token".'),
        ({"region": "sky"}, "Not a valid choice"),
        ({"species": "dragon"}, "Pick a species in play."),
    ],
)
def test_bad_definitions_are_422(
    app: Flask,
    client: FlaskClient,
    links: TableLinks,
    play_id: int,
    data: dict[str, str],
    message: str,
) -> None:
    form = {"species": "owloose", "side": "A", "points": "1", "per": "space",
            "region": "row", "two_space": "smallest", "solo_modifier": "0", **data}  # fmt: skip
    response = post(client, links.edit, play_id, "definition", **form)
    assert response.status_code == 422
    assert message in text(response)
    with app.app_context():
        assert db.session.query(SpeciesDefinition).count() == 0


def test_history_names_oddland_fields(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FW"])
    history = text(client.get(f"/t/{links.edit}/plays/{play_id}/history"))
    assert "map row 1: F → FW." in history
    assert "the map: 0 spaces → 1 space." in history


# --- play-along ----------------------------------------------------------------------------


def lay_setup(client: FlaskClient, token: str, play: int) -> None:
    """Lay the 2 set-up cards (no token): the map is then FSFF over WMWW."""
    token_fields = ("player", "species", "space", "second")
    for laid, (col, terrains) in enumerate([(0, "FSWM"), (2, "FFWW")]):
        # The set-up card's form has no token fields.
        card = {k: v for k, v in turn_form(0, col, terrains).items() if k not in token_fields}
        response = post(client, token, play, "turn", action="place", laid=str(laid), **card)
        assert response.status_code == 200, text(response)


def test_play_along_referee(app: Flask, client: FlaskClient, links: TableLinks) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    assert state_of(app, play)["cards"] == []
    page = text(client.get(f"/t/{links.edit}/plays/{play}"))
    assert "Set-up card 1 of 2: the cards dealt face up to start the map carry no token" in page
    assert 'id="ol-turn-species"' not in page  # no token to choose
    check = post(
        client, links.edit, play, "turn", action="check", laid="0", **turn_form(0, 0, "FSWM")
    )
    assert check.status_code == 200
    assert "Legal: this set-up card follows every rule." in text(check)
    assert text(check).count('class="ol-ghost ol-t-') == 4  # the card checked, drawn
    assert 'class="ol-ghost-token"' not in text(check)
    assert state_of(app, play)["cards"] == []
    lay_setup(client, links.edit, play)
    assert [card.get("token") for card in state_of(app, play)["cards"]] == [None, None]
    # Card 3 is the first turn: Ann lays it with her Begator on the mountain.
    laid = post(
        client, links.edit, play, "turn", action="place", laid="2", **turn_form(2, 0, "MMSS")
    )
    assert laid.status_code == 200, text(laid)
    assert "Card 4" in text(laid)
    assert 'id="ol-turn-species"' in text(laid)
    # Ben lays a card that does not touch the map: refused, with the reason.
    far = post(
        client, links.edit, play, "turn", action="place", laid="3",
        **turn_form(6, 6, "FFFF", player="Ben", species="flora"),
    )  # fmt: skip
    assert far.status_code == 422
    assert "The card must share an edge with a space of the map." in text(far)
    # A token in a territory that holds one already (the mountain joins Ann's Begator's).
    taken = post(
        client, links.edit, play, "turn", action="place", laid="3",
        **turn_form(2, 2, "MMWW", player="Ben", species="flora"),
    )  # fmt: skip
    assert taken.status_code == 422
    assert "already holds Ann's Begator" in text(taken)
    # Above the map and a fresh water territory: legal; the map shifts down.
    above = post(
        client, links.edit, play, "turn", action="place", laid="3",
        **turn_form(-2, 0, "WWFF", player="Ben", species="flora"),
    )  # fmt: skip
    assert above.status_code == 200, text(above)
    score = text(client.get(f"/t/{links.edit}/plays/{play}"))
    assert "Begator (A) at row 5, col 1" in score
    assert len(state_of(app, play)["cards"]) == 4
    # Undo the card (and its token).
    undone = post(client, links.edit, play, "turn/undo", laid="4")
    assert undone.status_code == 200
    assert len(state_of(app, play)["cards"]) == 3
    stale = post(client, links.edit, play, "turn/undo", laid="4")
    assert stale.status_code == 409
    # The shared undo reverts the last edit: the undo above.
    token = csrf(client, f"/t/{links.edit}")
    client.post(f"/t/{links.edit}/plays/{play}/undo", data={"csrf_token": token}, headers=HTMX)
    assert len(state_of(app, play)["cards"]) == 4


def test_play_along_whalephant_and_supply(client: FlaskClient, links: TableLinks) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    lay_setup(client, links.edit, play)
    whale = turn_form(2, 0, "FFWW", species="whalephant", space="top-left", second="top-right")
    assert post(client, links.edit, play, "turn", laid="2", **whale).status_code == 200
    again = turn_form(4, 0, "MMSS", species="whalephant", space="top-left", second="top-right")
    response = post(client, links.edit, play, "turn", laid="3", **again)
    assert response.status_code == 422
    assert "Ann has only 1 Whalephant token." in text(response)


def setup_form(row: int, col: int, terrains: str) -> dict[str, str]:
    """The turn form of a set-up card: no token fields."""
    return {
        k: v
        for k, v in turn_form(row, col, terrains).items()
        if k not in ("player", "species", "space", "second")
    }


def verdict_readings(html: str) -> list[str]:
    """The ids of the readings shown beside the play-along verdict."""
    verdict = re.search(r'<div class="ol-verdict.*?</div>', html, re.S)
    assert verdict is not None
    return re.findall(r'data-reading="([^"]+)"', verdict.group(0))


def test_play_along_second_set_up_card_lies_beside_the_first(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    first = post(client, links.edit, play, "turn", action="place", laid="0",
                 **setup_form(0, 0, "FSWM"))  # fmt: skip
    assert first.status_code == 200, text(first)
    # On the first card (covering 2 of its spaces): refused beside the form, not stored.
    on = post(client, links.edit, play, "turn", action="place", laid="1",
              **setup_form(0, 1, "FFWW"))  # fmt: skip
    assert on.status_code == 422
    assert "The 2 set-up cards are dealt next to each other: this second one would lie on" in (
        text(on)
    )
    assert '#setup/pair"' in text(on)  # the rule it applies, linked
    assert len(state_of(app, play)["cards"]) == 1
    # In line beside it: the set-up itself, no reading involved.
    beside = post(client, links.edit, play, "turn", action="check", laid="1",
                  **setup_form(0, 2, "FFWW"))  # fmt: skip
    assert beside.status_code == 200
    assert verdict_readings(text(beside)) == []
    # Shifted by one space: next to it all the same, the app's reading said beside it.
    shifted = post(client, links.edit, play, "turn", action="check", laid="1",
                   **setup_form(1, 2, "FFWW"))  # fmt: skip
    assert shifted.status_code == 200
    assert "Legal: this set-up card follows every rule." in text(shifted)
    assert verdict_readings(text(shifted)) == ["oddland/setup/pair"]
    laid = post(client, links.edit, play, "turn", action="place", laid="1",
                **setup_form(1, 2, "FFWW"))  # fmt: skip
    assert laid.status_code == 200, text(laid)
    readings = standings_readings(text(client.get(f"/t/{links.edit}/plays/{play}")))
    assert any(r.startswith("Accepting set-up cards shifted by one space") for r in readings)


def test_map_tools_are_refused_in_play_along(client: FlaskClient, links: TableLinks) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    response = tap(client, links.edit, play, "F", (0, 0))
    assert response.status_code == 422
    assert "In a play-along game the map grows card by card." in text(response)
    plain = start_oddland(client, links.edit)
    refused = post(client, links.edit, plain, "turn", laid="0", **turn_form(0, 0, "FFFF"))
    assert refused.status_code == 422
    assert "not started as play-along" in text(refused)


# --- access --------------------------------------------------------------------------------


def test_read_only_link_shows_no_controls_and_changes_nothing(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FW"])
    page = text(client.get(f"/t/{links.view}/plays/{play_id}"))
    assert "<svg" in page
    # Action routes only: the map's own page and the rules reference are for reading.
    assert "/oddland/" not in page.replace("/oddland/facts", "").replace("/rules/oddland", "")
    assert 'name="cell"' not in page
    token = csrf(client, f"/t/{links.view}")
    for route in ("map", "tool", "points", "side", "definition", "turn", "turn/undo"):
        response = client.post(
            f"/t/{links.view}/plays/{play_id}/oddland/{route}",
            data={"csrf_token": token, "tool": "F", "cell": "0,0,F"},
        )
        assert response.status_code == 403, route
    assert state_of(app, play_id)["map"] == ["FW"]


def test_requests_without_csrf_token_are_refused(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    for route in ("map", "tool", "points", "definition", "turn"):
        response = client.post(
            f"/t/{links.edit}/plays/{play_id}/oddland/{route}",
            data={"tool": "F", "cell": "0,0,."},
            headers=HTMX,
        )
        assert response.status_code == 400
    assert state_of(app, play_id)["map"] == []


def test_oddland_routes_refuse_other_games(client: FlaskClient, links: TableLinks) -> None:
    token = csrf(client, f"/t/{links.edit}")
    started = client.post(
        f"/t/{links.edit}/plays", data={"game": "odd-world", "csrf_token": token}
    )
    other = int(started.headers["Location"].split("/plays/")[1].split("?")[0])
    response = tap(client, links.edit, other, "F", (0, 0))
    assert response.status_code == 404


def test_finished_game_takes_no_taps(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    token = csrf(client, f"/t/{links.edit}")
    client.post(
        f"/t/{links.edit}/plays/{play_id}/finish", data={"csrf_token": token, "confirm": "yes"}
    )
    response = tap(client, links.edit, play_id, "F", (0, 0))
    assert response.status_code == 422
    assert "This game is finished." in text(response)
    assert 'name="cell"' not in text(client.get(f"/t/{links.edit}/plays/{play_id}"))


# --- schema --------------------------------------------------------------------------------


@pytest.mark.both_backends("the migrations build each database's schema")
def test_migrations_match_the_models(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_no_tap_answers_500(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    for cell in ("", "-1,-1,.", "1,1", "a,b,c", "0,0,F,F", "-999,0,."):
        for tool in ("F", "clear", "token", "remove", ""):
            response = tap_raw(client, links.edit, play_id, tool=tool, cell=cell)
            assert response.status_code < 500, (tool, cell)


def tap_raw(client: FlaskClient, token: str, play_id: int, **data: str) -> TestResponse:
    """Post arbitrary palette fields."""
    return post(
        client, token, play_id, "map", direction="right", player="Ann", species="begator", **data
    )


def test_scores_are_listed_with_every_line(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FFWW", "FSSW", "MM.."])
    html = text(tap(client, links.edit, play_id, "token", (0, 1), base="F"))
    assert (
        "Begator (A) at row 1, col 2: 7 spaces in neighbouring territories, 2 points each" in html
    )
    assert re.search(r'<span class="score">14</span>', html)


FUZZ_KEYS = st.sampled_from(
    ["tool", "cell", "player", "species", "direction", "pts-owloose-0", "base-owloose-0",
     "side", "points", "per", "region", "terrain", "only_species", "solo_modifier",
     "two_space", "row", "col", "top_left", "space", "second", "laid", "action"]
)  # fmt: skip
FUZZ_VALUES = st.text(max_size=12) | st.sampled_from(
    ["F", "clear", "token", "remove", "0,0,.", "-1,-1,.", "Ann", "begator", "whalephant",
     "down", "A", "-3", "99999", "row", "check", "place", "forget", "top-left", "0", "-2"]
)  # fmt: skip


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(form=st.dictionaries(FUZZ_KEYS, FUZZ_VALUES, max_size=6), htmx=st.booleans())
def test_random_oddland_forms_never_cause_a_500(
    client: FlaskClient, links: TableLinks, play_id: int, form: dict[str, str], htmx: bool
) -> None:
    token = csrf(client, f"/t/{links.edit}")
    for route in ("map", "tool", "points", "side", "definition", "turn", "turn/undo"):
        response = client.post(
            f"/t/{links.edit}/plays/{play_id}/oddland/{route}",
            data={**form, "csrf_token": token},
            headers=HTMX if htmx else {},
        )
        assert response.status_code < 500, (route, form)


def test_web_module_examples() -> None:
    # The registry imports the game packages: import it first, as the app does.
    from companion.web import games, oddland, svg_grid

    assert games.PAGES["oddland"] is oddland.GAME_PAGES
    modules = [
        importlib.import_module(f"{oddland.__name__}.{info.name}")
        for info in pkgutil.iter_modules(oddland.__path__)
    ]
    assert len(modules) >= 4  # forms, palette, routes, view
    for module in [oddland, svg_grid, *modules]:
        assert doctest.testmod(module).failed == 0, module.__name__


# --- the map stays as big as the cards can make ----------------------------------------------


def test_painting_far_corners_cannot_make_a_huge_grid(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert tap(client, links.edit, play_id, "F", (0, 0)).status_code == 200
    corner = tap(client, links.edit, play_id, "W", (147, 147))
    assert corner.status_code == 422
    assert "The spaces of this map span 148 rows and 148 columns" in text(corner)
    assert len(corner.get_data()) < 200_000  # the grid drawn is still the small map
    wide = tap(client, links.edit, play_id, "W", (0, 74))
    assert wide.status_code == 422
    assert "1 row and 75 columns; the 37 map cards make at most 74" in text(wide)
    assert state_of(app, play_id)["map"] == ["F"]
    # Within what the cards make, the map grows as before.
    assert tap(client, links.edit, play_id, "W", (0, 73)).status_code == 200
    assert state_of(app, play_id)["map"] == ["F" + "." * 72 + "W"]


def test_a_checked_card_far_off_the_map_is_not_drawn(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    first = post(client, links.edit, play, "turn", laid="0", **turn_form(0, 0, "FSWM"))
    assert first.status_code == 200
    far = post(
        client, links.edit, play, "turn", action="check", laid="1",
        **turn_form(140, 140, "FFFF", player="Ben", species="flora"),
    )  # fmt: skip
    assert far.status_code == 422
    assert "The card must share an edge with a space of the map." in text(far)
    assert 'class="ol-ghost' not in text(far)
    assert len(far.get_data()) < 200_000
    near = post(
        client, links.edit, play, "turn", action="check", laid="1",
        **turn_form(2, 0, "WWMM", player="Ben", species="flora"),
    )  # fmt: skip
    assert text(near).count('class="ol-ghost ol-t-') == 4


def test_a_blank_map_keeps_its_places_after_the_first_paint(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert tap(client, links.edit, play_id, "F", (0, 0)).status_code == 200
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    for r in range(1, 5):
        for c in range(1, 5):
            assert f'aria-label="Row {r}, col {c}: ' in page
    assert 'aria-label="Row 1, new column left: empty"' in page


def test_a_wide_map_scales_with_a_readable_minimum(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["F" * 12])
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    assert 'class="ol-map ol-wide"' in page
    # 14 columns drawn (the map and its ring): at least 24 px each, plus the gutter.
    assert '<svg class="ol-min" width="348"' in page


def test_play_along_card_by_taps_without_javascript(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    lay_setup(client, links.edit, play)
    taps = [{"at": "2,0"}] + [
        {"terrain": f"{space}:{letter}"}
        for space, letter in (
            ("top_left", "F"),
            ("top_right", "F"),
            ("bottom_left", "W"),
            ("bottom_right", "M"),
        )
    ]
    for extra in taps:
        response = post(
            client,
            links.edit,
            play,
            "turn/card",
            htmx=False,
            player="Ben",
            species="flora",
            **extra,
        )
        assert response.status_code == 303
    # Tapping a space of the new card puts the token there.
    post(client, links.edit, play, "turn/card", htmx=False, player="Ben", at="3,1")
    page = text(client.get(f"/t/{links.edit}/plays/{play}"))
    assert "Its top-left space goes at row 3, col 1." in page
    assert '<input type="hidden" name="bottom_right" value="M">' in page
    assert '<option value="bottom-right" selected>bottom right</option>' in page
    assert "the new card&#39;s top left" in page or "the new card's top left" in page
    assert page.count('class="ol-ghost ') == 4
    # The turn form holds the card: laying it takes one more tap.
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    response = post(
        client,
        links.edit,
        play,
        "turn",
        htmx=False,
        action="place",
        player="Ben",
        species="flora",
        space="bottom-right",
        **{
            k: fields[k]
            for k in ("laid", "row", "col", "top_left", "top_right", "bottom_left", "bottom_right")
        },
    )
    assert response.status_code == 303
    cards = state_of(app, play)["cards"]
    assert cards[2]["card"]["terrains"] == ["FF", "WM"]
    assert cards[2]["token"]["player"] == "Ben"
    # The next card starts blank.
    page = text(client.get(f"/t/{links.edit}/plays/{play}"))
    assert "Tap the map where its top-left space goes." in page


def test_draft_taps_are_refused_outside_play_along(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = post(client, links.edit, play_id, "turn/card", at="0,0")
    assert response.status_code == 422


def _store_state(app: Flask, play_id: int, state: dict[str, Any]) -> None:
    """Put a whole state in a play (as if every space and token had been tapped)."""
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        play.state = state
        play.result = None
        play.version += 1  # a new version: no page kept from before serves it
        db.session.commit()


def shown_once_finished(
    app: Flask,
    client: FlaskClient,
    token: str,
    play_id: int,
    *,
    rows: list[str],
    tokens: list[dict[str, Any]],
) -> list[str]:
    """The problems shown beside the map once the last token is placed (the play's map and
    tokens replaced); before it, while a player is still placing, none are."""
    state = {**state_of(app, play_id), "map": rows, "tokens": tokens}
    _store_state(app, play_id, {**state, "tokens": tokens[:-1]})
    assert "ol-map-problem" not in text(client.get(f"/t/{token}/plays/{play_id}"))
    _store_state(app, play_id, state)
    html = text(client.get(f"/t/{token}/plays/{play_id}"))
    return re.findall(r'<p class="error ol-map-problem">([^<]*)</p>', html)


def test_a_finished_map_the_cards_cannot_make_is_shown_beside_the_map(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    # A checkerboard of two full rows, and one space under them no 2x2 card can make.
    rows = ["FWFWFWFW", "WFWFWFWF", "F......."]
    species = ["begator", "flora", "flora", "owloose", "pangeroo", "pigehorse"]
    tokens = [
        {"player": name, "species": key, "cells": [[row, col]]}
        for row, name in enumerate(["Ann", "Ben"])
        for col, key in enumerate(species)
    ]
    tokens += [
        {"player": name, "species": "whalephant", "cells": [[row, 6], [row, 7]]}
        for row, name in enumerate(["Ann", "Ben"])
    ]
    problems = shown_once_finished(app, client, links.edit, play_id, rows=rows, tokens=tokens)
    assert problems == [
        "Not a table the rules allow: Map cards are 2x2, so every space lies in a 2x2 block"
        " of the map, but row 3 col 1 does not.",
        "Not a table the rules allow: 14 tokens mean 14 turns after the set-up: its 2 cards"
        " make 8 spaces and each turn's card adds at least 2 (a card covers at most 2), so"
        " the map has at least 36 spaces, not 17.",
    ]


def test_the_standings_show_the_readings_the_verdict_rests_on(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    # Nothing tells Ann and Ben apart: the shared victory is the app's reading.
    paint_rows(client, links.edit, play_id, ["FFW", "FFW"])
    for token in (links.edit, links.view):
        [shared] = standings_readings(text(client.get(f"/t/{token}/plays/{play_id}")))
        assert shared.startswith("A shared victory is the app's reading")
    # A token in a larger territory decides: no reading is involved any more.
    tap(client, links.edit, play_id, "token", (0, 0), base="F", species="flora")
    assert standings_readings(text(client.get(f"/t/{links.edit}/plays/{play_id}"))) == []


def test_a_finished_map_without_the_set_up_pair_is_shown_beside_the_map(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann"])
    play_id = start_oddland(client, links.edit, solo="y")
    # Every space lies in a 2x2 block, but no 2 whole cards lie side by side.
    rows = ["FFF", "FFF", "FFF"]
    species = ["flora", "flora", "begator", "owloose", "pangeroo", "pigehorse"]
    tokens = [
        {"player": "Ann", "species": key, "cells": [[n // 3, n % 3]]}
        for n, key in enumerate(species)
    ]
    tokens.append({"player": "Ann", "species": "whalephant", "cells": [[2, 0], [2, 1]]})
    problems = shown_once_finished(app, client, links.edit, play_id, rows=rows, tokens=tokens)
    assert problems[0] == (
        "Not a table the rules allow: The 2 set-up cards are dealt face up next to each other,"
        " and a covered space stays a space, so every map holds 2 whole cards side by side (2"
        " rows of 4 spaces, or 4 rows of 2), but this one does not."
    )
    assert "so the map has at least 22 spaces, not 9." in problems[1]


def test_a_painted_map_on_a_shifted_set_up_pair_says_the_reading(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    paint_rows(client, links.edit, play_id, ["FF..", "FFWW", "..WW"])
    readings = standings_readings(text(client.get(f"/t/{links.edit}/plays/{play_id}")))
    assert any(r.startswith("Accepting set-up cards shifted by one space") for r in readings)


def test_a_solo_whalephant_shows_its_readings(client: FlaskClient) -> None:
    links = create_table(client, ["Ann"])
    play_id = start_oddland(client, links.edit, solo="y")
    paint_rows(client, links.edit, play_id, ["FF", "FF"])
    whale = tap(client, links.edit, play_id, "token", (0, 0), base="F", species="whalephant")
    assert whale.status_code == 200, text(whale)
    readings = standings_readings(text(client.get(f"/t/{links.edit}/plays/{play_id}")))
    assert any(r.startswith("The Whalephant's token covering two") for r in readings)
    assert any(r.startswith("The solo modifiers are the app's reading") for r in readings)


def test_play_along_offers_the_next_player_clockwise_and_refuses_another(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    lay_setup(client, links.edit, play)
    # Ben goes first (the table chose him): Ann is next, clockwise.
    first = turn_form(2, 0, "MMSS", player="Ben")
    assert post(client, links.edit, play, "turn", laid="2", **first).status_code == 200
    page = text(client.get(f"/t/{links.edit}/plays/{play}"))
    assert '<option value="Ann" selected>Ann</option>' in page
    again = turn_form(2, 2, "WWFF", player="Ben", species="flora")
    response = post(client, links.edit, play, "turn", laid="3", **again)
    assert response.status_code == 422
    assert "Card 4: it is Ann's turn" in text(response)
    assert len(state_of(app, play)["cards"]) == 3
