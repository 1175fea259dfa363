"""On the real release_v2603 (BM25 and bm25s-mteb runs): one verdict on the page, in the report and on
the CLI; the article's figures beside ours on the Overview; a run started on Run retrieval goes on in the
background and is listed when done. (The browser checks on CoREB-mini: tests/app/test_browser_users.py.)"""
from __future__ import annotations

import html as html_lib
import re
import shutil

from tests.builders import app_test, run_cli


def test_page_report_and_cli_state_one_verdict(real_cache, real_runs, tmp_path):
    runs = [real_runs["bm25"], real_runs["bm25s-mteb"]]
    at = app_test("selection.py", real_cache, {"release": "release_v2603", "runs": runs, "sel_tasks": "t2c",
                                               "sel_langs": "python,java", "budget": "0.6"}, timeout=300).run()
    assert not at.exception and not at.error
    verdict = next(m.value for m in at.markdown if m.value.startswith(("Choose", "No clear winner"))).replace("\\", "")
    evidence = at.text[0].value
    out = tmp_path / "report.html"
    env = {"COREB_CACHE": str(real_cache)}
    args = ["--release", "release_v2603", "--runs", *runs, "--task", "t2c", "--languages", "python", "java",
            "--max-params", "0.6"]
    assert run_cli("report", *args, "--out", str(out), env=env, timeout=600).returncode == 0
    box = re.search(r'<div class="rec"><b>Recommendation.</b> (.*?)</div>', out.read_text(encoding="utf-8")).group(1)
    tier = at.text[1].value  # issue 36, item 2: where the recommended run stands among the rank tiers
    assert tier.startswith(("The recommended run is ", "No run is recommended"))  # a tie recommends none (issue 48)
    said_box = [html_lib.unescape(p) for p in box.split("<br>")]
    assert said_box[:3] == [verdict, evidence, tier]
    page_lines = [t.value for t in at.text]
    assert said_box[3:] == page_lines[2:], (said_box, page_lines)  # the published models above, as the page says them
    said = run_cli("select", *args, env=env, timeout=600)
    assert said.returncode == 0 and said.stdout.splitlines()[1:4] == [verdict, evidence, tier]
    # T2C python + java on the real release: BM25 leads bm25s-mteb, and the words say whether that is significant
    assert verdict.startswith(("Choose bm25 · release_v2603", "No clear winner: bm25 · release_v2603 and"))


def test_overview_shows_the_article_beside_our_runs(real_cache, real_runs):
    at = app_test("overview.py", real_cache, {"release": "release_v2603", "runs": [real_runs["bm25"]]},
                  timeout=300).run()
    assert not at.exception
    t4 = next(d.value for d in at.dataframe if "search" in d.value.columns)
    ours = t4[t4["run"] == real_runs["bm25"]].iloc[0]
    # BM25's T2C by subtask family on the real release (x100): search near 0, as Table 4's 0.0-1.5
    assert ours["search"] < 1.0 and ours["canonical"] > 20 and ours["full"] > 20
    n1 = next(d.value for d in at.dataframe if "ndcg_at_1" in d.value.columns)
    ours1 = n1[n1["run"] == real_runs["bm25"]].iloc[0]
    assert 10 < ours1["ndcg_at_1"] < 25 and "anchor excluded" in ours1["kind"]
    assert any("8 of 11" in m.value for m in at.markdown)


def test_a_background_run_on_the_real_release_is_listed_when_done(real_cache, tmp_path, monkeypatch):
    from coreb_core.retrieval.jobs import DONE, board
    from coreb_core.runs.folders import list_runs

    cache = tmp_path / "cache"
    shutil.copytree(real_cache, cache, symlinks=True)
    monkeypatch.setenv("COREB_CACHE", str(cache))
    before = {m.run_id for m in list_runs("release_v2603", cache)}
    at = app_test("run_retrieval.py", cache, {"release": "release_v2603"}, timeout=300).run()
    at.selectbox(key="run_model").set_value("bm25")
    at.multiselect(key="run_tasks").set_value(["t2c"]).run()
    at.button(key="run_go").click().run()
    (job,) = board(cache).running()
    assert board(cache).wait(job.job_id, 300).status == DONE
    at.run()
    (new,) = {m.run_id for m in list_runs("release_v2603", cache)} - before
    assert new in at.sidebar.multiselect[0].value
    assert any(s.value.startswith("The run bm25 · release\\_v2603 (2) finished in") for s in at.sidebar.success)
    shown = next(d.value for d in at.dataframe if "ndcg_at_10" in d.value.columns).set_index("task")
    assert shown.loc["t2c", "ndcg_at_10"] == 20.8  # x100, one decimal: the BM25 T2C of the leaderboard
