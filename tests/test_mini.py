"""CoREB-mini: the bundled benchmark is complete, follows the official qrel rules, and is honest
about which solutions pass."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from coreb_core.mini.build import MODEL_A, MODEL_B, RELEASES, build_release, load_problems
from coreb_core.mini.judge import judge_solution
from coreb_core.schema import ALL_SUBTASKS, CONFIGS, LANGUAGES
from coreb_core.store import Store


@pytest.fixture
def built(mini_cache) -> Path:
    return mini_cache


@pytest.mark.parametrize("release", RELEASES)
def test_release_is_complete(built, release):
    with Store(release, built) as s:
        counts = s.row_counts()
        assert set(counts) == set(CONFIGS) and all(n > 0 for n in counts.values())
        per_subtask = dict(s.sql("SELECT subtask, count(*) FROM queries GROUP BY 1").fetchall())
        assert set(per_subtask) == set(ALL_SUBTASKS)
        labels = s.sql("SELECT DISTINCT label FROM queries WHERE subtask = 'c2t_match' ORDER BY 1").fetchall()
        assert labels == [(0,), (1,)]
        assert {r[0] for r in s.sql("SELECT DISTINCT language FROM code_corpus").fetchall()} == set(LANGUAGES)
        assert {r[0] for r in s.sql("SELECT DISTINCT model FROM code_corpus").fetchall()} == {MODEL_A, MODEL_B}
        assert {r[0] for r in s.sql("SELECT DISTINCT relevance FROM qrels").fetchall()} == {1, 2}
        # every qrel resolves to a document of its task's corpus
        assert s.sql("SELECT count(*) FROM judgments WHERE doc_problem_id IS NULL").fetchone()[0] == 0
        # at most three traps per query, traps and positives from the query's own problem
        assert s.sql("SELECT max(n) FROM (SELECT count(*) n FROM qrels WHERE relevance = 1 GROUP BY query_id)"
                     ).fetchone()[0] <= 3
        foreign = s.sql("""SELECT count(*) FROM judgments j JOIN queries q USING (task, query_id)
                           WHERE j.query_problem_id <> j.doc_problem_id AND q.subtask <> 'c2t_match'""").fetchone()[0]
        assert foreign == 0


@pytest.mark.parametrize("release", RELEASES)
def test_qrels_follow_the_official_rules(built, release):
    with Store(release, built) as s:
        # T2C positives pass; language-constrained positives are in that language
        bad = s.sql("""SELECT count(*) FROM judgments j JOIN queries q USING (task, query_id)
                       WHERE j.task = 't2c' AND j.relevance = 2
                         AND (NOT j.passed OR (q.target_language IS NOT NULL AND j.language <> q.target_language))
                    """).fetchone()[0]
        assert bad == 0
        # the C2C anchor is in the corpus and is never judged for its own query
        anchored = s.sql("""SELECT count(*) FROM queries q JOIN code_corpus c ON c.code_id = q.anchor_code_id
                            WHERE q.task = 'c2c' AND c.code = q.query""").fetchone()[0]
        assert anchored == s.sql("SELECT count(*) FROM queries WHERE task = 'c2c'").fetchone()[0]
        assert s.sql("""SELECT count(*) FROM qrels r JOIN queries q USING (task, query_id)
                        WHERE r.doc_id = q.anchor_code_id AND q.task = 'c2c'""").fetchone()[0] == 0
        # C2T traps are noise descriptions of the same problem
        assert s.sql("""SELECT bool_and(d.is_noise) FROM judgments j JOIN documents d USING (doc_id)
                        JOIN queries q USING (task, query_id)
                        WHERE j.task = 'c2t' AND j.relevance = 1 AND q.subtask <> 'c2t_match'""").fetchone()[0]


def test_v1_qrels_count_every_solution_of_the_problem(built):
    folder = built / "coreb" / "demo_v2603"
    v1 = pq.read_table(folder / "text2code_qrels_v1.parquet").to_pylist()
    assert {r["relevance"] for r in v1} == {1}
    with Store("demo_v2603", built) as s:
        expected = s.sql("""SELECT count(*) FROM queries q JOIN documents d
                              ON d.corpus = 'code' AND d.problem_id = q.problem_id
                             AND (q.target_language IS NULL OR d.language = q.target_language)
                            WHERE q.task = 't2c'""").fetchone()[0]
        failed_included = s.sql("SELECT count(*) FROM documents WHERE corpus = 'code' AND NOT passed").fetchone()[0]
    assert len(v1) == expected and failed_included > 0


def test_releases_are_problem_disjoint(built):
    problems = []
    for release in RELEASES:
        with Store(release, built) as s:
            problems.append({r[0] for r in s.sql("SELECT DISTINCT problem_id FROM documents").fetchall()})
    assert len(problems[0]) >= 24 and len(problems[1]) >= 24
    assert not problems[0] & problems[1]


def test_build_is_deterministic(built, tmp_path):
    build_release("demo_v2603", tmp_path)
    for config in list(CONFIGS) + ["text2code_qrels_v1", "code2code_qrels_v1", "code2text_qrels_v1"]:
        a = (built / "coreb" / "demo_v2603" / f"{config}.parquet").read_bytes()
        b = (tmp_path / "coreb" / "demo_v2603" / f"{config}.parquet").read_bytes()
        assert a == b, config


@pytest.mark.parametrize("release", RELEASES)
def test_every_python_solution_earns_its_passed_flag(built, release):
    with Store(release, built) as s:
        meta = {json.loads(m)["source_file"]: json.loads(m)
                for (m,) in s.sql("SELECT meta FROM code_corpus WHERE language = 'python'").fetchall()}
    checked = 0
    for problem in load_problems(release):
        for sol in problem.solutions:
            if sol.language != "python":
                continue
            verdict = judge_solution(sol.path, problem.spec["tests"])
            assert verdict.passed == (sol.variant == "correct"), sol.key
            m = meta[sol.key]
            assert (m["passed"], m["test_passed"], m["test_total"]) == (verdict.passed, verdict.test_passed,
                                                                        verdict.test_total), sol.key
            assert m["verified_by"] == "executed"
            if not verdict.passed:
                assert 0 <= verdict.test_passed < verdict.test_total
            checked += 1
    assert checked >= 24 * 3


def test_scaled_variant_is_synthetic_and_larger(tmp_path):
    name, _ = build_release("demo_v2603", tmp_path, scale=2)
    assert name == "demo_v2603_x2"
    with Store(name, tmp_path) as s:
        n_docs = s.sql("SELECT count(*) FROM code_corpus").fetchone()[0]
        synthetic = s.sql("SELECT bool_and(json_extract(meta, '$.synthetic')::BOOLEAN) FROM code_corpus").fetchone()[0]
        distinct = s.sql("SELECT count(DISTINCT code) FROM code_corpus").fetchone()[0]
    per_copy = sum(len(p.solutions) for p in load_problems("demo_v2603"))
    assert n_docs == 2 * per_copy and synthetic
    assert distinct > per_copy  # renamed identifiers make the copies differ
