"""Fixtures of the desktop's tests that need no desktop."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest


class _Anything:
    def __getattr__(self, name: str) -> str:
        return name


@pytest.fixture(scope="session")
def a11y_reader() -> types.ModuleType:
    """The accessibility reader module (``envs/desktop/_a11y_reader.py``), loaded with a
    stand-in for ``gi``: it runs under Debian's python3, which has Atspi, but its parsing
    is plain Python that tests can call directly."""
    gi = types.ModuleType("gi")
    gi.require_version = lambda *_: None  # type: ignore[attr-defined]
    repository = types.ModuleType("gi.repository")
    # Atspi.StateType's members are read at import: any attribute will do here.
    repository.Atspi = types.SimpleNamespace(StateType=_Anything())  # type: ignore[attr-defined]
    saved = {k: sys.modules.get(k) for k in ("gi", "gi.repository")}
    sys.modules.update({"gi": gi, "gi.repository": repository})
    try:
        path = Path(__file__).parents[3] / "src/reefbench/envs/desktop/_a11y_reader.py"
        spec = importlib.util.spec_from_file_location("_reader_under_test", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
