"""Owl About pages: the options before a game, playing along card by card, rounds,
trophies, penalties, hands, and the standalone trick checker.

A card tap answers with the trick fragment only (``games/owl-about/_trick.html``), so
the phone that tapped updates at once; the other phones, and the rest of this one, get
the change through the play page's poll. Every other action answers with the whole play
fragment. Without JavaScript, forms post and are redirected back to the play page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import Blueprint, abort, request
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from companion.games import owl_about as oa
from companion.games.base import InvalidStateError, Problem, listed_problems, problem_messages
from companion.models import Play
from companion.services import owl_about as service
from companion.services import plays
from companion.services.tables import TableAccess
from companion.web import context as shared
from companion.web.game_pages import GamePages, OptionsForm
from companion.web.render import page_or_fragment, wants_fragment

bp = Blueprint("owl_about", __name__)


SLUG = oa.SLUG
UNPROCESSABLE = HTTPStatus.UNPROCESSABLE_ENTITY.value
CONFLICT = HTTPStatus.CONFLICT.value
PLAY_FRAGMENT = shared.PLAY_FRAGMENT
TRICK_FRAGMENT = "games/owl-about/_trick.html"
CHECKER_PAGE = "games/owl-about/checker.html"
CHECKER_FRAGMENT = "games/owl-about/_checker.html"
#: Cards in the order of the picker: day cards by speed, then the night cards.
PICKER = tuple(oa.DECK)
MODE_LABELS = {
    oa.Mode.BASIC: "Basic",
    oa.Mode.QUICK: "Quick (all play at once)",
    oa.Mode.ADVANCED: "Advanced (special effects)",
}
MODE_HINT = (
    "Basic: follow speed, highest FP takes the trick. Quick: everyone plays at once and "
    "the highest FP nobody else has wins, else the lead. Advanced: basic plus the cards' "
    "special effects, which may hand a trick to someone else, and optional variants."
)
VARIANT_LABELS = {
    oa.Variant.SAME_SPEED: "Same speed: +1 VP for taking a trick of equal speeds",
    oa.Variant.NIGHT_COLLECTION: "Night collection: 3 night cards void the round, 4 reset to 0",
}


# --- the options form -------------------------------------------------------------------


class OwlAboutOptions(OptionsForm):
    """Mode, advanced variants and the target VP (blank: the player chart's)."""

    mode = SelectField(
        "Mode",
        description=MODE_HINT,
        choices=[SelectChoice(m.value, label) for m, label in MODE_LABELS.items()],
        default=oa.Mode.BASIC.value,
    )
    variants = SelectMultipleField(
        "Variants (advanced mode only)",
        choices=[SelectChoice(v.value, label) for v, label in VARIANT_LABELS.items()],
        option_widget=CheckboxInput(),
        widget=ListWidget(prefix_label=False),
        validate_choice=True,
    )
    target = IntegerField(
        "Target VP",
        validators=[
            Optional(),
            NumberRange(min=1, max=999, message="Enter a target from 1 to 999 VP."),
        ],
    )

    def validate_variants(self, field: Any) -> None:
        """Variants belong to the advanced mode."""
        if field.data and self.mode.data != oa.Mode.ADVANCED:
            raise ValidationError("Variants are only played in advanced mode.")

    def options(self) -> dict[str, Any]:
        """The engine's options; a blank target takes the chart's default."""
        chosen: dict[str, Any] = {"mode": self.mode.data, "variants": list(self.variants.data)}
        if self.target.data is not None:
            chosen["target"] = self.target.data
        return chosen


# --- forms of the play page -------------------------------------------------------------


class CardForm(FlaskForm):
    """One tap on the card picker: the card, and the trick as this phone showed it."""

    rounds = IntegerField(validators=[InputRequired()])
    trick = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    seen = HiddenField()
    card = StringField(validators=[InputRequired("Pick a card.")])

    def validate_card(self, field: Any) -> None:
        """A card of the deck."""
        if field.data not in oa.DECK:
            raise ValidationError("Pick a card from 1 to 10 or Night 4 to 7.")

    @property
    def seen_cards(self) -> list[str]:
        """The cards of the trick the phone showed."""
        return (self.seen.data or "").split()


class LeadForm(FlaskForm):
    """Who leads: a new round's first trick, or the first trick before its first card."""

    rounds = IntegerField(validators=[InputRequired()])
    lead = StringField(validators=[InputRequired("Pick who leads.")])


class OverrideForm(FlaskForm):
    """A special effect handed a trick to someone else (empty: the cards decide)."""

    rounds = IntegerField(validators=[InputRequired()])
    trick = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    winner = StringField()


class PlayerForm(FlaskForm):
    """An action for one player (a penalty)."""

    player = StringField(validators=[InputRequired("Pick a player.")])


class HandForm(FlaskForm):
    """A player's hand after the draft, typed as card codes."""

    player = StringField(validators=[InputRequired("Pick a player.")])
    hand = StringField("Hand")


class TrophiesForm(FlaskForm):
    """Quick entry: a round as trophies per player, in seating order."""

    round = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    rounds = IntegerField(validators=[InputRequired()])
    trophies = FieldList(
        IntegerField(
            validators=[
                InputRequired("Enter a number of trophies (0 or more)."),
                NumberRange(min=0, message="Trophies cannot be negative."),
            ]
        )
    )


# --- helpers ----------------------------------------------------------------------------


def _owl_play(found: TableAccess, play_id: int) -> Play:
    current: Play = shared.play_of(found, play_id)
    if current.game != SLUG:
        abort(404)
    return current


def _form_errors(form: FlaskForm) -> str:
    messages = [m for errors in form.errors.values() for m in _flatten(errors)]
    return " ".join(messages) or "This action is not valid."


def _flatten(errors: Any) -> list[str]:
    if isinstance(errors, str):
        return [errors]
    if isinstance(errors, Mapping):
        errors = list(errors.values())
    return [m for item in errors for m in _flatten(item)] if isinstance(errors, list) else []


@dataclass(frozen=True)
class Outcome:
    """How an action went: its status, the errors by key, a conflict."""

    status: int = 200
    errors: Mapping[str, str] | None = None
    conflict: plays.EditConflict | None = None


def _run(key: str, action: Callable[[], object]) -> Outcome:
    """Run a service action; turn refusals and conflicts into messages at ``key``."""
    try:
        action()
    except plays.EditRefused as refused:
        return Outcome(UNPROCESSABLE, {key: " ".join(problem_messages(refused.problems))})
    except plays.EditConflict as clash:
        return Outcome(CONFLICT, {key: clash.message}, clash)
    except plays.WriteContention:
        return Outcome(CONFLICT, {key: "Many phones are editing at once; try again."})
    return Outcome()


def _respond(
    found: TableAccess, current: Play, outcome: Outcome, *, fragment: str = PLAY_FRAGMENT
) -> Response:
    """htmx gets the fragment; a plain post is redirected back (or shown with its error)."""
    return shared.play_response(
        found,
        current,
        status=outcome.status,
        errors=dict(outcome.errors or {}),
        fragment=fragment,
        trick_conflict=outcome.conflict,
        # A trick fragment alone also refreshes the play's buttons (Undo, history count).
        oob_actions=fragment == TRICK_FRAGMENT and wants_fragment(),
    )


def _act(
    token: str,
    play_id: int,
    form: FlaskForm,
    *,
    key: str,
    action: Callable[[Play, plays.Author], object],
    fragment: str = PLAY_FRAGMENT,
) -> Response:
    """The shape of every play-page action: check access and the form, run, answer."""
    found = shared.open_for_edit(token)
    current = _owl_play(found, play_id)
    if not form.validate():
        outcome = Outcome(UNPROCESSABLE, {key: _form_errors(form)})
    else:
        author = shared.author_of(found)
        outcome = _run(key, lambda: action(current, author))
    return _respond(found, current, outcome, fragment=fragment)


# --- play-page actions ------------------------------------------------------------------


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/card")
def play_card(token: str, play_id: int) -> Response:
    """One card tap: the next player's card goes down (answers with the trick fragment)."""
    form = CardForm()
    return _act(
        token,
        play_id,
        form,
        key="card",
        fragment=TRICK_FRAGMENT,
        action=lambda play, author: service.play_card(
            play,
            rounds_seen=form.rounds.data or 0,
            trick=form.trick.data or 0,
            seen=form.seen_cards,
            code=form.card.data or "",
            author=author,
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/round")
def start_round(token: str, play_id: int) -> Response:
    """Start the next round, played card by card, with the chosen lead."""
    form = LeadForm()
    return _act(
        token,
        play_id,
        form,
        key="round",
        action=lambda play, author: service.start_round(
            play,
            rounds_seen=form.rounds.data or 0,
            lead=form.lead.data or "",
            author=author,
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/lead")
def set_lead(token: str, play_id: int) -> Response:
    """Change who leads the round's first trick, before its first card."""
    form = LeadForm()
    return _act(
        token,
        play_id,
        form,
        key="card",
        fragment=TRICK_FRAGMENT,
        action=lambda play, author: service.set_lead(
            play,
            rounds_seen=form.rounds.data or 0,
            lead=form.lead.data or "",
            author=author,
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/override")
def override(token: str, play_id: int) -> Response:
    """Advanced mode: a special effect gives the last trick to another player."""
    form = OverrideForm()
    return _act(
        token,
        play_id,
        form,
        key="winner",
        action=lambda play, author: service.override_winner(
            play,
            rounds_seen=form.rounds.data or 0,
            trick=form.trick.data or 0,
            winner=form.winner.data or None,
            author=author,
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/penalty")
def penalty(token: str, play_id: int) -> Response:
    """A wrong card: +1 VP for a player in the current round."""
    form = PlayerForm()
    return _act(
        token,
        play_id,
        form,
        key="penalty",
        action=lambda play, author: service.add_penalty(
            play, player=form.player.data or "", author=author
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/hand")
def hand(token: str, play_id: int) -> Response:
    """Enter or clear a player's hand for this round (for the rule checks)."""
    form = HandForm()
    return _act(
        token,
        play_id,
        form,
        key=f"hand-{form.player.data}",
        action=lambda play, author: service.set_hand(
            play,
            player=form.player.data or "",
            raw=form.hand.data or "",
            author=author,
        ),
    )


@bp.post("/t/<token>/plays/<int:play_id>/owl-about/trophies")
def trophies(token: str, play_id: int) -> Response:
    """Quick entry: a whole round as trophies per player."""
    form = TrophiesForm()

    def enter(play: Play, author: plays.Author) -> None:
        players = play.state["players"]
        counts = list(form.trophies.data)
        if len(counts) != len(players):
            raise plays.EditRefused([Problem("trophies", "Enter the trophies of every player.")])
        service.enter_trophies(
            play,
            round_index=form.round.data or 0,
            rounds_seen=form.rounds.data or 0,
            trophies=dict(zip(players, counts, strict=True)),
            author=author,
        )

    return _act(token, play_id, form, key="trophies", action=enter)


# --- the score chart ----------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 320, 160
CHART_PAD = 28
#: Distinct line styles so that colour is never the only difference between players.
CHART_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True)
class ChartLine:
    """One player's running total as a polyline, with where their label goes."""

    player: str
    points: str
    dash: str
    style: int
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Chart:
    """A small line chart of the running VP totals after each round."""

    width: int
    height: int
    lines: tuple[ChartLine, ...]
    target_y: float
    target: int
    top: int
    rounds: int
    x_ticks: tuple[tuple[float, int], ...]


@bp.app_template_global("owl_vp_chart")
def vp_chart(players: Sequence[str], totals: Sequence[Mapping[str, int]], target: int) -> Chart:
    """The chart of the totals after each round (round 0 = the start, everyone at 0)."""
    top = max([target, *(t for row in totals for t in row.values())])
    steps = max(len(totals), 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD

    def x(step: int) -> float:
        return round(CHART_PAD + inner_w * step / steps, 1)

    def y(value: int) -> float:
        return round(CHART_HEIGHT - CHART_PAD - inner_h * value / top, 1)

    lines = []
    for index, name in enumerate(players):
        values = [0, *(row[name] for row in totals)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        lines.append(
            ChartLine(
                name,
                points,
                CHART_DASHES[index % len(CHART_DASHES)],
                index % len(CHART_DASHES),
                x(len(values) - 1),
                y(values[-1]),
            )
        )
    ticks = tuple((x(i), i) for i in range(len(totals) + 1))
    return Chart(
        CHART_WIDTH, CHART_HEIGHT, tuple(lines), y(target), target, top, len(totals), ticks
    )


# --- the trick checker ---------------------------------------------------------------------

CHECKER_PLAYERS = tuple(range(oa.MIN_PLAYERS, oa.MAX_PLAYERS + 1))
DEFAULT_CHECKER_PLAYERS = 4


def _seat_names(count: int) -> list[str]:
    """The checker's players: the lead, then clockwise."""
    return ["Lead", *(f"Player {i}" for i in range(2, count + 1))]


@dataclass
class CheckerInput:
    """The checker's query: player count, mode, cards in order, optional hands."""

    players: int
    mode: str
    cards: list[str]
    hands: dict[str, str]
    errors: dict[str, str]


def _checker_input(args: Mapping[str, str]) -> CheckerInput:
    errors: dict[str, str] = {}
    count_text = args.get("players", str(DEFAULT_CHECKER_PLAYERS))
    count = int(count_text) if count_text.isdigit() else 0
    if count not in CHECKER_PLAYERS:
        errors["players"] = "Owl About is for 3 to 6 players."
        count = DEFAULT_CHECKER_PLAYERS
    mode = args.get("mode", oa.Mode.BASIC.value)
    if mode not in set(oa.Mode):
        errors["mode"] = "Pick basic, quick or advanced."
        mode = oa.Mode.BASIC.value
    cards = [c.upper() for c in args.get("cards", "").replace(",", " ").split()]
    if args.get("card"):
        cards.append(args["card"].upper())
    if args.get("drop") and cards:
        cards.pop()
    if args.get("clear"):
        cards = []
    hands = {
        name: args.get(f"hand-{i}", "").strip()
        for i, name in enumerate(_seat_names(count))
        if args.get(f"hand-{i}", "").strip()
    }
    return CheckerInput(count, mode, cards, hands, errors)


def _check(query: CheckerInput) -> dict[str, Any] | None:
    """The engine's answer for the checker (``None`` before the first card)."""
    if not query.cards:
        return None
    names = _seat_names(query.players)
    body = {
        "mode": query.mode,
        "lead": names[0],
        "players": names,
        "cards": query.cards,
        "hands": {
            name: oa.parse_hand(text, where=f"hand-{names.index(name)}")
            for name, text in query.hands.items()
        },
    }
    return oa.check_trick(body)


def _checker_errors(invalid: InvalidStateError, names: Sequence[str]) -> dict[str, str]:
    """Engine problems placed at the checker's fields (cards, or a hand)."""
    errors: dict[str, str] = {}
    # Listed problems only: a long list would bury the field it belongs to.
    for problem in listed_problems(invalid.problems)[0]:
        key = "cards"
        for i, name in enumerate(names):
            if problem.path.startswith((f"hands.{name}", f"hand-{i}")):
                key = f"hand-{i}"
        errors[key] = f"{errors[key]} {problem.message}" if key in errors else problem.message
    return errors


@bp.get("/owl-about/check")
def check() -> Response:
    """Who wins this trick? Pick the cards in order (and hands, to check the rules)."""
    query = _checker_input(request.args)
    names = _seat_names(query.players)
    errors = dict(query.errors)
    answer = None
    if not errors:
        try:
            answer = _check(query)
        except InvalidStateError as invalid:
            errors = _checker_errors(invalid, names)
    left = dict(oa.DECK)
    for code in query.cards:
        if code in left:
            left[code] -= 1
    return page_or_fragment(
        CHECKER_PAGE,
        CHECKER_FRAGMENT,
        status=UNPROCESSABLE if errors else 200,
        query=query,
        names=names,
        answer=answer,
        errors=errors,
        left=left,
        picker=PICKER,
        cards=oa.CARDS,
        modes=MODE_LABELS,
        counts=CHECKER_PLAYERS,
    )


#: What the pages add for Owl About (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(options_form=OwlAboutOptions, blueprint=bp)
