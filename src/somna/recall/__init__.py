"""Retrieval: candidates from several signals, fused and ranked (DESIGN section 5)."""

from somna.recall.fusion import rrf
from somna.recall.keywords import STOP_WORDS, keywords

__all__ = ["STOP_WORDS", "keywords", "rrf"]
