"""The rules reference: every game's rules as small entries, in our own words, as data.

Each game has one TOML file here, named by its slug (``owl-about.toml``)::

    game = "owl-about"                # the slug, as the file name says

    [[topic]]                         # topics in display order
    id = "tricks"
    title = "Playing a trick"

    [[entry]]                         # entries in display order within their topic
    id = "follow"                     # rule id "owl-about/follow", anchor #follow
    topic = "tricks"
    title = "Which card may I play?"  # one question per entry
    body = \"\"\"Markdown: paragraphs, "- " lists, **bold**, *emphasis*.\"\"\"
    clarification = false             # true where the rulebook is silent or ambiguous
    why = ""                          # required when clarification is true
    keywords = ["must play"]          # optional search words and synonyms

The other languages' files are in a folder named by the language's code
(``de/owl-about.toml``): the same games, topics and entries, in the same order, with the
same ids, topics and ``clarification`` flags, every text translated and ``keywords``
written as that language's players type. :func:`load_languages` refuses a language that
differs from English.

Code names entries by rule id (``Problem(..., rule="owl-about/follow")``); a test walks
every rule id in the engines and templates and checks it is here. :mod:`.content` loads
and checks the files, :mod:`.search` searches them, :mod:`.markdown` renders a body.
"""

from companion.rules.content import (
    RULES_DIR,
    Entry,
    GameRules,
    Library,
    RulesContentError,
    Topic,
    load,
    load_languages,
)

__all__ = [
    "RULES_DIR",
    "Entry",
    "GameRules",
    "Library",
    "RulesContentError",
    "Topic",
    "load",
    "load_languages",
]
