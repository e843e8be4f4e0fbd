"""Hybrid retrieval for `Memory.search` and `Memory.recall`, one candidate pipeline for both.

Candidates come from full text (the query's keywords) and from the query's
embedding, over facts and, for recall, over session summaries and day
digests; reciprocal rank fusion orders them; recall then weighs recency,
confidence and strength (`somna.ranking.weights`). Never calls a model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

import numpy as np

from somna.config import Settings
from somna.embed import Embedder
from somna.errors import EmbeddingError
from somna.llm.rules.asked import names_in
from somna.llm.rules.languages import language_of
from somna.memory.approval import is_pending_rule
from somna.memory.results import Found, Recalled, SearchHit
from somna.memory.usage import UsageRecorder
from somna.model import Fact, FactType, RecalledKind, Summary, SummaryKind, shared_words, utc
from somna.ranking import (
    Weights,
    asked_value,
    blend,
    filler_words,
    question_words,
    recency,
    rrf,
    topic_words,
    translated_words,
)
from somna.store import Candidate, Eligibility, FactFilter, Reader, Store
from somna.store.succession import replaced_by_words, successors

__all__ = ["Retrieval", "names_one_recalled", "relevant_facts", "standing"]

CANDIDATES = 50
"""How many candidates each signal contributes before fusion."""
_SUMMARY_KINDS = (SummaryKind.SESSION, SummaryKind.DAY)
SUMMARY_CONFIDENCE = 0.5
SUMMARY_STRENGTH = 0.5
"""A summary is weighed like an ordinary fact: neither trusted more nor fresher than one."""
STANDING_RULES = 50
"""The most standing instructions a context block lists, before any fact."""
SUMMARY_SHARE = 10
"""At most one result in ten (and at least one) is a summary: they give context, facts give
answers. On LoCoMo, one in four cost 1.7 points of evidence recall@10."""


@dataclass
class _Signals:
    """The ranked candidate lists of one query, ids prefixed by kind ("f:" or "s:")."""

    lists: dict[str, list[tuple[str, float]]]
    loaded: dict[str, Candidate] = field(default_factory=dict)
    """Candidates already read to build a list (the value list): recall reads them once."""

    def fused(self) -> list[tuple[str, float]]:
        return rrf([[i for i, _ in hits] for hits in self.lists.values()])

    @cached_property
    def background(self) -> float | None:
        """The median cosine of the vector candidates: how close the question is to this
        profile's facts in general. Closeness counts only above it, since a small
        embedder finds any two sentences of some languages close."""
        hits = self.lists.get("vector:cosine")
        return float(np.median([score for _, score in hits])) if hits else None

    @property
    def background_facts(self) -> int:
        """How many facts the background is the median of."""
        return len(self.lists.get("vector:cosine", []))

    def of(self, item: str) -> dict[str, float]:
        """Each list's rank and score of `item` ("text_rank", "bm25", …), where it is."""
        found: dict[str, float] = {}
        for rank_name, measure, places in self._places:
            place = places.get(item)
            if place is not None and rank_name not in found:
                found[rank_name] = place[0]
                found[measure] = round(place[1], 6)
        return found

    @cached_property
    def _places(self) -> list[tuple[str, str, dict[str, tuple[int, float]]]]:
        """Per list: its rank's name, its measure, and each candidate's first, best place.
        Only the few candidates recall keeps are asked for, so nothing more is built."""
        tables = []
        for name, hits in self.lists.items():
            signal, measure = name.split(":")
            places: dict[str, tuple[int, float]] = {}
            for rank, (candidate, score) in enumerate(hits, start=1):
                places.setdefault(candidate, (rank, score))
            tables.append((f"{signal}_rank", measure, places))
        return tables


@dataclass(frozen=True, slots=True)
class _Ranked:
    """A candidate weighed: what recall sorts and caps before it loads the few it keeps."""

    id: str
    recalled: Recalled
    """Without its fact and quote: those are read for the few kept, in `_loaded`."""


class Retrieval:
    def __init__(
        self, store: Store, embedder: Embedder, settings: Settings, usage: UsageRecorder
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.usage = usage
        self.weights = Weights(
            recency=settings.recency_weight,
            confidence=settings.confidence_weight,
            strength=settings.strength_weight,
            half_life_days=settings.recency_half_life_days,
        )

    def search(
        self, profile: str, query: str, k: int, as_of: datetime | None, now: datetime
    ) -> Found[SearchHit]:
        """Active facts only, by fused rank alone."""
        eligible = _eligibility(as_of, now)
        degraded: list[str] = []
        vector = self._embed(query, degraded)
        with self.store.read(profile) as tx:
            signals = self._facts(tx, query, vector, eligible)
            fused = signals.fused()[:k]
            facts = {f.id: f for f in tx.get_facts([i[2:] for i, _ in fused])}
        hits = []
        for item, score in fused:
            fact = facts.get(item[2:])
            if fact is None:
                continue
            found = signals.of(item)
            hits.append(
                SearchHit(
                    fact,
                    score,
                    _rank(found.get("text_rank")),
                    _rank(found.get("vector_rank")),
                    found.get("cosine"),
                )
            )
        return Found(hits, degraded)

    def recall(
        self,
        profile: str,
        query: str,
        k: int,
        *,
        as_of: datetime | None,
        types: Sequence[FactType] | None,
        include_summaries: bool,
        now: datetime,
        record: bool = True,
    ) -> Found[Recalled]:
        eligible = _eligibility(as_of, now)
        degraded: list[str] = []
        vector = self._embed(query, degraded)
        with self.store.read(profile) as tx:
            signals = self._facts(tx, query, vector, eligible)
            if include_summaries:
                words = " ".join(question_words(query))
                signals.lists["summary_text:bm25"] = [
                    (f"s:{i}", s)
                    for i, s in tx.summary_text_search(
                        words, _SUMMARY_KINDS, eligible.at, CANDIDATES
                    )
                ]
                if vector is not None:
                    signals.lists["summary_vector:cosine"] = [
                        (f"s:{i}", s)
                        for i, s in tx.summary_vector_search(
                            vector, _SUMMARY_KINDS, eligible.at, CANDIDATES
                        )
                    ]
            fused = signals.fused()[: 4 * k]
            unread = [i[2:] for i, _ in fused if i[0] == "f" and i[2:] not in signals.loaded]
            candidates = signals.loaded | {c.id: c for c in tx.candidates(unread)}
            summaries = {
                s.id: s for s in tx.get_summaries([i[2:] for i, _ in fused if i[0] == "s"])
            }
            ranked = []
            for item, rrf_score in fused:
                candidate, summary = candidates.get(item[2:]), summaries.get(item[2:])
                if candidate is not None and (types is None or candidate.type in types):
                    found = signals.of(item)
                    if "cosine" in found and signals.background is not None:
                        found["cosine_gap"] = round(found["cosine"] - signals.background, 6)
                        found["background_facts"] = signals.background_facts
                    ranked.append(self._weigh_fact(candidate, rrf_score, found, eligible))
                elif summary is not None:
                    ranked.append(
                        self._weigh_summary(summary, rrf_score, signals.of(item), eligible)
                    )
            ranked.sort(key=lambda r: (-r.recalled.score, r.recalled.kind, r.recalled.text, r.id))
            chosen = _loaded(tx, _cap_summaries(ranked, k))
        if record:  # multi-query recall records once, what it finally returns
            self.usage.record(profile, [r.fact for r in chosen if r.fact is not None], now)
        return Found(chosen, degraded)

    def _embed(self, query: str, degraded: list[str]) -> np.ndarray | None:
        """The query's vector, or None when the embedder is down: full text then works alone."""
        try:
            vector: np.ndarray = self.embedder.embed([query])[0]
        except EmbeddingError as exc:
            reason = str(exc).rstrip(".")
            degraded.append(f"Searched by full text only, because the embedder failed: {reason}.")
            return None
        return vector

    def _facts(
        self, tx: Reader, query: str, vector: np.ndarray | None, eligible: Eligibility
    ) -> _Signals:
        asked = question_words(query)
        words = " ".join(asked)
        # the question's words, and the same read in the other language: "livraison"
        # finds "deliveries go to the back gate" too
        searched = " ".join([*asked, *translated_words(asked, language_of(query))])
        lists = {
            "text:bm25": [(f"f:{i}", s) for i, s in tx.text_search(searched, eligible, CANDIDATES)]
        }
        if vector is not None:
            lists["vector:cosine"] = [
                (f"f:{i}", s) for i, s in tx.vector_search(vector, eligible, CANDIDATES)
            ]
        topical = topic_words(query)
        filling = filler_words(query)
        if topical:
            lists["topic:topic_bm25"] = [
                (f"f:{i}", s) for i, s in tx.text_search(" ".join(topical), eligible, CANDIDATES)
            ]
        if filling:
            hits = tx.text_search(" ".join(filling), eligible, CANDIDATES)
            if len(hits) < _TELLING * len(lists.get("vector:cosine") or lists["text:bm25"] or hits):
                lists["filler:filler_bm25"] = [(f"f:{i}", s) for i, s in hits]
        holds = asked_value(query)  # "how many…?": the close facts that hold a count
        loaded: dict[str, Candidate] = {}
        if holds is not None and "vector:cosine" in lists:
            cosines = dict(lists["vector:cosine"])
            loaded = {c.id: c for c in tx.candidates([i[2:] for i in cosines])}
            lists["value:cosine"] = [
                (f"f:{i}", cosines[f"f:{i}"]) for i, c in loaded.items() if holds.search(c.text)
            ]
        if not eligible.include_superseded:
            one_word = bool(topical or filling)  # a standing topic: one shared word is enough
            lists["succession:older_bm25"] = _successions(tx, query, words, eligible, one_word)
        return _Signals(lists, loaded)

    def _weigh_fact(
        self,
        fact: Candidate,
        rrf_score: float,
        found: dict[str, float],
        eligible: Eligibility,
    ) -> _Ranked:
        recent = recency(fact.valid_from, eligible.at, self.weights.half_life_days)
        score = blend(
            rrf_score,
            self.weights,
            recent=recent,
            confidence=fact.confidence,
            strength=fact.strength,
        )
        signals = {
            **found,
            "rrf": round(rrf_score, 6),
            "recency": round(recent, 4),
            "confidence": fact.confidence,
            "strength": fact.strength,
        }
        return _Ranked(
            fact.id,
            Recalled(
                RecalledKind.FACT, fact.text, score, signals, fact.valid_from, fact.recorded_at
            ),
        )

    def _weigh_summary(
        self, summary: Summary, rrf_score: float, found: dict[str, float], eligible: Eligibility
    ) -> _Ranked:
        start = summary.period_start or summary.created_at
        recent = recency(start, eligible.at, self.weights.half_life_days)
        score = blend(
            rrf_score,
            self.weights,
            recent=recent,
            confidence=SUMMARY_CONFIDENCE,
            strength=SUMMARY_STRENGTH,
        )
        signals = {**found, "rrf": round(rrf_score, 6), "recency": round(recent, 4)}
        return _Ranked(
            summary.id,
            Recalled(
                RecalledKind.SUMMARY,
                summary.text,
                score,
                signals,
                start,
                summary.created_at,
                summary=summary,
            ),
        )


_OLDER = 10
"""Superseded facts a question's words find, each standing for what replaced it."""
_SHARED = 2
"""Words of the question a superseded fact shares at least, names aside (a name is in
half the profile), fewer when the question has fewer: "which guests need a taxi?" is no
question about the old count of guests. One is enough when the question asks for a
standing topic, a date or a count ("when is the fitting planned?" finds the fitting's
old date, replaced by a yes to another day that names no fitting): 84.0% of the invented
scenarios' answers in the block with two words always, 85.4% so."""
_NAMED = re.compile(r"(?<=\w\W)[A-ZÀ-Ý][\w-]*|(?<=\w\W\W)[A-ZÀ-Ý][\w-]*")
"""A word a question writes with a capital, its first aside: a name."""


def _successions(
    tx: Reader, query: str, words: str, eligible: Eligibility, one_word: bool
) -> list[tuple[str, float]]:
    """The active facts that replaced those the question's words find among the superseded,
    in their order: "how many guests for the wedding?" finds "wedding … around 90 guests",
    replaced by "we'll finally be 104", which names neither. An old value's words still say
    what the new one is about."""
    asked = set(words.split()) - {n.casefold() for n in _NAMED.findall(query)}
    shared = min(1 if one_word else _SHARED, len(asked))
    if not shared:
        return []
    older = [
        (fact, score)
        for fact, score in replaced_by_words(tx, words, eligible, _OLDER)
        if shared_words(asked, question_words(fact.text)) >= shared
    ]
    now = successors(tx, [fact for fact, _ in older])
    ranked: dict[str, float] = {}  # each successor at the place of the first it replaced
    for fact, score in older:
        if fact.id in now:
            ranked.setdefault(f"f:{now[fact.id]}", score)
    return list(ranked.items())


def _loaded(tx: Reader, chosen: list[_Ranked]) -> list[Recalled]:
    """The chosen results, each fact loaded whole with its first quote: read for the few
    kept, not for every candidate."""
    fact_ids = [r.id for r in chosen if r.recalled.kind is RecalledKind.FACT]
    facts = {f.id: f for f in tx.get_facts(fact_ids)}
    quotes: dict[str, str] = {}
    for evidence in tx.evidence(fact_ids):
        quotes.setdefault(evidence.fact_id, evidence.quote)
    return [
        replace(r.recalled, fact=facts.get(r.id), quote=quotes.get(r.id))
        for r in chosen
        if r.recalled.summary is not None or r.id in facts
    ]


def _cap_summaries(ranked: list[_Ranked], k: int) -> list[_Ranked]:
    """The first `k` results, with at most k // SUMMARY_SHARE summaries (at least one)."""
    room = max(1, k // SUMMARY_SHARE)
    chosen: list[_Ranked] = []
    for item in ranked:
        if item.recalled.kind is RecalledKind.SUMMARY:
            if room == 0:
                continue
            room -= 1
        chosen.append(item)
        if len(chosen) == k:
            break
    return chosen


def _eligibility(as_of: datetime | None, now: datetime) -> Eligibility:
    return Eligibility(
        at=now if as_of is None else utc(as_of), now=now, include_superseded=as_of is not None
    )


def _rank(value: float | None) -> int | None:
    return None if value is None else int(value)


_TELLING = 0.5
"""Share of the facts near a question above which the words of a topic that only fills
tell nothing: where most facts are dated, a month named is no sign of an answer to
"when…?" (on LoCoMo, whose facts nearly all carry their date, answers in the block fell
from 66.2% to 64.5% with it)."""
_FILLED = 5
"""Facts a block about the client holds at least, when the profile has that many: the
answer is often the second or third fact by rank (a date for "when is the launch party?"
that never says "party"). On the development scenarios, answers in the block went from
84.4% to 89.1% filling to four near facts (3 gave 85.9%), to 90.6% filling to five. Filling
on by rank once the near ones run out (a small profile stands near none in particular)
took the invented scenarios from 87.5% to 93.0%, the development ones and LoCoMo as they
were, unrelated questions still left empty."""
_BACKGROUND_FACTS = 10
"""Facts near the question, at least, for their median to be a background a fact sharing a
word with the question must stand `context_text_floor` above: a profile of one fact is
its own background."""
_FILL_FLOOR = 0.5
"""Share of `context_floor` a fact filling a block stands above the background."""


def relevant_facts(
    recalled: Sequence[Recalled],
    settings: Settings,
    *,
    about_someone: bool = False,
    across: str | None = None,
    read: frozenset[str] | None = None,
    question: str | None = None,
) -> list[Fact]:
    """The recalled facts fit for a prompt: bearing on the question and not faded.

    A fact bears on the question when it names a topic the question asks about
    (`somna.ranking.topics`), when it replaced a fact that shares two of the question's
    words, names aside, or one for a question of a standing topic (`_successions`), when
    its cosine stands `context_floor` above the question's background (the median cosine
    of the profile's closest facts) and is `context_least_cosine` at least, or when it
    shares a word with the question and stands
    `context_text_floor` above that background. Relative, not absolute: an embedder that
    finds every sentence of a language close to every other lifts the background with
    the facts, and an unrelated question, close to nothing in particular, brings no fact.
    With the embedder down, a shared word is enough; a shared word and a cosine just above
    the background are enough for a fact in a language the embedder does not read
    (`read`, the languages it does, None for any: an English model reads French by its
    subwords, and its cosines then tell little apart), for one in another language than
    the `question` (found by a word translated), and in a profile of a few facts, which
    are their own background. A fact whose strength fell under
    `context_strength_floor` stays searchable but leaves the prompt. `across` is the
    question when the embedder matches meaning across languages: a fact written in
    another language than the question then needs to stand only `context_floor_across`
    above the background, since no word of the question can vouch for it.

    A question one fact bears on is about this client, and so is one that points at
    someone (`about_someone`: "What are we making for him?"): its block is filled up to
    `_FILLED` facts with the next ones by rank that stand half the floor above the
    background, then with those naming a topic that only fills (a weekday for "which
    day…?", a month for "when…?"), then with the rest by rank. Any other question no
    fact bears on brings none.
    """
    fresh = [
        r
        for r in recalled
        if r.fact is not None and r.fact.strength >= settings.context_strength_floor
    ]
    closeness = _closeness(settings, across)

    near_enough = min(settings.context_text_floor, 0.0)  # just above the background
    background = max((r.signals.get("background_facts", 0) for r in recalled), default=0)
    few = background < _BACKGROUND_FACTS
    asked_in = None if question is None else language_of(question)

    def text_floor(recalled: Recalled) -> float:
        fact = recalled.fact
        if few or fact is None:
            return near_enough  # a few facts are their own background
        written_in = language_of(fact.text)
        if read is not None and written_in not in read:
            return near_enough  # read by subwords: its cosines tell little apart
        if asked_in is not None and written_in != asked_in:
            return near_enough  # matched by a word translated: no cosine vouches for it
        return settings.context_text_floor

    kept = {id(r) for r in fresh if _bears_on_question(r, closeness, text_floor)}
    if (kept or about_someone) and len(kept) < _FILLED:  # about this client: worth reading
        near = settings.context_floor * _FILL_FLOOR
        rest = [r for r in fresh if id(r) not in kept]
        close = [r for r in rest if r.signals.get("cosine_gap", -1) >= near]
        fillers = [r for r in rest if "filler_rank" in r.signals and r not in close]
        others = [r for r in rest if r not in close and r not in fillers]
        kept.update(id(r) for r in (close + fillers + others)[: _FILLED - len(kept)])
    return [r.fact for r in fresh if id(r) in kept and r.fact is not None]


def names_one_recalled(question: str, recalled: Sequence[Recalled]) -> bool:
    """Whether `question` names someone or something by a name a recalled fact writes ("How
    many are we feeding at the Hobbs party?" where "Hobbs Ltd" is the client's company):
    it is about this client, whatever its other words. The word opening the question
    ("Comment", "Which") names no one, whatever a fact's question writes."""
    names = names_in(question, within=True)
    return any(
        re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", r.fact.text) is not None
        for name in names
        for r in recalled
        if r.fact is not None
    )


def _bears_on_question(
    recalled: Recalled,
    closeness: Callable[[Recalled], _Closeness],
    text_floor: Callable[[Recalled], float],
) -> bool:
    """Whether a recalled fact bears on the question; `text_floor`, how far above the
    background a fact that shares a word with it must stand; `closeness`, what one near it
    by meaning alone needs."""
    signals = recalled.signals
    if "topic_rank" in signals or "succession_rank" in signals:
        return True  # a topic asked about, or what replaced a value worded as the question
    gap = signals.get("cosine_gap")
    if "text_rank" in signals:
        return gap is None or gap >= text_floor(recalled)
    floor, least = closeness(recalled)
    return gap is not None and gap >= floor and signals.get("cosine", 1.0) >= least


_Closeness = tuple[float, float]
"""How far above the question's background a fact must stand, and the cosine it needs at
least, to bear on the question by closeness alone."""


def _closeness(settings: Settings, across: str | None) -> Callable[[Recalled], _Closeness]:
    """What a recalled fact needs to bear on the question on closeness alone:
    `context_floor` above the background and `context_least_cosine`; or, for a fact in
    another language than the question `across` (given only with an embedder that crosses
    them), `context_floor_across` and no least, its cosines running lower."""
    same = (settings.context_floor, settings.context_least_cosine)
    if across is None:
        return lambda _recalled: same
    asked_in = language_of(across)
    other = (settings.context_floor_across, -1.0)

    def closeness(recalled: Recalled) -> _Closeness:
        fact = recalled.fact
        return other if fact is not None and language_of(fact.text) != asked_in else same

    return closeness


def standing(store: Store, profile: str, now: datetime) -> tuple[str | None, list[Fact]]:
    """What every prompt block opens with, whatever the question: the profile's portrait and
    its standing instructions (those an agent proposed only once a person approved them)."""
    with store.read(profile) as tx:
        portraits = tx.summaries(SummaryKind.PORTRAIT, limit=1)
        rules = tx.list_facts(FactFilter(types=[FactType.INSTRUCTION], limit=STANDING_RULES), now)
    return (portraits[0].text if portraits else None), [f for f in rules if not is_pending_rule(f)]
