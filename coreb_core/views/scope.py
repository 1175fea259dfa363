"""``Scope``: what every analysis view is asked about (release, runs, scheme, anchor rule), validated once.

It is the one cache key of the app's views and the one place that checks a command line's or a link's choice:
repeated runs, runs made on another release (or recording none), an unknown scheme, and the anchor rule a scheme
imposes (MTEB's keeps the C2C anchor)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

from coreb_core.data.store import check_cached
from coreb_core.errors import CorebError
from coreb_core.evaluation.schemes import V2, Scheme
from coreb_core.present.format import release_words
from coreb_core.text import terminal_safe


@dataclass(frozen=True)
class Scope:
    """What a view is about: a release (and the version of it in the cache), runs, a scheme, the anchor rule.

    Frozen and hashable: the app caches every view on it (with the view's options).

    >>> scope = Scope("demo_v2603", "v-1", ("r1",), V2, True)
    >>> scope.with_runs(["r2"]).run_ids, str(scope.scheme)
    (('r2',), 'v2')
    """

    release: str
    version: str  # the folder the release's name resolves to: a re-import gives a new version (and cache key)
    run_ids: tuple[str, ...]
    scheme: Scheme
    anchor_exclusion: bool

    @classmethod
    def of(cls, release: str, run_ids: Iterable[str] = (), scheme: Scheme | str = V2, anchor_exclusion: bool = True,
           root: Path | None = None) -> Scope:
        """The validated scope: each run stored once and made on ``release``, a known scheme, and the anchor rule
        the scheme allows (``Scheme.anchor_exclusion``: MTEB's scheme keeps the anchor whatever was asked).
        Every failure is one ``CorebError`` line.

        >>> Scope.of("demo_v2603", [bm25, bm25])
        Traceback (most recent call last):
        coreb_core.errors.CorebError: --run names bm25__demo_v2603__... more than once
        >>> Scope.of("demo_v2603", [bm25], "nope")
        Traceback (most recent call last):
        coreb_core.errors.CorebError: unknown scheme 'nope'; use ...
        >>> s = Scope.of("demo_v2603", [bm25], "mteb", anchor_exclusion=True)
        >>> str(s.scheme), s.anchor_exclusion, s.run_ids == (bm25,)
        ('mteb', False, True)
        >>> Scope.of("demo_v2602", [bm25])
        Traceback (most recent call last):
        coreb_core.errors.CorebError: run bm25__demo_v2603__... was made on release demo_v2603, not demo_v2602
        """
        from coreb_core.runs.folders import run_meta

        runs = tuple(run_ids)
        repeated = sorted({r for r in runs if runs.count(r) > 1})
        if repeated:
            raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
        try:
            parsed = scheme if isinstance(scheme, Scheme) else Scheme.parse(scheme)
        except ValueError as exc:
            raise CorebError(str(exc)) from None
        folder = check_cached(release, root)
        for run_id in runs:  # the one "made on this release" rule: a run that records no release is refused
            made_on = run_meta(run_id, root).made_on()
            if made_on != release:
                raise CorebError(f"run {run_id} was made on {release_words(made_on)}, not {release}")
        version = str(folder.resolve())
        if parsed.name == "judged":  # a judgment added is a new version of the judged qrels (and a new cache key)
            from coreb_core.data.judgments import judgments_fingerprint

            version += "#judgments=" + judgments_fingerprint(release, root)
        return cls(release, version, runs, parsed, parsed.anchor_exclusion(anchor_exclusion))

    def with_runs(self, run_ids: Iterable[str]) -> Scope:
        """The same scope over other runs of the release (a page's pick among the sidebar's runs)."""
        return replace(self, run_ids=tuple(run_ids))
