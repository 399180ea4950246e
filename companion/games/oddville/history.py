"""OddVille changes in words, for the edit history ("Ann's Diamond 5 added at row 2,
col 1"): which card of the city came, went, moved or changed, and who took a character."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.oddville.facts import CHARACTERS, KINDS, MAIN_SQUARE, Kind
from companion.games.oddville.state import place_words
from companion.games.text import _


def _at(card: Any) -> tuple[int, int] | None:
    at = card.get("at") if isinstance(card, Mapping) else None
    if isinstance(at, list) and len(at) == 2 and all(type(x) is int for x in at):
        return (at[0], at[1])
    return None


def card_words(card: Mapping[str, Any]) -> str:
    """What a card is, as people say it.

    >>> card_words({"owner": "Ann", "points": {"kind": "diamond", "value": 5}})
    "Ann's Diamond 5"
    >>> card_words({"points": {"kind": "row"}, "guild": "mask"})
    'a 2 + row card (mask)'
    """
    if card.get("card") == MAIN_SQUARE:
        return _("the Main Square")
    said = _owned(card.get("owner"), _card_name(card))
    # TRANSLATORS: a card and the key of its guild: "Ann's Diamond 5 (mask)".
    return _("%(card)s (%(guild)s)", card=said, guild=card["guild"]) if card.get("guild") else said


def _card_name(card: Mapping[str, Any]) -> tuple[str, bool]:
    """A card's name, and whether it is the bare word "card" (which needs no type)."""
    raw = card.get("points")
    points: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    kind = points.get("kind")
    if kind not in {k.value for k in Kind}:
        return "", False
    facts = KINDS[Kind(kind)]
    if points.get("value") is not None:
        # TRANSLATORS: a victory-point type and its printed value: "Diamond 5".
        return _("%(kind)s %(value)s", kind=_(facts.name), value=points["value"]), True
    return _(facts.short), False


def _owned(owner: Any, name: tuple[str, bool]) -> str:
    """A card as people say it: whose ("Ann's Diamond 5") or which ("a 2 + row card")."""
    text, valued = name
    if owner and valued:
        return _("%(player)s's %(card)s", player=owner, card=text)
    if owner and text:
        # TRANSLATORS: a card by the short name of its victory-point type: "Ann's 2 + row card".
        return _("%(player)s's %(kind)s card", player=owner, kind=text)
    if owner:
        return _("%(player)s's card", player=owner)
    if valued:
        return _("a %(card)s", card=text)
    if text:
        return _("a %(kind)s card", kind=text)
    return _("a card")


def city_change(previous: Any, value: Any) -> str | None:
    """One change of the city in words; ``None`` when it is not one card's change.

    >>> square = {"at": [0, 0], "card": "main-square", "owners": []}
    >>> new = {"at": [1, 0], "owner": "Ann", "points": {"kind": "diamond", "value": 5}}
    >>> city_change([square], [square, new])
    "Ann's Diamond 5 added at row 2, col 1"
    >>> city_change([square, new], [square, {**new, "at": [0, 1]}])
    "Ann's Diamond 5 moved from row 2, col 1 to row 1, col 2"
    """
    if not isinstance(previous, list) or not isinstance(value, list):
        return None
    cells = [at for at in map(_at, [*previous, *value]) if at is not None]
    left = min((c for _row, c in cells), default=0)
    before = {_at(card): card for card in previous}
    after = {_at(card): card for card in value}
    gone = [at for at in before if at not in after]
    came = [at for at in after if at not in before]
    changed = [at for at in after if at in before and after[at] != before[at]]
    if len(came) == 1 and not gone and not changed and came[0] is not None:
        return _(
            "%(card)s added at %(place)s",
            card=card_words(after[came[0]]),
            place=place_words(came[0], left),
        )
    if len(gone) == 1 and not came and not changed and gone[0] is not None:
        return _(
            "%(card)s removed from %(place)s",
            card=card_words(before[gone[0]]),
            place=place_words(gone[0], left),
        )
    if len(gone) == 1 == len(came) and not changed and None not in (gone[0], came[0]):
        source, target = gone[0], came[0]
        assert source is not None
        assert target is not None
        return _(
            "%(card)s moved from %(source)s to %(target)s",
            card=card_words(after[target]),
            source=place_words(source, left),
            target=place_words(target, left),
        )
    if len(changed) == 1 and not came and not gone and changed[0] is not None:
        card = after[changed[0]]
        if card.get("card") == MAIN_SQUARE:
            # TRANSLATORS: the Main Square's owners: nobody.
            owners = ", ".join(card.get("owners") or []) or _("nobody")
            return _("Main Square owners: %(owners)s", owners=owners)
        return _(
            "%(place)s is now %(card)s",
            place=place_words(changed[0], left, capital=True),
            card=card_words(card),
        )
    return None


def characters_change(previous: Any, value: Any) -> str | None:
    """Who took a character card, in words.

    >>> characters_change({"Ann": ["traveller"], "Ben": []}, {"Ann": [], "Ben": ["traveller"]})
    'Traveller: now held by Ben'
    >>> characters_change({"Ann": ["cheater"]}, {"Ann": []})
    'Cheater: now held by nobody'
    """
    if not isinstance(previous, Mapping) or not isinstance(value, Mapping):
        return None
    holders_before = _holders(previous)
    holders_after = _holders(value)
    moved = [
        k
        for k in {*holders_before, *holders_after}
        if holders_before.get(k) != holders_after.get(k)
    ]
    if len(moved) != 1:
        return None
    key = moved[0]
    name = _(CHARACTERS[key].name) if key in CHARACTERS else key
    holder = holders_after.get(key)
    if not holder:
        # TRANSLATORS: a Character card nobody holds any more.
        return _("%(character)s: now held by nobody", character=name)
    return _("%(character)s: now held by %(player)s", character=name, player=holder)


def _holders(held: Mapping[str, Any]) -> dict[str, str]:
    return {
        str(key): str(player)
        for player, keys in held.items()
        if isinstance(keys, Sequence)
        for key in keys
    }
