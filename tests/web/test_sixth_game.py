"""Every registered game has every piece of the checklist in docs/development.md
("Adding a game"): a sixth game registered without one of them fails here, naming what
is missing, instead of silently going without an accessibility scan, an offline copy of
its tools or a help page.

What is derived from the registries needs no step (the route walk, the trust walks, the
axe scan, the service worker's tools): those checks make sure it stays derived. The
README names the same checklist with the same number of steps.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.rules import load
from companion.web.game_pages import play_rule, tool_rule
from companion.web.games import PAGES
from support.every_game import STARTERS
from tests.e2e import test_axe_everywhere as axe
from tests.games.test_conformance import STRATEGIES

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


def _conformance(slug: str) -> str | None:
    return None if slug in STRATEGIES else "no strategy in tests/games/test_conformance.py"


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
        return "no GamePages entry in PAGES (companion/web/games.py)"
    needed = ["_entry.html"] + (["_options.html"] if pages.options_form else [])
    missing = [name for name in needed if not (TEMPLATES / "games" / slug / name).is_file()]
    return f"no templates/games/{slug}/{missing}" if missing else None


def _rules(slug: str) -> str | None:
    game = load().games.get(slug)
    return None if game and game.entries else f"no entries in companion/rules/{slug}.toml"


def _starter(slug: str) -> str | None:
    return None if slug in STARTERS else "no starter in STARTERS (test_security_routes.py)"


def _help(slug: str) -> str | None:
    page = TEMPLATES / "help" / "games" / f"{slug}.html"
    return None if page.is_file() else f"no help page templates/help/games/{slug}.html"


def _screenshot(slug: str) -> str | None:
    image = f"docs/screenshots/{slug}.png"
    if not (ROOT / image).is_file():
        return f"no {image} (scripts/screenshots.py)"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return None if image in readme else f"the README does not show {image}"


def _axe(slug: str) -> str | None:
    tools = [tool_rule(slug, tool) for tool in PAGES[slug].tools] if slug in PAGES else []
    scanned = slug in axe.GAMES and set(tools) <= set(axe.OPEN_PAGES)
    return None if scanned else "tests/e2e/test_axe_everywhere.py does not scan it"


#: Each piece of the checklist a registered game needs, and how to tell it is there.
PIECES: dict[str, Callable[[str], str | None]] = {
    "engine": _engine,
    "conformance strategy": _conformance,
    "API description": _api_description,
    "services": _services,
    "pages": _pages,
    "rules content": _rules,
    "route-walk starter": _starter,
    "help page": _help,
    "screenshot": _screenshot,
    "axe scan": _axe,
}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_registered_game_has_every_piece(slug: str) -> None:
    found = {piece: check(slug) for piece, check in PIECES.items()}
    missing = [f"{piece}: {problem}" for piece, problem in found.items() if problem]
    assert not missing, f"{slug} lacks " + "; ".join(missing)


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


def _checklist_steps() -> list[str]:
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = guide.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^(\d+)\. ", section, re.MULTILINE)


def test_the_readme_and_the_guide_name_one_checklist() -> None:
    steps = _checklist_steps()
    assert steps == [str(number) for number in range(1, len(steps) + 1)]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"checklist of (\w+) steps \(([^)]*)\)", readme)
    assert said, "the README names the checklist's steps"
    assert said.group(1) == WORDS[len(steps) - 1]
    assert len(said.group(2).split(", ")) == len(steps)
