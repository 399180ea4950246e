"""Adding a game is the checklist of docs/development.md ("Adding a game"), and this test
holds the checklist true: every per-game list a registered game must be in and every
content rule the suite holds it to is named here, with the checklist step that says so
and the file it goes in. A sixth game registered without one of them fails here, naming
what is missing and where it goes; a list or rule named here and not in the checklist
fails too.

What is derived from the registries needs no step (the route walk, the trust walks, the
axe scan, the service worker's tools, the home and table pages' tools): the checks at the
end make sure it stays derived. The README names the same checklist with the same
number of steps.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.rules import load
from companion.web.game_pages import play_rule, tool_rule
from companion.web.games import PAGES
from support.every_game import STARTERS, STRATEGIES
from support.glances import GLANCES
from support.rules_queries import QUERIES, QUESTIONS
from support.transfer import PRIVATE_ENTRIES

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SLUGS = sorted(GAMES)
#: How the README spells a step count.
WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
WORDS += ["eleven", "twelve", "thirteen", "fourteen", "fifteen"]


def _engine(slug: str) -> str | None:
    game = GAMES[slug]
    if game.slug != slug:
        return f"GAMES[{slug!r}] is the engine of {game.slug!r}"
    if not type(game).__module__.startswith("companion.games."):
        return "the engine is not under companion/games/"
    return None


def _strategy(slug: str) -> str | None:
    return None if slug in STRATEGIES else "no strategy in STRATEGIES"


def _api_description(slug: str) -> str | None:
    game = GAMES[slug]
    missing = sorted(set(game.api_endpoints()) - set(game.api_descriptions()))
    return f"api_descriptions() misses {missing}" if missing else None


def _services(slug: str) -> str | None:
    """A game with actions of its own changes its plays through its own services module
    (the web layer never commits)."""
    pages = PAGES.get(slug)
    blueprint = pages.blueprint if pages else None
    if blueprint is None:
        return None  # edits go through the shared edit route and services.plays
    package = blueprint.import_name.split(".")[2]  # companion.web.<package>.routes
    if importlib.util.find_spec(f"companion.services.{package}") is None:
        return f"no companion/services/{package}.py for the routes of companion/web/{package}"
    return None


def _pages(slug: str) -> str | None:
    pages = PAGES.get(slug)
    if pages is None:
        return "no GamePages entry in PAGES"
    needed = ["_entry.html"] + (["_options.html"] if pages.options_form else [])
    missing = [name for name in needed if not (TEMPLATES / "games" / slug / name).is_file()]
    return f"no templates/games/{slug}/{missing}" if missing else None


def _rules(slug: str) -> str | None:
    rules = load().games.get(slug)
    return None if rules and rules.entries else f"no entries in companion/rules/{slug}.toml"


def _queries(slug: str) -> str | None:
    found = [query for query, _game, first in QUERIES if first.startswith(f"{slug}/")]
    return None if found else "no query whose first answer is one of its entries"


def _questions(slug: str) -> str | None:
    found = [q for q in QUESTIONS if q["first"].startswith(f"{slug}/")]
    return None if found else "no question in players' words answered by one of its entries"


def _starter(slug: str) -> str | None:
    return None if slug in STARTERS else "no starter in STARTERS"


def _private_entries(slug: str) -> str | None:
    if not GAMES[slug].private_keys or slug in PRIVATE_ENTRIES:
        return None
    return "private keys, and no way to enter them in PRIVATE_ENTRIES"


def _glance(slug: str) -> str | None:
    return None if slug in GLANCES else "no Glance in GLANCES"


def _help(slug: str) -> str | None:
    page = TEMPLATES / "help" / "games" / f"{slug}.html"
    return None if page.is_file() else f"no help page templates/help/games/{slug}.html"


def _screenshot(slug: str) -> str | None:
    image = f"docs/screenshots/{slug}.png"
    if not (ROOT / image).is_file():
        return f"no {image} (scripts/screenshots.py --only {slug})"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return None if image in readme else f"the README does not show {image}"


@dataclass(frozen=True)
class Piece:
    """One thing every registered game needs: the checklist step that says so, where it
    goes (as the checklist names it), and how to tell it is there (``check``), or the
    test that holds every game to it (``checked_by``)."""

    step: int
    where: str
    check: Callable[[str], str | None] | None = None
    checked_by: str = ""


#: Every per-game list and content rule a registered game is held to.
PIECES: dict[str, Piece] = {
    "engine": Piece(1, "companion/games/", _engine),
    "readings declared": Piece(1, "readings", checked_by="tests/api/test_readings.py"),
    "conformance strategy": Piece(3, "STRATEGIES", _strategy),
    "API description": Piece(4, "api_descriptions()", _api_description),
    "an example per reading": Piece(4, "tests/api/test_readings.py", checked_by="itself"),
    "services": Piece(5, "companion/services/", _services),
    "pages": Piece(6, "PAGES", _pages),
    "rules content": Piece(8, "companion/rules/", _rules),
    "rules cover set-up, turns, scoring, the end and ties": Piece(
        8, "set-up", checked_by="tests/rules/test_content.py"
    ),
    "a rules entry for every rule id": Piece(
        8, "rule id", checked_by="tests/rules/test_content.py"
    ),
    "clarifications say why": Piece(8, "why", checked_by="tests/rules/test_content.py"),
    "a clarification per reading": Piece(
        8, "clarification", checked_by="tests/api/test_readings.py"
    ),
    "rules search queries": Piece(8, "support/rules_queries.py", _queries),
    "players' questions": Piece(8, "support/rules_questions.toml", _questions),
    "route-walk starter": Piece(9, "STARTERS", _starter),
    "private entries": Piece(9, "PRIVATE_ENTRIES", _private_entries),
    "glance": Piece(10, "GLANCES", _glance),
    "help page": Piece(11, "templates/help/games/", _help),
    "help page's links": Piece(11, "tests/web/test_help.py", checked_by="itself"),
    "screenshot": Piece(12, "scripts/screenshots.py --only", _screenshot),
}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_registered_game_has_every_piece(slug: str) -> None:
    found = {name: piece.check(slug) for name, piece in PIECES.items() if piece.check}
    missing = [
        f"{name} (step {PIECES[name].step}, {PIECES[name].where}): {problem}"
        for name, problem in found.items()
        if problem
    ]
    assert not missing, f"{slug} lacks " + "; ".join(missing)


def _checklist_steps() -> dict[int, str]:
    """The checklist's steps, by number: each one's text."""
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = guide.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^(\d+)\. ", section, flags=re.MULTILINE)[1:]
    pairs = zip(parts[::2], parts[1::2], strict=True)
    return {int(number): " ".join(text.split()) for number, text in pairs}


@pytest.mark.parametrize("name", sorted(PIECES))
def test_the_checklist_names_each_piece_where_it_goes(name: str) -> None:
    piece = PIECES[name]
    step = _checklist_steps().get(piece.step, "")
    assert piece.where in step, f"step {piece.step} of the checklist does not name {piece.where}"
    if piece.check is None and piece.checked_by != "itself":
        assert (ROOT / piece.checked_by).is_file(), piece.checked_by


def test_the_pages_offer_only_registered_games() -> None:
    assert set(PAGES) <= set(GAMES)


def test_game_routes_follow_one_convention(app: Flask) -> None:
    """A game's routes are under the play's address and its slug, or are its tools."""
    by_endpoint = {rule.endpoint: rule.rule for rule in app.url_map.iter_rules()}
    for slug, pages in PAGES.items():
        tools = {tool.endpoint: tool_rule(slug, tool) for tool in pages.tools}
        for endpoint, address in tools.items():
            assert by_endpoint.get(endpoint) == address, f"{endpoint} is not at {address}"
        if pages.blueprint is None:
            continue
        own = {e: r for e, r in by_endpoint.items() if e.startswith(f"{pages.blueprint.name}.")}
        assert own, f"{slug}: its blueprint has no routes"
        for endpoint, address in own.items():
            assert address.startswith(f"{play_rule(slug)}/") or endpoint in tools, address


def test_the_service_worker_keeps_every_games_tools(client: FlaskClient) -> None:
    with client.get("/sw.js") as answer:
        script = answer.get_data(as_text=True)
    listed = re.search(r"var TOOLS = (\[.*?\]);", script)
    assert listed
    every_tool = [tool_rule(slug, tool) for slug, pages in PAGES.items() for tool in pages.tools]
    assert every_tool
    assert listed.group(1) == "[" + ", ".join(f'"{address}"' for address in every_tool) + "]"


def test_the_browser_scans_take_the_games_from_the_registries() -> None:
    """The axe scan and the glance test name no game of their own: a new game is scanned
    and glanced at by being registered (and given its ``Glance``)."""
    for name in ("test_axe_everywhere.py", "test_glance.py"):
        source = (ROOT / "tests" / "e2e" / name).read_text(encoding="utf-8")
        assert "sorted(GAMES)" in source or "ENGINES.items()" in source, name


def test_the_readme_and_the_guide_name_one_checklist() -> None:
    steps = _checklist_steps()
    assert list(steps) == list(range(1, len(steps) + 1))
    assert max(piece.step for piece in PIECES.values()) <= len(steps)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"checklist of (\w+) steps \(([^)]*)\)", readme)
    assert said, "the README names the checklist's steps"
    assert said.group(1) == WORDS[len(steps) - 1]
    assert len(re.split(r",\s+", said.group(2))) == len(steps)
