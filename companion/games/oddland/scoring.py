"""Oddland scoring: each token by its species card side, solo modifiers, the tiebreak."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.games.oddland.facts import _by_species
from companion.games.oddland.map import (
    BEGATOR_A_SOLO_MODIFIER,
    BEGATOR_POINTS_PER_SPACE,
    FLORA_A_SOLO_MODIFIER,
    LINE_STEPS,
    SLUG,
    TERRITORY_TIEBREAK,
    MapAnalysis,
    describe_cells,
    rule_count,
    rule_territories,
)
from companion.games.oddland.readings import (
    BEGATOR_READING,
    FLORA_SOLO_READING,
    LINES_READING,
    PLACES_READING,
    SHARED_READING,
    SOLO_READING,
    TWO_TOKENS_READING,
    WHALEPHANT_READING,
)
from companion.games.oddland.species import (
    BEGATOR,
    FLORA,
    TWO_SPACE_SPECIES,
    Region,
    Side,
    SideRule,
    TwoSpace,
    count_phrase,
    species_name,
    tokens_per_player,
)
from companion.games.oddland.table import Table
from companion.games.ranking import BreakdownLine, Decision, Entry, Ranking, Result, rank
from companion.games.readings import Reading, unique_readings
from companion.games.text import _, ngettext


@dataclass(frozen=True)
class TokenScore:
    """A token's points and what was counted, for its breakdown line."""

    points: int
    detail: str


Scorer = Callable[[MapAnalysis, int], TokenScore]


@dataclass(frozen=True)
class SideScoring:
    """How one species card side scores a token, and its solo modifier."""

    scorer: Scorer
    solo_modifier: int


def begator_a(analysis: MapAnalysis, index: int) -> TokenScore:
    """Begator A: 2 points per space in the territories neighbouring its territory.

    >>> from companion.games.oddland import Token, analyse_map
    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "begator", ((1, 1),))])
    >>> begator_a(a, 0)
    TokenScore(points=16, detail='8 spaces in neighbouring territories, 2 points each')
    """
    own = analysis.territories_of(index)
    spaces = sum(analysis.territories[t].size for t in analysis.neighbors_of(own))
    return TokenScore(
        BEGATOR_POINTS_PER_SPACE * spaces,
        ngettext(
            "%(num)s space in neighbouring territories, %(points)s points each",
            "%(num)s spaces in neighbouring territories, %(points)s points each",
            spaces,
            points=BEGATOR_POINTS_PER_SPACE,
        ),
    )


def flora_a(_analysis: MapAnalysis, _index: int) -> TokenScore:
    """Flora A has no scoring effect."""
    return TokenScore(0, _("no scoring effect"))


#: Sides the app scores without a definition.
BUILT_IN: dict[tuple[str, Side], SideScoring] = {
    (BEGATOR, Side.A): SideScoring(begator_a, BEGATOR_A_SOLO_MODIFIER),
    (FLORA, Side.A): SideScoring(flora_a, FLORA_A_SOLO_MODIFIER),
}


#: The built-in sides in the rule vocabulary: how the pages describe them in words (the
#: scorers above compute them; a test checks that both agree).
BUILT_IN_RULES: dict[tuple[str, Side], SideRule] = {
    (BEGATOR, Side.A): SideRule(
        points=BEGATOR_POINTS_PER_SPACE,
        region=Region.NEIGHBORS,
        solo_modifier=BEGATOR_A_SOLO_MODIFIER,
    ),
    (FLORA, Side.A): SideRule(points=0, solo_modifier=FLORA_A_SOLO_MODIFIER),
}


def computed_points(table: Table) -> tuple[dict[tuple[str, str], int | None], Counter[str]]:
    """What the app computes per (player, species), solo modifier included (``None``: it
    cannot score that species), and how many tokens of each species lie on the map.

    >>> from companion.games.oddland import parse
    >>> t = parse({"players": ["Ann"], "map": ["FFWW", "FSSW"], "sides": {"begator": "A"},
    ...            "tokens": [{"player": "Ann", "species": "begator", "cells": [[1, 1]]}]})
    >>> computed_points(t)  # 6 neighbouring spaces, 2 points each, solo modifier -3
    ({('Ann', 'begator'): 9}, Counter({'begator': 1}))
    """
    placed: Counter[str] = Counter()
    computed: dict[tuple[str, str], int | None] = {}
    for index, token in enumerate(table.analysis.tokens):
        placed[token.species] += 1
        key = (token.player, token.species)
        _side, scoring, _why = side_scoring(table, token.species)
        if scoring is None:
            computed[key] = None
            continue
        if key not in computed and table.solo:
            computed[key] = scoring.solo_modifier
        computed[key] = (computed.get(key) or 0) + scoring.scorer(table.analysis, index).points
    return computed, placed


def rule_score(analysis: MapAnalysis, index: int, rule: SideRule) -> TokenScore:
    """Score a token by a declared side.

    >>> from companion.games.oddland import Token, analyse_map
    >>> from companion.games.oddland.species import Region, Terrain
    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "owloose", ((0, 0),))])
    >>> rule_score(a, 0, SideRule(points=3, region=Region.ROW, terrain=Terrain.WATER))
    TokenScore(points=6, detail='2 water spaces in its row, 3 points each')
    """
    count = rule_count(analysis, index, rule)
    if rule.points == 0:
        return TokenScore(0, _("no points"))
    detail = count_phrase(rule, count)
    if rule.points != 1:
        # TRANSLATORS: what an Oddland token counted ("2 water spaces in its row"), and
        # the points each is worth (any whole number but 1, -1 included).
        detail = _("%(counted)s, %(points)s points each", counted=detail, points=rule.points)
    return TokenScore(rule.points * count, detail)


def _rule_scoring(rule: SideRule) -> SideScoring:
    return SideScoring(
        lambda analysis, index: rule_score(analysis, index, rule), rule.solo_modifier
    )


def side_scoring(table: Table, species: str) -> tuple[Side | None, SideScoring | None, str]:
    """The side in play for a species, how it scores, and why not when it cannot."""
    name = species_name(species)
    side = table.sides.get(species)
    if side is None:
        return None, None, _("no side was chosen for %(species)s", species=name)
    rule = table.definitions.get((species, side))
    if rule is not None:
        return side, _rule_scoring(rule), ""
    built_in = BUILT_IN.get((species, side))
    if built_in is not None:
        return side, built_in, ""
    return (
        side,
        None,
        _(
            "the app does not know how %(species)s %(side)s scores",
            species=name,
            side=side.value,
        ),
    )


#: The rules entries of the breakdown lines: a built-in side, a side the table defined, a
#: side the app cannot score, points typed on the scoreboard, a solo modifier.
SPECIES_RULES = {BEGATOR: f"{SLUG}/species/begator", FLORA: f"{SLUG}/species/flora"}
DEFINED_RULE = f"{SLUG}/species/defined"
UNKNOWN_RULE = f"{SLUG}/species/unknown"
SCOREBOARD_RULE = f"{SLUG}/scoreboard"
SOLO_RULE = f"{SLUG}/solo"


def _line_rule(table: Table, species: str, side: Side | None) -> str:
    """The entry that explains how a species' tokens scored."""
    if side is not None and (species, side) in table.definitions:
        return DEFINED_RULE
    if side is not None and (species, side) in BUILT_IN:
        return SPECIES_RULES.get(species, UNKNOWN_RULE)
    return UNKNOWN_RULE


@dataclass(frozen=True)
class PlayerScore:
    """A player's breakdown lines and the warnings their tokens raised."""

    lines: tuple[BreakdownLine, ...]
    warnings: tuple[str, ...]


def score_player(table: Table, player: str) -> PlayerScore:
    """Breakdown lines for one player, species by species, tokens in reading order."""
    mine = [i for i, token in enumerate(table.analysis.tokens) if token.player == player]
    by_species: dict[str, list[int]] = {}
    for index in sorted(mine, key=lambda i: table.analysis.tokens[i].cells):
        by_species.setdefault(table.analysis.tokens[index].species, []).append(index)
    entered = {species for who, species in table.points if who == player}
    lines: list[BreakdownLine] = []
    warnings: list[str] = []
    for species in sorted(set(by_species) | entered, key=_by_species):
        manual = table.points.get((player, species))
        if manual is not None:
            lines.append(
                BreakdownLine(
                    _("%(species)s: entered on the scoreboard", species=species_name(species)),
                    manual,
                    rule=SCOREBOARD_RULE,
                )
            )
            continue
        more, warned = _species_lines(table, player, species, by_species[species])
        lines += more
        warnings += warned
    return PlayerScore(tuple(lines), tuple(warnings))


def _species_lines(
    table: Table, player: str, species: str, indexes: Sequence[int]
) -> tuple[list[BreakdownLine], list[str]]:
    side, scoring, reason = side_scoring(table, species)
    name = species_name(species)
    # TRANSLATORS: an Oddland species and the side of its card in play: "Begator (A)".
    title = name if side is None else _("%(species)s (%(side)s)", species=name, side=side.value)
    lines, warnings = [], []
    rule = _line_rule(table, species, side)
    for index in indexes:
        where = describe_cells(table.analysis.tokens[index].cells)
        if scoring is None:
            label = _("%(species)s at %(place)s: not scored", species=title, place=where)
            lines.append(BreakdownLine(label, 0, rule=UNKNOWN_RULE))
            warnings.append(
                # TRANSLATORS: the reason says why the app cannot score the species.
                _(
                    "%(player)s's %(species)s at %(place)s scored 0: %(reason)s; enter"
                    " %(player)s's %(species)s points instead.",
                    player=player,
                    species=name,
                    place=where,
                    reason=reason,
                )
            )
            continue
        scored = scoring.scorer(table.analysis, index)
        # TRANSLATORS: an Oddland token's breakdown line: "Begator (A) at row 1, col 2: 9
        # spaces in neighbouring territories, 2 points each".
        label = _(
            "%(species)s at %(place)s: %(detail)s",
            species=title,
            place=where,
            detail=scored.detail,
        )
        lines.append(BreakdownLine(label, scored.points, rule=rule))
    if table.solo and scoring is not None and scoring.solo_modifier:
        label = _("%(species)s: solo modifier", species=title)
        lines.append(BreakdownLine(label, scoring.solo_modifier, rule=SOLO_RULE))
    return lines, warnings


def tiebreak_sizes(
    analysis: MapAnalysis, player: str, *, once_per_territory: bool = False
) -> tuple[int, ...]:
    """Sizes of the territories holding a player's tokens, largest first: one per token
    (the app's reading), or each territory once.

    >>> from companion.games.oddland import Token, analyse_map
    >>> tokens = [Token("A", "flora", ((0, 0),)), Token("A", "begator", ((0, 2),))]
    >>> a = analyse_map(["FFW"], tokens)
    >>> tiebreak_sizes(a, "A")
    (2, 1)
    >>> joined = analyse_map(["FFF"], [Token("A", "flora", ((0, 0),)), *tokens[1:]])
    >>> tiebreak_sizes(joined, "A"), tiebreak_sizes(joined, "A", once_per_territory=True)
    ((3, 3), (3,))
    """
    held = [
        rule_territories(analysis, index, TwoSpace.LARGEST)[0]
        for index, token in enumerate(analysis.tokens)
        if token.player == player
    ]
    if once_per_territory:
        held = list(dict.fromkeys(held))
    return tuple(sorted((analysis.territories[t].size for t in held), reverse=True))


def _ranking(
    table: Table, scores: Sequence[PlayerScore], sizes: Sequence[tuple[int, ...]]
) -> Ranking:
    """The standings by score, then by the territory sizes given for each player."""
    # Equal lengths make "no token at all" compare as the smallest territory.
    width = max((len(s) for s in sizes), default=0)
    entries = [
        Entry(
            player=player,
            score=sum(line.points for line in score.lines),
            tiebreak=(own + (0,) * (width - len(own)),),
            breakdown=score.lines,
        )
        for player, score, own in zip(table.players, scores, sizes, strict=True)
    ]
    return rank(entries, tiebreaks=(TERRITORY_TIEBREAK,))


def score_table(table: Table) -> Result:
    """Score a parsed table: standings, tiebreak by territory sizes, warnings."""
    scores = [score_player(table, player) for player in table.players]
    sizes = [tiebreak_sizes(table.analysis, player) for player in table.players]
    ranking = _ranking(table, scores, sizes)
    needed = tokens_per_player(len(table.players))
    placed = Counter(token.player for token in table.analysis.tokens)
    finished = all(placed[player] == needed for player in table.players)
    warnings = [w for score in scores for w in score.warnings]
    if table.analysis.tokens and not finished:
        warnings.append(
            _(
                "Not every player has placed all %(count)s tokens yet: the game goes on.",
                count=needed,
            )
        )
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        finished,
        tuple(warnings),
        readings=_readings(table, ranking, two_tokens=_two_tokens_decide(table, scores, ranking)),
    )


def _two_tokens_decide(table: Table, scores: Sequence[PlayerScore], ranking: Ranking) -> bool:
    """Whether counting a joined territory once per token (the app's reading) decided a
    place: counting each territory once would order the players otherwise."""
    once = [
        tiebreak_sizes(table.analysis, player, once_per_territory=True) for player in table.players
    ]
    if all(
        len(own) == sum(1 for t in table.analysis.tokens if t.player == player)
        for player, own in zip(table.players, once, strict=True)
    ):
        return False  # no player holds one territory with two tokens
    other = _ranking(table, scores, once)
    return _places(other) != _places(ranking) or other.decided_by != ranking.decided_by


def _places(ranking: Ranking) -> list[tuple[str, int]]:
    return [(standing.player, standing.rank) for standing in ranking.standings]


def _built_in_side(table: Table, species: str) -> Side | None:
    """The side of a species the app scores by its own built-in rule, if it does."""
    side = table.sides.get(species)
    if side is None or (species, side) in table.definitions or (species, side) not in BUILT_IN:
        return None
    return side


def _lines_decide(table: Table, index: int) -> bool:
    """Whether a token's lines running on past a gap between cards (the app's reading)
    changed what its defined side counted."""
    token = table.analysis.tokens[index]
    side = table.sides.get(token.species)
    rule = table.definitions.get((token.species, side)) if side is not None else None
    if rule is None or rule.region not in LINE_STEPS:
        return False
    counted = rule_count(table.analysis, index, rule)
    return counted != rule_count(table.analysis, index, rule, unbroken=True)


def _readings(table: Table, ranking: Ranking, *, two_tokens: bool) -> tuple[Reading, ...]:
    """The app's readings this verdict rests on (the API's ``readings``), if any: only
    tokens whose points the app computed (none typed on the scoreboard) count."""
    tokens = table.analysis.tokens
    computed = [i for i, t in enumerate(tokens) if (t.player, t.species) not in table.points]
    built_in = {tokens[i].species for i in computed if _built_in_side(table, tokens[i].species)}
    readings = [*table.readings]
    if ranking.decided_by == Decision.SHARED and len(table.players) > 1:
        readings.append(SHARED_READING)
    if two_tokens:
        readings.append(TWO_TOKENS_READING)
    if any(token.species in TWO_SPACE_SPECIES for token in tokens):
        readings.append(WHALEPHANT_READING)
    if BEGATOR in built_in:
        readings.append(BEGATOR_READING)
    if any(_lines_decide(table, index) for index in computed):
        readings.append(LINES_READING)
    if table.solo:
        readings.append(SOLO_READING)
        if FLORA in built_in:
            readings.append(FLORA_SOLO_READING)
    if ranking.places_by_tiebreak:
        readings.append(PLACES_READING)
    return unique_readings(readings)
