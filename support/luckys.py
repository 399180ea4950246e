"""Lucky's Misadventures through the pages, for tests: its play's addresses and forms."""

from __future__ import annotations

import html as html_lib
from typing import Any

from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.games.luckys import facts as f
from support.client import HTMX, csrf

SLUG = "luckys-misadventures"


def text(response: TestResponse) -> str:
    """An answer's markup, its character references read."""
    return html_lib.unescape(response.get_data(as_text=True))


def url(token: str, play_id: int, action: str = "") -> str:
    """The play's address, or one of its own forms' (``action``)."""
    base = f"/t/{token}/plays/{play_id}"
    return f"{base}/{SLUG}/{action}" if action else base


def post(
    client: FlaskClient, token: str, play_id: int, action: str, data: dict[str, object]
) -> TestResponse:
    """Send one of the play's own forms as htmx does, for everyone's view."""
    token_value = csrf(client, url(token, play_id) + "?seat=all")
    body = {"csrf_token": token_value, "seat": "all", **{k: str(v) for k, v in data.items()}}
    return client.post(url(token, play_id, action), data=body, headers=HTMX)


def maven(name: str, faction: str = "oddling", vp: int = 2) -> dict[str, Any]:
    return {"name": name, "faction": faction, "vp": vp}


NAMES = ["Lewis", "Carol", "Ann", "Ben"]


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """Valid tables of 2-4 players (counts within the box over all players)."""
    size = draw(st.integers(min_value=2, max_value=4))
    players = NAMES[:size]
    left_hirelings = {k: c for k, (_, _, c) in f.HIRELINGS.items()}
    left_junk = {k: c for k, (_, c) in f.JUNK.items()}
    left_machines = {k: m.copies for k, m in f.MACHINES.items()}
    decks = {}
    named_used: set[str] = set()
    for name in players:
        hirelings = {}
        for kind in f.HIRELINGS:
            n = draw(st.integers(0, min(3, left_hirelings[kind])))
            left_hirelings[kind] -= n
            hirelings[kind] = n
        machines = {}
        for key in f.MACHINES:
            # The Junk trashed to build a Machine is gone: only build what the box allows.
            need = f.junk_trashed({key: 1})
            can = min(left_junk[kind] // n for kind, n in need.items())
            n = draw(st.integers(0, min(1, left_machines[key], can)))
            left_machines[key] -= n
            for kind, used in need.items():
                left_junk[kind] -= used * n
            machines[key] = n
        junk = []
        for kind in f.JUNK:
            n = draw(st.integers(0, min(2, left_junk[kind])))
            left_junk[kind] -= n
            vp = 1 if kind == "clockwork-gizmo" else draw(st.integers(0, 4))
            junk.append({"kind": kind, "vp": vp, "count": n})
        mavens = draw(
            st.lists(
                st.builds(
                    maven,
                    st.sampled_from(["Pumpkin Ted", "Queen of Spades", "Greed", "Sprocket"]),
                    st.sampled_from([x.value for x in f.Faction]),
                    st.integers(2, 6),
                ),
                max_size=3,
            )
        )
        # Pumpkin Ted, the Queen of Spades and each Sister are single cards; the Sisters
        # are Wicked.
        kept = []
        for entry in mavens:
            key = f.maven_key(entry["name"])
            if key in f.NAMED_MAVENS:
                if key in named_used:
                    continue
                named_used.add(key)
            if key in f.THREE_SISTERS:
                entry["faction"] = f.SISTERS_FACTION.value
            kept.append(entry)
        mavens = kept
        decks[name] = {
            "lucky": draw(st.integers(0, 1)),
            "hirelings": hirelings,
            "mavens": mavens,
            "junk": junk,
            "machines": machines,
        }
    first = players.index(draw(st.sampled_from(players)))
    order = players[first:] + players[:first]  # clockwise from the Toad holder
    use_order = draw(st.booleans())
    return {
        "players": players,
        "escaped": None,
        "final_turn_order": list(order) if use_order else None,
        "decks": decks,
    }
