"""The Oddland placement referee: is this card and token legal, and the table after it."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

from companion.games.grid import (
    Cell,
    neighbours,
    place_name,
    shift_for,
    shifted,
    shifted_spaces,
)
from companion.games.oddland.map import (
    CARD_SIZE,
    COVER_RULE,
    EDGE_RULE,
    EMPTY_MARK,
    MAX_COVERED_SPACES,
    MAX_MAP_EXTENT,
    MAX_SPACES,
    POSITION_LENGTH,
    ROOM_RULE,
    TERRAIN_LETTERS,
    TERRITORY_RULE,
    TOKEN_RULE,
    TOKENS_RULE,
    MapAnalysis,
    Token,
    _analyse,
    _terrain_map,
)
from companion.games.oddland.readings import TOKENS_READING, WHALEPHANT_READING
from companion.games.oddland.setup import (
    SETUP_CARDS,
    map_spaces,
    second_card_problems,
    second_card_reading,
)
from companion.games.oddland.species import (
    MAP_CARDS,
    TWO_SPACE_SPECIES,
    Terrain,
    is_species_key,
    species_name,
    token_limit,
    tokens_per_player,
)
from companion.games.oddland.state import (
    CARD_NOT_2X2,
    CARD_ROW_WRONG,
    POSITION_NOT_PAIR,
    CardModel,
    TurnModel,
    _limit_message,
    _not_a_player,
    _seating,
    _species_key_message,
    _token,
    analyse_map,
    extent_message,
    shape_problems,
)
from companion.games.problems import InvalidStateError, Problem
from companion.games.readings import Reading, unique_readings
from companion.games.text import N_, _


@dataclass(frozen=True)
class Card:
    """A 2x2 map card as laid: its top-left position and its two rows of terrain."""

    at: Cell
    rows: tuple[str, str]

    def spaces(self) -> dict[Cell, Terrain]:
        """The card's four spaces by position."""
        top, left = self.at
        return {
            (top + dr, left + dc): Terrain(self.rows[dr][dc])
            for dr in range(CARD_SIZE)
            for dc in range(CARD_SIZE)
        }


@dataclass(frozen=True)
class Placement:
    """The table after a legal turn; ``shift`` moved every earlier position."""

    rows: tuple[str, ...]
    tokens: tuple[Token, ...]
    shift: Cell

    def to_json(self) -> dict[str, Any]:
        """The map, tokens and shift of a legal placement response."""
        return {
            "map": list(self.rows),
            "tokens": [token.to_json() for token in self.tokens],
            "shift": list(self.shift),
        }


def card_problems(card: Card, *, path: str = "card") -> list[Problem]:
    """Shape problems of a card: position range and four terrain letters.

    >>> [p.message for p in card_problems(Card((0, 0), ("FS", "W.")))]
    ['A card row has 2 spaces, each F, S, W or M.']
    """
    problems = []
    if any(abs(x) > MAX_MAP_EXTENT for x in card.at):
        problems.append(Problem(f"{path}.at", _("The card lies too far from the map.")))
    for number, row in enumerate(card.rows):
        if len(row) != CARD_SIZE or any(ch not in TERRAIN_LETTERS for ch in row):
            problems.append(Problem(f"{path}.terrains[{number}]", _(CARD_ROW_WRONG)))
    return problems


def check_placement(
    rows: Sequence[str],
    *,
    card: Card,
    tokens: Sequence[Token] = (),
    token: Token | None = None,
    players: Sequence[str] | None = None,
) -> list[Problem]:
    """Every rule a turn breaks: the card, then the token (if one is given).

    The card must share an edge with the map (the first card goes anywhere), may cover
    at most 2 spaces and never a token, and must leave room for a token. The token goes
    on the new card, into a territory without tokens; with ``players`` its owner must
    still have one of that species. Raises :class:`InvalidStateError` when the map,
    tokens or card themselves are malformed.

    >>> card = Card((2, 0), ("MM", "WS"))
    >>> check_placement(["FFWW", "FSSW"], card=card, token=Token("Ann", "begator", ((3, 1),)))
    []
    >>> far = Card((5, 5), ("MM", "WS"))
    >>> [p.message for p in check_placement(["FFWW", "FSSW"], card=far)]
    ['The card must share an edge with a space of the map.']
    """
    analysis = analyse_map(rows, tokens)
    shape = card_problems(card)
    if shape:
        raise InvalidStateError(shape)
    footprint = card.spaces()
    problems = _card_rule_problems(analysis, footprint)
    # A covered token is already reported; leaving it out keeps the rest meaningful.
    uncovered = [t for t in tokens if not any(cell in footprint for cell in t.cells)]
    after = _analyse({**analysis.spaces, **footprint}, uncovered)
    problems += _room_problems(after, footprint, token)
    if token is not None:
        problems += _token_rule_problems(after, footprint, token)
        if players is not None:
            problems += _supply_for(token, tokens, players)
    return problems


def placement_readings(
    rows: Sequence[str], *, card: Card, token: Token | None, problems: Sequence[Problem] = ()
) -> tuple[Reading, ...]:
    """The app's readings a turn's verdict rests on: a second set-up card shifted beside
    the first, a two-space token, and those of the ``problems`` found.

    >>> whale = Token("Ann", "whalephant", ((2, 0), (2, 1)))
    >>> [r.id for r in placement_readings(["FFWW", "FSSW"], card=Card((2, 0), ("MM", "WS")),
    ...                                   token=whale)]
    ['oddland/species/whalephant']
    >>> [r.id for r in placement_readings(["FS", "WM"], card=Card((1, 2), ("MM", "WS")),
    ...                                   token=None)]
    ['oddland/setup/pair']
    """
    two_space = token is not None and token.species in TWO_SPACE_SPECIES
    return unique_readings(
        [
            second_card_reading(map_spaces(rows), card.at),
            WHALEPHANT_READING if two_space else None,
            *(problem.reading for problem in problems),
        ]
    )


def _card_rule_problems(analysis: MapAnalysis, footprint: Mapping[Cell, Terrain]) -> list[Problem]:
    spaces = analysis.spaces
    covered = [cell for cell in footprint if cell in spaces]
    problems = []
    touches = bool(covered) or any(
        near in spaces for cell in footprint for near in neighbours(cell)
    )
    if spaces and not touches:
        problems.append(
            Problem(
                "card", _("The card must share an edge with a space of the map."), rule=EDGE_RULE
            )
        )
    if len(covered) > MAX_COVERED_SPACES:
        problems.append(
            Problem(
                "card",
                _(
                    "The card covers %(count)s spaces of the map; at most %(most)s may be"
                    " covered.",
                    count=len(covered),
                    most=MAX_COVERED_SPACES,
                ),
                rule=COVER_RULE,
            )
        )
    for cell in covered:
        if cell in analysis.token_at:
            owner = analysis.tokens[analysis.token_at[cell]]
            problems.append(
                Problem(
                    "card",
                    _(
                        "The card would cover %(player)s's %(species)s at %(place)s; tokens are"
                        " never covered.",
                        player=owner.player,
                        species=species_name(owner.species),
                        place=place_name(cell),
                    ),
                    rule=COVER_RULE,
                )
            )
    after = set(spaces) | set(footprint)
    if len(after) > MAX_SPACES:
        problems.append(
            Problem(
                "card",
                _("The %(cards)s cards of the box cannot make a map this big.", cards=MAP_CARDS),
            )
        )
    too_wide = extent_message(after)
    if too_wide is not None:
        problems.append(
            Problem("card", _("With this card the map would span %(extent)s", extent=too_wide))
        )
    return problems


def capitalized(text: str) -> str:
    """``text`` with its first letter a capital, the rest as it is (unlike
    :meth:`str.capitalize`, which lowers every other letter).

    >>> capitalized("row 2, col 3"), capitalized("")
    ('Row 2, col 3', '')
    """
    return text[:1].upper() + text[1:]


def _open(after: MapAnalysis, cell: Cell) -> bool:
    """Whether a token may go on ``cell``: its territory holds no token yet."""
    return cell in after.spaces and not after.territories[after.territory_of[cell]].tokens


def _room_problems(
    after: MapAnalysis, footprint: Mapping[Cell, Terrain], token: Token | None
) -> list[Problem]:
    free = [cell for cell in footprint if _open(after, cell)]
    if token is not None and token.species in TWO_SPACE_SPECIES:
        pairs = [
            (a, b)
            for a in free
            for b in free
            if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        ]
        if not pairs:
            return [
                Problem(
                    "card",
                    _(
                        "No two adjacent spaces of this card lie in territories without a token,"
                        " so the %(species)s has no room; move the card.",
                        species=species_name(token.species),
                    ),
                    rule=ROOM_RULE,
                    reading=WHALEPHANT_READING,
                )
            ]
        return []
    if not free:
        return [
            Problem(
                "card",
                _(
                    "Every space of this card lies in a territory that already holds a token,"
                    " so no token could go on it; move the card."
                ),
                rule=ROOM_RULE,
            )
        ]
    return []


def _token_rule_problems(
    after: MapAnalysis, footprint: Mapping[Cell, Terrain], token: Token
) -> list[Problem]:
    problems = []
    if not is_species_key(token.species):
        problems.append(Problem("token.species", _species_key_message(token.species)))
    problems += shape_problems(token, path="token.cells")
    # Where a two-space token may lie is the app's reading.
    reading = WHALEPHANT_READING if token.species in TWO_SPACE_SPECIES else None
    for number, cell in enumerate(token.cells):
        where = f"token.cells[{number}]"
        if cell not in footprint:
            problems.append(
                Problem(
                    where,
                    _("A token goes on one of the 4 spaces of the card just played."),
                    rule=TOKEN_RULE,
                    reading=reading,
                )
            )
        elif not _open(after, cell):
            holders = after.territories[after.territory_of[cell]].tokens
            first = after.tokens[holders[0]]
            problems.append(
                Problem(
                    where,
                    # TRANSLATORS: the place starts the sentence ("Row 2, col 3 is in ...").
                    _(
                        "%(place)s is in a territory that already holds %(player)s's"
                        " %(species)s; a new token needs a territory of its own.",
                        place=capitalized(place_name(cell)),
                        player=first.player,
                        species=species_name(first.species),
                    ),
                    rule=TERRITORY_RULE,
                    reading=reading,
                )
            )
    return problems


def _supply_for(token: Token, tokens: Sequence[Token], players: Sequence[str]) -> list[Problem]:
    names = _seating(players)
    owner = names.get(token.player.strip().casefold())
    if owner is None:
        return [Problem("token.player", _not_a_player(token.player))]
    count = len(players)
    mine = [t for t in tokens if t.player.strip().casefold() == owner.casefold()]
    same = sum(1 for t in mine if t.species == token.species)
    limit = token_limit(token.species, player_count=count)
    if same >= limit:
        placed = Token(owner, token.species, token.cells)
        message = _limit_message(placed, limit, count)
        return [Problem("token.species", message, rule=TOKENS_RULE, reading=TOKENS_READING)]
    if len(mine) >= tokens_per_player(count):
        message = _(
            "%(player)s has already placed all %(count)s tokens.", player=owner, count=len(mine)
        )
        return [Problem("token", message, rule=TOKENS_RULE)]
    return []


def apply_placement(
    rows: Sequence[str],
    *,
    card: Card,
    tokens: Sequence[Token] = (),
    token: Token | None = None,
    players: Sequence[str] | None = None,
) -> Placement:
    """The table after a legal turn; raises :class:`InvalidStateError` for an illegal one.

    A card above or left of the map shifts every earlier position so that rows and
    columns start at 0 again.

    >>> after = apply_placement(
    ...     ["FFWW", "FSSW"], card=Card((-2, 1), ("MM", "WS")),
    ...     token=Token("Ann", "begator", ((-2, 1),)),
    ... )
    >>> after.rows, after.shift, after.tokens[0].cells
    (('.MM', '.WS', 'FFWW', 'FSSW'), (2, 0), ((0, 1),))
    """
    problems = check_placement(rows, card=card, tokens=tokens, token=token, players=players)
    if problems:
        raise InvalidStateError(problems)
    return _placed(rows, card=card, tokens=tokens, token=token)


def _placed(
    rows: Sequence[str], *, card: Card, tokens: Sequence[Token], token: Token | None
) -> Placement:
    """The table after a turn already checked."""
    spaces = {**_terrain_map(rows), **card.spaces()}
    placed = [*tokens, token] if token is not None else list(tokens)
    shift = shift_for([card.at])
    return Placement(
        rows=tuple(render_rows(shifted_spaces(spaces, shift))),
        tokens=tuple(Token(t.player, t.species, shifted(t.cells, shift)) for t in placed),
        shift=shift,
    )


def render_rows(spaces: Mapping[Cell, Terrain]) -> list[str]:
    """Map rows from spaces at non-negative positions (``.`` where there is no card).

    >>> render_rows({(0, 1): Terrain.FOREST, (2, 0): Terrain.WATER})
    ['.F', '', 'W']
    """
    if not spaces:
        return []
    width: dict[int, int] = {}
    for r, c in spaces:
        width[r] = max(width.get(r, 0), c + 1)
    return [
        "".join(
            spaces[(r, c)].value if (r, c) in spaces else EMPTY_MARK
            for c in range(width.get(r, 0))
        )
        for r in range(max(width) + 1)
    ]


PLAY_ALONG_BOARD = N_(
    "A play-along game builds its map from its cards: leave map and tokens empty."
)


#: How many replayed tables one process keeps (see :func:`replay`). One entry holds at
#: most a full box of cards and tokens (a few KB), so the cache stays a few MB at most.
REPLAY_CACHE_SIZE = 256

#: A turn as a hashable value: the card's place and rows, and the token (owner, species,
#: positions) or ``None``.
TurnKey = tuple[
    tuple[int, ...], tuple[str, ...], tuple[str, str, tuple[tuple[int, ...], ...]] | None
]
#: What a replay depends on: the players (``None``: not checked) and every turn.
ReplayKey = tuple[tuple[str, ...] | None, tuple[TurnKey, ...]]


@dataclass(frozen=True)
class Replayed:
    """The table a replay left: map rows, tokens, and the turn that stopped it (its index
    in the turns, ``None`` when every turn was laid).

    Only values kept: the problems of the stopping turn are sentences in the reader's
    language, so they are said again for each request (see :func:`replay`).
    """

    rows: tuple[str, ...]
    tokens: tuple[Token, ...]
    stopped: int | None = None


class ReplayCache:
    """A bounded least-recently-used map from a :data:`ReplayKey` to its :class:`Replayed`.

    The key is the turns themselves, not a play or its version: the same cards always
    replay to the same table, so an entry is right for every play, worker and machine
    that sees those cards, and an undone card simply finds the shorter game it came from.

    >>> cache = ReplayCache(size=1)
    >>> cache.put((None, ()), Replayed((), ()))
    >>> cache.put(((), ()), Replayed(("F",), ()))
    >>> cache.get((None, ())) is None, len(cache)
    (True, 1)
    """

    def __init__(self, *, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[ReplayKey, Replayed] = OrderedDict()
        # Threaded servers share one process: the order of the entries is guarded.
        self._lock = Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: ReplayKey) -> Replayed | None:
        """The entry for ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: ReplayKey, value: Replayed) -> None:
        """Keep ``value``, dropping the least recently used entry beyond the size."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()


#: This process's replayed tables.
REPLAYS = ReplayCache(size=REPLAY_CACHE_SIZE)


def turn_key(turn: TurnModel) -> TurnKey:
    """A turn as a hashable value (everything :func:`replay` reads of it).

    >>> turn_key(TurnModel.model_validate({"card": {"at": [0, 2], "terrains": ["FS", "WM"]}}))
    ((0, 2), ('FS', 'WM'), None)
    """
    token = turn.token
    return (
        tuple(turn.card.at),
        tuple(turn.card.terrains),
        None
        if token is None
        else (token.player, token.species, tuple(tuple(cell) for cell in token.cells)),
    )


def replay(
    turns: Sequence[TurnModel], *, players: Sequence[str] | None = None
) -> tuple[list[str], list[Token], list[Problem]]:
    """Lay a play-along game's cards one by one: the map, the tokens, and what went wrong.

    Each turn is checked like ``oddland/placement`` against the table the turns before it
    left; replaying stops at the first illegal turn (later turns would be checked against
    a table that never existed). Problems are at ``cards[i].card``/``cards[i].token``.

    Every request of a play-along game replays its cards, so replays are remembered
    (:data:`REPLAYS`): the same cards are not laid again, and a game one card longer than
    a remembered one lays only its new cards. What is remembered is free of words: the
    stopping turn's problems are checked again, in the reader's language.

    >>> turns = [TurnModel.model_validate({"card": {"at": [0, 0], "terrains": ["FS", "WM"]}}),
    ...          TurnModel.model_validate({"card": {"at": [-2, 0], "terrains": ["FF", "FF"]}})]
    >>> rows, tokens, problems = replay(turns)
    >>> rows, problems
    (['FF', 'FF', 'FS', 'WM'], [])
    """
    seated = tuple(players) if players is not None else None
    keys = tuple(turn_key(turn) for turn in turns)
    done = REPLAYS.get((seated, keys))
    if done is None:
        done = _replay_after(turns, keys=keys, players=players)
        REPLAYS.put((seated, keys), done)
    return list(done.rows), list(done.tokens), _stopping_problems(turns, done, players)


def _stopping_problems(
    turns: Sequence[TurnModel], done: Replayed, players: Sequence[str] | None
) -> list[Problem]:
    """What is wrong with the turn a replay stopped at (none when it laid them all), said
    as the game's: under ``cards[i]``, with the card's number."""
    if done.stopped is None:
        return []
    number = done.stopped
    problems = check_turn(done.rows, turns[number], tokens=done.tokens, players=players)
    return [_turn_problem(number, f"cards[{number}]", problem) for problem in problems]


def _replay_after(
    turns: Sequence[TurnModel], *, keys: tuple[TurnKey, ...], players: Sequence[str] | None
) -> Replayed:
    """Replay from the longest remembered start of these turns (or from an empty map)."""
    seated = tuple(players) if players is not None else None
    start, done = 0, Replayed((), ())
    for length in range(len(keys) - 1, 0, -1):
        found = REPLAYS.get((seated, keys[:length]))
        if found is not None:
            start, done = length, found
            break
    if done.stopped is not None:  # replaying stopped before the end of the shorter game
        return done
    rows, tokens = list(done.rows), list(done.tokens)
    for number in range(start, len(turns)):
        turn = turns[number]
        if check_turn(rows, turn, tokens=tokens, players=players):
            return Replayed(tuple(rows), tuple(tokens), number)
        card, token, _unread = read_turn(turn, players=players)
        after = _placed(rows, card=card, tokens=tokens, token=token)
        rows, tokens = list(after.rows), list(after.tokens)
    return Replayed(tuple(rows), tuple(tokens))


def setup_pair_turns(turns: Sequence[TurnModel]) -> tuple[list[Problem], Reading | None]:
    """The second set-up card of a play-along game against the first: what is wrong with
    where it lies (at ``cards[1].card.at``), or the reading it rests on (see
    :mod:`~companion.games.oddland.setup`). Turns that cannot be read or laid are
    reported where the game is replayed.

    >>> def card(at):
    ...     return TurnModel.model_validate({"card": {"at": at, "terrains": ["FS", "WM"]}})
    >>> setup_pair_turns([card([0, 0]), card([0, 2])])
    ([], None)
    >>> [p.path for p in setup_pair_turns([card([0, 0]), card([0, 1])])[0]]
    ['cards[1].card.at']
    >>> setup_pair_turns([card([0, 0]), card([-1, 2])])[1].id
    'oddland/setup/pair'
    """
    if len(turns) < SETUP_CARDS:
        return [], None
    rows, _tokens, laid = replay(turns[:1])
    second, _token, unread = read_turn(turns[1])
    if laid or unread:
        return [], None
    spaces = map_spaces(rows)
    problems = [
        _turn_problem(1, "cards[1]", problem)
        for problem in second_card_problems(spaces, second.at)
    ]
    return problems, second_card_reading(spaces, second.at)


def read_turn(
    turn: TurnModel, *, players: Sequence[str] | None = None
) -> tuple[Card, Token | None, list[Problem]]:
    """The card and token of a turn, and every problem with their shape or owner."""
    names = _seating(players) if players is not None else None
    card, problems = _card(turn.card)
    token: Token | None = None
    if turn.token is not None:
        token, bad = _token(turn.token, path="token", names=names)
        problems += bad
    return card, token, problems


def check_turn(
    rows: Sequence[str],
    turn: TurnModel,
    *,
    tokens: Sequence[Token] = (),
    players: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem with the next turn of a play-along game (``card``/``token`` paths).

    >>> turn = TurnModel.model_validate({"card": {"at": [0, 3], "terrains": ["FS", "WM"]}})
    >>> [p.message for p in check_turn(["FF"], turn)]
    ['The card must share an edge with a space of the map.']
    """
    card, token, problems = read_turn(turn, players=players)
    if problems:
        return problems
    return check_placement(rows, card=card, tokens=tokens, token=token, players=players)


def _turn_problem(number: int, where: str, problem: Problem) -> Problem:
    """A problem of one turn as the game's: its path under the card, its rule and reading
    kept."""
    return Problem(
        f"{where}.{problem.path}",
        # TRANSLATORS: a play-along turn's problem, said with the number of its card.
        _("Card %(number)s: %(problem)s", number=number + 1, problem=problem.message),
        rule=problem.rule,
        reading=problem.reading,
    )


def _card(model: CardModel) -> tuple[Card, list[Problem]]:
    problems = []
    if len(model.at) != POSITION_LENGTH:
        problems.append(Problem("card.at", _(POSITION_NOT_PAIR)))
    if len(model.terrains) != CARD_SIZE:
        problems.append(Problem("card.terrains", _(CARD_NOT_2X2)))
    if problems:
        return Card((0, 0), ("FF", "FF")), problems
    card = Card((model.at[0], model.at[1]), (model.terrains[0], model.terrains[1]))
    return card, card_problems(card)
