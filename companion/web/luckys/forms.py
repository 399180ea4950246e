"""Lucky's Misadventures forms: the play page's actions (every field checked here)."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext
from wtforms import Field, Form, HiddenField, IntegerField, StringField
from wtforms.validators import (
    AnyOf,
    InputRequired,
    Length,
    NumberRange,
    StopValidation,
    ValidationError,
)

from companion.games.luckys import facts as f
from companion.games.names import MAX_NAME_LENGTH
from companion.games.text import N_, _
from companion.services.luckys import COUNT_FIELDS
from companion.web.forms import TextForm, split_tap

PLAYER_RANGE = NumberRange(0, f.MAX_PLAYERS - 1, lazy_gettext("Pick one of the players."))
JUNK_FIELD = re.compile(r"junk\.[0-9]{1,2}")
#: Refused next to a count that is not one of the tally's.
NOT_HERE = N_("This cannot be changed here.")


class Required(InputRequired):
    """:class:`InputRequired` whose message is said in the reader's language when it is
    raised: the messages of a form's errors are plain strings, as every other validator's
    (which format theirs) already are."""

    def __call__(self, form: Form, field: Field) -> None:
        try:
            super().__call__(form, field)
        except StopValidation as stop:
            raise StopValidation(*(str(arg) for arg in stop.args)) from None


class PlayerForm(TextForm):
    """Whose deck (their seat, from 0)."""

    player = IntegerField(
        lazy_gettext("Player"),
        validators=[Required(lazy_gettext("Pick a player.")), PLAYER_RANGE],
    )


#: A tap's one field: ``"<field> <value> <base>"`` (see ``CountForm``, ``split_tap``).
TAP_MESSAGE = N_("Say which count to change, its new value and the value shown.")


def _tap_parts(tap: str) -> tuple[str, str, str] | None:
    """A count's tap in its three parts (no count's name holds a space), else None."""
    parts = split_tap(tap)
    return None if parts is None or " " in parts[0] else parts


class CountForm(PlayerForm):
    """One count of a deck: the field, the typed or tapped value, the value shown.

    A stepper's button sends the three as one field, ``tap`` (``"<field> <value>
    <base>"``: the button of a deck's one form, which carries what it changes); a typed
    count sends them apart. :meth:`read_tap` puts a tap's parts in the three fields.
    """

    tap = StringField()
    field = HiddenField(validators=[Required(lazy_gettext("Say which count to change."))])
    value = StringField(lazy_gettext("Count"))
    base = HiddenField()

    def read_tap(self) -> None:
        """Fill ``field``, ``value`` and ``base`` from ``tap``, when one was sent (a
        malformed one is refused by :meth:`validate_tap`)."""
        parts = _tap_parts(self.tap.data or "") if self.tap.raw_data else None
        if parts is not None:
            for field, part in zip((self.field, self.value, self.base), parts, strict=True):
                field.data, field.raw_data = part, [part]

    def validate(self, extra_validators: Any = None) -> bool:
        """The tap read first, so that its parts are checked like the fields they fill."""
        self.read_tap()
        valid: bool = super().validate(extra_validators=extra_validators)
        return valid

    def validate_tap(self, tap: Any) -> None:
        """A tap, when sent, is three parts and names its count."""
        if tap.raw_data and _tap_parts(tap.data or "") is None:
            raise ValidationError(_(TAP_MESSAGE))

    def validate_field(self, field: Any) -> None:
        """A count the tally has: Lucky, a Hireling, a Machine or a Junk row."""
        if field.data not in COUNT_FIELDS and not JUNK_FIELD.fullmatch(field.data or ""):
            raise ValidationError(_(NOT_HERE))


class JunkForm(PlayerForm):
    """One more Junk card: its kind and printed VP."""

    kind = StringField(
        lazy_gettext("Kind"),
        validators=[AnyOf(list(f.JUNK), lazy_gettext("Pick a kind of Junk."))],
    )
    vp = IntegerField(
        lazy_gettext("Printed VP"),
        validators=[
            Required(lazy_gettext("Enter the VP printed on the card.")),
            NumberRange(
                min(f.JUNK_VP_RANGE), max(f.JUNK_VP_RANGE), lazy_gettext("Enter 0 to 9 VP.")
            ),
        ],
    )


TYPE_NAME = N_("Type the Maven's name.")


class MavenForm(PlayerForm):
    """A Maven by name, faction and printed VP (2-6)."""

    name = StringField(
        lazy_gettext("Maven's name"),
        validators=[
            Required(lazy_gettext(TYPE_NAME)),
            Length(max=MAX_NAME_LENGTH, message=lazy_gettext("Names have at most 40 characters.")),
        ],
    )
    faction = StringField(
        lazy_gettext("Faction"),
        validators=[
            AnyOf([x.value for x in f.Faction], lazy_gettext("Pick Tinkerer, Wicked or Oddling."))
        ],
    )
    vp = IntegerField(
        lazy_gettext("VP"),
        validators=[
            Required(lazy_gettext("Enter the Maven's VP (2 to 6).")),
            NumberRange(2, 6, lazy_gettext("A Maven is worth 2 to 6 VP.")),
        ],
    )

    def validate_name(self, field: Any) -> None:
        """Not only spaces."""
        if not (field.data or "").strip():
            raise ValidationError(_(TYPE_NAME))


class RemoveMavenForm(PlayerForm):
    """Take out the Maven the phone showed at ``index``."""

    index = IntegerField(validators=[Required(), NumberRange(0, 99)])
    name = HiddenField()


class FateForm(TextForm):
    """One Fate card tapped; the rounds and cards this phone showed."""

    code = StringField(
        lazy_gettext("Fate card"),
        validators=[AnyOf(list(f.FATE), lazy_gettext("Pick a Fate card."))],
    )
    rounds = IntegerField(validators=[Required(), NumberRange(0, f.ROUNDS)])
    cards = IntegerField(validators=[Required(), NumberRange(0, f.FATE_PER_ROUND)])


class OptionalPlayerForm(TextForm):
    """A player's seat, or "" for nobody."""

    player = StringField(lazy_gettext("Player"))

    def validate_player(self, field: Any) -> None:
        """Empty (nobody) or a seat number."""
        data = field.data or ""
        if data and not (data.isdigit() and int(data) < f.MAX_PLAYERS):
            raise ValidationError(_("Pick one of the players."))

    @property
    def seat(self) -> int | None:
        """The seat, or None for nobody."""
        data = self.player.data or ""
        return int(data) if data else None


class EscapeForm(OptionalPlayerForm):
    """Who escaped and how ("" for nobody)."""

    by = StringField(
        lazy_gettext("How"),
        validators=[AnyOf(["", *(e.value for e in f.Escape)], lazy_gettext("Pick how."))],
    )
