"""The raw-turn baseline: every turn indexed as it was said, searched like facts are.

What a user who keeps the whole chat and searches it would recall. Each turn is one
document, written as a transcript line ("Name: what they said"); full text (SQLite
FTS5, porter stemming, BM25) and the configured embedder (cosine) each rank 50
candidates, fused by reciprocal rank exactly like `Memory.search`. Nothing is written
to the memory's database: the index lives in memory for one conversation.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

import numpy as np

from somna.embed import Embedder
from somna.evaluation.metrics import normalize_dia_ids
from somna.ranking import question_words, rrf
from somna.sources import Conversation

__all__ = ["TurnIndex"]

CANDIDATES = 50
"""As many candidates per signal as recall gathers for facts."""

_WORD = re.compile(r"\w+")


class TurnIndex:
    """Every turn of one conversation, searchable by full text and by vector."""

    def __init__(self, conversations: Sequence[Conversation], embedder: Embedder) -> None:
        self.turns: list[str] = []
        """The dia_id of each indexed turn, by position."""
        lines: list[str] = []
        for conversation in conversations:
            for turn in conversation.turns:
                found = normalize_dia_ids(str(turn.meta.get("dia_id", "")))
                if not found:
                    continue
                speaker = str(turn.meta.get("speaker") or "").strip()
                self.turns.append(found[0])
                lines.append(f"{speaker}: {turn.content}" if speaker else turn.content)
        self._embedder = embedder
        self._vectors = embedder.embed(lines) if lines else None
        self._db = sqlite3.connect(":memory:")
        self._db.execute(
            "CREATE VIRTUAL TABLE turns USING fts5 "
            "(text, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        self._db.executemany(
            "INSERT INTO turns (rowid, text) VALUES (?, ?)", enumerate(lines, start=1)
        )

    def search(self, query: str, k: int) -> list[str]:
        """The dia_ids of the `k` best turns for `query`, best first."""
        rankings: list[list[str]] = []
        words = dict.fromkeys(w.casefold() for w in _WORD.findall(" ".join(question_words(query))))
        if words:
            rows = self._db.execute(
                "SELECT rowid FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?",
                (" OR ".join(f'"{w}"' for w in words), CANDIDATES),
            ).fetchall()
            rankings.append([str(row[0] - 1) for row in rows])
        if self._vectors is not None:
            scores = self._vectors @ self._embedder.embed([query])[0]
            best = np.argsort(-scores, kind="stable")[:CANDIDATES]
            rankings.append([str(int(i)) for i in best])
        return [self.turns[int(i)] for i, _ in rrf(rankings)[:k]]

    def close(self) -> None:
        self._db.close()
