"""Odd World's and Owl About's rules entries say the rule where the rulebook does and the
app's reading where it chose (issue 34): the sentences that stated a reading as a rule,
or said what the app does not do, are put right."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import GAMES
from companion.rules import Entry, load

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _entry(rule_id: str) -> Entry:
    entry = load().entry(rule_id)
    assert entry is not None, rule_id
    return entry


def _body(rule_id: str) -> str:
    return " ".join(_entry(rule_id).body.split())


@pytest.mark.parametrize(
    "reading",
    [r for slug in ("odd-world", "owl-about") for r in GAMES[slug].readings],
    ids=lambda r: r.id,
)
def test_each_reading_s_entry_says_it_is_the_app_s(reading: object) -> None:
    entry = _entry(reading.rule)  # type: ignore[attr-defined]
    assert entry.clarification
    assert len(entry.why) > 40
    body = _body(entry.rule_id).casefold()
    assert "app's reading" in body or "app reads" in body, entry.rule_id


#: Entries whose sentences were wrong or overstated: what is gone, and what they say now.
SENTENCES = [
    (
        "odd-world/end-check",
        ["cannot see the draw piles"],
        [
            "when all 72 cards are on the table: the draw piles are then used up",
            "that is the app's reading",
            "two or more displays held all nine birds during play is refused",
        ],
    ),
    (
        "owl-about/mode/quick",
        ["The highest FP that only one card has takes the trick"],
        [
            "When several cards share the highest FP, the next highest FP takes it",
            "When every card has the same FP, the lead player takes it.",
            "that is the app's reading",
        ],
    ),
    ("owl-about/mode/quick/ties", [], ["goes on down to the highest FP that only one card"]),
    (
        "owl-about/trophy-totals",
        ["The app refuses other totals"],
        [
            "On the play page, a round entered as trophies with any other total is refused",
            "The API scores such a round as given and adds a warning",
        ],
    ),
    (
        "owl-about/variant/night-collection-3",
        ["gains no VP from trophies for that round"],
        ["gets 0 VP for that round", "both are its readings"],
    ),
    (
        "owl-about/variant/night-collection-4",
        ["goes back to 0 VP in total after that round"],
        ["its reading"],
    ),
    (
        "owl-about/fighting-power",
        ["A 1 or a 2 fights as 11 or 12 when a 9 or a 10"],
        ["its reading", "not next to a Night 7"],
    ),
    ("owl-about/card", ["big number"], ["the card's number"]),
    ("owl-about/trick-winner", [], ["In basic and advanced mode, the card with the highest FP"]),
]


@pytest.mark.parametrize(("rule_id", "gone", "said"), SENTENCES, ids=[s[0] for s in SENTENCES])
def test_the_entries_say_the_rule_and_label_the_reading(
    rule_id: str, gone: list[str], said: list[str]
) -> None:
    body = _body(rule_id)
    assert [sentence for sentence in gone if sentence in body] == []
    assert [sentence for sentence in said if sentence not in body] == []


def test_the_development_notes_no_longer_keep_the_night_rule_in_quick_mode() -> None:
    notes = " ".join((DOCS / "development.md").read_text(encoding="utf-8").split())
    assert "the night rule kept in quick mode" not in notes
    assert "quick mode checks neither the follow nor the night rule" in notes
