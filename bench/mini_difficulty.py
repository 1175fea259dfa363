"""Does CoREB-mini discriminate, and do its traps bite?

Runs all-MiniLM-L6-v2 (bundled, under both encoding profiles, ``official`` and ``card``) and BM25 through
the product's own retrieval (exact search, coreb_core.retrieval.pipeline) on a CoREB-mini release and prints nDCG@10
per task under the official v2 scoring (C2C anchor excluded; parity with the official evaluator is tested
in tests/test_evaluate.py), the share of queries where a trap (rel=1) ranks above the first positive, and
nDCG@10 under CoREB's v1 rules (how much v1 overstates v2).

    .venv/bin/python bench/mini_difficulty.py [--release demo_v2603]
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from coreb_core.data.mini.build import build_release  # noqa: E402
from coreb_core.data.store import Store  # noqa: E402
from coreb_core.evaluation.evaluate import evaluate, summary, trap_table  # noqa: E402
from coreb_core.evaluation.schemes import V1  # noqa: E402
from coreb_core.retrieval.pipeline import run_retrieval  # noqa: E402
from coreb_core.runs.folders import read_hits


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="demo_v2603")
    args = ap.parse_args()
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build_release(args.release, root)
        with Store(args.release, root) as store:
            for name, model, profile in (("minilm [official]", "minilm", "official"),
                                         ("minilm [card]", "minilm", "card"), ("bm25", "bm25", "official")):
                result = run_retrieval(model, args.release, root=root, profile=profile)
                hits = read_hits(result.run_id, root)
                traps = trap_table(store, hits)
                share = traps.groupby("task", observed=True)["trap_above_positive"].mean()
                v1 = summary(evaluate(store, hits, V1))["tasks"]
                report[name] = {t: {"ndcg_at_10": round(v, 4), "trap_above_first_positive": round(float(share[t]), 3),
                                    "v1_rules_ndcg_at_10": round(v1[t]["ndcg_at_10"], 4)}
                                for t, v in result.ndcg_at_10.items()}
    print(json.dumps({"release": args.release, "scheme": "v2 (official), C2C anchor excluded", "results": report},
                     indent=2))


if __name__ == "__main__":
    main()
