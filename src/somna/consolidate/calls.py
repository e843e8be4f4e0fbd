"""Model calls of a consolidation run, many in flight, never more than the run allows.

The openai client is synchronous, so concurrency is threads: `CallPool` runs
each submitted call on one of `size` daemon threads (the cap on requests in
flight) and hands back a `Future`. Judge calls jump the queue of extractions,
because a judge is what a profile's next write waits for; and extractions go
by their session's place in its profile's order, every profile's first session
before any profile's second, because each profile writes its sessions one after
the other: a profile whose first extraction waited behind another profile's
whole night would start its chain of judge calls last. What a call's result
needs next on this machine (embedding what an extraction proposed) is its `then`,
run on a thread of its own so that the call's slot goes to the next call at once.
Daemon threads, so that a signal ends the process at once even while a call
hangs: its session's lease is released by the run, and the reply is never read.
Each call is counted in the account of its session (`counted`), and timed on the
session's budget (`Deadline`).
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from typing import Any

from somna.errors import LLMError, SomnaError
from somna.llm.base import LLMCallError
from somna.model import Run

__all__ = ["URGENT", "CallPool", "Deadline", "counted"]

URGENT = 0
"""Priority of a call some write is waiting for; extractions come after (1)."""

_Then = Callable[[Any], Any]
_Item = tuple[int, int, int, "Future[Any] | None", "Callable[[], Any] | None", "_Then | None"]


class CallPool:
    """At most `size` calls at once, the urgent ones first, each in a daemon thread."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._queue: queue.PriorityQueue[_Item] = queue.PriorityQueue()
        self._after: queue.SimpleQueue[tuple[Future[Any], _Then, Any] | None] = queue.SimpleQueue()
        self._order = itertools.count()
        self._following = threading.Lock()
        self._followers: list[threading.Thread] = []
        """Started with the first `then`: a pool whose calls have none needs no more."""
        self._threads = self._start(self._serve, "somna-call")

    def submit(
        self,
        call: Callable[[], Any],
        priority: int = 1,
        rank: int = 0,
        then: _Then | None = None,
    ) -> Future[Any]:
        """Queue `call`: lower `priority` first, then lower `rank`, then first come. The
        future holds `then(call())` when `then` is given, else `call()`."""
        if then is not None and not self._followers:
            with self._following:
                if not self._followers:
                    self._followers = self._start(self._follow, "somna-then")
        future: Future[Any] = Future()
        self._queue.put((priority, rank, next(self._order), future, call, then))
        return future

    def close(self) -> None:
        """Cancel what has not started (and what waits for its `then`); let the threads end
        after their current call."""
        while True:
            try:
                _, _, _, future, _, _ = self._queue.get_nowait()
            except queue.Empty:
                break
            if future is not None:
                future.cancel()
        for _ in range(self.size):
            self._queue.put((2, 0, next(self._order), None, None, None))
        while True:  # results waiting for their `then`: nobody will read them now
            try:
                waiting = self._after.get_nowait()
            except queue.Empty:
                break
            if waiting is not None:
                waiting[0].set_exception(CancelledError())
        with self._following:
            for _ in self._followers:
                self._after.put(None)

    def join(self, calls_until: float, then_until: float) -> bool:
        """After `close`, wait for the threads to end: those of the calls until `calls_until`,
        those running a `then` until `then_until` (`time.monotonic()` values); whether they
        all did. A thread still inside native code (an embedding) when the interpreter exits
        aborts the process, so a stopped run waits for its `then`s; a thread left inside a
        model call is harmless (its reply is never read).
        """
        for threads, until in ((self._followers, then_until), (self._threads, calls_until)):
            for thread in threads:
                thread.join(max(0.0, until - time.monotonic()))
        return not any(t.is_alive() for t in [*self._threads, *self._followers])

    def _start(self, target: Callable[[], None], name: str) -> list[threading.Thread]:
        threads = [
            threading.Thread(target=target, name=f"{name}-{i}", daemon=True)
            for i in range(self.size)
        ]
        for thread in threads:
            thread.start()
        return threads

    def _serve(self) -> None:
        while True:
            _, _, _, future, call, then = self._queue.get()
            if future is None or call is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                value = call()
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
                continue
            if then is None:
                future.set_result(value)
            else:
                self._after.put((future, then, value))

    def _follow(self) -> None:
        while (item := self._after.get()) is not None:
            future, then, value = item
            try:
                future.set_result(then(value))
            except BaseException as exc:
                future.set_exception(exc)


class Deadline:
    """A session's time budget for its model calls: the time they run, not the time they wait
    for a free slot or for the profile's earlier sessions."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._spent = 0.0
        self._began: float | None = None
        self._lock = threading.Lock()

    def timed(self, call: Callable[[], Any]) -> Any:
        """Run one model call of the session on the budget."""
        with self._lock:
            self._began = time.monotonic()
        try:
            return call()
        finally:
            with self._lock:
                if self._began is not None:
                    self._spent += time.monotonic() - self._began
                self._began = None

    def left(self) -> float | None:
        """Seconds left while a call runs; None while none does (nothing to time out)."""
        with self._lock:
            if self._began is None:
                return None
            return self.seconds - self._spent - (time.monotonic() - self._began)


def counted(run: Run, call: Callable[[], Any]) -> Any:
    """One model call, counted in `run`; any failure of the model becomes an `LLMError`,
    which fails the session alone."""
    try:
        reply = call()
    except LLMCallError as exc:
        run.llm_calls += exc.calls
        run.prompt_tokens += exc.prompt_tokens
        run.completion_tokens += exc.completion_tokens
        raise
    except SomnaError:
        raise
    except Exception as exc:
        run.llm_calls += 1
        raise LLMError(f"The model failed: {type(exc).__name__}: {exc}") from exc
    run.llm_calls += reply.calls
    run.prompt_tokens += reply.prompt_tokens
    run.completion_tokens += reply.completion_tokens
    return reply.value
