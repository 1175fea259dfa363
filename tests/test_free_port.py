"""The server ports of the browser tests (tests/browser.free_port): `make test` runs two slow passes side by side,
each in its own ``COREB_TEST_PORTS`` range, so that neither can pick a port the other is about to bind."""
from __future__ import annotations

import socket

import pytest

from tests.browser import PORT_RANGE_ENV, binds, free_port, port_range


def test_without_a_range_the_system_assigns_a_port(monkeypatch):
    monkeypatch.delenv(PORT_RANGE_ENV, raising=False)
    assert port_range() is None
    assert 1024 <= free_port() <= 65535


def test_ports_come_from_the_range_in_turn_and_a_bound_one_is_skipped(monkeypatch):
    # three consecutive ports free now, below the kernel's ephemeral range (and the Makefile's two ranges)
    start = next(p for p in range(23000, 24000, 3) if all(binds(p + i) for i in range(3)))
    monkeypatch.setenv(PORT_RANGE_ENV, f"{start}-{start + 2}")
    assert port_range() == range(start, start + 3)
    with socket.socket() as held:
        held.bind(("127.0.0.1", start + 1))  # a server of this process is on it
        held.listen()
        first, second = free_port(), free_port()
        assert (first, second) == (start, start + 2)
        assert free_port() == start  # round again: the held port is never given
    assert free_port() == start + 1  # released, it is the next one


@pytest.mark.parametrize("spec", ["x", "2000-1000", "80-90", "60000-70000"])
def test_a_bad_range_is_refused_naming_the_variable(monkeypatch, spec):
    monkeypatch.setenv(PORT_RANGE_ENV, spec)
    with pytest.raises(ValueError, match=PORT_RANGE_ENV):
        port_range()


