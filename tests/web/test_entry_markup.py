"""A new line of markup in a game's entry template is a template change only.

Each game's ``_entry.html`` is copied, with one natural line added, into a folder the app
loads templates from ahead of its own; the live path then keeps every promise it keeps
for the real templates: the tap's answer and another phone's live update show the line
as it stands after the change, both phones then hold what a fresh load shows, the next
poll is the cheap 204, the panel is rendered once for every phone that shows it, and
the page is the same page around it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from jinja2 import ChoiceLoader, FileSystemLoader, Template

from companion.web.play.panel import PLAY_FRAGMENT
from support import scenes
from support.phones import text_of

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: Odd World: under each display's heading, how many birds it holds ("Ann has 3 birds."):
#: a natural line, which a tap on a stepper changes.
BIRDS_LINE = '\n  <p class="bird-count">{{ p.name }} has {{ display.values()|sum }} birds.</p>'
#: Any game: a line first in the entry that changes with every change of the play.
VERSION_LINE = '<p class="entry-note">{{ game.name }}, change {{ play.version }}.</p>\n'
#: Where a page says the play's version it shows.
VERSION = re.compile(r'data-version="(\d+)"')


def _under_each_heading(source: str) -> str:
    added, count = re.subn(r"(<h2 id=\"display-[^\n]*</h2>)", r"\1" + BIRDS_LINE, source)
    assert count == 1, "no display heading to write under"
    return added


def _first(source: str) -> str:
    lines = source.splitlines(keepends=True)
    # After the imports of macros, which must stay first.
    at = next(i for i, line in enumerate(lines) if not line.startswith("{% from"))
    return "".join([*lines[:at], VERSION_LINE, *lines[at:]])


def with_line(app: Flask, folder: Path, slug: str, add: Callable[[str], str]) -> None:
    """Let ``app`` take the game's entry, with a line added, from ``folder`` first."""
    name = f"games/{slug}/_entry.html"
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    copy = folder / name
    copy.parent.mkdir(parents=True)
    copy.write_text(add(source), encoding="utf-8")
    app.jinja_env.loader = ChoiceLoader([FileSystemLoader(folder), app.jinja_env.loader])


def check(
    app: Flask, client: FlaskClient, scene: scenes.Scene, said: Callable[[int], str]
) -> list[str]:
    """The scene's first tap, taken by two phones (``scenes.live_change`` checks the live
    path on the way): the new line says ``said(version)`` for the version each answer
    shows, in the tap's answer, the other phone's update and a fresh load. Returns the
    templates rendered meanwhile, in order."""
    page = text_of(client.get(f"/t/{scene.links.edit}/plays/{scene.play_id}?seat=all"))
    version = int(VERSION.findall(page)[0])
    assert said(version) in page
    rendered: list[str] = []

    def note(_app: Flask, template: Template, **_extra: object) -> None:
        rendered.append(template.name or "")

    with template_rendered.connected_to(note, app):
        change = scenes.live_change(app, scene, {})
    for shown in (text_of(change.answer), text_of(change.update), change.fresh):
        assert said(version + 1) in shown
        assert said(version) not in shown
    return rendered


def test_a_line_under_odd_worlds_display_headings_reaches_every_phone(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """The issue's example: a line under each display's heading. The scene's tap adds a
    bird of Ben's: 9 become 10."""
    with_line(app, tmp_path / "templates", "odd-world", _under_each_heading)
    scene = scenes.odd_world(app, client)
    rendered = check(app, client, scene, lambda version: f"Ben has {8 + version} birds.")
    # One panel drawn, the tap's (the phones' loads found the one drawn before it): the
    # other phone's update and the fresh load took it.
    assert rendered.count(PLAY_FRAGMENT) == 1, rendered


@pytest.mark.parametrize(
    ("slug", "build"), [("owl-about", scenes.owl_about), ("oddland", scenes.oddland)]
)
def test_a_first_line_in_an_entry_reaches_every_phone(
    app: Flask,
    client: FlaskClient,
    tmp_path: Path,
    slug: str,
    build: Callable[[Flask, FlaskClient], scenes.Scene],
) -> None:
    with_line(app, tmp_path / "templates", slug, _first)
    scene = build(app, client)
    name = {"owl-about": "Owl About", "oddland": "Oddland"}[slug]
    check(app, client, scene, lambda version: f"{name}, change {version}.")


def test_without_the_copy_the_line_is_not_there(app: Flask, client: FlaskClient) -> None:
    """The copy is what adds the line: the app's own template has none of it."""
    scene = scenes.odd_world(app, client)
    change = scenes.live_change(app, scene, {})
    assert "bird-count" not in text_of(change.answer)
