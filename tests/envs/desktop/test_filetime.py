"""The file-time shim is built once per source, and a machine without a compiler is told
what to install in one line (the shim's effect is tested in a real sandbox:
``test_file_times.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reefbench.envs.desktop import filetime
from reefbench.errors import EnvironmentFailure


def test_a_missing_compiler_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(EnvironmentFailure, match="needs a C compiler: apt-get install gcc") as e:
        filetime.build(tmp_path / "cache")
    assert "\n" not in str(e.value)


def test_a_cache_that_cannot_be_written_is_one_clear_error(tmp_path: Path) -> None:
    taken = tmp_path / "cache"
    taken.write_text("a file where the cache folder should be")
    with pytest.raises(EnvironmentFailure, match="cannot build the desktop's file-time shim"):
        filetime.build(taken)


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_the_shim_is_built_once_per_source_and_exports_the_stat_family(tmp_path: Path) -> None:
    import ctypes

    first = filetime.build(tmp_path)
    assert filetime.build(tmp_path) == first
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no half-built leftovers
    library = ctypes.CDLL(str(first))
    for name in (
        "stat",
        "lstat",
        "fstat",
        "fstatat",
        "stat64",
        "lstat64",
        "fstat64",
        "fstatat64",
        "statx",
        "__xstat",
        "__lxstat",
        "__fxstat",
        "__fxstatat",
        "__xstat64",
        "__lxstat64",
        "__fxstat64",
        "__fxstatat64",
    ):
        assert hasattr(library, name), name
