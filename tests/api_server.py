"""A loopback server that speaks the three embedding APIs' wire formats, for the API model tests.

- OpenAI and Voyage: ``POST …/embeddings`` with ``{"input": [...], "model": …}``; the answer ``{"data": [{"embedding":
  …, "index": i}], …}``, the vectors as float lists, or base64 float32 when the request asks ``encoding_format``
  base64 (voyageai's default).
- Gemini (google-genai): ``POST …/models/{model}:batchEmbedContents`` with ``{"requests": [{"content": {"parts":
  [{"text": …}]}, "taskType": …}]}``; the answer ``{"embeddings": [{"values": …}]}``.

Vectors are deterministic (a hash of provider, task type and text seeds them), ``DIMS`` wide. ``faults`` is a list
of what the next requests get instead of an answer, one per request: ``429``, ``500``, ``"malformed"`` (not JSON),
``"echo401"`` (401 quoting the key back), ``"short"`` (one vector too few), ``"nan"`` (a non-numeric value), ``"wide"`` (one vector one dimension wider),
``"huge"`` (every value ±3e38: finite in float32, a length that is not). ``trickle_s`` sends every answer one byte
at a time, that many seconds apart (a server that never trips a per-read timeout).
Errors carry both shapes of error body: ``{"error": {...}}`` (OpenAI, Gemini) and ``{"detail": …}`` (Voyage).
Every request is recorded (path, the key headers, the body) so a test can check the key was sent.
"""
from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

DIMS = 16


def vector(provider: str, task_type: str | None, text: str, dims: int = DIMS) -> list[float]:
    """The server's vector of ``text``: seeded by a hash, so every run of the tests sees the same one."""
    seed = int.from_bytes(hashlib.sha256(f"{provider}\0{task_type}\0{text}".encode()).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dims).round(6).tolist()


class ApiServer:
    """``with ApiServer() as server:`` serves on 127.0.0.1 (a free port) in a thread; ``server.url``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.faults: list[Any] = []
        self.retry_after = "0"  # the Retry-After header of a 429, in seconds
        self.delay_s = 0.0  # each answer waits this long: a slow provider, so that a run lasts (browser tests)
        self.trickle_s = 0.0  # > 0: each answer's body goes out one byte at a time, this many seconds apart
        self.stopped = threading.Event()  # set on exit: a trickling answer stops, so no thread outlives the test
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet: the tests read stderr
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                with owner.lock:
                    owner.requests.append({"path": self.path, "body": body,
                                           "authorization": self.headers.get("Authorization"),
                                           "x-goog-api-key": self.headers.get("x-goog-api-key")})
                    fault = owner.faults.pop(0) if owner.faults else None
                if owner.delay_s:
                    time.sleep(owner.delay_s)
                if fault == "echo401":  # a careless server quoting the key back: the client must not pass it on
                    sent = self.headers.get("Authorization") or self.headers.get("x-goog-api-key") or ""
                    return self._send(401, json.dumps({"error": {"code": 401, "status": "UNAUTHENTICATED",
                                                                 "message": f"invalid key {sent}"},
                                                       "detail": f"invalid key {sent}"}).encode())
                if isinstance(fault, int):  # a 429 says when to come back, as the APIs do (0 s: the tests stay fast)
                    return self._send(fault, json.dumps({"error": {"code": fault, "message": f"injected {fault}",
                                                                   "status": "UNAVAILABLE"},
                                                         "detail": f"injected {fault}"}).encode())
                if fault == "malformed":
                    return self._send(200, b"{this is not json")
                answer = owner.answer(self.path, body, fault)
                self._send(200 if answer is not None else 404, json.dumps(answer or {"error": "no such path"}).encode())

            def _send(self, status: int, payload: bytes) -> None:
                self.send_response(status)
                if status == 429:
                    self.send_header("Retry-After", owner.retry_after)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if owner.trickle_s <= 0:
                    self.wfile.write(payload)
                    return
                for i in range(len(payload)):
                    if owner.stopped.wait(owner.trickle_s):
                        return
                    self.wfile.write(payload[i:i + 1])
                    self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> "ApiServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stopped.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def texts_sent(self) -> int:
        """Texts in every embedding request so far."""
        total = 0
        for r in self.requests:
            total += len(r["body"].get("input") or r["body"].get("requests") or [])
        return total

    def answer(self, path: str, body: dict, fault: Any) -> dict | None:
        if path.rstrip("/").endswith("/embeddings"):  # OpenAI, Voyage
            provider = "voyage" if "input_type" in body else "openai"
            texts = body["input"]
            vectors = [vector(provider, body.get("input_type"), t) for t in texts]
            vectors = _spoil(vectors, fault)
            as_b64 = body.get("encoding_format") == "base64" and fault != "nan"
            data = [{"object": "embedding", "index": i,
                     "embedding": base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode() if as_b64 else v}
                    for i, v in enumerate(vectors)]
            tokens = sum(max(1, len(t) // 4) for t in texts)
            return {"object": "list", "data": data, "model": body.get("model"),
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}
        if ":batchEmbedContents" in path:  # Gemini
            texts, types = [], []
            for request in body["requests"]:
                texts.append("".join(p.get("text", "") for p in request["content"]["parts"]))
                types.append(request.get("taskType"))
            vectors = _spoil([vector("gemini", tt, t) for t, tt in zip(texts, types)], fault)
            return {"embeddings": [{"values": v} for v in vectors]}
        return None


def _spoil(vectors: list, fault: Any) -> list:
    if fault == "short":
        return vectors[:-1]
    if fault == "nan":
        return [["x", *v[1:]] for v in vectors]
    if fault == "wide":
        return [*vectors[:-1], [*vectors[-1], 0.5]]
    if fault == "huge":
        return [[3e38 if x >= 0 else -3e38 for x in v] for v in vectors]
    return vectors
