"""No DuckDB connection outlives its use: a fresh interpreter running what the suite and the app run (CLI verbs
in process, the Data page with its SQL console, a background retrieval run still loading its model when the
interpreter exits, as the app's later default run does) ends without nanobind's "leaked N instances of type
duckdb.DuckDBPyConnection" report. The interpreter's exit is the point, so each case runs in a subprocess."""
from __future__ import annotations

import shutil
import subprocess
import sys

from tests.builders import REPO

_SCRIPT = """
import os, sys, threading
from pathlib import Path

cache = Path(sys.argv[1])
os.environ["COREB_CACHE"] = str(cache)
from coreb_core.cli import main
from coreb_core.retrieval.pipeline import run_retrieval
from tests.builders import app_test

# CLI verbs in process, as the hostile tests call them
assert main(["sql", "SELECT count(*) AS n FROM queries", "--release", "demo_v2603"]) == 0
assert main(["sql", "CHECKPOINT", "--release", "demo_v2603"]) == 2
assert main(["run", "--model", "bm25", "--release", "demo_v2603", "--tasks", "t2c"]) == 0
assert main(["info"]) == 0
# the Data page: release statistics, then one query in its SQL console
at = app_test("data.py", cache, {"release": "demo_v2603"}).run()
at = app_test("data.py", cache, {"release": "demo_v2603", "section": "sql"}).run()
at.button(key="sql_go").click().run()
assert not at.exception and not at.error, [e.value for e in at.exception]
# a background run still loading its model when the interpreter exits
loading = threading.Event()

def stuck_loader(*args):
    loading.set()
    threading.Event().wait()

threading.Thread(target=run_retrieval, args=("minilm", "demo_v2603", ("t2c",)),
                 kwargs={"root": cache, "model_loader": stuck_loader}, daemon=True).start()
assert loading.wait(300), "the run never reached its model load"
print("done")
"""


def test_no_connection_left_open_at_exit(mini_data, tmp_path):
    """was: the interpreter ended with "nanobind: leaked 28 instances!" (DuckDBPyConnection among them): the
    background run held its Store through the model load, so its connection was still alive at exit"""
    cache = tmp_path / "cache"
    shutil.copytree(mini_data, cache, symlinks=True)
    done = subprocess.run([sys.executable, "-c", _SCRIPT, str(cache)], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.splitlines()[-1:] == ["done"], done.stderr[-3000:]
    leaks = [line for line in done.stderr.splitlines() if line.startswith("nanobind: leaked")]
    assert leaks == [], done.stderr[-3000:]
