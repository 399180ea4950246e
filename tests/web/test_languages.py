"""Each phone in its own language (issue 36): ``Accept-Language`` picks it, the switch at
the foot of every page overrides it and is remembered, ``<html lang>`` says it; what is
stored or kept for several phones never freezes one phone's language."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from companion.config import LANGUAGES
from companion.extensions import db
from companion.games import text
from companion.models import Play, Table
from companion.services import plays, table_results, tables
from companion.web.cache import Cache
from companion.web.languages import translations
from support.client import HTMX, create_table, csrf, edit, start_play

HTML_LANG = re.compile(r'<html lang="([a-z]+)"')
GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def html_lang(client: FlaskClient, url: str = "/", **headers: str) -> str:
    found = HTML_LANG.search(client.get(url, headers=headers).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def switch(
    client: FlaskClient, lang: str, *, back: str = "/", referrer: str | None = None
) -> TestResponse:
    """Press a button of the language switch on the page ``back``."""
    headers = {"Referer": referrer} if referrer else {}
    data = {"lang": lang, "next": back, "csrf_token": csrf(client)}
    return client.post("/language", data=data, headers=headers)


@pytest.mark.parametrize(
    ("accepted", "language"),
    [
        ("", "en"),
        ("de", "de"),
        ("fr-CA,fr;q=0.8", "fr"),
        ("es-419", "es"),
        ("it,es;q=0.5", "es"),
        ("ja", "en"),
        ("en-GB,de;q=0.9", "en"),
        ("de;q=0,fr;q=0.1", "fr"),
    ],
)
def test_the_phone_s_accept_language_picks_the_language(
    client: FlaskClient, accepted: str, language: str
) -> None:
    answer = client.get("/rules", headers={"Accept-Language": accepted})
    found = HTML_LANG.search(answer.get_data(as_text=True))
    assert found is not None
    assert found.group(1) == language
    assert answer.headers["Content-Language"] == language
    assert "Accept-Language" in answer.headers["Vary"]


def test_every_page_offers_every_language_in_its_own_words(client: FlaskClient) -> None:
    page = client.get("/help", headers=GERMAN).get_data(as_text=True)
    form = re.search(r'<form class="languages".*?</form>', page, re.S)
    assert form is not None
    buttons = re.findall(r"<button ([^>]*)>([^<]+)</button>", form.group(0))
    assert [name for _, name in buttons] == list(LANGUAGES.values())
    for (attributes, _name), code in zip(buttons, LANGUAGES, strict=True):
        assert f'name="lang" value="{code}" lang="{code}"' in attributes
        assert ('aria-current="true"' in attributes) == (code == "de")
    assert 'method="post"' in form.group(0)
    # A whole page load: a boosted swap would leave the old <html lang>.
    assert 'hx-boost="false"' in form.group(0)
    assert 'name="csrf_token"' in form.group(0)
    assert '<input type="hidden" name="next" value="/help">' in form.group(0)


def test_the_switch_is_remembered_and_leads_back_to_the_same_page(client: FlaskClient) -> None:
    searched = "http://companion.test/rules/search?q=tie"
    answer = switch(client, "fr", back="/rules/search", referrer=searched)
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/rules/search?q=tie"
    # The pick wins over the phone's Accept-Language, on every page after.
    assert html_lang(client, "/", **GERMAN) == "fr"
    assert html_lang(client, "/help") == "fr"
    assert switch(client, "en", back="/help").headers["Location"] == "/help"
    assert html_lang(client, "/", **GERMAN) == "en"


def test_the_switch_needs_no_referrer(client: FlaskClient) -> None:
    assert switch(client, "es", back="/join").headers["Location"] == "/join"
    # A referrer from another page than ``next`` (or another host) is not followed.
    elsewhere = switch(client, "es", back="/join", referrer="http://evil.example/join?x=1")
    assert elsewhere.headers["Location"] == "/join"
    other = switch(client, "es", back="/join", referrer="http://companion.test/help?x=1")
    assert other.headers["Location"] == "/join"


@pytest.mark.parametrize(
    "back",
    ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:x", "rules"],
)
def test_the_switch_never_leads_off_the_site(client: FlaskClient, back: str) -> None:
    answer = switch(client, "de", back=back)
    assert answer.status_code == 400
    assert "Location" not in answer.headers
    assert html_lang(client) == "en"  # nothing was kept


def test_only_a_shipped_language_is_kept(client: FlaskClient) -> None:
    assert switch(client, "xx").status_code == 400
    assert html_lang(client) == "en"


def test_the_switch_needs_the_csrf_token(client: FlaskClient) -> None:
    answer = client.post("/language", data={"lang": "de", "next": "/"})
    assert answer.status_code == 400
    assert html_lang(client) == "en"


def test_a_table_s_links_stay_language_neutral(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    page = client.get(f"/t/{links.edit}", headers=GERMAN).get_data(as_text=True)
    addresses = re.findall(r'(?:href|value)="([^"]*/t/[^"]*)"', page)
    assert addresses
    assert not [a for a in addresses if re.search(r"[?&](lang|locale)=|/(de|fr|es)/", a)]


def test_error_pages_speak_the_phone_s_language(client: FlaskClient) -> None:
    answer = client.get("/no/such/page", headers=GERMAN)
    assert answer.status_code == 404
    said = answer.get_data(as_text=True)
    assert translations("de").gettext("Not found") in said
    assert "Nothing is at this address" not in said


def test_the_offline_page_and_the_manifest_in_the_language_asked(client: FlaskClient) -> None:
    for code in LANGUAGES:
        assert html_lang(client, f"/offline?lang={code}", **GERMAN) == code
        page = client.get(f"/offline?lang={code}").get_data(as_text=True)
        assert translations(code).gettext("No connection") in page
        manifest = client.get(f"/manifest.webmanifest?lang={code}").get_json()
        assert manifest["lang"] == code
        description = manifest["description"]
        assert description == translations(code).gettext(
            "Score, referee and total five small card games at the table, on every phone."
        )
    # Without ``lang``, the browser's language; an unknown one is ignored.
    assert client.get("/manifest.webmanifest", headers=GERMAN).get_json()["lang"] == "de"
    assert client.get("/manifest.webmanifest?lang=xx").get_json()["lang"] == "en"
    page = client.get("/", headers=GERMAN).get_data(as_text=True)
    assert 'href="/manifest.webmanifest?lang=de"' in page


def test_the_service_worker_keeps_the_offline_page_in_every_language(client: FlaskClient) -> None:
    script = client.get("/sw.js").get_data(as_text=True)
    found = re.search(r"var LANGUAGES = (\[[^\]]*\]);", script)
    assert found is not None
    assert json.loads(found.group(1)) == list(LANGUAGES)
    assert 'OFFLINE + "?lang=" + language' in script


def test_a_poll_that_finds_nothing_new_looks_no_language_up(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    found = re.search(r'hx-get="([^"]*/poll\?[^"]*)"', page)
    assert found is not None
    answer = client.get(found.group(1).replace("&amp;", "&"), headers={**HTMX, **GERMAN})
    assert answer.status_code == 204
    assert "Content-Language" not in answer.headers
    assert "Vary" not in answer.headers


def test_stored_results_are_english_whatever_the_phone_s_language(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    path = "players[0].display.hoopoe"
    assert edit(client, links.edit, play_id, path=path, value="3").status_code == 200
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert "Wiedehopf" in page
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        labels = [line["label"] for s in play.result["standings"] for line in s["breakdown"]]
        assert "Hoopoe: 3 cards (odd)" in labels
        assert not [label for label in labels if "Wiedehopf" in label]


def test_a_table_s_results_are_kept_per_language(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)
    path = "players[0].display.hoopoe"
    assert edit(client, links.edit, play_id, path=path, value="3").status_code == 200
    store: Cache[object] = Cache(64)
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        plays.set_status(play, finished=True, author=plays.Author(device="test"))
        table = tables.with_everything_shown(db.session.scalars(select(Table)).one())

        def labels() -> list[str]:
            kept = table_results.table_results(table, store).plays[play_id]
            assert kept is not None
            return [line["label"] for s in kept["standings"] for line in s["breakdown"]]

        english = labels()
        with text.speaking(translations("de")):
            german = labels()
        assert "Hoopoe: 3 cards (odd)" in english
        assert "Wiedehopf: 3 Karten (ungerade)" in german
        assert labels() == english
