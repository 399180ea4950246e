"""Lucky's Misadventures forms: the play page's actions (every field checked here)."""

from __future__ import annotations

import re
from typing import Any

from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, ValidationError

from companion.games.luckys import facts as f
from companion.games.names import MAX_NAME_LENGTH
from companion.services.luckys import COUNT_FIELDS
from companion.web.forms import TextForm, split_tap

PLAYER_RANGE = NumberRange(0, f.MAX_PLAYERS - 1, "Pick one of the players.")
JUNK_FIELD = re.compile(r"junk\.[0-9]{1,2}")


class PlayerForm(TextForm):
    """Whose deck (their seat, from 0)."""

    player = IntegerField("Player", validators=[InputRequired("Pick a player."), PLAYER_RANGE])


#: A tap's one field: ``"<field> <value> <base>"`` (see ``CountForm``, ``split_tap``).
TAP_MESSAGE = "Say which count to change, its new value and the value shown."


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
    field = HiddenField(validators=[InputRequired("Say which count to change.")])
    value = StringField("Count")
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
            raise ValidationError(TAP_MESSAGE)

    def validate_field(self, field: Any) -> None:
        """A count the tally has: Lucky, a Hireling, a Machine or a Junk row."""
        if field.data not in COUNT_FIELDS and not JUNK_FIELD.fullmatch(field.data or ""):
            raise ValidationError("This cannot be changed here.")


class JunkForm(PlayerForm):
    """One more Junk card: its kind and printed VP."""

    kind = StringField("Kind", validators=[AnyOf(list(f.JUNK), "Pick a kind of Junk.")])
    vp = IntegerField(
        "Printed VP",
        validators=[
            InputRequired("Enter the VP printed on the card."),
            NumberRange(min(f.JUNK_VP_RANGE), max(f.JUNK_VP_RANGE), "Enter 0 to 9 VP."),
        ],
    )


class MavenForm(PlayerForm):
    """A Maven by name, faction and printed VP (2-6)."""

    name = StringField(
        "Maven's name",
        validators=[
            InputRequired("Type the Maven's name."),
            Length(max=MAX_NAME_LENGTH, message="Names have at most 40 characters."),
        ],
    )
    faction = StringField(
        "Faction",
        validators=[AnyOf([x.value for x in f.Faction], "Pick Tinkerer, Wicked or Oddling.")],
    )
    vp = IntegerField(
        "VP",
        validators=[
            InputRequired("Enter the Maven's VP (2 to 6)."),
            NumberRange(2, 6, "A Maven is worth 2 to 6 VP."),
        ],
    )

    def validate_name(self, field: Any) -> None:
        """Not only spaces."""
        if not (field.data or "").strip():
            raise ValidationError("Type the Maven's name.")


class RemoveMavenForm(PlayerForm):
    """Take out the Maven the phone showed at ``index``."""

    index = IntegerField(validators=[InputRequired(), NumberRange(0, 99)])
    name = HiddenField()


class FateForm(TextForm):
    """One Fate card tapped; the rounds and cards this phone showed."""

    code = StringField("Fate card", validators=[AnyOf(list(f.FATE), "Pick a Fate card.")])
    rounds = IntegerField(validators=[InputRequired(), NumberRange(0, f.ROUNDS)])
    cards = IntegerField(validators=[InputRequired(), NumberRange(0, f.FATE_PER_ROUND)])


class OptionalPlayerForm(TextForm):
    """A player's seat, or "" for nobody."""

    player = StringField("Player")

    def validate_player(self, field: Any) -> None:
        """Empty (nobody) or a seat number."""
        data = field.data or ""
        if data and not (data.isdigit() and int(data) < f.MAX_PLAYERS):
            raise ValidationError("Pick one of the players.")

    @property
    def seat(self) -> int | None:
        """The seat, or None for nobody."""
        data = self.player.data or ""
        return int(data) if data else None


class EscapeForm(OptionalPlayerForm):
    """Who escaped and how ("" for nobody)."""

    by = StringField("How", validators=[AnyOf(["", *(e.value for e in f.Escape)], "Pick how.")])
