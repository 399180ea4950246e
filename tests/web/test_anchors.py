"""Without JavaScript a tap's redirect returns to the place tapped, in every game."""

from __future__ import annotations

from flask.testing import FlaskClient

from support.client import create_table, csrf
from support.oddland import start_oddland
from support.owl_about import act, page, picker_fields, start_owl, start_round


def test_owl_about_taps_land_back_on_the_trick_and_the_penalties(client: FlaskClient) -> None:
    links = create_table(client, ["Miu", "Carol", "Tom"])
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Miu")
    html = page(client, links.edit, play_id)
    assert 'owl-about/card#trick"' in html
    fields = picker_fields(html)
    card = act(
        client, links.edit, play_id, "card", {**fields, "card": "6", "anchor": "trick"}, htmx=False
    )
    assert card.status_code == 303
    assert card.headers["Location"].endswith("#trick")
    penalty = act(
        client, links.edit, play_id, "penalty", {"player": "Tom", "anchor": "penalties-title"},
        htmx=False,
    )  # fmt: skip
    assert penalty.headers["Location"].endswith("#penalties-title")


def test_oddland_paint_lands_back_on_the_map(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddland(client, links.edit)
    html = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert 'oddland/map#ol-map-title"' in html
    data = {"csrf_token": csrf(client, f"/t/{links.edit}"), "tool": "F", "cell": "0,0,."}
    data["anchor"] = "ol-map-title"
    painted = client.post(f"/t/{links.edit}/plays/{play_id}/oddland/map", data=data)
    assert painted.status_code == 303, painted.get_data(as_text=True)
    assert painted.headers["Location"].endswith("#ol-map-title")
