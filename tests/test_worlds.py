"""The world cache: seeds are checked, a build lands whole or not at all, and is reused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reefbench.errors import ConfigError
from reefbench.worlds import CACHE_ENV, cached, check_seed, text_pdf


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

    first = cached("demo", 3, build)
    assert cached("demo", 3, build) == first and first.read_text() == "world"
    assert len(builds) == 1

    def broken(path: Path) -> None:
        path.write_text("half")
        raise RuntimeError("generator crashed")

    with pytest.raises(RuntimeError):
        cached("demo", 4, broken)
    assert sorted(p.name for p in first.parent.iterdir()) == ["demo-3"]


def test_text_pdf_is_a_complete_pdf_with_the_text() -> None:
    pdf = text_pdf(["Invoice (March)", "Total: GBP 12.50"], title="Invoice")
    assert pdf.startswith(b"%PDF-1.4") and pdf.endswith(b"%%EOF\n")
    assert b"(Invoice \\(March\\)) '" in pdf
    xref = int(pdf.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert pdf[xref:].startswith(b"xref")
