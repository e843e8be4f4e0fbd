"""A small local model as llama-cpp-python's server shows it, played by the scripted server.

`SmallLocalModel` is a `ScriptedChatServer.responder` that reproduces what a 270M model
behind ``llama-cpp-python[server]`` does to Somna:

- ``response_format: json_schema`` is refused with HTTP 500 and a validation error that
  names ``response_format``; ``{"type": "json_object", "schema": …}`` is taken;
- the chat template drops system messages: with the instructions there, the model
  never sees them and chats instead of answering JSON;
- a reply longer than ``max_tokens`` (4 characters a token) is cut, ``finish_reason:
  length``;
- every extraction holds one fact with an empty text (invalid) and one with
  ``confidence: 100`` and ``valid_from: "YYYY-MM-DD"`` copied from a placeholder;
- optionally, the first answer is an HTTP 200 whose body is not JSON, the summary can be
  replaced (an invented one, for the grounding tests), and quotes can be paraphrased
  instead of copied, as a model too small for the task does.

The answers are built from the transcript it is sent, never from known data: facts quote
the first words of the first long messages, the summary names the speakers and a few of
their words.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import Any

from tests.llm.scripted_server import Script, completion

__all__ = ["SCHEMA_REFUSAL", "SmallLocalModel"]

_LINE = re.compile(r"^\[(?P<index>\d+)\] (?P<speaker>[^:(]+?)(?: \([\d-]+\))?: (?P<said>.*)$", re.M)
_PAIR = re.compile(r"^#(?P<id>\d+) new: ", re.M)
_WORD = re.compile(r"^Word: (?P<word>\S+)$", re.M)
_LETTERS = re.compile(r"[A-Za-z]+")

SCHEMA_REFUSAL = Script(
    500,
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should "
    "be 'text' or 'json_object' [type=literal_error, input_value='json_schema']",
)
CHATTY = "Sure! What would you like to talk about today?"


class SmallLocalModel:
    """A responder: call it with a request body, get the `Script` the server answers."""

    def __init__(
        self,
        *,
        bad_body_first: bool = False,
        summary: Callable[[list[tuple[int, str, str]]], str] | None = None,
        paraphrase: bool = False,
    ) -> None:
        self._bad_body = bad_body_first
        self._summary = summary
        self._paraphrase = paraphrase
        self._lock = threading.Lock()
        self.cut = 0
        self.chatted = 0

    def __call__(self, body: dict[str, Any]) -> Script:
        with self._lock:
            if self._bad_body:
                self._bad_body = False
                return Script(200, "json:<html><body>502 Bad Gateway</body></html>")
        response_format = body.get("response_format") or {}
        if response_format.get("type") == "json_schema":
            return SCHEMA_REFUSAL
        seen = "\n\n".join(m["content"] for m in body["messages"] if m["role"] != "system")
        answer = self._answer(seen)
        if answer is None:
            with self._lock:
                self.chatted += 1
            return Script(200, completion(CHATTY))
        budget = int(body.get("max_tokens") or 1_000_000)
        if len(answer) > 4 * budget:
            with self._lock:
                self.cut += 1
            return Script(200, completion(answer[: 4 * budget], finish_reason="length"))
        return Script(200, completion(answer, completion_tokens=len(answer) // 4))

    def _answer(self, seen: str) -> str | None:
        """The JSON the model writes when it sees its instructions; None when it does not."""
        if '{"verdicts"' in seen:
            verdicts = [
                {"pair_id": int(m["id"]), "verdict": "distinct", "reason": "different things"}
                for m in _PAIR.finditer(seen)
            ]
            return json.dumps({"verdicts": verdicts})
        if '{"summary"' in seen:
            return json.dumps(self._extract(seen))
        if '{"word"' in seen and (found := _WORD.search(seen)):
            return json.dumps({"word": found["word"]})
        return None

    def _extract(self, seen: str) -> dict[str, Any]:
        lines = [(int(m["index"]), m["speaker"], m["said"]) for m in _LINE.finditer(seen)]
        long = [line for line in lines if len(line[2].split()) >= 6][:2]
        facts: list[dict[str, Any]] = []
        for number, (index, speaker, said) in enumerate(long):
            quote = " ".join(said.split()[:6])
            if self._paraphrase:
                quote = " ".join(reversed(quote.split()))
            words = " ".join(_LETTERS.findall(quote)[:4]) or "something"
            facts.append(
                {
                    "type": "fact",
                    "category": "event",
                    "subject": speaker,
                    "text": f"{speaker} talked about {words.lower()}.",
                    "quote": quote,
                    "message_index": index,
                    "valid_from": "YYYY-MM-DD" if number == 0 else None,
                    "confidence": 100 if number == 0 else 0.8,
                }
            )
        if facts:
            facts.append({**facts[0], "text": "", "confidence": 0.5})
        return {"summary": self._summarise(lines), "facts": facts}

    def _summarise(self, lines: list[tuple[int, str, str]]) -> str:
        if self._summary is not None:
            return self._summary(lines)
        speakers = list(dict.fromkeys(speaker for _, speaker, _ in lines))
        words = [w for _, _, said in lines for w in _LETTERS.findall(said) if len(w) >= 6][:3]
        about = ", ".join(word.lower() for word in words) or "their day"
        return f"{' and '.join(speakers[:2])} talked about {about}."
