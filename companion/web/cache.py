"""A bounded cache shared by a worker's threads: the least recently used entry goes first.

The renderings of the live path (play panels, page frames, table pages), the API's
answers and the groups' exports are kept in such caches. Each is bounded twice: in
entries, and in the total of its entries' sizes (``size_of``, characters or bytes), so
that a few huge values cannot hold a worker's memory; a value larger than the whole
cache is not kept at all. ``cachetools.LRUCache`` does the bookkeeping; it is not safe
for threads on its own, so every use takes a lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from cachetools import LRUCache

Value = TypeVar("Value")


def _one(_value: object) -> int:
    return 1


class Cache(Generic[Value]):
    """At most ``max_entries`` values, whose sizes (``size_of``) add up to at most
    ``max_size`` (``max_entries`` when not given: each counts 1)."""

    def __init__(
        self,
        max_entries: int,
        max_size: int | None = None,
        size_of: Callable[[Value], int] = _one,
    ) -> None:
        self.max_entries = max_entries
        self.max_size = max_entries if max_size is None else max_size
        self.size_of = size_of
        self._values: LRUCache[Hashable, Value] = LRUCache(self.max_size, getsizeof=size_of)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    @property
    def size(self) -> int:
        """The sizes of the values kept, added up."""
        return int(self._values.currsize)

    def get(self, key: Hashable) -> Value | None:
        """The value kept under ``key`` (now the most recently used), if any."""
        with self._lock:
            found: Value | None = self._values.get(key)
            return found

    def kept(self, key: Hashable | None, make: Callable[[], Value]) -> Value:
        """The value kept under ``key``, else ``make()``'s, kept for the next time
        (``None``: made and not kept, for a value shown this once)."""
        found = self.get(key) if key is not None else None
        if found is None:
            found = make()
            if key is not None:
                self.put(key, found)
        return found

    def put(self, key: Hashable, value: Value) -> None:
        """Keep ``value``; the least recently used go while over the bounds."""
        if self.size_of(value) > self.max_size:
            return
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.max_entries:
                self._values.popitem()
