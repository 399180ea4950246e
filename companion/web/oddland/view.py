"""Oddland view data: the map drawn as SVG (terrain, territory outlines and sizes,
tokens, a checked card), the token facts, the species and how the app scores them, the
token supply and the next play-along turn, built for the play page's templates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import oddland as engine
from companion.games.grid import cells_from
from companion.games.oddland.species import (
    SPECIES,
    TWO_SPACE_SPECIES,
    Region,
    Side,
    SideRule,
    Terrain,
    Unit,
    describe,
    species_name,
    terrain_name,
    tokens_per_player,
)
from companion.games.oddland.state import impossible_map_problems
from companion.games.problems import InvalidStateError
from companion.games.text import N_, _, ngettext
from companion.models import Play
from companion.services import oddland as service
from companion.web.game_pages import PlayPage
from companion.web.oddland.forms import (
    CARD_FIELDS,
    CARD_SPACE_LABELS,
    CARD_SPACE_WORDS,
    CARD_SPACES,
    DEFAULT_CARD,
    DIRECTION_LABELS,
    REGION_LABELS,
    TOOL_LABELS,
    UNIT_LABELS,
    Direction,
    Tool,
)
from companion.web.oddland.palette import draft, remembered
from companion.web.svg_grid import Box, SvgGrid

#: An empty map shows this many spaces each way to start painting; they stay offered
#: (with the ring around what is painted) so the blank keeps its size until painted over.
START_EXTENT = 4
#: Empty places drawn around the map: one row or column to grow it by painting; a card of
#: the play-along game may lie entirely above or left of the map (its top-left 2 away).
RING, CARD_RING = 1, 2
#: From this many columns drawn, the map is shrunk to fit a phone's width: its letters,
#: sizes and tokens are drawn larger so that they stay readable once scaled down.
WIDE_COLUMNS = 9
#: How far beyond the drawn ring around the map a checked card is still drawn as a ghost:
#: a card sharing an edge with the map reaches at most 2 spaces beyond it. A card
#: further off could never be legal, and drawing it would stretch the grid across the
#: empty table between (a fragment of megabytes for a card far away).
GHOST_REACH = 1
PLAYER_MARK_LENGTH = 3
SPECIES_MARK_LENGTH = 2
#: Insets from a space's edges: an empty place, a checked card's space, the last card.
EMPTY_INSET, GHOST_INSET, LAST_CARD_INSET = 3, 4, 2
#: A token leaves room for the terrain letter above it.
TOKEN_PAD, TOKEN_TOP = 7, 18
#: A territory's size sits in the top-right corner of its first space.
SIZE_OFFSET = (5, 14)
#: Player colours of the stylesheet (``ol-p0`` to ``ol-p4``).
PLAYER_COLOURS = 5
#: The 2 x 2 spaces of a map card.
CARD_SIZE = 2
#: A token's text sits this far below its middle.
TOKEN_TEXT_DROP = 4

#: Short region names for the facts table on a phone (translated where shown).
REGION_SHORT: dict[Region, str] = {
    # TRANSLATORS: a short row heading of the token facts table: the token's territory.
    Region.TERRITORY: N_("Territory"),
    # TRANSLATORS: a short row heading of the token facts table: neighbouring territories.
    Region.NEIGHBORS: N_("Neighbours"),
    # TRANSLATORS: a short row heading of the token facts table: the token's row.
    Region.ROW: N_("Row"),
    # TRANSLATORS: a short row heading of the token facts table: the token's column.
    Region.COLUMN: N_("Column"),
    # TRANSLATORS: a short row heading of the token facts table: its row and column.
    Region.ROW_AND_COLUMN: N_("Row + col"),
    # TRANSLATORS: a short row heading of the token facts table: its diagonals.
    Region.DIAGONALS: N_("Diagonals"),
    # TRANSLATORS: a short row heading of the token facts table: its surrounding spaces.
    Region.SURROUNDING: N_("Surrounding"),
    # TRANSLATORS: a short row heading of the token facts table: the whole map.
    Region.MAP: N_("Whole map"),
}


def context(page: PlayPage) -> dict[str, Any]:
    """The Oddland part of the play page: the map view and the choices its forms offer.

    ``page.extra`` holds what a play-along check entered (its card is drawn as a ghost)
    and its verdict, or a definition form to show again with its error.
    """
    extra = page.extra
    laid = len(page.play.state.get("cards", []))
    entering = draft(page.play.id, laid=laid)
    proposal = extra.get("entered") if extra.get("verdict") else entering
    view = build_view(
        page.play, palette=remembered(page.play.id), proposal=proposal, seat=page.seat
    )
    view.entered = dict(extra.get("entered") or entering)
    try:
        view.place_words = _place(int(view.entered["row"]), int(view.entered["col"]))
    except (KeyError, ValueError):
        view.place_words = ""
    view.verdict = extra.get("verdict")
    view.definition = dict(extra.get("definition") or {})
    view.map_problems = _map_problems(page)
    return {
        "ol": view,
        "oddland_tools": TOOL_LABELS,
        "oddland_directions": [(d, DIRECTION_LABELS[d]) for d in Direction],
        "oddland_terrains": _terrains(),
        "oddland_card_spaces": [(name, _(words)) for name, words in CARD_SPACE_WORDS.items()],
        "oddland_setup_cards": engine.SETUP_CARDS,
        # The Card tool's spaces: field name, words inside a sentence, label of its own.
        "oddland_card_fields": [
            (field, _(CARD_SPACE_WORDS[name]), _(CARD_SPACE_LABELS[name]))
            for field, name in zip(CARD_FIELDS, CARD_SPACES, strict=True)
        ],
        "oddland_two_space": TWO_SPACE_SPECIES,
        "oddland_units": {unit: UNIT_LABELS[unit] for unit in Unit},
        "oddland_regions": REGION_LABELS,
        "oddland_species": SPECIES,
        "oddland_species_name": species_name,
        "oddland_sides": [(Side.A.value, _("Side A")), (Side.B.value, _("Side B"))],
    }


def _terrains() -> list[tuple[str, str]]:
    """Each terrain's letter and its name in the reader's language."""
    return [(t.value, terrain_name(t)) for t in Terrain]


def _map_problems(page: PlayPage) -> list[str]:
    """A finished map the 2x2 map cards cannot make, in pieces, without the set-up pair
    or too small for its tokens, said beside the map (as the API refuses it); while tokens
    are still being placed the map is likely being painted, so nothing is said yet. A
    play-along map is made of laid cards."""
    result = page.view.result or {}
    if "cards" in page.play.state or not result.get("finished"):
        return []
    rows = page.play.state.get("map", [])
    placed = len(page.play.state.get("tokens", []))
    problems = impossible_map_problems(rows, tokens=placed)
    # TRANSLATORS: a finished map the rules cannot make, then why ("Map cards are 2x2...").
    return [_("Not a table the rules allow: %(problem)s", problem=p.message) for p in problems]


@dataclass(frozen=True)
class Space:
    """One drawn position of the map (a space, or an empty place around it)."""

    r: int
    c: int
    #: The space (or the smaller mark of an empty place), and where its letter goes.
    box: Box
    letter_at: tuple[int, int]
    letter: str
    territory: int | None
    token: int | None
    label: str


@dataclass(frozen=True)
class TokenShape:
    """A token drawn on the map."""

    box: Box
    #: Where its text is centred.
    text_at: tuple[int, int]
    seat: int
    text: str
    label: str


@dataclass
class MapView:
    """Everything the entry partial draws and offers for one play."""

    play_along: bool
    tokens: list[dict[str, Any]]
    analysis: engine.MapAnalysis | None
    grid: SvgGrid
    spaces: list[list[Space]]
    outline: str
    grid_lines: str
    sizes: list[tuple[int, int, int]]
    token_shapes: list[TokenShape]
    marks: dict[str, str]
    facts: list[dict[str, Any]]
    species: list[dict[str, Any]]
    players: list[dict[str, Any]]
    palette: dict[str, str]
    summary: str
    turn: dict[str, Any] = field(default_factory=dict)
    #: The last card laid in a play-along game, outlined on the map.
    last_card: Box | None = None
    #: The species the definition form offers first (one the app cannot score yet).
    define_default: str = ""
    #: A play-along card being entered or checked, drawn over the map: (space, terrain
    #: letter or "" while not chosen), and the token's space(s) on it.
    ghost: list[tuple[Box, str]] = field(default_factory=list)
    ghost_token: list[Box] = field(default_factory=list)
    #: Where the card being entered goes, in words.
    place_words: str = ""
    #: The map is shrunk to fit a phone (larger letters, see :data:`WIDE_COLUMNS`).
    wide: bool = False
    #: What makes the finished map one the 2x2 map cards cannot make (see ``context``).
    map_problems: list[str] = field(default_factory=list)
    #: What a play-along check entered, and its verdict (legal or the rules broken).
    entered: dict[str, str] = field(default_factory=dict)
    verdict: dict[str, Any] | None = None
    #: A definition form to show again with its error.
    definition: dict[str, Any] = field(default_factory=dict)

    @property
    def row_range(self) -> range:
        """The rows drawn (the map and a ring of places around it)."""
        return self.grid.rows

    @property
    def col_range(self) -> range:
        """The columns drawn."""
        return self.grid.cols


def _marks(players: Sequence[str]) -> dict[str, str]:
    """The shortest distinct start of each name (1 to 3 letters) drawn on its tokens.

    >>> _marks(["Ann", "Alice", "Ben"])
    {'Ann': 'An', 'Alice': 'Al', 'Ben': 'B'}
    """
    marks = {}
    for name in players:
        for length in range(1, PLAYER_MARK_LENGTH + 1):
            mark = name[:length]
            others = [o for o in players if o != name]
            if not any(o[:length].casefold() == mark.casefold() for o in others):
                break
        marks[name] = mark
    return marks


def _place(r: int, c: int) -> str:
    """A position in words inside a sentence, including the ring of empty places around
    the map.

    >>> _place(0, 2), _place(-1, 0)
    ('row 1, col 3', 'new row above, col 1')
    >>> _place(3, -1), _place(-1, -1)
    ('row 4, new column left', 'new row above, new column left')
    """
    if r >= 0 and c >= 0:
        return _("row %(row)s, col %(col)s", row=r + 1, col=c + 1)
    if c >= 0:
        return _("new row above, col %(col)s", col=c + 1)
    if r >= 0:
        return _("row %(row)s, new column left", row=r + 1)
    return _("new row above, new column left")


def _place_label(r: int, c: int) -> str:
    """A position in words at the start of a label (see :func:`_place`).

    >>> _place_label(0, 2), _place_label(-1, -1)
    ('Row 1, col 3', 'New row above, new column left')
    """
    if r >= 0 and c >= 0:
        return _("Row %(row)s, col %(col)s", row=r + 1, col=c + 1)
    if c >= 0:
        return _("New row above, col %(col)s", col=c + 1)
    if r >= 0:
        return _("Row %(row)s, new column left", row=r + 1)
    return _("New row above, new column left")


def _space_label(place: str, terrain: str, token: str, card_space: str) -> str:
    """What a tap on a drawn position would touch, in words: its place, its terrain, the
    token on it and the space of the card being entered that lies there (both optional).

    >>> _space_label("Row 1, col 1", "forest", "Ann's Flora", "")
    "Row 1, col 1: forest, Ann's Flora"
    >>> _space_label("Row 1, col 1", "empty", "", "top left")
    "Row 1, col 1: empty; the new card's top left"
    """
    if token and card_space:
        return _(
            "%(place)s: %(terrain)s, %(token)s; the new card's %(space)s",
            place=place,
            terrain=terrain,
            token=token,
            space=card_space,
        )
    if token:
        return _("%(place)s: %(terrain)s, %(token)s", place=place, terrain=terrain, token=token)
    if card_space:
        return _(
            "%(place)s: %(terrain)s; the new card's %(space)s",
            place=place,
            terrain=terrain,
            space=card_space,
        )
    return _("%(place)s: %(terrain)s", place=place, terrain=terrain)


def _token_name(player: str, species: str) -> str:
    """A player's token in words.

    >>> _token_name("Ann", "sea-dragon")
    "Ann's Sea Dragon"
    """
    # TRANSLATORS: a player's species token: "Ann's Begator".
    return _("%(player)s's %(species)s", player=player, species=species_name(species))


def _listed(items: Sequence[str]) -> str:
    """Short items (a name and a count) one after the other, with commas.

    >>> _listed(["forest 4", "water 2"]), _listed([])
    ('forest 4, water 2', '')
    """
    said = items[0] if items else ""
    for item in items[1:]:
        said = _("%(items)s, %(item)s", items=said, item=item)
    return said


def _proposed_card(proposal: Mapping[str, str] | None) -> dict[tuple[int, int], str]:
    """The spaces of a play-along card being entered or checked, from the turn form (empty
    without a place; a terrain not chosen yet is "").

    >>> _proposed_card({"row": "-1", "col": "0", "top_left": "F", "top_right": "S",
    ...                 "bottom_left": "W", "bottom_right": "M"})
    {(-1, 0): 'F', (-1, 1): 'S', (0, 0): 'W', (0, 1): 'M'}
    >>> _proposed_card({"row": "2", "col": "3", "top_left": "F"})[(3, 4)]
    ''
    """
    if not proposal:
        return {}
    try:
        row, col = int(proposal.get("row", "")), int(proposal.get("col", ""))
    except ValueError:
        return {}
    if max(abs(row), abs(col)) > engine.MAX_MAP_EXTENT:
        return {}
    spaces = {}
    for name, (dr, dc) in CARD_SPACES.items():
        letter = proposal.get(name.replace("-", "_"), "")
        spaces[(row + dr, col + dc)] = letter if letter in engine.TERRAIN_LETTERS else ""
    return spaces


def _within_reach(
    ghost: Mapping[tuple[int, int], str], *, rows: tuple[int, int], cols: tuple[int, int]
) -> bool:
    """Whether every space of a ghost card lies at most :data:`GHOST_REACH` off the drawing.

    >>> _within_reach({(-2, 0): "F"}, rows=(-1, 2), cols=(-1, 2))
    True
    >>> _within_reach({(90, 0): "F"}, rows=(-1, 2), cols=(-1, 2))
    False
    """
    return all(
        rows[0] - GHOST_REACH <= r <= rows[1] + GHOST_REACH
        and cols[0] - GHOST_REACH <= c <= cols[1] + GHOST_REACH
        for r, c in ghost
    )


def build_view(
    play: Play,
    *,
    palette: Mapping[str, str],
    proposal: Mapping[str, str] | None = None,
    seat: int | str | None = None,
) -> MapView:
    """The map, tokens, facts and scoring status of a play, ready to draw.

    ``proposal`` is a play-along turn being checked: its card is drawn as a ghost.
    ``seat`` (this phone's player, when known) is the palette's first player.
    """
    state = play.state
    players = [str(p) for p in state["players"]]
    # One parse gives the map (replayed for a play-along game), tokens and scoring sides.
    try:
        table: engine.Table | None = engine.parse(state)
    except InvalidStateError:  # stored states are valid; show an empty map all the same
        table = None
    analysis = table.analysis if table is not None else None
    tokens = [t.to_json() for t in analysis.tokens] if analysis is not None else []
    spaces_at = analysis.spaces if analysis is not None else {}
    play_along = service.is_play_along(state)
    top, bottom, left, right = 0, START_EXTENT - 1, 0, START_EXTENT - 1
    if spaces_at:
        before = CARD_RING if play_along else RING
        top = min(top, min(r for r, _ in spaces_at) - before)
        bottom = max(bottom, max(r for r, _ in spaces_at) + RING)
        left = min(left, min(c for _, c in spaces_at) - before)
        right = max(right, max(c for _, c in spaces_at) + RING)
    ghost = _proposed_card(proposal) if play_along else {}
    if not _within_reach(ghost, rows=(top, bottom), cols=(left, right)):
        ghost = {}
    if ghost:
        top = min(top, *(r for r, _ in ghost))
        bottom = max(bottom, *(r for r, _ in ghost))
        left = min(left, *(c for _, c in ghost))
        right = max(right, *(c for _, c in ghost))
    grid = SvgGrid(top=top, bottom=bottom, left=left, right=right)
    ghost_names = _card_space_names(proposal) if ghost else {}
    marks = _marks(players)
    seats = {name: i for i, name in enumerate(players)}
    token_at = analysis.token_at if analysis is not None else {}
    territory_of = analysis.territory_of if analysis is not None else {}
    spaces = []
    for r in grid.rows:
        line = []
        for c in grid.cols:
            letter = spaces_at[(r, c)].value if (r, c) in spaces_at else "."
            token = token_at.get((r, c))
            what = terrain_name(Terrain(letter)) if letter != "." else _("empty")
            held = tokens[token] if token is not None else None
            on = _token_name(held["player"], held["species"]) if held is not None else ""
            label = _space_label(_place_label(r, c), what, on, ghost_names.get((r, c), ""))
            line.append(
                Space(
                    r=r,
                    c=c,
                    box=grid.box((r, c), inset=0 if letter != "." else EMPTY_INSET),
                    letter_at=grid.corner((r, c)),
                    letter=letter,
                    territory=territory_of.get((r, c)),
                    token=token,
                    label=label,
                )
            )
        spaces.append(line)
    outline, grid_lines = grid.borders({pos: territory_of[pos] for pos in spaces_at})
    sizes = []
    if analysis is not None:
        for territory in analysis.territories:
            r, c = territory.cells[0]
            x, y = grid.x(c) + grid.cell - SIZE_OFFSET[0], grid.y(r) + SIZE_OFFSET[1]
            sizes.append((x, y, territory.size))
    shapes = [_token_shape(t, seats, marks, grid) for t in tokens]
    view = MapView(
        play_along=play_along,
        tokens=tokens,
        analysis=analysis,
        grid=grid,
        spaces=spaces,
        outline=outline,
        grid_lines=grid_lines,
        sizes=sizes,
        token_shapes=shapes,
        marks=marks,
        facts=_facts(analysis),
        species=_species_status(state, table),
        players=_supply(players, tokens),
        palette=_palette_defaults(palette, state, players),
        summary=_summary(analysis),
    )
    view.wide = len(grid.cols) >= WIDE_COLUMNS
    setup = play_along and len(state["cards"]) < engine.SETUP_CARDS
    if ghost:
        view.ghost = [(grid.box(pos, inset=GHOST_INSET), letter) for pos, letter in ghost.items()]
        view.ghost_token = [] if setup else _ghost_token(proposal or {}, grid)
    if isinstance(seat, int) and seat < len(players) and "player" not in palette:
        view.palette["player"] = players[seat]
    unknown = [sp["key"] for sp in view.species if sp["scored"] == "unknown"]
    placed = [key for key in unknown if any(t["species"] == key for t in tokens)]
    view.define_default = (placed or unknown or [""])[0]
    if view.play_along:
        view.turn = _turn_defaults(state, players, grid.rows, grid.cols, bool(spaces_at))
        view.turn["card"] = _card_choices(proposal or {}, token=not setup)
        if state["cards"]:
            # The last card shifted nothing after it: a negative place became row/col 0.
            r, c = (max(0, n) for n in state["cards"][-1]["card"]["at"])
            card = [(r + dr, c + dc) for dr in range(CARD_SIZE) for dc in range(CARD_SIZE)]
            view.last_card = grid.span(card, inset=LAST_CARD_INSET)
    return view


def _card_space_names(proposal: Mapping[str, str] | None) -> dict[tuple[int, int], str]:
    """The map positions of a card being entered, with the card's space names.

    >>> _card_space_names({"row": "1", "col": "-1"})[(2, 0)]
    'bottom right'
    """
    row, col = int((proposal or {})["row"]), int((proposal or {})["col"])
    return {(row + dr, col + dc): _(CARD_SPACE_WORDS[n]) for n, (dr, dc) in CARD_SPACES.items()}


def _ghost_token(proposal: Mapping[str, str], grid: SvgGrid) -> list[Box]:
    """Where the token of a play-along card being entered lies (its space or two)."""
    row, col = int(proposal["row"]), int(proposal["col"])
    names = [proposal.get("space") or "top-left", proposal.get("second") or ""]
    return [
        grid.box((row + CARD_SPACES[n][0], col + CARD_SPACES[n][1]), inset=TOKEN_PAD)
        for n in names
        if n in CARD_SPACES
    ]


def _token_shape(
    token: Mapping[str, Any], seat: Mapping[str, int], marks: Mapping[str, str], grid: SvgGrid
) -> TokenShape:
    """A token below its spaces' terrain letter, across both spaces of a two-space one."""
    whole = grid.span(cells_from(token["cells"]))
    box = Box(
        x=whole.x + TOKEN_PAD,
        y=whole.y + TOKEN_TOP,
        width=whole.width - 2 * TOKEN_PAD,
        height=whole.height - TOKEN_TOP - TOKEN_PAD + 2,
    )
    mark = marks.get(token["player"], token["player"][:1])
    species = species_name(token["species"])[:SPECIES_MARK_LENGTH]
    return TokenShape(
        box=box,
        text_at=(box.x + box.width // 2, box.y + box.height // 2 + TOKEN_TEXT_DROP),
        seat=seat.get(token["player"], 0) % PLAYER_COLOURS,
        text=f"{mark}·{species}",
        label=_token_name(token["player"], token["species"]),
    )


def _summary(analysis: engine.MapAnalysis | None) -> str:
    if analysis is None or not analysis.spaces:
        return _("The map is empty.")
    spaces, territories = len(analysis.spaces), len(analysis.territories)
    tokens = len(analysis.tokens)
    # TRANSLATORS: the map's summary for screen readers: "Map of 12 spaces in 4
    # territories with 2 tokens." (each count is a message of its own, with its plural).
    return _(
        "Map of %(spaces)s in %(territories)s with %(tokens)s.",
        spaces=ngettext("%(num)s space", "%(num)s spaces", spaces),
        territories=ngettext("%(num)s territory", "%(num)s territories", territories),
        tokens=ngettext("%(num)s token", "%(num)s tokens", tokens),
    )


def _fact_key(species: str, cells: Sequence[tuple[int, int]]) -> str:
    """An element id for a token's facts: its species and first space (one token a space)."""
    row, col = cells[0]
    return f"{species}-{row}-{col}".replace("--", "-m")


def _facts(analysis: engine.MapAnalysis | None) -> list[dict[str, Any]]:
    """Each token's facts, worded for the facts panel."""
    if analysis is None:
        return []
    found = []
    for facts in engine.token_facts(analysis):
        token = facts.token
        found.append(
            {
                "title": _token_name(token.player, token.species),
                # Names its element while the map does not move (a live update sends
                # the facts that changed only).
                "key": _fact_key(token.species, token.cells),
                "where": engine.describe_cells(token.cells),
                "territories": _listed(
                    [
                        # TRANSLATORS: a token's territory: its terrain and size ("forest of 4").
                        _("%(terrain)s of %(size)s", terrain=terrain_name(t.terrain), size=t.size)
                        for t in facts.territories
                    ]
                ),
                "neighbors": _listed(
                    [
                        # TRANSLATORS: a neighbouring territory: its terrain and size ("forest 4").
                        _("%(terrain)s %(size)s", terrain=terrain_name(t.terrain), size=t.size)
                        for t in facts.neighbors
                    ]
                )
                or _("none"),
                "neighbor_spaces": sum(t.size for t in facts.neighbors),
                "areas": [
                    {
                        "label": _(REGION_SHORT[region]),
                        # The whole map's counts are every token's: the panel shows
                        # them once (a card laid changes them, and only them, for all).
                        "whole": region is Region.MAP,
                        "spaces": counts.spaces,
                        "tokens": counts.tokens,
                        "terrains": [counts.terrains.get(t, 0) for t in Terrain],
                        "territories": counts.territories,
                        "species": _listed(
                            [
                                # TRANSLATORS: tokens of one species in a region ("Flora 2").
                                _("%(species)s %(count)s", species=species_name(key), count=n)
                                for key, n in counts.to_json()["species"].items()
                            ]
                        ),
                    }
                    for region, counts in facts.areas.items()
                ],
            }
        )
    return found


def _species_status(state: Mapping[str, Any], table: engine.Table | None) -> list[dict[str, Any]]:
    """Species in play: side, how the app scores it, computed and typed points per player."""
    found = []
    definitions = state.get("definitions", {})
    typed = state.get("points", {})
    computed, placed = engine.computed_points(table) if table is not None else ({}, Counter())
    for key in sorted(state.get("sides", {}), key=_species_order):
        side = state["sides"][key]
        rule = definitions.get(key, {}).get(side) if side else None
        built_in = engine.BUILT_IN_RULES.get((key, Side(side))) if side else None
        if rule is not None:
            how = _("Defined by this table: %(rule)s.", rule=describe(SideRule(**rule), key))
            scored = "defined"
        elif built_in is not None:
            how, scored = _("Built in: %(rule)s.", rule=describe(built_in, key)), "built-in"
        else:
            how = _("Not known to the app: type its points in the scoreboard, or define it.")
            scored = "unknown"
        found.append(
            {
                "key": key,
                "name": species_name(key),
                "side": side,
                "how": how,
                "scored": scored,
                "tokens": placed[key],
                "cells": [
                    {
                        "player": player,
                        "seat": seat,
                        "typed": typed.get(player, {}).get(key),
                        "computed": computed.get(
                            (player, key), 0 if scored != "unknown" else None
                        ),
                        "needed": scored == "unknown"
                        and (player, key) in computed
                        and typed.get(player, {}).get(key) is None,
                    }
                    for seat, player in enumerate(state["players"])
                ],
            }
        )
    return found


def _species_order(key: str) -> tuple[int, str]:
    order = list(SPECIES)
    return (order.index(key) if key in order else len(order), key)


def _supply(players: Sequence[str], tokens: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """How many tokens each player placed, of how many."""
    count = len(players)
    placed = Counter(t["player"] for t in tokens)
    return [
        {
            "name": name,
            "seat": seat,
            "placed": placed[name],
            "total": tokens_per_player(count),
        }
        for seat, name in enumerate(players)
    ]


def _palette_defaults(
    palette: Mapping[str, str], state: Mapping[str, Any], players: Sequence[str]
) -> dict[str, str]:
    species = [k for k, side in state.get("sides", {}).items() if side]
    chosen = {
        "tool": palette.get("tool", Tool.FOREST.value),
        "player": palette.get("player", players[0] if players else ""),
        "species": palette.get("species", species[0] if species else ""),
        "direction": palette.get("direction", Direction.RIGHT.value),
    }
    chosen |= {name: palette.get(name, DEFAULT_CARD[name]) for name in CARD_FIELDS}
    if chosen["tool"] not in {t.value for t in Tool}:
        chosen["tool"] = Tool.FOREST.value
    return chosen


def _turn_defaults(
    state: Mapping[str, Any],
    players: Sequence[str],
    row_range: Sequence[int],
    col_range: Sequence[int],
    has_map: bool,
) -> dict[str, Any]:
    """Choices of the next-turn form: positions around the map, the next player."""
    laid = len(state["cards"])
    if has_map:
        rows = list(range(row_range[0] - 1, row_range[-1] + 1))
        cols = list(range(col_range[0] - 1, col_range[-1] + 1))
    else:
        rows, cols = [0], [0]
    setup = laid < engine.SETUP_CARDS
    return {
        "laid": laid,
        # The cards dealt face up to start the map: no token, nobody's turn yet.
        "setup": setup,
        "rows": rows,
        "cols": cols,
        # Below the map, at its left edge: a legal place for most cards.
        "row": row_range[-1] if has_map else 0,
        "col": col_range[0] + 1 if has_map else 0,
        "player": _next_player(state["cards"], players),
        "last": state["cards"][-1] if laid else None,
    }


def _next_player(cards: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    """Whose turn the next card is: clockwise from whoever laid the first turn's token
    (the table chooses who goes first), the first seat until then."""
    if not players:
        return ""
    first = 0
    if len(cards) > engine.SETUP_CARDS:
        owner = (cards[engine.SETUP_CARDS].get("token") or {}).get("player")
        names = [p.casefold() for p in players]
        if isinstance(owner, str) and owner.casefold() in names:
            first = names.index(owner.casefold())
    return players[(first + len(cards) - engine.SETUP_CARDS) % len(players)]


def _card_choices(entered: Mapping[str, str], *, token: bool = True) -> list[dict[str, Any]]:
    """The 2 x 2 mini-card of the turn form: each space, its terrain so far, the
    four terrains a tap on it can choose, and whether the token goes there (a set-up
    card, ``token`` false, carries none).

    >>> [(s["field"], s["letter"]) for s in _card_choices({"top_right": "W"})][:2]
    [('top_left', ''), ('top_right', 'W')]
    """
    chosen_token = entered.get("space") or "top-left"
    return [
        {
            "name": name,
            "field": name.replace("-", "_"),
            "label": _(CARD_SPACE_LABELS[name]),
            "letter": entered.get(name.replace("-", "_"), ""),
            "token": token and name in {chosen_token, entered.get("second", "")},
            "terrains": _terrains(),
        }
        for name in CARD_SPACES
    ]
