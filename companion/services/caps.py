"""How much one table, one group and one roster may hold: generous for real evenings and
years of a gaming group, small enough that no page, export or import of one of them holds
a server process for long. docs/security.md lists them; the pages, the API and the
import refuse beyond them with these sentences, in the reader's language.
"""

from __future__ import annotations

from babel.numbers import format_decimal

from companion.games.text import _, language

#: Plays at one table (a long evening is a dozen, so a table serves many evenings; a
#: group, which starts a table each evening, keeps the years). The table page lists them
#: all, with their results kept per game version (``services/table_results.py``): at 200
#: its drawing after a change is about 20 ms of work (docs/security.md, "The budget").
MAX_PLAYS_PER_TABLE = 200
#: Members of a group's roster, removed ones included (a large club).
MAX_GROUP_MEMBERS = 200
#: Tables started from one group (an evening a week for ten years is 520).
MAX_GROUP_TABLES = 1000
#: Changes logged for one play (taps, typed values, undos): a full Odd World game of five
#: is about 100 taps (72 cards), a long Oddland or OddVille game a few hundred. A play's
#: undo and its export read all of them; its history page reads a page of them
#: (``play_history.HISTORY_PAGE_EDITS``), older pages a link away.
MAX_EDITS_PER_PLAY = 500
#: Photos kept with one play (the final table, a close-up or two), with one table (a long
#: evening's dozen games, a few of them photographed) and with one group (years of weekly
#: evenings): each is 150-400 KB kept, and every one of them is in the exports and
#: backups, which these keep to tens of megabytes for a table and a few hundred for a group.
MAX_PHOTOS_PER_PLAY = 4
MAX_PHOTOS_PER_TABLE = 40
MAX_PHOTOS_PER_GROUP = 1000
#: Finishing or reopening a play that reached ``MAX_EDITS_PER_PLAY`` stays possible, a
#: few times: its results still count.
STATUS_CHANGES_PAST_CAP = 20


def _number(count: int) -> str:
    """A cap as the reader writes numbers ("1,000" in English, "1.000" in German).

    >>> _number(1000)
    '1,000'
    """
    return format_decimal(count, locale=language())


def too_many_plays() -> str:
    """Refusing a play past the cap."""
    return _(
        "A table holds at most %(count)s games: start a new table "
        "(from your group, to keep counting its results).",
        count=_number(MAX_PLAYS_PER_TABLE),
    )


def too_many_members() -> str:
    """Refusing a member past the cap."""
    return _(
        "A group holds at most %(count)s players (removed ones included).",
        count=_number(MAX_GROUP_MEMBERS),
    )


def too_many_tables() -> str:
    """Refusing a table past the cap."""
    return _(
        "A group holds at most %(count)s tables: start a new group.",
        count=_number(MAX_GROUP_TABLES),
    )


def too_many_edits() -> str:
    """Refusing a change of a play past the cap."""
    return _(
        "A game keeps at most %(count)s changes: finish it, and start a new game to go on.",
        count=_number(MAX_EDITS_PER_PLAY),
    )


def too_many_status_changes() -> str:
    """Refusing to finish or reopen a play again and again past the cap."""
    return _(
        "This game has %(count)s changes and was finished and reopened too often: "
        "start a new game.",
        count=_number(MAX_EDITS_PER_PLAY),
    )


def too_many_photos_per_play() -> str:
    """Refusing a photo past the play's cap."""
    return _(
        "A game keeps at most %(count)s photos: remove one to add another.",
        count=_number(MAX_PHOTOS_PER_PLAY),
    )


def too_many_photos_per_table() -> str:
    """Refusing a photo past the table's cap."""
    return _(
        "A table keeps at most %(count)s photos: remove one, or start a new table.",
        count=_number(MAX_PHOTOS_PER_TABLE),
    )


def too_many_photos_per_group() -> str:
    """Refusing a photo past the group's cap."""
    return _(
        "A group keeps at most %(count)s photos: remove some from older games, "
        "or start a new group.",
        count=_number(MAX_PHOTOS_PER_GROUP),
    )
