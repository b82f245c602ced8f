"""The home tree as data: entries, noise left out, saves in progress found."""

from __future__ import annotations

from pathlib import Path

from reefbench.envs.desktop.hometree import digest, is_noise, scan


def test_scan_lists_files_folders_and_links_with_their_metadata(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "a.txt").write_text("hello")
    (tmp_path / "Documents" / "a.txt").chmod(0o600)
    (tmp_path / "link").symlink_to("/etc/passwd")
    tree = scan(tmp_path)
    assert set(tree) == {"Documents", "Documents/a.txt", "link"}
    assert tree["Documents"].kind == "dir" and tree["link"].kind == "link"
    entry = tree["Documents/a.txt"]
    assert entry.kind == "file" and entry.size == 5 and entry.mode == 0o600


def test_noise_is_left_out_unless_asked_for(tmp_path: Path) -> None:
    for rel in (".cache/fontconfig/x", ".local/share/recently-used.xbel", "notes.txt~"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "keep.txt").write_text("x")
    assert set(scan(tmp_path)) == {"keep.txt", ".local", ".local/share"}
    assert ".cache/fontconfig/x" in scan(tmp_path, include_noise=True)
    assert is_noise(".cache/") and is_noise(".vim.swp") and not is_noise(".cachet")


def test_saves_in_progress_are_reported(tmp_path: Path) -> None:
    (tmp_path / "Desktop").mkdir()
    (tmp_path / "Desktop" / ".goutputstream-AB12").write_text("half")
    pending: list[str] = []
    tree = scan(tmp_path, pending=pending)
    assert pending == ["Desktop/.goutputstream-AB12"] and set(tree) == {"Desktop"}


def test_digest_is_the_content_hash(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("same")
    (tmp_path / "b").write_text("same")
    (tmp_path / "c").write_text("other")
    assert digest(tmp_path / "a") == digest(tmp_path / "b") != digest(tmp_path / "c")
    assert digest(tmp_path / "missing") == ""
