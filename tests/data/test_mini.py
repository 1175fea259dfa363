"""CoREB-mini: the bundled benchmark is complete, follows the official qrel rules, and is honest
about which solutions pass."""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pyarrow.parquet as pq
import pytest

from coreb_core.data.mini.build import CLAUDE_ROLE, GEMINI_ROLE, PROBLEMS_DIR, RELEASES, build_release, load_problems
from coreb_core.data.mini.judge import Verdict, judge_solution
from coreb_core.data.schema import ALL_SUBTASKS, CONFIGS, LANGUAGES, subtask_language
from coreb_core.data.store import Store

# What the judge said of each solution the build executed: source path -> (the tests it ran, its verdict). Filled by
# ``built``; the Python tests are executed once in this module (by the build), not a second time by the tests below.
EXECUTED: dict[str, tuple[list, Verdict]] = {}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Both releases as `python -m coreb_core demo` builds them: every Python solution's tests executed, each verdict
    the judge gave kept in ``EXECUTED``. (The session's ``mini_cache`` is the app's first launch, which takes the
    recorded Python verdicts instead.)"""
    from coreb_core.data.mini import build as build_module

    def recording(path, tests):
        verdict = judge_solution(path, tests)
        EXECUTED[str(path)] = (tests, verdict)
        return verdict

    root = tmp_path_factory.mktemp("mini-executed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_module, "judge_solution", recording)
        build_module.build_demo(root=root)
    return root


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
        assert {r[0] for r in s.sql("SELECT DISTINCT model FROM code_corpus").fetchall()} == {CLAUDE_ROLE, GEMINI_ROLE}
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
        # T2C retro positives pass, search positives are every solution (0.1.0 code); language-constrained
        # positives are in that language
        bad = s.sql("""SELECT count(*) FROM judgments j JOIN queries q USING (task, query_id)
                       WHERE j.task = 't2c' AND j.relevance = 2
                         AND ((NOT j.passed AND q.subtask NOT LIKE 't2c_search_%')
                              OR (q.target_language IS NOT NULL AND j.language <> q.target_language))
                    """).fetchone()[0]
        assert bad == 0
        failing_search_positives = s.sql("""SELECT count(*) FROM judgments j JOIN queries q USING (task, query_id)
                                             WHERE q.subtask LIKE 't2c_search_%' AND j.relevance = 2
                                               AND NOT j.passed""").fetchone()[0]
        assert failing_search_positives > 0
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



# ---------------------------------------------------------------- every qrel re-derived by the stated rules
# The official generator (coreb 0.1.0, runners/query_corpus_dataset_maker.py), written out again here
# without build.py's code. "passing" = meta.passed; "first" = lowest code id (corpus order).
# Roles: the generator names "claude-sonnet-4-5" and "gemini-3-flash"; CoREB-mini's verbose style plays
# claude, its concise style gemini (README).
CLAUDE, GEMINI = "mini-verbose", "mini-concise"
MAX_TRAPS = 3


class Expected(NamedTuple):
    positives: frozenset[str]
    trap_pool: frozenset[str]  # every trap must come from here ...
    n_traps: int  # ... and there must be exactly this many (the pool, capped at 3)
    v1: frozenset[str]


def _rows(folder: Path, config: str) -> list[dict]:
    rows = pq.read_table(folder / f"{config}.parquet").to_pylist()
    for r in rows:
        if isinstance(r.get("meta"), str):
            r["meta"] = json.loads(r["meta"])
    return rows


def _pool(tiers: list[list[str]], exclude: set[str]) -> list[str]:
    """Trap rule: take tier 1; while fewer than 3 candidates, add the next tier; 3 are drawn from it."""
    pool: list[str] = []
    for tier in tiers:
        if len(pool) >= MAX_TRAPS:
            break
        pool += [d for d in tier if d not in exclude and d not in pool]
    return pool


def ids(rows: list[dict]) -> list[str]:
    return [r["code_id"] for r in rows]


def _expect(positives, tiers, exclude, v1) -> Expected:
    pool = _pool(tiers, set(exclude) | set(positives))
    return Expected(frozenset(positives), frozenset(pool), min(MAX_TRAPS, len(pool)), frozenset(v1))


def _derive(release: str, folder: Path) -> dict[tuple, Expected]:
    """Every query CoREB-mini must hold, keyed by what identifies it, with its qrels by rule."""
    code = sorted(_rows(folder, "code_corpus"), key=lambda r: r["code_id"])
    texts = _rows(folder, "text_corpus")
    descriptions = {t["meta"]["source_problem_id"]: t for t in texts if not t["meta"].get("is_noise_sample")}
    noise = {pid: [t["text_id"] for t in texts if t["meta"].get("original_problem_id") == pid] for pid in descriptions}
    # the search queries live only in problem.json; the statement text ties a folder to its problem id
    pid_of_statement = {t["text"]: pid for pid, t in descriptions.items()}
    searches = {}
    for f in sorted((PROBLEMS_DIR / release).glob("*/problem.json")):
        spec = json.loads(f.read_text(encoding="utf-8"))
        searches[pid_of_statement[spec["statement"]]] = spec["search_queries"]
    assert set(searches) == set(descriptions)

    out: dict[tuple, Expected] = {}
    for pid, desc in descriptions.items():
        docs = [r for r in code if r["meta"]["source_problem_id"] == pid]
        good = [r for r in docs if r["meta"]["passed"]]
        bad = [r for r in docs if not r["meta"]["passed"]]
        languages = sorted({r["language"] for r in good})  # languages with a passing solution

        # T2C retro: positives = passing solutions (in the language); traps = failing in the language,
        # then any failing, then passing non-positives. v1 = every solution in the language.
        # T2C search: positives = EVERY solution (failing too) in the language, same trap tiers.
        # Retro queries need a passing solution, search ones any solution; a language query needs a
        # passing solution in that language.
        queries = [("canonical_retro", desc["abbreviated_text"]), ("full_retro", desc["text"])] if good else []
        queries += [("search", q) for q in searches[pid]] if docs else []
        for kind, text in queries:
            for lang in [None] + languages:
                fits = [r for r in docs if lang is None or r["language"] == lang]
                positives = fits if kind == "search" else [r for r in fits if r["meta"]["passed"]]
                tier1 = [r for r in bad if lang is None or r["language"] == lang]
                key = ("t2c", f"t2c_{kind}_{lang or 'any'}", pid, text)
                assert key not in out
                out[key] = _expect(ids(positives), [ids(tier1), ids(bad), ids(good)], [], ids(fits))

        # C2C: passing solutions only; the anchor is excluded from the qrels.
        gem_py = [r for r in good if r["model"] == GEMINI and r["language"] == "python"]
        cla = [r for r in good if r["model"] == CLAUDE]
        cla_py = [r for r in cla if r["language"] == "python"]
        cla_other = [r for r in cla if r["language"] != "python"]
        c2c = []
        if gem_py and cla_py:  # mono_lang: first gemini Python -> every claude Python
            a = gem_py[0]
            c2c.append(("c2c_mono_lang", a, cla_py,
                        [r for r in bad if r["model"] != a["model"] and r["language"] == "python"]))
        for a in cla:  # cross_lang: each claude solution -> claude, other language, greater code id
            targets = [r for r in cla if r["language"] != a["language"] and r["code_id"] > a["code_id"]]
            if targets:
                c2c.append(("c2c_cross_lang", a, targets, [r for r in bad if r["language"] != a["language"]]))
        for a in gem_py if cla_other else []:  # cross_model: each gemini Python -> every claude non-Python
            c2c.append(("c2c_cross_model", a, cla_other,
                        [r for r in bad if r["model"] != a["model"] and r["language"] != "python"]))
        for subtask, a, positives, tier1 in c2c:
            out[("c2c", subtask, pid, a["code_id"])] = _expect(
                ids(positives), [ids(tier1), ids(bad), ids(good)], [a["code_id"]], ids(positives))

        # C2T: positive = the description, traps = 3 of the problem's noise texts, v1 = the description.
        if good:
            anchor_any = ([r for r in good if r["language"] == "python" and r["model"] == CLAUDE]
                          or [r for r in good if r["language"] == "python"] or good)[0]
            anchors = [("any", anchor_any)]
            if len(languages) >= 2:
                anchors += [(lang, [r for r in good if r["language"] == lang][0]) for lang in languages]
            for kind in ("full_retro", "canonical_retro"):
                for scope, a in anchors:
                    out[("c2t", f"c2t_{kind}_{scope}", pid, a["code_id"])] = Expected(
                        frozenset({desc["text_id"]}), frozenset(noise[pid]), min(MAX_TRAPS, len(noise[pid])),
                        frozenset({desc["text_id"]}))
            # c2t_match, label 1: the description at rel=2; label 0: another problem's description at rel=1.
            others = frozenset(t["text_id"] for q, t in descriptions.items() if q != pid)
            out[("c2t", "c2t_match", pid, anchor_any["code_id"], 1)] = Expected(
                frozenset({desc["text_id"]}), frozenset(), 0, frozenset({desc["text_id"]}))
            out[("c2t", "c2t_match", pid, anchor_any["code_id"], 0)] = Expected(frozenset(), others, 1, frozenset())
    return out


@pytest.mark.parametrize("release", RELEASES)
def test_every_qrel_follows_the_stated_rules(built, release):
    folder = built / "coreb" / release
    expected = _derive(release, folder)
    assert {k[1] for k in expected} == set(ALL_SUBTASKS)  # all 34 subtasks have queries by rule
    assert (CLAUDE_ROLE, GEMINI_ROLE) == (CLAUDE, GEMINI)  # one role mapping, the README's
    code = {r["code_id"]: r for r in _rows(folder, "code_corpus")}
    seen = {}
    for task, name in (("t2c", "text2code"), ("c2c", "code2code"), ("c2t", "code2text")):
        qrels: dict[str, dict[str, int]] = {}
        for r in _rows(folder, f"{name}_qrels"):
            assert r["doc_id"] not in qrels.setdefault(r["query_id"], {})
            qrels[r["query_id"]][r["doc_id"]] = r["relevance"]
        v1: dict[str, set[str]] = {}
        for r in _rows(folder, f"{name}_qrels_v1"):
            assert r["relevance"] == 1
            v1.setdefault(r["query_id"], set()).add(r["doc_id"])
        for q in _rows(folder, f"{name}_queries"):
            pid = q["meta"]["source_problem_id"]
            if task == "t2c":
                key = (task, q["subtask"], pid, q["query"])
                assert q["language_constraint"] == (subtask_language(q["subtask"]) or "none")
            else:
                anchor = code[q["meta"]["anchor_code_id"]]
                assert (q["query"], q["anchor_language"], q["anchor_model"]) == (
                    anchor["code"], anchor["language"], anchor["model"])
                assert anchor["meta"]["source_problem_id"] == pid
                key = (task, q["subtask"], pid, anchor["code_id"])
                if q["subtask"] == "c2t_match":
                    key += (q["label"],)
            assert key in expected, f"{q['query_id']}: no rule makes this query"
            assert key not in seen, f"{q['query_id']} duplicates {seen.get(key)}"
            seen[key] = q["query_id"]
            want, got = expected[key], qrels.get(q["query_id"], {})
            positives = {d for d, rel in got.items() if rel == 2}
            traps = {d for d, rel in got.items() if rel == 1}
            assert set(got.values()) <= {1, 2}
            assert positives == want.positives, q["query_id"]
            assert traps <= want.trap_pool and len(traps) == want.n_traps, q["query_id"]
            assert v1.get(q["query_id"], set()) == want.v1, q["query_id"]
        assert set(qrels) <= set(seen.values()) and set(v1) <= set(seen.values())
    missing = set(expected) - set(seen)
    assert not missing, f"{len(missing)} queries the rules make are missing, e.g. {sorted(missing)[:3]}"


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


def test_build_is_deterministic(built, tmp_path, monkeypatch):
    """The same problems and verdicts give the same bytes. The judge is not run again: it answers what it said to
    ``built`` (that it says the same each time: test_every_python_solution_earns_its_passed_flag, against the recorded
    verdicts.json)."""
    from coreb_core.data.mini import build as build_module

    monkeypatch.setattr(build_module, "judge_solution", lambda path, tests: EXECUTED[str(path)][1])
    build_release("demo_v2603", tmp_path)
    for config in list(CONFIGS) + ["text2code_qrels_v1", "code2code_qrels_v1", "code2text_qrels_v1"]:
        a = (built / "coreb" / "demo_v2603" / f"{config}.parquet").read_bytes()
        b = (tmp_path / "coreb" / "demo_v2603" / f"{config}.parquet").read_bytes()
        assert a == b, config


@pytest.mark.parametrize("release", RELEASES)
def test_every_python_solution_earns_its_passed_flag(built, release):
    """Executed here and now (by ``built``'s build, whose judge verdicts ``EXECUTED`` kept); the recorded verdict the
    app's first launch uses (build_demo with execute_python=False) must be the same."""
    recorded = json.loads((PROBLEMS_DIR.parent / "verdicts.json").read_text())
    with Store(release, built) as s:
        meta = {json.loads(m)["source_file"]: json.loads(m)
                for (m,) in s.sql("SELECT meta FROM code_corpus WHERE language = 'python'").fetchall()}
    checked = 0
    for problem in load_problems(release):
        for sol in problem.solutions:
            if sol.language != "python":
                continue
            tests, verdict = EXECUTED[str(sol.path)]
            assert tests == problem.spec["tests"], sol.key
            assert verdict.passed == (sol.variant == "correct"), sol.key
            m = meta[sol.key]
            assert (m["passed"], m["test_passed"], m["test_total"]) == (verdict.passed, verdict.test_passed,
                                                                        verdict.test_total), sol.key
            assert m["verified_by"] == "executed"
            assert recorded[sol.key] == [verdict.passed, verdict.test_passed, verdict.test_total], sol.key
            if not verdict.passed:
                assert 0 <= verdict.test_passed < verdict.test_total
            checked += 1
    assert checked >= 24 * 3


def test_scaled_variant_is_synthetic_and_larger(tmp_path):
    # the recorded Python verdicts (execute_python=False): what is checked here is the copies, not who passes
    name, _ = build_release("demo_v2603", tmp_path, scale=2, execute_python=False)
    assert name == "demo_v2603_x2"
    with Store(name, tmp_path) as s:
        n_docs = s.sql("SELECT count(*) FROM code_corpus").fetchone()[0]
        synthetic = s.sql("SELECT bool_and(json_extract(meta, '$.synthetic')::BOOLEAN) FROM code_corpus").fetchone()[0]
        distinct = s.sql("SELECT count(DISTINCT code) FROM code_corpus").fetchone()[0]
    per_copy = sum(len(p.solutions) for p in load_problems("demo_v2603"))
    assert n_docs == 2 * per_copy and synthetic
    assert distinct > per_copy  # renamed identifiers make the copies differ
