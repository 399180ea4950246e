"""Owl About through the pages: options, playing along card by card, rounds, trophies,
penalties, hands, overrides, game end, conflicts, access and the trick checker."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.games import owl_about as oa
from companion.models import Play
from companion.services import plays
from support.client import HTMX, TableLinks, create_table, csrf, standings_readings
from support.owl_about import (
    MIU_HAND,
    TABLE,
    act,
    deck_rows,
    page,
    phone_of,
    picker_fields,
    play_url,
    start_owl,
    start_round,
    tap,
    tap_all,
    text,
)

TRIO = ["Ann", "Ben", "Cy"]
RULEBOOK_TRICK = ["6", "2", "8", "10"]


# --- helpers --------------------------------------------------------------------------------


def without_random_values(html: str, *tokens: str) -> str:
    """The page without its random values (CSRF tokens, one-time form keys, the table's
    links), which may spell a card's short name ("N6") by chance."""
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    html = re.sub(r'name="(?:csrf_token|submission)" value="[^"]*"', "", html)
    for token in tokens:
        html = html.replace(token, "")
    return html


def rounds_on_page(client: FlaskClient, token: str, play_id: int) -> str:
    found = re.search(r'name="rounds" value="(\d+)"', page(client, token, play_id))
    assert found
    return found.group(1)


def totals(html: str) -> dict[str, int]:
    """The totals column of the rounds table."""
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>.*?<td><strong>(\d+)</strong>', html)
    return {name: int(total) for name, total in rows}


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Miu, Carol, Romi and Tom."""
    return create_table(client, TABLE)


@pytest.fixture
def basic(client: FlaskClient, links: TableLinks) -> int:
    """A basic-mode game with round 1 led by Miu."""
    play_id = start_owl(client, links.edit)
    assert start_round(client, links.edit, play_id, "Miu").status_code == 200
    return play_id


# --- options ----------------------------------------------------------------------------------


def test_options_page_shows_the_chart_for_this_table(
    client: FlaskClient, links: TableLinks
) -> None:
    html = text(client.get(f"/t/{links.edit}/plays/new/owl-about"))
    assert "Player chart" in html
    assert re.search(r'class="owl-here" aria-current="true"> <th scope="row">4 \(you\)', html)
    assert "with 4 players: 10 VP" in html
    assert 'value="same-speed"' in html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"mode": "basic", "variants": ["same-speed"]}, "Variants are only played in advanced"),
        ({"mode": "advanced", "variants": ["double-owl"]}, "is not a valid choice"),
        ({"mode": "turbo"}, "Not a valid choice"),
        ({"mode": "basic", "target": "0"}, "Enter a target from 1 to 99 VP."),
        ({"mode": "basic", "target": "100"}, "Enter a target from 1 to 99 VP."),
        ({"mode": "basic", "target": "1" + "0" * 40}, "Enter a target from 1 to 99 VP."),
        ({"mode": "advanced", "variants": ["night-collection"]}, "is not a valid choice"),
        ({"mode": "basic", "target": "ten"}, "Not a valid integer value"),
    ],
)
def test_options_refuse_bad_input_with_422(
    client: FlaskClient, links: TableLinks, data: dict[str, object], message: str
) -> None:
    url = f"/t/{links.edit}/plays/new/owl-about"
    response = client.post(url, data={**data, "csrf_token": csrf(client, url)})
    assert response.status_code == 422
    assert message in text(response)
    assert "Games at this table" not in text(client.get(f"/t/{links.edit}"))


def test_options_start_with_the_chart_target_or_a_chosen_one(
    client: FlaskClient, links: TableLinks
) -> None:
    first = start_owl(
        client, links.edit, mode="advanced", variants=["night-collection-3", "night-collection-4"]
    )
    html = page(client, links.edit, first)
    assert (
        "Advanced mode · night-collection-3, night-collection-4 · target 10 VP · "
        "8 tricks a round." in html
    )
    second = start_owl(client, links.edit, target="12")
    assert "target 12 VP" in page(client, links.edit, second)


# --- playing along ----------------------------------------------------------------------------


def test_each_tap_returns_the_panel_and_the_winner_leads_next(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    response = tap_all(client, links.edit, basic, RULEBOOK_TRICK[:3])
    html = text(response)
    assert html.lstrip().startswith('<section id="play"')
    assert "<html" not in html
    assert 'Romi</span> <span class="owl-card">8</span> <span class="owl-fp">8 FP' in html
    assert "winning" in html
    assert "Tom</strong> to play." in html
    # The play's buttons come with it: Undo is live, the history count current.
    assert "History (4)" in html

    html = text(tap(client, links.edit, basic, "10"))
    assert "Trick 1 went to <strong>Carol</strong>: +1 trophy." in html
    assert 'Carol leads. <strong class="owl-next">Carol</strong> to play.' in html
    assert "trick 2 of 8" in html

    whole = page(client, links.edit, basic)
    assert "Miu 6, Carol 2 (12), Romi 8, Tom 10</span> → <strong>Carol</strong>" in whole


def test_plain_post_of_a_card_redirects_to_the_play_page(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    fields = picker_fields(page(client, links.edit, basic))
    response = act(client, links.edit, basic, "card", {**fields, "card": "6"}, htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/plays/{basic}?seat=all")


def test_used_up_cards_are_disabled(client: FlaskClient, links: TableLinks, basic: int) -> None:
    html = text(tap_all(client, links.edit, basic, ["9", "10", "9"]))
    assert re.search(
        r'value="9" class="owl-pick" aria-label="Play 9 for Tom, all used up: 9, 0 left" disabled',
        html,
    )
    assert re.search(
        r'value="10" class="owl-pick" aria-label="Play 10 for Tom: 10, 1 left" >', html
    )
    assert '<small aria-hidden="true">1 left</small>' in html


def test_a_card_beyond_the_deck_is_refused(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    tap_all(client, links.edit, basic, ["9", "9"])
    response = tap(client, links.edit, basic, "9")
    assert response.status_code == 422
    assert 'Only 2 "9" cards exist, but 3 were played in this round.' in text(response)
    response = tap(client, links.edit, basic, "11")
    assert response.status_code == 422
    assert "Pick a card from 1 to 10 or Night 4 to 7." in text(response)


def test_entered_hands_reveal_broken_rules_and_mark_the_picker(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    for player, hand in (("Romi", "3 8"), ("Tom", "N6 6 1")):
        seat = str(TABLE.index(player))
        data = {"player": player, "hand": hand, "seat": seat}
        response = act(client, links.edit, basic, "hand", data)
        assert response.status_code == 200, text(response)
    tap_all(client, links.edit, basic, ["6", "2"])
    # On Romi's phone: Romi holds an 8, so a 3 would break the follow rule.
    html = page(client, links.edit, basic, seat="2")
    assert re.search(r'aria-label="Play 3 for Romi, breaks a rule: 3, \d left"', html)
    assert re.search(r'aria-label="Play 5 for Romi: 5, \d left" disabled', html)  # not held
    assert "Romi may play: 8" in html
    html = text(tap_all(client, links.edit, basic, ["3", "N6"]))
    assert "With a card of speed 6 or faster in hand, Romi had to play one of those" in html
    assert "While holding a day 6, Tom could not play the Night 6 yet." in html
    # Another phone sees that hands were entered, not the cards.
    assert "3 8" not in page(client, links.edit, basic)
    assert 'value="3 8"' in page(client, links.edit, basic, seat="2")


def test_a_played_card_missing_from_the_entered_hand_is_refused(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    act(client, links.edit, basic, "hand", {"player": "Miu", "hand": "1 2"})
    response = act(
        client,
        links.edit,
        basic,
        "card",
        {**picker_fields(page(client, links.edit, basic)), "card": "5"},
    )
    assert response.status_code == 422
    assert "Miu's entered hand has no 5 left to play." in text(response)


def test_a_bad_hand_is_refused_next_to_it(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    response = act(client, links.edit, basic, "hand", {"player": "Tom", "hand": "2 12"})
    assert response.status_code == 422
    assert 'There is no card "12"' in text(response)
    response = act(client, links.edit, basic, "hand", {"player": "Tom", "hand": "9 9 9"})
    assert response.status_code == 422
    assert "Only 2" in text(response)


def test_advanced_mode_can_hand_a_trick_to_someone_else(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit, mode="advanced")
    start_round(client, links.edit, play_id, "Miu")
    tap_all(client, links.edit, play_id, RULEBOOK_TRICK)
    rounds = rounds_on_page(client, links.edit, play_id)
    response = act(
        client, links.edit, play_id, "override", {"rounds": rounds, "trick": "0", "winner": "Tom"}
    )
    assert response.status_code == 200
    html = text(response)
    assert "→ <strong>Tom</strong> <em>(override; cards: Carol)</em>" in html
    assert 'Tom leads. <strong class="owl-next">Tom</strong> to play.' in html
    history = text(client.get(f"{play_url(links.edit, play_id)}/history"))
    assert "Round 1, trick 1" in history
    assert "Round 1, trick 1: Carol played 2." in history
    assert "Round 1, trick 1: Miu played 6." in history


def test_override_is_refused_outside_advanced_mode(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    tap_all(client, links.edit, basic, RULEBOOK_TRICK)
    html = page(client, links.edit, basic)
    assert "owl-about/override" not in html
    response = act(
        client, links.edit, basic, "override", {"rounds": "1", "trick": "0", "winner": "Tom"}
    )
    assert response.status_code == 422
    assert "advanced mode" in text(response)


def test_quick_mode_uses_the_highest_unique_fp(client: FlaskClient, links: TableLinks) -> None:
    play_id = start_owl(client, links.edit, mode="quick")
    start_round(client, links.edit, play_id, "Miu")
    html = text(tap_all(client, links.edit, play_id, ["2", "2", "N4", "6"]))
    assert "Trick 1 went to <strong>Miu</strong>" in html  # no unique FP: the lead
    html = text(tap_all(client, links.edit, play_id, ["5", "3", "5", "1"]))
    assert "Trick 2 went to <strong>Carol</strong>" in html  # 5s tie: the 3 is highest unique


def test_the_first_lead_can_change_before_the_first_card(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    response = act(client, links.edit, basic, "lead", {"rounds": "1", "lead": "Romi"})
    assert response.status_code == 200
    assert "Romi leads." in text(response)
    tap(client, links.edit, basic, "5")
    response = act(client, links.edit, basic, "lead", {"rounds": "1", "lead": "Tom"})
    assert response.status_code == 422
    assert "before its first card" in text(response)


def test_undo_takes_back_one_card(client: FlaskClient, links: TableLinks, basic: int) -> None:
    tap_all(client, links.edit, basic, ["6", "2"])
    undo = client.post(
        f"{play_url(links.edit, basic)}/undo",
        data={
            "csrf_token": csrf(client, play_url(links.edit, basic) + "?seat=all"),
            "seat": "all",
        },
        headers=HTMX,
    )
    assert undo.status_code == 200
    html = text(undo)
    assert "Carol</strong> to play." in html
    assert picker_fields(html)["seen"] == "6"


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_two_phones_playing_for_the_same_turn_conflict(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    fields = picker_fields(page(client, links.edit, basic))
    first = act(client, links.edit, basic, "card", {**fields, "card": "6"})
    assert first.status_code == 200
    second = act(client, links.edit, basic, "card", {**fields, "card": "7"})
    assert second.status_code == 409
    html = text(second)
    assert html.lstrip().startswith('<section id="play"')
    assert "Another phone played in this trick first: now 6." in html
    assert "Carol</strong> to play." in html
    # The stale tap on a trick that is over is refused the same way.
    tap_all(client, links.edit, basic, ["2", "8", "10"])
    stale = act(client, links.edit, basic, "card", {**fields, "card": "7"})
    assert stale.status_code == 409


# --- rounds, trophies, penalties, game end ----------------------------------------------------


def test_a_full_round_played_along_scores_and_the_next_round_starts(
    client: FlaskClient,
) -> None:
    links = create_table(client, TRIO)
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Ann")
    tricks: list[dict[str, object]] = []
    lead = "Ann"
    for row in deck_rows(3, 9):
        tap_all(client, links.edit, play_id, row)
        tricks.append({"lead": lead, "cards": row})
        taker = oa.trick_progress(mode="basic", players=TRIO, lead=lead, cards=row).winner
        assert taker is not None
        lead = taker
    expected = oa.score_game(oa.parse({"players": TRIO, "rounds": [{"tricks": tricks}]}))
    html = page(client, links.edit, play_id)
    assert "Round 1 is complete" in html
    assert "End of round 1" in html
    assert totals(html) == {s.player: s.score for s in expected.standings}
    assert (
        '<svg viewBox="0 0 320 160" role="img" aria-labelledby="vp-chart-title vp-chart-desc"'
        in html
    )
    assert '<title id="vp-chart-title">VP after each round</title>' in html
    assert f"({lead} took the last trick)" in html
    response = start_round(client, links.edit, play_id, lead)
    assert response.status_code == 200
    assert "Round 2 · trick 1 of 9" in text(response)


def test_trophies_quick_entry_scores_the_rulebook_example(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit)
    data = {"round": "0", "rounds": "0"}
    data.update({f"trophies-{i}": str(n) for i, n in enumerate([4, 3, 0, 3])})
    response = act(client, links.edit, play_id, "trophies", data)
    assert response.status_code == 200
    assert totals(text(response)) == {"Miu": 4, "Carol": 1, "Romi": 4, "Tom": 1}
    assert "Most trophies: 4 (Miu): they gain 4 VP" in text(response)


def test_trophies_replace_a_round_with_no_card_yet_and_bad_counts_are_422(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    bad = {"round": "0", "rounds": "1", "trophies-0": "-1", "trophies-1": "x"}
    response = act(client, links.edit, basic, "trophies", bad)
    assert response.status_code == 422
    assert "Trophies cannot be negative." in text(response)
    data = {"round": "0", "rounds": "1"}
    data.update({f"trophies-{i}": str(n) for i, n in enumerate([8, 0, 0, 0])})
    response = act(client, links.edit, basic, "trophies", data)
    assert response.status_code == 200
    assert totals(text(response)) == {"Miu": 8, "Carol": 8, "Romi": 8, "Tom": 8}
    assert 'id="trick"' not in text(response)


def test_penalties_add_one_vp_at_any_time(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    tap(client, links.edit, basic, "6")
    for _ in range(2):
        response = act(client, links.edit, basic, "penalty", {"player": "Tom"})
        assert response.status_code == 200
    html = text(response)
    assert "Tom +1 <small>(2 this round)</small>" in html
    assert totals(html)["Tom"] == 2
    response = act(client, links.edit, basic, "penalty", {"player": "Zed"})
    assert response.status_code == 422
    assert "Pick a player at the table." in text(response)


def test_the_game_ends_after_the_round_reaching_the_target(client: FlaskClient) -> None:
    links = create_table(client, TRIO)
    play_id = start_owl(client, links.edit, target="5")
    data = {"round": "0", "rounds": "0", "trophies-0": "5", "trophies-1": "4", "trophies-2": "0"}
    html = text(act(client, links.edit, play_id, "trophies", data))
    assert "Game over after round 1" in html
    assert "Ann and Cy reached the target of 5 VP" in html
    assert "Ben with 1 VP" in html
    assert "owl-about/round" not in html
    response = act(client, links.edit, play_id, "round", {"rounds": "1", "lead": "Ann"})
    assert response.status_code == 422
    assert "The game is over" in text(response)
    finish = client.post(
        f"{play_url(links.edit, play_id)}/finish",
        data={"csrf_token": csrf(client, play_url(links.edit, play_id) + "?seat=all")},
    )
    assert finish.status_code == 303
    table = text(client.get(f"/t/{links.edit}"))
    assert "Owl About</a> — finished: Ben wins" in table
    # The evening counts Ben's win; fewest-VP games add no points to the evening's total.
    assert re.search(
        r'<strong class="ev-name">Ben</strong> <span class="ev-record">1 win in 1 game</span>',
        table,
    )


# --- access and security ----------------------------------------------------------------------


ACTIONS = ["card", "round", "lead", "override", "penalty", "hand", "trophies"]


@pytest.mark.parametrize("action", ACTIONS)
def test_the_read_only_link_changes_nothing(
    client: FlaskClient, links: TableLinks, basic: int, action: str
) -> None:
    response = act(
        client,
        links.view,
        basic,
        action,
        {"card": "6", "rounds": "1", "trick": "0", "player": "Tom", "lead": "Tom"},
        token_from=links.edit,
    )
    assert response.status_code == 403
    html = page(client, links.view, basic)
    assert "owl-picker" not in html
    assert "owl-about/penalty" not in html


def test_actions_need_the_csrf_token(client: FlaskClient, links: TableLinks, basic: int) -> None:
    response = client.post(
        f"{play_url(links.edit, basic)}/owl-about/card",
        data={"rounds": "1", "trick": "0", "seen": "", "card": "6"},
        headers=HTMX,
    )
    assert response.status_code == 400
    assert 'owl-card">6<' not in page(client, links.edit, basic)


def test_a_play_page_without_a_seat_opens(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    assert client.get(play_url(links.edit, basic)).status_code == 200


def test_owl_actions_on_another_game_are_not_found(client: FlaskClient, links: TableLinks) -> None:
    response = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "odd-world", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    odd_world = int(response.headers["Location"].split("/plays/")[1].split("?")[0])
    assert act(client, links.edit, odd_world, "penalty", {"player": "Tom"}).status_code == 404


# --- the trick checker ------------------------------------------------------------------------


def test_checker_names_the_winner_fp_and_broken_rules(client: FlaskClient) -> None:
    response = client.get("/owl-about/check?players=4&cards=6+2+8&card=10&hand-2=8+3+10")
    assert response.status_code == 200
    html = text(response)
    assert "Player 2 takes the trick: 1 trophy." in html
    assert '<span class="owl-fp">12 FP</span>' in html
    response = client.get("/owl-about/check?players=4&cards=6+2&card=3&hand-2=8+3")
    html = text(response)
    assert "Player 3 plays next" not in html
    assert "Player 3 had to play one of those instead of the 3" in html
    assert "1 rule broken." in html


def test_checker_takes_back_a_card_and_needs_no_table(client: FlaskClient) -> None:
    html = text(client.get("/owl-about/check?players=3&mode=quick&cards=2+2&drop=1"))
    assert "Lead is winning; Player 2 plays next." in html
    assert text(client.get("/owl-about/check")).count("owl-pick") >= len(oa.DECK)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("players=7&cards=6", "Owl About is for 3 to 6 players."),
        ("players=4&cards=6+11", 'There is no card "11"'),
        ("players=4&cards=9+9+9", 'Only 2 "9" cards exist'),
        ("players=3&cards=1+2+3+4", "Each of the 3 players plays one card"),
        ("players=4&cards=6&hand-1=2+x", 'There is no card "x"'),
        ("players=4&cards=6&mode=turbo", "Pick basic, quick or advanced."),
    ],
)
def test_checker_refuses_impossible_tricks_with_422(
    client: FlaskClient, query: str, message: str
) -> None:
    response = client.get(f"/owl-about/check?{query}")
    assert response.status_code == 422
    assert message in text(response)


# --- variants at the end of a round, and the API ----------------------------------------------


def store_rounds(app: Flask, play_id: int, rounds: list[dict[str, object]]) -> None:
    """Set the play's rounds through the service layer (faster than 27 taps)."""
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        plays.replace_value(play, path="rounds", value=rounds, author=plays.Author("test"))


def test_round_end_explains_same_speed_and_night_collection(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, TRIO)
    variants = ["same-speed", "night-collection-3", "night-collection-4"]
    play_id = start_owl(client, links.edit, mode="advanced", variants=variants)
    rows = [["N4", "N5", "10"], ["N6", "1", "2"]]
    rows += [[code] * 3 for code in ("5", "1", "2", "3", "4", "6", "7")]
    tricks = [{"lead": "Ann", "cards": rows[0]}] + [{"lead": "Cy", "cards": r} for r in rows[1:]]
    store_rounds(app, play_id, [{"tricks": tricks, "open": True, "penalties": {}}])
    html = page(client, links.edit, play_id)
    assert "Cy: +7 VP for same-speed tricks." in html
    assert "Cy collected 3 night cards: no trophy VP this round." in html
    # The same-speed VP stand: the app's reading, said next to the round's end.
    assert list(readings_in(html, "<h3>End of round 1</h3>")) == [
        "owl-about/night-collection-void"
    ]
    assert totals(html) == {"Ann": 15, "Ben": 15, "Cy": 7}
    assert "Game over after round 1" in html
    assert "Ann and Ben reached the target of 15 VP" in html
    assert "Cy with 7 VP" in html
    assert "Ann: 15 VP. Ben: 15 VP. Cy: 7 VP. Target 15 VP." in html


def test_the_api_accepts_an_open_round_and_still_refuses_a_short_trick(
    client: FlaskClient,
) -> None:
    round_: dict[str, object] = {"tricks": [{"lead": "Miu", "cards": ["6"]}]}
    body = {"players": TABLE, "rounds": [round_]}
    refused = client.post("/api/v1/games/owl-about/score", json=body)
    assert refused.status_code == 422
    round_["open"] = True
    answer = client.post("/api/v1/games/owl-about/score", json=body)
    assert answer.status_code == 200
    assert answer.get_json()["rounds"][0]["complete"] is False


# --- hidden information: a hand shows only on its player's phone (issue 9, point 2) -------------


def own_view(html: str) -> bool:
    """Whether a page shows Miu's hand or anything derived from it."""
    not_held = re.search(r'aria-label="Play [^"]*for Miu: [^"]*" disabled', html)
    return bool(
        MIU_HAND in html
        or "may play" in html
        or "owl-breaks" in html
        or "breaks a rule" in html
        or not_held
        or "Miu's hand" in html
        or "(your hand:" in html
    )


@pytest.fixture
def hand_entered(app: Flask, links: TableLinks) -> tuple[FlaskClient, int]:
    """Miu's phone (owner Miu) started a game and typed Miu's hand; Miu leads."""
    miu = phone_of(app, links.edit, "Miu")
    play_id = start_owl(miu, links.edit)
    assert start_round(miu, links.edit, play_id, "Miu").status_code == 200
    url = play_url(links.edit, play_id)
    data = {"player": "Miu", "hand": MIU_HAND, "csrf_token": csrf(miu, url)}
    response = miu.post(f"{url}/owl-about/hand", data=data, headers=HTMX)
    assert response.status_code == 200, text(response)
    assert own_view(text(response))
    return miu, play_id


def test_a_hand_shows_only_on_its_owners_phone(
    app: Flask, links: TableLinks, hand_entered: tuple[FlaskClient, int]
) -> None:
    miu, play_id = hand_entered
    url = play_url(links.edit, play_id)
    mine = text(miu.get(url))  # no seat asked: the phone's owner, Miu
    assert f'value="{MIU_HAND}"' in mine
    assert "Miu may play: 2, 8, 10, 6" in mine
    assert re.search(
        r'class="owl-pick owl-night owl-breaks" aria-label="Play Night 6 for Miu', mine
    )
    assert re.search(r'aria-label="Play 5 for Miu: 5, \d left" disabled', mine)
    carol = phone_of(app, links.edit, "Carol")
    readonly = app.test_client()
    others = {
        "Carol's phone": text(carol.get(url)),
        "Carol's phone, Everyone": text(carol.get(f"{url}?seat=all")),
        "Miu's phone, Everyone": text(miu.get(f"{url}?seat=all")),
        "Carol's phone, seat of Carol": text(carol.get(f"{url}?seat=1")),
        "the read-only link": text(readonly.get(play_url(links.view, play_id))),
        "the read-only link, seat 0": text(
            readonly.get(f"{play_url(links.view, play_id)}?seat=0")
        ),
        "the read-only link of Miu's phone": text(
            miu.get(f"{play_url(links.view, play_id)}?seat=0")
        ),
    }
    for who, html in others.items():
        assert not own_view(html), who
        assert "Miu: hand entered" in html, who
        assert (
            'Miu\'s card <span class="hint">(hand entered)</span>' in html
            or "Read-only link." in html
        ), who
    # The read-only link has no phone to choose: it never shows a hand.
    assert "Whose phone is this" not in others["the read-only link"]


def test_polls_of_other_phones_and_the_read_only_link_never_carry_a_hand(
    app: Flask, links: TableLinks, hand_entered: tuple[FlaskClient, int]
) -> None:
    miu, play_id = hand_entered
    carol = phone_of(app, links.edit, "Carol")
    for phone, token, seat in (
        (carol, links.edit, "1"),
        (carol, links.edit, "all"),
        (app.test_client(), links.view, "0"),
        (miu, links.view, "0"),
    ):
        response = phone.get(
            f"{play_url(token, play_id)}/poll?version=0&seat={seat}", headers=HTMX
        )
        assert response.status_code == 200
        html = text(response)
        assert 'id="play"' in html
        assert not own_view(html), (token, seat)
        assert "Miu: hand entered" in html
    own = miu.get(f"{play_url(links.edit, play_id)}/poll?version=0&seat=0", headers=HTMX)
    assert own_view(text(own))


def test_after_a_card_other_phones_see_only_whether_it_broke_a_rule(
    app: Flask, links: TableLinks, hand_entered: tuple[FlaskClient, int]
) -> None:
    _miu, play_id = hand_entered
    carol = phone_of(app, links.edit, "Carol")
    url = play_url(links.edit, play_id)
    fields = picker_fields(text(carol.get(url)))
    data = {**fields, "card": "N6", "csrf_token": csrf(carol, url)}
    response = carol.post(f"{url}/owl-about/card", data=data, headers=HTMX)
    assert response.status_code == 200
    html = text(response)
    assert "While holding a day 6, Miu could not play the Night 6 yet." in html
    assert not own_view(html.replace("Play Night 6", ""))
    # Carol's own turn: her phone shows no hand of hers (none entered), nothing of Miu's.
    assert "Carol's card" in html
    assert MIU_HAND not in text(carol.get(url))


def test_the_history_says_a_hand_was_entered_never_its_cards(
    app: Flask, links: TableLinks, hand_entered: tuple[FlaskClient, int]
) -> None:
    miu, play_id = hand_entered
    carol = phone_of(app, links.edit, "Carol")
    for phone, token in ((carol, links.edit), (app.test_client(), links.view), (miu, links.edit)):
        html = text(phone.get(f"{play_url(token, play_id)}/history"))
        assert "Round 1: Miu's hand entered." in html
        html = without_random_values(html, links.edit, links.view)
        for card in ("N6", "Night 6", "2, 8", "10, 6"):
            assert card not in html


def test_a_hand_form_is_offered_only_on_the_players_own_phone(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    everyone = page(client, links.edit, basic)
    assert 'name="hand"' not in everyone
    assert "first choose whose phone this is" in everyone
    romi = page(client, links.edit, basic, seat="2")
    assert len(re.findall(r'name="hand"', romi)) == 1
    assert 'Romi\'s hand <span class="hint">(this phone only)</span>' in romi
    assert 'name="hand"' not in text(client.get(f"{play_url(links.view, basic)}?seat=2"))


# --- right words (issue 9, point 11) ------------------------------------------------------------


def enter_trophies(
    client: FlaskClient, token: str, play_id: int, counts: Sequence[int], *, rounds: int = 0
) -> TestResponse:
    data = {"round": str(rounds), "rounds": str(rounds)}
    data.update({f"trophies-{i}": str(n) for i, n in enumerate(counts)})
    return act(client, token, play_id, "trophies", data)


def test_after_a_round_of_trophies_nobody_took_the_last_trick(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit)
    assert enter_trophies(client, links.edit, play_id, [4, 3, 0, 3]).status_code == 200
    html = page(client, links.edit, play_id)
    assert "Round 2" in html
    assert "took the last trick" not in html
    assert 'class="primary">Miu leads' in html  # the first player is only suggested


NIGHTS_TO_CY = [["N4", "N5", "10"], ["N6", "1", "2"], ["N7", "1", "2"]] + [
    [code] * 3 for code in ("5", "3", "4", "6", "7", "8")
]


def cy_takes_every_trick() -> list[dict[str, object]]:
    """A whole 3-player round in which Cy takes every trick and all 4 night cards."""
    first = {"lead": "Ann", "cards": NIGHTS_TO_CY[0]}
    return [first] + [{"lead": "Cy", "cards": row} for row in NIGHTS_TO_CY[1:]]


def test_after_a_round_played_along_its_last_taker_is_named(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, TRIO)
    play_id = start_owl(client, links.edit, target="99")
    store_rounds(app, play_id, [{"tricks": cy_takes_every_trick(), "open": True, "penalties": {}}])
    html = page(client, links.edit, play_id)
    assert "(Cy took the last trick)" in html
    assert 'class="primary">Cy leads' in html


@pytest.mark.parametrize(
    ("table", "counts", "message"),
    [
        (TABLE, [3, 2, 0, 0], "The trophies add up to 5, but a round with 4 players"),
        (TABLE, [9, 0, 0, 0], "add up to 9"),  # odd: impossible
        (TABLE, [18, 0, 0, 0], "add up to 18"),
        (["A", "B", "C", "D", "E", "F"], [6, 0, 0, 0, 0, 0], "exactly 14"),
        (["A", "B", "C", "D", "E"], [7, 0, 0, 0, 0], "so 13 or 15."),
    ],
)
def test_impossible_trophy_totals_are_refused_next_to_the_fields(
    client: FlaskClient, table: list[str], counts: list[int], message: str
) -> None:
    links = create_table(client, table)
    play_id = start_owl(client, links.edit)
    response = enter_trophies(client, links.edit, play_id, counts)
    assert response.status_code == 422
    html = text(response)
    assert message in html
    trophies_form = re.search(r'owl-about/trophies".*?</form>', html)
    assert trophies_form
    assert message in trophies_form.group(0)
    assert 'aria-invalid="true" aria-describedby="trophies-error"' in trophies_form.group(0)
    assert f'value="{counts[0]}"' in trophies_form.group(0)  # what was typed stays
    with client.application.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        assert play.state["rounds"] == []


def test_six_players_enter_exactly_the_tricks_plus_eight(client: FlaskClient) -> None:
    links = create_table(client, ["A", "B", "C", "D", "E", "F"])
    play_id = start_owl(client, links.edit)
    response = enter_trophies(client, links.edit, play_id, [8, 6, 0, 0, 0, 0])
    assert response.status_code == 200
    assert "exactly 14" in text(response)  # the form's hint


def test_penalties_stop_at_one_per_card_played(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    for _ in range(8):
        assert act(client, links.edit, basic, "penalty", {"player": "Tom"}).status_code == 200
    response = act(client, links.edit, basic, "penalty", {"player": "Tom"})
    assert response.status_code == 422
    html = text(response)
    assert "Tom already has 8 penalties this round" in html
    penalties = re.search(r'id="penalties-title".*?</section>', html)
    assert penalties
    assert "Tom already has 8 penalties" in penalties.group(0)
    assert totals(html)["Tom"] == 8


def test_the_options_offer_night_collection_3_and_4_apart(
    client: FlaskClient, links: TableLinks
) -> None:
    html = text(client.get(f"/t/{links.edit}/plays/new/owl-about"))
    assert 'value="night-collection-3"' in html
    assert 'value="night-collection-4"' in html
    assert 'value="night-collection"' not in html
    assert "Night Collection 3: 3 night cards in a round" in html
    play_id = start_owl(client, links.edit, mode="advanced", variants=["night-collection-4"])
    assert "Advanced mode · night-collection-4 · target 10" in page(client, links.edit, play_id)
    response = client.post(
        f"/t/{links.edit}/plays/new/owl-about",
        data={
            "mode": "quick",
            "variants": ["night-collection-3"],
            "csrf_token": csrf(client, f"/t/{links.edit}/plays/new/owl-about"),
        },
    )
    assert response.status_code == 422
    assert "Variants are only played in advanced mode." in text(response)


def test_night_collection_3_alone_voids_but_never_resets(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, TRIO)
    play_id = start_owl(client, links.edit, mode="advanced", variants=["night-collection-3"])
    store_rounds(app, play_id, [{"tricks": cy_takes_every_trick(), "open": True, "penalties": {}}])
    html = page(client, links.edit, play_id)
    assert "Cy collected 4 night cards: no trophy VP this round." in html
    assert "total back to 0" not in html
    assert totals(html) == {"Ann": 17, "Ben": 17, "Cy": 0}


def test_the_standings_say_fewest_vp_wins_is_the_apps_reading(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit)
    for shown in (page(client, links.edit, play_id), page(client, links.view, play_id)):
        [reading] = standings_readings(shown)
        assert reading.startswith("Fewest VP wins is the app's reading:")


# --- issue 34: the readings a verdict rests on, shown next to it with their entry ------------

READING_LINK = re.compile(
    r'<p class="hint reading" data-reading="([^"]+)">[^<]*<a [^>]*href="([^"]+)"'
)


def readings_in(html: str, where: str) -> dict[str, str]:
    """The readings shown in the element that starts with ``where``: id -> entry link."""
    start = html.index(where)
    end = html.find("</section>", start)
    return dict(READING_LINK.findall(html[start:end]))


def test_a_trick_s_verdict_shows_the_small_owls_reading(
    client: FlaskClient, links: TableLinks, basic: int
) -> None:
    html = text(tap_all(client, links.edit, basic, RULEBOOK_TRICK))
    assert "Trick 1 went to <strong>Carol</strong>" in html
    shown = readings_in(html, '<div class="owl-taken"')
    assert list(shown) == ["owl-about/small-owls"]
    assert shown["owl-about/small-owls"].endswith("#small-owls")
    assert "A 1 fighting as 11 and a 2 as 12 next to a 9 or a 10 is the app's reading" in html
    # A trick with neither a 1 or 2 beside a big owl, nor a tie, rests on no reading.
    html = text(tap_all(client, links.edit, basic, ["8", "9", "7", "10"]))
    assert "Trick 2 went to" in html
    assert readings_in(html, '<div class="owl-taken"') == {}
    standings = standings_readings(page(client, links.edit, basic))
    assert any(r.startswith("A 1 fighting as 11") for r in standings)


def test_a_quick_mode_trick_with_two_shared_fp_shows_the_reading(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit, mode="quick")
    assert start_round(client, links.edit, play_id, "Miu").status_code == 200
    html = text(tap_all(client, links.edit, play_id, ["2", "2", "N4", "6"]))
    assert "Trick 1 went to <strong>Miu</strong>" in html
    shown = readings_in(html, '<div class="owl-taken"')
    assert list(shown) == ["owl-about/mode/quick/ties"]
    assert shown["owl-about/mode/quick/ties"].endswith("#mode/quick/ties")
    # The highest FP shared, the next one not: the rulebook's own rule, no reading.
    html = text(tap_all(client, links.edit, play_id, ["8", "8", "5", "3"]))
    assert "Trick 2 went to" in html
    assert readings_in(html, '<div class="owl-taken"') == {}


@pytest.mark.parametrize(
    ("query", "reading"),
    [
        ("players=4&cards=6+2+8+10", "owl-about/small-owls"),
        ("players=3&cards=5+1+N7", "owl-about/small-owls/night-7"),
        ("players=4&mode=quick&cards=2+2+N4+6", "owl-about/mode/quick/ties"),
    ],
)
def test_the_checker_shows_the_reading_next_to_its_verdict(
    client: FlaskClient, query: str, reading: str
) -> None:
    html = text(client.get(f"/owl-about/check?{query}"))
    shown = readings_in(html, '<p class="owl-answer"')
    assert list(shown) == [reading]
    assert shown[reading].endswith("#" + reading.removeprefix("owl-about/"))
    plain = text(client.get("/owl-about/check?players=4&cards=6+5+8+3"))
    assert readings_in(plain, '<p class="owl-answer"') == {}


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        (["night-collection-3"], ["owl-about/night-collection-both"]),
        (
            ["night-collection-3", "night-collection-4"],
            ["owl-about/night-collection-both", "owl-about/night-collection-reset"],
        ),
        (["night-collection-4"], ["owl-about/night-collection-reset"]),
    ],
)
def test_the_round_s_end_shows_the_night_collection_readings(
    app: Flask, client: FlaskClient, variants: list[str], expected: list[str]
) -> None:
    links = create_table(client, TRIO)
    play_id = start_owl(client, links.edit, mode="advanced", variants=variants, target="99")
    store_rounds(app, play_id, [{"tricks": cy_takes_every_trick(), "open": True, "penalties": {}}])
    html = page(client, links.edit, play_id)
    shown = readings_in(html, "<h3>End of round 1</h3>")
    assert list(shown) == expected
    for reading in expected:
        assert shown[reading].endswith("#" + reading.removeprefix("owl-about/"))
