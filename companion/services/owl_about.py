"""Owl About at the table: playing along card by card, rounds, trophies and penalties.

Each operation is one edit of the play (so *Undo* takes back exactly one card, one
penalty, one round...), built on :func:`companion.services.plays.replace_value`. The
phone says what it based the action on (the cards of the trick it showed, the number
of rounds it showed); when another phone got there first the action is refused with
:class:`~companion.services.plays.EditConflict` and the fresh value, never applied
twice. Operations whose order does not matter (a penalty, one player's hand) are
re-applied to the fresh state instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games import owl_about as oa
from companion.games.problems import InvalidStateError, Problem
from companion.games.text import _, ngettext, sentences
from companion.models import Play
from companion.services import plays
from companion.services.plays import Author, EditConflict, EditRefused

PENALTY_VP = 1


def board(play: Play) -> oa.Board:
    """The play-along picture of the play's stored (always valid) state."""
    return oa.board(play.state)


def _refused(path: str, message: str) -> EditRefused:
    return EditRefused([Problem(path, message)])


def _last_round(play: Play, *, expected: int) -> tuple[int, dict[str, Any]]:
    """The index and stored value of the last round, which the phone must have shown."""
    rounds = play.state.get("rounds", [])
    if len(rounds) != expected:
        raise EditConflict(
            "rounds",
            len(rounds),
            _(
                "The table has moved on to round %(round)s meanwhile. Check it and try again.",
                round=len(rounds),
            ),
        )
    if not rounds:
        raise _refused("rounds", _("Start round 1 first."))
    return len(rounds) - 1, rounds[-1]


def play_card(
    play: Play, *, rounds_seen: int, trick: int, seen: Sequence[str], code: str, author: Author
) -> None:
    """The next player in trick ``trick`` (from 0) of the last round plays ``code``.

    ``seen`` are the cards of that trick the phone showed; when the trick has moved on
    since, nothing is stored and :class:`EditConflict` names the cards now down. After a
    complete trick the card opens the next one, led by the trick's taker.
    """
    if code not in oa.DECK:
        raise _refused(
            "card", _("There is no card %(card)s; pick 1 to 10 or Night 4 to 7.", card=repr(code))
        )
    index, round_ = _last_round(play, expected=rounds_seen)
    tricks = round_.get("tricks")
    if tricks is None or not round_.get("open"):
        raise _refused("card", _("This round is not being played card by card."))
    view = board(play).current
    current = view.current if view is not None else None
    if current is None:
        raise _refused("card", _("Every trick of this round has been played."))
    path = f"rounds[{index}].tricks"
    if trick == len(tricks) - 1 and current.number == len(tricks):
        cards = list(tricks[trick]["cards"])
        _same_cards(cards, seen, round_number=index + 1, trick=trick)
        plays.replace_value(
            play,
            path=f"{path}[{trick}].cards",
            value=[*cards, code],
            expected=cards,
            author=author,
        )
        return
    if trick == len(tricks) and not seen:
        new = {"lead": current.lead, "cards": [code]}
        plays.replace_value(play, path=path, value=[*tricks, new], expected=tricks, author=author)
        return
    now = list(tricks[trick]["cards"]) if trick < len(tricks) else []
    _same_cards(now, seen, round_number=index + 1, trick=trick)
    raise _refused("card", _("This trick is over; play in the current one."))


def _same_cards(now: list[str], seen: Sequence[str], *, round_number: int, trick: int) -> None:
    if now != list(seen):
        message = (
            _(
                "Another phone played in this trick first: now %(cards)s. "
                "Check whose turn it is and tap again.",
                cards=", ".join(oa.card(c).label for c in now),
            )
            if now
            else _(
                "Another phone played in this trick first: now no card. "
                "Check whose turn it is and tap again."
            )
        )
        raise EditConflict(f"rounds[{round_number - 1}].tricks[{trick}].cards", now, message)


def start_round(play: Play, *, rounds_seen: int, lead: str, author: Author) -> None:
    """Start the next round, played card by card, with ``lead`` leading its first trick."""
    state = play.state
    rounds = list(state.get("rounds", []))
    if len(rounds) != rounds_seen:
        raise EditConflict(
            "rounds",
            rounds,
            _("Round %(round)s was started on another phone meanwhile.", round=len(rounds)),
        )
    if lead not in state["players"]:
        raise _refused("lead", _("Pick who leads from the players at the table."))
    now = board(play)
    if not now.can_start_round:
        message = _no_round_reason(now)
        raise _refused("lead", message)
    new = oa.open_round(lead=lead)
    plays.replace_value(play, path="rounds", value=[*rounds, new], expected=rounds, author=author)


def _no_round_reason(now: oa.Board) -> str:
    if now.ended_after is not None:
        return _("The game is over: no further round is played.")
    return _("Finish the tricks of this round first.")


def set_lead(play: Play, *, rounds_seen: int, lead: str, author: Author) -> None:
    """Change who leads the round's first trick before anyone has played to it."""
    index, round_ = _last_round(play, expected=rounds_seen)
    tricks = round_.get("tricks") or []
    if lead not in play.state["players"]:
        raise _refused("lead", _("Pick who leads from the players at the table."))
    if len(tricks) != 1 or tricks[0]["cards"]:
        raise _refused(
            "lead", _("Only the first trick's lead can be chosen, before its first card.")
        )
    path = f"rounds[{index}].tricks[0].lead"
    plays.replace_value(play, path=path, value=lead, expected=tricks[0]["lead"], author=author)


def override_winner(
    play: Play, *, rounds_seen: int, trick: int, winner: str | None, author: Author
) -> None:
    """Advanced mode: a special effect gives a complete trick to ``winner`` (``None``: the
    cards decide again). Only the last complete trick, before the next one has a card."""
    index, round_ = _last_round(play, expected=rounds_seen)
    if play.state.get("mode") != oa.Mode.ADVANCED:
        raise _refused("winner", _("Only special effects change a trick's taker: advanced mode."))
    if winner is not None and winner not in play.state["players"]:
        raise _refused("winner", _("Pick a player at the table."))
    tricks = round_.get("tricks") or []
    count = len(play.state["players"])
    if not (0 <= trick < len(tricks)) or len(tricks[trick]["cards"]) != count:
        raise _refused("winner", _("Only a complete trick has a taker."))
    if trick != len(tricks) - 1:
        raise _refused(
            "winner", _("The next trick has started; undo its cards to change this taker.")
        )
    # Replace the whole trick: the winner field may not exist yet. Still one edit.
    value = {**tricks[trick], "winner": winner}
    path = f"rounds[{index}].tricks[{trick}]"
    plays.replace_value(play, path=path, value=value, expected=tricks[trick], author=author)


def add_penalty(play: Play, *, player: str, author: Author) -> None:
    """A wrong card: +1 VP for ``player`` in the last round (any time in the game)."""
    if player not in play.state["players"]:
        raise _refused("penalty", _("Pick a player at the table."))

    def change(round_: Mapping[str, Any]) -> dict[str, int]:
        penalties = dict(round_.get("penalties", {}))
        penalties[player] = penalties.get(player, 0) + PENALTY_VP
        chart = oa.PLAYER_CHART.get(len(play.state["players"]))
        if chart is not None and penalties[player] > chart.hand_cards:
            raise _refused(
                "penalty",
                ngettext(
                    "%(player)s already has %(num)s penalty this round: one per card played "
                    "is the most. Undo one if it was tapped by mistake.",
                    "%(player)s already has %(num)s penalties this round: one per card played "
                    "is the most. Undo one if it was tapped by mistake.",
                    chart.hand_cards,
                    player=player,
                ),
            )
        return penalties

    _update_last_round(play, "penalties", change, author=author)


def set_hand(play: Play, *, player: str, raw: str, author: Author) -> None:
    """Enter (or clear, with an empty text) the hand a player holds after the draft."""
    if player not in play.state["players"]:
        raise _refused("hand", _("Pick a player at the table."))
    where = "hand"
    try:
        hand = oa.parse_hand(raw, where=where)
    except InvalidStateError as invalid:
        raise EditRefused(invalid.problems) from None

    def change(round_: Mapping[str, Any]) -> dict[str, list[str]]:
        if round_.get("tricks") is None:
            raise _refused(where, _("Hands are entered for rounds played card by card."))
        hands = dict(round_.get("hands") or {})
        if hand:
            hands[player] = hand
        else:
            hands.pop(player, None)
        return hands

    _update_last_round(play, "hands", change, author=author)


def _update_last_round(
    play: Play, key: str, change: Callable[[Mapping[str, Any]], Any], *, author: Author
) -> None:
    """Set ``key`` of the last round to ``change(the round)``, built on its freshest value.

    Such changes do not depend on what the phone showed, so when another phone wrote
    first the change is simply built again (:func:`plays.update_value`).
    """
    rounds = play.state.get("rounds", [])
    if not rounds:
        raise _refused("rounds", _("Start round 1 first."))
    index = len(rounds) - 1
    if key in rounds[index]:
        # The play is read fresh before each build: the rest of the round is current too.
        plays.update_value(
            play,
            path=f"rounds[{index}].{key}",
            build=lambda value: change({**play.state["rounds"][index], key: value}),
            author=author,
        )
    else:
        plays.update_value(
            play,
            path=f"rounds[{index}]",
            build=lambda round_: {**round_, key: change(round_)},
            author=author,
        )


def enter_trophies(
    play: Play,
    *,
    round_index: int,
    rounds_seen: int,
    trophies: Mapping[str, int],
    author: Author,
) -> None:
    """Quick entry: round ``round_index`` (from 0) as trophy counts per player.

    The last round can be entered this way while no card of it is down (or corrected
    when it was entered as trophies); the index after it starts a new round, when the
    last one is complete and the game goes on.
    """
    state = play.state
    rounds = list(state.get("rounds", []))
    if len(rounds) != rounds_seen:
        raise EditConflict("rounds", rounds, _("The rounds changed on another phone meanwhile."))
    counts = {name: trophies.get(name, 0) for name in state["players"]}
    chart = oa.PLAYER_CHART.get(len(counts))
    impossible = oa.trophy_total_problem(counts, chart=chart) if chart is not None else None
    if impossible is not None:
        # The API scores such a round with a warning; a table typing it in has mistyped.
        raise _refused("trophies", sentences(impossible, _("Check the counts.")))
    if round_index == len(rounds) - 1 and _replaceable(rounds[-1]):
        last = rounds[-1]
        value = {"tricks": None, "trophies": counts, "penalties": last.get("penalties", {})}
        path = f"rounds[{round_index}]"
        plays.replace_value(play, path=path, value=value, expected=last, author=author)
        return
    if round_index != len(rounds):
        raise _refused("trophies", _("Cards of this round are down already: undo them first."))
    now = board(play)
    if not now.can_start_round:
        message = _no_round_reason(now)
        raise _refused("trophies", message)
    value = {"tricks": None, "trophies": counts, "penalties": {}}
    plays.replace_value(
        play, path="rounds", value=[*rounds, value], expected=rounds, author=author
    )


def _replaceable(round_: Mapping[str, Any]) -> bool:
    """A round entered as trophies, or one whose first card is not down yet."""
    tricks = round_.get("tricks")
    if tricks is None:
        return True
    return all(not t["cards"] for t in tricks)
