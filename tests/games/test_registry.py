"""Every registered game passes the shared checks, and engines stay pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games import GAMES

GAMES_DIR = Path(__file__).resolve().parents[2] / "companion" / "games"
FORBIDDEN_IMPORTS = ("flask", "flask_", "sqlalchemy", "werkzeug", "wtforms", "jinja2")
FORBIDDEN_COMPANION = ("companion.web", "companion.services", "companion.models")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


ENGINE_FILES = sorted(GAMES_DIR.rglob("*.py"))


def test_every_engine_file_is_checked() -> None:
    """Sub-packages are looked into: a game split into modules stays checked."""
    names = {str(p.relative_to(GAMES_DIR)) for p in ENGINE_FILES}
    assert {"base.py", "grid.py", "owl_about/scoring.py", "oddland/placement.py"} <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(GAMES_DIR)))
def test_engines_import_no_web_or_storage(path: Path) -> None:
    for name in _imports(path):
        assert not name.startswith(FORBIDDEN_IMPORTS), f"{path.name} imports {name}"
        assert not name.startswith(FORBIDDEN_COMPANION), f"{path.name} imports {name}"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_game_conformance(slug: str) -> None:
    game = GAMES[slug]
    assert game.slug == slug
    assert 1 <= game.min_players <= game.max_players <= 6
    names = [f"Player {i}" for i in range(game.max_players)]
    state = game.new_state(names[: game.min_players], {})
    assert game.validate(state) == []
    result = game.score(state).to_json()
    assert set(result) >= {"game", "standings", "winners", "decided_by", "finished", "warnings"}
    assert result["game"] == slug
    assert sorted(s["player"] for s in result["standings"]) == sorted(names[: game.min_players])
    assert "score" in game.api_endpoints()
    assert isinstance(game.engine_version, int)
