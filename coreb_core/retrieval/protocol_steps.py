"""The encodings between MTEB's protocol and CoREB's, one change at a time: the encoding half of the protocol
waterfall (``coreb_core.analysis.waterfall`` scores them).

MTEB encodes a model as its card says (the ``card`` profile: the card's prompts, length, precision and
sentence-transformers modules); CoREB's leaderboard as coreb_runner 0.1.0 does (the ``official`` profile: no prompt,
512 tokens, float32, transformers AutoModel with mean pooling). Between them, each step changes one thing:

1. ``prompts``: the card's prompts → none;
2. ``length``: the card's length → the runner's 512 tokens;
3. ``precision``: the card's dtype → float32;
4. ``encoder``: sentence-transformers modules → AutoModel with the runner's pooling (the official profile itself).

A step that changes nothing for a model (MiniLM has no prompts and runs in float32) is kept, marked ``same``, so a
reader sees it was looked at; it needs no run. Each other step's run is an ordinary stored run whose ``run.json``
``encoding`` is the step's (``matches``), made by ``run_retrieval(…, encoding=step.encoding)``.

Example:
    >>> from coreb_core.retrieval.models import resolve
    >>> [(s.name, s.same, s.change) for s in encoding_steps(resolve("minilm"), "cpu")]  # doctest: +NORMALIZE_WHITESPACE
    [('card', False, "MTEB's encoding: the card's prompts, 256 tokens, float32, sentence-transformers modules"),
     ('prompts', True, 'prompts: none on the card, none in the runner'),
     ('length', False, 'length: 256 tokens → 512 tokens'),
     ('precision', True, 'precision: float32 on the card, float32 in the runner'),
     ('encoder', False, "encoder: sentence-transformers modules → transformers AutoModel, the runner's pooling")]
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from coreb_core.errors import CorebError
from coreb_core.retrieval.models import ModelSpec
from coreb_core.retrieval.profiles import Encoding, encoding_for

# What fixes a step's vectors, as run.json's ``encoding`` holds it (the note and the pooling seen aside).
_COMPARED = ("profile", "backend", "max_length", "precision", "prompts")


class EncodingStep(NamedTuple):
    """One encoding on the way from the card's to the runner's; ``same``: it changes nothing for this model."""

    name: str  # card, prompts, length, precision, encoder
    change: str  # in words
    encoding: Encoding
    same: bool

    def matches(self, stored: Mapping[str, Any] | None) -> bool:
        """Whether a run's stored ``encoding`` (run.json) is this step's.

        >>> from coreb_core.retrieval.models import resolve
        >>> card = encoding_steps(resolve("minilm"), "cpu")[0]
        >>> card.matches(card.encoding.describe()), card.matches(None)
        (True, False)
        """
        if not stored:
            return False
        mine = self.encoding.describe()
        return all(_plain(stored.get(k)) == _plain(mine.get(k)) for k in _COMPARED)


def _plain(value: Any) -> Any:
    """Prompts compared by their texts (the ``source`` words may change between versions)."""
    if isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values()):
        return {t: (p.get("query", ""), p.get("document", "")) for t, p in value.items()}
    return value


def _prompts_words(encoding: Encoding) -> str:
    texts = {(p.query, p.document) for p in encoding.prompts.values()}
    return "none" if texts <= {("", "")} else "the card's"


def encoding_steps(spec: ModelSpec, device: str) -> list[EncodingStep]:
    """The card's encoding, then one step per change to the runner's (module docstring)."""
    if spec.kind != "dense":
        raise CorebError(f"{spec.id} has no encoder: its waterfall has the scoring steps only")
    card, official = encoding_for(spec, "card", device), encoding_for(spec, "official", device)
    note = "protocol waterfall step: "
    prompts = card._replace(prompts=official.prompts, note=note + "no prompts")
    length = prompts._replace(max_length=official.max_length, note=note + "no prompts, the runner's length")
    precision = length._replace(precision=official.precision,
                                note=note + "no prompts, the runner's length and precision")
    card_length = f"{card.max_length} tokens" if card.max_length else "the model's own length"
    steps = [EncodingStep("card", f"MTEB's encoding: the card's prompts, {card_length}, {card.precision}, "
                                  "sentence-transformers modules", card, False)]
    for name, after, was, now in (("prompts", prompts, _prompts_words(card), "none"),
                                  ("length", length, card_length, f"{official.max_length} tokens"),
                                  ("precision", precision, card.precision, official.precision)):
        same = was == now
        change = f"{name}: {was} on the card, {now} in the runner" if same else f"{name}: {was} → {now}"
        steps.append(EncodingStep(name, change, after, same))
    steps.append(EncodingStep("encoder", "encoder: sentence-transformers modules → transformers AutoModel, the runner's "
                                         "pooling", official, False))
    return steps
