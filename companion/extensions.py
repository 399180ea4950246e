"""Extension singletons, initialised by the application factory."""

from __future__ import annotations

from flask_compress import Compress
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every model."""


db = SQLAlchemy(model_class=Base)
compress = Compress()
csrf = CSRFProtect()
htmx = HTMX()
migrate = Migrate()


def _network_key() -> str:
    # Imported late: the web layer depends on the extensions, not the other way round.
    from companion.web.limits import network_of_client

    return network_of_client()


limiter = Limiter(key_func=_network_key)
