"""The model-selection verdict in words, one wording for the page, the HTML report and the CLI.

``recommendation_sentence`` says what to choose, or that there is no clear winner, from
``Recommendation.standings`` (the first run against the others, Holm-corrected);
``evidence_sentence`` gives the first run's numbers. Both take the same ``Recommendation``, so the
three places cannot disagree.

Example (a two-run recommendation, see ``recommendation_sentence``):
    >>> recommendation_sentence(rec)   # doctest: +SKIP
    'No clear winner: minilm and BM25 cannot be told apart on nDCG@10 for T2C (all languages) ...'
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from coreb_core.analysis.deflation import order_flips
from coreb_core.analysis.leaderboard import canonical_model
from coreb_core.analysis.selection import (
    MEMORY_UNMEASURED,
    MISSING_TASKS,
    NO_QUERIES,
    OVER_BUDGET,
    OVER_MEMORY,
    OVER_SPEED,
    PARAMS_UNKNOWN,
    PUBLISHED_ONLY,
    SPEED_UNMEASURED,
    LeftOut,
    Recommendation,
    Standing,
    parameter_text,
)
from coreb_core.data.measures import metric_label
from coreb_core.data.schema import LANGUAGE_SCOPES
from coreb_core.evaluation.significance import adaptive_limit
from coreb_core.present.display import selection_points
from coreb_core.present.format import release_words
from coreb_core.present.numbers import interval_text, points, shown_difference
from coreb_core.present.tiers import rank_range
from coreb_core.results.published import release_relation
from coreb_core.runs.cost import LEXICAL as LEXICAL_COST
from coreb_core.runs.cost import cost_words, speed_words
from coreb_core.text import p_text

AVERAGE_WORDS = {"tasks": "mean of task means", "queries": "query-weighted mean"}


def languages_words(languages: tuple[str, ...]) -> str:
    """``all languages`` when every scope is chosen, else the chosen ones.

    >>> languages_words(LANGUAGE_SCOPES), languages_words(("python", "java"))
    ('all languages', 'python, java')
    """
    return "all languages" if set(LANGUAGE_SCOPES) <= set(languages) else ", ".join(languages)


def budget_words(budget_b: float | None) -> str:
    """The parameter limit in words.

    >>> budget_words(None), budget_words(0.6)
    ('no parameter limit', 'at most 600 M parameters')
    """
    return "no parameter limit" if budget_b is None else f"at most {parameter_text(budget_b)} parameters"


def cost_limit_words(rec: Recommendation) -> list[str]:
    """The cost limits set, in words (none: an empty list).

    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks")
    >>> cost_limit_words(rec._replace(max_ms_per_text=2.5, max_memory_gb=4))
    ['at most 2.5 ms per text', 'at most 4 GB peak memory']
    """
    out = []
    if rec.max_ms_per_text is not None:
        out.append(f"at most {rec.max_ms_per_text:g} ms per text")
    if rec.max_memory_gb is not None:
        out.append(f"at most {rec.max_memory_gb:g} GB peak memory")
    return out


def slice_words(rec: Recommendation) -> str:
    """The chosen slice: tasks · languages · budget (· cost limits, when set).

    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c", "c2c"), LANGUAGE_SCOPES, 1.0, "tasks")
    >>> slice_words(rec)
    'T2C, C2C · all languages · at most 1 B parameters'
    >>> slice_words(rec._replace(max_memory_gb=2.0))
    'T2C, C2C · all languages · at most 1 B parameters · at most 2 GB peak memory'
    """
    return " · ".join([", ".join(t.upper() for t in rec.tasks), languages_words(rec.languages),
                       budget_words(rec.budget_b), *cost_limit_words(rec)])


def params_words(value: float | None) -> str:
    """``22.7 M parameters``, ``no learned parameters (lexical)`` or ``parameters not reported``.

    >>> params_words(0.0227), params_words(0.0), params_words(None)
    ('22.7 M parameters', 'no learned parameters (lexical)', 'parameters not reported')
    """
    if value is None or pd.isna(value):
        return "parameters not reported"
    return "no learned parameters (lexical)" if value == 0 else f"{parameter_text(value)} parameters"


def selection_header(rec: Recommendation, scheme: str, release: str) -> str:
    """The line naming the constraints the recommendation answers.

    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c", "c2t"), ("python",), 0.1, "tasks")
    >>> selection_header(rec, "v2", "demo_v2603")
    'T2C, C2T · python · at most 100 M parameters · nDCG@10 ×100 · mean of task means · scheme v2 · release demo_v2603'
    """
    return (f"{slice_words(rec)} · {metric_label(rec.metric)} ×100 · {AVERAGE_WORDS[rec.average]} · scheme {scheme} · "
            f"{release_words(release)}")


def _name(s: Standing, names: Mapping[str, str]) -> str:
    return names.get(s.run, s.model)


def tasks_words(tasks: tuple[str, ...]) -> str:
    """Task names joined for a sentence.

    >>> tasks_words(("c2t",)), tasks_words(("t2c", "c2t")), tasks_words(("t2c", "c2c", "c2t"))
    ('C2T', 'T2C and C2T', 'T2C, C2C and C2T')
    """
    upper = [t.upper() for t in tasks]
    return upper[0] if len(upper) == 1 else f"{', '.join(upper[:-1])} and {upper[-1]}"


def left_out_sentence(left: LeftOut, names: Mapping[str, str] | None = None) -> str:
    """Why a run is not in the ranking, in one sentence (the page, the report and the CLI alike).

    >>> left_out_sentence(LeftOut("r1", "bm25 · c2c only", 0.0, MISSING_TASKS, ("t2c", "c2t")))
    'bm25 · c2c only is left out: it has no evaluated T2C and C2T queries, so its mean would not cover every chosen task.'
    >>> left_out_sentence(LeftOut("r2", "minilm", 0.0227, OVER_BUDGET, budget_b=0.01), {"r2": "MiniLM"})
    'MiniLM is left out: its 22.7 M parameters exceed the 10 M limit.'
    """
    name = (names or {}).get(left.run, left.model)
    if left.why == MISSING_TASKS:
        return (f"{name} is left out: it has no evaluated {tasks_words(left.tasks)} queries, so its mean would not "
                "cover every chosen task.")
    if left.why == OVER_BUDGET:
        return (f"{name} is left out: its {parameter_text(left.params_b)} parameters exceed the "
                f"{parameter_text(left.budget_b)} limit.")
    if left.why == PARAMS_UNKNOWN:
        return f"{name} is left out: its parameter count is unknown and a parameter limit is set."
    if left.why in (OVER_SPEED, OVER_MEMORY):
        return f"{name} is left out: its {left.reason()}."
    if left.why == SPEED_UNMEASURED:
        why = ("its vectors all came from the embedding cache, so the run timed no encoding" if left.cached else
               "its run recorded no encoding speed (made before costs were recorded, imported or reranked)")
        return f"{name} is left out: {why}, and a speed limit is set."
    if left.why == MEMORY_UNMEASURED:
        why = ("its vectors all came from the embedding cache, so no model was loaded and its peak memory is not the "
               "model's" if left.cached else
               "its run recorded no peak memory (made before costs were recorded, imported or reranked)")
        return f"{name} is left out: {why}, and a memory limit is set."
    assert left.why == NO_QUERIES, left.why
    return f"{name} is left out: it has no evaluated queries in the chosen tasks and languages."


def resolution_flips(rec: Recommendation) -> int:
    """The most sign flips a standing's test drew (adaptive, ``significance.adaptive_limit``): its p's resolution.

    >>> resolution_flips(Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks"))
    200000
    """
    return adaptive_limit(rec.n_permutations)


def versus_first_words(s: Standing, flips: int | None = None) -> str:
    """A ranked run against the first, in words (the CLI's and the report's column).

    >>> s = Standing(2, "r1", "bm25", 0.0, 720, 0.31, 0.28, 0.34, 0.4, -0.07, 0.0001, 0.0001, True, 220, 200, 300)
    >>> versus_first_words(s), versus_first_words(s._replace(wins=0, ties=0, losses=0, p=float("nan")))
    ('below (p < 0.001)', 'not compared: no query in common')
    """
    if s.rank == 1:
        return "best"
    if not s.compared:
        return "not compared: no query in common"
    return f"{'below' if s.significant else 'not distinguishable'} ({p_text(s.p_holm, flips)})"


def recommendation_sentence(rec: Recommendation, names: Mapping[str, str] | None = None) -> str:
    """The verdict in one sentence: choose the first-ranked run when it beats the second significantly
    after Holm correction, else "No clear winner". ``names`` maps run ids to the names to print; without
    it a run's ``model`` name is used. Scores are x100 points.

    >>> s1 = Standing(1, "r2", "minilm", 0.0227, 720, 0.381, 0.35, 0.41, 0.31, 0.0, float("nan"), float("nan"),
    ...               False, 0, 0, 0)
    >>> s2 = Standing(2, "r1", "bm25", 0.0, 720, 0.31, 0.28, 0.34, 0.4, -0.071, 0.0001, 0.0001, True, 220, 200, 300)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, 0.1, "tasks",
    ...                      standings=(s1, s2))
    >>> recommendation_sentence(rec)
    'Choose minilm: best nDCG@10 on T2C (all languages) among our runs with at most 100 M parameters (38.1 vs 31.0 for bm25, 7.1 points ahead, significant after Holm correction, p < 0.001).'
    >>> recommendation_sentence(rec._replace(standings=(s1, s2._replace(p_holm=0.39, significant=False))), {"r1": "BM25"})
    'No clear winner: minilm and BM25 cannot be told apart on nDCG@10 for T2C (all languages) among our runs with at most 100 M parameters (38.1 vs 31.0: the 7.1-point difference is not significant, p = 0.39 after Holm correction).'
    >>> tie = s2._replace(mean=0.3806, p_holm=1.0, significant=False)   # 38.1 and 38.1 shown
    >>> recommendation_sentence(rec._replace(standings=(s1, tie), budget_b=None), {"r1": "BM25"})
    'No clear winner: minilm and BM25 cannot be told apart on nDCG@10 for T2C (all languages) among our runs (38.1 and 38.1, p = 1.0 after Holm correction).'
    >>> recommendation_sentence(rec._replace(standings=(s1,), budget_b=None))
    'Choose minilm: it is the only run that qualifies for T2C (all languages) among our runs (nDCG@10 38.1, 95% CI 35.0–41.0).'
    """
    names = names or {}
    label = metric_label(rec.metric)
    flips = resolution_flips(rec)  # the most flips a test drew: the digits its p supports
    where = f"{', '.join(t.upper() for t in rec.tasks)} ({languages_words(rec.languages)})"
    limits = ([budget_words(rec.budget_b)] if rec.budget_b is not None else []) + cost_limit_words(rec)
    # "our runs": the ranking holds the runs stored here; published models are not in it (``published_above_sentence``)
    among = "among our runs" if not limits else \
        f"among our runs with {limits[0] if len(limits) == 1 else ', '.join(limits[:-1]) + ' and ' + limits[-1]}"
    if not rec.standings:
        return f"No run qualifies for {slice_words(rec)}."
    top = rec.standings[0]
    first = _name(top, names)
    if len(rec.standings) == 1:
        return (f"Choose {first}: it is the only run that qualifies for {where} {among} ({label} "
                f"{points(top.mean)}, 95% CI {points(top.ci_low)}–{points(top.ci_high)}).")
    second = rec.standings[1]
    other = _name(second, names)
    if not second.compared:  # no query both scored: two means over different queries, no test
        return (f"No clear winner: {first} and {other} share no query in {where}, so they cannot be compared "
                f"({points(top.mean)} and {points(second.mean)} are means over different queries).")
    # The gap of the printed (rounded) scores, so that the sentence's arithmetic adds up; unsigned, as a lead.
    shown = shown_difference(top.mean, second.mean)
    if second.significant:
        gap = f"{shown:.1f} points ahead" if shown > 0 else "ahead by less than 0.1 point"
        return (f"Choose {first}: best {label} on {where} {among} ({points(top.mean)} vs {points(second.mean)} for "
                f"{other}, {gap}, significant after Holm correction, {p_text(second.p_holm, flips)}).")
    # Not significant: a tie, said as one (no "leads", no lead in points); the shown difference only when there is one.
    scores = (f"{points(top.mean)} and {points(second.mean)}, " if shown == 0 else
              f"{points(top.mean)} vs {points(second.mean)}: the {shown:.1f}-point difference is not significant, ")
    return (f"No clear winner: {first} and {other} cannot be told apart on {label} for {where} {among} "
            f"({scores}{p_text(second.p_holm, flips)} after Holm correction).")


def average_order_sentence(rec: Recommendation, names: Mapping[str, str] | None = None, shown: int = 3) -> str:
    """'' or, where the average not chosen orders two ranked runs the other way (``Recommendation.other_means``),
    a sentence naming them with both pairs of scores.

    >>> s1 = Standing(1, "b", "bm25", 0.0, 9, 0.301, 0.2, 0.4, 0.3, 0.0, float("nan"), float("nan"), False, 0, 0, 0)
    >>> s2 = s1._replace(rank=2, run="m", model="minilm", mean=0.295)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks",
    ...                      standings=(s1, s2), other_means={"b": 0.285, "m": 0.305})
    >>> print(average_order_sentence(rec))
    The two averages order these runs differently: bm25 is above minilm under the mean of task means (30.1 vs 29.5) but below it under the query-weighted mean (28.5 vs 30.5); the ranking uses the mean of task means, the other is one option away.
    >>> average_order_sentence(rec._replace(other_means={"b": 0.31, "m": 0.30}))
    ''
    """
    if not rec.other_means or len(rec.standings) < 2:
        return ""
    names = names or {}
    chosen = {s.run: s.mean for s in rec.standings if s.run in rec.other_means}
    model = {s.run: _name(s, names) for s in rec.standings}
    return average_order_words(chosen, {r: rec.other_means[r] for r in chosen}, rec.average, model, shown)


def average_order_words(chosen: Mapping[str, float], other: Mapping[str, float], average: str,
                        names: Mapping[str, str], shown: int = 3) -> str:
    """'' or a sentence naming the runs that ``chosen`` (means under ``average``) and ``other`` (under the other
    average) order differently (``average_order_sentence``; the ``tiers`` verb's too)."""
    flips = order_flips(chosen, other)
    if not flips:
        return ""
    this = AVERAGE_WORDS[average]
    that = AVERAGE_WORDS["queries" if average == "tasks" else "tasks"]
    model = {r: names.get(r, r) for r in chosen}
    parts = [f"{model[f.a]} is above {model[f.b]} under the {this} ({points(f.a_one)} vs {points(f.b_one)}) but "
             f"below it under the {that} ({points(f.a_other)} vs {points(f.b_other)})" for f in flips[:shown]]
    more = f"; and {len(flips) - shown} more pairs" if len(flips) > shown else ""
    return (f"The two averages order these runs differently: {'; '.join(parts)}{more}; the ranking uses the {this}, "
            "the other is one option away.")


def is_tie(rec: Recommendation) -> bool:
    """Whether nothing sets the first-ranked run apart from the second (not significant after Holm, or not
    compared): then there is no recommended run, only runs listed first.

    >>> s = Standing(2, "r1", "bm25", 0.0, 720, 0.31, 0.28, 0.34, 0.4, 0.0, 1.0, 1.0, False, 0, 720, 0)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks")
    >>> is_tie(rec._replace(standings=(s._replace(rank=1), s))), is_tie(rec._replace(standings=(s,)))
    (True, False)
    """
    return len(rec.standings) >= 2 and not rec.standings[1].significant


def published_above_sentence(rec: Recommendation, published: pd.DataFrame, relation: str,
                             ran: frozenset[str] = frozenset(), shown: int = 5) -> str:
    """The published models that score higher than our first-ranked run on the slice and were not run here (their
    names in ``published_figures.json`` not in ``ran``), or '' when none: a choice among our runs is not a choice
    among all models. ``published`` is ``recommend_published``'s ranked frame (fractions); ``relation`` says which
    release the figures are of.

    >>> s1 = Standing(1, "r1", "bm25", 0.0, 720, 0.301, 0.28, 0.33, 0.4, 0.0, float("nan"), float("nan"), False, 0, 0, 0)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks", standings=(s1,))
    >>> pub = pd.DataFrame({"model": ["C2LLM-7B", "F2LLM-4B", "Old"], "mean": [0.65, 0.612, 0.2]})
    >>> published_above_sentence(rec, pub, "real CoREB v202603, not this release", frozenset({"F2LLM-4B"}))
    'Published models score higher on this slice and were not run here: C2LLM-7B 65.0 (published figures, real CoREB v202603, not this release).'
    >>> published_above_sentence(rec, pub.head(0), "this release")
    ''
    """
    if not rec.standings or published is None or published.empty:
        return ""
    best = round(rec.standings[0].mean * 100, 1)
    here = {canonical_model(m) for m in ran}  # "Jina-code-emb-1.5B" in the paper is "Jina-code-1.5B" in the registry
    above = [(str(m), v) for m, v in zip(published["model"], published["mean"])
             if pd.notna(v) and round(float(v) * 100, 1) > best and canonical_model(str(m)) not in here]
    if not above:
        return ""
    listed = ", ".join(f"{m} {points(v)}" for m, v in above[:shown])
    more = f" and {len(above) - shown} more" if len(above) > shown else ""
    return (f"Published models score higher on this slice and were not run here: {listed}{more} "
            f"(published figures, {relation}).")


def evidence_sentence(rec: Recommendation, scheme: str, names: Mapping[str, str] | None = None) -> str:
    """The first-ranked run's evidence: score, interval, queries, scheme, trap share, parameters, and its
    per-query record against the second.

    >>> s1 = Standing(1, "r1", "bm25", None, 720, 0.48, 0.45, 0.51, 0.31, 0.0, float("nan"), float("nan"), False, 0, 0, 0)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks", standings=(s1,))
    >>> print(evidence_sentence(rec, "v2"))
    bm25 ranks first with mean nDCG@10 48.0 (95% CI 45.0–51.0, 720 queries, scheme v2), lost to a trap on 31.0% of the queries with a positive, parameters not reported. Its cost was not measured.
    >>> s2 = Standing(2, "r2", "minilm", 0.0227, 720, 0.47, 0.44, 0.50, 0.4, -0.01, 0.2, 0.2, False, 300, 100, 320)
    >>> print(evidence_sentence(rec._replace(standings=(s1, s2)), "v2"))  # doctest: +ELLIPSIS
    bm25 is listed first ... parameters not reported; against minilm it wins 320 queries, ties 100 and loses 300. Its cost was not measured.
    """
    names = names or {}
    if not rec.standings:
        return f"No run qualifies for {slice_words(rec)}."
    top = rec.standings[0]
    placed = "is listed first" if is_tie(rec) else "ranks first"  # a tie has no first place, only an order
    text = (f"{_name(top, names)} {placed} with mean {metric_label(rec.metric)} {points(top.mean)} (95% CI "
            f"{points(top.ci_low)}–{points(top.ci_high)}, {top.queries:,} queries, scheme {scheme}), lost to a trap on "
            f"{points(top.trap_share)}% of the queries with a positive, {params_words(top.params_b)}")
    cost = f" Its cost: {cost_words(top.cost)}." if top.cost else " Its cost was not measured."
    if len(rec.standings) == 1:
        return text + "." + cost
    second = rec.standings[1]  # its wins are the first run's losses
    if not second.compared:
        return text + f"; it shares no query with {_name(second, names)}." + cost
    return (text + f"; against {_name(second, names)} it wins {second.losses:,} queries, ties {second.ties:,} and loses "
            f"{second.wins:,}." + cost)


def published_empty_text(excluded: pd.DataFrame) -> str:
    """Why no published model is listed, from ``recommend_published``'s excluded frame.

    >>> published_empty_text(pd.DataFrame({"reason": ["7 B parameters exceed the 100 M budget",
    ...     "500 M parameters exceed the 100 M budget", "parameter count unknown"]}))
    'No published model fits these constraints: 2 models are over the 100 M budget; 1 model has no parameter count.'
    >>> published_empty_text(pd.DataFrame({"reason": ["no published T2C figures per language"] * 11}))
    'No published model fits these constraints: the paper prints no T2C figures per language (11 models).'
    """
    if excluded.empty:
        return "No published figures are available."
    # Budget reasons name each model's size; group them by the budget alone.
    reasons = excluded["reason"].astype(str).str.replace(r"^.* parameters exceed the (.*) budget$", r"over the \1 budget",
                                                         regex=True)
    counts = reasons.value_counts(sort=True)
    return "No published model fits these constraints: " + "; ".join(_reason_words(r, n) for r, n in counts.items()) + "."


def _reason_words(reason: str, n: int) -> str:
    """One grouped reason of ``published_empty_text`` as a phrase with its count."""
    models = f"{n} model{'s' if n != 1 else ''}"
    if reason.startswith("no published "):  # the paper's tables have no such slice: a fact about the paper
        return f"the paper prints no {reason.removeprefix('no published ')} ({models})"
    if reason == "parameter count unknown":
        return f"{models} {'has' if n == 1 else 'have'} no parameter count"
    return f"{models} {'is' if n == 1 else 'are'} {reason}"


def summary_markdown(rec: Recommendation, published: pd.DataFrame, scheme: str, release: str,
                     names: Mapping[str, str] | None = None) -> str:
    """A plain-text/markdown one-page summary of the recommendation (for download or printing), with the
    same verdict and evidence sentences as the page and the report; ``published`` is
    ``recommend_published``'s ranked frame (fractions).

    >>> s1 = Standing(1, "r1", "bm25", None, 720, 0.48, 0.45, 0.51, 0.31, 0.0, float("nan"), float("nan"), False, 0, 0, 0)
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(columns=["model", "run", "reason"]), ("t2c",),
    ...                      LANGUAGE_SCOPES, None, "tasks", standings=(s1,))
    >>> published = pd.DataFrame({"rank": [1], "model": ["C2LLM-7B"], "mean": [0.705], "params_b": [7.0],
    ...                           "figures": ["paper Table 3"]})
    >>> summary_markdown(rec, published, "v2", "demo_v2603").splitlines()[-3:]
    ['## Published models (published figures only; real CoREB v202603, not this release)', '',
     '1. C2LLM-7B: 70.5, 7 B parameters (paper Table 3)']
    """
    names = names or {}
    label = metric_label(rec.metric)
    lines = ["# CoREB model selection", "", f"Release: {release} · scheme: {scheme} · selection: {slice_words(rec)}",
             f"Average: {AVERAGE_WORDS[rec.average]}; values are {label} x100; trap share = queries with a trap "
             "(rel=1) above the first positive.", "",
             recommendation_sentence(rec, names), "", evidence_sentence(rec, scheme, names), "", "## Our runs", ""]
    if not rec.standings:
        lines.append("(none qualifies)")
    for s in rec.standings:
        lines.append(f"{s.rank}. {_name(s, names)} ({s.run}): {points(s.mean)} [{points(s.ci_low)}, "
                     f"{points(s.ci_high)}], trap share {points(s.trap_share)}%, {params_words(s.params_b)}, "
                     f"{s.queries:,} queries; {cost_words(s.cost)}")
    for left in rec.left_out:
        lines.append(f"- {left_out_sentence(left, names)}")
    lines += ["", f"## Published models ({PUBLISHED_ONLY}; {release_relation(release)})", ""]
    lines += published_lines(published) or ["(none: the chosen filter cannot be applied to published figures)"]
    return "\n".join(lines) + "\n"


def published_lines(published: pd.DataFrame) -> list[str]:
    """One line per published model of ``recommend_published``'s ranked frame (fractions), best first: its rank,
    mean ×100, parameters and the figures it comes from.

    >>> published_lines(pd.DataFrame({"rank": [1], "model": ["C2LLM-7B"], "mean": [0.705], "params_b": [7.0],
    ...                               "figures": ["t2c: paper Table 3"]}))
    ['1. C2LLM-7B: 70.5, 7 B parameters (t2c: paper Table 3)']
    """
    return [f"{r['rank']}. {r['model']}: {points(r['mean'])}, {params_words(r['params_b'])} ({r['figures']})"
            for _, r in published.iterrows()]


COST_SERIES = {"lexical": "lexical (BM25)", "encode": "encoder"}


def cost_points(rec: Recommendation, names: Mapping[str, str] | None = None) -> tuple[pd.DataFrame, list[str]]:
    """The ranked encoder runs as points of accuracy (the slice's mean ×100) against their ranked speed (texts per
    CPU-second where CPU time was recorded: a busy machine does not change it; else per wall second), for the
    accuracy / cost chart; and the names of the ranked runs not drawn: those that measured no encoding speed (older
    runs, imported or reranked ones, runs served by the embedding cache) and lexical runs, whose figure is per query
    (``lexical_speed_words``), not an encoding speed.

    >>> from coreb_core.runs.cost import RunCost
    >>> s1 = Standing(1, "r1", "minilm", 0.02, 720, 0.31, 0.28, 0.34, 0.4, 0.0, float("nan"), float("nan"), False,
    ...               0, 0, 0, RunCost("encode", "cpu", "fp32", 7000, 20.0, peak_rss_gb=0.7, cpu_s=14.0, cpus=2,
    ...                            load_start=6.0))
    >>> s2 = s1._replace(rank=2, run="r2", model="old minilm", cost=None)
    >>> s3 = s1._replace(rank=3, run="r3", model="bm25", cost=RunCost("lexical", "cpu", "none", 7000, 2.0, queries=720))
    >>> rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks",
    ...                      standings=(s1, s2, s3))
    >>> frame, unmeasured = cost_points(rec)
    >>> frame[["name", "texts_per_s", "ms_per_text", "series"]]
                name  texts_per_s  ms_per_text                    series
    0  minilm (busy)        500.0          2.0  encoder · cpu · CPU time
    >>> unmeasured
    ['old minilm', 'bm25']
    """
    names = names or {}
    rows, unmeasured = [], []
    for s in rec.standings:
        if s.cost is None or not s.cost.speed_measured or s.cost.kind == LEXICAL_COST:
            unmeasured.append(_name(s, names))
            continue
        ms = s.cost.speed_ms
        basis = "CPU time" if s.cost.speed_basis == "cpu" else "wall time"
        series = f"{COST_SERIES.get(s.cost.kind, s.cost.kind)} · {s.cost.device} · {basis}"
        rows.append({"name": _name(s, names) + (" (busy)" if s.cost.busy else ""), "run": s.run,
                     "mean": float(points(s.mean)), "texts_per_s": 1000.0 / ms if ms else None, "ms_per_text": ms,
                     "peak_memory_gb": s.cost.peak_memory_gb, "busy": s.cost.busy, "load": s.cost.load,
                     "series": series})
    columns = ["name", "run", "mean", "texts_per_s", "ms_per_text", "peak_memory_gb", "busy", "load", "series"]
    return pd.DataFrame(rows, columns=columns), unmeasured


def lexical_speed_words(rec: Recommendation, names: Mapping[str, str] | None = None) -> list[str]:
    """The ranked lexical runs' speed, per query (index and search), said apart from the encoders' chart.

    >>> from coreb_core.runs.cost import RunCost
    >>> s = Standing(1, "r1", "bm25", 0.0, 720, 0.31, 0.28, 0.34, 0.4, 0.0, float("nan"), float("nan"), False, 0, 0,
    ...              0, RunCost("lexical", "cpu", "none", 7000, 2.0, queries=800))
    >>> lexical_speed_words(Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks",
    ...                                    standings=(s,)))
    ['bm25: 2.5 ms per query (index and search, no encoder; wall only, load unknown)']
    """
    return [f"{_name(s, names or {})}: {speed_words(s.cost)}" for s in rec.standings
            if s.cost is not None and s.cost.speed_measured and s.cost.kind == LEXICAL_COST]


def shown_ranking(frame: pd.DataFrame, names: Mapping[str, str]) -> pd.DataFrame:
    """A ranking (ours, the published one, or those left out) as the Model selection page shows it: x100 points (the
    library's fractions), the 95% interval and the rank range in words, each run's name (``names``; else its model)
    and its parameters in words. The ids and the numeric ``params_b`` stay (the CSV) but are not shown.

    >>> frame = pd.DataFrame({"run": ["r1"], "model": ["bm25"], "mean": [0.4812], "ci_low": [0.45], "ci_high": [0.5],
    ...                       "params_b": [0.0]})
    >>> shown_ranking(frame, {"r1": "bm25 · demo"})[["name", "mean", "ci", "parameters"]].values.tolist()
    [['bm25 · demo', 48.1, '45.0–50.0', 'none (lexical)']]
    """
    out = selection_points(frame)
    if "ci_low" in frame.columns:  # one narrow column: the table fits 1400 px wide too
        out["ci"] = [interval_text(lo, hi) for lo, hi in zip(frame["ci_low"], frame["ci_high"])]
    if "rank_low" in frame.columns:
        out["ranks"] = [rank_range(lo, hi) for lo, hi in zip(frame["rank_low"], frame["rank_high"])]
    if "run" in out.columns:
        out.insert(1, "name", [names.get(r, m) for r, m in zip(out["run"], out["model"])])
    out["parameters"] = out["params_b"].map(parameter_text)
    return out
