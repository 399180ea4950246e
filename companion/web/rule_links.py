"""A rules link as markup, made once: a play page holds dozens (a breakdown line each).

The same markup as the ``rule_link`` macro of ``macros.html``, which calls this: building
its two addresses for every line was a fifth of a play page's rendering.
"""

from __future__ import annotations

from functools import lru_cache

from flask import request
from markupsafe import Markup, escape

from companion.web.rules import rule_exists, rule_panel_url, rule_title, rule_url

CACHED_LINKS = 4096


def rule_link_html(
    rule_id: str | None, text: str | None = None, at: str | None = None, classes: str = "rule-link"
) -> Markup:
    """A link to the rules entry ``rule_id`` (see the ``rule_link`` macro)."""
    if text is None:
        text = rule_title(rule_id or "")
    # Markup and a plain string that read alike escape differently: both are in the key.
    return _made(request.script_root, rule_id, isinstance(text, Markup), text, at, classes)


@lru_cache(maxsize=CACHED_LINKS)
def _made(
    _root: str, rule_id: str | None, _safe: bool, text: str, at: str | None, classes: str
) -> Markup:
    # ``_root`` and ``_safe`` are only parts of the cache key: the app's mount point, and
    # whether ``text`` is Markup (escaped differently from a string that reads alike).
    words = escape(text)
    if not rule_id or not rule_exists(rule_id):
        return words
    return Markup(
        '<a class="{}" href="{}" hx-get="{}" hx-target="#rule-panel" hx-swap="innerHTML"'
        ' hx-push-url="false">{}</a>'
    ).format(classes, rule_url(rule_id, at=at), rule_panel_url(rule_id), words)
