"""Pages in the pseudo-language: every word a page shows must have gone through gettext.

:func:`pseudo_pages` makes one shipped language (German) speak :data:`support.pseudo.PSEUDO`
for the templates and the engines alike, so every message comes out wrapped in ⟦ ⟧;
:func:`words_left` then lists the texts of a page (its text, and the attributes a person
reads or hears: ``placeholder``, ``title``, ``aria-label``, ``alt``, a button's ``value``)
that still hold English words once the wrapped messages and the table's own values
(player names, numbers) are taken out. The rules reference and help pages are written per
language, not through gettext: their content (``[data-content]``) is left to their own
tests, and a rules entry's question in a link counts as translated.

Run it on a page walk to see what is left to mark::

    .venv/bin/python -m support.page_words [PART-OF-ADDRESS]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from tempfile import TemporaryDirectory
from unittest import mock

from babel.support import NullTranslations
from flask import Flask

from support.every_game import Fixture
from support.pseudo import CLOSE, OPEN, english_words
from support.routes import API_PREFIX, route_urls, routes

#: The language that speaks the pseudo-language in a walk.
PSEUDO_LANGUAGE = "de"
#: Words a page may show as they are in every language: the app's name, each language's
#: own name on the switch.
NAMES = ("Odd Companion", "English", "Deutsch", "Français", "Español")
#: Addresses that serve no page.
SKIPPED = (API_PREFIX, "/static", "/healthz", "/sw.js", "/manifest")
#: Codes with a digit in them (a card "N5", a join code "AJ54CM") or six capitals (a
#: join code "JZPZSE"): not words.
CODES = re.compile(r"\b\w*\d\w*\b|\b[A-Z]{6}\b")
#: Attributes whose text a person reads or hears.
READ_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")
#: Elements whose text nobody reads.
UNREAD = {"script", "style"}
#: Elements inside a sentence: their text is part of the block they sit in.
INLINE = {"a", "abbr", "b", "bdi", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "small"}
INLINE |= {"span", "strong", "sub", "sup", "time", "u", "var"}
#: Elements that are never closed (HTMLParser sees no end tag for them).
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}


class PseudoBabel(NullTranslations):
    """Flask-Babel's translations in the pseudo-language (templates and engines alike)."""

    language = PSEUDO_LANGUAGE

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"

    def pgettext(self, _context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, _context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)

    # Flask-Babel asks for these older names (Babel's aliases of the methods above).
    ugettext = gettext
    ungettext = ngettext
    upgettext = pgettext
    unpgettext = npgettext


@contextmanager
def pseudo_pages() -> Iterator[str]:
    """Inside the block, a phone asking for :data:`PSEUDO_LANGUAGE` gets the
    pseudo-language (yields its code, for ``Accept-Language``)."""
    from companion.web import languages, rules

    real = languages.translations
    pseudo = PseudoBabel()
    real_title = rules.rule_title

    def translations(language: str) -> NullTranslations:
        return pseudo if language == PSEUDO_LANGUAGE else real(language)

    def rule_title(rule_id: str) -> str:
        # A rules entry's question is written per language (not through gettext), and
        # said in that language as a link's text: wrapped as translated.
        title = real_title(rule_id)
        return f"{OPEN}{title}{CLOSE}" if title else title

    with (
        mock.patch.object(languages, "translations", translations),
        mock.patch.object(rules, "rule_title", rule_title),
    ):
        yield PSEUDO_LANGUAGE


class _Texts(HTMLParser):
    """The texts a person reads on a page, each with the tag it sits in. A sentence with
    inline markup in it (a link, ``<strong>``) is one text, as it is one message."""

    def __init__(self, *, content: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._content = content
        self.found: list[tuple[str, str]] = []
        #: Each open element: its tag, whether its text is skipped, and the words said
        #: in it so far when it is a block (an inline element's go to its block's).
        self._open: list[tuple[str, bool, list[str] | None]] = []

    def _skipped(self) -> bool:
        return any(skip for _tag, skip, _said in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        skip = tag in UNREAD or ("data-content" in values and not self._content)
        if tag not in VOID:
            self._open.append((tag, skip, None if tag in INLINE else []))
        if skip or self._skipped():
            return
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.found.append((f"{tag}[{name}]", str(values[name])))
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.found.append((f"{tag}[value]", str(values["value"])))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self._open:
            self._close(len(self._open) - 1)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                self._close(index)
                return

    def close(self) -> None:
        super().close()
        self._close(0)

    def _close(self, index: int) -> None:
        """Close the open elements from ``index`` on, saying each block's text."""
        for tag, _skip, said in reversed(self._open[index:]):
            text = " ".join(" ".join(said or ()).split())
            if text:
                self.found.append((tag, text))
        del self._open[index:]

    def handle_data(self, data: str) -> None:
        if not data.strip() or self._skipped():
            return
        block = next(
            (said for _tag, _skip, said in reversed(self._open) if said is not None), None
        )
        if block is None:
            self.found.append(("#text", data.strip()))
        else:
            block.append(data)


def read_texts(html: str) -> list[str]:
    """The texts a person reads or hears on a page, in page order (the content written
    per language, ``[data-content]``, too)."""
    parser = _Texts(content=True)
    parser.feed(html)
    parser.close()
    return [text for _where, text in parser.found]


def words_left(html: str, values: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Each text of ``html`` that still holds English words in the pseudo-language, with
    where it sits (``"label"``, ``"input[placeholder]"``); ``values`` are the table's own
    words (player names), shown as typed."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    kept = (*NAMES, *values)
    return [
        (where, text)
        for where, text in parser.found
        if english_words(CODES.sub(" ", text), values=kept)
    ]


def page_urls(app: Flask, found: Fixture) -> list[str]:
    """Every page a phone can open through the table's edit link (and its group's): each
    GET route but the API, static files, photos and downloads, its path filled in."""
    urls: list[str] = []
    for rule in routes(app):
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(SKIPPED):
            continue
        if any(name in rule.arguments for name in ("filename", "photo")):
            continue
        urls.extend(route_urls(app, rule, found.edit, found))
    return sorted(set(urls))


def _walk(part: str) -> None:  # pragma: no cover - a tool for people
    """Print what is left to mark on every page of a table with every game."""
    from support.every_game import PLAYERS, table_with_every_game

    with TemporaryDirectory() as folder, pseudo_pages() as code:
        app = _app(Path(folder))
        client = app.test_client()
        found = table_with_every_game(client)
        headers = {"Accept-Language": code}
        for url in page_urls(app, found):
            if part not in url:
                continue
            page = client.get(url, headers=headers)
            if page.mimetype != "text/html":
                continue
            left = words_left(page.get_data(as_text=True), [*PLAYERS, "Walkers"])
            if left:
                print(f"== {url} ({page.status_code}): {len(left)}")
                for where, text in left:
                    print(f"   {where}: {text[:160]}")


def _app(folder: Path) -> Flask:  # pragma: no cover - a tool for people
    from support.app import make_app

    return make_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": folder,
            "SECRET_KEY": "walk",
            "SERVER_NAME": "companion.test",
            "DATABASE_URL": f"sqlite:///{folder / 'walk.sqlite'}",
        }
    )


if __name__ == "__main__":  # pragma: no cover
    _walk(sys.argv[1] if len(sys.argv) > 1 else "")
