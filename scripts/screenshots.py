"""Phone screenshots of every page type, for the README (so they stay current): the home
page, a table, a play of every registered game, a table after five finished games (its
evening summary), the help and a rules page.

Starts the app under gunicorn on 127.0.0.1 with a fresh SQLite database holding a table
and one play of every registered game (started through the pages, as the route walk
does), then opens each page in Debian's Chromium at a phone's size (390 by 844 CSS px,
pixel ratio 1) and saves ``docs/screenshots/<page>.png``. ``--only NAME`` (repeatable)
takes only those pictures: a game's slug (``--only oddville`` after changing its page),
or another page's name (``table``, ``help``...); ``--full`` takes whole pages;
``--lang de`` takes them in that language (the phone asks for it), saved as
``docs/screenshots/de/<page>.png``.

Run: .venv/bin/python scripts/screenshots.py [--only NAME ...] [--full] [--lang CODE]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.lighthouse import app_in, prepare  # noqa: E402
from companion.config import DEFAULT_LANGUAGE, LANGUAGES  # noqa: E402
from companion.extensions import db  # noqa: E402
from support.browser import CHROMIUM, PHONE  # noqa: E402
from support.client import csrf, edit  # noqa: E402
from support.every_game import table_with_every_game  # noqa: E402
from support.servers import app_env, free_port, gunicorn  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SECRET = "lighthouse"  # the secret prepare() made the table's links with


def evening_table(folder: Path) -> str:
    """A second table in the same database with a game of every kind finished (some birds
    in Odd World, so that the evening has a winner): the path of its page."""
    app = app_in(folder)
    client = app.test_client()
    table = table_with_every_game(client)
    odd_world = table.plays["odd-world"]
    for seat, count in ((0, 3), (1, 1), (2, 2)):
        path = f"players[{seat}].display.hoopoe"
        edit(client, table.edit, odd_world, path=path, value=str(count))
    for play in table.plays.values():
        token = csrf(client, f"/t/{table.edit}/plays/{play}")
        client.post(
            f"/t/{table.edit}/plays/{play}/finish", data={"csrf_token": token, "confirm": "yes"}
        )
    with app.app_context():
        db.engine.dispose()
    return f"/t/{table.edit}"


def main() -> None:
    """Save one screenshot per page (or per page asked for)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="take only this one")
    parser.add_argument("--full", action="store_true", help="whole pages, not the first screen")
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=DEFAULT_LANGUAGE)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="screens-"))
    pages = prepare(folder)
    if options.only is None or "table-after-five-games" in options.only:
        pages["table-after-five-games"] = evening_table(folder)
    pages["help"] = "/help"
    pages["game-night"] = "/help/game-night"
    pages["rules"] = "/rules/owl-about"
    if options.only is not None:
        unknown = sorted(set(options.only) - set(pages))
        if unknown:
            parser.error(f"no page named {unknown}: choose among {sorted(pages)}")
        pages = {name: path for name, path in pages.items() if name in options.only}
    port = free_port()
    env = app_env(f"sqlite:///{folder / 'companion.sqlite'}", SECRET)
    out = OUT if options.lang == DEFAULT_LANGUAGE else OUT / options.lang
    out.mkdir(parents=True, exist_ok=True)
    with gunicorn(port, env, folder / "gunicorn.log"), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            locale=options.lang,
        )
        page = context.new_page()
        for name, path in pages.items():
            page.goto(f"http://127.0.0.1:{port}{path}")
            page.wait_for_load_state("networkidle")
            file_name = f"{name.replace(' ', '-')}.png"  # lighthouse's "trick checker"
            page.screenshot(path=str(out / file_name), full_page=options.full)
            print(out.relative_to(ROOT) / file_name, flush=True)
        browser.close()


if __name__ == "__main__":
    main()
