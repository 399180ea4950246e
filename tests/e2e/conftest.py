"""Browser tests: the app served on 127.0.0.1 in a thread, Debian's Chromium at phone size."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from werkzeug.serving import make_server

from companion.extensions import db
from support.app import make_app
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE_CONTEXT, Phone

#: How often the test server looks for its shutdown (it answers requests meanwhile).
SHUTDOWN_POLL_SECONDS = 0.02


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright cannot download its own browsers here)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium package is not installed (apt install chromium).")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Every page is a phone: small viewport, touch, a phone's pixel ratio."""
    return {**browser_context_args, **PHONE_CONTEXT}


@pytest.fixture
def phone(browser: Browser) -> Phone:
    """A new phone (390 by 844 px, touch): its own context, so its own cookies and session."""

    def new_phone(**extra: Any) -> Page:
        return browser.new_context(**{**PHONE_CONTEXT, **extra}).new_page()

    return new_phone


@pytest.fixture(autouse=True)
def _closed_phones(browser: Browser) -> Iterator[None]:
    """Close every phone (browser context) a test opened once it ends.

    Tests open phones with ``browser.new_context()``; left open, each kept its page
    running (polling every second, against a server that is gone) until the session
    ended: 200 Chromium processes late in a run, and every later test slowed by them.
    """
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture
def live_server(tmp_path: Path, sqlite_template: Path) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, with a fresh database; yields its base URL."""
    shutil.copy(sqlite_template, tmp_path / "companion.sqlite")
    app = make_app(
        {"INSTANCE_PATH": tmp_path, "SECRET_KEY": "e2e", "AUTO_MIGRATE": False, "POLL_SECONDS": 1}
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # serve_forever checks for shutdown() every poll_interval (0.5 s by default): half a
    # second's wait at the end of each of 90 browser tests.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        with app.app_context():
            db.engine.dispose()
