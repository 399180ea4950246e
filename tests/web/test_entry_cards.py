"""Entry at paper speed, server side (issue 27): Oddland's Card tool lays a whole 2 x 2 map
card in one edit, and an OddVille card added to the city leaves the palette ready for the
next card (guild and shield back to none)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from support import every_game, luckys, oddland, oddville
from support.client import TableLinks, create_table, csrf


def lay(client: FlaskClient, links: TableLinks, play_id: int, at: str, **card: str) -> int:
    """Tap a space of the map with the Card tool; the answer's status."""
    return oddland.post(
        client, links.edit, play_id, "map", tool="card", cell=f"{at},.", **card
    ).status_code


def test_the_card_tool_lays_four_spaces_in_one_edit(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = oddland.start_oddland(client, links.edit)
    card = {"top_left": "F", "top_right": "S", "bottom_left": "W", "bottom_right": "M"}
    assert lay(client, links, play_id, "0,0", **card) == 200
    assert oddland.state_of(app, play_id)["map"] == ["FS", "WM"]
    # The phone remembers the card: the next tap lays the same card without sending it.
    assert lay(client, links, play_id, "0,2") == 200
    assert oddland.state_of(app, play_id)["map"] == ["FSFS", "WMWM"]
    # Left of the map: every space moves right, still one edit (one undo takes it back).
    assert lay(client, links, play_id, "1,-2", top_left="M") == 200
    assert oddland.state_of(app, play_id)["map"] == ["..FSFS", "MSWMWM", "WM"]
    undone = client.post(
        f"/t/{links.edit}/plays/{play_id}/undo", data={"csrf_token": csrf(client, links.edit)}
    )
    assert undone.status_code == 303
    assert oddland.state_of(app, play_id)["map"] == ["FSFS", "WMWM"]
    # The palette on the page shows the card the tool lays.
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert re.search(r'name="top_left" value="M"\s+checked', page)
    assert re.search(r'name="tool" value="card"\s+checked', page)


def test_a_card_with_an_unknown_terrain_is_refused(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = oddland.start_oddland(client, links.edit)
    assert lay(client, links, play_id, "0,0", top_left="X") == 422
    assert oddland.state_of(app, play_id)["map"] == []


def test_a_new_city_card_leaves_guild_and_shield_behind(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = every_game.start_oddville(client, links.edit)
    palette = {"tool": "place", "points": "guild-2", "guild": "mask", "shield": "2"}
    added = oddville.tap(client, links, play_id, "1,0,empty", owner="Ann", **palette)
    assert added.status_code == 200
    city = oddville.state_of(client, play_id)["city"]
    assert {"guild": "mask", "shield": 2, "owner": "Ann"}.items() <= city[-1].items()
    page = added.get_data(as_text=True)
    assert re.search(r'name="guild" value=""\s+checked', page)
    assert re.search(r'name="shield" value="0"\s+checked', page)
    # Type and owner stay for the next card; changing a card keeps the whole palette.
    assert re.search(r'name="points" value="guild-2"\s+checked', page)
    assert re.search(r'name="owner" value="Ann"\s+checked', page)
    changed = oddville.tap(client, links, play_id, "1,0,card", **palette)
    assert re.search(r'name="shield" value="2"\s+checked', changed.get_data(as_text=True))


def test_the_fate_picker_names_each_suit_on_screen(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = every_game.start_luckys(client, links.edit)
    page = luckys.text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    picker = page[page.index('class="lm-picker"') :]
    for suit, mark in (("Cups", "∪"), ("Swords", "⚔"), ("Wands", "⚚")):  # noqa: RUF001
        # A visible heading (not only a screen-reader label) names the row...
        key = suit.lower()
        heading = f'<p class="lm-suit lm-{key}" id="lm-suit-{key}">'
        assert re.search(
            rf'{heading}<span class="lm-mark" aria-hidden="true">{mark}</span> {suit}</p>', picker
        )
        assert f'aria-labelledby="lm-suit-{key}"' in picker
        # ...and every card of the suit carries its mark next to its value.
        button = re.search(rf'value="{key}-4"[^>]*>4<span class="lm-mark"[^>]*>(.)</span>', picker)
        assert button is not None
        assert button[1] == mark
