"""Recall latency and context size for one profile of 1,000 to 100,000 facts, then LoCoMo recall.

Run with `make bench` (or `python bench/recall_bench.py --sizes 1000 10000 --skip-locomo`).
Facts are the synthetic sentences of `store_bench.py`, loaded the same way, with one
session summary per 50 facts so that recall searches summaries too. `Memory.recall`
(k=10, summaries included) is timed one call at a time, query embedding included; the
background reinforcement of each call is flushed outside the timing. Then the LoCoMo
conversations of `shared/data/locomo` go through `somna.evaluation.evaluate_locomo`
on a temporary database, with the rules extractor.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path

from store_bench import QUERIES, bulk_load, percentile, sentences

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.evaluation import CATEGORY_NAMES, LocomoReport, evaluate_locomo
from somna.model import Summary, SummaryKind
from somna.ranking import count_tokens
from somna.store.sqlite import SQLiteStore

PROFILE = "bench"  # the profile `store_bench.bulk_load` fills
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


def run(size: int, texts: list[str], embedder: BundledEmbedder) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        memory = Memory(store=store, embedder=embedder, settings=Settings())
        memory.create_profile(PROFILE)
        bulk_load(memory, store, texts[:size])
        add_summaries(memory, store, texts[:size], max(1, size // FACTS_PER_SUMMARY))
        memory.recall(PROFILE, "warm up the vector caches", k=K)
        memory.flush()
        latencies = []
        for query in itertools.islice(itertools.cycle(QUERIES), CALLS):
            started = time.perf_counter()
            memory.recall(PROFILE, query, k=K, include_summaries=True)
            latencies.append((time.perf_counter() - started) * 1000)
            memory.flush()
        tokens = [count_tokens(memory.context(PROFILE, query)) for query in QUERIES]
        memory.flush()
        memory.close()
    return {
        "p50_ms": statistics.median(latencies),
        "p95_ms": percentile(latencies, 0.95),
        "tokens": statistics.mean(tokens),
    }


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
    args = parser.parse_args()
    texts = sentences()
    random.Random(7).shuffle(texts)
    if max(args.sizes, default=0) > len(texts):
        parser.error(f"at most {len(texts)} distinct synthetic facts are available")
    embedder = BundledEmbedder()
    embedder.embed(["load the model"])
    if args.sizes:
        print(f"recall k={K}, summaries included, {CALLS} calls per size")
        print(f"{'facts':>8}  {'summaries':>9}  {'recall p50':>10}  {'recall p95':>10}  tokens")
    for size in args.sizes:
        figures = run(size, texts, embedder)
        print(
            f"{size:>8,}  {max(1, size // FACTS_PER_SUMMARY):>9,}  {figures['p50_ms']:>8.1f}ms  "
            f"{figures['p95_ms']:>8.1f}ms  {figures['tokens']:>6.0f}",
            flush=True,
        )
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
