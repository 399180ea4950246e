"""The OddVille engine as registered: the JSON endpoints, form edits and history wording."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pydantic

from companion.games import schemas
from companion.games.base import ApiDescription, Game
from companion.games.limits import STRICT, object_size, problems_of, validate_model, whole_number
from companion.games.names import Roster
from companion.games.oddville.construction import (
    apply_construction,
    bonuses,
    build_readings,
    check_construction,
    construction_warnings,
)
from companion.games.oddville.facts import (
    CHARACTERS,
    CLOCKWISE_READING,
    MAIN_SQUARE,
    MAIN_SQUARE_AT,
    MAIN_SQUARE_BONUS_READING,
    MAIN_SQUARE_COUNTS_READING,
    MAIN_SQUARE_READING,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEVENTH_WORKER_READING,
    SLUG,
    WORKERS_PER_PLAYER,
    WORKERS_TO_END,
)
from companion.games.oddville.history import characters_change, city_change
from companion.games.oddville.impossible import table_problems as impossible_tables
from companion.games.oddville.scoring import PLACES_READING, TIEBREAK, score_city
from companion.games.oddville.state import (
    CARD_SIZE,
    STATE_SIZE,
    CardModel,
    City,
    StateModel,
    colours_for,
    parse,
    read_card,
)
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import Result
from companion.games.readings import readings_json
from companion.games.text import N_, _, ngettext

REFUSED = N_("This cannot be changed here.")


class BuildModel(pydantic.BaseModel):
    """A construction check: the table as it is, and the building to place."""

    model_config = STRICT

    players: list[str]
    ended_by: str | None = None
    city: list[dict[str, Any]] = []
    characters: dict[str, list[str]] = {}
    resource_workers: dict[str, int] = {}
    colours: dict[str, str] = {}
    card: CardModel
    rotated: bool = False


BUILD_SIZE = object_size({**STATE_SIZE.fields, "card": CARD_SIZE})


def read_build(body: object) -> tuple[City, Any, bool, dict[str, Any]]:
    """The city, the new building and whether it was turned, from a ``build`` request;
    :class:`InvalidStateError` with every problem of a malformed one."""
    model = validate_model(BuildModel, body, BUILD_SIZE)
    state = model.model_dump(exclude={"card", "rotated"})
    problems: list[Problem] = []
    city = None
    try:
        city = parse(state)
    except InvalidStateError as invalid:
        problems += invalid.problems
    new, found = read_card(model.card, "card", Roster.of(model.players))
    problems += found
    if model.card.card == MAIN_SQUARE:
        problems = [Problem("card.card", _("The Main Square is already in the city."))]
    if problems or city is None or new is None:
        raise InvalidStateError(problems)
    card_json = model.card.model_dump(exclude_none=True, exclude_defaults=True)
    card_json["at"] = list(model.card.at)
    return city, new, model.rotated, {**state, "card": card_json}


def build_endpoint(body: object) -> dict[str, Any]:
    """The ``oddville/build`` handler: every broken construction rule, or what building earns.

    >>> reply = build_endpoint({"players": ["Ann", "Ben"], "card": {"at": [1, 0],
    ...     "owner": "Ann", "points": {"kind": "diamond", "value": 4}, "edges": "SHHH"}})
    >>> reply["legal"], [b["words"] for b in reply["bonuses"]], len(reply["city"])
    (True, ['Your new card: the bonus printed on it (not entered).'], 2)
    """
    reply, _rules = build_verdict(body)
    return reply


def build_verdict(body: object) -> tuple[dict[str, Any], list[str | None]]:
    """The ``oddville/build`` answer and, beside it, the rules entry each problem applies
    (for the pages' links: rule ids are not part of the API)."""
    city, new, rotated, request = read_build(body)
    problems = check_construction(city, new, rotated=rotated)
    reply = verdict(
        city,
        new,
        rotated=rotated,
        city_json=request["city"],
        card_json=request["card"],
        problems=problems,
    )
    return reply, [problem.rule for problem in problems]


def verdict(
    city: City,
    new: Any,
    *,
    rotated: bool,
    city_json: Sequence[Mapping[str, Any]],
    card_json: Mapping[str, Any],
    problems: Sequence[Problem] | None = None,
) -> dict[str, Any]:
    """The referee's answer for one building: legal or not, every problem, the gains and
    warnings, and the city after it (``null`` when illegal). ``problems``: the broken
    rules when already checked."""
    if problems is None:
        problems = check_construction(city, new, rotated=rotated)
    legal = not problems
    listed = list(city_json)
    if not any(card.get("card") == MAIN_SQUARE for card in listed):
        listed.insert(0, {"at": list(MAIN_SQUARE_AT), "card": MAIN_SQUARE, "owners": []})
    readings = build_readings(city, new) if legal else [p.reading for p in problems if p.reading]
    return {
        "legal": legal,
        "problems": [p.to_json() for p in problems],
        "bonuses": [g.to_json() for g in bonuses(city, new)] if legal else [],
        "warnings": construction_warnings(city, new) if legal else [],
        "city": [*listed, dict(card_json)] if legal else None,
        **({"readings": readings_json(readings)} if readings else {}),
    }


def built_city(city: City, new: Any) -> City:
    """The city after a legal construction (see :func:`apply_construction`)."""
    return apply_construction(city, new)


#: A finished game (OpenAPI's example): Red placed a 6th worker in the city, on the Main
#: Square with the Traveller (taken by building the Mask card).
SCORE_EXAMPLE: dict[str, Any] = {
    "players": ["Blue", "Red"],
    "ended_by": "Red",
    "city": [
        {"at": [0, 0], "card": MAIN_SQUARE, "owners": ["Red"]},
        {
            "at": [1, 0],
            "owner": "Red",
            "guild": "mask",
            "points": {"kind": "guild", "value": 2, "guild": "mask"},
        },
        {"at": [0, 1], "owner": "Red", "points": {"kind": "diamond", "value": 4}},
        {"at": [0, -1], "owner": "Blue", "points": {"kind": "diamonds"}},
        {"at": [1, 1], "owner": "Red", "points": {"kind": "row"}},
        {"at": [1, -1], "owner": "Blue", "points": {"kind": "adjacent"}},
        {"at": [2, 0], "owner": "Red", "points": {"kind": "column"}},
        {"at": [2, 1], "owner": "Red", "points": {"kind": "adjacent-x3"}},
    ],
    "characters": {"Red": ["traveller"]},
    "resource_workers": {"Blue": 3, "Red": 1},
}

#: Names of whole fields for the edit history (English; translated where shown).
FIELD_NAMES: dict[str, str] = {
    "city": N_("the city"),
    # TRANSLATORS: a field of an OddVille play: the player who ended the game.
    "ended_by": N_("who ended the game"),
    "characters": N_("the characters"),
    "resource_workers": N_("the Resources Board workers"),
    "colours": N_("the colours"),
    "players": N_("the players"),
}


class OddVille(Game):
    """The OddVille engine, registered under ``oddville``."""

    slug = SLUG
    # TRANSLATORS: a game's name (the box's title).
    name = N_("OddVille")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    engine_version = 3
    tiebreaks = (TIEBREAK,)
    has_play_along = True
    readings = (
        MAIN_SQUARE_READING,
        MAIN_SQUARE_BONUS_READING,
        MAIN_SQUARE_COUNTS_READING,
        SEVENTH_WORKER_READING,
        CLOCKWISE_READING,
        PLACES_READING,
    )

    def over_words(self, _result: Mapping[str, Any]) -> str:
        """Someone placed the 6th worker in the city."""
        return _(
            "A player placed the %(last)sth worker in the city: the game is over.",
            last=WORKERS_TO_END,
        )

    def going_on_words(self, _result: Mapping[str, Any]) -> str:
        """The game ends with a player's 6th worker in the city."""
        # TRANSLATORS: why an OddVille game is not over yet, inside a question to finish it.
        return _(
            "nobody is entered as having placed the %(last)sth worker in the city",
            last=WORKERS_TO_END,
        )

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state; empty when it can be scored."""
        return problems_of(parse, state)

    def score(self, state: object) -> Result:
        """Score a table (see the package example)."""
        return score_city(parse(state))

    def table_problems(self, state: object) -> list[Problem]:
        """Edges that do not meet, more buildings or workers in the city than the end of
        the game allows, more characters than buildings with a guild symbol, who ended it
        without a 6th worker there, or anyone else with what only that player can have."""
        return impossible_tables(parse(state), state if isinstance(state, Mapping) else {})

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """The Main Square alone at the top; no characters, no workers, nobody ended yet;
        ``options["colours"]`` or the colours in the app's order.

        >>> state = GAME.new_state(["Ann", "Ben"], {})
        >>> state["city"], state["colours"]
        ([{'at': [0, 0], 'card': 'main-square', 'owners': []}], {'Ann': 'purple', 'Ben': 'blue'})
        """
        chosen = options.get("colours")
        colours = colours_for(players, chosen if isinstance(chosen, Mapping) else {})
        return {
            "players": list(players),
            "ended_by": None,
            "city": [{"at": list(MAIN_SQUARE_AT), "card": MAIN_SQUARE, "owners": []}],
            "characters": {name: [] for name in players},
            "resource_workers": dict.fromkeys(players, 0),
            "colours": colours,
        }

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """Who ended the game, or a player's workers on the Resources Board.

        >>> GAME.parse_edit(["resource_workers", "Ann"], " 3 "), GAME.parse_edit(["ended_by"], "")
        (3, None)
        """
        where = path_of(path)
        match list(path):
            case ["ended_by"]:
                return raw.strip() or None
            case ["resource_workers", str()]:
                return whole_number(
                    where, raw, minimum=0, maximum=WORKERS_PER_PLAYER, unit="workers"
                )
        raise InvalidStateError([Problem(where, _(REFUSED))])

    def describe_path(self, _state: Mapping[str, Any], path: Sequence[str | int]) -> str:
        """A field's name for the edit history and conflict messages.

        >>> GAME.describe_path({}, ["resource_workers", "Ann"])
        "Ann's workers on the Resources Board"
        """
        match list(path):
            case ["resource_workers", str(player)]:
                return _("%(player)s's workers on the Resources Board", player=player)
            case ["characters", str(player), *_]:
                return _("%(player)s's characters", player=player)
            case ["city", int(index), *_]:
                return _("city card %(number)s", number=index + 1)
            case [str(field)] if field in FIELD_NAMES:
                return _(FIELD_NAMES[field])
        return path_of(path)

    def display_value(self, path: Sequence[str | int], value: object) -> str:
        """A stored value as people read it.

        >>> GAME.display_value(["city"], [{}, {}]), GAME.display_value(["ended_by"], None)
        ('2 cards', 'nobody')
        >>> GAME.display_value(["characters", "Ann"], ["traveller", "cheater"])
        'Traveller, Cheater'
        """
        match list(path), value:
            case ["ended_by"], None:
                # TRANSLATORS: who ended an OddVille game: nobody yet.
                return _("nobody")
            case ["city"], list(cards):
                return ngettext("%(num)s card", "%(num)s cards", len(cards))
            case ["characters", str()], list(keys):
                names = [_(CHARACTERS[k].name) if k in CHARACTERS else str(k) for k in keys]
                # TRANSLATORS: the Character cards a player holds: none.
                return ", ".join(names) or _("none")
        return _("nothing") if value is None else str(value)

    def describe_change(
        self, _state: Mapping[str, Any], path: Sequence[str | int], previous: Any, value: Any
    ) -> str | None:
        """A city card added, removed, moved or changed, or a character taken, in words.

        >>> GAME.describe_change({}, ["characters"], {"Ann": []}, {"Ann": ["mistress"]})
        'Mistress: now held by Ann'
        """
        match list(path):
            case ["city"]:
                return city_change(previous, value)
            case ["characters"]:
                return characters_change(previous, value)
        return None

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.checked_score(body).to_json(),
            "build": build_endpoint,
        }

    def api_descriptions(self) -> dict[str, ApiDescription]:
        """The request models and answer shapes of the JSON endpoints (OpenAPI)."""
        bonus = schemas.obj({"words": schemas.SENTENCE}, {"from": schemas.PAIR})
        return {
            "score": ApiDescription(
                "Score a city.",
                StateModel,
                schemas.result(self.slug, {"cards": schemas.array(schemas.ANY_OBJECT)}),
                SCORE_EXAMPLE,
            ),
            "build": ApiDescription(
                "Referee one building: legal or not, and what it earns.",
                BuildModel,
                schemas.obj(
                    {
                        "legal": schemas.BOOLEAN,
                        "problems": schemas.PROBLEMS,
                        "bonuses": schemas.array(bonus),
                        "warnings": schemas.array(schemas.SENTENCE),
                    },
                    # The app's readings the verdict rests on (only when there are some).
                    {"readings": schemas.READINGS},
                    nullable={"city": schemas.array(schemas.ANY_OBJECT)},
                ),
                {
                    "players": ["Ann", "Ben"],
                    "card": {
                        "at": [1, 0],
                        "owner": "Ann",
                        "points": {"kind": "diamond", "value": 4},
                        "edges": "SHHH",
                    },
                },
            ),
        }


GAME = OddVille()
