"""The one way through the web layer for a play: load it, run an action, answer.

In the spirit of flaskr's ``get_post``: :func:`load_play` opens a table by its link and
finds one of its plays, or answers 404 (403 for a change through the read-only link;
a play the table no longer has offers the table's page).
:func:`run` runs a service action and answers with the play: a refusal comes back as
422 next to the part of the page it concerns, a clash with another phone as 409 with the
fresh value. :func:`act` is both for an action with a form to check first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from typing import Any

from flask import abort
from flask_wtf import FlaskForm
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from companion.games.problems import Problem, problem_messages
from companion.games.text import N_, _, sentences
from companion.services import plays, tables
from companion.web.context import READ_ONLY_MESSAGE, note_table, seat_of
from companion.web.errors import offer_the_table
from companion.web.play.panel import OpenPlay, play_response

UNPROCESSABLE = HTTPStatus.UNPROCESSABLE_ENTITY
CONFLICT = HTTPStatus.CONFLICT
CONTENTION_MESSAGE = N_("Many phones are editing at once; try again.")
INVALID_MESSAGE = N_("This action is not valid.")
NOT_AT_TABLE_MESSAGE = N_("This game is not at this table: it may have been deleted.")


class PlayNotAtTable(NotFound):
    """The link opens its table, but the table has no such play (any more): a 404 that
    offers the table's page (``errors.offer_the_table``)."""


def load_play(
    token: str, play_id: int, *, game: str | None = None, edit: bool = False
) -> OpenPlay:
    """The play ``play_id`` of the table this link opens, else 404 (also when it is not a
    play of ``game``). ``edit``: the link must be an edit link (403 otherwise, whatever
    play it asks for)."""
    found = tables.find_play(token, play_id)
    if found is None:
        abort(404)
    table_access, play = found
    if edit and not table_access.can_edit:  # whatever play it asks for
        abort(HTTPStatus.FORBIDDEN, _(READ_ONLY_MESSAGE))
    if play is None or game not in (None, play.game):
        offer_the_table(token)
        raise PlayNotAtTable(_(NOT_AT_TABLE_MESSAGE))
    note_table(table_access)
    return OpenPlay(table_access, play, token, seat_of(table_access))


def run(
    opened: OpenPlay,
    action: Callable[[], object],
    *,
    key: str,
    at_problem_paths: bool = False,
    conflict_as: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    """Run a service action and answer with the fresh play.

    Refusals and clashes are shown at ``key`` (``at_problem_paths``: a refusal at each
    problem's own field, a clash at the field that changed). ``conflict_as`` names the
    template variable a clash is also passed as (for a notice of the fresh value);
    ``extra`` goes to the game's view hook (what the action entered, a verdict...).
    """
    conflict: plays.EditConflict | None = None
    errors: dict[str, str]
    try:
        action()
    except plays.EditRefused as refused:
        if at_problem_paths:
            errors = {p.path: RuledMessage.of(p.message, [p]) for p in refused.problems}
        else:
            message = sentences(*problem_messages(refused.problems))
            errors = {key: RuledMessage.of(message, refused.problems)}
        status = UNPROCESSABLE
    except plays.EditConflict as clash:
        errors = {clash.path if at_problem_paths else key: clash.message}
        status, conflict = CONFLICT, clash
    except plays.WriteContention:
        errors, status = {key: _(CONTENTION_MESSAGE)}, CONFLICT
    else:
        errors, status = {}, HTTPStatus.OK
    # Only a clash is shown this once: an answer without one is the play as every phone
    # sees it, which the panel cache keeps for the other phones' next poll.
    shown: dict[str, Any] = {conflict_as: conflict} if conflict_as and conflict else {}
    return play_response(opened, status=status, errors=errors, extra=extra, **shown)


class RuledMessage(str):
    """A refusal's sentence that knows the rules entry it applies (``rule``): the error
    macro links it (see ``error_for`` in macros.html)."""

    rule: str | None = None

    @classmethod
    def of(cls, message: str, problems: Sequence[Problem]) -> str:
        """The message, with the rule of the first problem that names one."""
        rule = next((p.rule for p in problems if p.rule), None)
        if rule is None:
            return message
        ruled = cls(message)
        ruled.rule = rule
        return ruled


def refuse(
    opened: OpenPlay,
    key: str,
    message: str,
    *,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    """Answer 422 with ``message`` at ``key`` (a request the action cannot even start)."""
    return play_response(opened, status=UNPROCESSABLE, errors={key: message}, extra=extra)


def act(
    token: str,
    play_id: int,
    form: FlaskForm,
    action: Callable[[OpenPlay], object],
    *,
    key: str,
    game: str | None = None,
    conflict_as: str | None = None,
) -> Response:
    """The shape of most play actions: load the play for editing, check the form (its
    errors at ``key``), run ``action(the play)`` and answer."""
    opened = load_play(token, play_id, game=game, edit=True)
    if not form.validate():
        return refuse(opened, key, form_errors(form))
    return run(opened, lambda: action(opened), key=key, conflict_as=conflict_as)


def form_errors(form: FlaskForm) -> str:
    """Every error message of a form, one sentence after the other (nested fields
    included)."""
    messages = [m for errors in form.errors.values() for m in _flatten(errors)]
    return sentences(*messages) or _(INVALID_MESSAGE)


def _flatten(errors: Any) -> list[str]:
    """The messages of a form's errors, nested or not; a message may be lazy (a
    ``lazy_gettext`` of a field's validator), which is read in the reader's language."""
    if isinstance(errors, Mapping):
        errors = list(errors.values())
    if isinstance(errors, list | tuple):
        return [m for item in errors for m in _flatten(item)]
    return [str(errors)] if errors else []
