"""The one table of system packages: the set-up installs it, doctor checks it, and a task
whose tool is missing is the machine's failure, never the agent's."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from reefbench import ActionCall, Episode, Task
from reefbench.agents import OracleAgent
from reefbench.envs.memory import MemoryEnvironment, file_exists
from reefbench.host.doctor import package_check
from reefbench.host.system_packages import (
    PACKAGES,
    SYSTEM_PACKAGES_FILE,
    Probe,
    SystemPackage,
    installed_by_setup,
    missing_executables,
    missing_for_apps,
    package_installed,
    packages_file_text,
)

REPO = Path(__file__).resolve().parents[2]


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def test_system_packages_txt_is_the_table_rendered() -> None:
    on_disk = (REPO / SYSTEM_PACKAGES_FILE).read_text(encoding="utf-8")
    assert on_disk == packages_file_text(), (
        "run: reef doctor --system-packages > system-packages.txt"
    )


def test_the_table_names_each_package_once_and_imagemagick_for_the_image_tasks() -> None:
    names = [p.package for p in PACKAGES]
    assert len(names) == len(set(names))
    imagemagick = next(p for p in PACKAGES if p.package == "imagemagick")
    assert not imagemagick.optional and "imagemagick" in imagemagick.apps
    assert {"convert", "identify"} <= set(imagemagick.executables)


@pytest.mark.parametrize("package", installed_by_setup(), ids=lambda p: p.package)
def test_every_package_the_setup_installs_is_here(package: SystemPackage) -> None:
    """`make test` runs the set-up first, so each of these is installed and works."""
    assert missing_executables(package) == [], f"{package.package}: run make setup"
    if not package.executables:
        installed = package_installed(package)
        if installed is None:
            pytest.skip("no dpkg on this machine: packages without executables are not checked")
        assert installed, f"{package.package} is not installed: run make setup"


def test_setup_script_installs_exactly_the_missing_packages_of_the_file(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the script installs as root (or through sudo)")
    stubs = tmp_path / "bin"
    stubs.mkdir()
    log = tmp_path / "apt.log"
    # dpkg-query says every package is installed except two; apt-get records its calls
    _executable(
        stubs / "dpkg-query",
        '#!/bin/sh\nfor last; do :; done\ncase "$last" in imagemagick|xclip) exit 1;; esac\n'
        'printf "install ok installed"\n',
    )
    _executable(stubs / "apt-get", f'#!/bin/sh\necho "$@" >> {log}\n')
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "setup-system.sh")],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": f"{stubs}:/usr/bin:/bin", "HOME": str(tmp_path)},
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert calls[0] == "update -qq"
    assert calls[1].split()[-2:] == ["xclip", "imagemagick"]
    assert "--no-install-recommends" in calls[1]


def _image_task() -> Task:
    return Task(
        id="needs-imagemagick",
        instruction="Make a picture.",
        nodes={"made": file_exists("a.png").on("laptop")},
        reference_solution=[
            ActionCall(env="laptop", name="write_file", arguments={"path": "a.png", "content": "x"})
        ],
        metadata={"apps": ["imagemagick"]},
    )


def test_a_task_whose_tool_is_missing_is_an_environment_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a `convert` that is not ImageMagick (like a stand-in printing only PNGs) and no identify
    _executable(tmp_path / "convert", "#!/bin/sh\necho 'not ImageMagick' >&2\nexit 1\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    laptop = MemoryEnvironment("laptop")
    result = Episode(_image_task(), OracleAgent(), {"laptop": laptop}).run()
    assert result.termination == "env_error" and result.infrastructure_failure
    assert result.error is not None
    assert "identify (Debian package imagemagick)" in result.error
    assert "apt-get install imagemagick" in result.error
    assert result.actions == 0 and laptop.files == {}, "the agent must not have played"


def test_the_same_task_runs_where_the_tools_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _executable(tmp_path / "convert", "#!/bin/sh\necho 'Version: ImageMagick 6.9'\n")
    _executable(tmp_path / "identify", "#!/bin/sh\nexit 0\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert missing_for_apps(["imagemagick"]) == []
    result = Episode(_image_task(), OracleAgent(), {"laptop": MemoryEnvironment("laptop")}).run()
    assert result.termination == "success"


def test_a_probe_tells_the_right_program_from_a_stand_in(tmp_path: Path) -> None:
    fake = tmp_path / "tool"
    _executable(fake, "#!/bin/sh\necho 'some other program'\n")
    package = SystemPackage(
        "x", "tests", "g", (str(fake),), probe=Probe(str(fake), ("--version",), "Right")
    )
    assert missing_executables(package) == [str(fake)]
    _executable(fake, "#!/bin/sh\necho 'Right 1.0'\n")  # a new mtime: probed again
    os.utime(fake, (1, 1))
    assert missing_executables(package) == []


def test_doctor_marks_a_missing_required_package_with_its_fix() -> None:
    absent = SystemPackage("reef-no-such-pkg", "tests", "g", ("reef-no-such-tool-xyz",))
    check = package_check(absent)
    assert not check.ok and check.required
    assert "reef-no-such-tool-xyz" in check.detail
    assert check.fix == "make setup (or apt-get install reef-no-such-pkg)"
    optional = package_check(
        SystemPackage("reef-opt", "tests", "g", ("reef-no-such-tool-xyz",), optional=True)
    )
    assert not optional.ok and not optional.required and optional.fix == "apt-get install reef-opt"
