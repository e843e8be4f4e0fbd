"""The LoCoMo conversation file's reference parts: its questions and its observations."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from somna.errors import InvalidInputError
from somna.evaluation.metrics import normalize_dia_ids

__all__ = ["LocomoQuestion", "read_locomo_observations", "read_locomo_questions"]


@dataclass(frozen=True)
class LocomoQuestion:
    """One question of a LoCoMo file; `evidence` holds its turn ids, normalized."""

    number: int
    category: int
    question: str
    answer: str | None
    evidence: tuple[str, ...]


def read_locomo_questions(path: Path) -> list[LocomoQuestion]:
    """The questions (`qa`) of a LoCoMo conversation file, in file order."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data["qa"]
        if not isinstance(items, list):
            raise TypeError("'qa' is not a list")
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InvalidInputError(f"{path} has no LoCoMo questions ('qa'): {exc}.") from exc
    questions = []
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        try:
            category = int(item.get("category", 0))
        except (TypeError, ValueError):
            continue
        answer = item.get("answer")
        raw = item.get("evidence") or []
        questions.append(
            LocomoQuestion(
                number=number,
                category=category,
                question=str(item.get("question") or "").strip(),
                answer=None if answer is None else str(answer),
                evidence=tuple(normalize_dia_ids(raw if isinstance(raw, list | str) else [])),
            )
        )
    return questions


def read_locomo_observations(path: Path) -> list[str]:
    """The turn (dia_id) behind each reference observation (`session_N_observation`).

    LoCoMo's authors wrote these facts by hand, each with the turn that supports it; an
    observation whose turn id cannot be read is left out.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInputError(f"{path} is not a LoCoMo conversation file: {exc}.") from exc
    turns: list[str] = []
    for key, value in data.items() if isinstance(data, dict) else ():
        if not (key.startswith("session_") and key.endswith("_observation")):
            continue
        for items in value.values() if isinstance(value, dict) else ():
            for item in items if isinstance(items, list) else ():
                if isinstance(item, list) and len(item) >= 2:
                    found = normalize_dia_ids(
                        item[1] if isinstance(item[1], list) else str(item[1])
                    )
                    turns += found[:1]
    return turns
