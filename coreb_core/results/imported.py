"""Results made elsewhere: import them with provenance on every number, list them, keep them.

``import_results(path)`` detects what it is given:
  (a) official runner output folders: ``<task>.json`` metrics and ``<task>_predictions.json`` ranked
      lists (the lists become runs our evaluation re-scores under any scheme; needs ``release``);
  (b) MTEB results trees ``<org>__<model>/<revision>/<Task>.json`` (+ ``model_meta.json``) at any
      depth, every split x hf_subset flattened;
  (c) TREC run files (``release`` and optionally ``task`` attach the qrels);
  (d) runs exported by this project (a folder with ``hits.parquet`` and ``run.json``), each checked by
      ``runs.folders.check_run_folder`` (its release in the cache) before its two files are copied in.
A bad file is skipped with a one-line reason; the rest of the folder still imports. A file that would store
nothing (no scores, no metric, no ranked list) is such a bad file: it is never counted as imported.
Every JSON file is read once, by ``json`` with duplicate keys refused, so what is checked is what is stored.

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = example_mteb_tree(folder)  # folder/results: org/model's T2C nDCG@10 0.41, Recall@10 0.62
    >>> import_results(folder / "results", root=folder / "cache")
    ImportReport(imported=1, rows=3, runs=[], skipped=[])
"""
from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path
from typing import Any, Callable, NamedTuple

import pandas as pd

from coreb_core.atomic import atomic_folder, atomic_path
from coreb_core.data.measures import metric_label as canonical_label
from coreb_core.data.schema import TASKS
from coreb_core.errors import CorebError, DataError
from coreb_core.input_paths import allowed_roots, file_problem, readable_files
from coreb_core.paths import results_file, runs_dir
from coreb_core.progress import Progress, silent
from coreb_core.results.published import published_rows

# Each imported row says what changes its numbers against the official v2 scoring.
MTEB_SCHEME = ("MTEB qrels: positives only, no anchor exclusion; C2T without the c2t_match label-0 pairs "
               "(190 of 1,200 on v2603, which alone raises C2T by about 1200/1010)")
# The runner writes <task>.json before its C2C anchor step, so every C2C number there keeps the anchor.
RUNNER_SCHEME = "v2 (official runner <task>.json; C2C anchor kept)"
# MTEB's task names, from the schema's tasks: name -> (task, kind)
MTEB_TASKS = {**{t.mteb_retrieval: (t.name, "retrieval") for t in TASKS.values()},
              **{t.mteb_reranking: (t.name, "reranking") for t in TASKS.values()}}
ROW_FIELDS = ["source", "source_kind", "file", "model", "revision", "dataset_revision", "task", "task_short",
              "subset", "split", "metric", "label", "value", "scheme"]
KEY_FIELDS = ["source_kind", "file", "model", "revision", "task", "split", "subset", "metric"]
# A real MTEB task file is a few KB; DuckDB's JSON reader stops at 16 MB per object (maximum_object_size).
MTEB_MAX_BYTES = 16 * 2 ** 20


def example_mteb_tree(folder: Path) -> Path:
    """Write the smallest MTEB results tree (one model, one task file) under ``folder/results``: the
    input of this module's examples, and a quick way to try ``import_results``.

    >>> import tempfile
    >>> tree = example_mteb_tree(Path(tempfile.mkdtemp()))
    >>> sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*.json"))
    ['org__model/abc123/CorebT2CRetrieval.json']
    """
    task = folder / "results" / "org__model" / "abc123"
    task.mkdir(parents=True, exist_ok=True)
    scores = {"hf_subset": "default", "main_score": 0.41, "ndcg_at_10": 0.41, "recall_at_10": 0.62}
    (task / "CorebT2CRetrieval.json").write_text(json.dumps({"task_name": "CorebT2CRetrieval",
                                                             "scores": {"test": [scores]}}))
    return folder / "results"


class ImportReport(NamedTuple):
    """What ``import_results`` did: files imported, numbers stored, runs created, files skipped and why.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = example_mteb_tree(folder)  # folder/results: org/model's T2C nDCG@10 0.41, Recall@10 0.62
    >>> report = import_results(folder / "results", root=folder / "cache")
    >>> report.imported, report.rows, report.runs, report.skipped
    (1, 3, [], [])
    """
    imported: int  # files imported
    rows: int  # numbers stored
    runs: list[str]  # run ids created
    skipped: list[str]  # "FILE: reason", one per file


def task_short(name: str) -> str | None:
    """Map any task name to t2c / c2c / c2t (CorebT2CRetrieval, CoREB-Text2Code, text2code, …).

    >>> task_short("CorebT2CRetrieval"), task_short("CoREB-Code2Text"), task_short("nfcorpus")
    ('t2c', 'c2t', None)
    """
    low = name.lower()
    for short, words in (("t2c", ("t2c", "text2code", "text_to_code")), ("c2c", ("c2c", "code2code")),
                         ("c2t", ("c2t", "code2text", "code_to_text"))):
        if any(w in low for w in words):
            return short
    return None


def metric_label(metric: str, task: str) -> str:
    """Display name: MTEB's accuracy is Recall@1; main_score is nDCG@10 (retrieval) or MAP@10 (reranking).

    >>> metric_label("accuracy", "CorebC2TRetrieval"), metric_label("main_score", "CorebT2CReranking")
    ('Recall@1 (MTEB accuracy)', 'MAP@10 (main score)')
    >>> metric_label("ndcg_at_10", "CorebT2CRetrieval")
    'nDCG@10'
    """
    if metric == "accuracy":
        return "Recall@1 (MTEB accuracy)"
    if metric == "main_score":
        return "MAP@10 (main score)" if "Reranking" in task else "nDCG@10 (main score)"
    return canonical_label(metric)


# ---------------------------------------------------------------- storage

def stored_rows(root: Path | None = None) -> pd.DataFrame:
    """The imported numbers kept in ``results.parquet`` (an empty frame before any import).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = example_mteb_tree(folder)  # folder/results: org/model's T2C nDCG@10 0.41, Recall@10 0.62
    >>> _ = import_results(folder / "results", root=folder / "cache")
    >>> stored_rows(folder / "cache")[["model", "task_short", "metric", "label", "value"]]
           model task_short        metric                 label  value
    0  org/model        t2c    main_score  nDCG@10 (main score)   0.41
    1  org/model        t2c    ndcg_at_10               nDCG@10   0.41
    2  org/model        t2c  recall_at_10             Recall@10   0.62
    """
    path = results_file(root)
    return pd.read_parquet(path) if path.exists() else pd.DataFrame(columns=ROW_FIELDS)


def _store(rows: list[dict[str, Any]], root: Path | None) -> None:
    """Merge rows into results.parquet: a re-imported number replaces its older copy (atomic write)."""
    if not rows:
        return
    new = pd.DataFrame(rows, columns=ROW_FIELDS)
    old = stored_rows(root)
    merged = pd.concat([old, new], ignore_index=True) if len(old) else new
    merged = merged.astype({c: "object" for c in ROW_FIELDS if c != "value"})
    merged = merged.drop_duplicates(subset=KEY_FIELDS, keep="last", ignore_index=True)
    path = results_file(root)
    with atomic_path(path, tmp=path.with_name(f".{path.name}.{os.getpid()}.tmp")) as tmp:
        merged.to_parquet(tmp, index=False)


def short_source(source: str, parts: int = 2) -> str:
    """A result's source without the server's path: its kind and the last ``parts`` parts of the path.

    >>> short_source("mteb:/work/shared/mteb_results/mteb__baseline-bm25s/0_1_10")
    'mteb:mteb__baseline-bm25s/0_1_10'
    >>> short_source("published:paper_table3_v202603_retrieval"), short_source("our run bm25__x")
    ('published:paper_table3_v202603_retrieval', 'our run bm25__x')
    """
    kind, sep, rest = source.partition(":")
    if not sep or "/" not in rest:
        return source
    return f"{kind}:{'/'.join(Path(rest).parts[-parts:])}"


def all_rows(root: Path | None = None, include_published: bool = True) -> list[dict[str, Any]]:
    """Every number: imported ones and (optionally) the bundled published figures.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = example_mteb_tree(folder)  # folder/results: org/model's T2C nDCG@10 0.41, Recall@10 0.62
    >>> _ = import_results(folder / "results", root=folder / "cache")
    >>> len(all_rows(folder / "cache", include_published=False)), len(all_rows(folder / "cache"))
    (3, 553)
    """
    rows = stored_rows(root).to_dict("records")
    rows = [{k: (None if isinstance(v, float) and math.isnan(v) and k != "value" else v) for k, v in r.items()}
            for r in rows]
    return rows + (published_rows() if include_published else [])


# ---------------------------------------------------------------- (b) MTEB results trees

def _is_finite(value: Any) -> bool:
    """A JSON number that is finite as a float (not a bool; an integer too large for a float is not).

    >>> _is_finite(0.5), _is_finite(float("nan")), _is_finite(10 ** 400), _is_finite(True)
    (True, False, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _kind(value: Any) -> str:
    """The JSON name of a value's type, for "must be a string, not list" lines."""
    return {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number")


class _DuplicateKey(ValueError):
    """An object names one key twice: JSON readers disagree on which value counts (Python's the last,
    DuckDB's the first), so such a file is refused rather than read one way."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of every JSON file read here: an object, or _DuplicateKey."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def _load_json(path: Path) -> tuple[Any, str | None]:
    """A JSON file's value, or a one-line reason it cannot be read (never its content).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "text2code.json"
    >>> _ = path.write_text('{"metrics": {"NDCG": {"NDCG@10": 0.5, "NDCG@10": 0.9}}}')
    >>> _load_json(path)
    (None, "duplicate key 'NDCG@10' (JSON readers disagree on which value counts)")
    """
    try:
        return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_unique_keys), None
    except _DuplicateKey as exc:
        return None, f"duplicate key {exc.args[0]!r} (JSON readers disagree on which value counts)"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"not valid JSON ({getattr(exc, 'msg', type(exc).__name__)})"
    except RecursionError:
        return None, "not valid JSON (nested too deeply)"


def _finite_numbers(obj: Any, where: str) -> str | None:
    """The first NaN or infinite number inside ``obj``, as a path, or None."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return where
    if isinstance(obj, dict):
        for k, v in obj.items():
            bad = _finite_numbers(v, f"{where}.{k}")
            if bad:
                return bad
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            bad = _finite_numbers(v, f"{where}[{i}]")
            if bad:
                return bad
    return None


# The descriptive fields of an MTEB score entry; every other field is a metric, and a metric is a number.
MTEB_NOT_METRICS = ("hf_subset", "languages", "mteb_version")


def _fraction_metric(metric: str) -> bool:
    """Whether an MTEB metric is a fraction in [0, 1]: all are but ``nauc_*`` (AUC-based correlations and
    their differences, which real files hold below 0 and above 1).

    >>> _fraction_metric("ndcg_at_10"), _fraction_metric("main_score"), _fraction_metric("nauc_ndcg_at_10_max")
    (True, True, False)
    """
    return not metric.startswith("nauc_")


def _check_mteb_file(path: Path) -> tuple[dict | None, str | None]:
    """An MTEB task file's content, or a one-line reason why it cannot be imported. The content returned is
    what ``_mteb_rows`` stores, so the file is read once, one way."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or type(exc).__name__})"
    if size > MTEB_MAX_BYTES:
        return None, (f"file is {size / 2 ** 20:.0f} MB; an MTEB task result is a few KB "
                      f"(at most {MTEB_MAX_BYTES // 2 ** 20} MB is read)")
    data, reason = _load_json(path)
    if reason:
        return None, reason
    if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
        return None, "wrong shape: no 'scores' object"
    task = data.get("task_name", path.stem)
    if not isinstance(task, str):
        return None, f"field 'task_name' must be a string, not {_kind(task)}"
    revision = data.get("dataset_revision")
    if revision is not None and not isinstance(revision, str):
        return None, f"field 'dataset_revision' must be a string, not {_kind(revision)}"
    for split, entries in data["scores"].items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            return None, f"wrong shape: scores.{split} is not a list of objects"
        subsets = [e.get("hf_subset", "default") for e in entries]
        for i, subset in enumerate(subsets):
            if not isinstance(subset, str):
                return None, f"field 'scores.{split}[{i}].hf_subset' must be a string, not {_kind(subset)}"
        if len(subsets) != len(set(subsets)):
            return None, f"duplicate entries: scores.{split} repeats an hf_subset"
    if not any(data["scores"].values()):  # {} or {"test": []}: nothing to store
        return None, "no scores: 'scores' holds no entry"
    for split, entries in data["scores"].items():
        for i, e in enumerate(entries):
            if not _is_finite(e.get("main_score")):
                return None, f"NaN, infinite or missing main_score at scores.{split}[{i}]"
            for metric, value in e.items():
                if metric in MTEB_NOT_METRICS:
                    continue
                where = f"field 'scores.{split}[{i}].{metric}'"
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    return None, f"{where} must be a number, not {_kind(value)}"
                if _is_finite(value) and _fraction_metric(metric) and not 0 <= value <= 1:
                    return None, f"{where} must be between 0 and 1: {value!r}"
    if task not in MTEB_TASKS:
        return None, f"not a CoREB task ({task})"
    return data, _check_model_meta(path.parent / "model_meta.json")


def _check_model_meta(meta: Path) -> str | None:
    """A model_meta.json beside a task file names the model: its name and revision must be strings.
    A missing or unreadable one is no error (the folder names are used instead)."""
    if not meta.is_file():
        return None
    data, reason = _load_json(meta)
    if reason and reason.startswith("duplicate key"):  # read one way only: its name would be a guess
        return f"{meta}: {reason}"
    if reason or not isinstance(data, dict):
        return None
    for field in ("name", "revision"):
        if data.get(field) is not None and not isinstance(data[field], str):
            return f"{meta}: field {field!r} must be a string, not {_kind(data[field])}"
    return None


def _mteb_rows(path: Path, data: dict, origin: "_Origin") -> tuple[list[dict], int]:
    """The checked file's numbers, one row per split x subset x metric, and how many non-finite values were
    left out (real MTEB files carry NaN in some diagnostic ``nauc_*`` metrics)."""
    model, revision = origin.mteb_model(path)
    task = data.get("task_name", path.stem)
    rows, dropped = [], 0
    for split, entries in data["scores"].items():
        for entry in entries:
            for metric, value in entry.items():
                if metric in MTEB_NOT_METRICS:
                    continue
                if not _is_finite(value):
                    dropped += 1
                    continue
                rows.append({"source": f"mteb:{origin.shown(path.parent)}", "source_kind": "mteb",
                             "file": origin.shown(path),
                             "model": model, "revision": revision, "dataset_revision": data.get("dataset_revision"),
                             "task": task, "task_short": MTEB_TASKS[task][0],
                             "subset": entry.get("hf_subset", "default"), "split": split, "metric": metric,
                             "label": metric_label(metric, task), "value": float(value), "scheme": MTEB_SCHEME})
    return rows, dropped


def _file_counter(total: int, progress: Progress) -> Callable[..., None]:
    """``tick(n=1)``: ``n`` more of ``total`` files read, said to ``progress``.

    >>> seen = []
    >>> tick = _file_counter(1200, lambda m, f: seen.append((m, f)))
    >>> tick(); tick(599); seen[-1]
    ('600 of 1,200 files read', 0.5)
    """
    done = 0

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        progress(f"{done:,} of {total:,} files read", done / total if total else 1.0)

    return tick


def _import_mteb(files: list[Path], root: Path | None, origin: "_Origin",
                 tick: Callable[..., None] = lambda n=1: None) -> tuple[int, list[dict], list[str]]:
    skipped, good = [], []
    for path in files:
        tick()
        data, reason = _check_mteb_file(path)
        if not reason and origin.mteb_model(path)[0] is None:
            reason = ("an uploaded MTEB file names its model in model_meta.json: upload that file beside it, "
                      "or give a model label")
        if reason or data is None:
            skipped.append(f"{path}: {reason}")
        else:
            good.append((path, data))
    # The same model, revision and task twice (e.g. two copies of a tree): keep the first.
    seen: dict[tuple, Path] = {}
    rows: list[dict] = []
    imported = dropped = 0
    for path, data in good:
        model, revision = origin.mteb_model(path)
        key = (model, revision, path.stem)
        if key in seen:
            skipped.append(f"{path}: duplicate of {seen[key]} (same model, revision and task)")
            continue
        seen[key] = path
        file_rows, file_dropped = _mteb_rows(path, data, origin)  # never empty: each entry's main_score is finite
        rows += file_rows
        dropped += file_dropped
        imported += 1
    # Left out, and counted, rather than losing the file.
    if dropped:
        skipped.append(f"(note) {dropped} non-finite metric values (NaN or infinite, e.g. nauc_*) left out")
    return imported, rows, skipped


class _Origin(NamedTuple):
    """Where the imported files came from, for the provenance stored with them: a path the user named, or an
    upload (files saved flat into a temporary folder), whose stored provenance names the uploaded files as the
    user named them and never the server's temporary folder, whose name is no model's either.

    >>> up = _Origin(Path("/tmp/coreb-results-x1"), None, True)
    >>> up.shown(Path("/tmp/coreb-results-x1/run.trec")), up.shown(Path("/tmp/coreb-results-x1")), up.label("coreb-results-x1")
    ('upload:run.trec', 'upload', 'uploaded')
    >>> _Origin(Path("/srv/results"), None, False).shown(Path("/srv/results/a/b.json"))
    '/srv/results/a/b.json'
    """
    root: Path
    model: str | None
    uploaded: bool

    def shown(self, path: Path) -> str:
        if not self.uploaded:
            return str(path)
        inside = path.relative_to(self.root).as_posix()
        return "upload" if inside == "." else f"upload:{inside}"

    def label(self, folder_name: str) -> str:
        """The model label of runner files: the one given, else their folder's name (an upload's is none)."""
        return self.model or ("uploaded" if self.uploaded else folder_name)

    def mteb_model(self, task_file: Path) -> tuple[str | None, str | None]:
        """Model and revision of an MTEB file: from model_meta.json beside it, else from its folders'
        names (``<org>__<model>/<revision>/``). An upload has no such folders: without model_meta.json it
        takes the model label, and without one it has no model (None)."""
        named = _model_meta_name(task_file)
        if named is not None:
            return named[0], named[1] or (None if self.uploaded else task_file.parent.name)
        if self.uploaded:
            return self.model, None
        return task_file.parent.parent.name.replace("__", "/", 1), task_file.parent.name


def _model_meta_name(task_file: Path) -> tuple[str, str | None] | None:
    """(name, revision) from the model_meta.json beside an MTEB task file, when it names the model."""
    meta = task_file.parent / "model_meta.json"
    if meta.exists() and file_problem(meta, allowed_roots(task_file.parent)) is None:
        data, _ = _load_json(meta)
        if isinstance(data, dict) and data.get("name"):
            return str(data["name"]), data.get("revision") or None
    return None


# ---------------------------------------------------------------- (a) official runner output

_OFFICIAL_METRIC = re.compile(r"^(NDCG|MAP|Recall|P|MRR|R_cap|Accuracy)@(\d+)$")
_OFFICIAL_NAMES = {"NDCG": "ndcg", "MAP": "map", "Recall": "recall", "P": "precision", "MRR": "mrr",
                   "R_cap": "capped_recall", "Accuracy": "accuracy"}


def _import_runner_metrics(path: Path, model: str, origin: "_Origin") -> tuple[list[dict], str | None]:
    data, reason = _load_json(path)
    if reason:
        return [], reason
    metrics = data.get("metrics") if isinstance(data, dict) else None
    if not isinstance(metrics, dict) or not all(isinstance(v, dict) for v in metrics.values()):
        return [], "wrong shape: expected {\"metrics\": {\"NDCG\": {\"NDCG@10\": …}, …}}"
    bad = _finite_numbers(metrics, "metrics")
    if bad:
        return [], f"NaN or infinite value at {bad}"
    rows = []
    for family_name, family in metrics.items():
        for name, value in family.items():
            m = _OFFICIAL_METRIC.match(name)
            if not m:
                continue
            # as an MTEB file's metrics: a number (not a string holding one), a fraction in [0, 1]
            where = f"field 'metrics.{family_name}.{name}'"
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return [], f"{where} must be a number, not {_kind(value)}"
            if not _is_finite(value):
                return [], f"number too large at metrics.{name}"
            if not 0 <= value <= 1:
                return [], f"{where} must be between 0 and 1: {value!r}"
            metric = f"{_OFFICIAL_NAMES[m.group(1)]}_at_{m.group(2)}"
            rows.append({"source": f"coreb-runner:{origin.shown(path.parent)}", "source_kind": "coreb-runner",
                         "file": origin.shown(path),
                         "model": model, "revision": None, "dataset_revision": None, "task": path.stem,
                         "task_short": task_short(path.stem), "subset": "default", "split": "test",
                         "metric": metric, "label": canonical_label(metric), "value": float(value), "scheme": RUNNER_SCHEME})
    if not rows:
        return [], "no metrics: expected NDCG@k, MAP@k, Recall@k or P@k numbers under 'metrics'"
    return rows, None


def _read_predictions(path: Path) -> tuple[dict[str, list[tuple]] | None, str | None]:
    """``{query_id: [{"corpus_id", "score", "rank"}, …]}`` -> lists of (doc, score), or a reason."""
    from coreb_core.runs.hits import MAX_RANK

    data, reason = _load_json(path)
    if reason:
        return None, reason
    if not isinstance(data, dict):
        return None, "wrong shape: expected {query_id: [{corpus_id, score, rank}, …]}"
    lists = {}
    for qid, items in data.items():
        if not isinstance(items, list):
            return None, f"wrong shape: {qid} is not a list"
        seen, pairs = set(), []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or "corpus_id" not in item or "score" not in item:
                return None, f"wrong shape: {qid}[{i}] lacks corpus_id or score"
            doc, score, rank = item["corpus_id"], item["score"], item.get("rank")
            if not isinstance(doc, str):
                return None, f"field '{qid}[{i}].corpus_id' must be a string, not {_kind(doc)}"
            if not _is_finite(score):
                return None, f"NaN or infinite score at {qid}[{i}]"
            if not isinstance(rank, int) or isinstance(rank, bool):
                rank = None  # optional, and ignored as the official evaluator ignores it (hits_from_lists)
            elif abs(rank) > MAX_RANK:
                return None, f"field '{qid}[{i}].rank' must be a 32-bit whole number (at most {MAX_RANK})"
            if doc in seen:
                return None, f"duplicate entry: {qid} lists {doc} twice"
            seen.add(doc)
            pairs.append((doc, float(score)) + ((rank,) if rank is not None else ()))
        lists[str(qid)] = pairs
    if not lists:
        return None, "no ranked lists: the file names no query"
    return lists, None


# ---------------------------------------------------------------- runs from files

def _store_run(hits: pd.DataFrame, release: str, label: str, source: str, root: Path | None, source_file: str) -> str:
    from coreb_core.runs.folders import new_run_id, write_run
    from coreb_core.runs.meta import RunMeta

    run_id = new_run_id(label, release)
    write_run(hits, RunMeta(run_id=run_id, kind="imported", release=release, model=label, source=source,
                            tasks=tuple(sorted(set(hits["task"].astype(str)))), source_file=source_file), root)
    return run_id


def _task_of(release: str, root: Path | None) -> dict[str, str]:
    from coreb_core.data.store import Store

    with Store(release, root) as store:
        return dict(store.sql("SELECT query_id, task FROM queries").fetchall())


# ---------------------------------------------------------------- detection and the verb

def _skip_line(path: Path, exc: CorebError) -> str:
    """The first line of an error about ``path``, naming the path once (a DataProblem names it already).

    >>> _skip_line(Path("run.trec"), CorebError("run.trec: row 2: field 'rank': must be a 32-bit whole number"))
    "run.trec: row 2: field 'rank': must be a 32-bit whole number"
    >>> _skip_line(Path("run.trec"), CorebError("release x is not in the cache"))
    'run.trec: release x is not in the cache'
    """
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    return first if first.startswith(f"{path}: ") else f"{path}: {first}"


def _looks_like_trec(path: Path) -> bool:
    from coreb_core.runs.trec import is_trec_line

    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace").splitlines()
    except OSError:
        return False
    first = next((line for line in head if line.strip()), "")
    return is_trec_line(first)


def import_results(path: Path, release: str | None = None, task: str | None = None, model: str | None = None,
                   root: Path | None = None, uploaded: bool = False, progress: Progress = silent) -> ImportReport:
    """Import whatever ``path`` holds (see module docstring); never stops at the first bad file. ``progress``
    hears ``"<n> of <total> files read"`` after each file.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = example_mteb_tree(folder)  # folder/results: org/model's T2C nDCG@10 0.41, Recall@10 0.62
    >>> _ = (folder / "results" / "notes.txt").write_text("hello")
    >>> report = import_results(folder / "results", root=folder / "cache")
    >>> report.rows, [line.split(": ", 1)[1] for line in report.skipped]
    (3, ['not a recognised result file (MTEB task JSON, runner output, TREC run, exported run)'])
    """
    from coreb_core.data.store import list_releases
    from coreb_core.runs.folders import RUN_FILES, check_run_folder
    from coreb_core.runs.hits import hits_from_lists
    from coreb_core.runs.trec import read_trec_run

    path = Path(path)
    if not path.exists():
        raise CorebError(f"{path}: no such file or folder")
    origin = _Origin(path, model, uploaded)
    # Only regular files inside the folder or the import roots, none over the size limit: a FIFO
    # would block the import for ever, a link could lead anywhere on the server.
    if path.is_dir():
        files, skipped = readable_files(path)
    else:
        refused = file_problem(path)
        files, skipped = ([], [f"{path}: {refused}"]) if refused else ([path], [])
    rows: list[dict] = []
    runs: list[str] = []
    imported = 0
    tick = _file_counter(len(files), progress)

    # (d) runs exported by this project: folders holding run.json or hits.parquet, each checked against
    # the run folder schema before anything is copied, and only those two files copied
    folders = sorted({f.parent for f in files if f.name in RUN_FILES})
    releases = list_releases(root) if folders else []
    for folder in folders:
        tick(sum(f.parent == folder for f in files))
        try:
            meta = check_run_folder(folder, releases)
            target = runs_dir(root) / meta.run_id
            if not target.exists():
                runs_dir(root).mkdir(parents=True, exist_ok=True)
                with atomic_folder(target, target.with_name(f".tmp-{meta.run_id}")) as tmp:
                    for name in RUN_FILES:
                        shutil.copyfile(folder / name, tmp / name)
            runs.append(meta.run_id)
            imported += 1
        except CorebError as exc:
            skipped.append(str(exc).splitlines()[0])  # it names the file and field
        except OSError as exc:
            skipped.append(f"{folder}: cannot copy the run ({exc.strerror or type(exc).__name__})")
    files = [f for f in files if f.parent not in folders]

    # (b) MTEB task files
    mteb = [f for f in files if f.suffix == ".json" and f.stem in MTEB_TASKS]
    n, mteb_rows, bad = _import_mteb(mteb, root, origin, tick)
    imported, rows, skipped = imported + n, rows + mteb_rows, skipped + bad

    # (a) official runner output: <task>.json beside <task>_predictions.json, or a metrics-shaped json
    for f in files:
        if f.suffix != ".json" or f in mteb:
            continue
        tick()
        if f.name == "model_meta.json":
            continue
        if f.stem.endswith("_predictions"):
            if release is None:
                skipped.append(f"{f}: predictions need --release to be re-scored")
                continue
            lists, reason = _read_predictions(f)
            if reason or lists is None:
                skipped.append(f"{f}: {reason}")
                continue
            try:
                task_of = _task_of(release, root)
                hits = hits_from_lists(task_of, lists, str(f))
            except (DataError, CorebError) as exc:
                skipped.append(_skip_line(f, exc))
                continue
            runs.append(_store_run(hits, release, origin.label(f.parent.name), f"coreb-runner:{origin.shown(f)}",
                                   root, origin.shown(f)))
            imported += 1
            continue
        metric_rows, reason = _import_runner_metrics(f, origin.label(f.parent.name), origin)
        if reason:
            skipped.append(f"{f}: {reason}")
        else:
            rows += metric_rows
            imported += 1

    # (c) TREC run files, recognised by their first line
    for f in files:
        if f.suffix == ".json":
            continue
        tick()
        if f.suffix in (".parquet", ".md") or f.name.startswith("."):
            continue
        if not _looks_like_trec(f):
            skipped.append(f"{f}: not a recognised result file (MTEB task JSON, runner output, TREC run, exported run)")
            continue
        if release is None:
            skipped.append(f"{f}: a TREC run needs --release (and optionally --task)")
            continue
        try:
            task_of = _task_of(release, root)
            hits = read_trec_run(f, task_of)
            if task:
                hits = hits[hits["task"].astype(str) == task]
                if hits.empty:  # a run of no query would be stored empty
                    skipped.append(f"{f}: no line names a {task} query of {release}")
                    continue
            runs.append(_store_run(hits, release, model or f.stem, f"trec:{origin.shown(f)}", root, origin.shown(f)))
            imported += 1
        except (DataError, CorebError) as exc:
            skipped.append(_skip_line(f, exc))
    _store(rows, root)
    return ImportReport(imported, len(rows), runs, skipped)
