"""Builders of task inputs shared by the LLM tests."""

from __future__ import annotations

import json
from typing import Any

from somna.llm import SessionTranscript

SESSION_DATE = "2026-05-03"


def transcript(
    *turns: tuple[str, str | None, str], user: str = "user", date: str = SESSION_DATE
) -> SessionTranscript:
    """A session from ``(role, speaker, content)`` turns, indexed from 0."""
    return SessionTranscript(
        session_key="s-1",
        date=date,
        user=user,
        messages=[
            {
                "index": i,
                "role": role,
                "speaker": speaker,
                "content": content,
                "at": f"{date}T09:00:00Z",
            }
            for i, (role, speaker, content) in enumerate(turns)
        ],
    )


def digest_json(**overrides: Any) -> str:
    """A valid EXTRACT answer as a model would write it."""
    value: dict[str, Any] = {
        "summary": "Odile said she loves hiking.",
        "facts": [
            {
                "type": "fact",
                "category": "preference",
                "subject": "Odile",
                "text": "Odile loves hiking.",
                "quote": "I love hiking.",
                "message_index": 0,
                "valid_from": None,
                "confidence": 0.9,
            }
        ],
    }
    value.update(overrides)
    return json.dumps(value)


def typical_transcript() -> SessionTranscript:
    """About 800 tokens of ordinary conversation (3,200 characters, by the 4-per-token rule)."""
    lines = [
        (
            "user",
            "Odile",
            "Hi! I just got back from a long weekend in the mountains with my sister Emma.",
        ),
        (
            "assistant",
            None,
            "Welcome back! How was the trip? Did the weather hold up for you both?",
        ),
        (
            "user",
            "Odile",
            "It was great. We hiked for three days and the weather was perfect the whole time.",
        ),
        (
            "assistant",
            None,
            "That sounds wonderful. Which trail did you take, and how long were the stages?",
        ),
        (
            "user",
            "Odile",
            "We did the lake loop, about fifteen kilometres a day, with two nights in huts.",
        ),
        (
            "assistant",
            None,
            "Hut nights are a classic. Was it your first multi-day hike, or have you done one?",
        ),
        (
            "user",
            "Odile",
            "Second one. I love hiking, it clears my head after long shifts at the hospital.",
        ),
        (
            "assistant",
            None,
            "You work at the hospital? That must be demanding. What do you do there?",
        ),
        (
            "user",
            "Odile",
            "I work as a nurse in the paediatric ward at St. Mary's, mostly night shifts.",
        ),
        ("assistant", None, "Night shifts are tough. Do you get enough rest between them?"),
        (
            "user",
            "Odile",
            "Not really, which is why I decided to ask for a transfer to day shifts next month.",
        ),
        (
            "assistant",
            None,
            "That sounds like a healthy decision. Have you talked to your manager yet?",
        ),
        (
            "user",
            "Odile",
            "Yes, she agreed in principle. The paperwork should be done by the end of May.",
        ),
        ("assistant", None, "Great news. Is there anything I can help you prepare for the change?"),
        (
            "user",
            "Odile",
            "Maybe a sleep schedule. Also, always answer me in short bullet points please.",
        ),
        (
            "assistant",
            None,
            "Noted. I will keep my answers short and use bullet points from now on.",
        ),
        (
            "user",
            "Odile",
            "Thanks. By the way, I'm going to run a half marathon in September with Emma.",
        ),
        ("assistant", None, "Exciting! Have you started training, or are you planning a program?"),
        (
            "user",
            "Odile",
            "We start next week, three runs a week, and a long run every Sunday morning.",
        ),
        (
            "assistant",
            None,
            "Good plan. Remember to build the distance gradually to avoid injuries.",
        ),
        (
            "user",
            "Odile",
            "Will do. I don't like running on treadmills, so it will all be outdoors.",
        ),
        (
            "assistant",
            None,
            "Outdoor running is more varied anyway. Do you have good shoes for it?",
        ),
        ("user", "Odile", "I bought new trail shoes last month, they are comfortable so far."),
        ("assistant", None, "Perfect. Let me know when you want the sleep schedule drafted."),
        (
            "user",
            "Odile",
            "One more thing: my sister Emma lives in Lyon and visits every other month.",
        ),
        ("assistant", None, "Nice. Does she run too, or is the half marathon her first race?"),
        (
            "user",
            "Odile",
            "Her first. She works at a bakery, so she trains early in the morning before work.",
        ),
        (
            "assistant",
            None,
            "Early runs are a good habit. You could share a training log to keep each other going.",
        ),
        (
            "user",
            "Odile",
            "Good idea, we will try a shared spreadsheet with our weekly distances and times.",
        ),
        (
            "assistant",
            None,
            "I can suggest a simple layout for it whenever you like: date, distance, pace, notes.",
        ),
        (
            "user",
            "Odile",
            "Later. For now I need to sort out the transfer forms and my holiday dates.",
        ),
        (
            "assistant",
            None,
            "Understood. Would you like a reminder about the forms at the end of the week?",
        ),
        (
            "user",
            "Odile",
            "Yes please, Friday afternoon would be ideal, after my last night shift.",
        ),
        ("assistant", None, "Done: a reminder on Friday afternoon about the transfer forms."),
        (
            "user",
            "Odile",
            "Tomorrow maybe for the sleep schedule. Good night, and thanks for the help today!",
        ),
    ]
    return transcript(*lines, user="Odile")
