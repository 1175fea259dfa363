"""The token and cost estimate of an API run, shown before it starts: the texts the embedding cache lacks, their
tokens (characters / 4: no tokenizer of these APIs works offline) and the registry's price per million tokens.
An estimate, not a bill: the providers count tokens with their own tokenizers and bill by their own rules.

Example:
    >>> est = ApiEstimate("voyage-code-3", texts=3, cached=1, tokens=2_000_000, price_per_mtok=0.18)
    >>> est.usd, est.words()
    (0.36, 'voyage-code-3: 3 texts to send (1 already in the embedding cache), about 2,000,000 tokens (characters / 4), about US$0.36 at US$0.18 per million tokens (an estimate; prices: docs/api-models.md)')
"""
from __future__ import annotations

from typing import NamedTuple

from coreb_core.retrieval.api_encoders import approx_tokens
from coreb_core.retrieval.embeddings import EmbeddingCache


class ApiEstimate(NamedTuple):
    """What an API run will send: texts the cache lacks, those it has, their estimated tokens and price."""
    model: str
    texts: int
    cached: int
    tokens: int
    price_per_mtok: float | None

    @property
    def usd(self) -> float | None:
        return None if self.price_per_mtok is None else round(self.tokens * self.price_per_mtok / 1e6, 4)

    def words(self) -> str:
        """One line for the CLI's stderr and the app (see the module example)."""
        cost = ("no price in the registry" if self.usd is None else
                f"about US${self.usd:,.2f} at US${self.price_per_mtok:g} per million tokens")
        return (f"{self.model}: {self.texts:,} texts to send ({self.cached:,} already in the embedding cache), about "
                f"{self.tokens:,} tokens (characters / 4), {cost} (an estimate; prices: docs/api-models.md)")

    def record(self) -> dict:
        """For the run's provenance (``RunMeta.encoding['api']``)."""
        return {"texts_sent_estimate": self.texts, "tokens_estimate": self.tokens, "usd_estimate": self.usd,
                "price_per_mtok": self.price_per_mtok, "token_method": "characters / 4"}


def estimate(model: str, price_per_mtok: float | None, sides: dict[str, list[str]],
             caches: dict[str, EmbeddingCache]) -> ApiEstimate:
    """The estimate for the texts of each side (``query`` / ``document``), each looked up in its side's cache
    (texts sent as ``' '`` when empty count one token).

    >>> import tempfile
    >>> from pathlib import Path
    >>> cache = EmbeddingCache("x", root=Path(tempfile.mkdtemp()))
    >>> estimate("m", 1.0, {"query": ["abcd", "abcd"], "document": ["abcdefgh"]}, {"query": cache, "document": cache})[1:4]
    (2, 0, 3)
    """
    texts = cached = tokens = 0
    seen: set[tuple[str, str]] = set()
    for side, side_texts in sides.items():
        cache = caches[side]
        unique = [t for t in dict.fromkeys(side_texts) if (str(cache.folder), t) not in seen]
        seen.update((str(cache.folder), t) for t in unique)
        _, missing = cache.lookup(unique, "")
        texts += len(missing)
        cached += len(unique) - len(missing)
        tokens += sum(approx_tokens(unique[i]) for i in missing)
    return ApiEstimate(model, texts, cached, tokens, price_per_mtok)
