"""On-disk embedding cache: never pay twice for the same encode.

Layout: ``data_cache/embeddings/<model identity>/shard-<uuid>.npz``, each shard holding ``keys``
(16-byte digests of prompt + text) and ``vectors`` (float32). A key covers the exact input the
encoder saw (prompt included), the identity covers the encoder (name, revision, normalisation,
encoding profile and backend, maximum length, precision: ``coreb_core.retrieval.profiles.encoder_identity``),
so runs and releases that share texts share vectors, and any change of prompt, revision, profile or
precision misses.

Shards are written to a temporary name and renamed into place, so a writer killed mid-write leaves
at most a ``.tmp`` file, which readers ignore and later writers remove.

Example:
    >>> import tempfile
    >>> cache = EmbeddingCache("abc123", root=Path(tempfile.mkdtemp()))
    >>> cache.lookup(["def f(): pass"], prompt="")
    ({}, [0])
    >>> cache.put(["def f(): pass"], "", np.array([[0.6, 0.8]]))
    >>> cache.lookup(["def f(): pass"], prompt="")
    ({0: array([0.6, 0.8], dtype=float32)}, [])
"""
from __future__ import annotations

import hashlib
import time
import uuid
import zipfile
from pathlib import Path

import numpy as np

from coreb_core.atomic import atomic_open
from coreb_core.paths import embeddings_dir

STALE_TMP_S = 3600  # a .tmp older than this belongs to a dead writer


KEY_BYTES = 16


def text_key(prompt: str, text: str) -> bytes:
    """The 16-byte cache key of one encoder input: the prompt and the text, hashed together.

    >>> text_key("", "def f(): pass").hex()
    '2d154fc4448463f67b3d594625cbd0f3'
    >>> text_key("query: ", "def f(): pass") == text_key("", "def f(): pass")
    False
    """
    return hashlib.blake2b(f"{prompt}\0{text}".encode("utf-8"), digest_size=KEY_BYTES).digest()


class EmbeddingCache:
    """The vectors one encoder identity has produced, read from its shards and added to in new ones.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> EmbeddingCache("abc123", root).put(["def f(): pass"], "", np.array([[0.6, 0.8]]))
    >>> len(EmbeddingCache("abc123", root)), len(EmbeddingCache("other", root))   # shared through the disk
    (1, 0)
    """
    def __init__(self, identity: str, root: Path | None = None) -> None:
        self.folder = embeddings_dir(root) / identity
        self._index: dict[bytes, tuple[int, int]] = {}
        self._shards: list[np.ndarray] = []
        self._seen: set[str] = set()
        self.refresh()

    def refresh(self) -> None:
        """Load shards written since the last look (by this or another process).

        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> reader = EmbeddingCache("abc123", root)
        >>> EmbeddingCache("abc123", root).put(["a"], "", np.ones((1, 2)))   # another writer
        >>> len(reader), (reader.refresh(), len(reader))[1]
        (0, 1)
        """
        if not self.folder.is_dir():
            return
        for path in sorted(self.folder.glob("shard-*.npz")):
            if path.name in self._seen:
                continue
            try:
                with np.load(path) as data:
                    keys, vectors = data["keys"], data["vectors"]
            except (OSError, ValueError, KeyError, zipfile.BadZipFile):
                continue  # unreadable shard: never trusted, re-encoded instead
            if len(keys) != len(vectors):
                continue
            self._seen.add(path.name)
            shard = len(self._shards)
            self._shards.append(vectors)
            for row, key in enumerate(keys):
                # numpy's S16 drops a key's trailing zero bytes when it is read back (1 key in 256): pad them
                # back, or such a text would never be found and be encoded again on every run.
                self._index[bytes(key).ljust(KEY_BYTES, b"\0")] = (shard, row)

    def __len__(self) -> int:
        return len(self._index)

    def lookup(self, texts: list[str], prompt: str) -> tuple[dict[int, np.ndarray], list[int]]:
        """Vectors found (by position in ``texts``) and the positions still to encode.

        >>> import tempfile
        >>> cache = EmbeddingCache("abc123", root=Path(tempfile.mkdtemp()))
        >>> cache.put(["def f(): pass"], "", np.array([[0.6, 0.8]]))
        >>> cache.lookup(["def f(): pass", "x = 1"], prompt="")
        ({0: array([0.6, 0.8], dtype=float32)}, [1])
        >>> cache.lookup(["def f(): pass"], prompt="query: ")   # another prompt is another input
        ({}, [0])
        >>> text_key("", "x535")[-1], cache.put(["x535"], "", np.eye(2)[:1])   # a key ending in a zero byte
        (0, None)
        >>> EmbeddingCache("abc123", cache.folder.parent.parent).lookup(["x535"], prompt="")[1]   # found on disk
        []
        """
        found, missing = {}, []
        for i, text in enumerate(texts):
            hit = self._index.get(text_key(prompt, text))
            if hit is None:
                missing.append(i)
            else:
                found[i] = self._shards[hit[0]][hit[1]]
        return found, missing

    def put(self, texts: list[str], prompt: str, vectors: np.ndarray) -> None:
        """Store vectors for texts in one new shard (atomic).

        >>> import tempfile
        >>> cache = EmbeddingCache("abc123", root=Path(tempfile.mkdtemp()))
        >>> cache.put(["a", "b"], "", np.eye(2))
        >>> len(cache), len(list(cache.folder.glob("shard-*.npz")))
        (2, 1)
        """
        if len(texts) == 0:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        self._remove_stale_tmp()
        keys = np.frombuffer(b"".join(text_key(prompt, t) for t in texts), dtype="S16")
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        name = f"shard-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:10]}.npz"
        # the temporary ends in .tmp: what _remove_stale_tmp looks for after a killed writer
        with atomic_open(self.folder / name, "wb", tmp=self.folder / f"{name}.tmp", fsync=True) as f:
            np.savez(f, keys=keys, vectors=vectors)
        self.refresh()

    def _remove_stale_tmp(self) -> None:
        now = time.time()
        for tmp in self.folder.glob("*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_TMP_S:
                    tmp.unlink()
            except OSError:
                pass
