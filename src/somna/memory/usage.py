"""Recall reinforces what it returns, off the conversation path.

Recalled facts get `recall_count + 1`, `last_recalled_at` and full strength.
The write waits in a queue for one background thread, so a recall never waits
for a write lock held by, say, the nightly job. `flush()` waits for the queue.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence
from datetime import datetime

from somna.model import Fact
from somna.store import Store

__all__ = ["UsageRecorder"]

log = logging.getLogger(__name__)
_STOP = None


class UsageRecorder:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: queue.Queue[tuple[str, list[str], datetime] | None] = queue.Queue()
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
            item = self._queue.get()
            try:
                if item is _STOP:
                    return
                self._write(*item)
            except Exception as exc:  # a lost reinforcement is not worth failing anything for
                log.warning("Could not record the use of recalled facts: %s", exc)
            finally:
                self._queue.task_done()

    def _write(self, profile: str, fact_ids: list[str], at: datetime) -> None:
        with self._store.write(profile) as tx:
            used = [
                fact.model_copy(
                    update={
                        "recall_count": fact.recall_count + 1,
                        "last_recalled_at": at,
                        "strength": 1.0,
                    }
                )
                for fact in tx.get_facts(fact_ids)
            ]
            tx.record_usage(used)
