"""One name for a play (issue 27): the export list said "Odd World #4" where the games
list said "game 2 of 3"; both now say the game and its place in the series."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from support.client import create_table, csrf, start_play


def test_the_export_list_names_a_play_as_the_games_list_does(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    first = start_play(client, links.edit, "odd-world", series=True)
    finished = client.post(
        f"/t/{links.edit}/plays/{first}/finish",
        data={"confirm": "yes", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    assert finished.status_code == 303
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    keep = page.split('id="keep"', 1)[1].split("</section>", 1)[0]
    assert re.search(r"<li>Odd World · game 1 of 3:", keep)
    assert "#1" not in keep
    assert f'plays/{first}">Odd World · game 1 of 3</a>' in page
