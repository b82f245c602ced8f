"""The bubblewrap command line that isolates everything an agent can reach on the desktop.

One sandbox per desktop instance holds the D-Bus session bus, the accessibility bus, the
window manager and every application, so a command typed into the desktop's terminal sees:

* a private, writable ``HOME`` (``/home/user``, a per-instance host directory that reset
  restores from a baseline) and a private ``/tmp``;
* the system (``/usr``, ``/etc``, ...) read-only, and nothing of the harness: no ``/work``,
  no ``/root``, no other instance's display, none of the harness's own tools an ordinary
  desktop lacks (OCR: :data:`HARNESS_ONLY_PROGRAMS`);
* a cleared environment: only the variables in :func:`sandbox_environment`, so secrets of
  the harness (``OPENAI_API_KEY`` and the like) never reach it;
* its own network namespace with nothing but loopback; the ports of the local services are
  relayed in explicitly (see :mod:`reefbench.envs.desktop.forward`).

Inside, the user is an ordinary ``user`` (uid 1000) in a user namespace that maps it to
the harness's own uid: files the agent creates belong to the harness's user, and apps do
not run "as root" even when the harness does. Harness-side helpers that speak D-Bus to
the sandbox's buses (the accessibility reader) run through :func:`as_sandbox_user`, so the
buses' peer-credential check sees the same uid on both ends.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOX_HOME = "/home/user"
# Where the sandbox's init script and the per-instance share dir appear inside.
INIT_PATH = "/run/reef/init.py"
PORTS_DIR = "/run/reef/ports"
APPLICATIONS_DIR = "/usr/share/applications"
# /run/reef/bin first: launchers that start an app with its variables (image_editor).
SANDBOX_PATH = "/run/reef/bin:/usr/local/bin:/usr/bin:/bin"
SANDBOX_UID = 1000

# Read-only system trees. /var/cache/fontconfig spares every app a font-cache rebuild.
# D-Bus services the session bus must not start on demand. xfdesktop asks for the file
# manager's service as it draws the desktop's icons, and a Thunar started that way stays
# as a daemon (``Thunar --gapplication-service``) that every later ``thunar`` hands its
# window to and exits: the app a task opens would then never run under its own name.
# Emptied files are skipped by dbus-daemon; ``thunar`` then runs as itself, as before.
HIDDEN_DBUS_SERVICES = tuple(
    f"/usr/share/dbus-1/services/{name}.service"
    for name in ("org.xfce.Thunar", "org.xfce.FileManager", "org.xfce.Thunar.FileManager1")
)
# The harness's own tools, installed on the host for its checks, that an ordinary desktop
# does not have: OCR would let an agent read a receipt photo or a scanned letter without
# looking at it, which the benchmark's "information only in pixels" tasks exist to measure
# (playtesters ran ``tesseract`` on every scan). Programs are emptied (running one is
# refused), data trees replaced by empty ones.
HARNESS_ONLY_PROGRAMS = ("/usr/bin/tesseract", "/usr/bin/combine_tessdata")
HARNESS_ONLY_TREES = ("/usr/share/tesseract-ocr",)
_RO_SYSTEM = ("/usr", "/etc", "/sys", "/var/cache/fontconfig", "/var/lib/dbus")
_MERGED_USR = {"/bin": "usr/bin", "/lib": "usr/lib", "/lib64": "usr/lib64", "/sbin": "usr/sbin"}


@dataclass(frozen=True)
class SandboxSpec:
    """What one desktop sandbox binds and exposes.

    Attributes:
        home: Host directory mounted read-write as ``/home/user``.
        tmp: Host directory mounted read-write as ``/tmp`` (host-visible for evaluators).
        runtime: Host directory used as ``XDG_RUNTIME_DIR`` (bus sockets); mounted at the
            same path inside so socket addresses mean the same on both sides.
        display: X display number; only that display's socket is mounted.
        init_script: Host path of the sandbox init script (run by ``/usr/bin/python3``).
        applications: Host directory of ``.desktop`` files replacing the system list, so
            the launcher offers exactly the benchmark's apps.
        ports_dir: Host directory of the relay sockets for forwarded ports.
        passwd: A ``/etc/passwd`` naming the sandbox user (hides the host's accounts).
        group: The matching ``/etc/group``.
        lang: ``LANG`` inside.
        system_files: Sandbox path of a system file -> host file shown there instead,
            read-only (a screen-sized copy of the default wallpaper).
        extra_env: Further non-secret variables (e.g. ``ACCESSIBILITY_ENABLED``).
    """

    home: Path
    tmp: Path
    runtime: Path
    display: int
    init_script: Path
    applications: Path
    ports_dir: Path
    passwd: Path | None = None
    group: Path | None = None
    lang: str = "C.UTF-8"
    extra_env: Mapping[str, str] = field(default_factory=dict)
    system_files: Mapping[str, Path] = field(default_factory=dict)


def sandbox_environment(spec: SandboxSpec) -> dict[str, str]:
    """The complete environment inside the sandbox (everything else is cleared)."""
    runtime = str(spec.runtime)
    env = {
        "HOME": SANDBOX_HOME,
        "USER": "user",
        "PATH": SANDBOX_PATH,
        "LANG": spec.lang,
        "DISPLAY": f":{spec.display}",
        "XDG_RUNTIME_DIR": runtime,
        "XDG_CONFIG_HOME": f"{SANDBOX_HOME}/.config",
        "XDG_DATA_HOME": f"{SANDBOX_HOME}/.local/share",
        "XDG_CACHE_HOME": f"{SANDBOX_HOME}/.cache",
        "XDG_SESSION_TYPE": "x11",
        "DBUS_SESSION_BUS_ADDRESS": f"unix:path={runtime}/bus",
    }
    env.update(spec.extra_env)
    return env


def account_files(directory: Path) -> tuple[Path, Path]:
    """Write the sandbox's ``passwd`` and ``group`` files into ``directory``."""
    passwd, group = directory / "passwd", directory / "group"
    uid = SANDBOX_UID
    passwd.write_text(
        "root:x:0:0:root:/root:/usr/sbin/nologin\n"
        f"user:x:{uid}:{uid}:Desktop User:{SANDBOX_HOME}:/bin/bash\n"
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    group.write_text(f"root:x:0:\nuser:x:{uid}:\nnogroup:x:65534:\n")
    return passwd, group


def as_sandbox_user(command: Sequence[str], bwrap: str = "bwrap") -> list[str]:
    """Run a host-side helper as the sandbox's uid (a user namespace over the host's /).

    Nothing is hidden from it (it is the harness's, not the agent's); only its uid
    changes, so D-Bus credential checks on the sandbox's buses accept it.
    """
    if os.getuid() == SANDBOX_UID:
        return list(command)
    return [
        bwrap,
        "--unshare-user",
        "--uid",
        str(SANDBOX_UID),
        "--gid",
        str(SANDBOX_UID),
        "--bind",
        "/",
        "/",
        "--dev-bind",
        "/dev",
        "/dev",
        "--",
        *command,
    ]


def bwrap_command(spec: SandboxSpec, command: Sequence[str], bwrap: str = "bwrap") -> list[str]:
    """The argv that runs ``command`` inside the sandbox described by ``spec``.

    Pure (no side effects), so the isolation policy can be unit-tested line by line.
    """
    uid = gid = str(SANDBOX_UID)
    argv = [
        bwrap,
        "--unshare-all",  # user, ipc, pid, net (loopback only), uts, cgroup
        "--unshare-user",
        "--uid",
        uid,
        "--gid",
        gid,
        "--hostname",
        "reef-desktop",
        "--new-session",  # no TIOCSTI into a host terminal
        "--cap-drop",
        "ALL",
    ]
    for path in _RO_SYSTEM:
        if os.path.exists(path):
            argv += ["--ro-bind", path, path]
    for link, target in _MERGED_USR.items():
        if os.path.islink(link):
            argv += ["--symlink", target, link]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/run",
        "--tmpfs",
        "/var/tmp",
        "--bind",
        str(spec.tmp),
        "/tmp",
        "--bind",
        str(spec.home),
        SANDBOX_HOME,
        "--bind",
        str(spec.runtime),
        str(spec.runtime),
        "--ro-bind",
        f"/tmp/.X11-unix/X{spec.display}",
        f"/tmp/.X11-unix/X{spec.display}",
        "--ro-bind",
        str(spec.init_script),
        INIT_PATH,
        "--ro-bind",
        str(spec.applications),
        APPLICATIONS_DIR,
        "--bind",
        str(spec.ports_dir),
        PORTS_DIR,
        "--chdir",
        SANDBOX_HOME,
        "--clearenv",
    ]
    for service in HIDDEN_DBUS_SERVICES:
        if os.path.exists(service):
            argv += ["--ro-bind", "/dev/null", service]
    for program in HARNESS_ONLY_PROGRAMS:
        if os.path.exists(program):
            argv += ["--ro-bind", "/dev/null", program]
    for tree in HARNESS_ONLY_TREES:
        if os.path.isdir(tree):
            argv += ["--tmpfs", tree]
    for target, source in spec.system_files.items():
        argv += ["--ro-bind", str(source), target]  # after /usr's bind, so it shows
    if spec.passwd is not None:
        argv += ["--ro-bind", str(spec.passwd), "/etc/passwd"]
    if spec.group is not None:
        argv += ["--ro-bind", str(spec.group), "/etc/group"]
    for key, value in sandbox_environment(spec).items():
        argv += ["--setenv", key, value]
    argv.append("--")
    argv.extend(command)
    return argv
