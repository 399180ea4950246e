"""Owl About through the API: every legal game is scored (never refused), however it was
played and sent, and each of its tricks is refereed alike (issue 34)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from support.owl_about_games import MOST_ROUNDS, games

SCORE = "/api/v1/games/owl-about/score"
TRICK = "/api/v1/games/owl-about/trick"


@settings(
    max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(state=games())
def test_every_legal_game_is_scored(client: FlaskClient, state: dict[str, Any]) -> None:
    response = client.post(SCORE, json=state)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    # The game is sent when a round ends with someone at the target, or while its last
    # round is being played (no round ends a game before it is complete).
    if state["rounds"][-1].get("open"):
        assert body["finished"] is False
    elif len(state["rounds"]) < MOST_ROUNDS:
        assert body["finished"] is True
    for standing in body["standings"]:
        assert sum(line["points"] for line in standing["breakdown"]) == standing["score"]
    assert body["readings"][0]["id"] == "owl-about/fewest-vp"
    scored = body["rounds"]
    for entered, result in zip(state["rounds"], scored, strict=True):
        complete = [t for t in entered["tricks"] or () if len(t["cards"]) == len(state["players"])]
        for trick, judged in zip(complete, result["tricks"], strict=True):
            answer = client.post(
                TRICK,
                json={
                    "mode": state["mode"],
                    "lead": trick["lead"],
                    "players": state["players"],
                    "cards": trick["cards"],
                },
            )
            assert answer.status_code == 200, answer.get_json()
            referee = answer.get_json()
            assert referee["fp"] == judged["fp"]
            assert trick.get("winner", referee["winner"]) == judged["winner"]
            readings = {r["id"] for r in referee.get("readings", [])}
            assert readings <= {r["id"] for r in body["readings"]}
