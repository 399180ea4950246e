"""The engine interface every game implements (:class:`Game`), and what the API
description says of each endpoint (:class:`ApiDescription`).

The types engines speak live by subject beside this module: :mod:`~companion.games.problems`
(a path and a sentence per problem), :mod:`~companion.games.limits` (sizes checked before
items, validating against a model, typed numbers), :mod:`~companion.games.names` (players'
names and counts) and :mod:`~companion.games.ranking` (standings, tiebreakers and the
shared competition ranking).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pydantic

from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import Result, ScoreOrder, Tiebreak
from companion.games.readings import Reading
from companion.games.text import _


@dataclass(frozen=True)
class ApiDescription:
    """What the OpenAPI description of ``/api/v1`` says of one JSON endpoint.

    ``request`` is the pydantic model the handler validates its body with (the request
    body's schema is generated from it); ``answer`` is the JSON Schema of a 200 answer
    (see :mod:`companion.games.schemas`); ``example`` a request that gets one.
    """

    summary: str
    request: type[pydantic.BaseModel]
    answer: Mapping[str, Any]
    example: Mapping[str, Any]


class Game(abc.ABC):
    """What every game registers: identity, limits, capabilities, validation and scoring.

    An engine subclasses it and overrides ``validate``, ``score``, ``new_state``,
    ``parse_edit`` and ``api_endpoints``; every other hook has a default that suits a
    game without that capability, so services and templates call them all directly.
    """

    slug: ClassVar[str]
    #: The game's name, marked for translation (``N_``); pages say it with ``_(name)``.
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Why the player count is what it is, when the rulebook does not say (the app's
    #: reading, added to every message that refuses a count); marked for translation,
    #: said with ``_()`` when not empty.
    player_count_reading: ClassVar[str] = ""
    #: Bumped whenever scoring changes, so cached results can be recomputed.
    engine_version: ClassVar[int]
    #: Whether the highest or the lowest score ranks first.
    score_order: ClassVar[ScoreOrder] = ScoreOrder.HIGHEST_FIRST
    #: The tiebreakers after the score, in the order the rules apply them.
    tiebreaks: ClassVar[tuple[Tiebreak, ...]] = ()
    #: Whether several games in a row can be linked, their summed score deciding
    #: (:meth:`series` scores them).
    has_series: ClassVar[bool] = False
    #: Whether the game can be entered move by move with the referee checking each move.
    has_play_along: ClassVar[bool] = False
    #: Keys of a state whose values only their owner's phone may see (a hand of cards):
    #: exports shared through a link leave their contents out.
    private_keys: ClassVar[frozenset[str]] = frozenset()
    #: Every reading the engine can apply (an answer carries those it applied in its
    #: ``readings``): a test checks each has a clarification entry and appears in some
    #: answer.
    readings: ClassVar[tuple[Reading, ...]] = ()

    @property
    def player_counts(self) -> range:
        """Every number of players the game seats."""
        return range(self.min_players, self.max_players + 1)

    @abc.abstractmethod
    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state (empty when it can be scored)."""

    @abc.abstractmethod
    def score(self, state: object) -> Result:
        """Score a state; raises :class:`InvalidStateError` with every problem."""

    @abc.abstractmethod
    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A fresh entry state for a new play with these players in seating order."""

    @abc.abstractmethod
    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The JSON value a single edit sets at ``path``, from the text a form sent.

        Raises :class:`InvalidStateError` when the path may not be edited on its own or the
        text is not a value for it.
        """

    @abc.abstractmethod
    def api_endpoints(self) -> Mapping[str, Callable[[object], dict[str, Any]]]:
        """The game's JSON endpoints (``score`` and any referee checks): name -> handler.

        A handler takes the decoded request body and returns the response body; it
        raises :class:`InvalidStateError` for an impossible state.
        """

    def table_problems(self, state: object) -> list[Problem]:  # noqa: ARG002
        """Every way a state that :meth:`validate` accepts is still a table the rules
        cannot produce (an impossible table): the API refuses it (422), the pages show
        it beside the standings without refusing the edits that lead there, because
        entry passes through such states (a display counted bird by bird).

        Only called on a state :meth:`validate` accepts.
        """
        return []

    def checked_score(self, state: object) -> Result:
        """Score a state, refusing an impossible table too (the API's ``score``): raises
        :class:`InvalidStateError` with every problem :meth:`table_problems` finds."""
        result = self.score(state)
        problems = self.table_problems(state)
        if problems:
            raise InvalidStateError(problems)
        return result

    def api_descriptions(self) -> Mapping[str, ApiDescription]:
        """What the API description says of each endpoint of :meth:`api_endpoints`, by the
        same names. An endpoint left out is described as taking and answering any JSON
        object (the tests name it)."""
        return {}

    # The hooks below take what a game's override needs; their defaults ignore it (noqa).
    # Overrides call it ``_name`` when they ignore an argument too.

    def series(self, data: object) -> Result:  # noqa: ARG002
        """Score linked games (``{"games": [state, ...]}``) when :attr:`has_series`."""
        raise InvalidStateError(
            [Problem("games", _("%(game)s has no series variant.", game=_(self.name)))]
        )

    def is_play_along(self, state: Mapping[str, Any]) -> bool:  # noqa: ARG002
        """Whether a stored state is entered move by move (see :attr:`has_play_along`)."""
        return False

    def over_words(self, result: Mapping[str, Any]) -> str:  # noqa: ARG002
        """Why the rules say the game is over (a scored result whose ``finished`` is true),
        as the Finish button says it ("Ann holds all nine birds: the game is over."), in
        the reader's language."""
        return _("By its rules, the game is over.")

    def going_on_words(self, result: Mapping[str, Any]) -> str:  # noqa: ARG002
        """Why the rules do not say the game is over yet ("nobody holds all nine birds
        yet"): the Finish button asks before ending it. In the reader's language."""
        # TRANSLATORS: said after "The game is not over yet:", so not a sentence of its own.
        return _("its rules do not say it is over yet")

    def describe_path(self, state: Mapping[str, Any], path: Sequence[str | int]) -> str:  # noqa: ARG002
        """A field's name for people ("Ben's Hoopoe"), in the reader's language; by default
        its API path."""
        return path_of(path)

    def display_value(self, path: Sequence[str | int], value: Any) -> str:  # noqa: ARG002
        """A stored value as people read it (words in the reader's language); by default
        its text."""
        return str(value)

    def describe_change(
        self,
        state: Mapping[str, Any],  # noqa: ARG002
        path: Sequence[str | int],  # noqa: ARG002
        previous: Any,  # noqa: ARG002
        value: Any,  # noqa: ARG002
    ) -> str | None:
        """One change in the game's own words (in the reader's language), or ``None`` for
        "field: before → after"."""
        return None

    def board(self, state: object) -> object | None:  # noqa: ARG002
        """The play-along picture of a state, for games that have one."""
        return None

    def chart(self) -> Sequence[Any]:
        """The game's player chart (limits per player count), for games that have one."""
        return ()
