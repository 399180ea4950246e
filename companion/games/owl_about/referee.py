"""The Owl About one-trick referee check (the trick endpoint)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.limits import validate_model
from companion.games.owl_about.cards import (
    DECK,
    Mode,
    _fastest,
    _rule_break_message,
    card,
    legal_cards,
    rule_breaks,
    seating_from,
    trick_progress,
)
from companion.games.owl_about.readings import trick_readings
from companion.games.owl_about.requests import TRICK_REQUEST_SIZE, TrickRequestModel
from companion.games.owl_about.state import (
    Roster,
    _cards_problems,
    _copies_problems,
    _each_hand,
    _hand_size_problems,
    _mode_problem,
    _roster_problems,
    _unknown_player,
)
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.readings import readings_json
from companion.games.text import _


def _hands_problems(
    request: TrickRequestModel, *, roster: Roster, seats: Sequence[str] | None
) -> list[Problem]:
    hands = request.hands or {}
    problems: list[Problem] = []
    played_by: dict[str, str] = {}
    if seats is not None:
        played_by = dict(zip(seats, request.cards, strict=False))
    for where, player, hand in _each_hand(hands, roster=roster, location=(), into=problems):
        problems += _hand_size_problems(hand, where, roster=roster)
        played = played_by.get(player)
        if played in DECK and played not in hand:
            problems.append(
                Problem(
                    path_of(where),
                    _(
                        "The hand must include the %(card)s that %(player)s played: enter each"
                        " hand as it was before the trick.",
                        card=card(played).label,
                        player=player,
                    ),
                )
            )
    return problems


def _trick_request_problems(request: TrickRequestModel) -> list[Problem]:
    roster = Roster.of(request.players)
    problems = _roster_problems(request.players) + _mode_problem(request.mode)
    lead = roster.find(request.lead)
    if lead is None:
        problems.append(Problem("lead", _unknown_player(request.lead)))
    if not request.cards:
        problems.append(Problem("cards", _("Enter at least the card the lead played.")))
    elif len(request.cards) > len(request.players):
        problems.append(
            Problem(
                "cards",
                _(
                    "Each of the %(players)s players plays one card, but %(cards)s cards were"
                    " entered.",
                    players=len(request.players),
                    cards=len(request.cards),
                ),
            )
        )
    problems += _cards_problems(request.cards, ["cards"])
    problems += _copies_problems(
        ((("cards", i), code) for i, code in enumerate(request.cards)), "trick"
    )
    seats = seating_from(roster.names, lead) if lead is not None else None
    problems += _hands_problems(request, roster=roster, seats=seats)
    if not problems:
        problems += _all_hands_copies_problems(request, roster=roster, seats=seats)
    return problems


def _all_hands_copies_problems(
    request: TrickRequestModel, *, roster: Roster, seats: Sequence[str] | None
) -> list[Problem]:
    """Hands and cards together cannot hold more copies of a card than the deck."""
    hands = {roster.find(name): hand for name, hand in (request.hands or {}).items()}
    places: list[tuple[tuple[str | int, ...], str]] = [
        (("hands", name, i), code)
        for name, hand in (request.hands or {}).items()
        for i, code in enumerate(hand)
    ]
    # A played card of a player whose hand is given is already in that hand.
    places += [
        (("cards", i), code)
        for i, (seat, code) in enumerate(zip(seats or (), request.cards, strict=False))
        if seat not in hands
    ]
    return _copies_problems(places, "hands and trick")


def check_trick(data: object, *, with_rules: bool = False) -> dict[str, Any]:
    """The ``owl-about/trick`` referee check: winner, FP and trophies, and broken rules.

    ``cards`` may hold fewer cards than there are players (a trick being played); the
    answer then names the player winning so far, ``"complete": false`` and the
    ``"next"`` player. When ``hands`` are given (each hand as held before the trick,
    the played card included), ``problems`` lists the follow and night rules broken,
    and ``"playable"`` the cards the next player may play (else ``null``). The pages ask
    ``with_rules`` to get each problem's rules entry too (``"rule"``, never in the API).
    ``"readings"`` lists the app's readings the FP and the winner rest on, when there
    are some (a 1 or 2 next to a 9 or 10, a Night 7, a quick-mode tie).

    >>> answer = check_trick({
    ...     "mode": "basic", "lead": "Miu", "players": ["Miu", "Carol", "Romi", "Tom"],
    ...     "cards": ["6", "2", "8", "10"], "hands": {"Carol": ["2", "5"]},
    ... })
    >>> answer["winner"], answer["fp"], answer["trophies"], answer["problems"]
    ('Carol', [6, 12, 8, 10], 1, [])
    >>> [reading["id"] for reading in answer["readings"]]
    ['owl-about/small-owls']
    """
    request = validate_model(TrickRequestModel, data, TRICK_REQUEST_SIZE)
    problems = _trick_request_problems(request)
    if problems:
        raise InvalidStateError(problems)
    roster = Roster.of(request.players)
    lead = roster.find(request.lead)
    assert lead is not None  # checked above
    progress = trick_progress(
        mode=request.mode, players=roster.names, lead=lead, cards=request.cards
    )
    hands = {roster.find(name): hand for name, hand in (request.hands or {}).items()}
    broken = []
    for index, (seat, code) in enumerate(zip(progress.seats, progress.cards, strict=False)):
        hand = hands.get(seat)
        if hand is None:
            continue
        before = progress.cards[:index]
        for rule in rule_breaks(code, hand=hand, played_before=before, mode=request.mode):
            message = _rule_break_message(rule, player=seat, code=code, fastest=_fastest(before))
            problem = Problem(f"cards[{index}]", message, rule=rule.rule)
            broken.append(
                {**problem.to_json(), "rule": rule.rule} if with_rules else problem.to_json()
            )
    next_hand = hands.get(progress.next_player) if progress.next_player else None
    readings = trick_readings(Mode(request.mode), progress.cards, progress.fp)
    return {
        "winner": progress.winner,
        "fp": list(progress.fp),
        "trophies": progress.trophies,
        "problems": broken,
        "complete": progress.complete,
        "next": progress.next_player,
        "playable": (
            None
            if next_hand is None
            else legal_cards(next_hand, progress.cards, mode=request.mode)
        ),
        **({"readings": readings_json(readings)} if readings else {}),
    }
