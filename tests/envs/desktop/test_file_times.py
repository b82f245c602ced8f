"""Files programs write in the sandbox show the world's day, like its clock (issue 31).

The kernel stamps a file with the host's time; Debian's libfaketime 0.9.10 fakes none of
``stat64``, ``fstatat64`` or ``statx``, so ``ls``, ``stat``, ``date -r``, Python and GLib
(Thunar) showed the host's 2026-11 beside a clock on the task's day. The file-time shim
(:mod:`reefbench.envs.desktop.filetime`) maps what the kernel stamped during the episode;
times the harness set (world dates) and system files' keep what is on disk.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.apps import app
from reefbench.envs.desktop.faketime import world_epoch

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xfce4-panel", "xprop", "cc", "gio"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xfce4-panel, xprop, cc, gio and Debian's python3",
    ),
]

# Every way of writing and of reading a time checked here, in one run inside the sandbox
# (epoch seconds, one "label value" per line).
_SCRIPT = r"""
cd ~
touch touched.txt
echo x > redirected.txt
python3 -c "open('python.txt', 'w').write('x')"
echo "now $(date +%s)"
echo "today $(date +%F)"
for f in touched.txt redirected.txt python.txt; do
  echo "stat:$f $(stat -c %Y $f)"
  echo "stat-change:$f $(stat -c %Z $f)"
  echo "stat-day:$f $(stat -c %y $f | cut -c1-10)"
  echo "ls:$f $(ls -l --time-style=+%s $f | awk '{print $6}')"
  echo "ls-iso-day:$f $(ls -l --time-style=full-iso $f | awk '{print $6}')"
  echo "python:$f $(python3 -c 'import os, sys; print(int(os.stat(sys.argv[1]).st_mtime))' $f)"
  echo "date:$f $(date -r $f +%s)"
  echo "gio:$f $(gio info -a time::modified $f | awk '/time::modified:/ {print $2}')"
done
"""


@pytest.fixture(scope="module")
def desk() -> Iterator[DesktopEnvironment]:
    env = DesktopEnvironment()
    try:
        env.start()
        yield env
    finally:
        env.stop()


def _run(desk: DesktopEnvironment, script: str) -> dict[str, str]:
    done = desk.session.run(["bash", "-c", script], timeout=30)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)


def test_files_programs_write_show_the_world_time_to_every_reader(
    desk: DesktopEnvironment,
) -> None:
    desk.reset()
    seen = _run(desk, _SCRIPT)
    world_now, today = int(seen["now"]), seen["today"]
    assert desk.session.now is not None
    assert today == desk.session.now[:10]  # the task's day (the host's is 2026-11)
    for key, value in seen.items():
        if "-day:" in key:
            assert value == today, (key, value, today)
        elif ":" in key:
            # Written just before the clock was read, on the world's clock (not the
            # host's, which is months or years later).
            assert 0 <= world_now - int(value) < 60, (key, value, world_now)


def test_times_the_harness_set_and_system_files_times_are_shown_as_stored(
    desk: DesktopEnvironment,
) -> None:
    desk.reset()
    written = desk.session.host_path("~/Documents/old-report.txt")
    written.parent.mkdir(parents=True, exist_ok=True)
    written.write_text("minutes\n")
    when = int(world_epoch("2024-05-20T14:30"))
    os.utime(written, (when, when))
    seen = _run(
        desk,
        'echo "report $(stat -c %Y ~/Documents/old-report.txt)"\n'
        'echo "ls $(stat -c %Y /usr/bin/ls)"\n'
        "touch -d '2024-05-01 08:00' ~/dated.txt\n"
        'echo "dated $(stat -c %Y ~/dated.txt)"\n'
        'echo "copy $(cp -p ~/Documents/old-report.txt ~/copy.txt && stat -c %Y ~/copy.txt)"\n',
    )
    assert int(seen["report"]) == when
    assert int(seen["ls"]) == int(os.stat("/usr/bin/ls").st_mtime)
    assert int(seen["dated"]) == int(world_epoch("2024-05-01T08:00"))
    assert int(seen["copy"]) == when


@pytest.mark.skipif(shutil.which("thunar") is None, reason="needs Thunar")
def test_the_file_manager_lists_a_file_written_today_as_today(desk: DesktopEnvironment) -> None:
    """Thunar (GLib's ``statx``) dated a file the terminal had just written 11/28/26, the
    host's day, under a panel clock on the task's; a file the harness dated keeps its day."""
    desk.reset()
    old = desk.session.host_path("~/Documents/old-report.txt")
    old.parent.mkdir(parents=True, exist_ok=True)
    old.write_text("minutes\n")
    when = int(world_epoch("2024-05-20T14:30"))
    os.utime(old, (when, when))
    _run(
        desk,
        "echo fresh > ~/Documents/fresh-notes.txt\n"
        "xfconf-query -c thunar -p /last-view -n -t string -s ThunarDetailsView\n",
    )
    desk.launch(app("files"), ["/home/user/Documents"])
    names = [mark.name for mark in desk.observe_now().marks.marks]

    def row(name: str) -> list[str]:  # name, size, type, date modified
        return names[names.index(name) : names.index(name) + 4]

    assert row("fresh-notes.txt")[3] == "Today", names
    assert row("old-report.txt")[3] == "05/20/24", names
