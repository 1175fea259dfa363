"""Which compute device this machine offers, checked cheaply (torch takes over a second to import)."""
from __future__ import annotations

import os
import re

DEVICES = "auto, cpu, cuda, cuda:N or mps"
_DEVICE = re.compile(r"^(auto|cpu|mps|cuda(:[0-9]{1,3})?)$")


def check_device(device: str) -> str:
    """``device`` itself when it names a device this project can ask torch for, else a one-line CorebError
    (checked before any work: torch would fail only once a model is loaded, and BM25 never asks).

    >>> check_device("cuda:1")
    'cuda:1'
    >>> check_device("foo")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown device 'foo'; use auto, cpu, cuda, cuda:N or mps
    """
    from coreb_core.errors import CorebError

    if not isinstance(device, str) or not _DEVICE.match(device):
        raise CorebError(f"unknown device {device!r}; use {DEVICES}")
    return device


def accelerator_possible() -> bool:
    """Cheap check before importing torch (over a second): an NVIDIA driver, or macOS (mps).

    >>> accelerator_possible() in (True, False)   # True on a machine with an NVIDIA driver or on macOS
    True
    """
    import platform
    import shutil

    return (os.path.exists("/proc/driver/nvidia/version") or shutil.which("nvidia-smi") is not None
            or platform.system() == "Darwin")


def cuda_status() -> tuple[bool, str]:
    """Whether torch sees a CUDA device, and a line saying so. torch is imported only when a driver exists.

    >>> cuda_status()   # on a machine without an NVIDIA driver   # doctest: +SKIP
    (False, 'CUDA unavailable: no NVIDIA driver on this machine (auto uses the CPU)')
    """
    if not accelerator_possible():
        return False, "CUDA unavailable: no NVIDIA driver on this machine (auto uses the CPU)"
    try:
        import torch
    except ImportError:
        return False, "CUDA unavailable: torch is not installed"
    if torch.cuda.is_available():
        names = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
        return True, f"CUDA available: {torch.cuda.device_count()} device(s): {names}"
    return False, f"CUDA unavailable: torch {torch.__version__} sees no CUDA device (the CPU build?)"
