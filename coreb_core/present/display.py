"""How the pages print what ``coreb_core.analysis`` returns: fractions as x100 points, grades as
badges, the selection's sentences. The library returns ids, 0..1 fractions and typed records;
every display convention lives here so the library stays free of presentation.

Example:
    >>> pct(0.43219), points_column(pd.Series([0.43219, 0.5])).tolist()
    (43.2, [43.2, 50.0])
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

import pandas as pd

from coreb_core.analysis.comparison import PairVerdict
from coreb_core.analysis.deflation import ALL_TASKS, Deflation, OrderFlip
from coreb_core.analysis.traps.surface import SurfaceFinding
from coreb_core.data.measures import metric_label
from coreb_core.data.schema import NEGATIVE, POSITIVE, TASK_NAMES, TRAP
from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, adaptive_limit
from coreb_core.present.format import plain
from coreb_core.present.labels import TRAP_KIND_LABELS
from coreb_core.present.numbers import interval_text, pct, points, shown_difference, signed_points
from coreb_core.text import p_text

# Grade badges: the text every table shows in its ``grade`` column. Text symbols that every font has (coloured
# emoji are missing from many Linux fonts and showed as empty boxes); the rows carry the grade's colour.
GRADE_LABELS: dict[int | None, str] = {POSITIVE: "✓ positive", TRAP: "⚠ trap", NEGATIVE: "✗ judged negative",
                                       None: "○ unjudged"}
POSITIVE_BADGE, TRAP_BADGE, UNJUDGED_BADGE = GRADE_LABELS[POSITIVE], GRADE_LABELS[TRAP], GRADE_LABELS[None]
# A C2C list with the anchor kept (MTEB's way) holds the query's own code, unjudged: named, not just "unjudged".
ANCHOR_BADGE = "⚓ anchor"
ANCHOR_WHY = "the query's own code (the C2C anchor, kept in the list)"
PREVIEW_CHARS = 120  # of a query text in a table column (the column shows about 50)


def pct_columns(frame: pd.DataFrame, columns: Iterable[str]) -> pd.DataFrame:
    """A copy of ``frame`` with ``columns`` (fractions) printed as ``pct`` points, one value at a time.

    >>> pct_columns(pd.DataFrame({"model": ["bm25"], "ndcg_at_10": [0.43219]}), ["ndcg_at_10"])
      model  ndcg_at_10
    0  bm25        43.2
    """
    out = frame.copy()
    for col in columns:
        out[col] = out[col].map(pct).astype(float)
    return out


def points_column(fractions: pd.Series) -> pd.Series:
    """A column of fractions as x100 points, one decimal (vectorised, for chart values; ``numbers.points`` words one
    value).

    >>> points_column(pd.Series([0.43219, 0.5])).tolist()
    [43.2, 50.0]
    """
    return (fractions * 100).round(1)


def text_preview(texts: pd.Series, chars: int = PREVIEW_CHARS) -> pd.Series:
    """The start of each text on one line, for a table column (whitespace collapsed, cut with "…"). A table
    column shows about 50 characters, and 720 full query texts made the browser take 0.6 s longer to draw
    Compare runs; the full text is in the CSV download and in the inspector.

    >>> text_preview(pd.Series(["Given a text T   and a pattern P", "short"]), chars=20).tolist()
    ['Given a text T and a…', 'short']
    """
    flat = texts.fillna("").astype(str).str.split().str.join(" ")
    return flat.where(flat.str.len() <= chars, flat.str.slice(0, chars).str.rstrip() + "…")


def grade_badges(relevance: pd.Series) -> pd.Series:
    """The badge of each qrel grade (2/1/0, NaN when unjudged).

    >>> grade_badges(pd.Series([2, 1, 0, None])).tolist()
    ['✓ positive', '⚠ trap', '✗ judged negative', '○ unjudged']
    """
    return relevance.map(lambda r: GRADE_LABELS.get(None if pd.isna(r) else int(r), GRADE_LABELS[None]))


def with_grades(frame: pd.DataFrame, position: int) -> pd.DataFrame:
    """A copy of an inspection frame with a ``grade`` badge column (from ``relevance``) at ``position``.

    >>> with_grades(pd.DataFrame({"doc_id": ["d1", "d2"], "relevance": [2, None]}), 1)
      doc_id       grade  relevance
    0     d1  ✓ positive        2.0
    1     d2  ○ unjudged        NaN
    """
    out = frame.copy()
    out.insert(position, "grade", grade_badges(out["relevance"]))
    return out


def mark_anchor(listing: pd.DataFrame, anchor_id: str | None) -> pd.DataFrame:
    """``listing`` (a ranked list with ``grade`` and ``why``) with the C2C anchor's row named as the query's own
    code; unchanged when there is no anchor or it is not in the list (anchor exclusion drops it).

    >>> listing = pd.DataFrame({"doc_id": ["a", "d1"], "grade": ["○ unjudged", "✓ positive"], "why": ["", ""]})
    >>> mark_anchor(listing, "a")["grade"].tolist()
    ['⚓ anchor', '✓ positive']
    """
    out = listing.copy()
    if anchor_id:
        at = out["doc_id"] == anchor_id
        out.loc[at, "grade"], out.loc[at, "why"] = ANCHOR_BADGE, ANCHOR_WHY
    return out


# ---------------------------------------------------------------- significance in words
# The corrections for multiple comparisons by name (``coreb_core.evaluation.significance.CORRECTIONS``), in
# a sentence ("after Bonferroni correction") and in a column header ("p (BH)").
# The most flips a comparison's randomization test drew (``pair_table``: the default base, adaptive): its p's digits
RESOLUTION = adaptive_limit(DEFAULT_PERMUTATIONS)
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini–Hochberg"}
CORRECTION_SHORT = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "BH"}
# The rank correlations of ``coreb_core.analysis.rank_contrast`` by name.
CONTRAST_LABELS = {"tau_ap": "tau-AP", "weighted_tau": "weighted tau"}


def _record(v: PairVerdict) -> str:
    return f"{v.wins:,} wins / {v.ties:,} ties / {v.losses:,} losses"


def verdict_p(v: PairVerdict) -> float:
    """The randomization p the verdict rests on: under its ``correction`` (``p_holm`` for a Holm verdict
    built without ``p_adjusted``).

    >>> from coreb_core.evaluation.significance import BONFERRONI
    >>> v = PairVerdict("r2", "r1", "ndcg_at_10", "t2c", 216, 0.013, 0.004, 0.022, 0.0004, 0.0008, True, 87, 37, 92)
    >>> verdict_p(v), verdict_p(v._replace(correction=BONFERRONI, p_adjusted=0.0012))
    (0.0008, 0.0012)
    """
    return v.p_holm if math.isnan(v.p_adjusted) and v.correction.name == "holm" else v.p_adjusted


def verdict_sentence(v: PairVerdict, names: Mapping[str, str]) -> str:
    """The comparison of two runs in one sentence: who wins, by how many points (bootstrap 95% CI),
    whether that survives the verdict's correction (Holm, Bonferroni or Benjamini–Hochberg), and the
    per-query record. ``names`` maps run ids to the names to print (``ui.widgets.run_label``); an id
    without a name is printed as is.

    >>> v = PairVerdict("r2", "r1", "ndcg_at_10", "t2c", 216, 0.013, 0.004, 0.022, 0.0004, 0.0008, True, 87, 37, 92)
    >>> verdict_sentence(v, {"r1": "bm25", "r2": "minilm"})
    'minilm beats bm25 on T2C nDCG@10 by 1.3 points (95% CI 0.4–2.2), significant after Holm correction (p < 0.001), 87 wins / 37 ties / 92 losses over 216 shared queries.'
    >>> verdict_sentence(v._replace(p=0.2, p_holm=0.388, significant=False, ci_low=-0.005), {"r1": "bm25"})
    'r2 is not significantly different from bm25 on T2C nDCG@10 (+1.3 points, 95% CI −0.5 to 2.2; p = 0.39 after Holm correction), 87 wins / 37 ties / 92 losses over 216 shared queries.'
    >>> from coreb_core.evaluation.significance import BONFERRONI
    >>> print(verdict_sentence(v._replace(correction=BONFERRONI, p_adjusted=0.06, significant=False), {}))
    r2 is not significantly different from r1 on T2C nDCG@10 (+1.3 points, 95% CI 0.4–2.2; p = 0.060 after
    Bonferroni correction), 87 wins / 37 ties / 92 losses over 216 shared queries.
    """
    a, b = names.get(v.a, v.a), names.get(v.b, v.b)
    where = f"on {v.task.upper()} {metric_label(v.metric)}"
    if v.shared == 0:
        return f"{a} and {b} share no queries {where}: there is nothing to compare."
    tail = f"{_record(v)} over {v.shared:,} shared queries."
    after, p = f"after {CORRECTION_NAMES[v.correction.name]} correction", verdict_p(v)
    if v.significant:
        return (f"{a} beats {b} {where} by {v.delta * 100:.1f} points (95% CI {interval_text(v.ci_low, v.ci_high)}), "
                f"significant {after} ({p_text(p, RESOLUTION)}), {tail}")
    return (f"{a} is not significantly different from {b} {where} ({signed_points(v.delta)} points, 95% CI "
            f"{interval_text(v.ci_low, v.ci_high)}; {p_text(p, RESOLUTION)} {after}), {tail}")


# The verdict table's columns in words, in the frame's order; the page shows them in VERDICT_SHOWN's order
# (each p beside the other). p_holm_text is always Holm's; p_text and p_ttest_text are under the chosen correction.
VERDICT_COLUMNS = ["better", "other", "delta_points", "delta_ci", "p_holm_text", "verdict", "record", "p_text",
                   "p_ttest_text"]
VERDICT_SHOWN = ["better", "other", "delta_points", "delta_ci", "p_text", "p_ttest_text", "verdict", "record"]


def verdict_table(pairs: pd.DataFrame, verdicts: Iterable[PairVerdict], names: Mapping[str, str]) -> pd.DataFrame:
    """``pairs`` (``pair_table``) with the deciding columns first, in words: the better and the other
    run's names, Δ in points, its 95% CI, the Holm-corrected p as text, the verdict and the record, then
    the randomization and the paired t-test p under the verdicts' correction as text; the library's columns
    (ids, fractions, raw p-values) follow, for the CSV.

    >>> from coreb_core.evaluation.significance import BH
    >>> v = PairVerdict("r2", "r1", "ndcg_at_10", "t2c", 216, 0.013, 0.004, 0.022, 0.0004, 0.0008, True, 87, 37, 92,
    ...                 BH, 0.0008, 0.0002, 0.0004)
    >>> verdict_table(pd.DataFrame({"a": ["r1"], "b": ["r2"]}), [v], {"r1": "bm25", "r2": "minilm"}).iloc[0].astype(str).tolist()
    ['minilm', 'bm25', '1.3', '0.4–2.2', 'p < 0.001', 'significant', '87 / 37 / 92', 'p < 0.001', 'p < 0.001',
     'r1', 'r2']
    """
    rows = [{"better": names.get(v.a, v.a), "other": names.get(v.b, v.b), "delta_points": round(v.delta * 100, 1),
             "delta_ci": interval_text(v.ci_low, v.ci_high), "p_holm_text": p_text(v.p_holm, RESOLUTION),
             "verdict": "significant" if v.significant else "not significant",
             "record": f"{v.wins} / {v.ties} / {v.losses}", "p_text": p_text(verdict_p(v), RESOLUTION),
             "p_ttest_text": "—" if math.isnan(v.p_ttest_adjusted) else p_text(v.p_ttest_adjusted)} for v in verdicts]
    front = pd.DataFrame(rows, columns=VERDICT_COLUMNS, index=pairs.index)
    return pd.concat([front, pairs], axis=1)


# ---------------------------------------------------------------- model selection
# The recommendation's score columns: fractions in the library, x100 points on the page.
SELECTION_POINTS = ("mean", "ci_low", "ci_high", "trap_share", *TASK_NAMES)


def selection_points(frame: pd.DataFrame) -> pd.DataFrame:
    """A ranked frame of ``coreb_core.analysis.selection`` with its fractions as x100 points.

    >>> selection_points(pd.DataFrame({"model": ["bm25"], "mean": [0.48], "t2c": [0.4321]}))
      model  mean   t2c
    0  bm25  48.0  43.2
    """
    return pct_columns(frame, [c for c in SELECTION_POINTS if c in frame.columns])


# The printable view shows only header, sentence, tables and chart: no sidebar, no Streamlit header (menu,
# Deploy), no toggle; buttons (downloads, "leave printable view") stay on screen but not on paper.
PRINTABLE_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"], .st-key-sel_print { display: none !important; }
@media print {
  [data-testid="stDownloadButton"], [data-testid="stButton"] { display: none !important; }
  [data-testid="stMainBlockContainer"] { padding-top: 0 !important; }
}
</style>"""


# ---------------------------------------------------------------- qrel deflation
# The page's explanations of coreb_core.analysis.deflation's numbers.
WHY_V2_DEFLATES = ("v2 scores lower than v1 because v1 counted as hits, or did not rank at all, documents that v2 "
                   "treats as traps: the problem's failing solutions on T2C, and on C2T the noise descriptions, "
                   "which v1's text corpus did not have. Under v2 they earn nothing and push the positives down.")
# Where the v1 - v2 difference comes from, task by task (the rules above, in one sentence each).
WHERE_IT_COMES_FROM = {
    "t2c": "T2C: v1 counts every solution of the problem in the query's language as a hit, failing ones too; "
           "v2 counts only verified-correct ones (failing solutions are traps or unjudged), except T2C search, "
           "whose generator rule makes some failing solutions positives and some passing ones traps.",
    "c2c": "C2C: no difference by rule: v1's positives were already the verified-correct solutions, the v2 "
           "positives, so any non-zero gap here would be an error.",
    "c2t": "C2T: the noise descriptions did not exist in v1's text corpus: without them in the ranking the "
           "original description rises, and c2t_match label-0 pairs score 0 under both.",
}
ARTICLE_CLAIM = ("The seed article's \"from v1 to v2 nearly every model's nDCG@10 fell by 10–15 points\" is this "
                 "same quantity (v1 rules minus v2) measured on the real release, not on CoREB-mini.")


def deflation_sentence(finding: Deflation, label: str) -> str:
    """The page's answer for one run and task, or all tasks (Markdown, the run's label escaped): both scores and
    the overstatement, x100, as the reader subtracts the two scores shown.

    >>> print(deflation_sentence(Deflation("r1", "t2c", v1=0.61, v2=0.48, queries=720), "bm25"))
    **bm25 · T2C**: v1 rules score 61.0, v2 scores 48.0: v1 overstates by **13.0 points** (720 queries).
    >>> print(deflation_sentence(Deflation("r1", "all tasks", v1=0.4123, v2=0.2851, queries=2601, average="queries"),
    ...                          "bm25"))
    **bm25 · all tasks**: v1 rules score 41.2, v2 scores 28.5: v1 overstates by **12.7 points** overall (2,601 queries, each weighing the same).
    >>> print(deflation_sentence(Deflation("r1", "all tasks", v1=0.394, v2=0.301, queries=2601, average="tasks"), "bm25"))
    **bm25 · all tasks**: v1 rules score 39.4, v2 scores 30.1: v1 overstates by **9.3 points** overall (the mean of the task means, each task weighing the same).
    """
    every = finding.task == ALL_TASKS
    where = ALL_TASKS if every else finding.task.upper()
    tail = (f" ({finding.queries:,} queries)" if not every else
            f" overall ({finding.queries:,} queries, each weighing the same)" if finding.average == "queries" else
            " overall (the mean of the task means, each task weighing the same)")
    return (f"**{plain(label)} · {where}**: v1 rules score {points(finding.v1)}, v2 scores {points(finding.v2)}: "
            f"v1 overstates by **{shown_difference(finding.v1, finding.v2):.1f} points**{tail}.")


AVERAGE_NAMES = {"tasks": "the mean of task means", "queries": "the query-weighted mean"}


def average_flip_sentence(flip: OrderFlip, labels: Mapping[str, str]) -> str:
    """Two runs the two averages of v2 order differently, in words (``analysis.deflation.average_flips``: the
    first view is the mean of task means).

    >>> print(average_flip_sentence(OrderFlip("b", "m", 0.301, 0.295, 0.285, 0.305), {"b": "BM25", "m": "MiniLM"}))
    The two averages order BM25 and MiniLM differently under v2: BM25 is above under the mean of task means (30.1 vs 29.5), MiniLM under the query-weighted mean (30.5 vs 28.5).
    """
    a, b = plain(labels.get(flip.a, flip.a)), plain(labels.get(flip.b, flip.b))
    return (f"The two averages order {a} and {b} differently under v2: {a} is above under {AVERAGE_NAMES['tasks']} "
            f"({points(flip.a_one)} vs {points(flip.b_one)}), {b} under {AVERAGE_NAMES['queries']} "
            f"({points(flip.b_other)} vs {points(flip.a_other)}).")


def scheme_flip_sentence(flip: OrderFlip, task: str, labels: Mapping[str, str]) -> str:
    """Two runs whose order on ``task`` flips between v2 and the v1 rules, in words (``scheme_flips``).

    >>> print(scheme_flip_sentence(OrderFlip("b", "m", 0.208, 0.195, 0.25, 0.27), "t2c", {"b": "BM25", "m": "MiniLM"}))
    On T2C the v1 rules and v2 order BM25 and MiniLM differently: BM25 is above under v2 (20.8 vs 19.5), MiniLM under the v1 rules (27.0 vs 25.0).
    """
    a, b = plain(labels.get(flip.a, flip.a)), plain(labels.get(flip.b, flip.b))
    return (f"On {task.upper()} the v1 rules and v2 order {a} and {b} differently: {a} is above under v2 "
            f"({points(flip.a_one)} vs {points(flip.b_one)}), {b} under the v1 rules "
            f"({points(flip.b_other)} vs {points(flip.a_other)}).")


def gap_labels(low: Iterable[float], high: Iterable[float]) -> list[str]:
    """Rank-gap bins [low, high) in words: one value, a range, or an open last bin (high missing).

    >>> gap_labels([1, 3, 51], [2, 6, float("nan")])
    ['1', '3–5', '≥ 51']
    """
    out = []
    for lo, hi in zip(low, high):
        lo = int(lo)
        if pd.isna(hi):
            out.append(f"≥ {lo}")
        else:
            out.append(str(lo) if int(hi) == lo + 1 else f"{lo}–{int(hi) - 1}")
    return out


def fraction_ranges(low: Iterable[float], high: Iterable[float]) -> list[str]:
    """Bins of fractions as percent ranges.

    >>> fraction_ranges([0.0, 0.8], [0.2, 1.0])
    ['0–20%', '80–100%']
    """
    return [f"{round(lo * 100)}–{round(hi * 100)}%" for lo, hi in zip(low, high)]


# ---------------------------------------------------------------- surface bias in words
SURFACE_TOO_FEW = 10  # below this many trap wins or correct orderings, the sentence says it cannot tell
SURFACE_ALPHA = 0.05


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def surface_sentence(finding: SurfaceFinding, label: str) -> str:
    """One run and task: how often the trap shared more words with the query, in its trap wins and in
    its correct orderings, and what that says (Markdown, the run's label escaped; shares x100). Fewer
    than 10 in either group, or a difference a z-test cannot tell from chance, is said as such.

    >>> print(surface_sentence(SurfaceFinding("r1", "t2c", 140, 87, 500, 175, 0.00001), "minilm"))
    **minilm · T2C**: the trap had more words in common with the query than the positive in 62.1% of its 140 trap wins, against 35.0% of its 500 correct orderings (p < 0.001): surface similarity explains part of its trap wins.
    >>> print(surface_sentence(SurfaceFinding("r1", "c2c", 3, 2, 40, 10, 0.2), "bm25"))
    **bm25 · C2C**: the trap had more words in common with the query than the positive in 66.7% of its 3 trap wins, against 25.0% of its 40 correct orderings (p = 0.20): too few trap wins to tell whether surface similarity explains them.
    >>> print(surface_sentence(SurfaceFinding("r1", "c2t", 0, 0, 40, 10, float("nan")), "bm25"))
    **bm25 · C2T**: no trap win, so there is nothing for surface similarity to explain.
    """
    name = f"**{plain(label)} · {finding.task.upper()}**"
    if finding.trap_wins == 0:
        return f"{name}: no trap win, so there is nothing for surface similarity to explain."
    head = (f"{name}: the trap had more words in common with the query than the positive in "
            f"{finding.share_wins * 100:.1f}% of its {_count(finding.trap_wins, 'trap win', 'trap wins')}")
    if finding.correct == 0:
        return f"{head}; with no correct ordering to compare with, that says nothing about surface bias."
    head += (f", against {finding.share_correct * 100:.1f}% of its "
             f"{_count(finding.correct, 'correct ordering', 'correct orderings')} ({p_text(finding.p_value)})")
    if finding.trap_wins < SURFACE_TOO_FEW or finding.correct < SURFACE_TOO_FEW:
        few = "trap wins" if finding.trap_wins < SURFACE_TOO_FEW else "correct orderings"
        return f"{head}: too few {few} to tell whether surface similarity explains them."
    if finding.p_value < SURFACE_ALPHA and finding.share_wins > finding.share_correct:
        return f"{head}: surface similarity explains part of its trap wins."
    if finding.p_value < SURFACE_ALPHA:
        return f"{head}: its traps win with fewer shared words than usual, so surface similarity does not explain them."
    return f"{head}: no clear difference, so surface similarity does not explain its trap wins."


# ---------------------------------------------------------------- the embedding map's legend
# The query red, positives green, neighbours grey; each trap kind its own warm or violet hue.
_TRAP_COLOURS = {"failing_solution": "#ff7f0e", "wrong_language": "#9467bd", "other_model": "#8c564b",
                 "noise_description": "#e377c2", "judged_non_match": "#bcbd22", "not_a_positive": "#17becf"}
MAP_COLOURS = {"query": "#d62728", "positive": "#2ca02c", "neighbour": "#a0a0a0",
               **{f"trap · {TRAP_KIND_LABELS[k]}": c for k, c in _TRAP_COLOURS.items()}}


def map_labels(roles: Iterable[str], kinds: Iterable[str | None]) -> list[str]:
    """The embedding map's colour label of each point: its role, and a trap's kind in words.

    >>> map_labels(["query", "trap", "positive"], [None, "wrong_language", None])
    ['query', 'trap · correct, wrong language', 'positive']
    """
    return [f"trap · {TRAP_KIND_LABELS.get(str(kind), str(kind).replace('_', ' '))}" if role == "trap" else str(role)
            for role, kind in zip(roles, kinds)]


def relabel_sentence(view: Any, labels: Mapping[str, str]) -> str:
    """The corrected-labels section's answer (Markdown): which runs' rank or tier moves under the reading, and whether
    the verdict flips, with the verdict under the reading.

    >>> from coreb_core.analysis.relabel import RunChange
    >>> from types import SimpleNamespace
    >>> v = SimpleNamespace(reading="executed", changes=(RunChange("a", 1, 2, 1, 1, 0.3, 0.2),
    ...                     RunChange("b", 2, 1, 1, 1, 0.25, 0.26)), flips=True, verdict_other="Choose b.")
    >>> print(relabel_sentence(v, {"a": "bm25", "b": "minilm"}))
    Under **executed**, rank or tier moves for **2 of 2 runs** (bm25: rank 1 → 2; minilm: rank 2 → 1) and **the verdict flips**: Choose b.
    """
    moved = [c for c in view.changes if c.moved]

    def move(c: Any) -> str:
        parts = ([f"rank {c.rank_base} → {c.rank_other}"] if c.rank_base != c.rank_other else []) + \
                ([f"tier {c.tier_base} → {c.tier_other}"] if c.tier_base != c.tier_other else [])
        return f"{plain(labels.get(c.run, c.run))}: {', '.join(parts)}"
    where = f" ({'; '.join(move(c) for c in moved)})" if moved else ""
    flip = "**the verdict flips**" if view.flips else "the verdict does not flip"
    return (f"Under **{view.reading}**, rank or tier moves for **{len(moved)} of {len(view.changes)} runs**{where} and "
            f"{flip}: {plain(view.verdict_other)}")


def official_verdict_sentence(verdict: Any) -> str:
    """Model selection's line under a corrected reading (Markdown): the official v2 verdict on the same slice, and
    whether the reading flips it (``views.relabel.OfficialVerdict``).

    >>> from types import SimpleNamespace
    >>> print(official_verdict_sentence(SimpleNamespace(reading="executed", sentence="Choose bm25.", flips=False)))
    Under the official labels (v2) the verdict is the same: Choose bm25. This ranking reads **executed** labels, which are not official.
    """
    how = ("**The verdict flips** against the official labels (v2), where it reads:" if verdict.flips
           else "Under the official labels (v2) the verdict is the same:")
    return f"{how} {plain(verdict.sentence)} This ranking reads **{verdict.reading}** labels, which are not official."
