"""Odd World pages: the shared play page with the game's displays (no routes of its own:
steppers and the face-down picker post to the shared edit route)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import url_for
from markupsafe import Markup, escape

from companion.games import odd_world as engine
from companion.web.context import token_of
from companion.web.game_pages import GamePages, PlayPage
from companion.web.idempotency import csrf_input
from companion.web.rule_links import rule_link_html


def context(page: PlayPage) -> dict[str, Any]:
    """Each player's points for the display headings, the birds and the stepper's top,
    and the rows of a display (see :func:`bird_rows`)."""
    result = page.view.result
    points = {s["player"]: s["score"] for s in result["standings"]} if result else {}
    return {
        "points_of": points,
        "birds": engine.BIRDS,
        "most_cards": engine.CARDS_PER_BIRD,
        "bird_rows": _rows_for(page),
    }


#: One bird of a display with its stepper: a decrement, the typed count, an increment
#: (three small forms, so that each works without JavaScript).
_ROW = (
    '<li id="bird-{i}-{key}" class="bird{has}{odd}">\n'
    '      <span class="bird-name"><span class="pos">{pos}</span> {label}</span>\n'
    "{control}\n"
    "      {error}\n    </li>"
)
_STEPPER = (
    '      <div class="stepper">\n'
    '      <form{head} hx-disabled-elt="find button">{hidden}<button name="value" value="{less}"'
    ' aria-label="One fewer {label} for {name}" {none}>\u2212</button></form>\n'
    '      <form class="typed"{head} hx-trigger="change, submit" hx-sync="this:drop">{hidden}'
    '<input id="n-{i}-{key}" name="value" value="{n}" inputmode="numeric" pattern="[0-9]*"'
    ' maxlength="2" autocomplete="off" aria-label="{name}\'s {label}"{invalid}>\n'
    '        <noscript><button class="secondary">Set</button></noscript></form>\n'
    '      <form{head} hx-disabled-elt="find button">{hidden}<button name="value" value="{more}"'
    ' aria-label="One more {label} for {name}" {full}>+</button></form>\n'
    "      </div>"
)
_COUNT = '      <output class="count" aria-label="{name}\'s {label}">{n}</output>'


def _rows_for(page: PlayPage) -> Callable[..., list[Markup]]:
    """The rows of one player's display, written here rather than in the template: the
    36 rows of a 4-player page, each with three forms, were most of its rendering."""
    errors = page.errors

    def bird_rows(
        player: Mapping[str, Any], i: int, anchor: str, shown: list[str]
    ) -> list[Markup]:
        name = escape(player["name"])
        display = player.get("display", {})
        head = hidden_common = Markup("")
        if page.editable:
            edit_url = escape(
                url_for("pages.edit", token=token_of(page.table_access), play_id=page.play.id)
            )
            head = Markup(
                f' method="post" action="{edit_url}#{anchor}" hx-post="{edit_url}"'
                ' hx-target="#play" hx-swap="morph:outerHTML"'
            )
            seat = f'<input type="hidden" name="seat" value="{escape(page.seat)}">'
            hidden_common = Markup(
                f'{csrf_input()}{seat}<input type="hidden" name="anchor" value="{anchor}">'
            )
        rows = []
        for pos, (key, label) in enumerate(engine.BIRDS.items(), start=1):
            path = f"players[{i}].display.{key}"
            shown.append(path)
            n = display.get(key, 0)
            words = escape(label)
            if page.editable:
                hidden = (
                    f'{hidden_common}<input type="hidden" name="path" value="{path}">'
                    f'<input type="hidden" name="base" value="{n}">'
                )
                control = _STEPPER.format(
                    head=head, hidden=hidden, less=n - 1, more=n + 1, n=n, i=i, key=key,
                    label=words, name=name, none="disabled" if n == 0 else "",
                    full="disabled" if n >= engine.CARDS_PER_BIRD else "",
                    invalid=' aria-invalid="true"' if errors.get(path) else "",
                )  # fmt: skip
            else:
                control = _COUNT.format(name=name, label=words, n=n)
            row = _ROW.format(
                i=i, key=key, has=" has" if n else "", odd=" odd" if n % 2 else "", pos=pos,
                label=words, control=control, error=_error(errors.get(path)),
            )  # fmt: skip
            rows.append(page.live.piece(Markup(row)))
        return rows

    return bird_rows


def _error(message: str | None) -> Markup:
    """A refusal next to its field, as the ``error_for`` macro writes it."""
    if not message:
        return Markup("")
    rule = getattr(message, "rule", None)
    link = Markup(" ") + rule_link_html(rule) if rule else Markup("")
    return Markup('<p class="error" role="alert">{}{}</p>').format(message, link)


#: What the pages add for Odd World (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(context=context)
