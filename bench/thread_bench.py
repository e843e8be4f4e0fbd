"""Tokens of a live conversation's thread block, with and without compression, on LoCoMo.

Run with `python bench/thread_bench.py` (`--budget 1500 --keep 6` are the defaults of
`thread_budget_tokens` and `thread_keep_turns`). Each LoCoMo conversation is replayed turn
by turn into live sessions with the rules provider (extractive running summary). Two
cases: each LoCoMo session as its own conversation (tokens at its end), and the whole
conversation kept as one never-ending thread, as an n8n session id often is (tokens
every `--every` turns). "Without" is every turn rendered as the thread renders them;
"with" is `Memory.thread`. Figures per file; 26.json is the development set, 30.json
unseen.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from somna import Memory, Settings
from somna.memory.thread import render_turns
from somna.ranking import count_tokens
from somna.sources import read_locomo
from somna.store.sqlite import SQLiteStore

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"


def replay(path: Path, budget: int, keep: int, every: int) -> None:
    conversations = read_locomo(path, profile="bench")
    memory = Memory(store=SQLiteStore(":memory:"), settings=Settings())
    memory.create_profile("bench")
    per_session: list[tuple[int, int]] = []
    one_thread: list[tuple[int, int]] = []
    timings: list[float] = []
    turns_so_far = []
    for conversation in conversations:
        for turn in conversation.turns:
            message = turn.as_message()
            memory.add_messages("bench", conversation.session_key, [message])
            memory.add_messages("bench", "everything", [message])
            turns_so_far.append(turn)
            if len(turns_so_far) % every == 0:
                started = time.perf_counter()
                thread = memory.thread("bench", "everything", budget_tokens=budget, keep_turns=keep)
                timings.append(time.perf_counter() - started)
                whole = memory.window("bench", "everything", n=100_000)
                one_thread.append((count_tokens(render_turns(whole)), thread.tokens))
        thread = memory.thread("bench", conversation.session_key, budget_tokens=budget,
                               keep_turns=keep)  # fmt: skip
        whole = memory.window("bench", conversation.session_key, n=100_000)
        per_session.append((count_tokens(render_turns(whole)), thread.tokens))
    memory.close()
    print(f"{path.name}: {len(conversations)} sessions, {len(turns_so_far)} turns")
    for label, pairs in (("per session (at its end)", per_session),
                         (f"one thread (every {every} turns)", one_thread)):  # fmt: skip
        without = [w for w, _ in pairs]
        with_ = [c for _, c in pairs]
        folded = sum(1 for w, c in pairs if c < w)
        print(
            f"  {label}: without mean {statistics.mean(without):.0f} max {max(without)} tokens; "
            f"with mean {statistics.mean(with_):.0f} max {max(with_)}; "
            f"folded {folded}/{len(pairs)}"
        )
    print(
        f"  thread() on the one thread: median {statistics.median(timings) * 1000:.1f} ms, "
        f"max {max(timings) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path,
                        default=[LOCOMO / "26.json", LOCOMO / "30.json"])  # fmt: skip
    parser.add_argument("--budget", type=int, default=Settings().thread_budget_tokens)
    parser.add_argument("--keep", type=int, default=Settings().thread_keep_turns)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args()
    print(f"budget {args.budget} tokens, last {args.keep} turns kept")
    for path in args.files:
        replay(path, args.budget, args.keep, args.every)


if __name__ == "__main__":
    main()
