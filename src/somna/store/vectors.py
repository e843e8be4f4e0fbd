"""Exact vector search over one profile's facts and summaries, in process, with numpy.

A `VectorIndex` holds the embeddings of every fact a search could return
(active or superseded) with the times that decide eligibility, so a query is
one matrix-vector product and a mask. Backends keep one per profile and patch
it on their own writes instead of reloading it. A `SummaryIndex` holds a
profile's summary vectors of one dimension; summaries are only ever added, so it
is rebuilt, not patched, when they change.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from heapq import merge
from itertools import islice

import numpy as np

from somna.model import ACTIVE_STATUSES, Fact, FactStatus, SummaryKind
from somna.store.base import Eligibility

__all__ = ["INDEXED_STATUSES", "SummaryIndex", "VectorIndex"]

INDEXED_STATUSES = ACTIVE_STATUSES | {FactStatus.SUPERSEDED}


def _epoch(value: datetime | None, default: float) -> float:
    return default if value is None else value.timestamp()


class VectorIndex:
    def __init__(self, dim: int, revision: int) -> None:
        self.dim = dim
        self.revision = revision
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._active = np.zeros(0, dtype=bool)
        self._indexed = np.zeros(0, dtype=bool)
        self._valid_from = np.zeros(0)
        self._valid_to = np.zeros(0)
        self._expires = np.zeros(0)

    def __len__(self) -> int:
        return len(self._ids)

    def _grow(self, extra: int) -> None:
        needed = len(self._ids) + extra
        capacity = self._matrix.shape[0]
        if needed <= capacity:
            return
        capacity = max(needed, capacity * 2, 64)

        def grown(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
            bigger = np.zeros(shape, dtype=array.dtype)
            bigger[: len(self._ids)] = array[: len(self._ids)]
            return bigger

        self._matrix = grown(self._matrix, (capacity, self.dim))
        self._active = grown(self._active, (capacity,))
        self._indexed = grown(self._indexed, (capacity,))
        self._valid_from = grown(self._valid_from, (capacity,))
        self._valid_to = grown(self._valid_to, (capacity,))
        self._expires = grown(self._expires, (capacity,))

    def put(
        self,
        fact_id: str,
        *,
        status: FactStatus,
        valid_from: datetime,
        valid_to: datetime | None,
        expires_at: datetime | None,
        vector: np.ndarray | None = None,
    ) -> None:
        """Add a fact, or record a known fact's new status and times.

        A fact's text never changes (a correction is a new fact), so neither does
        its vector: a known fact needs none.
        """
        row = self._row.get(fact_id)
        if row is None:
            if vector is None:
                return
            if vector.shape != (self.dim,):
                raise ValueError(f"expected a vector of {self.dim} dimensions, got {vector.shape}")
            self._grow(1)
            row = len(self._ids)
            self._ids.append(fact_id)
            self._row[fact_id] = row
            self._matrix[row] = vector
        self._active[row] = status in ACTIVE_STATUSES
        self._indexed[row] = status in INDEXED_STATUSES
        self._valid_from[row] = valid_from.timestamp()
        self._valid_to[row] = _epoch(valid_to, math.inf)
        self._expires[row] = _epoch(expires_at, math.inf)

    def put_fact(self, fact: Fact, vector: np.ndarray | None = None) -> None:
        self.put(
            fact.id,
            status=fact.status,
            valid_from=fact.valid_from,
            valid_to=fact.valid_to,
            expires_at=fact.expires_at,
            vector=vector,
        )

    def search(
        self, query: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        return self.search_many(query[None, :], eligible, limit)[0]

    def search_many(
        self,
        queries: np.ndarray,
        eligible: Eligibility,
        limit: int,
        excluded: Collection[str] = (),
    ) -> list[list[tuple[str, float]]]:
        """`search` for each row of `queries`, in one matrix product, leaving out the
        facts of `excluded`."""
        n = len(self._ids)
        if n == 0 or limit <= 0:
            return [[] for _ in queries]
        at = eligible.at.timestamp()
        mask = self._indexed[:n] if eligible.include_superseded else self._active[:n]
        mask = mask & (self._valid_from[:n] <= at) & (at < self._valid_to[:n])
        if not eligible.include_superseded:
            mask &= self._expires[:n] > eligible.now.timestamp()
        left_out = [row for i in excluded if (row := self._row.get(i)) is not None]
        if left_out:
            mask[left_out] = False
        eligible_count = int(mask.sum())
        if eligible_count == 0:
            return [[] for _ in queries]
        # Scoring every row and masking beats gathering the eligible rows first:
        # a gather copies the matrix, a product only reads it.
        all_scores = queries.astype(np.float32) @ self._matrix[:n].T
        all_scores[:, ~mask] = -np.inf
        limit = min(limit, eligible_count)
        found = []
        for scores in all_scores:
            top = np.argpartition(-scores, limit - 1)[:limit] if limit < n else np.arange(n)
            top = top[np.argsort(-scores[top], kind="stable")][:limit]
            rows, best = top.tolist(), scores[top].tolist()
            found.append([(self._ids[row], score) for row, score in zip(rows, best, strict=True)])
        return found

    def search_patched(
        self,
        queries: np.ndarray,
        patches: Sequence[tuple[Fact, np.ndarray | None]],
        eligible: Eligibility,
        limit: int,
    ) -> list[list[tuple[str, float]]]:
        """`search_many` as if `patches` (a transaction's fact writes, in order: a new
        fact with its vector, a changed one without) were applied, the index unchanged:
        a transaction sees its own writes before they commit, without reloading."""
        changed: dict[str, tuple[Fact, np.ndarray | None]] = {}
        for fact, vector in patches:
            if vector is None and fact.id in changed:
                vector = changed[fact.id][1]
            changed[fact.id] = (fact, vector)
        overlay = VectorIndex(self.dim, self.revision)
        for fact, vector in changed.values():
            row = self._row.get(fact.id)
            overlay.put_fact(
                fact, self._matrix[row] if vector is None and row is not None else vector
            )
        before = self.search_many(queries, eligible, limit, excluded=changed)
        after = overlay.search_many(queries, eligible, limit)
        return [
            list(islice(merge(old, new, key=lambda hit: -hit[1]), limit))
            for old, new in zip(before, after, strict=True)
        ]


@dataclass(frozen=True)
class SummaryIndex:
    """A profile's summary vectors, with each one's kind and start (epoch seconds).

    `revision` tells a backend whether the index is current: Postgres's
    `summaries_rev`, SQLite's (count, last rowid) of the profile's summaries.
    """

    revision: int | tuple[int, int]
    ids: list[str]
    matrix: np.ndarray
    kinds: np.ndarray
    starts: np.ndarray

    def search(
        self, vector: np.ndarray, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        """Nearest summaries of these kinds that began by `at`, as (summary id, cosine)."""
        if not self.ids:
            return []
        wanted = np.isin(self.kinds, [k.value for k in kinds]) & (self.starts <= at.timestamp())
        if not wanted.any():
            return []
        scores = self.matrix @ vector.astype(np.float32)
        scores[~wanted] = -np.inf
        top = np.argsort(-scores, kind="stable")[: min(limit, int(wanted.sum()))]
        return [(self.ids[i], float(scores[i])) for i in top]
