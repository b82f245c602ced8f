"""Fixtures of the services tests: a running services environment per module."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from reefbench.envs.services import ServicesEnvironment


def service_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("reef-services-")]


@pytest.fixture(scope="module")
def services() -> Iterator[ServicesEnvironment]:
    """One started server per test module; tests reset it to its (empty) seed first."""
    env = ServicesEnvironment()
    env.start()
    yield env
    env.stop()
    assert service_threads() == []


@pytest.fixture
def account(services: ServicesEnvironment) -> ServicesEnvironment:
    services.reset()
    return services
