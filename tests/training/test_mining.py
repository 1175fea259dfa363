"""Hard negatives mined from a run on CoREB-mini: the run's top non-positives in its order, never a rel=2 document,
the C2C anchor nor (by default) a document the executed view makes relevant, which is counted per task instead
(``--keep-correct`` keeps it, labelled passing_…; not with triplets); traps marked; the triplets load with
``datasets`` and train as sentence-transformers' n-tuples; mining the test release says it is for analysis; the
page mines as the verb."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from coreb_core.data.store import Store
from coreb_core.runs.folders import read_hits
from tests.builders import run_cli

RELEASE = "demo_v2603"


@pytest.fixture
def bm25(lexical_cache, monkeypatch):
    root, runs = lexical_cache
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root, runs["bm25"]


@pytest.fixture(scope="module")
def c2t_run(mini_data, tmp_path_factory):
    """CoREB-mini with a BM25 run of demo_v2603's C2T queries only, in a cache of its own: what the verb says of the
    test release, or how its files load, does not depend on the run's size, and mining it costs a fraction of the
    full run's."""
    import shutil

    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("mine-c2t") / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    return root, run_retrieval("bm25", RELEASE, tasks=("c2t",), root=root).run_id


def ranked_lists(root, run):
    """The qrels' grades per (query, document), each C2C query's anchor, and each query's stored top k in rank order."""
    hits = read_hits(run, root)
    hits = hits[hits["in_top_k"]].sort_values(["task", "query_id", "rank"])
    with Store(RELEASE, root) as store:
        grades = {(q, d): int(r) for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels").fetchall()}
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                       .fetchall())
    return grades, anchors, {q: list(g["doc_id"]) for q, g in hits.groupby("query_id")}


def test_the_negatives_are_the_runs_top_non_positives(bm25, tmp_path):
    root, run = bm25
    out = tmp_path / "mined.jsonl"
    done = run_cli("mine", "--run", run, "--out", str(out), "--k", "4", "--format", "samples")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    grades, anchors, ranked = ranked_lists(root, run)
    correct = executed_relevant(root)  # passing code of the query's problem in a positive's language: left out
    for r in rows:
        q = r["query_id"]
        expected = [d for d in ranked[q] if grades.get((q, d)) != 2 and d != anchors.get(q)
                    and (q, d) not in correct][:4]
        assert [p["id"] for p in r["hard_neg"]] == expected, q
        for p in r["hard_neg"]:
            assert p["grade"] == {1: "trap", 0: "judged_negative"}.get(grades.get((q, p["id"])), "unjudged")
            assert p["rank"] == ranked[q].index(p["id"]) + 1
        assert grades[(q, r["pos"][0]["id"])] == 2 and r["easy_neg"] == []
    # every (query, rel=2 document) of a query the run lists is a sample
    with Store(RELEASE, root) as store:
        positives = store.sql("SELECT count(*) FROM qrels WHERE relevance = 2").fetchone()[0]
    assert len(rows) == positives
    assert any(p["grade"] == "trap" for r in rows for p in r["hard_neg"])
    assert "traps (rel=1)" in done.stdout


def test_triplets_load_with_datasets_in_both_formats(c2t_run, tmp_path, monkeypatch):
    import datasets

    root, run = c2t_run
    monkeypatch.setenv("COREB_CACHE", str(root))
    for name, loader in (("t.jsonl", "json"), ("t.parquet", "parquet")):
        out = tmp_path / name
        done = run_cli("mine", "--run", run, "--out", str(out), "--k", "3")
        assert done.returncode == 0, done.stderr
        loaded = datasets.load_dataset(loader, data_files=str(out), split="train")
        assert loaded.column_names == ["anchor", "positive", "negative_1", "negative_2", "negative_3"]
        frame = loaded.to_pandas()
        assert not (frame["positive"] == frame["negative_1"]).any() and len(frame) > 100


def test_no_kept_negative_ranks_below_a_left_out_non_positive(bm25):
    from coreb_core.training.mining import mine_run

    root, run = bm25
    mined = mine_run(run, k=3, root=root)
    t2c = mined.negatives[mined.negatives["task"] == "t2c"]
    hits = read_hits(run, root)
    hits = hits[(hits["task"] == "t2c") & hits["in_top_k"]]
    worst = t2c.groupby("query_id")["rank"].max()
    with Store(RELEASE, root) as store:
        pos = store.df("SELECT query_id, doc_id FROM qrels WHERE task = 't2c' AND relevance = 2")
    others = hits.merge(pos, on=["query_id", "doc_id"], how="left", indicator=True)
    kept = others.set_index(["query_id", "doc_id"]).index.isin(t2c.set_index(["query_id", "doc_id"]).index)
    others = others[(others["_merge"] == "left_only") & ~kept]
    above = others.join(worst.rename("worst"), on="query_id")
    assert not (above["rank"] < above["worst"]).any()
    assert isinstance(t2c, pd.DataFrame) and len(t2c) == 3 * t2c["query_id"].nunique()


def test_mining_a_minilm_run_agrees_with_sentence_transformers(app_cache, default_run_ids):
    """``util.mine_hard_negatives`` (top strategy) with the same model, encoded as the run's official profile
    encodes (mean pooling, 512 tokens), every T2C positive given, finds our top 3 negatives for (nearly) every
    (query, positive) once its guard is taken into account: it keys the positives on the query's text, so where
    several queries share a text (every T2C text of CoREB-mini, e.g. a retro query and its language-constrained
    twins) it leaves out the positives of them all, which may be this query's traps; ours keys on the query id.

    The vectors: sentence-transformers' own encode at 512 tokens equals the run's cached vectors on the texts where
    the length matters (the longest documents, 257 tokens and more, and some queries); ``mine_hard_negatives`` is
    then served the run's cached vectors of every text, as its own ``encode_document`` / ``encode_query`` return
    them, instead of encoding CoREB-mini's whole code corpus at 512 tokens again (a minute on one core)."""
    import datasets
    import numpy as np
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.util import mine_hard_negatives

    from coreb_core.retrieval.embeddings import EmbeddingCache
    from coreb_core.retrieval.models import bundled_minilm_path
    from coreb_core.retrieval.profiles import run_encoder_identity
    from coreb_core.runs.folders import run_meta
    from coreb_core.training.mining import mine_run

    run = default_run_ids["minilm"]
    mined = mine_run(run, k=30, root=app_cache)
    t2c = [s for s in mined.samples if s.task == "text2code"]
    positives_of_text: dict[str, set[str]] = {}
    for s in t2c:
        positives_of_text.setdefault(s.query, set()).add(s.pos[0].id)
    ours = pd.DataFrame([[s.query, s.pos[0].text, *[p.text for p in s.hard_neg
                                                     if p.id not in positives_of_text[s.query]][:3]] for s in t2c],
                        columns=["anchor", "positive", "negative_1", "negative_2", "negative_3"])
    ours = ours[ours["anchor"].isin(ours["anchor"].drop_duplicates().head(120))]  # every document, 120 queries
    with Store(RELEASE, app_cache) as store:
        corpus = store.df("SELECT content FROM documents WHERE corpus = 'code' ORDER BY doc_id")["content"].tolist()
    model = SentenceTransformer(bundled_minilm_path(), device="cpu")
    model.max_seq_length = 512

    meta = run_meta(run, app_cache)
    cache = EmbeddingCache(run_encoder_identity(meta.model_spec, meta.encoding), app_cache)
    prompts = meta.prompts["t2c"]

    def run_vectors(texts, side: str) -> np.ndarray:
        found, missing = cache.lookup(list(texts), prompts[side])
        assert not missing, f"{len(missing)} {side} texts without the run's vector"
        return np.vstack([found[i] for i in range(len(texts))])

    lengths = [len(t) for t in model.tokenizer(corpus, truncation=False)["input_ids"]]
    order = np.argsort(lengths, kind="stable")
    long_texts = ([corpus[i] for i in order if 256 < lengths[i] <= 512][-16:]  # 512 sees all, the card's 256 not
                  + [corpus[i] for i in order if lengths[i] > 512][:8])  # both cut at 512
    assert len(long_texts) == 24
    anchors = ours["anchor"].drop_duplicates().head(8).tolist()
    for texts, side, encode in ((long_texts, "document", model.encode_document),
                                (anchors, "query", model.encode_query)):
        theirs = encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
        cosine = (theirs * run_vectors(texts, side)).sum(axis=1)
        assert np.all(cosine > 1 - 1e-5), (side, cosine.min())

    def served(side: str):
        def encode(texts, normalize_embeddings=True, convert_to_numpy=True, **options):
            assert normalize_embeddings and convert_to_numpy
            vectors = run_vectors(texts, side)
            return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return encode

    model.encode_document, model.encode_query = served("document"), served("query")
    theirs = mine_hard_negatives(datasets.Dataset.from_pandas(ours[["anchor", "positive"]], preserve_index=False),
                                 model, corpus=corpus, num_negatives=3, sampling_strategy="top",
                                 output_format="n-tuple", batch_size=64, verbose=False).to_pandas()
    both = ours.drop_duplicates().merge(theirs.drop_duplicates(), on=["anchor", "positive"], suffixes=("", "_st"))
    negatives = ["negative_1", "negative_2", "negative_3"]
    same = sum(list(r[negatives]) == list(r[[f"{n}_st" for n in negatives]]) for _, r in both.iterrows())
    print(f"\nmine_hard_negatives agrees on {same} of {len(both)} (query, positive) rows")
    assert len(both) == len(ours.drop_duplicates()) > 200
    assert same / len(both) >= 0.99, f"{same} of {len(both)} (query, positive) rows mined alike"  # measured: all


@pytest.mark.parametrize("args, message", [
    (["--run", "no_such_run"], "not found"),
    (["--run", "RUN", "--k", "0"], "must be a whole number of at least 1"),
    (["--run", "RUN", "--format", "pairs"], "invalid choice: 'pairs'"),
])
def test_bad_arguments_get_one_error_line(bm25, tmp_path, args, message):
    out = tmp_path / "m.jsonl"
    done = run_cli("mine", *[bm25[1] if a == "RUN" else a for a in args], "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("error:") == 1 and message in done.stderr, done.stderr
    assert not out.exists()


def executed_relevant(root, release=RELEASE) -> dict[tuple[str, str], int]:
    """(query id, document id) -> released grade (-1 unjudged) of every document the ``executed`` view makes relevant
    that the released qrels do not, straight from SQL."""
    with Store(release, root) as store:
        rows = store.sql("""SELECT e.query_id, e.doc_id, r.relevance FROM qrels_executed e
                            LEFT JOIN qrels r USING (task, query_id, doc_id)
                            WHERE e.relevance = 2 AND (r.relevance IS NULL OR r.relevance < 2)""").fetchall()
    return {(q, d): -1 if r is None else int(r) for q, d, r in rows}


def walk(root, run, k):
    """Per query with a positive: (the top k documents that are neither a positive, the anchor nor executed-relevant;
    the executed-relevant ones passed over before the k-th), by walking the run's list one document at a time."""
    correct = executed_relevant(root)
    hits = read_hits(run, root)
    hits = hits[hits["in_top_k"]].sort_values(["task", "query_id", "rank"])
    with Store(RELEASE, root) as store:
        positives = set(store.sql("SELECT query_id, doc_id FROM qrels WHERE relevance = 2").fetchall())
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                       .fetchall())
    with_positive = {q for q, _ in positives}
    out = {}
    for (task, q), part in hits.groupby(["task", "query_id"]):
        if q not in with_positive:
            continue
        kept, passed = [], []
        for d in part["doc_id"]:
            if len(kept) == k:
                break
            if (q, d) in positives or d == anchors.get(q):
                continue
            (passed if (q, d) in correct else kept).append(d)
        out[(task, q)] = kept, passed
    return out


def test_default_mining_leaves_out_the_executed_views_correct_code_and_counts_it(bm25, tmp_path):
    """No mined negative is a document the executed view makes relevant (passing code of the query's problem in a
    positive's language); each one the run ranked above a query's last negative is left out and counted per task
    (C2C only on CoREB-mini, as on the real release), in the verb's lines and its JSON."""
    root, run = bm25
    out = tmp_path / "mined.jsonl"
    done = run_cli("mine", "--run", run, "--out", str(out), "--k", "4", "--format", "samples", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    correct = executed_relevant(root)
    assert len(correct) > 100
    negatives = {(r["query_id"], p["id"]) for r in rows for p in r["hard_neg"]}
    assert not negatives & set(correct)
    expected = walk(root, run, 4)
    for r in rows:
        assert [p["id"] for p in r["hard_neg"]] == expected[(LONG_TO_SHORT[r["task"]], r["query_id"])][0]
    left = {t: sum(len(p) for (task, _), (_, p) in expected.items() if task == t) for t in ("t2c", "c2c", "c2t")}
    assert summary["left_out_by_task"] == left and left["c2c"] > 10 and left["t2c"] == left["c2t"] == 0
    assert summary["keep_correct"] is False and summary["correct_kept_by_task"] == {"t2c": 0, "c2c": 0, "c2t": 0}
    assert not any(g.startswith("passing_") and n for g, n in summary["negatives_by_grade"].items())
    text = run_cli("mine", "--run", run, "--out", str(tmp_path / "again.jsonl"), "--k", "4").stdout
    assert f"left out {left['c2c']:,} documents the executed view makes relevant" in text
    assert f"T2C 0, C2C {left['c2c']:,}, C2T 0" in text and "--keep-correct keeps them" in text


LONG_TO_SHORT = {"text2code": "t2c", "code2code": "c2c", "code2text": "c2t"}


def test_keep_correct_keeps_them_labelled(bm25, tmp_path):
    """``--keep-correct``: the run's top k non-positives as before the guard (rel=2 and the anchor still out), each
    document the executed view makes relevant labelled passing_<its released grade>; nothing left out."""
    root, run = bm25
    out = tmp_path / "kept.jsonl"
    done = run_cli("mine", "--run", run, "--out", str(out), "--k", "4", "--format", "samples", "--keep-correct",
                   "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    correct = executed_relevant(root)
    grades, anchors, ranked = ranked_lists(root, run)
    labels = {1: "trap", 0: "judged_negative", -1: "unjudged"}
    kept: dict[str, set] = {}
    for r in rows:
        q = r["query_id"]
        assert [p["id"] for p in r["hard_neg"]] == [d for d in ranked[q] if grades.get((q, d)) != 2
                                                    and d != anchors.get(q)][:4]
        for p in r["hard_neg"]:
            grade = labels[grades.get((q, p["id"]), -1)]
            assert p["grade"] == (f"passing_{grade}" if (q, p["id"]) in correct else grade), (q, p)
            if (q, p["id"]) in correct:
                kept.setdefault(LONG_TO_SHORT[r["task"]], set()).add((q, p["id"]))
    assert summary["keep_correct"] is True and summary["left_out_by_task"] == {"t2c": 0, "c2c": 0, "c2t": 0}
    assert summary["correct_kept_by_task"] == {"t2c": 0, "c2c": len(kept["c2c"]), "c2t": 0} and set(kept) == {"c2c"}
    by_grade = summary["negatives_by_grade"]
    assert by_grade["passing_unjudged"] + by_grade["passing_trap"] == len(kept["c2c"]) > 0
    assert by_grade["passing_unjudged"] == sum(correct[pair] == -1 for pair in kept["c2c"])
    assert summary["triplets"] is None  # no place for a label
    assert "labelled:" in run_cli("mine", "--run", run, "--out", str(tmp_path / "k2.jsonl"), "--format", "samples",
                                  "--keep-correct").stdout


def test_keep_correct_with_triplets_is_refused_in_one_line(bm25, tmp_path):
    _, run = bm25
    for fmt in ([], ["--format", "triplets"]):
        out = tmp_path / "t.parquet"
        done = run_cli("mine", "--run", run, "--out", str(out), "--keep-correct", *fmt)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error:"), done.stderr
        assert "--keep-correct: the triplets format has no place for a label" in done.stderr
        assert "--format samples" in done.stderr and not out.exists() and not list(tmp_path.iterdir())


def test_mining_the_test_release_says_it_is_for_analysis(c2t_run, tmp_path, monkeypatch):
    root, run = c2t_run
    monkeypatch.setenv("COREB_CACHE", str(root))
    out = tmp_path / "m.jsonl"
    done = run_cli("mine", "--run", run, "--out", str(out), "--test-release", RELEASE)
    assert done.returncode == 0, done.stderr
    assert ("demo_v2603 is the test release: these negatives are for analysis, not training; train-reranker "
            "refuses them") in done.stdout
    summary = json.loads(run_cli("mine", "--run", run, "--out", str(out), "--test-release", RELEASE, "--json").stdout)
    assert summary["for_training"] is False and "for analysis, not training" in summary["test_release_note"]
    # by default the run's benchmark's test release: CoREB-mini's is demo_v2603, so the word is said unasked
    plain = run_cli("mine", "--run", run, "--out", str(out))
    assert "demo_v2603 is the test release" in plain.stdout
    assert json.loads(run_cli("mine", "--run", run, "--out", str(out), "--json").stdout)["for_training"] is False
    # naming another test release: these negatives may train a reranker tested there
    other = run_cli("mine", "--run", run, "--out", str(out), "--test-release", "release_v2603")
    assert other.returncode == 0 and "test release" not in other.stdout
    empty = run_cli("mine", "--run", run, "--out", str(out), "--test-release", "")
    assert empty.returncode == 2 and "--test-release: name a release" in empty.stderr


def _mine_on_page(root, run, keep: bool):
    from coreb_core.retrieval.jobs import DONE, board
    from tests.builders import app_test

    at = app_test("training.py", root, {"release": RELEASE, "runs": [run]}, timeout=300).run()
    at.number_input(key="training_mine_k").set_value(4)
    at.checkbox(key="training_mine_keep").set_value(keep)
    at.button(key="training_mine_go").click().run()
    assert not at.exception and not at.error
    assert [board(root).wait(s.job_id, 600).status for s in board(root).running()] in ([DONE], [])
    return at.run()


def test_the_page_mines_as_the_verb_counts_and_keeps_correct_code_on_request(lexical_copy, tmp_path):
    root, run = lexical_copy
    summary = json.loads(run_cli("mine", "--run", run, "--out", str(tmp_path / "m.jsonl"), "--k", "4", "--json").stdout)
    at = _mine_on_page(root, run, keep=False)
    text = " ".join(m.value for m in at.markdown)
    assert f"left out {summary['left_out_by_task']['c2c']:,} documents the executed view makes relevant" in text
    table = next(d.value for d in at.dataframe if "correct code left out" in d.value.columns)
    assert table["correct code left out"].tolist() == [summary["left_out_by_task"][t] for t in ("t2c", "c2c", "c2t")]
    assert {"triplets (jsonl)", "triplets (parquet)", "samples (jsonl)"} <= {b.label for b in at.get("download_button")}
    # demo_v2603 is CoREB-mini's test release: mined for analysis, and said so
    assert [w.value for w in at.warning] == ["demo\\_v2603 is the test release: these negatives are for analysis, "
                                             "not training; train-reranker refuses them."]
    kept = json.loads(run_cli("mine", "--run", run, "--out", str(tmp_path / "k.jsonl"), "--k", "4", "--format",
                              "samples", "--keep-correct", "--json").stdout)
    at = _mine_on_page(root, run, keep=True)
    text = " ".join(m.value for m in at.markdown).replace("\\_", "_")
    assert f"kept {kept['correct_kept_by_task']['c2c']:,} documents the executed view makes relevant" in text
    assert "passing_unjudged" in text
    labels = {b.label for b in at.get("download_button")}
    assert {"samples (jsonl)", "samples (parquet)"} <= labels and not any(x.startswith("triplets") for x in labels)

