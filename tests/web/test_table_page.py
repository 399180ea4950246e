"""The table page stays cheap as the evening grows: a bounded number of queries to draw
it, its markup kept per state of the table, and never a stale or another phone's page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import groups as group_service
from companion.web import pages, table_pages
from support.client import HTMX, create_table, csrf, edit, start_play
from support.every_game import STARTERS
from support.groups import create_group, start_group_table
from support.queries import counted_queries

PLAYERS = ["Ann", "Ben", "Cy"]


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    data = {"csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    answer = client.post(f"/t/{token}/plays/{play_id}/finish", data=data)
    assert answer.status_code == 303, answer.get_data(as_text=True)


def _statements_to_draw(app: Flask, client: FlaskClient, token: str) -> int:
    """How many SQL statements the table page runs when it is drawn (not kept), with no
    result kept either (a worker's first drawing of it reads every kind of thing)."""
    table_pages.register(app)
    with counted_queries(app) as statements:
        answer = client.get(f"/t/{token}", headers=HTMX)
    assert answer.status_code == 200
    assert "Bring in another phone" in answer.get_data(as_text=True)
    return len(statements)


def _series_of_three(client: FlaskClient, token: str) -> None:
    play = start_play(client, token, series=True)
    for game in range(3):
        edit(client, token, play, path="players[0].display.hoopoe", value=str(game + 1))
        _finish(client, token, play)
        if game < 2:
            following = client.post(
                f"/t/{token}/plays/{play}/next", data={"csrf_token": csrf(client)}
            )
            assert following.status_code == 303
            play = int(following.headers["Location"].split("/plays/")[1].split("?")[0])


@pytest.mark.both_backends("query counts, on each database")
def test_drawing_the_table_page_takes_as_many_queries_however_many_games(
    app: Flask, client: FlaskClient
) -> None:
    links = create_group(client, "Thursdays", PLAYERS)
    with app.test_request_context():
        found = group_service.find(links.edit)
        assert found is not None
        ids = [p.id for p in found.group.players]
    token = start_group_table(client, links.edit, ids)
    _finish(client, token, start_play(client, token))
    client.get(f"/t/{token}")  # the visit is noted: only the page is counted
    start_play(client, token, series=True)  # a new version: the next request draws it
    few = _statements_to_draw(app, client, token)
    for start in STARTERS.values():
        _finish(client, token, start(client, token))
    _series_of_three(client, token)
    _series_of_three(client, token)
    start_play(client, token)
    many = _statements_to_draw(app, client, token)
    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert page.count("Send to BG Stats") == 1 + len(STARTERS) + 6
    assert "Series" in page
    assert many == few, (few, many)


def test_the_kept_page_is_served_with_one_query_and_fresh_form_keys(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_table(client, PLAYERS)
    first = client.get(f"/t/{links.edit}", headers=HTMX).get_data(as_text=True)
    draws: list[int] = []
    context = pages._table_context

    def counted(*args: Any, **kwargs: Any) -> Any:
        draws.append(1)
        return context(*args, **kwargs)

    monkeypatch.setattr(pages, "_table_context", counted)
    with counted_queries(app) as statements:
        second = client.get(f"/t/{links.edit}", headers=HTMX).get_data(as_text=True)
    assert draws == []
    assert len(statements) == 1, statements
    keys = re.compile(r'name="submission" value="([^"]+)"')
    assert set(keys.findall(first)).isdisjoint(keys.findall(second))
    assert len(set(keys.findall(second))) == len(keys.findall(second)) > 0
    assert re.sub(r'value="[^"]+"', "", first) == re.sub(r'value="[^"]+"', "", second)
    # The kept markup's forms work: their CSRF token and key are this answer's.
    token = re.search(r'name="csrf_token" value="([^"]+)"', second)
    assert token is not None
    started = client.post(
        f"/t/{links.edit}/plays", data={"csrf_token": token.group(1), "game": "odd-world"}
    )
    assert started.status_code == 303
    assert "Now playing" in client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert draws == [1]


def test_a_series_game_being_played_updates_the_series_standings(
    client: FlaskClient,
) -> None:
    links = create_table(client, PLAYERS)
    play = start_play(client, links.edit, series=True)
    before = client.get(f"/t/{links.edit}").get_data(as_text=True).split("<h2>Series</h2>")[1]
    edit(client, links.edit, play, path="players[1].display.hoopoe", value="3")
    after = client.get(f"/t/{links.edit}").get_data(as_text=True).split("<h2>Series</h2>")[1]
    leader = re.compile(r"<tr><td>1</td><td>(\w+)</td><td>(\d+)</td></tr>")
    assert ("Ben", "0") not in leader.findall(after)
    assert leader.findall(after) == [("Ben", "3")], after
    assert leader.findall(before) != leader.findall(after)


def test_each_phone_and_link_gets_its_own_page(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, PLAYERS)
    other = app.test_client()
    assert "Whose phone is this?" in other.get(f"/t/{links.edit}").get_data(as_text=True)
    answered = client.post(
        f"/t/{links.edit}/me", data={"csrf_token": csrf(client, f"/t/{links.edit}"), "name": "Ben"}
    )
    assert answered.status_code == 303
    mine = client.get(f"/t/{links.edit}").get_data(as_text=True)
    theirs = other.get(f"/t/{links.edit}").get_data(as_text=True)
    assert 'id="who-title"' not in mine
    assert '<option selected value="Ben">' in mine
    assert 'id="who-title"' in theirs
    # The read-only link never shows the join code, nor the edit link.
    shown = other.get(f"/t/{links.view}").get_data(as_text=True)
    assert links.code not in shown
    assert links.edit not in shown


def test_a_new_join_code_or_edit_link_is_shown_at_once(client: FlaskClient) -> None:
    links = create_table(client, PLAYERS)
    client.post(f"/t/{links.edit}/rotate-code", data={"csrf_token": csrf(client)})
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    code = re.search(r'Table <span class="code">([A-Z0-9]+)</span>', page)
    assert code is not None
    assert code.group(1) != links.code
    rotated = client.post(f"/t/{links.edit}/rotate-link", data={"csrf_token": csrf(client)})
    fresh = rotated.headers["Location"].rsplit("/t/", 1)[1]
    page = client.get(f"/t/{fresh}").get_data(as_text=True)
    assert fresh in page
    assert links.edit not in page
    assert client.get(f"/t/{links.edit}").status_code == 404


def test_merging_a_member_changes_the_table_pages_bg_stats_links(
    app: Flask, client: FlaskClient
) -> None:
    links = create_group(client, "Thursdays", [*PLAYERS, "Anne"])
    with app.test_request_context():
        found = group_service.find(links.edit)
        assert found is not None
        ids = {p.name: p.id for p in found.group.players}
    token = start_group_table(client, links.edit, [ids["Anne"], ids["Ben"]])
    _finish(client, token, start_play(client, token))
    bg_stats = re.compile(r'href="(bgstats://[^"]+)"')
    before = bg_stats.findall(client.get(f"/t/{token}").get_data(as_text=True))
    with app.test_request_context():
        found = group_service.find(links.edit)
        assert found is not None
        group_service.merge_players(found.group, duplicate_id=ids["Anne"], into_id=ids["Ann"])
    after = bg_stats.findall(client.get(f"/t/{token}").get_data(as_text=True))
    assert before
    assert after != before


# --- results kept per game version (services/table_results.py) ------------------------

WINS = re.compile(r"(\w+) wins\s*</li>|: (\w+) won</li>")


def _winners_shown(client: FlaskClient, token: str) -> list[str]:
    """Who the page says won each game, in the games list and the evening, in order."""
    page = client.get(f"/t/{token}").get_data(as_text=True)
    return [a or b for a, b in WINS.findall(page)]


def test_a_kept_result_is_dropped_when_its_game_changes(client: FlaskClient) -> None:
    links = create_table(client, PLAYERS)
    play = start_play(client, links.edit)
    edit(client, links.edit, play, path="players[0].display.hoopoe", value="3")
    _finish(client, links.edit, play)
    assert _winners_shown(client, links.edit) == ["Ann", "Ann"]
    reopened = client.post(
        f"/t/{links.edit}/plays/{play}/reopen", data={"csrf_token": csrf(client)}
    )
    assert reopened.status_code == 303
    edit(client, links.edit, play, path="players[1].display.hoopoe", value="5")
    _finish(client, links.edit, play)
    assert _winners_shown(client, links.edit) == ["Ben", "Ben"]
    evening = client.get(f"/t/{links.edit}").get_data(as_text=True).split('id="evening"')[1]
    assert re.search(
        r'<strong class="ev-name">Ben</strong> <span class="ev-record">1 win', evening
    )


def test_a_redrawn_page_scores_and_reads_again_only_what_changed(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, PLAYERS)
    _finish(client, links.edit, start_play(client, links.edit))
    _series_of_three(client, links.edit)
    start_play(client, links.edit)
    table_pages.register(app)  # nothing kept: as a worker's first drawing
    with counted_queries(app) as first:
        client.get(f"/t/{links.edit}")
    assert any("plays.state" in statement for statement in first)  # the series is scored
    start_play(client, links.edit)  # the page changes, its finished games and series do not
    with counted_queries(app) as again:
        page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert page.count("Odd World, 3 of 3 games") == 1
    assert page.count("in progress") == 2
    assert not any("plays.state" in statement for statement in again), again
    assert len(again) <= len(first)
