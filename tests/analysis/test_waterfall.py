"""The protocol waterfall (issue 36, item 7): each step's score is the official evaluator's under that step's scheme,
anchor rule and run; the changes add up from MTEB's protocol to CoREB's; steps that change nothing add 0; a step
without a stored run is folded into the next; a stored run is found for its step by its recorded encoding; bad input
is one error line."""
from __future__ import annotations

import json
import math

import pytest

from coreb_core.analysis.waterfall import ChainRun, protocol_waterfall
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import evaluate
from coreb_core.evaluation.schemes import MTEB, V2
from coreb_core.retrieval.models import resolve
from coreb_core.retrieval.protocol_steps import encoding_steps
from coreb_core.runs.folders import read_hits
from coreb_core.views import waterfall as waterfall_view
from coreb_core.views.inputs import Inputs
from tests.builders import run_cli

RELEASE = "demo_v2603"


def task_means(store, hits, scheme, anchor_exclusion) -> dict[str, float]:
    per_query = evaluate(store, hits, scheme, anchor_exclusion=anchor_exclusion)
    return per_query.groupby("task")["ndcg_at_10"].mean().to_dict()


def test_the_scoring_steps_are_the_evaluator_under_each_protocol(lexical_cache):
    root, runs = lexical_cache
    hits = read_hits(runs["bm25"], root)
    with Store(RELEASE, root) as store:
        fall = protocol_waterfall(store, "bm25", [ChainRun("scoring", "", hits, runs["bm25"])])
        expected = {"mteb": task_means(store, hits, MTEB, False), "graded": task_means(store, hits, V2, False),
                    "anchor": task_means(store, hits, V2, True)}
        with_positive = store.df("SELECT task, count(DISTINCT query_id) AS n FROM qrels WHERE relevance = 2 "
                                 "GROUP BY task").set_index("task")["n"].to_dict()
    table = fall.table
    for r in table.itertuples():
        assert r.ndcg_at_10 == pytest.approx(expected[r.step][r.task], abs=1e-12)
    for task, part in table.groupby("task"):
        assert list(part["step"]) == ["mteb", "graded", "anchor"]
        assert math.isnan(part["change"].iloc[0])
        assert part["change"].iloc[1:].sum() == pytest.approx(fall.total(task), abs=1e-12)
    mteb = table[table["step"] == "mteb"].set_index("task")["queries"].to_dict()
    assert mteb == with_positive  # MTEB leaves the queries without a positive out
    anchor = table[table["step"] == "anchor"].set_index("task")["change"]
    assert anchor["t2c"] == 0 and anchor["c2t"] == 0 and anchor["c2c"] > 0  # only C2C has an anchor to drop


def test_encoding_steps_fold_a_missing_run_and_add_zero_for_a_step_that_changes_nothing(lexical_cache):
    root, runs = lexical_cache
    first, last = read_hits(runs["bm25"], root), read_hits(runs["bm25s-mteb"], root)
    chain = [ChainRun("scoring", "card", first, runs["bm25"]), ChainRun("prompts", "none", None, None, same=True),
             ChainRun("length", "256 → 512", None, None), ChainRun("precision", "same", None, None, same=True),
             ChainRun("encoder", "AutoModel", last, runs["bm25s-mteb"])]
    with Store(RELEASE, root) as store:
        fall = protocol_waterfall(store, "x", chain)
        end = task_means(store, last, V2, True)
    part = fall.table[fall.table["task"] == "c2c"]
    assert list(part["step"]) == ["mteb", "graded", "anchor", "prompts", "precision", "length + encoder"]
    assert list(part["same"]) == [False, False, False, True, True, False]
    assert (part.loc[part["same"], "change"] == 0).all()
    assert part["description"].iloc[-1] == "256 → 512 + AutoModel" and fall.missing == ("length",)
    assert part["ndcg_at_10"].iloc[-1] == pytest.approx(end["c2c"], abs=1e-12)
    assert part["change"].iloc[1:].sum() == pytest.approx(fall.total("c2c"), abs=1e-12)


def test_a_stored_run_is_found_for_its_step_by_its_encoding(fake_dense):
    """A MiniLM run under the official profile (encoded here by the Trigrams stand-in) is the encoder step. Without the card's run the scoring
    steps are taken on it, and the card and length steps are the ones to make."""
    from coreb_core.runs.folders import run_meta

    root = fake_dense[0]
    official = run_meta(fake_dense[1], root)
    steps = {s.name: s for s in encoding_steps(resolve("minilm"), "cpu")}
    assert steps["encoder"].matches(official.encoding) and not steps["card"].matches(official.encoding)
    assert not steps["length"].matches(official.encoding)
    view = waterfall_view.build(RELEASE, "minilm", inputs=Inputs(root))
    assert view.to_make == ("card", "length")
    assert set(view.waterfall.table["run"]) == {official.run_id}


def test_the_verb_and_its_refusals(lexical_cache):
    root, runs = lexical_cache
    env = {"COREB_CACHE": str(root)}
    done = run_cli("waterfall", "--release", RELEASE, "--model", "bm25", "--task", "c2c", "--json", env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [s["step"] for s in out["steps"]] == ["mteb", "graded", "anchor"] and {s["task"] for s in out["steps"]} == {"c2c"}
    assert out["published_ends"] == {}  # CoREB-mini has no published figures
    text = run_cli("waterfall", "--release", RELEASE, "--model", "bm25", env=env)
    assert "from MTEB's protocol to CoREB's" in text.stdout and "total" in text.stdout
    for argv, says in ((["--model", "nonesuch"], "nonesuch"), (["--model", "gemini-embedding-2"], "API model"),
                       (["--model", "bm25", "--task", "x2y"], "invalid choice"),
                       (["--model", "bm25", "--device", "gpu!"], "device")):
        bad = run_cli("waterfall", "--release", RELEASE, *argv, env=env)
        assert bad.returncode == 2 and bad.stderr.count("error:") == 1 and says in bad.stderr, bad.stderr
    missing = run_cli("waterfall", "--release", "no_such_release", "--model", "bm25", env=env)
    assert missing.returncode == 2 and missing.stderr.count("error:") == 1


def test_the_published_ends_are_the_mteb_file_and_the_leaderboard_on_release_v2603_only():
    rows = [{"source_kind": "mteb", "model": "Qwen/Qwen3-Embedding-0.6B", "task_short": "c2c", "metric": "ndcg_at_10",
             "value": 0.377}]
    spec = resolve("qwen3-embedding-0.6b")
    assert waterfall_view.published_ends(rows, spec, "release_v2603")["c2c"] == {"mteb": 0.377, "leaderboard": 0.384}
    assert "mteb" not in waterfall_view.published_ends(rows, spec, "release_v2602").get("c2c", {})
    assert waterfall_view.published_ends(rows, spec, RELEASE) == {}


def test_the_overview_draws_the_waterfall_of_a_sidebar_run(lexical_cache):
    from tests.builders import app_test

    root, runs = lexical_cache
    at = app_test("overview.py", root, {"release": RELEASE, "runs": [runs["bm25"]], "fall_task": "c2c"},
                  timeout=300).run()
    assert not at.exception
    assert any("MTEB's protocol → CoREB's" in h.value for h in at.subheader)
    with Store(RELEASE, root) as store:
        hits = read_hits(runs["bm25"], root)
        start, end = task_means(store, hits, MTEB, False)["c2c"], task_means(store, hits, V2, True)["c2c"]
    sentence = next(m.value for m in at.markdown if m.value.startswith("C2C: "))
    assert f"{start * 100:.1f} under MTEB's protocol, {end * 100:.1f} under CoREB's" in sentence
    table = next(d.value for d in at.dataframe if "description" in d.value.columns)
    assert list(table["title"]) == ["MTEB's protocol", "graded qrels", "C2C anchor excluded"]
    at.selectbox(key="ov_fall_model").set_value("qwen3-embedding-8b").run()  # no run of it: the info says so
    assert not at.exception and any("No run of qwen3-embedding-8b" in i.value for i in at.info)


def test_make_missing_encodes_the_length_step_and_the_waterfall_ends_at_the_official_run(
        minilm_cold_and_warm, minilm_card_c2c, tmp_path):
    """MiniLM on CoREB-mini's C2C: the card's run (256 tokens, sentence-transformers) and the official ones exist;
    ``make_missing`` encodes the one step left (the card's modules at the runner's 512 tokens), and the waterfall
    then runs card → prompts (same) → length → precision (same) → encoder, ending at the official run's score."""
    import shutil

    from coreb_core.paths import runs_dir
    from coreb_core.runs.folders import list_runs, run_meta

    source = minilm_cold_and_warm[0]
    root = tmp_path / "cache"
    for part in ("coreb", "embeddings"):
        shutil.copytree(source / part, root / part, symlinks=True)
    shutil.copytree(runs_dir(source), runs_dir(root))
    made = waterfall_view.make_missing(RELEASE, "minilm", tasks=("c2c",), root=root)
    assert len(made) == 1 and run_meta(made[0], root).encoding["max_length"] == 512
    assert run_meta(made[0], root).label == "minilm · waterfall: length"
    assert waterfall_view.make_missing(RELEASE, "minilm", tasks=("c2c",), root=root) == []  # nothing left to make
    view = waterfall_view.build(RELEASE, "minilm", task="c2c", inputs=Inputs(root))
    table = view.waterfall.table
    assert list(table["step"]) == ["mteb", "graded", "anchor", "prompts", "length", "precision", "encoder"]
    assert view.to_make == () and view.waterfall.missing == ()
    assert table.set_index("step").loc["mteb", "run"] == minilm_card_c2c.run_id
    official = max((m for m in list_runs(RELEASE, root) if m.model == "minilm" and m.profile == "official"),
                   key=lambda m: m.created or "")
    with Store(RELEASE, root) as store:
        end = task_means(store, read_hits(official.run_id, root), V2, True)["c2c"]
    assert table["ndcg_at_10"].iloc[-1] == pytest.approx(end, abs=1e-12)
    assert table.set_index("step").loc["length", "change"] != 0  # 512 tokens rank some C2C lists otherwise
