"""Configuration: defaults here, then ``instance/config.py``, then ``COMPANION_*`` variables.

``COMPANION_DATABASE_URL`` switches the database (for example to PostgreSQL through
psycopg 3: ``postgresql+psycopg://user:pass@host/db``). Other ``COMPANION_X`` variables
set the key ``X`` (values are parsed as JSON when they can be, as Flask does).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from companion import hosts

SECRET_KEY_FILE = "secret_key"

#: The languages the app speaks, each named in its own words (the language switch's
#: labels), in the switch's order. English is the language every message is written in,
#: and every phone's language when it asks for none of these.
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}
DEFAULT_LANGUAGE = "en"
ENV_PREFIX = "COMPANION"

DEFAULTS: dict[str, Any] = {
    # More engine options; a server database also gets pool_pre_ping (see load()).
    "SQLALCHEMY_ENGINE_OPTIONS": {},
    # A phone tab stays open all evening: the CSRF token lives as long as the session.
    "WTF_CSRF_TIME_LIMIT": None,
    "WTF_CSRF_SSL_STRICT": True,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 180,
    # Only send the cookie when it changes: keeps the 2-second poll answers tiny.
    "SESSION_REFRESH_EACH_REQUEST": False,
    # Apply migrations when the app starts. Workers starting together take turns under a
    # lock (companion/database.py): one migrates, the others find the schema current. Turn
    # off to run `flask db upgrade` at deploy time instead.
    "AUTO_MIGRATE": True,
    # SQLite's "synchronous" setting. NORMAL (with the WAL the app always turns on) syncs
    # the log to disk at checkpoints rather than at every commit: a tap then costs no disk
    # flush of its own (about 4 ms each on the machine measured), and a crash of the app
    # or a kill -9 loses nothing acknowledged; only a power cut or an operating-system
    # crash may lose the last commits before the checkpoint. FULL syncs every commit.
    "SQLITE_SYNCHRONOUS": "NORMAL",
    # How often phones ask whether a play changed, in seconds.
    "POLL_SECONDS": 2,
    # Requests each process runs the app's code for at once; its other threads read slow
    # clients' requests meanwhile (see companion/web/gate.py). 0: no limit. More than 1
    # only helps when the database is far away (each request then waits for it longer).
    "REQUESTS_AT_ONCE": 1,
    # API bodies and forms are small; refuse anything larger (413).
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    # Fields one form may have, in any encoding; more is refused (413) before parsing.
    "MAX_FORM_PARTS": 500,
    # Join codes stay valid this long after a table was last used.
    "JOIN_CODE_HOURS": 24,
    # Join codes one network (an IPv4 address, an IPv6 /64) may type in JOIN_WINDOW_MINUTES;
    # the same number applies to each code typed.
    "JOIN_ATTEMPTS": 10,
    "JOIN_WINDOW_MINUTES": 10,
    # New tables and JSON API requests per network (Flask-Limiter notation).
    "RATE_LIMIT_TABLES": "30 per hour",
    "RATE_LIMIT_API": "600 per minute",
    # Exports (JSON and CSV of a play, a table or a group) per network, all together.
    "RATE_LIMIT_EXPORTS": "60 per hour",
    # Photos sent to plays per network (each is decoded: a large one is a second of work).
    "RATE_LIMIT_PHOTOS": "60 per hour",
    # Where the rate limits count: "database://" is the app's own database, which every
    # worker process shares (companion/services/rate_counts.py); "memory://" counts in
    # each process alone (one worker only: gunicorn.conf.py refuses more); Redis or
    # Memcached (e.g. "redis://localhost:6379") also serve several workers.
    "RATELIMIT_STORAGE_URI": "database://",
    # Said per app on purpose: Flask-Limiter keeps the last app's setting as the default
    # for the next app made in the same process (the tests and benchmarks make many).
    "RATELIMIT_ENABLED": True,
    # How many reverse proxies in front of the app set X-Forwarded-* headers (0: none).
    # The join-code rate limit and the links in QR codes need the real client and host.
    "TRUSTED_PROXIES": 0,
    # Host names the app answers to (a leading dot admits subdomains); other Host headers
    # get 400, so a forged one never ends up in a link. None: derived, see _trusted_hosts
    # (on a laptop at the table: this machine's own addresses and names).
    "TRUSTED_HOSTS": None,
    # The app is reached over https (directly or through a proxy): Secure session cookie,
    # HSTS, and links built with https.
    "HTTPS": False,
    # Responses of 1,400 bytes or more go out compressed (brotli, else gzip) to clients
    # that accept it: a play page shrinks about 15-fold, and so does every live update.
    # A smaller answer fits in one network packet either way, so compressing it only
    # costs time.
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_MIN_SIZE": 1400,
    # Brotli 6 rather than Flask-Compress's 4: a fifth fewer bytes for about the same time
    # (the 68 KB Odd World panel: level 4 5.0 KB in 0.27 ms, 5 4.2 KB in 0.39 ms, 6 4.2 KB
    # less 1% in 0.40 ms, 7 0.52 ms; from 9 up ten times more); see benchmarks/bytes.py.
    # Its window: 256 KB, more than the largest page (a 12x12 Oddland map), instead of
    # the default 4 MB that every compressor would set up for nothing.
    "COMPRESS_BR_LEVEL": 6,
    "COMPRESS_BR_WINDOW": 18,
    # Streamed answers stay as they are (Flask-Compress would leave a streamed file open);
    # static files are read whole first, see companion/web/static_files.py.
    "COMPRESS_STREAMS": False,
}

# Names the dev server (./run on 127.0.0.1) and the test client ("localhost") use. IPv6
# literals cannot be listed: werkzeug compares only the part before the first colon.
LOCAL_HOSTS = ("127.0.0.1", "localhost")


def load(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Layer the configuration onto ``app``: defaults, instance file, environment, tests."""
    app.config.from_mapping(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env(ENV_PREFIX)
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    database_url = app.config.get("DATABASE_URL")
    if database_url:
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    app.config.setdefault(
        "SQLALCHEMY_DATABASE_URI", f"sqlite:///{Path(app.instance_path) / 'companion.sqlite'}"
    )
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        # A connection to a database server may have been cut while it sat in the pool
        # (a restart, a network blip): each is checked as it is taken. A SQLite file cannot
        # go stale, and the check would cost a query per request.
        options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, **options}
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))
    app.config["TRUSTED_HOSTS"] = _trusted_hosts(app.config)
    # Either setting says the app is served over HTTPS; both then hold.
    if app.config.get("PREFERRED_URL_SCHEME") == "https":
        app.config["HTTPS"] = True
    if app.config["HTTPS"]:
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["PREFERRED_URL_SCHEME"] = "https"


def _trusted_hosts(
    settings: Mapping[str, Any], own: Callable[[], list[str]] = hosts.own_names
) -> list[str] | None:
    """The Host names to accept; None accepts any.

    Links and QR codes are built from ``SERVER_NAME`` when it is set, else from the
    request's Host (or, behind ``TRUSTED_PROXIES``, the proxy's X-Forwarded-Host). So an
    explicit ``TRUSTED_HOSTS`` wins (a comma-separated string from the environment is
    split); with ``SERVER_NAME``, that name and the local names are accepted; behind a
    trusted proxy and without ``SERVER_NAME`` the proxy decides; otherwise the local names
    and this machine's own addresses and names, found now (``own``), are: the other phones
    at a table reach a laptop by its address on the Wi-Fi, and any other name (a forged
    Host, DNS rebinding) is still refused.

    >>> _trusted_hosts({"TRUSTED_HOSTS": "a.example, .b.example"})
    ['a.example', '.b.example']
    >>> _trusted_hosts({"SERVER_NAME": "odd.example:8443", "TRUSTED_PROXIES": 1})
    ['odd.example', '127.0.0.1', 'localhost']
    >>> _trusted_hosts({"TRUSTED_PROXIES": 1}) is None
    True
    >>> _trusted_hosts({}, own=lambda: ["192.168.1.20", "laptop", "laptop.local"])
    ['127.0.0.1', 'localhost', '192.168.1.20', 'laptop', 'laptop.local']
    """
    configured = settings.get("TRUSTED_HOSTS")
    if isinstance(configured, str):
        return [host.strip() for host in configured.split(",") if host.strip()]
    if configured is not None:
        return list(configured)
    server_name = settings.get("SERVER_NAME")
    if server_name:
        return [server_name.rpartition(":")[0] or server_name, *LOCAL_HOSTS]
    if settings.get("TRUSTED_PROXIES"):
        return None
    return [*LOCAL_HOSTS, *(name for name in own() if name not in LOCAL_HOSTS)]


def _instance_secret_key(instance: Path) -> str:
    """Read the secret key kept in the instance folder, creating it on first start."""
    path = instance / SECRET_KEY_FILE
    if not path.exists():
        # O_EXCL: when two workers start at once, only one writes; the other reads it.
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "w") as handle:
                handle.write(secrets.token_hex(32))
    return path.read_text().strip()
