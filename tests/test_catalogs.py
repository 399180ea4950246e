"""The message catalogs are whole and current (issue 36): every message the code says has
a translation in every shipped language, ``messages.pot`` is what the code says now, and
each catalog names the game's vocabulary as its language's glossary does.

After changing a message: extract, update, translate (docs/development.md, "Languages")::

    pybabel extract -F babel.cfg -c TRANSLATORS: -k N_ -k lazy_gettext \\
        --project="Odd Companion" -o companion/translations/messages.pot .
    pybabel update -i companion/translations/messages.pot -d companion/translations
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from companion.config import DEFAULT_LANGUAGE, LANGUAGES
from companion.web.languages import TRANSLATIONS, catalog_path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = TRANSLATIONS / "messages.pot"
GLOSSARIES = TRANSLATIONS / "glossary"
#: What ``pybabel extract`` is told (``-k``, ``-c``): besides Babel's own keywords.
KEYWORDS = ("N_", "lazy_gettext")
COMMENT_TAG = "TRANSLATORS:"
TRANSLATED = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=language)


def ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    """Each message's id (a plural's singular and plural)."""
    return {_id(m) for m in catalog if m.id}


def _id(message: Message) -> str | tuple[str, ...]:
    return message.id if isinstance(message.id, str) else tuple(message.id)


def extracted() -> set[str | tuple[str, ...]]:
    """The messages the code says now, read as ``pybabel extract`` reads them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, **dict.fromkeys(KEYWORDS)}
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords, (COMMENT_TAG,), strip_comment_tags=True
    ):
        if message:
            found.add(message if isinstance(message, str) else tuple(message))
    return found


def test_messages_pot_is_what_the_code_says() -> None:
    code = extracted()
    template = ids(read(TEMPLATE))
    missing = sorted(map(str, code - template))
    gone = sorted(map(str, template - code))
    assert not missing, f"messages the code says but messages.pot lacks (extract): {missing}"
    assert not gone, f"messages in messages.pot the code no longer says (extract): {gone}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    catalog = read(catalog_path(language), language)
    template = ids(read(TEMPLATE))
    assert ids(catalog) == template, "run pybabel update"
    untranslated = []
    for message in catalog:
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else message.string
        if (
            message.fuzzy
            or not all(strings)
            or len(strings) != (catalog.num_plurals if message.pluralizable else 1)
        ):
            untranslated.append(_id(message))
    assert not untranslated, f"{language}: {len(untranslated)} untranslated: {untranslated[:20]}"
    assert not catalog.obsolete, f"{language}: obsolete messages left: {list(catalog.obsolete)}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_keeps_its_message_s_values(language: str) -> None:
    """Babel's checks: the same ``%(name)s`` values in a translation as in its message."""
    catalog = read(catalog_path(language), language)
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert not problems, problems


def glossary(language: str) -> dict[str, set[str]]:
    """Every English term of a language's glossary, with its translations (a term may
    sit in several games' tables)."""
    data = tomllib.loads((GLOSSARIES / f"{language}.toml").read_text(encoding="utf-8"))
    terms: dict[str, set[str]] = {}
    for table in data.values():
        for english, translated in table.items():
            terms.setdefault(english, set()).add(translated)
    return terms


def glossary_terms(language: str) -> Iterator[tuple[str, str, set[str]]]:
    """Each message that is a glossary term, its translation and the glossary's."""
    terms = glossary(language)
    for message in read(catalog_path(language), language):
        if isinstance(message.id, str) and message.id in terms:
            yield message.id, str(message.string), terms[message.id]


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_says_the_glossary_s_words(language: str) -> None:
    found = list(glossary_terms(language))
    assert found, "no message is a glossary term: is the glossary read?"
    wrong = [(term, said, sorted(wanted)) for term, said, wanted in found if said not in wanted]
    assert not wrong, wrong
