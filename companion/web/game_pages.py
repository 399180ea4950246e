"""The hooks a game's own web module fills in for the shared pages (see ``web/games.py``).

Kept apart from the registry so that game modules can import these classes while the
registry imports the game modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint
from flask_wtf import FlaskForm

from companion.models import Table


class OptionsForm(FlaskForm):
    """Base of a game's start options form; it knows the table the game starts at."""

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def options(self) -> dict[str, Any]:
        """The engine's ``new_state`` options from the validated form."""
        return {}


@dataclass(frozen=True)
class GamePages:
    """What the pages add for one game."""

    options_form: type[OptionsForm] | None = None
    blueprint: Blueprint | None = None
