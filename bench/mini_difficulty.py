"""Does CoREB-mini discriminate, and do its traps bite?

Runs all-MiniLM-L6-v2 (bundled, under the default ``official`` encoding profile) and BM25 through the
product's own retrieval (exact search, coreb_core.retrieval) on a CoREB-mini release and prints nDCG@10 per task under the official v2
scoring (C2C anchor excluded; parity with the official evaluator is tested in tests/test_evaluate.py)
and the share of queries where a trap (rel=1) ranks above the first positive.

    .venv/bin/python bench/mini_difficulty.py [--release demo_v2603]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coreb_core.evaluate import load_hits, trap_table  # noqa: E402
from coreb_core.mini.build import build_release  # noqa: E402
from coreb_core.profiles import DEFAULT_PROFILE  # noqa: E402
from coreb_core.retrieval import run_retrieval  # noqa: E402
from coreb_core.store import Store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="demo_v2603")
    args = ap.parse_args()
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build_release(args.release, root)
        with Store(args.release, root) as store:
            for model in ("minilm", "bm25"):
                result = run_retrieval(model, args.release, root=root)
                traps = trap_table(store, load_hits(result.run_id, root))
                share = traps.groupby("task", observed=True)["trap_above_positive"].mean()
                report[model] = {t: {"ndcg_at_10": round(v, 4), "trap_above_first_positive": round(float(share[t]), 3)}
                                 for t, v in result.ndcg_at_10.items()}
    print(json.dumps({"release": args.release, "scheme": "v2 (official), C2C anchor excluded",
                      "minilm_profile": DEFAULT_PROFILE, "results": report}, indent=2))


if __name__ == "__main__":
    main()
