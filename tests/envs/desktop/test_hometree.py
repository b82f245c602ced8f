"""The home tree as data: entries, noise left out, saves in progress found."""

from __future__ import annotations

from pathlib import Path

from reefbench.envs.desktop.hometree import changes, digest, fingerprint, is_noise, scan, snapshot


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


def test_folders_on_the_way_to_noise_are_not_changes(tmp_path: Path) -> None:
    before = snapshot(tmp_path)
    (tmp_path / ".local" / "share").mkdir(parents=True)
    (tmp_path / ".local" / "share" / "recently-used.xbel").write_text("x")
    (tmp_path / "Reports").mkdir()
    assert changes(tmp_path, before) == [("Reports", "created folder ~/Reports")]


def test_changes_name_deleted_overwritten_and_re_moded_files(tmp_path: Path) -> None:
    for name in ("gone.txt", "same.txt", "edited.txt", "script.sh"):
        (tmp_path / name).write_text(name)
    before = snapshot(tmp_path)
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "same.txt").write_text("same.txt")  # rewritten with the same bytes
    (tmp_path / "edited.txt").write_text("other")
    (tmp_path / "script.sh").chmod(0o755)
    assert changes(tmp_path, before) == [
        ("gone.txt", "deleted file ~/gone.txt"),
        ("edited.txt", "changed the content of ~/edited.txt"),
        ("script.sh", "changed the permissions of ~/script.sh to 755"),
    ]


def test_a_fingerprint_changes_exactly_when_the_path_holds_something_else(
    tmp_path: Path,
) -> None:
    note = tmp_path / "note.txt"
    assert fingerprint(note) == "absent"
    note.write_text("code")
    first = fingerprint(note)
    note.write_text("code")  # written again, the same bytes: the same state
    assert fingerprint(note) == first
    note.chmod(0o755)
    assert fingerprint(note) != first
    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "a.txt").write_text("1")
    held = fingerprint(folder)
    (folder / "a.txt.swp").write_text("editor noise")
    assert fingerprint(folder) == held
    (folder / "a.txt").write_text("2")
    assert fingerprint(folder) != held and fingerprint(folder).startswith("folder ")


def test_the_file_managers_open_with_default_is_not_a_change(tmp_path: Path) -> None:
    """Opening a picture from the file manager asks for an app and, ticked by default,
    records it in ~/.config/mimeapps.list: a playtest's right answer failed on it."""
    before = snapshot(tmp_path)
    (tmp_path / ".config").mkdir()
    (tmp_path / ".config" / "mimeapps.list").write_text("[Default Applications]\n")
    assert [what for _, what in changes(tmp_path, before)] == []
    assert is_noise(".config/mimeapps.list") and not is_noise(".config/mimeapps.list.bak")


def test_glibs_temporary_copy_of_a_noise_file_is_noise() -> None:
    from reefbench.envs.desktop.hometree import is_noise

    assert is_noise(".local/share/recently-used.xbel.HXQOO2")
    assert not is_noise(".local/share/recently-used.xbel.backup-of-mine")
    assert not is_noise("Documents/report.odt.HXQOO2")
