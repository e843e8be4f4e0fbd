"""Counting tokens offline, with the tokenizer Somna already ships for its embedder.

Prompt budgets need a count, not the exact count of whichever model reads the
prompt; WordPiece counts run close to (and usually above) GPT-style BPE counts
for English, so a budget met here is met there too.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from tokenizers import Tokenizer

__all__ = ["count_tokens"]


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    data = resources.files("somna.embed").joinpath("data/tokenizer.json").read_text("utf-8")
    tokenizer = Tokenizer.from_str(data)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def count_tokens(text: str) -> int:
    """How many tokens `text` takes, without the model's special tokens."""
    if not text:
        return 0
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)
