"""Each game's examples for the words checks (``tests/games/test_words_translated.py``,
harness in :mod:`support.words`): one module a game; a new game adds its own and its line
in :data:`EXAMPLES`."""

from __future__ import annotations

from support.word_examples import luckys, odd_world, oddland, oddville, owl_about
from support.words import Examples

#: Each registered game's examples, by slug.
EXAMPLES: dict[str, Examples] = {
    "odd-world": odd_world.EXAMPLES,
    "owl-about": owl_about.EXAMPLES,
    "oddland": oddland.EXAMPLES,
    "oddville": oddville.EXAMPLES,
    "luckys-misadventures": luckys.EXAMPLES,
}
