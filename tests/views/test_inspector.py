"""The Query inspector's views (coreb_core.views.inspector) on CoREB-mini's BM25 run: each answers what the library
(coreb_core.analysis.inspection) answers, so the page shows the library's numbers and texts."""
import pytest

from coreb_core.analysis.inspection import (
    diff_pair,
    document_language,
    document_text,
    judged_positions,
    outranking_traps,
    query_details,
    query_hits,
    unified_diff,
)
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import trap_table
from coreb_core.runs.folders import read_hits
from coreb_core.views import inspector
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope

RELEASE = "demo_v2603"


@pytest.fixture
def bm25_query(lexical_cache):
    """(root, bm25 run id, a T2C query where BM25 ranks at least two traps above the first positive)."""
    root, runs = lexical_cache
    with Store(RELEASE, root) as store:
        traps = trap_table(store, read_hits(runs["bm25"], root))
    several = traps[(traps["task"] == "t2c") & (traps["traps_above_first_positive"] >= 2)]
    return root, runs["bm25"], sorted(several["query_id"].astype(str))[0]


def test_the_diff_views_follow_the_library(bm25_query):
    root, bm25, qid = bm25_query
    scope = Scope.of(RELEASE, [bm25], root=root)
    lists = inspector.lists(scope, query_id=qid, labels={bm25: "r"}, letters={bm25: "A"}, inputs=Inputs(root))
    with Store(RELEASE, root) as store:
        q = query_details(store, qid)
        positions = judged_positions(store, q, {"r": query_hits(read_hits(bm25, root), qid)})
        expected = outranking_traps(positions, "r")
        assert len(expected) >= 2 and lists.outranking("r") == expected
        trap = expected[1]
        pair = diff_pair(positions, "r", trap)
        assert lists.pair("r", trap) == pair
        assert lists.trap_rank("r", trap) == int(pair.trap_rank)
        diff = inspector.trap_diff(scope, query_id=qid, trap=trap, positive=pair.positive, inputs=Inputs(root))
        assert diff.trap.text == document_text(store, q, trap) and diff.trap.language == document_language(store, trap)
        assert diff.positive.text == document_text(store, q, pair.positive)
        assert diff.unified == unified_diff(diff.trap.text, diff.positive.text, f"trap {trap}",
                                            f"positive {pair.positive}") != ""
    with pytest.raises(CorebError, match="not among the inspected runs"):
        lists.outranking("another run")


def test_the_query_views_refuse_unknown_ids(lexical_cache):
    root, _ = lexical_cache
    scope = Scope.of(RELEASE, [], root=root)
    assert inspector.facets(scope, task="c2c", inputs=Inputs(root))["subtask"] == [
        "c2c_cross_lang", "c2c_cross_model", "c2c_mono_lang"]
    with pytest.raises(CorebError):
        inspector.query(scope, query_id="q_no_such_query", inputs=Inputs(root))
    with pytest.raises(CorebError, match="is not in the code corpus"):
        inspector.document(scope, query_id="q_t2c_canonical_retro_any_0001", doc_id="no_such_doc", inputs=Inputs(root))
