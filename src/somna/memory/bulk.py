"""`Memory.add_facts`: many facts in one transaction, embedded while they are reconciled.

Each fact is reconciled exactly as `Memory.add_fact` does it (same text known:
reinforced; said again after a retirement: restored; otherwise stored, with its
neighbours to judge), in the order given, so a fact repeated in the batch is
reinforced by its second mention. `FactWrites.add` does the work, run against the
batch's one open transaction; the vector search it makes sees the store as it
was before the batch plus the facts the batch has written so far, as one call
after another would. A fact the batch refuses names its place in the list, and
nothing of the batch is written. The texts are embedded in parts, the first before
the transaction and the others on a second thread while the first are reconciled.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from itertools import islice
from typing import Any, cast

import numpy as np

from somna.config import Settings
from somna.embed import Embedder
from somna.errors import InvalidInputError
from somna.memory.facts import FactWrites
from somna.memory.results import Added
from somna.memory.writes import NewFact
from somna.model import Fact
from somna.model.lifecycle import Change
from somna.store import Eligibility, Store, Writer
from somna.store.vectors import VectorIndex

__all__ = ["MAX_BATCH", "add_facts"]

MAX_BATCH = 1000
"""The most facts one call stores: a bigger import is several calls."""
_WIDE = 20
"""Neighbours searched for ahead per text, twice what `FactWrites.add` asks for: room for
facts the batch changes before the text's turn comes."""
_PART = 128
"""Texts embedded at a time: the next parts are embedded while the first are reconciled."""


def add_facts(
    store: Store,
    embedder: Embedder,
    profile: str,
    facts: Sequence[NewFact],
    tuned: Settings,
    *,
    now: datetime,
    actor: str,
) -> list[Added]:
    """Store `facts` in order, in one transaction; see the module's docstring."""
    if len(facts) > MAX_BATCH:
        raise InvalidInputError(
            f"A batch holds at most {MAX_BATCH} facts, not {len(facts)}: send it in parts."
        )
    if not facts:
        return []
    texts = list(dict.fromkeys(new.text for new in facts))
    batched = set(texts)
    parts = [texts[start : start + _PART] for start in range(0, len(texts), _PART)]
    vectors: dict[str, np.ndarray] = {}
    # The first part is embedded before the transaction: a checked embedder reads the
    # store on its first call, and the transaction holds the store's connection.
    first = embedder.embed(parts[0])
    pool = ThreadPoolExecutor(1, thread_name_prefix="somna-bulk")
    pending = zip(parts[1:], [pool.submit(embedder.embed, part) for part in parts[1:]], strict=True)
    try:
        with store.write(profile) as tx:
            batch = _Batch(tx, Eligibility(at=now, now=now))

            def learn(part: list[str], embedded: np.ndarray) -> None:
                batch.search_before(embedded)
                vectors.update(zip(part, embedded, strict=True))

            def embed(text: str) -> np.ndarray:
                # A text of the batch waits for its part; another (a neighbour to compare)
                # is embedded alone, without waiting for the parts still on their way.
                while text in batched and text not in vectors:
                    step = next(pending)
                    learn(step[0], step[1].result())
                if text not in vectors:
                    vectors[text] = embedder.embed([text])[0]
                return vectors[text]

            learn(parts[0], first)
            writes = FactWrites(cast(Store, batch), embed)
            added: list[Added] = []
            for place, new in enumerate(facts):
                try:
                    added.append(writes.add(profile, new, tuned, now=now, actor=actor))
                except InvalidInputError as exc:
                    raise InvalidInputError(f"Fact at index {place} of the batch: {exc}") from exc
    finally:
        pool.shutdown(cancel_futures=True)
    return added


class _Batch:
    """The batch's open transaction, standing in for the store: `FactWrites.add` opens it
    as its own; its vector search adds the facts written since the batch began."""

    def __init__(self, tx: Writer, eligible: Eligibility) -> None:
        self._tx = tx
        self._eligible = eligible
        self._before: dict[bytes, list[tuple[str, float]]] = {}
        self._changed: dict[str, Fact] = {}
        self._read: dict[str, Fact] = {}
        self._written: VectorIndex | None = None

    def search_before(self, vectors: np.ndarray) -> None:
        """Search for the neighbours of `vectors` at once, one matrix product for all, in
        the store as the batch has left it so far; `vector_search` accounts for what
        the batch changes after."""
        found = self._tx.vector_search_many(vectors, self._eligible, _WIDE)
        self._before.update((_key(v), hits) for v, hits in zip(vectors, found, strict=True))

    @contextmanager
    def write(self, profile: str) -> Iterator[_Batch]:
        yield self

    read = write

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)

    def get_facts(self, fact_ids: Sequence[str]) -> list[Fact]:
        """The facts as they now stand: those the batch changed as it left them, the others
        read once (nothing but the batch writes them while its transaction is open)."""
        unread = [i for i in fact_ids if i not in self._changed and i not in self._read]
        self._read.update((fact.id, fact) for fact in self._tx.get_facts(unread))
        return [
            fact
            for i in fact_ids
            if (fact := self._changed.get(i) or self._read.get(i)) is not None
        ]

    def apply(self, change: Change) -> None:
        self._tx.apply(change)
        for fact in change.facts:
            self._changed[fact.id] = fact
            vector = change.vectors.get(fact.id)
            if vector is not None and self._written is None:
                self._written = VectorIndex(len(vector), 0)
            if self._written is not None:
                array = None if vector is None else np.asarray(vector, dtype=np.float32)
                self._written.put_fact(fact, array)

    def vector_search(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        hits = self._ahead(vector, eligible, limit)
        if hits is None:
            return self._tx.vector_search(vector, eligible, limit)
        if self._written is not None:
            hits.update(self._written.search(vector, eligible, limit))
        return sorted(hits.items(), key=lambda hit: -hit[1])[:limit]

    def _ahead(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> dict[str, float] | None:
        """The first `limit` hits searched for ahead that the batch has not made ineligible
        since; None when the text was not searched for ahead, or when so many of its hits
        changed that the ones further down, not searched for, may count."""
        before = self._before.get(_key(vector))
        if before is None or eligible != self._eligible:
            return None
        kept = (
            (i, score)
            for i, score in before
            if i not in self._changed or _eligible(self._changed[i], eligible)
        )
        hits = dict(islice(kept, limit))
        return None if len(hits) < limit and len(before) == _WIDE else hits


def _key(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def _eligible(fact: Fact, eligible: Eligibility) -> bool:
    """Whether a search at `eligible` may return `fact` as it now stands."""
    if fact.status not in eligible.statuses or fact.valid_from > eligible.at:
        return False
    if fact.valid_to is not None and fact.valid_to <= eligible.at:
        return False
    return eligible.include_superseded or fact.expires_at is None or fact.expires_at > eligible.now
