"""Where a browser's downloads land: safe, unused names in a folder (no browser here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.envs.filetransfer import safe_file_name, store_download, unused_path


@pytest.mark.parametrize(
    ("suggested", "safe"),
    [
        ("IMG_0004.png", "IMG_0004.png"),
        ("../../.bashrc", "bashrc"),
        ("/etc/passwd", "passwd"),
        ("a\\b\\c.txt", "c.txt"),
        ("line\nbreak.txt", "linebreak.txt"),
        ("..", "download"),
        ("", "download"),
    ],
)
def test_a_suggested_name_becomes_one_plain_file_name(suggested: str, safe: str) -> None:
    assert safe_file_name(suggested) == safe


def test_a_taken_name_is_numbered_as_browsers_do(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.write_bytes(b"photo")
    folder = tmp_path / "Downloads"
    names = [store_download(folder, "IMG_0004.png", source).name for _ in range(3)]
    assert names == ["IMG_0004.png", "IMG_0004 (1).png", "IMG_0004 (2).png"]
    assert store_download(folder, "notes", source).name == "notes"
    assert store_download(folder, "notes", source).name == "notes (1)"


def test_a_planted_symlink_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    folder = tmp_path / "Downloads"
    folder.mkdir()
    (folder / "IMG_0004.png").symlink_to(outside)
    (folder / "IMG_0004 (1).png").symlink_to(tmp_path / "missing")  # dangling, still taken
    assert unused_path(folder, "IMG_0004.png").name == "IMG_0004 (2).png"
    source = tmp_path / "source"
    source.write_bytes(b"photo")
    assert store_download(folder, "IMG_0004.png", source).read_bytes() == b"photo"
    assert outside.read_text() == "keep me"
