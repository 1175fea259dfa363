"""API models (Gemini, OpenAI, Voyage) through their official clients against a loopback server
(tests/api_server.py): end-to-end runs, the embedding cache, retries, malformed answers, a missing key, and a key
that must appear nowhere: not in a file under the cache, not in stdout or stderr, not in a log record."""
from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import pytest

from coreb_core.errors import CorebError
from coreb_core.paths import datasets_dir
from coreb_core.retrieval.api_encoders import ApiModel
from coreb_core.runs.folders import list_runs
from tests.api_server import ApiServer
from tests.builders import run_cli

KEY = "sk-LEAKCHECK-7f3a9c21e0d4b8"  # distinctive: any copy of it anywhere is a leak
RELEASE = "demo_v2603"
MODELS = {  # registry id -> (provider, key variable, base URL variable, the server's path prefix)
    "gemini-embedding-2": ("gemini", "GEMINI_API_KEY", "COREB_GEMINI_BASE_URL", ""),
    "openai-text-embedding-3-large": ("openai", "OPENAI_API_KEY", "COREB_OPENAI_BASE_URL", "/v1"),
    "voyage-code-3": ("voyage", "VOYAGE_API_KEY", "COREB_VOYAGE_BASE_URL", "/v1"),
}
CLIENT_LOGGERS = ("openai", "httpx", "httpcore", "google_genai", "google", "voyage", "voyageai", "urllib3",
                  "requests", "coreb_core")
KEY_VARS = ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "VOYAGE_API_KEY")


@pytest.fixture
def server():
    with ApiServer() as s:
        yield s


@pytest.fixture
def api_env(cache, mini_data, server, monkeypatch, caplog):
    """CoREB-mini in a private cache, every provider pointed at the loopback server with the key, tiny backoff;
    every log record kept (DEBUG, the clients' own included) so that a test can look for the key in them."""
    shutil.copytree(datasets_dir(mini_data), datasets_dir(cache))
    for var in KEY_VARS:
        monkeypatch.delenv(var, raising=False)
    for _provider, key_var, url_var, prefix in MODELS.values():
        monkeypatch.setenv(key_var, KEY)
        monkeypatch.setenv(url_var, server.url + prefix)
    monkeypatch.setenv("COREB_API_BACKOFF_S", "0.001")
    monkeypatch.setenv("COREB_API_ATTEMPTS", "4")
    for name in CLIENT_LOGGERS:  # not the root's: numba's DEBUG compiler trace would take minutes
        caplog.set_level(logging.DEBUG, logger=name)
    return cache


def _no_key_anywhere(root: Path, *texts: str, caplog=None) -> None:
    for path in root.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    for text in texts:
        assert KEY not in text
    if caplog is not None:
        assert not [r for r in caplog.records if KEY in r.getMessage()]


def _run(model: str, *extra: str):
    return run_cli("run", "--model", model, "--release", RELEASE, "--tasks", "c2c", "--batch-size", "32", *extra)


@pytest.mark.parametrize("model", list(MODELS))
def test_api_model_runs_end_to_end_then_from_the_cache(model, api_env, server, caplog, monkeypatch):
    provider, key_var, _, _ = MODELS[model]
    done = _run(model)
    assert done.returncode == 0, done.stderr
    assert "estimate: " + model in done.stderr and "tokens (characters / 4)" in done.stderr
    assert "c2c nDCG@10" in done.stdout
    sent = server.texts_sent()
    assert sent > 0 and len(server.requests) >= 2  # queries and documents, in batches of at most 32
    assert all(len(r["body"].get("input") or r["body"].get("requests")) <= 32 for r in server.requests)
    header = "x-goog-api-key" if provider == "gemini" else "authorization"
    assert all(KEY in (r[header] or "") for r in server.requests)  # the key was sent, on every request
    (meta,) = list_runs(RELEASE, api_env)
    api = meta.encoding["api"]
    assert (api["provider"], api["dims"], api["base_url_overridden"], api["retries"]) == (provider, 16, True, 0)
    assert api["texts_sent_estimate"] == meta.texts_encoded and api["tokens_estimate"] > 0
    assert meta.cost.cached == 0 and meta.cost.texts == meta.texts_encoded  # a first run: everything sent
    # the provider's and the network's time, not this machine's CPU: ranked by wall time (issue 48)
    assert meta.cost.cpu_s is None and meta.cost.speed_basis == "wall" and meta.cost.load_start is not None
    assert meta.model == model and meta.profile == "official" and meta.encoding["backend"] == f"api:{provider}"
    if provider == "gemini":  # the runner's task types, one per side
        types = {q["taskType"] for r in server.requests for q in r["body"]["requests"]}
        assert types == {"RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT"}
    if provider == "voyage":
        assert {r["body"]["input_type"] for r in server.requests} == {"query", "document"}

    for var in KEY_VARS:  # wholly from the embedding cache: no key needed, and the server hears nothing
        monkeypatch.delenv(var, raising=False)
    again = _run(model)
    assert again.returncode == 0, again.stderr
    assert server.texts_sent() == sent and "encoded 0 texts" in again.stdout
    assert "0 texts to send" in again.stderr
    (cached,) = [m for m in list_runs(RELEASE, api_env) if m.run_id != meta.run_id]
    assert cached.texts_encoded == 0 and cached.cost.cached == meta.texts_encoded  # every text served by the cache
    assert len(list_runs(RELEASE, api_env)) == 2
    _no_key_anywhere(api_env, done.stdout, done.stderr, again.stdout, again.stderr, caplog=caplog)


@pytest.mark.parametrize("faults", [[429, 429], [500, 503], [429, 502]])
def test_rate_limits_and_server_errors_are_retried(faults, api_env, server):
    server.faults = list(faults)
    done = _run("openai-text-embedding-3-large")
    assert done.returncode == 0, done.stderr
    (meta,) = list_runs(RELEASE, api_env)
    assert meta.encoding["api"]["retries"] == len(faults)


@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("fault,says", [("malformed", "malformed answer"), ("short", "vectors for"),
                                         ("nan", "malformed answer"), ("wide", "different widths"),
                                         ("echo401", "HTTP 401")])
def test_a_bad_answer_is_one_error_line_and_no_run(model, fault, says, api_env, server, caplog):
    server.faults = [fault]
    done = _run(model)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and says in errors[0] and model in errors[0], done.stderr
    assert list_runs(RELEASE, api_env) == []
    _no_key_anywhere(api_env, done.stdout, done.stderr, caplog=caplog)


def test_retries_give_up_after_the_attempts(api_env, server, caplog):
    server.faults = [500] * 10
    done = _run("voyage-code-3")
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and "after 4 attempts (last: HTTP 500)" in errors[0], done.stderr
    assert len(server.requests) == 4 and list_runs(RELEASE, api_env) == []
    _no_key_anywhere(api_env, done.stdout, done.stderr, caplog=caplog)


@pytest.mark.parametrize("model", list(MODELS))
def test_no_key_is_one_error_line_naming_the_variable(model, api_env, server, monkeypatch):
    for var in KEY_VARS:
        monkeypatch.delenv(var, raising=False)
    done = _run(model)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and MODELS[model][1] in errors[0], done.stderr
    assert server.requests == [] and list_runs(RELEASE, api_env) == []


def test_estimate_only_sends_nothing(api_env, server, monkeypatch):
    monkeypatch.delenv("VOYAGE_API_KEY")  # an estimate needs no key
    done = _run("voyage-code-3", "--estimate")
    assert done.returncode == 0 and "estimate: voyage-code-3: " in done.stderr and "US$" in done.stderr
    assert server.requests == [] and list_runs(RELEASE, api_env) == []
    bad = _run("bm25", "--estimate")
    assert bad.returncode == 2 and "only an API model" in bad.stderr


def test_a_missing_client_names_the_extra(monkeypatch):
    monkeypatch.setenv("VOYAGE_API_KEY", KEY)
    monkeypatch.setitem(sys.modules, "voyageai", None)  # as if not installed
    with pytest.raises(CorebError, match=r"voyageai\) is not installed: pip install -r requirements-api.txt"):
        ApiModel("voyage-code-3", "voyage", "voyage-code-3", None)


def test_api_model_has_the_official_profile_only(api_env):
    done = _run("gemini-embedding-2", "--profile", "card")
    assert done.returncode == 2 and "official profile only" in done.stderr


def test_run_json_holds_no_key_and_names_the_variables(api_env, server):
    done = _run("gemini-embedding-2")
    assert done.returncode == 0, done.stderr
    (run_json,) = (api_env / "runs").rglob("run.json")
    stored = run_json.read_text()
    assert KEY not in stored and "COREB_GEMINI_BASE_URL" in stored and server.url not in stored
    api = json.loads(stored)["encoding"]["api"]
    assert api["task_types"] == {"query": "RETRIEVAL_QUERY", "document": "RETRIEVAL_DOCUMENT"}
    assert api["model"] == "gemini-embedding-2-preview" and api["dims_asked"] is None


def test_the_apps_background_job_runs_an_api_model_and_its_failure_keeps_no_key(api_env, server):
    from coreb_core.retrieval.jobs import DONE, FAILED, RunRequest, board

    jobs = board(api_env)
    request = RunRequest("voyage-code-3", RELEASE, ("c2c",), "cpu", 32)
    done = jobs.wait(jobs.submit(request, api_env), 60)
    assert done.status == DONE and done.run_id is not None, done.error
    server.faults = ["echo401"]
    # Gemini: nothing of it cached, so its first request meets the 401 that quotes the key back
    failed = jobs.wait(jobs.submit(RunRequest("gemini-embedding-2", RELEASE, ("c2c",), "cpu", 32), api_env), 60)
    assert failed.status == FAILED and "HTTP 401" in (failed.error or "") and KEY not in repr(failed)
    _no_key_anywhere(api_env)


class _Refused(Exception):
    def __init__(self, status: int, headers: dict) -> None:
        super().__init__(f"HTTP {status} for key {KEY}")
        self.status_code, self.headers = status, headers


def test_retry_after_is_waited_for_and_a_width_not_asked_is_refused():
    from coreb_core.retrieval.api_encoders import ApiEncoder

    answers = [_Refused(429, {"retry-after": "7"}), _Refused(503, {}), [[1.0, 0.0]]]

    def call(texts):
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    slept: list[float] = []
    encoder = ApiEncoder("m", "openai", call, (KEY,), attempts=3, backoff_s=0.01, sleep=slept.append)
    assert encoder.encode(["a"], batch_size=8).tolist() == [[1.0, 0.0]]
    assert slept[0] == 7.0 and slept[1] < 0.05 and encoder.retries == 2  # the server's 7 s, then the backoff's
    narrow = ApiEncoder("m", "openai", lambda texts: [[1.0, 0.0]], (KEY,), dims=8)
    with pytest.raises(CorebError, match="2 dimensions, asked for 8"):
        narrow.encode(["a"], batch_size=8)
    refused = ApiEncoder("m", "openai", lambda texts: (_ for _ in ()).throw(_Refused(403, {})), (KEY,))
    with pytest.raises(CorebError, match=r"HTTP 403: HTTP 403 for key \[key\]") as caught:
        refused.encode(["a"], batch_size=8)
    assert KEY not in str(caught.value)


@pytest.mark.parametrize("model", list(MODELS))
def test_each_client_hands_over_the_retry_after_of_a_429(model, api_env, server):
    from coreb_core.retrieval.models import resolve

    spec = resolve(model)
    server.faults, server.retry_after = [429], "5"
    encoder = ApiModel(spec.id, spec.provider or "", spec.name, None).for_side("query")
    slept: list[float] = []
    encoder.sleep = slept.append  # recorded, not waited
    assert encoder.encode(["def f(): pass"], batch_size=8).shape == (1, 16)
    assert slept == [5.0] and len(server.requests) == 2


def test_a_sweep_runs_an_api_model_once_and_then_skips_it(api_env, server):
    """An API model in a sweep: one run per release under the official profile (its only one), stored with no key in
    it; the next sweep skips it without a request; asked only under `card`, it is refused before any work."""
    from coreb_core.retrieval.sweep import SKIPPED, STORED, plan_items, sweep

    models, profiles = ["voyage-code-3", "bm25"], ["official", "card"]
    items = plan_items(models, [RELEASE], profiles)
    assert [(i.model, i.profile) for i in items] == [("voyage-code-3", "official"), ("bm25", None)]
    first = sweep(models, [RELEASE], profiles, root=api_env)
    assert [r.status for r in first.rows] == [STORED, STORED], first.rows
    requests = len(server.requests)
    assert requests > 0
    again = sweep(models, [RELEASE], profiles, root=api_env)
    assert [r.status for r in again.rows] == [SKIPPED, SKIPPED] and len(server.requests) == requests
    with pytest.raises(CorebError, match="official profile only"):
        plan_items(["voyage-code-3"], [RELEASE], ["card"])
    _no_key_anywhere(api_env)
