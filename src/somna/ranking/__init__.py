"""Retrieval: candidates from several signals, fused, weighted and budgeted (DESIGN section 5).

Pure functions only: `Memory.recall` gathers the candidates from the store and
calls these to rank them and to write the prompt block.
"""

from somna.ranking.block import HEADER, fact_line, render_context
from somna.ranking.fusion import RRF_K, rrf
from somna.ranking.glossary import translated_words
from somna.ranking.keywords import STOP_WORDS, keywords, question_words
from somna.ranking.tokens import count_tokens
from somna.ranking.topics import filler_words, topic_words
from somna.ranking.values import asked_value
from somna.ranking.weights import Weights, blend, recency

__all__ = [
    "HEADER",
    "RRF_K",
    "STOP_WORDS",
    "Weights",
    "asked_value",
    "blend",
    "count_tokens",
    "fact_line",
    "filler_words",
    "keywords",
    "question_words",
    "recency",
    "render_context",
    "rrf",
    "topic_words",
    "translated_words",
]
