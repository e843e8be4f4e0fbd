"""The nightly consolidation (DESIGN section 4)."""

from somna.consolidate.pipeline import Consolidator, worker_name

__all__ = ["Consolidator", "worker_name"]
