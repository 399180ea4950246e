"""The cheap paths: an unchanged poll in one query, versioned static files, cached QR codes."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Play
from companion.services import plays
from companion.web import pages, static_files
from support.client import HTMX, create_table, csrf, edit, start_play
from support.queries import counted_queries

YEAR = 31536000


@pytest.mark.both_backends("the poll's one query, on each database")
def test_an_unchanged_poll_is_one_query(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    page = client.get(f"/t/{links.view}/plays/{play}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]*/poll\?[^"]*)"', page)
    assert poll is not None
    url = poll.group(1).replace("&amp;", "&")
    with counted_queries(app) as statements:
        assert client.get(url, headers=HTMX).status_code == 204
    assert len(statements) == 1, statements
    assert (
        edit(client, links.edit, play, path="players[0].display.hoopoe", value="1").status_code
        == 200
    )
    assert client.get(url, headers=HTMX).status_code == 200


@pytest.mark.both_backends("the poll's one query, on each database")
def test_an_unchanged_table_poll_is_one_query(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    page = client.get(f"/t/{links.view}").get_data(as_text=True)
    version = re.search(r"/poll\?version=(\d+)", page)
    assert version is not None
    with counted_queries(app) as statements:
        answer = client.get(f"/t/{links.view}/poll?version={version.group(1)}", headers=HTMX)
    assert answer.status_code == 204
    assert len(statements) == 1, statements


def test_opening_the_table_again_soon_writes_nothing(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    client.get(f"/t/{links.edit}")
    with counted_queries(app) as statements:
        assert client.get(f"/t/{links.edit}").status_code == 200
    writes = [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE"))]
    assert writes == []
    with counted_queries(app) as statements:
        assert client.get(f"/t/{links.view}").status_code == 200  # another link: news
    assert any("visits" in s for s in statements if s.lstrip().upper().startswith("INSERT"))


def test_a_poll_never_crosses_tables_or_outlives_a_rotated_link(client: FlaskClient) -> None:
    first = create_table(client, ["Ann", "Ben"])
    second = create_table(client, ["Cid", "Dee"])
    play = start_play(client, first.edit)
    assert client.get(f"/t/{second.edit}/plays/{play}/poll?version=0").status_code == 404
    assert client.get(f"/t/nonsense/plays/{play}/poll?version=0").status_code == 404
    assert client.get("/t/nonsense/poll?version=0").status_code == 404
    rotated = client.post(
        f"/t/{first.edit}/rotate-link", data={"csrf_token": csrf(client, f"/t/{first.edit}")}
    )
    assert rotated.status_code == 303
    assert client.get(f"/t/{first.edit}/plays/{play}/poll?version=0").status_code == 404
    assert client.get(f"/t/{first.edit}/poll?version=0").status_code == 404


def test_static_links_carry_the_content_hash_and_live_a_year(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/companion\.css\?v=([0-9a-f]{12}))"', html)
    assert css is not None
    with client.get(css.group(1)) as answer:
        assert answer.status_code == 200
        assert answer.cache_control.max_age == YEAR
        assert answer.cache_control.immutable
        assert answer.cache_control.public
    with client.get("/static/companion.css?v=000000000000") as stale:
        assert stale.status_code == 200
        assert not stale.cache_control.immutable
    with client.get("/static/companion.css") as plain:
        assert not plain.cache_control.immutable


def test_static_files_go_out_compressed(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    script = re.search(r'src="(/static/htmx-[^"]+)"', html)
    assert script is not None
    with client.get(script.group(1)) as plain:
        original = plain.get_data()
    with client.get(script.group(1), headers={"Accept-Encoding": "gzip"}) as packed:
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.get_data()) == original
        assert len(packed.get_data()) * 2 < len(original)


def test_our_scripts_and_stylesheets_go_out_minified(app: Flask, client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    folder = Path(app.static_folder or "static")
    for name in ("companion.js", "connection.js", "companion.css"):
        address = re.search(rf'(/static/{re.escape(name)}\?v=[0-9a-f]+)"', html)
        assert address is not None
        written = (folder / name).read_bytes()
        with client.get(address.group(1)) as answer:
            sent = answer.get_data()
        assert b"/*" in written
        assert b"/*" not in sent
        assert len(sent) < len(written) * 0.8
    # The script's behaviour is kept: its hooks are all there.
    with client.get("/static/companion.js") as script:
        assert script.get_data().count(b"document.addEventListener(") >= 8
    # A file minified by its makers goes out as it is.
    with client.get("/static/htmx-2.0.11.min.js") as vendored:
        assert vendored.get_data() == (folder / "htmx-2.0.11.min.js").read_bytes()


def test_a_changed_file_gets_a_new_hash(tmp_path: Path) -> None:
    asset = tmp_path / "app.js"
    asset.write_text("one")
    before = static_files.current_version(tmp_path, "app.js")
    asset.write_text("two, longer")
    assert static_files.current_version(tmp_path, "app.js") not in (None, before)
    assert static_files.current_version(tmp_path, "missing.js") is None
    assert static_files.current_version(tmp_path, "../etc") is None


def test_the_qr_code_is_drawn_once_per_link(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    client.get(f"/t/{links.edit}")
    drawn = pages._qr_svg.cache_info()
    # A change of the roster draws the page anew (see the next test), not its QR code.
    token = csrf(client, f"/t/{links.edit}")
    renamed = client.post(
        f"/t/{links.edit}/players",
        data={"csrf_token": token, "action": "add", "name": "Cid"},
    )
    assert renamed.status_code == 303
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    again = pages._qr_svg.cache_info()
    assert again.hits == drawn.hits + 1
    assert again.misses == drawn.misses
    assert "<svg" in page
    assert "Cid" in page


def test_the_undo_offered_from_the_newest_edits_matches_the_whole_log(
    app: Flask, client: FlaskClient
) -> None:
    """``last_undoable`` reads only the newest edits; after each edit and each undo it
    offers what reading the whole log would, also once more undos than it reads."""
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)
    author = plays.Author("test")
    birds = ["hoopoe", "shoebill", "cassowary"]
    steps = [("set", n) for n in range(1, 25)] + [("undo", 0)] * (plays.NEWEST_EDITS + 3)
    steps += [("set", 1), ("undo", 0), ("set", 2)]
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        for number, (kind, value) in enumerate(steps):
            if kind == "set":
                path = f"players[0].display.{birds[number % 3]}"
                plays.set_value(play, path=path, raw=str(value % 8 + 1), base=None, author=author)
            else:
                plays.undo(play, author=author)
            db.session.expire_all()
            offered = plays.last_undoable(play)
            whole = plays._undo_target(play.edits)
            assert offered == (whole and whole.number), number
