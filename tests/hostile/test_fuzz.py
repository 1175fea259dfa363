"""Random malformed input, bounded in time and reproducible: dataset rows (JSONL) with wrong types, huge
integers, lone surrogates, missing fields, nested objects and lines that are no objects go into
``import-data``; random TREC run lines (odd ranks, scores and ids, wrong column counts, bytes that are no
UTF-8) go into ``eval --run-file``. Every example keeps the contract: success (and then the cache is
readable), or exit status 2 with ``error:`` lines that each name the file; never another exception, and
on failure the cache is byte-identical.
"""
from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st

from coreb_core.cli import main
from coreb_core.data.schema import CONFIGS
from tests import dump
from tests.hostile.conftest import tree_digest

# derandomize: the same examples on every machine (CI is reproducible), so a failure needs no shrinking
# to be replayed (shrinking one took over five minutes: every example runs a command); deadline: a slow
# path fails the example; max_examples: about 10 s per test on a loaded 2-core machine.
BOUNDED = settings(max_examples=20, deadline=timedelta(seconds=10), derandomize=True, database=None,
                   phases=(Phase.explicit, Phase.generate),
                   suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture
def tiny(tiny_cache, capsys) -> Path:
    """The tiny release's cache, with both commands run once on good input: their first call imports
    modules for seconds, which must not count as an example's time (the deadline)."""
    cache = tiny_cache
    assert main(["import-data", str(dump.write_jsonl(cache.parent / "warm", dump.rows())), "--release", "warm"]) == 0
    run = cache.parent / "warm.trec"
    run.write_text("q_t2c_canonical_retro_any_0001 Q0 code_v202601_00001 1 0.9 warm\n")
    assert main(["eval", "--release", "tiny", "--run-file", str(run)]) == 0
    capsys.readouterr()
    return cache


def _keeps_the_contract(argv: list[str], root: Path, files: list[Path], capsys) -> int:
    """Run the CLI in-process: status 0, or 2 with only ``error:`` lines each naming one of ``files``
    (or the count of problems not shown) and the cache unchanged. Any other exception fails the example."""
    before = tree_digest(root)
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert lines, "exit status 2 without a line"
        for line in lines:
            assert line.startswith("error: "), line
            assert any(str(f) in line for f in files) or line.startswith("error: (more)"), line
        assert tree_digest(root) == before, "a refused input changed the cache"
    event(f"exit status {code}")  # shown by --hypothesis-show-statistics: both outcomes must occur
    return code


# ---------------------------------------------------------------- dataset rows

SURROGATES = st.sampled_from(["\ud800", "x\udfffy", "\udbff\udc00\ud800"])
BIG_INTS = st.sampled_from([2 ** 63, -2 ** 63 - 1, 2 ** 70, -10 ** 30, 10 ** 400])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), BIG_INTS, st.floats(), st.text(max_size=12), SURROGATES)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.one_of(st.text(max_size=6), SURROGATES),
                                                                       inner, max_size=3)),
                      max_leaves=6)
META_KEYS = ["anchor_code_id", "source_problem_id", "passed", "test_passed", "is_noise_sample", "target_languages"]


@st.composite
def mutations(draw) -> list[tuple]:
    """One to three changes to the tiny release's rows: set a column or a meta key to a hostile value,
    drop a column, or replace a whole line by something that is no object."""
    rows = dump.rows()
    out = []
    for _ in range(draw(st.integers(1, 3))):
        config = draw(st.sampled_from(sorted(rows)))
        index = draw(st.integers(0, len(rows[config]) - 1))
        kind = draw(st.sampled_from(["set", "set", "meta", "drop", "line"]))
        if kind == "set":
            out.append(("set", config, index, draw(st.sampled_from(CONFIGS[config].column_names)), draw(VALUES)))
        elif kind == "meta" and "meta" in CONFIGS[config].column_names:
            out.append(("meta", config, index, draw(st.one_of(st.sampled_from(META_KEYS), SURROGATES)), draw(VALUES)))
        elif kind == "drop":
            out.append(("drop", config, index, draw(st.sampled_from(CONFIGS[config].column_names)), None))
        else:
            out.append(("line", config, index, None, draw(VALUES)))
    return out


def _apply(changes: list[tuple]) -> dict[str, list]:
    rows = dump.rows()
    for kind, config, index, field, value in changes:
        row = rows[config][index]
        if kind != "line" and not isinstance(row, dict):  # an earlier change replaced the whole line
            continue
        if kind == "set":
            row[field] = value
        elif kind == "meta":
            row["meta"] = {**row["meta"], field: value} if isinstance(row.get("meta"), dict) else {field: value}
        elif kind == "drop":
            row.pop(field, None)
        else:
            rows[config][index] = value
    return rows


@BOUNDED
@given(changes=mutations())
@example(changes=[("set", "text2code_queries", 0, "query", "\ud800"), ("set", "code_corpus", 1, "code_length", 2 ** 70)])
@example(changes=[("meta", "code2code_queries", 0, "anchor_code_id", ["code_v202601_00001"])])
def test_random_malformed_dataset_rows(tiny, tmp_path, capsys, changes):
    folder = tmp_path / "fuzz-jsonl"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    files = []
    for config, records in _apply(changes).items():
        path = folder / dump.JSONL_NAMES[config]
        # json.dumps writes lone surrogates as \ud800 escapes and NaN/Infinity as bare words, as Python does.
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        files.append(path)
    code = _keeps_the_contract(["import-data", str(folder), "--release", "fuzz"], tiny, files, capsys)
    if code == 0:  # what was accepted must be readable
        assert main(["info", "--json"]) == 0
        assert "fuzz" in json.loads(capsys.readouterr().out)["releases"]


# ---------------------------------------------------------------- TREC run lines

QUERIES = [r["query_id"] for name in ("text2code_queries", "code2code_queries", "code2text_queries")
           for r in dump.rows()[name]]
DOCS = [r["code_id"] for r in dump.rows()["code_corpus"]] + [r["text_id"] for r in dump.rows()["text_corpus"]]
TOKEN = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=8)
RANKS = st.one_of(st.sampled_from(["²", "٣", "3000000000", str(10 ** 30), "-1", "1.5", "+5", "-0", "1e3", "0x1f"]),
                  st.integers(-2 ** 70, 2 ** 70).map(str), st.integers(0, 20).map(str), TOKEN)
SCORES = st.one_of(st.floats(-1e6, 1e6).map(repr), st.floats().map(repr), st.integers(-10 ** 400, 10 ** 400).map(str),
                   st.sampled_from(["nan", "inf", "-Infinity", "1e999", "١٢", "1_0"]), TOKEN)
GOOD = st.tuples(st.sampled_from(QUERIES), st.just("Q0"), st.sampled_from(DOCS), st.integers(0, 20).map(str),
                 st.floats(-1e6, 1e6).map(repr), st.just("run")).map(lambda parts: " ".join(parts).encode())
# Known ids with a hostile rank or score: weighted, since only such lines reach the ranking.
NUMBERS = st.tuples(st.sampled_from(QUERIES), st.just("Q0"), st.sampled_from(DOCS), RANKS, SCORES, TOKEN) \
    .map(lambda parts: " ".join(parts).encode())
ODD = st.one_of(
    NUMBERS, NUMBERS, NUMBERS,
    st.tuples(st.one_of(st.sampled_from(QUERIES), TOKEN), TOKEN, st.one_of(st.sampled_from(DOCS), TOKEN), RANKS,
              SCORES, TOKEN).map(lambda parts: "\t".join(parts).encode()),
    st.lists(TOKEN, max_size=8).map(lambda parts: " ".join(parts).encode()),
    st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=12),
)


@st.composite
def run_files(draw) -> list[bytes]:
    """Well-formed lines (each query and document once), and in most files one odd line somewhere: so that
    both the reader's refusals and the evaluation of what it accepts are exercised."""
    lines = draw(st.lists(GOOD, min_size=1, max_size=6, unique_by=lambda line: tuple(line.split()[0:3:2])))
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(ODD))
    return lines


@BOUNDED
@given(lines=run_files())
@example(lines=[b"q_t2c_canonical_retro_any_0001 Q0 code_v202601_00001 \xc2\xb2 0.9 run"])
@example(lines=[b"q_t2c_canonical_retro_any_0001 Q0 code_v202601_00001 3000000000 0.9 run"])
def test_random_trec_run_lines(tiny, tmp_path, capsys, lines):
    path = tmp_path / "fuzz.trec"
    path.write_bytes(b"\n".join(lines) + b"\n")
    _keeps_the_contract(["eval", "--release", "tiny", "--run-file", str(path)], tiny, [path], capsys)
