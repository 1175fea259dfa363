"""``run --backend openvino``: the official profile's MiniLM exported once and compiled by OpenVINO gives PyTorch's
vectors (float32: cosine 0.99999 and more; bfloat16: 0.9999), has its own embedding-cache identity per precision,
and exports once for both precisions."""
from __future__ import annotations

import numpy as np
import pytest

from coreb_core.retrieval.models import resolve
from coreb_core.retrieval.profiles import encoder_identity, encoding_for

TEXTS = ["def add(a, b):\n    return a + b", "Return the sum of two integers.",
         "int main() { std::vector<int> v(10); return v.size(); }" * 8, "x"]


@pytest.mark.slow  # exports MiniLM (about 10 s on 2 cores); the other two tests load nothing
def test_openvino_vectors_equal_pytorch_and_the_export_is_reused(tmp_path):
    from coreb_core.retrieval.openvino_encoder import OpenVinoEncoder, onnx_dir
    from coreb_core.retrieval.runner_encoder import RunnerEncoder

    name = resolve("minilm").name
    torch_vectors = RunnerEncoder.load(name, "cpu").encode(TEXTS, batch_size=2)
    f32 = OpenVinoEncoder.load(name, "minilm-test", root=tmp_path).encode(TEXTS, batch_size=2)
    assert f32.shape == (4, 384) and f32.dtype == np.float32
    assert (torch_vectors * f32).sum(axis=1).min() > 0.99999
    exported = onnx_dir(tmp_path) / "minilm-test" / "model.onnx"
    stamp = exported.stat().st_mtime_ns
    bf16 = OpenVinoEncoder.load(name, "minilm-test", precision="bfloat16", root=tmp_path).encode(TEXTS, batch_size=2)
    assert exported.stat().st_mtime_ns == stamp  # the same export, compiled again: not exported twice
    assert 0.999 < (torch_vectors * bf16).sum(axis=1).min() < 1.0 + 1e-6
    assert [p.name for p in exported.parent.iterdir()] == ["model.onnx"]  # no temporary left


def test_backend_and_precision_are_part_of_the_encoder_identity():
    spec = resolve("minilm")
    ids = {b: encoder_identity(spec, encoding_for(spec, "official", "cpu", backend=b))
           for b in ("torch", "openvino", "openvino-bf16")}
    assert len(set(ids.values())) == 3
    assert ids["torch"] == "99a0389adacecf3a9531"  # PyTorch's cache is the one it always was


def test_an_unknown_precision_is_refused_before_loading(tmp_path):
    from coreb_core.errors import CorebError
    from coreb_core.retrieval.openvino_encoder import OpenVinoEncoder

    with pytest.raises(CorebError, match="float32 or bfloat16, not 'int8'"):
        OpenVinoEncoder.load(resolve("minilm").name, "x", precision="int8", root=tmp_path)
    assert not (tmp_path / "onnx").exists()
