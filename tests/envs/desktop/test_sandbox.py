"""The sandbox policy, checked on the bwrap command line (no processes started)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.envs.desktop.input import keysym
from reefbench.envs.desktop.sandbox import (
    HARNESS_ONLY_PROGRAMS,
    HARNESS_ONLY_TREES,
    HIDDEN_DBUS_SERVICES,
    SANDBOX_HOME,
    SandboxSpec,
    account_files,
    bwrap_command,
    sandbox_environment,
)
from reefbench.envs.desktop.session import DesktopSession
from reefbench.errors import ActionFailed, InvalidAction


def _spec(tmp_path: Path) -> SandboxSpec:
    return SandboxSpec(
        home=tmp_path / "home",
        tmp=tmp_path / "tmp",
        runtime=tmp_path / "run",
        display=7,
        init_script=tmp_path / "init.py",
        applications=tmp_path / "apps",
        ports_dir=tmp_path / "ports",
        passwd=tmp_path / "passwd",
        group=tmp_path / "group",
    )


def _binds(argv: list[str]) -> dict[str, str]:
    """destination -> source of every --bind/--ro-bind."""
    out = {}
    for i, arg in enumerate(argv):
        if arg in ("--bind", "--ro-bind"):
            out[argv[i + 2]] = argv[i + 1]
    return out


def test_environment_is_cleared_and_only_allowlisted_variables_are_set(tmp_path: Path) -> None:
    argv = bwrap_command(_spec(tmp_path), ["true"])
    assert "--clearenv" in argv
    assert argv.index("--clearenv") < argv.index("--setenv")
    names = {argv[i + 1] for i, a in enumerate(argv) if a == "--setenv"}
    assert names == set(sandbox_environment(_spec(tmp_path)))
    assert all(n.startswith(("XDG_", "DBUS_", "NO_AT", "GTK_")) or n in
               {"HOME", "USER", "PATH", "LANG", "DISPLAY"} for n in names)  # fmt: skip


def test_network_and_namespaces_are_unshared(tmp_path: Path) -> None:
    argv = bwrap_command(_spec(tmp_path), ["true"])
    assert "--unshare-all" in argv and "--unshare-user" in argv  # net: loopback only
    assert "--share-net" not in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[-2:] == ["--", "true"]


def test_only_the_instance_and_the_system_are_visible(tmp_path: Path) -> None:
    binds = _binds(bwrap_command(_spec(tmp_path), ["true"]))
    assert binds[SANDBOX_HOME] == str(tmp_path / "home")
    assert binds["/tmp"] == str(tmp_path / "tmp")
    assert binds["/tmp/.X11-unix/X7"] == "/tmp/.X11-unix/X7"
    assert binds["/etc/passwd"] == str(tmp_path / "passwd")
    assert "/work" not in binds and "/root" not in binds and "/" not in binds
    for target, source in binds.items():
        if source == "/dev/null":  # an emptied file: a D-Bus service never started inside
            assert target in HIDDEN_DBUS_SERVICES or target in HARNESS_ONLY_PROGRAMS
            continue
        assert source.startswith((str(tmp_path), "/usr", "/etc", "/sys", "/var", "/tmp/.X11"))


def test_a_system_file_shown_in_place_is_bound_after_the_system(tmp_path: Path) -> None:
    wallpaper = tmp_path / "wallpaper.jpg"
    spec = _spec(tmp_path)
    spec = SandboxSpec(**{**spec.__dict__, "system_files": {"/usr/share/w.jpg": wallpaper}})
    argv = bwrap_command(spec, ["true"])
    assert _binds(argv)["/usr/share/w.jpg"] == str(wallpaper)
    # bwrap mounts in order: bound before /usr, the copy would be hidden by the system's.
    assert argv.index(str(wallpaper)) > argv.index("/usr")
    assert argv[argv.index(str(wallpaper)) - 1] == "--ro-bind"


def test_the_harness_ocr_is_hidden_after_the_system_is_bound(tmp_path: Path) -> None:
    """The host has tesseract for the harness's checks; inside, the agent must read a scan
    with its own eyes. Each hiding comes after /usr's bind, or /usr would cover it."""
    argv = bwrap_command(_spec(tmp_path), ["true"])
    binds = _binds(argv)
    for program in HARNESS_ONLY_PROGRAMS:
        if Path(program).exists():
            assert binds[program] == "/dev/null"
            assert argv.index(program) > argv.index("/usr")
    assert "/usr/bin/tesseract" in HARNESS_ONLY_PROGRAMS
    for tree in HARNESS_ONLY_TREES:
        if Path(tree).is_dir():
            assert argv[argv.index(tree) - 1] == "--tmpfs"
            assert argv.index(tree) > argv.index("/usr")


def test_account_files_name_only_the_sandbox_user(tmp_path: Path) -> None:
    passwd, _ = account_files(tmp_path)
    users = [line.split(":")[0] for line in passwd.read_text().splitlines()]
    assert users == ["root", "user", "nobody"]


def test_host_path_maps_agent_paths_and_refuses_escapes(tmp_path: Path) -> None:
    session = DesktopSession()
    session.dir = tmp_path
    (tmp_path / "home").mkdir()
    (tmp_path / "tmp").mkdir()
    home = tmp_path / "home"
    assert session.host_path("~/a.txt") == home / "a.txt"
    assert session.host_path("/home/user/d/a.txt") == home / "d" / "a.txt"
    assert session.host_path("notes.txt") == home / "notes.txt"
    assert session.host_path("/tmp/x") == tmp_path / "tmp" / "x"
    with pytest.raises(ActionFailed, match="outside"):
        session.host_path("/etc/passwd")
    with pytest.raises(ActionFailed, match="outside"):
        session.host_path("~/../../etc/passwd")
    (home / "link").symlink_to("/etc")
    with pytest.raises(ActionFailed, match="leads outside"):
        session.host_path("~/link/passwd")


@pytest.mark.parametrize(
    ("name", "sym"),
    [("enter", "Return"), ("Esc", "Escape"), ("pagedown", "Next"), ("f5", "F5"), ("a", "a"),
     ("+", "plus"), ("ctrl", "ctrl"), ("BackSpace", "BackSpace")],
)  # fmt: skip
def test_key_names_map_to_keysyms(name: str, sym: str) -> None:
    assert keysym(name) == sym


def test_unknown_key_is_an_invalid_action() -> None:
    with pytest.raises(InvalidAction, match="unknown key"):
        keysym("hyperdrive")
