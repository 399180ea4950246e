"""A group's statistics on hand-made histories: ties, shared wins, lowest-wins games,
renamed and merged players, filters and charts; on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from companion.models import Group
from companion.services import evening, groups, stats
from companion.web.charts import distribution_chart, wins_chart
from support.groups import ctx, finish_with, member_ids, tallies

pytestmark = pytest.mark.both_backends("the statistics are SQL aggregates")

__all__ = ["ctx", "tallies"]  # fixtures


def _group() -> tuple[Group, dict[str, int]]:
    group = groups.create_group("Thursdays", ["Ann", "Ben", "Cy"])
    return group, member_ids(group)


@pytest.mark.usefixtures("ctx")
def test_leaderboard_counts_plays_wins_shared_wins_and_best_scores() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"], ids["Cy"]])
    finish_with(table, "tally", {"Ann": 10, "Ben": 7, "Cy": 3}, at=datetime(2026, 1, 5))
    finish_with(table, "tally", {"Ann": 8, "Ben": 8, "Cy": 2}, at=datetime(2026, 2, 5))  # shared
    finish_with(table, "tally", {"Ann": 1, "Ben": 4, "Cy": 9}, at=datetime(2026, 2, 9))
    finish_with(table, "low-tally", {"Ann": 5, "Ben": 2, "Cy": 2}, at=datetime(2026, 3, 1))

    board = {line.name: line for line in stats.leaderboard(group, "tally")}
    assert (board["Ann"].plays, board["Ann"].wins, board["Ann"].shared_wins) == (3, 2, 1)
    assert (board["Ben"].wins, board["Ben"].shared_wins) == (1, 1)
    assert (board["Cy"].wins, board["Cy"].shared_wins) == (1, 0)
    assert board["Ann"].average == round((10 + 8 + 1) / 3, 1)
    assert board["Ann"].best == 10
    assert board["Cy"].best == 9
    assert board["Ann"].win_percent == 67
    assert board["Cy"].last_played == datetime(2026, 2, 9)
    assert [line.name for line in stats.leaderboard(group, "tally")] == ["Ann", "Ben", "Cy"]

    low = {line.name: line for line in stats.leaderboard(group, "low-tally")}
    assert low["Ann"].best == 5
    assert low["Ben"].best == 2
    assert (low["Ben"].wins, low["Cy"].wins, low["Ann"].wins) == (1, 1, 0)
    assert low["Ben"].shared_wins == 1

    overall = {line.name: line for line in stats.leaderboard(group)}
    assert (overall["Ann"].plays, overall["Ann"].wins) == (4, 2)
    assert (overall["Ben"].wins, overall["Cy"].wins) == (2, 2)
    assert overall["Ann"].average is None
    assert overall["Ann"].best is None

    counts = {g.slug: g.plays for g in stats.games_played(group)}
    assert counts == {"tally": 3, "low-tally": 1}
    assert stats.plays_count(group) == 4


@pytest.mark.usefixtures("ctx")
def test_renamed_merged_and_removed_players_keep_their_history() -> None:
    group, ids = _group()
    typo = groups.add_player(group, "Ane")
    first = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    finish_with(first, "tally", {"Ann": 5, "Ben": 1})
    second = groups.start_table(group, seated=[typo.id, ids["Ben"]])
    finish_with(second, "tally", {"Ane": 6, "Ben": 2})
    groups.rename_player(group, ids["Ann"], "Anna")
    groups.merge_players(group, duplicate_id=typo.id, into_id=ids["Ann"])
    board = {line.name: line for line in stats.leaderboard(group, "tally")}
    assert "Ane" not in board
    assert (board["Anna"].plays, board["Anna"].wins, board["Anna"].best) == (2, 2, 6)
    past = stats.history(group, stats.Filters(player=ids["Ann"]))
    assert [p.standings[0][0] for p in past] == ["Ane", "Ann"]  # the names as played
    groups.remove_player(group, ids["Ben"])
    assert [p.name for p in group.roster] == ["Anna", "Cy"]
    assert {line.name for line in stats.leaderboard(group)} == {"Anna", "Ben"}


@pytest.mark.usefixtures("ctx")
def test_players_who_played_together_cannot_be_merged() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    finish_with(table, "tally", {"Ann": 5, "Ben": 1})
    with pytest.raises(groups.GroupRefused, match="two people"):
        groups.merge_players(group, duplicate_id=ids["Ben"], into_id=ids["Ann"])
    assert len(stats.leaderboard(group)) == 2


@pytest.mark.usefixtures("ctx")
def test_reopening_a_play_takes_its_results_out() -> None:
    from companion.services import plays
    from support.groups import AUTHOR

    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    play = finish_with(table, "tally", {"Ann": 5, "Ben": 1})
    assert stats.plays_count(group) == 1
    plays.set_status(play, finished=False, author=AUTHOR)
    assert stats.plays_count(group) == 0
    plays.replace_value(play, path="players[1].score", value=9, author=AUTHOR)
    plays.set_status(play, finished=True, author=AUTHOR)
    board = {line.name: line for line in stats.leaderboard(group, "tally")}
    assert (board["Ben"].wins, board["Ann"].wins) == (1, 0)


@pytest.mark.usefixtures("ctx")
def test_head_to_head_counts_who_placed_ahead() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"], ids["Cy"]])
    finish_with(table, "tally", {"Ann": 10, "Ben": 7, "Cy": 3})
    finish_with(table, "tally", {"Ann": 7, "Ben": 7, "Cy": 3})
    finish_with(table, "low-tally", {"Ann": 9, "Ben": 1, "Cy": 3})
    rows = {r.game: r for r in stats.head_to_head(group, ids["Ann"], ids["Ben"])}
    assert (rows["tally"].together, rows["tally"].first_ahead, rows["tally"].level) == (2, 1, 1)
    assert (rows["low-tally"].first_ahead, rows["low-tally"].second_ahead) == (0, 1)
    assert (rows[""].together, rows[""].first_ahead, rows[""].second_ahead) == (3, 1, 1)
    assert stats.head_to_head(group, ids["Ann"], 999_999) == []


@pytest.mark.usefixtures("ctx")
def test_history_filters_by_game_player_and_dates() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    other = groups.start_table(group, seated=[ids["Cy"], ids["Ben"]])
    finish_with(table, "tally", {"Ann": 1, "Ben": 2}, at=datetime(2026, 1, 1, 20))
    finish_with(table, "low-tally", {"Ann": 1, "Ben": 2}, at=datetime(2026, 1, 2, 23, 59))
    finish_with(other, "tally", {"Cy": 3, "Ben": 2}, at=datetime(2026, 1, 3, 0, 1))
    every = stats.history(group, stats.Filters())
    assert [p.finished_at.day for p in every] == [3, 2, 1]
    assert len(stats.history(group, stats.Filters(game="tally"))) == 2
    assert len(stats.history(group, stats.Filters(player=ids["Cy"]))) == 1
    window = stats.Filters(since=date(2026, 1, 2), until=date(2026, 1, 2))
    assert [p.game for p in stats.history(group, window)] == ["low-tally"]
    assert stats.history(group, stats.Filters(game="tally", player=ids["Ann"]))[0].winners == [
        "Ben"
    ]


@pytest.mark.usefixtures("ctx")
def test_charts_follow_the_numbers() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    finish_with(table, "tally", {"Ann": 3, "Ben": 1}, at=datetime(2026, 1, 1))
    finish_with(table, "tally", {"Ann": 3, "Ben": 30}, at=datetime(2026, 2, 1))
    finish_with(table, "tally", {"Ann": 4, "Ben": 2}, at=datetime(2026, 2, 2))
    wins = stats.wins_over_time(group, "tally")
    assert wins.months == ("2026-01", "2026-02")
    assert {s.name: s.totals for s in wins.series} == {"Ann": (1, 2), "Ben": (0, 1)}
    chart = wins_chart(wins)
    assert chart is not None
    assert len(chart.lines) == 2
    bars = stats.score_distribution(group, "tally")
    assert sum(b.count for b in bars) == 6
    assert len(bars) <= stats.MAX_BARS
    assert bars[0].low == 1
    assert bars[-1].high >= 30
    spread = distribution_chart(bars)
    assert spread is not None
    assert max(c.height for c in spread.columns) > 0


@pytest.mark.usefixtures("ctx")
def test_evening_counts_results_and_adds_points_only_where_they_compare() -> None:
    group, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    finish_with(table, "tally", {"Ann": 3, "Ben": 3})
    finish_with(table, "tally", {"Ann": 5, "Ben": 1})
    finish_with(table, "low-tally", {"Ann": 9, "Ben": 1})
    night = evening.summary(table)
    assert [p.winners for p in night.played] == [("Ann", "Ben"), ("Ann",), ("Ben",)]
    rows = {s.name: s for s in night.standings}
    assert (rows["Ann"].played, rows["Ann"].wins, rows["Ann"].shared_wins) == (3, 2, 1)
    assert (rows["Ben"].wins, rows["Ben"].shared_wins) == (2, 1)
    assert night.point_games == ("tally",)
    assert rows["Ann"].points == {"tally": 8}
    assert "low-tally" not in rows["Ben"].points
