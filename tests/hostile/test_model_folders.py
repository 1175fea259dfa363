"""Local model folders given to ``run --model PATH``: a tiny random-weight BERT whose ``config.json`` was edited
after saving (hidden size 32 -> 64, so it no longer fits its safetensors), one whose weights are a pickle
(``pytorch_model.bin``) carrying a Python object beside the tensors, and a ``--model`` path that is a symlink
loop or a link to nothing, and a model of 64 positions under the official profile (which tokenizes to 512). Each is refused in one line, status 2, with the cache untouched and the pickle's
payload never run; a folder whose config fits (saved from a task model, keys prefixed ``bert.``) passes.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from coreb_core.retrieval.models import bundled_minilm_path

from .conftest import refuses, unchanged

TOKENIZER = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")


class Payload:
    """Unpickled, it would make a folder: the test checks that it never is."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


def bert_folder(folder: Path, task_model: bool = False, positions: int = 512) -> Path:
    """A one-layer, 32-wide random BERT saved with MiniLM's tokenizer (seconds to build, bytes to load)."""
    import torch
    from transformers import BertConfig, BertForMaskedLM, BertModel

    torch.manual_seed(0)
    config = BertConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
                        max_position_embeddings=positions)
    (BertForMaskedLM if task_model else BertModel)(config).save_pretrained(folder)
    for name in TOKENIZER:
        shutil.copy(Path(bundled_minilm_path(), name), folder / name)
    return folder


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    import torch
    from transformers import BertConfig, BertModel

    root = tmp_path_factory.mktemp("model-folders")
    misfit = bert_folder(root / "misfit")
    config = json.loads((misfit / "config.json").read_text())
    (misfit / "config.json").write_text(json.dumps({**config, "hidden_size": 64}))
    pickled = bert_folder(root / "pickled")
    (pickled / "model.safetensors").unlink()
    tensors = BertModel(BertConfig.from_pretrained(pickled)).state_dict()
    torch.save({**tensors, "payload": Payload(root / "payload-ran")}, pickled / "pytorch_model.bin")
    return {"misfit": misfit, "pickled": pickled, "fit": bert_folder(root / "fit", task_model=True),
            "short": bert_folder(root / "short", positions=64), "payload": root / "payload-ran"}


@pytest.mark.parametrize("profile", ["official", "card"])
def test_a_config_that_does_not_fit_its_weights_is_refused_in_one_line(tiny_cache, folders, capsys, profile):
    """was: a RuntimeError traceback from transformers ("You set `ignore_mismatched_sizes` to `False`") after a
    page-long load report (main() raised instead of returning 2)."""
    folder = folders["misfit"]
    with unchanged(tiny_cache):
        line = refuses(["run", "--model", str(folder), "--release", "tiny", "--tasks", "c2c", "--profile", profile],
                       capsys, str(folder / "model.safetensors"), str(folder / "config.json"))
    assert "'embeddings.LayerNorm.bias' is [32] but" in line and "makes it [64]" in line


@pytest.mark.parametrize("profile", ["official", "card"])
def test_pickled_weights_are_refused_in_one_line_and_never_run(tiny_cache, folders, capsys, profile):
    """was: an UnpicklingError traceback ("Weights only load failed ..."): refused safely, but not in one line."""
    folder = folders["pickled"]
    with unchanged(tiny_cache):
        refuses(["run", "--model", str(folder), "--release", "tiny", "--tasks", "c2c", "--profile", profile],
                capsys, str(folder / "pytorch_model.bin"), "pickle", "weights_only")
    assert not folders["payload"].exists()


def test_a_model_shorter_than_the_official_512_tokens_is_refused_before_encoding(tiny_cache, folders, capsys):
    """was: a RuntimeError traceback from the embedding layer in the middle of encoding ("The size of tensor a
    (512) must match the size of tensor b (64)"): the official profile tokenizes to 512, as the runner does."""
    folder = folders["short"]
    with unchanged(tiny_cache):
        refuses(["run", "--model", str(folder), "--release", "tiny", "--tasks", "c2c", "--profile", "official"],
                capsys, str(folder), "takes 64 positions", "tokenizes to 512", "card profile")


def test_a_folder_whose_config_fits_passes_the_weight_checks(folders):
    """was: (kept) a task model's checkpoint (keys prefixed ``bert.``, extra head tensors) fits its config."""
    from coreb_core.retrieval.models import check_weights

    assert check_weights(folders["fit"]) is None


def test_a_symlink_loop_model_is_named_a_symlink_loop(tiny_cache, tmp_path, capsys):
    """was: "error: unknown model '<path>': use one of minilm, bm25, ..." (a loop is not a directory, so the path
    was taken for a registry id)."""
    loop = tmp_path / "model"
    loop.symlink_to(loop)
    with unchanged(tiny_cache):
        refuses(["run", "--model", str(loop), "--release", "tiny"], capsys, f"{loop}: a symlink loop")
        refuses(["run", "--model", str(loop / "inside"), "--release", "tiny"], capsys, "a symlink loop")


def test_a_symlink_to_nothing_is_named_so(tiny_cache, tmp_path, capsys):
    """was: "error: unknown model '<path>': use one of minilm, bm25, ..." for a link whose target is gone."""
    link = tmp_path / "model"
    link.symlink_to(tmp_path / "deleted-folder")
    with unchanged(tiny_cache):
        refuses(["run", "--model", str(link), "--release", "tiny"], capsys,
                f"{link}: a symlink to {tmp_path / 'deleted-folder'}, which does not exist")
