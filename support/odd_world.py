"""Odd World for tests: valid states of any table, drawn by hypothesis (the engine's
properties and the conformance suite run on them)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from companion.games.odd_world import BIRDS

counts = st.integers(min_value=0, max_value=3)


displays = st.fixed_dictionaries(dict.fromkeys(BIRDS, counts))


face_downs = st.none() | st.sampled_from(list(BIRDS))


@st.composite
def states(draw: st.DrawFn) -> dict[str, Any]:
    """Valid tables of 2-5 players (a bird over the deck's 8 cards is trimmed)."""
    size = draw(st.integers(min_value=2, max_value=5))
    players = [
        {"name": f"P{i}", "display": draw(displays), "face_down": draw(face_downs)}
        for i in range(size)
    ]
    left = {}
    for bird in BIRDS:
        left[bird] = 8
        for entry in players:
            if entry["face_down"] == bird:
                left[bird] -= 1
        for entry in players:
            entry["display"][bird] = min(entry["display"][bird], left[bird])
            left[bird] -= entry["display"][bird]
    complete = 0
    for entry in players:
        display = entry["display"]
        if all(display[bird] for bird in BIRDS):
            complete += 1
            if complete > 1:  # the game ended when the first display held all nine
                left[BIRDS_ORDER[0]] += display[BIRDS_ORDER[0]]
                display[BIRDS_ORDER[0]] = 0
        # Each player was dealt 3 cards: top a short hand up from the birds left.
        while sum(display.values()) + (entry["face_down"] is not None) < 3:
            bird = next((b for b in BIRDS_ORDER[1:] if left[b] > 0), None)
            if bird is None:  # those birds are all out: the largest display gives one up
                richest = max(players, key=lambda p: sum(p["display"].values()))
                bird = next(b for b in BIRDS_ORDER[1:] if richest["display"][b] > 0)
                richest["display"][bird] -= 1
                left[bird] += 1
            display[bird] += 1
            left[bird] -= 1
    return {"players": players}


BIRDS_ORDER = list(BIRDS)


SPECIES = "Bird species in display"


BEST = "Best single bird"


def made_up(rows: list[tuple[str, int, int, int]], winners: list[str]) -> dict[str, Any]:
    """An Odd World-shaped result with chosen scores and tiebreak values."""
    return {
        "game": "odd-world",
        "standings": [
            {
                "player": player,
                "score": score,
                "winner": player in winners,
                "tiebreak": [
                    {"label": SPECIES, "value": species},
                    {"label": BEST, "value": best},
                ],
            }
            for player, score, species, best in rows
        ],
        "winners": winners,
        "decided_by": "shared" if len(winners) > 1 else SPECIES,
        "finished": True,
    }
