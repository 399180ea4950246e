"""How much one table, one group and one roster may hold: generous for real evenings and
years of a gaming group, small enough that no page, export or import of one of them holds
a server process for long. docs/security.md lists them; the pages, the API and the
import refuse beyond them with these sentences.
"""

from __future__ import annotations

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
#: Finishing or reopening a play that reached ``MAX_EDITS_PER_PLAY`` stays possible, a
#: few times: its results still count.
STATUS_CHANGES_PAST_CAP = 20


def too_many_plays() -> str:
    """Refusing a play past the cap."""
    return (
        f"A table holds at most {MAX_PLAYS_PER_TABLE} games: start a new table "
        "(from your group, to keep counting its results)."
    )


def too_many_members() -> str:
    """Refusing a member past the cap."""
    return f"A group holds at most {MAX_GROUP_MEMBERS} players (removed ones included)."


def too_many_tables() -> str:
    """Refusing a table past the cap."""
    return f"A group holds at most {MAX_GROUP_TABLES} tables: start a new group."


def too_many_edits() -> str:
    """Refusing a change of a play past the cap."""
    return (
        f"A game keeps at most {MAX_EDITS_PER_PLAY:,} changes: finish it, and start a new "
        "game to go on."
    )


def too_many_status_changes() -> str:
    """Refusing to finish or reopen a play again and again past the cap."""
    return (
        f"This game has {MAX_EDITS_PER_PLAY:,} changes and was finished and reopened too "
        "often: start a new game."
    )
