"""OddVille forms: player colours before the game, and the palette every city tap carries
(what the next tap gives: tool, victory points, guild, shield, owner, edges, bonus)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from wtforms import StringField
from wtforms.validators import AnyOf, Optional

from companion.games import oddville as engine
from companion.games.oddville.facts import COLOURS
from companion.games.oddville.state import colours_for
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


TOOL_LABELS: dict[Tool, str] = {
    Tool.PLACE: "Place / change",
    Tool.PICK: "Copy a card",
    Tool.MOVE: "Move",
    Tool.REMOVE: "Remove",
    Tool.BUILD: "Build (referee)",
    Tool.CHECK: "Check only",
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

    tool = StringField("Tool", validators=[Optional(), AnyOf([t.value for t in Tool])])
    points = StringField("Points", validators=[Optional(), AnyOf(list(POINT_CHOICES))])
    guild = StringField("Guild", validators=[Optional(), AnyOf(["", *engine.GUILDS])])
    shield = StringField("Shield", validators=[Optional(), AnyOf(SHIELD_CHOICES)])
    owner = StringField("Owner")
    top = StringField("Top edge", validators=[Optional(), AnyOf(["", "H", "S"])])
    right = StringField("Right edge", validators=[Optional(), AnyOf(["", "H", "S"])])
    bottom = StringField("Bottom edge", validators=[Optional(), AnyOf(["", "H", "S"])])
    left = StringField("Left edge", validators=[Optional(), AnyOf(["", "H", "S"])])
    bonus = StringField(
        "Bonus", validators=[Optional(), AnyOf(["", *[b.value for b in engine.Bonus]])]
    )
    rotated = StringField("Turned", validators=[Optional(), AnyOf(["", "1"])])
    at = StringField("Place")
    base = StringField("Seen", validators=[Optional(), AnyOf(["empty", "card"])])

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
            for seat, (_, field) in enumerate(self.colour_fields):
                field.data = COLOURS[seat]

    @property
    def colour_fields(self) -> list[tuple[str, Any]]:
        """The colour picker of each seat."""
        return [(name, self[f"colour_{seat}"]) for seat, name in enumerate(self.names[:4])]

    def validate(self, extra_validators: Any = None) -> bool:
        """Known colours, each for one player."""
        valid: bool = super().validate(extra_validators)
        seen: set[str] = set()
        for _, field in self.colour_fields:
            if not field.data:
                continue
            if field.data in seen:
                field.errors = [f"Another player already has {field.data}."]
                valid = False
            seen.add(field.data)
        return valid

    def context(self) -> dict[str, Any]:
        """The colours to pick from."""
        return {"colours": COLOURS}

    def options(self) -> dict[str, Any]:
        """The colours by player."""
        chosen = {name: field.data for name, field in self.colour_fields if field.data}
        return {"colours": colours_for(self.names[: len(COLOURS)], chosen)}


for _seat in range(len(COLOURS)):
    setattr(
        OddVilleOptionsForm,
        f"colour_{_seat}",
        StringField(
            f"Seat {_seat + 1}",
            validators=[Optional(), AnyOf(list(COLOURS), message=f"Pick {', '.join(COLOURS)}.")],
        ),
    )
