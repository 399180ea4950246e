"""Lucky's Misadventures: the end-of-game tally, six tiebreakers, escapes, and the referee
checks of a round (Feed the Toad, challenges, buying, Machines, escapes).

>>> result = GAME.score({
...     "players": ["Lewis", "Carol"],
...     "decks": {
...         "Lewis": {"lucky": 1, "machines": ["tiny-tin"],
...                   "junk": [{"kind": "clockwork-gizmo"}, {"kind": "reactor-pump", "vp": 2}]},
...         "Carol": {"lucky": 1, "mavens": [
...             {"name": "The Collector", "faction": "wicked", "vp": 3}]},
...     },
... })
>>> [(s.player, s.score) for s in result.standings], result.decided_by
([('Lewis', 20), ('Carol', 13)], 'score')

The package is split by concern: :mod:`.facts` (the cards as data), :mod:`.state`
(request shapes and validation), :mod:`.scoring` (VP and tiebreakers), :mod:`.referee`
(Feed the Toad, rounds, challenges, buying, Machines, escapes) and :mod:`.game` (the
registered engine). The request shapes beyond ``API.md`` are in the "Lucky's
Misadventures" section of ``docs/api.md``.
"""

from __future__ import annotations

from companion.games.luckys import facts, referee, scoring, state
from companion.games.luckys.facts import SLUG
from companion.games.luckys.game import GAME, Luckys, new_deck

__all__ = ["GAME", "SLUG", "Luckys", "facts", "new_deck", "referee", "scoring", "state"]
