"""The call pool: the order calls take their slots in, and what a slot is held for."""

from __future__ import annotations

import threading

from somna.consolidate.calls import URGENT, CallPool


def _blocked(pool: CallPool) -> threading.Event:
    """Occupy the pool's one slot until the returned event is set."""
    release, started = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        assert release.wait(10)

    pool.submit(hold)
    assert started.wait(10)
    return release


def test_calls_wait_by_priority_then_by_rank_then_in_order_of_arrival() -> None:
    pool = CallPool(1)
    release = _blocked(pool)
    order: list[str] = []
    waits = [
        pool.submit(lambda: order.append("third session"), rank=2),
        pool.submit(lambda: order.append("first session, asked late"), rank=0),
        pool.submit(lambda: order.append("second session"), rank=1),
        pool.submit(lambda: order.append("first session, asked later"), rank=0),
        pool.submit(lambda: order.append("judge"), URGENT, rank=5),
    ]
    release.set()
    for future in waits:
        future.result(10)
    pool.close()
    assert order == [
        "judge",
        "first session, asked late",
        "first session, asked later",
        "second session",
        "third session",
    ]


def test_what_follows_a_call_runs_after_it_and_gives_its_slot_to_the_next_call() -> None:
    pool = CallPool(1)
    following, release = threading.Event(), threading.Event()

    def then(value: int) -> int:
        following.set()
        assert release.wait(10)
        return value + 1

    first = pool.submit(lambda: 41, then=then)
    assert following.wait(10)
    second = pool.submit(lambda: "the next call ran")
    assert second.result(10) == "the next call ran"  # while `then` still holds its thread
    assert not first.done()
    release.set()
    assert first.result(10) == 42
    pool.close()


def test_a_failure_after_the_call_reaches_whoever_waits_for_it() -> None:
    pool = CallPool(1)

    def then(value: str) -> str:
        raise ValueError(f"cannot use {value}")

    future = pool.submit(lambda: "the reply", then=then)
    error = future.exception(10)
    assert isinstance(error, ValueError) and str(error) == "cannot use the reply"
    pool.close()
