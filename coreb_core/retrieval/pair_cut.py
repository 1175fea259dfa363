"""Cut (query, document) texts to what a cross-encoder's truncation keeps, before the tokenizer sees them.

A cross-encoder tokenizes each pair with ``truncation="longest_first"``. In tokenizers 0.23 that truncation
builds every overflow window of both texts, so a pair whose texts are far over the model's length costs about
15 ms of one core (2,780 C2C pairs of release_v2603 at 64 tokens: 44 CPU-s of tokenizing against 22 of model).
What the truncation keeps depends only on which text of the pair is the shorter (the first, on a tie) and on the
shorter one's length when it is under half the budget; every text it cuts keeps fewer than ``max_length`` tokens.
So each text may be cut to a prefix of at least ``max_length`` whole tokens, the order of the lengths within a
group kept, and the model reads the very same token ids (the test compares them pair by pair on the real release).

A cut falls on whitespace, where every usual pre-tokenizer (BERT's, byte-level BPE's, SentencePiece's) splits, and
is checked: the cut text's tokens must be the first tokens of the whole text, or the group keeps its texts whole.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any, NamedTuple, Sequence

Group = tuple[str, Sequence[str]]  # one query text and the texts it is paired with


class _Tokens(NamedTuple):
    ids: list[int]
    ends: list[int]  # each token's end offset in the text


def cut_groups(tokenizer: Any, groups: Sequence[Group], max_length: int | None) -> list[tuple[str, list[str]]]:
    """Each group's texts cut so that ``tokenizer(query, text, truncation="longest_first", max_length=...)`` gives
    the same ids for each of its pairs, and costs a fraction. Groups are returned whole where nothing can be cut
    safely: a slow tokenizer, left truncation, no length, two different texts of one length over ``max_length``
    (the same text twice, C2C's anchor beside its query, is cut alike).

    Example (a fast tokenizer cuts the long document and keeps the short query; anything else keeps all):

    >>> from transformers import AutoTokenizer  # doctest: +SKIP
    >>> cut_groups(AutoTokenizer.from_pretrained("bert-base-uncased"), [("a b", ["x " * 500])], 8)  # doctest: +SKIP
    [('a b', ['x x x x x x x x'])]
    >>> cut_groups(object(), [("a b", ["x " * 3])], 8)  # not a fast tokenizer: whole
    [('a b', ['x x x '])]
    """
    whole = [(q, list(ds)) for q, ds in groups]
    if (not max_length or max_length > 100_000 or not getattr(tokenizer, "is_fast", False)
            or getattr(tokenizer, "truncation_side", "right") != "right"):
        return whole
    texts = list(dict.fromkeys(t for q, ds in whole for t in (q, *ds)))
    enc = tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
    tokens = {t: _Tokens(ids, [e for _, e in offs]) for t, ids, offs in zip(texts, enc["input_ids"], enc["offset_mapping"])}
    planned = [_plan(q, ds, tokens, max_length) for q, ds in whole]
    cuts = list(dict.fromkeys(c for group in planned if group for c in (group[0], *group[1]) if c[1] is not None))
    if cuts:  # each cut text's tokens must be the first tokens of its whole text
        again = tokenizer([text[:end] for text, end in cuts], add_special_tokens=False)["input_ids"]
        bad = {c for c, ids in zip(cuts, again) if ids != tokens[c[0]].ids[:_count(c, tokens)]}
    else:
        bad = set()
    out = []
    for (q, ds), group in zip(whole, planned):
        if group is None or any(c in bad for c in (group[0], *group[1])):
            out.append((q, ds))
        else:
            out.append((_text(group[0]), [_text(c) for c in group[1]]))
    return out


Cut = tuple[str, "int | None"]  # (text, end of the kept prefix; None: the whole text)


def _plan(q: str, ds: list[str], tokens: dict[str, _Tokens], m: int) -> tuple[Cut, list[Cut]] | None:
    """Where to cut a group's texts: each cut text keeps at least ``m`` tokens, and each pair's shorter text stays
    the shorter (its lengths' order kept). None: keep the group whole."""
    nq = len(tokens[q].ids)
    if nq <= m:  # the query is kept; a document over m tokens stays longer than it
        return (q, None), [_cut(d, tokens[d], max(m, nq + 1)) for d in ds]
    lengths = [len(tokens[d].ids) for d in ds]
    # A tie over m tokens (the first text counts as the shorter) stays a tie when both are cut alike: C2C's anchor,
    # the query's own code among its documents, is cut as the query is. A tie with another text is kept whole.
    if any(n == nq and d != q for d, n in zip(ds, lengths)):
        return None
    shorter = {i: _cut(d, tokens[d], m) for i, (d, n) in enumerate(zip(ds, lengths)) if n < nq}
    query = _cut(q, tokens[q], max([m] + [_count(c, tokens) + 1 for c in shorter.values()]))
    above = _count(query, tokens) + 1
    return query, [shorter[i] if i in shorter else query if d == q else _cut(d, tokens[d], above)
                   for i, d in enumerate(ds)]


def _cut(text: str, tok: _Tokens, keep: int) -> Cut:
    """The text cut at the first whitespace after its first ``keep`` tokens (whole when that is all of it)."""
    if len(tok.ids) <= keep:
        return text, None
    end = tok.ends[keep - 1]
    while end < len(text) and not text[end].isspace():
        end += 1
    return (text, None) if bisect_left(tok.ends, end + 1) >= len(tok.ids) else (text, end)


def _count(cut: Cut, tokens: dict[str, _Tokens]) -> int:
    """Tokens the cut keeps (those ending at or before the cut)."""
    tok = tokens[cut[0]]
    return len(tok.ids) if cut[1] is None else bisect_left(tok.ends, cut[1] + 1)


def _text(cut: Cut) -> str:
    return cut[0] if cut[1] is None else cut[0][:cut[1]]
