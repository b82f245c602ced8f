"""The desktop's clock offset: the sandbox starts on the world time, never a second before."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.envs.desktop.faketime import offset_seconds, world_epoch, write_offset

WORLD = "2025-01-02T08:30"


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.5, 0.6, 0.999])
def test_the_offset_never_puts_the_clock_before_the_world_time(fraction: float) -> None:
    """CI saw ``date`` print 08:29:59 in a world that begins at 08:30: an offset rounded to
    the nearest second loses up to half a second."""
    host_time = 1_700_000_000 + fraction
    shown = host_time + offset_seconds(WORLD, host_time)
    assert world_epoch(WORLD) <= shown < world_epoch(WORLD) + 1


def test_the_offset_file_is_libfaketimes_relative_form(tmp_path: Path) -> None:
    offset = write_offset(tmp_path, WORLD, world_epoch(WORLD) - 90.4)
    assert offset == 91
    assert (tmp_path / "faketime").read_text() == "+91s\n"
    assert not list(tmp_path.glob(".*partial"))
