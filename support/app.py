"""An app for a test: ``create_app`` with what every app of the test process has in
common built once (compiled templates, URL rules), and the databases tests run on."""

from __future__ import annotations

import copy
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import jinja2
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Map, Rule, RuleFactory
from werkzeug.test import TestResponse

from companion import create_app
from companion.extensions import db


class SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept in memory for every app of this test process.

    Each test builds its own app, and each app would compile every template it renders
    again (about 60 ms a test); the bytecode is the same for all of them, keyed by the
    template's name and source.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from memory when this template was compiled before."""
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep a freshly compiled template for the next app."""
        self._code[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = SharedBytecode()

#: The databases a test app runs on (the ``backend`` fixture's values).
SQLITE, POSTGRES = "sqlite", "postgresql"


class _CopyableLock:
    """A lock whose copy is a new lock: a URL map's copy needs a lock of its own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> bool:
        return self._lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._lock.__exit__(*exc)  # type: ignore[arg-type]

    def __deepcopy__(self, memo: dict[int, Any]) -> _CopyableLock:
        return _CopyableLock()


class RuleBook(Map):
    """A URL map that may start as a copy of one an earlier app of the process built
    (:func:`url_map`): a rule the app adds again is there already, compiled, and only a
    rule it does not hold (a test's own route) is added.

    Werkzeug compiles a Python function to build the URLs of each rule as the rule is
    added: for the app's 80-odd rules, two thirds of building an app, in every test.
    """

    lock_class = _CopyableLock

    def add(self, rulefactory: RuleFactory) -> None:
        """Add the rules this map does not hold yet."""
        for rule in rulefactory.get_rules(self):
            if not self._holds(rule):
                super().add(rule)

    def _holds(self, rule: Rule) -> bool:
        try:
            held = list(self.iter_rules(rule.endpoint))
        except KeyError:  # no rule of that endpoint yet
            return False
        return any(_signature(old) == _signature(rule) for old in held)


def _signature(rule: Rule) -> tuple[Any, ...]:
    """What tells two rules apart, from their public attributes."""
    return (rule.rule, rule.methods, rule.defaults, rule.subdomain, rule.host, rule.build_only)


#: The URL map the first app built by :func:`make_app` ended with, before any test added a
#: route of its own.
_FIRST_MAP: list[RuleBook] = []


def url_map(host_matching: bool = False) -> Map:
    """A new app's URL map: a copy of the first app's, else an empty one."""
    if _FIRST_MAP:
        return copy.deepcopy(_FIRST_MAP[0])
    return RuleBook(host_matching=host_matching)


class ReadingClient(FlaskClient):
    """A test client that reads every answer to its end, as a server does.

    A server reads a streamed answer (an export) to its end or closes it. The plain test
    client leaves an answer the test never reads suspended after its first part, holding
    its app context and a database connection until the garbage collector closes it
    somewhere else. Pass ``buffered=False`` to read a stream part by part."""

    def open(self, *args: Any, buffered: bool = True, **kwargs: Any) -> TestResponse:
        """The answer, read to its end unless ``buffered=False``."""
        return super().open(*args, buffered=buffered, **kwargs)


class TestApp(Flask):
    """Flask as the tests build it, through Flask's own ways of customising an app: the
    process's compiled templates (``jinja_options``), a client that reads its answers to
    the end (``test_client_class``), and the URL rules an earlier app compiled
    (``url_map_class``, see :class:`RuleBook`)."""

    jinja_options: ClassVar[dict[str, Any]] = {**Flask.jinja_options, "bytecode_cache": TEMPLATES}
    test_client_class = ReadingClient
    url_map_class = staticmethod(url_map)  # type: ignore[assignment]


def make_app(settings: dict[str, Any]) -> Flask:
    """``create_app`` for a test (see :class:`TestApp`)."""
    application = create_app(settings, app_class=TestApp)
    if not _FIRST_MAP:
        _FIRST_MAP.append(copy.deepcopy(application.url_map))
    return application


FORGED_HOST = "evil.example"


@contextmanager
def local_app(tmp_path: Path, sqlite_template: Path, **settings: object) -> Iterator[Flask]:
    """An app on a copy of the migrated SQLite template, without the tests' SERVER_NAME."""
    shutil.copy(sqlite_template, tmp_path / "companion.sqlite")
    app = create_app(
        {"INSTANCE_PATH": tmp_path, "SECRET_KEY": "s", "AUTO_MIGRATE": False, **settings}
    )
    try:
        yield app
    finally:
        with app.app_context():
            db.engine.dispose()
