"""Quotes must be verbatim (DESIGN invariant 5): find the message a quote came from.

A quote matches when it occurs in a message with case and whitespace folded;
surrounding quotation marks and ellipses a model may add are ignored. Nothing
else is forgiven: a paraphrase is not evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from somna.model import Message, fold_text

__all__ = ["locate_quote"]

_SHORTEST = 3
"""A shorter quote ("ok") would be found in almost any message: it must be the whole one."""
# Quotation marks a model may wrap a quote in, as code points: ASCII, typographic, guillemets.
_WRAPPERS = "\"' .\u201c\u201d\u2018\u2019\u00ab\u00bb\u2026"


def locate_quote(
    quote: str, messages: Sequence[Message], hint: int | None = None
) -> Message | None:
    """The message that contains `quote` verbatim (folded), trying `hint` (its seq) first."""
    needle = _folded(quote)
    if len(needle) < _SHORTEST:  # a bare "ok" is evidence only as the whole message it was
        whole = (m for m in messages if m.seq == hint and _folded(m.content) == needle)
        return next(whole, None)
    ordered = sorted(messages, key=lambda m: (m.seq != hint, m.seq))
    for message in ordered:
        if needle in fold_text(message.content):
            return message
    return None


def _folded(text: str) -> str:
    """`text` without the quotation marks around it, case and whitespace folded."""
    return fold_text(text.strip(_WRAPPERS))
