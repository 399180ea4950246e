"""The set-up pair: the 2 map cards dealt face up next to each other before any turn.

They start the map as two whole 2x2 cards sharing a side: 8 spaces. Every later card
covers at most 2 spaces and a covered space stays a space, so every map holds the pair's
8 spaces as they were dealt. In line, the pair is a full block of 2 rows of 4 spaces (4
rows of 2 seen from another side of the table). Shifted by one space along the side they
share, the cards are still next to each other: the app accepts that as its reading
(:data:`~companion.games.oddland.readings.PAIR_READING`); further off they only meet at
a corner, or not at all.

>>> pair_lie((0, 0), (0, 2)), pair_lie((0, 0), (1, 2)), pair_lie((0, 0), (0, 1))
(<PairLie.ALIGNED: 'aligned'>, <PairLie.SHIFTED: 'shifted'>, <PairLie.OVERLAPPING: 'overlapping'>)
>>> map_pair({(r, c) for r in range(2) for c in range(4)})
<PairLie.ALIGNED: 'aligned'>
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import StrEnum

from companion.games.grid import Cell, place_name
from companion.games.oddland.map import CARD_SIZE, EMPTY, SLUG
from companion.games.oddland.readings import PAIR_READING
from companion.games.problems import Problem
from companion.games.readings import Reading
from companion.games.text import _

#: The map cards laid face up at set-up, before anyone's turn: they carry no token.
SETUP_CARDS = 2
#: The spaces they make: two whole cards side by side.
SETUP_SPACES = SETUP_CARDS * CARD_SIZE * CARD_SIZE
#: The rules entry of the pair (a clarification: it explains the shifted pair).
PAIR_RULE = f"{SLUG}/setup/pair"


class PairLie(StrEnum):
    """How a second 2x2 card lies against a first one."""

    #: Beside it, sharing a whole side: together a block of 2 x 4 spaces.
    ALIGNED = "aligned"
    #: Beside it, sharing a side shifted by one space (the app's reading: next to it).
    SHIFTED = "shifted"
    #: On it, covering some of its spaces.
    OVERLAPPING = "overlapping"
    #: Apart from it, or meeting it at a corner only.
    APART = "apart"


def pair_lie(first: Cell, second: Cell) -> PairLie:
    """How a card whose top-left space is at ``second`` lies against one at ``first``.

    >>> pair_lie((3, 3), (1, 3)), pair_lie((3, 3), (5, 2)), pair_lie((0, 0), (2, 2))
    (<PairLie.ALIGNED: 'aligned'>, <PairLie.SHIFTED: 'shifted'>, <PairLie.APART: 'apart'>)
    """
    apart = sorted((abs(second[0] - first[0]), abs(second[1] - first[1])))
    if apart[1] < CARD_SIZE:
        return PairLie.OVERLAPPING
    if apart == [0, CARD_SIZE]:
        return PairLie.ALIGNED
    if apart == [1, CARD_SIZE]:
        return PairLie.SHIFTED
    return PairLie.APART


def card_cells(top_left: Cell) -> tuple[Cell, ...]:
    """The 4 spaces of a 2x2 card from its top-left one, in reading order.

    >>> card_cells((1, 2))
    ((1, 2), (1, 3), (2, 2), (2, 3))
    """
    r, c = top_left
    return tuple((r + dr, c + dc) for dr in range(CARD_SIZE) for dc in range(CARD_SIZE))


def whole_cards(spaces: Collection[Cell]) -> set[Cell]:
    """The top-left spaces of every 2x2 block of ``spaces`` (where a whole card could lie).

    >>> sorted(whole_cards({(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (0, 2)}))
    [(0, 0), (0, 1)]
    """
    present = set(spaces)
    # Spelled out rather than through card_cells: every score looks at every space.
    return {
        (r, c)
        for r, c in present
        if (r, c + 1) in present and (r + 1, c) in present and (r + 1, c + 1) in present
    }


def map_spaces(rows: Sequence[str]) -> set[Cell]:
    """The positions of a map's spaces.

    >>> sorted(map_spaces(["F.", ".W"]))
    [(0, 0), (1, 1)]
    """
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in EMPTY}


#: From a whole card's top-left, where another lies beside it, right of it or below (the
#: other two sides are the same pairs seen from the other card).
_BESIDE = {
    PairLie.ALIGNED: ((0, CARD_SIZE), (CARD_SIZE, 0)),
    PairLie.SHIFTED: ((-1, CARD_SIZE), (1, CARD_SIZE), (CARD_SIZE, -1), (CARD_SIZE, 1)),
}


def map_pair(spaces: Collection[Cell]) -> PairLie | None:
    """Whether a map holds 2 whole cards next to each other, as the set-up deals them: in
    line, shifted by one space only (the app's reading), or not at all (``None``).

    >>> map_pair({(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3)})
    <PairLie.SHIFTED: 'shifted'>
    >>> map_pair({(r, c) for r in range(3) for c in range(3)}) is None
    True
    """
    cards = whole_cards(spaces)
    for lie, offsets in _BESIDE.items():
        if any((r + dr, c + dc) in cards for r, c in cards for dr, dc in offsets):
            return lie
    return None


def lone_card(spaces: Collection[Cell]) -> Cell | None:
    """The top-left space of a map that is one whole card (the set-up under way).

    >>> lone_card({(2, 1), (2, 2), (3, 1), (3, 2)}), lone_card({(0, 0), (0, 1)})
    ((2, 1), None)
    """
    if len(spaces) != CARD_SIZE * CARD_SIZE:
        return None
    cards = whole_cards(spaces)
    return next(iter(cards)) if cards else None


def map_pair_problems(rows: Sequence[str], *, path: str = "map") -> list[Problem]:
    """A map without the set-up pair's 8 spaces (see the module). An empty map (nothing
    entered yet) and a lone card (the set-up under way) are not checked.

    >>> map_pair_problems(["FFF", "FFF", "FFF"])[0].message
    'The 2 set-up cards are dealt face up next to each other, and a covered space stays a \
space, so every map holds 2 whole cards side by side (2 rows of 4 spaces, or 4 rows of 2), \
but this one does not.'
    >>> map_pair_problems(["FFWW", "FSSW"]), map_pair_problems(["FS", "WM"])
    ([], [])
    """
    spaces = map_spaces(rows)
    if not spaces or lone_card(spaces) is not None or map_pair(spaces) is not None:
        return []
    return [
        Problem(
            path,
            _(
                "The %(setup)s set-up cards are dealt face up next to each other, and a covered"
                " space stays a space, so every map holds 2 whole cards side by side (2 rows of"
                " %(long)s spaces, or %(long)s rows of 2), but this one does not.",
                setup=SETUP_CARDS,
                long=2 * CARD_SIZE,
            ),
            rule=PAIR_RULE,
            # Painting space by space passes through such maps.
            pending=True,
        )
    ]


def map_pair_reading(spaces: Collection[Cell]) -> Reading | None:
    """The reading a map rests on when its only set-up pair is shifted.

    >>> map_pair_reading({(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3)}).id
    'oddland/setup/pair'
    """
    return PAIR_READING if map_pair(spaces) is PairLie.SHIFTED else None


def second_card_problems(
    spaces: Collection[Cell], at: Cell, *, path: str = "card.at"
) -> list[Problem]:
    """What is wrong with a card laid at ``at`` next to a map that is one card: it is the
    second set-up card, dealt whole beside the first (not on it, nor apart).

    >>> [p.message for p in second_card_problems(card_cells((0, 0)), (0, 1))]
    ['The 2 set-up cards are dealt next to each other: this second one would lie on the \
first (whose top-left is at row 1, col 1), covering some of its spaces.']
    >>> second_card_problems(card_cells((0, 0)), (0, 2)), second_card_problems(set(), (5, 5))
    ([], [])
    """
    first = lone_card(spaces)
    if first is None:
        return []
    match pair_lie(first, at):
        case PairLie.OVERLAPPING:
            message = _(
                "The %(setup)s set-up cards are dealt next to each other: this second one"
                " would lie on the first (whose top-left is at %(place)s), covering some of its"
                " spaces.",
                setup=SETUP_CARDS,
                place=place_name(first),
            )
        case PairLie.APART:
            message = _(
                "The %(setup)s set-up cards are dealt next to each other: this second one must"
                " share a side with the first (whose top-left is at %(place)s), its top-left"
                " %(step)s spaces right, left, above or below the first's.",
                setup=SETUP_CARDS,
                place=place_name(first),
                step=CARD_SIZE,
            )
        case _:
            return []
    return [Problem(path, message, rule=PAIR_RULE)]


def second_card_reading(spaces: Collection[Cell], at: Cell) -> Reading | None:
    """The reading a second set-up card at ``at`` rests on: shifted beside the first.

    >>> second_card_reading(card_cells((0, 0)), (1, 2)).id
    'oddland/setup/pair'
    >>> second_card_reading(card_cells((0, 0)), (0, 2)) is None
    True
    """
    first = lone_card(spaces)
    if first is None or pair_lie(first, at) is not PairLie.SHIFTED:
        return None
    return PAIR_READING
