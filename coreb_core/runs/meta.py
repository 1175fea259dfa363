"""A run's provenance, as its ``run.json`` records it (``RunMeta``), and its one name: the name every picker,
table, sentence, report, CLI line and SQL table shows (``run_name``), made distinct within a release
(``name_runs``), with the checks on names and tags a user types.

Example:
    >>> run_name(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))
    'minilm · card · demo_v2603'
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, cast

from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.runs.cost import RunCost
from coreb_core.text import invisible_chars, name_key, quoted_id


@dataclass(frozen=True)
class RunMeta:
    """A run's provenance, stored as ``run.json`` beside its hits.

    Every key any writer has stored is a field (None: not recorded, e.g. BM25 has no encoding, old
    runs have no profile); keys this class does not know are kept in ``extra`` and written back as
    they were, so a ``run.json`` from an older or newer version round-trips unchanged.

    >>> meta = RunMeta.from_json({"run_id": "r1", "model": "bm25", "tasks": ["t2c"], "note": "kept"})
    >>> meta.model, meta.tasks, meta.extra["note"], meta.device
    ('bm25', ('t2c',), 'kept', None)
    >>> meta.to_json()
    {'note': 'kept', 'run_id': 'r1', 'model': 'bm25', 'tasks': ['t2c']}
    """
    run_id: str
    release: str | None = None
    kind: str | None = None  # retrieval, rerank, imported (None: stored before kinds existed)
    model: str | None = None
    profile: str | None = None  # encoding profile of a dense run (official, card)
    label: str | None = None
    name: str | None = None  # the human name shown everywhere (None: not stored yet, see default_run_name)
    tags: tuple[str, ...] | None = None  # free-text tags the user gave
    tasks: tuple[str, ...] | None = None
    created: str | None = None
    source: str | None = None  # imported runs: where they came from
    source_file: str | None = None
    first_stage: str | None = None  # reranked runs: the run they reorder
    reranker: str | None = None
    rerank_depth: int | None = None
    model_spec: dict[str, Any] | None = None
    encoding: dict[str, Any] | None = None
    prompts: dict[str, Any] | None = None
    device: str | None = None
    precision: str | None = None
    batch_size: int | None = None
    top_k: int | None = None
    packages: dict[str, Any] | None = None
    corpus_fingerprint: str | None = None
    texts_encoded: int | None = None
    timings_s: dict[str, Any] | None = None
    cost: RunCost | None = None  # measured while the run was made (None: not measured, e.g. older runs)
    extra: dict[str, Any] = field(default_factory=dict)

    def made_on(self) -> str:
        """The release the run was made on; a one-line CorebError for a run file that records none.

        >>> RunMeta("r1", release="demo_v2603").made_on()
        'demo_v2603'
        >>> RunMeta("r1").made_on()
        Traceback (most recent call last):
        coreb_core.errors.CorebError: run r1 records no release
        """
        if self.release is None:
            raise CorebError(f"run {self.run_id} records no release")
        return self.release

    def to_json(self) -> dict[str, Any]:
        """The ``run.json`` object: recorded fields (None ones left out) and the unknown keys as read.

        >>> RunMeta("r1", model="bm25", tasks=("t2c",), extra={"note": "kept"}).to_json()
        {'note': 'kept', 'run_id': 'r1', 'model': 'bm25', 'tasks': ['t2c']}
        """
        out = {name: getattr(self, name) for name in META_FIELDS if getattr(self, name) is not None}
        for name in ("tasks", "tags"):
            if getattr(self, name) is not None:
                out[name] = list(getattr(self, name))
        if self.cost is not None:
            out["cost"] = self.cost.to_json()
        return {**self.extra, **out}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str | Path = "run.json") -> "RunMeta":
        """Read a ``run.json`` object; a loud one-line error naming ``source`` and the field when a
        known field has the wrong type (format drift).

        >>> RunMeta.from_json({"run_id": "r1", "top_k": 100}).top_k
        100
        >>> RunMeta.from_json({"run_id": "r1", "top_k": "100"}, "runs/r1/run.json")
        Traceback (most recent call last):
        coreb_core.errors.CorebError: runs/r1/run.json: field 'top_k' is str, expected int
        """
        if not isinstance(data, Mapping):
            raise CorebError(f"{source}: run metadata is not a JSON object")
        values: dict[str, Any] = {}
        for name, kinds in META_TYPES.items():
            value: Any = data.get(name)
            if value is None:
                continue
            if name == "cost":  # its own fields, checked one by one (``cost.seconds``)
                values[name] = RunCost.from_json(value, source)
                continue
            if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
                raise CorebError(f"{source}: field {name!r} is {type(value).__name__}, expected "
                                 f"{' or '.join(k.__name__ for k in kinds)}")
            value = cast(Any, value)  # a list for tasks and tags (isinstance above narrowed it to object)
            if name == "tags" and not all(isinstance(t, str) for t in value):
                raise CorebError(f"{source}: field 'tags' holds a non-string item")
            if name == "tasks" and not all(t in TASK_NAMES for t in value):
                bad = next(t for t in value if t not in TASK_NAMES)
                raise CorebError(f"{source}: field 'tasks': {repr(bad):.80} is not a CoREB task "
                                 f"({', '.join(TASK_NAMES)})")
            values[name] = tuple(value) if name in ("tasks", "tags") else value
        if "run_id" not in values:
            raise CorebError(f"{source}: field 'run_id' is missing")
        check_run_id(values["run_id"], f"{source}: field 'run_id': ")
        return cls(**values, extra={k: v for k, v in data.items() if k not in META_FIELDS})


META_FIELDS = tuple(f.name for f in fields(RunMeta) if f.name != "extra")


# The JSON types each known field may hold; anything else is format drift.
META_TYPES: dict[str, tuple[type, ...]] = {
    name: {"tasks": (list, tuple), "tags": (list, tuple), "rerank_depth": (int,), "batch_size": (int,), "top_k": (int,),
           "texts_encoded": (int,), "model_spec": (dict,), "encoding": (dict,), "prompts": (dict,),
           "packages": (dict,), "timings_s": (dict,), "cost": (dict,)}.get(name, (str,))
    for name in META_FIELDS}


def run_name(meta: RunMeta) -> str:
    """A run's one name, the same in every picker, table, chart, sentence, report, CLI line and SQL
    table: the name it was stored with (or renamed to), else its default ``<model> · <profile> ·
    <release>`` (``default_run_name``).

    >>> run_name(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))
    'minilm · card · demo_v2603'
    >>> run_name(RunMeta("r1", model="minilm", profile="card", name="minilm baseline"))
    'minilm baseline'
    """
    return meta.name or default_run_name(meta)


NAME_MAX = 80  # characters in a run's name: it must fit a picker and a chart axis


TAG_MAX = 40  # characters in one tag


def default_run_name(meta: RunMeta) -> str:
    """A run's name before the user gives one: ``<model> · <profile> · <release>``, leaving out what the
    run does not have (BM25 and imported runs have no encoding profile). Not yet made distinct: see
    ``name_runs``.

    >>> default_run_name(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))
    'minilm · card · demo_v2603'
    >>> default_run_name(RunMeta("r2", model="bm25", release="demo_v2603"))
    'bm25 · demo_v2603'
    """
    return " · ".join(str(p) for p in (meta.model or meta.run_id, meta.profile, meta.release) if p)


_ID_TIME = re.compile(r"__(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-[0-9a-f]+$")


def run_created(meta: RunMeta) -> str:
    """When a run was made, as ISO text: its ``created`` field, else the time in its id (imported runs
    record none), else ``""``. Sorting on it gives creation order.

    >>> run_created(RunMeta("mine__tiny__20261201T010700-25ce00"))
    '2026-12-01T01:07:00'
    >>> run_created(RunMeta("r1", created="2026-11-30T10:00:00")), run_created(RunMeta("r1"))
    ('2026-11-30T10:00:00', '')
    """
    if meta.created:
        return str(meta.created)
    m = _ID_TIME.search(meta.run_id)
    return f"{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6]}" if m else ""


def distinct_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base (2)``, ``base (3)``, … the first one not in ``taken`` (look-alikes count as
    taken: case, full-width forms and invisible characters ignored, see ``name_key``).

    >>> distinct_name("bm25 · demo_v2603", ["bm25 · demo_v2603", "BM25 · demo_v2603 (2)"])
    'bm25 · demo_v2603 (3)'
    """
    used = {name_key(t) for t in taken}
    name, n = base, 1
    while name_key(name) in used:
        n += 1
        name = f"{base} ({n})"
    return name


def name_runs(metas: Iterable[RunMeta]) -> list[RunMeta]:
    """The same runs, in the same order, each with a ``name``: a stored name is kept; a run stored
    without one (older ``run.json`` files) gets its default name, made distinct within its release in
    creation order (the first ``bm25 · demo_v2603``, the next ``bm25 · demo_v2603 (2)``).

    >>> old = [RunMeta("b", model="bm25", release="v", created="2026-12-02"),
    ...        RunMeta("a", model="bm25", release="v", created="2026-12-01"),
    ...        RunMeta("c", model="bm25", release="w", created="2026-12-03")]
    >>> [m.name for m in name_runs(old)]
    ['bm25 · v (2)', 'bm25 · v', 'bm25 · w']
    """
    metas = list(metas)
    taken: dict[str | None, list[str]] = {}
    for m in metas:
        if m.name:
            taken.setdefault(m.release, []).append(m.name)
    named: dict[str, str] = {}
    for m in sorted((m for m in metas if not m.name), key=lambda m: (run_created(m), m.run_id)):
        names = taken.setdefault(m.release, [])
        named[m.run_id] = distinct_name(default_run_name(m), names)
        names.append(named[m.run_id])
    return [m if m.name else replace(m, name=named[m.run_id]) for m in metas]


def _check_text(text: str, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise CorebError(f"{what} must be text")
    # One form for what looks the same: an NFD "é" (e + combining accent) is stored as the NFC "é".
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise CorebError(f"{what} is empty")
    if len(text) > limit:
        raise CorebError(f"{what} is {len(text)} characters long; at most {limit} are allowed")
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp")]
    if bad:
        raise CorebError(f"{what} {text!r} holds a control character ({bad[0]!r}); use plain text on one line")
    hidden = invisible_chars(text)
    if hidden:  # a name with a zero-width space or a right-to-left override looks like another one
        raise CorebError(f"{what} {text!r} holds an invisible or direction-changing character "
                         f"(U+{ord(hidden[0]):04X}); use plain text")
    return text


def check_run_name(name: str) -> str:
    """A run name as given by the user, in NFC and stripped; a one-line CorebError when it is empty,
    longer than ``NAME_MAX`` characters, holds a control character (a line break, a tab, an escape) or an
    invisible or bidirectional one (``invisible_chars``: a zero-width space, U+202E), named by code point.

    >>> check_run_name("  minilm baseline ")
    'minilm baseline'
    >>> check_run_name("two\\nlines")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: run name 'two\\nlines' holds a control character ('\\n'); use plain text on one line
    >>> check_run_name("bm25\\u202e")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: run name 'bm25\\u202e' holds an invisible or direction-changing character (U+202E); use plain text
    >>> check_run_name("caf\\u0065\\u0301") == "caf\\u00e9"
    True
    """
    return _check_text(name, "run name", NAME_MAX)


def check_tag(tag: str) -> str:
    """A tag as given by the user, in NFC and stripped; a one-line CorebError when it is empty, longer than
    ``TAG_MAX`` characters, holds a comma (the page separates tags with commas), a control character or
    an invisible or bidirectional one (as ``check_run_name``).

    >>> check_tag(" baseline ")
    'baseline'
    >>> check_tag("a,b")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: tag 'a,b' holds a comma; give each tag separately
    """
    tag = _check_text(tag, "tag", TAG_MAX)
    if "," in tag:
        raise CorebError(f"tag {tag!r} holds a comma; give each tag separately")
    return tag


def check_name_free(name: str, run_id: str, others: Iterable[RunMeta]) -> None:
    """A one-line CorebError when another of ``others`` (the runs of the same release) has ``name`` or
    a name that looks like it (``name_key``: case, full-width forms, invisible characters), naming both;
    names tell runs apart in every picker.

    >>> others = [RunMeta("r1", release="v", name="bm25 · v"), RunMeta("r2", release="v", name="mine")]
    >>> check_name_free("\uff42\uff4d\uff12\uff15 · v", "r2", others)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: name 'ｂｍ２５ · v' looks like 'bm25 · v', the name of run r1 on release v; choose another
    >>> check_name_free("mine", "r2", others)   # its own name
    """
    for other in others:
        taken = str(other.name)
        if other.run_id == run_id or name_key(taken) != name_key(name):
            continue
        if taken.casefold() == name.casefold():
            raise CorebError(f"name {name!r} is already used by run {other.run_id} on release {other.release}; "
                             "choose another")
        # the same letters in another Unicode form print alike: escape both so the difference shows
        same_print = unicodedata.normalize("NFC", taken) == name
        shown, theirs = (quoted_id(name, 400), quoted_id(taken, 400)) if same_print else (repr(name), repr(taken))
        raise CorebError(f"name {shown} looks like {theirs}, the name of run {other.run_id} on release "
                         f"{other.release}; choose another")


def parse_tags(text: str) -> list[str]:
    """Tags typed as one comma-separated line, stripped, empty pieces dropped, each checked (``check_tag``).

    >>> parse_tags(" baseline, demo ,, final")
    ['baseline', 'demo', 'final']
    """
    return [check_tag(t) for t in text.split(",") if t.strip()]


# A run id is a folder name under the runs folder: never a path, "..", a hidden temporary (atomic.py) or an
# option-like "-x" on the command line.
RUN_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")


RUN_ID_RULE = "1 to 200 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_'"


def check_run_id(run_id: object, where: str = "") -> str:
    """``run_id`` when it is a safe run id (``RUN_ID``); else a one-line CorebError starting with ``where``.

    >>> check_run_id("bm25__demo_v2603__20261201T062218-f8c8b6")
    'bm25__demo_v2603__20261201T062218-f8c8b6'
    >>> check_run_id("../runs/x")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: not a run id: '../runs/x' (1 to 200 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_')
    """
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id):
        raise CorebError(f"{where}not a run id: {quoted_id(run_id)} ({RUN_ID_RULE})")
    return run_id
