"""Re-run retrieval for a model on a cached release and store the run (callers score it:
``coreb_core.evaluation.evaluate.score_run``; retrieval sits below evaluation in the layers).

The encoding profile (``coreb_core.retrieval.profiles``) says how texts become vectors: ``official`` as the
CoREB runner made the published numbers, ``card`` as the model's own card says.

Example (CoREB-mini in ``root``):
    >>> result = run_retrieval("bm25", "demo_v2603", root=root)
    >>> result.release, result.texts_encoded, result.run_id   # doctest: +ELLIPSIS
    ('demo_v2603', 0, 'bm25__demo_v2603__...')
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.data.schema import CORPUS_OF_TASK as CORPUS_OF  # task -> corpus kind, from the schema
from coreb_core.data.schema import TASKS
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.progress import Progress, call_with_heartbeat, part_of, silent
from coreb_core.retrieval.api_estimate import ApiEstimate, estimate
from coreb_core.retrieval.device import check_device
from coreb_core.retrieval.embeddings import EmbeddingCache
from coreb_core.retrieval.encode import encode_cached
from coreb_core.retrieval.meter import MemoryMeter, cpus_available, load_average, run_cpu_seconds, torch_threads
from coreb_core.retrieval.models import (
    ModelSpec,
    check_folder_positions,
    ensure_available,
    package_versions,
    pick_device,
    resolve,
)
from coreb_core.retrieval.pair_cut import cut_groups
from coreb_core.retrieval.profiles import (
    DEFAULT_PROFILE,
    Encoding,
    api_identity,
    check_profile,
    encoder_identity,
    encoding_for,
    load_encoder,
)
from coreb_core.retrieval.search import LEXICAL, dense_scores
from coreb_core.runs.cost import ENCODE, RunCost
from coreb_core.runs.cost import LEXICAL as LEXICAL_COST
from coreb_core.runs.folders import new_run_id, read_hits, run_meta, write_run
from coreb_core.runs.hits import DEFAULT_TOP_K, concat_hits, hits_from_scores, trec_order_key
from coreb_core.runs.meta import RunMeta, run_name


class RetrievalResult(NamedTuple):
    """What ``run_retrieval`` and ``rerank_run`` return: the stored run's id, its release, the texts
    encoded (0 when every vector came from the cache, and for BM25), the wall time, and a line per embedding
    cache shard that failed its checks and was re-encoded (``EmbeddingCache.warnings``).

    Example (CoREB-mini in ``root``):

    >>> run_retrieval("bm25", "demo_v2603", root=root)
    RetrievalResult(run_id='bm25__demo_v2603__...', release='demo_v2603', texts_encoded=0, seconds=...)
    """
    run_id: str
    release: str
    texts_encoded: int  # 0 when every vector came from the cache
    seconds: float
    warnings: tuple[str, ...] = ()  # damaged cache shards dropped (their texts were encoded again)


class TaskData(NamedTuple):
    """One task of a release as retrieval needs it: queries and documents in id order, the documents
    to store per query wherever they rank, and which documents count toward top-k.

    Example (CoREB-mini in ``root``):

    >>> task = load_task(Store("demo_v2603", root), "c2t")
    >>> len(task.query_ids), len(task.doc_ids), int(task.counted.sum())   # C2T: 96 noise texts do not count
    (336, 120, 24)
    """
    query_ids: list[str]
    queries: list[str]
    doc_ids: list[str]
    docs: list[str]
    keep: dict[str, list[str]]  # per query: judged documents and the anchor, stored wherever they rank
    counted: np.ndarray | None  # per document: counts toward top-k (C2T: not a noise text), else None


def load_task(store: Store, task: str) -> TaskData:
    """The queries, documents, judged documents and anchors of one task (see ``TaskData``).

    Example (CoREB-mini in ``root``):

    >>> task = load_task(Store("demo_v2603", root), "t2c")
    >>> len(task.query_ids), len(task.doc_ids), task.counted, task.query_ids[0], len(task.keep[task.query_ids[0]])
    (720, 307, None, 'q_t2c_canonical_retro_any_0001', 13)
    """
    q = store.sql("SELECT query_id, query, anchor_code_id FROM queries WHERE task = ? ORDER BY query_id", [task]).df()
    d = store.sql("SELECT doc_id, content, is_noise FROM documents WHERE corpus = ? ORDER BY doc_id",
                  [CORPUS_OF[task]]).df()
    judged = store.sql("SELECT query_id, doc_id FROM qrels WHERE task = ?", [task]).df()
    keep = judged.groupby("query_id")["doc_id"].apply(list).to_dict()
    for qid, anchor in zip(q["query_id"], q["anchor_code_id"]):
        if isinstance(anchor, str):
            keep.setdefault(qid, []).append(anchor)
    # C2T lists run deep enough to hold top-k texts once the noise texts are dropped (the v1 view).
    noise = d["is_noise"].to_numpy(dtype=bool)
    counted = ~noise if task == "c2t" and noise.any() else None
    return TaskData(q["query_id"].tolist(), q["query"].tolist(), d["doc_id"].tolist(), d["content"].tolist(), keep,
                    counted)


def corpus_fingerprint(store: Store) -> str:
    """A short hash of every document id and text of a release (stored in each run's provenance).

    Example (CoREB-mini in ``root``):

    >>> corpus_fingerprint(Store("demo_v2603", root))
    '879c0891d40d7aaf'
    """
    h = hashlib.sha256()
    for doc_id, content in store.sql("SELECT doc_id, content FROM documents ORDER BY corpus, doc_id").fetchall():
        h.update(doc_id.encode())
        h.update(b"\0")
        h.update(content.encode("utf-8"))
        h.update(b"\1")
    return h.hexdigest()[:16]


class _Encoder:
    """Loads the model on first need only: a fully cached run never imports torch or transformers."""

    def __init__(self, spec: ModelSpec, encoding: Encoding, device: str, progress: Progress,
                 loader=load_encoder) -> None:
        self.spec, self.encoding, self.device, self.progress, self.loader = spec, encoding, device, progress, loader
        self.model = None
        self.load_seconds = 0.0
        self.load_cpu_s = 0.0  # this thread's and the native threads' CPU seconds over the load (left out of the cost)

    def __call__(self):
        if self.model is None:
            start, cpu = time.perf_counter(), run_cpu_seconds()
            # the load reports nothing itself: a heartbeat keeps the caller's elapsed time ticking
            load = lambda: call_with_heartbeat(  # noqa: E731
                lambda: self.loader(self.spec, self.encoding, self.device), self.progress,
                f"loading {self.spec.id} ({self.encoding.profile}) on {self.device}", 0.0)
            try:
                self.model = load()
            except ImportError:
                # Two threads importing overlapping libraries (the app's warm-up, a background run) can be handed
                # a half-initialised module once ("cannot import name 'AutoModel'"); by now it is complete.
                time.sleep(1.0)
                self.model = load()
            self.load_seconds = time.perf_counter() - start
            self.load_cpu_s = run_cpu_seconds() - cpu
        return self.model

    def side(self, side: str) -> "_Side":
        """The encoder of one side: an API model's own per side (its task type), else this one's."""
        return _Side(self, side)

    def pooling_seen(self) -> list[str] | None:
        """Which pooling the official encoder's model outputs called for (None: not loaded, or card)."""
        seen = getattr(self.model, "pooling_seen", None)
        return sorted(seen) if seen else None


class _Side:
    """``_Encoder`` for one side (query / document): an API model answers with that side's encoder."""

    def __init__(self, encoder: _Encoder, side: str) -> None:
        self.encoder, self.name = encoder, side

    def __call__(self):
        model = self.encoder()
        return model.for_side(self.name) if hasattr(model, "for_side") else model

    @property
    def load_seconds(self) -> float:
        return self.encoder.load_seconds

    @property
    def load_cpu_s(self) -> float:
        return self.encoder.load_cpu_s


def side_caches(spec: ModelSpec, encoding: Encoding, root: Path | None) -> dict[str, EmbeddingCache]:
    """The embedding cache of each side: one shared by both for a local model (its prompts tell the sides apart in
    the keys), one per side's task type for an API model (``api_identity``)."""
    if spec.kind == "api":
        query, document = api_identity(spec, "query"), api_identity(spec, "document")
        if query != document:
            return {"query": EmbeddingCache(query, root), "document": EmbeddingCache(document, root)}
        shared = EmbeddingCache(query, root)  # no task type: one object, so each side sees what the other put
        return {"query": shared, "document": shared}
    cache = EmbeddingCache(encoder_identity(spec, encoding), root)
    return {"query": cache, "document": cache}


def _api_estimate(spec: ModelSpec, loaded: list[TaskData], caches: dict[str, EmbeddingCache]) -> ApiEstimate:
    return estimate(spec.id, spec.price_per_mtok, {"query": [q for t in loaded for q in t.queries],
                                                   "document": [d for t in loaded for d in t.docs]}, caches)


def estimate_api_run(model: str, release: str, tasks: tuple[str, ...] = tuple(TASKS),
                     root: Path | None = None) -> ApiEstimate | None:
    """The token and cost estimate of running an API model on ``release`` (texts its embedding cache lacks);
    None for a local model. Needs no key: nothing is sent.

    Example (CoREB-mini in ``root``):

    >>> est = estimate_api_run("voyage-code-3", "demo_v2603", ("c2c",), root=root)
    >>> est.texts > 0, est.cached, est.usd is not None
    (True, 0, True)
    """
    spec = resolve(model)
    if spec.kind != "api":
        return None
    loaded, _ = _read_release(release, root, check_tasks(tasks))
    return _api_estimate(spec, loaded, side_caches(spec, encoding_for(spec, DEFAULT_PROFILE, "cpu"), root))


def _pool_factory(device: str, encoding: Encoding):
    """Several GPUs: sentence-transformers' multi-process pool, one process per GPU (card profile). Not for a
    device named by index (``cuda:1``): that run keeps to its GPU, as a sweep's runs do, one per GPU."""
    if device != "cuda" or encoding.backend != "sentence-transformers":
        return None
    import torch

    if torch.cuda.device_count() < 2:
        return None
    return lambda model: model.start_multi_process_pool()


def check_tasks(tasks: Iterable[str]) -> tuple[str, ...]:
    """The tasks of one run, in the order given: at least one, each known and named once (a task named
    twice would store every hit twice).

    >>> check_tasks(["c2t", "t2c"])
    ('c2t', 't2c')
    >>> check_tasks(["t2c", "t2c"])
    Traceback (most recent call last):
    coreb_core.errors.CorebError: task 't2c' is given twice
    """
    tasks = tuple(tasks)
    for task in tasks:
        if task not in TASKS:
            raise CorebError(f"unknown task {task!r}; use {', '.join(TASKS)}")
        if tasks.count(task) > 1:
            raise CorebError(f"task {task!r} is given twice")
    if not tasks:
        raise CorebError(f"give at least one task of {', '.join(TASKS)}")
    return tasks


def check_count(value: int, what: str) -> int:
    """A count such as top-k or a batch size: a whole number of at least 1.

    >>> check_count(100, "top_k")
    100
    >>> check_count(0, "top_k")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: top_k must be a whole number of at least 1, not 0
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise CorebError(f"{what} must be a whole number of at least 1, not {value!r}")
    return int(value)


WORK_CHARS = 2048  # an encoder reads at most about 512 tokens: characters beyond this cost nothing more


class ProgressPlan(NamedTuple):
    """Each task's share of the run, for progress: (documents, queries, search) fractions summing to 1 overall,
    and where each task starts."""

    weights: list[tuple[float, float, float]]
    starts: list[float]


def progress_plan(tasks: list, prompts: list[tuple[str, str]] | None, cache) -> ProgressPlan:
    """Shares of the run in proportion to its work, so that the time-left estimate extrapolates from steps
    that cost alike: for a dense model, the texts each step must encode (not in the vector cache, nor
    encoded by an earlier step: T2C and C2C share the code corpus), weighted by their length up to
    ``WORK_CHARS``; search gets 2% per task. For BM25, the texts each task scores.

    >>> class Task(NamedTuple):
    ...     docs: list
    ...     queries: list
    >>> plan = progress_plan([Task(["a" * 100] * 3, ["q"]), Task(["b"], ["q2"])], None, None)
    >>> [round(w, 3) for w in plan.weights[0]], [round(x, 3) for x in plan.starts]   # 4 of the 6 texts
    ([0.49, 0.163, 0.013], [0, 0.667])
    """
    if prompts is None:  # lexical: the texts scored
        sizes = [float(len(t.docs) + len(t.queries)) for t in tasks]
        total = sum(sizes) or 1.0
        weights = [(0.98 * len(t.docs) / total, 0.98 * len(t.queries) / total, 0.02 * size / total)
                   for t, size in zip(tasks, sizes)]
    else:
        planned: set[tuple[str, str]] = set()

        def work(texts: list[str], prompt: str) -> float:
            unique = list(dict.fromkeys(texts))
            _, missing = cache.lookup(unique, prompt)
            fresh = [unique[i] for i in missing if (prompt, unique[i]) not in planned]
            planned.update((prompt, t) for t in fresh)
            return sum(1.0 + min(len(t), WORK_CHARS) / 100 for t in fresh)

        raw = [(work(t.docs, dp), work(t.queries, qp)) for t, (qp, dp) in zip(tasks, prompts)]
        encode_total = sum(d + q for d, q in raw)
        if encode_total == 0:  # everything cached: the tasks' sizes
            return progress_plan(tasks, None, None)
        search = 0.02
        scale = (1.0 - search * len(tasks)) / encode_total
        weights = [(d * scale, q * scale, search) for d, q in raw]
    starts = [sum(sum(w) for w in weights[:n]) for n in range(len(weights))]
    return ProgressPlan(weights, starts)


def _read_release(release: str, root: Path | None, tasks: Iterable[str]) -> tuple[list[TaskData], str]:
    """Every task's texts and the corpus fingerprint, read in one go: no Store stays open (nor referenced)
    during the long encode, where a job thread still running at interpreter exit would keep its DuckDB
    connection alive."""
    with Store(release, root) as store:
        return [load_task(store, task) for task in tasks], corpus_fingerprint(store)


def _read_rerank_inputs(release: str, root: Path | None, hits: pd.DataFrame,
                        depth: int) -> tuple[dict[str, str], dict[str, str], pd.DataFrame]:
    """Query and document texts and the candidates to rerank, read before the model loads (see ``_read_release``)."""
    with Store(release, root) as store:
        texts = dict(store.sql("SELECT query_id, query FROM queries").fetchall())
        docs = dict(store.sql("SELECT doc_id, content FROM documents").fetchall())
        return texts, docs, rerank_candidates(hits, depth, store).sort_values(["task", "query_id", "rank"])


def _rerank_pairs(cross: Any, texts: dict[str, str], docs: dict[str, str], top: pd.DataFrame) -> list[tuple[str, str]]:
    """The (query, document) texts of ``top``'s rows in order, each query's group cut to what the cross-encoder's
    truncation keeps (``cut_groups``: the same token ids, a fraction of the tokenizing)."""
    groups = top.groupby(["task", "query_id"], sort=False)["doc_id"]
    keys = [(q, list(ds)) for (_, q), ds in groups]
    cut = cut_groups(cross.tokenizer, [(texts[q], [docs[d] for d in ds]) for q, ds in keys],
                     getattr(cross, "max_seq_length", None) or getattr(cross.tokenizer, "model_max_length", None))
    by_row = {}
    for (q, ds), (qt, dts) in zip(keys, cut):
        by_row.update({(q, d): (qt, dt) for d, dt in zip(ds, dts)})
    return [by_row[q, d] for q, d in zip(top["query_id"], top["doc_id"])]


def _timed(into: list, encoder: "_Encoder | _Side", *args) -> tuple[np.ndarray, int]:
    """``encode_cached(encoder, *args)``, adding its texts encoded, its seconds and its CPU seconds (less any
    model load it triggered) to ``into`` = [texts, seconds, CPU seconds]."""
    start, loaded = time.perf_counter(), encoder.load_seconds
    cpu, loaded_cpu = run_cpu_seconds(), encoder.load_cpu_s
    vectors, n = encode_cached(encoder, *args)
    if n:  # a step served wholly by the cache timed only cache look-ups: not the model's speed
        into[0] += n
        into[1] += time.perf_counter() - start - (encoder.load_seconds - loaded)
        into[2] += max(0.0, run_cpu_seconds() - cpu - (encoder.load_cpu_s - loaded_cpu))
    return vectors, n


def _cost(timed: dict[str, list], encoded: int, cached: int, meter: MemoryMeter, device: str, precision: str,
          batch_size: int | None, load_start: float | None, remote: bool = False) -> RunCost:
    """The run's cost record from its timed steps, the memory meter and the load average at the start. ``remote``
    (an API model): no CPU seconds, its time is the provider's and the network's (ranked by wall time)."""
    rss, scope, gpu = meter.peaks()
    (nd, sd, cd), (nq, sq, cq) = timed["documents"], timed["queries"]
    seconds = sd + sq if batch_size else timed["lexical"][1]  # lexical: documents_s and queries_s stay 0
    cpu = cd + cq if batch_size else timed["lexical"][2]
    return RunCost(ENCODE if batch_size else LEXICAL_COST, device, precision, nd + nq, round(seconds, 4), cached,
                   nd, round(sd, 4), nq, round(sq, 4), batch_size, torch_threads() if batch_size else None,
                   cpus_available(), rss, scope, gpu, None if remote else round(cpu, 4), load_start, load_average())


def run_retrieval(model: str, release: str, tasks: tuple[str, ...] = tuple(TASKS), device: str = "auto",
                  batch_size: int = 64, top_k: int = DEFAULT_TOP_K, progress: Progress = silent,
                  root: Path | None = None, model_loader=load_encoder,
                  profile: str = DEFAULT_PROFILE, backend: str = "torch", encoding: Encoding | None = None,
                  label: str | None = None) -> RetrievalResult:
    """Encode (or fetch from the cache), search exactly, store the run with provenance.
    ``profile`` is ``official`` (as coreb_runner 0.1.0 encodes) or ``card`` (as the model's card
    says); BM25 has no encoder and ignores it. ``backend`` "openvino" / "openvino-bf16" runs the official profile
    on OpenVINO (CPU, float32 / bfloat16, each its own embedding cache). ``encoding``, when given, replaces the
profile's (a protocol waterfall step: ``coreb_core.retrieval.protocol_steps``) and ``label`` the run's name. ``model_loader(spec, encoding, device)`` loads the
    encoder when something must be encoded (the app passes a cached one, so a model is loaded once
    per server).

    Example (CoREB-mini in ``root``):

    >>> result = run_retrieval("bm25", "demo_v2603", root=root)
    >>> result.release, result.texts_encoded, result.run_id   # doctest: +ELLIPSIS
    ('demo_v2603', 0, 'bm25__demo_v2603__...')
    >>> run_meta(result.run_id, root).tasks
    ('t2c', 'c2c', 'c2t')
    """
    start = time.perf_counter()
    check_profile(profile)
    tasks, top_k, batch_size = check_tasks(tasks), check_count(top_k, "top_k"), check_count(batch_size, "batch_size")
    check_device(device)
    spec = resolve(model)
    if spec.kind == "dense":
        ensure_available(spec)  # fail within seconds, before any work, when a hub model cannot be had
    loaded, fingerprint = _read_release(release, root, tasks)
    used_device = pick_device(device) if spec.kind == "dense" else "cpu"
    if encoding is None:
        encoding = encoding_for(spec, profile, used_device, backend) if spec.kind in ("dense", "api") else None
    elif spec.kind != "dense":
        raise CorebError(f"{spec.id} has no encoder, so it takes no encoding")
    if encoding and encoding.backend in ("transformers", "openvino") and Path(spec.name).is_dir():
        check_folder_positions(Path(spec.name))  # before any progress: the runner's 512 tokens must fit
    encoder = _Encoder(spec, encoding, used_device, progress, model_loader) if encoding else None
    caches = side_caches(spec, encoding, root) if encoding else None
    cache = caches["document"] if caches else None
    api_est = _api_estimate(spec, loaded, caches) if spec.kind == "api" and caches else None
    frames, prompts, encoded, timings = [], {}, 0, {"encode": 0.0, "search": 0.0}
    meter, load_start = MemoryMeter(used_device), load_average()
    # The cost record's counts: per step (documents, queries) the texts the model encoded and the seconds it
    # took them (the model's load left out); every (prompt, text) the run needed, to count what the cache served.
    timed = {"documents": [0, 0.0, 0.0], "queries": [0, 0.0, 0.0], "lexical": [0, 0.0, 0.0]}
    needed: set[tuple[str, str, str]] = set()  # (side for an API model, prompt, text)
    plan = progress_plan(loaded, [encoding.prompt(t)[:2] for t in tasks] if encoding else None, cache)
    for n, (task, data) in enumerate(zip(tasks, loaded)):
        task_start, (docs_w, queries_w, search_w) = plan.starts[n], plan.weights[n]
        step = part_of(progress, f"{task}: ", task_start, 1.0)  # fractions of the whole run, from the task's start
        t0, cpu0 = time.perf_counter(), run_cpu_seconds()
        if encoding is None:
            scores = LEXICAL[spec.id](data.queries, data.docs)
            timed["lexical"][2] += run_cpu_seconds() - cpu0
            timings["search"] += time.perf_counter() - t0
            # BM25 indexes the documents and scores the queries in one call: one time for both, not split
            timed["documents"][0] += len(data.docs)
            timed["queries"][0] += len(data.queries)
            timed["lexical"][1] += time.perf_counter() - t0
            prompts[task] = {"query": "", "document": "", "source": "BM25: no encoder"}
        else:
            qp, dp, source = encoding.prompt(task)
            prompts[task] = {"query": qp, "document": dp, "source": source}
            pool = _pool_factory(used_device, encoding)
            assert encoder is not None and caches is not None  # both exist whenever there is an encoding
            # an API model with task types has two caches: a text's query and document vectors differ with no prompt
            sided = ("q", "d") if caches["query"] is not caches["document"] else ("", "")
            needed.update((sided[1], dp, t) for t in data.docs)
            needed.update((sided[0], qp, t) for t in data.queries)
            docs_enc, queries_enc = encoder.side("document"), encoder.side("query")
            dv, nd = _timed(timed["documents"], docs_enc, data.docs, dp, caches["document"], batch_size,
                            spec.normalize, part_of(step, "", 0.0, docs_w), "documents", pool)
            qv, nq = _timed(timed["queries"], queries_enc, data.queries, qp, caches["query"], batch_size,
                            spec.normalize, part_of(step, "", docs_w, queries_w), "queries", pool)
            if dv.shape[1] != qv.shape[1]:
                # The documents came from a shard written before checksums whose width the encoder has just
                # contradicted (the cache dropped it on storing the queries' vectors): fetch them again.
                dv, nd2 = _timed(timed["documents"], docs_enc, data.docs, dp, caches["document"], batch_size,
                                 spec.normalize, part_of(step, "", 0.0, docs_w), "documents", pool)
                nd += nd2
            encoded += nd + nq
            t1 = time.perf_counter()
            timings["encode"] += t1 - t0
            scores = dense_scores(qv, dv, used_device)
            timings["search"] += time.perf_counter() - t1
        frames.append(hits_from_scores(task, data.query_ids, data.doc_ids, scores, top_k, data.keep, data.counted))
        step("searched", docs_w + queries_w + search_w)
    hits = concat_hits(frames)
    run_profile = encoding.profile if encoding else None
    run_id = new_run_id(f"{spec.id}-{run_profile}" if run_profile else spec.id, release)
    meta = RunMeta(
        run_id=run_id, kind="retrieval", release=release, tasks=tuple(tasks), model=spec.id,
        profile=run_profile, model_spec=spec.describe(), prompts=prompts,
        encoding=({**encoding.describe(), "pooling_seen": encoder.pooling_seen(), **_api_record(spec, encoder, api_est)}
                  if encoding and encoder else None),
        device=used_device, precision=encoding.precision if encoding else "none",
        batch_size=batch_size, top_k=top_k, packages=package_versions(),
        corpus_fingerprint=fingerprint, texts_encoded=encoded,
        timings_s={**{k: round(v, 3) for k, v in timings.items()},
                   "model_load": round(encoder.load_seconds if encoder else 0.0, 3),
                   "total": round(time.perf_counter() - start, 3)},
        cost=_cost(timed, encoded, max(0, len(needed) - encoded), meter, used_device,
                   encoding.precision if encoding else "none", batch_size if encoding else None, load_start,
                   spec.kind == "api"),
        created=time.strftime("%Y-%m-%dT%H:%M:%S"))
    meta = replace(meta, label=label or run_name(meta))
    with Store(release, root) as store:  # the judged rows first, for the first evaluation to read alone
        write_run(hits, meta, root, store=store)
    progress("done", 1.0)
    warnings = [w for c in {id(c): c for c in caches.values()}.values() for w in c.warnings] if caches else []
    return RetrievalResult(run_id, release, encoded, time.perf_counter() - start, tuple(warnings))


def _api_record(spec: ModelSpec, encoder: _Encoder, est: ApiEstimate | None) -> dict:
    """What an API run's provenance adds to its encoding: provider, model, dimensions, task types, retries and the
    estimate made before it started. Never the key, nor the base URL (which may carry credentials): only whether
    one was set."""
    if spec.kind != "api":
        return {}
    from coreb_core.retrieval.api_encoders import PROVIDERS, base_url

    provider = PROVIDERS[spec.provider or ""]
    model = encoder.model
    return {"api": {"provider": provider.name, "model": spec.name, "dims": getattr(model, "width", None) or spec.dims,
                    "dims_asked": spec.dims, "task_types": dict(zip(("query", "document"), provider.task_types)),
                    "base_url_overridden": base_url(provider) is not None, "base_url_var": provider.base_url_var,
                    "retries": getattr(model, "retries", 0), **(est.record() if est else {})}}


def rerank_candidates(hits: pd.DataFrame, depth: int, store: Store) -> pd.DataFrame:
    """What a reranker sees: each query's first ``depth`` hits of the first stage's complete prefix, i.e.
    exactly min(depth, corpus) documents. Never the judged documents a run also stores below its top-k
    (an oracle: only the relevant and the traps would reach the reranker). A first stage that stored
    fewer than that for some query is refused: run it with ``--top-k`` of at least the depth.

    Example (CoREB-mini and a BM25 run in ``root``, stored with the default top-k 100):

    >>> hits = read_hits(bm25, root)
    >>> len(rerank_candidates(hits, 20, store))   # 1,200 queries, 20 candidates each
    24000
    >>> rerank_candidates(hits, 128, store)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: the first stage stored only its top 100 for 1200 queries; reranking the top 128
    needs a first stage run with --top-k 128 or more
    """
    corpus = dict(store.sql("SELECT corpus, count(*) FROM documents GROUP BY ALL").fetchall())
    prefix = hits[hits["in_top_k"].astype(bool) & hits["doc_id"].notna()]
    stored = prefix.groupby(["task", "query_id"], observed=True).size().rename("stored").reset_index()
    stored["needed"] = [min(depth, corpus[CORPUS_OF[str(t)]]) for t in stored["task"]]
    short = stored[stored["stored"] < stored["needed"]]
    if len(short):
        raise CorebError(f"the first stage stored only its top {int(short['stored'].min())} for {len(short)} "
                         f"queries; reranking the top {depth} needs a first stage run with --top-k {depth} or more")
    return prefix[prefix["rank"] <= depth]


def rerank_run(first_stage: str, model: str, depth: int = 128, batch_size: int = 32, device: str = "auto",
               progress: Progress = silent, root: Path | None = None) -> RetrievalResult:
    """Re-score each query's first-stage top ``depth`` with a sentence-transformers CrossEncoder.

    The candidates are ``rerank_candidates``: exactly min(depth, corpus) documents per query. Reranked
    documents come first (by cross-encoder score), then the rest of the first-stage list in its order.
    Stored as its own run, linked to the first stage.

    Example (CoREB-mini and a BM25 run in ``root``; needs a sentence-transformers CrossEncoder in the local
    Hugging Face cache and minutes on a CPU, so it is skipped):

    >>> rerank_run(bm25, "cross-encoder/ms-marco-MiniLM-L-6-v2", depth=20, root=root).run_id  # doctest: +SKIP
    'bm25-rerank__demo_v2603__...'
    """
    start = time.perf_counter()
    depth, batch_size = check_count(depth, "depth"), check_count(batch_size, "batch_size")
    check_device(device)
    meta0 = run_meta(first_stage, root)
    release = meta0.made_on()
    hits = read_hits(first_stage, root)
    hits["task"], hits["query_id"], hits["doc_id"] = (hits[c].astype(str) for c in ("task", "query_id", "doc_id"))
    texts, docs, top = _read_rerank_inputs(release, root, hits, depth)
    used_device = pick_device(device)
    path = Path(model)
    if not path.is_dir():
        from coreb_core.retrieval.models import ensure_available

        ensure_available(ModelSpec(model.replace("/", "__"), "dense", model))
    from sentence_transformers import CrossEncoder

    cross = CrossEncoder(str(path) if path.is_dir() else model, device=used_device)
    pairs = _rerank_pairs(cross, texts, docs, top)
    scores = np.empty(len(pairs), dtype=np.float64)
    for i in range(0, len(pairs), 512):
        scores[i:i + 512] = cross.predict(pairs[i:i + 512], batch_size=batch_size, show_progress_bar=False)
        progress(f"reranked {min(i + 512, len(pairs))}/{len(pairs)} pairs", min(1.0, (i + 512) / max(1, len(pairs))))
    top = top.assign(ce=scores, key=trec_order_key(scores))
    rest = hits.drop(index=top.index)
    top = top.sort_values(["task", "query_id", "key", "doc_id"], ascending=[True, True, False, False]).drop(columns="key")
    top["rank"] = top.groupby(["task", "query_id"]).cumcount() + 1
    top["score"] = top["ce"]
    rest = rest.assign(rank=rest["rank"])  # positions beyond depth keep their first-stage ranks
    out = pd.concat([top.drop(columns="ce"), rest], ignore_index=True)
    out["in_top_k"] = out["in_top_k"].astype(bool)
    profile = meta0.profile  # the first stage's encoding, kept in the reranked run's label
    run_id = new_run_id(f"{meta0.model}+rerank" + (f"-{profile}" if profile else ""), release)
    meta = RunMeta(run_id=run_id, release=meta0.release, tasks=meta0.tasks, corpus_fingerprint=meta0.corpus_fingerprint,
                   kind="rerank", model=f"{meta0.model}+rerank", profile=profile, first_stage=first_stage,
                   reranker=model, rerank_depth=depth, device=used_device, packages=package_versions(),
                   created=time.strftime("%Y-%m-%dT%H:%M:%S"),
                   timings_s={"total": round(time.perf_counter() - start, 3)})
    meta = replace(meta, label=run_name(meta))
    write_run(out, meta, root)
    return RetrievalResult(run_id, release, 0, time.perf_counter() - start)
