"""The GTK module that lists Thunar's icon-view files is built once and is harmless where
there is no exo (the integration test: ``test_thunar_icon_view.py``)."""

from __future__ import annotations

import ctypes
import shutil
from pathlib import Path

import pytest

from reefbench.envs.desktop import exo_a11y

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def test_the_module_is_built_once_and_reused(tmp_path: Path) -> None:
    first = exo_a11y.build(tmp_path)
    assert first.is_file() and first.parent == tmp_path
    modified = first.stat().st_mtime_ns
    assert exo_a11y.build(tmp_path) == first
    assert first.stat().st_mtime_ns == modified
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no partial left behind


def test_in_a_process_without_exo_the_module_does_nothing(tmp_path: Path) -> None:
    library = ctypes.CDLL(str(exo_a11y.build(tmp_path)))
    library.gtk_module_init(None, None)  # finds no exo_icon_view_get_type: returns


def test_gtk_loads_it_by_its_path_inside_the_sandbox() -> None:
    env = exo_a11y.sandbox_env()
    assert env == {"GTK_MODULES": exo_a11y.SANDBOX_PATH}
    assert exo_a11y.SANDBOX_PATH.startswith("/")
