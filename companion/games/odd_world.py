"""Odd World: a bird counts only when a player holds an odd number of its cards.

The state is what lies on the table at the end: each player's display (cards per bird)
and, optionally, the face-down card that is added at scoring.

>>> result = GAME.score({"players": [
...     {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 2, "hornbill": 1}},
...     {"name": "Ben", "display": {"cassowary": 3}, "face_down": "cassowary"},
... ]})
>>> [(s.player, s.score) for s in result.standings]
[('Ann', 6), ('Ben', 0)]
>>> result.standing("Ann").breakdown[0]
BreakdownLine(label='Hoopoe: 5 cards (odd)', points=5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pydantic

from companion.games import schemas
from companion.games.base import ApiDescription, Game
from companion.games.limits import (
    STRICT,
    list_size,
    object_size,
    problems_of,
    text_size,
    validate_model,
    whole_number,
)
from companion.games.names import (
    NAME_SIZE,
    Roster,
    name_problems,
    player_count_problems,
    players_size,
    spoken_names,
)
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import BreakdownLine, Entry, Result, Tiebreak, rank
from companion.games.readings import Reading, places_reading, unique_readings
from companion.games.text import N_, _, ngettext, sentences

SLUG = "odd-world"
CARDS_PER_BIRD = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_SERIES_GAMES = 3

#: The nine birds in display order (positions 1-9): key -> name shown to players (in
#: English, marked for translation: shown with ``_(BIRDS[key])``).
BIRDS: dict[str, str] = {
    # TRANSLATORS: an Odd World bird (its cards' name), as the glossary gives it.
    "bird-of-paradise": N_("Bird-of-paradise"),
    "hoopoe": N_("Hoopoe"),
    "scarlet-ibis": N_("Scarlet ibis"),
    "shoebill": N_("Shoebill"),
    "hornbill": N_("Hornbill"),
    "crowned-crane": N_("Crowned crane"),
    "secretarybird": N_("Secretarybird"),
    "king-vulture": N_("King vulture"),
    "cassowary": N_("Cassowary"),
}

#: The tiebreakers' labels: English in answers (``decided_by`` names them), translated
#: where pages show them. "Display" is a player's row of cards on the table.
# TRANSLATORS: an Odd World tiebreaker: how many different birds a player's display (their row
# of cards on the table) holds.
SPECIES_TIEBREAK = N_("Bird species in display")
# TRANSLATORS: an Odd World tiebreaker: the most points one bird scores a player.
BEST_BIRD_TIEBREAK = N_("Best single bird")
#: After the score: more species in display, then the best single bird.
TIEBREAKS = (
    Tiebreak(SPECIES_TIEBREAK, rule="odd-world/tiebreak/species"),
    Tiebreak(BEST_BIRD_TIEBREAK, rule="odd-world/tiebreak/best-bird"),
)
#: The rules entry of a bird's points (odd counts score, even ones do not).
SCORING_RULE = "odd-world/scoring"
#: The rules entry of the deck: 8 cards of each bird.
COMPONENTS_RULE = "odd-world/components"
#: The rules entries of the three-game variant's lines, of a victory still shared after
#: both tiebreakers, and of the end of the game.
SERIES_RULE = "odd-world/series"
SERIES_TIES_RULE = "odd-world/series/ties"
SHARED_RULE = "odd-world/tiebreak/shared"
END_RULE = "odd-world/end-check"


class PlayerModel(pydantic.BaseModel):
    """One player's display as entered (shape only; rules are checked afterwards)."""

    model_config = STRICT

    name: str
    display: dict[str, int] = {}
    face_down: str | None = None


#: A request the API description shows (API.md's example).
API_EXAMPLE: dict[str, Any] = {
    "players": [
        {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 1}, "face_down": "shoebill"},
        {"name": "Ben", "display": {"cassowary": 3}, "face_down": None},
    ]
}


class StateModel(pydantic.BaseModel):
    """A whole Odd World table at scoring time."""

    model_config = STRICT

    players: list[PlayerModel]


class SeriesModel(pydantic.BaseModel):
    """The three-games-in-a-row variant: up to three game states."""

    model_config = STRICT

    games: list[dict[str, Any]]


#: Why 2 to 5 players: the app's reading, as the rulebook gives no player count.
PLAYERS_READING = Reading(
    "odd-world/players",
    N_(
        "2 to 5 is the app's reading: the rulebook gives no player count, and the game is"
        " sold for 2 to 5."
    ),
)
#: Sizes checked before any player is: more players than the game seats, or more games
#: than a series has, are refused at once.
STATE_SIZE = object_size(
    {
        "players": players_size(
            MIN_PLAYERS,
            MAX_PLAYERS,
            object_size({"name": NAME_SIZE, "display": object_size(), "face_down": text_size()}),
            reading=PLAYERS_READING.text,
        )
    }
)


def series_length() -> str:
    """The sentence refusing a series of too few or too many games."""
    return _("A series has 1 to %(most)s games.", most=MAX_SERIES_GAMES)


SERIES_SIZE = object_size(
    {"games": list_size(MAX_SERIES_GAMES, lambda _n: series_length(), STATE_SIZE)}
)


@dataclass(frozen=True)
class Collection:
    """A player's cards per bird at scoring time (face-down card included).

    ``hidden`` is the face-down card when it was entered apart (``None``: it is already
    in the display); ``display_complete`` whether the display as entered holds all nine
    birds without it.
    """

    name: str
    counts: Mapping[str, int]
    hidden: str | None = None
    display_complete: bool = False

    @property
    def species(self) -> int:
        """How many different birds the player holds."""
        return sum(1 for n in self.counts.values() if n > 0)

    @property
    def cards(self) -> int:
        """How many cards the player holds, face-down card included."""
        return sum(self.counts.values())


def bird_points(count: int) -> int:
    """Points for one bird: its card count when odd, else nothing.

    >>> bird_points(5), bird_points(2), bird_points(0)
    (5, 0, 0)
    """
    return count if count % 2 == 1 else 0


def _not_a_bird(key: str) -> str:
    # TRANSLATORS: "bird" is a bird's key as a request typed it (shown as it is).
    return _('"%(bird)s" is not an Odd World bird.', bird=key)


def _display_problems(index: int, player: PlayerModel) -> list[Problem]:
    base = f"players[{index}]"
    problems = []
    for bird, count in player.display.items():
        path = f"{base}.display.{bird}"
        if bird not in BIRDS:
            problems.append(Problem(path, _not_a_bird(bird)))
        elif count < 0:
            problems.append(Problem(path, _("A card count cannot be negative.")))
        elif count > CARDS_PER_BIRD:
            problems.append(
                Problem(
                    path,
                    _(
                        "Only %(most)s %(bird)s cards exist, not %(count)s.",
                        most=CARDS_PER_BIRD,
                        bird=_(BIRDS[bird]),
                        count=count,
                    ),
                    rule=COMPONENTS_RULE,
                )
            )
    if player.face_down is not None and player.face_down not in BIRDS:
        problems.append(Problem(f"{base}.face_down", _not_a_bird(player.face_down)))
    return problems


def _deck_problems(players: Sequence[PlayerModel]) -> list[Problem]:
    """Over all players, no bird can have more cards than the deck holds."""
    totals: Counter[str] = Counter()
    last_path: dict[str, str] = {}
    for index, player in enumerate(players):
        for bird, count in player.display.items():
            # Counts that are wrong on their own are reported by _display_problems.
            if bird in BIRDS and 0 < count <= CARDS_PER_BIRD:
                totals[bird] += count
                last_path[bird] = f"players[{index}].display.{bird}"
        if player.face_down in BIRDS:
            totals[player.face_down] += 1
            last_path[player.face_down] = f"players[{index}].face_down"
    return [
        Problem(
            last_path[bird],
            _(
                "Only %(most)s %(bird)s cards exist, but %(total)s were entered.",
                most=CARDS_PER_BIRD,
                bird=_(BIRDS[bird]),
                total=total,
            ),
            rule=COMPONENTS_RULE,
        )
        for bird, total in totals.items()
        if total > CARDS_PER_BIRD
    ]


def _problems(model: StateModel) -> list[Problem]:
    players = model.players
    problems = [
        Problem(
            p.path,
            sentences(p.message, _(PLAYERS_READING.text)),
            rule=p.rule,
            reading=PLAYERS_READING,
        )
        for p in player_count_problems(len(players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    ]
    problems += name_problems([p.name for p in players], path=lambda i: f"players[{i}].name")
    for index, player in enumerate(players):
        problems += _display_problems(index, player)
    return problems + _deck_problems(players)


#: Each player is dealt 3 cards at set-up, and cards are only ever added.
DEALT_CARDS = 3
SETUP_RULE = "odd-world/setup"


def _table_problems(players: Sequence[PlayerModel]) -> list[Problem]:
    """What valid counts can still not be: fewer cards than were dealt, or two displays
    that held every bird during play (the game ends at once when the first one does)."""
    problems = []
    for index, player in enumerate(players):
        held = sum(n for bird, n in player.display.items() if bird in BIRDS and n > 0)
        held += player.face_down is not None
        if held < DEALT_CARDS:
            problems.append(
                Problem(
                    f"players[{index}].display",
                    ngettext(
                        "%(name)s holds %(num)s card, but each player is dealt %(dealt)s and"
                        " cards are only ever added.",
                        "%(name)s holds %(num)s cards, but each player is dealt %(dealt)s and"
                        " cards are only ever added.",
                        held,
                        name=player.name.strip(),
                        dealt=DEALT_CARDS,
                    ),
                    rule=SETUP_RULE,
                    pending=True,
                )
            )
    completed = [index for index, player in enumerate(players) if _complete_in_play(player)]
    if len(completed) > 1:
        problems.append(_two_enders_problem([players[i] for i in completed], at=completed[1]))
    return problems


def _complete_in_play(player: PlayerModel) -> bool:
    """Whether the display held all nine birds before its face-down card was added.

    A face-down card entered apart leaves the display as play revealed it. One already
    in the display (``face_down`` null) can have brought the ninth bird only as that
    bird's single card: with every bird at 2 cards or more, the display was complete
    without it.

    >>> nine = dict.fromkeys(BIRDS, 1)
    >>> _complete_in_play(PlayerModel(name="Ann", display=nine))
    False
    >>> _complete_in_play(PlayerModel(name="Ann", display=nine, face_down="hoopoe"))
    True
    """
    counts = [player.display.get(bird, 0) for bird in BIRDS]
    if not all(counts):
        return False
    return player.face_down is not None or min(counts) > 1


def _two_enders_problem(enders: Sequence[PlayerModel], *, at: int) -> Problem:
    """The refusal of displays that all held every bird during play."""
    names = spoken_names([player.name.strip() for player in enders])
    message = _(
        "%(names)s each show all nine birds without counting a face-down card, but the game"
        " ends the moment one display holds all nine: only one display can be completed"
        " during play, any other only by its face-down card at the end.",
        names=names,
    )
    if any(player.face_down is None for player in enders):
        message = sentences(
            message,
            _(
                "(A face-down card already in a display can only have been its ninth bird if"
                " it is that bird's only card.)"
            ),
        )
    return Problem(f"players[{at}].display", message, rule=END_RULE)


def table_problems(state: object) -> list[Problem]:
    """The impossible-table problems of a valid state (see ``Game.table_problems``).

    >>> [p.message for p in table_problems({"players": [
    ...     {"name": "Ann", "display": {"hoopoe": 2}, "face_down": "shoebill"},
    ...     {"name": "Ben", "display": {"hoopoe": 1}}]})]
    ['Ben holds 1 card, but each player is dealt 3 and cards are only ever added.']
    """
    return _table_problems(validate_model(StateModel, state, STATE_SIZE).players)


def parse(state: object) -> list[Collection]:
    """Validate a state and return each player's cards per bird, face-down included."""
    model = validate_model(StateModel, state, STATE_SIZE)
    problems = _problems(model)
    if problems:
        raise InvalidStateError(problems)
    return [_collection(player) for player in model.players]


def _collection(player: PlayerModel) -> Collection:
    counts = {bird: player.display.get(bird, 0) for bird in BIRDS}
    display_complete = all(counts.values())
    if player.face_down is not None:
        counts[player.face_down] += 1
    return Collection(player.name.strip(), counts, player.face_down, display_complete)


def _breakdown(collection: Collection) -> tuple[BreakdownLine, ...]:
    lines = []
    for bird, count in collection.counts.items():
        if count:
            lines.append(
                BreakdownLine(_breakdown_label(bird, count), bird_points(count), rule=SCORING_RULE)
            )
    return tuple(lines)


def _breakdown_label(bird: str, count: int) -> str:
    """A breakdown line's words: the bird, its cards, and whether they count (odd).

    >>> _breakdown_label("hoopoe", 1), _breakdown_label("shoebill", 2)
    ('Hoopoe: 1 card (odd)', 'Shoebill: 2 cards (even)')
    """
    if count % 2:
        return ngettext(
            "%(bird)s: %(num)s card (odd)",
            "%(bird)s: %(num)s cards (odd)",
            count,
            bird=_(BIRDS[bird]),
        )
    return ngettext(
        "%(bird)s: %(num)s card (even)",
        "%(bird)s: %(num)s cards (even)",
        count,
        bird=_(BIRDS[bird]),
    )


def _entry(collection: Collection) -> Entry:
    points = [bird_points(n) for n in collection.counts.values()]
    return Entry(
        player=collection.name,
        score=sum(points),
        tiebreak=(collection.species, max(points)),
        breakdown=_breakdown(collection),
    )


def score_collections(collections: Sequence[Collection]) -> Result:
    """Score already-validated collections (shared by one game and the series).

    The game is over by the rules once a display holds all nine birds or every card of
    the box is on the table (both draw piles are then empty); a face-down card that
    brings a display to nine ends it by the app's reading (:data:`END_CHECK_READING`).
    """
    ranking = rank([_entry(c) for c in collections], tiebreaks=TIEBREAKS)
    on_table = sum(c.cards for c in collections)
    over_by_rules = on_table >= BOX_CARDS or any(c.display_complete for c in collections)
    ended_by_face_down = not over_by_rules and any(c.species == len(BIRDS) for c in collections)
    counted_before_the_end = not over_by_rules and any(c.hidden is not None for c in collections)
    finished = over_by_rules or ended_by_face_down
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        finished,
        () if finished else (not_over_warning(on_table),),
        extra={"cards_on_table": on_table},
        readings=unique_readings(
            [
                FACE_DOWN_READING if counted_before_the_end else None,
                END_CHECK_READING if ended_by_face_down else None,
                PLACES_READING if ranking.places_by_tiebreak else None,
            ]
        ),
    )


#: Every card of the box: once all of them are on the table, both draw piles are empty.
BOX_CARDS = CARDS_PER_BIRD * len(BIRDS)

#: Tiebreakers put the places below first in order too: the app's extension.
PLACES_READING = places_reading(SLUG)
#: Entry ``face-down``: the hidden card counts in every score, not only the last.
FACE_DOWN_READING = Reading(
    "odd-world/face-down",
    N_(
        "Counting face-down cards before the game is over is the app's reading: the"
        " rulebook adds them only at the end, but their owners know them, and the scores"
        " then show where the game is heading."
    ),
)
#: Entry ``end-check``: a face-down card that is someone's ninth bird ends the game.
END_CHECK_READING = Reading(
    "odd-world/end-check",
    N_(
        "Calling the game over when a face-down card is someone's ninth bird is the app's"
        " reading: by the rulebook its owner may reveal it on their turn to end the game but"
        " need not; the app counts the card as scoring will, so a table entering a finished"
        " game is not asked whether it is over."
    ),
)
#: Entry ``series/ties``: tied totals over the three games share the victory.
SERIES_TIES_READING = Reading(
    "odd-world/series/ties",
    N_(
        "Sharing the victory when the series totals tie is the app's reading: the variant"
        " only says to add up the points and gives the total no tiebreaker, and one game's"
        " tiebreakers would let the last game alone decide."
    ),
)


def not_over_warning(on_table: int) -> str:
    """Why a scored table is not the end of the game yet, for the result's warnings.

    >>> not_over_warning(20)[:56]
    'Nobody holds all nine birds yet and 20 of the 72 cards a'
    >>> not_over_warning(71).endswith("so 1 is still in the draw piles: the game goes on.")
    True
    """
    entered, left = _cards_entered(on_table)
    # TRANSLATORS: "entered" says how many of the box's cards are entered ("20 of the 72
    # cards are entered"), "left" how many are still in the draw piles ("52 are still in
    # the draw piles").
    return _(
        "Nobody holds all nine birds yet and %(entered)s, so %(left)s: the game goes on.",
        entered=entered,
        left=left,
    )


def _cards_entered(on_table: int) -> tuple[str, str]:
    """How many cards are entered and how many are left in the draw piles, in words (two
    parts of a sentence: each has its own number, so its own plural).

    >>> _cards_entered(1)
    ('1 of the 72 cards is entered', '71 are still in the draw piles')
    """
    entered = ngettext(
        "%(num)s of the %(box)s cards is entered",
        "%(num)s of the %(box)s cards are entered",
        on_table,
        box=BOX_CARDS,
    )
    # TRANSLATORS: how many of the box's cards are not on the table yet.
    left = ngettext(
        "%(num)s is still in the draw piles",
        "%(num)s are still in the draw piles",
        BOX_CARDS - on_table,
    )
    return entered, left


def score_series(data: object) -> Result:
    """Score the three-games-in-a-row variant: the summed score decides; ties share.

    >>> game = {"players": [{"name": "A", "display": {"hoopoe": 1}}, {"name": "B"}]}
    >>> r = score_series({"games": [game, game]})
    >>> [(s.player, s.score, [b.label for b in s.breakdown]) for s in r.standings][0]
    ('A', 2, ['Game 1', 'Game 2'])
    """
    series = validate_model(SeriesModel, data, SERIES_SIZE)
    games, problems = _series_games(series.games)
    if not problems:
        problems = _series_roster_problems(games)
    if problems:
        raise InvalidStateError(problems)
    results = [score_collections(collections) for collections in games]
    seating = [c.name for c in games[0]]
    entries = []
    for name in seating:
        per_game = [_score_of(result, name) for result in results]
        entries.append(
            Entry(
                player=name,
                score=sum(per_game),
                breakdown=tuple(
                    # TRANSLATORS: a breakdown line: one game of a series of games in a row.
                    BreakdownLine(_("Game %(number)s", number=n), points, rule=SERIES_RULE)
                    for n, points in enumerate(per_game, 1)
                ),
            )
        )
    ranking = rank(entries)
    finished = len(results) == MAX_SERIES_GAMES and all(r.finished for r in results)
    shared = len(ranking.winners) > 1
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        finished,
        extra={"games": [r.to_json() for r in results]},
        readings=(SERIES_TIES_READING,) if shared else (),
    )


def _series_games(games: Sequence[object]) -> tuple[list[list[Collection]], list[Problem]]:
    problems: list[Problem] = []
    if not 1 <= len(games) <= MAX_SERIES_GAMES:
        problems.append(Problem("games", series_length()))
    parsed = []
    for index, game in enumerate(games):
        try:
            parsed.append(parse(game))
        except InvalidStateError as invalid:
            problems += [Problem(f"games[{index}].{p.path}", p.message) for p in invalid.problems]
    return parsed, problems


def _series_roster_problems(games: Sequence[Sequence[Collection]]) -> list[Problem]:
    first = {c.name.casefold() for c in games[0]}
    return [
        Problem(f"games[{index}].players", _("Every game of a series has the same players."))
        for index, game in enumerate(games)
        if {c.name.casefold() for c in game} != first
    ]


def _score_of(result: Result, name: str) -> int:
    """A player's score in one game; names match regardless of case."""
    player = Roster.of([s.player for s in result.standings]).find(name)
    return result.standing(player or name).score


#: The answer of one game: a result, with the cards entered (face-down cards included).
GAME_ANSWER = schemas.result(SLUG, {"cards_on_table": schemas.INTEGER})


class OddWorld(Game):
    """The Odd World engine, registered under ``odd-world``."""

    slug = SLUG
    name = N_("Odd World")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    player_count_reading = PLAYERS_READING.text
    readings = (
        PLAYERS_READING,
        PLACES_READING,
        FACE_DOWN_READING,
        END_CHECK_READING,
        SERIES_TIES_READING,
    )
    #: 3: two complete displays accepted when face-down cards may be their ninth birds;
    #: every card on the table ends the game; ``cards_on_table``; readings carried.
    engine_version = 3
    tiebreaks = TIEBREAKS
    has_series = True
    #: Rules entries the pages link to: a shared victory, and the end of the game.
    tie_rule = SHARED_RULE
    end_rule = END_RULE
    series_tie_rule = SERIES_TIES_RULE

    def over_words(self, result: Mapping[str, Any]) -> str:
        """Why the game is over: a face-down card that is someone's ninth bird (the app's
        reading), every card on the table, or a display holding all nine birds.

        >>> nine = {"player": "Ann", "tiebreak": [{"label": SPECIES_TIEBREAK, "value": 9}]}
        >>> GAME.over_words({"standings": [nine], "cards_on_table": 30})
        'Ann holds all nine birds: the game is over.'
        >>> GAME.over_words({"standings": [], "cards_on_table": 72})
        'All 72 cards are on the table: both draw piles are empty, so the game is over.'
        """
        names = [
            standing["player"]
            for standing in result["standings"]
            if any(
                t["label"] == SPECIES_TIEBREAK and t["value"] == len(BIRDS)
                for t in standing["tiebreak"]
            )
        ]
        if any(r.get("id") == END_CHECK_READING.id for r in result.get("readings", ())):
            # TRANSLATORS: whose card it is ("Ann's"), before "face-down card(s)"; listed
            # with "and" when several players have one.
            owners = spoken_names([_("%(name)s's", name=name) for name in names])
            return ngettext(
                "%(owners)s face-down card is the ninth bird: revealing it ends the game, so"
                " the app counts the game as over.",
                "%(owners)s face-down cards are their ninth birds: revealing it ends the game,"
                " so the app counts the game as over.",
                len(names),
                owners=owners,
            )
        if result.get("cards_on_table", 0) >= BOX_CARDS:
            return _(
                "All %(box)s cards are on the table: both draw piles are empty, so the game"
                " is over.",
                box=BOX_CARDS,
            )
        if not names:
            return _("Someone holds all nine birds: the game is over.")
        return ngettext(
            "%(names)s holds all nine birds: the game is over.",
            "%(names)s hold all nine birds: the game is over.",
            len(names),
            names=spoken_names(names),
        )

    def going_on_words(self, result: Mapping[str, Any]) -> str:
        """Nobody holds all nine birds and some cards are still in the draw piles.

        >>> GAME.going_on_words({"cards_on_table": 40})[:60]
        'nobody holds all nine birds yet and only 40 of the 72 cards '
        """
        entered, left = _cards_entered(result.get("cards_on_table", 0))
        # TRANSLATORS: said after "The game is not over yet:", so not a sentence of its own;
        # "entered" and "left" as in "Nobody holds all nine birds yet and ...".
        return _(
            "nobody holds all nine birds yet and only %(entered)s, so %(left)s",
            entered=entered,
            left=left,
        )

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state; empty when it can be scored."""
        return problems_of(parse, state)

    def score(self, state: object) -> Result:
        """Score one game (see the module example)."""
        return score_collections(parse(state))

    def new_state(self, players: Sequence[str], _options: Mapping[str, Any]) -> dict[str, Any]:
        """Empty displays for these players, every bird at 0, no face-down card yet."""
        return {
            "players": [
                {"name": name, "display": dict.fromkeys(BIRDS, 0), "face_down": None}
                for name in players
            ]
        }

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """A bird count (``players[i].display.<bird>``) or face-down card edit."""
        where = path_of(path)
        match list(path):
            case ["players", int(), "display", str(bird)] if bird in BIRDS:
                return _count_from_text(where, raw)
            case ["players", int(), "face_down"]:
                if raw == "":
                    return None
                if raw in BIRDS:
                    return raw
                raise InvalidStateError([Problem(where, _("Pick one of the nine birds."))])
        raise InvalidStateError([Problem(where, _("This cannot be changed here."))])

    def describe_path(self, state: Mapping[str, Any], path: Sequence[str | int]) -> str:
        """A field's name for people: "Ben's Hoopoe", "Ben's face-down card"."""
        match list(path):
            case ["players", int(seat), "display", str(bird)] if bird in BIRDS:
                # TRANSLATORS: a player's cards of one bird ("Ben's Hoopoe"), in the history.
                return _(
                    "%(player)s's %(bird)s", player=_seat_name(state, seat), bird=_(BIRDS[bird])
                )
            case ["players", int(seat), "face_down"]:
                return _("%(player)s's face-down card", player=_seat_name(state, seat))
        return path_of(path)

    def display_value(self, _path: Sequence[str | int], value: object) -> str:
        """A stored value as people read it (bird names, "none" for no face-down card)."""
        if value is None:
            # TRANSLATORS: no face-down card, in the history ("Ben's face-down card: none →
            # Hoopoe").
            return _("none")
        if isinstance(value, str):
            return _(BIRDS[value]) if value in BIRDS else value
        return str(value)

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.checked_score(body).to_json(),
            "series": lambda body: self.checked_series(body).to_json(),
        }

    def api_descriptions(self) -> dict[str, ApiDescription]:
        """The request models and answer shapes of the JSON endpoints (OpenAPI)."""
        return {
            "score": ApiDescription("Score one game.", StateModel, GAME_ANSWER, API_EXAMPLE),
            "series": ApiDescription(
                "Score three games in a row by their summed score.",
                SeriesModel,
                schemas.result(SLUG, {"games": schemas.array(GAME_ANSWER)}),
                {"games": [API_EXAMPLE, API_EXAMPLE]},
            ),
        }

    def series(self, data: object) -> Result:
        """Score the three-games-in-a-row variant (see :func:`score_series`)."""
        return score_series(data)

    def table_problems(self, state: object) -> list[Problem]:
        """Fewer cards than were dealt; two displays that held every bird during play."""
        return table_problems(state)

    def checked_series(self, data: object) -> Result:
        """The series, refusing a game whose table is impossible (the API's ``series``)."""
        result = score_series(data)
        games = validate_model(SeriesModel, data, SERIES_SIZE).games
        problems = [
            Problem(f"games[{index}].{p.path}", p.message, rule=p.rule)
            for index, game in enumerate(games)
            for p in table_problems(game)
        ]
        if problems:
            raise InvalidStateError(problems)
        return result


def _seat_name(state: Mapping[str, Any], seat: int) -> str:
    try:
        return str(state["players"][seat]["name"])
    except (LookupError, TypeError):
        return _("Seat %(number)s", number=seat + 1)


def _count_from_text(where: str, raw: str) -> int:
    return whole_number(where, raw, minimum=0, maximum=CARDS_PER_BIRD, unit="cards")


GAME = OddWorld()
