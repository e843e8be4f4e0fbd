"""How often a question no fact answers still brings facts into the context block.

Scenario files hold one unrelated question each; this asks every client profile of a
database made by `somna eval scenarios` fourteen more, general-knowledge questions in
English and French (six about time, which a small embedder finds close to every dated
fact, two about where something is, which the standing topic of whereabouts may take for
the client's address), once per `context_floor` given, and prints the share left with no
fact.

    somna eval scenarios ../shared/data/scenarios/dev --db /tmp/s.db
    python bench/unrelated_probe.py /tmp/s.db --floors 0.15 0.2 0.25
"""

from __future__ import annotations

import argparse
from pathlib import Path

from somna import Memory, Settings
from somna.evaluation.metrics import block_facts
from somna.ranking import HEADER
from somna.store import open_store

QUESTIONS = [
    "When was the Eiffel Tower built?",
    "What time is it in Tokyo right now?",
    "When does spring start?",
    "What day is Christmas on this year?",
    "Quand a eu lieu la révolution française ?",
    "À quelle heure se couche le soleil en hiver ?",
    "How many bones are in the human body?",
    "Who wrote Les Misérables?",
    "What is the capital of Australia?",
    "How do I fix a flat bicycle tyre?",
    "Comment dit-on bonjour en espagnol ?",
    "Quel temps fera-t-il demain à Lille ?",
    "Where do penguins live?",
    "Où se trouve le mont Blanc ?",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path, help="a database made by somna eval scenarios")
    parser.add_argument("--floors", type=float, nargs="+", default=[0.15, 0.2, 0.25])
    args = parser.parse_args()
    store = open_store(str(args.db))
    for floor in args.floors:
        memory = Memory(store=store, settings=Settings(context_floor=floor))
        profiles = [p.id for p in memory.list_profiles() if not p.id.endswith("-turns")]
        asked = empty = 0
        for profile in profiles:
            for question in QUESTIONS:
                asked += 1
                empty += not block_facts(str(memory.context(profile, question)), HEADER)
        print(
            f"context_floor {floor:.2f}: {empty}/{asked} unrelated questions left empty "
            f"({100 * empty / asked:.1f}%) over {len(profiles)} profiles"
        )


if __name__ == "__main__":
    main()
