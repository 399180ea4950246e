"""What people ask the rules search at a table: typed queries with the entry that must come
first (``tests/rules/test_search.py``), and players' questions (``rules_questions.toml``,
``tests/rules/test_questions.py``); ``benchmarks/rules_bench.py`` times both."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

#: (query, game or None for all games, the entry that must come first)
QUERIES = [
    # Odd World
    ("cassowery", None, "odd-world/components"),
    ("cassowary", "odd-world", "odd-world/components"),
    ("cass", None, "odd-world/components"),
    ("hoopoe", None, "odd-world/components"),
    ("tie break", "odd-world", "odd-world/tiebreak/species"),
    ("tiebreaker", "odd-world", "odd-world/tiebreak/species"),
    ("odd even", None, "odd-world/scoring"),
    ("scoring", "odd-world", "odd-world/scoring"),
    ("face down card", None, "odd-world/face-down"),
    ("facedown", None, "odd-world/face-down"),
    ("three games", None, "odd-world/series"),
    ("draw pile empty", None, "odd-world/empty-pile"),
    ("all nine birds", None, "odd-world/end"),
    ("keep or give", None, "odd-world/turn"),
    ("both piles empty", None, "odd-world/end"),
    ("deck empty", "odd-world", "odd-world/end"),
    ("one pile empty", None, "odd-world/empty-pile"),
    ("3 games total", "odd-world", "odd-world/series"),
    # Owl About
    ("nite card", None, "owl-about/night"),
    ("night cards", "owl-about", "owl-about/night"),
    ("follow", None, "owl-about/follow"),
    ("folow rule", None, "owl-about/follow"),
    ("must play faster", None, "owl-about/follow"),
    ("fighting power", None, "owl-about/fighting-power"),
    ("fightin powr", None, "owl-about/fighting-power"),
    ("1 beats 10", None, "owl-about/small-owls"),
    ("who takes the trick", None, "owl-about/trick-winner"),
    ("trophies", None, "owl-about/trophies"),
    ("trophys", "owl-about", "owl-about/trophies"),
    ("night collection 3", None, "owl-about/variant/night-collection-3"),
    ("nite collection 4", None, "owl-about/variant/night-collection-4"),
    ("same speed", None, "owl-about/variant/same-speed"),
    ("quick mode", None, "owl-about/mode/quick"),
    ("quick mode follow", None, "owl-about/mode/quick"),
    ("quick night card", "owl-about", "owl-about/mode/quick"),
    ("same speed bonus", None, "owl-about/variant/same-speed"),
    ("advanced mode", None, "owl-about/mode/advanced"),
    ("wrong card", None, "owl-about/penalty"),
    ("penalties", None, "owl-about/penalty"),
    ("fewest vp", None, "owl-about/fewest-vp"),
    ("who wins", "owl-about", "owl-about/fewest-vp"),
    ("tiebr", "owl-about", "owl-about/fewest-vp"),
    ("player chart", None, "owl-about/players"),
    # Lucky's Feed the Toad! card is passed too: the game tells which passing is meant.
    ("passing cards", "owl-about", "owl-about/round-setup"),
    ("victory points", None, "owl-about/round-vp"),
    # Oddland
    ("tiebreakers", "oddland", "oddland/tiebreak/territories"),
    ("tie-break", "oddland", "oddland/tiebreak/territories"),
    ("largest territory", None, "oddland/tiebreak/territories"),
    ("whalefant", None, "oddland/species/whalephant"),
    ("whalephants", None, "oddland/species/whalephant"),
    ("begator", None, "oddland/species/begator"),
    ("begator", "oddland", "oddland/species/begator"),
    ("alligator", None, "oddland/species/begator"),
    ("flora tokens", None, "oddland/tokens"),
    ("how many tokens", None, "oddland/tokens"),
    ("neighbor territories", None, "oddland/terrain"),
    ("cover spaces", None, "oddland/placement/cover"),
    ("corner", None, "oddland/placement/edge"),
    ("share a territory", None, "oddland/placement/territory"),
    ("solo", None, "oddland/solo"),
    ("surounding spaces", None, "oddland/surrounding"),
    ("unknown species", None, "oddland/species/unknown"),
    ("game end", "oddland", "oddland/end"),
    ("scorebord", None, "oddland/scoreboard"),
    ("main sqare", "oddville", "oddville/main-square"),
    ("tie break", "oddville", "oddville/tiebreak"),
    ("caracters", "oddville", "oddville/characters"),
    ("lamplighter", None, "oddville/character/lamplighter"),
    ("traveler", None, "oddville/character/traveller"),
    ("traveller main square", None, "oddville/character/traveller"),
    ("landowner", None, "oddville/character/landowner"),
    ("diamonds in the city", "oddville", "oddville/vp/diamonds"),
    ("rotate a card", "oddville", "oddville/construction/rotation"),
    ("feed the tode", "luckys-misadventures", "luckys-misadventures/feed-the-toad"),
    ("instant win", "luckys-misadventures", "luckys-misadventures/escapes"),
    ("tie in a challenge", "luckys-misadventures", "luckys-misadventures/challenges/tie"),
    ("machine matrix", None, "luckys-misadventures/machines"),
    ("fortune", None, "luckys-misadventures/fate/fortune"),
    ("death trash", None, "luckys-misadventures/fate/death"),
    ("pumpkin ted", None, "luckys-misadventures/tiebreak/pumpkin-ted"),
    ("maven", None, "luckys-misadventures/scoring/mavens"),
    ("winged monkey", None, "luckys-misadventures/scoring/hirelings"),
    ("steam golem vp", None, "luckys-misadventures/scoring/machines"),
    ("fate deck runs out", None, "luckys-misadventures/halves"),
]


#: Questions as players ask them, each with the entry that must come first (at least 100).
QUESTIONS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).with_name("rules_questions.toml")).read_text("utf-8")
)["question"]

#: Where the other languages' questions are: ``rules_questions/<language>.toml``.
QUESTIONS_DIR = Path(__file__).with_name("rules_questions")


def questions_in(language: str) -> list[dict[str, Any]]:
    """The players' questions in a language (English: :data:`QUESTIONS`)."""
    if language == "en":
        return QUESTIONS
    path = QUESTIONS_DIR / f"{language}.toml"
    found: list[dict[str, Any]] = tomllib.loads(path.read_text("utf-8"))["question"]
    return found
