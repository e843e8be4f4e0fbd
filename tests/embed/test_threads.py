"""Loading the bundled model leaves numpy's BLAS with one thread, which cannot spin idle."""

from __future__ import annotations

from threadpoolctl import threadpool_info

from somna.embed import BundledEmbedder


def test_loading_the_bundled_model_limits_blas_to_one_thread(embedder: BundledEmbedder) -> None:
    embedder.embed(["The user keeps bees."])
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas
    assert all(pool["num_threads"] == 1 for pool in blas)
