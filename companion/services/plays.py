"""Plays: starting games, applying single edits, undo, finishing, series and deleting.

Every change is one small edit in an append-only log, applied to the stored state with
an optimistic version check: the state row is only written if nobody else wrote it in
between; otherwise the edit is re-applied to the fresh state. So two phones editing
different fields never lose an edit, while an edit based on a stale value of the *same*
field is refused with the fresh value (:class:`EditConflict`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Update, bindparam, inspect, select, update
from sqlalchemy.exc import InvalidRequestError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value

from companion.database import is_contention
from companion.extensions import db
from companion.games import GAMES, Game
from companion.games.problems import InvalidStateError, Problem, parse_path
from companion.games.text import N_, _, sentences
from companion.models import Edit, EditKind, Play, PlayStatus, Series, Table, utcnow
from companion.services import caps, explain, groups, tables
from companion.services.results import current_result as current_result
from companion.services.results import game_of as game_of
from companion.services.results import stored_result_json
from companion.services.rule_refs import ResultRules, result_rules
from companion.services.units import unit_of_work

#: How often an edit is re-applied when other phones keep writing the same play.
MAX_WRITE_ATTEMPTS = 25
FINISHED_MESSAGE = N_("This game is finished. Reopen it to change anything.")
NOTHING_TO_UNDO = N_("There is nothing to undo.")
NOT_A_FIELD = N_("This is not a field of the game.")
SERIES_DELETE_MESSAGE = N_(
    "Only the newest game of a series can be deleted: delete the games after this one first."
)
#: Why a play cannot be finished, or reopened: it already is (by its new status).
ALREADY = {
    PlayStatus.FINISHED: N_("This game is already finished."),
    PlayStatus.ACTIVE: N_("This game is already active."),
}


class EditRefused(Exception):  # noqa: N818 - raised as "the edit is refused"
    """The edit would make the state impossible, or is not an edit at all; nothing stored."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)


class EditConflict(Exception):  # noqa: N818 - raised as "the edit is in conflict"
    """Someone changed the same field first; carries the fresh value."""

    def __init__(self, path: str, current: Any, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.current = current
        self.message = message


class WriteContention(Exception):  # noqa: N818
    """The play kept changing under this edit; the phone should simply try again."""


class PlayGone(Exception):  # noqa: N818 - raised as "the play is gone"
    """Another phone deleted the play while this request worked on it; nothing stored."""


def read_again(play: Play) -> None:
    """Read ``play`` as it is stored now (another phone may have written it);
    :class:`PlayGone` when it was deleted meanwhile."""
    try:
        db.session.refresh(play)
    except InvalidRequestError as missing:  # its row is gone ("could not refresh")
        raise PlayGone from missing


@dataclass(frozen=True)
class Author:
    """Who made an edit: the device's short id and, when the person said, their name."""

    device: str
    name: str | None = None

    @property
    def label(self) -> str:
        """How the history names them, in the reader's language."""
        if self.name:
            return _("%(name)s (device %(device)s)", name=self.name, device=self.device)
        return _("device %(device)s", device=self.device)


@unit_of_work
def start_play(
    table: Table,
    game_slug: str,
    *,
    options: Mapping[str, Any] | None = None,
    series: Series | None = None,
) -> Play:
    """Start a game at a table with the table's players in seating order; commits."""
    game = GAMES[game_slug]
    problems = player_count_problems_for(game, len(table.players))
    if tables.play_count(table) >= caps.MAX_PLAYS_PER_TABLE:
        problems.append(Problem("game", caps.too_many_plays()))
    if problems:
        raise EditRefused(problems)
    chosen = dict(options or {})
    try:
        state = game.new_state(table.player_names, chosen)
    except InvalidStateError as invalid:
        raise EditRefused(invalid.problems) from None
    play = Play(
        table=table,
        game=game_slug,
        options=chosen,
        state=state,
        version=0,
        status=PlayStatus.ACTIVE.value,
        series=series,
        series_index=len(series.plays) if series is not None else None,
        player_ids={player.name: player.id for player in table.players},
    )
    _cache_result(play, game)
    tables.bump(table)
    db.session.add(play)
    return play


def player_count_problems_for(game: Game, count: int) -> list[Problem]:
    """Whether this game can be played by that many people."""
    if game.min_players <= count <= game.max_players:
        return []
    message = _(
        "%(game)s is for %(min)s to %(max)s players; this table has %(count)s.",
        game=_(game.name),
        min=game.min_players,
        max=game.max_players,
        count=count,
    )
    # A count the rulebook does not give is ours: the refusal says so where it is met.
    if game.player_count_reading:
        message = sentences(message, _(game.player_count_reading))
    return [Problem("game", message)]


@unit_of_work
def start_series(table: Table, game_slug: str, *, length: int) -> Play:
    """Start linked games whose summed score decides, and its first game; commits."""
    series = Series(table=table, game=game_slug, length=length)
    db.session.add(series)
    return start_play(table, game_slug, series=series)


def next_in_series(play: Play) -> Play:
    """Start the next game of the play's series once this one is finished; commits."""
    series = play.series
    if series is None or not play.finished or len(series.plays) >= series.length:
        raise EditRefused([Problem("series", _("There is no next game in this series."))])
    if any(not p.finished for p in series.plays):
        raise EditRefused([Problem("series", _("Finish the current game of the series first."))])
    return start_play(play.table, series.game, series=series)


def series_result(series: Series) -> dict[str, Any] | None:
    """The series standings over its games so far (API shape); ``None`` if unscorable."""
    game = GAMES[series.game]
    if not game.has_series:
        return None
    try:
        result = game.series({"games": [p.state for p in series.plays]}).to_json()
    except InvalidStateError:
        return None
    # The table, not the engine, says when the series is over: all its games finished.
    result["over"] = len(series.plays) == series.length and all(p.finished for p in series.plays)
    return result


def value_at(state: Any, parts: Sequence[str | int]) -> Any:
    """The value at a path of a JSON-like state; raises LookupError when it is missing."""
    node = state
    for part in parts:
        list_step = isinstance(part, int) and isinstance(node, list)
        if list_step or (isinstance(part, str) and isinstance(node, dict)):
            node = node[part]
        else:
            raise LookupError(part)
    return node


def _with_value(state: dict[str, Any], parts: Sequence[str | int], value: Any) -> dict[str, Any]:
    """A copy of the state with one value replaced (the stored state is never mutated)."""
    fresh = copy.deepcopy(state)
    node: Any = fresh
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = value
    return fresh


def _parts(path: str) -> list[str | int]:
    parts = parse_path(path)
    if parts is None:
        raise EditRefused([Problem(path, _(NOT_A_FIELD))])
    return parts


class _Unchecked:
    """Marks an edit that overwrites whatever is there (no stale-value check)."""


UNCHECKED: Any = _Unchecked()


def set_value(play: Play, *, path: str, raw: str, base: str | None, author: Author) -> Edit | None:
    """Set one field from form text; ``base`` is the value the phone showed (or ``None``).

    Returns the new edit, or ``None`` when the value was already that. Raises
    :class:`EditRefused` or :class:`EditConflict`; nothing is stored then.
    """
    game = game_of(play)
    parts = _parts(path)
    value = _parse(game, parts, raw)
    expected = _parse(game, parts, base) if base is not None else UNCHECKED
    return replace_value(play, path=path, value=value, expected=expected, author=author)


@dataclass(frozen=True)
class Change:
    """One field of an edit: its path, the value before and the value after."""

    path: str
    previous: Any
    value: Any

    def to_json(self) -> dict[str, Any]:
        """How a change of a multi-field edit is logged."""
        return {"path": self.path, "previous": self.previous, "value": self.value}


def replace_value(
    play: Play, *, path: str, value: Any, expected: Any = UNCHECKED, author: Author
) -> Edit | None:
    """Set any JSON value at ``path`` as one edit (game services build such values: a
    played card appended to a trick, a new round). ``expected`` is the value the phone
    based the change on; when the stored value differs, :class:`EditConflict` is raised.
    """
    return replace_values(play, changes=[(path, value, expected)], author=author)


def replace_values(
    play: Play, *, changes: Sequence[tuple[str, Any, Any]], author: Author
) -> Edit | None:
    """Set several fields at once as *one* edit: ``(path, value, expected)`` each.

    Other phones never see the fields half-changed, and one undo reverts them all (for
    example a map that grows to the left while its tokens move with it).
    """
    game = game_of(play)
    targets = [(path, _parts(path), value, expected) for path, value, expected in changes]

    def plan(state: dict[str, Any]) -> list[Change]:
        planned = []
        for path, parts, value, expected in targets:
            current = _current(state, parts, path)
            if expected is not UNCHECKED and current != expected:
                message = _conflict_message(game, state, parts, current)
                raise EditConflict(path, current, message)
            planned.append(Change(path, current, value))
        return planned

    return _write(play, kind=EditKind.SET, plan=plan, author=author)


def update_value(
    play: Play,
    *,
    path: str,
    build: Callable[[Any], Any],
    author: Author,
    along: Callable[[], None] | None = None,
) -> Edit | None:
    """Replace the value at ``path`` by ``build(a copy of its freshest value)``, one edit.

    For changes that do not depend on the whole field being as the phone saw it (a space
    of a map row, a penalty): when another phone wrote first, ``build`` simply runs again
    on the fresh value. ``build`` raises :class:`EditConflict` itself when the very thing
    this phone changes is no longer what it saw. ``along`` runs in the same transaction
    just before it commits (a row that must change together with the play, or not at all).
    """
    parts = _parts(path)

    def plan(state: dict[str, Any]) -> list[Change]:
        current = _current(state, parts, path)
        return [Change(path, current, build(copy.deepcopy(current)))]

    return _write(play, kind=EditKind.SET, plan=plan, author=author, along=along)


def _parse(game: Game, parts: Sequence[str | int], raw: str) -> Any:
    try:
        return game.parse_edit(parts, raw)
    except InvalidStateError as invalid:
        raise EditRefused(invalid.problems) from None


def _current(state: dict[str, Any], parts: Sequence[str | int], path: str) -> Any:
    try:
        return value_at(state, parts)
    except (LookupError, TypeError):
        raise EditRefused([Problem(path, _(NOT_A_FIELD))]) from None


def _conflict_message(
    game: Game, state: Mapping[str, Any], parts: Sequence[str | int], current: Any
) -> str:
    shown = _nothing_or(current)
    return _(
        "Someone changed %(field)s at the same time: it is now %(value)s. Check it and try again.",
        field=describe_path(game, state, parts),
        value=display_value(game, parts, shown),
    )


def _nothing_or(value: Any) -> Any:
    """A value to show, or the word for none."""
    # TRANSLATORS: a field's value when it holds none ("it is now nothing").
    return _("nothing") if value is None else value


def undo(play: Play, *, target: int | None = None, author: Author) -> Edit:
    """Revert the newest edit that is not yet undone (undo again for the one before).

    ``target`` is the number of the edit the phone meant to undo (the one its page
    offered). It is checked against the fresh log on every attempt, so a repeated Undo
    (a network retry, a double tap), an Undo tapped on a stale page, or one racing another
    phone's edit is refused (:class:`EditConflict`) instead of reverting something else;
    and each field must still hold the value the undone edit gave it.
    """

    undoing = 0

    def plan(state: dict[str, Any]) -> list[Change]:
        nonlocal undoing
        chosen = _checked_undo_target(_edits_of(play), target)
        planned = []
        for change in reversed(changes_of(chosen)):
            current = _current(state, _parts(change.path), change.path)
            if current != change.value:
                raise EditConflict("undo", current, _changed_since_message(play, change, current))
            planned.append(Change(change.path, current, change.previous))
        undoing = chosen.number
        return planned

    edit = _write(play, kind=EditKind.UNDO, plan=plan, author=author, undoes=lambda: undoing)
    if edit is None:  # pragma: no cover - an undo always changes the values back
        raise EditRefused([Problem("undo", _(NOTHING_TO_UNDO))])
    return edit


def _edits_of(play: Play) -> list[Edit]:
    """The play's log as stored now (not as this session loaded it earlier)."""
    return list(
        db.session.scalars(
            select(Edit)
            .where(Edit.play_id == play.id)
            .order_by(Edit.number)
            .execution_options(populate_existing=True)
        )
    )


def _undo_target(edits: Sequence[Edit]) -> Edit | None:
    undone = {e.undoes for e in edits if e.kind == EditKind.UNDO.value}
    for edit in reversed(edits):
        if edit.kind == EditKind.SET.value and edit.number not in undone and changes_of(edit):
            return edit
    return None


def _checked_undo_target(edits: Sequence[Edit], target: int | None) -> Edit:
    """The edit to undo now; refuses an Undo whose page offered another edit than the one
    now at the top of the log (``target``), or a log with nothing to undo."""
    chosen = _undo_target(edits)
    if chosen is not None and target in (None, chosen.number):
        return chosen
    if target is None:
        raise EditRefused([Problem("undo", _(NOTHING_TO_UNDO))])
    meant = next((e for e in edits if e.number == target), None)
    undone = {e.undoes for e in edits if e.kind == EditKind.UNDO.value}
    if meant is None or meant.kind != EditKind.SET.value:
        message = _("That is not a change that can be undone. Refresh the page.")
    elif target in undone:
        message = _("That change was already undone. Refresh the page to see the game as it is.")
    elif chosen is not None and chosen.number > target:
        message = _came_after(chosen)
    else:  # pragma: no cover - a target newer than the newest edit cannot be offered
        message = _("The game changed since this page was shown. Refresh it and try again.")
    raise EditConflict("undo", None, message)


def _came_after(edit: Edit) -> str:
    """That ``edit`` (Ben's, or a phone's that gave no name) is newer than the one an
    Undo meant."""
    if edit.author:
        return _(
            "%(name)s's change came after the one you meant to undo: undo it first, or refresh.",
            name=edit.author,
        )
    return _(
        "Another phone's (device %(device)s) change came after the one you meant to undo: "
        "undo it first, or refresh.",
        device=edit.device,
    )


def _changed_since_message(play: Play, change: Change, current: Any) -> str:
    game = game_of(play)
    parts = _parts(change.path)
    field = describe_path(game, play.state, parts)
    shown = display_value(game, parts, _nothing_or(current))
    return _(
        "%(field)s was changed again since (it is now %(value)s), so this Undo would "
        "overwrite that change. Refresh the page and check it.",
        field=field,
        value=shown,
    )


def log_problems(play: Play) -> list[str]:
    """Where the play's log and its stored state disagree (empty when they agree).

    Checks that every undo reverted the newest edit not yet undone while its fields still
    held that edit's values, and that walking the log back from the stored state finds
    each change's value where the log says it was written.
    """
    edits = _edits_of(play)
    problems = _undo_discipline_problems(edits)
    state = copy.deepcopy(play.state)
    for edit in reversed(edits):
        for change in reversed(changes_of(edit)):
            parts = _parts(change.path)
            try:
                found = value_at(state, parts)
            except (LookupError, TypeError):
                problems.append(f"edit {edit.number}: {change.path} is missing")
                continue
            if found != change.value:
                problems.append(
                    f"edit {edit.number}: {change.path} holds {found!r}, "
                    f"the log says {change.value!r}"
                )
            state = _with_value(state, parts, change.previous)
    return problems


def _undo_discipline_problems(edits: Sequence[Edit]) -> list[str]:
    problems: list[str] = []
    stack: list[Edit] = []
    for edit in edits:
        if edit.kind == EditKind.SET.value and changes_of(edit):
            stack.append(edit)
        elif edit.kind == EditKind.UNDO.value:
            top = stack.pop() if stack else None
            if top is None or top.number != edit.undoes:
                problems.append(f"edit {edit.number} undid {edit.undoes}, not the newest")
                continue
            reverted = [(c.path, c.value, c.previous) for c in reversed(changes_of(top))]
            undone = [(c.path, c.previous, c.value) for c in changes_of(edit)]
            if reverted != undone:
                problems.append(f"edit {edit.number} did not exactly revert edit {top.number}")
    return problems


def changes_of(edit: Edit) -> list[Change]:
    """The fields an edit changed (one, or several for a multi-field edit)."""
    if edit.path is not None:
        return [Change(edit.path, edit.previous, edit.value)]
    if isinstance(edit.value, list):
        return [Change(c["path"], c["previous"], c["value"]) for c in edit.value]
    return []


def _paths_of(path: str | None, value: Any) -> tuple[str, ...]:
    """The paths an edit logged as ``path`` and ``value`` set (see :func:`_edit_of`)."""
    if path is not None:
        return (path,)
    if isinstance(value, list):
        return tuple(c["path"] for c in value if isinstance(c, dict) and "path" in c)
    return ()


#: How many of the newest edits :func:`last_undoable` reads before it reads them all.
NEWEST_EDITS = 16
# Built once (every page of a play runs it): the newest value edits no undo reverted.
_UNDONE = select(Edit.undoes).where(
    Edit.play_id == bindparam("play_id"),
    Edit.kind == EditKind.UNDO.value,
    Edit.undoes.is_not(None),
)
# Plain rows, not loaded edits: every panel drawn asks, and building 16 edits with their
# values and previous values decoded was most of its cost.
_NEWEST_NOT_UNDONE = (
    select(Edit.number, Edit.path, Edit.value)
    .where(
        Edit.play_id == bindparam("play_id"),
        Edit.kind == EditKind.SET.value,
        Edit.number.not_in(_UNDONE),
    )
    .order_by(Edit.number.desc())
    .limit(NEWEST_EDITS)
)


def last_undoable(play: Play) -> int | None:
    """The number of the newest value edit that no undo has reverted yet, if any.

    Read from the newest edits only (every page of a play asks, and a long game holds
    hundreds); the whole log only when none of them has a change to undo."""
    newest = db.session.execute(_NEWEST_NOT_UNDONE, {"play_id": play.id}).all()
    found = next((number for number, path, value in newest if _paths_of(path, value)), None)
    if found is not None or len(newest) < NEWEST_EDITS:
        return found
    target = _undo_target(play.edits)
    return target.number if target is not None else None


def _write(
    play: Play,
    *,
    kind: EditKind,
    plan: Callable[[dict[str, Any]], list[Change]],
    author: Author,
    undoes: Callable[[], int] | None = None,
    along: Callable[[], None] | None = None,
) -> Edit | None:
    """Apply planned changes to the freshest state, guarded by the version; retry on a
    race. ``plan`` sees the fresh state each time and may raise :class:`EditConflict`;
    ``undoes`` names the edit an undo reverts, as its latest plan chose it."""
    game = game_of(play)
    for attempt in range(MAX_WRITE_ATTEMPTS):
        # The play was just read by this request, and the version check of the write
        # refuses it if another phone wrote since: only a retry reads it again.
        if attempt:
            read_again(play)
        planned = plan(play.state)
        where = planned[0].path if planned else ""
        if play.finished:
            raise EditRefused([Problem(where, _(FINISHED_MESSAGE))])
        if play.version >= caps.MAX_EDITS_PER_PLAY:
            raise EditRefused([Problem(where, caps.too_many_edits())])
        changes = [c for c in planned if c.previous != c.value]
        if not changes:
            return None
        state = play.state
        for change in changes:
            state = _with_value(state, _parts(change.path), change.value)
        problems = game.validate(state)
        if problems:
            raise EditRefused(_at_edited_field(where, problems))
        edit = _commit(
            play,
            values={
                "state": state,
                "result": stored_result_json(game, state),
                "engine_version": game.engine_version,
            },
            edit=_edit_of(kind, changes, author=author, undoes=undoes() if undoes else None),
            along=along,
        )
        if edit is not None:
            return edit
    raise WriteContention


def _edit_of(
    kind: EditKind, changes: Sequence[Change], *, author: Author, undoes: int | None
) -> Edit:
    """The log entry: one field in its columns, several as a list in ``value``."""
    common = {"kind": kind.value, "undoes": undoes, "device": author.device, "author": author.name}
    if len(changes) == 1:
        only = changes[0]
        return Edit(path=only.path, value=only.value, previous=only.previous, **common)
    return Edit(path=None, value=[c.to_json() for c in changes], previous=None, **common)


def _at_edited_field(path: str, problems: Sequence[Problem]) -> list[Problem]:
    """Problems an edit would cause, shown at the field that was edited."""
    return [Problem(path, p.message, rule=p.rule) for p in problems]


def _commit(
    play: Play,
    *,
    values: Mapping[str, Any],
    edit: Edit,
    along: Callable[[], None] | None = None,
) -> Edit | None:
    """Write the play's new column values and log the edit, but only if the version did not
    move since the play was read; ``None`` when it did (the caller re-reads and retries).

    A plain edit (no ``along``) leaves the play, its table and the edit loaded as written,
    so the answer drawn next reads nothing again: the play is exactly what this request
    wrote (its version says so), and the rest is what the request loaded to begin with.
    """
    version = play.version
    written_values = {**values, "version": version + 1}
    try:
        written = db.session.execute(
            _play_update(frozenset(written_values)),
            {**written_values, "play_id": play.id, "seen_version": version},
        )
        if written.rowcount != 1:  # type: ignore[attr-defined]
            db.session.rollback()
            return None
        # The loaded play is now what was written (``along`` may read it): set so, as if
        # read back, without a query. A failed commit below expires it all again.
        for name, value in written_values.items():
            set_committed_value(play, name, value)
        edit.play_id = play.id
        edit.number = version + 1
        db.session.add(edit)
        # A game of a series: the table page shows the series' standings as they stand.
        tables.touch(play.table, every_time=play.series_id is not None)
        if along is None:
            _commit_keeping_loaded()
        else:
            along()
            db.session.commit()
            read_again(play)
    except OperationalError as error:
        # SQLite's lock stayed taken for longer than its busy timeout: nothing was written,
        # and the phone is asked to try again rather than shown a server error.
        db.session.rollback()
        if is_contention(error):
            raise WriteContention from error
        raise
    return edit


@functools.cache
def _play_update(columns: frozenset[str]) -> Update:
    """The UPDATE of a play's ``columns`` guarded by its version, built once per set of
    columns (building it cost more than running it). Plain SQL: the caller sets the
    values on the loaded play itself (``synchronize_session`` off)."""
    return (
        update(Play)
        .where(Play.id == bindparam("play_id"), Play.version == bindparam("seen_version"))
        .values({name: bindparam(name) for name in sorted(columns)})
        .execution_options(synchronize_session=False)
    )


def as_stored(play: Play) -> None:
    """Make ``play`` what is stored, for the answer drawn after a change. Whatever a change
    left unsaved is dropped; a play a failed or committed change expired is read again. A
    plain edit this request committed left the play exactly as written (see
    :func:`_commit`): it is not read back."""
    session = db.session()
    if session.new or session.dirty or session.deleted:
        session.rollback()
    if inspect(play).expired_attributes:
        read_again(play)


def _commit_keeping_loaded() -> None:
    """Commit without expiring what the session holds (``expire_on_commit`` for this one
    commit): every object in it was read or written by this request, so reading each back
    again afterwards, one query apiece, would find what is already there."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


def _cache_result(play: Play, game: Game) -> None:
    play.result = stored_result_json(game, play.state)
    play.engine_version = game.engine_version


def table_outcomes(
    table: Table,
    *,
    results: Mapping[int, dict[str, Any] | None] | None = None,
    series_results: Mapping[int, dict[str, Any] | None] | None = None,
) -> list[tables.Outcome]:
    """What the table's running totals count, from the same current results the pages
    show: each finished single game, and each series once all its games are finished
    (as one result with its summed score). ``results`` and ``series_results``: each
    finished play's and each series' result by id, when the caller has them already."""
    outcomes = []
    for play in table.plays:
        if play.series_id is None and play.finished:
            result = current_result(play) if results is None else results[play.id]
            if result is not None:
                outcomes.append(tables.Outcome(play.game, result, play.player_ids))
    for series in table.series:
        summed = series_result(series) if series_results is None else series_results[series.id]
        if summed is not None and summed["over"]:
            first = series.plays[0].player_ids if series.plays else None
            outcomes.append(tables.Outcome(series.game, summed, first))
    return outcomes


def play_again(play: Play) -> Play:
    """Start the same game with the same options after a finished single game; commits."""
    if not play.finished or play.series is not None:
        raise EditRefused([Problem("again", _("Finish this game first to play it again."))])
    return start_play(play.table, play.game, options=play.options)


@unit_of_work
def delete_play(play: Play) -> None:
    """Delete a play for good (a game started by mistake, or entered twice) with its
    edits, its photos (their files once committed) and its rows in the group's results:
    the table's totals and the group's statistics and ratings stop counting it; commits.

    In a series only its newest game can go, so that the others keep their numbers; the
    series goes with its only game. :class:`EditRefused` for an older game of a series.
    """
    if not deletable(play):
        raise EditRefused([Problem("delete", _(SERIES_DELETE_MESSAGE))])
    series = play.series
    groups.record_results(play, finished_at=None)
    tables.bump(play.table)
    db.session.delete(play)
    if series is not None and len(series.plays) == 1:
        db.session.delete(series)


def deletable(play: Play) -> bool:
    """Whether :func:`delete_play` would delete the play (rather than refuse)."""
    series = play.series
    return series is None or play.series_index == len(series.plays) - 1


def newer_play(play: Play) -> Play | None:
    """The table's newest game when it was started after this one (phones still on this
    one are offered to open it)."""
    newer = select(Play).where(Play.table_id == play.table_id, Play.id > play.id)
    return db.session.scalars(newer.order_by(Play.id.desc()).limit(1)).first()


def set_status(play: Play, *, finished: bool, author: Author) -> Edit:
    """Finish a play (final standings count in the totals) or reopen it; commits."""
    game = game_of(play)
    status = PlayStatus.FINISHED if finished else PlayStatus.ACTIVE
    kind = EditKind.FINISH if finished else EditKind.REOPEN
    for _attempt in range(MAX_WRITE_ATTEMPTS):
        read_again(play)
        if play.status == status.value:
            raise EditRefused([Problem("status", _(ALREADY[status]))])
        if play.version >= caps.MAX_EDITS_PER_PLAY + caps.STATUS_CHANGES_PAST_CAP:
            raise EditRefused([Problem("status", caps.too_many_status_changes())])
        finished_at = utcnow() if finished else None

        def along(at: datetime | None = finished_at) -> None:
            tables.bump(play.table)
            # A group's statistics count finished plays only: written or removed together.
            groups.record_results(play, finished_at=at)

        edit = _commit(
            play,
            values={
                "status": status.value,
                "finished_at": finished_at,
                "result": stored_result_json(game, play.state),
                "engine_version": game.engine_version,
            },
            edit=Edit(kind=kind.value, device=author.device, author=author.name),
            along=along,
        )
        if edit is not None:
            return edit
    raise WriteContention


def describe_path(game: Game, state: Mapping[str, Any], parts: Sequence[str | int]) -> str:
    """A field's name for people ("Ben's Hoopoe"), from the game when it knows one."""
    return game.describe_path(state, parts)


def display_value(game: Game, parts: Sequence[str | int], value: Any) -> str:
    """A stored value as people read it."""
    return game.display_value(parts, value)


# --- what a play's page shows -----------------------------------------------------------


@dataclass(frozen=True)
class PlayView:
    """Everything a play's page shows besides the state itself, read in one call."""

    play: Play
    game: Game
    result: dict[str, Any] | None
    #: The standings in one sentence (who leads or won, and what decided it).
    explanation: str | None
    #: The number of the edit this page's Undo reverts (its form names it), if any.
    undo_target: int | None
    #: How many edits the history lists.
    history_count: int
    series_result: dict[str, Any] | None
    series_explanation: str | None
    #: Why each player is ahead of the next one, a short line per pair.
    pair_lines: list[str]
    #: Which rules entry each breakdown line, tiebreak and verdict links to.
    rule_refs: ResultRules
    #: Whether the game is over by its rules, in words.
    ending: explain.Ending
    #: The table's game started after this one, when this one is finished (phones still
    #: on it are offered the next one).
    newer_play: Play | None


def view(play: Play, *, can_edit: bool) -> PlayView:
    """The play as its page shows it to a phone that can (or cannot) edit it."""
    result = current_result(play)
    game = game_of(play)
    series = series_result(play.series) if play.series is not None else None
    target = last_undoable(play) if can_edit and not play.finished else None
    return PlayView(
        play=play,
        game=game,
        result=result,
        explanation=explain.decision(result, over=play.finished) if result else None,
        undo_target=target,
        history_count=play.version,
        series_result=series,
        series_explanation=explain.decision(series, over=series["over"]) if series else None,
        pair_lines=explain.pairs(result) if result else [],
        rule_refs=result_rules(game, play.state, result),
        ending=explain.ending(game, result),
        newer_play=newer_play(play) if play.finished else None,
    )
