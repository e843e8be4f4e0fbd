"""Which words of a query the full-text search visits: not those that most facts hold.

A word found in a large share of the facts ("user", the speaker's own name) weighs
next to nothing in BM25 (FTS5's idf is log((N - n + 0.5) / (n + 0.5)), nil from half
the rows on), yet matching it visits and ranks every fact that holds it: 60 ms at
10,000 facts for a query whose other words take 2. Such a word is left out when a
rarer one remains. A query of common words only finds nothing by full text (the
vector search still ranks): those words cannot tell the facts apart, and a fact
that shares nothing else with the question is no text match.

Whether a word is common is counted once (up to the count that makes it so) and
kept until the store has grown or shrunk by a tenth.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

__all__ = ["COMMON_FLOOR", "COMMON_SHARE", "TermCounts", "common_from"]

COMMON_SHARE = 0.2
"""A word held by more than this share of the facts is common (idf under log 4)."""
COMMON_FLOOR = 500
"""...and by more than this many: below it, visiting them all costs about 3 ms."""
RECOUNT_AFTER = 0.1
"""A count is kept until the number of facts moved by this share."""
MAX_WORDS = 4096


def common_from(total: int) -> int:
    """The number of facts above which a word is common, in a store of `total` facts."""
    return max(COMMON_FLOOR, int(COMMON_SHARE * total))


class TermCounts:
    """A store's word counts, shared by its scopes; the least recently used are dropped."""

    def __init__(self, max_words: int = MAX_WORDS) -> None:
        self.max_words = max_words
        self._lock = threading.Lock()
        self._counts: OrderedDict[str, tuple[bool, int]] = OrderedDict()

    def selective(
        self,
        words: Sequence[str],
        total: int,
        count: Callable[[str, int], int],
        index: str = "text",
    ) -> list[str]:
        """The `words` that are not common in a store of `total` facts, in their order.

        `count(word, cap)` says how many facts of `index` hold `word`, counting at most `cap`.
        """
        threshold = common_from(total)
        if total <= threshold:
            return list(words)
        return [w for w in words if not self._common(f"{index}:{w}", total, threshold, count)]

    def _common(
        self, key: str, total: int, threshold: int, count: Callable[[str, int], int]
    ) -> bool:
        with self._lock:
            known = self._counts.get(key)
            if known is not None and abs(total - known[1]) <= RECOUNT_AFTER * known[1]:
                self._counts.move_to_end(key)
                return known[0]
        common = count(key.partition(":")[2], threshold + 1) > threshold
        with self._lock:
            self._counts[key] = (common, total)
            self._counts.move_to_end(key)
            while len(self._counts) > self.max_words:
                self._counts.popitem(last=False)
        return common
