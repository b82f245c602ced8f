"""Fixtures shared across the test tree: one started desktop per test module (the
desktop's own tests and the templates' real-desktop tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reefbench.envs.desktop import DesktopEnvironment


@pytest.fixture(scope="module")
def desk() -> Iterator[DesktopEnvironment]:
    """One started desktop per test module (a module needing other options defines its
    own ``desk``, which overrides this one)."""
    env = DesktopEnvironment("desktop")
    env.start()
    try:
        yield env
    finally:
        env.stop()
