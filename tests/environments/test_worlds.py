"""The world cache: seeds are checked, a build lands whole or not at all, is reused, and is
not reused once the generator's code changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reefbench.environments.worlds import CACHE_ENV, cached, check_seed, text_pdf
from reefbench.errors import ConfigError


@pytest.mark.parametrize("seed", [-1, 2**31, True, "3", 1.5])
def test_a_bad_seed_is_a_one_line_config_error(seed: Any) -> None:
    with pytest.raises(ConfigError, match="world seed must be an integer") as info:
        check_seed(seed)
    assert "\n" not in str(info.value)


def test_a_world_is_built_once_and_a_failed_build_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    builds: list[Path] = []

    def build(path: Path) -> None:
        builds.append(path)
        path.write_text("world")

    first = cached("demo", 3, build, [])
    assert cached("demo", 3, build, []) == first and first.read_text() == "world"
    assert len(builds) == 1

    def broken(path: Path) -> None:
        path.write_text("half")
        raise RuntimeError("generator crashed")

    with pytest.raises(RuntimeError):
        cached("demo", 4, broken, [])
    assert sorted(p.name for p in first.parent.iterdir()) == ["3"]


def test_a_world_follows_its_generators_code_not_where_the_code_lies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A world cached by older code was read by ``reef suite freeze`` and gave other task
    values than a fresh build: the key is the generator's source, not a version to bump."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    builds: list[str] = []

    def generator(folder: str, code: str) -> Path:
        (tmp_path / folder / "gen").mkdir(parents=True)
        (tmp_path / folder / "gen" / "people.py").write_text(code)
        return tmp_path / folder / "gen"

    def build(path: Path) -> None:
        builds.append(path.name)
        path.write_text("world")

    old = cached("demo", 3, build, [generator("a", "AGE = 30\n")])
    new = cached("demo", 3, build, [generator("b", "AGE = 31\n")])
    moved = cached("demo", 3, build, [generator("c", "AGE = 30\n")])
    assert new != old and moved == old
    assert len(builds) == 2


def test_text_pdf_is_a_complete_pdf_with_the_text() -> None:
    pdf = text_pdf(["Invoice (March)", "Total: GBP 12.50"], title="Invoice")
    assert pdf.startswith(b"%PDF-1.4") and pdf.endswith(b"%%EOF\n")
    assert b"(Invoice \\(March\\)) '" in pdf
    xref = int(pdf.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert pdf[xref:].startswith(b"xref")
