"""Accessibility checks for browser tests (axe-core through axe-playwright-python)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe, AxeResults
from playwright.sync_api import Page

#: Axe's rules, and one it leaves off by default that Lighthouse runs: the accessible name
#: of a control holds its visible text (WCAG 2.5.3), so "tap 10" finds the button "10".
NAME_RULE = "label-content-name-mismatch"
OPTIONS = {"resultTypes": ["violations"], "rules": {NAME_RULE: {"enabled": True}}}


AXE = Axe()


def assert_accessible(page: Page) -> None:
    """An axe scan of the page finds no violations.

    axe-core (570 KB) is put into a document once: a page scanned again without leaving
    it (after a tap, in dark mode) reuses it, where ``Axe().run`` sent it every time.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    results = AxeResults(page.evaluate("options => axe.run(document, options)", OPTIONS))
    assert not results.response["violations"], results.generate_report()
