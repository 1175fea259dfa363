"""The Run retrieval page: run, cancel, imports (its helpers: tests/ui/test_format.py, tests/runs/test_uploads.py)."""
import shutil

import pytest

from coreb_core.data.store import Store, list_releases
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.present.format import plain, without_release
from coreb_core.runs.cost import rate_text
from coreb_core.runs.folders import read_hits, run_meta
from tests import dump
from tests.builders import app_test, bad_jsonl


@pytest.fixture
def private_cache(app_cache, tmp_path, monkeypatch):
    """A copy of the app cache (releases and runs), so new runs and imports touch no other test: for the one test
    that runs MiniLM itself. The others work on ``lexical_copy`` (CoREB-mini and its lexical runs: the fast loop)."""
    root = tmp_path / "cache"
    shutil.copytree(app_cache / "coreb", root / "coreb", symlinks=False,
                    ignore=shutil.ignore_patterns(".versions"))
    shutil.copytree(app_cache / "runs", root / "runs")
    monkeypatch.setenv("COREB_CACHE", str(root))  # restored after the test (app_test sets it again)
    return root


def finish_runs(at, root):
    """The page's background runs (coreb_core.retrieval.jobs) waited for, then the page run again, as the
    sidebar's one-second refresh does in a browser."""
    from coreb_core.retrieval.jobs import board

    for s in board(root).running():
        board(root).wait(s.job_id, 900)
    return at.run()


def test_run_page_runs_bm25(lexical_copy):
    private_cache = lexical_copy[0]
    from ui.cache import runs_of

    before = set(runs_of("demo_v2603"))
    at = app_test("run_retrieval.py", private_cache, {"release": "demo_v2603"}).run()
    assert not at.exception
    at.selectbox(key="run_model").set_value("bm25")
    at.button(key="run_go").click().run()
    assert not at.exception and not at.error
    finish_runs(at, private_cache)
    assert not at.exception and not at.error
    after = runs_of("demo_v2603")
    new = set(after) - before
    assert len(new) == 1
    run_id = new.pop()
    assert after[run_id].model == "bm25" and run_id.startswith("bm25__demo_v2603__")
    assert after[run_id].profile is None  # BM25 has no encoder, so no profile in its label
    # shown by its name, the id only in the tooltip; no Cancel left once the run has finished
    name = run_meta(run_id, private_cache).name
    assert name.startswith("bm25 · demo_v2603") and after[run_id].name == name
    assert at.subheader[0].value == plain(name) and run_id in at.subheader[0].proto.help
    assert not at.code and not any(str(b.key).startswith("job_cancel_") for b in at.button)
    assert any(c.value.endswith("It is now listed under Runs in the sidebar for release demo_v2603.")
               for c in at.caption)
    cost = run_meta(run_id, private_cache).cost  # issue 36: what the run measured, said when it ends
    assert cost.kind == "lexical" and cost.texts_per_s > 0
    assert any(f"; measured cost: {rate_text(cost.speed_ms)} CPU-ms per query (" in c.value for c in at.caption)
    # issue 24: the finished run is listed and chosen under Runs at once, and the sidebar says so
    # (the chips leave out " · demo_v2603": the sidebar's release is chosen right above them)
    assert run_id in at.sidebar.multiselect[0].value
    assert without_release(name, "demo_v2603") in at.sidebar.multiselect[0].options
    assert [x.value for x in at.sidebar.success][-1].startswith(plain(f"The run {name} finished in"))
    with Store("demo_v2603", private_cache) as store:
        expected = summary(evaluate(store, read_hits(run_id, private_cache)))["tasks"]
    shown = next(d.value for d in at.dataframe if "ndcg_at_10" in d.value.columns).set_index("task")["ndcg_at_10"]
    assert list(shown.index) == ["t2c", "c2c", "c2t"]
    for task in shown.index:  # x100, one decimal, as on every page (issue 24)
        assert shown[task] == round(expected[task]["ndcg_at_10"] * 100, 1)
    assert shown["t2c"] == 30.0  # README: BM25 T2C nDCG@10 on demo_v2603
    assert len(at.get("vega_lite_chart")) == 1
    assert any("scheme `v2`" in c.value for c in at.caption)
    # the new run is offered on other pages without a restart
    other = app_test("traps.py", private_cache, {"release": "demo_v2603", "runs": run_id}).run()
    assert not other.exception and other.sidebar.multiselect[0].value == [run_id]


def test_run_page_profile_selector_reaches_the_run(private_cache, minilm_cold_and_warm, minilm_card_c2c):
    from ui.cache import runs_of
    from ui.widgets import run_label

    # The session's card-profile C2C vectors (encoded once, tests/retrieval checks that encode): this test
    # is about the page reaching a card run, and a cold encode here cost the suite 20 s more.
    shutil.copytree(minilm_cold_and_warm[0] / "embeddings", private_cache / "embeddings")
    before = set(runs_of("demo_v2603"))
    at = app_test("run_retrieval.py", private_cache, {"release": "demo_v2603"}, timeout=900).run()
    assert at.radio(key="run_profile").value == "official"  # the default
    at.selectbox(key="run_model").set_value("minilm")
    at.radio(key="run_profile").set_value("card")
    at.multiselect(key="run_tasks").set_value(["c2c"]).run()
    assert not at.exception
    at.button(key="run_go").click().run()
    assert not at.exception and not at.error
    finish_runs(at, private_cache)
    after = runs_of("demo_v2603")
    (run_id,) = set(after) - before
    meta = after[run_id]
    assert meta.profile == "card" and meta.encoding["backend"] == "sentence-transformers"
    assert meta.texts_encoded == 0  # every vector from the session's card run
    assert run_id.startswith("minilm-card__demo_v2603__") and run_label(meta).startswith("minilm · card · demo_v2603")
    assert any("encoding profile `card`" in c.value for c in at.caption)
    other = app_test("traps.py", private_cache, {"release": "demo_v2603", "task": "c2c", "runs": run_id}).run()
    assert not other.exception and other.sidebar.multiselect[0].value == [run_id]
    assert without_release(run_label(meta), "demo_v2603") in other.sidebar.multiselect[0].options


def test_run_page_says_where_a_run_on_another_release_appears(lexical_copy):
    private_cache = lexical_copy[0]
    from ui.cache import runs_of

    # One release selector: a run is made on the sidebar's release; when the sidebar then moves to
    # another release, the message says where the run is.
    before = set(runs_of("demo_v2602"))
    at = app_test("run_retrieval.py", private_cache, {"release": "demo_v2602"}).run()
    assert "run_release" not in [s.key for s in at.selectbox]
    at.selectbox(key="run_model").set_value("bm25")
    at.multiselect(key="run_tasks").set_value(["t2c"]).run()
    at.button(key="run_go").click().run()
    assert not at.exception and not at.error
    finish_runs(at, private_cache)
    (run_id,) = set(runs_of("demo_v2602")) - before
    assert any(c.endswith("It is now listed under Runs in the sidebar for release demo_v2602.") for c in
               [c.value for c in at.caption])
    at.sidebar.selectbox(key="release").set_value("demo_v2603").run()
    captions = [c.value for c in at.caption]
    assert any(c.endswith("It was made on release demo_v2602; switch the sidebar's Release to demo_v2602 "
                          "to find it under Runs.") for c in captions)
    assert not any("listed under Runs in the sidebar" in c for c in captions)
    assert run_id not in runs_of("demo_v2603")  # the sidebar shows demo_v2603's runs: not this one
    assert len(at.sidebar.multiselect[0].options) == len(runs_of("demo_v2603"))


def test_run_page_renames_and_tags_a_run(lexical_copy):
    private_cache = lexical_copy[0]
    from ui.cache import runs_of

    runs = runs_of("demo_v2603")
    first, second = list(runs)[:2]
    at = app_test("run_retrieval.py", private_cache, {"release": "demo_v2603"}).run()
    assert not at.exception
    picker = at.selectbox(key="rename_run")
    assert picker.options == [runs[r].name for r in runs]  # names, never ids
    picker.set_value(first).run()
    assert at.text_input(key=f"rename_name_{first}").value == runs[first].name
    assert first in at.selectbox(key="rename_run").proto.help  # the id is in the tooltip
    at.text_input(key=f"rename_name_{first}").set_value("  my baseline ")
    at.text_input(key=f"rename_tags_{first}").set_value("baseline, demo,, ")
    next(b for b in at.button if b.label == "Save name and tags").click().run()
    assert not at.exception and not at.error
    meta = run_meta(first, private_cache)
    assert (meta.name, meta.tags) == ("my baseline", ("baseline", "demo"))
    assert [s.value for s in at.success] == ["Saved: my baseline (tags: baseline, demo)."]
    assert "my baseline" in at.sidebar.multiselect[0].options  # the sidebar lists it by its new name at once
    # a name another run of the release has, and a control character, are refused; nothing changes
    at.selectbox(key="rename_run").set_value(second).run()
    at.text_input(key=f"rename_name_{second}").set_value("My Baseline")
    next(b for b in at.button if b.label == "Save name and tags").click().run()
    assert [e.value for e in at.error] == [plain(f"name 'My Baseline' is already used by run {first} on release "
                                                 "demo_v2603; choose another")]
    at.text_input(key=f"rename_name_{second}").set_value("ok")
    at.text_input(key=f"rename_tags_{second}").set_value("a\x1bb")
    next(b for b in at.button if b.label == "Save name and tags").click().run()
    assert [e.value for e in at.error] == [plain("tag 'a\\x1bb' holds a control character ('\\x1b'); "
                                                 "use plain text on one line")]
    assert run_meta(second, private_cache).name == runs[second].name and run_meta(second, private_cache).tags is None


def test_run_page_cancelled_run_stores_nothing(lexical_copy):
    private_cache = lexical_copy[0]
    from coreb_core.retrieval.jobs import CANCELLED, board
    from ui.cache import runs_of

    before = set(runs_of("demo_v2603"))
    folders = sorted(p.name for p in (private_cache / "runs").iterdir())
    at = app_test("run_retrieval.py", private_cache, {"release": "demo_v2603"}).run()
    at.selectbox(key="run_model").set_value("minilm")  # no vectors in this cache: it loads, then encodes
    at.button(key="run_go").click().run()
    (job,) = board(private_cache).running()
    assert job.request.model == "minilm"
    # the sidebar shows it with its Cancel button (AppTest runs the fragment once per page run)
    assert any(b.key == f"job_cancel_{job.job_id}" for b in at.sidebar.button)
    assert "in the background" in at.info[0].value
    at.sidebar.button(key=f"job_cancel_{job.job_id}").click().run()
    assert board(private_cache).wait(job.job_id, 120).status == CANCELLED
    at.run()
    assert not at.exception and set(runs_of("demo_v2603")) == before
    assert [w.value for w in at.sidebar.warning][-1].startswith("The run of minilm · official on demo\\_v2603 was "
                                                                "cancelled after")
    assert sorted(p.name for p in (private_cache / "runs").iterdir()) == folders  # no temporary left


def test_run_page_api_model_needs_its_key(cache, mini_data, monkeypatch):
    from coreb_core.paths import datasets_dir

    shutil.copytree(datasets_dir(mini_data), datasets_dir(cache))  # the releases alone: no run is needed
    for var in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    at = app_test("run_retrieval.py", cache).run()
    at.selectbox(key="run_model").set_value("gemini-embedding-2").run()
    assert at.button(key="run_go").disabled
    assert any("GEMINI_API_KEY" in i.value for i in at.info)
    assert any("tokens" in c.value and "estimate" in c.value for c in at.caption)
    monkeypatch.setenv("GEMINI_API_KEY", "sk-PAGECHECK-91b2")  # set: Run is offered, the key is shown nowhere
    at.run()
    assert not at.button(key="run_go").disabled
    assert not [e for e in (*at.info, *at.caption, *at.markdown) if "sk-PAGECHECK-91b2" in e.value]


def test_run_page_broken_dataset_shows_each_problem(lexical_copy, tmp_path):
    private_cache = lexical_copy[0]
    src = bad_jsonl(tmp_path)
    at = app_test("run_retrieval.py", private_cache).run()
    at.text_input(key="ds_release").set_value("broken")
    at.text_input(key="ds_path").set_value(str(src)).run()
    at.button(key="ds_go").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors == [plain(f"{src / 'text2code_qrels.jsonl'}: row 2: field 'relevance': grade must be 0, 1 or 2: 5"),
                      plain(f"{src / 'code2code_qrels.jsonl'}: row 3: field 'relevance': grade must be 0, 1 or 2: 7")]
    assert "broken" not in list_releases(private_cache)


def test_run_page_imports_good_dataset_and_trec_results(lexical_copy, tmp_path):
    private_cache = lexical_copy[0]
    src = dump.write_parquet_folder(tmp_path / "good", dump.rows())
    at = app_test("run_retrieval.py", private_cache).run()
    at.text_input(key="ds_release").set_value("tiny")
    at.text_input(key="ds_path").set_value(str(src)).run()
    at.button(key="ds_go").click().run()
    assert not at.exception and not at.error
    assert "tiny" in list_releases(private_cache)
    imported = next(d.value for d in at.dataframe if list(d.value.columns) == ["config", "rows"])
    assert dict(zip(imported["config"], imported["rows"])) == dump.EXPECTED_ROWS

    trec = tmp_path / "res" / "mine.trec"
    trec.parent.mkdir()
    trec.write_text("q_t2c_search_python_0002 Q0 code_v202601_00001 1 2.0 mine\n"
                    "q_t2c_search_python_0002 Q0 code_v202601_00003 2 1.0 mine\n")
    (tmp_path / "res" / "junk.txt").write_text("not a result\n")
    at = app_test("run_retrieval.py", private_cache, {"release": "tiny"}).run()
    assert at.toggle(key="res_has_lists").value  # the ranked lists belong to the sidebar's release
    at.text_input(key="res_path").set_value(str(trec.parent)).run()
    at.button(key="res_go").click().run()
    assert not at.exception
    assert any("1 run(s) created" in s.value for s in at.success)
    assert [e.value for e in at.error] == [plain(f"{tmp_path / 'res' / 'junk.txt'}: not a recognised result file "
                                                 "(MTEB task JSON, runner output, TREC run, exported run)")]
    from ui.cache import runs_of
    assert any(m.run_id.startswith("mine__tiny__") for m in runs_of("tiny").values())
    assert next(d.value for d in at.dataframe if list(d.value.columns) == ["name"])["name"].tolist() == ["mine · tiny"]


def test_run_page_sweeps_as_one_job(mini_data, tmp_path, monkeypatch):
    """Issue 37: the page starts a sweep as one job on the board; its summary says what was stored and skipped."""
    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.jobs import DONE, board
    from coreb_core.runs.folders import list_runs

    root = tmp_path / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    monkeypatch.setenv("COREB_CACHE", str(root))
    at = app_test("run_retrieval.py", root, {"release": "demo_v2603"}).run()
    assert not at.exception
    at.multiselect(key="sweep_models").set_value(["bm25", "bm25s-mteb"])
    at.multiselect(key="sweep_releases").set_value(["demo_v2603", "demo_v2602"])
    at.button(key="sweep_go").click().run()
    assert not at.exception and not at.error
    (job,) = [s for s in board(root).states() if s.request.title.startswith("sweep of")]
    assert job.request.title == "sweep of bm25, bm25s-mteb on demo_v2603, demo_v2602 (official)"
    assert board(root).wait(job.job_id, 300).status == DONE
    at.run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "status" in d.value.columns)
    assert table[["model", "release", "status"]].values.tolist() == [
        [m, r, "stored"] for m in ("bm25", "bm25s-mteb") for r in ("demo_v2603", "demo_v2602")]
    assert sorted((m.model, m.release) for m in list_runs(None, root)) == sorted(
        (m, r) for m in ("bm25", "bm25s-mteb") for r in ("demo_v2603", "demo_v2602"))
    assert any(c.value.startswith("4 runs: 4 stored, 0 skipped, 0 failed in ") for c in at.caption)
