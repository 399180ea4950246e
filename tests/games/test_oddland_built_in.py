"""The built-in Oddland sides, as the pages describe them, score what the engine scores."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from companion.games import oddland as engine
from companion.games.oddland.species import BEGATOR, Side

rows = st.lists(st.text(alphabet="FSWM.", min_size=1, max_size=6), min_size=1, max_size=6)


@given(rows, st.integers(0, 35))
def test_begator_a_in_words_scores_like_the_built_in_scorer(
    map_rows: list[str], pick: int
) -> None:
    spaces = [(r, c) for r, row in enumerate(map_rows) for c, ch in enumerate(row) if ch != "."]
    assume(spaces)
    cell = spaces[pick % len(spaces)]
    analysis = engine.analyse_map(map_rows, [engine.Token("Ann", BEGATOR, (cell,))])
    rule = engine.BUILT_IN_RULES[BEGATOR, Side.A]
    built_in = engine.BUILT_IN[BEGATOR, Side.A]
    assert engine.rule_score(analysis, 0, rule) == built_in.scorer(analysis, 0)
    assert rule.solo_modifier == built_in.solo_modifier
