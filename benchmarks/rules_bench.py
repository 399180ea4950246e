"""Benchmark (not a test): rules search time, start-up cost of the index, and the search
as the app answers it (an htmx request for the results fragment).

Run: .venv/bin/python benchmarks/rules_bench.py
"""

from __future__ import annotations

import random
import statistics
import string
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.rules import load
from companion.rules.search import RulesIndex
from support.rules_queries import QUERIES, QUESTIONS

REPEAT = 50
#: Queries that make the search work hardest: typos to mend, many words, a prefix.
HARD = ["cassowery nite tie break whalefant surounding", "a", "fightin powr", "t"]


def per_call_ms(function: object, number: int = REPEAT) -> float:
    """Median milliseconds per call over five runs."""
    runs = timeit.repeat(function, number=number, repeat=5)  # type: ignore[arg-type]
    return statistics.median(runs) / number * 1000


def worst_random_ms(index: RulesIndex, count: int = 200) -> float:
    """The slowest of ``count`` 100-character queries of made-up words (every word a typo
    to mend, none seen before): the worst case of a search."""
    rng = random.Random(1)
    worst = 0.0
    for _ in range(count):
        words: list[str] = []
        while len(" ".join(words)) < 100:
            words.append("".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 12))))
        start = time.perf_counter()
        index.search(" ".join(words)[:100])
        worst = max(worst, time.perf_counter() - start)
    return worst * 1000


def main() -> None:
    """Print each figure on its own line."""
    library = load()
    build = per_call_ms(lambda: RulesIndex(library), number=5)
    print(f"rules index build ({sum(1 for _ in library)} entries): {build:.2f} ms")
    index = RulesIndex(library)
    times = [per_call_ms(lambda q=q, g=g: index.search(q, game=g)) for q, g, _ in QUERIES]
    print(
        f"search, {len(QUERIES)} test queries: median {statistics.median(times):.3f} ms,"
        f" slowest {max(times):.3f} ms"
    )
    asked = [per_call_ms(lambda q=q["ask"]: index.search(q)) for q in QUESTIONS]
    print(
        f"search, {len(QUESTIONS)} players' questions: median {statistics.median(asked):.3f} ms,"
        f" slowest {max(asked):.3f} ms"
    )
    for query in HARD:
        print(f"search {query!r}: {per_call_ms(lambda q=query: index.search(q)):.3f} ms")
    print(f"search, worst of 200 queries of 100 random letters: {worst_random_ms(index):.2f} ms")

    app = create_app(
        {"INSTANCE_PATH": Path(tempfile.mkdtemp()), "SECRET_KEY": "bench", "SERVER_NAME": "b.test"}
    )
    client = app.test_client()
    headers = {"HX-Request": "true"}
    for url in ("/rules/search?q=cassowery+tie+break", "/rules/search?q=who+wins+owl+about"):
        request = per_call_ms(lambda u=url: client.get(u, headers=headers).close(), number=50)
        print(f"GET {url} (htmx fragment): {request:.3f} ms")


if __name__ == "__main__":
    main()
