"""Add throughput and search latency for one profile of 1,000, 10,000 and 100,000 facts.

Run with `make bench` (or `python bench/store_bench.py --sizes 1000 10000`). Facts are
synthetic but distinct sentences; the bulk of each profile is loaded in batches
through the store, then `Memory.add_fact` and `Memory.search` are timed one call
at a time, query embedding included, on the embedded default (SQLite + bundled model).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path

from somna import Fact, Memory, Settings
from somna.embed import BundledEmbedder
from somna.model import lifecycle
from somna.store.sqlite import SQLiteStore

NAMES = [
    "Alice", "Bruno", "Chloe", "Dmitri", "Emma", "Farid", "Grace", "Hugo", "Ines", "Jonas",
    "Keiko", "Liam", "Maya", "Noah", "Olga", "Pablo", "Quinn", "Rosa", "Sami", "Tara",
    "Umar", "Vera", "Wen", "Xavier", "Yara", "Zoe", "Anton", "Bea", "Carlos", "Dana",
    "Elif", "Femi", "Gita", "Hans", "Ivy", "Jae", "Kofi", "Lena", "Marco", "Nia",
    "Oscar", "Priya", "Raul", "Sofia", "Tomas", "Uma", "Viktor", "Wanda", "Yusuf", "Zara",
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


def run(size: int, texts: list[str], embedder: BundledEmbedder, samples: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        memory = Memory(store=store, embedder=embedder, settings=Settings())
        memory.create_profile("bench")
        bulk_load(memory, store, texts[: size - samples])
        memory.search("bench", "warm up the vector cache", k=5)
        started = time.perf_counter()
        for text in texts[size - samples : size]:
            memory.add_fact("bench", text)
        add_rate = samples / (time.perf_counter() - started)
        latencies = []
        for query in itertools.islice(itertools.cycle(QUERIES), 200):
            started = time.perf_counter()
            memory.search("bench", query, k=5)
            latencies.append((time.perf_counter() - started) * 1000)
        memory.close()
    return {
        "add_per_s": add_rate,
        "p50_ms": statistics.median(latencies),
        "p95_ms": percentile(latencies, 0.95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--samples", type=int, default=300, help="add_fact calls timed per size")
    args = parser.parse_args()
    texts = sentences()
    random.Random(7).shuffle(texts)
    if max(args.sizes) > len(texts):
        parser.error(f"at most {len(texts)} distinct synthetic facts are available")
    embedder = BundledEmbedder()
    embedder.embed(["load the model"])
    print(f"{'facts':>8}  {'add_fact/s':>10}  {'search p50':>10}  {'search p95':>10}")
    for size in args.sizes:
        figures = run(size, texts, embedder, min(args.samples, size))
        print(
            f"{size:>8,}  {figures['add_per_s']:>10.0f}  {figures['p50_ms']:>8.1f}ms  "
            f"{figures['p95_ms']:>8.1f}ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
