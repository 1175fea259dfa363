"""ui.format: the Run retrieval and Data pages' texts (ETA, model and prompt tables, escaping)."""
from ui.format import eta_seconds, model_table, ndcg_frame, plain, progress_text, prompt_table


def test_eta_and_progress_text():
    assert eta_seconds(30.0, 0.25) == 90.0
    assert eta_seconds(10.0, 1.0) == 0.0
    assert eta_seconds(5.0, 0.0) is None
    assert progress_text("t2c: searched", 30.0, 0.25) == "t2c: searched · 30 s elapsed · about 1 min 30 s left"
    assert progress_text("loading", 0.4, 0.0) == "loading · 0 s elapsed · estimating time left"


def test_model_table_and_ndcg_frame():
    models = model_table().set_index("id")
    assert not models.loc["gemini-embedding-2", "re_runnable"]
    assert "API-only" in models.loc["gemini-embedding-2", "why_not"]
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
