"""A researcher's judgments (coreb_core.data.judgments, the judge and judgments verbs): stored and read back, the
latest applied, the judged qrels view, texts that changed (stale), the fingerprint, re-imports, two writers at once,
the exports and Cohen's kappa. Each test judges in a private copy of CoREB-mini."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from coreb_core.data import judgments as jd
from coreb_core.data.judgments import (
    agreement,
    current_judgments,
    export_judged_qrels,
    judge,
    judged_qrels_view,
    judgment_summary,
    judgment_table,
    judgments_fingerprint,
    list_judgments,
    text_sha256,
)
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.paths import datasets_dir, judgments_file, release_dir
from coreb_core.results.uploads import import_dataset
from tests.builders import REPO, run_cli

RELEASE = "demo_v2603"
T2C = "q_t2c_canonical_retro_any_0001"
C2T = "q_c2t_full_retro_any_0001"


@pytest.fixture
def root(mini_data, tmp_path, monkeypatch) -> Path:
    """A private copy of CoREB-mini (both releases) as COREB_CACHE: judgments write into the cache."""
    copy = tmp_path / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(copy), symlinks=True)
    monkeypatch.setenv("COREB_CACHE", str(copy))
    return copy


def qrels_of(root: Path, query_id: str) -> dict[str, int]:
    with Store(RELEASE, root) as store:
        return dict(store.sql("SELECT doc_id, relevance FROM qrels WHERE query_id = ?", [query_id]).fetchall())


def unjudged_code(root: Path, query_id: str) -> str:
    """A code document of the release that the qrels do not judge for ``query_id``."""
    with Store(RELEASE, root) as store:
        row = store.sql("""SELECT min(doc_id) FROM documents WHERE corpus = 'code'
                           AND doc_id NOT IN (SELECT doc_id FROM qrels WHERE query_id = ?)""", [query_id]).fetchone()
    assert row and row[0]
    return str(row[0])


def positive_and_trap(root: Path, query_id: str) -> tuple[str, str]:
    grades = qrels_of(root, query_id)
    return min(d for d, g in grades.items() if g == 2), min(d for d, g in grades.items() if g == 1)


def reimport(root: Path, tmp_path: Path, change=None) -> None:
    """Import the release again from a copy of its own files, after ``change(code_corpus_table) -> table``."""
    src = tmp_path / f"src-{len(list(tmp_path.glob('src-*')))}"
    shutil.copytree(release_dir(RELEASE, root).resolve(), src)
    if change is not None:
        path = src / "code_corpus.parquet"
        pq.write_table(change(pq.read_table(path)), path)
    import_dataset(src, RELEASE, root=root)


# ------------------------------------------------------------------ stored, read back, the latest applied


def test_a_judgment_is_stored_and_read_back(root):
    doc = positive_and_trap(root, T2C)[1]
    before = datetime.now(timezone.utc)
    made = judge(RELEASE, T2C, doc, 2, "Ada", "passes every test\nsee line 3", root)
    with Store(RELEASE, root) as store:
        query_text = store.sql("SELECT query FROM queries WHERE query_id = ?", [T2C]).fetchone()[0]
        doc_text = store.sql("SELECT content FROM documents WHERE doc_id = ?", [doc]).fetchone()[0]
    assert (made.id, made.release, made.task, made.query_id, made.doc_id, made.grade, made.annotator, made.note) == (
        1, RELEASE, "t2c", T2C, doc, 2, "Ada", "passes every test\nsee line 3")
    assert (made.query_sha256, made.doc_sha256) == (text_sha256(query_text), text_sha256(doc_text))
    assert made.judged_at.tzinfo == timezone.utc and before - timedelta(seconds=1) <= made.judged_at <= \
        datetime.now(timezone.utc)
    assert list_judgments(RELEASE, root) == [made]
    assert list_judgments("demo_v2602", root) == []
    assert judgments_file(root) == root / "judgments.duckdb" and judgments_file(root).is_file()


def test_the_latest_judgment_wins(root):
    positive, trap = positive_and_trap(root, T2C)
    judge(RELEASE, T2C, positive, 1, "ada", root=root)
    judge(RELEASE, T2C, positive, 0, "bob", root=root)
    judge(RELEASE, T2C, positive, 2, "ada", root=root)  # ada again: the latest overall
    judge(RELEASE, T2C, trap, 2, "bob", root=root)
    with Store(RELEASE, root) as store:
        assert current_judgments(store).to_dict("records") == [
            {"task": "t2c", "query_id": T2C, "doc_id": positive, "relevance": 2},
            {"task": "t2c", "query_id": T2C, "doc_id": trap, "relevance": 2}]
        assert judgment_table(store)["status"].tolist() == ["superseded", "superseded", "applied", "applied"]
        assert judgment_summary(store) == jd.JudgmentSummary(4, 2, 2, 2, 0, ("ada", "bob"))
    # each annotator's latest of the positive: ada 2, bob 0; of the trap only bob: one shared pair
    assert agreement(RELEASE, root) == [jd.Agreement("ada", "bob", 1, 0.0, 0.0)]


def test_judged_view_is_the_qrels_with_the_grades_replaced_and_added(root):
    positive, trap = positive_and_trap(root, T2C)
    extra = unjudged_code(root, T2C)
    judge(RELEASE, T2C, positive, 1, "ada", root=root)
    judge(RELEASE, T2C, trap, 2, "ada", root=root)
    judge(RELEASE, T2C, extra, 2, "ada", root=root)
    with Store(RELEASE, root) as store:
        qrels = store.sql("SELECT task, query_id, doc_id, relevance FROM qrels").df()
        name = judged_qrels_view(store)
        assert name == f"qrels_judged_{judgments_fingerprint(RELEASE, root)}"
        judged = store.sql(f"SELECT task, query_id, doc_id, relevance FROM {name}").df()
    expected = qrels.copy()
    for doc, grade in ((positive, 1), (trap, 2)):
        expected.loc[(expected["query_id"] == T2C) & (expected["doc_id"] == doc), "relevance"] = grade
    expected = pd.concat([expected, pd.DataFrame([{"task": "t2c", "query_id": T2C, "doc_id": extra, "relevance": 2}])])

    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.astype({"relevance": int}).sort_values(["task", "query_id", "doc_id"], ignore_index=True)

    assert len(judged) == len(qrels) + 1
    pd.testing.assert_frame_equal(ordered(judged), ordered(expected))


def test_grade_zero_keeps_the_pair_with_relevance_zero(root):
    positive, _ = positive_and_trap(root, T2C)
    extra = unjudged_code(root, T2C)
    judge(RELEASE, T2C, positive, 0, "ada", root=root)
    judge(RELEASE, T2C, extra, 0, "ada", root=root)
    with Store(RELEASE, root) as store:
        name = judged_qrels_view(store)
        grades = dict(store.sql(f"SELECT doc_id, relevance FROM {name} WHERE query_id = ?", [T2C]).fetchall())
    assert grades[positive] == 0 and grades[extra] == 0
    assert set(grades) == set(qrels_of(root, T2C)) | {extra}  # the query stays judged (and scored)


def test_a_judgment_of_texts_that_changed_is_stale(root, tmp_path):
    doc = positive_and_trap(root, T2C)[0]
    judge(RELEASE, T2C, doc, 0, "ada", root=root)
    assert judgments_fingerprint(RELEASE, root) != "none"

    def edited(table):  # the judged solution's code changes under the same id
        codes = [c + "\n# edited" if i == doc else c for i, c in zip(table["code_id"].to_pylist(),
                                                                     table["code"].to_pylist())]
        return table.set_column(table.schema.get_field_index("code"), "code", pa_array(codes))

    reimport(root, tmp_path, edited)
    with Store(RELEASE, root) as store:
        assert current_judgments(store).empty
        assert judgment_table(store)["status"].tolist() == ["stale"]
        assert judgment_summary(store).stale == 1
        name = judged_qrels_view(store)
        assert name == "qrels_judged_none"
        assert store.sql(f"SELECT relevance FROM {name} WHERE query_id = ? AND doc_id = ?",
                         [T2C, doc]).fetchall() == [(2,)]  # the v2 grade again
    assert judgments_fingerprint(RELEASE, root) == "none"
    assert len(list_judgments(RELEASE, root)) == 1  # kept, only not applied
    judge(RELEASE, T2C, doc, 1, "ada", root=root)  # a judgment of the new text applies
    with Store(RELEASE, root) as store:
        assert current_judgments(store)["relevance"].tolist() == [1]


def pa_array(values):
    import pyarrow as pa

    return pa.array(values, pa.string())


def test_the_fingerprint_changes_with_every_judgment_that_applies(root):
    positive, trap = positive_and_trap(root, T2C)
    seen = [judgments_fingerprint(RELEASE, root)]
    judge(RELEASE, T2C, positive, 1, "ada", root=root)
    seen.append(judgments_fingerprint(RELEASE, root))
    judge(RELEASE, T2C, positive, 1, "bob", root=root)  # the same grade by another annotator: a new judgment
    seen.append(judgments_fingerprint(RELEASE, root))
    judge(RELEASE, T2C, trap, 0, "bob", root=root)
    seen.append(judgments_fingerprint(RELEASE, root))
    assert seen[0] == "none" and len(set(seen)) == 4 and all(len(f) == 16 for f in seen[1:])
    assert judgments_fingerprint("demo_v2602", root) == "none"


# ------------------------------------------------------------------ re-imports and concurrent writers


def test_reimporting_the_release_keeps_every_judgment(root, tmp_path):
    doc = positive_and_trap(root, T2C)[1]
    made = judge(RELEASE, T2C, doc, 2, "ada", root=root)
    assert not judgments_file(root).resolve().is_relative_to(datasets_dir(root).resolve())
    before = release_dir(RELEASE, root).resolve()
    reimport(root, tmp_path)
    subprocess.run([sys.executable, "-m", "coreb_core", "import-data", str(before), "--release", RELEASE],
                   env={**os.environ, "COREB_CACHE": str(root)}, check=True, capture_output=True,
                   cwd=REPO, timeout=120)
    assert release_dir(RELEASE, root).resolve() != before
    assert list_judgments(RELEASE, root) == [made]
    with Store(RELEASE, root) as store:
        assert current_judgments(store)["relevance"].tolist() == [2]


def test_a_judgment_racing_a_reimport_ends_stored_and_applied(root, tmp_path):
    docs = sorted(qrels_of(root, T2C))[:4]
    errors: list[BaseException] = []

    def reimports() -> None:
        try:
            for _ in range(3):
                reimport(root, tmp_path)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    thread = threading.Thread(target=reimports)
    thread.start()
    made = []
    while thread.is_alive() or len(made) < 4:
        made.append(judge(RELEASE, T2C, docs[len(made) % 4], len(made) % 3, "ada", root=root))
    thread.join()
    assert not errors, errors
    assert [j.id for j in list_judgments(RELEASE, root)] == list(range(1, len(made) + 1))
    latest = {j.doc_id: j.grade for j in made}
    with Store(RELEASE, root) as store:
        applied = current_judgments(store)
        assert judgment_summary(store).stale == 0
    assert dict(zip(applied["doc_id"], applied["relevance"])) == latest


JUDGE_MANY = """
import sys
from pathlib import Path
from coreb_core.data.judgments import judge
root, name, docs = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
for i in range(12):
    judge("demo_v2603", "{query}", docs[i % len(docs)], i % 3, name, root=root)
"""


def test_two_processes_judging_at_once_both_keep_theirs(root):
    docs = sorted(qrels_of(root, T2C))[:3]
    script = JUDGE_MANY.replace("{query}", T2C)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(root), name, *docs], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in ("ada", "bob")]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    stored = list_judgments(RELEASE, root)
    assert sorted(j.id for j in stored) == list(range(1, 25))
    assert {name: sum(j.annotator == name for j in stored) for name in ("ada", "bob")} == {"ada": 12, "bob": 12}


def test_threads_of_one_process_judging_at_once_keep_theirs(root):
    docs = sorted(qrels_of(root, T2C))[:3]
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            for i in range(5):
                judge(RELEASE, T2C, docs[i % 3], 1, name, root=root)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sorted(j.id for j in list_judgments(RELEASE, root)) == list(range(1, 31))


def test_a_file_held_too_long_is_one_line(root, monkeypatch):
    judge(RELEASE, T2C, positive_and_trap(root, T2C)[0], 2, "ada", root=root)  # the file exists
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(30)", str(judgments_file(root))],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(jd, "LOCK_WAIT_S", 0.5)
        with pytest.raises(CorebError) as refused:
            judge(RELEASE, T2C, positive_and_trap(root, T2C)[1], 2, "ada", root=root)
    finally:
        holder.kill()
        holder.wait()
    assert str(refused.value) == (f"the judgments file {judgments_file(root)} is held by another process (the app or "
                                  "a command) for over 0.5 s; try again")
    assert len(list_judgments(RELEASE, root)) == 1


# ------------------------------------------------------------------ exports


def test_export_trec_and_coreb_hold_every_qrel_with_the_judgments(root, tmp_path):
    positive, _ = positive_and_trap(root, T2C)
    extra = unjudged_code(root, T2C)
    judge(RELEASE, T2C, positive, 0, "ada", root=root)
    judge(RELEASE, T2C, extra, 2, "ada", root=root)
    judge(RELEASE, C2T, "text_v202603_00002", 1, "ada", root=root)
    with Store(RELEASE, root) as store:
        qrels = store.sql("SELECT task, query_id, doc_id, relevance FROM qrels").df()
    trec = export_judged_qrels(RELEASE, "trec", tmp_path / "out" / "judged.qrels", root)
    lines = trec.read_text().splitlines()
    added = 1 + ("text_v202603_00002" not in qrels_of(root, C2T))
    assert len(lines) == len(qrels) + added
    assert f"{T2C} 0 {positive} 0" in lines and f"{T2C} 0 {extra} 2" in lines
    assert f"{C2T} 0 text_v202603_00002 1" in lines
    assert all(len(line.split(" ")) == 4 and line.split(" ")[1] == "0" for line in lines)

    folder = export_judged_qrels(RELEASE, "coreb", tmp_path / "coreb", root)
    files = {p.name: [json.loads(line) for line in p.read_text().splitlines()] for p in folder.iterdir()}
    assert sorted(files) == ["code2code_qrels.jsonl", "code2text_qrels.jsonl", "text2code_qrels.jsonl"]
    assert len(files["code2code_qrels.jsonl"]) == int((qrels["task"] == "c2c").sum())
    t2c = {(r["query_id"], r["doc_id"]): r["relevance"] for r in files["text2code_qrels.jsonl"]}
    assert len(t2c) == int((qrels["task"] == "t2c").sum()) + 1
    assert t2c[(T2C, positive)] == 0 and t2c[(T2C, extra)] == 2
    assert {tuple(r) for r in files["code2text_qrels.jsonl"]} == {("query_id", "doc_id", "relevance")}


# ------------------------------------------------------------------ Cohen's kappa


def test_kappa_on_a_hand_made_case(root):
    """ada 2 2 1 0 and bob 2 1 1 0 on four pairs: p_o = 3/4, p_e = (1·1 + 1·2 + 2·1)/16 = 5/16, kappa = (3/4 - 5/16) /
    (1 - 5/16) = 7/11; cy agrees with ada on one pair, both grade 2: kappa undefined."""
    docs = sorted(qrels_of(root, T2C))[:4]
    judge(RELEASE, T2C, docs[0], 0, "ada", root=root)  # replaced by ada's later judgment of the pair
    for doc, a, b in zip(docs, [2, 2, 1, 0], [2, 1, 1, 0]):
        judge(RELEASE, T2C, doc, a, "ada", root=root)
        judge(RELEASE, T2C, doc, b, "bob", root=root)
    judge(RELEASE, T2C, docs[0], 2, "cy", root=root)
    found = {(a.annotator_a, a.annotator_b): a for a in agreement(RELEASE, root)}
    assert sorted(found) == [("ada", "bob"), ("ada", "cy"), ("bob", "cy")]
    ada_bob = found[("ada", "bob")]
    assert (ada_bob.pairs, ada_bob.observed) == (4, 0.75)
    assert ada_bob.kappa == pytest.approx(7 / 11)
    assert jd._kappa([2, 2, 1, 0], [2, 1, 1, 0]) == pytest.approx(7 / 11)
    assert found[("ada", "cy")] == jd.Agreement("ada", "cy", 1, 1.0, None)
    assert found[("ada", "cy")].line() == ("ada and cy: 1 shared pair, 100% the same grade, Cohen kappa undefined "
                                           "(one grade throughout)")
    assert agreement("demo_v2602", root) == []


def test_kappa_matches_scikit_learn_and_the_formula(root):
    sklearn = pytest.importorskip("sklearn.metrics")
    a, b = [0, 1, 2, 2, 1, 0, 2, 1], [0, 2, 2, 1, 1, 0, 2, 0]
    expected = sklearn.cohen_kappa_score(a, b, labels=[0, 1, 2])
    assert jd.cohen_kappa(a, b) == pytest.approx(expected)
    assert jd._kappa(a, b) == pytest.approx(expected)


# ------------------------------------------------------------------ the verbs, in process


def test_judge_and_judgments_verbs(root, tmp_path):
    positive, trap = positive_and_trap(root, T2C)
    env = {"COREB_CACHE": str(root)}
    done = run_cli("judge", "--release", RELEASE, "--query", T2C, "--doc", positive, "--grade", "1", "--annotator",
                   "ada", "--note", "fails\n one test", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [done.stdout.strip()]
    assert done.stdout.startswith(f"judged t2c {T2C} · {positive}: 1 (trap or partial) by ada on {RELEASE} (judgment 1, ")
    made = json.loads(run_cli("judge", "--release", RELEASE, "--query", T2C, "--doc", positive, "--grade", "2",
                              "--annotator", "bob", "--json", env=env).stdout)
    assert (made["id"], made["grade"], made["annotator"], made["note"]) == (2, 2, "bob", None)
    run_cli("judge", "--release", RELEASE, "--query", T2C, "--doc", trap, "--grade", "0", "--annotator", "bob", env=env)

    listed = run_cli("judgments", "--release", RELEASE, env=env)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 5 and "\x1b" not in listed.stdout
    assert lines[0].endswith(f"ada: t2c {T2C} · {positive} = 1 [superseded] · note: fails\\x0a one test")
    assert lines[1].endswith(f"bob: t2c {T2C} · {positive} = 2 [applied]")
    assert lines[3] == (f"3 judgments of 2 pairs on {RELEASE}: 2 applied, 1 superseded, 0 stale (their texts changed "
                        "since)")
    assert lines[4] == "ada and bob: 1 shared pair, 0% the same grade, Cohen kappa 0.00"
    data = json.loads(run_cli("judgments", "--release", RELEASE, "--json", env=env).stdout)
    assert [j["status"] for j in data["judgments"]] == ["superseded", "applied", "applied"]
    assert data["counts"]["applied"] == 2 and data["agreement"][0]["pairs"] == 1

    out = tmp_path / "judged.qrels"
    exported = run_cli("judgments", "--release", RELEASE, "--export", "trec", "--out", str(out), env=env)
    assert exported.returncode == 0, exported.stderr
    assert f"{T2C} 0 {trap} 0" in out.read_text().splitlines()
