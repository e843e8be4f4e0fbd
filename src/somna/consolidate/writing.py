"""Write and archive: one session's facts, evidence, events, summary and status in ONE
transaction (invariant 6), its messages archived up to the last one read.

The write checks that the session is still leased by this run (`finish_session`): a
session another worker took meanwhile writes nothing. A dry run writes nothing and
counts what the write would have done (`count_dry`).
"""

from __future__ import annotations

from datetime import timedelta

from somna.consolidate.job import Job, Means
from somna.consolidate.plan import Plan
from somna.consolidate.staging import StagedWrite, reconcile
from somna.model import Profile, Run, Summary, SummaryKind, Verdict
from somna.store import Finished, Writer

__all__ = ["count_dry", "write"]


def write(means: Means, profile: Profile, plan: Plan, run: Run, job: Job) -> None:
    """Write the session's plan and archive its messages; counted in `run` once written."""
    archive_days = means.tuned(profile).archive_days
    tally = Run()
    with means.store.write(profile.id) as tx:
        staged = StagedWrite(
            tx,
            (c.fact.wording for c in plan.candidates),
            (fact_id for c in plan.candidates for fact_id in c.verdicts),
        )
        fact_ids = [reconcile(staged, c, job.now, tally) for c in plan.candidates]
        tx.apply(staged.change)
        if plan.summary:
            _add_summary(tx, plan, fact_ids, job)
        archived = tx.finish_session(
            Finished(
                plan.session.id,
                job.worker,
                at=job.now,
                through_seq=plan.through_seq,
                purge_after=job.now + timedelta(days=archive_days),
            )
        )
    run.facts_added += tally.facts_added
    run.facts_reinforced += tally.facts_reinforced
    run.facts_superseded += tally.facts_superseded
    run.facts_disputed += tally.facts_disputed
    run.messages_archived += archived


def _add_summary(tx: Writer, plan: Plan, fact_ids: list[str], job: Job) -> None:
    session = plan.session
    summary = Summary(
        profile_id=session.profile_id,
        kind=SummaryKind.SESSION,
        text=plan.summary,
        period_start=session.started_at,
        period_end=session.last_message_at,
        session_id=session.id,
        sources=fact_ids,
        created_at=job.now,
    )
    vector = plan.summary_vector
    tx.add_summary(summary, None if vector is None else vector.tolist())


def count_dry(plan: Plan, run: Run, earlier: list[Plan]) -> None:
    """Count as the real run would: a text an earlier session of the run already said
    is reinforced then, not added twice."""
    said = {
        c.fact.wording
        for p in earlier
        if p.session.profile_id == plan.session.profile_id
        for c in p.candidates
    }
    for candidate in plan.candidates:
        verdicts = set(candidate.verdicts.values())
        if Verdict.DUPLICATE in verdicts or candidate.fact.wording in said:
            run.facts_reinforced += 1
        else:
            run.facts_added += 1
            run.facts_superseded += Verdict.SUPERSEDES in verdicts
            run.facts_disputed += Verdict.CONTRADICTS in verdicts
