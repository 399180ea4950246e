"""Properties of the shared grid module (Oddland's map, OddVille's city)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games import grid

coordinates = st.integers(min_value=-6, max_value=6)
cells = st.tuples(coordinates, coordinates)
spaces = st.dictionaries(cells, st.sampled_from("FSWM"), max_size=40)


@given(spaces)
def test_components_partition_the_cells(terrain: dict[grid.Cell, str]) -> None:
    groups = grid.components(terrain, terrain.__getitem__)
    flat = [cell for group in groups for cell in group]
    assert sorted(flat) == sorted(terrain)
    assert len(flat) == len(set(flat))
    for group in groups:
        assert len({terrain[cell] for cell in group}) == 1
        if len(group) > 1:  # connected: every cell touches another of its group
            members = set(group)
            assert all(members & set(grid.neighbours(cell)) for cell in group)


@given(spaces)
def test_components_are_maximal(terrain: dict[grid.Cell, str]) -> None:
    group_of = {
        cell: index
        for index, group in enumerate(grid.components(terrain, terrain.__getitem__))
        for cell in group
    }
    for cell, kind in terrain.items():
        for other in grid.neighbours(cell):
            if terrain.get(other) == kind:
                assert group_of[other] == group_of[cell]


@given(spaces)
def test_shifting_preserves_neighbourhoods_and_leaves_nothing_negative(
    terrain: dict[grid.Cell, str],
) -> None:
    shift = grid.shift_for(terrain)
    moved = grid.shifted_spaces(terrain, shift)
    assert all(r >= 0 and c >= 0 for r, c in moved)
    assert sorted(moved.values()) == sorted(terrain.values())
    for cell in terrain:
        before = {n for n in grid.neighbours(cell) if n in terrain}
        after = {n for n in grid.neighbours(grid.step(cell, shift)) if n in moved}
        assert set(grid.shifted(before, shift)) == after
    regrouped = grid.components(moved, moved.__getitem__)
    assert sorted(len(g) for g in regrouped) == sorted(
        len(g) for g in grid.components(terrain, terrain.__getitem__)
    )
