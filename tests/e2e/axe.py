"""Accessibility checks for browser tests (axe-core through axe-playwright-python)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page


def assert_accessible(page: Page) -> None:
    """An axe scan of the page finds no violations."""
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
