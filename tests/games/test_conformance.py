"""One conformance suite for every registered engine, fed by a hypothesis strategy per game.

Adding a game means adding its strategy of valid states to :data:`STRATEGIES`; every
shared check then runs on it: breakdown lines add up to the score, the input is never
mutated, ranks are competition ranks consistent with scores and tiebreaks, tied players
keep seating order, form edits read back what describe/display show, and fresh states
validate.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, Game
from companion.games.problems import InvalidStateError, path_of
from companion.games.ranking import ScoreOrder
from support.every_game import STRATEGIES, leaves

SLUGS = sorted(GAMES)
REFUSED_PATH = "This cannot be changed here."


def test_every_game_has_a_strategy() -> None:
    assert set(STRATEGIES) == set(GAMES)


def seating(state: dict[str, Any]) -> list[str]:
    """Player names in seating order (a plain list, or objects with a ``name``)."""
    return [(p["name"] if isinstance(p, dict) else p).strip() for p in state["players"]]


def rank_key(game: Game, standing: dict[str, Any]) -> tuple[Any, ...]:
    """What ranks a standing: its score in the game's order, then every tiebreak value."""
    score = (
        standing["score"] if game.score_order is ScoreOrder.LOWEST_FIRST else -standing["score"]
    )
    values = [item["value"] for item in standing["tiebreak"]]
    return (
        score,
        *(
            tiebreak.key(tuple(value) if isinstance(value, list) else value)
            for tiebreak, value in zip(game.tiebreaks, values, strict=True)
        ),
    )


def as_text(value: object) -> str:
    """A stored value as a form would send it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_scoring_keeps_the_shared_invariants(slug: str, data: st.DataObject) -> None:
    game = GAMES[slug]
    state = data.draw(STRATEGIES[slug], label="state")
    before = copy.deepcopy(state)
    assert game.validate(state) == []
    # The strategies build only tables the rules can produce: the API scores them too.
    assert game.table_problems(state) == []
    result = game.checked_score(state).to_json()
    assert state == before, "scoring mutated its input"

    standings = result["standings"]
    assert sorted(s["player"] for s in standings) == sorted(seating(state))
    for standing in standings:
        assert sum(line["points"] for line in standing["breakdown"]) == standing["score"]
        assert [t["label"] for t in standing["tiebreak"]] == [t.label for t in game.tiebreaks]
        assert standing["winner"] is (standing["rank"] == 1)
    keys = [rank_key(game, s) for s in standings]
    assert keys == sorted(keys)
    for standing, key in zip(standings, keys, strict=True):
        assert standing["rank"] == 1 + sum(1 for other in keys if other < key)
    assert result["winners"] == [s["player"] for s in standings if s["winner"]]

    seats = {name: seat for seat, name in enumerate(seating(state))}
    for first, second in itertools.pairwise(standings):
        if rank_key(game, first) == rank_key(game, second):
            assert seats[first["player"]] < seats[second["player"]], "ties keep seating order"


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_form_edits_read_back_the_stored_values(slug: str, data: st.DataObject) -> None:
    """parse_edit of a value's text gives the value; describe_path names every field."""
    game = GAMES[slug]
    state = data.draw(STRATEGIES[slug], label="state")
    for path, value in leaves(state):
        named = game.describe_path(state, path)
        assert isinstance(named, str)
        assert named
        assert isinstance(game.display_value(path, value), str)
        if value is None:
            continue
        try:
            parsed = game.parse_edit(path, as_text(value))
        except InvalidStateError as refused:
            refusal = refused.problems[0].message
            parsed = value if refusal == REFUSED_PATH else refusal
        assert parsed == value, path_of(path)


@pytest.mark.parametrize("slug", SLUGS)
def test_new_states_validate_for_every_player_count(slug: str) -> None:
    game = GAMES[slug]
    for count in game.player_counts:
        names = [f"Player {i}" for i in range(count)]
        state = game.new_state(names, {})
        assert game.validate(state) == [], count
        assert seating(state) == names
