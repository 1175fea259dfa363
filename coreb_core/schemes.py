"""Relevance schemes: how grades turn into gains and into "relevant".

A scheme is a small hashable value with one canonical string (label, cache key and URL value),
in the style of ``ir_measures`` measures.

- ``v2``   official CoREB: gain 1 for rel=2, 0 for rel=1 (traps only push positives down);
           relevant iff rel >= 2. nDCG here equals pytrec_eval on qrels rewritten ``rel if rel>=2 else 0``
           (a gain of 2 over an ideal of 2s is the same ratio as 1 over 1s).
- ``v1``   binary view of the same qrels: gain 1 and relevant iff rel >= 1 (traps count as hits,
           like the retired v1 qrels that listed every same-problem document).
- ``trec`` pytrec_eval's default on the graded qrels: gain = grade, relevant iff rel >= 1.
- ``file:<name>`` qrels read from a file (e.g. CoREB-mini's ``text2code_qrels_v1.parquet``),
           scored binary: gain 1 and relevant iff rel >= 1.

Example:
    >>> Scheme.parse("v2").gain(np.array([0, 1, 2]))
    array([0., 0., 1.])
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

DESCRIPTIONS = {
    "v2": "Official CoREB (graded v2 qrels): only rel=2 positives count; rel=1 traps earn nothing and push positives down.",
    "v1": "Binary view of the v2 qrels, like the retired v1 qrels: every judged same-problem document (rel≥1) counts as relevant.",
    "trec": "pytrec_eval's default on the graded qrels: gain = grade (trap 1, positive 2), relevant iff rel≥1.",
    "file": "Qrels read from a file (e.g. CoREB-mini's real v1 qrels), scored binary: relevant iff rel≥1.",
}


class Scheme(NamedTuple):
    name: str  # "v2" | "v1" | "trec" | "file"
    min_relevant: int  # grade at or above which a document is relevant
    graded_gain: bool  # gain = grade (True) or gain = 1 for relevant documents (False)
    qrels_file: str | None = None  # for "file": which stored qrels (e.g. "v1")

    def __str__(self) -> str:
        return f"file:{self.qrels_file}" if self.name == "file" else self.name

    @property
    def description(self) -> str:
        return DESCRIPTIONS[self.name]

    def gain(self, grades: np.ndarray) -> np.ndarray:
        grades = np.asarray(grades, dtype=np.float64)
        if self.graded_gain:
            return np.where(grades >= self.min_relevant, grades, 0.0)
        return (grades >= self.min_relevant).astype(np.float64)

    def relevant(self, grades: np.ndarray) -> np.ndarray:
        return np.asarray(grades) >= self.min_relevant

    @staticmethod
    def parse(text: str) -> "Scheme":
        text = str(text)
        if text in SCHEMES:
            return SCHEMES[text]
        if text.startswith("file:") and len(text) > 5:
            return Scheme("file", 1, False, text[5:])
        raise ValueError(f"unknown scheme {text!r}; use v2, v1, trec or file:<qrels name>")


V2 = Scheme("v2", 2, False)
V1 = Scheme("v1", 1, False)
TREC = Scheme("trec", 1, True)
SCHEMES = {"v2": V2, "v1": V1, "trec": TREC}
