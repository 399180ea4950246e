"""Owl About through its pages with the test client: start a game, a round, play cards."""

from __future__ import annotations

import html as html_lib
import random
import re
from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
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


#: The table of the rulebook's examples, and a hand of its first player.
TABLE = ["Miu", "Carol", "Romi", "Tom"]
MIU_HAND = "2 8 10 6 N6"


def phone_of(app: Flask, token: str, name: str) -> FlaskClient:
    """Another phone at the table that said "this phone belongs to <name>"."""
    phone = app.test_client()
    response = phone.post(
        f"/t/{token}/me", data={"name": name, "csrf_token": csrf(phone, f"/t/{token}")}
    )
    assert response.status_code == 303
    return phone


#: Far out of reach, so that a test about one round is not cut short by game end.
FAR_TARGET = oa.MAX_TARGET


def game(
    rounds: list[dict[str, Any]],
    *,
    players: Sequence[str] = TABLE,
    mode: str = "basic",
    variants: Sequence[str] = (),
    target: int | None = FAR_TARGET,
) -> dict[str, Any]:
    state: dict[str, Any] = {
        "players": list(players),
        "mode": mode,
        "variants": list(variants),
        "rounds": rounds,
    }
    if target is not None:
        state["target"] = target
    return state


def trophies_round(trophies: dict[str, int], **penalties: int) -> dict[str, Any]:
    return {"trophies": trophies, "penalties": penalties}


MODES = [m.value for m in oa.Mode]


FULL_DECK = [code for code, copies in oa.DECK.items() for _ in range(copies)]


def play_round(
    rnd: random.Random, players: Sequence[str], mode: str, *, tricks: int
) -> dict[str, Any]:
    """Deal a round and play ``tricks`` tricks with legal cards, leads following winners."""
    size = oa.PLAYER_CHART[len(players)].hand_cards
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(players)}
    lead = rnd.choice(players)
    played = []
    for _ in range(tricks):
        cards: list[str] = []
        for seat in oa.seating_from(players, lead):
            choice = rnd.choice(oa.legal_cards(hands[seat], cards, mode=mode))
            hands[seat].remove(choice)
            cards.append(choice)
        trick: dict[str, Any] = {"lead": lead, "cards": cards}
        winner = oa.trick_progress(mode=mode, players=players, lead=lead, cards=cards).winner
        assert winner is not None
        if mode == oa.Mode.ADVANCED and rnd.random() < 0.2:
            winner = rnd.choice(players)
            trick["winner"] = winner
        played.append(trick)
        lead = winner
    penalties = {p: rnd.randint(0, 2) for p in players if rnd.random() < 0.2}
    return {"tricks": played, "penalties": penalties}


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """Whole legal games: random deals, legal play, any mode and variants, some summaries."""
    count = draw(st.integers(3, 6))
    players = [f"P{i}" for i in range(count)]
    mode = draw(st.sampled_from(MODES))
    variants = (
        draw(st.lists(st.sampled_from([v.value for v in oa.Variant]), unique=True))
        if mode == oa.Mode.ADVANCED
        else []
    )
    rnd = draw(st.randoms(use_true_random=False))
    size = oa.PLAYER_CHART[count].hand_cards
    rounds = []
    count_rounds = draw(st.integers(0, 3))
    for number in range(count_rounds):
        if draw(st.booleans()) and draw(st.booleans()):
            trophies = {p: draw(st.integers(0, size)) for p in players}
            rounds.append(trophies_round(trophies))
        else:
            # Only the last round may still be under way (one trick short).
            last = number == count_rounds - 1
            tricks = draw(st.integers(size - 1, size)) if last else size
            rounds.append(play_round(rnd, players, mode, tricks=tricks))
    state = game(rounds, players=players, mode=mode, variants=variants, target=None)
    # Drop the rounds a table would not have played once the game was over.
    parsed = oa.parse(state)
    end = oa.game_end(oa.score_rounds(parsed), parsed.target)
    if end is not None:
        del state["rounds"][end:]
    return state


#: Odd requests of every kind, for fuzzing: no input, however odd, gets past validation
#: unexplained or crashes.
FUZZ_NAMES = st.sampled_from(["Ann", "Ben", "Cy", "Di", "ann", "", " ", "Zed"])
FUZZ_CARDS = st.sampled_from([*oa.DECK, "0", "11", "n4", "X", ""])
FUZZ_TRICKS = st.fixed_dictionaries(
    {"lead": FUZZ_NAMES, "cards": st.lists(FUZZ_CARDS, max_size=7)},
    optional={"winner": st.none() | FUZZ_NAMES},
)
FUZZ_ROUNDS = st.fixed_dictionaries(
    {},
    optional={
        "tricks": st.none() | st.lists(FUZZ_TRICKS, max_size=10),
        "trophies": st.none() | st.dictionaries(FUZZ_NAMES, st.integers(-3, 20)),
        "penalties": st.dictionaries(FUZZ_NAMES, st.integers(-2, 3)),
    },
)
FUZZ_STATES = st.fixed_dictionaries(
    {"players": st.lists(FUZZ_NAMES, max_size=7)},
    optional={
        "mode": st.sampled_from([*MODES, "turbo"]),
        "variants": st.lists(st.sampled_from([*(v.value for v in oa.Variant), "x"])),
        "target": st.none() | st.integers(-1, 30),
        "rounds": st.lists(FUZZ_ROUNDS, max_size=4),
    },
)
FUZZ_TRICK_REQUESTS = st.fixed_dictionaries(
    {
        "lead": FUZZ_NAMES,
        "players": st.lists(FUZZ_NAMES, max_size=7),
        "cards": st.lists(FUZZ_CARDS, max_size=7),
    },
    optional={
        "mode": st.sampled_from([*MODES, "turbo"]),
        "hands": st.none() | st.dictionaries(FUZZ_NAMES, st.lists(FUZZ_CARDS, max_size=10)),
    },
)
