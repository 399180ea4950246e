"""No legal Oddland table is refused: games played by the rulebook, turn by turn, and
scored through the API both as the map they leave and as their cards (play-along).

The game here is simulated from the rulebook alone, without the engine: the set-up deals
2 cards next to each other (in line, or shifted by one space along their side: the app's
reading); then, clockwise from a first player, each turn lays a card sharing an edge with
the map, covering at most 2 spaces and never a token, and places a token on that card in
a territory that holds none, until every player has placed all their tokens (7 each; one
Flora fewer with 4 or 5 players). Solo games too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

SCORE = "/api/v1/games/oddland/score"
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: One player's set: 2 Flora and one token of each other species card in play.
SET = ["flora", "flora", "begator", "owloose", "pangeroo", "whalephant", "pigehorse"]
SIDES = dict.fromkeys(dict.fromkeys(SET), "A")
TERRAINS = "FSWM"
CARD = ((0, 0), (0, 1), (1, 0), (1, 1))
#: Where the second set-up card may lie from the first: beside it in line, or shifted by
#: one space along the side they share.
BESIDE = [
    (dr * sign, dc * sign)
    for dr, dc in ((0, 2), (2, 0), (1, 2), (-1, 2), (2, 1), (2, -1))
    for sign in (1, -1)
]
#: Cards of terrain drawn for one place before trying another.
DRAWS = 3

Cell = tuple[int, int]


def neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    yield from ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


@dataclass
class Table:
    """A game in progress: its spaces, tokens and the cards as laid (``cards``' turns)."""

    spaces: dict[Cell, str] = field(default_factory=dict)
    #: (player, species, cells) of every token placed.
    tokens: list[tuple[str, str, tuple[Cell, ...]]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)

    def territory(self, spaces: dict[Cell, str], cell: Cell) -> set[Cell]:
        """The spaces of one terrain connected to ``cell`` through edges."""
        found, todo = {cell}, [cell]
        while todo:
            for near in neighbours(todo.pop()):
                if near not in found and spaces.get(near) == spaces[cell]:
                    found.add(near)
                    todo.append(near)
        return found

    def lay(self, at: Cell, terrains: str, token: tuple[str, str, tuple[Cell, ...]] | None):
        """Lay a card (and its token) at ``at``, as the API reads it: positions before the
        card; a card above or left of the map moves every position down or right."""
        turn: dict[str, Any] = {"card": {"at": list(at), "terrains": [terrains[:2], terrains[2:]]}}
        if token is not None:
            player, species, cells = token
            turn["token"] = {
                "player": player,
                "species": species,
                "cells": [list(c) for c in cells],
            }
        self.turns.append(turn)
        for (dr, dc), letter in zip(CARD, terrains, strict=True):
            self.spaces[at[0] + dr, at[1] + dc] = letter
        if token is not None:
            self.tokens.append(token)
        down, right = max(0, -at[0]), max(0, -at[1])
        if down or right:
            self.spaces = {(r + down, c + right): t for (r, c), t in self.spaces.items()}
            self.tokens = [
                (p, s, tuple((r + down, c + right) for r, c in cells))
                for p, s, cells in self.tokens
            ]

    def places(self) -> list[Cell]:
        """Every top-left place of a card that shares an edge with the map or overlaps it."""
        rows = [r for r, _ in self.spaces]
        cols = [c for _, c in self.spaces]
        return [
            (r, c)
            for r in range(min(rows) - 2, max(rows) + 2)
            for c in range(min(cols) - 2, max(cols) + 2)
        ]

    def turn(self, rng: random.Random, player: str, species: str) -> bool:
        """Lay a card somewhere legal with ``species`` on it; False when nowhere fits."""
        held = {cell for *_, cells in self.tokens for cell in cells}
        places = self.places()
        rng.shuffle(places)
        for at in places:
            footprint = [(at[0] + dr, at[1] + dc) for dr, dc in CARD]
            covered = [cell for cell in footprint if cell in self.spaces]
            touches = covered or any(
                near in self.spaces for cell in footprint for near in neighbours(cell)
            )
            if not touches or len(covered) > 2 or any(cell in held for cell in covered):
                continue
            for _ in range(DRAWS):
                terrains = "".join(rng.choice(TERRAINS) for _ in CARD)
                cells = self._token_cells(rng, footprint, terrains, species)
                if cells is not None:
                    self.lay(at, terrains, (player, species, cells))
                    return True
        return False

    def _token_cells(
        self, rng: random.Random, footprint: list[Cell], terrains: str, species: str
    ) -> tuple[Cell, ...] | None:
        """Where the token may go on the card just laid: spaces whose territory (after the
        card) holds no token; two sharing an edge for a Whalephant."""
        after = {**self.spaces, **dict(zip(footprint, terrains, strict=True))}
        taken = {
            cell
            for *_, cells in self.tokens
            for token_cell in cells
            for cell in self.territory(after, token_cell)
        }
        free = [cell for cell in footprint if cell not in taken]
        if species == "whalephant":
            options = [
                (a, b)
                for a in free
                for b in free
                if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            ]
        else:
            options = [(cell,) for cell in free]
        return rng.choice(options) if options else None


def play(rng: random.Random, players: int) -> Table:
    """A whole game: the set-up pair, then turns clockwise until every token is placed."""
    table = Table()
    table.lay((0, 0), "".join(rng.choice(TERRAINS) for _ in CARD), None)
    table.lay(rng.choice(BESIDE), "".join(rng.choice(TERRAINS) for _ in CARD), None)
    names = NAMES[:players]
    supply = {name: list(SET[1:] if players >= 4 else SET) for name in names}
    first = rng.randrange(players)
    for number in range(sum(len(s) for s in supply.values())):
        player = names[(first + number) % players]
        left = list(dict.fromkeys(supply[player]))
        rng.shuffle(left)
        species = next((s for s in left if table.turn(rng, player, s)), None)
        assume(species is not None)  # nowhere left for any token: a rare dead end
        supply[player].remove(species)
    return table


def rows_of(spaces: dict[Cell, str]) -> list[str]:
    width = max(c for _, c in spaces) + 1
    return [
        "".join(spaces.get((r, c), ".") for c in range(width)).rstrip(".")
        for r in range(max(r for r, _ in spaces) + 1)
    ]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(1, 5), rng=st.randoms(use_true_random=False))
@example(players=1, rng=random.Random(1))
@example(players=5, rng=random.Random(2))
def test_every_legal_end_state_is_scored(
    client: FlaskClient, players: int, rng: random.Random
) -> None:
    table = play(rng, players)
    names = NAMES[:players]
    tokens = [
        {"player": p, "species": s, "cells": [list(cell) for cell in cells]}
        for p, s, cells in table.tokens
    ]
    as_map = {"players": names, "map": rows_of(table.spaces), "tokens": tokens, "sides": SIDES}
    as_cards = {"players": names, "cards": table.turns, "sides": SIDES}
    answers = []
    for body in (as_map, as_cards):
        response = client.post(SCORE, json=body)
        assert response.status_code == 200, (body, response.get_json())
        answers.append(response.get_json())
    assert all(answer["finished"] for answer in answers)
    # The same table entered two ways scores the same.
    assert answers[0]["standings"] == answers[1]["standings"]


def test_an_end_state_the_set_up_pair_cannot_grow_into_is_refused(client: FlaskClient) -> None:
    """The other side: a map without the pair, or too small for its tokens, is a 422."""
    flora = {"player": "Ann", "species": "flora", "cells": [[0, 0]]}
    for rows, tokens, words in [
        (["FFF", "FFF", "FFF"], [], "every map holds 2 whole cards side by side"),
        (["FFFF", "FFFF"], [flora], "so the map has at least 10 spaces, not 8."),
    ]:
        body = {"players": ["Ann"], "map": rows, "tokens": tokens, "sides": SIDES}
        response = client.post(SCORE, json=body)
        assert response.status_code == 422
        answer = response.get_json()
        assert answer["error"] == "invalid_state"
        assert [p["path"] for p in answer["problems"]] == ["map"]
        assert words in answer["problems"][0]["message"]
