"""On-disk embedding cache: never pay twice for the same encode.

Layout: ``data_cache/embeddings/<model identity>/shard-<time>-<uuid>-c<checksum>.npz``, each shard holding
``keys`` (16-byte digests of prompt + text) and ``vectors`` (float32). A key covers the exact input the
encoder saw (prompt included), the identity covers the encoder (name, revision, normalisation,
encoding profile and backend, maximum length, precision: ``coreb_core.retrieval.profiles.encoder_identity``),
so runs and releases that share texts share vectors, and any change of prompt, revision, profile or
precision misses.

Shards are written to a temporary name and renamed into place, so a writer killed mid-write leaves
at most a ``.tmp`` file, which readers ignore and later writers remove.

Every shard is checked when read, and one that fails is dropped (its texts are encoded again, and the
next write removes it) with a one-line warning in ``EmbeddingCache.warnings``: it must be a readable .npz
(the zip's CRC catches a flipped byte in the arrays), the checksum in its name (``shard_checksum`` of its
keys and vectors) must match what it holds (rows permuted, NaN written in, vectors rewritten), and its
arrays must be what ``put`` writes: as many 16-byte keys as rows, float32 vectors, every value finite, and one
width per encoder identity. Shards written before checksums (names without ``-c<checksum>``) get
every check but the checksum: they stay in use rather than cost a re-encode (hours for the large models).

Example:
    >>> import tempfile
    >>> cache = EmbeddingCache("abc123", root=Path(tempfile.mkdtemp()))
    >>> cache.lookup(["def f(): pass"], prompt="")
    ({}, [0])
    >>> cache.put(["def f(): pass"], "", np.array([[0.6, 0.8]]))
    >>> cache.lookup(["def f(): pass"], prompt="")
    ({0: array([0.6, 0.8], dtype=float32)}, [])
    >>> shard = next(cache.folder.glob("shard-*.npz"))
    >>> with np.load(shard) as arrays:   # rewritten in place: the same keys, other vectors
    ...     np.savez(shard, keys=arrays["keys"], vectors=np.array([[0.8, 0.6]], dtype=np.float32))
    >>> fresh = EmbeddingCache("abc123", cache.folder.parent.parent)
    >>> fresh.lookup(["def f(): pass"], prompt=""), fresh.warnings   # doctest: +ELLIPSIS
    (({}, [0]), ['embedding cache: .../shard-...npz: checksum mismatch (changed after it was written); dropped, its texts are encoded again'])
"""
from __future__ import annotations

import hashlib
import io
import re
import time
import uuid
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from coreb_core.atomic import atomic_open
from coreb_core.paths import embeddings_dir

STALE_TMP_S = 3600  # a .tmp older than this belongs to a dead writer


KEY_BYTES = 16
CHECKSUM_BYTES = 16
# shard-<time>-<uuid>[-c<checksum>].npz; names without a checksum were written before checksums existed
SHARD_NAME = re.compile(rf"shard-.*?(?:-c(?P<checksum>[0-9a-f]{{{2 * CHECKSUM_BYTES}}}))?\.npz")


def text_key(prompt: str, text: str) -> bytes:
    """The 16-byte cache key of one encoder input: the prompt and the text, hashed together.

    >>> text_key("", "def f(): pass").hex()
    '2d154fc4448463f67b3d594625cbd0f3'
    >>> text_key("query: ", "def f(): pass") == text_key("", "def f(): pass")
    False
    """
    return hashlib.blake2b(f"{prompt}\0{text}".encode("utf-8"), digest_size=KEY_BYTES).digest()


def shard_checksum(keys: np.ndarray, vectors: np.ndarray) -> str:
    """The checksum a shard's name carries: blake2b of its keys' bytes, its vectors' dtype and shape, and
    their bytes, hex. Known before the file is written, so the name is final when the write starts.

    >>> keys = np.frombuffer(text_key("", "a"), dtype="S16")
    >>> shard_checksum(keys, np.ones((1, 2), dtype=np.float32)) == shard_checksum(keys, np.ones((1, 2)))   # dtype
    False
    """
    digest = hashlib.blake2b(digest_size=CHECKSUM_BYTES)
    digest.update(np.ascontiguousarray(keys).tobytes())
    digest.update(f"|{vectors.dtype.str}|{vectors.shape}|".encode())
    digest.update(np.ascontiguousarray(vectors).tobytes())
    return digest.hexdigest()


class Shard(NamedTuple):
    """One shard's arrays as read and checked (``checksummed``: its name carries a checksum that matched)."""
    keys: np.ndarray
    vectors: np.ndarray
    checksummed: bool


class BadShard(Exception):
    """Why a shard cannot be trusted (one short phrase); raised by ``read_shard``."""


def read_shard(path: Path) -> Shard:
    """A shard's keys and vectors, after every check that can be made on the shard alone; ``BadShard``
    says why one fails. (The width is checked across shards, by ``EmbeddingCache.refresh``.)

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "shard-old.npz"   # a name without a checksum: the other checks
    >>> np.savez(path, keys=np.array([b"k" * 16]), vectors=np.array([[np.nan, 1.0]], dtype=np.float32))
    >>> read_shard(path)
    Traceback (most recent call last):
    coreb_core.retrieval.embeddings.BadShard: 1 of its 1 vectors hold NaN or infinite values
    """
    name = SHARD_NAME.fullmatch(path.name)
    expected = name["checksum"] if name else None
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadShard(f"unreadable ({exc.strerror or type(exc).__name__})") from None
    if not data:
        raise BadShard("empty (0 bytes: a write cut short)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            keys, vectors = arrays["keys"], arrays["vectors"]
    # whatever a damaged file makes numpy or zipfile raise: the shard is not used, never the run's end
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise BadShard(f"not a readable .npz of keys and vectors ({type(exc).__name__})") from None
    if expected is not None and shard_checksum(keys, vectors) != expected:
        raise BadShard("checksum mismatch (changed after it was written)")
    if keys.ndim != 1 or keys.dtype.kind != "S" or keys.dtype.itemsize > KEY_BYTES:
        raise BadShard(f"keys are {keys.dtype} of shape {keys.shape}, not 16-byte digests")
    if vectors.dtype != np.float32 or vectors.ndim != 2 or vectors.shape[1] < 1:
        raise BadShard(f"vectors are {vectors.dtype} of shape {vectors.shape}, not float32 rows")
    if len(keys) != len(vectors):
        raise BadShard(f"{len(keys)} keys for {len(vectors)} vectors")
    bad = int((~np.isfinite(vectors).all(axis=1)).sum())
    if bad:
        raise BadShard(f"{bad} of its {len(vectors)} vectors hold NaN or infinite values")
    return Shard(keys, vectors, expected is not None)


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
        self._paths: list[Path] = []  # the file of each loaded shard
        self._seen: set[str] = set()
        self._bad: list[Path] = []  # dropped shards, removed by the next put (which replaces their vectors)
        self.width: int | None = None  # the one vector width of this encoder identity, once known
        self.warnings: list[str] = []  # one line per dropped shard, for the caller to show
        self.refresh()

    def refresh(self) -> None:
        """Load shards written since the last look (by this or another process); drop those that fail a
        check (see the module's docstring), each with a line in ``warnings``.

        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> reader = EmbeddingCache("abc123", root)
        >>> EmbeddingCache("abc123", root).put(["a"], "", np.ones((1, 2)))   # another writer
        >>> len(reader), (reader.refresh(), len(reader))[1]
        (0, 1)
        """
        if not self.folder.is_dir():
            return
        good: list[tuple[Path, Shard]] = []
        for path in sorted(self.folder.glob("shard-*.npz")):
            if path.name in self._seen:
                continue
            self._seen.add(path.name)  # looked at once: a bad shard is reported once per cache object
            try:
                good.append((path, read_shard(path)))
            except BadShard as exc:
                self._drop(path, str(exc))
        if self.width is None and good:
            # Shards whose checksum matched are what put wrote; of the rest (written before checksums), the
            # width of most rows. A shard of another width belongs to another encoder (or was rewritten).
            trusted = [s for _, s in good if s.checksummed] or [s for _, s in good]
            rows: dict[int, int] = {}
            for s in trusted:
                rows[s.vectors.shape[1]] = rows.get(s.vectors.shape[1], 0) + len(s.vectors)
            self.width = max(rows, key=lambda w: rows[w])
        for path, s in good:
            if s.vectors.shape[1] != self.width:
                self._drop(path, f"{s.vectors.shape[1]}-wide vectors where this encoder's hold {self.width}")
                continue
            shard = len(self._shards)
            self._shards.append(s.vectors)
            self._paths.append(path)
            for row, key in enumerate(s.keys):
                # numpy's S16 drops a key's trailing zero bytes when it is read back (1 key in 256): pad them
                # back, or such a text would never be found and be encoded again on every run.
                self._index[bytes(key).ljust(KEY_BYTES, b"\0")] = (shard, row)

    def _drop(self, path: Path, reason: str) -> None:
        self._bad.append(path)
        self.warnings.append(f"embedding cache: {path}: {reason}; dropped, its texts are encoded again")

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
        """Store vectors for texts in one new shard (atomic), then remove the shards dropped so far (their
        texts' vectors are re-encoded by now). Vectors of another width than the cache holds mean the
        encoder changed under the same identity (a local folder's model replaced): every older shard is
        dropped.

        >>> import tempfile
        >>> cache = EmbeddingCache("abc123", root=Path(tempfile.mkdtemp()))
        >>> cache.put(["a", "b"], "", np.eye(2))
        >>> len(cache), len(list(cache.folder.glob("shard-*.npz")))
        (2, 1)
        >>> cache.put(["c"], "", np.ones((1, 3)))   # a 3-wide encoder now: the 2-wide shard goes
        >>> len(cache), cache.width, len(list(cache.folder.glob("shard-*.npz"))), len(cache.warnings)
        (1, 3, 1, 1)
        """
        if len(texts) == 0:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        self._remove_stale_tmp()
        keys = np.frombuffer(b"".join(text_key(prompt, t) for t in texts), dtype="S16")
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if self.width is not None and vectors.shape[1] != self.width:
            for path in self._paths:
                self._drop(path, f"{self.width}-wide vectors, but the encoder now makes {vectors.shape[1]}-wide ones")
            self._index, self._shards, self._paths = {}, [], []
        self.width = vectors.shape[1]
        name = f"shard-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:10]}-c{shard_checksum(keys, vectors)}.npz"
        # the temporary ends in .tmp: what _remove_stale_tmp looks for after a killed writer
        with atomic_open(self.folder / name, "wb", tmp=self.folder / f"{name}.tmp", fsync=True) as f:
            np.savez(f, keys=keys, vectors=vectors)
        for path in self._bad:  # replaced by now: the new shard holds the vectors this run needed of them
            path.unlink(missing_ok=True)
        self._bad = []
        self.refresh()

    def _remove_stale_tmp(self) -> None:
        now = time.time()
        for tmp in self.folder.glob("*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_TMP_S:
                    tmp.unlink()
            except OSError:
                pass
