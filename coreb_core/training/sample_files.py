"""Samples files: written in one atomic step (JSON lines, or parquet for ``.parquet``), read back with a check of
every line against the protocol's schema, and tied to the cached release they were made from.

A JSON-lines file is one sample per line, keys in the article's order, UTF-8, no ASCII escapes, ``\\n`` endings:
the same samples give the same bytes. Both kinds load with ``datasets.load_dataset("json" / "parquet", …)``.

Example:
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "s.jsonl"
    >>> s = Sample("q_t2c_search_go_0001", "text2code", "t2c_search_go", "Sum.", (Passage("code_v202603_00001", "a+b"),),
    ...            (Passage("code_v202603_00002", "a-b"),), ())
    >>> write_samples([s], path)
    >>> read_samples(path) == [s]
    True
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Iterable, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_open
from coreb_core.data.schema import CORPUS_OF_TASK, SUBTASKS
from coreb_core.data.store import Store, list_releases
from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.training.samples import SHORT_TASK, Passage, Sample

FIELDS = ("query_id", "task", "subtask", "query", "pos", "hard_neg", "easy_neg")
PASSAGE_LISTS = ("pos", "hard_neg", "easy_neg")
TRIPLET_COLUMNS = ("anchor", "positive")  # sentence-transformers' n-tuple columns (then negative_1, …)


def sample_lines(samples: Iterable[Sample]) -> Iterable[str]:
    """Each sample as its JSON line (with its ``\\n``).

    >>> next(sample_lines([Sample("q", "code2text", "c2t_match", "x", (), (), ())]))
    '{"query_id": "q", "task": "code2text", "subtask": "c2t_match", "query": "x", "pos": [], "hard_neg": [], "easy_neg": []}\\n'
    """
    for s in samples:
        yield json.dumps(s.to_json(), ensure_ascii=False) + "\n"


_PASSAGE_TYPE = pa.list_(pa.struct([("id", pa.string()), ("text", pa.string())]))
_MINED_TYPE = pa.list_(pa.struct([("id", pa.string()), ("text", pa.string()), ("rank", pa.int64()),
                                  ("grade", pa.string())]))


def samples_table(samples: list[Sample]) -> pa.Table:
    """The samples as an Arrow table (the parquet download): the schema's columns, passages as lists of structs
    (with ``rank`` and ``grade`` when the negatives were mined)."""
    mined = any(p.grade is not None for s in samples for p in s.hard_neg)
    rows = [s.to_json() for s in samples]
    schema = pa.schema([(f, pa.string()) for f in FIELDS[:4]]
                       + [(f, _MINED_TYPE if mined and f == "hard_neg" else _PASSAGE_TYPE) for f in PASSAGE_LISTS])
    return pa.Table.from_pylist(rows, schema=schema)


def write_samples(samples: Iterable[Sample], path: Path) -> None:
    """Write ``samples`` to ``path`` in one atomic step: parquet when its name ends in ``.parquet``, else JSON lines."""
    path = Path(path)
    with atomic_open(path, "wb") as f:
        write_samples_to(f, samples, parquet=path.suffix == ".parquet")


def write_samples_to(f: IO[bytes], samples: Iterable[Sample], parquet: bool = False) -> None:
    """``samples`` into an open binary file: parquet, or JSON lines (UTF-8) — a download's bytes, or a file's.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> write_samples_to(buffer, [Sample("q", "code2text", "c2t_match", "x", (), (), ())])
    >>> buffer.getvalue()[:14]
    b'{"query_id": "'
    """
    if parquet:
        pq.write_table(samples_table(list(samples)), f)
        return
    for line in sample_lines(samples):
        f.write(line.encode("utf-8"))


def _passages(value: Any, where: str, line: int, field: str, problems: list[DataProblem]) -> tuple[Passage, ...]:
    if not isinstance(value, list):
        problems.append(DataProblem(where, line, field, "must be a list of {id, text} objects", value))
        return ()
    out = []
    for i, p in enumerate(value):
        if not (isinstance(p, dict) and isinstance(p.get("id"), str) and p["id"] and isinstance(p.get("text"), str)):
            problems.append(DataProblem(where, line, f"{field}[{i}]", "must be an object with a text 'id' and 'text'",
                                        p))
            return ()
        rank, grade = p.get("rank"), p.get("grade")
        out.append(Passage(p["id"], p["text"], rank if isinstance(rank, int) else None,
                           grade if isinstance(grade, str) else None))
    return tuple(out)


def _sample(row: Any, where: str, line: int, problems: list[DataProblem]) -> Sample | None:
    """One line's sample, or None with its problems added (each names the line and the field)."""
    if not isinstance(row, dict):
        problems.append(DataProblem(where, line, "-", "must be a JSON object (one sample per line)", row))
        return None
    if all(c in row for c in TRIPLET_COLUMNS) and "query_id" not in row:
        problems.append(DataProblem(where, line, "query_id", "missing: this is a triplets file (anchor, positive, "
                                    "negative_…), not samples in the protocol's schema (python -m coreb_core samples, "
                                    "or mine --format samples)"))
        return None
    missing = [f for f in FIELDS if f not in row]
    if missing:
        problems.append(DataProblem(where, line, missing[0], f"missing (a sample has {', '.join(FIELDS)})"))
        return None
    before = len(problems)
    for f in FIELDS[:4]:
        if not isinstance(row[f], str) or (f != "query" and not row[f]):
            problems.append(DataProblem(where, line, f, "must be a non-empty text", row[f]))
    task, subtask = row["task"], row["subtask"]
    if isinstance(task, str) and task not in SHORT_TASK:
        problems.append(DataProblem(where, line, "task", f"must be one of {', '.join(SHORT_TASK)}", task))
    elif isinstance(task, str) and isinstance(subtask, str) and subtask not in SUBTASKS[SHORT_TASK[task]]:
        problems.append(DataProblem(where, line, "subtask", f"is not a subtask of {task}", subtask))
    lists = {f: _passages(row[f], where, line, f, problems) for f in PASSAGE_LISTS}
    if len(problems) == before and not lists["pos"]:
        problems.append(DataProblem(where, line, "pos", "must hold at least one positive"))
    if len(problems) > before:
        return None
    return Sample(row["query_id"], task, subtask, row["query"], lists["pos"], lists["hard_neg"], lists["easy_neg"])


def read_samples(path: Path) -> list[Sample]:
    """Every sample of a JSON-lines or parquet samples file; a one-line DataError naming the file, line and field
    of the first line that is not a sample of the protocol's schema (the file is not read further).

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "t.jsonl"
    >>> _ = bad.write_text('{"anchor": "q", "positive": "p", "negative_1": "n"}\\n')
    >>> read_samples(bad)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.DataError: .../t.jsonl: row 1: field 'query_id': missing: this is a triplets file ...
    """
    return [s for _, s in read_numbered_samples(path)]


def read_numbered_samples(path: Path) -> list[tuple[int, Sample]]:
    """``read_samples`` with each sample's line number (from 1; a parquet file's row number): what a refusal names.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "s.jsonl"
    >>> _ = path.write_text("\\n" + next(sample_lines([Sample("q", "code2text", "c2t_match", "x",
    ...                                                          (Passage("t", "y"),), (), ())])))
    >>> [n for n, _ in read_numbered_samples(path)]
    [2]
    """
    path = Path(path)
    problems: list[DataProblem] = []
    samples: list[tuple[int, Sample]] = []
    for line, row in _rows(path, problems):
        sample = _sample(row, str(path), line, problems) if not problems else None
        if problems:
            break
        if sample is not None:
            samples.append((line, sample))
    if not problems and not samples:
        problems.append(DataProblem(str(path), "-", "-", "holds no sample"))
    if problems:
        raise DataError(problems[:1])
    return samples


def _rows(path: Path, problems: list[DataProblem]) -> Iterable[tuple[int, Any]]:
    """(line number from 1, parsed row) of a JSON-lines or parquet file; unreadable lines become problems."""
    where = str(path)
    if path.suffix == ".parquet":
        try:
            rows = pq.read_table(path).to_pylist()
        except (pa.ArrowException, OSError) as exc:
            raise CorebError(f"{where}: not a readable parquet file ({' '.join(str(exc).split())[:200]})") from None
        yield from enumerate(rows, start=1)
        return
    try:
        with open(path, encoding="utf-8") as f:
            for n, text in enumerate(f, start=1):
                if not text.strip():
                    continue
                try:
                    yield n, json.loads(text)
                except json.JSONDecodeError as exc:
                    problems.append(DataProblem(where, n, "-", f"not JSON ({exc.msg})", text.strip()))
                    return
    except UnicodeDecodeError:
        raise CorebError(f"{where}: not UTF-8 text; a samples file is JSON lines or parquet") from None


class ReleaseIndex(NamedTuple):
    """What tying samples to a cached release reads from it, in one go: each query's text and source problem, each
    document's text, and every source problem of its queries and documents.

    >>> index = ReleaseIndex.read("demo_v2603", root)
    >>> sample = Sample("q_t2c_search_go_0001", "text2code", "t2c_search_go", "Sum.", (Passage("code_v202603_00001", "a+b"),),
    ...                 (), ())
    >>> index.mismatch(sample)
    ('query_id', 'demo_v2603 has no text2code query q_t2c_search_go_0001')
    """

    release: str
    queries: dict[tuple[str, str], tuple[str, str | None]]  # (task, query id) -> (text, source problem)
    texts: dict[str, dict[str, str]]  # corpus kind -> document id -> text
    problems: frozenset[str]  # every source problem of the release's queries and documents

    @classmethod
    def read(cls, release: str, root: Path | None = None) -> ReleaseIndex:
        """The index of a cached release (its Store opened once)."""
        with Store(release, root) as store:
            q = store.df("SELECT task, query_id, query, problem_id FROM queries")
            d = store.df("SELECT corpus, doc_id, content, problem_id FROM documents")
        queries = {(str(t), str(i)): (text, p if isinstance(p, str) else None)
                   for t, i, text, p in zip(q["task"], q["query_id"], q["query"], q["problem_id"])}
        texts = {str(c): dict(zip(part["doc_id"], part["content"])) for c, part in d.groupby("corpus")}
        problems = frozenset(str(p) for p in (*q["problem_id"], *d["problem_id"]) if isinstance(p, str))
        return cls(release, queries, texts, problems)

    def mismatch(self, sample: Sample) -> tuple[str, str] | None:
        """(field, what differs) for the first part of ``sample`` that this release does not hold as written — its
        query's text under its query id and task, then each positive's text under its id — or None when it holds
        them all (ids alone do not tell: release_v2603 reuses every code id of release_v2602 for other documents)."""
        task = sample.short_task
        known = self.queries.get((task, sample.query_id))
        if known is None:
            return "query_id", f"{self.release} has no {sample.task} query {sample.query_id}"
        if known[0] != sample.query:
            return "query", f"not the text of {self.release}'s {sample.task} query {sample.query_id}"
        corpus = self.texts.get(CORPUS_OF_TASK[task], {})
        for i, p in enumerate(sample.pos):
            text = corpus.get(p.id)
            if text is None:
                return f"pos[{i}]", f"{self.release} has no document {p.id} in its {CORPUS_OF_TASK[task]} corpus"
            if text != p.text:
                return f"pos[{i}]", f"not the text of {self.release}'s document {p.id}"
        return None


def release_indexes(root: Path | None = None) -> dict[str, ReleaseIndex]:
    """The index of every cached release, each Store opened once."""
    return {release: ReleaseIndex.read(release, root) for release in list_releases(root)}


class SamplesSource(NamedTuple):
    """The cached release a samples file is tied to: every line's query text under its query id and task, and its
    positives' texts under their ids, are that release's. ``releases``: every cached release that holds every line
    so (one, unless two releases share those texts); ``problems``: line number -> its query's source problem in the
    first of them."""

    releases: tuple[str, ...]
    problems: dict[int, str | None]

    @property
    def release(self) -> str:
        """The release the file is tied to (the first, when several hold it)."""
        return self.releases[0]


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def samples_release(numbered: list[tuple[int, Sample]], path: Path | str,
                    indexes: dict[str, ReleaseIndex] | None = None, root: Path | None = None) -> SamplesSource:
    """The cached release every line of a samples file is tied to (``SamplesSource``); fails closed: a one-line
    DataError naming the file, the first line that is tied to no cached release or to another release than the
    lines above it, and what differs. A set lookup per line; each release's Store opened once (``indexes``, read
    here when not given).

    >>> with Store("demo_v2603", root) as store:
    ...     from coreb_core.training.samples import build_samples, TRAIN
    ...     samples = build_samples(store, TRAIN)
    >>> samples_release(list(enumerate(samples, start=1)), "s.jsonl", root=root).releases
    ('demo_v2603',)
    >>> other = samples[0]._replace(query="Sum.")
    >>> samples_release([(1, samples[0]), (2, other)], "s.jsonl", root=root)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.DataError: s.jsonl: row 2: field 'query': not the text of demo_v2603's text2code query ... (row 1 is a sample of demo_v2603; this row is a sample of no cached release): a samples file must be of one release
    """
    indexes = release_indexes(root) if indexes is None else indexes
    where = str(path)
    if not numbered:
        raise DataError([DataProblem(where, "-", "-", "holds no sample")])
    if not indexes:
        raise DataError([DataProblem(where, numbered[0][0], "-", "no release is cached, so the samples cannot be "
                                     "tied to one (import the release they were made from)")])
    candidates = list(indexes.values())
    first = previous = numbered[0][0]
    for line, sample in numbered:
        misses = {ix.release: ix.mismatch(sample) for ix in indexes.values()}
        holding = [ix for ix in candidates if misses[ix.release] is None]
        if holding:
            candidates, previous = holding, line
            continue
        if line == first:  # tied to no cached release: report the release that holds the query id, if one does
            release = next((r for r, m in misses.items() if m and m[0] != "query_id"), next(iter(misses)))
            field, why = misses[release] or ("-", "")
            raise DataError([DataProblem(where, line, field, f"{why}, and no other cached release holds this sample: "
                                         "samples tied to no cached release cannot be checked against the test "
                                         "release (make them with python -m coreb_core samples or mine --format "
                                         "samples)")])
        field, why = misses[candidates[0].release] or ("-", "")
        above = f"row {first} is a sample" if previous == first else f"rows {first}–{previous} are samples"
        others = [r for r, m in misses.items() if m is None]
        this = _either(others) if others else "no cached release"
        raise DataError([DataProblem(where, line, field, f"{why} ({above} of "
                                     f"{_either([ix.release for ix in candidates])}; this row is a sample of {this}): "
                                     "a samples file must be of one release")])
    index = candidates[0]
    problems = {line: index.queries[(s.short_task, s.query_id)][1] for line, s in numbered}
    return SamplesSource(tuple(ix.release for ix in candidates), problems)
