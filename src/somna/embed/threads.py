"""One BLAS thread per process, set once where an embedder loads.

numpy's OpenBLAS starts a thread per core and keeps the extra ones spinning after
each call. A vector search multiplies one query by the profile's matrix: a second
thread does not shorten it, and its spinning takes the core from the next request
(``add_fact`` at 10,000 facts used twice the CPU for the same wall time).
Somna's parallelism is across requests and sessions, never inside one product.
"""

from __future__ import annotations

import threading

__all__ = ["limit_blas_threads"]

BLAS_THREADS = 1

_done = False
_lock = threading.Lock()


def limit_blas_threads() -> None:
    """Limit every loaded BLAS library to `BLAS_THREADS` threads; the first call only."""
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=BLAS_THREADS, user_api="blas")
        _done = True
