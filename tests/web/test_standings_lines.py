"""The play page says why each player is ahead of the next (issue 27), built in Python
(``services.explain.pairs``) and shown under the standings sentence."""

from __future__ import annotations

from flask.testing import FlaskClient

from support.client import create_table, start_play


def test_the_standings_say_why_each_neighbour_is_ahead(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    play_id = start_play(client, links.edit, "luckys-misadventures")
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert '<ul class="pair-lines">' in page
    lines = page.split('<ul class="pair-lines">', 1)[1].split("</ul>", 1)[0]
    assert lines.count("<li>") == 2
    assert "Ann and Ben tie: both on 10 points and on every tiebreaker." in lines
    assert "Ben and Cy tie: both on 10 points and on every tiebreaker." in lines
