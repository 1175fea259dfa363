"""Build CoREB-mini: the bundled miniature CoREB, by the official generator's rules.

Input is the project's own problem set (``problems/<release>/pNN_<slug>/``, see FORMAT.md). Output is
a normal cached release (``data_cache/coreb/<release>/<config>.parquet``) plus binary v1 qrels
(``<task>_qrels_v1.parquet``) beside the graded v2 ones. Everything is derived with a RNG seeded by
the release name, so the same inputs give the same bytes.

Rules of ``coreb_runner/runners/query_corpus_dataset_maker.py`` (coreb 0.1.0, the official generator).
"Passing" = ``meta.passed``; the claude/gemini roles are ``CLAUDE_ROLE`` / ``GEMINI_ROLE`` below.
- T2C ``canonical_retro`` / ``full_retro``: per problem with a passing solution, one ``_any`` query
  (positives: every passing solution) and one ``_<lang>`` query per language that has a passing
  solution (positives: the passing solutions in that language).
- T2C ``search``: each of the problem's search queries gives one ``_any`` query and one ``_<lang>``
  query per language with a passing solution; positives are *every* solution in the constraint,
  failing ones too (0.1.0 ``_create_text2code_entries``; the paper says verified-correct).
- T2C traps (rel=1), pooled tier by tier while the pool holds fewer than 3, then 3 drawn from the pool:
  failing solutions in the constraint; any failing solution; passing solutions that are not positives.
- C2C (passing solutions only): mono_lang = the first gemini-role Python solution -> every claude-role
  Python one; cross_lang = each claude-role solution -> the claude-role solutions in other languages
  with a greater code id (no query when there is none); cross_model = each gemini-role Python solution
  -> every claude-role non-Python one. The anchor is a corpus document (``meta.anchor_code_id``).
  Traps as for T2C, first tier: failing solutions in another language than the anchor (cross_lang),
  of the other model in Python (mono_lang), of the other model in another language (cross_model).
- C2T ``_any``: per problem, anchor = the first claude-role Python solution, else the first Python one,
  else the first passing one; ``_<lang>``: for problems passing in 2+ languages, one query per such
  language, anchor its first passing solution there. Positive: the description; traps: three of its
  four noise descriptions.
- c2t_match: one (code, text) pair per label per problem, anchor as for C2T ``_any``; label 0 pairs
  with a random other problem's description. The official generator writes one pair per text variant
  (full and canonical, the same text_id, so the same retrieval query twice); CoREB-mini keeps the full
  one. Official relevance is 1 for label 1 and 0 for label 0; the released v2 qrels keep grades in
  {1, 2}, so here label 1 -> rel 2 (the matching text) and label 0 -> rel 1 (a judged non-match: the
  query has no positive, which the official evaluator scores as 0 on every metric).
"First" means lowest code id, i.e. corpus order, as in the official generator.
"""
from __future__ import annotations

import json
import os
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, NamedTuple

import pyarrow as pa

from coreb_core.atomic import atomic_write_text
from coreb_core.data.ingest import import_release
from coreb_core.data.mini.judge import LANGUAGE_BY_SUFFIX, Verdict, judge_solution, toolchain_available
from coreb_core.data.schema import POSITIVE, TASK_NAMES, TRAP
from coreb_core.data.sources import RawTable

PROBLEMS_DIR = Path(__file__).resolve().parent / "problems"
VERDICTS_FILE = Path(__file__).resolve().parent / "verdicts.json"
RELEASES = ("demo_v2602", "demo_v2603")
# The two "model" values: two code styles standing in for the official generator's two LLMs. The
# generator names them literally: "claude-sonnet-4-5" (cross_lang anchors and positives, mono_lang and
# cross_model positives, the preferred C2T anchor) and "gemini-3-flash" (mono_lang and cross_model anchors).
CLAUDE_ROLE, GEMINI_ROLE = "mini-verbose", "mini-concise"
STYLE_TO_MODEL = {"verbose": CLAUDE_ROLE, "concise": GEMINI_ROLE}
MAX_TRAPS = 3

Progress = Callable[[str, float], None]


class Solution(NamedTuple):
    """One solution file of the problem set: its verdicts.json key, language, model role and variant.

    >>> solution = load_problems("demo_v2603")[0].solutions[0]
    >>> solution.key, solution.language, solution.model, solution.variant
    ('demo_v2603/p01_fuel_loop/concise.cpp', 'cpp', 'mini-concise', 'correct')
    """
    path: Path
    key: str  # "<release>/<folder>/<file>" (the verdicts.json key)
    language: str
    model: str
    variant: str  # "correct" or the bug kind of a failing variant


class Problem(NamedTuple):
    """One problem folder: its id, its ``problem.json`` and its solutions.

    >>> problem = load_problems("demo_v2603")[0]
    >>> problem.problem_id, problem.spec["topic"], [s.variant for s in problem.solutions if s.variant != "correct"]
    ('demo_fuel_loop', 'greedy', ['edgecase', 'wrongcmp', 'overflow'])
    """
    folder: Path
    problem_id: str
    spec: dict[str, Any]
    solutions: tuple[Solution, ...]


class Doc(NamedTuple):
    """One code document of the generated corpus, with the facts the generator's rules use.

    >>> Doc("code_v202603_00001", "demo_fuel_loop", "python", CLAUDE_ROLE, passed=True).model
    'mini-verbose'
    """
    code_id: str
    problem_id: str
    language: str
    model: str
    passed: bool


# ---------------------------------------------------------------- loading the problem set

def load_problems(release: str) -> list[Problem]:
    """The bundled problem set of one CoREB-mini release, in folder order.

    >>> problems = load_problems("demo_v2603")
    >>> len(problems), problems[0].folder.name, len(problems[0].solutions)
    (24, 'p01_fuel_loop', 13)
    """
    folder = PROBLEMS_DIR / release
    problems = []
    for pdir in sorted(p for p in folder.iterdir() if p.is_dir() and (p / "problem.json").exists()):
        spec = json.loads((pdir / "problem.json").read_text(encoding="utf-8"))
        sols = []
        for src in sorted((pdir / "solutions").iterdir()):
            if src.suffix not in LANGUAGE_BY_SUFFIX:
                continue
            parts = src.stem.split("_")
            style, variant = (parts[1], parts[2]) if parts[0] == "fail" else (parts[0], "correct")
            sols.append(Solution(src, f"{release}/{pdir.name}/{src.name}", LANGUAGE_BY_SUFFIX[src.suffix],
                                 STYLE_TO_MODEL[style], variant))
        problems.append(Problem(pdir, f"demo_{spec['slug']}", spec, tuple(sols)))
    return problems


def _load_recorded_verdicts() -> dict[str, list]:
    return json.loads(VERDICTS_FILE.read_text()) if VERDICTS_FILE.exists() else {}


def _judge_all(problems: list[Problem], run_toolchains: bool, progress: Progress | None = None,
               execute_python: bool = True) -> dict[str, Verdict]:
    """Python runs (unless ``execute_python`` is off); other languages run when asked and their
    toolchain exists; otherwise the verdict recorded when the problem set was written (verdicts.json)
    is used."""
    recorded = _load_recorded_verdicts()
    jobs, verdicts = [], {}
    for p in problems:
        for s in p.solutions:
            if (s.language == "python" and execute_python) or (run_toolchains and toolchain_available(s.language)):
                jobs.append((s, p.spec["tests"]))
            elif s.key in recorded:
                passed, ok, total = recorded[s.key]
                verdicts[s.key] = Verdict(passed, ok, total, "recorded")
            else:
                n = len(p.spec["tests"])
                correct = s.variant == "correct"
                verdicts[s.key] = Verdict(correct, n if correct else 0, n, "construction")
    done = 0
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        for s, verdict in zip((j[0] for j in jobs), pool.map(lambda j: judge_solution(j[0].path, j[1]), jobs)):
            verdicts[s.key] = verdict
            done += 1
            if progress:
                progress(f"judged {s.key}", done / max(1, len(jobs)))
    return verdicts


def record_verdicts() -> dict[str, list]:
    """Run every solution with every toolchain and store the verdicts (run when the set changes).

    It needs g++, javac, go and ruby on PATH (else a RuntimeError names the first solution it could
    not run), and rewrites ``verdicts.json``, so doctest skips it:

    >>> record_verdicts()   # doctest: +SKIP
    """
    out = {}
    for release in RELEASES:
        for key, v in sorted(_judge_all(load_problems(release), run_toolchains=True).items()):
            if v.verified_by != "executed":
                raise RuntimeError(f"{key}: toolchain missing, cannot record")
            out[key] = [v.passed, v.test_passed, v.test_total]
    atomic_write_text(VERDICTS_FILE, json.dumps(out, indent=0, sort_keys=True) + "\n", tmp=VERDICTS_FILE.with_suffix(".tmp"))
    return out


# ---------------------------------------------------------------- building the release

def _id_stamp(release: str) -> str:
    m = re.search(r"v(\d{4})", release)
    return f"v20{m.group(1)}" if m else "v202600"


class _Builder:
    def __init__(self, release: str, problems: list[Problem], verdicts: dict[str, Verdict]) -> None:
        self.release, self.problems, self.verdicts = release, problems, verdicts
        self.rng = random.Random(f"coreb-mini/{release}")
        self.stamp = _id_stamp(release)
        self.rows: dict[str, list[dict[str, Any]]] = {k: [] for k in (
            "code_corpus", "text_corpus", "text2code_queries", "code2code_queries", "code2text_queries",
            "text2code_qrels", "code2code_qrels", "code2text_qrels")}
        self.v1: dict[str, list[dict[str, Any]]] = {"text2code": [], "code2code": [], "code2text": []}
        self.counters = dict.fromkeys(TASK_NAMES, 0)
        self.docs: dict[str, list[Doc]] = {}
        self.code_text: dict[str, str] = {}
        self.text_id: dict[str, str] = {}
        self.noise_ids: dict[str, list[str]] = {}

    # corpora ---------------------------------------------------------
    def corpora(self) -> None:
        solutions = [(p, s) for p in self.problems for s in p.solutions]
        self.rng.shuffle(solutions)  # ids must not leak problem order (ties break by doc id)
        for n, (p, s) in enumerate(solutions, start=1):
            code_id = f"code_{self.stamp}_{n:05d}"
            v = self.verdicts[s.key]
            code = s.path.read_text(encoding="utf-8")
            self.code_text[code_id] = code
            self.docs.setdefault(p.problem_id, []).append(Doc(code_id, p.problem_id, s.language, s.model, v.passed))
            self.rows["code_corpus"].append({
                "code_id": code_id, "code": code, "language": s.language, "model": s.model,
                "code_length": len(code),
                "meta": {"source_problem_id": p.problem_id, "solution_key": f"{s.model}_{s.language}",
                         "passed": v.passed, "pass_rate": round(v.test_passed / v.test_total, 4),
                         "test_passed": v.test_passed, "test_total": v.test_total, "verified_by": v.verified_by,
                         "variant": s.variant, "source_file": s.key},
            })
        for n, p in enumerate(self.problems, start=1):
            tid = f"text_{self.stamp}_{n:05d}"
            self.text_id[p.problem_id] = tid
            self.rows["text_corpus"].append({
                "text_id": tid, "text_style": "full", "text": p.spec["statement"], "text_length": len(p.spec["statement"]),
                "abbreviated_text": p.spec["canonical"],
                "meta": {"source_problem_id": p.problem_id, "title": p.spec["title"], "topic": p.spec["topic"]},
            })
            self.noise_ids[p.problem_id] = []
            for i, noise in enumerate(p.spec["noise"], start=1):
                nid = f"{tid}_noise{i}"
                self.noise_ids[p.problem_id].append(nid)
                self.rows["text_corpus"].append({
                    "text_id": nid, "text_style": "noise", "text": noise, "text_length": len(noise),
                    "abbreviated_text": None,
                    "meta": {"source_problem_id": p.problem_id, "is_noise_sample": True,
                             "original_problem_id": p.problem_id},
                })

    # helpers ---------------------------------------------------------
    def _qid(self, task: str, subtask: str) -> str:
        self.counters[task] += 1
        return f"q_{subtask}_{self.counters[task]:04d}"

    def _qrels(self, config: str, qid: str, positives: list[str], traps: list[str]) -> None:
        self.rows[config] += [{"query_id": qid, "doc_id": d, "relevance": POSITIVE} for d in positives]
        self.rows[config] += [{"query_id": qid, "doc_id": d, "relevance": TRAP} for d in traps]

    def _v1(self, task: str, qid: str, relevant: list[str]) -> None:
        self.v1[task] += [{"query_id": qid, "doc_id": d, "relevance": 1} for d in relevant]

    def _traps(self, tiers: list[list[Doc]], exclude: set[str]) -> list[str]:
        """Up to three hard negatives, as ``_select_{t2c,c2c}_hard_negatives`` pick them: the tiers
        are pooled in order, a tier joining only while the pool holds fewer than three; then three
        are drawn uniformly from the whole pool (so a later tier's document can displace an earlier one's)."""
        pool: list[str] = []
        for tier in tiers:
            if len(pool) >= MAX_TRAPS:
                break
            pool += [d.code_id for d in tier if d.code_id not in exclude and d.code_id not in pool]
        if len(pool) > MAX_TRAPS:
            pool = self.rng.sample(pool, MAX_TRAPS)
        return sorted(pool)

    def _solutions(self, p: Problem) -> tuple[list[Doc], list[Doc], list[Doc]]:
        """All, passing and failing solutions of a problem, in corpus (code id) order."""
        docs = sorted(self.docs[p.problem_id], key=lambda d: d.code_id)
        return docs, [d for d in docs if d.passed], [d for d in docs if not d.passed]

    # text -> code ----------------------------------------------------
    def t2c(self) -> None:
        # Official order: every canonical query, then every full one, then the search queries.
        for kind, field in (("canonical_retro", "canonical"), ("full_retro", "statement")):
            for p in self.problems:
                docs, correct, _ = self._solutions(p)
                if not correct:
                    continue
                # Retro positives: the passing solutions (in the constraint's language).
                self._t2c_query(p, kind, p.spec[field], None, correct)
                for lang in _languages_with(correct):
                    self._t2c_query(p, kind, p.spec[field], lang, [d for d in correct if d.language == lang])
        for p in self.problems:
            docs, correct, _ = self._solutions(p)
            for text in p.spec["search_queries"]:
                # Search positives (0.1.0 ``_create_text2code_entries``): every solution of the problem,
                # failing ones too, in the constraint's language; a language needs a passing solution.
                self._t2c_query(p, "search", text, None, docs)
                for lang in _languages_with(correct):
                    self._t2c_query(p, "search", text, lang, [d for d in docs if d.language == lang])

    def _t2c_query(self, p: Problem, kind: str, text: str, lang: str | None, positives: list[Doc]) -> None:
        subtask = f"t2c_{kind}_{lang or 'any'}"
        docs, correct, failed = self._solutions(p)
        pos = sorted(d.code_id for d in positives)
        # Traps: failing solutions in the constraint, then any failing one, then passing non-positives.
        traps = self._traps([[d for d in failed if lang is None or d.language == lang], failed, correct], set(pos))
        qid = self._qid("t2c", subtask)
        models = sorted({d.model for d in positives})
        self.rows["text2code_queries"].append({
            "query_id": qid, "query": text, "split": "text2code", "subtask": subtask,
            "query_type": "language_specific" if lang else "language_agnostic",
            "sub_query_type": {"canonical_retro": "abbreviated", "full_retro": "full_description"}.get(kind, kind),
            "language_constraint": lang or "none",
            "meta": {"source_problem_id": p.problem_id, "num_relevant_docs": len(pos),
                     "models_in_relevant_docs": models, "is_multi_model": len(models) > 1},
        })
        self._qrels("text2code_qrels", qid, pos, traps)
        # v1: binary, every solution of the problem (failed ones too) within the language constraint.
        self._v1("text2code", qid, sorted(d.code_id for d in docs if lang is None or d.language == lang))

    # code -> code ----------------------------------------------------
    def c2c(self) -> None:
        # Only passing solutions are anchors or positives (the official code2code index is "correct" only).
        for p in self.problems:
            _, correct, failed = self._solutions(p)
            # mono_lang: the first gemini-role Python solution; positives every claude-role Python one.
            gemini_py = [d for d in correct if d.model == GEMINI_ROLE and d.language == "python"]
            claude_py = [d for d in correct if d.model == CLAUDE_ROLE and d.language == "python"]
            if gemini_py and claude_py:
                a = gemini_py[0]
                self._c2c_query(p, "c2c_mono_lang", a, claude_py,
                                [d for d in failed if d.model != a.model and d.language == a.language])
        for p in self.problems:
            _, correct, failed = self._solutions(p)
            # cross_lang: every claude-role solution; positives the claude-role solutions in other
            # languages with a greater code id (each unordered pair asked once); none -> no query.
            claude = [d for d in correct if d.model == CLAUDE_ROLE]
            for a in claude:
                targets = [d for d in claude if d.language != a.language and d.code_id > a.code_id]
                if targets:
                    self._c2c_query(p, "c2c_cross_lang", a, targets, [d for d in failed if d.language != a.language])
        for p in self.problems:
            _, correct, failed = self._solutions(p)
            # cross_model: every gemini-role Python solution; positives every claude-role non-Python one.
            gemini_py = [d for d in correct if d.model == GEMINI_ROLE and d.language == "python"]
            claude_other = [d for d in correct if d.model == CLAUDE_ROLE and d.language != "python"]
            for a in gemini_py if claude_other else []:
                self._c2c_query(p, "c2c_cross_model", a, claude_other,
                                [d for d in failed if d.model != a.model and d.language != a.language])

    def _c2c_query(self, p: Problem, subtask: str, anchor: Doc, positives: list[Doc], preferred: list[Doc]) -> None:
        _, correct, failed = self._solutions(p)
        pos = sorted(d.code_id for d in positives)
        # Traps: constraint-matching failing solutions, then any failing one, then passing non-positives.
        traps = self._traps([preferred, failed, correct], set(pos) | {anchor.code_id})
        qid = self._qid("c2c", subtask)
        self.rows["code2code_queries"].append({
            "query_id": qid, "query": self.code_text[anchor.code_id], "split": "code2code", "subtask": subtask,
            "anchor_language": anchor.language, "anchor_model": anchor.model,
            "meta": {"source_problem_id": p.problem_id, "anchor_code_id": anchor.code_id,
                     "target_languages": sorted({d.language for d in positives}), "num_target_solutions": len(pos)},
        })
        self._qrels("code2code_qrels", qid, pos, traps)
        self._v1("code2code", qid, pos)

    # code -> text ----------------------------------------------------
    def c2t(self) -> None:
        # Official order: full_retro any, full_retro per language, canonical_retro (same), c2t_match.
        for kind in ("full_retro", "canonical_retro"):
            for p in self.problems:
                _, correct, _ = self._solutions(p)
                if correct:
                    self._c2t_query(p, f"c2t_{kind}_any", _c2t_anchor(correct), kind)
            for p in self.problems:
                _, correct, _ = self._solutions(p)
                languages = _languages_with(correct)
                if len(languages) < 2:  # official: per-language queries only for multi-language problems
                    continue
                for lang in languages:  # anchor: the first passing solution in that language
                    self._c2t_query(p, f"c2t_{kind}_{lang}", [d for d in correct if d.language == lang][0], kind)
        pids = [p.problem_id for p in self.problems]
        for p in self.problems:
            _, correct, _ = self._solutions(p)
            if not correct:
                continue
            anchor = _c2t_anchor(correct)
            other = self.rng.choice([x for x in pids if x != p.problem_id])
            for label, text_pid in ((1, p.problem_id), (0, other)):
                qid = self._qid("c2t", "c2t_match")
                tid = self.text_id[text_pid]
                self.rows["code2text_queries"].append({
                    "query_id": qid, "query": self.code_text[anchor.code_id], "split": "code2text",
                    "subtask": "c2t_match", "anchor_language": anchor.language, "anchor_model": anchor.model,
                    "label": label, "text_id": tid,
                    "meta": {"source_problem_id": p.problem_id, "anchor_code_id": anchor.code_id,
                             "pair_type": "positive" if label else "negative_random", "text_type": "full",
                             **({} if label else {"negative_problem_id": other})},
                })
                self._qrels("code2text_qrels", qid, [tid] if label else [], [] if label else [tid])
                self._v1("code2text", qid, [tid] if label else [])

    def _c2t_query(self, p: Problem, subtask: str, anchor: Doc, kind: str) -> None:
        qid = self._qid("c2t", subtask)
        pos = self.text_id[p.problem_id]
        # Traps: three of the problem's four noise descriptions (FORMAT.md guarantees four).
        traps = sorted(self.rng.sample(self.noise_ids[p.problem_id], MAX_TRAPS))
        self.rows["code2text_queries"].append({
            "query_id": qid, "query": self.code_text[anchor.code_id], "split": "code2text", "subtask": subtask,
            "anchor_language": anchor.language, "anchor_model": anchor.model, "label": None, "text_id": None,
            "meta": {"source_problem_id": p.problem_id, "anchor_code_id": anchor.code_id,
                     "text_type": "canonical_description" if kind == "canonical_retro" else "full_description"},
        })
        self._qrels("code2text_qrels", qid, [pos], traps)
        self._v1("code2text", qid, [pos])

    def build(self) -> tuple[dict[str, RawTable], dict[str, pa.Table]]:
        self.corpora()
        self.t2c()
        self.c2c()
        self.c2t()
        raw = {name: RawTable(f"coreb-mini:{self.release}/{name}", rows) for name, rows in self.rows.items()}
        v1 = {f"{task}_qrels_v1": pa.Table.from_pylist(rows, schema=pa.schema(
            [("query_id", pa.string()), ("doc_id", pa.string()), ("relevance", pa.int8())]))
              for task, rows in self.v1.items()}
        return raw, v1


def _languages_with(docs: list[Doc]) -> list[str]:
    """The languages among ``docs``, sorted (the official generator walks ``sorted(languages)``)."""
    return sorted({d.language for d in docs})


def _c2t_anchor(correct: list[Doc]) -> Doc:
    """Official ``_select_anchor_code``: the first claude-role Python solution, else the first Python
    one, else the first passing solution (``correct`` is in corpus order)."""
    python = [d for d in correct if d.language == "python"]
    return ([d for d in python if d.model == CLAUDE_ROLE] or python or correct)[0]


# ---------------------------------------------------------------- scaled synthetic variant

_KEEP = set("""if else elif for while do end def return in int long var func let const class public static void
main print puts import package include using namespace std len range and or not new string String true false
nil None True False self this break continue fmt os io sys map int64 auto vector size push_back""".split())


def _rename_identifiers(code: str, k: int) -> str:
    """Rename short lowercase identifiers (loop counters, locals): text changes, structure does not."""
    return re.sub(r"\b([a-z][a-z0-9]{0,2})\b", lambda m: m.group(1) if m.group(1) in _KEEP else f"{m.group(1)}{k}", code)


def _scale_problems(problems: list[Problem], factor: int, tmp: Path) -> list[Problem]:
    """``factor`` renamed copies of every problem; solutions point at rewritten texts under ``tmp``."""
    out: list[Problem] = []
    for k in range(factor):
        for p in problems:
            sols = []
            for s in p.solutions:
                dst = tmp / f"{k}" / p.folder.name / s.path.name
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(_rename_identifiers(s.path.read_text(encoding="utf-8"), k) if k else
                               s.path.read_text(encoding="utf-8"), encoding="utf-8")
                sols.append(s._replace(path=dst))
            spec = dict(p.spec)
            if k:
                spec = {**spec, "slug": f"{spec['slug']}_s{k}", "statement": f"{spec['statement']}\n(Variant {k}.)",
                        "canonical": f"{spec['canonical']} (variant {k})"}
            out.append(Problem(p.folder, f"demo_{spec['slug']}", spec, tuple(sols)))
    return out


# ---------------------------------------------------------------- entry points

def build_release(release: str, root: Path | None = None, scale: int = 1, run_toolchains: bool = False,
                  progress: Progress | None = None, execute_python: bool = True) -> tuple[str, Path]:
    """Judge, generate, validate and cache one release (or its ``scale``-times synthetic variant).
    ``execute_python=False`` takes the Python verdicts recorded in verdicts.json too (the app's first
    launch: seconds instead of running 144 solutions' tests per release).

    Example (a cache folder ``root``, here already holding CoREB-mini; the recorded Python verdicts, as the first
    launch takes them: a second; executing them is tests/data/test_mini.py's):

    >>> release, folder = build_release("demo_v2603", root, execute_python=False)
    >>> release, folder.relative_to(root)
    ('demo_v2603', PosixPath('coreb/demo_v2603'))
    """
    import tempfile

    problems = load_problems(release)
    verdicts = _judge_all(problems, run_toolchains, progress, execute_python)
    if scale <= 1:
        raw, v1 = _Builder(release, problems, verdicts).build()
        return release, import_release(raw, release, root, extra_files=v1)
    name = f"{release}_x{scale}"
    with tempfile.TemporaryDirectory(prefix="coreb-mini-scale-") as tmp:
        scaled = _scale_problems(problems, scale, Path(tmp))
        random.Random(f"coreb-mini/{name}").shuffle(scaled)
        raw, v1 = _Builder(name, scaled, verdicts).build()  # copies keep their original verdict keys
    for rows in raw.values():
        for r in rows.rows:
            if "meta" in r:
                r["meta"] = {**r["meta"], "synthetic": True, "scale_of": release}
    return name, import_release(raw, name, root, extra_files=v1)


def build_demo(root: Path | None = None, scale: int = 1, run_toolchains: bool = False,
               progress: Progress | None = None, execute_python: bool = True) -> list[str]:
    """Build both CoREB-mini releases (``demo`` command and, with ``execute_python=False``, the app's
    first launch).

    Example (a cache folder ``root``, here already holding CoREB-mini; the recorded Python verdicts, as the first
    launch takes them: seconds):

    >>> build_demo(root=root, execute_python=False)
    ['demo_v2602', 'demo_v2603']
    """
    built = []
    for i, release in enumerate(RELEASES):
        def sub(msg: str, frac: float, i: int = i, release: str = release) -> None:
            if progress:
                progress(f"{release}: {msg}", (i + frac) / len(RELEASES))
        built.append(build_release(release, root, scale, run_toolchains, sub, execute_python)[0])
    return built
