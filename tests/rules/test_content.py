"""The rules content: every file loads and checks, every game is covered, every rule id
the code names is an entry, and the checks themselves catch broken files."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import companion.games
from companion.games import GAMES
from companion.rules import RULES_DIR, Entry, RulesContentError, load
from companion.rules.content import ID_PATTERN, parse_file
from companion.rules.markdown import to_html, to_text

PROJECT = Path(__file__).resolve().parents[2]
GAMES_DIR = PROJECT / "companion" / "games"
TEMPLATES = PROJECT / "templates"
#: Every game slug the project knows (registered or arriving with its branch).
SLUGS = sorted({*GAMES, "odd-world", "owl-about", "oddland", "oddville", "luckys-misadventures"})
_ANY_SLUG = "|".join(map(re.escape, SLUGS))
RULE_ID = re.compile(rf"""["']((?:{_ANY_SLUG})/[a-z0-9/-]+)["']""")
SLUG_F_STRING = re.compile(r"""f["']\{SLUG\}/([a-z0-9/-]+)["']""")
#: Topics every game's rules must cover (matched against topic ids and titles).
REQUIRED_TOPICS = ("set", "turn|trick", "scor", "end", "tie")


def test_every_file_loads_and_checks() -> None:
    library = load()
    assert set(library.games) >= {"odd-world", "owl-about", "oddland"}
    for entry in library:
        assert ID_PATTERN.fullmatch(entry.id)
        assert entry.title.strip()
        assert entry.body.strip()


def test_every_registered_game_has_rules() -> None:
    """A game in the registry has ``companion/rules/<slug>.toml`` (OddVille's and Lucky's
    arrive with their branches)."""
    missing = [slug for slug in GAMES if not (RULES_DIR / f"{slug}.toml").exists()]
    assert not missing, f"no rules file for {missing}"
    assert set(load().games) >= set(GAMES)


@pytest.mark.parametrize("slug", sorted(load().games))
def test_each_game_covers_set_up_turns_scoring_end_and_ties(slug: str) -> None:
    rules = load().games[slug]
    words = " ".join(f"{t.id} {t.title} " for t in rules.topics).casefold()
    words += " ".join(f"{e.id} {e.title}" for e in rules.entries).casefold()
    for needed in REQUIRED_TOPICS:
        assert re.search(needed, words), f"{slug}: nothing about {needed}"
    assert any(e.clarification for e in rules.entries), f"{slug}: no clarification"


def test_clarifications_say_why() -> None:
    for entry in load():
        if entry.clarification:
            assert len(entry.why) > 20, entry.rule_id


CLARIFICATIONS = {
    "owl-about": [
        "small-owls",
        "trophies",
        "night-collection-void",
        "fewest-vp",
        "lead-next-round",
    ],
    "odd-world": ["face-down", "end-check"],
    "oddland": ["species/unknown", "tiebreak/two-tokens", "species/whalephant", "tokens"],
}


@pytest.mark.parametrize(
    "rule_id", [f"{slug}/{entry}" for slug, ids in CLARIFICATIONS.items() for entry in ids]
)
def test_the_issue_s_clarifications_are_there(rule_id: str) -> None:
    entry = load().entry(rule_id)
    assert entry is not None, rule_id
    assert entry.clarification


# --- issue 26: sentences the rulebooks contradict, readings that are the app's ----------


def _entry(rule_id: str) -> Entry:
    entry = load().entry(rule_id)
    assert entry is not None, rule_id
    return entry


def _text(rule_id: str) -> str:
    entry = _entry(rule_id)
    return " ".join(f"{entry.title} {entry.body} {entry.why}".split()).casefold()


def test_lucky_is_where_everyone_starts_not_what_everyone_keeps() -> None:
    """Tiebreaker 1 asks who still has Lucky, and the app accepts 0 Lucky cards."""
    text = _text("luckys-misadventures/scoring/lucky")
    assert "exactly one" not in text
    assert "starts" in text
    assert "0 or 1" in text


def test_the_map_starts_from_the_two_set_up_cards() -> None:
    text = _text("oddland/placement/edge")
    assert "first card goes anywhere" not in text
    assert "set-up lays two cards" in text


def test_a_seventh_worker_can_come_from_the_traveller() -> None:
    entry = _entry("oddville/app/too-many-workers")
    assert "only come from a mistake" not in _text(entry.rule_id)
    assert "Traveller" in entry.body
    assert "7th" in entry.body


def test_the_main_square_counting_is_ours_not_the_example_s() -> None:
    text = _text("oddville/main-square-counts")
    assert "example counts the main square" not in text
    assert "app's reading" in text


#: Readings the rulebooks do not make: each entry is a clarification with a why, and its
#: body itself says the reading is the app's (a reader of the body alone sees it too).
APP_READINGS = [
    "owl-about/goal",
    "owl-about/fewest-vp",
    "oddland/tiebreak/territories",
    "oddland/species/whalephant",
    "oddland/solo",
    "odd-world/players",
    "oddville/main-square/streets",
    "luckys-misadventures/tiebreak/pumpkin-ted",
]


@pytest.mark.parametrize("rule_id", APP_READINGS)
def test_the_app_s_readings_are_labelled_with_why(rule_id: str) -> None:
    entry = _entry(rule_id)
    assert entry.clarification, rule_id
    assert len(entry.why) > 40, rule_id
    assert "app" in entry.body.casefold() or "fewest vp win" in entry.body.casefold()


def test_quick_mode_follows_the_rulebook_any_one_card() -> None:
    """Quick mode lets every player play any one card: no follow rule, no night rule."""
    entry = _entry("owl-about/mode/quick")
    text = _text(entry.rule_id)
    assert "any one card" in text
    assert "neither the follow rule nor the night rule applies" in text
    assert "still applies the night rule" not in text
    assert "quick mode any card may be played" in _text("owl-about/night")


def test_pumpkin_ted_is_one_card_by_the_app_s_reading() -> None:
    text = _text("luckys-misadventures/tiebreak/pumpkin-ted")
    assert "single card" in text
    assert "refuses" in text


def test_goal_does_not_state_fewest_vp_as_fact() -> None:
    """The winner is the app's reading: the goal points to the entry that says so."""
    body = _entry("owl-about/goal").body.casefold()
    assert "app reads" in body
    assert "fewest-vp" in body


def test_the_main_square_s_lack_of_a_bonus_is_labelled_where_bonuses_are_listed() -> None:
    body = _entry("oddville/bonus").body
    assert "app's reading" in " ".join(body.split())


# --- every rule id the code names ------------------------------------------------------


def _modules() -> Iterator[object]:
    for info in pkgutil.walk_packages(companion.games.__path__, "companion.games."):
        yield importlib.import_module(info.name)


def _constant_ids() -> set[str]:
    """Rule ids held by the engines' constants (``*_RULE``, ``*_RULES``), tiebreaks,
    rule breaks and the games' own rule attributes."""
    found: set[str] = set()
    for module in _modules():
        for name, value in vars(module).items():
            if name.endswith("_RULE") and isinstance(value, str):
                found.add(value)
            if name.endswith("_RULES") and isinstance(value, dict):
                found.update(v for v in value.values() if isinstance(v, str) and "/" in v)
    for game in GAMES.values():
        found.update(t.rule for t in game.tiebreaks if t.rule)
        for attribute in ("tie_rule", "end_rule", "series_tie_rule"):
            value = getattr(game, attribute, None)
            if value:
                found.add(value)
    from companion.games.owl_about import RuleBreak

    found.update(rule.rule for rule in RuleBreak)
    return found


def _source_ids() -> set[str]:
    """Rule ids written out in the engines' source (literals and ``f"{SLUG}/..."``) and
    in the templates."""
    found: set[str] = set()
    for path in GAMES_DIR.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found.update(RULE_ID.findall(text))
        slug = _slug_of(path)
        if slug:
            found.update(f"{slug}/{rest}" for rest in SLUG_F_STRING.findall(text))
    for path in TEMPLATES.rglob("*.html"):
        found.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return found


def _slug_of(path: Path) -> str | None:
    """The ``SLUG`` a module defines, else the first one found in its package."""
    for candidate in (path, *sorted(path.parent.glob("*.py"))):
        if candidate.exists():
            tree = ast.parse(candidate.read_text(encoding="utf-8"))
            for node in tree.body:
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "SLUG" for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                ):
                    return str(node.value.value)
    return None


def _scored_ids() -> set[str]:
    """Rule ids on real results: breakdown lines of a scored game of each kind."""
    states = {
        "odd-world": {"players": [{"name": "A", "display": {"hoopoe": 3}}, {"name": "B"}]},
        "owl-about": {
            "players": ["A", "B", "C"],
            "rounds": [{"trophies": {"A": 5, "B": 2, "C": 2}, "penalties": {"C": 1}}],
        },
        "oddland": {
            "players": ["A"],
            "map": ["FFWW", "FSSW"],
            "sides": {"begator": "A", "flora": "A"},
            "tokens": [
                {"player": "A", "species": "begator", "cells": [[1, 1]]},
                {"player": "A", "species": "flora", "cells": [[0, 3]]},
            ],
        },
    }
    found: set[str] = set()
    for slug, state in states.items():
        for standing in GAMES[slug].score(state).standings:
            found.update(line.rule for line in standing.breakdown if line.rule)
    return found


def test_every_rule_id_in_the_code_is_an_entry() -> None:
    library = load()
    named = _constant_ids() | _source_ids() | _scored_ids()
    # The walk itself must find the ids: the three finished games name dozens.
    assert len(named) >= 40, sorted(named)
    missing = sorted(rule_id for rule_id in named if library.entry(rule_id) is None)
    assert not missing, f"rule ids without an entry: {missing}"


def test_rule_ids_in_the_walk_include_problems_lines_and_tiebreaks() -> None:
    named = _constant_ids() | _source_ids()
    for expected in (
        "owl-about/follow",
        "owl-about/night",
        "owl-about/round-vp",
        "oddland/placement/edge",
        "oddland/tiebreak/territories",
        "oddland/species/begator",
        "odd-world/scoring",
        "odd-world/tiebreak/species",
    ):
        assert expected in named
    assert {"oddland/species/begator", "oddland/solo", "owl-about/round-vp"} <= _scored_ids()


# --- the checks catch broken content ----------------------------------------------------


def _file(**changes: object) -> dict[str, object]:
    entry = {"id": "a", "topic": "t", "title": "Q?", "body": "A."}
    data: dict[str, object] = {
        "game": "x",
        "topic": [{"id": "t", "title": "T"}],
        "entry": [entry],
    }
    data.update(changes)
    return data


def _one(**fields: object) -> dict[str, object]:
    """A file whose one entry has these fields besides a valid id, topic, title and body."""
    return _file(entry=[{"id": "a", "topic": "t", "title": "Q?", "body": "A.", **fields}])


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (_file(game="y"), 'game is "y"'),
        (_file(entry=[{"id": "a", "topic": "t", "title": "Q?"}]), "body is missing"),
        (_one(id="A b"), "not a valid id"),
        (_one(topic="nope"), "not one of"),
        (_one(clarification=True), "needs a why"),
        (_one(clarification="yes", why="x"), "true or false"),
        (_file(entry=[{"id": "a", "topic": "t", "title": "Q", "body": "B"}] * 2), "used twice"),
        (_one(oops=1), "unknown key"),
        (_one(title=" "), "non-empty"),
        (
            _file(topic=[{"id": "t", "title": "T"}, {"id": "u", "title": "U"}]),
            '"u" has no entries',
        ),
        (_one(keywords="x"), "keywords"),
        (_file(entry=[]), "no entries"),
    ],
)
def test_broken_content_is_refused_with_a_reason(data: dict[str, object], problem: str) -> None:
    rules, problems = parse_file("x", data)
    assert rules is None
    assert any(problem in p for p in problems), problems


def test_a_broken_file_stops_loading(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('game = "x"\n[[entry]]\nid = "a"\n', encoding="utf-8")
    (tmp_path / "y.toml").write_text("not toml = = =", encoding="utf-8")
    with pytest.raises(RulesContentError) as raised:
        load(tmp_path)
    assert any(p.startswith("x.toml:") for p in raised.value.problems)
    assert any(p.startswith("y.toml: not valid TOML") for p in raised.value.problems)


def test_the_loader_takes_whatever_files_exist(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(
        'game = "x"\n[[topic]]\nid = "t"\ntitle = "T"\n'
        '[[entry]]\nid = "a"\ntopic = "t"\ntitle = "Q?"\nbody = "A."\n',
        encoding="utf-8",
    )
    assert list(load(tmp_path).games) == ["x"]


def test_bodies_are_escaped_markdown() -> None:
    assert str(to_html("**<b>**")) == "<p><strong>&lt;b&gt;</strong></p>"
    assert str(to_html("1. one\n2. two")) == "<ol><li>one</li><li>two</li></ol>"
    assert to_text("- a\n- *b*") == "a b"
