"""Prompt files: one per task, rendering with nothing left over, and small enough to afford.

Token counts are estimated as characters / 4: no tokenizer of the chat models is installed.
"""

from __future__ import annotations

import re
from importlib import resources

import pytest
from pydantic import BaseModel

from somna.llm import (
    EXTRACT,
    JUDGE,
    REWRITE,
    TASKS,
    JudgeRequest,
    RewriteRequest,
    Task,
    render_prompt,
)
from somna.llm.check import PROBE, ProbeWord
from somna.llm.conversation import (
    CONVERSATION_TASKS,
    REPHRASE,
    THREAD_SUMMARY,
    FoldRequest,
    RephraseRequest,
)
from somna.llm.prompt import INPUT_MARKER, load_prompt
from tests.llm.helpers import transcript, typical_transcript

SAMPLES: dict[str, BaseModel] = {
    EXTRACT.name: transcript(
        ("user", "Odile", "I love hiking."), ("assistant", None, "Nice!"), user="Odile"
    ),
    JUDGE.name: JudgeRequest(
        pairs=[
            {
                "pair_id": 1,
                "new": "Odile lives in Berlin.",
                "existing": "Odile lives in Paris.",
                "existing_since": "2025-02-01",
            },
            {"pair_id": 2, "new": "Odile likes tea.", "existing": "Odile hates tea."},
        ]
    ),
    REWRITE.name: RewriteRequest(
        query="Where does she live now?",
        window=[{"role": "user", "content": "Tell me about my sister Emma."}],
    ),
    THREAD_SUMMARY.name: FoldRequest(
        previous="The user asked for a trip plan.",
        turns=[{"role": "user", "content": "Make it three days, not two."}],
    ),
    REPHRASE.name: RephraseRequest(query="Where does she live now?"),
    PROBE.name: ProbeWord(word="lantern"),
}
ALL_TASKS = (*TASKS, *CONVERSATION_TASKS, PROBE)
_PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")


def _tokens(text: str) -> float:
    return len(text) / 4


def test_every_task_has_its_prompt_file() -> None:
    folder = resources.files("somna.llm").joinpath("prompts")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".md"))
    assert names == sorted(task.prompt for task in ALL_TASKS)
    for task in ALL_TASKS:
        text = folder.joinpath(task.prompt).read_text(encoding="utf-8")
        assert text.count(INPUT_MARKER) == 1


@pytest.mark.parametrize("task", ALL_TASKS, ids=lambda task: task.name)
def test_prompts_render_with_no_placeholder_left(task: Task[BaseModel, BaseModel]) -> None:
    prompt = render_prompt(task, SAMPLES[task.name])
    assert not _PLACEHOLDER.search(prompt.system)
    assert not _PLACEHOLDER.search(prompt.user)
    assert "JSON" in prompt.system  # json_object mode requires the word in the messages
    assert INPUT_MARKER not in prompt.text
    assert [m["role"] for m in prompt.messages()] == ["system", "user"]


def test_rendered_inputs_are_compact() -> None:
    extract = render_prompt(EXTRACT, SAMPLES[EXTRACT.name])
    assert extract.user.endswith("[0] Odile: I love hiking.\n[1] assistant: Nice!")
    assert '"2026-05-03"' not in extract.user and "of 2026-05-03" in extract.user
    judge = render_prompt(JUDGE, SAMPLES[JUDGE.name])
    assert "#1 new: Odile lives in Berlin.\n   old (2025-02-01): Odile lives" in (judge.user)
    rewrite = render_prompt(REWRITE, SAMPLES[REWRITE.name])
    assert "user: Tell me about my sister Emma." in rewrite.user
    assert rewrite.user.endswith("Message: Where does she live now?")


def test_a_message_from_another_day_shows_its_date() -> None:
    session = transcript(("user", None, "I love hiking."))
    late = session.model_copy(
        update={
            "messages": [
                *session.messages,
                session.messages[0].model_copy(update={"index": 1, "at": "2026-05-04T01:00:00Z"}),
            ]
        }
    )
    assert "[1] user (2026-05-04): I love hiking." in render_prompt(EXTRACT, late).user


def test_instruction_blocks_stay_small() -> None:
    sizes = {task.name: _tokens(load_prompt(task.prompt)[0].template) for task in TASKS}
    assert sizes[EXTRACT.name] <= 400
    assert sizes[JUDGE.name] <= 200
    assert sizes[REWRITE.name] <= 100


def test_extract_prompt_for_a_typical_session_is_under_1500_tokens() -> None:
    session = typical_transcript()
    prompt = render_prompt(EXTRACT, session)
    assert 700 <= _tokens(prompt.user) <= 900  # about 800 tokens of transcript
    assert _tokens(prompt.text) < 1250
