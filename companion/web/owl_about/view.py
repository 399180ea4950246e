"""Owl About view data: what the play page draws, built from the play-along board.

The templates read these values; they never call the engine themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import owl_about as oa
from companion.games.readings import Reading
from companion.games.text import N_, _
from companion.services import explain
from companion.services import owl_about as service
from companion.web.game_pages import PlayPage

#: Cards in the order of the picker: day cards by speed, then the night cards.
PICKER = tuple(oa.DECK)

#: Each mode as the game's setup line names it (translated where shown).
MODE_TITLES: dict[oa.Mode, str] = {
    oa.Mode.BASIC: N_("Basic mode"),
    oa.Mode.QUICK: N_("Quick mode"),
    oa.Mode.ADVANCED: N_("Advanced mode"),
}
#: Each variant as the game's setup line names it: English shows its API name, other
#: languages the variant's name (translated where shown).
VARIANT_NAMES: dict[oa.Variant, str] = {
    # TRANSLATORS: the Same speed variant of Owl About, in the line saying how the game is
    # played ("Advanced mode · same-speed · target 15 VP"): its name in the glossary.
    oa.Variant.SAME_SPEED: N_("same-speed"),
    # TRANSLATORS: the Night Collection 3 variant of Owl About (see "same-speed").
    oa.Variant.NIGHT_COLLECTION_3: N_("night-collection-3"),
    # TRANSLATORS: the Night Collection 4 variant of Owl About (see "same-speed").
    oa.Variant.NIGHT_COLLECTION_4: N_("night-collection-4"),
    # TRANSLATORS: both Night Collection variants of Owl About at once (see "same-speed").
    oa.Variant.NIGHT_COLLECTION: N_("night-collection"),
}


def private_player(page: PlayPage) -> str | None:
    """The player whose hidden information (their hand, the cards they may play) this
    phone shows, or ``None``.

    Only an edit link's phone set to one player: its owner (from "Whose phone is
    this?") or a seat it asked for (``?seat=n``, which the page's links and polls
    carry). The Everyone view shows nobody's, and the read-only link never shows any,
    whatever seat it asks for.
    """
    players = page.play.state["players"]
    if not page.table_access.can_edit or not isinstance(page.seat, int):
        return None
    return str(players[page.seat]) if 0 <= page.seat < len(players) else None


def context(page: PlayPage) -> dict[str, Any]:
    """The board as this phone may show it, and what the play page decides from it:
    which round the trophy form fills, who leads next, who reached the target, the chart
    of the totals; the mode and variants named in the reader's language."""
    me = private_player(page)
    whole = service.board(page.play)
    # Everything the templates get is this phone's view: others' hands are not in it.
    board = whole.seen_by(me)
    state = page.play.state
    players = list(state["players"])
    result = page.view.result
    ended = board.rounds[board.ended_after - 1] if board.ended_after else None
    last = board.rounds[-1] if board.rounds else None
    most = max(last.trophies.values()) if last is not None and last.trophies else 0
    trophy_round = _trophy_round(state, board)
    reached = (
        [name for name, total in ended.totals.items() if total >= board.game.target]
        if ended is not None
        else []
    )
    most_names = [n for n, t in last.trophies.items() if t == most] if last is not None else []
    return {
        "b": board,
        "mode_title": _(MODE_TITLES[board.game.mode]),
        "variant_names": [_(VARIANT_NAMES[v]) for v in sorted(board.game.variants)],
        "players": players,
        "rounds_seen": len(state.get("rounds", [])),
        "suggested": board.next_lead(),
        "last_taker": board.last_taker,
        "me": me,
        "my_hand": _entered_hand(state, me),
        "trophy_round": trophy_round,
        # A refused entry keeps what was typed; otherwise the stored counts.
        "shown_trophies": page.extra["trophies"]
        if "trophies" in page.errors and "trophies" in page.extra
        else _shown_trophies(state, trophy_round),
        "reached": explain.names(reached),
        "reached_count": len(reached),
        "winners": explain.names(result["winners"]) if result else "",
        "most_trophies": most,
        "most_names": explain.names(most_names),
        "most_count": len(most_names),
        "hand_error": any(key.startswith("hand-") for key in page.errors),
        "chart": vp_chart(players, [r.totals for r in board.rounds], board.game.target)
        if board.rounds
        else None,
        "picker": PICKER,
        "cards": oa.CARDS,
        "said_readings": said_readings,
    }


def said_readings(readings: Iterable[Reading]) -> list[dict[str, str]]:
    """The board's readings as the pages list them (``readings_list``): each one's
    ``text`` in the reader's language, as the API says it."""
    return [reading.to_json() for reading in readings]


def _entered_hand(state: Mapping[str, Any], player: str | None) -> str:
    """The hand ``player`` entered for the last round, as typed (their phone only)."""
    rounds = state.get("rounds", [])
    if player is None or not rounds:
        return ""
    return " ".join((rounds[-1].get("hands") or {}).get(player, []))


def _trophy_round(state: Mapping[str, Any], board: oa.Board) -> int | None:
    """The round (from 0) the quick trophy form fills: the last one when its first card is
    not down yet or it was entered as trophies, else the next one when it may start."""
    rounds = state.get("rounds", [])
    last = rounds[-1] if rounds else None
    tricks = last.get("tricks") if last is not None else None
    if tricks is not None and sum(len(t["cards"]) for t in tricks) == 0:
        return len(rounds) - 1
    if board.can_start_round:
        return len(rounds)
    if last is not None and last.get("tricks") is None:
        return len(rounds) - 1
    return None


def _shown_trophies(state: Mapping[str, Any], index: int | None) -> Mapping[str, int]:
    """The trophies already entered for that round (to correct them), else none."""
    rounds = state.get("rounds", [])
    if index is None or not rounds or index != len(rounds) - 1:
        return {}
    return dict(rounds[-1].get("trophies") or {})


# --- the score chart ----------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 320, 160
CHART_PAD = 28
#: Distinct line styles so that colour is never the only difference between players.
CHART_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True)
class ChartLine:
    """One player's running total as a polyline, with where their label goes."""

    player: str
    points: str
    dash: str
    style: int
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Chart:
    """A small line chart of the running VP totals after each round."""

    width: int
    height: int
    lines: tuple[ChartLine, ...]
    target_y: float
    target: int
    top: int
    rounds: int
    x_ticks: tuple[tuple[float, int], ...]


def vp_chart(players: Sequence[str], totals: Sequence[Mapping[str, int]], target: int) -> Chart:
    """The chart of the totals after each round (round 0 = the start, everyone at 0)."""
    top = max([target, *(t for row in totals for t in row.values())])
    steps = max(len(totals), 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD

    def x(step: int) -> float:
        return round(CHART_PAD + inner_w * step / steps, 1)

    def y(value: int) -> float:
        return round(CHART_HEIGHT - CHART_PAD - inner_h * value / top, 1)

    lines = []
    for index, name in enumerate(players):
        values = [0, *(row[name] for row in totals)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        lines.append(
            ChartLine(
                name,
                points,
                CHART_DASHES[index % len(CHART_DASHES)],
                index % len(CHART_DASHES),
                x(len(values) - 1),
                y(values[-1]),
            )
        )
    ticks = tuple((x(i), i) for i in range(len(totals) + 1))
    return Chart(
        CHART_WIDTH, CHART_HEIGHT, tuple(lines), y(target), target, top, len(totals), ticks
    )
