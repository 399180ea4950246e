"""A parsed Oddland table: a stored or requested state read into players, map and tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.limits import validate_model
from companion.games.oddland.map import MapAnalysis, Token, _analyse, _terrain_map
from companion.games.oddland.placement import PLAY_ALONG_BOARD, replay, setup_pair_turns
from companion.games.oddland.setup import map_pair_reading, map_spaces
from companion.games.oddland.species import (
    Side,
    SideRule,
)
from companion.games.oddland.state import (
    STATE_SIZE,
    StateModel,
    _is_solo,
    _seating,
    _state_problems,
    _tokens,
    _where_tokens_lie,
    map_problems,
    token_less_turn_problems,
)
from companion.games.problems import InvalidStateError, Problem
from companion.games.readings import Reading
from companion.games.text import _


@dataclass(frozen=True)
class Table:
    """A validated Oddland table, ready to score."""

    players: tuple[str, ...]
    analysis: MapAnalysis
    sides: Mapping[str, Side]
    points: Mapping[tuple[str, str], int]
    definitions: Mapping[tuple[str, Side], SideRule]
    solo: bool
    #: The app's readings the map itself rests on (a set-up pair shifted by one space).
    readings: tuple[Reading, ...] = ()


def parse(state: object) -> Table:
    """Validate a score request and return the table; raises with every problem.

    >>> table = parse({"players": ["Ann"], "map": ["FS"], "tokens": []})
    >>> table.solo, [t.size for t in table.analysis.territories]
    (True, [1, 1])
    """
    model = validate_model(StateModel, state, STATE_SIZE)
    names = _seating(model.players)
    rows, tokens, board = _board(model, names)
    problems = _state_problems(model, tokens=tokens, board=board)
    if problems:
        raise InvalidStateError(problems)
    if model.cards:
        _misplaced, pair = setup_pair_turns(model.cards)
    else:
        pair = map_pair_reading(map_spaces(rows))
    points = {
        (names[player.strip().casefold()], species): value
        for player, entries in model.points.items()
        for species, value in entries.items()
        if value is not None
    }
    return Table(
        players=tuple(names.values()),
        analysis=_analyse(_terrain_map(rows), tokens),
        sides={key: Side(side) for key, side in model.sides.items() if side is not None},
        points=points,
        definitions={
            (species, Side(side)): rule
            for species, sides in model.definitions.items()
            for side, rule in sides.items()
        },
        solo=_is_solo(model),
        readings=(pair,) if pair is not None else (),
    )


def _board(
    model: StateModel, names: Mapping[str, str]
) -> tuple[Sequence[str], list[Token], list[Problem]]:
    """The map rows and tokens of a state (laid card by card for a play-along game)."""
    if model.cards:
        rows, tokens, problems = replay(model.cards, players=model.players)
        problems += token_less_turn_problems(model.cards)
        if model.map or model.tokens:
            problems.append(Problem("cards", _(PLAY_ALONG_BOARD)))
        return rows, tokens, problems
    problems = map_problems(model.map)
    tokens, entry = _tokens(model.tokens, names=names)
    problems += entry
    problems += _where_tokens_lie(tokens, rows=model.map, entry_problems=entry)
    return model.map, tokens, problems
