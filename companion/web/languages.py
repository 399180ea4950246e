"""Each phone in its own language: Flask-Babel, the catalogs, the switch on every page.

A phone's language is the one it picked with the switch at the foot of every page (kept
in its session), else the best match of its ``Accept-Language`` among
:data:`~companion.config.LANGUAGES`, else English. The JSON API reads only
``Accept-Language``: a script's answers never depend on a cookie.

The catalogs are ``companion/translations/<lang>/LC_MESSAGES/messages.po``. No ``.mo``
file is committed or written: each process reads a language's ``.po`` file once, the
first time a phone asks for that language, and compiles it in memory (Babel's own
reader and writer, fuzzy messages left out), so a fresh clone, a read-only install and
several workers starting at once all work with nothing to build first.

The pure engines speak through :mod:`companion.games.text`; each request puts a
:class:`RequestTranslations` in place for them (and takes it out after), which looks the
language up only when an engine first says something: a poll answered 204 never reads
the session. Whatever is kept for several phones is either language-free or keyed by
the language (:func:`companion.games.text.language`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    g,
    jsonify,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import Babel, Domain, force_locale, get_locale, gettext, refresh
from werkzeug.utils import cached_property
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.config import DEFAULT_LANGUAGE, LANGUAGES
from companion.games import text
from companion.web import security

bp = Blueprint("languages", __name__)

#: Where the catalogs live: ``<lang>/LC_MESSAGES/messages.po``.
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "messages"
#: The session key of the language a phone picked with the switch.
SESSION_KEY = "lang"
#: Where the switch may send a phone back to: a path of this site, never another host
#: (no scheme, no ``//`` or ``/\\`` that a browser reads as another host, no spaces).
SAFE_NEXT = re.compile(r"/(?![/\\])[^\s\\]{0,2000}")
_SPEAKING = "companion_speaking"
#: Where the JSON API answers (its errors too, for addresses it does not have).
API_PATH = "/api/"


def catalog_path(language: str) -> Path:
    """The ``.po`` file of a language."""
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(language: str) -> NullTranslations:
    """A shipped language's translations, read from its ``.po`` file once per process
    (English, the language messages are written in, needs none).

    >>> translations("en").gettext("Enter a whole number.")
    'Enter a whole number.'
    >>> translations("de").language
    'de'
    """
    if language == DEFAULT_LANGUAGE or language not in LANGUAGES:
        found = NullTranslations()
    else:
        with catalog_path(language).open("rb") as po:
            catalog = read_po(po, locale=language, domain=DOMAIN)
        compiled = BytesIO()
        write_mo(compiled, catalog, use_fuzzy=False)
        compiled.seek(0)
        found = Translations(compiled, domain=DOMAIN)
    found.language = language  # type: ignore[attr-defined]
    return found


class CatalogDomain(Domain):
    """Flask-Babel's message domain, with the catalogs read in memory (see the module)."""

    def get_translations(self) -> NullTranslations:
        """The translations of the request's language (English outside a request)."""
        return translations(str(get_locale() or DEFAULT_LANGUAGE))


class CatalogBabel(Babel):
    """Flask-Babel, answering from :class:`CatalogDomain`."""

    @cached_property
    def domain_instance(self) -> Domain:
        """The one message domain, ``messages``."""
        return CatalogDomain(domain=DOMAIN)


def select_language() -> str:
    """The request's language: the phone's pick, else the best match of its
    ``Accept-Language``, else English. The API reads only ``Accept-Language``."""
    if not request.path.startswith(API_PATH):
        picked = session.get(SESSION_KEY)
        if picked in LANGUAGES:
            return str(picked)
    return best_language(request.accept_languages)


def best_language(accepted: Iterable[tuple[str, float]]) -> str:
    """The first shipped language among the languages a phone accepts (most wanted
    first), by their main part ("de-AT" is German); English when none is shipped.
    Werkzeug's ``best_match`` would take an exact match of a less wanted language over
    the main part of a more wanted one ("en-GB, de;q=0.9" would be German).

    >>> best_language([("en-GB", 1), ("de", 0.9)]), best_language([("pt-BR", 1), ("es", 0.5)])
    ('en', 'es')
    >>> best_language([("fr", 0), ("*", 1)]), best_language([])
    ('en', 'en')
    """
    for value, quality in accepted:
        main = value.replace("_", "-").partition("-")[0].casefold()
        if quality > 0 and main in LANGUAGES:
            return main
    return DEFAULT_LANGUAGE


def language() -> str:
    """The code of the request's language (``"de"``)."""
    return str(get_locale() or DEFAULT_LANGUAGE)


class RequestTranslations(NullTranslations):
    """What the engines speak through during one request: the request's translations,
    looked up when first used (so a request that says nothing never reads its session
    or headers for a language)."""

    def __init__(self) -> None:
        super().__init__()
        self._found: NullTranslations | None = None

    def _translations(self) -> NullTranslations:
        if self._found is None:
            self._found = translations(language())
        return self._found

    @property
    def language(self) -> str:
        """The request's language, as :func:`companion.games.text.language` reads it."""
        return str(self._translations().language)  # type: ignore[attr-defined]

    def gettext(self, message: str) -> str:
        """``message`` in the request's language."""
        return str(self._translations().gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """The singular or plural for ``n`` in the request's language."""
        return str(self._translations().ngettext(msgid1, msgid2, n))


@contextmanager
def in_language(code: str | None) -> Iterator[None]:
    """Templates and engines in ``code`` inside the block, when it is a shipped language
    (pages fetched without the phone's session, by the service worker or as the
    manifest, say theirs in the address); else the request's language as usual."""
    if code not in LANGUAGES:
        yield
        return
    with force_locale(code), text.speaking(translations(str(code))):
        yield


def register(app: Flask) -> None:
    """Flask-Babel, the engines' language per request, the switch and the manifest."""
    CatalogBabel(app, locale_selector=select_language, default_domain=DOMAIN)
    app.register_blueprint(bp)
    app.before_request(_speak_the_request_language)
    app.teardown_request(_stop_speaking)
    app.after_request(_say_the_language)
    app.context_processor(_template_globals)


def _speak_the_request_language() -> None:
    """Have the engines speak the request's language (looked up when first used)."""
    speaking = text.speaking(RequestTranslations())
    speaking.__enter__()
    setattr(g, _SPEAKING, speaking)


def _stop_speaking(_error: BaseException | None) -> None:
    speaking = g.pop(_SPEAKING, None)
    if speaking is not None:
        speaking.__exit__(None, None, None)
    # Flask-Babel keeps the language on ``g``, which a test's app context may carry from
    # one request to the next: each request looks its own up.
    refresh()


def _language_looked_up() -> bool:
    """Whether this request's language was looked up (Flask-Babel keeps it on ``g``)."""
    return getattr(g.get("_flask_babel"), "babel_locale", None) is not None


def _say_the_language(response: Response) -> Response:
    """An answer worded in the request's language says so (``Content-Language``, which
    the service worker reads to keep the offline page in the phone's language) and
    that it depends on ``Accept-Language``."""
    if _language_looked_up():
        response.vary.add("Accept-Language")
        response.content_language.add(language())
    return response


def _template_globals() -> dict[str, Any]:
    return {"locale": language(), "languages": LANGUAGES}


@bp.post("/language")
def choose() -> WerkzeugResponse:
    """Keep the language a phone picked (the switch's buttons) and go back to the page it
    was on: the page that sent the form (its Referer, with the query the phone is on),
    else ``next``; a path of this site only, never another address."""
    picked = request.form.get("lang", "")
    if picked not in LANGUAGES:
        abort(HTTPStatus.BAD_REQUEST, gettext("Pick one of the languages offered."))
    back = request.form.get("next") or url_for("pages.home")
    if not SAFE_NEXT.fullmatch(back):
        abort(HTTPStatus.BAD_REQUEST, gettext("That page is not on this site."))
    session[SESSION_KEY] = picked
    session.permanent = True
    return redirect(_sending_page(back) or back, HTTPStatus.SEE_OTHER)


def _sending_page(path: str) -> str | None:
    """The page of this site that sent the form, when it is ``path`` (its query too: the
    form is rendered once for many phones and names the path alone)."""
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host or referrer.path != path:
        return None
    found = referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return found if SAFE_NEXT.fullmatch(found) else None


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, its name and description in the language asked (``?lang=``;
    a browser fetches it without the session), else the best match of the browser's."""
    with in_language(request.args.get("lang")):
        answer = jsonify(
            {
                "id": "/",
                "lang": language(),
                "dir": "ltr",
                # TRANSLATORS: the app's name on a phone's home screen (a name: keep it).
                "name": gettext("Odd Companion"),
                "short_name": "Odd",
                "description": gettext(
                    "Score, referee and total five small card games at the table, on every phone."
                ),
                "start_url": "/",
                "scope": "/",
                "display": "standalone",
                "background_color": "#f7f5f0",
                "theme_color": "#0b5cad",
                "icons": [
                    {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
                    {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                    {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
                    {
                        "src": "/static/icon-512.png",
                        "sizes": "512x512",
                        "type": "image/png",
                        "purpose": "maskable",
                    },
                ],
            }
        )
    answer.mimetype = "application/manifest+json"
    security.mark_public()
    return answer
