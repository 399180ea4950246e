"""Drawing a grid of square spaces as SVG: where each space, a span of spaces, the row and
column numbers and the borders between regions go (Oddland's map; OddVille's city next).

Positions are ``(row, col)`` pairs that may be negative (places around a map that grows
above or left); the drawing starts at the grid's top-left position, after a gutter that
holds the row and column numbers (1-based; negative positions get none). Sizes are CSS
pixels. Pure geometry: the templates only copy these numbers into SVG attributes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Position = tuple[int, int]

#: A space is a comfortable tap target on a phone.
CELL = 48
#: A map wider than the phone is drawn smaller, its spaces never below this (then it
#: scrolls sideways): still a tap target, and readable with the larger letters.
MIN_CELL = 24
#: Room on the top and left for the row and column numbers.
GUTTER = 22
#: Room on the right and bottom for the outline's stroke.
MARGIN = 2
#: Text baselines: a number in the top gutter, a mark in a space's top-left corner.
GUTTER_BASELINE = 15
CORNER_TEXT = (5, 14)
#: A centred text sits this far below the middle (about half its cap height).
CENTRE_DROP = 5


@dataclass(frozen=True)
class Box:
    """A rectangle of the drawing."""

    x: int
    y: int
    width: int
    height: int

    @property
    def centre(self) -> tuple[int, int]:
        """Where a centred text goes (its baseline just below the middle)."""
        return self.x + self.width // 2, self.y + self.height // 2 + CENTRE_DROP


@dataclass(frozen=True)
class Label:
    """A row or column number in the gutter (drawn centred at ``x``)."""

    x: int
    y: int
    text: str


@dataclass(frozen=True)
class SvgGrid:
    """The geometry of rows ``top..bottom`` and columns ``left..right`` (inclusive).

    >>> grid = SvgGrid(top=-1, bottom=1, left=0, right=2)
    >>> grid.width, grid.height, grid.x(0), grid.y(-1)
    (168, 168, 22, 22)
    >>> grid.min_width
    84
    >>> grid.box((0, 1), inset=3)
    Box(x=73, y=73, width=42, height=42)
    >>> grid.span([(0, 0), (1, 1)], inset=2)
    Box(x=24, y=72, width=92, height=92)
    >>> [label.text for label in grid.labels()]
    ['1', '2', '1', '2', '3']
    """

    top: int
    bottom: int
    left: int
    right: int
    cell: int = CELL
    gutter: int = GUTTER

    @property
    def rows(self) -> range:
        """The row positions drawn, top to bottom."""
        return range(self.top, self.bottom + 1)

    @property
    def cols(self) -> range:
        """The column positions drawn, left to right."""
        return range(self.left, self.right + 1)

    @property
    def width(self) -> int:
        """The drawing's width."""
        return self.gutter + len(self.cols) * self.cell + MARGIN

    @property
    def min_width(self) -> int:
        """The narrowest the drawing may be shrunk to (spaces of :data:`MIN_CELL`)."""
        return self.width * MIN_CELL // self.cell

    @property
    def height(self) -> int:
        """The drawing's height."""
        return self.gutter + len(self.rows) * self.cell + MARGIN

    def x(self, col: int) -> int:
        """The left edge of a column."""
        return self.gutter + (col - self.left) * self.cell

    def y(self, row: int) -> int:
        """The top edge of a row."""
        return self.gutter + (row - self.top) * self.cell

    def box(self, position: Position, *, inset: int = 0) -> Box:
        """A space, ``inset`` pixels inside its edges."""
        return self.span([position], inset=inset)

    def span(self, positions: Iterable[Position], *, inset: int = 0) -> Box:
        """The smallest rectangle around some spaces, ``inset`` pixels inside its edges."""
        rows, cols = zip(*positions, strict=True)
        return Box(
            x=self.x(min(cols)) + inset,
            y=self.y(min(rows)) + inset,
            width=(max(cols) - min(cols) + 1) * self.cell - 2 * inset,
            height=(max(rows) - min(rows) + 1) * self.cell - 2 * inset,
        )

    def corner(self, position: Position) -> tuple[int, int]:
        """Where a mark in a space's top-left corner goes."""
        return self.x(position[1]) + CORNER_TEXT[0], self.y(position[0]) + CORNER_TEXT[1]

    def labels(self) -> list[Label]:
        """The row numbers down the left gutter, then the column numbers along the top."""
        half = self.cell // 2
        rows = [
            Label(self.gutter // 2, self.y(r) + half + CENTRE_DROP, str(r + 1))
            for r in self.rows
            if r >= 0
        ]
        cols = [Label(self.x(c) + half, GUTTER_BASELINE, str(c + 1)) for c in self.cols if c >= 0]
        return rows + cols

    def borders(self, region_of: Mapping[Position, object]) -> tuple[str, str]:
        """SVG path data of the spaces' edges: thick between regions (and where the spaces
        end), thin inside a region, each inner edge once.

        >>> SvgGrid(top=0, bottom=0, left=0, right=1).borders({(0, 0): "a", (0, 1): "a"})
        ('M22 22h48M22 70h48M22 22v48M70 22h48M70 70h48M118 22v48', 'M70 22v48')
        """
        thick, thin = [], []
        size = self.cell
        for (r, c), here in region_of.items():
            x, y = self.x(c), self.y(r)
            edges = (
                ((r - 1, c), f"M{x} {y}h{size}"),
                ((r + 1, c), f"M{x} {y + size}h{size}"),
                ((r, c - 1), f"M{x} {y}v{size}"),
                ((r, c + 1), f"M{x + size} {y}v{size}"),
            )
            for other, segment in edges:
                if other not in region_of or region_of[other] != here:
                    thick.append(segment)
                elif other > (r, c):  # inner edges once
                    thin.append(segment)
        return "".join(thick), "".join(thin)
