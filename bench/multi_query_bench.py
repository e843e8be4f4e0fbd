"""Multi-query recall against a real local model: LoCoMo evidence recall with and without it.

The conversations are consolidated once with the offline rules provider, and the
database is copied twice, so both runs recall from the same memory and differ only in
the rephrasings: the copy ``plain`` is evaluated as `somna eval locomo --no-consolidate`
does, the copy ``multi`` the same with `multi_query` on and a model behind it, the
Gemma 3 270M that `make llm-check` installs into a scratch folder (run that first).
Nothing leaves the machine. Usage::

    python bench/multi_query_bench.py --scratch .llm-check \\
        ../shared/data/locomo/26.json ../shared/data/locomo/30.json
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from llm_check import MODEL_ALIAS, local_model

from somna.config import Settings
from somna.evaluation import CONSOLIDATE_AFTER, LocomoReport, evaluate_locomo
from somna.memory import Memory
from somna.sources import read_locomo


def _consolidated(paths: list[Path], db: Path) -> None:
    """Ingest and consolidate every file with the rules provider, as the evaluation does."""
    memory = Memory(settings=Settings(llm_provider="rules", db=str(db)))
    try:
        for path in paths:
            conversations = read_locomo(path)
            memory.ingest(conversations)
            last = max(turn.at for conversation in conversations for turn in conversation.turns)
            memory.consolidate(conversations[0].profile, now=last + CONSOLIDATE_AFTER)
    finally:
        memory.flush()
        memory.close()


def _evaluate(settings: Settings, paths: list[Path], k: int) -> tuple[LocomoReport, float]:
    memory = Memory(settings=settings)
    try:
        started = time.perf_counter()
        report = evaluate_locomo(memory, paths, k_values=[k], consolidate=False)
        return report, time.perf_counter() - started
    finally:
        memory.flush()
        memory.close()


def _share(value: float | None) -> str:
    return "  n/a" if value is None else f"{100 * value:5.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+", help="LoCoMo conversation files")
    parser.add_argument("--scratch", type=Path, default=Path(".llm-check"))
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--n-ctx", type=int, default=4096)
    args = parser.parse_args()
    with local_model(args.scratch, args.n_ctx) as url, tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "base.db"
        _consolidated(args.files, base)
        plain, multi = Path(folder) / "plain.db", Path(folder) / "multi.db"
        shutil.copy(base, plain)
        shutil.copy(base, multi)
        rules = Settings(llm_provider="rules", db=str(plain))
        model_settings = Settings(
            llm_provider="openai",
            llm_base_url=url,
            llm_model=MODEL_ALIAS,
            llm_timeout_s=120.0,
            llm_max_retries=0,
            multi_query=True,
            db=str(multi),
        )
        without, plain_s = _evaluate(rules, args.files, args.k)
        with_model, multi_s = _evaluate(model_settings, args.files, args.k)
    k = args.k
    print(f"evidence recall@{k}, the same memory (rules consolidation), {MODEL_ALIAS} rephrasing")
    print(f"{'':24}{'plain':>8}{'multi-query':>14}")
    for conversation, other in zip(without.conversations, with_model.conversations, strict=True):
        left = conversation.figures.evidence_recall[k] if conversation.figures else None
        right = other.figures.evidence_recall[k] if other.figures else None
        print(f"{Path(conversation.path).name:24}{_share(left):>8}{_share(right):>14}")
    for category, figures in without.by_category.items():
        other_figures = with_model.by_category[category]
        print(
            f"{'category ' + str(category):24}{_share(figures.evidence_recall[k]):>8}"
            f"{_share(other_figures.evidence_recall[k]):>14}"
        )
    print(
        f"{'overall':24}{_share(without.overall.evidence_recall[k]):>8}"
        f"{_share(with_model.overall.evidence_recall[k]):>14}"
    )
    questions = without.overall.questions
    print(
        f"recall latency p50: {without.latency_ms.p50:.1f} ms plain, "
        f"{with_model.latency_ms.p50:.1f} ms with a model call; "
        f"{questions} questions in {plain_s:.0f} s and {multi_s:.0f} s"
    )


if __name__ == "__main__":
    main()
