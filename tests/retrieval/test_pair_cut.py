"""``cut_groups``: the cross-encoder reads the very same token ids from the cut texts as from the whole ones, on
hand-made edge cases and on pairs of the real release; and it is what makes tokenizing cheap."""
from __future__ import annotations

import json
import random
import time

import pytest

from coreb_core.retrieval.pair_cut import cut_groups
from tests.conftest import real_release_folder


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    from coreb_core.training.reranker import base_model_path

    return AutoTokenizer.from_pretrained(base_model_path("minilm"))


def _ids(tokenizer, groups, max_length):
    flat = [(q, d) for q, ds in groups for d in ds]
    return tokenizer([q for q, _ in flat], [d for _, d in flat], truncation="longest_first",
                     max_length=max_length)["input_ids"]


WORDS = "def solve ( n ) : return dp [ i ] [ j ] + memo . get ( key , 0 ) # comment über ünïcode 漢字".split()


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)) + rng.choice(["", "\n", "  ", "\t\n"])


def test_edge_cases_keep_every_pairs_token_ids(tokenizer):
    rng = random.Random(7)
    long = _text(rng, 70)
    groups = [
        ("short query", [_text(rng, 100), "tiny", _text(rng, 40)]),                 # query kept, long documents cut
        (long, [long, _text(rng, 100)]),                                            # the anchor's tie: cut alike
        (long, [" ".join(reversed(long.split())), _text(rng, 100)]),               # a tie of two texts: whole
        (long, [_text(rng, 90), _text(rng, 60), _text(rng, 10), "", _text(rng, 121)]),  # both sides over the length
        ("x" * 900, ["y" * 900, "a b"]),                                           # no whitespace: nothing to cut at
        ("", [_text(rng, 90)]),
        (_text(rng, 100), [_text(rng, 99), _text(rng, 101)]),                       # one token apart
    ] + [(_text(rng, rng.randint(0, 80)), [_text(rng, rng.randint(0, 80)) for _ in range(4)]) for _ in range(20)]
    for max_length in (17, 32, 64):
        cut = cut_groups(tokenizer, groups, max_length)
        assert [len(ds) for _, ds in cut] == [len(ds) for _, ds in groups]
        assert _ids(tokenizer, cut, max_length) == _ids(tokenizer, groups, max_length), max_length
    cut = cut_groups(tokenizer, groups, 33)
    assert cut[0][0] == "short query" and len(cut[0][1][0]) < len(groups[0][1][0])  # cut, where it can be
    assert cut[1][0] == cut[1][1][0] and len(cut[1][0]) < len(long)                 # the anchor: cut as its query
    assert cut[2] == groups[2]                                                      # another text's tie: whole
    assert cut[4] == ("x" * 900, ["y" * 900, "a b"])


def test_nothing_is_cut_without_a_length_or_a_fast_tokenizer(tokenizer):
    groups = [("q " * 100, ["d " * 100])]
    assert cut_groups(tokenizer, groups, None) == [("q " * 100, ["d " * 100])]
    assert cut_groups(object(), groups, 16) == [("q " * 100, ["d " * 100])]


def test_real_release_pairs_keep_their_token_ids_at_a_fraction_of_the_cost(tokenizer):
    """Pairs as the reranker of the protocol reads them (a C2C or T2C query and 10 code documents of release_v2603;
    a C2C query's own code, its anchor, among them),
    at its 64 tokens and at 256: the same ids, and at 64 tokens at least 3x cheaper to tokenize (about 8x quiet)."""
    folder = real_release_folder("release_v2603")
    code = [json.loads(line)["code"] for line in (folder / "code_corpus.jsonl").open(encoding="utf-8")]
    queries = [json.loads(line)["query"] for name in ("code2code_queries.jsonl", "text2code_queries.jsonl")
               for line in (folder / name).open(encoding="utf-8")]
    rng = random.Random(3)
    groups = [(rng.choice(queries), rng.choices(code, k=10)) for _ in range(16)]
    groups += [(query, [query, *rng.choices(code, k=9)]) for query in rng.choices(code, k=16)]  # C2C's anchor
    for max_length in (64, 256):
        start = time.process_time()
        whole = _ids(tokenizer, groups, max_length)
        whole_s = time.process_time() - start
        start = time.process_time()
        cut = _ids(tokenizer, cut_groups(tokenizer, groups, max_length), max_length)
        cut_s = time.process_time() - start
        assert cut == whole
        if max_length == 64:
            assert cut_s * 3 < whole_s, (cut_s, whole_s)
