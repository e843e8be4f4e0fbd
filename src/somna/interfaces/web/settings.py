"""The Settings page: the values one profile overrides, their history, and the models in use."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from pydantic import BaseModel, ConfigDict

from somna.config import bounds, profile_marks, range_of
from somna.errors import ConfigurationError, InvalidInputError
from somna.interfaces.web.base import PREFIX, HtmlRoute, Viewer, ViewerDep, back
from somna.interfaces.web.story import setting_changes
from somna.redact import redact_url
from somna.tuning import overrides_of

__all__ = ["parse_ttl", "router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}", route_class=HtmlRoute, include_in_schema=False
)

_MARKS = profile_marks()
_NUMBERS = tuple(name for name, mark in _MARKS.items() if mark.step is not None)
"""The settings a profile may override that the form asks for in number boxes."""


class _Sent(BaseModel):
    """The form as sent: its token, the time to live text, and one text per number box."""

    model_config = ConfigDict(extra="allow")

    csrf: str = ""
    ttl: str = ""

    def numbers(self) -> dict[str, str]:
        """The text of each number box, as typed ("" when left empty or not sent)."""
        extra = self.model_extra or {}
        return {name: str(extra.get(name, "")) for name in _NUMBERS}


def parse_ttl(text: str) -> dict[str, float]:
    """`category = days` lines (blank lines ignored) as a mapping."""
    ttl: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, days = line.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            ttl[name.strip()] = float(days)
        except ValueError:
            raise InvalidInputError(
                f"Line {number} of the time to live is {line.strip()!r}; write one "
                "'category = days' per line, e.g. 'preference = 730'."
            ) from None
    return ttl


def _number(name: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise InvalidInputError(f"The setting {name} must be a number, not {value!r}.") from None


@router.get("/settings")
def settings_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    return _page(request, profile, viewer)


def _page(
    request: Request,
    profile: str,
    viewer: Viewer,
    problem: str | None = None,
    sent: dict[str, str] | None = None,
) -> Response:
    """The page; after a refused form, with its one-sentence `problem` and the values `sent`."""
    memory = viewer.memory
    try:
        used = memory.profile_settings(profile)
    except ConfigurationError as exc:  # an out-of-range value an old database holds
        used, problem = memory.settings, problem or str(exc)
    ttl = "\n".join(f"{k} = {v:g}" for k, v in sorted(used.ttl_days.items()))
    shown = {name: str(getattr(used, name)) for name in _NUMBERS} | {"ttl": ttl}
    return viewer.page(
        request,
        "settings.html",
        profile,
        "settings",
        used=used,
        shown=shown | (sent or {}),
        problem=problem,
        numbers=[(name, _MARKS[name], range_of(name), bounds(name)) for name in _NUMBERS],
        ttl=(_MARKS["ttl_days"], range_of("ttl_days")),
        own=overrides_of(memory.get_profile(profile)),
        history=setting_changes(
            memory.settings_history(profile), {k.id: k for k in memory.keys.all()}
        ),
        models={
            "LLM provider": used.llm_provider,
            "LLM model": used.llm_model or "(the provider's default)",
            "LLM endpoint": redact_url(used.llm_base_url) or "(none: the provider's default)",
            "Embedder": used.embedder,
            "Embedding model": "all-MiniLM-L6-v2 (bundled)"
            if used.embedder == "bundled"
            else used.embed_model or "(the provider's default)",
            "Embedding endpoint": redact_url(used.embed_base_url) or "(none)",
        },
    )


@router.post("/settings")
def save_settings(
    request: Request, profile: str, viewer: ViewerDep, form: Annotated[_Sent, Form()]
) -> Response:
    viewer.check(form.csrf)
    viewer.reach(profile)
    memory = viewer.memory
    sent = form.numbers()
    try:
        changes: dict[str, Any] = {
            name: None if not value.strip() else _number(name, value.strip())
            for name, value in sent.items()
        }
        ttl_days = parse_ttl(form.ttl)
        changes["ttl_days"] = None if ttl_days == memory.settings.ttl_days else ttl_days
        for name in _NUMBERS:
            if changes[name] == getattr(memory.settings, name):
                changes[name] = None
        memory.tune_profile(profile, changes, actor=viewer.actor)
    except InvalidInputError as exc:  # the page again, the message above the person's input
        response = _page(request, profile, viewer, str(exc), sent | {"ttl": form.ttl})
        response.status_code = 422
        return response
    viewer.notice("The settings were saved; they apply from now on.")
    return back(f"{PREFIX}/profiles/{profile}/settings")
