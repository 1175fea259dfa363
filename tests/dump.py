"""A tiny CoREB-shaped release written in each real layout, for import tests.

Two problems, six solutions (one failing), one noise family, one query per main subtask kind.
Counts are fixed so tests can assert exact numbers.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

P1, P2 = "lcb_3487", "lcb_abc380_d"


def _code(n: int, lang: str, model: str, pid: str, passed: bool) -> dict[str, Any]:
    code = f"# solution {n} in {lang}\nprint(sum(map(int, input().split())))\n"
    return {"code_id": f"code_v202601_{n:05d}", "code": code, "language": lang, "model": model,
            "code_length": len(code),
            "meta": {"source_problem_id": pid, "solution_key": f"{model}_{lang}", "passed": passed,
                     "pass_rate": 1.0 if passed else 0.5, "test_passed": 4 if passed else 2, "test_total": 4}}


def rows() -> dict[str, list[dict[str, Any]]]:
    code = [
        _code(1, "python", "claude-sonnet-4-5", P1, True),
        _code(2, "cpp", "claude-sonnet-4-5", P1, True),
        _code(3, "python", "gemini-3-flash", P1, False),
        _code(4, "java", "gemini-3-flash", P1, True),
        _code(5, "go", "claude-sonnet-4-5", P2, True),
        _code(6, "ruby", "gemini-3-flash", P2, True),
    ]
    text = [
        {"text_id": "text_v202601_00001", "text_style": "full", "text": "Add two numbers read from input.",
         "text_length": 32, "abbreviated_text": "Sum of two integers.", "meta": {"source_problem_id": P1}},
        {"text_id": "text_v202601_00002", "text_style": "full", "text": "Count vowels in a word.",
         "text_length": 23, "abbreviated_text": "Count vowels.", "meta": {"source_problem_id": P2}},
    ] + [
        {"text_id": f"text_v202601_00001_noise{i}", "text_style": "noise", "text": f"Multiply two numbers, variant {i}.",
         "text_length": 30, "abbreviated_text": None,
         "meta": {"source_problem_id": P1, "is_noise_sample": True, "original_problem_id": P1}}
        for i in range(1, 5)
    ]
    t2c = [
        {"query_id": "q_t2c_canonical_retro_any_0001", "query": "Sum of two integers.", "split": "text2code",
         "subtask": "t2c_canonical_retro_any", "query_type": "canonical", "sub_query_type": "any",
         "language_constraint": "none", "meta": {"source_problem_id": P1}},
        {"query_id": "q_t2c_search_python_0002", "query": "python add two ints", "split": "text2code",
         "subtask": "t2c_search_python", "query_type": "search", "sub_query_type": "python",
         "language_constraint": "python", "meta": {"source_problem_id": P1}},
    ]
    c2c = [
        {"query_id": "q_c2c_cross_lang_0001", "query": code[0]["code"], "split": "code2code",
         "subtask": "c2c_cross_lang", "anchor_language": "python", "anchor_model": "claude-sonnet-4-5",
         "meta": {"source_problem_id": P1, "anchor_code_id": "code_v202601_00001", "target_languages": ["cpp", "java"]}},
    ]
    c2t = [
        {"query_id": "q_c2t_full_retro_any_0001", "query": code[0]["code"], "split": "code2text",
         "subtask": "c2t_full_retro_any", "anchor_language": "python", "anchor_model": "claude-sonnet-4-5",
         "label": None, "text_id": None, "meta": {"source_problem_id": P1, "anchor_code_id": "code_v202601_00001"}},
        {"query_id": "q_c2t_match_0002", "query": code[4]["code"], "split": "code2text", "subtask": "c2t_match",
         "anchor_language": "go", "anchor_model": "claude-sonnet-4-5", "label": 1, "text_id": "text_v202601_00002",
         "meta": {"source_problem_id": P2, "anchor_code_id": "code_v202601_00005", "pair_type": "positive"}},
    ]
    t2c_qrels = [("q_t2c_canonical_retro_any_0001", "code_v202601_00001", 2),
                 ("q_t2c_canonical_retro_any_0001", "code_v202601_00002", 2),
                 ("q_t2c_canonical_retro_any_0001", "code_v202601_00004", 2),
                 ("q_t2c_canonical_retro_any_0001", "code_v202601_00003", 1),
                 ("q_t2c_search_python_0002", "code_v202601_00001", 2),
                 ("q_t2c_search_python_0002", "code_v202601_00003", 1),
                 ("q_t2c_search_python_0002", "code_v202601_00002", 1)]
    c2c_qrels = [("q_c2c_cross_lang_0001", "code_v202601_00002", 2),
                 ("q_c2c_cross_lang_0001", "code_v202601_00004", 2),
                 ("q_c2c_cross_lang_0001", "code_v202601_00003", 1)]
    c2t_qrels = [("q_c2t_full_retro_any_0001", "text_v202601_00001", 2)] + [
        ("q_c2t_full_retro_any_0001", f"text_v202601_00001_noise{i}", 1) for i in range(1, 4)
    ] + [("q_c2t_match_0002", "text_v202601_00002", 2)]

    def qrels(triples):
        return [{"query_id": q, "doc_id": d, "relevance": r} for q, d, r in triples]

    return {"code_corpus": code, "text_corpus": text, "text2code_queries": t2c, "code2code_queries": c2c,
            "code2text_queries": c2t, "text2code_qrels": qrels(t2c_qrels), "code2code_qrels": qrels(c2c_qrels),
            "code2text_qrels": qrels(c2t_qrels)}


EXPECTED_ROWS = {"code_corpus": 6, "text_corpus": 6, "text2code_queries": 2, "code2code_queries": 1,
                 "code2text_queries": 2, "text2code_qrels": 7, "code2code_qrels": 3, "code2text_qrels": 5}
EXPECTED_TASKS = {
    "t2c": {"queries": 2, "positives": 4, "traps": 3, "judged_negatives": 0},
    "c2c": {"queries": 1, "positives": 2, "traps": 1, "judged_negatives": 0},
    "c2t": {"queries": 2, "positives": 2, "traps": 3, "judged_negatives": 0},
}


def hub_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows shaped as the hub's (and ``datasets``): each meta field a flat ``meta_<field>`` column that every
    row carries, null where absent (so an original text's noise flag is null, not false); labels and
    lengths other than the corpus's as floats.
    """
    keys = sorted({k for r in records for k in (r.get("meta") or {})})
    out = []
    for r in records:
        row = {k: v for k, v in r.items() if k != "meta"}
        if isinstance(row.get("label"), int):
            row["label"] = float(row["label"])
        row.update({f"meta_{k}": (r.get("meta") or {}).get(k) for k in keys})
        out.append(row)
    return out


def shaped(records: list[dict[str, Any]], meta_as: str) -> list[dict[str, Any]]:
    """``records`` with meta as a struct (as they are), a string (the Python-repr form some dumps carry), or
    flat hub columns."""
    if meta_as == "string":
        return [{**r, "meta": repr(r["meta"])} if "meta" in r else r for r in records]
    if meta_as == "flat":
        return hub_rows(records)
    return records


def _table(records: list[dict[str, Any]], meta_as: str) -> pa.Table:
    return pa.Table.from_pylist(shaped(records, meta_as))


def write_parquet_folder(directory: Path, data: dict[str, list[dict]], meta_as: str = "struct") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for config, records in data.items():
        pq.write_table(_table(records, meta_as), directory / f"{config}.parquet")
    return directory


def write_hub_copy(directory: Path, data: dict[str, list[dict]], release: str = "release_v2603",
                   meta_as: str = "struct") -> Path:
    folder = directory / release
    folder.mkdir(parents=True, exist_ok=True)
    for config, records in data.items():
        pq.write_table(_table(records, meta_as), folder / f"{config}-{release}-00000-of-00001.parquet")
    return directory


JSONL_NAMES = {"code_corpus": "code_corpus_v2.jsonl", "text_corpus": "text_corpus_v2.jsonl",
               "text2code_queries": "text2code_queries.jsonl", "code2code_queries": "code2code_queries.jsonl",
               "code2text_queries": "code2text_queries.jsonl", "text2code_qrels": "text2code_qrels.jsonl",
               "code2code_qrels": "code2code_qrels.jsonl", "code2text_qrels": "code2text_qrels.jsonl"}


def write_jsonl(directory: Path, data: dict[str, list[dict]], meta_as: str = "struct") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for config, records in data.items():
        lines = [json.dumps(r) for r in shaped(records, meta_as)]
        (directory / JSONL_NAMES[config]).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return directory
