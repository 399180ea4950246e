"""The Oddland engine as registered: the JSON endpoints, form edits and history wording."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.games import schemas
from companion.games.base import ApiDescription, Game
from companion.games.limits import problems_of, validate_model, whole_number
from companion.games.names import name_problems, player_count_problems
from companion.games.oddland.map import (
    EMPTY,
    END_RULE,
    FALSE_WORDS,
    MAX_PLAYERS,
    MAX_SPECIES_POINTS,
    MAX_TOKEN_SPACES,
    MIN_PLAYERS,
    POSITION_LENGTH,
    SIDE_LETTERS,
    SLUG,
    TERRITORY_TIEBREAK,
    TIEBREAK_RULE,
    TRUE_WORDS,
    Token,
)
from companion.games.oddland.placement import (
    _card,
    apply_placement,
    check_placement,
    placement_readings,
    setup_pair_turns,
)
from companion.games.oddland.readings import (
    BEGATOR_READING,
    FLORA_SOLO_READING,
    LINES_READING,
    PAIR_READING,
    PLACES_READING,
    SHARED_READING,
    SOLO_READING,
    TOKENS_READING,
    TWO_TOKENS_READING,
    WHALEPHANT_READING,
)
from companion.games.oddland.scoring import score_table
from companion.games.oddland.setup import (
    map_pair_reading,
    map_spaces,
    second_card_problems,
)
from companion.games.oddland.species import (
    SPECIES,
    SPECIES_CARDS,
    TWO_SPACE_SPECIES,
    Side,
    is_species_key,
    species_name,
    tokens_per_player,
)
from companion.games.oddland.state import (
    MAP_REQUEST_SIZE,
    PLACEMENT_SIZE,
    STATE_SIZE,
    MapModel,
    PlacementModel,
    StateModel,
    _seating,
    _token,
    _tokens,
    analyse_map,
    impossible_map_problems,
    map_problems,
    setup_token_problems,
    species_points_message,
    turn_order_problems,
)
from companion.games.oddland.table import parse
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import Result
from companion.games.readings import Reading, readings_json
from companion.games.text import N_, _, ngettext


def map_endpoint(body: object) -> dict[str, Any]:
    """The ``oddland/map`` handler: territories of a map (and where tokens lie).

    >>> map_endpoint({"map": ["FW", "FF"]})["territories"][1]
    {'id': 1, 'terrain': 'W', 'size': 1, 'cells': [[0, 1]], 'neighbors': [0], 'tokens': []}

    A map the 2x2 map cards cannot make is refused, as by ``score``:

    >>> try:
    ...     map_endpoint({"map": ["FW"]})
    ... except InvalidStateError as refused:
    ...     print(refused.problems[0].message[:60])
    Map cards are 2x2, so every space lies in a 2x2 block of the
    """
    model = validate_model(MapModel, body, MAP_REQUEST_SIZE)
    problems = made_map_problems(model.map, tokens=len(model.tokens))
    names = None
    if model.players is not None:
        problems += name_problems(model.players, path=lambda i: f"players[{i}]")
        names = _seating(model.players)
    tokens, shape = _tokens(model.tokens, names=names)
    problems += shape
    if problems:
        raise InvalidStateError(problems)
    reply = analyse_map(model.map, tokens).to_json()
    return _with_readings(reply, _map_readings(model.map, tokens))


def _map_readings(rows: Sequence[str], tokens: Sequence[Token]) -> list[Reading | None]:
    """The readings a map itself rests on: a shifted set-up pair, a two-space token."""
    two_space = any(token.species in TWO_SPACE_SPECIES for token in tokens)
    return [map_pair_reading(map_spaces(rows)), WHALEPHANT_READING if two_space else None]


def _with_readings(reply: dict[str, Any], readings: Iterable[Reading | None]) -> dict[str, Any]:
    """A referee answer with the readings it applied (``readings``, only when some)."""
    listed = readings_json(readings)
    if listed:
        reply["readings"] = listed
    return reply


def placement_endpoint(body: object) -> dict[str, Any]:
    """The ``oddland/placement`` handler: every broken rule, and the table after a legal turn.

    >>> reply = placement_endpoint({"map": [], "card": {"at": [0, 0], "terrains": ["FS", "WM"]}})
    >>> reply["legal"], reply["map"], reply["shift"]
    (True, ['FS', 'WM'], [0, 0])
    """
    model = validate_model(PlacementModel, body, PLACEMENT_SIZE)
    problems = made_map_problems(model.map, tokens=len(model.tokens))
    names = None
    if model.players is not None:
        problems += player_count_problems(
            len(model.players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS
        )
        problems += name_problems(model.players, path=lambda i: f"players[{i}]")
        names = _seating(model.players)
    tokens, shape = _tokens(model.tokens, names=names)
    problems += shape
    token: Token | None = None
    if model.token is not None:
        token, bad = _token(model.token, path="token", names=None)
        problems += bad
    card, card_shape = _card(model.card)
    problems += card_shape
    if problems:
        raise InvalidStateError(problems)
    rule_problems = [
        *second_card_problems(map_spaces(model.map), card.at),
        *check_placement(model.map, card=card, tokens=tokens, token=token, players=model.players),
    ]
    reply: dict[str, Any] = {
        "legal": not rule_problems,
        "problems": [p.to_json() for p in rule_problems],
        "map": None,
        "tokens": None,
        "shift": None,
    }
    if not rule_problems:
        reply.update(apply_placement(model.map, card=card, tokens=tokens, token=token).to_json())
    readings = placement_readings(model.map, card=card, token=token, problems=rule_problems)
    return _with_readings(reply, [*_map_readings(model.map, tokens), *readings])


def made_map_problems(rows: Sequence[str], *, tokens: int) -> list[Problem]:
    """A malformed map, or one the map cards cannot make: not of 2x2 cards, in pieces,
    without the set-up pair, or too small for its ``tokens`` (``map``, ``placement``)."""
    return map_problems(rows) or impossible_map_problems(rows, tokens=tokens)


#: The table of the API description's examples: API.md's map, grown by the two spaces
#: the second token's turn added at least (the set-up pair and two turns make 12 spaces).
EXAMPLE_MAP = ["FFWW", "FSSW", "MMSS"]
EXAMPLE_TOKENS = [
    {"player": "Ann", "species": "begator", "cells": [[0, 1]]},
    {"player": "Ben", "species": "flora", "cells": [[2, 0]]},
]


class Oddland(Game):
    """The Oddland engine, registered under ``oddland``."""

    slug = SLUG
    # TRANSLATORS: a game's name (the box's title).
    name = N_("Oddland")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    engine_version = 4
    tiebreaks = (TERRITORY_TIEBREAK,)
    has_play_along = True
    readings = (
        PAIR_READING,
        TOKENS_READING,
        SHARED_READING,
        TWO_TOKENS_READING,
        WHALEPHANT_READING,
        BEGATOR_READING,
        LINES_READING,
        SOLO_READING,
        FLORA_SOLO_READING,
        PLACES_READING,
    )
    #: Rules entries the pages link to: a tie, and the end of the game.
    tie_rule = TIEBREAK_RULE
    end_rule = END_RULE

    def over_words(self, result: Mapping[str, Any]) -> str:
        """Every token is on the map.

        >>> GAME.over_words({"standings": [{"player": "Ann"}, {"player": "Ben"}]})
        'Every player has placed all 7 tokens: the game is over.'
        """
        needed = tokens_per_player(len(result["standings"]))
        return _("Every player has placed all %(count)s tokens: the game is over.", count=needed)

    def going_on_words(self, result: Mapping[str, Any]) -> str:
        """The game ends once every player has placed all their tokens."""
        needed = tokens_per_player(len(result["standings"]))
        # TRANSLATORS: why an Oddland game is not over yet, inside a question to finish it.
        return _("not every player has placed all %(count)s tokens yet", count=needed)

    def is_play_along(self, state: Mapping[str, Any]) -> bool:
        """Whether the play is entered card by card (its map is built from ``cards``)."""
        return "cards" in state

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state; empty when it can be scored."""
        return problems_of(parse, state)

    def score(self, state: object) -> Result:
        """Score a table (see the module example)."""
        return score_table(parse(state))

    def table_problems(self, state: object) -> list[Problem]:
        """A map the 2x2 map cards cannot make, in pieces, without the set-up pair or too
        small for its tokens (a play-along map is made of laid cards), or a play-along
        game whose second set-up card does not lie beside the first, whose set-up cards
        carry a token or whose tokens are placed out of turn."""
        model = validate_model(StateModel, state, STATE_SIZE)
        if model.cards:
            misplaced, _reading = setup_pair_turns(model.cards)
            return [
                *misplaced,
                *setup_token_problems(model.cards),
                *turn_order_problems(model.cards, model.players),
            ]
        return impossible_map_problems(model.map, tokens=len(model.tokens))

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """An empty map for these players; ``options["sides"]`` or, as the box holds 6
        species cards, the first 6 species the app lists, on A.

        >>> GAME.new_state(["Ann"], {"sides": {"begator": "B"}})["sides"]
        {'begator': 'B'}
        """
        sides = options.get("sides")
        if not isinstance(sides, Mapping):
            sides = dict.fromkeys(list(SPECIES)[:SPECIES_CARDS], Side.A.value)
        definitions = options.get("definitions")
        solo = options.get("solo")
        state: dict[str, Any] = {
            "players": list(players),
            "map": [],
            "tokens": [],
            "sides": dict(sides),
            "points": {},
            "solo": solo if isinstance(solo, bool) else len(players) == 1,
            "definitions": dict(definitions) if isinstance(definitions, Mapping) else {},
        }
        if options.get(PLAY_ALONG_OPTION) is True:
            state["cards"] = []
        return state

    def describe_path(self, _state: Mapping[str, Any], parts: Sequence[str | int]) -> str:
        """A field's name for the edit history and conflict messages.

        >>> GAME.describe_path({}, ["map", 2])
        'map row 3'
        >>> GAME.describe_path({}, ["points", "Ben", "owloose"])
        "Ben's Owloose points"
        >>> GAME.describe_path({}, ["tokens", 0, "cells"])
        "token 1's spaces"
        """
        match list(parts):
            case ["map", int(row)]:
                return _("map row %(row)s", row=row + 1)
            case ["tokens", int(index), "player"]:
                return _("token %(number)s's owner", number=index + 1)
            case ["tokens", int(index), "species"]:
                return _("token %(number)s's species", number=index + 1)
            case ["tokens", int(index), "cells"]:
                # TRANSLATORS: the space or spaces of the map a token lies on.
                return _("token %(number)s's spaces", number=index + 1)
            case ["points", str(player), str(species)]:
                return _(
                    "%(player)s's %(species)s points", player=player, species=species_name(species)
                )
            case ["sides", str(species)]:
                # TRANSLATORS: the side (A or B) of an Oddland species card in play.
                return _("the %(species)s side", species=species_name(species))
            case [str(field)] if field in FIELD_NAMES:
                return _(FIELD_NAMES[field])
        return path_of(parts)

    def display_value(self, parts: Sequence[str | int], value: object) -> str:
        """A stored value as people read it (lists are counted, rows shown as letters).

        >>> GAME.display_value(["tokens"], [{}, {}]), GAME.display_value(["map", 0], "")
        ('2 tokens', 'no spaces')
        """
        if value is None:
            return _("nothing")
        if value is True:
            # TRANSLATORS: solo mode is on (a history line: "solo mode: False → True").
            return _("True")
        if value is False:
            # TRANSLATORS: solo mode is off (a history line: "solo mode: True → False").
            return _("False")
        match list(parts), value:
            case ["map", int()], str(row):
                # TRANSLATORS: a row of an Oddland map without any space.
                return row if row.strip(".") else _("no spaces")
            case ["map"], list(rows):
                spaces = sum(1 for row in rows for ch in str(row) if ch not in EMPTY)
                return ngettext("%(num)s space", "%(num)s spaces", spaces)
            case ["tokens"], list(items):
                return ngettext("%(num)s token", "%(num)s tokens", len(items))
            case ["cards"], list(items):
                return ngettext("%(num)s card", "%(num)s cards", len(items))
            case ["points" | "definitions" | "sides"], dict(entries):
                return _summary(entries)
        return str(value)

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The value of one edit: scoreboard points, a side, solo, a map row or a token field.

        >>> GAME.parse_edit(["points", "Ben", "pangeroo"], "4")
        4
        >>> GAME.parse_edit(["sides", "flora"], "b")
        'B'
        """
        where = path_of(path)
        match list(path):
            case ["points", str(), str(species)] if is_species_key(species):
                return _points_from_text(where, raw)
            case ["sides", str(species)] if is_species_key(species):
                return _side_from_text(where, raw)
            case ["solo"]:
                return _solo_from_text(where, raw)
            case ["map", int()]:
                return _row_from_text(where, raw)
            case ["tokens", int(), "player"] if raw.strip():
                return raw.strip()
            case ["tokens", int(), "species"] if is_species_key(raw.strip()):
                return raw.strip()
            case ["tokens", int(), "cells"]:
                return _cells_from_text(where, raw)
        raise InvalidStateError([Problem(where, _("This cannot be changed here."))])

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.checked_score(body).to_json(),
            "map": map_endpoint,
            "placement": placement_endpoint,
        }

    def api_descriptions(self) -> dict[str, ApiDescription]:
        """The request models and answer shapes of the JSON endpoints (OpenAPI)."""
        territory = schemas.obj(
            {
                "id": schemas.INTEGER,
                "terrain": {"enum": ["F", "S", "W", "M"]},
                "size": {"type": "integer", "minimum": 1},
                "cells": schemas.array(schemas.PAIR),
                "neighbors": schemas.INTEGERS,
                "tokens": schemas.INTEGERS,
            }
        )
        return {
            "score": ApiDescription(
                "Score a map.",
                StateModel,
                schemas.result(self.slug),
                {
                    "players": ["Ann", "Ben"],
                    "map": EXAMPLE_MAP,
                    "tokens": EXAMPLE_TOKENS,
                    "sides": {"begator": "A", "flora": "A"},
                    "points": {"Ben": {"pangeroo": 4}},
                },
            ),
            "map": ApiDescription(
                "The territories of a map.",
                MapModel,
                schemas.obj(
                    {"territories": schemas.array(territory)},
                    # The app's readings the answer rests on (only when there are some).
                    {"readings": schemas.READINGS},
                ),
                {"map": EXAMPLE_MAP, "tokens": EXAMPLE_TOKENS},
            ),
            "placement": ApiDescription(
                "Referee one turn: a card laid and a token placed.",
                PlacementModel,
                schemas.obj(
                    {"legal": schemas.BOOLEAN, "problems": schemas.PROBLEMS},
                    {"readings": schemas.READINGS},
                    nullable={
                        "map": schemas.STRINGS,
                        "tokens": schemas.array(schemas.ANY_OBJECT),
                        "shift": schemas.PAIR,
                    },
                ),
                {
                    "map": EXAMPLE_MAP,
                    "players": ["Ann", "Ben"],
                    "tokens": EXAMPLE_TOKENS,
                    "card": {"at": [2, 2], "terrains": ["MM", "WS"]},
                    "token": {"player": "Ann", "species": "owloose", "cells": [[3, 3]]},
                },
            ),
        }


#: Names of whole fields for the edit history (English; translated where shown).
FIELD_NAMES: dict[str, str] = {
    "map": N_("the map"),
    "tokens": N_("the tokens"),
    "cards": N_("the play-along cards"),
    "points": N_("the scoreboard points"),
    "sides": N_("the species sides"),
    "definitions": N_("the species definitions"),
    "solo": N_("solo mode"),
}


#: ``new_state`` option that starts a play-along game (cards entered one by one).
PLAY_ALONG_OPTION = "play_along"


def _summary(entries: Mapping[str, Any]) -> str:
    """A short reading of a small nested mapping (points, sides, definitions); species
    and players by their keys and names, as entered.

    >>> _summary({"Ben": {"owloose": 4}, "Ann": {}}), _summary({"begator": {"A": {}}})
    ('Ben: owloose 4', 'begator: A defined')
    """
    parts = []
    for key, value in entries.items():
        if isinstance(value, Mapping):
            inner = ", ".join(
                # TRANSLATORS: a species card side the table defined ("A defined").
                _("%(side)s defined", side=k) if isinstance(v, Mapping) else f"{k} {v}"
                for k, v in value.items()
                if v is not None
            )
            if inner:
                parts.append(f"{key}: {inner}")
        elif value is not None:
            parts.append(f"{key} {value}")
    return "; ".join(parts) or _("nothing")


def _points_from_text(where: str, raw: str) -> int | None:
    if not raw.strip():
        return None
    return whole_number(
        where,
        raw,
        minimum=-MAX_SPECIES_POINTS,
        maximum=MAX_SPECIES_POINTS,
        unit="points",
        out_of_range=species_points_message(),
    )


def _side_from_text(where: str, raw: str) -> str | None:
    text = raw.strip().upper()
    if not text:
        return None
    if text in SIDE_LETTERS:
        return text
    raise InvalidStateError([Problem(where, _('Pick side "A" or "B".'))])


def _solo_from_text(where: str, raw: str) -> bool | None:
    text = raw.strip().casefold()
    if not text:
        return None
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise InvalidStateError([Problem(where, _("Enter true or false."))])


def _row_from_text(where: str, raw: str) -> str:
    row = raw.rstrip("\r\n").upper()
    problems = map_problems([row])
    if problems:
        raise InvalidStateError([Problem(where, p.message) for p in problems])
    return row


def _cells_from_text(where: str, raw: str) -> list[list[int]]:
    """Positions from ``"2,3"``, ``"2,3;2,4"`` or JSON ``[[2, 3], [2, 4]]`` (counted from 0)."""
    wrong = InvalidStateError(
        [Problem(where, _('Enter positions as "row,col", separated by ";".'))]
    )
    value: object
    try:
        if raw.strip().startswith("["):
            value = json.loads(raw)
        else:
            value = [[int(x) for x in pair.split(",")] for pair in raw.split(";") if pair.strip()]
    except (ValueError, RecursionError):  # absurdly nested JSON is just as wrong
        raise wrong from None
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_TOKEN_SPACES:
        raise wrong
    cells: list[list[int]] = []
    for pair in value:
        if not (
            isinstance(pair, list)
            and len(pair) == POSITION_LENGTH
            and all(type(x) is int for x in pair)
        ):
            raise wrong
        cells.append([pair[0], pair[1]])
    return cells


GAME = Oddland()
