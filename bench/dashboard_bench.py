"""How long the dashboard's Facts pages take on one profile of 100,000 facts.

Run with `python bench/dashboard_bench.py [--facts 100000] [--db PATH]` (with `--db`,
a file kept from an earlier run is reused instead of loaded again). The facts are loaded
in batches through the store with random unit vectors (the pages read no vector;
search embeds its query with the bundled model as usual); then the first page, a
deep page, a filtered page and a search are each fetched a few times through the
app, logged in with an admin key, and their median time printed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from fastapi.testclient import TestClient
from store_bench import sentences

from somna import Fact, Memory, Settings
from somna.interfaces.api import create_app
from somna.model import lifecycle
from somna.store.sqlite import SQLiteStore

PROFILE = "bench"


def load(store: SQLiteStore, memory: Memory, count: int) -> None:
    texts = sentences()[:count]
    rng = np.random.default_rng(7)
    categories = ["habit", "plan", "preference", "work", None]
    for start in range(0, len(texts), 5000):
        chunk = texts[start : start + 5000]
        vectors = rng.normal(size=(len(chunk), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        now = memory.now()
        with store.write(PROFILE) as tx:
            for i, (text, vector) in enumerate(zip(chunk, vectors, strict=True)):
                fact = Fact(
                    profile_id=PROFILE,
                    text=text,
                    category=categories[(start + i) % len(categories)],
                    recorded_at=now,
                    valid_from=now,
                )
                tx.apply(lifecycle.create(fact, vector=vector.tolist(), actor="bench"))


def timed(client: TestClient, url: str, repeat: int) -> tuple[float, int]:
    times, rows = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        answer = client.get(url)
        times.append(time.perf_counter() - started)
        answer.raise_for_status()
        rows = max(answer.text.count("<tr>") - 1, 0)
    return statistics.median(times), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", type=Path, help="a SQLite file to keep (and reuse) the facts in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(args.db or Path(folder) / "bench.db")
        memory = Memory(store=store, settings=Settings())
        if store.get_profile(PROFILE) is None:
            memory.create_profile(PROFILE)
            started = time.perf_counter()
            load(store, memory, args.facts)
            print(f"loaded {args.facts:,} facts in {time.perf_counter() - started:.1f} s")
        _, secret = memory.keys.create(admin=True)
        with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
            login = client.get("/ui/login").text
            csrf = re.search(r'name="csrf" value="([^"]+)"', login)
            assert csrf is not None
            client.post("/ui/login", data={"csrf": csrf.group(1), "key": secret})
            deep = args.facts // 50 // 2
            base = f"/ui/profiles/{PROFILE}/facts"
            pages = {
                "first page": base,
                f"page {deep:,} (of {args.facts // 50:,})": f"{base}?page={deep}",
                "category filter, page 10": f"/ui/profiles/{PROFILE}/facts?category=plan&page=10",
                "search": f"/ui/profiles/{PROFILE}/facts?q=green+tea",
                "a fact": None,
            }
            first = memory.list_facts(PROFILE, limit=1)[0].id
            pages["a fact"] = f"/ui/profiles/{PROFILE}/facts/{first}"
            for name, url in pages.items():
                assert url is not None
                median, rows = timed(client, url, args.repeat)
                print(f"{name:<32} {median * 1000:8.1f} ms  ({rows} rows)")
        memory.close()


if __name__ == "__main__":
    main()
