"""An app for a test: ``create_app`` with the compiled templates and URL builders of the
whole process."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import jinja2
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from companion import create_app


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


Builder = Callable[..., tuple[str, str]]
_BUILDERS: dict[Hashable, Builder] = {}
_compile_builder: Callable[[Rule, bool], Builder] = Rule._compile_builder


def _builder_key(rule: Rule, append_unknown: bool) -> Hashable:
    """Everything werkzeug builds a rule's URL builder from: the rule, its parts, defaults
    and converters (their settings; the map they belong to is only where they live)."""
    converters = tuple(
        sorted(
            (name, type(converter).__qualname__, repr(sorted(_settings(converter))))
            for name, converter in rule._converters.items()
        )
    )
    defaults = repr(sorted((rule.defaults or {}).items()))
    return (rule.rule, append_unknown, tuple(rule._trace), defaults, converters)


def _settings(converter: object) -> list[tuple[str, Any]]:
    return [(key, value) for key, value in vars(converter).items() if key != "map"]


def _shared_builder(rule: Rule, append_unknown: bool = True) -> Builder:
    """The builder function of an equal rule of an earlier app of this process, else a
    new one (werkzeug generates Python source for each and compiles it)."""
    key = _builder_key(rule, append_unknown)
    builder = _BUILDERS.get(key)
    if builder is None:
        builder = _BUILDERS[key] = _compile_builder(rule, append_unknown)
    return builder


# Each test builds its own app, whose ~80 URL rules werkzeug compiled to Python functions
# again: two thirds of the time to build an app and render its home page. A builder takes
# its rule as an argument and reads nothing else, so equal rules of two apps share one.
Rule._compile_builder = _shared_builder  # type: ignore[method-assign, assignment]


class ReadingClient(FlaskClient):
    """A test client that reads every answer to its end, as a server does.

    A server reads a streamed answer (an export) to its end or closes it. The plain test
    client leaves an answer the test never reads suspended after its first part, holding
    its app context and a database connection until the garbage collector closes it
    somewhere else. Pass ``buffered=False`` to read a stream part by part."""

    def open(self, *args: Any, buffered: bool = True, **kwargs: Any) -> TestResponse:
        """The answer, read to its end unless ``buffered=False``."""
        return super().open(*args, buffered=buffered, **kwargs)


def make_app(settings: dict[str, Any]) -> Flask:
    """``create_app`` for a test, with the process's compiled templates and a client that
    reads its answers to the end."""
    application = create_app(settings)
    application.jinja_env.bytecode_cache = TEMPLATES
    application.test_client_class = ReadingClient
    return application
