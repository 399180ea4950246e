"""The Owl About engine as registered: form edits, history wording and endpoints."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.base import ApiDescription, Game
from companion.games.limits import problems_of, whole_number
from companion.games.names import spoken_names
from companion.games.owl_about.cards import (
    FEWEST_VP_RULE,
    GAME_END_RULE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODE_NAMES,
    PLAYER_CHART,
    SLUG,
    ChartRow,
    Mode,
    card,
    default_target,
    player_chart,
    seating_from,
)
from companion.games.owl_about.edits import _card_from_text, _name_from_text
from companion.games.owl_about.history import (
    _PLAYER_FIELDS,
    _ROUND_FIELDS,
    _cards_in_words,
    _tricks_in_words,
)
from companion.games.owl_about.play_along import Board, board
from companion.games.owl_about.readings import (
    FEWEST_VP_READING,
    NIGHT_COLLECTION_BOTH_READING,
    NIGHT_COLLECTION_RESET_READING,
    NIGHT_COLLECTION_VOID_READING,
    NIGHT_SEVEN_READING,
    QUICK_TIES_READING,
    SMALL_OWLS_READING,
)
from companion.games.owl_about.referee import check_trick
from companion.games.owl_about.requests import StateModel, TrickRequestModel
from companion.games.owl_about.scoring import score_game
from companion.games.owl_about.state import _mode_problem, parse
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import Result, ScoreOrder
from companion.games.schemas import (
    BOOLEAN,
    COUNTS,
    INTEGER,
    INTEGERS,
    PROBLEMS,
    READINGS,
    STRING,
    STRINGS,
    array,
    obj,
)
from companion.games.schemas import result as result_schema
from companion.games.text import N_, _, ngettext

#: Each round is dealt afresh once the previous one is played out.
ROUND_SETUP_RULE = "owl-about/round-setup"
#: The seats of the API description's examples (API.md's).
SEATS = ["Miu", "Carol", "Romi", "Tom"]


class OwlAbout(Game):
    """The Owl About engine, registered under ``owl-about``."""

    slug = SLUG
    name = N_("Owl About")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    #: 2: night collection 3 and 4 apart, bounded penalties and target, trophy totals;
    #: 4: readings as objects (id, text, rule); 5: the trick and night collection
    #: readings carried.
    engine_version = 5
    score_order = ScoreOrder.LOWEST_FIRST
    has_play_along = True
    #: A player's hand shows on their phone only.
    private_keys = frozenset({"hands"})
    readings = (
        FEWEST_VP_READING,
        QUICK_TIES_READING,
        SMALL_OWLS_READING,
        NIGHT_SEVEN_READING,
        NIGHT_COLLECTION_VOID_READING,
        NIGHT_COLLECTION_BOTH_READING,
        NIGHT_COLLECTION_RESET_READING,
    )
    #: Rules entries the pages link to: tied totals, and the end of the game.
    tie_rule = FEWEST_VP_RULE
    end_rule = GAME_END_RULE

    def over_words(self, result: Mapping[str, Any]) -> str:
        """Who reached the target at the end of a round.

        >>> GAME.over_words({"target": 10, "standings": [{"player": "Miu", "score": 11}]})
        'Miu reached the target of 10 VP: the game is over.'
        """
        target = result.get("target", 0)
        reached = [s["player"] for s in result["standings"] if s["score"] >= target]
        if not reached:
            return _(
                "Someone reached the target of %(target)s VP: the game is over.", target=target
            )
        return _(
            "%(names)s reached the target of %(target)s VP: the game is over.",
            names=spoken_names(reached),
            target=target,
        )

    def going_on_words(self, result: Mapping[str, Any]) -> str:
        """The game goes on until a round ends with someone at the target."""
        # TRANSLATORS: said after "The game is not over yet:", so not a sentence of its own.
        return _(
            "nobody has reached the target of %(target)s VP at the end of a round yet",
            target=result.get("target"),
        )

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state, game end included; empty when it can be scored."""
        return problems_of(self.score, state)

    def score(self, state: object) -> Result:
        """Score a game (see the module example)."""
        return score_game(parse(state))

    def table_problems(self, state: object) -> list[Problem]:
        """A round before the last one that is still under way: a new round is only
        dealt once every trick of the previous one was played."""
        game = parse(state)
        tricks = game.chart.tricks
        return [
            Problem(
                f"rounds[{index}].tricks",
                _(
                    "Round %(round)s has %(played)s of its %(tricks)s tricks, but only the last"
                    " round can still be under way: the next one is dealt when every trick was"
                    " played.",
                    round=index + 1,
                    played=len(round_.tricks),
                    tricks=tricks,
                ),
                rule=ROUND_SETUP_RULE,
            )
            for index, round_ in enumerate(game.rounds[:-1])
            if round_.tricks is not None and len(round_.tricks) < tricks
        ]

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A game with no rounds yet; options ``mode``, ``variants`` and ``target``.

        The target defaults to the player chart's. Raises :class:`InvalidStateError`
        when the players or options cannot make a game.

        >>> state = GAME.new_state(["A", "B", "C"], {"mode": "advanced"})
        >>> state["mode"], state["variants"], state["target"], state["rounds"]
        ('advanced', [], 15, [])
        """
        variants = options.get("variants", [])
        target = options.get("target")
        if isinstance(target, str):
            target = whole_number("target", target, minimum=1) if target.strip() else None
        if target is None and len(players) in PLAYER_CHART:
            target = default_target(len(players))
        state = {
            "players": list(players),
            "mode": options.get("mode", Mode.BASIC.value),
            "variants": [variants] if isinstance(variants, str) else list(variants),
            "target": target,
            "rounds": [],
        }
        problems = self.validate(state)
        if problems:
            raise InvalidStateError(problems)
        return state

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The value of one form edit: target, mode, a trophy or penalty count, or a
        trick's lead, winner (empty = none) or card.

        >>> GAME.parse_edit(["rounds", 0, "penalties", "Tom"], " 2 ")
        2
        >>> GAME.parse_edit(["rounds", 0, "tricks", 3, "cards", 1], "n6")
        'N6'
        """
        where = path_of(path)
        match list(path):
            case ["target"]:
                return whole_number(where, raw, minimum=1)
            case ["mode"]:
                if raw.strip() in set(Mode):
                    return raw.strip()
                raise InvalidStateError(_mode_problem(raw.strip()))
            case ["rounds", int(), "penalties" | "trophies", str()]:
                return whole_number(where, raw, minimum=0)
            case ["rounds", int(), "tricks", int(), "cards", int()]:
                return _card_from_text(where, raw)
            case ["rounds", int(), "tricks", int(), "lead"]:
                return _name_from_text(where, raw)
            case ["rounds", int(), "tricks", int(), "winner"]:
                return _name_from_text(where, raw) if raw.strip() else None
        raise InvalidStateError([Problem(where, _("This cannot be changed here."))])

    def chart(self) -> tuple[ChartRow, ...]:
        """The player chart (for the options page)."""
        return player_chart()

    def board(self, state: object) -> Board:
        """The play-along picture of a state (see :func:`board`)."""
        return board(state)

    def describe_path(self, _state: Mapping[str, Any], path: Sequence[str | int]) -> str:
        """A field's name for the edit history and conflict messages.

        >>> GAME.describe_path({}, ["rounds", 0, "tricks", 2, "cards"])
        'Round 1, trick 3'
        """
        match list(path):
            case ["target"]:
                # TRANSLATORS: a field of the edit history: the VP that end the game.
                return _("target")
            case ["mode"]:
                # TRANSLATORS: a field of the edit history: Owl About's mode of play.
                return _("mode")
            case ["rounds"]:
                return _("Rounds")
            case ["rounds", int(r)]:
                return _("Round %(round)s", round=r + 1)
            case ["rounds", int(r), "tricks"]:
                return _("Round %(round)s tricks", round=r + 1)
            case ["rounds", int(r), "tricks", int(t), "cards"] | [
                "rounds",
                int(r),
                "tricks",
                int(t),
            ]:
                return _("Round %(round)s, trick %(trick)s", round=r + 1, trick=t + 1)
            case ["rounds", int(r), "tricks", int(t), "cards", int(c)]:
                return _(
                    "Round %(round)s, trick %(trick)s, card %(card)s",
                    round=r + 1,
                    trick=t + 1,
                    card=c + 1,
                )
            case ["rounds", int(r), "tricks", int(t), "winner"]:
                # TRANSLATORS: a field of the edit history: who takes a trick (an override).
                return _("Round %(round)s, trick %(trick)s taker", round=r + 1, trick=t + 1)
            case ["rounds", int(r), "tricks", int(t), "lead"]:
                # TRANSLATORS: a field of the edit history: who plays a trick's first card.
                return _("Round %(round)s, trick %(trick)s lead", round=r + 1, trick=t + 1)
            case ["rounds", int(r), str(key)] if key in _ROUND_FIELDS:
                return _(_ROUND_FIELDS[key], round=r + 1)
            case ["rounds", int(r), str(key), str(name)] if key in _PLAYER_FIELDS:
                return _(_PLAYER_FIELDS[key], round=r + 1, player=name)
        return path_of(path)

    def describe_change(
        self, state: Mapping[str, Any], path: Sequence[str | int], previous: Any, value: Any
    ) -> str | None:
        """A card played (or taken back) in words, naming the player; ``None`` otherwise.

        >>> state = {"players": ["Miu", "Carol", "Tom"],
        ...          "rounds": [{"tricks": [{"lead": "Carol", "cards": ["6", "2"]}]}]}
        >>> GAME.describe_change(state, ["rounds", 0, "tricks", 0, "cards"], ["6"], ["6", "2"])
        'Round 1, trick 1: Tom played 2'
        >>> GAME.describe_change(state, ["rounds", 0, "tricks", 0, "cards"], ["6", "2"], ["6"])
        "Round 1, trick 1: Tom's 2 taken back"
        """
        match list(path):
            case ["rounds", int(r), "hands"]:
                return _hands_change(r, previous, value)
            case ["rounds", int(r), "tricks", int(t), "cards"]:
                return _card_change(state, r, t, previous, value)
            case ["rounds", int(r), "tricks"] if isinstance(previous, list) and isinstance(
                value, list
            ):
                longer, shorter = (
                    (value, previous)
                    if len(value) > len(previous)
                    else (
                        previous,
                        value,
                    )
                )
                if len(longer) == len(shorter) + 1 and longer[:-1] == shorter:
                    new = longer[-1].get("cards", []) if isinstance(longer[-1], dict) else []
                    before, after = ([], new) if longer is value else (new, [])
                    return _card_change(state, r, len(shorter), before, after)
        return None

    def display_value(self, path: Sequence[str | int], value: Any) -> str:
        """A stored value in words; hands are never shown (they are secret at the table).

        >>> GAME.display_value(["rounds", 0, "hands", "Tom"], ["6", "N6"])
        'a hand'

        >>> GAME.display_value(["rounds", 0, "tricks", 0, "cards"], ["6", "N6"])
        '6, Night 6'
        >>> GAME.display_value(["rounds", 0, "penalties"], {"Tom": 1})
        'Tom +1'
        """
        parts = list(path)
        key = parts[-1] if parts else None
        if value is None or value == "nothing":
            if key == "winner":
                # TRANSLATORS: no taker entered for a trick: its cards decide who takes it.
                return _("the cards decide")
            # TRANSLATORS: an empty value in the edit history ("Round 1 trophies: nothing →
            # Miu 4, Tom 2").
            return _("nothing")
        if "hands" in parts[:-1]:
            # TRANSLATORS: a player's cards, never shown in the history (they are secret).
            return _("a hand")
        if key == "rounds" and isinstance(value, list):
            return ngettext("%(num)s round", "%(num)s rounds", len(value))
        if key == "cards" and isinstance(value, list):
            return _cards_in_words(value)
        if key == "tricks" and isinstance(value, list):
            return _tricks_in_words(value)
        if key == "hands" and isinstance(value, dict):
            if not value:
                return _("entered for nobody")
            return _("entered for %(players)s", players=", ".join(value))
        if key == "penalties" and isinstance(value, dict):
            return ", ".join(f"{n} +{v}" for n, v in value.items() if v) or _("none")
        if key == "trophies" and isinstance(value, dict):
            return ", ".join(f"{n} {v}" for n, v in value.items())
        if key == "mode" and isinstance(value, str) and value in MODE_NAMES:
            return _(MODE_NAMES[Mode(value)])
        if isinstance(value, dict) and "cards" in value:
            cards = self.display_value(["cards"], value["cards"])
            taker = value.get("winner")
            if taker:
                # TRANSLATORS: a trick in the history: its cards, and who was entered as
                # taking it instead of the cards' winner.
                return _("%(cards)s, taken by %(player)s (override)", cards=cards, player=taker)
            return _("%(cards)s, as the cards decide", cards=cards)
        if isinstance(value, dict) and "tricks" in value:
            if value.get("trophies") is not None:
                # TRANSLATORS: a round in the history, entered as each player's trophies.
                return _(
                    "trophies %(trophies)s",
                    trophies=self.display_value(["trophies"], value["trophies"]),
                )
            return _("played trick by trick")
        return str(value)

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.checked_score(body).to_json(),
            "trick": check_trick,
        }

    def api_descriptions(self) -> dict[str, ApiDescription]:
        """The request models and answer shapes of the JSON endpoints (OpenAPI)."""
        counts = COUNTS
        trick = obj(
            {"lead": STRING, "fp": INTEGERS, "trophies": INTEGER},
            {"same_speed": BOOLEAN},
            nullable={"winner": STRING},
        )
        scored_round = obj(
            {"trophies": counts, "vp": counts, "tricks": array(trick)},
            {"totals": counts, "penalties": counts, "complete": BOOLEAN},
        )
        return {
            "score": ApiDescription(
                "Score a game round by round.",
                StateModel,
                result_schema(self.slug, {"rounds": array(scored_round)}),
                {
                    "players": SEATS,
                    "mode": "basic",
                    "rounds": [
                        {"tricks": [{"lead": "Miu", "cards": ["6", "2", "8", "10"]}], "open": True}
                    ],
                },
            ),
            "trick": ApiDescription(
                "Referee one trick: who wins it, and the play rules broken.",
                TrickRequestModel,
                obj(
                    {
                        "fp": INTEGERS,
                        "trophies": INTEGER,
                        "problems": PROBLEMS,
                        "complete": BOOLEAN,
                    },
                    {"readings": READINGS},
                    nullable={
                        "winner": STRING,
                        "next": STRING,
                        "playable": STRINGS,
                    },
                ),
                {
                    "mode": "basic",
                    "lead": "Miu",
                    "players": SEATS,
                    "cards": ["6", "2", "8"],
                    "hands": {"Tom": ["1", "10"]},
                },
            ),
        }


def _hands_change(round_index: int, previous: Any, value: Any) -> str | None:
    """Who entered, corrected or cleared a hand, never the cards: the history is the
    table's, and a hand shows only on its player's phone.

    >>> _hands_change(0, {}, {"Ann": ["2", "N6"]})
    "Round 1: Ann's hand entered"
    >>> _hands_change(1, {"Ann": ["2"], "Ben": ["3"]}, {"Ann": ["5"]})
    "Round 2: Ann's hand corrected; Ben's hand cleared"
    """
    before = previous if isinstance(previous, dict) else {}
    after = value if isinstance(value, dict) else {}
    said = []
    for name in [*before, *(n for n in after if n not in before)]:
        if name not in before:
            said.append(_("%(player)s's hand entered", player=name))
        elif name not in after:
            said.append(_("%(player)s's hand cleared", player=name))
        elif before[name] != after[name]:
            said.append(_("%(player)s's hand corrected", player=name))
    if not said:
        return None
    changes = said[0]
    for change in said[1:]:
        # TRANSLATORS: changes to several hands, one after the other.
        changes = _("%(changes)s; %(change)s", changes=changes, change=change)
    return _("Round %(round)s: %(changes)s", round=round_index + 1, changes=changes)


def _card_change(
    state: Mapping[str, Any], round_index: int, trick_index: int, previous: Any, value: Any
) -> str | None:
    """ "Tom played 2" when one card was added to a trick, "Tom's 2 taken back" when removed."""
    if not (isinstance(previous, list) and isinstance(value, list)):
        return None
    played = len(value) == len(previous) + 1 and value[:-1] == previous
    taken_back = len(previous) == len(value) + 1 and previous[:-1] == value
    if not (played or taken_back):
        return None
    cards, code = (value, value[-1]) if played else (previous, previous[-1])
    try:
        players = [str(name) for name in state["players"]]
        lead = state["rounds"][round_index]["tricks"][trick_index]["lead"]
        player = seating_from(players, lead)[len(cards) - 1]
        label = card(code).label
    except (LookupError, TypeError, ValueError):
        return None
    if played:
        return _(
            "Round %(round)s, trick %(trick)s: %(player)s played %(card)s",
            round=round_index + 1,
            trick=trick_index + 1,
            player=player,
            card=label,
        )
    return _(
        "Round %(round)s, trick %(trick)s: %(player)s's %(card)s taken back",
        round=round_index + 1,
        trick=trick_index + 1,
        player=player,
        card=label,
    )


GAME = OwlAbout()
