"""Words for people in the reader's language, for the pure engines.

The engines speak English by default. The web layer puts the request's translations
(Flask-Babel's, a :class:`gettext.NullTranslations` subclass) in place with
:func:`speaking` for the length of a request, and every sentence an engine builds goes
through :func:`_` or :func:`ngettext`, so it comes out in that language. The engines stay
pure: only the standard library's :mod:`gettext` and :mod:`contextvars` are used.

Messages are ``%(name)s``-style templates, so a translator can move the values around;
``pybabel extract`` (``babel.cfg``) finds them by these names. A value fixed when a module
loads (a bird's name, a tiebreaker's label, a reading's text) is marked with :func:`N_`
and translated where it is shown, with :func:`_`.

>>> _("Only %(count)s %(bird)s cards exist.", count=8, bird="Hoopoe")
'Only 8 Hoopoe cards exist.'
>>> ngettext("%(num)s card", "%(num)s cards", 1), ngettext("%(num)s card", "%(num)s cards", 3)
('1 card', '3 cards')
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

#: English: no translation at all.
_ENGLISH = gettext.NullTranslations()
#: The translations of the request being answered; ``None`` (English) outside requests.
_current: ContextVar[gettext.NullTranslations | None] = ContextVar(
    "companion_translations", default=None
)


def _translations() -> gettext.NullTranslations:
    return _current.get() or _ENGLISH


#: The code of English, the language of every message as written.
ENGLISH = "en"


def language() -> str:
    """The code of the language the engines speak now: ``"en"`` for English, else the
    ``language`` the translations in place name (a key for what is kept per language).

    >>> language()
    'en'
    >>> class German(gettext.NullTranslations):
    ...     language = "de"
    >>> with speaking(German()):
    ...     language()
    'de'
    """
    translations = _translations()
    if translations is _ENGLISH:
        return ENGLISH
    return str(getattr(translations, "language", type(translations).__name__))


def _(message: str, /, **params: object) -> str:
    """``message`` in the reader's language, with ``params`` filled in.

    >>> _("Enter a whole number.")
    'Enter a whole number.'
    """
    text = _translations().gettext(message)
    return text % params if params else text


def ngettext(singular: str, plural: str, num: int, /, **params: object) -> str:
    """The singular or plural form for ``num`` in the reader's language; ``%(num)s`` in
    the message is ``num``.

    >>> ngettext("%(num)s bird", "%(num)s birds", 2)
    '2 birds'
    """
    text = _translations().ngettext(singular, plural, num)
    return text % {"num": num, **params}


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for "mark only"
    """Mark ``message`` for translation without translating it now (see the module).

    >>> N_("Hoopoe")
    'Hoopoe'
    """
    return message


#: The last joint of a list, by the word that joins it ("Ann, Ben and Cy", "8, 10 or 12").
_LAST_JOINTS = {
    # TRANSLATORS: the end of a list of names or numbers: "Ann, Ben and Cy".
    "and": N_("%(items)s and %(last)s"),
    # TRANSLATORS: the end of a list of choices: "8, 10 or 12".
    "or": N_("%(items)s or %(last)s"),
}


def spoken_list(items: Sequence[str], *, joined_by: Literal["and", "or"] = "and") -> str:
    """Items (names, numbers) listed as people say them, in the reader's language: commas,
    then "and" (or "or") before the last.

    >>> spoken_list(["Ann"]), spoken_list(["Ann", "Ben"]), spoken_list(["Ann", "Ben", "Cy"])
    ('Ann', 'Ann and Ben', 'Ann, Ben and Cy')
    >>> spoken_list(["8", "10", "12"], joined_by="or"), spoken_list([])
    ('8, 10 or 12', '')
    """
    if len(items) <= 1:
        return "".join(items)
    said = items[0]
    for item in items[1:-1]:
        # TRANSLATORS: a list going on ("Ann, Ben"); "and" or "or" joins its last item.
        said = _("%(items)s, %(item)s", items=said, item=item)
    return _(_LAST_JOINTS[joined_by], items=said, last=items[-1])


def sentences(*said: str) -> str:
    """Whole sentences (each already in the reader's language) one after the other;
    empty ones are left out.

    >>> sentences("This game is for 2 to 5 players, not 6.", "", "2 to 5 is the app's reading.")
    "This game is for 2 to 5 players, not 6. 2 to 5 is the app's reading."
    >>> sentences("", "")
    ''
    """
    parts = [sentence for sentence in said if sentence]
    text = parts[0] if parts else ""
    for sentence in parts[1:]:
        # TRANSLATORS: two whole sentences one after the other (a refusal, then why).
        text = _("%(first)s %(then)s", first=text, then=sentence)
    return text


@contextmanager
def speaking(translations: gettext.NullTranslations) -> Iterator[None]:
    """Have the engines speak through ``translations`` inside the ``with`` block.

    >>> class Shouting(gettext.NullTranslations):
    ...     def gettext(self, message): return message.upper()
    >>> with speaking(Shouting()):
    ...     _("Ann wins.")
    'ANN WINS.'
    >>> _("Ann wins.")
    'Ann wins.'
    """
    token = _current.set(translations)
    try:
        yield
    finally:
        _current.reset(token)


@contextmanager
def in_english() -> Iterator[None]:
    """Have the engines speak English inside the ``with`` block, whatever the request's
    language: for what is stored or shared between readers (a result kept in the
    database, an answer kept for several phones).

    >>> class Shouting(gettext.NullTranslations):
    ...     def gettext(self, message): return message.upper()
    >>> with speaking(Shouting()), in_english():
    ...     _("Ann wins.")
    'Ann wins.'
    """
    with speaking(_ENGLISH):
        yield
