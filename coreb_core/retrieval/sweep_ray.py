"""A sweep beyond one machine: each pending run is a Ray task calling ``sweep.run_item`` into a cache folder the
workers share (the same path on every node, e.g. an NFS mount), asking Ray for one GPU where the run needs one.

Ray is an optional extra (``requirements-ray.txt``, or ``pip install '.[ray]'``): imported only here, only when a
sweep asks for it; the app never needs it. ``local`` starts a Ray of this machine's CPUs (and GPUs) for the sweep
and stops it after; ``HOST:PORT`` (or ``ray://HOST:PORT``) joins a running cluster (``ray start --head``), checked
reachable within seconds first. See docs/sweep.md.

Example:
    >>> check_address("local"), check_address("10.0.0.5:6379"), check_address("ray://head:10001")
    ('local', '10.0.0.5:6379', 'ray://head:10001')
"""
from __future__ import annotations

import logging
import os
import re
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from coreb_core.errors import CorebError
from coreb_core.paths import REPO_ROOT
from coreb_core.retrieval.profiles import DEFAULT_PROFILE
from coreb_core.retrieval.sweep import (
    FAILED,
    Executor,
    SweepEvents,
    SweepItem,
    SweepResult,
    SweepRow,
    check_releases,
    plan_items,
    run_item,
    sweep,
)

RAY_EXTRA = "pip install -r requirements-ray.txt (or pip install '.[ray]')"
CONNECT_TIMEOUT_S = 5.0  # an address that does not answer within this is refused before any work
_ADDRESS = re.compile(r"^(ray://)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})$")


def check_address(address: str) -> str:
    """``address`` when it is ``local``, ``HOST:PORT`` or ``ray://HOST:PORT``; else a one-line CorebError.

    >>> check_address("head")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --ray 'head': use local, HOST:PORT (the head's GCS port, 6379 by default) or ray://HOST:PORT
    """
    if address == "local" or _ADDRESS.match(address) and 0 < int(_ADDRESS.match(address)[3]) < 65536:  # type: ignore[index]
        return address
    raise CorebError(f"--ray {address!r}: use local, HOST:PORT (the head's GCS port, 6379 by default) or "
                     "ray://HOST:PORT")


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """A one-line CorebError unless something accepts a connection at the address within ``timeout`` seconds
    (``ray.init`` itself would retry for a minute or more before it gives up).

    >>> check_reachable("127.0.0.1:1", timeout=1.0)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: Ray address 127.0.0.1:1 cannot be reached (...); is `ray start --head` running there?
    """
    match = _ADDRESS.match(check_address(address))
    if match is None:  # "local": nothing to reach
        return
    host, port = match[2].strip("[]"), int(match[3])
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise CorebError(f"Ray address {address} cannot be reached ({reason}); is `ray start --head` running "
                         "there?") from None


def import_ray():
    """The ``ray`` module; a one-line CorebError naming the extra to install when it is absent."""
    try:
        import ray
    except ImportError:
        raise CorebError(f"--ray needs Ray, an optional extra that is not installed: {RAY_EXTRA}") from None
    return ray


@contextmanager
def ray_session(address: str, num_cpus: int | None = None) -> Iterator[object]:
    """Connected to Ray for the block: ``local`` starts one on this machine (``num_cpus``: default all of them;
    no dashboard, no usage report) and stops it after; an address is checked reachable, then joined. Yields
    the ``ray`` module. A one-line CorebError when Ray is missing or refuses."""
    check_address(address)
    ray = import_ray()
    check_reachable(address)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never report usage from a benchmark machine
    started = not ray.is_initialized()
    if started:
        # Workers must import this very checkout of coreb_core (a local Ray's workers are new processes).
        path = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env = {"env_vars": {"PYTHONPATH": path, "RAY_USAGE_STATS_ENABLED": "0"}}
        try:
            if address == "local":
                ray.init(num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING, runtime_env=env)
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as exc:  # noqa: BLE001 (Ray raises many kinds: one line says which)
            reason = " ".join(str(exc).split())[:300] or type(exc).__name__
            raise CorebError(f"Ray at {address} refused the connection: {reason}") from None
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def cluster_gpus(ray) -> int:
    """GPUs the connected Ray cluster offers (0: the runs go to CPUs)."""
    return int(ray.cluster_resources().get("GPU", 0))


def ray_executor(ray, use_gpus: bool) -> Executor:
    """Runs as Ray tasks, one per pending item, all submitted at once (Ray queues them on the cluster's
    resources): a dense run with ``use_gpus`` asks for one GPU and runs on ``cuda`` (Ray sets which one it sees),
    every other run for one CPU."""

    def execute(pending: list[tuple[int, SweepItem]], root: Path, events: SweepEvents) -> dict[int, SweepRow]:
        task = ray.remote(run_item)
        refs = {}
        for index, item in pending:
            gpu = use_gpus and item.profile is not None
            device = "cuda" if gpu else "cpu"
            ref = task.options(num_gpus=1 if gpu else 0, num_cpus=1, max_retries=0).remote(item, device, root)
            refs[ref] = (index, item, device)
            events.started(item, f"ray ({device})")
        rows: dict[int, SweepRow] = {}
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                index, item, device = refs.pop(ref)
                try:
                    row = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 (a worker lost, an import failing there: the item's row)
                    row = SweepRow(item, FAILED, 0.0, None, None, device,
                                   "Ray task failed: " + (" ".join(str(exc).split())[:300] or type(exc).__name__))
                rows[index] = row
                events.ended(row)
        return rows

    return execute


def sweep_on_ray(models: Iterable[str], releases: Iterable[str], address: str,
                 profiles: Iterable[str] = (DEFAULT_PROFILE,), devices: Sequence[str] | None = None,
                 root: Path | None = None, events: SweepEvents | None = None,
                 num_cpus: int | None = None) -> SweepResult:
    """``sweep.sweep`` with its runs as Ray tasks at ``address`` (``local``: a Ray of this machine, started and
    stopped here). Models, profiles and releases are checked before Ray starts; ``devices`` may only say
    ``cpu`` (no GPU asked for) or ``cuda`` (a GPU per dense run); by default a dense run asks for a GPU when the
    cluster has any. A one-line CorebError for bad input, Ray missing or an address that does not answer."""
    models, releases, profiles = list(models), list(releases), list(profiles)
    items = plan_items(models, releases, profiles)
    check_releases([item.release for item in items], root)
    wanted = tuple(dict.fromkeys(devices or ()))
    if not set(wanted) <= {"cpu", "cuda"} or len(wanted) > 1:
        raise CorebError("with --ray, Ray places each run: give --devices cpu or --devices cuda (or leave it out: "
                         "a GPU per dense run where the cluster has GPUs)")
    with ray_session(address, num_cpus) as ray:
        gpus = cluster_gpus(ray)
        if wanted == ("cuda",) and not gpus:
            raise CorebError(f"--devices cuda: the Ray cluster at {address} offers no GPU")
        use_gpus = gpus > 0 and wanted != ("cpu",)
        return sweep(models, releases, profiles, root=root, events=events, executor=ray_executor(ray, use_gpus),
                     identity_devices=("cuda",) if use_gpus else ("cpu",))
