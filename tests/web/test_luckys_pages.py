"""Lucky's Misadventures pages: the tally, the round companion, Mavens offered again,
refusals next to the field (422), clashes (409), CSRF and the referee tools page."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.models import Play
from support.client import HTMX, TableLinks, create_table, csrf
from support.every_game import start_luckys
from support.luckys import post, text, url


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    return create_table(client, ["Lewis", "Carol"])


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    return start_luckys(client, links.edit)


def reveal(client: FlaskClient, token: str, play_id: int, codes: list[str]) -> TestResponse:
    response = None
    for code in codes:
        rounds = stored(client, play_id)["rounds"]
        assert isinstance(rounds, list)
        cards = len(rounds[-1]) if rounds else 0
        response = post(
            client, token, play_id, "fate", {"code": code, "rounds": len(rounds), "cards": cards}
        )
        assert response.status_code == 200, text(response)
    assert response is not None
    return response


def stored(client: FlaskClient, play_id: int) -> dict[str, Any]:
    with client.application.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        return dict(play.state)


def test_the_play_page_offers_the_companion_and_the_tally(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(client.get(url(links.edit, play_id) + "?seat=all"))
    assert "Round 1 of 14" in page
    assert "Lewis holds the Feed the Toad! card" in page
    assert 'aria-label="Death"' in page
    assert "One more Winged Monkey for Carol" in page
    assert "Tiny Tin" in page
    assert "Lewis and Carol tie on 10 points" in page  # both start with Lucky
    one = text(client.get(url(links.edit, play_id) + "?seat=1"))
    assert "One more Winged Monkey for Carol" in one
    assert "One more Winged Monkey for Lewis" not in one


def test_the_rulebook_round_passes_the_toad_back_to_lewis(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(reveal(client, links.edit, play_id, ["cups-4", "wands-5", "death"]))
    assert "Lewis</strong> holds the Feed the Toad! card (passed 2 seats from Lewis)" in page
    assert "Turn order: Lewis, Carol." in page
    assert "Cups: actions with a Cups trigger" in page
    assert "Death: no effect in round 1" in page
    page = text(reveal(client, links.edit, play_id, ["wands-1"]))
    assert "Round 2 of 14" in page
    assert stored(client, play_id)["rounds"] == [["cups-4", "wands-5", "death"], ["wands-1"]]


def test_a_fate_card_twice_is_refused_next_to_the_picker(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    reveal(client, links.edit, play_id, ["cups-4"])
    response = post(
        client, links.edit, play_id, "fate", {"code": "cups-4", "rounds": 1, "cards": 1}
    )
    assert response.status_code == 422
    assert "entered twice in round 1" in text(response)
    assert stored(client, play_id)["rounds"] == [["cups-4"]]


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_a_stale_fate_tap_is_a_conflict(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    reveal(client, links.edit, play_id, ["cups-4"])
    response = post(
        client, links.edit, play_id, "fate", {"code": "cups-5", "rounds": 0, "cards": 0}
    )
    assert response.status_code == 409
    assert "Another phone revealed a Fate card first" in text(response)


def test_undo_takes_back_the_last_fate_card(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    reveal(client, links.edit, play_id, ["cups-4", "wands-5"])
    token_value = csrf(client, url(links.edit, play_id) + "?seat=all")
    undo = client.post(
        url(links.edit, play_id) + "/undo",
        data={"csrf_token": token_value, "seat": "all"},
        headers=HTMX,
    )
    assert undo.status_code == 200
    assert stored(client, play_id)["rounds"] == [["cups-4"]]
    history = text(client.get(url(links.edit, play_id) + "/history"))
    assert "Round 1: 5 of Wands revealed" in history


def test_half_time_reminds_the_table_to_reshuffle(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    cards = [f"{suit}-{v}" for v in range(1, 7) for suit in ("cups", "swords", "wands")]
    page = text(reveal(client, links.edit, play_id, [*cards, "death", "fool", "tower"]))
    assert "Half time" in page
    assert "Round 8 of 14" in page
    assert "(second half)" in page


def count(
    client: FlaskClient, token: str, play_id: int, seat: int, field: str, value: int, base: int
) -> TestResponse:
    data = {"player": seat, "field": field, "value": value, "base": base}
    return post(client, token, play_id, "count", data)


def test_steppers_change_counts_and_the_totals_follow(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = count(client, links.edit, play_id, 1, "machines.tiny-tin", 1, 0)
    assert response.status_code == 200
    assert "Carol leads with 17 points" in text(response)
    response = count(client, links.edit, play_id, 0, "lucky", 0, 1)
    assert response.status_code == 200
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Carol"]["machines"]["tiny-tin"] == 1
    assert decks["Lewis"]["lucky"] == 0
    history = text(client.get(url(links.edit, play_id) + "/history"))
    assert "Carol's Tiny Tin: 0 → 1" in history


def test_impossible_counts_are_refused_next_to_the_field(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert count(client, links.edit, play_id, 0, "machines.tiny-tin", 3, 0).status_code == 200
    response = count(client, links.edit, play_id, 1, "machines.tiny-tin", 2, 0)
    assert response.status_code == 422
    assert "Only 4 Tiny Tin cards exist, but 5 were entered." in text(response)
    response = count(client, links.edit, play_id, 0, "lucky", 2, 1)
    assert response.status_code == 422
    assert "Enter 0 to 1 Lucky cards." in text(response)
    response = count(client, links.edit, play_id, 0, "hirelings.dragon", 1, 0)
    assert response.status_code == 422
    response = count(client, links.edit, play_id, 0, "hirelings.white-rabbit", "x", 0)  # type: ignore[arg-type]
    assert response.status_code == 422
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Carol"]["machines"]["tiny-tin"] == 0


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_a_stale_count_is_a_conflict_with_the_fresh_value(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert count(client, links.edit, play_id, 0, "hirelings.clockmakers", 1, 0).status_code == 200
    response = count(client, links.edit, play_id, 0, "hirelings.clockmakers", 1, 0)
    assert response.status_code == 409
    assert "it is now 1" in text(response)


def tap(client: FlaskClient, token: str, play_id: int, seat: int, tapped: str) -> TestResponse:
    """A stepper's button as a deck's one form sends it: the player and one ``tap``."""
    return post(client, token, play_id, "count", {"player": seat, "tap": tapped})


def test_a_deck_is_one_form_whose_buttons_carry_their_tap(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(url(links.edit, play_id) + "?seat=all").get_data(as_text=True)
    form = re.search(r'<form id="lm-d-1"[^>]*>(.*?)</form>', page, re.S)
    assert form
    assert "seat=all&amp;anchor=player-1#player-1" in form.group(0)
    assert 'name="player" value="1"' in form.group(1)
    plus = re.search(r'<button form="lm-d-1"[^>]*aria-label="One more Tiny Tin for Carol"', page)
    assert plus
    assert 'name="tap" value="machines.tiny-tin 1 0"' in plus.group(0)
    # Two decks: a form per deck and per typed count, not one per button.
    assert page.count('<form class="typed"') == page.count('name="tap"') // 2
    assert page.count("<form") < 70
    response = tap(client, links.edit, play_id, 1, "machines.tiny-tin 1 0")
    assert response.status_code == 200
    assert "Carol leads with 17 points" in text(response)
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Carol"]["machines"]["tiny-tin"] == 1


@pytest.mark.parametrize(
    ("tapped", "message"),
    [
        ("", "Say which count to change, its new value and the value shown."),
        ("machines.tiny-tin 1", "Say which count to change, its new value and the value shown."),
        ("machines.tiny-tin 1 0 0", "Say which count to change"),
        (" 1 0", "Say which count to change"),
        ("hirelings.dragon 1 0", "This cannot be changed here."),
        ("machines.tiny-tin 9 0", "Enter 0 to 4 cards."),
        ("machines.tiny-tin x 0", "Enter"),
    ],
)
def test_a_malformed_tap_is_refused_and_stores_nothing(
    client: FlaskClient, links: TableLinks, play_id: int, tapped: str, message: str
) -> None:
    response = tap(client, links.edit, play_id, 1, tapped)
    assert response.status_code == 422
    assert message in text(response)
    history = text(client.get(url(links.edit, play_id) + "/history"))
    assert "Tiny Tin" not in history


def test_a_tap_from_a_stale_page_is_a_conflict(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert tap(client, links.edit, play_id, 0, "hirelings.clockmakers 1 0").status_code == 200
    response = tap(client, links.edit, play_id, 0, "hirelings.clockmakers 1 0")
    assert response.status_code == 409
    assert "it is now 1" in text(response)


def test_junk_rows_by_printed_vp(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    assert (
        post(
            client, links.edit, play_id, "junk", {"player": 0, "kind": "reactor-pump", "vp": 2}
        ).status_code
        == 200
    )
    assert (
        post(
            client, links.edit, play_id, "junk", {"player": 0, "kind": "reactor-pump", "vp": 2}
        ).status_code
        == 200
    )
    missing = post(
        client, links.edit, play_id, "junk", {"player": 0, "kind": "reactor-pump", "vp": ""}
    )
    assert missing.status_code == 422
    assert "Enter the VP printed on the card." in text(missing)
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Lewis"]["junk"][1] == {"kind": "reactor-pump", "vp": 2, "count": 2}
    page = text(client.get(url(links.edit, play_id) + "?seat=all"))
    assert "Reactor Pump: 2 (2 VP each)" in page


def test_mavens_by_name_and_chips_at_the_tables_later_games(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    added = post(
        client,
        links.edit,
        play_id,
        "maven",
        {"player": 1, "name": " Pumpkin  Ted ", "faction": "oddling", "vp": 6},
    )
    assert added.status_code == 200
    too_much = post(
        client,
        links.edit,
        play_id,
        "maven",
        {"player": 1, "name": "Big", "faction": "wicked", "vp": 9},
    )
    assert too_much.status_code == 422
    assert "A Maven is worth 2 to 6 VP." in text(too_much)
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Carol"]["mavens"] == [{"name": "Pumpkin Ted", "faction": "oddling", "vp": 6}]
    later = start_luckys(client, links.edit)
    page = text(client.get(url(links.edit, later) + "?seat=all"))
    assert 'aria-label="Add Pumpkin Ted to Lewis\'s deck"' in page
    removed = post(
        client,
        links.edit,
        play_id,
        "maven/remove",
        {"player": 1, "index": 0, "name": "Pumpkin Ted"},
    )
    assert removed.status_code == 200


def test_an_escape_wins_outright(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    response = post(client, links.edit, play_id, "escape", {"player": 1, "by": "time-machine"})
    assert response.status_code == 200
    page = text(response)
    assert "Carol escaped Oddtopia with the Time Machine and wins at once" in page
    history = text(client.get(url(links.edit, play_id) + "/history"))
    assert "Carol escaped with the Time Machine." in history
    cleared = post(client, links.edit, play_id, "escape", {"player": "", "by": ""})
    assert cleared.status_code == 200
    bad = post(client, links.edit, play_id, "escape", {"player": 7, "by": "rocket"})
    assert bad.status_code == 422


def test_actions_need_the_csrf_token(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    response = client.post(
        url(links.edit, play_id, "fate"), data={"code": "cups-1", "rounds": 0, "cards": 0}
    )
    assert response.status_code == 400


def test_the_read_only_link_cannot_change_anything(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(client.get(url(links.view, play_id)))
    assert "One more" not in page
    response = post(
        client, links.view, play_id, "fate", {"code": "cups-1", "rounds": 0, "cards": 0}
    )
    assert response.status_code == 403


def test_without_javascript_a_tap_lands_back_where_it_was(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    token_value = csrf(client, url(links.edit, play_id) + "?seat=all")
    response = client.post(
        url(links.edit, play_id, "count"),
        data={
            "csrf_token": token_value,
            "seat": "1",
            "anchor": "player-1",
            "player": "1",
            "field": "hirelings.white-rabbit",
            "value": "1",
            "base": "0",
        },
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith("seat=1#player-1")


def test_without_javascript_a_tap_from_a_decks_form_lands_back_at_the_deck(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(url(links.edit, play_id) + "?seat=1").get_data(as_text=True)
    action = re.search(r'<form id="lm-d-1"[^>]*action="([^"#]+)#player-1"', page)
    assert action
    response = client.post(
        html_lib.unescape(action.group(1)),
        data={
            "csrf_token": csrf(client, url(links.edit, play_id)),
            "player": "1",
            "tap": "hirelings.white-rabbit 1 0",
        },
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith("seat=1#player-1")
    decks = stored(client, play_id)["decks"]
    assert isinstance(decks, dict)
    assert decks["Carol"]["hirelings"]["white-rabbit"] == 1


def test_the_referee_tools_without_a_table(client: FlaskClient) -> None:
    page = client.get(
        "/luckys-misadventures/referee?players=2&kind=wicked&p0=2&p1=1"
        "&scarecrow=wands&scarecrow=swords&fate0=cups-4&fate1=wands-5&fate2=death"
        "&buy=1&junk1=clockwork-gizmo&junk2=luminous-aether&escape=1&in_play=time-machine"
        "&in_play=reactor-pump"
    )
    assert page.status_code == 200
    body = text(page)
    assert "Player 1 wins by 1, a minor victory: a Maven card costing 5 or less" in body
    assert "<strong>3 Buy Points.</strong>" in body
    assert "build the Fate Clock (9 VP); 4 left." in body
    assert "Escape with the Time Machine!" in body
    stepped = text(client.get("/luckys-misadventures/referee?p0=2&p1=0&step=p1:%2B1"))
    assert 'id="p1" name="p1" value="1"' in stepped
    bad = client.get(
        "/luckys-misadventures/referee?p0=abc&fate0=cups-1&fate1=cups-1&junk1=bolt&buy=1"
    )
    assert bad.status_code == 422
    assert "Enter a whole number from 0 to 99." in text(bad)
    assert "cannot come up twice" in text(bad)


def test_the_machine_builder_counts_the_machines_of_the_game(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    count(client, links.edit, play_id, 0, "machines.fate-clock", 3, 0)
    count(client, links.edit, play_id, 1, "machines.fate-clock", 1, 0)
    page = text(
        client.get(
            url(links.edit, play_id, "referee") + "?junk1=luminous-aether&junk2=clockwork-gizmo"
        )
    )
    assert "build the Fate Clock (9 VP); none is left to build." in page
    assert re.search(r"Lewis's power", page)


def test_the_last_turn_order_decides_a_full_tie(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(client.get(url(links.edit, play_id) + "?seat=all"))
    assert "Not entered: players tied on everything else share." in page
    assert "they share the victory" in page or "share the lead" in page
    assert "Tiebreakers: holds Lucky · no Pumpkin Ted" in page
    response = post(client, links.edit, play_id, "last-turn", {"player": 1})
    assert response.status_code == 200
    assert stored(client, play_id)["final_turn_order"] == ["Carol", "Lewis"]
    page = text(response)
    assert "Later in the last turn order decides: Lewis turn 2 in the last round" in page
    history = text(client.get(url(links.edit, play_id) + "/history"))
    assert "The last round's turn order: Carol, Lewis." in history
    cleared = post(client, links.edit, play_id, "last-turn", {"player": ""})
    assert cleared.status_code == 200
    assert stored(client, play_id)["final_turn_order"] is None
    assert post(client, links.edit, play_id, "last-turn", {"player": "x"}).status_code == 422


def test_the_companion_gives_the_last_turn_order(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(reveal(client, links.edit, play_id, ["cups-1", "wands-2", "swords-3"]))
    assert "From the round companion: Carol, Lewis." in page
    # Round 1's order does not decide the last tiebreaker mid-game.
    assert "Later in the last turn order decides" not in page
    assert "cannot separate tied players" in page


# --- issue 34: end states the rules rule out, refused at entry; readings said ------------


def test_a_sister_of_another_faction_is_refused_next_to_the_maven_form(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    greed = {"player": 1, "name": "Greed", "faction": "oddling", "vp": 4}
    response = post(client, links.edit, play_id, "maven", greed)
    assert response.status_code == 422
    page = text(response)
    assert re.search(r'class="error"[^>]*>[^<]*Greed is one of the Three Sisters', page)
    assert "enter her as Wicked, not Oddling." in page
    decks = stored(client, play_id)["decks"]
    assert decks["Carol"]["mavens"] == []
    assert (
        post(client, links.edit, play_id, "maven", {**greed, "faction": "wicked"}).status_code
        == 200
    )


def test_an_escape_whose_cards_are_all_elsewhere_is_refused_at_entry(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert count(client, links.edit, play_id, 1, "machines.fate-clock", 4, 0).status_code == 200
    response = post(client, links.edit, play_id, "escape", {"player": 0, "by": "pumpkin-ted"})
    assert response.status_code == 422
    assert (
        "Lewis cannot escape with Pumpkin Ted's portal: it needs a Fate Clock in Lewis's play,"
        " but all 4 Fate Clock cards are in other decks (Carol 4)." in text(response)
    )
    assert stored(client, play_id)["escaped"] is None
    # The other way round: the escape first, then the deck that makes it impossible.
    assert count(client, links.edit, play_id, 1, "machines.fate-clock", 3, 4).status_code == 200
    escape = post(client, links.edit, play_id, "escape", {"player": 0, "by": "pumpkin-ted"})
    assert escape.status_code == 200
    fourth = count(client, links.edit, play_id, 1, "machines.fate-clock", 4, 3)
    assert fourth.status_code == 422
    assert "Lewis cannot escape with Pumpkin Ted's portal" in text(fourth)
    assert stored(client, play_id)["decks"]["Carol"]["machines"]["fate-clock"] == 3


def readings_on(page: str) -> list[str]:
    """The reading ids a page shows (each with its link to the entry)."""
    return re.findall(r'class="hint reading" data-reading="luckys-misadventures/([^"]+)"', page)


def test_the_round_companion_says_its_readings(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = text(reveal(client, links.edit, play_id, ["cups-4", "wands-5", "death"]))
    assert readings_on(page) == ["feed-the-toad/symbols"]
    assert "luckys-misadventures?at=companion-title#feed-the-toad/symbols" in page
    page = text(reveal(client, links.edit, play_id, ["fortune", "cups-1", "swords-2"]))
    assert readings_on(page) == ["feed-the-toad/symbols", "fate/fortune-phases"]


def test_the_standings_say_the_places_after_an_escape_are_the_app_s_reading(
    client: FlaskClient,
) -> None:
    links = create_table(client, ["Lewis", "Carol", "Romi"])
    play_id = start_luckys(client, links.edit)
    response = post(client, links.edit, play_id, "escape", {"player": 2, "by": "three-sisters"})
    assert response.status_code == 200
    assert readings_on(text(response)) == ["escapes/others-rank"]


def test_the_referee_tools_say_the_margin_reading_and_check_escapes_against_the_decks(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    alone = text(client.get("/luckys-misadventures/referee?players=3&p0=3&p1=2&p2=0"))
    assert "wins by 1, a minor victory" in alone
    assert readings_on(alone) == ["clarify/challenge-margin"]
    two = text(client.get("/luckys-misadventures/referee?players=2&p0=3&p1=2"))
    assert readings_on(two) == []
    count(client, links.edit, play_id, 1, "hirelings.clockmakers", 8, 0)
    tools = url(links.edit, play_id, "referee")
    asked = "?escape=1&in_play=pumpkin-ted&in_play=clockmakers&in_play=fate-clock&ted_triggered=1"
    refused = client.get(tools + asked + "&whose=0")
    assert refused.status_code == 422
    page = text(refused)
    assert (
        "Lewis cannot have a Clockmakers Hireling in play: all 8 Clockmakers cards are in"
        " other decks (Carol 8)." in page
    )
    assert "Escape with" not in page
    assert "Escape with Pumpkin Ted's portal!" in text(client.get(tools + asked + "&whose=1"))
    assert "Escape with Pumpkin Ted's portal!" in text(client.get(tools + asked))
