"""Text to vectors: a local default model, or any OpenAI-compatible endpoint.

Every embedder returns float32 rows of unit length, so cosine similarity is a dot
product, and has a ``name`` stored beside the vectors so a model change is detectable.
"""

from somna.embed.base import Embedder, crosses_languages, languages_read
from somna.embed.bundled import BundledEmbedder
from somna.embed.factory import create_embedder
from somna.embed.openai import OpenAIEmbedder

__all__ = [
    "BundledEmbedder",
    "Embedder",
    "OpenAIEmbedder",
    "create_embedder",
    "crosses_languages",
    "languages_read",
]
