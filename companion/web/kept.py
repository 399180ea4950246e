"""What a worker keeps of its renderings (table pages, play panels): a bounded map that
forgets the least recently used first, safe to share between a worker's threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


def _one(_value: object) -> int:
    return 1


class Kept(Generic[Value]):
    """At most ``max_entries`` values, whose sizes (``size_of``) add up to at most
    ``max_size``; a value bigger than that is not kept at all."""

    def __init__(
        self,
        max_entries: int,
        max_size: int | None = None,
        size_of: Callable[[Value], int] = _one,
    ) -> None:
        self.max_entries = max_entries
        self.max_size = max_entries if max_size is None else max_size
        self.size_of = size_of
        self.size = 0
        self._values: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> Value | None:
        """The value kept under ``key`` (now the most recently used), if any."""
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Value) -> None:
        """Keep ``value``; the least recently used go while over the bounds."""
        size = self.size_of(value)
        if size > self.max_size:
            return
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.size -= self.size_of(old)
            self._values[key] = value
            self.size += size
            while len(self._values) > self.max_entries or self.size > self.max_size:
                _, dropped = self._values.popitem(last=False)
                self.size -= self.size_of(dropped)
