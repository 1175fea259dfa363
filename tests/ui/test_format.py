"""coreb_core.present.format: the Run retrieval and Data pages' texts (ETA, model and prompt tables, escaping)."""
from coreb_core.present.format import model_table, ndcg_frame, plain, prompt_table
from coreb_core.retrieval.jobs import JobState, RunRequest, eta_from
from ui.jobs import progress_line


def test_eta_and_progress_line():
    # issue 24: "0 s elapsed" for 40 s of model load, then a 23-minute estimate 2 minutes before the end.
    # A load plateau does not count, and the pace is the last minute's.
    assert eta_from([(0.0, 0.0), (40.0, 0.0), (50.0, 0.1)], 50.0) == 90.0
    samples = [(0.0, 0.0), (40.0, 0.0)] + [(40.0 + t, 0.9 * t / 600) for t in range(1, 601)]  # steady, slow start
    samples += [(640.0 + t, 0.9 + 0.1 * t / 120) for t in range(1, 61)]  # the last tenth twice as fast
    assert eta_from(samples, 700.0) == 60.0  # 0.05 left at 0.1 per 120 s
    assert eta_from([(0.0, 0.2)], 0.0) is None and eta_from([], 3.0) is None
    s = JobState("j", RunRequest("minilm", "v"), "running", "t2c: searched", 0.25, 30.0, 90.0, None, None)
    assert progress_line(s) == "t2c: searched · 30 s elapsed · about 1 min 30 s left"
    assert progress_line(s._replace(eta_s=None, elapsed_s=0.4)) == "t2c: searched · 0 s elapsed · estimating time left"


def test_model_table_and_ndcg_frame():
    models = model_table().set_index("id")
    assert models.loc["gemini-embedding-2", "re_runnable"] and models.loc["gemini-embedding-2", "kind"] == "api"
    assert models.loc["bm25", "re_runnable"] and models.loc["minilm", "re_runnable"]
    frame = ndcg_frame({"c2t": 0.5, "t2c": 0.25})
    assert frame.to_dict("list") == {"task": ["t2c", "c2t"], "ndcg_at_10": [0.25, 0.5]}


def test_prompt_table_quotes_the_card_and_official_applies_none():
    card = prompt_table("jina-code-1.5b", "card").set_index("task")
    assert card.loc["c2t", "document"] == "Candidate comment:\n" and "INSTRUCTION_CONFIG" in card.loc["c2t", "source"]
    official = prompt_table("jina-code-1.5b", "official")
    assert (official["query"] == "").all() and (official["document"] == "").all()
    assert prompt_table("bm25", "card").empty


def test_plain():
    assert plain("a_b.jsonl: *x* [y](z) `c`") == r"a\_b.jsonl: \*x\* \[y\](z) \`c\`"
