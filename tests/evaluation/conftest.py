"""A tiny LoCoMo conversation whose facts, under the rules extractor, are known by hand.

Three sessions of Ann and Ben (the first two on one day, so one day digest), twelve
turns. The rules extractor keeps first-person statements only, so exactly five turns
become facts:

| turn | said                                        | fact                                      |
|------|---------------------------------------------|-------------------------------------------|
| D1:1 | Hi Ben! I love hiking in the mountains.     | Ann loves hiking in the mountains.        |
| D1:3 | I work as a nurse at the city hospital.     | Ann works as a nurse at the city hospital.|
| D2:1 | I adopted a puppy named Max last week.      | Ben adopted a puppy named Max last week.  |
| D2:3 | My sister lives in Lisbon.                  | Ben's sister lives in Lisbon.             |
| D3:1 | I started learning to play the violin.      | Ann started learning to play the violin.  |

The other turns are questions, pleasantries or a word or two ("Slowly!"). Memory then
holds 5 facts, 3 session summaries and 1 day digest (at most 10 with an older
pipeline that also digests single-session days), and recall with k = 10 returns every
fact (and one summary), so evidence recall@10 of a question is the share of its evidence
turns among the five above. Sessions of four turns keep at most three items each: four
of the five turns are stored as observations (the whole turn retold), the other as the
typed fact above, and no other turn gives an item.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


def _turn(dia_id: str, speaker: str, text: str) -> dict[str, str]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text}


TINY: dict[str, Any] = {
    "speaker_a": "Ann",
    "speaker_b": "Ben",
    "session_1_date_time": "10:00 am on 8 May, 2023",
    "session_1": [
        _turn("D1:1", "Ann", "Hi Ben! I love hiking in the mountains."),
        _turn("D1:2", "Ben", "Nice! What else do you do on weekends?"),
        _turn("D1:3", "Ann", "I work as a nurse at the city hospital."),
        _turn("D1:4", "Ben", "That must be a demanding job."),
    ],
    "session_2_date_time": "7:30 pm on 8 May, 2023",
    "session_2": [
        _turn("D2:1", "Ben", "I adopted a puppy named Max last week."),
        _turn("D2:2", "Ann", "Congrats, that is wonderful news!"),
        _turn("D2:3", "Ben", "My sister lives in Lisbon."),
        _turn("D2:4", "Ann", "Beautiful!"),
    ],
    "session_3_date_time": "4:15 pm on 15 June, 2023",
    "session_3": [
        _turn("D3:1", "Ann", "I started learning to play the violin."),
        _turn("D3:2", "Ben", "How is that going for you?"),
        _turn("D3:3", "Ann", "Slowly!"),
        _turn("D3:4", "Ben", "Lovely!"),
    ],
    "qa": [
        # 0: one evidence turn, a fact: 1.0
        {
            "question": "What does Ann love doing in the mountains?",
            "answer": "hiking",
            "evidence": ["D1:1"],
            "category": 4,
        },
        # 1: one evidence turn, a fact: 1.0
        {
            "question": "When did Ben adopt his puppy Max?",
            "answer": "early May 2023",
            "evidence": ["D2:1"],
            "category": 2,
        },
        # 2: two turns in one malformed id, one a fact, one not: 0.5
        {
            "question": "Where does Ben's sister live, and what does Ann think of that city?",
            "answer": "Lisbon; beautiful",
            "evidence": ["D2:3; D2:4"],
            "category": 1,
        },
        # 3: a turn that gave no fact: 0.0 (but its session is summarised)
        {
            "question": "How is Ann finding her violin practice?",
            "answer": "slowly",
            "evidence": ["D3:3"],
            "category": 3,
        },
        # 4: a fact, and an id the conversation does not have (left out): 1.0
        {
            "question": "What is Ann's job?",
            "answer": "nurse",
            "evidence": ["D1:3", "D9:9"],
            "category": 4,
        },
        # 5: adversarial, not asked by default
        {
            "question": "What is Ben's job?",
            "adversarial_answer": "nurse",
            "evidence": ["D1:3"],
            "category": 5,
        },
        # 6: no evidence: asked, not scored
        {
            "question": "When did Ann buy a bike?",
            "answer": 2022,
            "evidence": [],
            "category": 2,
        },
    ],
}


@pytest.fixture
def tiny_locomo(tmp_path: Path) -> Path:
    """The conversation above as `tiny.json` (profile `locomo-tiny`)."""
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path
