"""Odd World's play page at the end of a game: when the game is over and why, the
readings the verdict rests on next to it (with their rules entries), and the tables the
rules rule out (issue 34)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask.testing import FlaskClient

from companion.games import odd_world
from support.client import TableLinks, create_table, edit, start_play

BIRDS = tuple(odd_world.BIRDS)
IMPOSSIBLE = "Not a table the rules allow"


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann and Ben."""
    return create_table(client, ["Ann", "Ben"])


def page(client: FlaskClient, token: str, play_id: int) -> str:
    """The play page, entities decoded, whitespace squeezed."""
    html = client.get(f"/t/{token}/plays/{play_id}").get_data(as_text=True)
    return re.sub(r"\s+", " ", html_lib.unescape(html))


def enter(client: FlaskClient, token: str, play_id: int, seat: int, **counts: int) -> None:
    """Set a display's counts (bird keys with underscores for hyphens)."""
    for key, n in counts.items():
        path = f"players[{seat}].display.{key.replace('_', '-')}"
        assert edit(client, token, play_id, path=path, value=str(n)).status_code == 200


def face_down(client: FlaskClient, token: str, play_id: int, seat: int, bird: str) -> None:
    path = f"players[{seat}].face_down"
    assert edit(client, token, play_id, path=path, value=bird).status_code == 200


def readings_shown(html: str, section: str) -> dict[str, str]:
    """The readings a section of the page shows: id -> the entry its link opens."""
    found = re.search(rf'<section id="{section}".*?</section>', html, re.S)
    assert found is not None
    return dict(
        re.findall(
            r'<p class="hint reading" data-reading="([^"]+)">[^<]*<a [^>]*href="([^"]+)"',
            found.group(0),
        )
    )


def test_a_face_down_ninth_bird_ends_the_game_by_the_app_s_reading(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    enter(client, links.edit, play_id, 0, **{b.replace("-", "_"): 1 for b in BIRDS[:8]})
    enter(client, links.edit, play_id, 1, shoebill=3)
    assert "the game is over" not in page(client, links.edit, play_id)
    face_down(client, links.edit, play_id, 0, "cassowary")
    html = page(client, links.edit, play_id)
    assert (
        "Ann's face-down card is the ninth bird: revealing it ends the game, so the app counts"
        " the game as over."
    ) in re.sub(r"<[^>]+>", "", html)
    shown = readings_shown(html, "standings")
    assert list(shown) == ["odd-world/face-down", "odd-world/end-check"]
    assert shown["odd-world/end-check"].startswith("/rules/odd-world?")
    assert shown["odd-world/end-check"].endswith("#end-check")
    assert shown["odd-world/face-down"].endswith("#face-down")


def test_every_card_on_the_table_ends_the_game(client: FlaskClient, links: TableLinks) -> None:
    play_id = start_play(client, links.edit)
    enter(client, links.edit, play_id, 0, **{b.replace("-", "_"): 8 for b in BIRDS[:4]})
    enter(client, links.edit, play_id, 1, **{b.replace("-", "_"): 8 for b in BIRDS[4:8]})
    enter(client, links.edit, play_id, 1, cassowary=7)
    assert "the game is over" not in page(client, links.edit, play_id)
    face_down(client, links.edit, play_id, 1, "cassowary")
    html = re.sub(r"<[^>]+>", "", page(client, links.edit, play_id))
    assert (
        "All 72 cards are on the table: both draw piles are empty, so the game is over. Finish it?"
    ) in html


def test_a_second_display_completed_by_its_face_down_card_is_a_table_the_rules_allow(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    enter(client, links.edit, play_id, 0, **{b.replace("-", "_"): 1 for b in BIRDS})
    enter(client, links.edit, play_id, 1, **{b.replace("-", "_"): 2 for b in BIRDS[:8]})
    enter(client, links.edit, play_id, 1, cassowary=1)
    html = page(client, links.edit, play_id)
    assert "Ann and Ben hold all nine birds: the game is over." in re.sub(r"<[^>]+>", "", html)
    assert IMPOSSIBLE not in html
    # Ben's ninth bird shown apart as his face-down card: his display held only eight.
    enter(client, links.edit, play_id, 1, cassowary=0)
    face_down(client, links.edit, play_id, 1, "cassowary")
    assert IMPOSSIBLE not in page(client, links.edit, play_id)
    # Ann's face-down card apart too: her display still holds nine, Ben's only eight.
    face_down(client, links.edit, play_id, 0, "hoopoe")
    assert IMPOSSIBLE not in page(client, links.edit, play_id)
    # Both displays holding nine without their face-down cards: ruled out.
    enter(client, links.edit, play_id, 1, cassowary=1)
    html = page(client, links.edit, play_id)
    assert f"{IMPOSSIBLE}: Ann and Ben each show all nine birds" in html


def test_a_tied_series_shows_its_reading_next_to_the_verdict(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit, series=True)
    enter(client, links.edit, play_id, 0, hoopoe=3)
    enter(client, links.edit, play_id, 1, shoebill=3)
    html = page(client, links.edit, play_id)
    shown = readings_shown(html, "series-lead")
    assert list(shown) == ["odd-world/series/ties"]
    assert shown["odd-world/series/ties"].endswith("#series/ties")
    assert "Sharing the victory when the series totals tie is the app's reading" in html
    enter(client, links.edit, play_id, 1, shoebill=1)
    assert readings_shown(page(client, links.edit, play_id), "series-lead") == {}
