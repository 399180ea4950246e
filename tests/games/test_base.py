"""The shared ranking with tiebreakers and the validation helpers."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from companion.games.names import name_problems
from companion.games.problems import parse_path, path_of
from companion.games.ranking import Entry, ScoreOrder, Tiebreak, rank

LABELS = (Tiebreak("First tiebreak"), Tiebreak("Second tiebreak"))


def test_tiebreak_chain_uses_first_label_that_differs() -> None:
    ranking = rank(
        [Entry("A", 5, (2, 9)), Entry("B", 5, (3, 1)), Entry("C", 5, (3, 4))],
        tiebreaks=LABELS,
    )
    assert [s.player for s in ranking.standings] == ["C", "B", "A"]
    assert ranking.decided_by == "Second tiebreak"
    assert [s.rank for s in ranking.standings] == [1, 2, 3]


def test_tuple_tiebreak_compares_element_by_element() -> None:
    ranking = rank(
        [Entry("A", 5, ((6, 2, 1),)), Entry("B", 5, ((6, 3),))], tiebreaks=(Tiebreak("Sizes"),)
    )
    assert ranking.winners == ["B"]
    assert ranking.standings[0].tiebreak[0].to_json() == {"label": "Sizes", "value": [6, 3]}


def test_competition_ranks_skip_after_ties() -> None:
    ranking = rank([Entry("A", 1), Entry("B", 3), Entry("C", 3), Entry("D", 0)])
    assert [(s.player, s.rank) for s in ranking.standings] == [
        ("B", 1),
        ("C", 1),
        ("A", 3),
        ("D", 4),
    ]
    assert ranking.decided_by == "shared"


def test_lowest_first_order() -> None:
    ranking = rank([Entry("A", 3), Entry("B", 1), Entry("C", 1)], order=ScoreOrder.LOWEST_FIRST)
    assert ranking.winners == ["B", "C"]
    assert (
        rank([Entry("A", 3), Entry("B", 1)], order=ScoreOrder.LOWEST_FIRST).decided_by == "score"
    )


def test_single_player_and_nobody() -> None:
    assert rank([Entry("Solo", 4)]).decided_by == "score"
    assert rank([]).standings == ()


def test_paths_round_trip() -> None:
    parts = ["rounds", 0, "tricks", 12, "cards", 3]
    assert parse_path(path_of(parts)) == parts
    for bad in ["", "a..b", "a[", "a[-1]", "[0]x", "a.b]"]:
        assert parse_path(bad) is None, bad


def test_name_problems() -> None:
    messages = [p.message for p in name_problems([" ", "x" * 41, "Ann", "ANN"], path=str)]
    assert messages == [
        "A player needs a name.",
        "Names can have at most 40 characters.",
        'Two players are called "ANN"; names must differ.',
    ]


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), min_size=1, max_size=6))
def test_ranks_are_competition_ranks(rows: list[tuple[int, int]]) -> None:
    entries = [Entry(f"P{i}", score, (tie,)) for i, (score, tie) in enumerate(rows)]
    standings = rank(entries, tiebreaks=(Tiebreak("T"),)).standings
    for position, standing in enumerate(standings):
        keys = [(s.score, s.tiebreak[0].value) for s in standings]
        better = sum(1 for key in keys if key > (standing.score, standing.tiebreak[0].value))
        assert standing.rank == better + 1, position


@example(["\x00", "Ann"])  # a NUL name once reached PostgreSQL, which cannot store it
@example(["Ann", "ann "])
@given(st.lists(st.text(max_size=50), min_size=1, max_size=6))
def test_name_problems_name_a_seat_for_every_problem(names: list[str]) -> None:
    problems = name_problems(names, path=lambda i: f"players[{i}]")
    assert all(p.path in {f"players[{i}]" for i in range(len(names))} for p in problems)
    assert all(p.message.endswith(".") for p in problems)
