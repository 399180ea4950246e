"""Owl About forms: the options before a game and the actions of the play page."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from companion.games import owl_about as oa
from companion.games.text import _, ngettext
from companion.web.game_pages import OptionsForm

MODE_LABELS = {
    oa.Mode.BASIC: lazy_gettext("Basic"),
    oa.Mode.QUICK: lazy_gettext("Quick (all play at once)"),
    oa.Mode.ADVANCED: lazy_gettext("Advanced (special effects)"),
}
MODE_HINT = lazy_gettext(
    "Basic: follow speed, highest FP takes the trick. Quick: everyone plays at once; a "
    "shared highest FP gives way to the next highest (by the app's reading, down to an FP "
    "nobody else has), else the lead wins. Advanced: basic plus the cards' special "
    "effects, which may hand a trick to someone else, and optional variants."
)
#: The rulebook's advanced variants, each on its own (``night-collection``, both night
#: collections at once, stays an API name only).
VARIANT_LABELS = {
    oa.Variant.SAME_SPEED: lazy_gettext("Same speed: +1 VP for taking a trick of equal speeds"),
    oa.Variant.NIGHT_COLLECTION_3: lazy_gettext(
        "Night Collection 3: 3 night cards in a round, no VP for it"
    ),
    oa.Variant.NIGHT_COLLECTION_4: lazy_gettext(
        "Night Collection 4: all 4 night cards, your total back to 0"
    ),
}


# --- the options form -------------------------------------------------------------------


class OwlAboutOptions(OptionsForm):
    """Mode, advanced variants and the target VP (blank: the player chart's)."""

    mode = SelectField(
        lazy_gettext("Mode"),
        description=MODE_HINT,
        choices=[SelectChoice(m.value, label) for m, label in MODE_LABELS.items()],
        default=oa.Mode.BASIC.value,
    )
    variants = SelectMultipleField(
        lazy_gettext("Variants (advanced mode only)"),
        choices=[SelectChoice(v.value, label) for v, label in VARIANT_LABELS.items()],
        option_widget=CheckboxInput(),
        widget=ListWidget(prefix_label=False),
        validate_choice=True,
    )
    target = IntegerField(
        lazy_gettext("Target VP"),
        validators=[
            Optional(),
            NumberRange(
                min=oa.MIN_TARGET,
                max=oa.MAX_TARGET,
                # NumberRange fills in its bounds.
                message=lazy_gettext("Enter a target from %(min)s to %(max)s VP."),
            ),
        ],
    )

    def validate_variants(self, field: Any) -> None:
        """Variants belong to the advanced mode."""
        if field.data and self.mode.data != oa.Mode.ADVANCED:
            raise ValidationError(_("Variants are only played in advanced mode."))

    def options(self) -> dict[str, Any]:
        """The engine's options; a blank target takes the chart's default."""
        chosen: dict[str, Any] = {"mode": self.mode.data, "variants": list(self.variants.data)}
        if self.target.data is not None:
            chosen["target"] = self.target.data
        return chosen

    def context(self) -> dict[str, Any]:
        """The player chart, this table's row of it and the target it gives (said in the
        target's hint)."""
        count = len(self.table.players)
        row = oa.PLAYER_CHART.get(count)
        return {
            "chart": oa.player_chart(),
            "player_count": count,
            "target_hint": ngettext(
                "Leave blank for the chart's target with %(num)s player: %(target)s VP. The "
                "game ends after the round in which someone reaches it; the fewest VP win.",
                "Leave blank for the chart's target with %(num)s players: %(target)s VP. The "
                "game ends after the round in which someone reaches it; the fewest VP win.",
                count,
                target=row.target if row is not None else "—",
            ),
        }


# --- forms of the play page -------------------------------------------------------------


class CardForm(FlaskForm):
    """One tap on the card picker: the card, and the trick as this phone showed it."""

    rounds = IntegerField(validators=[InputRequired()])
    trick = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    seen = HiddenField()
    card = StringField(validators=[InputRequired(lazy_gettext("Pick a card."))])

    def validate_card(self, field: Any) -> None:
        """A card of the deck."""
        if field.data not in oa.DECK:
            raise ValidationError(_("Pick a card from 1 to 10 or Night 4 to 7."))

    @property
    def seen_cards(self) -> list[str]:
        """The cards of the trick the phone showed."""
        return (self.seen.data or "").split()


class LeadForm(FlaskForm):
    """Who leads: a new round's first trick, or the first trick before its first card."""

    rounds = IntegerField(validators=[InputRequired()])
    lead = StringField(validators=[InputRequired(lazy_gettext("Pick who leads."))])


class OverrideForm(FlaskForm):
    """A special effect handed a trick to someone else (empty: the cards decide)."""

    rounds = IntegerField(validators=[InputRequired()])
    trick = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    winner = StringField()


class PlayerForm(FlaskForm):
    """An action for one player (a penalty)."""

    player = StringField(validators=[InputRequired(lazy_gettext("Pick a player."))])


class HandForm(FlaskForm):
    """A player's hand after the draft, typed as card codes."""

    player = StringField(validators=[InputRequired(lazy_gettext("Pick a player."))])
    hand = StringField(lazy_gettext("Hand"))


class TrophiesForm(FlaskForm):
    """Quick entry: a round as trophies per player, in seating order."""

    round = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    rounds = IntegerField(validators=[InputRequired()])
    trophies = FieldList(
        IntegerField(
            validators=[
                InputRequired(lazy_gettext("Enter a number of trophies (0 or more).")),
                NumberRange(min=0, message=lazy_gettext("Trophies cannot be negative.")),
            ]
        )
    )
