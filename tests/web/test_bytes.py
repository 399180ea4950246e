"""Only what changed goes on the wire (see ``companion/web/live/pieces.py``).

A phone sends the digests of the pieces its play panel holds; a tap's answer and a live
update then hold only the pieces that changed, out of band. Applying them to the phone's
page must give what a fresh load shows, and they must fit the budgets: 3 KB brotli for an
Odd World or Owl About tap or live update, 8 KB for a late 12 x 12 Oddland map.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from support import oob, scenes
from support.client import HTMX, create_table
from support.oob import Phone, text_of
from support.owl_about import start_owl, start_round

BR = {"Accept-Encoding": "br"}
SMALL_GAME_BUDGET = 3 * 1024
MAP_BUDGET = 8 * 1024


def tapped(phone: Phone, scene: scenes.Scene, step: int, extra: dict[str, str]) -> Any:
    """Phone A's n-th tap of the scene (the first legal one of its candidates)."""
    found = scene.tap(phone, step)
    for path, data in found if isinstance(found, list) else [found]:
        response = phone.post(path, data, extra)
        if response.status_code == 200:
            return response
    raise AssertionError(text_of(response)[:500])


def panel(page: str) -> str:
    """The play panel of a page, with the values made anew at each rendering blanked."""
    at, until = oob.element(page, "play")
    return oob.steady(page[at:until])


def check_live(app: Flask, scene: scenes.Scene, budget: int, seat: str = "all") -> None:
    """Phone A taps; its answer and phone B's live update fit ``budget`` (brotli), hold
    only pieces, and leave both phones showing what a fresh load shows."""
    a = Phone(app, scene.links.edit, scene.play_id, seat, digests=True)
    b = Phone(app, scene.links.edit, scene.play_id, seat, digests=True)
    answer = tapped(a, scene, 0, BR)
    assert answer.headers["HX-Reswap"] == "none"
    assert answer.headers["Content-Encoding"] == "br"
    assert len(answer.data) <= budget
    assert 'id="play"' not in text_of(answer)  # pieces, not the panel
    a.take(answer)
    update = b.poll(BR)
    assert update.status_code == 200
    assert update.headers["HX-Reswap"] == "none"
    assert len(update.data) <= budget
    b.take(update)
    fresh = text_of(app.test_client().get(f"{a.url}?seat={seat}"))
    assert panel(a.page) == panel(fresh)
    assert panel(b.page) == panel(fresh)
    # Nothing changed since: B's next poll is the cheap 204.
    assert b.poll({}).status_code == 204


def test_odd_world_tap_and_live_update_send_only_what_changed(
    app: Flask, client: FlaskClient
) -> None:
    scene = scenes.odd_world(app, client)
    check_live(app, scene, SMALL_GAME_BUDGET)
    # A phone showing one display gets that display's change too.
    check_live(app, scene, SMALL_GAME_BUDGET, seat="1")


def test_odd_world_answer_holds_the_changed_bird_and_standings_only(
    app: Flask, client: FlaskClient
) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    answer = text_of(tapped(a, scene, 0, {}))
    sent = [ident for ident, _, _ in oob.elements(answer)]
    assert "bird-1-bird-of-paradise" in sent
    assert not any(
        ident.startswith("bird-") and ident != "bird-1-bird-of-paradise" for ident in sent
    )
    assert not any(ident.startswith("player-") for ident in sent)
    assert "play-poll" in sent  # the version the next poll asks with
    assert all('hx-swap-oob="morph:#' in answer[s:e] for _, s, e in oob.elements(answer))


def test_owl_about_tap_and_live_update_fit_the_budget(app: Flask, client: FlaskClient) -> None:
    scene = scenes.owl_about(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    # A card tap answers with the trick alone (as before); a live update with pieces.
    first = tapped(a, scene, 0, BR)
    assert len(first.data) <= SMALL_GAME_BUDGET
    a.take(first)
    b = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    a.take(tapped(a, scene, 1, {}))
    update = b.poll(BR)
    assert update.headers["HX-Reswap"] == "none"
    assert len(update.data) <= SMALL_GAME_BUDGET
    b.take(update)
    fresh = text_of(app.test_client().get(f"{a.url}?seat=all"))
    assert panel(b.page) == panel(fresh)


def test_oddland_late_map_live_update_fits_the_budget(app: Flask, client: FlaskClient) -> None:
    scene = scenes.oddland(app, client)
    check_live(app, scene, MAP_BUDGET)


def test_without_digests_or_with_another_shell_the_whole_panel_goes(
    app: Flask, client: FlaskClient
) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all", digests=False)
    whole = tapped(a, scene, 0, {})
    assert "HX-Reswap" not in whole.headers
    assert text_of(whole).lstrip().startswith('<section id="play"')
    b = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    tapped(a, scene, 1, {})
    stale = b.client.get(b.poll_url(), headers={**HTMX, oob.HEADER: "0000 play-poll=1"})
    assert "HX-Reswap" not in stale.headers
    assert text_of(stale).lstrip().startswith('<section id="play"')
    junk = b.client.get(b.poll_url(), headers={**HTMX, oob.HEADER: "x" * 9000})
    assert junk.status_code == 200
    assert text_of(junk).lstrip().startswith('<section id="play"')


def test_read_only_live_update_has_no_controls(app: Flask, client: FlaskClient) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    viewer = Phone(app, scene.links.view, scene.play_id, "all", digests=True)
    a.take(tapped(a, scene, 0, {}))
    update = viewer.poll({})
    assert update.headers["HX-Reswap"] == "none"
    html = text_of(update)
    assert "<button" not in html
    assert "<form" not in html
    viewer.take(update)
    fresh = text_of(app.test_client().get(f"/t/{scene.links.view}/plays/{scene.play_id}"))
    assert panel(viewer.page) == panel(fresh)


def test_a_conflict_shows_its_message_in_the_pieces(app: Flask, client: FlaskClient) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    b = Phone(app, scene.links.edit, scene.play_id, "all", digests=True)
    path, data = scene.tap(a, 0)
    assert a.post(path, data, {}).status_code == 200
    clash = b.post(path, data, {})  # B still shows the old count
    assert clash.status_code == 409
    assert clash.headers["HX-Reswap"] == "none"
    html = text_of(clash)
    assert 'role="alert"' in html
    assert re.search(r"changed|meanwhile|another phone", html, re.IGNORECASE)


@pytest.mark.parametrize("seat", ["0", "1"])
def test_owl_about_hands_stay_on_their_phone(app: Flask, client: FlaskClient, seat: str) -> None:
    links = create_table(client, scenes.PLAYERS)
    play_id = start_owl(client, links.edit)
    assert start_round(client, links.edit, play_id, "Ann").status_code == 200
    ann = Phone(app, links.edit, play_id, "0", digests=True)
    other = Phone(app, links.edit, play_id, seat, digests=True)
    hand = ann.post("/owl-about/hand", {"player": "Ann", "hand": "3 5 7 N6 10"}, {})
    assert hand.status_code == 200, text_of(hand)
    ann.take(hand)
    update = other.poll({})
    assert update.headers["HX-Reswap"] == "none"
    other.take(update)
    fresh = text_of(app.test_client().get(f"{other.url}?seat={seat}"))
    assert panel(other.page) == panel(fresh)
    # Ann's own phone holds her hand (and it came in the pieces); Ben's never sees it.
    assert ("3 5 7 N6 10" in text_of(update)) == (seat == "0")
    assert ("3 5 7 N6 10" in other.page) == (seat == "0")


ROWS = (
    '{% filter shell %}<section id="play">{% filter piece %}<p id="note">{{ note }}</p>'
    '{% endfilter %}{% filter piece %}<table id="t">{% for n in rows %}{% filter piece %}'
    '<tr id="r{{ loop.index }}"><td>{{ n }}</td></tr>{% endfilter %}{% endfor %}</table>'
    "{% endfilter %}</section>{% endfilter %}"
)


def _answer(app: Flask, held: str | None, **values: Any) -> tuple[str, str | None]:
    """Render ``ROWS`` as a request holding ``held`` digests: the markup and the answer."""
    from companion.web.live import pieces

    headers = {oob.HEADER: held} if held else {}
    with app.test_request_context(headers=headers):
        rendering = pieces.Rendering()
        html = app.jinja_env.from_string(ROWS).render(live=rendering, **values)
        return html, pieces.changed_only(rendering, pieces.held_by_phone())


def test_pieces_inside_pieces_go_as_stubs_and_rows_with_their_table(app: Flask) -> None:
    page, _ = _answer(app, None, note="a", rows=[1, 2, 3])
    held = oob.header_of(page)
    # A changed row goes with its table (a row alone would not parse), the rows the
    # phone holds as stubs; the unchanged note does not go at all.
    _, answer = _answer(app, held, note="a", rows=[1, 5, 3])
    assert answer is not None
    assert [ident for ident, _, _ in oob.elements(answer)] == ["t"]
    assert '<tr id="r1" data-keep></tr>' in answer
    assert "<td>5</td>" in answer
    assert oob.apply(page, answer) == _answer(app, None, note="a", rows=[1, 5, 3])[0]
    # A row more changes the table's own digest: it goes, with the old rows as stubs.
    _, grown = _answer(app, held, note="b", rows=[1, 2, 3, 4])
    assert grown is not None
    assert [ident for ident, _, _ in oob.elements(grown)] == ["note", "t"]
    assert grown.count("data-keep") == 3
    fresh = _answer(app, None, note="b", rows=[1, 2, 3, 4])[0]
    assert oob.apply(page, grown) == fresh
    # Nothing changed: nothing goes; another shell: the whole panel.
    assert _answer(app, held, note="a", rows=[1, 2, 3])[1] == ""
    assert _answer(app, "other " + held.partition(" ")[2], note="a", rows=[1, 2, 3])[1] is None


def test_a_panel_rendered_without_its_render_context_goes_whole(app: Flask) -> None:
    """The pieces go to the ``Rendering`` passed to the template as ``live``: without
    one nothing is cut or stamped, and the answer is the whole panel, never a part."""
    from companion.web.live import pieces

    page, _ = _answer(app, None, note="a", rows=[1])
    with app.test_request_context(headers={oob.HEADER: oob.header_of(page)}):
        html = app.jinja_env.from_string(ROWS).render(note="b", rows=[1])
        assert "data-h" not in html
        assert "data-shell" not in html
        assert pieces.changed_only(None, pieces.held_by_phone()) is None
