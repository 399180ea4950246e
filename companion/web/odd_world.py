"""Odd World pages: the shared play page with the game's displays (no routes of its own:
steppers and the face-down picker post to the shared edit route)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import url_for
from markupsafe import Markup, escape

from companion.games import odd_world as engine
from companion.web.context import token_of
from companion.web.game_pages import GamePages, PlayPage
from companion.web.idempotency import csrf_input
from companion.web.rule_links import rule_link_html


def context(page: PlayPage) -> dict[str, Any]:
    """The display headings (each player's points), the birds and the stepper's top,
    and the rows of a display (see :func:`_rows_for`)."""
    return {
        "display_heading": _heading_maker(page),
        "display_anchor": _anchor,
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

    def bird_rows(
        player: Mapping[str, Any], i: int, anchor: str, shown: list[str]
    ) -> list[Markup]:
        row = _row_maker(page, player, i, anchor)
        rows = []
        for pos, key in enumerate(engine.BIRDS, start=1):
            shown.append(_count_path(i, key))
            rows.append(row(pos, key))
        return rows

    return bird_rows


def _count_path(i: int, key: str) -> str:
    return f"players[{i}].display.{key}"


def _row_maker(
    page: PlayPage, player: Mapping[str, Any], i: int, anchor: str
) -> Callable[[int, str], Markup]:
    """What draws one row of player ``i``'s display (the ``pos``-th bird, ``key``), as a
    piece of the page's panel."""
    errors = page.errors
    name = escape(player["name"])
    display = player.get("display", {})
    action = _edit_action(page, anchor) if page.editable else ""
    csrf = csrf_input() if page.editable else Markup("")

    def row(pos: int, key: str) -> Markup:
        path = _count_path(i, key)
        n = display.get(key, 0)
        words = escape(engine.BIRDS[key])
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
        markup = _ROW.format(
            i=i, key=key, has=" has" if n else "", odd=" odd" if n % 2 else "", pos=pos,
            label=words, control=control, error=_error(errors.get(path)),
        )  # fmt: skip
        return page.live.piece(Markup(markup))

    return row


#: A display's heading: whose it is and the points it makes now.
_HEADING = '<h2 id="display-{i}">{name} <span class="badge">{points} pt</span></h2>'


def _points_of(page: PlayPage) -> dict[str, int]:
    result = page.view.result
    return {s["player"]: s["score"] for s in result["standings"]} if result else {}


def _heading_maker(page: PlayPage) -> Callable[[Mapping[str, Any], int], Markup]:
    """What draws the heading of player ``i``'s display, as a piece of the panel."""
    points = _points_of(page)

    def display_heading(player: Mapping[str, Any], i: int) -> Markup:
        name = player["name"]
        heading = _HEADING.format(i=i, name=escape(name), points=points.get(name, 0))
        return page.live.piece(Markup(heading))

    return display_heading


#: An edit of one count of a display (``players[1].display.hoopoe``).
_COUNT_PATH = re.compile(r"players\[(\d+)\]\.display\.([a-z-]+)")


def entry_changes(page: PlayPage, paths: Sequence[str]) -> bool:
    """The pieces of the entry that an edit of display counts changes, drawn to the
    page's ``live``: each count's row, and the heading of every display shown (a count
    moves the points of other players too). False for any other edit (the face-down
    card, whose form is no piece of its own): the entry is then drawn whole."""
    players = page.play.state.get("players", [])
    wanted = []
    for path in paths:
        found = _COUNT_PATH.fullmatch(path)
        if found is None or found.group(2) not in engine.BIRDS:
            return False
        i = int(found.group(1))
        if i >= len(players) or page.seat not in ("all", i):
            return False
        wanted.append((i, found.group(2)))
    birds = list(engine.BIRDS)
    for i, key in wanted:
        _row_maker(page, players[i], i, _anchor(i))(birds.index(key) + 1, key)
    heading = _heading_maker(page)
    for i, player in enumerate(players):
        if page.seat in ("all", i):
            heading(player, i)
    return True


def _anchor(i: int) -> str:
    """Where a plain post of player ``i``'s display lands (its section's id)."""
    return f"player-{i}"


def _error(message: str | None) -> Markup:
    """A refusal next to its field, as the ``error_for`` macro writes it."""
    if not message:
        return Markup("")
    rule = getattr(message, "rule", None)
    link = Markup(" ") + rule_link_html(rule) if rule else Markup("")
    return Markup('<p class="error" role="alert">{}{}</p>').format(message, link)


#: What the pages add for Odd World (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(context=context, entry_changes=entry_changes)
