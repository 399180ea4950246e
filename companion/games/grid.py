"""Grids of spaces: cells, neighbours, connected components, growing, and places in words.

A cell is a ``(row, col)`` pair counted from 0, as JSON positions are; sentences count
from 1 ("row 1, col 2"). Oddland's map is such a grid, and so is OddVille's city.

>>> spaces = {(0, 0): "F", (0, 1): "F", (1, 1): "W", (1, 0): "F"}
>>> components(spaces, spaces.__getitem__)
[((0, 0), (0, 1), (1, 0)), ((1, 1),)]
>>> neighbours((0, 0))
((-1, 0), (0, -1), (0, 1), (1, 0))
>>> shift_for([(-2, 1)]), place_name((0, 1))
((2, 0), 'row 1, col 2')
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from companion.games.text import _

Cell = tuple[int, int]

T = TypeVar("T")

#: The four orthogonal steps, in reading order: up, left, right, down.
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
#: The 3x3 block around a cell, the cell included, in reading order.
BLOCK: tuple[Cell, ...] = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def step(cell: Cell, offset: Cell) -> Cell:
    """The cell ``offset`` away.

    >>> step((2, 3), (-1, 1))
    (1, 4)
    """
    return (cell[0] + offset[0], cell[1] + offset[1])


def cells_from(pairs: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
    """Cells from JSON positions (``[row, col]`` lists).

    >>> cells_from([[0, 1], [2, 3]])
    ((0, 1), (2, 3))
    """
    return tuple((pair[0], pair[1]) for pair in pairs)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four cells sharing an edge with ``cell``, in reading order.

    >>> neighbours((1, 1))
    ((0, 1), (1, 0), (1, 2), (2, 1))
    """
    r, c = cell  # spelled out, not built from ORTHOGONAL: every map analysis calls it a lot
    return ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))


def block(cell: Cell) -> tuple[Cell, ...]:
    """The 3x3 block of cells around ``cell`` (itself included), in reading order.

    >>> len(block((0, 0))), block((0, 0))[4]
    (9, (0, 0))
    """
    return tuple(step(cell, offset) for offset in BLOCK)


def components(
    cells: Collection[Cell], key: Callable[[Cell], Hashable] = lambda _cell: None
) -> list[tuple[Cell, ...]]:
    """The maximal orthogonally connected groups of cells with equal ``key``.

    Groups come in reading order of their first cell and list their cells in reading
    order; together they hold every cell exactly once. The fill is iterative, so a
    large group is fine.

    >>> components([(0, 0), (0, 2), (1, 2), (1, 0)])
    [((0, 0), (1, 0)), ((0, 2), (1, 2))]
    """
    members = set(cells)
    seen: set[Cell] = set()
    groups: list[tuple[Cell, ...]] = []
    for start in sorted(members):
        if start in seen:
            continue
        wanted = key(start)
        seen.add(start)
        group, stack = [start], [start]
        while stack:
            for nxt in neighbours(stack.pop()):
                if nxt in members and nxt not in seen and key(nxt) == wanted:
                    seen.add(nxt)
                    group.append(nxt)
                    stack.append(nxt)
        groups.append(tuple(sorted(group)))
    return groups


def lines(cells: Iterable[Cell], key: Callable[[Cell], int]) -> dict[int, tuple[Cell, ...]]:
    """Cells grouped by a line key (row, column, diagonal), each line in reading order.

    >>> lines([(1, 0), (0, 1), (0, 0)], lambda cell: cell[0])
    {0: ((0, 0), (0, 1)), 1: ((1, 0),)}
    """
    found: dict[int, list[Cell]] = {}
    for cell in sorted(cells):
        found.setdefault(key(cell), []).append(cell)
    return {k: tuple(v) for k, v in found.items()}


def shift_for(cells: Iterable[Cell]) -> Cell:
    """How far every position moves down and right so that none of ``cells`` is negative.

    A grid that grows above or left of its first row or column is renumbered this way,
    so that rows and columns start at 0 again.

    >>> shift_for([(-2, 1), (0, -1)]), shift_for([(3, 4)]), shift_for([])
    ((2, 1), (0, 0), (0, 0))
    """
    rows, cols = 0, 0
    for r, c in cells:
        rows, cols = max(rows, -r), max(cols, -c)
    return (rows, cols)


def shifted(cells: Iterable[Cell], shift: Cell) -> tuple[Cell, ...]:
    """Cells moved by a shift (see :func:`shift_for`).

    >>> shifted([(-2, 1), (0, 0)], (2, 0))
    ((0, 1), (2, 0))
    """
    return tuple(step(cell, shift) for cell in cells)


def shifted_spaces(spaces: Mapping[Cell, T], shift: Cell) -> dict[Cell, T]:
    """A mapping of cells moved by a shift.

    >>> shifted_spaces({(-1, 0): "F"}, (1, 0))
    {(0, 0): 'F'}
    """
    return {step(cell, shift): value for cell, value in spaces.items()}


def place_name(cell: Cell) -> str:
    """A cell as people say it, counting rows and columns from 1.

    >>> place_name((0, 1))
    'row 1, col 2'
    """
    # TRANSLATORS: a space of a grid (a map, a city), rows and columns counted from 1.
    return _("row %(row)s, col %(col)s", row=cell[0] + 1, col=cell[1] + 1)


def places_name(cells: Sequence[Cell]) -> str:
    """Where a group of cells in one row or column lies, counting from 1.

    >>> places_name([(0, 1)]), places_name([(2, 3), (2, 4)])
    ('row 1, col 2', 'row 3, cols 4-5')
    >>> places_name([(1, 0), (2, 0)])
    'rows 2-3, col 1'
    """
    rows = sorted({r + 1 for r, _c in cells})
    cols = sorted({c + 1 for _r, c in cells})
    if len(rows) == 1 and len(cols) == 1:
        return place_name(cells[0])
    if len(rows) == 1:
        # TRANSLATORS: spaces of a grid in one row, columns "first" to "last".
        return _("row %(row)s, cols %(first)s-%(last)s", row=rows[0], first=cols[0], last=cols[-1])
    if len(cols) == 1:
        # TRANSLATORS: spaces of a grid in one column, rows "first" to "last".
        return _("rows %(first)s-%(last)s, col %(col)s", first=rows[0], last=rows[-1], col=cols[0])
    return _(
        "rows %(first_row)s-%(last_row)s, cols %(first_col)s-%(last_col)s",
        first_row=rows[0],
        last_row=rows[-1],
        first_col=cols[0],
        last_col=cols[-1],
    )
