"""Hosting a table from a laptop: the app answers to the machine's own addresses and
names without configuration, builds the table's links from the address the phone used
(from the laptop's network address on the laptop itself), still refuses a forged Host,
and its help page says how to host a game night."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion import config, hosts
from companion.serve import LoopbackLinks, addresses_to_open, server_settings
from companion.web.pages import _qr_svg
from support.app import FORGED_HOST, local_app
from support.client import create_table
from support.links import parse

LAPTOP = "192.168.1.20"


@pytest.fixture
def on_a_home_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine as a laptop on a home Wi-Fi (its real interfaces are not known here)."""
    monkeypatch.setattr(hosts, "lan_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(hosts, "host_names", lambda: ["laptop", "laptop.local"])
    monkeypatch.setattr(hosts, "announces_local_name", lambda: True)


@pytest.mark.usefixtures("on_a_home_network")
def test_a_phone_using_the_laptops_address_gets_links_and_a_qr_code_with_it(
    tmp_path: Path, sqlite_template: Path
) -> None:
    with local_app(tmp_path, sqlite_template) as app:
        client = app.test_client()
        links = create_table(client, ["Ann", "Ben"])
        for host in (f"{LAPTOP}:5000", "laptop.local:5000", "laptop:5000"):
            page = client.get(f"/t/{links.edit}", headers={"Host": host})
            assert page.status_code == 200, host
            link = f"http://{host}/t/{links.edit}"
            body = page.get_data(as_text=True)
            assert f'value="{link}"' in body
            assert _qr_svg(link) in body
        refused = client.get(f"/t/{links.edit}", headers={"Host": FORGED_HOST})
        assert refused.status_code == 400


def test_the_machines_own_names_are_trusted_without_configuration() -> None:
    trusted = config._trusted_hosts({})
    assert trusted is not None
    assert trusted[:2] == ["127.0.0.1", "localhost"]
    assert set(hosts.own_names()) <= set(trusted)
    assert FORGED_HOST not in trusted
    # A name set on purpose wins over the machine's own.
    assert config._trusted_hosts({"SERVER_NAME": "odd.example"}) == [
        "odd.example",
        "127.0.0.1",
        "localhost",
    ]


@pytest.mark.usefixtures("on_a_home_network")
def test_on_the_laptop_itself_the_links_are_the_ones_other_phones_can_open(
    tmp_path: Path, sqlite_template: Path
) -> None:
    with local_app(tmp_path, sqlite_template) as app:
        app.wsgi_app = LoopbackLinks(app.wsgi_app, f"{LAPTOP}:5000")  # type: ignore[method-assign]
        client = app.test_client()
        links = create_table(client, ["Ann", "Ben"])
        laptop = {"REMOTE_ADDR": "127.0.0.1"}
        for host in ("127.0.0.1:5000", "localhost:5000"):
            page = client.get(f"/t/{links.edit}", headers={"Host": host}, environ_base=laptop)
            body = page.get_data(as_text=True)
            assert f'value="http://{LAPTOP}:5000/t/{links.edit}"' in body
            assert "127.0.0.1" not in body.split('id="edit-link"')[1][:200]
        # Someone else naming the loopback address is not rewritten (nor trusted more).
        other = {"REMOTE_ADDR": "192.168.1.31"}
        page = client.get(
            f"/t/{links.edit}", headers={"Host": "127.0.0.1:5000"}, environ_base=other
        )
        assert f'value="http://127.0.0.1:5000/t/{links.edit}"' in page.get_data(as_text=True)


@pytest.mark.usefixtures("on_a_home_network")
def test_run_announces_every_address_and_the_local_name() -> None:
    assert addresses_to_open(5000) == [f"http://{LAPTOP}:5000", "http://laptop.local:5000"]
    assert server_settings(False, 5000, 1024)["listen"] == "0.0.0.0:5000"
    assert server_settings(True, 5000, 1024)["listen"] == "127.0.0.1:5000"


def test_the_help_says_how_to_host_a_game_night(client: FlaskClient) -> None:
    page, body = parse(client, "/help/game-night")
    assert page.h1 == 1
    assert page.contents == [f"#{section}" for section in page.sections]
    for section in ("run", "join", "sleep", "keep", "home-or-public"):
        assert section in page.sections
    assert "./run" in body
    assert "--local" in body
    assert "same Wi-Fi" in body
    assert "https" in body
    help_home, _ = parse(client, "/help")
    assert "/help/game-night" in help_home.links
    response = client.get("/help/game-night")
    response.close()
    assert "X-Robots-Tag" not in response.headers
    for link in page.links:
        if link.startswith("/"):
            answer = client.get(link.split("#")[0])
            answer.close()
            assert answer.status_code == 200, link
