"""Owl About: a trick-taking game in which the owl with the fewest victory points wins.

Each round deals the whole hand out and plays it trick by trick. Winning a trick earns
trophies (one for the trick, two more for each night card in it); at the end of the
round the player(s) with the most trophies gain that many VP and everyone else gains
the gap to them. Nobody wants to become the owls' tribal leader, so the game ends after
the first round in which someone reaches the target, and the fewest VP wins.

The state is the list of rounds, each entered trick by trick (``tricks``) or summarised
as trophy counts (``trophies``), with optional wrong-card penalties. Shapes follow the
"Owl About" section of the API contract.

Playing along: a round marked ``"open": true`` is being played trick by trick at the
table, so its last trick may still be short of cards (even have none yet: it then only
names its lead). Only complete tricks count for trophies. Such a round may also carry
``"hands"``: the cards each player held after the draft, from which the referee tells
which plays broke the follow or night rule. :func:`round_view` is the play-along
picture of a round: every trick with its FP and winner, whose turn it is, and which
cards are used up.

>>> result = GAME.score({
...     "players": ["Miu", "Carol", "Romi", "Tom"],
...     "rounds": [{"trophies": {"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0}}],
... })
>>> [(s.player, s.score, s.rank) for s in result.standings]
[('Carol', 1, 1), ('Tom', 1, 1), ('Miu', 4, 3), ('Romi', 4, 3)]
>>> result.decided_by, result.finished
('shared', False)

How one round's VP are worked out, in this order (documented once, here):

1. Trophy VP: the most trophies anyone has (``most``); a player with ``most`` gains
   ``most``, everyone else gains ``most - own``.
2. ``night-collection-3`` with 3 or more night cards collected: the trophy VP of step 1
   become 0 for that player. Only the end-of-round scoring is voided: the bonuses of
   step 3 were gained on the spot during the round, so they stay.
3. Gains made during the round are added: 1 VP per ``same-speed`` trick won and the
   round's wrong-card ``penalties``.
4. ``night-collection-4`` with all 4 night cards collected: after the round, the player's
   total is set back to 0, whatever the round added. The breakdown then shows the
   round's gain as usual plus a line ``"Round N: night collection reset"`` whose
   negative points bring the total to 0, so that the lines still add up to the score.

The rulebook lists Night Collection 3 and 4 as two options; ``night-collection`` (the
first version's name) switches on both. With both, 4 night cards reset the total (step
4 makes step 2 moot); with Night Collection 3 alone, 4 night cards void the round too
(collecting all 4 is collecting 3).

Steps 2 and 4 as ordered here, the 1 and 2 fighting as 11 and 12, and quick mode's trick
when the next highest FP is shared too are the app's readings: a result carries those it
applied in ``readings`` (:mod:`companion.games.owl_about.readings`).

Every gain is at least 0 (penalties cannot be negative), so a total never drops below 0.
Rounds entered as trophy counts carry no night-card or trick information, so the
variants cannot be applied to them (a warning says so). Their trophies must add up to
what a whole round hands out (:func:`trophy_total_problem`); when they cannot, the round
is still scored as given, with a warning.
"""

from __future__ import annotations

from companion.games.owl_about.cards import (
    BIG_OWLS,
    CARDS,
    DAY_CARDS,
    DECK,
    DECK_SIZE,
    LEAD,
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_PLAYERS,
    MIN_TARGET,
    NIGHT_COLLECTION_RESET,
    NIGHT_COLLECTION_VOID,
    NIGHT_FP_BONUS,
    NIGHT_PREFIX,
    NIGHT_SPEEDS,
    PLAYER_CHART,
    SAME_SPEED_VP,
    SLUG,
    SMALL_OWL_FP_BONUS,
    SMALL_OWLS,
    TROPHIES_PER_NIGHT_CARD,
    TROPHIES_PER_TRICK,
    VARIANT_RULES,
    Card,
    ChartRow,
    Mode,
    NightCollection,
    PlayedTrick,
    RuleBreak,
    TrickOutcome,
    TrickProgress,
    Variant,
    card,
    default_target,
    fighting_power,
    judge_trick,
    legal_cards,
    player_chart,
    rule_breaks,
    rules_of,
    same_speed,
    seating_from,
    trick_outcome,
    trick_progress,
    trick_trophies,
)
from companion.games.owl_about.edits import (
    new_round,
)
from companion.games.owl_about.game import (
    GAME,
    OwlAbout,
)
from companion.games.owl_about.play_along import (
    Board,
    CardPlay,
    RoundView,
    TrickView,
    board,
    parse_hand,
    round_view,
)
from companion.games.owl_about.referee import (
    check_trick,
)
from companion.games.owl_about.requests import (
    MAX_HAND_CARDS,
    MAX_ROUNDS,
    STATE_SIZE,
    TRICK_REQUEST_SIZE,
    RoundModel,
    StateModel,
    TrickModel,
    TrickRequestModel,
)
from companion.games.owl_about.scoring import (
    WRONG_CARD_REMINDER,
    RoundScore,
    game_end,
    play_trick,
    score_game,
    score_round,
    score_rounds,
    trophy_total_problem,
    trophy_vp,
)
from companion.games.owl_about.state import (
    GameInput,
    Roster,
    RoundInput,
    TrickInput,
    forget_checked_rounds,
    open_round,
    parse,
)

__all__ = [
    "BIG_OWLS",
    "CARDS",
    "DAY_CARDS",
    "DECK",
    "DECK_SIZE",
    "GAME",
    "LEAD",
    "MAX_HAND_CARDS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_TARGET",
    "MIN_PLAYERS",
    "MIN_TARGET",
    "NIGHT_COLLECTION_RESET",
    "NIGHT_COLLECTION_VOID",
    "NIGHT_FP_BONUS",
    "NIGHT_PREFIX",
    "NIGHT_SPEEDS",
    "PLAYER_CHART",
    "SAME_SPEED_VP",
    "SLUG",
    "SMALL_OWLS",
    "SMALL_OWL_FP_BONUS",
    "STATE_SIZE",
    "TRICK_REQUEST_SIZE",
    "TROPHIES_PER_NIGHT_CARD",
    "TROPHIES_PER_TRICK",
    "VARIANT_RULES",
    "WRONG_CARD_REMINDER",
    "Board",
    "Card",
    "CardPlay",
    "ChartRow",
    "GameInput",
    "Mode",
    "NightCollection",
    "OwlAbout",
    "PlayedTrick",
    "Roster",
    "RoundInput",
    "RoundModel",
    "RoundScore",
    "RoundView",
    "RuleBreak",
    "StateModel",
    "TrickInput",
    "TrickModel",
    "TrickOutcome",
    "TrickProgress",
    "TrickRequestModel",
    "TrickView",
    "Variant",
    "board",
    "card",
    "check_trick",
    "default_target",
    "fighting_power",
    "forget_checked_rounds",
    "game_end",
    "judge_trick",
    "legal_cards",
    "new_round",
    "open_round",
    "parse",
    "parse_hand",
    "play_trick",
    "player_chart",
    "round_view",
    "rule_breaks",
    "rules_of",
    "same_speed",
    "score_game",
    "score_round",
    "score_rounds",
    "seating_from",
    "trick_outcome",
    "trick_progress",
    "trick_trophies",
    "trophy_total_problem",
    "trophy_vp",
]
