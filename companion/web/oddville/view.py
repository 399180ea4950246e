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
from companion.games.oddville.facts import COLOURS, KINDS
from companion.games.oddville.state import colours_for
from companion.services.results import IMPOSSIBLE_TABLE
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
GUILD_LETTERS = {"mask": "Ma", "rooster": "Ro", "bells": "Be", "lily": "Li"}
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
                line.append(Place(r, c, f"Empty place, {where}", open=editable and near))
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
        label = f"Main Square, {where}: {', '.join(owners) or 'no workers'}; 4 to each owner"
        # One owner: their colour; several: stripes (their marks say whose).
        colour = "square" if len(owners) > 1 else colours.get("".join(owners), "none")
        return Place(
            r,
            c,
            label,
            card,
            icon="★",
            letters="MS",
            marks=marks,
            colour=colour,
            points="4 each",
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
    parts = [facts.name if facts else "Card", where, f"owner {owner or 'none'}"]
    if guild:
        parts.append(f"guild {engine.GUILDS.get(guild, guild)}")
    if shield:
        parts.append(f"shield {shield}")
    edges = str(card.get("edges") or "")
    streets = [side for side, edge in zip(EDGE_FIELDS, edges, strict=False) if edge == "S"]
    if len(edges) == len(EDGE_FIELDS):
        parts.append(f"streets {', '.join(streets)}" if streets else "no streets")
    if words:
        parts.append(words)
    return Place(
        r,
        c,
        ", ".join(parts),
        card,
        icon=facts.icon if facts else "?",
        letters=letters,
        guild=GUILD_LETTERS.get(guild, ""),
        shield=shield,
        marks=(mark_of(str(owner)),) if owner else (),
        colour=colours.get(str(owner), "none") if owner else "none",
        points=compact(words) if words else "",
        words=words,
        edges=" ".join(f"ov-st-{side}" for side in streets),
        last=(r, c) == last,
    )


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
            "name": character.name,
            "points": character.points,
            "power": character.power,
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
        shown = {"message": IMPOSSIBLE_TABLE + problem.message, "rule": problem.rule}
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
        "ov_tools": TOOL_LABELS,
        "ov_points": {key: (KINDS[kind], value) for key, (kind, value) in POINT_CHOICES.items()},
        "ov_guilds": engine.GUILDS,
        "ov_shields": SHIELD_CHOICES,
        "ov_edges": EDGE_FIELDS,
        "ov_bonuses": engine.BONUS_NAMES,
        "ov_colours": COLOURS,
    }
