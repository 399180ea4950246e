"""OddVille forms: player colours before the game, and the palette every city tap carries
(what the next tap gives: tool, victory points, guild, shield, owner, edges, bonus)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from flask_babel import lazy_gettext
from wtforms import StringField
from wtforms.validators import AnyOf, Optional

from companion.games import oddville as engine
from companion.games.oddville.facts import COLOUR_NAMES, COLOURS
from companion.games.oddville.state import colours_for
from companion.games.text import N_, _
from companion.web.forms import TextForm
from companion.web.game_pages import OptionsForm


class Tool(StrEnum):
    """What tapping a place of the city does."""

    PLACE = "place"
    PICK = "pick"
    MOVE = "move"
    REMOVE = "remove"
    BUILD = "build"
    CHECK = "check"


#: What each tool is called on the palette (English; translated where shown).
TOOL_LABELS: dict[Tool, str] = {
    # TRANSLATORS: an OddVille palette tool: a tap places a card or changes the one there.
    Tool.PLACE: N_("Place / change"),
    # TRANSLATORS: an OddVille palette tool: a tap on a card copies it onto the palette.
    Tool.PICK: N_("Copy a card"),
    # TRANSLATORS: an OddVille palette tool: move a card to an empty place.
    Tool.MOVE: N_("Move"),
    # TRANSLATORS: an OddVille palette tool: take a card out of the city.
    Tool.REMOVE: N_("Remove"),
    # TRANSLATORS: an OddVille palette tool: build the card if the construction rules allow it.
    Tool.BUILD: N_("Build (referee)"),
    # TRANSLATORS: an OddVille palette tool: check a card against the rules, build nothing.
    Tool.CHECK: N_("Check only"),
}
#: Tools of the construction referee: they need the card's four edges.
REFEREE_TOOLS = frozenset({Tool.BUILD, Tool.CHECK})

#: The palette's victory-point choices: type and printed value in one tap.
POINT_CHOICES: dict[str, tuple[engine.Kind, int | None]] = {
    "diamond-5": (engine.Kind.DIAMOND, 5),
    "diamond-4": (engine.Kind.DIAMOND, 4),
    "diamonds": (engine.Kind.DIAMONDS, None),
    "adjacent": (engine.Kind.ADJACENT, None),
    "column": (engine.Kind.COLUMN, None),
    "row": (engine.Kind.ROW, None),
    "adjacent-x3": (engine.Kind.ADJACENT_X3, None),
    "shields": (engine.Kind.SHIELDS, None),
    "guild-1": (engine.Kind.GUILD, 1),
    "guild-2": (engine.Kind.GUILD, 2),
}
EDGE_FIELDS = engine.SIDES
SHIELD_CHOICES = [str(n) for n in range(10)]
DEFAULT_PALETTE = {
    "tool": Tool.PLACE.value,
    "points": "diamond-5",
    "guild": "",
    "shield": "0",
    "owner": "",
    "top": "",
    "right": "",
    "bottom": "",
    "left": "",
    "bonus": "",
    "rotated": "",
}


def point_choice(card: dict[str, Any]) -> str:
    """The palette choice a stored card shows (its type and printed value).

    >>> point_choice({"points": {"kind": "guild", "value": 2}})
    'guild-2'
    """
    points = card.get("points") or {}
    kind, value = points.get("kind"), points.get("value")
    for key, (k, v) in POINT_CHOICES.items():
        if k.value == kind and (v is None or v == value):
            return key
    return DEFAULT_PALETTE["points"]


class PaletteForm(TextForm):
    """The palette and a tapped place (``at``: ``row,col``; ``base``: what the phone showed
    there, ``empty`` or ``card``)."""

    tool = StringField(
        lazy_gettext("Tool"), validators=[Optional(), AnyOf([t.value for t in Tool])]
    )
    points = StringField(
        lazy_gettext("Points"), validators=[Optional(), AnyOf(list(POINT_CHOICES))]
    )
    guild = StringField(
        lazy_gettext("Guild"), validators=[Optional(), AnyOf(["", *engine.GUILDS])]
    )
    shield = StringField(lazy_gettext("Shield"), validators=[Optional(), AnyOf(SHIELD_CHOICES)])
    owner = StringField(lazy_gettext("Owner"))
    top = StringField(lazy_gettext("Top edge"), validators=[Optional(), AnyOf(["", "H", "S"])])
    right = StringField(lazy_gettext("Right edge"), validators=[Optional(), AnyOf(["", "H", "S"])])
    bottom = StringField(
        lazy_gettext("Bottom edge"), validators=[Optional(), AnyOf(["", "H", "S"])]
    )
    left = StringField(lazy_gettext("Left edge"), validators=[Optional(), AnyOf(["", "H", "S"])])
    bonus = StringField(
        lazy_gettext("Bonus"),
        validators=[Optional(), AnyOf(["", *[b.value for b in engine.Bonus]])],
    )
    rotated = StringField(lazy_gettext("Turned"), validators=[Optional(), AnyOf(["", "1"])])
    at = StringField(lazy_gettext("Place"))
    base = StringField(lazy_gettext("Seen"), validators=[Optional(), AnyOf(["empty", "card"])])

    def palette(self) -> dict[str, str]:
        """The palette fields this request sent (the rest stays as the phone had it).

        A whole palette (it names its tool) also says an unticked "turned" box, which a
        browser leaves out.
        """
        sent = {name: self[name].data or "" for name in DEFAULT_PALETTE if self[name].raw_data}
        if self.tool.raw_data:
            sent.setdefault("rotated", "")
        return sent


class OddVilleOptionsForm(OptionsForm):
    """Each player's colour (purple, blue, red or yellow), one colour per player."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = [p.name for p in self.table.players]
        if not self.is_submitted():
            for seat, (_name, field) in enumerate(self.colour_fields):
                field.data = COLOURS[seat]

    @property
    def colour_fields(self) -> list[tuple[str, Any]]:
        """The colour picker of each seat."""
        return [(name, self[f"colour_{seat}"]) for seat, name in enumerate(self.names[:4])]

    def validate(self, extra_validators: Any = None) -> bool:
        """Known colours, each for one player."""
        valid: bool = super().validate(extra_validators)
        seen: set[str] = set()
        for _name, field in self.colour_fields:
            if not field.data:
                continue
            if field.data in seen:
                colour = _(COLOUR_NAMES[field.data])
                field.errors = [_("Another player already has %(colour)s.", colour=colour)]
                valid = False
            seen.add(field.data)
        return valid

    def context(self) -> dict[str, Any]:
        """The colours to pick from, with their names in the reader's language."""
        return {"colours": COLOURS, "colour_names": {c: _(COLOUR_NAMES[c]) for c in COLOURS}}

    def options(self) -> dict[str, Any]:
        """The colours by player."""
        chosen = {name: field.data for name, field in self.colour_fields if field.data}
        return {"colours": colours_for(self.names[: len(COLOURS)], chosen)}


for _seat in range(len(COLOURS)):
    setattr(
        OddVilleOptionsForm,
        f"colour_{_seat}",
        StringField(
            # TRANSLATORS: a seat at the table, counted from 1 (an OddVille colour picker).
            lazy_gettext("Seat %(number)s", number=_seat + 1),
            validators=[
                Optional(),
                AnyOf(list(COLOURS), message=lazy_gettext("Pick purple, blue, red, yellow.")),
            ],
        ),
    )
