"""Flask-WTF forms, one per use case; every field is validated on the server.

Every form here derives from :class:`TextForm`, which refuses control and invisible
formatting characters in any text it receives, next to the field that holds them.

Labels and messages fixed when a form class is defined are ``lazy_gettext``: they are
worded in the language of the request that shows them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
)
from wtforms.validators import AnyOf, DataRequired, Length, Optional, ValidationError

from companion.games.names import (
    MAX_NAME_LENGTH,
    hidden_character,
    hidden_character_message,
    name_problems,
)
from companion.games.text import N_, _
from companion.services.tables import JOIN_CODE_LENGTH, MAX_PLAYERS_AT_TABLE

MIN_PLAYERS_AT_TABLE = 1


class TextForm(FlaskForm):
    """A form that refuses control and invisible formatting characters in every field.

    Checked after the fields' own validators, on every leaf field (list entries and
    sub-forms too), so a field added later is covered without remembering a validator.
    """

    def validate(self, extra_validators: Any = None) -> bool:
        """Run the usual validation, then the hidden-character check on every field."""
        valid: bool = super().validate(extra_validators=extra_validators)
        for field in _leaf_fields(self):
            # A lazy message (a validator's, set when the class was defined) as text: a
            # page escapes it as any other, and it is worded once.
            field.errors = [str(message) for message in field.errors]
            hidden = hidden_character(field.data) if isinstance(field.data, str) else None
            if hidden is not None and not field.errors:
                # Name the field ("Player can't contain ..."): the message sits next to it.
                label = field.label.text
                subject = str(label) if label else "This field"
                field.errors = [hidden_character_message(hidden, subject=subject)]
                valid = False
        return valid


def _leaf_fields(fields: Any) -> Iterator[Field]:
    """Every field holding one value: list entries and sub-form fields, recursively."""
    for field in fields:
        if isinstance(field, FieldList):
            yield from _leaf_fields(field.entries)
        elif isinstance(field, FormField):
            yield from _leaf_fields(field.form)
        else:
            yield field


class RosterForm(TextForm):
    """Player names in seating order; blank rows are ignored."""

    players = FieldList(
        StringField(lazy_gettext("Player"), validators=[Length(max=MAX_NAME_LENGTH)]),
        min_entries=MIN_PLAYERS_AT_TABLE,
    )

    @property
    def names(self) -> list[str]:
        """The entered names, trimmed, blanks dropped, in seating order."""
        return [name.strip() for name in self.players.data if name and name.strip()]

    def validate_players(self, _field: Any) -> None:
        """At least one player, at most six, and the names' rules (the engines' own: no
        two alike, none that shows nothing)."""
        names = self.names
        if not names:
            raise ValidationError(_("Enter at least one player's name."))
        if len(names) > MAX_PLAYERS_AT_TABLE:
            raise ValidationError(
                _("A table seats at most %(count)s players.", count=MAX_PLAYERS_AT_TABLE)
            )
        problems = name_problems(names, path=str)
        if problems:
            raise ValidationError(problems[0].message)


class JoinForm(TextForm):
    """The short code another phone shows."""

    code = StringField(
        lazy_gettext("Join code"),
        validators=[DataRequired(lazy_gettext("Type the code shown on the table's page."))],
    )

    def validate_code(self, field: Any) -> None:
        """A code has six letters or digits (spaces and dashes are ignored)."""
        cleaned = "".join(ch for ch in (field.data or "") if ch.isalnum())
        if len(cleaned) != JOIN_CODE_LENGTH:
            raise ValidationError(
                _("A join code has %(count)s letters or digits.", count=JOIN_CODE_LENGTH)
            )


class StartPlayForm(TextForm):
    """Which game to start at the table, and whether as a series."""

    game = SelectField(
        lazy_gettext("Game"), validators=[DataRequired(lazy_gettext("Pick a game."))]
    )
    series = BooleanField(lazy_gettext("Three games in a row (the total decides)"))


#: A tap's one field: ``"<path> <value> <base>"``. The path may hold spaces (a player's
#: name in it), the value and the base may not; either may be empty.
TAP_PARTS = 3
TAP_MESSAGE = N_("Say which field to change, its new value and the value shown.")


def split_tap(tap: str) -> tuple[str, str, str] | None:
    """A tap's ``"<what> <value> <base>"`` in its three parts (``what`` may hold spaces,
    the value and the base may not; either may be empty), or None when it is not three
    parts that name what to change."""
    parts = tap.rsplit(" ", TAP_PARTS - 1)
    if len(parts) != TAP_PARTS or not parts[0].strip():
        return None
    return parts[0], parts[1], parts[2]


class EditForm(TextForm):
    """One field of a play set to a value; ``base`` is the value the phone showed.

    Sent either as three fields (``path``, ``value``, ``base``: a typed number, a picked
    card, any game's small form) or as one, ``tap`` (``"<path> <value> <base>"``): the
    button of a form that holds many, which carries what it changes. After
    :meth:`validate`, ``path``, ``value`` and ``base`` hold what was asked either way.
    """

    tap = StringField()
    path = HiddenField()
    value = StringField(lazy_gettext("Value"))
    base = HiddenField()

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' checks, then the tap (when sent) read into path, value and base."""
        if not super().validate(extra_validators=extra_validators):
            return False
        if self.tap.raw_data:
            return self._read_tap(self.tap.data or "")
        if not self.path.data:
            self.path.errors = [_("Say which field to change.")]
            return False
        return True

    def _read_tap(self, tap: str) -> bool:
        parts = split_tap(tap)
        if parts is None:
            self.path.data = ""
            self.tap.errors = [_(TAP_MESSAGE)]
            return False
        self.path.data, self.value.data, self.base.data = parts
        self.base.raw_data = [parts[2]]
        return True

    @property
    def shown(self) -> str | None:
        """The value the phone showed (``None`` when it did not say: not checked)."""
        return self.base.data if self.base.raw_data else None

    @property
    def problems(self) -> str:
        """What is wrong with the request, in one sentence for next to the field."""
        return " ".join([*self.tap.errors, *self.path.errors]) or _("Invalid edit.")


ROSTER_CHANGES = ("add", "rename", "up", "down", "remove")


class SeatForm(TextForm):
    """One change to the roster of an existing table: add, rename, move or remove."""

    action = StringField(
        validators=[
            AnyOf(
                ROSTER_CHANGES,
                message=lazy_gettext("Say what to change: add, rename, move or remove."),
            )
        ]
    )
    player = IntegerField(validators=[Optional()])
    name = StringField(lazy_gettext("Name"), validators=[Length(max=MAX_NAME_LENGTH)])


class IdentityForm(TextForm):
    """Who is holding this phone, so the history can name them."""

    name = SelectField(lazy_gettext("This phone belongs to"))
