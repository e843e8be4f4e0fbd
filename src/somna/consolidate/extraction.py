"""Extract: one structured call per session, its proposals grounded and embedded.

Runs on the call threads, ahead of the profile's writes: the extraction call as soon as
a slot is free (`extract`), then, on a thread of its own so that the slot goes to the
next call, what needs no earlier session of the profile (`prepare`): the summary and the
quotes checked against the session, the kept facts and the summary embedded. Only the
judge and the write wait their turn. Nothing here opens a write transaction but the
renewal of a lease that waited long for a slot.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial

import numpy as np

from somna.consolidate.calls import counted
from somna.consolidate.grounding import check_summary, ground, reject
from somna.consolidate.job import Job, Means, Pending
from somna.consolidate.leasing import renew_if_waited
from somna.consolidate.plan import Plan
from somna.consolidate.transcript import spoken, transcript_of
from somna.llm.tasks import EXTRACT, SessionDigest
from somna.model import Message, Profile

__all__ = ["start"]


@dataclass
class _Extracted:
    """A session's messages as read, what of them was said, and the extraction's reply."""

    messages: list[Message]
    said: list[Message]
    digest: SessionDigest | None


def start(means: Means, profile: Profile, item: Pending, job: Job, place: int) -> Future[Plan]:
    """Submit the session's extraction, its `place` in the profile's order ranking it
    among the calls waiting; the future holds its plan."""
    extracted = partial(_extract, means, profile, item, job)
    prepared = partial(_prepare, means, profile, item, job)
    return job.calls.submit(extracted, rank=place, then=prepared)


def _extract(means: Means, profile: Profile, item: Pending, job: Job) -> _Extracted:
    """Read the session and make its one extraction call (on a call thread)."""
    session = item.session
    if not job.dry_run:  # a full lease from now, if it waited long for this slot
        renew_if_waited(means, profile.id, session, job)
    said = spoken(item.messages)  # tool traffic stays in the session, never becomes facts
    if not said:
        return _Extracted(item.messages, said, None)
    transcript = transcript_of(profile, session, said)
    digest = item.deadline.timed(
        lambda: counted(item.run, lambda: means.llm.structured(EXTRACT, transcript))
    )
    return _Extracted(item.messages, said, digest)


def _prepare(means: Means, profile: Profile, item: Pending, job: Job, read: _Extracted) -> Plan:
    """Ground and embed what the extraction proposed, as soon as it is back (before any
    transaction)."""
    session, run = item.session, item.run
    through = max((m.seq for m in read.messages), default=-1)
    if read.digest is None:
        return Plan(session, "", [], through)
    digest = read.digest
    check_summary(digest.summary, read.said, profile)
    for rejected in digest.rejected:  # facts the reply held that did not fit the shape
        reject(run, session, rejected.text, rejected.reason)
    candidates = ground(profile.id, session, read.said, digest.facts, run, job.now)
    summary = digest.summary.strip()
    texts = [c.fact.text for c in candidates] + ([summary] if summary else [])
    vectors: list[np.ndarray] = list(means.embedder.embed(texts)) if texts else []
    for candidate, vector in zip(candidates, vectors, strict=False):
        candidate.vector = vector
    plan = Plan(session, summary, candidates, through)
    if summary:
        plan.summary_vector = vectors[-1]
    return plan
