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
        "display_form": _display_form(page),
    }


#: One bird of a display with its stepper: a decrement, the typed count, an increment.
_ROW = (
    '<li id="bird-{i}-{key}" class="bird{has}{odd}">\n'
    '      <span class="bird-name"><span class="pos">{pos}</span> {label}</span>\n'
    "{control}\n"
    "      {error}\n    </li>"
)
#: The minus and plus buttons belong to their display's one form (``form=``, see
#: :func:`display_form`) and carry what they change in ``tap``: ``"<path> <value> <base>"``.
#: The typed count keeps a small form of its own, so that it sends only itself (a number
#: typed in another box of the display is not sent with it) and works without JavaScript.
_STEPPER = (
    '      <div class="stepper">\n'
    '      <button form="{form}" type="submit" name="tap" value="{path} {less} {n}"'
    ' aria-label="One fewer {label} for {name}" {none}>\u2212</button>\n'
    '      <form class="typed" method="post" action="{action}#{anchor}" hx-post="{action}"'
    ' hx-target="#play" hx-swap="morph:outerHTML" hx-trigger="change, submit"'
    ' hx-sync="this:drop">{csrf}<input type="hidden" name="path" value="{path}">'
    '<input type="hidden" name="base" value="{n}">'
    '<input id="n-{i}-{key}" name="value" value="{n}" inputmode="numeric" pattern="[0-9]*"'
    ' maxlength="2" autocomplete="off" aria-label="{name}\'s {label}"{invalid}>\n'
    '        <noscript><button class="secondary">Set</button></noscript></form>\n'
    '      <button form="{form}" type="submit" name="tap" value="{path} {more} {n}"'
    ' aria-label="One more {label} for {name}" {full}>+</button>\n'
    "      </div>"
)
_COUNT = '      <output class="count" aria-label="{name}\'s {label}">{n}</output>'
#: A display's one form for its steppers' buttons (they sit in the rows, outside it): no
#: fields of its own but the CSRF token; the seat and the anchor are in its address. While
#: a tap is on its way, the display's buttons wait (a second tap would carry a stale base).
_DISPLAY_FORM = (
    '<form id="{form}" class="taps" method="post" action="{action}#{anchor}"'
    ' hx-post="{action}" hx-target="#play" hx-swap="morph:outerHTML"'
    ' hx-disabled-elt="[form={form}]">{csrf}</form>'
)


def _edit_action(page: PlayPage, anchor: str) -> str:
    """The edit route with the phone's seat and where a plain post should land (read from
    the address as from a form field), escaped for an attribute."""
    edit_url = url_for(
        "pages.edit",
        token=token_of(page.table_access),
        play_id=page.play.id,
        seat=page.seat,
        anchor=anchor,
    )
    return str(escape(edit_url))


def _form_id(i: int) -> str:
    return f"d-{i}"


def _display_form(page: PlayPage) -> Callable[[int, str], Markup]:
    """The one form of player ``i``'s display (see ``_DISPLAY_FORM``)."""

    def display_form(i: int, anchor: str) -> Markup:
        if not page.editable:
            return Markup("")
        action = _edit_action(page, anchor)
        return Markup(
            _DISPLAY_FORM.format(form=_form_id(i), action=action, anchor=anchor, csrf=csrf_input())
        )

    return display_form


def _rows_for(page: PlayPage) -> Callable[..., list[Markup]]:
    """The rows of one player's display, written here rather than in the template: the
    36 rows of a 4-player page were most of its rendering."""
    errors = page.errors

    def bird_rows(
        player: Mapping[str, Any], i: int, anchor: str, shown: list[str]
    ) -> list[Markup]:
        name = escape(player["name"])
        display = player.get("display", {})
        action = _edit_action(page, anchor) if page.editable else ""
        csrf = csrf_input() if page.editable else Markup("")
        rows = []
        for pos, (key, label) in enumerate(engine.BIRDS.items(), start=1):
            path = f"players[{i}].display.{key}"
            shown.append(path)
            n = display.get(key, 0)
            words = escape(label)
            if page.editable:
                control = _STEPPER.format(
                    form=_form_id(i), action=action, anchor=anchor, csrf=csrf, path=path,
                    less=n - 1, more=n + 1, n=n, i=i, key=key, label=words, name=name,
                    none="disabled" if n == 0 else "",
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
