"""OddVille view data: the city as a grid of cards (owner colours, icons, letters and each
card's points in place), the palette, the Main Square's owners, characters, Resources
Board workers, who ended the game, the referee's verdict, and what makes the table one
the rules cannot produce beside the field it concerns, built for the templates."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import oddville as engine
from companion.games.oddville.facts import (
    COLOUR_NAMES,
    COLOURS,
    KINDS,
    SIDE_NAMES,
    KindFacts,
    guild_name,
)
from companion.games.oddville.state import colours_for
from companion.games.text import N_, _, ngettext
from companion.web.game_pages import PlayPage
from companion.web.oddville.forms import (
    DEFAULT_PALETTE,
    EDGE_FIELDS,
    POINT_CHOICES,
    REFEREE_TOOLS,
    SHIELD_CHOICES,
    TOOL_LABELS,
    Tool,
)
from companion.web.oddville.palette import remembered

#: Letters that mark a player's cards besides the colour.
MARK_LENGTH = 3
#: The letters a card shows for its guild (English; translated where shown).
GUILD_LETTERS = {
    # TRANSLATORS: two letters on an OddVille card for the guild Mask (its name's first two).
    "mask": N_("Ma"),
    # TRANSLATORS: two letters on an OddVille card for the guild Rooster.
    "rooster": N_("Ro"),
    # TRANSLATORS: two letters on an OddVille card for the guild Bells.
    "bells": N_("Be"),
    # TRANSLATORS: two letters on an OddVille card for the guild Lily.
    "lily": N_("Li"),
}
MOVING_KEY = "moving"
TIMES = "\u00d7"
#: The Main Square's streets: left, right and below.
MAIN_SQUARE_STREETS = "ov-st-right ov-st-bottom ov-st-left"
ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class Place:
    """One place of the grid: a card, an empty place next to the city, or nothing."""

    r: int
    c: int
    label: str
    card: Mapping[str, Any] | None = None
    open: bool = False
    icon: str = ""
    letters: str = ""
    guild: str = ""
    shield: int = 0
    marks: tuple[str, ...] = ()
    colour: str = "none"
    points: str = ""
    words: str = ""
    #: Classes drawing the card's street edges (``ov-st-top``...).
    edges: str = ""
    last: bool = False
    square: bool = False


@dataclass(frozen=True)
class PlayerRow:
    """A player as the page lists them: colour, mark, workers, points."""

    name: str
    seat: int
    colour: str
    mark: str
    in_city: int
    board: int
    on_square: bool
    score: int

    @property
    def colour_name(self) -> str:
        """The player's colour in the reader's language."""
        return _(COLOUR_NAMES[self.colour]) if self.colour in COLOUR_NAMES else self.colour

    @property
    def legend(self) -> str:
        """The player as the city's legend lists them: colour, points, workers in the city."""
        return _(
            "%(name)s (%(colour)s): %(points)s, %(workers)s",
            name=self.name,
            colour=self.colour_name,
            points=ngettext("%(num)s point", "%(num)s points", self.score),
            workers=ngettext(
                "%(num)s worker in the city", "%(num)s workers in the city", self.in_city
            ),
        )


@dataclass
class CityView:
    """Everything the OddVille templates show."""

    grid: list[list[Place]]
    players: list[PlayerRow]
    palette: dict[str, str]
    characters: list[dict[str, Any]]
    built: int
    tiebreak_words: str | None
    verdict: Mapping[str, Any] | None
    #: Where the card this phone is moving lies, in words ("" when none is picked).
    moving: str = ""
    #: The picked card's position as its button says it (``row,col``).
    moving_at: str = ""
    referee: bool = False
    warnings: list[str] = field(default_factory=list)
    #: Impossible-table problems by the part of the page they concern (see
    #: :func:`problems_by_field`): each a sentence and its rules entry.
    problems: dict[str, list[dict[str, str | None]]] = field(default_factory=dict)


def mark_of(name: str) -> str:
    """A player's short mark on a card.

    >>> mark_of("Yellow"), mark_of("Al")
    ('Yel', 'Al')
    """
    return name[:MARK_LENGTH]


def compact(words: str) -> str:
    """A card's points as they fit on the card: ``3 + 2 diamonds = 5`` -> ``3+2=5``.

    >>> compact("3 + 2 diamonds = 5"), compact("Diamond = 4"), compact("shields 1 + 2 = 3")
    ('3+2=5', '4', '1+2=3')
    """
    text = re.sub(f"[^0-9+{TIMES}=]", "", words)
    return text[1:] if text.startswith("=") else text


def _cells(city: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int], Mapping[str, Any]]:
    cells: dict[tuple[int, int], Mapping[str, Any]] = {}
    for card in city:
        at = card.get("at")
        if isinstance(at, list) and len(at) == 2:
            cells.setdefault((int(at[0]), int(at[1])), card)
    return cells


def _grid(
    state: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    colours: Mapping[str, str],
    *,
    editable: bool,
) -> list[list[Place]]:
    city = state.get("city", [])
    cells = _cells(city)
    scored = {tuple(c["at"]): c for c in (result or {}).get("cards", [])}
    rows = [r for r, _ in cells] or [0]
    cols = [c for _, c in cells] or [0]
    ring = 1 if editable else 0
    top, bottom = 0, max(rows) + ring
    left, right = min(cols) - ring, max(cols) + ring
    last = tuple(city[-1]["at"]) if city and not city[-1].get("card") else None
    grid = []
    for r in range(top, bottom + 1):
        line = []
        for c in range(left, right + 1):
            where = engine.place_words((r, c), min(cols))
            card = cells.get((r, c))
            if card is None:
                near = any(
                    (r + dr, c + dc) in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                )
                label = _("Empty place, %(place)s", place=where)
                line.append(Place(r, c, label, open=editable and near))
                continue
            line.append(_card_place(r, c, where, card, scored.get((r, c)), colours, last))
        grid.append(line)
    return grid


def _card_place(
    r: int,
    c: int,
    where: str,
    card: Mapping[str, Any],
    scored: Mapping[str, Any] | None,
    colours: Mapping[str, str],
    last: tuple[int, ...] | None,
) -> Place:
    words = str(scored["words"]) if scored else ""
    if card.get("card") == engine.MAIN_SQUARE:
        owners = [str(o) for o in card.get("owners") or []]
        marks = tuple(mark_of(o) for o in owners)
        label = _(
            "Main Square, %(place)s: %(owners)s; 4 to each owner",
            place=where,
            owners=", ".join(owners) or _("no workers"),
        )
        # One owner: their colour; several: stripes (their marks say whose).
        colour = "square" if len(owners) > 1 else colours.get("".join(owners), "none")
        return Place(
            r,
            c,
            label,
            card,
            icon="★",
            # TRANSLATORS: the letters on the Main Square's card in the OddVille city.
            letters=_("MS"),
            marks=marks,
            colour=colour,
            # TRANSLATORS: the Main Square's points on its card: 4 to each of its owners.
            points=_("4 each"),
            words=words,
            edges=MAIN_SQUARE_STREETS,
            square=True,
        )
    points = card.get("points") or {}
    kind = engine.Kind(points["kind"]) if points.get("kind") in set(engine.Kind) else None
    facts = KINDS[kind] if kind else None
    value = points.get("value")
    letters = (facts.letters if facts else "?") + (str(value) if value is not None else "")
    owner = card.get("owner")
    guild = str(card.get("guild") or "")
    shield = int(card.get("shield") or 0)
    edges = str(card.get("edges") or "")
    streets = [side for side, edge in zip(EDGE_FIELDS, edges, strict=False) if edge == "S"]
    parts = _card_words(facts, where, owner=owner, guild=guild, shield=shield)
    if len(edges) == len(EDGE_FIELDS):
        parts.append(_streets_words(streets))
    if words:
        parts.append(words)
    return Place(
        r,
        c,
        ", ".join(parts),
        card,
        icon=facts.icon if facts else "?",
        letters=letters,
        guild=_(GUILD_LETTERS[guild]) if guild in GUILD_LETTERS else "",
        shield=shield,
        marks=(mark_of(str(owner)),) if owner else (),
        colour=colours.get(str(owner), "none") if owner else "none",
        points=compact(words) if words else "",
        words=words,
        edges=" ".join(f"ov-st-{side}" for side in streets),
        last=(r, c) == last,
    )


def _card_words(
    facts: KindFacts | None, where: str, *, owner: object, guild: str, shield: int
) -> list[str]:
    """What a card is, where, whose, its guild and shield, for its button's name."""
    # TRANSLATORS: a card in the OddVille city whose victory-point type is not entered.
    parts = [_(facts.name) if facts else _("Card"), where]
    # TRANSLATORS: whose worker stands on an OddVille card ("owner none": nobody's).
    parts.append(_("owner %(player)s", player=owner) if owner else _("owner none"))
    if guild:
        parts.append(_("guild %(guild)s", guild=guild_name(guild)))
    if shield:
        parts.append(_("shield %(num)s", num=shield))
    return parts


def _streets_words(streets: Sequence[str]) -> str:
    """The edges of a card that show a street, in words (\"streets top, left\")."""
    if not streets:
        return _("no streets")
    sides = ", ".join(_(SIDE_NAMES[EDGE_FIELDS.index(side)]) for side in streets)
    # TRANSLATORS: the edges of an OddVille card that show a street ("streets top, left").
    return _("streets %(sides)s", sides=sides)


def _players(
    state: Mapping[str, Any], result: Mapping[str, Any] | None, colours: Mapping[str, str]
) -> list[PlayerRow]:
    names = [str(p) for p in state.get("players", [])]
    scores = {s["player"]: s["score"] for s in (result or {}).get("standings", [])}
    city = state.get("city", [])
    square: Mapping[str, Any] = next((c for c in city if c.get("card") == engine.MAIN_SQUARE), {})
    owners = set(square.get("owners") or [])
    rows = []
    for seat, name in enumerate(names):
        in_city = sum(1 for c in city if c.get("owner") == name) + (name in owners)
        rows.append(
            PlayerRow(
                name=name,
                seat=seat,
                colour=colours.get(name, "none"),
                mark=mark_of(name),
                in_city=in_city,
                board=int(state.get("resource_workers", {}).get(name, 0)),
                on_square=name in owners,
                score=int(scores.get(name, 0)),
            )
        )
    return rows


def _characters(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    holders = {key: name for name, keys in state.get("characters", {}).items() for key in keys}
    return [
        {
            "key": character.key,
            "name": _(character.name),
            "points": character.points,
            "power": _(character.power),
            "rule": character.rule,
            "holder": holders.get(character.key, ""),
        }
        for character in engine.CHARACTERS.values()
    ]


#: Where the page shows an impossible-table problem, by its path: the characters, who
#: ended the game, the Main Square's owners, and otherwise the city.
PROBLEM_FIELDS = (
    (re.compile(r"characters(\.|$)"), "characters"),
    (re.compile(r"ended_by$"), "ended_by"),
    (re.compile(r"city\[\d+\]\.owners$"), "square"),
)


def problems_by_field(
    state: Mapping[str, Any], result: Mapping[str, Any] | None
) -> dict[str, list[dict[str, str | None]]]:
    """The table's impossible-table problems (as the API refuses them) by the field they
    concern, with their rules entry; those entry under way passes through only once the
    game is over, as under the standings.

    >>> state = {"players": ["Ann", "Ben"], "ended_by": "Ben"}
    >>> found = problems_by_field(state, {"finished": True})
    >>> list(found), found["ended_by"][0]["rule"]
    (['ended_by'], 'oddville/game-end')
    >>> problems_by_field(state, None)
    {}
    """
    if result is None:  # not a valid table: there is nothing to check yet
        return {}
    found: dict[str, list[dict[str, str | None]]] = {}
    for problem in engine.GAME.table_problems(state):
        if problem.pending and not result.get("finished"):
            continue
        where = next((key for path, key in PROBLEM_FIELDS if path.match(problem.path)), "city")
        # TRANSLATORS: a warning under the standings; the problem is a whole sentence.
        message = _("Not a table the rules allow: %(problem)s", problem=problem.message)
        shown = {"message": message, "rule": problem.rule}
        found.setdefault(where, []).append(shown)
    return found


def _moving_words(state: Mapping[str, Any], moving: str) -> str:
    """Where the card being moved lies, in words ("" when none is picked)."""
    match = re.fullmatch(r"(-?\d+),(-?\d+)", moving)
    if match is None:
        return ""
    cells = _cells(state.get("city", []))
    at = (int(match[1]), int(match[2]))
    if at not in cells:
        return ""
    return engine.place_words(at, min(c for _, c in cells))


def city_view(
    state: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    *,
    editable: bool,
    palette: Mapping[str, str] | None = None,
    verdict: Mapping[str, Any] | None = None,
) -> CityView:
    """The view of one play's city (also for the read-only link: ``editable`` false)."""
    names = [str(p) for p in state.get("players", [])]
    colours = colours_for(
        names, {k: v for k, v in state.get("colours", {}).items() if v in COLOURS}
    )
    chosen = {**DEFAULT_PALETTE, **(palette or {})}
    tool = chosen.get("tool", Tool.PLACE.value)
    return CityView(
        grid=_grid(state, result, colours, editable=editable),
        players=_players(state, result, colours),
        palette={k: v for k, v in chosen.items() if k != MOVING_KEY},
        characters=_characters(state),
        built=len(state.get("city", [])),
        tiebreak_words=(result or {}).get("tiebreak_words"),
        verdict=verdict,
        moving=_moving_words(state, chosen.get(MOVING_KEY, "")) if tool == Tool.MOVE.value else "",
        moving_at=chosen.get(MOVING_KEY, "") if tool == Tool.MOVE.value else "",
        referee=tool in {t.value for t in REFEREE_TOOLS},
        warnings=list((result or {}).get("warnings", [])),
        problems=problems_by_field(state, result),
    )


def context(page: PlayPage) -> dict[str, Any]:
    """The OddVille part of the play page."""
    palette = remembered(page.play.id) if page.editable else {}
    verdict = page.extra.get("verdict")
    view = city_view(
        page.play.state,
        page.view.result,
        editable=page.editable,
        palette=palette,
        verdict=verdict if isinstance(verdict, Mapping) else None,
    )
    return {
        "ov": view,
        "ov_tools": {tool: _(label) for tool, label in TOOL_LABELS.items()},
        "ov_points": {
            key: (KINDS[kind], point_label(KINDS[kind], value))
            for key, (kind, value) in POINT_CHOICES.items()
        },
        "ov_guilds": {key: _(name) for key, name in engine.GUILDS.items()},
        "ov_shields": SHIELD_CHOICES,
        "ov_edges": {
            side: _(name).capitalize() for side, name in zip(EDGE_FIELDS, SIDE_NAMES, strict=True)
        },
        "ov_bonuses": {key: _(name) for key, name in engine.BONUS_NAMES.items()},
        "ov_colours": COLOURS,
    }


def point_label(facts: KindFacts, value: int | None) -> str:
    """A victory-point choice on the palette: the type and its printed value ("Diamond 5"),
    or the type's short name.

    >>> point_label(KINDS[engine.Kind.DIAMOND], 5), point_label(KINDS[engine.Kind.ROW], None)
    ('Diamond 5', '2 + row')
    """
    if value is None:
        return _(facts.short)
    # TRANSLATORS: an OddVille victory-point type and the value printed on the card.
    return _("%(kind)s %(value)s", kind=_(facts.name), value=value)
