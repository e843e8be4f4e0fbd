"""LoCoMo as a recall benchmark: ingest a conversation, consolidate it, ask its questions.

For each conversation file (one profile), the sessions are ingested with `read_locomo`
and consolidated by the memory's configured LLM at the moment one day after the last
turn, so the night's hygiene sees the conversation as just finished. Then every
question of the chosen categories is put to `Memory.recall` with no `as_of` (at the
real now: consolidated facts carry no `expires_at`, so nothing expires between the
night and the question; category TTLs act only when the hygiene runs). A recalled fact
hits when one of its evidence messages is an evidence turn (dia_id) of the question.

Recall reinforces what it returns (strength, recall count), which reorders later
questions; `Memory.flush` after every call makes that effect land in the same order on
every run, and results of equal score (which recall orders by their random ids) are
put in order of kind and text, so two runs on fresh databases give the same figures
(latency aside). Token counts of the context block come from a second pass, so the
wider context recall (k=20) does not reinforce facts before the recall figures are
taken.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from somna.errors import InvalidInputError
from somna.evaluation.baseline import TurnIndex
from somna.evaluation.metrics import (
    block_facts,
    mean,
    normalize_dia_ids,
    percentile,
    recall_at_k,
)
from somna.evaluation.report import (
    CATEGORY_NAMES,
    ConsolidationFigures,
    ConversationFigures,
    Distribution,
    GroupFigures,
    LocomoReport,
    QuestionResult,
    RecalledItem,
    RuleFigures,
)
from somna.memory import Memory, Recalled
from somna.model import EventAction, Fact, FactStatus, Summary, SummaryKind, fold_text
from somna.ranking import HEADER, count_tokens
from somna.sources import Conversation, read_locomo

__all__ = [
    "CONSOLIDATE_AFTER",
    "LocomoQuestion",
    "evaluate_locomo",
    "read_locomo_observations",
    "read_locomo_questions",
]

CONSOLIDATE_AFTER = timedelta(days=1)
"""How long after a conversation's last turn its consolidation runs."""

_PAGE = 10_000
_EVERY = 1_000_000
_PROGRESS_EVERY = 50

Progress = Callable[[str], None]


@dataclass(frozen=True)
class LocomoQuestion:
    """One question of a LoCoMo file; `evidence` holds its turn ids, normalized."""

    number: int
    category: int
    question: str
    answer: str | None
    evidence: tuple[str, ...]


def read_locomo_questions(path: Path) -> list[LocomoQuestion]:
    """The questions (`qa`) of a LoCoMo conversation file, in file order."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data["qa"]
        if not isinstance(items, list):
            raise TypeError("'qa' is not a list")
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InvalidInputError(f"{path} has no LoCoMo questions ('qa'): {exc}.") from exc
    questions = []
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        try:
            category = int(item.get("category", 0))
        except (TypeError, ValueError):
            continue
        answer = item.get("answer")
        raw = item.get("evidence") or []
        questions.append(
            LocomoQuestion(
                number=number,
                category=category,
                question=str(item.get("question") or "").strip(),
                answer=None if answer is None else str(answer),
                evidence=tuple(normalize_dia_ids(raw if isinstance(raw, list | str) else [])),
            )
        )
    return questions


def read_locomo_observations(path: Path) -> list[str]:
    """The turn (dia_id) behind each reference observation (`session_N_observation`).

    LoCoMo's authors wrote these facts by hand, each with the turn that supports it; an
    observation whose turn id cannot be read is left out.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"{path} is not a LoCoMo conversation file: {exc}.") from exc
    turns: list[str] = []
    for key, value in data.items() if isinstance(data, dict) else ():
        if not (key.startswith("session_") and key.endswith("_observation")):
            continue
        for items in value.values() if isinstance(value, dict) else ():
            for item in items if isinstance(items, list) else ():
                if isinstance(item, list) and len(item) >= 2:
                    found = normalize_dia_ids(
                        item[1] if isinstance(item[1], list) else str(item[1])
                    )
                    turns += found[:1]
    return turns


def evaluate_locomo(
    memory: Memory,
    paths: Sequence[Path],
    *,
    k_values: Iterable[int] = (5, 10),
    categories: Iterable[int] = (1, 2, 3, 4),
    consolidate: bool = True,
    baseline: bool = False,
    progress: Progress | None = None,
) -> LocomoReport:
    """Evaluate recall on LoCoMo conversation files, one profile per file.

    Each file is ingested (sessions already stored are skipped), consolidated unless
    `consolidate` is False (for a database consolidated beforehand), and each of its
    questions of `categories` is recalled with `k = max(k_values)`. Use a fresh
    database: recall reinforces facts, so a second evaluation on the same one starts
    from a different state. With `baseline`, every question is also put to an index of
    the raw turns (`TurnIndex`) and scored the same way. `progress` receives one line of
    narration now and then.

    >>> report = evaluate_locomo(Memory(), [Path("26.json")], k_values=[10])  # doctest: +SKIP
    >>> report.by_category[4].evidence_recall  # doctest: +SKIP
    {10: 0.061}
    """
    ks = sorted(set(k_values))
    wanted = sorted(set(categories))
    if not paths:
        raise InvalidInputError("Give at least one LoCoMo conversation file.")
    if not ks or ks[0] < 1:
        raise InvalidInputError("Every k must be at least 1, and at least one k is needed.")
    if not wanted or not set(wanted) <= set(CATEGORY_NAMES):
        raise InvalidInputError(
            f"LoCoMo categories are {', '.join(map(str, CATEGORY_NAMES))}; got {wanted or 'none'}."
        )
    say = progress or (lambda line: None)
    # Every file is read before anything is written, so a bad one stops the run early.
    loaded = [
        (Path(path), read_locomo(Path(path)), read_locomo_questions(Path(path))) for path in paths
    ]
    profiles: dict[str, Path] = {}
    for path, conversations, _ in loaded:
        if not conversations:
            raise InvalidInputError(f"{path} holds no session with turns.")
        profile = conversations[0].profile
        if profile in profiles:
            raise InvalidInputError(
                f"{profiles[profile]} and {path} would both be profile {profile!r}: "
                "give the files different names."
            )
        profiles[profile] = path
    figures: list[ConversationFigures] = []
    results: list[QuestionResult] = []
    for path, conversations, asked in loaded:
        questions = [q for q in asked if q.category in wanted and q.question]
        run = _Conversation(memory, path, conversations, ks, say)
        prepared = run.prepare(consolidate, len(questions))
        answered = run.ask(questions, baseline)
        figures.append(prepared.model_copy(update={"figures": _group(answered, ks)}))
        results += answered
    return LocomoReport(
        k_values=ks,
        categories=wanted,
        conversations=figures,
        by_category={c: _group([r for r in results if r.category == c], ks) for c in wanted},
        overall=_group(results, ks),
        latency_ms=_distribution([r.latency_ms for r in results]),
        context_tokens=_distribution([float(r.context_tokens) for r in results]),
        questions=results,
    )


class _Conversation:
    """One file's profile: ingest and consolidate it, then ask its questions."""

    def __init__(
        self,
        memory: Memory,
        path: Path,
        conversations: list[Conversation],
        ks: list[int],
        say: Progress,
    ) -> None:
        self.memory = memory
        self.path = path
        self.conversations = conversations
        self.profile = conversations[0].profile
        self.ks = ks
        self.say = say
        self.trace = _Trace(memory, self.profile, conversations)
        self.covered: set[str] = set()
        self.expired: set[str] = set()
        self.texts: dict[str, set[str]] = {}
        """The turns behind each active fact's text, to read a context block."""

    def prepare(self, consolidate: bool, questions: int) -> ConversationFigures:
        memory, name = self.memory, self.path.name
        turns = sum(len(c.turns) for c in self.conversations)
        ingested = memory.ingest(self.conversations)
        self.say(f"{name}: {ingested.sessions} sessions ingested ({ingested.messages} turns).")
        consolidation = None
        if consolidate:
            last = max(t.at for c in self.conversations for t in c.turns)
            started = time.perf_counter()
            run = memory.consolidate(self.profile, now=last + CONSOLIDATE_AFTER)
            seconds = time.perf_counter() - started
            consolidation = ConsolidationFigures(
                llm=memory.llm.name,
                seconds=round(seconds, 3),
                sessions=run.sessions_consolidated,
                facts_added=run.facts_added,
                facts_reinforced=run.facts_reinforced,
                facts_superseded=run.facts_superseded,
                facts_disputed=run.facts_disputed,
                facts_rejected=run.facts_rejected,
                facts_expired=run.facts_expired,
                llm_calls=run.llm_calls,
                prompt_tokens=run.prompt_tokens,
                completion_tokens=run.completion_tokens,
            )
            self.say(
                f"{name}: {run.sessions_consolidated} sessions consolidated in {seconds:.1f} s, "
                f"{run.facts_added} facts added."
            )
        facts = _every_fact(memory, self.profile)
        active = [f.id for f in facts if f.status.is_active]
        expired = [f.id for f in facts if f.status is FactStatus.EXPIRED]
        self.covered = _turns_behind(self.trace, active)
        self.expired = _turns_behind(self.trace, expired) - self.covered
        self.texts = {f.text: self.trace.facts([f.id])[f.id] for f in facts if f.status.is_active}
        stored = _turns_behind(self.trace, [f.id for f in facts])
        observed = [t for t in read_locomo_observations(self.path) if t in self.trace.turns]
        rules: dict[str, list[bool]] = {}
        events = memory.events(self.profile, [f.id for f in facts])
        behind = self.trace.facts([f.id for f in facts])
        for event in events:
            if event.action is EventAction.CREATED:
                rule = str((event.after or {}).get("rule") or "unnamed")
                rules.setdefault(rule, []).append(bool(behind[event.fact_id] & set(observed)))
        return ConversationFigures(
            path=str(self.path),
            profile=self.profile,
            sessions=len(self.conversations),
            turns=turns,
            sessions_already_stored=ingested.skipped,
            questions=questions,
            facts_stored=len(facts),
            facts_active=len(active),
            facts_expired=sum(f.status is FactStatus.EXPIRED for f in facts),
            session_summaries=_count_summaries(memory, self.profile, SummaryKind.SESSION),
            day_digests=_count_summaries(memory, self.profile, SummaryKind.DAY),
            facts_per_turn=round(len(active) / turns, 4) if turns else 0.0,
            items_per_turn=round(len(facts) / turns, 4) if turns else 0.0,
            observations=len(observed),
            observation_recall=mean(float(t in stored) for t in observed),
            rules={
                r: RuleFigures(items=len(v), on_reference=sum(v)) for r, v in sorted(rules.items())
            },
            consolidation=consolidation,
        )

    def ask(self, questions: Sequence[LocomoQuestion], baseline: bool) -> list[QuestionResult]:
        memory, k = self.memory, max(self.ks)
        asked: list[tuple[LocomoQuestion, list[Recalled], float]] = []
        for done, question in enumerate(questions, start=1):
            started = time.perf_counter()
            recalled: list[Recalled] = memory.recall(self.profile, question.question, k=k)
            latency = (time.perf_counter() - started) * 1000
            # Equal scores come in the order of their random ids: order them by content.
            recalled.sort(key=lambda r: (-r.score, r.kind, r.text))
            memory.flush()  # reinforcement lands before the next question, on every run alike
            asked.append((question, recalled, latency))
            if done % _PROGRESS_EVERY == 0 or done == len(questions):
                self.say(f"{self.path.name}: {done}/{len(questions)} questions recalled.")
        index = TurnIndex(self.conversations, memory.embedder) if baseline else None
        results = []
        for question, recalled, latency in asked:
            block = memory.context(self.profile, question.question)
            memory.flush()
            result = self._score(question, recalled, latency, block)
            if index is not None:
                found = [{t} for t in index.search(question.question, k)]
                scores = {q: recall_at_k(result.evidence, found, q) for q in self.ks}
                result = result.model_copy(
                    update={"baseline_recall": {q: v for q, v in scores.items() if v is not None}}
                )
            results.append(result)
        if index is not None:
            index.close()
        return results

    def _score(
        self, question: LocomoQuestion, recalled: list[Recalled], latency: float, block: str
    ) -> QuestionResult:
        turns = self.trace.turns
        evidence = [t for t in question.evidence if t in turns]
        sessions = list(dict.fromkeys(turns[t][0] for t in evidence))
        behind_facts = self.trace.facts([r.fact.id for r in recalled if r.fact is not None])
        items = []
        for rank, result in enumerate(recalled, start=1):
            if result.fact is not None:
                dia_ids = behind_facts[result.fact.id]
                keys = {turns[t][0] for t in dia_ids} | self.trace.fact_sessions(result.fact.id)
                summary_kind = None
            else:
                assert result.summary is not None
                dia_ids, keys = set(), self.trace.summary_sessions(result.summary)
                summary_kind = result.summary.kind.value
            items.append(
                RecalledItem(
                    rank=rank,
                    kind=result.kind,
                    summary_kind=summary_kind,
                    id=result.id,
                    text=result.text,
                    score=round(result.score, 6),
                    turns=sorted(dia_ids, key=_dia_order),
                    sessions=sorted(keys, key=_session_order),
                )
            )
        by_turn = [set(item.turns) for item in items]
        by_session = [set(item.sessions) for item in items]
        evidence_recall = {k: recall_at_k(evidence, by_turn, k) for k in self.ks}
        session_recall = {k: recall_at_k(sessions, by_session, k) for k in self.ks}
        return QuestionResult(
            conversation=self.profile,
            number=question.number,
            category=question.category,
            question=question.question,
            answer=question.answer,
            evidence=evidence,
            evidence_sessions=sessions,
            unknown_evidence=[t for t in question.evidence if t not in turns],
            covered_evidence=[t for t in evidence if t in self.covered],
            expired_evidence=[t for t in evidence if t in self.expired],
            evidence_recall={k: v for k, v in evidence_recall.items() if v is not None},
            session_recall={k: v for k, v in session_recall.items() if v is not None},
            latency_ms=round(latency, 3),
            context_tokens=count_tokens(block),
            context_facts=len(lines := block_facts(block, HEADER)),
            context_evidence=any(self.texts.get(line, set()) & set(evidence) for line in lines),
            recalled=items,
        )


class _Trace:
    """What stored facts and summaries stand for in the benchmark: turns and session keys.

    A fact's evidence names its message, whose meta keeps the turn's dia_id (from the
    hot table or the archive); once the archive is purged, the quote is looked up
    among the session's turns instead, as consolidation verified it (invariant 5).
    """

    def __init__(self, memory: Memory, profile: str, conversations: list[Conversation]) -> None:
        self.memory = memory
        self.profile = profile
        self.turns: dict[str, tuple[str, str]] = {}
        """dia_id: (session key, folded text)."""
        for conversation in conversations:
            for turn in conversation.turns:
                for dia_id in normalize_dia_ids(str(turn.meta.get("dia_id", "")))[:1]:
                    self.turns[dia_id] = (conversation.session_key, fold_text(turn.content))
        self._fact_turns: dict[str, set[str]] = {}
        self._fact_sessions: dict[str, set[str]] = {}
        self._summary_sessions: dict[str, set[str]] = {}
        self._keys: dict[str, str] = {}
        self._sessions_of: dict[str, str | None] = {}

    def facts(self, fact_ids: Sequence[str]) -> dict[str, set[str]]:
        """The turns behind each fact's evidence, read once per fact."""
        missing = [i for i in dict.fromkeys(fact_ids) if i not in self._fact_turns]
        if missing:
            for fact_id in missing:
                self._fact_turns[fact_id], self._fact_sessions[fact_id] = set(), set()
            for quote in self.memory.evidence(self.profile, missing):
                key, message, fact_id = quote.session_key, quote.message, quote.evidence.fact_id
                found = normalize_dia_ids(str(message.meta.get("dia_id", ""))) if message else []
                dia_id = found[0] if found else self._locate(quote.evidence.quote, key)
                if dia_id is not None:
                    self._fact_turns[fact_id].add(dia_id)
                if key is not None:
                    self._fact_sessions[fact_id].add(key)
        return {i: self._fact_turns[i] for i in fact_ids}

    def fact_sessions(self, fact_id: str) -> set[str]:
        return self._fact_sessions.get(fact_id, set())

    def summary_sessions(self, summary: Summary) -> set[str]:
        """The session of a session summary; the sessions of a day digest's summaries."""
        if summary.id not in self._summary_sessions:
            if summary.kind is SummaryKind.DAY:
                ids = self._sessions_of_summaries(summary.sources)
            else:
                ids = [summary.session_id]
            if any(i not in self._keys for i in ids if i):
                every = self.memory.sessions(self.profile, limit=_EVERY)
                self._keys.update((s.id, s.key) for s in every)
            self._summary_sessions[summary.id] = {self._keys[i] for i in ids if i in self._keys}
        return self._summary_sessions[summary.id]

    def _sessions_of_summaries(self, summary_ids: Sequence[str]) -> list[str | None]:
        """The session of each session summary (all of them read again when one is new)."""
        if any(i not in self._sessions_of for i in summary_ids):
            summaries = self.memory.summaries(self.profile, SummaryKind.SESSION, limit=_EVERY)
            self._sessions_of = {s.id: s.session_id for s in summaries}
        return [self._sessions_of.get(i) for i in summary_ids]

    def _locate(self, quote: str, key: str | None) -> str | None:
        needle = fold_text(quote)
        if len(needle) < 3:
            return None
        for dia_id, (session, text) in self.turns.items():
            if (key is None or session == key) and needle in text:
                return dia_id
        return None


def _turns_behind(trace: _Trace, fact_ids: list[str]) -> set[str]:
    return set().union(*trace.facts(fact_ids).values()) if fact_ids else set()


def _every_fact(memory: Memory, profile: str) -> list[Fact]:
    facts: list[Fact] = []
    while True:
        page = memory.list_facts(profile, status=list(FactStatus), limit=_PAGE, offset=len(facts))
        facts += page
        if len(page) < _PAGE:
            return facts


def _count_summaries(memory: Memory, profile: str, kind: SummaryKind) -> int:
    return len(memory.summaries(profile, kind, limit=1_000_000))


def _group(results: Sequence[QuestionResult], ks: Sequence[int]) -> GroupFigures:
    scored = [r for r in results if r.evidence]
    return GroupFigures(
        questions=len(results),
        scored=len(scored),
        evidence_recall={k: mean(r.evidence_recall.get(k) for r in scored) for k in ks},
        session_recall={k: mean(r.session_recall.get(k) for r in scored) for k in ks},
        coverage=mean(len(r.covered_evidence) / len(r.evidence) for r in scored),
        expired=mean(len(r.expired_evidence) / len(r.evidence) for r in scored),
        baseline_recall={
            k: mean(r.baseline_recall.get(k) for r in scored)
            for k in ks
            if any(r.baseline_recall for r in scored)
        },
        context_with_evidence=mean(float(r.context_evidence) for r in scored),
        context_facts=mean(float(r.context_facts) for r in results),
    )


def _distribution(values: Sequence[float]) -> Distribution:
    return Distribution(
        count=len(values),
        mean=mean(values),
        p50=percentile(values, 0.5),
        p95=percentile(values, 0.95),
        max=max(values) if values else None,
    )


def _dia_order(dia_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in dia_id[1:].split(":"))


def _session_order(key: str) -> tuple[int, str]:
    number = key.rpartition("_")[2]
    return (int(number), key) if number.isdigit() else (1 << 30, key)
