"""Oddland states: request shapes, sizes and validation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import pydantic

from companion.games.grid import (
    Cell,
    components,
    place_name,
)
from companion.games.limits import STRICT, list_size, object_size, text_size
from companion.games.names import Roster, name_problems, player_count_problems, players_size
from companion.games.oddland.map import (
    CARD_SIZE,
    COVER_RULE,
    EDGE_RULE,
    EMPTY,
    MAX_CARD_EXTENT,
    MAX_CARD_SPAN,
    MAX_COVERED_SPACES,
    MAX_MAP_EXTENT,
    MAX_PLAYERS,
    MAX_SPACES,
    MAX_SPECIES_POINTS,
    MAX_TOKEN_SPACES,
    MAX_TOKENS,
    MIN_PLAYERS,
    POSITION_LENGTH,
    SIDE_LETTERS,
    TERRAIN_LETTERS,
    TOKENS_RULE,
    WHALEPHANT_RULE,
    MapAnalysis,
    Token,
    _analyse,
    _terrain_map,
)
from companion.games.oddland.readings import TOKENS_READING, WHALEPHANT_READING
from companion.games.oddland.setup import (
    SETUP_CARDS,
    SETUP_SPACES,
    card_cells,
    map_pair_problems,
    map_spaces,
    whole_cards,
)
from companion.games.oddland.species import (
    FLORA,
    MAP_CARDS,
    SPECIES_CARDS,
    TWO_SPACE_SPECIES,
    SideRule,
    is_species_key,
    spaces_of,
    species_name,
    token_limit,
    tokens_per_player,
)
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.text import N_, _, ngettext


class TokenModel(pydantic.BaseModel):
    """A token as entered: owner, species key and ``[row, col]`` positions."""

    model_config = STRICT

    player: str
    species: str
    cells: list[list[int]]


class StateModel(pydantic.BaseModel):
    """A whole Oddland table at scoring time (shape only; rules are checked afterwards)."""

    model_config = STRICT

    players: list[str]
    map: list[str] = []
    tokens: list[TokenModel] = []
    sides: dict[str, str | None] = {}
    points: dict[str, dict[str, int | None]] = {}
    solo: bool | None = None
    definitions: dict[str, dict[str, SideRule]] = {}
    cards: list[TurnModel] = []


class MapModel(pydantic.BaseModel):
    """The ``oddland/map`` request."""

    model_config = STRICT

    map: list[str]
    tokens: list[TokenModel] = []
    players: list[str] | None = None


class CardModel(pydantic.BaseModel):
    """A map card as laid: top-left ``[row, col]`` and its two rows of terrain letters."""

    model_config = STRICT

    at: list[int]
    terrains: list[str]


class TurnModel(pydantic.BaseModel):
    """One turn of a play-along game: the card laid and the token placed on it."""

    model_config = STRICT

    card: CardModel
    token: TokenModel | None = None


class PlacementModel(pydantic.BaseModel):
    """The ``oddland/placement`` request."""

    model_config = STRICT

    map: list[str] = []
    tokens: list[TokenModel] = []
    players: list[str] | None = None
    card: CardModel
    token: TokenModel | None = None


#: Refusals of a malformed map or card: English templates, translated where said.
ROWS_TOO_MANY = N_("A map can span at most %(most)s rows, not %(count)s.")


ROW_TOO_LONG = N_("A row can span at most %(most)s spaces.")


POSITION_NOT_PAIR = N_("A position is a pair [row, col].")


CARD_NOT_2X2 = N_("A card has 2 rows of 2 spaces.")


CARD_ROW_WRONG = N_("A card row has 2 spaces, each F, S, W or M.")


_MAP_SIZE = list_size(
    MAX_MAP_EXTENT,
    lambda n: _(ROWS_TOO_MANY, most=MAX_MAP_EXTENT, count=n),
    text_size(MAX_MAP_EXTENT, lambda _n: _(ROW_TOO_LONG, most=MAX_MAP_EXTENT)),
)


_POSITION_SIZE = list_size(POSITION_LENGTH, lambda _n: _(POSITION_NOT_PAIR))


_TOKEN_SIZE = object_size(
    {
        "player": text_size(),
        "species": text_size(),
        "cells": list_size(
            MAX_TOKEN_SPACES,
            lambda n: _(
                "A token covers at most %(most)s spaces, not %(count)s.",
                most=MAX_TOKEN_SPACES,
                count=n,
            ),
            _POSITION_SIZE,
        ),
    }
)


_TOKENS_SIZE = list_size(
    MAX_TOKENS,
    lambda n: _(
        "The box holds %(most)s tokens, but %(count)s were entered.", most=MAX_TOKENS, count=n
    ),
    _TOKEN_SIZE,
)


_CARD_SIZE = object_size(
    {
        "at": _POSITION_SIZE,
        "terrains": list_size(
            CARD_SIZE,
            lambda _n: _(CARD_NOT_2X2),
            text_size(CARD_SIZE, lambda _n: _(CARD_ROW_WRONG)),
        ),
    }
)


_PLAYERS_SIZE = players_size(MIN_PLAYERS, MAX_PLAYERS)


#: Sizes of a score request: players, map rows and their length, tokens, species
#: entries, definitions and play-along turns (no more than the box has cards).
STATE_SIZE = object_size(
    {
        "players": _PLAYERS_SIZE,
        "map": _MAP_SIZE,
        "tokens": _TOKENS_SIZE,
        "sides": object_size(each=text_size()),
        "points": object_size(each=object_size()),
        "definitions": object_size(each=object_size(each=object_size(each=text_size()))),
        "cards": list_size(
            MAP_CARDS,
            lambda n: _(
                "The box has %(most)s map cards, but %(count)s turns were entered.",
                most=MAP_CARDS,
                count=n,
            ),
            object_size({"card": _CARD_SIZE, "token": _TOKEN_SIZE}),
        ),
    }
)


MAP_REQUEST_SIZE = object_size(
    {"map": _MAP_SIZE, "tokens": _TOKENS_SIZE, "players": _PLAYERS_SIZE}
)


PLACEMENT_SIZE = object_size(
    {
        "map": _MAP_SIZE,
        "tokens": _TOKENS_SIZE,
        "players": _PLAYERS_SIZE,
        "card": _CARD_SIZE,
        "token": _TOKEN_SIZE,
    }
)


def map_problems(rows: Sequence[str], *, path: str = "map") -> list[Problem]:
    """Every problem with map rows: unknown letters, too big for the box.

    >>> print(*[p.message for p in map_problems(["FFx", "WW"])])
    Row 1 has "x"; use F (forest), S (shore), W (water), M (mountain) or "." for no card.
    """
    if len(rows) > MAX_MAP_EXTENT:
        return [Problem(path, _(ROWS_TOO_MANY, most=MAX_MAP_EXTENT, count=len(rows)))]
    problems = []
    for r, row in enumerate(rows):
        if len(row) > MAX_MAP_EXTENT:
            problems.append(Problem(f"{path}[{r}]", _(ROW_TOO_LONG, most=MAX_MAP_EXTENT)))
            continue
        bad = sorted({ch for ch in row if ch not in EMPTY and ch not in TERRAIN_LETTERS})
        if bad:
            shown = ", ".join(f'"{ch}"' for ch in bad)
            problems.append(
                Problem(
                    f"{path}[{r}]",
                    # TRANSLATORS: the letters stay F, S, W and M in every language.
                    _(
                        "Row %(row)s has %(letters)s; use F (forest), S (shore), W (water),"
                        ' M (mountain) or "." for no card.',
                        row=r + 1,
                        letters=shown,
                    ),
                )
            )
    count = sum(1 for row in rows for ch in row if ch not in EMPTY)
    if count > MAX_SPACES:
        problems.append(
            Problem(
                path,
                _(
                    "The %(cards)s map cards in the box make at most %(most)s spaces,"
                    " but this map has %(count)s.",
                    cards=MAP_CARDS,
                    most=MAX_SPACES,
                    count=count,
                ),
            )
        )
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in EMPTY]
    too_wide = extent_message(cells)
    if too_wide is not None:
        # TRANSLATORS: the end of the sentence says how far and what the cards can make.
        problems.append(
            Problem(path, _("The spaces of this map span %(extent)s", extent=too_wide))
        )
    return problems


def extent_message(cells: Collection[Cell]) -> str | None:
    """The end of a sentence when ``cells`` span more than the map cards can make.

    >>> extent_message([(0, 0), (74, 0)])
    '75 rows and 1 column; the 37 map cards make at most 74 rows or columns, and 112 together.'
    >>> extent_message([(0, 0), (73, 37)]) is None
    True
    """
    if not cells:
        return None
    rows = max(r for r, _row in cells) - min(r for r, _row in cells) + 1
    cols = max(c for _col, c in cells) - min(c for _col, c in cells) + 1
    if max(rows, cols) <= MAX_CARD_EXTENT and rows + cols <= MAX_CARD_SPAN:
        return None
    # TRANSLATORS: ends "The spaces of this map span ..." or "With this card the map would
    # span ...".
    return _(
        "%(rows)s and %(cols)s; the %(cards)s map cards make at most %(most)s rows or"
        " columns, and %(span)s together.",
        rows=ngettext("%(num)s row", "%(num)s rows", rows),
        cols=ngettext("%(num)s column", "%(num)s columns", cols),
        cards=MAP_CARDS,
        most=MAX_CARD_EXTENT,
        span=MAX_CARD_SPAN,
    )


def token_problems(
    tokens: Sequence[Token], *, rows: Sequence[str], path: str = "tokens"
) -> list[Problem]:
    """Every problem with where tokens lie: species keys, shapes, off-map, shared spaces.

    >>> bad = [Token("Ann", "whalephant", ((0, 0), (1, 1))), Token("Ben", "flora", ((0, 0),))]
    >>> for problem in token_problems(bad, rows=["FF", "FF"]):
    ...     print(problem.path, problem.message)
    tokens[0].cells A Whalephant's two spaces must share an edge.
    tokens[1].cells[0] Another token (tokens[0]) already lies on row 1, col 1.
    """
    problems: list[Problem] = []
    taken: dict[Cell, int] = {}
    for index, token in enumerate(tokens):
        where = f"{path}[{index}]"
        if not is_species_key(token.species):
            problems.append(Problem(f"{where}.species", _species_key_message(token.species)))
        problems += shape_problems(token, path=f"{where}.cells")
        for number, cell in enumerate(token.cells):
            problem = _cell_problem(cell, rows)
            if problem is None and cell in taken and taken[cell] != index:
                other = f"{path}[{taken[cell]}]"
                problem = _(
                    "Another token (%(other)s) already lies on %(place)s.",
                    other=other,
                    place=place_name(cell),
                )
            if problem is not None:
                problems.append(Problem(f"{where}.cells[{number}]", problem))
            taken.setdefault(cell, index)
    return problems


def _cell_problem(cell: Cell, rows: Sequence[str]) -> str | None:
    r, c = cell
    if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
        return _("Row %(row)s, col %(col)s is outside the map.", row=r + 1, col=c + 1)
    if rows[r][c] in EMPTY:
        return _(
            "There is no map card at %(place)s; a token must lie on a space.",
            place=place_name(cell),
        )
    return None


def shape_problems(token: Token, *, path: str) -> list[Problem]:
    """A token covers one space, or two sharing an edge for a two-space species.

    >>> [p.message for p in shape_problems(Token("Ann", "begator", ()), path="token.cells")]
    ['A Begator covers exactly 1 space, not 0.']
    """
    name = species_name(token.species)
    need = spaces_of(token.species)
    if len(token.cells) != need:
        two_space = token.species in TWO_SPACE_SPECIES
        message = ngettext(
            "A %(species)s covers exactly %(num)s space, not %(count)s.",
            "A %(species)s covers exactly %(num)s spaces, not %(count)s.",
            need,
            species=name,
            count=len(token.cells),
        )
        return [
            Problem(
                path,
                message,
                rule=WHALEPHANT_RULE if two_space else None,
                reading=WHALEPHANT_READING if two_space else None,
            )
        ]
    if token.species in TWO_SPACE_SPECIES:
        (r1, c1), (r2, c2) = token.cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            message = _("A %(species)s's two spaces must share an edge.", species=name)
            return [Problem(path, message, rule=WHALEPHANT_RULE, reading=WHALEPHANT_READING)]
    return []


def _species_key_message(key: str) -> str:
    return _(
        '"%(key)s" is not a species key; use lower-case letters, digits and hyphens.', key=key
    )


def _cells(raw: Sequence[Sequence[int]], *, path: str) -> tuple[tuple[Cell, ...], list[Problem]]:
    """Positions as pairs; malformed ones are reported and left out."""
    cells: list[Cell] = []
    problems = []
    for number, pair in enumerate(raw):
        if len(pair) == POSITION_LENGTH:
            cells.append((pair[0], pair[1]))
        else:
            problems.append(Problem(f"{path}[{number}]", _(POSITION_NOT_PAIR)))
    return tuple(cells), problems


def _token(
    model: TokenModel, *, path: str, names: Mapping[str, str] | None
) -> tuple[Token, list[Problem]]:
    """A token from its model, its owner matched to ``names`` (casefolded -> as seated)."""
    cells, problems = _cells(model.cells, path=f"{path}.cells")
    owner = model.player.strip()
    if names is not None:
        seated = names.get(owner.casefold())
        if seated is None:
            problems.append(Problem(f"{path}.player", _not_a_player(owner)))
        owner = seated or owner
    elif not owner:
        problems.append(Problem(f"{path}.player", _("A token needs its owner's name.")))
    return Token(owner, model.species, cells), problems


def _not_a_player(name: str) -> str:
    return _('"%(name)s" is not one of the players.', name=name)


def _tokens(
    models: Sequence[TokenModel], *, names: Mapping[str, str] | None
) -> tuple[list[Token], list[Problem]]:
    """Tokens from their models, and every problem with owners and position pairs."""
    tokens: list[Token] = []
    problems: list[Problem] = []
    for index, model in enumerate(models):
        token, bad = _token(model, path=f"tokens[{index}]", names=names)
        tokens.append(token)
        problems += bad
    return tokens, problems


def _where_tokens_lie(
    tokens: Sequence[Token], *, rows: Sequence[str], entry_problems: Sequence[Problem]
) -> list[Problem]:
    """Location and shape problems, minus shape noise where a position was malformed."""
    malformed = {p.path.rsplit("[", 1)[0] for p in entry_problems if p.path.endswith("]")}
    return [p for p in token_problems(tokens, rows=rows) if p.path not in malformed]


def _seating(players: Sequence[str]) -> dict[str, str]:
    """Casefolded name -> name as seated (the first of duplicates, already reported)."""
    return Roster.of(players).seated


def supply_problems(
    tokens: Sequence[Token], *, player_count: int, path: str = "tokens"
) -> list[Problem]:
    """Nobody places more tokens, in all or of one species, than their set holds.

    >>> two = [Token("Ann", "begator", ((0, 0),)), Token("Ann", "begator", ((0, 1),))]
    >>> [p.message for p in supply_problems(two, player_count=2)]
    ['Ann has only 1 Begator token.']
    """
    problems = []
    per_species: Counter[tuple[str, str]] = Counter()
    per_player: Counter[str] = Counter()
    total = tokens_per_player(player_count)
    for index, token in enumerate(tokens):
        per_species[token.player, token.species] += 1
        per_player[token.player] += 1
        limit = token_limit(token.species, player_count=player_count)
        if per_species[token.player, token.species] > limit:
            problems.append(
                Problem(
                    f"{path}[{index}].species",
                    _limit_message(token, limit, player_count),
                    rule=TOKENS_RULE,
                    # How many of each species a set holds is the app's reading.
                    reading=TOKENS_READING,
                )
            )
        elif per_player[token.player] > total:
            problems.append(
                Problem(
                    f"{path}[{index}]",
                    ngettext(
                        "With %(num)s player each player has %(total)s tokens; this is"
                        " %(player)s's token number %(number)s.",
                        "With %(num)s players each player has %(total)s tokens; this is"
                        " %(player)s's token number %(number)s.",
                        player_count,
                        total=total,
                        player=token.player,
                        number=per_player[token.player],
                    ),
                )
            )
    return problems


def _limit_message(token: Token, limit: int, player_count: int) -> str:
    if token.species == FLORA and limit == 1:
        return _(
            "%(player)s has only 1 %(species)s token (with %(count)s players one Flora goes"
            " back to the box).",
            player=token.player,
            species=species_name(token.species),
            count=player_count,
        )
    return ngettext(
        "%(player)s has only %(num)s %(species)s token.",
        "%(player)s has only %(num)s %(species)s tokens.",
        limit,
        player=token.player,
        species=species_name(token.species),
    )


def _is_solo(model: StateModel) -> bool:
    return model.solo if model.solo is not None else len(model.players) == 1


def _state_problems(
    model: StateModel, *, tokens: Sequence[Token], board: Sequence[Problem]
) -> list[Problem]:
    count = len(model.players)
    problems = player_count_problems(count, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    problems += name_problems(model.players, path=lambda i: f"players[{i}]")
    if model.solo and count != 1:
        problems.append(
            Problem(
                "solo",
                _("Solo mode is for 1 player, but %(count)s players were entered.", count=count),
            )
        )
    names = _seating(model.players)
    problems += board
    problems += supply_problems(tokens, player_count=max(count, MIN_PLAYERS))
    problems += _side_problems(model.sides)
    problems += _points_problems(model.points, names=names, solo=_is_solo(model))
    problems += _definition_problems(model.definitions)
    return problems


SETUP_RULE = "oddland/setup"
COMPONENTS_RULE = "oddland/components"
TURN_RULE = "oddland/turn"


def _side_problems(sides: Mapping[str, str | None]) -> list[Problem]:
    problems = []
    if len(sides) > SPECIES_CARDS:
        problems.append(
            Problem(
                "sides",
                _(
                    "The box has %(most)s species cards, so at most %(most)s species are in"
                    " play, but %(count)s were entered.",
                    most=SPECIES_CARDS,
                    count=len(sides),
                ),
                rule=COMPONENTS_RULE,
            )
        )
    for species, side in sides.items():
        where = path_of(["sides", species])
        if not is_species_key(species):
            problems.append(Problem(where, _species_key_message(species)))
        elif side is not None and side not in SIDE_LETTERS:
            problems.append(Problem(where, _side_message(side)))
    return problems


def _points_problems(
    points: Mapping[str, Mapping[str, int | None]], *, names: Mapping[str, str], solo: bool
) -> list[Problem]:
    problems = []
    for player, entries in points.items():
        if player.strip().casefold() not in names:
            problems.append(Problem(path_of(["points", player]), _not_a_player(player)))
        for species, value in entries.items():
            where = path_of(["points", player, species])
            if not is_species_key(species):
                problems.append(Problem(where, _species_key_message(species)))
            elif value is None:
                continue
            elif value < 0 and not solo:
                problems.append(Problem(where, _("Points cannot be negative outside solo mode.")))
            elif abs(value) > MAX_SPECIES_POINTS:
                problems.append(Problem(where, species_points_message()))
    return problems


def _definition_problems(definitions: Mapping[str, Mapping[str, SideRule]]) -> list[Problem]:
    problems = []
    for species, sides in definitions.items():
        if not is_species_key(species):
            problems.append(
                Problem(path_of(["definitions", species]), _species_key_message(species))
            )
        for side in sides:
            if side not in SIDE_LETTERS:
                problems.append(
                    Problem(path_of(["definitions", species, side]), _side_message(side))
                )
    return problems


def _side_message(side: str) -> str:
    return _('A species card has side "A" or "B", not "%(side)s".', side=side)


def species_points_message() -> str:
    """Too many points for one species on the scoreboard.

    >>> species_points_message()
    'One species scores at most 999 points.'
    """
    return _("One species scores at most %(most)s points.", most=MAX_SPECIES_POINTS)


def analyse_map(rows: Sequence[str], tokens: Sequence[Token] = ()) -> MapAnalysis:
    """Find the territories of a map and where the tokens lie.

    Territories are numbered in reading order of their first space; their cells are in
    reading order and their neighbours ascending. Raises :class:`InvalidStateError` with
    every problem when the map or the tokens are impossible.

    >>> analysis = analyse_map(["FFW", "FWW", ".MM"])
    >>> [(t.id, t.terrain.value, t.size, t.neighbors) for t in analysis.territories]
    [(0, 'F', 3, (1,)), (1, 'W', 3, (0, 2)), (2, 'M', 2, (1,))]
    >>> analysis.territories[0].cells
    ((0, 0), (0, 1), (1, 0))
    """
    problems = map_problems(rows)
    if not problems:
        problems = token_problems(tokens, rows=rows)
    if problems:
        raise InvalidStateError(problems)
    return _analyse(_terrain_map(rows), tokens)


def unmade_spaces(rows: Sequence[str]) -> list[tuple[int, int]]:
    """The spaces of a map that no 2x2 map card can have made: every card adds a whole
    2x2 block, so each space lies in some 2x2 block of the map's spaces.

    >>> unmade_spaces(["FW", "S."]), unmade_spaces(["FFW", "FWW", ".MM"])
    ([(0, 0), (0, 1), (1, 0)], [])
    """
    spaces = map_spaces(rows)
    made = {cell for top_left in whole_cards(spaces) for cell in card_cells(top_left)}
    return sorted(spaces - made)


def map_shape_problems(rows: Sequence[str], *, path: str = "map") -> list[Problem]:
    """A map the 2x2 map cards cannot make (see :func:`unmade_spaces`)."""
    unmade = unmade_spaces(rows)
    if not unmade:
        return []
    shown = ", ".join(
        # TRANSLATORS: one space of an Oddland map in a list of them.
        _("row %(row)s col %(col)s", row=r + 1, col=c + 1)
        for r, c in unmade[:5]
    )
    if len(unmade) > len(unmade[:5]):
        message = _(
            "Map cards are 2x2, so every space lies in a 2x2 block of the map, but %(spaces)s"
            " and %(more)s more do not.",
            spaces=shown,
            more=len(unmade) - 5,
        )
    else:
        message = ngettext(
            "Map cards are 2x2, so every space lies in a 2x2 block of the map, but %(spaces)s"
            " does not.",
            "Map cards are 2x2, so every space lies in a 2x2 block of the map, but %(spaces)s"
            " do not.",
            len(unmade),
            spaces=shown,
        )
    return [
        Problem(
            path,
            message,
            rule=COMPONENTS_RULE,
            pending=True,
        )
    ]


def map_connection_problems(rows: Sequence[str], *, path: str = "map") -> list[Problem]:
    """A map in pieces: the set-up deals its 2 cards next to each other and every card
    laid shares an edge with the map, so the spaces of a map are all linked through edges.

    >>> map_connection_problems(["FF.FF", "FF.FF"])[0].message
    'Every map card is laid against the map, so its spaces hang together, but this map \
is in 2 pieces (one of them at row 1, col 4).'
    >>> map_connection_problems(["FFW", "FWW"])
    []
    """
    pieces = components(map_spaces(rows))
    if len(pieces) < len(("one", "other")):
        return []
    return [
        Problem(
            path,
            _(
                "Every map card is laid against the map, so its spaces hang together, but this"
                " map is in %(count)s pieces (one of them at %(place)s).",
                count=len(pieces),
                place=place_name(pieces[1][0]),
            ),
            rule=EDGE_RULE,
            # Painting space by space passes through such maps.
            pending=True,
        )
    ]


def spaces_for_tokens_problems(rows: Sequence[str], tokens: int) -> list[Problem]:
    """A map too small for the tokens on it. Each token is a turn after the set-up, whose
    2 cards make 8 spaces; every turn's card adds at least 2 more (it covers at most 2,
    and a covered space stays a space), so ``tokens`` turns leave at least
    ``8 + 2 * tokens`` spaces. (A map without tokens is left to :func:`map_pair_problems`.)

    >>> print(spaces_for_tokens_problems(["FFFF", "FFFF"], 1)[0].message)
    1 token means 1 turn after the set-up: its 2 cards make 8 spaces and each turn's card \
adds at least 2 (a card covers at most 2), so the map has at least 10 spaces, not 8.
    >>> spaces_for_tokens_problems(["FFFFF", "FFFFF"], 1), spaces_for_tokens_problems(["FF"], 0)
    ([], [])
    """
    spaces = len(map_spaces(rows))
    added = CARD_SIZE * CARD_SIZE - MAX_COVERED_SPACES
    least = SETUP_SPACES + tokens * added
    if not tokens or spaces >= least:
        return []
    return [
        Problem(
            "map",
            ngettext(
                "%(num)s token means %(num)s turn after the set-up: its %(cards)s cards make"
                " %(setup)s spaces and each turn's card adds at least %(added)s (a card covers"
                " at most %(covered)s), so the map has at least %(least)s spaces, not"
                " %(spaces)s.",
                "%(num)s tokens mean %(num)s turns after the set-up: its %(cards)s cards make"
                " %(setup)s spaces and each turn's card adds at least %(added)s (a card covers"
                " at most %(covered)s), so the map has at least %(least)s spaces, not"
                " %(spaces)s.",
                tokens,
                cards=SETUP_CARDS,
                setup=SETUP_SPACES,
                added=added,
                covered=MAX_COVERED_SPACES,
                least=least,
                spaces=spaces,
            ),
            rule=COVER_RULE,
            # Tokens may be placed on a map still being painted.
            pending=True,
        )
    ]


def impossible_map_problems(rows: Sequence[str], *, tokens: int) -> list[Problem]:
    """Every way a well-formed map with ``tokens`` on it is one the map cards cannot make:
    not of whole 2x2 cards, in pieces, without the set-up pair (not said again when
    either of the first two already is) or too small for its tokens. Each is ``pending``:
    painting a map passes through such maps.

    >>> [p.rule for p in impossible_map_problems(["FFF", "FFF", "FFF"], tokens=1)]
    ['oddland/setup/pair', 'oddland/placement/cover']
    >>> impossible_map_problems(["FFFFF", "FFFFF"], tokens=1)
    []
    """
    made = [*map_shape_problems(rows), *map_connection_problems(rows)]
    return [
        *made,
        *(map_pair_problems(rows) if not made else []),
        *spaces_for_tokens_problems(rows, tokens),
    ]


def turn_order_problems(
    turns: Sequence[TurnModel], players: Sequence[str] | None
) -> list[Problem]:
    """Tokens out of turn in a play-along game: players take turns clockwise (in seating
    order) from whoever went first, and each turn places the player's own token.

    >>> def turn(player):
    ...     token = {"player": player, "species": "flora", "cells": [[0, 0]]}
    ...     return TurnModel.model_validate({"card": {"at": [0, 0], "terrains": ["FF", "FF"]},
    ...                                      "token": token})
    >>> setup = TurnModel.model_validate({"card": {"at": [0, 0], "terrains": ["FF", "FF"]}})
    >>> turn_order_problems([setup, setup, turn("Ben"), turn("Cy"), turn("Ann")],
    ...                     ["Ann", "Ben", "Cy"])
    []
    >>> [p.message for p in turn_order_problems([setup, setup, turn("Ben"), turn("Ben")],
    ...                                         ["Ann", "Ben", "Cy"])]
    ["Card 4: it is Cy's turn (players take turns clockwise from Ben, who went first), \
so the token is Cy's, not Ben's."]
    """
    if not players:
        return []
    roster = Roster.of(players)
    seats = {name: seat for seat, name in enumerate(roster.names)}
    problems: list[Problem] = []
    first: int | None = None
    for number, turn in enumerate(turns):
        if number < SETUP_CARDS or turn.token is None:
            continue
        owner = roster.find(turn.token.player)
        if owner is None:
            return problems  # an unknown player is reported where the token is read
        if first is None:
            first = seats[owner] - (number - SETUP_CARDS)
        due = roster.names[(first + number - SETUP_CARDS) % len(roster.names)]
        if owner != due:
            starter = roster.names[first % len(roster.names)]
            problems.append(
                Problem(
                    f"cards[{number}].token.player",
                    _(
                        "Card %(number)s: it is %(due)s's turn (players take turns clockwise"
                        " from %(starter)s, who went first), so the token is %(due)s's, not"
                        " %(owner)s's.",
                        number=number + 1,
                        due=due,
                        starter=starter,
                        owner=owner,
                    ),
                    rule=TURN_RULE,
                )
            )
    return problems


def token_less_turn_problems(turns: Sequence[TurnModel]) -> list[Problem]:
    """Turns without a token: only the cards laid at set-up (the first
    :data:`SETUP_CARDS`) carry none; every turn places one."""
    return [
        problem
        for number, turn in enumerate(turns)
        if turn.token is None and (problem := turn_token_problem(number, has_token=False))
    ]


def setup_token_problems(turns: Sequence[TurnModel]) -> list[Problem]:
    """Set-up cards entered with a token (an impossible table: see
    :func:`turn_token_problem`)."""
    return [
        problem
        for number, turn in enumerate(turns[:SETUP_CARDS])
        if turn.token is not None and (problem := turn_token_problem(number, has_token=True))
    ]


def turn_token_problem(number: int, *, has_token: bool) -> Problem | None:
    """What is wrong with card ``number`` (from 0) of a play-along game carrying a token
    or not: the first :data:`SETUP_CARDS` are dealt face up at set-up and carry none;
    every later card is a player's turn, which places one.

    >>> turn_token_problem(0, has_token=True).message[:52]
    'Card 1 is laid at set-up: the 2 cards dealt face up '
    >>> turn_token_problem(1, has_token=False), turn_token_problem(2, has_token=True)
    (None, None)
    >>> turn_token_problem(2, has_token=False).path
    'cards[2].token'
    """
    if number < SETUP_CARDS and has_token:
        return Problem(
            f"cards[{number}].token",
            _(
                "Card %(number)s is laid at set-up: the %(setup)s cards dealt face up to start"
                " the map carry no species token; tokens come with the players' turns, from"
                " card %(first)s on.",
                number=number + 1,
                setup=SETUP_CARDS,
                first=SETUP_CARDS + 1,
            ),
            rule=SETUP_RULE,
        )
    if number >= SETUP_CARDS and not has_token:
        return Problem(
            f"cards[{number}].token",
            _(
                "Card %(number)s: every turn places a species token; only the %(setup)s cards"
                " laid at set-up carry none.",
                number=number + 1,
                setup=SETUP_CARDS,
            ),
            rule=TURN_RULE,
        )
    return None
