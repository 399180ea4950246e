"""Oddland operations on a stored play: paint and clear spaces, place and remove tokens,
scoreboard points, species sides and definitions, and play-along turns.

Each operation is one edit of the play's log (through :func:`plays.replace_value`), built
on the freshest stored state: the phone says what it saw of the *one thing* it changes
(a space's terrain, a species' points, how many cards were laid), so two phones painting
different spaces of one row never clash, while a stale change of the same space is
refused with :class:`plays.EditConflict`. Services are the only layer that commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pydantic
from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from companion.extensions import db
from companion.games import grid
from companion.games import oddland as engine
from companion.games.grid import cells_from
from companion.games.oddland.species import SideRule, Terrain, species_name, terrain_name
from companion.games.problems import InvalidStateError, Problem
from companion.games.readings import readings_json
from companion.games.text import _, ngettext
from companion.models import Edit, Play, SpeciesDefinition, Table, utcnow
from companion.services import plays

Cell = grid.Cell
place_name = grid.place_name
EMPTY_MARK = engine.EMPTY_MARK


# --- reading the stored state ---------------------------------------------------------


#: Whether the play is entered card by card: the engine says (its map is built from cards).
is_play_along = engine.GAME.is_play_along


def terrain_at(rows: Sequence[str], cell: Cell) -> str:
    """The letter at a position, ``.`` where there is no card (also off the map)."""
    r, c = cell
    if 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] not in engine.EMPTY:
        return rows[r][c]
    return EMPTY_MARK


def token_index_at(tokens: Sequence[Mapping[str, Any]], cell: Cell) -> int | None:
    """The index of the token lying on a position, if any."""
    for index, token in enumerate(tokens):
        if any(tuple(pos) == cell for pos in token["cells"]):
            return index
    return None


def _terrain_word(letter: str) -> str:
    return terrain_name(Terrain(letter)) if letter != EMPTY_MARK else _("empty")


def _token_words(token: Mapping[str, Any]) -> str:
    # TRANSLATORS: a player's species token: "Ann's Begator".
    return _(
        "%(player)s's %(species)s", player=token["player"], species=species_name(token["species"])
    )


# --- conflicts ------------------------------------------------------------------------


def _conflict(path: str, current: Any, what: str, now: str) -> plays.EditConflict:
    return plays.EditConflict(
        path,
        current,
        # TRANSLATORS: "what" names a space ("row 1, col 2"), points or the map; "now" what
        # it holds now ("forest", "3", "4 cards").
        _(
            "Someone changed %(what)s at the same time: it is now %(now)s. Try again.",
            what=what,
            now=now,
        ),
    )


def _cards_conflict(cards: Sequence[Any]) -> plays.EditConflict:
    """Another phone laid or took back a card of a play-along game first."""
    count = ngettext("%(num)s card", "%(num)s cards", len(cards))
    return _conflict("cards", cards, _("the map"), count)


# --- painting the map -----------------------------------------------------------------


def paint(
    play: Play, *, cell: Cell, terrain: str | None, base: str | None, author: plays.Author
) -> Edit | None:
    """Set a space's terrain (``None`` clears it); ``base`` is the letter the phone showed.

    A space above or left of the map shifts every position down or right: the map and
    its tokens then move together in one edit (one undo puts them back).
    """
    if terrain is not None and terrain not in engine.TERRAIN_LETTERS:
        raise plays.EditRefused([Problem("map", _("Pick forest, shore, water or mountain."))])
    plays.read_again(play)
    _refuse_play_along(play.state)
    state = play.state
    _check_base(state["map"], cell, base)
    if terrain is None:
        return _clear(play, cell=cell, base=base, author=author)
    shift = grid.shift_for([cell])
    if shift != (0, 0):
        return _paint_shifted(play, cell=cell, terrain=terrain, shift=shift, author=author)
    if cell[0] < len(state["map"]):
        path = f"map[{cell[0]}]"
        return plays.update_value(
            play,
            path=path,
            build=lambda row: _row_with(row, cell, terrain, base, path),
            author=author,
        )
    return plays.update_value(
        play,
        path="map",
        build=lambda rows: _rows_with(rows, cell, terrain, base),
        author=author,
    )


#: A map card's four spaces from its top-left one, in the order its terrains are given.
CARD_OFFSETS: tuple[Cell, ...] = ((0, 0), (0, 1), (1, 0), (1, 1))


def paint_card(
    play: Play, *, top_left: Cell, terrains: Sequence[str], author: plays.Author
) -> Edit | None:
    """Lay a whole map card: the terrains of its top-left, top-right, bottom-left and
    bottom-right spaces, its top-left space at ``top_left``, as one edit (one undo).

    Spaces it covers take its terrains (painting corrects them later); a card above or
    left of the map moves every space and token down or right, as painting one does.
    """
    if len(terrains) != len(CARD_OFFSETS) or any(
        t not in engine.TERRAIN_LETTERS for t in terrains
    ):
        raise plays.EditRefused(
            [
                Problem(
                    "map", _("Pick forest, shore, water or mountain for each space of the card.")
                )
            ]
        )
    plays.read_again(play)
    _refuse_play_along(play.state)
    cells = [grid.step(top_left, offset) for offset in CARD_OFFSETS]
    shift = grid.shift_for(cells)
    rows, tokens = play.state["map"], play.state["tokens"]
    new_rows = shifted_rows(rows, shift) if shift != (0, 0) else list(rows)
    for cell, terrain in zip(cells, terrains, strict=True):
        new_rows = _rows_with(new_rows, grid.step(cell, shift), terrain, None)
    changes: list[tuple[str, Any, Any]] = [("map", new_rows, rows)]
    if shift != (0, 0):
        changes.append(("tokens", shifted_tokens(tokens, shift), tokens))
    return plays.replace_values(play, changes=changes, author=author)


def _refuse_play_along(state: Mapping[str, Any]) -> None:
    if is_play_along(state):
        raise plays.EditRefused(
            [Problem("map", _("In a play-along game the map grows card by card."))]
        )


def _check_base(rows: Sequence[str], cell: Cell, base: str | None) -> None:
    if base is None:
        return
    now = terrain_at(rows, cell)
    if now != base:
        raise _conflict("map", now, place_name(cell), _terrain_word(now))


def _row_with(row: str, cell: Cell, terrain: str, base: str | None, path: str) -> str:
    c = cell[1]
    now = row[c] if c < len(row) and row[c] not in engine.EMPTY else EMPTY_MARK
    if base is not None and now != base:
        raise _conflict(path, row, place_name(cell), _terrain_word(now))
    padded = row.ljust(c + 1, EMPTY_MARK)
    return padded[:c] + terrain + padded[c + 1 :]


def _rows_with(rows: list[str], cell: Cell, terrain: str, base: str | None) -> list[str]:
    _check_base(rows, cell, base)
    grown = rows + [""] * (cell[0] + 1 - len(rows))
    grown[cell[0]] = _row_with(grown[cell[0]], cell, terrain, None, "map")
    return grown


def shifted_rows(rows: Sequence[str], shift: Cell) -> list[str]:
    """Rows moved down and right by a :func:`grid.shift_for` shift (``.`` before every row
    that has spaces).

    >>> shifted_rows(["FS", ""], (1, 1))
    ['', '.FS', '']
    """
    down, right = shift
    moved = [(EMPTY_MARK * right + row) if row.strip(".") else row for row in rows]
    return [""] * down + moved


def shifted_tokens(tokens: Sequence[Mapping[str, Any]], shift: Cell) -> list[dict[str, Any]]:
    """Tokens moved with the map."""
    return [
        {
            **token,
            "cells": [list(cell) for cell in grid.shifted(cells_from(token["cells"]), shift)],
        }
        for token in tokens
    ]


def _paint_shifted(
    play: Play, *, cell: Cell, terrain: str, shift: Cell, author: plays.Author
) -> Edit | None:
    """Grow the map above or left: every space and token moves, all in one edit."""
    moved = grid.step(cell, shift)
    tokens = play.state["tokens"]
    rows = play.state["map"]
    new_rows = _rows_with(shifted_rows(rows, shift), moved, terrain, None)
    changes = [("map", new_rows, rows), ("tokens", shifted_tokens(tokens, shift), tokens)]
    return plays.replace_values(play, changes=changes, author=author)


def _clear(play: Play, *, cell: Cell, base: str | None, author: plays.Author) -> Edit | None:
    held = token_index_at(play.state["tokens"], cell)
    if held is not None:
        token = play.state["tokens"][held]
        raise plays.EditRefused(
            [
                Problem(
                    "map",
                    _(
                        "Row %(row)s, col %(col)s holds %(token)s: remove the token before"
                        " clearing its space.",
                        row=cell[0] + 1,
                        col=cell[1] + 1,
                        token=_token_words(token),
                    ),
                )
            ]
        )
    if terrain_at(play.state["map"], cell) == EMPTY_MARK:
        return None
    path = f"map[{cell[0]}]"

    def build(row: str) -> str:
        now = row[cell[1]] if cell[1] < len(row) else EMPTY_MARK
        if base is not None and now != base:
            raise _conflict(path, row, place_name(cell), _terrain_word(now))
        return (row[: cell[1]] + EMPTY_MARK + row[cell[1] + 1 :]).rstrip(EMPTY_MARK)

    return plays.update_value(play, path=path, build=build, author=author)


# --- tokens ---------------------------------------------------------------------------


def place_token(
    play: Play, *, player: str, species: str, cells: Sequence[Cell], author: plays.Author
) -> Edit | None:
    """Put a token on one space (two adjacent ones for a two-space species)."""
    _refuse_play_along(play.state)
    if player not in _player_names(play.state):
        raise plays.EditRefused(
            [Problem("tokens", _('"%(name)s" is not one of the players.', name=player))]
        )

    def build(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for cell in cells:
            if terrain_at(play.state["map"], cell) == EMPTY_MARK:
                raise plays.EditRefused(
                    [
                        Problem(
                            "tokens",
                            _(
                                "Paint %(place)s first: a token lies on a space.",
                                place=place_name(cell),
                            ),
                        )
                    ]
                )
            held = token_index_at(tokens, cell)
            if held is not None:
                raise plays.EditRefused(
                    [
                        Problem(
                            "tokens",
                            _(
                                "Row %(row)s, col %(col)s already holds %(token)s.",
                                row=cell[0] + 1,
                                col=cell[1] + 1,
                                token=_token_words(tokens[held]),
                            ),
                        )
                    ]
                )
        token = {"player": player, "species": species, "cells": [list(c) for c in cells]}
        return [*tokens, token]

    return plays.update_value(play, path="tokens", build=build, author=author)


def remove_token(play: Play, *, cell: Cell, author: plays.Author) -> Edit | None:
    """Take the token off a space (both spaces of a two-space token)."""
    _refuse_play_along(play.state)

    def build(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
        held = token_index_at(tokens, cell)
        if held is None:
            raise plays.EditRefused(
                [Problem("tokens", _("No token lies on %(place)s.", place=place_name(cell)))]
            )
        return tokens[:held] + tokens[held + 1 :]

    return plays.update_value(play, path="tokens", build=build, author=author)


def _player_names(state: Mapping[str, Any]) -> list[str]:
    return [str(name) for name in state["players"]]


# --- scoreboard, sides, definitions ---------------------------------------------------


def set_points(
    play: Play,
    *,
    values: Mapping[tuple[str, str], int | None],
    bases: Mapping[tuple[str, str], int | None],
    author: plays.Author,
) -> Edit | None:
    """Write scoreboard points: ``(player, species) -> points`` (``None`` erases), as one
    edit. Only entries that differ from ``bases`` (what the phone showed) are written, and
    each must still be what the phone showed."""
    changed = {key: value for key, value in values.items() if bases.get(key) != value}

    def build(points: dict[str, dict[str, int | None]]) -> dict[str, dict[str, int | None]]:
        for (player, species), value in changed.items():
            now = points.get(player, {}).get(species)
            if now != bases.get((player, species)) and now != value:
                shown = _("nothing") if now is None else str(now)
                what = _(
                    "%(player)s's %(species)s points",
                    player=player,
                    species=species_name(species),
                )
                raise _conflict("points", points, what, shown)
            entries = points.setdefault(player, {})
            if value is None:
                entries.pop(species, None)
            else:
                entries[species] = value
        return {player: entries for player, entries in points.items() if entries}

    if not changed:
        return None
    return plays.update_value(play, path="points", build=build, author=author)


def set_side(play: Play, *, species: str, side: str | None, author: plays.Author) -> Edit | None:
    """Choose the side of a species card in play (``None``: not in play)."""

    def build(sides: dict[str, str | None]) -> dict[str, str | None]:
        if side is None:
            sides.pop(species, None)
        else:
            sides[species] = side
        return sides

    return plays.update_value(play, path="sides", build=build, author=author)


def saved_definitions(table: Table) -> dict[str, dict[str, dict[str, Any]]]:
    """The species sides this table defined, as a score request's ``definitions``."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    rows = db.session.scalars(
        select(SpeciesDefinition)
        .where(SpeciesDefinition.table_id == table.id)
        .order_by(SpeciesDefinition.id)
    )
    for row in rows:
        found.setdefault(row.species, {})[row.side] = row.rule
    return found


def save_definition(
    play: Play, *, species: str, side: str, rule: SideRule, author: plays.Author
) -> Edit | None:
    """Define how a species side scores: used by this game at once and saved for the table."""
    stored = rule.model_dump(mode="json", exclude_defaults=True)
    stored["points"] = rule.points  # always written, even when it is the default 0

    def build(definitions: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        definitions.setdefault(species, {})[side] = stored
        return definitions

    def keep_for_table() -> None:
        _upsert_definition(play.table_id, species, side, stored)

    return plays.update_value(
        play, path="definitions", build=build, author=author, along=keep_for_table
    )


def forget_definition(play: Play, *, species: str, side: str, author: plays.Author) -> Edit | None:
    """Drop a side's definition from this game and from the table."""

    def build(definitions: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        definitions.get(species, {}).pop(side, None)
        return {key: sides for key, sides in definitions.items() if sides}

    def forget_for_table() -> None:
        db.session.execute(
            delete(SpeciesDefinition).where(
                SpeciesDefinition.table_id == play.table_id,
                SpeciesDefinition.species == species,
                SpeciesDefinition.side == side,
            )
        )

    return plays.update_value(
        play, path="definitions", build=build, author=author, along=forget_for_table
    )


def _upsert_definition(table_id: int, species: str, side: str, rule: dict[str, Any]) -> None:
    """Insert the table's definition, or update it when another phone saved it first: one
    statement, so two phones saving at once never collide on the unique key."""
    dialect = db.session.get_bind().dialect.name
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(SpeciesDefinition).values(
        table_id=table_id, species=species, side=side, rule=rule, created_at=utcnow()
    )
    db.session.execute(
        statement.on_conflict_do_update(
            index_elements=["table_id", "species", "side"], set_={"rule": rule}
        )
    )


# --- play-along -----------------------------------------------------------------------


def board(state: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The map rows and tokens of a play (a play-along game builds them from its cards)."""
    if not is_play_along(state) or not state["cards"]:
        return list(state["map"]), list(state["tokens"])
    turns = [engine.TurnModel.model_validate(turn) for turn in state["cards"]]
    rows, tokens, _ = engine.replay(turns, players=state["players"])
    return rows, [token.to_json() for token in tokens]


def check_turn(state: Mapping[str, Any], turn: Mapping[str, Any]) -> list[Problem]:
    """Every rule the next turn breaks (``card``/``token`` paths), without storing it."""
    rows, tokens = board(state)
    try:
        model = engine.TurnModel.model_validate(turn)
    except pydantic.ValidationError:
        return [Problem("card", _("Enter the card's four terrains and where it goes."))]
    placed = [engine.Token(t["player"], t["species"], cells_from(t["cells"])) for t in tokens]
    laid = [engine.TurnModel.model_validate(t) for t in state.get("cards", [])]
    number = len(laid)
    wrong = engine.turn_token_problem(number, has_token=model.token is not None)
    # The stored path names the card; next to the form it is the turn's token.
    setup = [Problem("token", wrong.message, rule=wrong.rule)] if wrong is not None else []
    setup += [
        Problem("token.player", p.message, rule=p.rule)
        for p in engine.turn_order_problems([*laid, model], state["players"])
        if p.path.startswith(f"cards[{number}].")
    ]
    card, _token, unread = engine.read_turn(model)
    if not unread:  # the second set-up card lies beside the first (the map: that card)
        setup += engine.second_card_problems(engine.map_spaces(rows), card.at)
    try:
        return setup + engine.check_turn(rows, model, tokens=placed, players=state["players"])
    except InvalidStateError as invalid:
        return setup + invalid.problems


def turn_readings(
    state: Mapping[str, Any], turn: Mapping[str, Any], problems: Sequence[Problem]
) -> list[dict[str, str]]:
    """The app's readings the verdict on the next turn rests on (as the API lists them):
    a second set-up card shifted beside the first, a two-space token, and those of the
    ``problems`` :func:`check_turn` found."""
    try:
        model = engine.TurnModel.model_validate(turn)
    except pydantic.ValidationError:
        return readings_json(problem.reading for problem in problems)
    card, token, unread = engine.read_turn(model)
    if unread:
        return readings_json(problem.reading for problem in problems)
    rows, _tokens = board(state)
    return readings_json(
        engine.placement_readings(rows, card=card, token=token, problems=problems)
    )


def play_turn(
    play: Play, *, turn: Mapping[str, Any], laid: int, author: plays.Author
) -> Edit | None:
    """Lay the next card and its token; ``laid`` is how many cards the phone showed."""
    if not is_play_along(play.state):
        raise plays.EditRefused([Problem("cards", _("This game was not started as play-along."))])

    def build(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(cards) != laid:
            raise _cards_conflict(cards)
        problems = check_turn(play.state, turn)
        if problems:
            raise plays.EditRefused(problems)
        return [*cards, dict(turn)]

    return plays.update_value(play, path="cards", build=build, author=author)


def undo_turn(play: Play, *, laid: int, author: plays.Author) -> Edit | None:
    """Take back the last card laid (and its token)."""
    if not is_play_along(play.state):
        raise plays.EditRefused([Problem("cards", _("This game was not started as play-along."))])

    def build(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(cards) != laid:
            raise _cards_conflict(cards)
        if not cards:
            raise plays.EditRefused([Problem("cards", _("No card has been laid yet."))])
        return cards[:-1]

    return plays.update_value(play, path="cards", build=build, author=author)
