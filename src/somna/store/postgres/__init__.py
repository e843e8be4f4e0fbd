"""The shared store: PostgreSQL through psycopg 3, with pgvector when the server has it."""

from somna.store.postgres.store import PostgresStore, VectorMode

__all__ = ["PostgresStore", "VectorMode"]
