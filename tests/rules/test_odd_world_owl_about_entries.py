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


def test_the_end_check_says_when_the_app_knows_the_game_is_over() -> None:
    body = _body("odd-world/end-check")
    assert "cannot see the draw piles" not in body
    assert "when all 72 cards are on the table: the draw piles are then used up" in body
    assert "that is the app's reading" in body
    assert "two or more displays held all nine birds during play is refused" in body


def test_quick_mode_states_the_rule_and_names_the_reading() -> None:
    body = _body("owl-about/mode/quick")
    assert "When several cards share the highest FP, the next highest FP takes it" in body
    assert "When every card has the same FP, the lead player takes it." in body
    assert "that is the app's reading" in body
    assert not _entry("owl-about/mode/quick").clarification
    ties = _body("owl-about/mode/quick/ties")
    assert "goes on down to the highest FP that only one card has" in ties


def test_trophy_totals_say_the_api_warns_and_the_page_refuses() -> None:
    body = _body("owl-about/trophy-totals")
    assert "The app refuses other totals" not in body
    assert "On the play page, a round entered as trophies with any other total is refused" in body
    assert "The API scores such a round as given and adds a warning" in body


def test_night_collection_entries_state_the_rulebook_and_label_the_readings() -> None:
    three = _body("owl-about/variant/night-collection-3")
    assert "gets 0 VP for that round" in three
    assert "both are its readings" in three
    four = _body("owl-about/variant/night-collection-4")
    assert "goes back to 0 VP in total after that round" not in four
    assert "its reading" in four


def test_fighting_power_and_the_card_say_only_what_the_rulebook_does() -> None:
    fighting = _body("owl-about/fighting-power")
    assert "A 1 or a 2 fights as 11 or 12 when a 9 or a 10" not in fighting
    assert "its reading" in fighting
    assert "big number" not in _body("owl-about/card")
    assert _body("owl-about/trick-winner").startswith("In basic and advanced mode")


def test_the_development_notes_no_longer_keep_the_night_rule_in_quick_mode() -> None:
    notes = " ".join((DOCS / "development.md").read_text(encoding="utf-8").split())
    assert "the night rule kept in quick mode" not in notes
    assert "quick mode checks neither the follow nor the night rule" in notes
