"""Flask-WTF forms, one per use case; every field is validated on the server."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, HiddenField, SelectField, StringField
from wtforms.validators import DataRequired, Length, ValidationError

from companion.games.base import MAX_NAME_LENGTH
from companion.services.tables import JOIN_CODE_LENGTH, MAX_PLAYERS_AT_TABLE

MIN_PLAYERS_AT_TABLE = 1


class RosterForm(FlaskForm):
    """Player names in seating order; blank rows are ignored."""

    players = FieldList(
        StringField("Player", validators=[Length(max=MAX_NAME_LENGTH)]),
        min_entries=MIN_PLAYERS_AT_TABLE,
    )

    @property
    def names(self) -> list[str]:
        """The entered names, trimmed, blanks dropped, in seating order."""
        return [name.strip() for name in self.players.data if name and name.strip()]

    def validate_players(self, field: Any) -> None:
        """At least one player, at most six, and no two with the same name."""
        names = self.names
        if not names:
            raise ValidationError("Enter at least one player's name.")
        if len(names) > MAX_PLAYERS_AT_TABLE:
            raise ValidationError(f"A table seats at most {MAX_PLAYERS_AT_TABLE} players.")
        folded = [name.casefold() for name in names]
        repeated = sorted({n for n in names if folded.count(n.casefold()) > 1})
        if repeated:
            raise ValidationError(f"Two players are called {repeated[0]}; names must differ.")


class JoinForm(FlaskForm):
    """The short code another phone shows."""

    code = StringField(
        "Join code",
        validators=[DataRequired("Type the code shown on the table's page.")],
    )

    def validate_code(self, field: Any) -> None:
        """A code has six letters or digits (spaces and dashes are ignored)."""
        cleaned = "".join(ch for ch in (field.data or "") if ch.isalnum())
        if len(cleaned) != JOIN_CODE_LENGTH:
            raise ValidationError(f"A join code has {JOIN_CODE_LENGTH} letters or digits.")


class StartPlayForm(FlaskForm):
    """Which game to start at the table, and whether as a series."""

    game = SelectField("Game", validators=[DataRequired("Pick a game.")])
    series = BooleanField("Three games in a row (the total decides)")


class EditForm(FlaskForm):
    """One field of a play set to a value; ``base`` is the value the phone showed."""

    path = HiddenField(validators=[DataRequired("Say which field to change.")])
    value = StringField("Value")
    base = HiddenField()


class IdentityForm(FlaskForm):
    """Who is holding this phone, so the history can name them."""

    name = SelectField("This phone belongs to")


class ActionForm(FlaskForm):
    """A button with nothing to enter (undo, finish, reopen, next game): CSRF only."""
