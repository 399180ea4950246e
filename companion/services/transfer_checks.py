"""What an import must satisfy before anything is stored: the same rules as the pages and
the API (names, roster sizes, the caps of :mod:`companion.services.caps`, states the
engines accept), and the shape of an export, with numbers in the database's range.

:func:`refusals` walks a whole document and returns one line per problem, each starting
with where it is (``groups[0].tables[2].plays[1].state``); an empty list means the
document can be recreated as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Any, TypeVar

import pydantic

from companion.games import GAMES
from companion.games.names import MAX_NAME_LENGTH, hidden_character, name_problems
from companion.games.oddland.map import SIDE_LETTERS
from companion.games.oddland.species import SideRule
from companion.games.problems import InvalidStateError
from companion.models import GROUP_NAME_LENGTH, EditKind, PlayStatus
from companion.services import caps, photo_images
from companion.services.groups import GroupRefused, checked_name
from companion.services.results import stored_result_json
from companion.services.tables import MAX_PLAYERS_AT_TABLE

#: How deeply an export may nest (a play's state is a few levels deep; a document that
#: nests far deeper is not an export, and would exhaust the recursion of the JSON tools).
MAX_DEPTH = 64
#: The most lines a refusal lists (a broken file may hold thousands of problems).
MAX_LINES = 50
#: Integers the database stores (32-bit signed, the smallest of both backends).
MAX_INT = 2**31 - 1
DEVICE_LENGTH = 16
PATH_LENGTH = 200
MONTH_LENGTH = 7
#: The longest base64 text a photo may be: the photo's own cap, in base64.
PHOTO_TEXT_LENGTH = -(-photo_images.MAX_BYTES // 3) * 4

M = TypeVar("M", bound=pydantic.BaseModel)
Count = Annotated[int, pydantic.Field(strict=True, ge=0, le=MAX_INT)]
Score = Annotated[int, pydantic.Field(strict=True, ge=-MAX_INT, le=MAX_INT)]
When = pydantic.NaiveDatetime


class _Strict(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")


class _Edit(_Strict):
    number: Count
    kind: str
    path: Annotated[str, pydantic.Field(max_length=PATH_LENGTH)] | None
    value: Any
    previous: Any
    undoes: Count | None
    device: Annotated[str, pydantic.Field(max_length=DEVICE_LENGTH)]
    author: Annotated[str, pydantic.Field(max_length=MAX_NAME_LENGTH)] | None
    created_at: When | None


class _Result(_Strict):
    member: Count | None
    player: Annotated[str, pydantic.Field(max_length=MAX_NAME_LENGTH)]
    seat: Count
    score: Score
    rank: Count
    winner: pydantic.StrictBool
    shared: pydantic.StrictBool
    finished_at: When
    month: Annotated[str, pydantic.Field(max_length=MONTH_LENGTH)]


class _Standing(pydantic.BaseModel):
    player: str
    score: Score
    rank: Count
    winner: pydantic.StrictBool


class _Scored(pydantic.BaseModel):
    """What exports and statistics read of a cached result (the engine's keeps more)."""

    standings: list[_Standing]


class _Photo(_Strict):
    created_at: When | None
    device: Annotated[str, pydantic.Field(max_length=DEVICE_LENGTH)]
    author: Annotated[str, pydantic.Field(max_length=MAX_NAME_LENGTH)] | None
    width: Count
    height: Count
    jpeg: Annotated[str, pydantic.Field(max_length=PHOTO_TEXT_LENGTH)]


class _Play(_Strict):
    game: str
    options: dict[str, Any]
    player_ids: dict[str, Count | None] | None
    state: dict[str, Any]
    version: Count
    status: str
    result: dict[str, Any] | None
    engine_version: Count | None
    created_at: When | None
    finished_at: When | None
    series: Count | None
    series_index: Count | None
    edits: list[_Edit]
    results: list[_Result]
    # An export made before photos were kept has none.
    photos: list[_Photo] = []


class _Seat(_Strict):
    seat: Count
    name: str
    member: Count | None


class _Series(_Strict):
    game: str
    length: Annotated[int, pydantic.Field(strict=True, ge=1, le=caps.MAX_PLAYS_PER_TABLE)]
    created_at: When | None


class _Species(_Strict):
    species: Annotated[str, pydantic.Field(min_length=1, max_length=MAX_NAME_LENGTH)]
    side: str
    rule: dict[str, Any]
    created_at: When | None


class _Table(_Strict):
    created_at: When
    last_used_at: When
    version: Count
    players: list[_Seat]
    series: list[_Series]
    species: list[_Species]
    plays: list[_Play]


class _Member(_Strict):
    name: str
    active: pydantic.StrictBool
    created_at: When | None


class _Group(_Strict):
    name: str
    created_at: When | None
    players: list[_Member]
    tables: list[_Table]


def depth_problem(document: Any) -> str | None:
    """Whether the document nests deeper than an export ever does (walked without
    recursion, so any depth is measured safely)."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"The file nests deeper than {MAX_DEPTH} levels: it is not an export."
        if isinstance(node, dict):
            stack.extend((item, depth + 1) for item in node.values())
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
    return None


def refusals(kind: str, document: Mapping[str, Any]) -> list[str]:
    """Every reason the export's body cannot be recreated (at most :data:`MAX_LINES`)."""
    found = list(_body_problems(kind, document))
    if len(found) > MAX_LINES:
        more = len(found) - MAX_LINES
        found = [*found[:MAX_LINES], f"... and {more} more problems."]
    return found


def _body_problems(kind: str, document: Mapping[str, Any]) -> Iterator[str]:
    if kind in ("play", "table"):
        yield from _checked_table(document.get("table"), "table", members=None)
    elif kind == "group":
        yield from _checked_group(document.get("group"), "group")
    else:  # everything
        for name in ("groups", "tables"):
            if not isinstance(document.get(name), list):
                yield f"{name}: a list is missing here."
                return
        for index, group in enumerate(document["groups"]):
            yield from _checked_group(group, f"groups[{index}]")
        for index, table in enumerate(document["tables"]):
            yield from _checked_table(table, f"tables[{index}]", members=None)


def _shape(model: type[M], data: Any, where: str, problems: list[str]) -> M | None:
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as error:
        for item in error.errors(include_url=False, include_input=False):
            place = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"])
            problems.append(f"{where}{place}: {item['msg']}.")
        return None


def _checked_group(data: Any, where: str) -> Iterator[str]:
    problems: list[str] = []
    group = _shape(_Group, _without_tables(data), where, problems)
    yield from problems
    if group is None:
        return
    for problem in _name_problem(group.name, GROUP_NAME_LENGTH, "The group's name"):
        yield f"{where}.name: {problem}"
    if len(group.players) > caps.MAX_GROUP_MEMBERS:
        yield f"{where}.players: {caps.too_many_members()}"
    seen: set[str] = set()
    for index, member in enumerate(group.players):
        for problem in _name_problem(member.name, MAX_NAME_LENGTH, "A name"):
            yield f"{where}.players[{index}].name: {problem}"
        folded = member.name.strip().casefold()
        if folded in seen:
            yield f'{where}.players[{index}].name: Two members are called "{member.name}".'
        seen.add(folded)
    tables = data["tables"]
    if len(tables) > caps.MAX_GROUP_TABLES:
        yield f"{where}.tables: {caps.too_many_tables()}"
        return
    if _photos_in(tables) > caps.MAX_PHOTOS_PER_GROUP:
        yield f"{where}.tables: {caps.too_many_photos_per_group()}"
    for index, table in enumerate(tables):
        yield from _checked_table(table, f"{where}.tables[{index}]", members=len(group.players))


def _photos_in(tables: Sequence[Any]) -> int:
    """How many photos the plays of these tables (as exported) hold, counted before any
    is read: what is not a list counts nothing (its own check says what is wrong)."""
    return sum(
        len(play["photos"])
        for table in tables
        if isinstance(table, dict) and isinstance(table.get("plays"), list)
        for play in table["plays"]
        if isinstance(play, dict) and isinstance(play.get("photos"), list)
    )


def _without_tables(data: Any) -> Any:
    """The group without its tables (checked one by one, each with its own place)."""
    if isinstance(data, dict) and isinstance(data.get("tables"), list):
        return {**data, "tables": []}
    return data


def _name_problem(name: str, most: int, what: str) -> list[str]:
    try:
        checked_name(name, most=most, what=what)
    except GroupRefused as refused:
        return [str(refused)]
    return []


def _checked_table(data: Any, where: str, *, members: int | None) -> Iterator[str]:
    problems: list[str] = []
    table = _shape(_Table, data, where, problems)
    yield from problems
    if table is None:
        return
    seats = sorted(p.seat for p in table.players)
    if seats != list(range(len(seats))):
        yield f"{where}.players: the seats must be 0, 1, 2... each once."
    if not 1 <= len(seats) <= MAX_PLAYERS_AT_TABLE:
        yield f"{where}.players: A table seats 1 to {MAX_PLAYERS_AT_TABLE} players."
        return
    names = [p.name for p in table.players]
    for problem in name_problems(names, path=lambda i: f"{where}.players[{i}].name"):
        yield f"{problem.path}: {problem.message}"
    for index, player in enumerate(table.players):
        yield from _member_problem(player.member, members, f"{where}.players[{index}].member")
    for index, series in enumerate(table.series):
        yield from _game_problem(series.game, f"{where}.series[{index}].game")
    yield from _species_problems(table.species, where)
    if len(table.plays) > caps.MAX_PLAYS_PER_TABLE:
        yield f"{where}.plays: {caps.too_many_plays()}"
        return
    if sum(len(play.photos) for play in table.plays) > caps.MAX_PHOTOS_PER_TABLE:
        yield f"{where}.plays: {caps.too_many_photos_per_table()}"
        return
    for index, play in enumerate(table.plays):
        if len(play.edits) > caps.MAX_EDITS_PER_PLAY + caps.STATUS_CHANGES_PAST_CAP:
            yield f"{where}.plays[{index}].edits: {caps.too_many_edits()}"
            continue
        yield from _play_problems(
            play, f"{where}.plays[{index}]", names=names, series=len(table.series)
        )
        for row, result in enumerate(play.results):
            place = f"{where}.plays[{index}].results[{row}]"
            yield from _member_problem(result.member, members, f"{place}.member")
        yield from _photo_problems(play.photos, f"{where}.plays[{index}].photos")


def _photo_problems(photos: Sequence[_Photo], where: str) -> Iterator[str]:
    """A play's photos: at most its cap, each a photo the app would keep (decoded under
    the same caps as a photo a phone sends)."""
    if len(photos) > caps.MAX_PHOTOS_PER_PLAY:
        yield f"{where}: {caps.too_many_photos_per_play()}"
        return
    for index, photo in enumerate(photos):
        if photo.author is not None and hidden_character(photo.author) is not None:
            yield f"{where}[{index}].author: a name has no invisible characters."
        try:
            photo_images.restored(photo_images.from_base64(photo.jpeg))
        except ValueError:
            yield f"{where}[{index}].jpeg: this is not base64 text."
        except photo_images.PhotoRefused as refused:
            yield f"{where}[{index}].jpeg: {refused.message}"


def _member_problem(member: int | None, members: int | None, where: str) -> Iterator[str]:
    if member is None:
        return
    if members is None or member >= members:
        yield f"{where}: there is no member {member} in this group."


def _game_problem(slug: str, where: str) -> Iterator[str]:
    if slug not in GAMES:
        yield f"{where}: this app does not know the game {slug!r}."


def _species_problems(species: Sequence[_Species], where: str) -> Iterator[str]:
    seen: set[tuple[str, str]] = set()
    for index, definition in enumerate(species):
        place = f"{where}.species[{index}]"
        if hidden_character(definition.species) is not None:
            yield f"{place}.species: a species name has no invisible characters."
        if definition.side not in SIDE_LETTERS:
            yield f"{place}.side: a side is one of {', '.join(sorted(SIDE_LETTERS))}."
        key = (definition.species, definition.side)
        if key in seen:
            yield f"{place}: this side is defined twice."
        seen.add(key)
        problems: list[str] = []
        _shape(SideRule, definition.rule, f"{place}.rule", problems)
        yield from problems


def _play_problems(play: _Play, where: str, *, names: Sequence[str], series: int) -> Iterator[str]:
    if play.game not in GAMES:
        yield f"{where}.game: this app does not know the game {play.game!r}."
        return
    game = GAMES[play.game]
    seats = len(names)
    for problem in game.validate(play.state):
        yield f"{where}.state.{problem.path}: {problem.message}"
    yield from _options_problems(play, where, names)
    if play.result is not None:
        problems: list[str] = []
        _shape(_Scored, play.result, f"{where}.result", problems)
        yield from problems
    if play.status not in {s.value for s in PlayStatus}:
        yield f"{where}.status: a play is active or finished."
    if play.series is not None and play.series >= series:
        yield f"{where}.series: there is no series {play.series} at this table."
    for name, seat in (play.player_ids or {}).items():
        if seat is not None and seat >= seats:
            yield f"{where}.player_ids.{name}: there is no seat {seat} at this table."
    current = play.engine_version == game.engine_version and play.result is not None
    if current and play.result != stored_result_json(game, play.state):
        yield f"{where}.result: it is not what the engine gives for this state."
    yield from _edit_problems(play.edits, where)


def _options_problems(play: _Play, where: str, names: Sequence[str]) -> Iterator[str]:
    """The options must start a game as the options page would (Play again reuses them)."""
    game = GAMES[play.game]
    if not game.min_players <= len(names) <= game.max_players:
        return  # the state's own check says what is wrong
    try:
        game.new_state([name.strip() for name in names], play.options)
    except InvalidStateError as invalid:
        for problem in invalid.problems:
            yield f"{where}.options: {problem.message}"
    except (TypeError, ValueError, LookupError, AttributeError):
        yield f"{where}.options: these are not options of {game.name}."


def _edit_problems(edits: Sequence[_Edit], where: str) -> Iterator[str]:
    kinds = {k.value for k in EditKind}
    numbers = [e.number for e in edits]
    if numbers != list(range(1, len(numbers) + 1)):
        yield f"{where}.edits: the edits must be numbered 1, 2, 3..."
    for index, edit in enumerate(edits):
        place = f"{where}.edits[{index}]"
        if edit.kind not in kinds:
            yield f"{place}.kind: an edit is one of {', '.join(sorted(kinds))}."
        if edit.author is not None and hidden_character(edit.author) is not None:
            yield f"{place}.author: a name has no invisible characters."
