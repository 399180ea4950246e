"""A play's history: its log of edits told in words, a page at a time, newest first.

Quick taps on one field by one phone are one line (the log keeps each, so Undo still takes
back one); a phone is named by the player it said it is. The log itself and its rules are
in :mod:`companion.services.plays`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy import func, select

from companion.extensions import db
from companion.games import Game
from companion.games.problems import parse_path
from companion.games.text import _, ngettext
from companion.models import Edit, EditKind, Play
from companion.services.plays import Author, Change, changes_of, describe_path, display_value
from companion.services.results import game_of

#: Taps on one field by one phone this close together are one line of the history.
TAP_RUN_SECONDS = 10


@dataclass(frozen=True)
class HistoryLine:
    """One line of the history: an edit, or a run of quick taps on one field by one phone
    (the log keeps every tap, so Undo still takes back one)."""

    number: int
    #: The first edit of the run (``number`` when the line is one edit).
    first: int
    #: When, in UTC: ``when`` for people ("21:04:05"), ``iso`` for machines (ISO 8601).
    when: str
    iso: str
    who: str
    what: str

    @property
    def taps(self) -> int:
        """How many edits the line stands for."""
        return self.number - self.first + 1


#: Changes read for one page of the history: a play's log may hold ``caps.MAX_EDITS_PER_PLAY``
#: of them, and describing all 500 was 26-28 ms of CPU time (40-80 ms by the clock on a
#: loaded 2-core machine); a page of 50 is 5-6 ms. Older ones are a link away.
HISTORY_PAGE_EDITS = 50


@dataclass(frozen=True)
class HistoryPage:
    """One page of the history, newest first, and where the pages around it start."""

    lines: list[HistoryLine]
    #: ``before`` of the page of older changes (the first change this page shows), if any.
    older: int | None
    #: Whether newer changes than this page's exist (the newest page is a link away).
    newer: bool


def history(play: Play, *, before: int | None = None) -> HistoryPage:
    """A page of the play's edits (the newest ones, or those numbered below ``before``),
    newest first, in words; quick taps on one field are one line.

    A page shows at most :data:`HISTORY_PAGE_EDITS` edits. A run of quick taps that goes on
    before them is left to the older page, whole, unless it is all the page would show (a
    run longer than a page is then told in parts). A phone is named by the player it said
    it is, from any of its edits in this play, else by its short device id.
    """
    newest = play.version if before is None else min(before - 1, play.version)
    # One edit more than a page: whether there are older ones, and whether the oldest run
    # the page would show goes on before it.
    window = _edits_up_to(play, newest, HISTORY_PAGE_EDITS + 1)
    more = len(window) > HISTORY_PAGE_EDITS
    runs = _tap_runs(window)
    if more:
        runs = runs[1:] if len(runs) > 1 else [runs[0][1:]]
    names = _phone_names(play, {run[-1].device for run in runs if not run[-1].author})
    game = game_of(play)
    lines = [_history_line(game, play.state, run, names) for run in runs]
    return HistoryPage(
        lines=lines[::-1],
        older=runs[0][0].number if more and runs else None,
        newer=newest < play.version,
    )


def _edits_up_to(play: Play, newest: int, count: int) -> list[Edit]:
    """The play's ``count`` edits numbered up to ``newest``, oldest first."""
    statement = (
        select(Edit)
        .where(Edit.play_id == play.id, Edit.number <= newest)
        .order_by(Edit.number.desc())
        .limit(count)
    )
    return list(db.session.scalars(statement))[::-1]


def _phone_names(play: Play, devices: set[str]) -> dict[str, str]:
    """The player each of these phones last said it is, in any edit of the play."""
    if not devices:
        return {}
    statement = (
        select(Edit.device, Edit.author, func.max(Edit.number))
        .where(Edit.play_id == play.id, Edit.author.is_not(None), Edit.device.in_(sorted(devices)))
        .group_by(Edit.device, Edit.author)
        .order_by(func.max(Edit.number))
    )
    return {device: author or "" for device, author, _ in db.session.execute(statement)}


def _history_line(
    game: Game, state: Mapping[str, Any], run: Sequence[Edit], names: Mapping[str, str]
) -> HistoryLine:
    """One run of edits as a line of the history."""
    last = run[-1]
    stamp = last.created_at
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(UTC).replace(tzinfo=None)
    name = last.author or names.get(last.device)
    return HistoryLine(
        number=last.number,
        first=run[0].number,
        when=stamp.strftime("%H:%M:%S"),
        iso=stamp.isoformat(timespec="seconds") + "Z",
        who=name or Author(last.device).label,
        what=_describe_run(game, state, run),
    )


def _tap_runs(edits: Sequence[Edit]) -> list[list[Edit]]:
    """The log cut into runs: one edit each, except consecutive taps (see :func:`_is_tap`)
    on the same field by the same phone, each within :data:`TAP_RUN_SECONDS` of the last."""
    runs: list[list[Edit]] = []
    for edit in edits:
        previous = runs[-1][-1] if runs else None
        if (
            previous is not None
            and _is_tap(previous)
            and _is_tap(edit)
            and edit.path == previous.path
            and edit.device == previous.device
            and edit.author == previous.author
            and edit.created_at - previous.created_at <= timedelta(seconds=TAP_RUN_SECONDS)
        ):
            runs[-1].append(edit)
        else:
            runs.append([edit])
    return runs


def _is_tap(edit: Edit) -> bool:
    """A value edit of one field holding a plain value (a count, a choice): a list such as
    a trick's cards grows one item at a time, and each item is worth its own line."""
    plain = (int, float, str, type(None))
    return (
        edit.kind == EditKind.SET.value
        and edit.path is not None
        and isinstance(edit.previous, plain)
        and isinstance(edit.value, plain)
    )


def _describe_run(game: Game, state: Mapping[str, Any], run: Sequence[Edit]) -> str:
    if len(run) == 1:
        return _describe_edit(game, state, run[0])
    first, last = run[0], run[-1]
    change = Change(last.path or "", first.previous, last.value)
    return ngettext(
        "%(change)s (%(num)s tap).",
        "%(change)s (%(num)s taps).",
        len(run),
        change=_describe_change(game, state, change),
    )


def _describe_edit(game: Game, state: Mapping[str, Any], edit: Edit) -> str:
    if edit.kind == EditKind.FINISH.value:
        return _("Finished the game.")
    if edit.kind == EditKind.REOPEN.value:
        return _("Reopened the game.")
    undo = edit.kind == EditKind.UNDO.value
    described = [_describe_change(game, state, change, undone=undo) for change in changes_of(edit)]
    said = described[0] if described else ""
    for change in described[1:]:
        # TRANSLATORS: the changes of one edit in the history, one after the other.
        said = _("%(changes)s; %(change)s", changes=said, change=change)
    if undo:
        return _("Undid edit %(number)s: %(changes)s.", number=edit.undoes, changes=said)
    # TRANSLATORS: the changes of one edit in the history, as a sentence.
    return _("%(changes)s.", changes=said)


def _describe_change(
    game: Game, state: Mapping[str, Any], change: Change, *, undone: bool = False
) -> str:
    """One change in words: the game's, else the field's name and its values before and
    after (``undone``: as an Undo took it back)."""
    parts = parse_path(change.path) or []
    said = game.describe_change(state, parts, change.previous, change.value)
    if said is not None:
        return str(said)
    field = describe_path(game, state, parts)
    before = display_value(game, parts, change.previous)
    after = display_value(game, parts, change.value)
    if undone:
        # TRANSLATORS: a change an Undo took back, in the history: "Ben's Hoopoe 3 → 0".
        return _("%(field)s %(before)s → %(after)s", field=field, before=before, after=after)
    # TRANSLATORS: a change in the history: "Ann's Hoopoe: 0 → 2".
    return _("%(field)s: %(before)s → %(after)s", field=field, before=before, after=after)
