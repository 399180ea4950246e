"""Oddland benchmark (not a test): analysing and scoring a maximal map.

A maximal map uses all 37 cards (148 spaces) with all 35 tokens of the box on it. The
figures: map analysis, token facts, scoring (the rules allow at most 30 tokens with 5
players, so the full score request has 30; the 35-token table is scored directly), and
replaying a 37-card play-along game, which every stored edit of such a game re-validates.

Run: /work/venv/bin/python benchmarks/oddland_bench.py
"""

from __future__ import annotations

import random
import statistics
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.oddland import (
    GAME,
    REPLAYS,
    Table,
    Token,
    analyse_map,
    replay,
    score_table,
    token_facts,
)
from companion.games.oddland.species import SPECIES, Side, SideRule
from support.oddland import CARDS_WIDE, TERRAINS, play_along_turns

SEED = 7
TOKENS_IN_BOX = 35
PLAYERS = ["Ann", "Ben", "Cy", "Dan", "Eve"]
TOKENS_PER_PLAYER_AT_FIVE = 6
REPEAT = 200
#: Sides the app scores by a definition, so that every token is computed.
DEFINITIONS = {
    "owloose": {"A": {"points": 1, "region": "diagonals", "terrain": "F"}},
    "pangeroo": {"A": {"points": 1, "region": "row-and-column", "per": "territory"}},
    "pigehorse": {"A": {"points": 2, "region": "surrounding", "per": "token"}},
    "grizzsleep": {"A": {"points": 1, "region": "map", "terrain": "M", "per": "territory"}},
    "whalephant": {"A": {"points": 1, "region": "territory"}},
}


def per_call_ms(function: Any, number: int = REPEAT) -> float:
    """Median milliseconds per call over five runs."""
    runs = timeit.repeat(function, number=number, repeat=5)
    return statistics.median(runs) / number * 1000


def maximal_rows(rng: random.Random) -> list[str]:
    """37 cards: a 6 x 6 block of cards (12 x 12 spaces) and one more card below it."""
    size = CARDS_WIDE * 2
    rows = ["".join(rng.choice(TERRAINS) for _ in range(size)) for _ in range(size)]
    rows += ["".join(rng.choice(TERRAINS) for _ in range(2)) for _ in range(2)]
    return rows


def spread_tokens(rows: list[str], count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` one-space tokens on distinct spaces, players taking turns, species mixed."""
    spaces = [(r, c) for r, row in enumerate(rows) for c, _ in enumerate(row)]
    rng.shuffle(spaces)
    species = [key for key in SPECIES if key != "whalephant"] + ["flora"]
    tokens = []
    for index in range(count):
        player = PLAYERS[index % len(PLAYERS)]
        kind = species[(index // len(PLAYERS)) % len(species)]
        tokens.append({"player": player, "species": kind, "cells": [list(spaces[index])]})
    return tokens


def main() -> None:
    """Print each figure on its own line."""
    rng = random.Random(SEED)
    rows = maximal_rows(rng)
    all_tokens = spread_tokens(rows, TOKENS_IN_BOX, rng)
    tokens = [Token(t["player"], t["species"], tuple(map(tuple, t["cells"]))) for t in all_tokens]
    spaces = sum(len(row) for row in rows)
    print(f"maximal map: {spaces} spaces, {len(tokens)} tokens")

    analysis = analyse_map(rows, tokens)
    print(f"territories: {len(analysis.territories)}")
    print(f"analyse_map: {per_call_ms(lambda: analyse_map(rows, tokens)):.3f} ms")
    print(f"token_facts (35 tokens): {per_call_ms(lambda: token_facts(analysis)):.3f} ms")

    table = Table(
        players=tuple(PLAYERS),
        analysis=analysis,
        sides=dict.fromkeys(SPECIES, Side.A),
        points={},
        definitions={
            (key, Side(side)): SideRule.model_validate(rule)
            for key, sides in DEFINITIONS.items()
            for side, rule in sides.items()
        },
        solo=False,
    )
    score_ms = per_call_ms(lambda: score_table(table))
    print(f"score_table, 35 tokens (analysis done): {score_ms:.3f} ms")
    everything = per_call_ms(lambda: score_table(table) and analyse_map(rows, tokens))
    print(f"analyse + score, 35 tokens: {everything:.3f} ms")

    legal = spread_tokens(rows, len(PLAYERS) * TOKENS_PER_PLAYER_AT_FIVE, rng)
    request = {
        "players": PLAYERS,
        "map": rows,
        "tokens": legal,
        "sides": dict.fromkeys(SPECIES, "A"),
        "definitions": DEFINITIONS,
    }
    assert GAME.validate(request) == [], GAME.validate(request)
    print(f"GAME.score request, 30 tokens (parse + validate + score): "
          f"{per_call_ms(lambda: GAME.score(request)):.3f} ms")  # fmt: skip

    turns = play_along_turns(rng)
    placed = sum(1 for t in turns if t.token)
    cold = per_call_ms(lambda: (REPLAYS.clear(), replay(turns)), 20)
    print(f"replay of a 37-card play-along game ({placed} tokens), every card laid: "
          f"{cold:.2f} ms")  # fmt: skip
    # Requests replay cards the process has seen before (see benchmarks/engines.py).
    warm = per_call_ms(lambda: replay(turns), 200)
    print(f"replay of the same game, cards seen before: {warm:.3f} ms")


if __name__ == "__main__":
    main()
