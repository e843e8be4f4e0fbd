"""A demo profile for the dashboard tests and screenshots: a few nights of invented life.

Conversations are consolidated night after night by the offline `rules` reader, so
the Runs page has nights to chart; a few facts are added by hand (two about the
user's sister), two pairs contradict each other, and an agent proposes a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from somna.memory import Memory
from tests.support import Clock

__all__ = ["DEMO", "OTHER", "Seeded", "seed"]

DEMO = "demo"
OTHER = "other"

_NIGHTS = [
    [
        ("user", "Hi! I live in Grenoble and I work as a carpenter."),
        ("assistant", "Nice to meet you."),
        ("user", "I am allergic to hazelnuts."),
    ],
    [
        ("user", "I prefer green tea to coffee."),
        ("assistant", "Noted."),
        ("user", "My sister is called Maelle."),
    ],
    [
        ("user", "I am learning the cello."),
        ("assistant", "How is it going?"),
        ("user", "I plan to visit Oslo in March."),
    ],
    [
        ("user", "I have a cat named Pixel."),
        ("assistant", "Lovely."),
        ("user", "I moved to Annecy last month."),
    ],
]


@dataclass(frozen=True)
class Seeded:
    conflict_fact: str
    """A fact held by an open (non-persona) conflict."""
    plain_fact: str
    """An active fact with evidence, for the history tests."""
    pending_rule: str
    """The text of the rule an agent proposed."""
    replaced_fact: str
    """A fact a newer one superseded, for its story."""


def seed(memory: Memory, clock: Clock) -> Seeded:
    """Fill profiles `demo` and `other` through `Memory`, moving `clock` night by night;
    it ends where it began ("today")."""
    today = clock.now
    begin = today - timedelta(days=len(_NIGHTS) + 1)
    memory.create_profile(DEMO, name="Demo")
    memory.create_profile(OTHER, name="Other")
    for night, turns in enumerate(_NIGHTS):
        day = begin + timedelta(days=night, hours=9)
        memory.add_messages(
            DEMO,
            f"chat-{night + 1}",
            [
                {"role": role, "content": text, "at": day + timedelta(minutes=i)}
                for i, (role, text) in enumerate(turns)
            ],
        )
        clock.now = day + timedelta(hours=17)
        memory.consolidate(DEMO)
    clock.now = today
    memory.add_messages(
        DEMO,
        "chat-today",
        [
            ("user", "Can you suggest a dinner without hazelnuts?"),
            ("assistant", "A mushroom risotto would do."),
            ("user", "Great, and something with green tea for dessert."),
        ],
    )
    plain = memory.add_fact(
        DEMO,
        "Rides a bicycle to work.",
        category="habit",
        quote="I ride my bicycle to the workshop every day.",
    ).fact.id
    for text, category in [
        ("Speaks French and Norwegian.", "language"),
        ("Wakes up at six every morning.", "habit"),
        ("Is saving money for a sailing boat.", "plan"),
    ]:
        memory.add_fact(DEMO, text, category=category, quote=None)
    for first, second in [
        ("Drinks no alcohol.", "Enjoys a glass of cider on Fridays."),
        ("Works from home.", "Works at a workshop in town."),
    ]:
        a = memory.add_fact(DEMO, first, category="habit", quote=first).fact.id
        b = memory.add_fact(DEMO, second, category="habit", quote=second).fact.id
        memory.resolve(DEMO, b, a, "contradicts")
    calm = memory.add_fact(DEMO, "Prefers a calm and patient tone.", type="persona").fact.id
    brisk = memory.add_fact(DEMO, "Prefers short and brisk answers.", type="persona").fact.id
    memory.resolve(DEMO, brisk, calm, "contradicts")
    bus = memory.add_fact(DEMO, "Commutes by bus.", category="commute", quote=None).fact.id
    tram = memory.add_fact(DEMO, "Commutes by tram.", category="commute", quote=None).fact.id
    memory.resolve(DEMO, tram, bus, "supersedes")
    memory.add_fact(DEMO, "Enjoys dry humour.", type="persona", quote=None)
    memory.add_fact(DEMO, "Teaches music at a school in Lyon.", subject="Maelle", quote=None)
    memory.add_fact(DEMO, "Plays the viola in a quartet.", subject="Maelle", quote=None)
    memory.add_fact(DEMO, "Address the user by first name.", type="instruction", verified=True)
    rule = "Always suggest a vegetarian option."
    memory.add_fact(DEMO, rule, type="instruction", verified=True, actor="mcp:agent")
    memory.add_fact(OTHER, "Plays the trumpet in a brass band.", quote="I play the trumpet.")
    return Seeded(conflict_fact=a, plain_fact=plain, pending_rule=rule, replaced_fact=bus)
