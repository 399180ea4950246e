"""A group's pages say every word through gettext (issue 36): with results, ratings,
charts, a head-to-head and refusals on them, the pseudo-language walk finds no English
word left, and the rules pages' chrome around the per-language entries neither."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import groups
from companion.services.tables import Access
from support.client import csrf
from support.groups import Tally, finish_with, member_ids, tallies
from support.page_words import pseudo_pages, words_left

__all__ = ["tallies"]  # fixtures

NAMES = ["Ann", "Ben", "Cy"]
#: The group's own words (its name, players, the test games' names) and the questions.
VALUES = [*NAMES, "Thursdays", Tally.name, "Low Tally", "tiebreak", "zzzzqqq"]
AT = datetime(2026, 3, 1, 20, 0)


def group_with_results(app: Flask) -> tuple[str, dict[str, int]]:
    """A group with a week of finished plays in two games; its edit token and ids."""
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Thursdays", NAMES)
        ids = member_ids(group)
        table = groups.start_table(group, seated=list(ids.values()))
        for day in range(7):
            scores = {"Ann": 5, "Ben": 3, "Cy": day % 4}
            finish_with(table, "tally", scores, at=AT + timedelta(days=20 * day))
        finish_with(table, "low-tally", {"Ann": 5, "Ben": 3, "Cy": 3}, at=AT)
        return groups.token_for(group, Access.EDIT), ids


@pytest.mark.usefixtures("tallies")
def test_every_group_page_with_results_says_its_words_through_gettext(
    app: Flask, client: FlaskClient
) -> None:
    token, ids = group_with_results(app)
    pages = [
        f"/g/{token}",
        f"/g/{token}/stats",
        f"/g/{token}/stats?game=tally",
        f"/g/{token}/stats?game=low-tally",
        f"/g/{token}/versus?a={ids['Ann']}&b={ids['Ben']}",
        f"/g/{token}/versus?a={ids['Ann']}&b={ids['Ann']}",
        f"/g/{token}/history",
        f"/g/{token}/history?since=2026-05-01&until=2026-04-01",
        "/groups/new",
        "/rules/search?q=tiebreak",
        "/rules/search?q=zzzzqqq&game=oddland",
        "/rules/odd-world",
    ]
    with pseudo_pages() as language:
        for url in pages:
            page = client.get(url, headers={"Accept-Language": language})
            assert page.status_code in (200, 422), url
            assert words_left(page.get_data(as_text=True), VALUES) == [], url


def test_a_refused_group_form_says_why_in_the_phone_s_language(client: FlaskClient) -> None:
    data = {"name": "", "players-0": "Ann", "players-1": "ann", "csrf_token": csrf(client)}
    with pseudo_pages() as language:
        page = client.post("/groups", data=data, headers={"Accept-Language": language})
        assert page.status_code == 422
        assert words_left(page.get_data(as_text=True), ["Ann", "ann"]) == []
