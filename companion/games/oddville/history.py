"""OddVille changes in words, for the edit history ("Ann's Diamond 5 added at row 2,
col 1"): which card of the city came, went, moved or changed, and who took a character."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.oddville.facts import CHARACTERS, KINDS, MAIN_SQUARE, Kind
from companion.games.oddville.state import place_words


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
        return "the Main Square"
    raw = card.get("points")
    points: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    kind = points.get("kind")
    if kind not in {k.value for k in Kind}:
        name = "card"
    elif points.get("value") is not None:
        name = f"{KINDS[Kind(kind)].name} {points['value']}"
    else:
        name = f"{KINDS[Kind(kind)].short} card"
    owner = card.get("owner")
    said = f"{owner}'s {name}" if owner else f"a {name}"
    return f"{said} ({card['guild']})" if card.get("guild") else said


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
    left = min((c for _, c in cells), default=0)
    before = {_at(card): card for card in previous}
    after = {_at(card): card for card in value}
    gone = [at for at in before if at not in after]
    came = [at for at in after if at not in before]
    changed = [at for at in after if at in before and after[at] != before[at]]
    if len(came) == 1 and not gone and not changed and came[0] is not None:
        return f"{card_words(after[came[0]])} added at {place_words(came[0], left)}"
    if len(gone) == 1 and not came and not changed and gone[0] is not None:
        return f"{card_words(before[gone[0]])} removed from {place_words(gone[0], left)}"
    if len(gone) == 1 == len(came) and not changed and None not in (gone[0], came[0]):
        source, target = gone[0], came[0]
        assert source is not None
        assert target is not None
        where = f"from {place_words(source, left)} to {place_words(target, left)}"
        return f"{card_words(after[target])} moved {where}"
    if len(changed) == 1 and not came and not gone and changed[0] is not None:
        card = after[changed[0]]
        if card.get("card") == MAIN_SQUARE:
            owners = ", ".join(card.get("owners") or []) or "nobody"
            return f"Main Square owners: {owners}"
        return f"{place_words(changed[0], left).capitalize()} is now {card_words(card)}"
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
    name = CHARACTERS[key].name if key in CHARACTERS else key
    return f"{name}: now held by {holders_after.get(key) or 'nobody'}"


def _holders(held: Mapping[str, Any]) -> dict[str, str]:
    return {
        str(key): str(player)
        for player, keys in held.items()
        if isinstance(keys, Sequence)
        for key in keys
    }
