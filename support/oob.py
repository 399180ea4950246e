"""A phone's side of "only what changed" (see ``companion/web/live/pieces.py``), for tests and
benchmarks: the digests a page holds, and applying an out-of-band answer to a page."""

from __future__ import annotations

import gzip
import re
from functools import partial
from typing import Any

import brotli
from flask import Flask

from support.client import HTMX, csrf

HEADER = "X-Play-Pieces"
SHELL = re.compile(r'<section id="play"[^>]*\bdata-shell="([^"]+)"')
TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
ID = re.compile(r'\sid="([^"]+)"')
DIGEST = re.compile(r'\sdata-h="([^"]+)"')
OOB = re.compile(r'\shx-swap-oob="[^"]*"')
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
#: Values made anew at each rendering (CSRF token, one-time form keys).
VOLATILE = re.compile(r'(name="(?:csrf_token|submission)" value=")[^"]*"')


def header_of(page: str) -> str:
    """The ``X-Play-Pieces`` header the phone's script sends for this page."""
    shell = SHELL.search(page)
    assert shell, "no play panel with a shell digest"
    words = [shell.group(1)]
    for match in TAG.finditer(page):
        attrs = match.group(3)
        digest, ident = DIGEST.search(attrs), ID.search(attrs)
        if digest and ident:
            words.append(f"{ident.group(1)}={digest.group(1)}")
    return " ".join(words)


def elements(html: str) -> list[tuple[str, int, int]]:
    """(id, start, end) of every element with an id that is not inside another one listed
    (the top-level pieces of an answer, or any element of a page)."""
    found = []
    stack: list[tuple[str, str | None, int]] = []
    for match in TAG.finditer(html):
        closing, name, attrs = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            while stack:
                opened, ident, start = stack.pop()
                if opened == name:
                    if ident is not None and not any(i is not None for _, i, _ in stack):
                        found.append((ident, start, match.end()))
                    break
            continue
        if name in VOID or attrs.rstrip().endswith("/"):
            continue
        ident = ID.search(attrs)
        stack.append((name, ident.group(1) if ident else None, match.start()))
    return found


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


STUB = re.compile(r'<([a-zA-Z][a-zA-Z0-9-]*) id="([^"]+)" data-keep></\1>')


def apply(page: str, answer: str) -> str:
    """The page after the answer's out-of-band pieces replaced their namesakes (each stub
    in them first taking the page's copy of its element, as the phone's script does)."""
    for ident, start, end in elements(answer):
        piece = OOB.sub("", answer[start:end], count=1)
        piece = STUB.sub(partial(_own, page), piece)
        at, until = element(page, ident)
        page = page[:at] + piece + page[until:]
    return page


def _own(page: str, stub: re.Match[str]) -> str:
    at, until = element(page, stub.group(2))
    return page[at:until]


def steady(html: str) -> str:
    """Markup with the values made anew at each rendering blanked, to compare pages."""
    return VOLATILE.sub(r'\1"', html)


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
    """A phone showing a play: its client (own session) and the panel it holds."""

    def __init__(self, app: Flask, token: str, play_id: int, seat: str, digests: bool) -> None:
        self.client = app.test_client()
        self.url = f"/t/{token}/plays/{play_id}"
        self.seat = seat
        self.digests = digests
        self.page = text_of(self.client.get(f"{self.url}?seat={seat}"))
        self.token = csrf(self.client, f"/t/{token}")

    def headers(self, extra: dict[str, str]) -> dict[str, str]:
        found = {**HTMX, **extra}
        if self.digests:
            found[HEADER] = header_of(self.page)
        return found

    def poll_url(self) -> str:
        found = re.search(r'hx-get="([^"]+\/poll\?[^"]+)"', self.page)
        assert found, "no poll on the page"
        return found.group(1).replace("&amp;", "&")

    def post(self, path: str, data: dict[str, str], extra: dict[str, str]) -> Any:
        body = {"csrf_token": self.token, "seat": self.seat, **data}
        return self.client.post(self.url + path, data=body, headers=self.headers(extra))

    def poll(self, extra: dict[str, str]) -> Any:
        return self.client.get(self.poll_url(), headers=self.headers(extra))

    def take(self, response: Any) -> None:
        """Apply an answer as htmx would: each element with an id it holds (the whole
        panel, a fragment such as Owl About's trick, or out-of-band pieces) replaces its
        namesake."""
        self.page = apply(self.page, text_of(response))
