"""Every sentence an engine builds for people goes through gettext (issue 36).

Under the pseudo-language of ``support/pseudo.py`` each message comes out wrapped in
⟦ ⟧, so English words left outside the brackets were built without gettext. The checks
score many states (the conformance strategies), refuse invalid ones, answer each
endpoint's examples and word the edit history, and look at every human-facing string:
problems' ``message``, breakdown lines' ``label``, ``warnings``, readings' ``text``, the
``words`` of referee answers, the words of the Finish button and the history. Identifiers
stay English and are left out of the word check on purpose: ``decided_by``, the
tiebreakers' ``label`` in the JSON (``decided_by`` names them), ids, paths and field
names (:func:`test_identifiers_stay_english` checks they are never translated).

Each game fills its :class:`Examples` in :data:`EXAMPLES`; a game whose examples are still
empty is not checked yet (its engine's words are being moved to gettext).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, Game
from companion.games import owl_about as oa
from companion.games.grid import place_name, places_name
from companion.games.limits import validate_model
from companion.games.names import hidden_character_message
from companion.games.problems import InvalidStateError, Problem, problem_messages
from companion.games.text import sentences, speaking, spoken_list
from support.pseudo import PSEUDO, english_words, texts_at
from tests.games.test_conformance import STRATEGIES, leaves
from tests.games.test_owl_about import FUZZ_STATES, FUZZ_TRICK_REQUESTS

#: Where a JSON answer holds words for people.
HUMAN_KEYS = ("message", "label", "warnings", "text", "words", "messages")

#: Strings under :data:`HUMAN_KEYS` that are identifiers, not words: a tiebreaker's
#: ``label`` in an answer stays English (``decided_by`` names it; clients key on it).
IDENTIFIERS = re.compile(r"(^|\.)tiebreak\[\d+\]\.label$")

#: The refusal of a path that is not edited on its own (not a value's problem).
REFUSED_PATH = "This cannot be changed here."

#: A JSON path into a state, as the engines take it.
Path = list[str | int]


@dataclass(frozen=True)
class Change:
    """One change of a state, as the edit history words it."""

    state: Mapping[str, Any]
    path: Path
    previous: Any
    value: Any


@dataclass(frozen=True)
class Examples:
    """What a game's checks run on besides its conformance strategy of valid states.

    ``refused``: states the engine refuses (``validate``) or finds impossible
    (``table_problems``); ``scored``: valid states worth scoring on purpose (an ending, a
    warning, a reading); ``requests``: endpoint name and body, answered or refused;
    ``edits``: a path and a form's text that ``parse_edit`` refuses; ``changes``: lines of
    the edit history; ``endings``: finished results (JSON) whose end the Finish button
    words, beyond those of the scored states; ``fuzz``: a strategy of odd requests
    (endpoint name and body).
    """

    refused: Sequence[object] = ()
    scored: Sequence[Mapping[str, Any]] = ()
    requests: Sequence[tuple[str, object]] = ()
    edits: Sequence[tuple[Path, str]] = ()
    changes: Sequence[Change] = ()
    endings: Sequence[Mapping[str, Any]] = ()
    fuzz: st.SearchStrategy[tuple[str, object]] | None = None

    @property
    def filled(self) -> bool:
        """Whether the game has examples (its words are through gettext)."""
        return bool(self.refused or self.scored or self.requests or self.edits)


# --- Odd World --------------------------------------------------------------------------


def ow_player(name: str, face_down: str | None = None, **display: int) -> dict[str, Any]:
    """An Odd World player (bird keys with underscores for hyphens)."""
    birds = {bird.replace("_", "-"): count for bird, count in display.items()}
    return {"name": name, "display": birds, "face_down": face_down}


ALL_NINE = {
    "bird_of_paradise": 1,
    "hoopoe": 1,
    "scarlet_ibis": 1,
    "shoebill": 1,
    "hornbill": 1,
    "crowned_crane": 1,
    "secretarybird": 1,
    "king_vulture": 1,
}

OW_TABLE = {"players": [ow_player("Ann", hoopoe=3), ow_player("Ben", shoebill=2, hornbill=1)]}

ODD_WORLD = Examples(
    refused=[
        {"players": [ow_player("Ann", hoopoe=3)]},
        {"players": [ow_player(f"P{i}", hoopoe=1) for i in range(6)]},
        {"players": [ow_player("", hoopoe=3), ow_player("Ann", hoopoe=3)]},
        {"players": [ow_player("A" * 41, hoopoe=3), ow_player("Ann\u202e", hoopoe=3)]},
        {"players": [ow_player("\u3164", hoopoe=3), ow_player("Ann", hoopoe=3)]},
        {"players": [ow_player("Ann", hoopoe=3), ow_player("ann", hoopoe=3)]},
        {"players": [ow_player("Ann", hoopoe=3), ow_player("\u0410nn", hoopoe=3)]},
        {"players": [ow_player("Ann", dodo=1, hoopoe=-1, shoebill=9), ow_player("Ben", "emu")]},
        {"players": [ow_player("Ann", hoopoe=5), ow_player("Ben", "hoopoe", hoopoe=3)]},
        {"players": [ow_player("Ann", hoopoe=1), ow_player("Ben", hoopoe=3)]},
        {
            "players": [
                ow_player("Ann", "hoopoe", cassowary=1, **ALL_NINE),
                ow_player("Ben", "hoopoe", cassowary=1, **ALL_NINE),
                ow_player("Cy", hoopoe=3),
            ]
        },
        {
            "players": [
                ow_player("Ann", **dict.fromkeys(ALL_NINE, 2), cassowary=2),
                ow_player("Ben", **dict.fromkeys(ALL_NINE, 2), cassowary=2),
            ]
        },
        {"players": "Ann"},
        {"players": [{"name": 1, "display": [], "face_down": True, "age": 3}]},
        {"players": [{"name": "Ann", "display": {"hoopoe": "3"}}]},
        {},
        [],
        {"players": [{"name": "x" * 101, "face_down": "y" * 101}, ow_player("Ben")]},
        {"players": [{"name": "Ann", "display": {f"b{i}": 1 for i in range(21)}}]},
        {"players": [{"name": "Ann", "display": {"k" * 101: 1}}, ow_player("Ben")]},
        {
            "players": [
                {"name": f"P{i}", "display": {f"b{j}": 1 for j in range(20)}} for i in range(5)
            ]
        },
    ],
    scored=[
        OW_TABLE,
        {"players": [ow_player("Ann", "cassowary", **ALL_NINE), ow_player("Ben", hoopoe=3)]},
        {
            "players": [
                ow_player("Ann", "cassowary", **ALL_NINE),
                ow_player("Ben", "cassowary", **{**ALL_NINE, "hoopoe": 2}),
                ow_player("Cy", hoopoe=3),
            ]
        },
        {"players": [ow_player("Ann", cassowary=1, **ALL_NINE), ow_player("Ben", hoopoe=3)]},
        {
            "players": [
                ow_player("Ann", bird_of_paradise=8, hoopoe=8, scarlet_ibis=8, shoebill=8),
                ow_player("Ben", hornbill=8, crowned_crane=8, secretarybird=8, king_vulture=8),
                ow_player("Cy", cassowary=8),
            ]
        },
        {"players": [ow_player("Ann", "hoopoe", shoebill=2), ow_player("Ben", hornbill=3)]},
    ],
    requests=[
        ("series", {"games": []}),
        ("series", {"games": [OW_TABLE] * 4}),
        ("series", {"games": [OW_TABLE, {"players": [ow_player("Cy"), ow_player("Di")]}]}),
        ("series", {"games": [OW_TABLE, {"players": [ow_player("Ann", hoopoe=9)]}]}),
        ("series", {"games": [OW_TABLE, {"players": [ow_player("Ann"), ow_player("Ben")]}]}),
        ("series", {"games": [OW_TABLE, OW_TABLE, OW_TABLE]}),
        (
            "series",
            {"games": [{"players": [ow_player("Ann", hoopoe=3), ow_player("Ben", shoebill=3)]}]},
        ),
    ],
    edits=[
        (["players", 0, "display", "hoopoe"], "x"),
        (["players", 0, "display", "hoopoe"], "9"),
        (["players", 0, "face_down"], "emu"),
        (["players", 0, "name"], "Eve"),
    ],
    changes=[
        Change(OW_TABLE, ["players", 1, "display", "hoopoe"], 0, 3),
        Change(OW_TABLE, ["players", 1, "face_down"], None, "hoopoe"),
        Change(OW_TABLE, ["players", 1, "face_down"], "hoopoe", None),
        Change({}, ["players", 4, "display", "cassowary"], 1, 2),
        Change({}, ["players", 4, "face_down"], None, "cassowary"),
    ],
    # Nobody named: a result that says the game is over without saying who ended it.
    endings=[{"standings": [], "cards_on_table": 30}],
)


# --- Owl About --------------------------------------------------------------------------

OA_TABLE = ["Miu", "Carol", "Romi", "Tom"]
#: The rulebook's trick: the 2 fights as 12 next to the 10.
OA_TRICK = ["6", "2", "8", "10"]


def oa_game(rounds: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """An Owl About state at the table of four (options: mode, variants, target...)."""
    return {"players": list(OA_TABLE), "mode": "basic", "rounds": rounds, **options}


def oa_trick(**changes: Any) -> dict[str, Any]:
    """A one-trick referee request (the rulebook's trick, led by Miu)."""
    return {
        "mode": "basic",
        "lead": "Miu",
        "players": list(OA_TABLE),
        "cards": OA_TRICK,
        **changes,
    }


#: Four night cards in one round's tricks: Night Collection 4 resets Miu's total.
NIGHT_ROUND = {
    "tricks": [
        {"lead": "Miu", "cards": ["N7", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N6", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N5", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N4", "1", "2", "4"]},
    ],
    "penalties": {"Miu": 1},
    "open": True,
}

OA_HANDS = {"Romi": ["8", "3"], "Miu": ["6", "N6"]}

OWL_ABOUT = Examples(
    refused=[
        oa_game([], players=["Miu", "Carol"]),
        {"players": ["Miu", "Carol", "Romi", "Miu"], "rounds": []},
        oa_game([], mode="turbo", variants=["same-speed", "x"], target=100),
        oa_game([{"trophies": {"Zed": 1, "Miu": -1, "miu": 2, "Tom": 99}}]),
        oa_game([{"trophies": {"Miu": 1}, "penalties": {"Tom": -1, "Romi": 9}}]),
        oa_game([{"tricks": [{"lead": "Zed", "cards": ["6", "11"], "winner": "Tom"}]}]),
        oa_game([{"tricks": [{"lead": "Miu", "cards": OA_TRICK, "winner": "Tom"}]}]),
        oa_game(
            [{"tricks": [{"lead": "Miu", "cards": OA_TRICK, "winner": "Zed"}]}], mode="advanced"
        ),
        oa_game([{"tricks": [{"lead": "Miu", "cards": ["6"], "winner": "Tom"}], "open": True}]),
        oa_game(
            [
                {
                    "tricks": [
                        {"lead": "Miu", "cards": OA_TRICK},
                        {"lead": "Tom", "cards": ["9", "9", "9", "3"]},
                    ]
                }
            ]
        ),
        oa_game([{"tricks": [{"lead": "Miu", "cards": OA_TRICK}] * 9}]),
        oa_game([{"open": True, "trophies": {"Miu": 1}}, {"tricks": [], "trophies": {}}, {}]),
        oa_game([{"tricks": [], "hands": {"Zed": ["2"], "Miu": ["2", "X"] + ["3"] * 7}}]),
        oa_game([{"tricks": [], "hands": {"Miu": ["N6"], "Tom": ["N6"], "miu": ["1"]}}]),
        oa_game([{"tricks": [{"lead": "Miu", "cards": OA_TRICK}], "hands": {"Miu": ["5"]}}]),
        oa_game(
            [
                {"trophies": {"Miu": 12, "Carol": 0, "Romi": 0, "Tom": 0}},
                {"trophies": {"Miu": 1, "Carol": 0, "Romi": 0, "Tom": 0}},
            ],
            target=5,
        ),
        oa_game(
            [
                {"tricks": [{"lead": "Miu", "cards": OA_TRICK}]},
                {"trophies": {"Miu": 1, "Carol": 0, "Romi": 0, "Tom": 0}},
            ]
        ),
        {"players": list(OA_TABLE), "rounds": [{"open": "yes", "tricks": "6 2 8 10"}]},
        {"players": list(OA_TABLE), "rounds": [{}] * 101},
        {"players": list(OA_TABLE), "variants": ["x"] * 21, "rounds": []},
        {"players": list(OA_TABLE), "rounds": [{"tricks": [{"lead": "Miu", "cards": []}] * 10}]},
    ],
    scored=[
        oa_game([{"tricks": [{"lead": "Miu", "cards": OA_TRICK}], "open": True}]),
        oa_game([{"trophies": {"Miu": 4, "Carol": 3, "Romi": 0, "Tom": 0}}]),
        oa_game(
            [{"trophies": {"Miu": 4, "Carol": 4, "Romi": 0, "Tom": 0}}],
            mode="advanced",
            variants=["same-speed"],
        ),
        {
            "players": ["A", "B", "C", "D", "E", "F"],
            "rounds": [{"trophies": {"A": 6, "B": 6, "C": 0, "D": 0, "E": 0, "F": 0}}],
        },
        oa_game(
            [
                {
                    "tricks": [
                        {"lead": "Miu", "cards": ["6", "2", "3", "10"]},
                        {"lead": "Carol", "cards": ["N6", "8", "9", "7"]},
                    ],
                    "hands": {"Romi": ["8", "3", "8"], "Carol": ["2", "N6", "6"]},
                    "open": True,
                }
            ]
        ),
        oa_game([NIGHT_ROUND], mode="advanced", variants=["night-collection"]),
        oa_game([NIGHT_ROUND], mode="advanced", variants=["night-collection-3", "same-speed"]),
        oa_game([{"tricks": [{"lead": "Miu", "cards": ["2", "2", "N4", "6"]}]}], mode="quick"),
        oa_game([{"tricks": [{"lead": "Miu", "cards": ["N7", "1", "3", "4"]}], "open": True}]),
        oa_game([{"trophies": {"Miu": 12, "Carol": 0, "Romi": 0, "Tom": 0}}], target=5),
        oa_game([{"trophies": {"Miu": 0, "Carol": 0, "Romi": 0, "Tom": 0}}], target=1),
    ],
    requests=[
        ("trick", oa_trick(cards=["6", "2", "3", "10"], hands={"Romi": ["8", "3"]})),
        ("trick", oa_trick(cards=["N6", "2", "8", "10"], hands={"Miu": ["6", "N6"]})),
        ("trick", oa_trick(cards=["6", "2"], hands={"Romi": ["8", "3", "N7", "7"]})),
        ("trick", oa_trick(mode="quick", cards=["2", "2", "N4", "6"])),
        ("trick", oa_trick(cards=["N7", "1"])),
        ("trick", oa_trick(lead="Zed", mode="turbo", players=["Miu", "Carol"], cards=[])),
        (
            "trick",
            oa_trick(players=["Miu", "Carol", "miu", "Tom"], cards=["6", "2", "8", "10", "3"]),
        ),
        ("trick", oa_trick(cards=["6", "11", "9", "9", "9"])),
        ("trick", oa_trick(cards=["9", "9", "9"])),
        ("trick", oa_trick(cards=["N6", "N6", "3"])),
        ("trick", oa_trick(hands={"Zed": ["2"], "Carol": ["5", "7"], "carol": ["2"]})),
        ("trick", oa_trick(hands={"Carol": ["2"] + ["3"] * 8})),
        ("trick", oa_trick(hands={"Carol": ["2", "10", "10"]})),
        ("trick", oa_trick(hands={"Carol": ["2", "10"], "Tom": ["10"], "Romi": ["8", "10"]})),
        ("trick", oa_trick(cards="6 2 8 10", extra=1)),
        ("trick", oa_trick(cards=["6"] * 7, hands={"Tom": ["1"] * 10})),
    ],
    edits=[
        (["target"], "x"),
        (["target"], "0"),
        (["mode"], "turbo"),
        (["rounds", 0, "penalties", "Tom"], "-1"),
        (["rounds", 0, "trophies", "Tom"], "many"),
        (["rounds", 0, "tricks", 0, "cards", 1], "11"),
        (["rounds", 0, "tricks", 0, "lead"], " "),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(oa_game([]), ["rounds"], [], [{"tricks": [], "trophies": None, "penalties": {}}]),
        Change(oa_game([]), ["rounds", 0], None, {"trophies": {"Miu": 1}, "tricks": None}),
        Change(oa_game([]), ["rounds", 0], None, {"tricks": [], "trophies": None}),
        Change(oa_game([]), ["rounds", 0, "hands"], {"Tom": ["2"], "Miu": ["3"]}, {"Tom": ["5"]}),
        Change(oa_game([]), ["rounds", 0, "hands"], {}, {"Miu": ["2", "N6"]}),
        Change(oa_game([]), ["rounds", 0, "hands", "Tom"], None, ["2", "N6"]),
        Change(oa_game([]), ["rounds", 0, "penalties"], {}, {"Tom": 1}),
        Change(oa_game([]), ["rounds", 0, "penalties", "Tom"], 0, 1),
        Change(oa_game([]), ["rounds", 0, "trophies"], None, {"Tom": 1, "Miu": 0}),
        Change(oa_game([]), ["rounds", 0, "trophies", "Tom"], 0, 3),
        Change(oa_game([]), ["rounds", 0, "tricks", 0, "winner"], None, "Tom"),
        Change(oa_game([]), ["rounds", 0, "tricks", 0, "lead"], "Miu", "Tom"),
        Change(oa_game([]), ["target"], 10, 15),
        Change(oa_game([]), ["mode"], "basic", "quick"),
        Change(
            oa_game([{"tricks": [{"lead": "Carol", "cards": ["6", "N6"]}]}]),
            ["rounds", 0, "tricks", 0, "cards"],
            ["6"],
            ["6", "N6"],
        ),
        Change(
            oa_game([{"tricks": [{"lead": "Carol", "cards": ["6", "N6"]}]}]),
            ["rounds", 0, "tricks", 0, "cards"],
            ["6", "N6"],
            ["6"],
        ),
        Change(
            oa_game([{"tricks": [{"lead": "Carol", "cards": ["N5"]}]}]),
            ["rounds", 0, "tricks"],
            [],
            [{"lead": "Carol", "cards": ["N5"]}],
        ),
        Change(
            oa_game([{"tricks": [{"lead": "Carol", "cards": []}]}]),
            ["rounds", 0, "tricks"],
            [{"lead": "Carol", "cards": ["N5", "6"]}],
            [],
        ),
        Change(oa_game([]), ["rounds", 0, "tricks"], [{"lead": "Tom", "cards": []}] * 2, []),
        Change(
            oa_game([]),
            ["rounds", 0, "tricks", 0],
            None,
            {"lead": "Tom", "cards": ["N4", "5"], "winner": "Miu"},
        ),
        Change(oa_game([]), ["rounds", 0, "tricks", 0], None, {"lead": "Tom", "cards": []}),
        Change(oa_game([]), ["rounds", 0, "tricks"], [], ["a trick that is no object"]),
    ],
    endings=[{"target": 10, "standings": [{"player": "Miu", "score": 9}]}],
    fuzz=st.tuples(st.just("score"), FUZZ_STATES)
    | st.tuples(st.just("trick"), FUZZ_TRICK_REQUESTS),
)


#: Each game's examples; a game with none yet is not checked (see the module).
EXAMPLES: dict[str, Examples] = {
    "odd-world": ODD_WORLD,
    "owl-about": OWL_ABOUT,
    "oddland": Examples(),
    "luckys-misadventures": Examples(),
    "oddville": Examples(),
}
CHECKED = sorted(slug for slug, examples in EXAMPLES.items() if examples.filled)


# --- the checks ---------------------------------------------------------------------------


def names_in(request: object) -> list[str]:
    """The player names a request holds (a list of names, or players with a ``name``), to
    leave out of the check: they are the players' words, not the app's."""
    found: list[str] = []
    players = request.get("players") if isinstance(request, Mapping) else None
    for player in players if isinstance(players, list) else ():
        name = player.get("name") if isinstance(player, Mapping) else player
        if isinstance(name, str) and name.strip():
            found.append(name.strip())
    for game in request.get("games", ()) if isinstance(request, Mapping) else ():
        found += names_in(game)
    return found


def english_left(document: object, *, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every human-facing string of a JSON document (path and text) that still holds
    English words outside the pseudo-language's brackets."""
    values = list(names)
    return [
        (path, text)
        for path, text in texts_at(document, HUMAN_KEYS)
        if not IDENTIFIERS.search(path) and english_words(text, values=values)
    ]


def assert_translated(document: object, *, names: Iterable[str] = ()) -> None:
    """No human-facing string of ``document`` holds English left untranslated."""
    assert english_left(document, names=names) == []


def problems_json(problems: Sequence[Problem]) -> dict[str, Any]:
    """Problems as the API lists them, with the pages' sentence for those left out."""
    return {
        "problems": [problem.to_json() for problem in problems],
        "messages": problem_messages(problems),
    }


def answer(handler: Callable[[object], object], body: object) -> object:
    """An endpoint's answer, or its problems when it refuses the request."""
    try:
        return handler(body)
    except InvalidStateError as refused:
        return problems_json(refused.problems)


def assert_scored_in_pseudo(game: Game, state: Mapping[str, Any]) -> None:
    """Score a valid state and word every part of it that people read."""
    names = names_in(state)
    result = game.checked_score(state).to_json()
    assert_translated(result, names=names)
    ending = game.over_words(result) if result["finished"] else game.going_on_words(result)
    assert_translated({"words": ending}, names=names)
    for path, value in leaves(state):
        try:
            game.parse_edit(path, as_text(value))
        except InvalidStateError as refused:
            if refused.problems[0].message.strip("⟦⟧") == REFUSED_PATH:
                continue  # not edited on its own: never in the history
        said = {"words": [game.describe_path(state, path), game.display_value(path, value)]}
        assert_translated(said, names=names)
    if game.has_play_along:
        assert_translated(play_along_words(game, state), names=names)


def play_along_words(game: Game, state: Mapping[str, Any]) -> dict[str, Any]:
    """The rule breaks and card names the play-along picture shows."""
    board = game.board(state)
    said: list[str] = []
    if isinstance(board, oa.Board) and board.current is not None:
        for trick in board.current.tricks:
            for play in trick.plays:
                said += [*play.broken, play.label]
    return {"words": said}


def as_text(value: object) -> str:
    """A stored value as a form would send it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def test_every_game_has_its_examples() -> None:
    assert set(EXAMPLES) == set(GAMES)
    assert set(CHECKED) <= set(STRATEGIES)


@pytest.mark.parametrize("slug", CHECKED)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_scored_states_speak_the_reader_s_language(slug: str, data: st.DataObject) -> None:
    game = GAMES[slug]
    state = data.draw(STRATEGIES[slug], label="state")
    with speaking(PSEUDO):
        assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", CHECKED)
def test_chosen_states_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            assert game.validate(state) == [], state
            assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", CHECKED)
def test_refusals_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].refused:
            problems = game.validate(state) or game.table_problems(state)
            assert problems, state
            assert_translated(problems_json(problems), names=names_in(state))
            assert_translated(answer(game.api_endpoints()["score"], state))


@pytest.mark.parametrize("slug", CHECKED)
def test_endpoints_speak_the_reader_s_language(slug: str) -> None:
    """Each endpoint's example of the API description, and the game's own requests."""
    game = GAMES[slug]
    endpoints = game.api_endpoints()
    examples = [(name, described.example) for name, described in game.api_descriptions().items()]
    with speaking(PSEUDO):
        for name, body in [*examples, *EXAMPLES[slug].requests]:
            assert_translated(answer(endpoints[name], body), names=names_in(body))


@pytest.mark.parametrize("slug", [slug for slug in CHECKED if EXAMPLES[slug].fuzz is not None])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_odd_requests_speak_the_reader_s_language(slug: str, data: st.DataObject) -> None:
    fuzz = EXAMPLES[slug].fuzz
    assert fuzz is not None
    name, body = data.draw(fuzz, label="request")
    with speaking(PSEUDO):
        assert_translated(answer(GAMES[slug].api_endpoints()[name], body))


@pytest.mark.parametrize("slug", CHECKED)
def test_form_edits_and_history_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for path, raw in EXAMPLES[slug].edits:
            with pytest.raises(InvalidStateError) as refused:
                game.parse_edit(path, raw)
            assert_translated(problems_json(refused.value.problems))
        for ending in EXAMPLES[slug].endings:
            assert_translated({"words": game.over_words(ending)})
        for change in EXAMPLES[slug].changes:
            names = names_in(change.state)
            said = game.describe_change(change.state, change.path, change.previous, change.value)
            words = [
                game.describe_path(change.state, change.path),
                game.display_value(change.path, change.previous),
                game.display_value(change.path, change.value),
            ]
            assert_translated({"words": [*words, *([said] if said else [])]}, names=names)


@pytest.mark.parametrize("slug", CHECKED)
def test_identifiers_stay_english(slug: str) -> None:
    """What clients key on is never translated: ``decided_by``, tiebreak labels, ids."""
    game = GAMES[slug]
    labels = [tiebreak.label for tiebreak in game.tiebreaks]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            result = game.checked_score(state).to_json()
            assert "⟦" not in result["decided_by"]
            for standing in result["standings"]:
                assert [t["label"] for t in standing["tiebreak"]] == labels
            for reading in result.get("readings", ()):
                assert "⟦" not in reading["id"] + reading["rule"]


def test_the_shared_words_speak_the_reader_s_language() -> None:
    """Words every game uses: lists, sentences in a row, grid places, the count of
    problems left out, and the defaults of :class:`Game`."""
    with speaking(PSEUDO):
        said = [
            spoken_list(["Ann", "Ben", "Cy"]),
            spoken_list(["8", "10", "12"], joined_by="or"),
            sentences("⟦One.⟧", "⟦Two.⟧"),
            place_name((0, 1)),
            *(
                places_name(cells)
                for cells in ([(2, 3), (2, 4)], [(1, 0), (2, 0)], [(0, 0), (1, 1)])
            ),
            problem_messages([Problem("x", "⟦Wrong.⟧")] * 52)[-1],
            Game.over_words(GAMES["owl-about"], {}),
            Game.going_on_words(GAMES["owl-about"], {}),
            *problem_messages(refusal(lambda: GAMES["owl-about"].series({"games": []}))),
            hidden_character_message("\x00", subject="⟦Group name⟧"),
            *(
                p.message
                for p in refusal(lambda: validate_model(Chosen, {"size": 100, "kind": "x"}))
            ),
        ]
        assert_translated({"words": said}, names=["Ann", "Ben", "Cy"])


class Kind(StrEnum):
    """Choices a request model may take (as Oddland's species rules do)."""

    SMALL = "small"
    LARGE = "large"


class Chosen(pydantic.BaseModel):
    """A request with a bounded number and a choice: pydantic's own refusals (not strict,
    as Oddland's species rules, so that a text is read as a choice)."""

    model_config = pydantic.ConfigDict(extra="forbid")

    size: int = pydantic.Field(le=99)
    kind: Kind


def refusal(call: Callable[[], object]) -> list[Problem]:
    """The problems ``call`` raises."""
    with pytest.raises(InvalidStateError) as refused:
        call()
    return refused.value.problems


def test_the_check_finds_english_left_outside_the_brackets() -> None:
    """The check itself: bare English is found, identifiers and names are not."""
    document = {
        "warnings": ["⟦Round 1⟧ is over"],
        "standings": [
            {"tiebreak": [{"label": "Best single bird"}], "breakdown": [{"label": "Ann"}]}
        ],
    }
    assert english_left(document, names=["Ann"]) == [("warnings[0]", "⟦Round 1⟧ is over")]
