"""Release integrity of two cached releases (``analysis.integrity``): the Data page's "Release integrity" and the
``integrity`` verb."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from coreb_core.analysis.integrity import ReleaseIntegrity, release_integrity
from coreb_core.data.store import Store
from coreb_core.errors import CorebError


@dataclass(frozen=True)
class IntegrityView:
    """The check, with the sentences the page and the verb print."""

    check: ReleaseIntegrity

    def to_json(self) -> dict:
        c = self.check
        return {"releases": list(c.releases), "passed": c.passed, "problems": list(c.problems),
                "shared_problems": list(c.shared_problems), "shared_texts": [list(p) for p in c.shared_texts],
                "reused_ids": c.reused_ids, "same_ids": c.same_ids}

    def lines(self) -> list[str]:
        c = self.check
        a, b = c.releases
        verdict = "PASSED" if c.passed else "FAILED"
        out = [f"{verdict}: {a} ({c.problems[0]} problems) and {b} ({c.problems[1]} problems) share "
               f"{len(c.shared_problems)} source problems and {len(c.shared_texts)} texts (equal once case and "
               "whitespace are normalised)"]
        if c.shared_problems:
            out.append(f"  shared problems, e.g. {', '.join(c.shared_problems[:5])}: they cannot train on one and "
                       "test on the other")
        for x, y in c.shared_texts[:5]:
            out.append(f"  the same text: {x} in {a}, {y} in {b}")
        out.append(f"  {c.reused_ids:,} ids name different texts in the two releases ({c.same_ids:,} the same text): "
                   "a run, an embedding or a sample belongs to one release and is never joined to the other by id")
        return out


def build(first: str, second: str, root: Path | None = None) -> IntegrityView:
    """The integrity of two cached releases.

    >>> build("demo_v2602", "demo_v2603", root).check.passed
    True
    >>> build("demo_v2603", "demo_v2603", root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --releases names demo_v2603 twice: integrity compares two different releases (one shares everything with itself)
    """
    if first == second:  # was: "FAILED: … share 24 source problems", exit 1: true of any release, and no leak found
        raise CorebError(f"--releases names {first} twice: integrity compares two different releases (one shares "
                         "everything with itself)")
    with Store(first, root) as a, Store(second, root) as b:
        return IntegrityView(release_integrity(a, b))
