"""A phone showing a play, for tests and benchmarks: its own session, the page it holds,
and each answer (a tap's, a live update's: the play's panel, whole) put in its place as
htmx does."""

from __future__ import annotations

import gzip
import re
from typing import Any

import brotli
from flask import Flask

from support.client import HTMX, csrf

TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
ID = re.compile(r'\sid="([^"]+)"')
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
#: Values made anew at each rendering (CSRF token, one-time form keys).
VOLATILE = re.compile(r'(name="(?:csrf_token|submission)" value=")[^"]*"')


def element(html: str, ident: str) -> tuple[int, int]:
    """Where the element ``ident`` starts and ends in ``html``."""
    stack: list[tuple[str, bool, int]] = []
    for match in TAG.finditer(html):
        closing, name, attrs = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            while stack:
                opened, wanted, start = stack.pop()
                if opened == name:
                    if wanted:
                        return start, match.end()
                    break
            continue
        if name in VOID or attrs.rstrip().endswith("/"):
            continue
        found = ID.search(attrs)
        stack.append((name, bool(found and found.group(1) == ident), match.start()))
    raise AssertionError(f"no element #{ident}")


def steady(html: str) -> str:
    """Markup with the values made anew at each rendering blanked, to compare pages."""
    return VOLATILE.sub(r'\1"', html)


def panel_of(page: str) -> str:
    """The play panel of a page (or an answer), its values made anew at each rendering
    blanked."""
    at, until = element(page, "play")
    return steady(page[at:until])


def text_of(response: Any) -> str:
    """The answer's markup, whatever encoding it came in."""
    data = response.data
    encoding = response.headers.get("Content-Encoding")
    if encoding == "gzip":
        data = gzip.decompress(data)
    elif encoding == "br":
        data = brotli.decompress(data)
    return str(data.decode())


class Phone:
    """A phone showing a play: its client (own session) and the page it holds."""

    def __init__(self, app: Flask, token: str, play_id: int, seat: str) -> None:
        self.client = app.test_client()
        self.url = f"/t/{token}/plays/{play_id}"
        self.seat = seat
        self.page = text_of(self.client.get(f"{self.url}?seat={seat}"))
        self.token = csrf(self.client, f"/t/{token}")

    def headers(self, extra: dict[str, str]) -> dict[str, str]:
        """What its htmx sends with a request, and ``extra``."""
        return {**HTMX, **extra}

    def poll_url(self) -> str:
        """The address its page polls."""
        found = re.search(r'hx-get="([^"]+\/poll\?[^"]+)"', self.page)
        assert found, "no poll on the page"
        return found.group(1).replace("&amp;", "&")

    def post(self, path: str, data: dict[str, str], extra: dict[str, str]) -> Any:
        """A form of its play's page sent by htmx (``path``: after the play's address)."""
        body = {"csrf_token": self.token, "seat": self.seat, **data}
        return self.client.post(self.url + path, data=body, headers=self.headers(extra))

    def poll(self, extra: dict[str, str]) -> Any:
        """Its page's poll."""
        return self.client.get(self.poll_url(), headers=self.headers(extra))

    def take(self, response: Any) -> None:
        """Put an answer in place as htmx does: the panel it holds replaces the page's."""
        if response.status_code == 204:
            return
        answer = text_of(response)
        at, until = element(self.page, "play")
        start, end = element(answer, "play")
        self.page = self.page[:at] + answer[start:end] + self.page[until:]
