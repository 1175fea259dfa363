"""Relevance schemes: which qrels decide "relevant", how grades turn into gains, and which
documents leave the ranked list before scoring.

A scheme is a small hashable value with one canonical string (label, cache key and URL value),
in the style of ``ir_measures`` measures.

- ``v2``   official CoREB: gain 1 for rel=2, 0 for rel=1 (traps only push positives down);
           relevant iff rel >= 2. nDCG here equals pytrec_eval on qrels rewritten ``rel if rel>=2 else 0``
           (a gain of 2 over an ideal of 2s is the same ratio as 1 over 1s).
- ``v1``   CoREB's retired binary qrels, rebuilt from a v2 release by their own rules (paper App. A.4/A.8):
           T2C every solution of the query's problem inside its language constraint, passing or failing;
           C2C the v2 positives; C2T the v2 positives, and the noise descriptions (added to the corpus only
           in v2) leave every C2T ranked list first. Gain 1, averaged over the v2 queries. Its T2C part
           follows the paper's sentence ("all solutions for the queried problem are relevant"), not the
           official generator's code (docs/semantics.md).
- ``v1_gen`` the same v1 rules as the official generator's code reads them: T2C canonical and full retro
           count the passing solutions only (the generator's ``correct_code_flat_by_problem``), T2C search
           every solution (its ``all_code_by_problem``); C2C and C2T as ``v1``.
- ``traps_as_hits`` a sensitivity view of the v2 qrels: every judged document (rel >= 1) counts as a
           hit, traps included. Not v1: it is what the score would be if traps were right answers.
- ``trec`` pytrec_eval's default on the graded qrels: gain = grade, relevant iff rel >= 1.
- ``executed`` relevance verified by execution: v2's grades, plus every passing solution of the query's source problem
           in a language of one of its rel=2 documents promoted to rel=2 (T2C and C2C; the C2C anchor never; C2T
           unchanged). A view of the qrels scored as v2; CoREB's labels leave correct code unjudged or call it a trap.
- ``judged`` v2 with the latest judgment of each pair (``coreb_core.data.judgments``) applied; its view is named by a
           fingerprint of the judgments applied, so every cache keyed on it changes when a judgment is added.
- ``mteb`` MTEB's CoREB tasks (``mteb.tasks``' Coreb*Retrieval, ``mteb/baseline-bm25s``): positives only (rel=2,
           gain 1), traps dropped from the qrels, queries without a positive left out (C2T's 190 c2t_match
           label-0 pairs of v2603), and the C2C anchor kept in the list (no anchor exclusion).
- ``file:<name>`` qrels read from a file (e.g. CoREB-mini's ``text2code_qrels_v1.parquet``), scored
           binary; ``file:v1`` drops the noise descriptions from C2T lists like ``v1``.

Example:
    >>> Scheme.parse("v2").gain(np.array([0, 1, 2]))
    array([0., 0., 1.])
    >>> Scheme.parse("v1").qrels_view, Scheme.parse("v1").drops_noise_texts
    ('qrels_v1_rules', True)
    >>> Scheme.parse("v1_gen").qrels_view, Scheme.parse("v1_gen").drops_noise_texts
    ('qrels_v1_gen', True)
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

DESCRIPTIONS = {
    "v2": "Official CoREB (graded v2 qrels): only rel=2 positives count; rel=1 traps earn nothing and push "
          "positives down.",
    "v1": "CoREB's retired binary qrels, rebuilt by their own rules: T2C every solution of the problem in the "
          "query's language constraint (failing ones too); C2C the v2 positives; C2T the v2 positives with the "
          "noise descriptions (new in v2) removed from the ranked list. T2C follows the paper's sentence, "
          "not the official generator's code (see v1_gen).",
    "v1_gen": "CoREB's v1 rules as the official generator's code reads them: T2C canonical and full retro count "
              "the passing solutions only, T2C search every solution, in the query's language constraint; "
              "C2C and C2T as v1.",
    "executed": "Relevance verified by execution: v2's grades, plus every passing solution (meta_passed) of the "
                "query's problem in a language of one of its positives counted as a positive (T2C and C2C; never "
                "the C2C anchor; C2T as v2). Not official: it corrects the labels that grade correct code by who "
                "wrote it.",
    "judged": "v2 with your judgments applied: the latest judgment of each (query, document) pair whose texts are "
              "unchanged replaces its grade. Not official: it is as good as the judgments.",
    "traps_as_hits": "Sensitivity view, not v1: the v2 qrels with every judged document (rel≥1, traps too) "
                     "counted as a hit.",
    "trec": "pytrec_eval's default on the graded qrels: gain = grade (trap 1, positive 2), relevant iff rel≥1.",
    "mteb": "MTEB's CoREB tasks: positives only (gain 1), traps dropped, queries without a positive left out "
            "(C2T averages over 1,010 queries on v2603, not 1,200), the C2C anchor kept in the ranked list.",
    "file": "Qrels read from a stored file (e.g. CoREB-mini's real v1 qrels), scored binary: relevant iff rel≥1; "
            "file:v1 also removes noise descriptions from C2T lists, as the v1 text corpus had none.",
}

# Shown wherever C2T numbers are: the 190 label-0 pairs of v2603 (a code and a non-matching text) have no
# positive, so they score 0 under the official evaluator and pull C2T down; MTEB leaves them out.
C2T_LABEL0_NOTE = ("C2T includes the c2t_match label-0 pairs (code with a non-matching text, no positive): they "
                   "score 0 under the official evaluator; MTEB's C2T leaves them out.")


class Scheme(NamedTuple):
    """Which grades count as relevant and what they gain; ``str()`` is its one canonical name.

    >>> Scheme.parse("file:v1"), str(Scheme.parse("file:v1"))
    (Scheme(name='file', min_relevant=1, graded_gain=False, qrels_file='v1'), 'file:v1')
    >>> TREC.gain(np.array([0, 1, 2])), TREC.relevant(np.array([0, 1, 2]))
    (array([0., 1., 2.]), array([False,  True,  True]))
    """

    name: str  # "v2" | "v1" | "v1_gen" | "executed" | "judged" | "traps_as_hits" | "trec" | "mteb" | "file"
    min_relevant: int  # grade at or above which a document is relevant
    graded_gain: bool  # gain = grade (True) or gain = 1 for relevant documents (False)
    qrels_file: str | None = None  # for "file": which stored qrels (e.g. "v1")

    def __str__(self) -> str:
        return f"file:{self.qrels_file}" if self.name == "file" else self.name

    @property
    def description(self) -> str:
        return DESCRIPTIONS[self.name]

    @property
    def qrels_view(self) -> str:
        """The Store view holding this scheme's judgments."""
        if self.name == "file":
            return f"qrels_{self.qrels_file}"
        return {"v1": "qrels_v1_rules", "v1_gen": "qrels_v1_gen", "mteb": "qrels_positives",
                "executed": "qrels_executed", "judged": "qrels_judged"}.get(self.name, "qrels")

    @property
    def official(self) -> bool:
        """True for the official CoREB reading (v2); every other scheme is a view a researcher chose.

        >>> V2.official, EXECUTED.official
        (True, False)
        """
        return self.name == "v2"

    @property
    def keeps_anchor(self) -> bool:
        """True when the C2C anchor must stay in the ranked list (MTEB scores it as a non-relevant hit).

        >>> MTEB.keeps_anchor, V2.keeps_anchor
        (True, False)
        """
        return self.name == "mteb"

    def anchor_exclusion(self, requested: bool) -> bool:
        """Whether the C2C anchor leaves the list under this scheme when the user asked for ``requested``.

        >>> MTEB.anchor_exclusion(True), V2.anchor_exclusion(True), V2.anchor_exclusion(False)
        (False, True, False)
        """
        return requested and not self.keeps_anchor

    @property
    def drops_noise_texts(self) -> bool:
        """True when C2T ranked lists lose every noise description before scoring (v1 had none)."""
        return self.name in ("v1", "v1_gen") or (self.name == "file" and self.qrels_file == "v1")

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
        raise ValueError(f"unknown scheme {text!r}; use v2, v1, v1_gen, executed, judged, traps_as_hits, trec, mteb or "
                         "file:<qrels name>")


V2 = Scheme("v2", 2, False)
V1 = Scheme("v1", 1, False)  # on the rebuilt v1 view: relevant pairs have grade 1, other v2 pairs grade 0
V1_GEN = Scheme("v1_gen", 1, False)  # the same, on the generator's reading of the v1 rules
EXECUTED = Scheme("executed", 2, False)  # v2's grades with passing code promoted: scored as v2
JUDGED = Scheme("judged", 2, False)  # v2 with the judgments applied: scored as v2
TRAPS_AS_HITS = Scheme("traps_as_hits", 1, False)
TREC = Scheme("trec", 1, True)
MTEB = Scheme("mteb", 2, False)  # on the positives-only view: a query without a positive has no qrels
SCHEMES = {"v2": V2, "v1": V1, "v1_gen": V1_GEN, "executed": EXECUTED, "judged": JUDGED, "traps_as_hits": TRAPS_AS_HITS,
           "trec": TREC, "mteb": MTEB}
# The label readings (docs/semantics.md, "Three readings of relevance"): the official one and the two corrections.
LABEL_READINGS = (V2, EXECUTED, JUDGED)
# The sidebar's choices (besides a release's own file: qrels): every scheme but mteb, whose anchor rule (kept)
# would contradict the sidebar's anchor toggle; mteb is on the CLI and in the Overview's MTEB table.
SIDEBAR_SCHEMES = tuple(name for name in SCHEMES if name != "mteb")
