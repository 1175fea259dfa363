"""coreb_core.retrieval.pipeline.progress_plan: a run's progress is in proportion to its work (issue 24: a
23-minute estimate two minutes before the end, because T2C, C2C and C2T weighed a third each)."""
from typing import NamedTuple

import numpy as np
import pytest

from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.pipeline import WORK_CHARS, progress_plan


class Task(NamedTuple):
    docs: list
    queries: list


def work(text: str) -> float:
    return 1.0 + min(len(text), WORK_CHARS) / 100


def test_cached_and_shared_texts_cost_nothing(tmp_path):
    cache = EmbeddingCache("plan", root=tmp_path)
    code = ["def f(): return 1" * 50, "x = 2"]
    cache.put(["x = 2"], "", np.ones((1, 2)))  # already encoded
    t2c = Task(code, ["sum two numbers"])
    c2c = Task(code, ["x = 2"])  # the same code corpus: encoded by T2C's step already; its query is cached
    c2t = Task(["a description"], ["y = 3"])
    plan = progress_plan([t2c, c2c, c2t], [("", "")] * 3, cache)
    encode = work(code[0]) + work("sum two numbers") + work("a description") + work("y = 3")
    scale = (1 - 3 * 0.02) / encode
    assert plan.weights[0] == pytest.approx((work(code[0]) * scale, work("sum two numbers") * scale, 0.02))
    assert plan.weights[1] == pytest.approx((0.0, 0.0, 0.02))
    assert plan.starts == pytest.approx([0.0, plan.weights[0][0] + plan.weights[0][1] + 0.02,
                                         sum(plan.weights[0]) + 0.02])
    assert sum(sum(w) for w in plan.weights) == pytest.approx(1.0)
    # a 100,000-character text costs what a WORK_CHARS one does: the encoder truncates it
    assert work("z" * 100_000) == work("z" * WORK_CHARS)


def test_everything_cached_falls_back_to_the_tasks_sizes(tmp_path):
    cache = EmbeddingCache("plan", root=tmp_path)
    cache.put(["a", "b", "q"], "", np.ones((3, 2)))
    plan = progress_plan([Task(["a", "b"], ["q"]), Task(["a"], ["q"])], [("", "")] * 2, cache)
    assert plan.weights[0] == pytest.approx((0.98 * 2 / 5, 0.98 / 5, 0.02 * 3 / 5))
    assert plan.starts == pytest.approx([0.0, 0.6])


def test_a_runs_time_is_its_wall_time(mini_data, tmp_path):
    """The task loop's progress start once overwrote the run's timer: a BM25 run of seconds reported 20,929 s."""
    import shutil
    import time

    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import run_meta

    root = shutil.copytree(mini_data, tmp_path / "cache")
    began = time.perf_counter()
    result = run_retrieval("bm25", "demo_v2603", root=root)
    wall = time.perf_counter() - began
    assert 0 < result.seconds <= wall
    assert 0 < run_meta(result.run_id, root).timings_s["total"] <= wall
