"""Names across the two systems: a source session's Somna session keys, n8n's memory-node
suffix on session ids, and which profile a source session goes to (`ProfileFrom`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from somna.errors import InvalidInputError
from somna.model import Profile

__all__ = ["ProfileFrom", "node_suffix", "session_key", "without_node_name"]

_NOT_PROFILE = re.compile(r"[^A-Za-z0-9_.@:-]+")
_NOT_IN_SUFFIX = re.compile(r"[^A-Za-z0-9_-]")
"""n8n's own rule: each character of a memory node's name outside these becomes `_`."""
_ANY_SUFFIX = re.compile(r"^(?P<id>.+?)__[A-Z][A-Za-z0-9_-]*$")
_KEY_MAX = 256  # Session.key


def session_key(session_id: str, segment: int) -> str:
    """The Somna session key of a segment: `<session_id>#<segment>`, shortened if need be.

    >>> session_key("user-42", 3)
    'user-42#3'
    """
    suffix = f"#{segment}"
    if len(session_id) + len(suffix) <= _KEY_MAX:
        return session_id + suffix
    digest = hashlib.sha1(session_id.encode()).hexdigest()[:12]
    return f"{session_id[: _KEY_MAX - len(suffix) - 13]}~{digest}{suffix}"


def node_suffix(node_name: str) -> str:
    """What n8n's chat memory appends to a session id for a memory node of this name.

    n8n's own rule: `__`, then the name with each character outside
    `A-Z a-z 0-9 _ -` written as `_`.

    >>> node_suffix("Chat Memory (Postgres)")
    '__Chat_Memory__Postgres_'
    """
    return "__" + _NOT_IN_SUFFIX.sub("_", node_name)


def _suffix_pattern(node_names: Sequence[str]) -> re.Pattern[str]:
    """A session id ending in the suffix of one of `node_names`; `*` in a name matches anything."""
    names = []
    for name in node_names:
        pieces = [re.escape(node_suffix(p)[2:]) for p in name.split("*")]
        names.append("[A-Za-z0-9_-]*".join(pieces))
    return re.compile(f"^(?P<id>.+?)__(?:{'|'.join(names)})$")


def without_node_name(session_id: str, node_names: Sequence[str] = ()) -> str:
    """The user's part of a session id that n8n's chat memory suffixed with its node's name.

    Postgres Chat Memory stores `<id>__<Node_Name>` (see `node_suffix`); the
    user is `<id>`. Given the memory nodes' names (`*` matches any part of a
    name), only their suffixes are dropped; otherwise any suffix that n8n's rule
    could have written is, from the first `__` followed by a capital letter (a
    node's name starts with one unless it was renamed otherwise).

    >>> without_node_name("user-anna__Postgres_Chat_Memory"), without_node_name("user-anna")
    ('user-anna', 'user-anna')
    >>> without_node_name("u__Chat_Memory__Postgres_", ["Chat Memory (Postgres)"])
    'u'
    """
    pattern = _suffix_pattern(node_names) if node_names else _ANY_SUFFIX
    found = pattern.match(session_id)
    return session_id if found is None else found["id"]


@dataclass(frozen=True)
class ProfileFrom:
    """Which profile a source session goes to: its own (`session`), or one for all (`fixed:NAME`).

    With `session`, an n8n node-name suffix (`user-anna__Postgres_Chat_Memory`)
    is dropped, so one user keeps one profile whatever the memory node is
    called (`node_names`: only the suffixes of these nodes, see
    `without_node_name`); `session:full` keeps the whole id. A session id that is not a valid
    profile id is made into one: its invalid characters become `-` and a short
    hash keeps it unique.
    """

    fixed: str | None = None
    full: bool = False
    """Keep an n8n node-name suffix in the profile id (`session:full`)."""
    node_names: tuple[str, ...] = ()
    """The names of the memory nodes whose suffix is dropped (`*` for any part); none: any."""

    @classmethod
    def parse(cls, text: str, node_names: Sequence[str] = ()) -> ProfileFrom:
        value = text.strip()
        names = tuple(n for n in (name.strip() for name in node_names) if n)
        if len(names) != len(node_names):
            raise InvalidInputError("A memory node's name cannot be empty.")
        if names and value != "session":
            raise InvalidInputError(
                "Memory node names only apply with --profile-from session, which drops their "
                "suffix from each session id."
            )
        if value == "session":
            return cls(node_names=names)
        if value == "session:full":
            return cls(full=True)
        if value.startswith("fixed:"):
            name = value.removeprefix("fixed:").strip()
            try:
                Profile(id=name)
            except ValidationError as exc:
                problem = exc.errors()[0]
                reason = str(problem.get("ctx", {}).get("error") or problem["msg"])
                raise InvalidInputError(f"{text!r}: {reason.rstrip('.')}.") from None
            return cls(name)
        raise InvalidInputError(
            f"{text!r} is not a profile mapping; use 'session' (one profile per source "
            "session id, without an n8n node-name suffix), 'session:full' (the whole session "
            "id) or 'fixed:NAME' (every session into the profile NAME)."
        )

    def profile_for(self, session_id: str) -> str:
        if self.fixed is not None:
            return self.fixed
        session_id = self.user_of(session_id)
        try:
            return Profile(id=session_id).id
        except ValidationError:
            digest = hashlib.sha1(session_id.encode()).hexdigest()[:10]
            slug = _NOT_PROFILE.sub("-", session_id).lstrip("_.@:-")[:100].rstrip("-")
            return f"{slug}-{digest}" if slug else f"n8n-{digest}"

    def user_of(self, session_id: str) -> str:
        """The chat user of a session id: without its node-name suffix, unless `full`."""
        return session_id if self.full else without_node_name(session_id, self.node_names)

    def __str__(self) -> str:
        if self.fixed is not None:
            return f"fixed:{self.fixed}"
        return "session:full" if self.full else "session"
