"""OddVille: a city of building cards around the Main Square, scored by adjacency, rows,
columns, diamonds, shields and guilds, with characters and a clockwise tiebreak.

The printed building cards are not published, so the app never guesses one: the table
enters what each card shows (victory-point type, guild, shields, and for the
construction referee its edges and bonus). The state is the API's (``docs/api.md``):

>>> result = GAME.score({
...     "players": ["Ann", "Ben"],
...     "ended_by": "Ben",
...     "city": [
...         {"at": [0, 0], "card": "main-square", "owners": ["Ben"]},
...         {"at": [1, 0], "owner": "Ann", "points": {"kind": "column"}},
...     ],
...     "characters": {"Ben": ["traveller"]},
...     "resource_workers": {"Ann": 2},
... })
>>> [(s.player, s.score) for s in result.standings]
[('Ann', 5), ('Ben', 4)]
>>> [line.label for line in result.standing("Ann").breakdown]
['Its column at row 2, col 1: 1 + 2 in its column = 3', 'Resources Board: 2 workers']

The package is split along its seams: :mod:`.facts` (types, characters, bonuses, rule
ids), :mod:`.state` (request shapes, validation, the parsed city), :mod:`.scoring`,
:mod:`.construction` (the referee) and :mod:`.game` (the registered engine).
"""

from __future__ import annotations

from companion.games.oddville.construction import (
    Gain,
    apply_construction,
    bonuses,
    building,
    check_construction,
    construction_warnings,
)
from companion.games.oddville.facts import (
    BONUS_NAMES,
    BONUSES,
    CHARACTERS,
    GUILDS,
    KINDS,
    MAIN_SQUARE,
    MAIN_SQUARE_EDGES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SIDES,
    SLUG,
    WORKERS_PER_PLAYER,
    WORKERS_TO_END,
    Bonus,
    Character,
    Edge,
    Kind,
)
from companion.games.oddville.game import (
    BUILD_SIZE,
    FIELD_NAMES,
    GAME,
    BuildModel,
    OddVille,
    build_endpoint,
    build_verdict,
    read_build,
    verdict,
)
from companion.games.oddville.scoring import (
    NOBODY_ENDED,
    TIEBREAK,
    TIEBREAK_LABEL,
    CardScore,
    card_scores,
    distance_words,
    score_city,
    seat_distance,
    tiebreak_sentence,
)
from companion.games.oddville.state import (
    STATE_SIZE,
    Card,
    CardModel,
    City,
    StateModel,
    parse,
    place_words,
    problems_in,
    read_card,
)

__all__ = [
    "BONUSES",
    "BONUS_NAMES",
    "BUILD_SIZE",
    "CHARACTERS",
    "FIELD_NAMES",
    "GAME",
    "GUILDS",
    "KINDS",
    "MAIN_SQUARE",
    "MAIN_SQUARE_EDGES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOBODY_ENDED",
    "SIDES",
    "SLUG",
    "STATE_SIZE",
    "TIEBREAK",
    "TIEBREAK_LABEL",
    "WORKERS_PER_PLAYER",
    "WORKERS_TO_END",
    "Bonus",
    "BuildModel",
    "Card",
    "CardModel",
    "CardScore",
    "Character",
    "City",
    "Edge",
    "Gain",
    "Kind",
    "OddVille",
    "StateModel",
    "apply_construction",
    "bonuses",
    "build_endpoint",
    "build_verdict",
    "building",
    "card_scores",
    "check_construction",
    "construction_warnings",
    "distance_words",
    "parse",
    "place_words",
    "problems_in",
    "read_build",
    "read_card",
    "score_city",
    "seat_distance",
    "tiebreak_sentence",
    "verdict",
]
