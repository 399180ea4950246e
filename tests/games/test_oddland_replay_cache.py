"""Oddland play-along replays are remembered: the cache gives exactly what a fresh replay
gives, after cards are laid, undone or refused, and it stays within its size."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.oddland import GAME, Token, TurnModel, check_turn, parse, placement, replay
from companion.games.oddland.placement import ReplayCache, Replayed, ReplayKey, turn_key
from companion.games.problems import Problem

PLAYERS = ["Ann", "Ben", "Cy"]
TERRAINS = "FSWM"
SPECIES = ["flora", "begator", "owloose", "pangeroo"]
WIDTH = 4

Replay = tuple[list[str], list[Token], list[Problem]]


@contextmanager
def no_cache() -> Iterator[None]:
    """Replays inside lay every card again (a cache that keeps nothing)."""
    kept = placement.REPLAYS
    placement.REPLAYS = ReplayCache(size=0)
    try:
        yield
    finally:
        placement.REPLAYS = kept


def fresh(turns: Sequence[TurnModel], players: Sequence[str] | None) -> Replay:
    """A replay that lays every card again."""
    with no_cache():
        return replay(turns, players=players)


def next_turn(
    turns: Sequence[TurnModel], rng: random.Random, players: Sequence[str] | None
) -> TurnModel:
    """A legal next card (in reading order) with a token on it where one fits."""
    rows, tokens, _ = fresh(turns, players)
    number = len(turns)
    at = [2 * (number // WIDTH), 2 * (number % WIDTH)]
    terrains = ["".join(rng.choice(TERRAINS) for _ in range(2)) for _ in range(2)]
    card: dict[str, Any] = {"at": at, "terrains": terrains}
    owner = PLAYERS[number % len(PLAYERS)]
    species = rng.choice(SPECIES)
    for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
        cell = [at[0] + dr, at[1] + dc]
        token = {"player": owner, "species": species, "cells": [cell]}
        trial = TurnModel.model_validate({"card": card, "token": token})
        if not check_turn(rows, trial, tokens=tokens, players=players):
            return trial
    return TurnModel.model_validate({"card": card})


#: A card far from every other: illegal after the first card.
FAR_AWAY = TurnModel.model_validate({"card": {"at": [40, 40], "terrains": ["FF", "FF"]}})

STEPS = st.lists(st.sampled_from(["lay", "lay", "lay", "undo", "refused"]), max_size=24)


@settings(max_examples=30, deadline=None)
@given(STEPS, st.randoms(use_true_random=False), st.sampled_from([PLAYERS, None]))
def test_cached_replays_match_fresh_ones(
    steps: list[str], rng: random.Random, players: list[str] | None
) -> None:
    """Laying, undoing and refused cards: every replay equals one from scratch, twice."""
    placement.REPLAYS.clear()
    turns: list[TurnModel] = []
    for step in steps:
        if step == "lay":
            turns.append(next_turn(turns, rng, players))
        elif step == "undo":
            turns = turns[:-1]
        else:
            turns.append(FAR_AWAY)
        expected = fresh(turns, players)
        assert replay(turns, players=players) == expected
        assert replay(turns, players=players) == expected  # from the cache
        if step == "refused":
            turns = turns[:-1]
            assert replay(turns, players=players) == fresh(turns, players)


def test_turns_after_a_refused_one_keep_its_problems() -> None:
    """A game remembered as stopped stays stopped when cards follow the refused one."""
    placement.REPLAYS.clear()
    rng = random.Random(3)
    turns = [next_turn([], rng, PLAYERS)]
    turns.append(FAR_AWAY)
    stopped = replay(turns, players=PLAYERS)
    assert stopped[2]
    assert stopped[2][0].path.startswith("cards[1]")
    longer = [*turns, next_turn(turns[:1], rng, PLAYERS)]
    assert replay(longer, players=PLAYERS) == fresh(longer, PLAYERS) == stopped


def test_replay_results_are_copies() -> None:
    """Changing what a replay returned never changes what the next one returns."""
    placement.REPLAYS.clear()
    turns = [next_turn([], random.Random(1), None)]
    rows, tokens, problems = replay(turns)
    rows.append("FFFF")
    tokens.clear()
    problems.append(Problem("cards", "made up"))
    assert replay(turns) == fresh(turns, None)


def test_players_are_part_of_the_key() -> None:
    """The same cards with other players are checked against those players."""
    placement.REPLAYS.clear()
    card = {"at": [0, 0], "terrains": ["FS", "WM"]}
    turns = [
        TurnModel.model_validate(
            {"card": card, "token": {"player": "Zed", "species": "flora", "cells": [[0, 0]]}}
        )
    ]
    assert replay(turns)[2] == []
    assert [p.path for p in replay(turns, players=PLAYERS)[2]] == ["cards[0].token.player"]
    assert replay(turns)[2] == []


def test_scores_of_a_long_game_match_with_and_without_the_cache() -> None:
    """The whole score request of a play-along game gives the same result from the cache."""
    placement.REPLAYS.clear()
    rng = random.Random(11)
    turns: list[TurnModel] = []
    for _ in range(12):  # 3 players hold 15 tokens of these 4 species
        # Every turn places a token (only set-up cards carry none): draw until one fits.
        laid = next(
            t for t in (next_turn(turns, rng, PLAYERS) for _ in range(50)) if t.token is not None
        )
        turns.append(laid)
    state = {
        "players": PLAYERS,
        "cards": [turn.model_dump() for turn in turns],
        "sides": dict.fromkeys(SPECIES, "A"),
    }
    with no_cache():
        expected = GAME.score(state).to_json()
        expected_tokens = parse(state).analysis.tokens
    for _ in range(2):
        assert GAME.score(state).to_json() == expected
        assert parse(state).analysis.tokens == expected_tokens
    shorter = {**state, "cards": state["cards"][:-1]}  # an undo
    with no_cache():
        expected = GAME.score(shorter).to_json()
    assert GAME.score(shorter).to_json() == expected


def test_the_cache_is_bounded_and_keeps_the_recently_used() -> None:
    """Beyond its size the least recently used entry goes; a read keeps an entry."""
    cache = ReplayCache(size=3)
    empty = Replayed((), ())
    keys: list[ReplayKey] = [(None, (((i, 0), ("FF", "FF"), None),)) for i in range(5)]
    for key in keys[:3]:
        cache.put(key, empty)
    assert cache.get(keys[0]) is empty
    cache.put(keys[3], empty)
    assert len(cache) == 3
    assert cache.get(keys[1]) is None
    assert cache.get(keys[0]) is empty
    for i in range(50):
        cache.put((None, (((i, 9), ("FF", "FF"), None),)), empty)
    assert len(cache) == 3


def test_the_process_cache_stays_within_its_size() -> None:
    """Many different games never grow the process's cache past its size."""
    placement.REPLAYS.clear()
    size = placement.REPLAYS.size
    for i in range(size + 20):
        card = {"at": [i, 0], "terrains": ["FS", "WM"]}
        replay([TurnModel.model_validate({"card": card})])
    assert len(placement.REPLAYS) == size


def test_turn_key_reads_everything_a_replay_reads() -> None:
    """Two turns differing in any field have different keys."""
    base = {
        "card": {"at": [0, 0], "terrains": ["FS", "WM"]},
        "token": {"player": "Ann", "species": "flora", "cells": [[0, 0]]},
    }
    variants = [
        {**base, "card": {"at": [0, 2], "terrains": ["FS", "WM"]}},
        {**base, "card": {"at": [0, 0], "terrains": ["FS", "WW"]}},
        {**base, "token": {**base["token"], "player": "Ben"}},
        {**base, "token": {**base["token"], "species": "begator"}},
        {**base, "token": {**base["token"], "cells": [[0, 1]]}},
        {"card": base["card"]},
    ]
    keys = {turn_key(TurnModel.model_validate(t)) for t in [base, *variants]}
    assert len(keys) == len(variants) + 1
