"""The protocol waterfall in words and bars: the rows a page draws from ``analysis.waterfall``'s table (points ×100,
signed with a true minus) and the sentence that says how far MTEB's protocol is from CoREB's for one task."""
from __future__ import annotations

import math

import pandas as pd

from coreb_core.present.numbers import points, signed_points

STEP_TITLES = {"mteb": "MTEB's protocol", "graded": "graded qrels", "anchor": "C2C anchor excluded",
               "prompts": "no prompts", "length": "runner's length", "precision": "runner's precision",
               "encoder": "runner's encoder = CoREB's protocol"}


def step_title(step: str) -> str:
    """A step's short title; folded steps ("prompts + length") title each part.

    >>> step_title("prompts + length"), step_title("mteb")
    ("no prompts + runner's length", "MTEB's protocol")
    """
    return " + ".join(STEP_TITLES.get(part, part) for part in step.split(" + "))


def waterfall_rows(table: pd.DataFrame, task: str) -> pd.DataFrame:
    """One task's steps as bars: title, start and end (×100; the first row from 0 to its score), the label written
    beside each (the score, then each change signed), the description.

    >>> table = pd.DataFrame({"task": ["c2t"] * 2, "step": ["mteb", "graded"], "ndcg_at_10": [0.473, 0.398],
    ...                       "change": [float("nan"), -0.075], "description": ["a", "b"], "same": [False, False]})
    >>> waterfall_rows(table, "c2t")[["title", "start", "end", "label"]]
                 title  start   end        label
    0  MTEB's protocol    0.0  47.3         47.3
    1     graded qrels   47.3  39.8  −7.5 → 39.8
    """
    part = table[table["task"] == task]
    out = []
    for n, r in enumerate(part.itertuples()):
        end = float(r.ndcg_at_10) * 100
        start = 0.0 if n == 0 else end - float(r.change) * 100
        label = points(r.ndcg_at_10) if n == 0 else f"{signed_points(float(r.change))} → {points(r.ndcg_at_10)}"
        if r.same:
            label += " (changes nothing for this model)"
        out.append({"title": step_title(str(r.step)), "start": round(start, 6), "end": round(end, 6), "label": label,
                    "description": r.description})
    return pd.DataFrame(out)


def waterfall_sentence(table: pd.DataFrame, task: str, ends: dict[str, float] | None = None) -> str:
    """How far the two protocols are for one task, with the published ends where known.

    >>> table = pd.DataFrame({"task": ["c2c"] * 3, "step": ["mteb", "graded", "anchor"],
    ...                       "ndcg_at_10": [0.196, 0.196, 0.271], "change": [math.nan, 0.0, 0.075]})
    >>> waterfall_sentence(table, "c2c", {"mteb": 0.549, "leaderboard": 0.32})
    "C2C: 19.6 under MTEB's protocol, 27.1 under CoREB's (+7.5); the largest step: anchor (+7.5). Published: MTEB's file 54.9, the leaderboard 32.0."
    """
    part = table[table["task"] == task]
    first, last = part["ndcg_at_10"].iloc[0], part["ndcg_at_10"].iloc[-1]
    steps = part.iloc[1:]
    text = (f"{task.upper()}: {points(first)} under MTEB's protocol, {points(last)} under CoREB's "
            f"({signed_points(last - first)})")
    if len(steps) and steps["change"].abs().max() > 0:
        big = steps.loc[steps["change"].abs().idxmax()]
        text += f"; the largest step: {big['step']} ({signed_points(float(big['change']))})"
    text += "."
    if ends:
        words = {"mteb": "MTEB's file", "leaderboard": "the leaderboard"}
        text += " Published: " + ", ".join(f"{words.get(k, k)} {points(v)}" for k, v in ends.items()
                                            if not math.isnan(v)) + "."
    return text
