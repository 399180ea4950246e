"""A pseudo-language for tests: every message that goes through gettext comes out wrapped
in ⟦ ⟧, so a sentence an engine or page builds without gettext shows as bare English.

>>> from companion.games.text import _, speaking
>>> with speaking(PSEUDO):
...     said = _("%(name)s wins.", name="Ann")
>>> said, untranslated(said), untranslated("Ann wins.")
('⟦Ann wins.⟧', '', 'Ann wins.')
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

OPEN, CLOSE = "⟦", "⟧"
_INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_LETTERS = re.compile(r"[A-Za-z]{2,}")


class Pseudo(gettext.NullTranslations):
    """Translations that wrap every message, singular or plural, in ⟦ ⟧."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"


PSEUDO = Pseudo()


def untranslated(text: str, *, values: Iterable[str] = ()) -> str:
    """What is left of ``text`` once every wrapped message is taken out (innermost first)
    and the ``values`` (player names, numbers) too: words left over were not translated.

    >>> untranslated("⟦⟦Hoopoe⟧: 5 cards⟧ and more")
    'and more'
    >>> untranslated("Ann: ⟦3 points⟧", values=["Ann"])
    ':'
    """
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    previous = None
    while previous != text:
        previous, text = text, _INNERMOST.sub(" ", text)
    return " ".join(text.split())


def english_words(text: str, *, values: Iterable[str] = ()) -> list[str]:
    """The words of two letters or more left untranslated in ``text``."""
    return _LETTERS.findall(untranslated(text, values=values))


def texts_at(document: Any, keys: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Every string under one of ``keys`` (a JSON answer walked whole), with its path;
    a list of strings under such a key counts too.

    >>> list(texts_at({"warnings": ["A."], "x": [{"message": "B."}]}, ["warnings", "message"]))
    [('warnings[0]', 'A.'), ('x[0].message', 'B.')]
    """
    wanted = set(keys)

    def walk(node: Any, path: str, under: bool) -> Iterator[tuple[str, str]]:
        if isinstance(node, str) and under:
            yield path, node
        elif isinstance(node, Mapping):
            for key, value in node.items():
                where = f"{path}.{key}" if path else str(key)
                yield from walk(value, where, key in wanted)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                yield from walk(item, f"{path}[{index}]", under)

    yield from walk(document, "", False)
