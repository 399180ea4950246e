"""Send a phone only the parts of a play's page that changed.

A play's panel (``_play.html``) is cut into *pieces*: elements with a stable id (the
standings, one player's display, the buttons...) marked in the templates with
``{% filter piece %}...{% endfilter %}``. Rendering a piece stamps it with a digest of its
markup (``data-h``); the panel itself is marked with ``{% filter shell %}`` and stamped
with a digest of everything outside its pieces (``data-shell``).

A phone's script sends the digests it holds with each poll and tap (header
``X-Play-Pieces``). The server renders the panel as always, and when the phone's shell
digest is the fresh one, answers with only the pieces whose digest differs, each as an
htmx out-of-band swap (morphed into place, so nothing moves), and ``HX-Reswap: none`` for
the panel itself. Anything else (no header, another shell, a page of another game)
gets the whole panel: a change is never missed, since everything rendered is either in a
piece or in the shell, and both are compared.

The digests leave out the CSRF token and the one-time form keys (``submission``), which
differ at every rendering without the page changing; the phone's script gives a form a
fresh key once the server answered it (see ``static/companion.js``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from flask import g, request
from markupsafe import Markup

#: The request header that carries the digests a phone holds: the shell's digest, then
#: ``id=digest`` for each piece, separated by spaces.
HEADER = "X-Play-Pieces"
#: More than any play page has; a longer header is ignored (the whole panel is sent).
MAX_HEADER = 8192
MAX_PIECES = 400
DIGEST_BYTES = 8
_STORE = "play_pieces"

_OPENING = re.compile(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
_ID = re.compile(r'\sid="([^"]+)"')
#: Values that change at every rendering without the page changing: the CSRF token and
#: the one-time key of a guarded form (see ``web/idempotency.py``).
_VOLATILE = re.compile(r'(name="(?:csrf_token|submission)" value=")[^"]*"')
_MARKER = "<!--piece:{}-->"
_SAFE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


@dataclass
class Rendered:
    """The pieces and shell digest of the panel rendered in this request."""

    #: Piece id -> (digest, stamped markup), in page order, of the panel being rendered.
    open: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: The same of the last panel rendered whole, and its shell's digest.
    pieces: dict[str, tuple[str, str]] = field(default_factory=dict)
    shell: str | None = None


def _rendered() -> Rendered:
    found: Rendered | None = g.get(_STORE)
    if found is None:
        found = Rendered()
        setattr(g, _STORE, found)
    return found


def digest(markup: str) -> str:
    """A short digest of markup, blind to the values that change at each rendering."""
    if "value=" in markup:
        markup = _VOLATILE.sub(r'\1"', markup)
    return hashlib.blake2b(markup.encode(), digest_size=DIGEST_BYTES).hexdigest()


def _stamp(markup: str, name: str, value: str) -> tuple[str, str] | None:
    """``markup`` with ``name="value"`` added to its first element, and that element's id
    (None when the markup does not open with an element that has an id)."""
    opening = _OPENING.match(markup)
    if opening is None:
        return None
    found = _ID.search(opening.group(2))
    if found is None:
        return None
    at = opening.end(2)
    return f'{markup[:at]} {name}="{value}"{markup[at:]}', found.group(1)


def piece(markup: str) -> Markup:
    """Jinja filter: mark an element with an id as a piece of the play panel."""
    text = str(markup)
    value = digest(text)
    stamped = _stamp(text, "data-h", value)
    if stamped is None:  # not an element with an id: it stays part of the shell
        return Markup(text)
    out, ident = stamped
    if not _SAFE_ID.fullmatch(ident):  # sent as a selector: plain ids only
        return Markup(text)
    _rendered().open[ident] = (value, out)
    return Markup(out)


def shell(markup: str) -> Markup:
    """Jinja filter: mark the play panel; its digest covers what its pieces leave."""
    text = str(markup)
    found = _rendered()
    skeleton = text
    for ident, (_, out) in found.open.items():
        skeleton = skeleton.replace(out, _MARKER.format(ident), 1)
    found.pieces, found.open = found.open, {}
    value = digest(skeleton)
    stamped = _stamp(text, "data-shell", value)
    if stamped is None:
        found.shell = None
        return Markup(text)
    found.shell = value
    return Markup(stamped[0])


@dataclass(frozen=True)
class Known:
    """What a phone said it holds: the shell's digest and each piece's."""

    shell: str
    pieces: dict[str, str]


def known() -> Known | None:
    """The digests this request says the phone holds, when it sent sensible ones."""
    raw = request.headers.get(HEADER, "")
    if not raw or len(raw) > MAX_HEADER:
        return None
    words = raw.split()
    if len(words) > MAX_PIECES + 1:
        return None
    pieces = {}
    for word in words[1:]:
        ident, sep, value = word.partition("=")
        if sep:
            pieces[ident] = value
    return Known(words[0], pieces)


def changed_only() -> str | None:
    """The out-of-band answer for the panel just rendered: only the pieces whose digests
    differ from the phone's, or None when the whole panel must go (no digests sent, or
    the shell changed)."""
    found: Rendered | None = g.get(_STORE)
    held = known()
    if found is None or found.shell is None or held is None or held.shell != found.shell:
        return None
    parts = []
    for ident, (value, out) in found.pieces.items():
        if held.pieces.get(ident) != value:
            # Morphed in place (idiomorph), like the whole panel: nothing moves.
            swapped = _stamp(out, "hx-swap-oob", f"morph:#{ident}")
            parts.append(swapped[0] if swapped else out)
    return "\n".join(parts)
