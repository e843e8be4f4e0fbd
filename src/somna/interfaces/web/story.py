"""A fact's history told as sentences: "“Lives in Berlin.” replaced it on 2026-03-01".

Each event becomes one line with links to the facts, conflict and conversation it
names, and its actor by name (the key's name, "the nightly job"), never an id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from somna.memory import ConflictPair, History, Quote
from somna.model import ApiKey, ConflictStatus, EventAction, Fact, FactEvent, FactType

__all__ = ["Line", "Link", "actor_name", "setting_changes", "story"]

_CHANNELS = {"ui": "the dashboard", "api": "the REST API", "mcp": "MCP"}
_NAMED = {"consolidation": "the nightly job", "user": "the command line or Python API"}
_PERSONAL = frozenset({FactType.PERSONA, FactType.INSTRUCTION})


def actor_name(actor: str, keys: Mapping[str, ApiKey]) -> str:
    """Who did it, for a person: "ops-laptop (dashboard)", "the nightly job"."""
    channel, _, key_id = actor.partition(":")
    if channel in _CHANNELS:
        if not key_id:
            return _CHANNELS[channel]
        key = keys.get(key_id)
        named = key.name if key is not None and key.name else "a key since removed"
        return f"{named} ({_CHANNELS[channel]})"
    return _NAMED.get(actor, actor)


@dataclass(frozen=True)
class Link:
    label: str
    href: str


@dataclass
class Line:
    """One event: when, the sentence, where it was said, and the links it names."""

    at: datetime
    text: str
    links: list[Link] = field(default_factory=list)
    said: Link | None = None


@dataclass(frozen=True)
class _Context:
    profile: str
    facts: Mapping[str, Fact]
    pairs: Mapping[str, ConflictPair]
    said_in: Mapping[str, Quote]
    keys: Mapping[str, ApiKey]

    def quoted(self, fact_id: str) -> str:
        fact = self.facts.get(fact_id)
        return f"“{fact.text}”" if fact is not None else "another fact"

    def fact_link(self, label: str, fact_id: str) -> Link:
        return Link(label, f"/ui/profiles/{self.profile}/facts/{fact_id}")

    def session_link(self, fact_id: str) -> Link | None:
        quote = self.said_in.get(fact_id)
        if quote is None:
            return None
        href = f"/ui/profiles/{self.profile}/sessions#{quote.evidence.session_id}"
        return Link(f"said in {quote.session_key}", href)


def _day(value: Any) -> str:
    return str(value)[:10] if value else ""


def _line(event: FactEvent, fact: Fact, ctx: _Context) -> Line:
    after = event.after or {}
    who = actor_name(event.actor, ctx.keys)
    line = Line(event.at, "")
    match event.action:
        case EventAction.CREATED:
            line.text = f"Recorded by {who}"
            if "corrects" in after:
                line.text += f", correcting {ctx.quoted(str(after['corrects']))}"
                line.links.append(ctx.fact_link("The earlier version", str(after["corrects"])))
        case EventAction.REINFORCED:
            line.text = f"Said again; confidence now {float(after.get('confidence', 0)):.2f}"
        case EventAction.VERIFIED:
            approved = "Approved" if fact.type is FactType.INSTRUCTION else "Verified"
            line.text = f"{approved} by {who}"
        case EventAction.SUPERSEDED | EventAction.UPDATED:
            other = str(after.get("superseded_by", ""))
            verb = "replaced it" if event.action is EventAction.SUPERSEDED else "corrected it"
            newer = ctx.facts.get(other)
            subject = f"“{newer.text}”" if newer is not None else "A newer fact"
            line.text = f"{subject} {verb} on {_day(after.get('valid_to')) or _day(event.at)}"
            if event.action is EventAction.UPDATED:
                line.text += f" ({who})"
            line.links.append(ctx.fact_link("The newer fact", other))
            line.said = ctx.session_link(other)
        case EventAction.DISPUTED:
            line.text = "Disputed: another fact contradicts it"
            pair = ctx.pairs.get(str(after.get("conflict", "")))
            if pair is not None:
                rival = pair.fact_b if pair.fact_a.id == fact.id else pair.fact_a
                line.text = f"Disputed: “{rival.text}” contradicts it"
                line.links.append(ctx.fact_link("The other fact", rival.id))
                personal = {pair.fact_a.type, pair.fact_b.type} & _PERSONAL
                page = "persona" if personal else "conflicts"
                settled = pair.conflict.status is ConflictStatus.RESOLVED
                anchor = "" if settled else f"#pair-{pair.conflict.id}"
                label = "the conflict (settled)" if settled else "the conflict"
                line.links.append(Link(label, f"/ui/profiles/{ctx.profile}/{page}{anchor}"))
        case EventAction.RESOLVED:
            line.text = f"Kept when its conflict was settled by {who}"
        case EventAction.RETIRED:
            reason = str(after.get("reason", ""))
            if reason.startswith("duplicate of "):
                kept = reason.removeprefix("duplicate of ")
                line.text = f"Retired by {who} as a duplicate of {ctx.quoted(kept)}"
                line.links.append(ctx.fact_link("The fact kept", kept))
            elif reason == "rule rejected":
                line.text = f"Rejected by {who}"
            elif reason.startswith("deleted"):
                line.text = f"Deleted by {who}"
            else:
                line.text = f"Retired by {who}" + (f": {reason}" if reason else "")
        case EventAction.EXPIRED:
            reason = str(after.get("reason", ""))
            line.text = "Expired" + (f": {reason}" if reason else "")
        case EventAction.RESTORED:
            line.text = f"Restored by {who} (it was {after.get('was', 'retired')})"
        case _:
            line.text = f"{event.action.value.capitalize()} by {who}"
    return line


def story(
    profile: str,
    history: History,
    *,
    others: Mapping[str, Fact],
    pairs: Mapping[str, ConflictPair],
    quotes: list[Quote],
    keys: Mapping[str, ApiKey],
) -> list[Line]:
    """The events of `history`'s fact and of its versions, oldest first, as sentences.

    `others` are the facts the events name, `pairs` the conflicts by id, `quotes` the
    evidence of those facts (with their conversations), `keys` the API keys by id.
    """
    said_in: dict[str, Quote] = {}
    for quote in quotes:
        if quote.session_key and quote.evidence.session_id:
            said_in.setdefault(quote.evidence.fact_id, quote)
    facts = {**others, **{v.id: v for v in history.versions}}
    ctx = _Context(profile, facts, pairs, said_in, keys)
    by_id = {v.id: v for v in history.versions}
    lines = []
    for event in history.events:
        version = by_id.get(event.fact_id, history.fact)
        line = _line(event, version, ctx)
        if version.id != history.fact.id:  # another version's event: say which
            line.text = f"“{version.text}”: {line.text[:1].lower()}{line.text[1:]}"
        lines.append(line)
    return lines


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _ttl_change(before: Any, after: Any) -> str:
    """Time to live, per category: "intent 30 → 14 days, trip added (10 days)"."""
    if not isinstance(after, dict):
        return "time to live back to the global values"
    old = before if isinstance(before, dict) else {}
    parts = []
    for category in sorted(set(old) | set(after)):
        if category not in after:
            parts.append(f"{category} removed")
        elif category not in old:
            parts.append(f"{category} added ({_number(after[category])} days)")
        elif old[category] != after[category]:
            parts.append(f"{category} {_number(old[category])} → {_number(after[category])} days")
    return "time to live: " + (", ".join(parts) or "unchanged")


def setting_changes(history: list[dict[str, Any]], keys: Mapping[str, ApiKey]) -> list[Line]:
    """A profile's settings changes, newest first, each as one sentence with its actor."""
    lines = []
    for event in reversed(history):
        before, after = event.get("before") or {}, event.get("after") or {}
        said = []
        for name, value in after.items():
            if name == "ttl_days":
                said.append(_ttl_change(before.get(name), value))
                continue
            label = name.replace("_", " ")
            was = before.get(name)
            old = "the global value" if was is None else _number(was)
            new = "the global value" if value is None else _number(value)
            said.append(f"{label} from {old} to {new}")
        when = datetime.fromisoformat(str(event["at"]))
        who = actor_name(str(event.get("actor", "")), keys)
        lines.append(Line(when, f"{who} set " + "; ".join(said)))
    return lines
