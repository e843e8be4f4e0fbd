"""A pause shared by every call to one endpoint: a 429 seen by one call holds the others back.

Consolidation keeps several calls in flight on one provider; when the server says
"too many requests", retrying each call on its own schedule keeps hammering it.
`SharedBackoff.hold` sets a time before which no call of this provider starts;
`wait` is called before each request.
"""

from __future__ import annotations

import threading
import time

__all__ = ["SharedBackoff"]


class SharedBackoff:
    """No request starts before the latest `hold` has passed."""

    def __init__(self) -> None:
        self._until = 0.0
        self._lock = threading.Lock()

    def hold(self, seconds: float) -> None:
        with self._lock:
            self._until = max(self._until, time.monotonic() + seconds)

    def wait(self) -> None:
        while True:
            with self._lock:
                left = self._until - time.monotonic()
            if left <= 0:
                return
            time.sleep(left)
