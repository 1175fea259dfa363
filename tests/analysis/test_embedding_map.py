"""The embedding map: PCA on points of known geometry, and a map of the tiny release built from vectors
put by hand into an embedding cache (nothing encoded), with the one-line errors when vectors are missing."""
import math
from dataclasses import replace

import numpy as np
import pytest

from coreb_core.analysis.embedding_map import embedding_map, project_2d, run_cache
from coreb_core.errors import CorebError
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.models import resolve
from coreb_core.retrieval.profiles import encoding_for, run_encoder_identity
from coreb_core.runs.meta import RunMeta
from tests.builders import Q1, code, tiny_hits

QUERY_PROMPT = "Query: "  # the run's own query prompt: vectors are keyed with it


def pairwise(points: np.ndarray) -> np.ndarray:
    return np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)


def test_points_on_a_line_keep_their_order_and_spacing():
    t = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    direction = np.array([1.0, 2.0, 0.0, 0.0, 2.0])  # length 3
    vectors = np.outer(t, direction) + np.array([5.0, -1.0, 2.0, 0.0, 7.0])
    coords, explained = project_2d(vectors)
    assert explained == pytest.approx((1.0, 0.0), abs=1e-12)
    np.testing.assert_allclose(coords[:, 0], 3.0 * (t - 2.0), atol=1e-9)  # the query (first) on the left
    np.testing.assert_allclose(coords[:, 1], 0.0, atol=1e-9)


def test_points_in_a_plane_keep_every_distance():
    rng = np.random.default_rng(0)
    basis = np.linalg.qr(rng.normal(size=(6, 2)))[0]  # an orthonormal plane in 6-D
    flat = rng.normal(size=(9, 2)) * [3.0, 1.0]
    coords, explained = project_2d(flat @ basis.T + 4.0)
    assert sum(explained) == pytest.approx(1.0) and explained[0] > explained[1]
    np.testing.assert_allclose(pairwise(coords), pairwise(flat), atol=1e-9)
    assert coords[0, 0] <= 0 and coords[0, 1] <= 0


def test_degenerate_inputs():
    coords, explained = project_2d(np.ones((3, 4)))  # one point three times: no variance
    assert coords.tolist() == [[0.0, 0.0]] * 3 and explained == (0.0, 0.0)
    assert project_2d(np.zeros((0, 4)))[0].shape == (0, 2)


def dense_meta(tasks=("t2c",)) -> RunMeta:
    spec = resolve("minilm")
    enc = encoding_for(spec, "official", "cpu")
    return RunMeta("dense-test", release="tiny", kind="retrieval", model=spec.id, profile="official",
                   model_spec=spec.describe(), encoding=enc.describe(),
                   prompts={t: {"query": QUERY_PROMPT, "document": "", "source": "test"} for t in tasks})


# Q1 ("Sum of two integers.") at angle 0 on the unit circle of the (e1, e2) plane of 3-D; each code document
# at its own angle (degrees). Positives 1, 2, 4; trap 3 (a failing solution); 5 and 6 unjudged.
ANGLES = {1: 10.0, 2: 60.0, 3: 5.0, 4: 90.0, 5: 20.0, 6: 170.0}


def unit(degrees: float) -> np.ndarray:
    r = math.radians(degrees)
    return np.array([math.cos(r), math.sin(r), 0.0])


def put_vectors(store, meta: RunMeta, leave_out: tuple[int, ...] = ()) -> None:
    cache = EmbeddingCache(run_encoder_identity(meta.model_spec, meta.encoding), store.root)
    query = store.sql("SELECT query FROM queries WHERE query_id = ?", [Q1]).fetchone()[0]
    cache.put([query], QUERY_PROMPT, unit(0.0)[None, :])
    docs = dict(store.sql("SELECT doc_id, content FROM documents WHERE corpus = 'code'").fetchall())
    kept = [n for n in ANGLES if n not in leave_out]
    cache.put([docs[code(n)] for n in kept], "", np.stack([unit(ANGLES[n]) * (n + 1) for n in kept]))  # lengths vary


def test_map_of_a_hand_made_run(tiny_store):
    meta = dense_meta()
    put_vectors(tiny_store, meta)
    hits = tiny_hits(tiny_store, {Q1: [code(3), code(1), code(5)]})
    m = embedding_map(tiny_store, meta, Q1, neighbours=1, hits=hits)
    p = m.points
    assert (m.run_id, m.query_id, m.method) == ("dense-test", Q1, "PCA")
    # query, positives (nearest first), the trap, the one nearest unjudged document (code 5 at 20°, not 6 at 170°)
    assert p["doc_id"].tolist() == [Q1, code(1), code(2), code(4), code(3), code(5)]
    assert p["role"].tolist() == ["query", "positive", "positive", "positive", "trap", "neighbour"]
    assert p["kind"].tolist() == ["query", "positive", "positive", "positive", "failing_solution", "unjudged"]
    assert p["grade"].tolist()[1:5] == [2, 2, 2, 1] and p["grade"].isna().tolist() == [True] + [False] * 4 + [True]
    np.testing.assert_allclose(p["similarity"], [1.0] + [math.cos(math.radians(ANGLES[n])) for n in (1, 2, 4, 3, 5)],
                               atol=1e-6)
    assert p["rank"].tolist()[1:] == pytest.approx([2.0, math.nan, math.nan, 1.0, 3.0], nan_ok=True)
    # Unit vectors in one plane: the two axes hold all the variance and every distance is kept (the
    # stored lengths differ; the map normalises as the run's cosine search did).
    assert sum(m.explained_variance) == pytest.approx(1.0)
    circle = np.stack([unit(0.0)] + [unit(ANGLES[n]) for n in (1, 2, 4, 3, 5)])
    np.testing.assert_allclose(pairwise(p[["x", "y"]].to_numpy()), pairwise(circle), atol=1e-6)
    assert p["x"].iloc[0] <= 0 and p["y"].iloc[0] <= 0
    assert p["snippet"].iloc[0] == "Sum of two integers." and p["language"].iloc[4] == "python"
    assert embedding_map(tiny_store, meta, Q1, neighbours=0).points["role"].tolist()[-1] == "trap"


def test_missing_vectors_are_one_line_errors(tiny_store):
    meta = dense_meta()
    put_vectors(tiny_store, meta, leave_out=(6,))
    with pytest.raises(CorebError, match=r"^1 of 6 document vectors of minilm · official · tiny \(t2c\) are not in its "
                                         r"embedding cache") as err:
        embedding_map(tiny_store, meta, Q1)
    assert "\n" not in str(err.value) and "re-encoded" in str(err.value) and meta.run_id not in str(err.value)
    with pytest.raises(CorebError, match="did not search task c2c"):
        embedding_map(tiny_store, meta, "q_c2c_cross_lang_0001")
    other_prompt = replace(dense_meta(), prompts={"t2c": {"query": "", "document": ""}})
    with pytest.raises(CorebError, match="^1 of 1 query vectors"):  # the query was stored under its prompt
        embedding_map(tiny_store, other_prompt, Q1)
    with pytest.raises(CorebError, match="has no encoder"):
        run_cache(RunMeta("bm25-run", model="bm25", model_spec=resolve("bm25").describe()))
