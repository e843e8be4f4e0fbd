"""Model calls of a consolidation run, many in flight, never more than the run allows.

The openai client is synchronous, so concurrency is threads: `CallPool` runs
each submitted call on one of `size` daemon threads (the cap on requests in
flight) and hands back a `Future`. Judge calls jump the queue of extractions,
because a judge is what a profile's next write waits for. Daemon threads, so
that a signal ends the process at once even while a call hangs: its session's
lease is released by the run, and the reply is never read.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["URGENT", "CallPool"]

URGENT = 0
"""Priority of a call some write is waiting for; extractions come after (1)."""

_Item = tuple[int, int, "Future[Any] | None", "Callable[[], Any] | None"]


class CallPool:
    """At most `size` calls at once, the urgent ones first, each in a daemon thread."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._queue: queue.PriorityQueue[_Item] = queue.PriorityQueue()
        self._order = itertools.count()
        self._threads = [
            threading.Thread(target=self._serve, name=f"somna-call-{i}", daemon=True)
            for i in range(size)
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, call: Callable[[], Any], priority: int = 1) -> Future[Any]:
        future: Future[Any] = Future()
        self._queue.put((priority, next(self._order), future, call))
        return future

    def close(self) -> None:
        """Cancel what has not started and let the threads end after their current call."""
        while True:
            try:
                _, _, future, _ = self._queue.get_nowait()
            except queue.Empty:
                break
            if future is not None:
                future.cancel()
        for _ in self._threads:
            self._queue.put((2, next(self._order), None, None))

    def _serve(self) -> None:
        while True:
            _, _, future, call = self._queue.get()
            if future is None or call is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
