"""The Conflicts and Persona pages: pairs to settle side by side, the rules to approve, and
the people the memory knows, the user first.

Pairs that involve a persona or instruction fact are settled on the Persona page,
next to the portrait and the rules; the Conflicts page shows the others.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel

from somna.interfaces.web.base import PREFIX, EditorDep, HtmlRoute, Viewer, ViewerDep, back
from somna.memory import ConflictPair
from somna.model import DEFAULT_SUBJECT, Evidence, Fact, FactStatus, FactType, SummaryKind

__all__ = ["Person", "people", "router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}", route_class=HtmlRoute, include_in_schema=False
)

_PEOPLE_FACTS = 1000
"""Active facts read for the people on the Persona page."""
_PERSONAL = frozenset({FactType.PERSONA, FactType.INSTRUCTION})
_SETTLED = {
    "a_true": "The first fact was kept; the other one was retired.",
    "b_true": "The second fact was kept; the other one was retired.",
    "neither": "Both facts were retired.",
    "corrected": "Both facts were retired and your correction was stored.",
    "defer": "The conflict was put off; it will come back later.",
}


def _personal(pair: ConflictPair) -> bool:
    return pair.fact_a.type in _PERSONAL or pair.fact_b.type in _PERSONAL


def _pair_forms(
    viewer: Viewer, profile: str, pairs: list[ConflictPair], back_to: str
) -> dict[str, Any]:
    """What a page that lists `pair_form`s gives the template: the pairs, each fact's own
    quotes, and the page a settled pair comes back to."""
    quotes: dict[str, list[Evidence]] = {}
    for pair in pairs:
        for fact in (pair.fact_a, pair.fact_b):
            quotes[fact.id] = [
                e for e in viewer.memory.history(profile, fact.id).evidence if e.fact_id == fact.id
            ]
    return {"pairs": pairs, "evidence": quotes, "back_to": back_to}


@router.get("/conflicts")
def conflicts_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    pairs = viewer.memory.conflicts(profile)
    shown = [p for p in pairs if not _personal(p)]
    return viewer.page(
        request,
        "conflicts.html",
        profile,
        "conflicts",
        **_pair_forms(viewer, profile, shown, back_to="conflicts"),
        elsewhere=len(pairs) - len(shown),
    )


class _Settlement(BaseModel):
    """A conflict's form as sent: the side chosen, the correction typed, the page it came from."""

    resolution: str = ""
    correction: str = ""
    back_to: str = "conflicts"

    def page(self) -> str:
        """The page to go back to: the Persona page, or the Conflicts page."""
        return "persona" if self.back_to == "persona" else "conflicts"


@router.post("/conflicts/{conflict_id}")
def resolve(
    profile: str, conflict_id: str, viewer: EditorDep, form: Annotated[_Settlement, Form()]
) -> RedirectResponse:
    corrected = form.resolution == "corrected"
    viewer.memory.resolve_conflict(
        profile,
        conflict_id,
        form.resolution,
        correction=form.correction if corrected else None,
        actor=viewer.actor,
    )
    viewer.notice(_SETTLED.get(form.resolution, "The conflict was settled."))
    return back(f"{PREFIX}/profiles/{profile}/{form.page()}")


@dataclass(frozen=True)
class Person:
    """Someone the memory knows about: the user, or a person the user mentioned."""

    subject: str
    facts: list[Fact]
    relation: list[Fact]
    """The user's own facts that name this person ("The user's sister is called Ada.")."""


def people(persona: list[Fact], about_others: list[Fact], relations: list[Fact]) -> list[Person]:
    """The user first (their persona facts), then each other subject by name with their
    facts and the user's facts that name them."""
    by_subject: dict[str, list[Fact]] = defaultdict(list)
    for fact in [*persona, *about_others]:
        if fact not in by_subject[fact.subject]:
            by_subject[fact.subject].append(fact)
    user = Person(DEFAULT_SUBJECT, by_subject.pop(DEFAULT_SUBJECT, []), [])
    others = [
        Person(
            subject,
            facts,
            [r for r in relations if re.search(rf"\b{re.escape(subject)}\b", r.text, re.I)],
        )
        for subject, facts in sorted(by_subject.items(), key=lambda item: item[0].casefold())
    ]
    return [user, *others]


@router.get("/persona")
def persona_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    memory = viewer.memory
    portraits = memory.summaries(profile, SummaryKind.PORTRAIT, limit=1)
    rules = memory.list_facts(profile, type=FactType.INSTRUCTION, limit=500)
    pairs = [p for p in memory.conflicts(profile) if _personal(p)]
    known = memory.list_facts(profile, limit=_PEOPLE_FACTS)
    about_others = [
        f for f in known if f.subject != DEFAULT_SUBJECT and f.type is not FactType.INSTRUCTION
    ]
    relations = [f for f in known if f.subject == DEFAULT_SUBJECT]
    return viewer.page(
        request,
        "persona.html",
        profile,
        "persona",
        portrait=portraits[0] if portraits else None,
        people=people(
            memory.list_facts(profile, type=FactType.PERSONA, limit=500), about_others, relations
        ),
        pending=[r for r in rules if r.status is FactStatus.UNVERIFIED],
        approved=[r for r in rules if r.status is FactStatus.VERIFIED],
        **_pair_forms(viewer, profile, pairs, back_to="persona"),
    )


@router.post("/persona/rules/{fact_id}")
def judge_rule(
    profile: str,
    fact_id: str,
    viewer: EditorDep,
    decision: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Approve a proposed rule (it is verified and reaches the prompt block) or reject it."""
    if decision == "approve":
        viewer.memory.verify(profile, fact_id, actor=viewer.actor)
        viewer.notice("The rule was approved; agents will now receive it.")
    else:
        viewer.memory.delete(profile, fact_id, actor=viewer.actor, reason="rule rejected")
        viewer.notice("The rule was rejected.")
    return back(f"{PREFIX}/profiles/{profile}/persona")
