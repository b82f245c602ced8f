"""The apps' own records say which app saved a file, and a later write by another program
(the terminal while the app sits open) is told apart."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reefbench.envs.desktop.app_records import (
    RECENT_FILES,
    VIM_LOG,
    mousepad_saves,
    saved_by,
    vim_writes,
    write_vim_config,
)

XBEL = """<?xml version="1.0" encoding="UTF-8"?>
<xbel version="1.0"
      xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
      xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info">
  <bookmark href="file:///home/user/Downloads/my%20notes.txt" added="2026-11-26T11:33:17.966779Z"
      modified="2026-11-26T11:33:17.966784Z" visited="2026-11-26T11:33:17.966780Z">
    <info><metadata owner="http://freedesktop.org">
      <mime:mime-type type="text/plain"/>
      <bookmark:applications>
        <bookmark:application name="{app}" exec="&apos;mousepad %u&apos;"
            modified="2026-11-26T11:33:17.966782Z" count="1"/>
      </bookmark:applications>
    </metadata></info>
  </bookmark>
</xbel>
"""
RECORDED = 1795692797.966782  # 2026-11-26T11:33:17.966782Z


def _home(tmp_path: Path, app: str = "Mousepad") -> tuple[Path, Path]:
    home = tmp_path / "home"
    (home / RECENT_FILES).parent.mkdir(parents=True)
    (home / RECENT_FILES).write_text(XBEL.format(app=app))
    saved = home / "Downloads" / "my notes.txt"
    saved.parent.mkdir()
    saved.write_text("fix the squeaky door\n")
    return home, saved


def test_mousepad_record_is_read_per_file(tmp_path: Path) -> None:
    home, _ = _home(tmp_path)
    assert mousepad_saves(home) == {"/home/user/Downloads/my notes.txt": pytest.approx(RECORDED)}
    other, _ = _home(tmp_path / "other", app="Thunar")
    assert mousepad_saves(other) == {}
    assert mousepad_saves(tmp_path / "nowhere") == {}


def test_mousepad_saved_the_file_unless_it_changed_later(tmp_path: Path) -> None:
    home, saved = _home(tmp_path)
    where = "/home/user/Downloads/my notes.txt"
    os.utime(saved, (RECORDED - 0.01, RECORDED - 0.01))  # written just before the record
    assert saved_by("mousepad", home, where, saved) == (True, f"mousepad saved {where}")
    os.utime(saved, (RECORDED + 2, RECORDED + 2))  # the terminal wrote it afterwards
    ok, why = saved_by("mousepad", home, where, saved)
    assert not ok and "changed after mousepad last saved it" in why
    ok, why = saved_by("mousepad", home, "/home/user/other.txt", saved)
    assert not ok and "no record" in why


def test_mousepad_records_in_the_world_time_and_the_kernel_in_the_hosts(tmp_path: Path) -> None:
    # The sandbox's clock runs two years behind the host's (libfaketime): mousepad's
    # record is in world time, the file's modification time in host time.
    home, saved = _home(tmp_path)
    where = "/home/user/Downloads/my notes.txt"
    offset = -2 * 365 * 86400
    host = RECORDED - offset
    os.utime(saved, (host - 0.01, host - 0.01))
    assert saved_by("mousepad", home, where, saved, clock_offset=offset)[0]
    assert not saved_by("mousepad", home, where, saved)[0]  # clocks compared as if one
    os.utime(saved, (host + 2, host + 2))
    assert not saved_by("mousepad", home, where, saved, clock_offset=offset)[0]


def test_vim_log_holds_the_last_write_per_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_vim_config(home)
    digest = hashlib.sha256(b"new\n").hexdigest()
    (home / VIM_LOG).write_text(f"{'0' * 64}\t/home/user/a.txt\n{digest}\t/home/user/a.txt\n")
    assert vim_writes(home) == {"/home/user/a.txt": digest}
    target = tmp_path / "a.txt"
    target.write_bytes(b"new\n")
    assert saved_by("vim", home, "/home/user/a.txt", target)[0]
    target.write_bytes(b"overwritten\n")
    ok, why = saved_by("vim", home, "/home/user/a.txt", target)
    assert not ok and "not what vim last wrote" in why
    with pytest.raises(ValueError, match="known: mousepad, vim"):
        saved_by("gedit", home, "/home/user/a.txt", target)


@pytest.mark.skipif(shutil.which("vim") is None, reason="needs vim")
@pytest.mark.parametrize("content", [b"order new printer ink\n", b"no newline at the end"])
def test_the_baseline_vimrc_logs_what_real_vim_writes(tmp_path: Path, content: bytes) -> None:
    home = tmp_path / "home"
    write_vim_config(home)
    target = tmp_path / "note.txt"
    target.write_bytes(content)
    # Ex mode skips the vimrc unless it is named; an interactive vim reads ~/.vimrc itself.
    subprocess.run(
        ["vim", "-u", str(home / ".vimrc"), "-n", "-es", "-c", "w", "-c", "q", str(target)],
        env={"HOME": str(home), "PATH": os.environ["PATH"]},
        check=True,
        timeout=30,
    )
    assert saved_by("vim", home, str(target), target) == (True, f"vim wrote {target} as it is now")
    target.write_bytes(content + b"from the terminal\n")
    assert not saved_by("vim", home, str(target), target)[0]
