"""The Query inspector's questions: which queries of a task match a search and filters, and, for one query, the
chosen runs' ranked lists side by side with the judged documents' positions and why each trap is one."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, NamedTuple

import pandas as pd

from coreb_core.analysis.generator_rules import CLASSES, classify_pairs
from coreb_core.analysis.inspection import (
    DiffPair,
    QueryDetails,
    candidates,
    diff_pair,
    document_language,
    document_text,
    facet_values,
    judged_positions,
    outranking_traps,
    query_details,
    query_hits,
    ranked_list,
    run_ranks,
    unified_diff,
)
from coreb_core.analysis.traps.kinds import TrapReason, trap_reasons
from coreb_core.data.schema import TaskName
from coreb_core.data.store import Store
from coreb_core.present.display import mark_anchor, text_preview, with_grades
from coreb_core.present.inspection import cross_run_marker, trap_reason_short, trap_reason_text
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope


def facets(scope: Scope, *, task: TaskName, inputs: Inputs | None = None) -> dict[str, list[str]]:
    """The subtasks and target languages of the task's queries (the finder's filters).

    >>> facets(Scope.of("demo_v2603", [], root=root), task="c2c", inputs=Inputs(root))["target_language"]
    ['any']
    """
    inputs = inputs or Inputs()
    return facet_values(inputs.store(scope.release), task)


def query(scope: Scope, *, query_id: str, inputs: Inputs | None = None) -> QueryDetails:
    """One query of the release with its problem (``CorebError`` for an unknown id).

    >>> query(Scope.of("demo_v2603", [], root=root), query_id="q_t2c_canonical_retro_cpp_0020",
    ...       inputs=Inputs(root)).target_language
    'cpp'
    """
    inputs = inputs or Inputs()
    return query_details(inputs.store(scope.release), query_id)


class Document(NamedTuple):
    """A document of a query's corpus, in full: the inspector shows it beside the query."""

    doc_id: str
    text: str
    language: str | None  # its programming language; None for a text


def document(scope: Scope, *, query_id: str, doc_id: str, inputs: Inputs | None = None) -> Document:
    """``doc_id``'s full text and language, from the corpus ``query_id`` searches (``CorebError`` when it is not
    there).

    >>> document(Scope.of("demo_v2603", [], root=root), query_id="q_t2c_canonical_retro_any_0001",
    ...          doc_id="code_v202603_00024", inputs=Inputs(root)).language
    'ruby'
    """
    inputs = inputs or Inputs()
    store = inputs.store(scope.release)
    return Document(doc_id, document_text(store, query_details(store, query_id), doc_id),
                    document_language(store, doc_id))


class TrapDiff(NamedTuple):
    """A trap beside a positive of the same query: both documents and difflib's unified diff of their texts."""

    trap: Document
    positive: Document
    unified: str  # empty when the texts are identical


def trap_diff(scope: Scope, *, query_id: str, trap: str, positive: str, inputs: Inputs | None = None) -> TrapDiff:
    """The trap and the positive (``QueryLists.pair`` chooses it) side by side, and their unified diff.

    >>> diff = trap_diff(Scope.of("demo_v2603", [], root=root), query_id="q_t2c_canonical_retro_any_0001",
    ...                  trap="code_v202603_00024", positive="code_v202603_00024", inputs=Inputs(root))
    >>> diff.unified, diff.trap == diff.positive
    ('', True)
    """
    left = document(scope, query_id=query_id, doc_id=trap, inputs=inputs)
    right = document(scope, query_id=query_id, doc_id=positive, inputs=inputs)
    return TrapDiff(left, right, unified_diff(left.text, right.text, f"trap {trap}", f"positive {positive}"))


@dataclass(frozen=True)
class QueryFinder:
    """The matching queries (``candidates``)."""

    found: pd.DataFrame  # full query texts (the CSV)
    shown: pd.DataFrame  # the same rows with each query text cut to a preview (the table)


def finder(scope: Scope, *, task: TaskName, text: str = "", subtask: str | None = None, language: str | None = None,
           trap_run: str | None = None, delta_runs: tuple[str, str] | None = None,
           inputs: Inputs | None = None) -> QueryFinder:
    """The task's queries matching ``text`` and the filters; with runs, ranked by ``trap_run``'s traps above the
    first positive or by the Δ of ``delta_runs`` (under the scope's scheme).

    >>> found = finder(Scope.of("demo_v2603", [bm25], root=root), task="c2c", trap_run=bm25, inputs=Inputs(root)).found
    >>> int(found["traps_above_first_positive"].iloc[0])
    3
    """
    inputs = inputs or Inputs()
    evaluation = inputs.evaluation(scope) if scope.run_ids else None
    found = candidates(inputs.store(scope.release), task, text, subtask, language, trap_run=trap_run,
                       traps=evaluation.traps if evaluation else None,
                       per_query=evaluation.per_query(scope.scheme) if evaluation else None, delta_runs=delta_runs)
    return QueryFinder(found, found.assign(query=text_preview(found["query"])))


@dataclass(frozen=True)
class QueryLists:
    """One query's tables for the runs shown side by side."""

    ranks: pd.DataFrame  # run_ranks: doc_id index, one column per shown run's label, its rank
    reasons: dict[str, TrapReason]  # trap_reasons: why each trap is one
    positions: pd.DataFrame  # judged_positions with grades and the reason ("why")
    listings: dict[str, pd.DataFrame]  # run id -> its top ``top`` with grades, "in <letter>" markers, "why", "rule"
    # Unjudged and trap documents listed or judged -> their class by the generator's own rules (generator_rules)
    rules: dict[str, str]
    executed: frozenset[str]  # documents the executed reading counts as relevant (v2 positives and promoted code)

    def outranking(self, label: str) -> list[str]:
        """The traps the run named ``label`` ranks above at least one positive, best-ranked first (``CorebError``
        for a run not shown)."""
        return outranking_traps(self.positions, label)

    def pair(self, label: str, trap: str) -> DiffPair:
        """The positive to diff ``trap`` against in the run named ``label``: one in the trap's language where the
        query has one."""
        return diff_pair(self.positions, label, trap)

    def trap_rank(self, label: str, trap: str) -> int:
        """Where the run named ``label`` ranks a judged document (a trap it ranks above a positive is stored)."""
        return int(self.positions.loc[self.positions["doc_id"] == trap, f"rank · {label}"].iloc[0])

    def rule_words(self, doc_id: str) -> str | None:
        """The open document's class in words ("trap beyond the cap"…), None for a positive or an unlisted one."""
        name = self.rules.get(doc_id)
        return None if name is None else CLASSES[name]


def lists(scope: Scope, *, query_id: str, labels: Mapping[str, str], letters: Mapping[str, str], top: int = 10,
          inputs: Inputs | None = None) -> QueryLists:
    """The ranked lists of the scope's runs for ``query_id`` (each run's ``labels`` name and ``letters`` letter),
    their cross-run markers and the judged documents' positions.

    >>> views = lists(Scope.of("demo_v2603", [bm25], root=root), query_id="q_t2c_canonical_retro_cpp_0020",
    ...               labels={bm25: "bm25"}, letters={bm25: "A"}, inputs=Inputs(root))
    >>> len(views.listings[bm25]), list(views.ranks.columns)
    (10, ['bm25'])
    """
    inputs = inputs or Inputs()
    store, shown = inputs.store(scope.release), list(scope.run_ids)
    q = query_details(store, query_id)
    rows_by_run = {labels[rid]: query_hits(inputs.hits(rid), query_id) for rid in shown}
    ranks = run_ranks(q, rows_by_run, scope.anchor_exclusion).set_index("doc_id")
    reasons = trap_reasons(store, q)
    positions = with_grades(judged_positions(store, q, rows_by_run, scope.anchor_exclusion), 0)
    positions.insert(positions.columns.get_loc("tests") + 1, "why",
                     [trap_reason_text(reasons.get(d)) for d in positions["doc_id"]])
    listings = {}
    for rid in shown:
        label = labels[rid]
        if rows_by_run[label].empty:
            continue
        listing = with_grades(ranked_list(store, q, rows_by_run[label], scope.anchor_exclusion, top), 1)
        for other in shown:
            if other != rid:
                where = listing["doc_id"].map(ranks[labels[other]])
                listing[f"in {letters[other]}"] = [cross_run_marker(r, o, top) for r, o in zip(listing["rank"], where)]
        listing["why"] = [trap_reason_short(reasons.get(d)) for d in listing["doc_id"]]
        hub = inputs.hubs(scope, rid, q.task)  # one of this run's 10 biggest hubs on the task: in how many top 10s
        listing["hub"] = listing["doc_id"].map(hub).astype("Int64")
        listings[rid] = mark_anchor(listing, q.anchor_code_id)
    rules = _rules(store, q.task, query_id, listings, positions)
    for listing in listings.values():  # an unjudged document says what the generator's rules make of it
        listing["rule"] = listing["doc_id"].map(rules).map(CLASSES)
        unjudged = listing["relevance"].isna() & listing["rule"].notna() & (listing["rule"] != CLASSES["other"])
        listing.loc[unjudged, "why"] = listing.loc[unjudged, "rule"]  # its grade column says unjudged
    executed = frozenset(d for (d,) in store.sql("SELECT doc_id FROM qrels_executed WHERE query_id = ? AND "
                                                  "relevance = 2", [query_id]).fetchall())
    return QueryLists(ranks, reasons, positions, listings, rules, executed)


def _rules(store: Store, task: str, query_id: str, listings: Mapping[str, pd.DataFrame], positions: pd.DataFrame
           ) -> dict[str, str]:
    """The class of every listed or judged document that is not a positive, by the generator's rules."""
    listed = {d for frame in listings.values() for d, r in zip(frame["doc_id"], frame["relevance"]) if r != 2}
    listed |= {d for d, r in zip(positions["doc_id"], positions["relevance"]) if r != 2}
    docs = sorted(d for d in listed if isinstance(d, str))
    return classify_pairs(store, task, query_id, docs).to_dict() if docs else {}
