"""One isolated desktop session: an Xvfb display plus one bubblewrap sandbox.

Layout of an instance directory (``/tmp/reef-desktop-XXXX``)::

    home/    the agent's HOME (/home/user inside), restored from a baseline on reset
    tmp/     the sandbox's /tmp
    run/     XDG_RUNTIME_DIR: session bus, accessibility bus, app logs
    ports/   relay sockets of the forwarded local-service ports
    share/applications/   the launcher's .desktop files
    owner.json   the harness and processes this instance belongs to (see :mod:`.orphans`)

Xvfb runs on the host in its own process group (it never executes agent input); the
sandbox runs :mod:`._sandbox_init`, which owns the buses, the window manager and every app.
Reset restarts only the sandbox; the display stays up.
"""

from __future__ import annotations

import json
import os
import posixpath
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reefbench.envs import procs
from reefbench.envs.desktop import exo_a11y, faketime, image_editor, orphans
from reefbench.envs.desktop.apps import WINDOW_MANAGER, write_desktop_files
from reefbench.envs.desktop.forward import PortRelay, relay_socket_name
from reefbench.envs.desktop.jsonlines import JsonLineProcess
from reefbench.envs.desktop.sandbox import (
    INIT_PATH,
    PORTS_DIR,
    SANDBOX_HOME,
    SandboxSpec,
    account_files,
    bwrap_command,
)
from reefbench.envs.desktop.xsession import (
    DEFAULT_WALLPAPER,
    SESSION_PROGRAMS,
    screen_sized_wallpaper,
    session_windows_mapped,
)
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure
from reefbench.plumbing.waiting import wait_until

_INIT_SOURCE = Path(__file__).with_name("_sandbox_init.py")
SYSTEM_PYTHON = "/usr/bin/python3"
# sun_path holds 108 bytes with the final NUL; the deepest socket is run/at-spi/bus_<display>.
_SOCKET_PATH_MAX = 107
_DEEPEST_SOCKET = "reef-desktop-xxxxxxxx/run/at-spi/bus_9999"
# The bwrap process itself gets only this: nothing of the harness's environment.
_HOST_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class SessionConfig:
    """How a desktop session is built.

    Attributes:
        width: Screen width in pixels (1280 by default; 1920 supported).
        height: Screen height in pixels.
        ports: Host loopback ports reachable from inside the sandbox (local services).
        workdir: Parent directory of instance directories (default: the system temp dir).
        start_timeout: Seconds allowed for the display and the sandbox to come up. A start
            takes 2-4 s on an idle machine; the deadline is for a loaded one (a full
            ``make test`` once saw the panel and wallpaper miss 20 s while two gate
            workers restarted desktops for seeded worlds), and waiting ends as soon as
            the session is up.
        extra_env: Non-secret variables added inside the sandbox.
        now: The world time the sandbox's clocks show (:mod:`.faketime`); ``None``
            leaves them on the host's clock.
    """

    width: int = 1280
    height: int = 800
    ports: tuple[int, ...] = ()
    workdir: Path | None = None
    start_timeout: float = 60.0
    extra_env: dict[str, str] = field(default_factory=dict)
    now: str | None = None


@dataclass(frozen=True)
class CommandResult:
    """Outcome of a command run inside the sandbox."""

    returncode: int | None
    stdout: str
    stderr: str


class DesktopSession:
    """Start, query and stop one display + sandbox pair."""

    def __init__(self, config: SessionConfig | None = None) -> None:
        self.config = config or SessionConfig()
        self.dir: Path | None = None
        self.display: int | None = None
        self._xvfb: subprocess.Popen[bytes] | None = None
        self._sandbox: JsonLineProcess | None = None
        self._namespace: str | None = None
        self._relay: PortRelay | None = None
        # System files the sandbox shows other contents for (see SandboxSpec).
        self._system_files: dict[str, Path] = {}
        self.now = self.config.now  # the world time its clocks show (set_clock moves it)
        # Seconds the sandbox's clock runs ahead of the host's: what programs inside record
        # (a save time, say) is in its time, what the kernel stamps (mtimes) in the host's.
        self.clock_offset = 0
        # Host time the episode began (the home's last restore, else the first sandbox
        # start): the kernel's file times from then on are shown on the world's clock
        # inside (:mod:`.filetime`); a restart within the episode keeps it.
        self.files_since: float | None = None

    # ------------------------------------------------------------------ paths
    def _path(self, name: str) -> Path:
        if self.dir is None:
            raise EnvironmentFailure("the desktop session is not started")
        return self.dir / name

    @property
    def home(self) -> Path:
        return self._path("home")

    @property
    def tmp(self) -> Path:
        return self._path("tmp")

    @property
    def runtime(self) -> Path:
        return self._path("run")

    @property
    def display_name(self) -> str:
        return f":{self.display}"

    def host_env(self) -> dict[str, str]:
        """Environment for harness-side tools (xdotool, the a11y reader) on this display."""
        return {
            **_HOST_ENV,
            "DISPLAY": self.display_name,
            "DBUS_SESSION_BUS_ADDRESS": f"unix:path={self.runtime}/bus",
            "XDG_RUNTIME_DIR": str(self.runtime),
        }

    def host_path(self, path: str) -> Path:
        """Where a path as the agent sees it (``~/a.txt``, ``/tmp/x``) lives on the host.

        Raises:
            ActionFailed: the path is outside the sandbox's home and /tmp.
        """
        raw = path.strip()
        if raw == "~" or raw.startswith("~/"):
            raw = SANDBOX_HOME + raw[1:]
        if not raw.startswith("/"):
            raw = f"{SANDBOX_HOME}/{raw}"
        norm = posixpath.normpath(raw)
        for inside, outside in ((SANDBOX_HOME, self.home), ("/tmp", self.tmp)):
            if norm == inside or norm.startswith(inside + "/"):
                target = outside / norm[len(inside) :].lstrip("/")
                # A symlink made inside must not lead a host-side read out of the sandbox.
                resolved = target.resolve()
                if resolved != outside.resolve() and not resolved.is_relative_to(outside.resolve()):
                    raise ActionFailed(f"{path} leads outside the desktop's home and /tmp")
                return target
        raise ActionFailed(
            f"{path} is outside the desktop's writable area: use a path under ~ or /tmp"
        )

    # -------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Create the instance directory, start Xvfb, the port relay and the sandbox."""
        base = self.config.workdir or Path(tempfile.gettempdir())
        deepest = base.absolute() / _DEEPEST_SOCKET
        if len(str(deepest)) > _SOCKET_PATH_MAX:
            raise ConfigError(
                f"desktop workdir {base} is too long for the session's unix sockets "
                f"({len(str(deepest))} > {_SOCKET_PATH_MAX} characters): use a shorter path"
            )
        base.mkdir(parents=True, exist_ok=True)
        orphans.reap(base)  # desktops of harnesses that died without stopping them
        self.dir = Path(tempfile.mkdtemp(prefix="reef-desktop-", dir=base))
        for name in ("home", "tmp", "run", "ports"):
            (self.dir / name).mkdir(mode=0o700)
        (self.dir / "tmp").chmod(0o1777)
        write_desktop_files(self.dir / "share" / "applications")
        shutil.copyfile(_INIT_SOURCE, self.dir / "init.py")
        account_files(self.dir)
        wallpaper = self.dir / "wallpaper.jpg"
        screen = (self.config.width, self.config.height)
        if screen_sized_wallpaper(Path(DEFAULT_WALLPAPER), screen, wallpaper):
            # Shown at the picture's own path, it keeps the picture's times: a file
            # chooser listed it written at the host's "now" beside siblings of 2023.
            original = os.stat(DEFAULT_WALLPAPER)
            os.utime(wallpaper, ns=(original.st_atime_ns, original.st_mtime_ns))
            self._system_files = {DEFAULT_WALLPAPER: wallpaper}
        try:
            self._start_xvfb()
            if self.config.ports:
                self._relay = PortRelay(self._path("ports"), self.config.ports)
                self._relay.start()
            self.start_sandbox()
        except BaseException:
            self.stop()
            raise

    def _start_xvfb(self) -> None:
        read_fd, write_fd = os.pipe()
        cfg = self.config
        try:
            log = self._path("xvfb.log").open("wb")
            self._xvfb = procs.spawn_bound(  # dies with the harness, even a SIGKILLed one
                [
                    "Xvfb",
                    "-displayfd",
                    str(write_fd),
                    "-screen",
                    "0",
                    f"{cfg.width}x{cfg.height}x24",
                    "-nolisten",
                    "tcp",
                    "-noreset",
                    "+extension",
                    "RANDR",
                ],
                pass_fds=(write_fd,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
                env=_HOST_ENV,
            )
        except FileNotFoundError:
            os.close(read_fd)
            os.close(write_fd)
            raise EnvironmentFailure("Xvfb is not installed: apt-get install xvfb") from None
        finally:
            log.close()
        os.close(write_fd)
        try:
            number = _read_line(read_fd, cfg.start_timeout)
        finally:
            os.close(read_fd)
        if not number.strip().isdigit():
            raise EnvironmentFailure(
                f"Xvfb did not start (see {self._path('xvfb.log')}): {number!r}"
            )
        self.display = int(number)
        socket_path = Path(f"/tmp/.X11-unix/X{self.display}")
        if not _wait(socket_path.exists, cfg.start_timeout):
            raise EnvironmentFailure(f"Xvfb did not create {socket_path}")

    def start_sandbox(self) -> None:
        """Start the sandbox's init (buses, window manager) and wait until it is ready."""
        assert self.display is not None
        runtime = self.runtime
        for leftover in ("bus", "at-spi"):
            target = runtime / leftover
            if target.is_dir():
                shutil.rmtree(target, ignore_errors=True)
            else:
                target.unlink(missing_ok=True)
        clock_env, clock_files = self._clock_env(runtime)
        spec = SandboxSpec(
            home=self.home,
            tmp=self.tmp,
            runtime=runtime,
            display=self.display,
            init_script=self._path("init.py"),
            applications=self._path("share") / "applications",
            ports_dir=self._path("ports"),
            passwd=self._path("passwd"),
            group=self._path("group"),
            system_files={
                **self._system_files,
                **exo_a11y.sandbox_files(),
                **image_editor.sandbox_files(self._path("launchers")),
                **clock_files,
            },
            extra_env={
                "NO_AT_BRIDGE": "0",
                "GTK_OVERLAY_SCROLLING": "0",
                # Thunar's icon and compact views list their files (.exo_a11y).
                **exo_a11y.sandbox_env(),
                **clock_env,
                **self.config.extra_env,
            },
        )
        init_config = {
            "wm": list(WINDOW_MANAGER),
            "session": [list(argv) for argv in SESSION_PROGRAMS],
            "ports": {str(p): f"{PORTS_DIR}/{relay_socket_name(p)}" for p in self.config.ports},
            # The init gives up first, so its error (not a bare timeout) reaches the harness.
            "timeout": max(1.0, self.config.start_timeout - 3.0),
        }
        argv = bwrap_command(spec, [SYSTEM_PYTHON, "-u", INIT_PATH, json.dumps(init_config)])
        self._sandbox = JsonLineProcess(
            argv,
            env=_HOST_ENV,
            log=self._path("sandbox.log"),
            what="desktop sandbox",
            ready_timeout=self.config.start_timeout,
        )
        inner = procs.descendants(self._sandbox.pid)
        self._namespace = procs.pid_namespace(inner[0]) if inner else None
        assert self.dir is not None
        orphans.record(
            self.dir,
            xvfb=self._xvfb.pid if self._xvfb else None,
            sandbox=self._sandbox.pid,
            namespace=self._namespace,
        )
        if not self.wait_for_window_manager(self.config.start_timeout):
            raise EnvironmentFailure("the window manager did not start")
        if not self.wait_for_session(self.config.start_timeout):
            raise EnvironmentFailure(
                f"the desktop session (panel, wallpaper) did not come up: see {runtime}/logs"
            )

    def _clock_env(self, runtime: Path) -> tuple[dict[str, str], dict[str, Path]]:
        """The sandbox's variables and read-only files for the world's clock."""
        if self.now is None:
            return {}, {}
        if not faketime.available():
            raise EnvironmentFailure(
                "the desktop's world clock needs libfaketime: apt-get install libfaketime"
            )
        files = faketime.sandbox_files()
        now = time.time()
        if self.files_since is None:
            self.files_since = now
        self.clock_offset = faketime.write_offset(runtime, self.now, now)
        return faketime.sandbox_env(runtime, self.files_since), files

    def set_clock(self, now: str) -> None:
        """Move the sandbox's clocks to world time ``now`` (``YYYY-MM-DDTHH:MM``).

        Before the sandbox starts this only decides what it will show; afterwards its
        processes read the new time within :data:`.faketime.CACHE_SECONDS` (a clock that
        is drawn once a minute, like the panel's, shows it only when redrawn)."""
        self.now = now
        if self._sandbox is not None:
            self.clock_offset = faketime.write_offset(self.runtime, now, time.time())

    def wait_for_session(self, timeout: float) -> bool:
        """True once the wallpaper is drawn and the panel is mapped.

        Waited for at every start, so a task's first observation already shows the
        whole desktop: a panel or a wallpaper appearing mid-episode would be a change
        the agent did not make (and would keep the screen from settling).
        """

        def ready() -> bool:
            done = subprocess.run(
                ["xprop", "-root", "_XROOTPMAP_ID", "_NET_CLIENT_LIST"],
                capture_output=True,
                env=self.host_env(),
                check=False,
            )
            if b"pixmap id" not in done.stdout or b"window id" not in done.stdout:
                return False
            return bool(session_windows_mapped(self.host_env()))

        return _wait(ready, timeout, interval=0.05)

    def wait_for_window_manager(self, timeout: float) -> bool:
        """True once a window manager owns the display (``_NET_SUPPORTING_WM_CHECK``)."""

        def ready() -> bool:
            done = subprocess.run(
                ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"],
                capture_output=True,
                env=self.host_env(),
                check=False,
            )
            return b"window id" in done.stdout

        return _wait(ready, timeout, interval=0.02)

    def stop_sandbox(self) -> None:
        """Kill every process of the sandbox (its whole pid namespace)."""
        sandbox, self._sandbox = self._sandbox, None
        if sandbox is None:
            return
        victims = procs.in_namespace(self._namespace) if self._namespace else []
        victims += procs.descendants(sandbox.pid)
        procs.kill_all([*victims, sandbox.pid], timeout=1.0)
        sandbox.close(timeout=5.0)
        self._namespace = None

    def stop(self) -> None:
        """Stop the sandbox, the relay and Xvfb, and delete the instance directory."""
        self.stop_sandbox()
        if self._relay is not None:
            self._relay.stop()
            self._relay = None
        if self._xvfb is not None:
            xvfb, self._xvfb = self._xvfb, None
            procs.kill_all([xvfb.pid], timeout=2.0)
            xvfb.wait()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        self.display = None

    # ---------------------------------------------------------------- queries
    def request(self, op: str, timeout: float = 10.0, **arguments: Any) -> dict[str, Any]:
        """Send one request to the sandbox's init and return its reply.

        Raises:
            EnvironmentFailure: the sandbox is gone or did not answer in time.
        """
        if self._sandbox is None:
            raise EnvironmentFailure("the desktop sandbox is not running")
        return self._sandbox.request(op, timeout=timeout, **arguments)

    def spawn(self, argv: list[str], env: dict[str, str] | None = None, name: str = "app") -> int:
        """Start a program inside the sandbox (argv list, no shell); returns its pid there."""
        return int(self.request("spawn", argv=argv, env=env or {}, name=name)["pid"])

    def run(self, argv: list[str], timeout: float = 10.0, input: str = "") -> CommandResult:
        """Run a command inside the sandbox and wait for it (argv list, no shell)."""
        reply = self.request("run", timeout=timeout + 5, argv=argv, limit=timeout, input=input)
        return CommandResult(reply.get("rc"), reply.get("stdout", ""), reply.get("stderr", ""))

    def kill(self, pid: int) -> None:
        self.request("kill", pid=pid)

    def processes(self) -> list[dict[str, Any]]:
        """Processes inside the sandbox: ``{"pid", "comm", "cmdline"}`` dicts."""
        result: list[dict[str, Any]] = self.request("ps")["processes"]
        return result

    def pids(self) -> list[int]:
        """Host pids of every process of this session (Xvfb, sandbox, everything inside)."""
        out = []
        if self._xvfb is not None and procs.alive(self._xvfb.pid):
            out.append(self._xvfb.pid)
        if self._sandbox is not None:
            out.append(self._sandbox.pid)
            out += procs.descendants(self._sandbox.pid)
        return sorted(set(out))

    def health(self) -> bool:
        """Display, sandbox and window manager all answer."""
        if self._xvfb is None or self._xvfb.poll() is not None:
            return False
        if self._sandbox is None or not self._sandbox.running():
            return False
        try:
            self.request("ping", timeout=2.0)
        except EnvironmentFailure:
            return False
        return self.wait_for_window_manager(0.5)


def _read_line(fd: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace")


def _wait(condition: Any, timeout: float, interval: float = 0.005) -> bool:
    return bool(wait_until(condition, timeout, interval=interval))
