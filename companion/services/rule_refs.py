"""Which rules entry each part of a result applies, for the links on the play pages.

Results are stored and sent as JSON without rule ids (they are no part of the API), so
the pages ask the engine once more for the same state: its breakdown lines, tiebreaks and
the rule that decided (or shares) the victory carry the ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games import Game
from companion.games.problems import InvalidStateError
from companion.games.ranking import Decision, ScoreOrder


@dataclass(frozen=True)
class ResultRules:
    """Rule ids for a result: per player, one per breakdown line (``None``: no entry);
    per tiebreak label; and the entry behind the sentence that says who wins."""

    lines: Mapping[str, tuple[str | None, ...]] = field(default_factory=dict)
    tiebreaks: Mapping[str, str | None] = field(default_factory=dict)
    decision: str | None = None

    def line(self, player: str, index: int) -> str | None:
        """The rule of one breakdown line of a player."""
        rules = self.lines.get(player, ())
        return rules[index] if index < len(rules) else None


def result_rules(
    game: Game, state: Mapping[str, Any], result: Mapping[str, Any] | None
) -> ResultRules:
    """The rule ids of ``result``, the JSON result of ``state`` (empty when none)."""
    tiebreaks = {t.label: t.rule for t in game.tiebreaks}
    if result is None:
        return ResultRules(tiebreaks=tiebreaks)
    try:
        scored = game.score(state)
    except InvalidStateError:
        return ResultRules(tiebreaks=tiebreaks)
    shown = {s["player"]: [line["label"] for line in s["breakdown"]] for s in result["standings"]}
    lines = {}
    for standing in scored.standings:
        labels = shown.get(standing.player, [])
        lines[standing.player] = tuple(
            line.rule if n < len(labels) and labels[n] == line.label else None
            for n, line in enumerate(standing.breakdown)
        )
    return ResultRules(lines, tiebreaks, decision_rule(game, result))


def decision_rule(game: Game, result: Mapping[str, Any]) -> str | None:
    """The entry behind "who wins": the tiebreak that decided, the rule for a shared
    victory, or (where the fewest points win) the rule saying so."""
    decided = result.get("decided_by")
    by_label = {t.label: t.rule for t in game.tiebreaks}
    if decided in by_label:
        return by_label[decided]
    tie_rule: str | None = getattr(game, "tie_rule", None)
    if decided == Decision.SHARED.value or game.score_order is ScoreOrder.LOWEST_FIRST:
        return tie_rule
    return None
