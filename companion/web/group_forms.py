"""The forms of a group's pages: creating it, changing its roster, starting a table, and
the history filters. Every field is checked on the server (see ``forms.TextForm``)."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext
from wtforms import DateField, FieldList, IntegerField, StringField
from wtforms.validators import AnyOf, DataRequired, Length, NumberRange, Optional, ValidationError

from companion.games.names import MAX_NAME_LENGTH
from companion.games.text import N_, _
from companion.models import GROUP_NAME_LENGTH
from companion.web.forms import TextForm

#: Database ids are 32-bit integers: a larger number names nobody (and must not reach
#: PostgreSQL, which would refuse it).
MAX_ID = 2**31 - 1
FIRST_PLAYER_ROWS = 6
NEW_NAME_ROWS = 2
MEMBER_CHANGES = ("add", "rename", "remove", "merge")
#: A player id as text: a few ASCII digits (``str.isdigit`` also admits "²").
ID_TEXT = re.compile(r"[0-9]{1,10}")


def _id_field(label: str = "") -> IntegerField:
    return IntegerField(
        lazy_gettext(label) if label else "",
        validators=[Optional(), NumberRange(1, MAX_ID, lazy_gettext("This is not a player."))],
    )


class NewGroupForm(TextForm):
    """A group's name and its first players (more can join later)."""

    name = StringField(
        lazy_gettext("Name of the group"),
        validators=[
            DataRequired(lazy_gettext("Give the group a name.")),
            Length(max=GROUP_NAME_LENGTH),
        ],
    )
    players = FieldList(
        StringField(lazy_gettext("Player"), validators=[Length(max=MAX_NAME_LENGTH)]),
        min_entries=FIRST_PLAYER_ROWS,
        max_entries=FIRST_PLAYER_ROWS,
    )

    @property
    def names(self) -> list[str]:
        """The typed names, trimmed, blanks dropped."""
        return [name.strip() for name in self.players.data if name and name.strip()]

    def validate_players(self, _field: Any) -> None:
        """No two names alike."""
        folded = [n.casefold() for n in self.names]
        repeated = next((n for n in self.names if folded.count(n.casefold()) > 1), None)
        if repeated is not None:
            raise ValidationError(_("%(name)s is listed twice; names must differ.", name=repeated))


class MemberForm(TextForm):
    """One change to the roster: add, rename, remove, or merge a duplicate into another."""

    action = StringField(
        validators=[
            AnyOf(
                MEMBER_CHANGES, message=lazy_gettext("Say what to change: add, rename or merge.")
            )
        ]
    )
    player = _id_field()
    into = _id_field(N_("Merge into"))
    name = StringField(lazy_gettext("Name"), validators=[Length(max=MAX_NAME_LENGTH)])


class StartTableForm(TextForm):
    """Tonight's players: the picked members in seating order, and any new names."""

    seats = StringField(validators=[Length(max=400)])
    new = FieldList(
        StringField(lazy_gettext("New player"), validators=[Length(max=MAX_NAME_LENGTH)]),
        min_entries=NEW_NAME_ROWS,
        max_entries=NEW_NAME_ROWS,
    )

    @property
    def seated(self) -> list[int]:
        """The picked members' ids in seating order (checked by ``validate_seats``)."""
        return [int(part) for part in (self.seats.data or "").split(",") if part.strip()]

    def validate_seats(self, field: Any) -> None:
        """A comma-separated list of player ids."""
        parts = [part.strip() for part in (field.data or "").split(",") if part.strip()]
        if any(not ID_TEXT.fullmatch(part) or int(part) > MAX_ID for part in parts):
            raise ValidationError(_("Pick the players again: this list is not one of ours."))


class HistoryFilterForm(TextForm):
    """What the history list is narrowed to (a GET form: no CSRF token)."""

    class Meta:
        csrf = False

    game = StringField(lazy_gettext("Game"), validators=[Optional(), Length(max=40)])
    player = _id_field(N_("Player"))
    since = DateField(lazy_gettext("From"), validators=[Optional()])
    until = DateField(lazy_gettext("To"), validators=[Optional()])

    def validate_until(self, field: Any) -> None:
        """The end is not before the start."""
        if field.data and self.since.data and field.data < self.since.data:
            raise ValidationError(_("The end date is before the start date."))


class VersusForm(TextForm):
    """Two players to compare (a GET form)."""

    class Meta:
        csrf = False

    a = _id_field(N_("Player"))
    b = _id_field(N_("Against"))
