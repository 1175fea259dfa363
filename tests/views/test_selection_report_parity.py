"""``report`` renders the selection ``select`` prints (issue 46): the same scope and the same ``selection.build``, so
both verbs refuse the same arguments in the same words, and the report states the verdict ``select`` says; the
published standings are one ``PublishedView``, the page's table and the report's."""
from __future__ import annotations

import html as html_lib
import re

import pytest

from tests.builders import app_test, one_table, run_cli

RELEASE = "demo_v2603"


def verbs(root, tmp_path, *args: str):
    """``select`` and ``report`` with the same arguments (the report to a usable ``--out``)."""
    env = {"COREB_CACHE": str(root)}
    out = tmp_path / "r.html"
    return run_cli("select", *args, env=env), run_cli("report", *args, "--out", str(out), env=env), out


@pytest.mark.parametrize("case", ["repeated run", "run of another release", "runs of two releases", "unknown scheme",
                                  "unknown task", "release without runs", "unknown release", "unknown run"])
def test_select_and_report_refuse_the_same_arguments_in_the_same_words(case, lexical_cache, tmp_path):
    root, runs = lexical_cache
    bm25 = runs["bm25"]
    args = {"repeated run": ["--release", RELEASE, "--runs", bm25, bm25],
            "run of another release": ["--release", "demo_v2602", "--runs", bm25],
            "runs of two releases": ["--release", "demo_v2602", "--runs", runs["bm25s-mteb"], bm25],
            "unknown scheme": ["--release", RELEASE, "--runs", bm25, "--scheme", "nope"],
            "unknown task": ["--release", RELEASE, "--runs", bm25, "--task", "t2c", "nope"],
            "release without runs": ["--release", "demo_v2602"],
            "unknown release": ["--release", "no_such_release"],
            "unknown run": ["--release", RELEASE, "--runs", "no_such_run"]}[case]
    said, written, out = verbs(root, tmp_path, *args)
    assert (said.returncode, written.returncode) == (2, 2)
    assert said.stderr == written.stderr and len(said.stderr.splitlines()) == 1, (said.stderr, written.stderr)
    assert said.stdout == written.stdout == "" and not out.exists()
    words = {"repeated run": f"error: --run names {bm25} more than once",
             "run of another release": f"error: run {bm25} was made on release {RELEASE}, not demo_v2602",
             "runs of two releases": f"error: run {runs['bm25s-mteb']} was made on release {RELEASE}, not demo_v2602",
             "unknown scheme": "error: unknown scheme 'nope'; use v2, v1, ",
             "unknown task": "error: --task: invalid choice: 'nope'",
             "release without runs": "error: release demo_v2602 has no stored runs; make one with: ",
             "unknown release": "error: release 'no_such_release' is not in the cache",
             "unknown run": "error: run 'no_such_run' not found"}[case]
    assert said.stderr.startswith(words), said.stderr


def test_the_report_renders_the_selection_select_prints(lexical_cache, tmp_path):
    """The report's verdict box is ``select``'s verdict, evidence and tier lines; its published rows are the
    ``PublishedView``'s (the page's table)."""
    from coreb_core.present.numbers import points
    from coreb_core.views import published
    from coreb_core.views.inputs import Inputs
    from coreb_core.views.scope import Scope

    root, runs = lexical_cache
    args = ["--release", RELEASE, "--runs", runs["bm25"], runs["bm25s-mteb"], "--task", "t2c", "c2t"]
    said, written, out = verbs(root, tmp_path, *args)
    assert said.returncode == written.returncode == 0, (said.stderr, written.stderr)
    page = out.read_text(encoding="utf-8")
    box = html_lib.unescape(re.search(r'<div class="rec"><b>Recommendation.</b> (.*?)</div>', page).group(1))
    parts = box.split("<br>")  # verdict, evidence, tier and (issue 48) the published models above: select's lines
    assert parts == said.stdout.splitlines()[1:1 + len(parts)] and parts[-1].startswith("Published models score higher")
    standings = published.build(Scope.of(RELEASE, [runs["bm25"]], root=root), tasks=("t2c", "c2t"),
                                inputs=Inputs(root))
    section = page.split("<h2>Published models")[1].split("</section>")[0]
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td class=\"n\">[^<]*</td><td class=\"n\">([^<]+)</td>",
                      section)
    expected = [(str(r["rank"]), r["model"], points(r["mean"])) for _, r in standings.ranked.head(5).iterrows()]
    assert len(expected) == 5 and [(rank, html_lib.unescape(model), mean) for rank, model, mean in rows] == expected
    assert f"Top 5 of {len(standings.ranked)} within the limit." in section


def test_the_page_shows_the_published_view_and_downloads_its_views(lexical_cache, monkeypatch):
    """Model selection's published table is the ``PublishedView`` the report renders (one composition), and its
    **Download report (HTML)** renders the page's own views: the verdict box is the page's verdict."""
    from types import SimpleNamespace

    import ui.widgets
    from coreb_core import report
    from coreb_core.present.display import selection_points
    from coreb_core.views import published
    from coreb_core.views.inputs import Inputs
    from coreb_core.views.scope import Scope

    rendered = []

    def html(*args, **kwargs):
        rendered.append((args, report_html(*args, **kwargs)))
        return rendered[-1][1]

    report_html = report.html
    monkeypatch.setattr(report, "html", html)
    # as while a background run is going, the page builds its downloads with the page (not on the press)
    monkeypatch.setattr(ui.widgets, "board", lambda: SimpleNamespace(running=lambda: True))
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    at = app_test("selection.py", root, {"release": RELEASE, "runs": ids, "sel_tasks": "t2c,c2c", "budget": "1"}).run()
    assert not at.exception and [e.value for e in at.error] == []
    shown = one_table(at, "figures")
    standings = published.build(Scope.of(RELEASE, ids, root=root), tasks=("t2c", "c2c"), budget_b=1.0,
                                inputs=Inputs(root))
    assert len(standings.ranked) > 0
    assert shown["model"].tolist() == standings.ranked["model"].tolist()
    assert shown["mean"].tolist() == selection_points(standings.ranked)["mean"].tolist()
    ((selection_view, published_view), page), = rendered  # one report, of the page's two views
    assert published_view.ranked["model"].tolist() == standings.ranked["model"].tolist()
    verdict = next(m.value for m in at.markdown if m.value.startswith(("Choose", "No clear winner")))
    box = html_lib.unescape(re.search(r'<div class="rec"><b>Recommendation.</b> (.*?)</div>', page).group(1))
    assert box.split("<br>")[:2] == [verdict.replace("\\", ""), at.text[0].value]
    assert [s.run for s in selection_view.recommendation.standings] == ids
