"""Send a phone only the parts of a play's page that changed.

A play's panel (``_play.html``) is cut into *pieces*: elements with a stable id (the
standings, one player's display, the buttons...) marked in the templates with
``{% filter piece %}...{% endfilter %}``. Rendering a piece stamps it with a digest of its
markup (``data-h``); the panel itself is marked with ``{% filter shell %}`` and stamped
with a digest of everything outside its pieces (``data-shell``).

A piece may hold pieces (a list and its items): its digest then covers what they leave
of it. When that changed, it is sent with a stub (``<li id="x" data-keep></li>``) for each
piece inside it that the phone holds as it is; the phone's script puts its own copy of
the element there before the swap.

Pieces are gathered in a :class:`Rendering`, the render context of one panel: it is
passed to the template as ``live`` (the filters find it there) and then to
:func:`changed_only`; a template rendered without it has no pieces (the whole panel goes).

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

import base64
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from flask import request
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from companion.web.cache import Cache
from companion.web.live import personal

#: The template variable that holds the :class:`Rendering` of a panel.
CONTEXT_NAME = "live"
#: The request header that carries the digests a phone holds: the shell's digest, then
#: ``id=digest`` for each piece, separated by spaces.
HEADER = "X-Play-Pieces"
#: More than any play page has; a longer header is ignored (the whole panel is sent).
MAX_HEADER = 8192
MAX_PIECES = 400
DIGEST_BYTES = 8

_OPENING = re.compile(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
_ID = re.compile(r'\sid="([^"]+)"')
#: Where values that change at every rendering without the page changing start: the
#: CSRF token and the one-time key of a guarded form (see ``personal.py``); each runs to
#: the next quote.
_VOLATILE_STARTS = ('name="csrf_token" value="', f'name="{personal.KEY_FIELD}" value="')
_MARKER = "<!--piece:{}-->"
#: Elements that are only parsed right inside their parent (a table row, an SVG shape):
#: a change in one goes with its parent piece rather than alone.
BOUND = frozenset(
    {"tr", "td", "th", "thead", "tbody", "tfoot", "caption", "col", "colgroup", "option"}
    | {"optgroup", "g", "rect", "text", "path", "circle", "line", "polyline", "use"}
)
#: The attribute of a stub: "keep your own copy of this element".
KEEP = "data-keep"
_SAFE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
#: The answers kept per panel (:meth:`Rendering.answer_for`): phones that missed one
#: change or several hold different digests. Together they hold at most as many
#: characters as the panel (an answer holds each of its pieces at most once).
MAX_ANSWERS = 16


def _answer_size(answer: tuple[str | None]) -> int:
    return len(answer[0] or "") + 64


@dataclass
class Piece:
    """A rendered piece: its id, digest, markup as stamped, and the pieces inside it."""

    ident: str
    digest: str
    markup: str
    inner: list[Piece] = field(default_factory=list)
    tag: str = "div"

    def stub(self) -> str:
        """What stands for this piece in an answer when the phone holds it as it is: the
        phone's script puts its own copy there (see ``static/companion.js``)."""
        return f'<{self.tag} id="{self.ident}" {KEEP}></{self.tag}>'


@dataclass
class Rendering:
    """The render context of one play panel: the pieces rendered so far, and the panel."""

    #: Pieces rendered but not yet inside a rendered piece or panel, in page order.
    open: list[Piece] = field(default_factory=list)
    #: The play panel, once rendered (its pieces inside it).
    panel: Piece | None = None
    #: Where the values a digest is blind to start (see ``_VOLATILE_STARTS``), the CSRF
    #: field's name as configured (looked up on the first digest).
    volatile_starts: tuple[str, ...] = ()
    #: The answers made from this panel, by the digests a phone sent (see
    #: :meth:`answer_for`); made on first use.
    answers: Cache[tuple[str | None]] | None = field(default=None, repr=False, compare=False)
    #: The game's entry as rendered in this panel (see :meth:`entry`), for the next
    #: version's panel to patch rather than render anew.
    part: Part | None = None
    #: Whether the entry is one kept from the last version's panel, patched.
    reused: bool = False

    def answer_for(self, raw: str) -> str | None:
        """:func:`changed_only` for the phone that sent ``raw`` as its ``X-Play-Pieces``
        header, kept: every phone of a table holds the same pieces after a change, so
        the first one's answer serves the others. Keyed by the header itself (the
        digests the phone holds) on this panel (one version), so it cannot go stale."""
        answers = self.answers
        if answers is None:
            size = len(self.panel.markup) if self.panel is not None else 0
            answers = self.answers = Cache(MAX_ANSWERS, size + 64 * MAX_ANSWERS, _answer_size)
        found = answers.get(raw)
        if found is None:
            found = (changed_only(self, held_in(raw)),)
            answers.put(raw, found)
        return found[0]

    def digest(self, markup: str) -> str:
        """A short digest of markup, blind to the values that change at each rendering."""
        if not self.volatile_starts:
            csrf = f'name="{personal.csrf_field()}" value="'
            self.volatile_starts = tuple(dict.fromkeys((csrf, *_VOLATILE_STARTS)))
        for start in self.volatile_starts:
            if start in markup:
                markup = blanked(markup, start)
        # SHA-256 rather than BLAKE2: several times faster where the CPU computes it (the
        # digests were a sixth of a panel's rendering), cut to DIGEST_BYTES all the same.
        raw = hashlib.sha256(markup.encode()).digest()[:DIGEST_BYTES]
        # URL-safe base64 rather than hex: the phone sends every digest with each poll.
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def piece(self, markup: str) -> Markup:
        """Mark an element with an id as a piece of the panel (it may hold pieces itself:
        a list whose items are pieces...)."""
        made = self._gather(str(markup), "data-h")
        if made is None:  # not an element with a plain id: it stays part of what holds it
            return Markup(markup)
        self.open.append(made)
        return Markup(made.markup)

    def shell(self, markup: str) -> Markup:
        """Mark the play panel; its digest covers what its pieces leave."""
        made = self._gather(str(markup), "data-shell")
        self.panel = made
        return Markup(markup if made is None else made.markup)

    def entry(self, markup: str) -> Markup:
        """Mark the game's entry, the stretch of the panel a game renders itself: it is
        kept with its pieces (:class:`Part`), so that the panel of the next version can
        take it patched where an edit changed it (see ``play.py``)."""
        text = str(markup)
        start, _ = self._inner(text)
        self.part = Part(text, tuple(self.open[start:]))
        return Markup(text)

    def reuse(self, part: Part) -> Markup:
        """Put a kept entry (patched: :meth:`Part.patched`) where the template would
        render it: its pieces join the panel's as if rendered here."""
        self.open.extend(part.pieces)
        self.part, self.reused = part, True
        return Markup(part.markup)

    def _inner(self, text: str) -> tuple[int, list[int]]:
        """Where the open pieces that ``text`` holds start in the open list, and where
        each of them is in ``text`` (last first)."""
        # The pieces inside were rendered last: they end the open list, in page order.
        # Each is looked for from the end backwards, before the one found after it, so the
        # text is scanned about once whatever the number of pieces inside (a search of the
        # whole text for each was a fifth of the panel's rendering).
        found = self.open
        start, end = len(found), len(text)
        places: list[int] = []
        while start > 0:
            where = text.rfind(found[start - 1].markup, 0, end)
            if where < 0:
                break
            start, end = start - 1, where
            places.append(where)
        return start, places

    def _gather(self, text: str, name: str) -> Piece | None:
        """Make ``text`` a piece: it takes the open pieces it holds, and its digest covers
        the rest of it (each piece inside stands there as a marker), so that a change
        inside a piece inside it changes only that piece's digest."""
        opening = _OPENING.match(text)
        if opening is None:
            return None
        found = self.open
        start, places = self._inner(text)
        inner = found[start:]
        parts: list[str] = []
        at = 0
        for piece, where in zip(inner, reversed(places), strict=True):
            parts += (text[at:where], _MARKER.format(piece.ident))
            at = where + len(piece.markup)
        value = self.digest(text[at:] if not parts else "".join((*parts, text[at:])))
        stamped = _stamp(text, name, value)
        if stamped is None:
            return None
        del found[start:]
        return Piece(stamped[1], value, stamped[0], inner, opening.group(1))


@dataclass(frozen=True)
class Part:
    """A stretch of a panel kept with the pieces in it (top level, in page order): the
    game's entry (:meth:`Rendering.entry`)."""

    markup: str
    pieces: tuple[Piece, ...]

    def patched(self, fresh: list[Piece]) -> Part | None:
        """This stretch with each piece of ``fresh`` in place of the kept piece of its id
        (at any depth), or None when one of them is not found (then the caller renders
        the whole panel: a patch is only ever made of pieces known to be there). The
        pieces around keep their digests: a digest leaves out the pieces inside."""
        waiting = {piece.ident: piece for piece in fresh}
        if len(waiting) != len(fresh):
            return None
        markup, pieces = _spliced(self.markup, self.pieces, waiting)
        return None if waiting else Part(markup, pieces)

    def retokened(self, old: str, new: str) -> Part:
        """This stretch rendered with the CSRF token ``new`` rather than ``old`` (digests
        are blind to it): a patch joins markup rendered for two phones."""
        if old == new or old not in self.markup:
            return self
        return Part(
            self.markup.replace(old, new), tuple(_retokened(p, old, new) for p in self.pieces)
        )


def _spliced(
    markup: str, pieces: tuple[Piece, ...] | list[Piece], waiting: dict[str, Piece]
) -> tuple[str, tuple[Piece, ...]]:
    """``markup`` and its ``pieces`` with those ``waiting`` put in (each taken out of
    ``waiting`` once placed); the pieces inside a piece are looked at when the piece
    itself is not replaced."""
    out: list[str] = []
    made: list[Piece] = []
    at = 0
    for piece in pieces:
        new = waiting.pop(piece.ident, None)
        if new is None and piece.inner:
            inner_markup, inner = _spliced(piece.markup, piece.inner, waiting)
            if inner_markup is not piece.markup:
                new = Piece(piece.ident, piece.digest, inner_markup, list(inner), piece.tag)
        if new is None:
            made.append(piece)
            continue
        where = markup.find(piece.markup, at)
        if where < 0:  # cannot happen for a piece gathered from this markup
            waiting[piece.ident] = new
            continue
        out += (markup[at:where], new.markup)
        at = where + len(piece.markup)
        made.append(new)
    if not out:
        return markup, tuple(made)
    out.append(markup[at:])
    return "".join(out), tuple(made)


def _retokened(piece: Piece, old: str, new: str) -> Piece:
    if old not in piece.markup:
        return piece
    inner = [_retokened(p, old, new) for p in piece.inner]
    return Piece(piece.ident, piece.digest, piece.markup.replace(old, new), inner, piece.tag)


def blanked(markup: str, start: str) -> str:
    """``markup`` with each value that follows ``start`` (up to its closing quote) left
    out; a cut at every ``start`` is cheaper than a regular expression over the panel."""
    parts = markup.split(start)
    out = [parts[0]]
    for part in parts[1:]:
        end = part.find('"')
        out += (start, part if end < 0 else part[end:])
    return "".join(out)


def _stamp(markup: str, name: str, value: str) -> tuple[str, str] | None:
    """``markup`` with ``name="value"`` added to its first element, and that element's id
    (None when the markup does not open with an element that has a plain id)."""
    opening = _OPENING.match(markup)
    if opening is None:
        return None
    found = _ID.search(opening.group(2))
    if found is None or not _SAFE_ID.fullmatch(found.group(1)):
        return None
    at = opening.end(2)
    return f'{markup[:at]} {name}="{value}"{markup[at:]}', found.group(1)


def _rendering_of(context: Context) -> Rendering | None:
    found: Any = context.get(CONTEXT_NAME)
    return found if isinstance(found, Rendering) else None


@pass_context
def piece_filter(context: Context, markup: str) -> Markup:
    """Jinja filter ``piece``: a piece of the panel the template's ``live`` renders (see
    :meth:`Rendering.piece`); without one, the markup as it is."""
    rendering = _rendering_of(context)
    return Markup(markup) if rendering is None else rendering.piece(markup)


@pass_context
def shell_filter(context: Context, markup: str) -> Markup:
    """Jinja filter ``shell``: the panel the template's ``live`` renders (see
    :meth:`Rendering.shell`); without one, the markup as it is."""
    rendering = _rendering_of(context)
    return Markup(markup) if rendering is None else rendering.shell(markup)


@pass_context
def entry_filter(context: Context, markup: str) -> Markup:
    """Jinja filter ``entry``: the game's entry, kept by the template's ``live`` (see
    :meth:`Rendering.entry`); without one, the markup as it is."""
    rendering = _rendering_of(context)
    return Markup(markup) if rendering is None else rendering.entry(markup)


@dataclass(frozen=True)
class Held:
    """What a phone said it holds: the shell's digest and each piece's."""

    shell: str
    pieces: dict[str, str]


def held_by_phone() -> Held | None:
    """The digests this request says the phone holds, when it sent sensible ones."""
    return held_in(request.headers.get(HEADER, ""))


def held_in(raw: str) -> Held | None:
    """The digests a ``X-Play-Pieces`` header says the phone holds, if sensible ones."""
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
    return Held(words[0], pieces)


def changed_only(rendering: Rendering | None, held: Held | None) -> str | None:
    """The out-of-band answer for the panel ``rendering`` made: only the pieces whose
    digests differ from those the phone ``held``, or None when the whole panel must go
    (no panel, no digests sent, or the shell changed)."""
    panel = rendering.panel if rendering is not None else None
    if panel is None or held is None or held.shell != panel.digest:
        return None
    if _holds_bound_changes(panel, held.pieces):  # a table row right in the panel...
        return None
    parts: list[str] = []
    _changed(panel, held.pieces, parts)
    return "\n".join(parts)


def _changed(holder: Piece, held: dict[str, str], parts: list[str]) -> None:
    """Each piece in ``holder`` whose digest the phone does not hold goes (see
    :func:`_sent`); where it does, the pieces inside it are looked at."""
    for inner in holder.inner:
        if held.get(inner.ident) == inner.digest and not _holds_bound_changes(inner, held):
            _changed(inner, held, parts)
            continue
        # Morphed in place (idiomorph), like the whole panel: nothing moves.
        sent = _sent(inner, held)
        swapped = _stamp(sent, "hx-swap-oob", f"morph:#{inner.ident}")
        parts.append(swapped[0] if swapped else sent)


def _sent(changed: Piece, held: dict[str, str]) -> str:
    """A changed piece as it goes to the phone: the pieces inside it that the phone
    holds as they are go as stubs (a list that grew by one item sends one item)."""
    markup = changed.markup
    for inner in changed.inner:
        kept = held.get(inner.ident) == inner.digest and not _holds_changes(inner, held)
        replacement = inner.stub() if kept else _sent(inner, held)
        if replacement != inner.markup:
            markup = markup.replace(inner.markup, replacement, 1)
    return markup


def _holds_bound_changes(piece: Piece, held: dict[str, str]) -> bool:
    """Whether a changed piece inside it cannot go alone (see ``BOUND``): then it goes
    with it."""
    return any(
        inner.tag.lower() in BOUND
        and (held.get(inner.ident) != inner.digest or _holds_changes(inner, held))
        for inner in piece.inner
    )


def _holds_changes(piece: Piece, held: dict[str, str]) -> bool:
    """Whether a piece inside it changed (its own digest leaves them out)."""
    return any(
        held.get(inner.ident) != inner.digest or _holds_changes(inner, held)
        for inner in piece.inner
    )
