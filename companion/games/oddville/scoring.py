"""OddVille scoring: each card's points in the city, characters, Resources Board workers,
and the clockwise tiebreak.

The Main Square is a card like any other for adjacency, rows and columns (the app's
reading, carried by a result whose counts include it); a card's own row and column
include itself, and a guild card is one card of its guild.

>>> from companion.games.oddville.state import parse
>>> city = parse({"players": ["Ann", "Ben"], "city": [
...     {"at": [0, 0], "card": "main-square", "owners": ["Ben"]},
...     {"at": [0, 1], "owner": "Ann", "points": {"kind": "row"}},
...     {"at": [1, 1], "owner": "Ann", "points": {"kind": "adjacent"}}]})
>>> [(c.at, c.points, c.words) for c in card_scores(city)]
... # doctest: +NORMALIZE_WHITESPACE
[((0, 0), 4, 'Main Square = 4 to each owner'), ((0, 1), 4, '2 + 2 in its row = 4'),
 ((1, 1), 2, '1 + 1 adjacent = 2')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.grid import Cell
from companion.games.oddville.facts import (
    CHARACTERS,
    CLOCKWISE_READING,
    KINDS,
    MAIN_SQUARE_COUNTS_READING,
    MAIN_SQUARE_POINTS,
    MAIN_SQUARE_RULE,
    RESOURCES_BOARD_RULE,
    SEVENTH_WORKER_READING,
    SLUG,
    TIEBREAK_RULE,
    TRAVELLER,
    WORKERS_TO_END,
    Kind,
    guild_name,
)
from companion.games.oddville.state import Card, City
from companion.games.ranking import (
    Better,
    BreakdownLine,
    Entry,
    Result,
    Tiebreak,
    TiebreakScalar,
    rank,
)
from companion.games.readings import Reading, places_reading, unique_readings
from companion.games.text import N_, _, ngettext

#: The tiebreak value of every player while nobody is entered as having ended the game.
NOBODY_ENDED = -1
#: The tiebreaker's label: English, as the API's ``decided_by`` names it; translated where
#: shown.
TIEBREAK_LABEL = N_("Seats clockwise from who ended the game")


def distance_words(value: TiebreakScalar) -> str:
    """A clockwise seat distance in words.

    >>> distance_words(0), distance_words(1), distance_words(2), distance_words(-1)
    ('ended the game', 'next clockwise', '2 seats clockwise', 'not known who ended the game')
    """
    if not isinstance(value, int) or value < 0:
        # TRANSLATORS: a player's place in OddVille's clockwise tiebreak.
        return _("not known who ended the game")
    if value == 0:
        # TRANSLATORS: a player's place in OddVille's clockwise tiebreak.
        return _("ended the game")
    if value == 1:
        # TRANSLATORS: a player's place in OddVille's clockwise tiebreak.
        return _("next clockwise")
    # TRANSLATORS: a player's place in OddVille's clockwise tiebreak (2 seats or more).
    return ngettext("%(num)s seat clockwise", "%(num)s seats clockwise", value)


#: Among tied players, the one who ended the game wins, else the first of them clockwise
#: after that player: the fewest seats clockwise from the ender is better.
TIEBREAK = Tiebreak(TIEBREAK_LABEL, Better.LOWER, words=distance_words, rule=TIEBREAK_RULE)


def seat_distance(players: Sequence[str], player: str, ended_by: str | None) -> int:
    """Seats clockwise from the player who ended the game to ``player`` (0: the ender).

    >>> [seat_distance(["A", "B", "C"], p, "B") for p in "ABC"]
    [2, 0, 1]
    """
    if ended_by is None:
        return NOBODY_ENDED
    return (players.index(player) - players.index(ended_by)) % len(players)


@dataclass(frozen=True)
class CardScore:
    """One card's points in the city and how they come about ("3 + 2 diamonds = 5")."""

    at: Cell
    points: int
    words: str
    rule: str
    card: Card
    #: Whether its adjacency, row or column count includes the Main Square (the app's
    #: reading).
    square_counted: bool = False

    def to_json(self, city: City) -> dict[str, object]:
        """The API shape: position, owners, points, words."""
        return {
            "at": list(self.at),
            "owners": list(self.card.workers),
            "points": self.points,
            "words": self.words,
            "place": city.place(self.at),
        }


@dataclass(frozen=True)
class _Counts:
    """What the city holds, counted once for every card."""

    rows: Counter[int]
    columns: Counter[int]
    diamonds: int
    guilds: Counter[str]
    #: Where the Main Square lies.
    square: Cell


def _counts(city: City) -> _Counts:
    cards = city.cards.values()
    return _Counts(
        square=city.main_square.at,
        rows=Counter(card.at[0] for card in cards),
        columns=Counter(card.at[1] for card in cards),
        diamonds=sum(1 for card in cards if card.kind is Kind.DIAMOND),
        guilds=Counter(card.guild for card in cards if card.guild is not None),
    )


def card_scores(city: City) -> list[CardScore]:
    """Every card's points, in the order of the city."""
    counts = _counts(city)
    return [_card_score(city.cards, card, counts) for card in city.cards.values()]


def _card_score(cards: Mapping[Cell, Card], card: Card, counts: _Counts) -> CardScore:
    if card.main_square or card.kind is None:
        # TRANSLATORS: how the Main Square scores ("=" and the sum stay as they are).
        words = _("Main Square = %(points)s to each owner", points=MAIN_SQUARE_POINTS)
        return CardScore(card.at, MAIN_SQUARE_POINTS, words, MAIN_SQUARE_RULE, card)
    r, c = card.at
    found = (
        cards.get((r - 1, c)),
        cards.get((r, c - 1)),
        cards.get((r, c + 1)),
        cards.get((r + 1, c)),
    )
    around = [other for other in found if other is not None]
    points, words = _points(card, card.kind, around, counts)
    counted = _counts_the_square(card.kind, card.at, around, counts.square)
    return CardScore(card.at, points, words, KINDS[card.kind].rule, card, counted)


def _counts_the_square(kind: Kind, at: Cell, around: Sequence[Card], square: Cell) -> bool:
    """Whether a card's count includes the Main Square (as a neighbour, or in its row or
    column).

    >>> _counts_the_square(Kind.ROW, (0, 3), [], (0, 0)), _counts_the_square(
    ...     Kind.COLUMN, (2, 1), [], (0, 0))
    (True, False)
    """
    match kind:
        case Kind.ADJACENT | Kind.ADJACENT_X3:
            return any(other.main_square for other in around)
        case Kind.ROW:
            return at[0] == square[0]
        case Kind.COLUMN:
            return at[1] == square[1]
    return False


def _points(card: Card, kind: Kind, around: Sequence[Card], counts: _Counts) -> tuple[int, str]:
    """The points of a building and their words, by its victory-point type."""
    adjacent = len(around)
    # The sums of the cards' points in words: "=" and the numbers stay as they are.
    match kind:
        case Kind.DIAMOND:
            value = card.value or 0
            return value, _("Diamond = %(total)s", total=value)
        case Kind.DIAMONDS:
            n = counts.diamonds
            words = ngettext(
                "3 + %(num)s diamond = %(total)s",
                "3 + %(num)s diamonds = %(total)s",
                n,
                total=3 + n,
            )
            return 3 + n, words
        case Kind.ADJACENT:
            total = 1 + adjacent
            return total, _("1 + %(count)s adjacent = %(total)s", count=adjacent, total=total)
        case Kind.COLUMN:
            n = counts.columns[card.at[1]]
            return 1 + n, _("1 + %(count)s in its column = %(total)s", count=n, total=1 + n)
        case Kind.ROW:
            n = counts.rows[card.at[0]]
            return 2 + n, _("2 + %(count)s in its row = %(total)s", count=n, total=2 + n)
        case Kind.ADJACENT_X3:
            total = 3 * adjacent
            words = _(
                "3 × %(count)s adjacent = %(total)s",  # noqa: RUF001 - the sign is meant
                count=adjacent,
                total=total,
            )
            return total, words
        case Kind.SHIELDS:
            shields = [c.shield for c in around if c.shield]
            total = sum(shields)
            if not shields:
                return 0, _("no shields adjacent = 0")
            added = " + ".join(map(str, shields))
            return total, _("shields %(shields)s = %(total)s", shields=added, total=total)
        case Kind.GUILD:
            guild = card.counts or ""
            n = counts.guilds[guild]
            value = card.value or 0
            # TRANSLATORS: a guild card's points: "2 + 3 Mask cards = 5".
            words = ngettext(
                "%(value)s + %(num)s %(guild)s card = %(total)s",
                "%(value)s + %(num)s %(guild)s cards = %(total)s",
                n,
                value=value,
                guild=guild_name(guild),
                total=value + n,
            )
            return value + n, words
    return 0, "0"  # pragma: no cover - every kind is matched above


def _kind_name(card: Card) -> str:
    if card.main_square or card.kind is None:
        return _("Main Square")
    return _(KINDS[card.kind].name)


def player_lines(city: City, player: str, owned: Sequence[CardScore]) -> list[BreakdownLine]:
    """A player's breakdown: the cards they own (``owned``, in reading order, so the order
    the city was listed in changes nothing), characters, then Resources Board workers."""
    lines = [
        BreakdownLine(
            # TRANSLATORS: an OddVille card's breakdown line: "Its row at row 1, col 2: 2 + 2
            # in its row = 4".
            _(
                "%(kind)s at %(place)s: %(words)s",
                kind=_kind_name(s.card),
                place=city.place(s.at),
                words=s.words,
            ),
            s.points,
            rule=s.rule,
        )
        for s in owned
    ]
    on_square = player in city.main_square.owners
    for key in city.characters.get(player, ()):
        character = CHARACTERS[key]
        if key == TRAVELLER and on_square:
            label = _(
                "%(character)s (a worker on the Main Square): 0", character=_(character.name)
            )
            lines.append(BreakdownLine(label, 0, rule=character.rule))
        else:
            lines.append(BreakdownLine(_(character.name), character.points, rule=character.rule))
    workers = city.resource_workers.get(player, 0)
    if workers:
        label = ngettext(
            "Resources Board: %(num)s worker", "Resources Board: %(num)s workers", workers
        )
        lines.append(BreakdownLine(label, workers, rule=RESOURCES_BOARD_RULE))
    return lines


def score_city(city: City) -> Result:
    """Score a valid city: standings, winners, the tiebreak, and each card's points."""
    scores = card_scores(city)
    owned: dict[str, list[CardScore]] = {player: [] for player in city.players}
    for score in sorted(scores, key=lambda s: s.at):
        for worker in score.card.workers:
            owned[worker].append(score)
    entries = []
    for player in city.players:
        lines = player_lines(city, player, owned[player])
        entries.append(
            Entry(
                player=player,
                score=sum(line.points for line in lines),
                tiebreak=(seat_distance(city.players, player, city.ended_by),),
                breakdown=tuple(lines),
            )
        )
    ranking = rank(entries, tiebreaks=(TIEBREAK,))
    extra: dict[str, object] = {"cards": [s.to_json(city) for s in scores]}
    tied = tiebreak_sentence(city, [(e.player, e.score) for e in entries])
    if tied:
        extra["tiebreak_words"] = tied
    readings: list[Reading | None] = [
        MAIN_SQUARE_COUNTS_READING if any(s.square_counted for s in scores) else None,
        SEVENTH_WORKER_READING if seventh_worker(city) else None,
        CLOCKWISE_READING if clockwise_counted(city, entries) else None,
        PLACES_READING if ranking.places_by_tiebreak else None,
    ]
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        city.ended_by is not None,
        tuple(warnings(city)),
        extra=extra,
        readings=unique_readings(readings),
    )


def clockwise_counted(city: City, entries: Sequence[Entry]) -> bool:
    """Whether the clockwise count from who ended the game put two players tied on points
    in order (a tie with that player alone goes to them without counting).

    >>> city = City(("A", "B", "C"), "A", {})
    >>> entries = [Entry("A", 3), Entry("B", 5), Entry("C", 5)]
    >>> clockwise_counted(city, entries), clockwise_counted(city, entries[:2])
    (True, False)
    """
    if city.ended_by is None:
        return False
    others = Counter(e.score for e in entries if e.player != city.ended_by)
    return any(count > 1 for count in others.values())


def seventh_worker(city: City) -> bool:
    """Whether the player who ended the game (or, before it is entered, anyone) has 7
    workers in the city: 6 and one on the Main Square, which only they can have."""
    players = city.players if city.ended_by is None else (city.ended_by,)
    return any(city.workers_in_city(p) == WORKERS_TO_END + 1 for p in players)


#: The clockwise tiebreak puts the places below first in order too: the app's extension.
PLACES_READING = places_reading(SLUG)


def tiebreak_sentence(city: City, scores: Sequence[tuple[str, int]]) -> str | None:
    """The clockwise tiebreak in words when the best score is tied ("Red ended the game;
    Blue is next clockwise"), else ``None``.

    >>> city = City(("Blue", "Purple", "Red", "Yellow"), "Red", {})
    >>> tiebreak_sentence(city, [("Blue", 9), ("Purple", 9), ("Red", 2), ("Yellow", 9)])
    'Red ended the game; Yellow is next clockwise.'
    """
    best = max(score for _player, score in scores)
    tied = [player for player, score in scores if score == best]
    if len(tied) < 2:
        return None
    if city.ended_by is None:
        return _("Who ended the game is not entered yet, so the tied players share the lead.")
    if city.ended_by in tied:
        return _("%(player)s ended the game and wins the tie.", player=city.ended_by)
    first = min(tied, key=lambda p: seat_distance(city.players, p, city.ended_by))
    return _(
        "%(ender)s ended the game; %(player)s is next clockwise.",
        ender=city.ended_by,
        player=first,
    )


def warnings(city: City) -> list[str]:
    """Things worth showing that do not block scoring."""
    found = []
    if city.ended_by is None:
        found.append(
            _(
                "Who ended the game (placed the %(last)sth worker in the city) is not entered"
                " yet; until it is, tied players share.",
                last=WORKERS_TO_END,
            )
        )
    # A 7th worker in the city is said as a reading; fewer than 6 for who ended the
    # game, or 7 for anyone else, is an impossible table (see impossible.py).
    return found


def city_points(scores: Sequence[CardScore]) -> Mapping[Cell, CardScore]:
    """The scores by position (for drawing the city)."""
    return {s.at: s for s in scores}
