"""Add throughput and search latency for one profile of 1,000, 10,000 and 100,000 facts.

Run with `make bench` (or `python bench/store_bench.py --sizes 1000 10000`). Facts are
synthetic but distinct sentences; the bulk of each profile is loaded in batches
through the store, then `Memory.add_fact` and `Memory.search` are timed one call
at a time, query embedding included, on the embedded default (SQLite + bundled model),
and `Memory.add_facts` in batches of `--batch` new facts, then five short conversations
are consolidated with the offline rules extractor. Beside each wall time, the CPU time
of the whole process (every thread) per call, per fact or per session.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path

from somna import Fact, Memory, NewFact, Settings
from somna.embed import BundledEmbedder
from somna.model import lifecycle
from somna.store.sqlite import SQLiteStore

NAMES = [
    "Alice", "Bruno", "Chloe", "Dmitri", "Emma", "Farid", "Grace", "Hector", "Ines", "Jonas",
    "Keiko", "Liam", "Maya", "Noah", "Olga", "Pablo", "Quinn", "Rosa", "Sami", "Tara",
    "Umar", "Vera", "Wen", "Xavier", "Yara", "Zoe", "Anton", "Bea", "Carlos", "Dana",
    "Elin", "Femi", "Gita", "Hans", "Ivy", "Jae", "Kofi", "Lena", "Marco", "Nia",
    "Oscar", "Pia", "Raul", "Sofia", "Tomas", "Uma", "Viktor", "Wanda", "Yusuf", "Zara",
]  # fmt: skip
VERBS = [
    "likes", "owns", "dislikes", "is learning", "recommends", "bought", "sold", "collects",
    "repairs", "paints", "photographs", "studies", "teaches", "writes about", "visits",
    "organises", "maintains", "designs", "reviews", "borrowed", "lent", "plans to buy",
    "is allergic to", "cooks with", "grows", "builds", "restores", "reads about",
    "dreams about", "sketches", "translates", "records", "sponsors", "avoids", "prefers",
    "rents", "sells online", "tests", "packs", "gifts",
]  # fmt: skip
OBJECTS = [
    "vintage bicycles", "green tea", "jazz records", "mountain maps", "sourdough bread",
    "electric guitars", "old cameras", "Italian novels", "board games", "climbing shoes",
    "wooden boats", "tomato plants", "watercolour paints", "Japanese knives", "road atlases",
    "chess sets", "vinyl players", "rain jackets", "pottery wheels", "solar lamps",
    "linen shirts", "hiking boots", "herbal soaps", "paper kites", "brass trumpets",
    "silk scarves", "garden tools", "yoga mats", "film projectors", "marble statues",
    "spicy noodles", "fountain pens", "leather bags", "bird feeders", "ceramic mugs",
    "snow globes", "vintage watches", "travel guides", "cotton quilts", "sea kayaks",
    "tin toys", "poetry books", "vegan cheese", "camping stoves", "retro consoles",
    "tulip bulbs", "olive oils", "beeswax candles", "ski goggles", "map puzzles",
    "wool sweaters", "coffee grinders", "drone kits", "maple syrup", "bonsai trees",
    "comic books", "harmonicas", "sailing charts", "espresso cups", "tennis rackets",
]  # fmt: skip
QUERIES = [
    "what does she like to drink?", "which instruments does he play?", "hobbies outdoors",
    "what is she allergic to?", "books and reading", "things for the garden",
    "what did he buy recently?", "cooking and food", "travel plans", "collections",
]  # fmt: skip


def sentences() -> list[str]:
    triples = itertools.product(NAMES, VERBS, OBJECTS)
    return [f"{name} {verb} {thing}." for name, verb, thing in triples]


SESSIONS = 5


def chat(session: int) -> list[tuple[str, str]]:
    """A short invented conversation, different for each session."""
    thing = OBJECTS[session % len(OBJECTS)]
    return [
        ("user", f"Hi, I moved to a flat near the river last week, session {session}."),
        ("assistant", "Congratulations on the move! How do you like it?"),
        ("user", f"I love it. I also started collecting {thing}."),
        ("assistant", f"Nice, what got you into {thing}?"),
        ("user", "My sister gave me one for my birthday and I kept going."),
        ("assistant", "That sounds like a lovely start."),
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bulk_load(memory: Memory, store: SQLiteStore, texts: list[str]) -> None:
    embedder = memory.embedder
    for start in range(0, len(texts), 2000):
        chunk = texts[start : start + 2000]
        vectors = embedder.embed(chunk)
        now = memory.now()
        with store.write("bench") as tx:
            for text, vector in zip(chunk, vectors, strict=True):
                fact = Fact(profile_id="bench", text=text, recorded_at=now, valid_from=now)
                tx.apply(lifecycle.create(fact, vector=vector.tolist(), actor="bench"))


def run(
    size: int, texts: list[str], embedder: BundledEmbedder, samples: int, batch: int
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        memory = Memory(store=store, embedder=embedder, settings=Settings())
        memory.create_profile("bench")
        bulk_load(memory, store, texts[: size - samples])
        memory.search("bench", "warm up the vector cache", k=5)
        started, used = time.perf_counter(), time.process_time()
        for text in texts[size - samples : size]:
            memory.add_fact("bench", text)
        add_s, add_cpu = time.perf_counter() - started, time.process_time() - used
        extra = [NewFact(text=text) for text in texts[size : size + 2 * batch]]
        started, used = time.perf_counter(), time.process_time()
        for start in range(0, len(extra), batch):
            memory.add_facts("bench", extra[start : start + batch])
        bulk_s, bulk_cpu = time.perf_counter() - started, time.process_time() - used
        latencies, cpu = [], []
        for query in itertools.islice(itertools.cycle(QUERIES), 200):
            started, used = time.perf_counter(), time.process_time()
            memory.search("bench", query, k=5)
            cpu.append((time.process_time() - used) * 1000)
            latencies.append((time.perf_counter() - started) * 1000)
        for session in range(SESSIONS):
            memory.add_messages("bench", f"chat-{session}", chat(session))
        started, used = time.perf_counter(), time.process_time()
        run = memory.consolidate("bench", idle_hours=0)
        session_s, session_cpu = time.perf_counter() - started, time.process_time() - used
        memory.close()
    done = max(1, run.sessions_consolidated)
    return {
        "session_ms": session_s * 1000 / done,
        "session_cpu_ms": session_cpu * 1000 / done,
        "add_per_s": samples / add_s,
        "add_cpu_ms": add_cpu * 1000 / samples,
        "bulk_per_s": len(extra) / bulk_s,
        "bulk_cpu_ms": bulk_cpu * 1000 / len(extra),
        "p50_ms": statistics.median(latencies),
        "p95_ms": percentile(latencies, 0.95),
        "cpu_p50_ms": statistics.median(cpu),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--samples", type=int, default=300, help="add_fact calls timed per size")
    parser.add_argument("--batch", type=int, default=500, help="facts per add_facts call (2 calls)")
    args = parser.parse_args()
    texts = sentences()
    random.Random(7).shuffle(texts)
    if max(args.sizes) + 2 * args.batch > len(texts):
        parser.error(f"at most {len(texts)} distinct synthetic facts are available")
    embedder = BundledEmbedder()
    embedder.embed(["load the model"])
    print(
        f"{'facts':>8}  {'add_fact/s':>10}  {'CPU/fact':>8}  {'add_facts/s':>11}  {'CPU/fact':>8}"
        f"  {'search p50':>10}  {'search p95':>10}  {'CPU p50':>8}  {'session':>8}  {'CPU':>8}"
    )
    for size in args.sizes:
        f = run(size, texts, embedder, min(args.samples, size), args.batch)
        print(
            f"{size:>8,}  {f['add_per_s']:>10.0f}  {f['add_cpu_ms']:>6.1f}ms  "
            f"{f['bulk_per_s']:>11.0f}  {f['bulk_cpu_ms']:>6.1f}ms  {f['p50_ms']:>8.1f}ms  "
            f"{f['p95_ms']:>8.1f}ms  {f['cpu_p50_ms']:>6.1f}ms  {f['session_ms']:>6.0f}ms  "
            f"{f['session_cpu_ms']:>6.0f}ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
