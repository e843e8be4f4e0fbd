"""In-process vector indexes of the array mode, cached per profile and kept current.

Each index is tagged with the profile's revision counter (`facts_rev` or
`summaries_rev`) it was built at. A scope reads the counter in its own
transaction, so an index built by another process's writes is never mistaken
for current; after its own commit a store patches the fact index in place
instead of reloading it. The least recently used profiles are dropped past
`max_profiles`, so a server with many tenants holds a bounded amount of memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from somna.model import Fact
from somna.store.base import Eligibility
from somna.store.vectors import SummaryIndex, VectorIndex

__all__ = ["IndexCache"]


class IndexCache:
    def __init__(self, max_profiles: int = 64) -> None:
        self.max_profiles = max_profiles
        self._lock = threading.Lock()
        self._facts: OrderedDict[str, VectorIndex] = OrderedDict()
        self._summaries: OrderedDict[tuple[str, int], SummaryIndex] = OrderedDict()

    def __contains__(self, profile_id: str) -> bool:
        with self._lock:
            return profile_id in self._facts

    def facts(self, profile_id: str, revision: int) -> VectorIndex | None:
        """The profile's fact index, if it is the one at `revision`."""
        with self._lock:
            index = self._facts.get(profile_id)
            if index is None or index.revision != revision:
                return None
            self._facts.move_to_end(profile_id)
            return index

    def keep_facts(self, profile_id: str, index: VectorIndex) -> None:
        with self._lock:
            self._facts[profile_id] = index
            self._facts.move_to_end(profile_id)
            while len(self._facts) > self.max_profiles:
                self._facts.popitem(last=False)

    def search(
        self, index: VectorIndex, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        with self._lock:  # a commit may be patching this index
            return index.search(vector, eligible, limit)

    def search_many(
        self, index: VectorIndex, vectors: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[list[tuple[str, float]]]:
        with self._lock:
            return index.search_many(vectors, eligible, limit)

    def patch(
        self,
        profile_id: str,
        before: int,
        after: int,
        patches: Sequence[tuple[Fact, np.ndarray | None]],
    ) -> None:
        """After a commit that moved `facts_rev` from `before` to `after` with these writes."""
        with self._lock:
            index = self._facts.get(profile_id)
            if index is None:
                return
            if index.revision != before:  # another process wrote in between: reload later
                del self._facts[profile_id]
                return
            for fact, vector in patches:
                index.put_fact(fact, vector)
            index.revision = after

    def summaries(self, profile_id: str, revision: int, dim: int) -> SummaryIndex | None:
        with self._lock:
            index = self._summaries.get((profile_id, dim))
            if index is None or index.revision != revision:
                return None
            self._summaries.move_to_end((profile_id, dim))
            return index

    def keep_summaries(self, profile_id: str, dim: int, index: SummaryIndex) -> None:
        with self._lock:
            self._summaries[(profile_id, dim)] = index
            self._summaries.move_to_end((profile_id, dim))
            while len(self._summaries) > self.max_profiles:
                self._summaries.popitem(last=False)

    def forget(self, profile_id: str) -> None:
        with self._lock:
            self._facts.pop(profile_id, None)
            for key in [key for key in self._summaries if key[0] == profile_id]:
                del self._summaries[key]
