"""The world tests build into a cache of their own (not the user's ~/.cache)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.environments.worlds import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def world_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("world-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(root))
        yield root
