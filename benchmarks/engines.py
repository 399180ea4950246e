"""Engine budgets (a benchmark, not a test): every game's maximal state scored through
``GAME.score`` (parsing, validation and scoring: what the API and the pages call), the
Oddland map analysis, and a long Oddland play-along game replayed as its requests do.

Each maximal state holds the most players and the most cards, rounds or tokens the rules
allow; the script checks that it is valid before timing it. The table prints each figure
with its budget and whether it is met.

Run: .venv/bin/python benchmarks/engines.py
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import maximal_odd_world
from oddland_bench import DEFINITIONS, maximal_rows, spread_tokens
from oddville_bench import big_city

from companion.games import GAMES, owl_about
from companion.games import oddland as ol
from companion.games.luckys import facts as lf
from companion.games.oddland import placement
from companion.games.owl_about import cards as oa

#: Scoring any maximal state, in milliseconds.
SCORE_BUDGET = 1.0
#: Oddland's map analysis (territories and token facts), and one play-along request's
#: replay of its cards, in milliseconds.
ANALYSIS_BUDGET = 5.0
REPLAY_BUDGET = 5.0
SEED = 7


@dataclass(frozen=True)
class Figure:
    """One timed figure and its budget (``None``: shown for reference only)."""

    label: str
    ms: float
    budget: float | None

    def line(self) -> str:
        """The figure as a table row."""
        budget = f"< {self.budget:g} ms" if self.budget is not None else "-"
        verdict = "-" if self.budget is None else ("pass" if self.ms < self.budget else "FAIL")
        return f"| {self.label} | {self.ms:.3f} ms | {budget} | {verdict} |"


def per_call_ms(function: Callable[[], object], number: int) -> float:
    """Milliseconds of this process's CPU time per call, the best of five runs: other work
    on a shared machine changes this figure least."""
    runs = timeit.Timer(function, timer=time.process_time).repeat(number=number, repeat=5)
    return min(runs) / number * 1000


def timed_after(
    prepare: Callable[[], object], function: Callable[[], object], number: int
) -> float:
    """Milliseconds of ``function`` alone, each call after an untimed ``prepare``: the
    best of ``number`` calls."""
    best = float("inf")
    for _ in range(number):
        prepare()
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best * 1000


def valid(slug: str, state: dict[str, Any]) -> dict[str, Any]:
    """The state, after checking that its game accepts it."""
    problems = GAMES[slug].validate(state)
    assert not problems, problems[:3]
    return state


# --- Owl About: six players, every round played trick by trick with hands ----------------

OWL_PLAYERS = ["Miu", "Carol", "Romi", "Tom", "Ann", "Ben"]


def owl_round(rng: random.Random, lead: str) -> tuple[dict[str, Any], str]:
    """One whole round: the deck dealt out, every trick played with legal cards."""
    deck = [code for code, copies in oa.DECK.items() for _ in range(copies)]
    rng.shuffle(deck)
    size = len(deck) // len(OWL_PLAYERS)
    hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(OWL_PLAYERS)}
    held = {p: list(cards) for p, cards in hands.items()}
    tricks = []
    for _ in range(size):
        played: list[str] = []
        for player in oa.seating_from(OWL_PLAYERS, lead):
            choice = rng.choice(oa.legal_cards(held[player], played, mode="advanced"))
            held[player].remove(choice)
            played.append(choice)
        tricks.append({"lead": lead, "cards": played})
        winner = oa.trick_progress(mode="advanced", players=OWL_PLAYERS, lead=lead, cards=played)
        assert winner.winner is not None
        lead = winner.winner
    return {"tricks": tricks, "hands": hands}, lead


def forget_owl_rounds() -> None:
    """Forget every Owl About round remembered as checked (nothing to forget in a tree
    without that memory, so that the same script measures the code before it)."""
    forget = getattr(owl_about, "forget_checked_rounds", None)
    if forget is not None:
        forget()


def maximal_owl_about(target: int = oa.MAX_TARGET) -> dict[str, Any]:
    """Six players, the highest target, every variant, and rounds until the game ends."""
    rng = random.Random(SEED)
    state: dict[str, Any] = {
        "players": OWL_PLAYERS,
        "mode": "advanced",
        "variants": ["same-speed", "night-collection"],
        "target": target,
        "rounds": [],
    }
    lead = OWL_PLAYERS[0]
    game = GAMES["owl-about"]
    while not game.score(state).finished:
        played, lead = owl_round(rng, lead)
        state["rounds"].append(played)
    return valid("owl-about", state)


# --- Lucky's Misadventures: four players sharing every scoring card of the box ----------

LUCKY_PLAYERS = ["Lewis", "Carol", "Dot", "Ed"]


def maximal_luckys() -> dict[str, Any]:
    """Four decks holding every Maven, Junk, Machine and Hireling; all 14 rounds entered."""
    decks: dict[str, dict[str, Any]] = {
        p: {"lucky": 1, "hirelings": {}, "mavens": [], "junk": [], "machines": []}
        for p in LUCKY_PLAYERS
    }
    seat = 0

    def next_deck() -> dict[str, Any]:
        nonlocal seat
        seat += 1
        return decks[LUCKY_PLAYERS[seat % len(LUCKY_PLAYERS)]]

    for kind, (_name, _faction, copies) in lf.HIRELINGS.items():
        for _ in range(copies):
            hirelings = next_deck()["hirelings"]
            hirelings[kind] = hirelings.get(kind, 0) + 1
    vps = list(lf.MAVEN_VP_RANGE)
    for faction, copies in lf.MAVENS.items():
        for number in range(copies):
            maven = {
                "name": f"{faction} {number}",
                "faction": faction.value,
                "vp": vps[number % 5],
            }
            next_deck()["mavens"].append(maven)
    # Machines are built while the box's Junk lasts (trashed Junk is gone from the game):
    # the decks hold the rest of the box.
    trashed: dict[str, int] = {}
    for machine in lf.MACHINES.values():
        for _ in range(machine.copies):
            need = {junk: machine.junk.count(junk) for junk in machine.junk}
            if any(trashed.get(j, 0) + n > lf.JUNK[j][1] for j, n in need.items()):
                continue
            next_deck()["machines"].append(machine.key)
            for junk, count in need.items():
                trashed[junk] = trashed.get(junk, 0) + count
    for kind, (_name, copies) in lf.JUNK.items():
        for number in range(max(0, copies - trashed.get(kind, 0))):
            vp = lf.GIZMO_VP if kind == lf.JunkKind.CLOCKWORK_GIZMO else number % 10
            next_deck()["junk"].append({"kind": kind, "vp": vp})
    fate = list(lf.FATE)
    rng = random.Random(SEED)
    rounds = []
    for _half in range(lf.ROUNDS // lf.ROUNDS_PER_HALF):
        rng.shuffle(fate)
        rounds += [
            fate[i * lf.FATE_PER_ROUND : (i + 1) * lf.FATE_PER_ROUND]
            for i in range(lf.ROUNDS_PER_HALF)
        ]
    state = {
        "players": LUCKY_PLAYERS,
        "decks": decks,
        "toad": LUCKY_PLAYERS[0],
        # The seating order from the last seat (the Feed the Toad! holder at the end).
        "final_turn_order": [*LUCKY_PLAYERS[-1:], *LUCKY_PLAYERS[:-1]],
        "rounds": rounds,
    }
    return valid("luckys-misadventures", state)


# --- Oddland: the biggest map, and a long play-along game -------------------------------

ODDLAND_PLAYERS = ["Ann", "Ben", "Cy", "Dan", "Eve"]
TERRAINS = "FSWM"
CARDS_WIDE = 6


def maximal_oddland(rng: random.Random) -> tuple[dict[str, Any], list[str], list[ol.Token]]:
    """All 37 cards (148 spaces): the score request with the 30 tokens five players
    place, and the 35 tokens of the box for the analysis alone."""
    rows = maximal_rows(rng)
    box = spread_tokens(rows, ol.MAX_TOKENS, rng)
    tokens = [ol.Token(t["player"], t["species"], tuple(map(tuple, t["cells"]))) for t in box]
    legal = spread_tokens(rows, len(ODDLAND_PLAYERS) * 6, rng)
    request = {
        "players": ODDLAND_PLAYERS,
        "map": rows,
        "tokens": legal,
        # The box has 6 species cards: the 6 one-space species the tokens use.
        "sides": dict.fromkeys(
            [key for key in ol.species.SPECIES if key not in ol.species.TWO_SPACE_SPECIES], "A"
        ),
        "definitions": DEFINITIONS,
    }
    return valid("oddland", request), rows, tokens


def play_along_cards(rng: random.Random) -> list[dict[str, Any]]:
    """A whole five-player game in reading order: the 2 set-up cards (no token), then 30
    turns, clockwise, each placing a token until every supply is spent."""
    turns: list[ol.TurnModel] = []
    species = [key for key in ol.species.SPECIES if key not in ol.species.TWO_SPACE_SPECIES]
    supply = ol.species.tokens_per_player(len(ODDLAND_PLAYERS))
    for number in range(ol.SETUP_CARDS + supply * len(ODDLAND_PLAYERS)):
        rows, tokens, _ = ol.replay(turns, players=ODDLAND_PLAYERS)
        at = [2 * (number // CARDS_WIDE), 2 * (number % CARDS_WIDE)]
        owner = ODDLAND_PLAYERS[(number - ol.SETUP_CARDS) % len(ODDLAND_PLAYERS)]
        chosen = None
        while chosen is None:  # terrains drawn again until a token of theirs fits
            terrains = ["".join(rng.choice(TERRAINS) for _ in range(2)) for _ in range(2)]
            card = {"at": at, "terrains": terrains}
            if number < ol.SETUP_CARDS:
                chosen = ol.TurnModel.model_validate({"card": card})
                break
            options = [
                {"player": owner, "species": kind, "cells": [[at[0] + dr, at[1] + dc]]}
                for kind in species
                for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))
            ]
            for token in options:
                trial = ol.TurnModel.model_validate({"card": card, "token": token})
                if not ol.check_turn(rows, trial, tokens=tokens, players=ODDLAND_PLAYERS):
                    chosen = trial
                    break
        turns.append(chosen)
    return [turn.model_dump(exclude_none=True) for turn in turns]


def play_along_state(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A play-along game as the app stores it."""
    state = GAMES["oddland"].new_state(ODDLAND_PLAYERS, {ol.PLAY_ALONG_OPTION: True})
    return valid("oddland", {**state, "cards": cards})


def forget_replays() -> None:
    """Forget every remembered replay (nothing to forget in a tree without the cache, so
    that the same script measures the code before it)."""
    replays = getattr(placement, "REPLAYS", None)
    if replays is not None:
        replays.clear()


def cold(function: Callable[[], object]) -> Callable[[], object]:
    """``function`` with no replay remembered (every card laid again)."""

    def call() -> object:
        forget_replays()
        return function()

    return call


def play_along_figures(cards: list[dict[str, Any]]) -> list[Figure]:
    """One request's replay late in the game: the same cards again (any request that
    changes nothing, a page or a poll), one more card, and one card taken back."""
    game = GAMES["oddland"]
    last, before = play_along_state(cards), play_along_state(cards[:-1])
    shorter = play_along_state(cards[:-2])
    tokens = sum(1 for card in cards if "token" in card)
    what = f"{len(cards)} cards, {tokens} tokens"

    def seen(*states: dict[str, Any]) -> Callable[[], None]:
        def prepare() -> None:
            forget_replays()
            for state in states:
                game.score(state)

        return prepare

    return [
        Figure(
            f"Oddland play-along GAME.score, {what}, every card laid again",
            timed_after(forget_replays, lambda: game.score(last), 10),
            None,
        ),
        Figure(
            f"Oddland play-along GAME.score, {what}, cards seen before",
            per_call_ms(lambda: game.score(last), 200),
            REPLAY_BUDGET,
        ),
        # The phones saw the game before the card was laid; the new card is laid on it.
        Figure(
            "Oddland play-along GAME.score after one more card",
            timed_after(seen(before), lambda: game.score(last), 20),
            REPLAY_BUDGET,
        ),
        # The shorter game was shown before the undone card was laid.
        Figure(
            "Oddland play-along GAME.score after an undo",
            timed_after(seen(shorter, before), lambda: game.score(shorter), 20),
            REPLAY_BUDGET,
        ),
    ]


def page_figures(cards: list[dict[str, Any]]) -> list[Figure]:
    """The play-along page late in the game, through the test client (for reference: it
    includes drawing the map)."""
    from companion import create_app
    from companion.extensions import db
    from companion.models import Table
    from companion.services import plays
    from support.client import create_table

    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    links = create_table(client, ODDLAND_PLAYERS)
    with app.app_context():
        table = db.session.scalars(db.select(Table)).one()
        play = plays.start_play(table, "oddland", options={ol.PLAY_ALONG_OPTION: True})
        plays.replace_values(
            play, changes=[("cards", cards, plays.UNCHECKED)], author=plays.Author("bench")
        )
        url = f"/t/{links.edit}/plays/{play.id}"
    assert client.get(url).status_code == 200
    warm = per_call_ms(lambda: client.get(url), 20)
    every_card = per_call_ms(cold(lambda: client.get(url)), 10)
    return [
        Figure("Oddland play-along page (test client), cards seen before", warm, None),
        Figure("  (the same, every card laid again)", every_card, None),
    ]


def main() -> None:
    """Print the table of figures."""
    rng = random.Random(SEED)
    figures: list[Figure] = []

    def score(label: str, slug: str, state: dict[str, Any], budget: float) -> None:
        game = GAMES[slug]
        figures.append(Figure(label, per_call_ms(lambda: game.score(state), 300), budget))

    world = valid("odd-world", maximal_odd_world())
    score("Odd World GAME.score, 5 players, all 72 cards", "odd-world", world, SCORE_BUDGET)
    owl = maximal_owl_about()
    score(
        f"Owl About GAME.score, 6 players, {len(owl['rounds'])} rounds played with hands",
        "owl-about",
        owl,
        SCORE_BUDGET,
    )
    # Each request of a game sends its rounds again: those seen before are remembered.
    # The same state with every round checked and every trick judged again:
    owl_game = GAMES["owl-about"]

    def owl_cold() -> object:
        forget_owl_rounds()
        return owl_game.score(owl)

    figures.append(
        Figure("  (the same, every round checked again)", per_call_ms(owl_cold, 300), None)
    )
    usual = maximal_owl_about(oa.default_target(len(OWL_PLAYERS)))
    score(
        f"Owl About GAME.score, 6 players, the chart's target ({len(usual['rounds'])} played)",
        "owl-about",
        usual,
        SCORE_BUDGET,
    )
    luckys = maximal_luckys()
    score(
        "Lucky's GAME.score, 4 players, every scoring card, 14 rounds",
        "luckys-misadventures",
        luckys,
        SCORE_BUDGET,
    )
    city = valid("oddville", big_city())
    score("OddVille GAME.score, 4 players, 60-card city", "oddville", city, SCORE_BUDGET)
    request, rows, tokens = maximal_oddland(rng)
    score(
        "Oddland GAME.score, 5 players, 148 spaces, 30 tokens (with its analysis)",
        "oddland",
        request,
        ANALYSIS_BUDGET,
    )
    figures.append(
        Figure(
            "Oddland analysis, 148 spaces, 35 tokens (territories + token facts)",
            per_call_ms(lambda: ol.token_facts(ol.analyse_map(rows, tokens)), 100),
            ANALYSIS_BUDGET,
        )
    )
    table = ol.parse(request)
    figures.append(
        Figure(
            "Oddland scoring alone, 30 tokens (analysis done)",
            per_call_ms(lambda: ol.score_table(table), 300),
            SCORE_BUDGET,
        )
    )
    cards = play_along_cards(rng)
    figures += play_along_figures(cards)
    figures += page_figures(cards)

    print("| figure | time | budget | verdict |")
    print("|---|---|---|---|")
    for figure in figures:
        print(figure.line())


if __name__ == "__main__":
    main()
