"""API embedding models through their providers' official Python clients: Gemini (google-genai), OpenAI (openai)
and Voyage (voyageai), each behind sentence-transformers' ``encode`` signature (what ``encode_cached`` calls).

- Keys come from environment variables only (``Provider.key_vars``) and are handed to the client object in
  memory: never written to the cache, the run's ``run.json``, a log or an error message (every message the
  encoder raises has each key replaced by ``[key]``).
- Base URLs: the client's own default, or ``COREB_<PROVIDER>_BASE_URL`` (a proxy; the tests' loopback server).
- One side per encoder: Gemini's task type (RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT, as coreb_runner 0.1.0's
  GeminiEmbeddingWrapper), Voyage's input type (query / document); OpenAI has none. Empty texts are sent as
  ``' '`` (the runner's rule; the APIs refuse empty input).
- Retries: HTTP 429 and 5xx and a lost connection are retried with exponential backoff and jitter,
  ``COREB_API_ATTEMPTS`` attempts in all (default 6), first delay ``COREB_API_BACKOFF_S`` seconds (default 1,
  doubling, at most 60; longer when the answer's ``Retry-After`` asks, up to 60); the clients' own retries are switched off so that these are the only ones. Other
  HTTP errors (400, 401, 403, 404) stop at once. ``COREB_API_TIMEOUT_S`` (default 120) is a deadline per request,
  from sending it to the answer's last byte (the clients' own timeouts bound each read only); a request past it
  is retried like a lost connection. An answer that is not one finite vector per text, all of one width and of a
  length float32 holds, is a CorebError (never stored).

Example (no client is needed to build the request plan):
    >>> PROVIDERS["gemini"].task_type("query"), PROVIDERS["voyage"].task_type("document"), PROVIDERS["openai"].task_type("query")
    ('RETRIEVAL_QUERY', 'document', None)
    >>> batches(["a" * 40, "b" * 40, "c"], max_texts=2, max_tokens=None)
    [[0, 1], [2]]
"""
from __future__ import annotations

import importlib
import logging
import math
import os
import random
import threading
import time
from typing import Any, Callable, NamedTuple

import numpy as np

from coreb_core.errors import CorebError

SIDES = ("query", "document")


class Provider(NamedTuple):
    """What differs between the three APIs: where the key and base URL come from, which package is the
    client, how much one request may carry, and the task type each side is sent with."""
    name: str
    key_vars: tuple[str, ...]  # environment variables read for the key, first set wins
    base_url_var: str  # environment variable overriding the client's default base URL
    package: str  # import name of the official client
    max_texts: int  # texts per request (the API's limit, or the runner's batch for Gemini)
    max_tokens: int | None  # approximate tokens per request (under the API's limit), None: no limit known
    task_types: tuple[str | None, str | None]  # (query, document)

    def task_type(self, side: str) -> str | None:
        return self.task_types[SIDES.index(side)]


PROVIDERS = {
    # coreb_runner: batch_size=100, one UserContent per text, task_type per side
    "gemini": Provider("gemini", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "COREB_GEMINI_BASE_URL", "google.genai", 100,
                       None, ("RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT")),
    # embeddings API: at most 2048 inputs and 300,000 tokens per request
    "openai": Provider("openai", ("OPENAI_API_KEY",), "COREB_OPENAI_BASE_URL", "openai", 2048, 250_000, (None, None)),
    # voyage-code-3: at most 1000 texts and 120,000 tokens per request
    "voyage": Provider("voyage", ("VOYAGE_API_KEY",), "COREB_VOYAGE_BASE_URL", "voyageai", 1000, 100_000,
                       ("query", "document")),
}
CHARS_PER_TOKEN = 4  # the token estimate (no tokenizer of these APIs works offline): about 4 characters a token
API_EXTRA = "pip install -r requirements-api.txt (or the package's extra: pip install '.[api]')"


def approx_tokens(text: str) -> int:
    """Tokens of ``text``, estimated as characters / 4 (at least 1: an empty text is sent as one space).

    >>> approx_tokens(""), approx_tokens("def add(a, b): return a + b")
    (1, 7)
    """
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN))


def batches(texts: list[str], max_texts: int, max_tokens: int | None) -> list[list[int]]:
    """Positions of ``texts`` grouped into requests of at most ``max_texts`` texts and (approximately)
    ``max_tokens`` tokens; a text alone over the budget still goes, alone (the API truncates or refuses it).

    >>> batches(["x" * 400] * 3, max_texts=10, max_tokens=150)
    [[0], [1], [2]]
    """
    out: list[list[int]] = []
    current: list[int] = []
    tokens = 0
    for i, text in enumerate(texts):
        n = approx_tokens(text)
        if current and (len(current) >= max_texts or (max_tokens is not None and tokens + n > max_tokens)):
            out.append(current)
            current, tokens = [], 0
        current.append(i)
        tokens += n
    if current:
        out.append(current)
    return out


def api_key(provider: Provider, model_id: str) -> str:
    """The key from the first of ``provider.key_vars`` that is set; else a CorebError naming the variables
    (never a value).

    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {}, clear=True):
    ...     api_key(PROVIDERS["voyage"], "voyage-code-3")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: voyage-code-3 needs an API key in the environment variable VOYAGE_API_KEY, which is not set
    """
    for var in provider.key_vars:
        value = os.environ.get(var, "").strip()
        if value:
            return value
    names = " or ".join(provider.key_vars)
    raise CorebError(f"{model_id} needs an API key in the environment variable {names}, which is not set")


def base_url(provider: Provider) -> str | None:
    """``COREB_<PROVIDER>_BASE_URL`` when set, else None (the client's own default endpoint)."""
    return os.environ.get(provider.base_url_var, "").strip() or None


def _setting(var: str, default: float, low: float = 0.0, high: float = 86400.0) -> float:
    """``$var`` as a number from ``low`` to ``high`` (``default`` when unset); a one-line CorebError naming the
    variable otherwise: ``nan`` and ``inf`` parse as floats but bound nothing (``int(nan)`` was a traceback).

    >>> os.environ["COREB_API_ATTEMPTS"] = "nan"
    >>> _setting("COREB_API_ATTEMPTS", 6, 1, 100)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: COREB_API_ATTEMPTS must be a number from 1 to 100, not 'nan'
    >>> del os.environ["COREB_API_ATTEMPTS"]
    """
    text = os.environ.get(var)
    if text is None:
        return float(default)
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # false for nan too
        raise CorebError(f"{var} must be a number from {low:g} to {high:g}, not {text!r}")
    return value


def import_client(provider: Provider) -> Any:
    """The provider's client package, or a CorebError naming what to install."""
    try:
        return importlib.import_module(provider.package)
    except ImportError:
        raise CorebError(f"the {provider.name} API client ({provider.package}) is not installed: {API_EXTRA}") from None


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` on one line, at most 200 characters, with every secret replaced by ``[key]``.

    >>> scrub("bad key sk-123\\nmore", ("sk-123",))
    'bad key [key]'
    """
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[key]")
    first = (text.strip().splitlines() or [""])[0]
    return first[:200]


# The loggers the three clients write their requests and errors to: voyageai logs an API error's message at INFO,
# and a server may quote the key back in it.
CLIENT_LOGGERS = ("voyage", "openai", "openai._base_client", "httpx", "httpcore", "google.genai",
                  "google_genai._api_client", "google_genai._common", "google_genai.models")


class KeyFilter(logging.Filter):
    """Replaces a key by ``[key]`` in every record of the loggers it is attached to (``scrub_client_logs``)."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return True
        if self.key in message:
            record.msg, record.args = message.replace(self.key, "[key]"), ()
        return True


def scrub_client_logs(key: str) -> None:
    """Attach a ``KeyFilter`` for ``key`` to each of ``CLIENT_LOGGERS`` (once per key)."""
    for name in CLIENT_LOGGERS:
        log = logging.getLogger(name)
        if not any(isinstance(f, KeyFilter) and f.key == key for f in log.filters):
            log.addFilter(KeyFilter(key))


class Transient(Exception):
    """A failure worth another attempt (429, 5xx, a lost connection): ``what`` says which, with no key."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _status(exc: BaseException) -> int | None:
    """The HTTP status an API client's exception carries (each client names it differently)."""
    for attr in ("status_code", "http_status", "code"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and 100 <= value < 600:
            return value
    return None


def _retry_after(exc: BaseException) -> float | None:
    """The seconds a 429 or 503 answer's ``Retry-After`` header asks for (each client keeps the headers elsewhere)."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or getattr(exc, "headers", None) or {}
    try:
        value = headers.get("retry-after") or headers.get("Retry-After")
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError, AttributeError):
        return None  # an HTTP date, or no headers at all: the backoff alone


def _connection_lost(exc: BaseException) -> bool:
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"APIConnectionError", "APITimeoutError", "Timeout", "TryAgain", "TransportError",
                         "ConnectionError", "TimeoutException"})


Call = Callable[[list[str]], list]  # one request: texts -> one vector (a list of numbers) per text


class ApiEncoder:
    """One API model on one side (query or document), with sentence-transformers' ``encode`` signature.

    ``call`` sends one request; ``encode`` batches, retries and checks the answers.

    >>> fake = ApiEncoder("demo", "openai", lambda texts: [[3.0, 4.0] for _ in texts], secrets=("sk-x",))
    >>> fake.encode(["a", ""], batch_size=8, normalize_embeddings=True).tolist()
    [[0.6000000238418579, 0.800000011920929], [0.6000000238418579, 0.800000011920929]]
    >>> ApiEncoder("demo", "openai", lambda texts: [[1.0]], secrets=()).encode(["a", "b"], batch_size=8)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: demo: malformed answer from the openai API: 1 vectors for 2 texts
    """

    def __init__(self, model_id: str, provider: str, call: Call, secrets: tuple[str, ...], dims: int | None = None,
                 attempts: int | None = None, backoff_s: float | None = None, sleep=time.sleep,
                 timeout_s: float | None = None) -> None:
        self.model_id, self.provider, self.call, self.secrets, self.dims = model_id, PROVIDERS[provider], call, secrets, dims
        self.attempts = max(1, int(attempts if attempts is not None else _setting("COREB_API_ATTEMPTS", 6, 1, 100)))
        self.backoff_s = backoff_s if backoff_s is not None else _setting("COREB_API_BACKOFF_S", 1.0, 0, 3600)
        self.timeout_s = timeout_s
        self.sleep = sleep
        self.width: int | None = None  # the width of the first answer: every later one must match
        self.retries = 0  # transient failures retried, over this encoder's life

    def encode(self, texts: list[str], batch_size: int = 32, prompt: str | None = None,
               normalize_embeddings: bool = False, **_: Any) -> np.ndarray:
        if prompt:
            raise CorebError(f"{self.model_id}: an API model takes no prompt (its side is its task type)")
        sent = [t if t.strip() else " " for t in texts]  # the runner's rule: the APIs refuse empty text
        out = np.empty((len(texts), self.width or 0), dtype=np.float32)
        for group in batches(sent, min(self.provider.max_texts, max(1, batch_size)), self.provider.max_tokens):
            vectors = self._checked([sent[i] for i in group])
            if out.shape[1] != vectors.shape[1]:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[group] = vectors
        if normalize_embeddings and len(out):
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            out = (out / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        return out

    def _fail(self, what: str) -> CorebError:
        return CorebError(f"{self.model_id}: {scrub(what, self.secrets)}")

    def _checked(self, batch: list[str]) -> np.ndarray:
        answer = self._with_retries(batch)
        bad = f"malformed answer from the {self.provider.name} API"
        if not isinstance(answer, (list, tuple)) or len(answer) != len(batch):
            count = len(answer) if isinstance(answer, (list, tuple)) else "no list of"
            raise self._fail(f"{bad}: {count} vectors for {len(batch)} texts")
        try:
            widths = {len(v) for v in answer}
            if len(widths) != 1:
                raise self._fail(f"{bad}: vectors of different widths {sorted(widths)}")
            vectors = np.asarray(answer, dtype=np.float32)
        except (TypeError, ValueError):
            raise self._fail(f"{bad}: a vector that is not a list of numbers") from None
        if vectors.ndim != 2 or vectors.shape[1] == 0 or not np.isfinite(vectors).all():
            raise self._fail(f"{bad}: empty or non-finite vectors")
        # Finite in float32 is not enough: a vector of ±3e38 has a float32 length of inf, which normalising
        # turns into a zero vector, then scored (was: stored and ranked). Its length must be a float32 too.
        lengths = np.linalg.norm(vectors.astype(np.float64), axis=1)
        if not (lengths <= np.finfo(np.float32).max).all():
            row = int(np.argmax(~(lengths <= np.finfo(np.float32).max)))
            raise self._fail(f"{bad}: vector {row + 1} of {len(batch)} has a length of {lengths[row]:.3g}, beyond "
                             "float32 (an embedding's length is near 1)")
        width = vectors.shape[1]
        if self.dims is not None and width != self.dims:
            raise self._fail(f"{bad}: {width} dimensions, asked for {self.dims}")
        if self.width is not None and width != self.width:
            raise self._fail(f"{bad}: {width} dimensions after {self.width} in an earlier answer")
        self.width = width
        return vectors

    def _with_retries(self, batch: list[str]) -> Any:
        last, asked = "", None
        for attempt in range(self.attempts):
            if attempt:
                self.retries += 1
                delay = min(60.0, self.backoff_s * 2 ** (attempt - 1))
                delay *= 0.5 + random.random() / 2  # jitter: concurrent runs do not retry in step
                self.sleep(min(60.0, max(delay, asked or 0.0)))  # at least what the server asked, at most a minute
            try:
                return self._within_deadline(batch)
            except CorebError:
                raise
            except DeadlinePassed:
                last = f"no complete answer within COREB_API_TIMEOUT_S = {self.timeout_s:g} s"
                continue
            except Exception as exc:  # noqa: BLE001 - each client raises its own classes; sorted out here
                status = _status(exc)
                if status == 429 or (status is not None and status >= 500):
                    last, asked = f"HTTP {status}", _retry_after(exc)
                    continue
                if status is None and _connection_lost(exc):
                    last = f"connection failed ({type(exc).__name__})"
                    continue
                if status is not None and not 200 <= status < 300:  # a 200 that does not parse is malformed
                    raise self._fail(f"the {self.provider.name} API answered HTTP {status}: "
                                     f"{scrub(str(exc), self.secrets)}") from None
                raise self._fail(f"malformed answer from the {self.provider.name} API ({type(exc).__name__}: "
                                 f"{scrub(str(exc), self.secrets)})") from None
        raise self._fail(f"the {self.provider.name} API still failed after {self.attempts} attempts (last: {last})")


    def _within_deadline(self, batch: list[str]) -> Any:
        """``self.call(batch)``, given up after ``timeout_s`` in all. The clients' own timeouts bound each read,
        so a server that trickles a byte a second held a run for as long as it kept trickling (was: still
        waiting at 150 s under a 5 s limit). The request runs in a daemon thread that is left behind when the
        deadline passes (no client can be interrupted mid-read); it ends when the server stops or the process
        does, and at most ``attempts`` such threads are left per batch."""
        if self.timeout_s is None:
            return self.call(batch)
        box: dict[str, Any] = {}

        def request() -> None:
            try:
                box["answer"] = self.call(batch)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as it is
                box["error"] = exc

        thread = threading.Thread(target=request, name=f"coreb-api-{self.model_id}", daemon=True)
        thread.start()
        thread.join(self.timeout_s)
        if thread.is_alive():
            raise DeadlinePassed()
        if "error" in box:
            raise box["error"]
        return box["answer"]


class DeadlinePassed(Exception):
    """A request that did not answer in full within ``COREB_API_TIMEOUT_S`` (retried like a lost connection)."""


def _gemini_call(model: str, key: str, side: str, dims: int | None, timeout_s: float) -> Call:
    genai = import_client(PROVIDERS["gemini"])
    from google.genai import types

    options = types.HttpOptions(base_url=base_url(PROVIDERS["gemini"]), timeout=int(timeout_s * 1000),
                                retry_options=types.HttpRetryOptions(attempts=1))
    client = genai.Client(api_key=key, http_options=options)
    config = types.EmbedContentConfig(task_type=PROVIDERS["gemini"].task_type(side), output_dimensionality=dims)

    def call(texts: list[str]) -> list:
        contents = [types.UserContent(parts=[types.Part.from_text(text=t)]) for t in texts]  # one content per text
        response = client.models.embed_content(model=model, contents=contents, config=config)
        return [e.values for e in (response.embeddings or [])]
    return call


def _openai_call(model: str, key: str, side: str, dims: int | None, timeout_s: float) -> Call:
    openai = import_client(PROVIDERS["openai"])
    client = openai.OpenAI(api_key=key, base_url=base_url(PROVIDERS["openai"]), max_retries=0, timeout=timeout_s)
    extra = {"dimensions": dims} if dims else {}

    def call(texts: list[str]) -> list:
        response = client.embeddings.create(model=model, input=texts, encoding_format="float", **extra)
        return [d.embedding for d in sorted(response.data, key=lambda d: d.index)]
    return call


def _voyage_call(model: str, key: str, side: str, dims: int | None, timeout_s: float) -> Call:
    voyageai = import_client(PROVIDERS["voyage"])
    client = voyageai.Client(api_key=key, max_retries=0, timeout=timeout_s, base_url=base_url(PROVIDERS["voyage"]))

    def call(texts: list[str]) -> list:
        response = client.embed(texts, model=model, input_type=PROVIDERS["voyage"].task_type(side), truncation=True,
                                output_dimension=dims)
        return list(response.embeddings)
    return call


CALLS = {"gemini": _gemini_call, "openai": _openai_call, "voyage": _voyage_call}


class ApiModel:
    """An API model's two encoders (``for_side``), built on first need with the key read from the environment."""

    def __init__(self, model_id: str, provider: str, name: str, dims: int | None) -> None:
        self.model_id, self.provider, self.name, self.dims = model_id, provider, name, dims
        self.key = api_key(PROVIDERS[provider], model_id)
        import_client(PROVIDERS[provider])  # a missing client is said before any request
        scrub_client_logs(self.key)
        self.sides: dict[str, ApiEncoder] = {}

    def for_side(self, side: str) -> ApiEncoder:
        if side not in self.sides:
            timeout_s = _setting("COREB_API_TIMEOUT_S", 120.0, 0.001, 86400)
            try:
                call = CALLS[self.provider](self.name, self.key, side, self.dims, timeout_s)
            except CorebError:
                raise
            except Exception as exc:  # noqa: BLE001 - a client refusing its settings (a bad base URL)
                raise CorebError(f"{self.model_id}: the {self.provider} client could not be set up "
                                 f"({type(exc).__name__}: {scrub(str(exc), (self.key,))})") from None
            self.sides[side] = ApiEncoder(self.model_id, self.provider, call, (self.key,), self.dims,
                                          timeout_s=timeout_s)
        return self.sides[side]

    def __repr__(self) -> str:  # never the key
        return f"ApiModel({self.model_id!r}, {self.provider!r})"

    @property
    def retries(self) -> int:
        """Transient failures retried over both sides."""
        return sum(e.retries for e in self.sides.values())

    @property
    def width(self) -> int | None:
        """The vectors' width the API answered with (None before any answer)."""
        return next((e.width for e in self.sides.values() if e.width), None)
