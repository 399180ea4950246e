"""Phone screenshots of OddVille's and Oddland's entry part-way through a game (issue 27):
the palette and the city or map, as a table sees them at 390 x 844.

Starts the app under gunicorn on 127.0.0.1 with a fresh SQLite database, enters part of
the browser tests' city and map (tests/e2e/test_entry_speed.py) in Debian's Chromium and
saves ``docs/screenshots/oddville-entry.png`` and ``oddland-entry.png``.

Run: .venv/bin/python scripts/entry_screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from benchmarks.lighthouse import prepare  # noqa: E402
from support.browser import CHROMIUM, PHONE  # noqa: E402
from support.entry import CARD_FIELDS, CITY, MAP_CARDS, Taps, choose, map_space, start  # noqa: E402
from support.servers import app_env, free_port, gunicorn  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SECRET = "lighthouse"
#: How much of the city and the map is entered before the picture.
CARDS_SHOWN = 9


def oddville(page: Page, base: str) -> None:
    """Part of the city, then the palette set for the next card."""
    start(page, base, "oddville", "Start OddVille")
    taps = Taps()
    for built, ((r, c), points, guild, shield, owner) in enumerate(CITY[:CARDS_SHOWN], 1):
        for name, value in (("points", points), ("guild", guild), ("shield", shield)):
            choose(page, taps, name, value)
        choose(page, taps, "owner", owner)
        page.locator(f'button.ov-place[value="{r},{c},empty"]').click()
        expect(page.locator("button.ov-card")).to_have_count(built + 1)
    page.evaluate("document.getElementById('ov-city-title').scrollIntoView()")


def oddland(page: Page, base: str) -> None:
    """Part of the map laid card by card, the Card tool picked."""
    start(page, base, "oddland", "Start Oddland")
    page.locator(".ol-tool", has=page.locator('input[name="tool"][value="card"]')).click()
    for (r, c), terrains in MAP_CARDS[:CARDS_SHOWN]:
        for field, letter in zip(CARD_FIELDS, terrains, strict=True):
            radio = page.locator(f'#ol-paint input[name="{field}"][value="{letter}"]')
            if not radio.is_checked():
                radio.locator("xpath=..").click()
        map_space(page, r, c).click()
        expect(map_space(page, r + 1, c + 1)).to_have_attribute(
            "value", f"{r + 1},{c + 1},{terrains[3]}"
        )
    page.evaluate("document.getElementById('ol-map-title').scrollIntoView()")


def main() -> None:
    """Save the two screenshots."""
    folder = Path(tempfile.mkdtemp(prefix="entry-screens-"))
    prepare(folder)
    port = free_port()
    env = app_env(f"sqlite:///{folder / 'companion.sqlite'}", SECRET)
    OUT.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{port}"
    with gunicorn(port, env, folder / "gunicorn.log"), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, enter in (("oddville-entry", oddville), ("oddland-entry", oddland)):
            context = browser.new_context(
                viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
            )
            page = context.new_page()
            enter(page, base)
            page.wait_for_timeout(300)  # let the scroll settle before the picture
            page.screenshot(path=str(OUT / f"{name}.png"))
            print(f"docs/screenshots/{name}.png", flush=True)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
