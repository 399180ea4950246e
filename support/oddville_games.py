"""OddVille games played out at random by the rules, for property tests: every table they
stop at is one the rules can produce.

A game is set up as the rulebook says (characters dealt into four guild piles, some set
aside with fewer players, one worker of each player on the Resources Board), then the
players take turns clockwise. A turn takes a resource, passes (Coins), or builds a card
that touches the city and meets its neighbours' edges; a building with a guild symbol
gives its builder the top character of that guild's pile (everyone gives that guild's
characters back when the pile is empty). After someone else's building, the Builder's
holder may build too; in their own turn, before or after their action, the Traveller's
holder may put a worker on the Main Square. The game ends after the turn in which a
player places their 6th worker in the city: that player is ``ended_by``.

The real deck is not published, so a building shows any victory-point type, guild,
shield, edges and bonus; each still matches its neighbours' edges, as a laid card does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from companion.games.grid import Cell, neighbours, step
from companion.games.oddville import CHARACTERS, GUILDS, MAIN_SQUARE, Bonus
from companion.games.oddville.facts import (
    BUILDER,
    FACING,
    MAIN_SQUARE_EDGES,
    TRAVELLER,
    WORKERS_PER_PLAYER,
    WORKERS_TO_END,
)
from companion.games.oddville.state import CHARACTERS_PER_GUILD, CHARACTERS_SET_ASIDE

#: Seat names, in seating order (the rulebook's colours).
NAMES = ("Blue", "Purple", "Red", "Yellow")
#: Each victory-point type and the printed values it may show.
KIND_VALUES: dict[str, tuple[int | None, ...]] = {
    "diamond": (4, 5),
    "diamonds": (None,),
    "adjacent": (None,),
    "column": (None,),
    "row": (None,),
    "adjacent-x3": (None,),
    "shields": (None,),
    "guild": (1, 2),
}
#: After this many turns per player every turn builds, so that every game ends.
TURNS_PER_PLAYER = 12
#: What a turn does besides building (the first choice, building, is the one shrunk to).
BUILD, RESOURCE, COINS = range(3)
#: The most resources a building costs here (workers taken off the Resources Board).
MOST_PAID = 3


@dataclass
class Table:
    """A game under way: the city, the guild piles, who holds what, who ended it."""

    players: tuple[str, ...]
    piles: dict[str, list[str]]
    #: The guild each character in play belongs to.
    guild_of: dict[str, str]
    cards: dict[Cell, dict[str, Any]] = field(default_factory=dict)
    edges: dict[Cell, str] = field(default_factory=lambda: {(0, 0): MAIN_SQUARE_EDGES})
    held: dict[str, list[str]] = field(default_factory=dict)
    board: dict[str, int] = field(default_factory=dict)
    square: list[str] = field(default_factory=list)
    ended_by: str | None = None

    def in_city(self, player: str) -> int:
        """A player's workers in the city (buildings and the Main Square)."""
        owned = sum(1 for card in self.cards.values() if card["owner"] == player)
        return owned + (player in self.square)

    def supply(self, player: str) -> int:
        """A player's workers neither in the city nor on the Resources Board."""
        return WORKERS_PER_PLAYER - self.in_city(player) - self.board[player]

    def holder(self, character: str) -> str | None:
        """Who holds a character, if anyone."""
        return next((p for p, keys in self.held.items() if character in keys), None)

    def placed(self, player: str) -> None:
        """A worker went into the city: a player's 6th, the first one, ends the game."""
        if self.ended_by is None and self.in_city(player) >= WORKERS_TO_END:
            self.ended_by = player

    def state(self) -> dict[str, Any]:
        """The table as the API takes it."""
        square = {"at": [0, 0], "card": MAIN_SQUARE, "owners": list(self.square)}
        return {
            "players": list(self.players),
            "ended_by": self.ended_by,
            "city": [square, *self.cards.values()],
            "characters": {p: list(self.held[p]) for p in self.players},
            "resource_workers": dict(self.board),
        }


def set_up(draw: st.DrawFn, players: tuple[str, ...]) -> Table:
    """Characters dealt into four shuffled guild piles (some set aside with fewer players);
    each player claims a resource with one worker on the Resources Board."""
    dealt = draw(st.permutations(sorted(CHARACTERS)))
    aside = CHARACTERS_SET_ASIDE[len(players)]
    piles: dict[str, list[str]] = {}
    guild_of: dict[str, str] = {}
    for number, guild in enumerate(GUILDS):
        pile = dealt[number * CHARACTERS_PER_GUILD : (number + 1) * CHARACTERS_PER_GUILD]
        piles[guild] = list(pile[aside:])
        guild_of.update(dict.fromkeys(piles[guild], guild))
    return Table(
        players,
        piles,
        guild_of,
        held={p: [] for p in players},
        board=dict.fromkeys(players, 1),
    )


def build(draw: st.DrawFn, table: Table, player: str) -> None:
    """``player`` pays a building's resources, lays it next to the city matching its
    neighbours' edges, puts a worker on it and takes a character for a guild symbol."""
    paid = draw(st.integers(0, min(table.board[player], MOST_PAID)))
    if table.supply(player) + paid == 0:
        paid = 1  # the resources paid come back first: a worker is then free for the card
    table.board[player] -= paid
    taken = set(table.edges)
    frontier = sorted({n for cell in taken for n in neighbours(cell) if n[0] >= 0} - taken)
    at = draw(st.sampled_from(frontier))
    edges = list(draw(st.text(alphabet="HS", min_size=4, max_size=4)))
    for offset, (mine, theirs) in FACING.items():
        other = table.edges.get(step(at, offset))
        if other is not None:
            edges[mine] = other[theirs]
    table.edges[at] = "".join(edges)
    kind = draw(st.sampled_from(sorted(KIND_VALUES)))
    value = draw(st.sampled_from(KIND_VALUES[kind]))
    # A guild-scoring card is a card of the guild it counts; any other may show one.
    guilds = sorted(GUILDS) if kind == "guild" else [None, *sorted(GUILDS)]
    guild = draw(st.sampled_from(guilds))
    card: dict[str, Any] = {"at": list(at), "owner": player, "points": {"kind": kind}}
    if value is not None:
        card["points"]["value"] = value
    if guild is not None:
        card["guild"] = guild
    if shield := draw(st.integers(0, 3)):
        card["shield"] = shield
    if draw(st.booleans()):  # a table enters the edges and bonus only for the referee
        card["edges"] = table.edges[at]
        card["bonus"] = draw(st.sampled_from([b.value for b in Bonus]))
    table.cards[at] = card
    table.placed(player)
    if guild is not None:
        take_character(draw, table, player, guild)


def take_character(draw: st.DrawFn, table: Table, player: str, guild: str) -> None:
    """The top character of a guild's pile; when it is empty, everyone gives that guild's
    characters back first, and they are shuffled into a new pile."""
    pile = table.piles[guild]
    if not pile:
        for keys in table.held.values():
            pile += [key for key in keys if table.guild_of[key] == guild]
            keys[:] = [key for key in keys if table.guild_of[key] != guild]
        pile[:] = draw(st.permutations(pile))
    table.held[player].append(pile.pop(0))


def travel(draw: st.DrawFn, table: Table, player: str) -> None:
    """The Traveller's holder may pay a resource to put a worker on the Main Square."""
    may = (
        TRAVELLER in table.held[player]
        and player not in table.square
        and table.board[player] > 0
        and draw(st.booleans())
    )
    if may:
        table.board[player] -= 1  # the resource paid, whose worker is then placed
        table.square.append(player)
        table.placed(player)


def play_turn(draw: st.DrawFn, table: Table, player: str, *, must_build: bool) -> None:
    """One turn: the Traveller before or after, one action, the Builder after a build."""
    travel(draw, table, player)
    action = BUILD if must_build else draw(st.sampled_from((BUILD, RESOURCE, COINS)))
    if action == BUILD:
        build(draw, table, player)
        builder = table.holder(BUILDER)
        if builder not in (None, player) and draw(st.booleans()):
            assert builder is not None
            build(draw, table, builder)
    elif action == RESOURCE and table.supply(player) > 0:
        table.board[player] += 1
    travel(draw, table, player)


@st.composite
def played_games(draw: st.DrawFn, *, finished: bool = True) -> dict[str, Any]:
    """A game played by the rules until a player's 6th worker in the city ends it (or,
    not ``finished``, stopped at a random turn before that, nobody having ended it)."""
    players = NAMES[: draw(st.integers(2, len(NAMES)))]
    table = set_up(draw, players)
    first = draw(st.integers(0, len(players) - 1))
    stop = None if finished else draw(st.integers(0, TURNS_PER_PLAYER * len(players)))
    turn = 0
    while table.ended_by is None and turn != stop:
        player = players[(first + turn) % len(players)]
        play_turn(draw, table, player, must_build=turn >= TURNS_PER_PLAYER * len(players))
        turn += 1
    if not finished:
        table.ended_by = None  # stopped at the end of the turn that ended it, at the latest
    return table.state()
