"""Recall reinforces what it returns, off the conversation path.

Recalled facts get `recall_count + 1`, `last_recalled_at` and full strength.
The write waits in a queue for one background thread, so a recall never waits
for a write lock held by, say, the nightly job. Under load the thread takes
every use waiting in the queue at once, and what comes in the next moment, and
writes them in one transaction per profile: many recalls a second cost a few
writes, not one each, and the counts come out as if each had been written alone.
`flush()` waits for the queue.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from somna.model import Fact
from somna.store import Store

__all__ = ["UsageRecorder"]

log = logging.getLogger(__name__)
_STOP = None
_GATHER_SECONDS = 0.05
_Use = tuple[str, list[str], datetime]


@dataclass
class _Uses:
    """What the waiting recalls did to one profile: per fact, how often and when last."""

    count: dict[str, int] = field(default_factory=dict)
    last: dict[str, datetime] = field(default_factory=dict)

    def add(self, fact_ids: list[str], at: datetime) -> None:
        for fact_id in fact_ids:
            self.count[fact_id] = self.count.get(fact_id, 0) + 1
            self.last[fact_id] = at


class UsageRecorder:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: queue.Queue[_Use | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def record(self, profile: str, facts: Sequence[Fact], at: datetime) -> None:
        if not facts:
            return
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="somna-usage", daemon=True)
                self._thread.start()
        self._queue.put((profile, [f.id for f in facts], at))

    def flush(self) -> None:
        """Wait until every recorded use is written."""
        if self._thread is not None:
            self._queue.join()

    def close(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _work(self) -> None:
        while True:
            batch = [self._queue.get()]
            self._take_waiting(batch)
            if len(batch) > 1 and batch[-1] is not _STOP:
                # Uses come faster than they are written: gather a moment more, write once.
                time.sleep(_GATHER_SECONDS)
                self._take_waiting(batch)
            by_profile: dict[str, _Uses] = {}
            for item in batch:
                if item is not _STOP:
                    profile, fact_ids, at = item
                    by_profile.setdefault(profile, _Uses()).add(fact_ids, at)
            for profile, uses in by_profile.items():
                try:
                    self._write(profile, uses)
                except Exception as exc:  # a lost reinforcement is not worth failing anything for
                    log.warning("Could not record the use of recalled facts: %s", exc)
            for _ in batch:
                self._queue.task_done()
            if batch[-1] is _STOP:
                return

    def _take_waiting(self, batch: list[_Use | None]) -> None:
        """Whatever else is waiting goes in the same writes."""
        while batch[-1] is not _STOP:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                return

    def _write(self, profile: str, uses: _Uses) -> None:
        with self._store.write(profile) as tx:
            used = [
                fact.model_copy(
                    update={
                        "recall_count": fact.recall_count + uses.count[fact.id],
                        "last_recalled_at": uses.last[fact.id],
                        "strength": 1.0,
                    }
                )
                for fact in tx.get_facts(list(uses.count))
            ]
            tx.record_usage(used)
