"""The rules reference pages: every game's page with anchors, search (htmx fragment and the
plain GET page), the entry panel and its way back, links from verdicts, the service worker."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient

from companion.rules import load
from support.client import HTMX, TableLinks, create_table, csrf, start_play
from support.oddland import post, start_oddland, turn_form
from support.owl_about import TABLE, act, page, start_owl, start_round, tap_all

LIBRARY = load()
SITE = "http://companion.test"


def html(client: FlaskClient, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    body = response.get_data(as_text=True)
    response.close()
    return body


@pytest.mark.parametrize("slug", sorted(LIBRARY.games))
def test_each_game_page_has_every_entry_at_its_anchor(client: FlaskClient, slug: str) -> None:
    body = html(client, f"/rules/{slug}")
    for entry in LIBRARY.games[slug].entries:
        assert f'id="{entry.id}"' in body
        assert f'href="#{entry.id}"' in body
    for topic in LIBRARY.games[slug].topics:
        assert f'id="topic-{topic.id}"' in body
    assert body.count('class="why-label"') == sum(
        1 for e in LIBRARY.games[slug].entries if e.clarification
    )


def test_rules_index_lists_every_game_and_searches_without_javascript(
    client: FlaskClient,
) -> None:
    body = html(client, "/rules")
    for slug in LIBRARY.games:
        assert f'href="/rules/{slug}"' in body
    assert re.search(
        r'<form class="rule-search" role="search" method="get" action="/rules/search"', body
    )
    assert 'name="q"' in body
    assert 'hx-get="/rules/search"' in body


def test_an_unknown_game_or_entry_is_404(client: FlaskClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/owl-about/entry?id=nope").status_code == 404
    assert client.get("/rules/chess/entry?id=follow").status_code == 404


def test_search_page_without_javascript_lists_results(client: FlaskClient) -> None:
    body = html(client, "/rules/search?q=cassowery")
    assert "<html" in body
    assert 'value="cassowery"' in body
    first = re.search(r'<ol class="rule-hits".*?<a href="([^"]+)"', body, re.S)
    assert first
    assert first.group(1) == "/rules/odd-world#components"
    assert "Searched for: cassowary" in body


def test_search_fragment_for_htmx_is_the_results_only(client: FlaskClient) -> None:
    response = client.get("/rules/search?q=nite+card&game=owl-about", headers=HTMX)
    body = response.get_data(as_text=True)
    assert "<html" not in body
    assert "HX-Request" in response.headers.get("Vary", "")
    links = re.findall(r'<li><a href="([^"]+)"', body)
    assert links[0] == "/rules/owl-about#night"
    assert all(link.startswith("/rules/owl-about#") for link in links)
    assert "<mark>" in body


def test_search_in_an_unknown_game_searches_all(client: FlaskClient) -> None:
    body = html(client, "/rules/search?q=whalephant&game=<b>", **HTMX)
    assert "/rules/oddland#species/whalephant" in body


def test_search_escapes_the_query_and_the_highlights(client: FlaskClient) -> None:
    evil = "<script>alert(1)</script>"
    for headers in ({}, HTMX):
        assert "<script>alert" not in html(client, f"/rules/search?q={evil}", **headers)
    escaped = 'value="&lt;script&gt;alert(1)&lt;/script&gt;"'
    assert escaped in html(client, f"/rules/search?q={evil}")
    nothing = html(client, "/rules/search?q=%3Ci%3Ezzzz", **HTMX)
    assert "No rule matches “&lt;i&gt;zzzz”" in nothing
    body = html(client, "/rules/search?q=player%27s+tokens", **HTMX)
    marks = re.sub(r"</?mark>", "", body)
    assert "<mark" not in marks
    assert "&#39;" in body


def test_the_panel_shows_one_entry_for_htmx(client: FlaskClient) -> None:
    body = html(client, "/rules/owl-about/entry?id=follow", **HTMX)
    assert "<html" not in body
    assert "Which card may I play?" in body
    assert "data-close-rule-panel" in body
    assert 'href="/rules/owl-about#follow"' in body


def test_the_panel_without_javascript_opens_the_page_at_the_entry(client: FlaskClient) -> None:
    response = client.get("/rules/oddland/entry?id=placement/edge&at=trick")
    assert response.status_code == 302
    target = urlsplit(response.headers["Location"])
    assert target.path == "/rules/oddland"
    assert target.fragment == "placement/edge"
    assert parse_qs(target.query) == {"at": ["trick"]}


@pytest.mark.parametrize(
    ("referrer", "at", "back"),
    [
        ("http://companion.test/t/abc/plays/1?seat=all", "trick", "/t/abc/plays/1?seat=all#trick"),
        ("http://companion.test/t/abc/plays/1", "", "/t/abc/plays/1"),
        ("http://companion.test/t/abc/plays/1", 'x"><b>', "/t/abc/plays/1"),
        (
            "http://companion.test/owl-about/check?cards=6",
            "checker",
            "/owl-about/check?cards=6#checker",
        ),
        ("http://evil.example/t/abc", "trick", None),
        ("http://companion.test/rules/oddland", "", None),
        ("", "trick", None),
    ],
)
def test_the_way_back_is_the_referring_page_of_this_site(
    client: FlaskClient, referrer: str, at: str, back: str | None
) -> None:
    headers = {"Referer": referrer} if referrer else {}
    response = client.get(f"/rules/owl-about?at={at}", headers=headers)
    body = response.get_data(as_text=True)
    assert ("Back to the game" in body) is (back is not None)
    if back:
        assert f'href="{back}"' in body


def test_no_rules_address_ever_carries_a_table_address(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    body = html(client, f"/t/{links.edit}/plays/{play_id}")
    rules_links = re.findall(r'href="(/rules[^"]*)"', body) + re.findall(
        r'hx-get="(/rules[^"]*)"', body
    )
    assert rules_links
    for link in rules_links:
        assert links.edit not in link
        assert "/t/" not in link


def test_rules_are_linked_from_home_and_every_page(client: FlaskClient) -> None:
    assert 'href="/rules"' in html(client, "/")
    assert 'href="/rules"' in html(client, "/join")


def test_the_service_worker_is_served_from_the_root(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    etag = response.headers["ETag"]
    response.close()
    with client.get("/sw.js", headers={"If-None-Match": etag}) as unchanged:
        assert unchanged.status_code == 304  # revalidated on every load, cheaply
    assert '"/rules"' in script
    assert 'referrerPolicy: "no-referrer"' in script
    registered = html(client, "/static/companion.js")
    assert 'navigator.serviceWorker.register("/sw.js")' in registered


def test_rules_pages_print_without_the_controls(client: FlaskClient) -> None:
    css = html(client, "/static/companion.css")
    printing = css[css.index("@media print") :]
    for hidden in (".rule-search", ".rule-panel", ".top", ".foot"):
        assert hidden in printing


# --- links from the play -------------------------------------------------------------------


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    return create_table(client, TABLE)


def rule_links(body: str) -> dict[str, str]:
    """Rule links on a page: the entry each opens in the panel -> its no-JS address."""
    found = re.findall(
        r'<a class="rule-link" href="([^"]+)" hx-get="/rules/([a-z-]+)/entry\?id=([^"]+)"', body
    )
    return {f"{slug}/{entry.replace('%2F', '/')}": href for href, slug, entry in found}


def test_an_owl_about_follow_problem_links_to_the_follow_rule(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Miu")
    for player, hand in (("Romi", "3 8"), ("Tom", "N6 6 1")):
        data = {"player": player, "hand": hand, "seat": str(TABLE.index(player))}
        assert act(client, links.edit, play_id, "hand", data).status_code == 200
    fragment = tap_all(client, links.edit, play_id, ["6", "2", "3", "N6"]).get_data(as_text=True)
    assert {"owl-about/follow", "owl-about/night"} <= set(rule_links(fragment))
    found = rule_links(page(client, links.edit, play_id))
    # Without JavaScript the link opens the rules page at the entry, which leads back to
    # the play page it was opened from, at the trick.
    href = found["owl-about/follow"].replace("&amp;", "&")
    assert href == "/rules/owl-about?at=tricks-title#follow"
    play_page = f"http://companion.test/t/{links.edit}/plays/{play_id}?seat=all"
    rules_page = client.get(href.split("#")[0], headers={"Referer": play_page})
    back = f"/t/{links.edit}/plays/{play_id}?seat=all#tricks-title"
    assert f'href="{back}"' in rules_page.get_data(as_text=True)


def test_odd_world_breakdown_and_tiebreaks_link_their_rules(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    token = csrf(client, f"/t/{links.edit}/plays/{play_id}")
    response = client.post(
        f"/t/{links.edit}/plays/{play_id}/edit",
        data={"csrf_token": token, "path": "players[0].display.hoopoe", "value": "3", "base": "0"},
    )
    assert response.status_code in (200, 303)
    body = html(client, f"/t/{links.edit}/plays/{play_id}?seat=all")
    found = rule_links(body)
    for rule_id in ("odd-world/scoring", "odd-world/tiebreak/species", "odd-world/face-down"):
        assert rule_id in found, sorted(found)
    assert re.search(r'class="rule-link"[^>]*>Hoopoe: 3 cards \(odd\)</a>', body)


def test_the_read_only_link_reaches_the_rules(client: FlaskClient, links: TableLinks) -> None:
    play_id = start_play(client, links.edit)
    body = html(client, f"/t/{links.view}/plays/{play_id}")
    assert 'href="/rules"' in body
    assert 'class="rules-nav" href="/rules/odd-world?at=play"' in body
    assert links.edit not in body


def test_an_oddland_placement_refusal_links_to_the_rule_it_broke(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    card = turn_form(0, 0, "FSWM", player="Miu")
    first = post(client, links.edit, play, "turn", action="place", laid="0", **card)
    assert first.status_code == 200
    far = post(
        client, links.edit, play, "turn", action="check", laid="1",
        **turn_form(5, 5, "FFFF", player="Carol", species="flora"),
    )  # fmt: skip
    assert far.status_code == 422
    body = far.get_data(as_text=True)
    assert "oddland/placement/edge" in rule_links(body)
    assert "Where may I lay a map card?" in body


def test_the_trick_checker_links_the_rule_a_card_broke(client: FlaskClient) -> None:
    body = html(client, "/owl-about/check?players=4&cards=6+2&card=3&hand-2=8+3")
    found = rule_links(body)
    assert "owl-about/follow" in found
    assert found["owl-about/follow"] == "/rules/owl-about?at=checker#follow"
    assert {"owl-about/trick-winner", "owl-about/fighting-power"} <= set(found)


def test_owl_about_options_link_each_mode_and_variant(
    client: FlaskClient, links: TableLinks
) -> None:
    response = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "owl-about", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    found = rule_links(html(client, response.headers["Location"]))
    for entry in ("mode/basic", "mode/quick", "mode/advanced", "players"):
        assert f"owl-about/{entry}" in found
    for variant in ("same-speed", "night-collection-3", "night-collection-4"):
        assert f"owl-about/variant/{variant}" in found


def test_a_refused_edit_links_the_rule_it_would_break(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play_id}/edit"
    token = csrf(client, f"/t/{links.edit}/plays/{play_id}")
    for seat, count in ((0, "8"), (1, "1")):
        path = f"players[{seat}].display.hoopoe"
        data = {"csrf_token": token, "path": path, "value": count, "base": "0"}
        response = client.post(url, data=data, headers=HTMX)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Only 8 Hoopoe cards exist, but 9 were entered." in body
    assert "odd-world/components" in rule_links(body)
