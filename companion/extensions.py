"""Extension singletons, initialised by the application factory (the rate limiter is the
web layer's, with the key it counts by: ``web/limits.py``)."""

from __future__ import annotations

from flask_compress import Compress
from flask_htmx import HTMX
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
