"""Render what changed: after an edit, the new version's panel takes the game's entry kept
with the last version's panel, with only the pieces the edit changed drawn anew
(``web/live/play.py``, ``GamePages.entry_changes``). Every app of the tests checks each
patched panel against the panel drawn whole (``LIVE_CHECK_PATCHES``), so a wrong patch
fails whatever test taps; these tests make sure patches happen, fall back where the game
cannot say, and that the check would catch a wrong one."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.database import db
from companion.games.odd_world import BIRDS
from companion.models import Play
from companion.web import odd_world
from companion.web.context import PAGES_KEY
from companion.web.game_pages import PlayPage
from companion.web.live.panels import PANELS_KEY, new_cache
from companion.web.live.pieces import Part, Piece, Rendering
from companion.web.live.play import VERSIONS_BACK
from support.app import make_app
from support.client import HTMX, TableLinks, create_table, start_play
from support.oob import VOLATILE, Phone, elements, text_of

NAMES = ["Ann", "Ben", "Cy", "Dan"]
OWL = list(BIRDS)[1]


@dataclasses.dataclass
class Drawn:
    """How often the entry was drawn whole, and taken patched."""

    whole: int = 0
    patched: int = 0


@pytest.fixture
def drawn(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Counts the entry's drawings (without the check's second, whole one)."""
    app.config["LIVE_CHECK_PATCHES"] = False
    counts = Drawn()
    entry, reuse = Rendering.entry, Rendering.reuse

    def counted_entry(self: Rendering, markup: str) -> Any:
        counts.whole += 1
        return entry(self, markup)

    def counted_reuse(self: Rendering, part: Part) -> Any:
        counts.patched += 1
        return reuse(self, part)

    monkeypatch.setattr(Rendering, "entry", counted_entry)
    monkeypatch.setattr(Rendering, "reuse", counted_reuse)
    return counts


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    return create_table(client, NAMES)


def tap(phone: Phone, path: str, value: int, base: int) -> Any:
    """A stepper's tap, as the display's form sends it."""
    return phone.post("/edit", {"tap": f"{path} {value} {base}"}, {})


def count_path(seat: int, bird: str = OWL) -> str:
    return f"players[{seat}].display.{bird}"


def test_a_tap_draws_only_what_it_changed(app: Flask, links: TableLinks, drawn: Drawn) -> None:
    play = start_play(app.test_client(), links.edit)
    phone = Phone(app, links.edit, play, "all", digests=True)
    assert drawn.whole == 1  # the page's first panel
    answer = tap(phone, count_path(2), 1, 0)
    assert answer.status_code == 200
    assert (drawn.whole, drawn.patched) == (1, 1)
    phone.take(answer)
    assert 'id="n-2-' + OWL + '" name="value" value="1"' in phone.page
    # The next tap patches the panel the last one made, from another phone too.
    other = Phone(app, links.edit, play, "all", digests=True)
    assert tap(other, count_path(3), 1, 0).status_code == 200
    assert (drawn.whole, drawn.patched) == (1, 2)
    # A phone showing one display gets it patched too (its first panel is drawn whole).
    mine = Phone(app, links.edit, play, "1", digests=True)
    assert tap(mine, count_path(1), 1, 0).status_code == 200
    assert (drawn.whole, drawn.patched) == (2, 3)


def test_an_undo_and_a_plain_post_patch_from_the_plays_log(
    app: Flask, links: TableLinks, drawn: Drawn
) -> None:
    """What changed since the kept panel is read from the play's log where the request
    did not make the edit itself: an undo, and the page a phone without JavaScript is
    sent to after its post (as a poll served by another worker would)."""
    play = start_play(app.test_client(), links.edit)
    phone = Phone(app, links.edit, play, "all", digests=True)
    assert tap(phone, count_path(0), 1, 0).status_code == 200
    target = _undo_target(_fresh(phone))
    answer = phone.post("/undo", {"undoes": target}, {})
    assert answer.status_code == 200
    assert (drawn.whole, drawn.patched) == (1, 2)
    plain = phone.client.post(
        f"{phone.url}/edit", data={"csrf_token": phone.token, "tap": f"{count_path(1)} 1 0"}
    )
    assert plain.status_code == 303
    page = phone.client.get(plain.headers["Location"]).get_data(as_text=True)
    assert (drawn.whole, drawn.patched) == (1, 3)
    assert f'id="n-1-{OWL}" name="value" value="1"' in page


def test_a_worker_patches_a_panel_several_edits_old(
    app: Flask, links: TableLinks, drawn: Drawn
) -> None:
    """Taps made through another worker (a second app on the same database): this one
    holds an older version's panel, and patches it with every edit since, from the log."""
    play = start_play(app.test_client(), links.edit)
    here = Phone(app, links.edit, play, "all", digests=True)
    elsewhere = Phone(_second_worker(app), links.edit, play, "all", digests=True)
    for seat in (0, 1, 2):
        assert tap(elsewhere, count_path(seat), 1, 0).status_code == 200
    assert (drawn.whole, drawn.patched) == (2, 3)  # a page on each worker; taps there
    here.take(here.poll({}))  # three versions on from the one this worker holds
    assert (drawn.whole, drawn.patched) == (2, 4)
    assert _panel(here.page) == _panel(_fresh(here))
    # More edits since than it looks back for: drawn whole.
    for value in range(1, VERSIONS_BACK + 2):
        assert tap(elsewhere, count_path(3), value, value - 1).status_code == 200
    here.take(here.poll({}))
    assert drawn.whole == 3
    assert _panel(here.page) == _panel(_fresh(here))


def _second_worker(app: Flask) -> Flask:
    """Another app on the same database and secret, as a second worker process is."""
    keys = ("TESTING", "SECRET_KEY", "SERVER_NAME", "SQLALCHEMY_DATABASE_URI")
    settings = {key: app.config[key] for key in keys}
    other = make_app({**settings, "INSTANCE_PATH": app.instance_path, "AUTO_MIGRATE": False})
    other.config["LIVE_CHECK_PATCHES"] = False  # counted as this one's are
    return other


def _fresh(phone: Phone) -> str:
    """The panel as a fresh load through the phone shows it."""
    return text_of(phone.client.get(f"{phone.url}?seat={phone.seat}", headers=HTMX))


def _face_down(_app: Flask, phone: Phone) -> Any:
    """The face-down card's form is no piece of its own: Odd World cannot place it."""
    return phone.post("/edit", {"path": "players[0].face_down", "value": OWL, "base": ""}, {})


def _evicted(app: Flask, phone: Phone) -> Any:
    """The last panel is not kept here (evicted, or drawn by another worker)."""
    app.extensions[PANELS_KEY] = new_cache()
    return tap(phone, count_path(0), 1, 0)


def _not_shown(_app: Flask, phone: Phone) -> Any:
    """A display the phone (showing seat 1) does not show."""
    return tap(phone, count_path(2), 1, 0)


@pytest.mark.parametrize(
    ("seat", "change"), [("all", _face_down), ("all", _evicted), ("1", _not_shown)]
)
def test_where_a_patch_is_not_sure_the_entry_is_drawn_whole(
    app: Flask, links: TableLinks, drawn: Drawn, seat: str, change: Any
) -> None:
    play = start_play(app.test_client(), links.edit)
    phone = Phone(app, links.edit, play, seat, digests=True)
    answer = change(app, phone)
    assert answer.status_code == 200
    assert (drawn.whole, drawn.patched) == (2, 0)
    phone.take(answer)
    assert _panel(phone.page) == _panel(_fresh(phone))


def test_a_refused_or_stale_tap_is_never_patched(
    app: Flask, links: TableLinks, drawn: Drawn
) -> None:
    play = start_play(app.test_client(), links.edit)
    phone = Phone(app, links.edit, play, "all", digests=True)
    assert tap(phone, count_path(0), 1, 0).status_code == 200
    assert tap(phone, count_path(0), 2, 0).status_code == 409  # the base moved on
    assert tap(phone, count_path(0), 99, 1).status_code == 422
    assert drawn.patched == 1


def _rows_only(page: PlayPage, paths: Sequence[str]) -> bool:
    """A wrong ``entry_changes``: it forgets that the display headings show points."""
    for path in paths:
        seat, bird = path.removeprefix("players[").split("].display.")
        row = odd_world._row_maker(page, page.play.state["players"][int(seat)], int(seat), "x")
        row(list(BIRDS).index(bird) + 1, bird)
    return True


def test_the_check_catches_a_patch_that_misses_a_change(
    app: Flask, links: TableLinks, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = app.extensions[PAGES_KEY]  # the process's registry: put back after the test
    wrong = dataclasses.replace(registry["odd-world"], entry_changes=_rows_only)
    monkeypatch.setitem(registry, "odd-world", wrong)
    play = start_play(app.test_client(), links.edit)
    phone = Phone(app, links.edit, play, "all", digests=True)
    with pytest.raises(AssertionError, match="patched panel differs"):
        tap(phone, count_path(0), 1, 0)


#: A random evening at one table: (which phone, what it does, whose display, which bird).
STEPS = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.sampled_from(["more", "less", "type", "face-down", "undo"]),
        st.integers(0, 3),
        st.sampled_from(list(BIRDS)),
    ),
    min_size=1,
    max_size=12,
)


@pytest.fixture
def table(app: Flask) -> tuple[FlaskClient, TableLinks]:
    client = app.test_client()
    return client, create_table(client, NAMES)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_every_phone_ends_on_the_play_as_it_stands(
    app: Flask, table: tuple[FlaskClient, TableLinks], steps: list[tuple[int, str, int, str]]
) -> None:
    """Phones showing everyone, one display, and the read-only link follow random taps,
    typed counts, face-down cards and undos by polling; each patched panel is checked
    against a whole one as it is made, and in the end every phone holds what a fresh
    load shows."""
    client, links = table
    play = start_play(client, links.edit)
    phones = [
        Phone(app, links.edit, play, "all", digests=True),
        Phone(app, links.edit, play, "2", digests=True),
        Phone(app, links.edit, play, "all", digests=True),
    ]
    viewer = Phone(app, links.view, play, "all", digests=True)
    for who, what, seat, bird in steps:
        phone = phones[who]
        path, state = count_path(seat, bird), _state(app, play)
        n = state["players"][seat]["display"].get(bird, 0)
        if what == "more":
            answer = tap(phone, path, n + 1, n)
        elif what == "less":
            answer = tap(phone, path, n - 1, n)
        elif what == "type":
            answer = phone.post("/edit", {"path": path, "value": str(n + 2), "base": str(n)}, {})
        elif what == "face-down":
            fd = f"players[{seat}].face_down"
            base = state["players"][seat].get("face_down") or ""
            answer = phone.post("/edit", {"path": fd, "value": bird, "base": base}, {})
        else:
            undo = client.get(f"/t/{links.edit}/plays/{play}", headers=HTMX).get_data(True)
            target = _undo_target(undo)
            answer = phone.post("/undo", {"undoes": target}, {})
        assert answer.status_code in (200, 422), answer.status_code
        if answer.status_code == 200:  # a refusal is shown to its phone alone, this once
            phone.take(answer)
        for other in [*phones, viewer]:
            if other is not phone:
                other.take(other.poll({}))
    for phone in [*phones, viewer]:
        assert _panel(phone.page) == _panel(_fresh(phone))


def _state(app: Flask, play: int) -> dict[str, Any]:
    with app.app_context():
        found = db.session.get(Play, play)
        assert found is not None
        return dict(found.state)


def _undo_target(panel: str) -> str:
    marker = 'name="undoes" value="'
    at = panel.find(marker)
    return panel[at + len(marker) : panel.index('"', at + len(marker))] if at >= 0 else ""


def _panel(html: str) -> str:
    """The play panel in ``html`` without what differs at each rendering."""
    html = html[html.index('<section id="play"') :]
    end = next(end for ident, _, end in elements(html) if ident == "play")
    return VOLATILE.sub(r'\1"', html[:end])


# --- the patching of kept markup itself ---------------------------------------------


def _piece(ident: str, text: str, inner: list[Piece] | None = None) -> Piece:
    return Piece(ident, f"d-{ident}", f'<div id="{ident}">{text}</div>', inner or [])


def test_a_patch_splices_a_piece_inside_another_and_keeps_the_digests_around() -> None:
    row = _piece("row", "1")
    section = Piece("sec", "d-sec", f'<section id="sec">A{row.markup}B</section>', [row])
    seats = _piece("seats", "nav")
    part = Part(f" {seats.markup}\n{section.markup} ", (seats, section))
    new_row = _piece("row", "2")
    patched = part.patched([new_row])
    assert patched is not None
    assert patched.markup == f' {seats.markup}\n<section id="sec">A{new_row.markup}B</section> '
    assert patched.pieces[0] is seats
    assert patched.pieces[1].digest == "d-sec"
    assert patched.pieces[1].inner == [new_row]


def test_a_patch_with_a_piece_not_there_or_twice_is_refused() -> None:
    part = Part(_piece("a", "1").markup, (_piece("a", "1"),))
    assert part.patched([_piece("b", "2")]) is None
    assert part.patched([_piece("a", "2"), _piece("a", "3")]) is None
    assert part.patched([]) == part


def test_kept_markup_takes_the_asking_phones_token() -> None:
    inner = _piece("row", 'value="OLD"')
    outer = Piece("sec", "d", f'<section id="sec">value="OLD"{inner.markup}</section>', [inner])
    part = Part(outer.markup, (outer,)).retokened("OLD", "NEW")
    assert "OLD" not in part.markup
    assert "OLD" not in part.pieces[0].markup
    assert "OLD" not in part.pieces[0].inner[0].markup
    assert part.pieces[0].digest == "d"


def test_the_entry_filter_keeps_the_entrys_top_pieces() -> None:
    rendering = Rendering()
    rendering.volatile_starts = ('name="csrf_token" value="',)  # no app needed
    rendering.piece('<p id="before">x</p>')
    one = rendering.piece('<div id="one">1</div>')
    two = rendering.piece('<div id="two">2</div>')
    rendering.entry(f"\n{one}\n{two}\n")
    assert rendering.part is not None
    assert [p.ident for p in rendering.part.pieces] == ["one", "two"]
    assert [p.ident for p in rendering.open] == ["before", "one", "two"]
