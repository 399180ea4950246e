"""Owl About through its pages with the test client: start a game, a round, play cards."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Sequence

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.games import owl_about as oa
from support.client import HTMX, csrf


def text(response: TestResponse) -> str:
    """The response's HTML with entities decoded and whitespace squeezed."""
    return re.sub(r"\s+", " ", html_lib.unescape(response.get_data(as_text=True)))


def start_owl(
    client: FlaskClient,
    token: str,
    *,
    mode: str = "basic",
    variants: Sequence[str] = (),
    target: str = "",
) -> int:
    """Start Owl About through the table's Start button and the options page."""
    response = client.post(
        f"/t/{token}/plays",
        data={"game": "owl-about", "confirm": "yes", "csrf_token": csrf(client, f"/t/{token}")},
    )
    assert response.status_code == 303
    options = response.headers["Location"]
    data: dict[str, object] = {
        "mode": mode,
        "target": target,
        "variants": list(variants),
        "csrf_token": csrf(client, options),
    }
    response = client.post(options, data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].split("/plays/")[1].split("?")[0])


def play_url(token: str, play_id: int) -> str:
    return f"/t/{token}/plays/{play_id}"


def page(client: FlaskClient, token: str, play_id: int, *, seat: str = "all") -> str:
    response = client.get(f"{play_url(token, play_id)}?seat={seat}")
    assert response.status_code == 200
    return text(response)


def act(
    client: FlaskClient,
    token: str,
    play_id: int,
    action: str,
    data: dict[str, object],
    *,
    htmx: bool = True,
    token_from: str | None = None,
) -> TestResponse:
    """Post one Owl About action with a CSRF token from the play page."""
    source = token_from or token
    body = {"csrf_token": csrf(client, f"{play_url(source, play_id)}?seat=all"), **data}
    return client.post(
        f"{play_url(token, play_id)}/owl-about/{action}", data=body, headers=HTMX if htmx else {}
    )


def picker_fields(html: str) -> dict[str, str]:
    """The hidden fields of the card picker as the phone shows it."""
    form = re.search(r'class="owl-picker".*?</form>', html)
    assert form, "no card picker on the page"
    return dict(re.findall(r'name="(rounds|trick|seen|seat)" value="([^"]*)"', form.group(0)))


def tap(client: FlaskClient, token: str, play_id: int, card: str) -> TestResponse:
    """Tap a card on the picker, based on what the page shows now."""
    fields = picker_fields(page(client, token, play_id))
    return act(client, token, play_id, "card", {**fields, "card": card})


def tap_all(client: FlaskClient, token: str, play_id: int, cards: Sequence[str]) -> TestResponse:
    response = None
    for code in cards:
        response = tap(client, token, play_id, code)
        assert response.status_code == 200, text(response)
    assert response is not None
    return response


def start_round(client: FlaskClient, token: str, play_id: int, lead: str) -> TestResponse:
    rounds = re.search(
        r'owl-about/round".*?name="rounds" value="(\d+)"', page(client, token, play_id)
    )
    assert rounds
    return act(client, token, play_id, "round", {"rounds": rounds.group(1), "lead": lead})


def deck_rows(players: int, tricks: int) -> list[list[str]]:
    """Cards for ``tricks`` tricks dealt from the deck in order (never over a card's copies)."""
    deck = [code for code, copies in oa.DECK.items() for _ in range(copies)]
    return [deck[i * players : (i + 1) * players] for i in range(tricks)]
