"""A phone's side of "only what changed" (see ``companion/web/pieces.py``), for tests and
benchmarks: the digests a page holds, and applying an out-of-band answer to a page."""

from __future__ import annotations

import re
from functools import partial

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
