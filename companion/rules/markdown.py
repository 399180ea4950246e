"""The little Markdown the rules entries use, rendered to safe HTML (and to plain text).

Entries are short: paragraphs, lists (``- `` or ``1. ``), ``**strong**`` and ``*em*``.
Everything is escaped first, so an entry can never inject markup.

>>> str(to_html("Two kinds:\\n\\n- **keep** it\\n- give <it>"))
'<p>Two kinds:</p><ul><li><strong>keep</strong> it</li><li>give &lt;it&gt;</li></ul>'
>>> to_text("- **keep** it, *then* go")
'keep it, then go'
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_BULLET = re.compile(r"^\s*-\s+")
_NUMBER = re.compile(r"^\s*\d+\.\s+")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"\*(.+?)\*")


def _blocks(text: str) -> list[list[str]]:
    """Blocks separated by blank lines, each a list of its lines."""
    blocks: list[list[str]] = [[]]
    for line in text.strip().splitlines():
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def _items(block: list[str], marker: re.Pattern[str]) -> list[str]:
    """A list block's items: a line with the marker starts one, others continue it."""
    items: list[str] = []
    for line in block:
        if marker.match(line):
            items.append(marker.sub("", line))
        else:
            items[-1] += " " + line.strip()
    return items


def _inline(text: str) -> str:
    html = str(escape(text))
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    return _EM.sub(r"<em>\1</em>", html)


def to_html(text: str) -> Markup:
    """The body as HTML: paragraphs and lists, text escaped."""
    parts = []
    for block in _blocks(text):
        for marker, tag in ((_BULLET, "ul"), (_NUMBER, "ol")):
            if marker.match(block[0]):
                items = "".join(f"<li>{_inline(item)}</li>" for item in _items(block, marker))
                parts.append(f"<{tag}>{items}</{tag}>")
                break
        else:
            parts.append(f"<p>{_inline(' '.join(line.strip() for line in block))}</p>")
    return Markup("".join(parts))


def to_text(text: str) -> str:
    """The body as plain text (for search and snippets): markers dropped, one line."""
    words = []
    for block in _blocks(text):
        for line in block:
            line = _NUMBER.sub("", _BULLET.sub("", line))
            words.append(_EM.sub(r"\1", _STRONG.sub(r"\1", line.strip())))
    return " ".join(words)
