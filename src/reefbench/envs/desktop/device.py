"""``DesktopDevice``: a real Linux desktop (Xvfb + openbox + GTK apps) in a sandbox.

The device's mechanics; the actions in :mod:`.actions` drive it, and
:class:`~reefbench.envs.desktop.environment.DesktopEnvironment` adds them as its action
space (so the actions can name the device's type without an import circle).

Lifecycle: :meth:`start` brings up the display, the sandbox (buses, window manager), the
accessibility reader and the input/screen handles; :meth:`reset` restores the pristine
home and restarts the sandbox (the display stays up), then checks health and falls back
to a full restart; :meth:`stop` leaves no process behind.

Every agent action ends by waiting until the screen is stable (with a deadline), so the
next observation shows the action's effect without fixed sleeps.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, TypeVar
from zoneinfo import ZoneInfo

from reefbench.environments.contract import Environment
from reefbench.environments.grounding import Candidate
from reefbench.environments.pointer import PointerKind
from reefbench.envs import procs
from reefbench.envs.accounts import Account
from reefbench.envs.desktop import faketime, hometree
from reefbench.envs.desktop.a11y import FIELD_ROLES, A11yReader, UIWindow, box_contains, name_clock
from reefbench.envs.desktop.apps import APPS, AppSpec, app, apps_text
from reefbench.envs.desktop.hometree import scan
from reefbench.envs.desktop.input import Input
from reefbench.envs.desktop.observation import Snapshot, take_snapshot
from reefbench.envs.desktop.reset import build_baseline, clear_directory, restore_home
from reefbench.envs.desktop.screen import Frame, Screen, Settle
from reefbench.envs.desktop.session import DesktopSession, SessionConfig
from reefbench.envs.desktop.settling import View, clock_ticked, settle_view
from reefbench.envs.desktop.x11 import X11, XWindow
from reefbench.envs.desktop.xsession import CLOCK_FORMAT, SESSION_WINDOW_CLASSES
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure, InvalidAction
from reefbench.perception.marks import (
    FIELDS_SENTENCE,
    MARKS_SENTENCE,
    PIXELS_SENTENCE,
    Mark,
    require_mark,
)
from reefbench.plumbing.waiting import wait_until
from reefbench.tasks.sideeffects import Change
from reefbench.tasks.worldtime import DEFAULT_NOW, WORLD_TIMEZONE

T = TypeVar("T")

# How the agent addresses elements, which the pixels set rewrites (action_set_descriptions).
MARKS_NOTE = (
    f"{MARKS_SENTENCE} {FIELDS_SENTENCE} The list gives '[id] role \"name\"' for each "
    "element (Set-of-Marks)."
)
PIXELS_NOTE = PIXELS_SENTENCE
# What each action set rewrites in the description (Environment.action_set_descriptions).
SET_DESCRIPTIONS = {"pixels": {MARKS_NOTE: PIXELS_NOTE}}
DESCRIPTION = (
    "A Linux desktop ({width}x{height}) with the openbox window manager and these "
    "applications: {apps}. " + MARKS_NOTE + " Open applications with search_app. The "
    "user's home folder is /home/user (also written ~)."
)


class DesktopDevice(Environment):
    """A sandboxed desktop session with Set-of-Marks observations.

    Args:
        name: Environment name in tasks.
        width: Screen width (default 1280; 1920x1080 is supported).
        height: Screen height.
        apps: Apps started at every reset (names from :data:`apps.APPS`).
        home: A directory copied over the default home baseline at every reset.
        ports: Host loopback ports (local services) reachable from inside.
        ocr: ``"auto"`` (only when the focused window has no accessible elements),
            ``"always"`` or ``"never"``.
        screenshot_width: Downscale screenshots to this width (coordinates the agent
            passes are then in the downscaled pixels and scaled back).
        settle_quiet: Seconds the screen must stay unchanged after an action.
        settle_timeout: Deadline for the screen to settle.
        workdir: Parent of the instance directory (default: system temp dir).
        lazy_reset: Skip resets while nothing acted on the desktop (see
            :class:`~reefbench.environments.contract.Environment`).
        now: The world time its clocks show after a reset (the panel, the apps, ``date``;
            libfaketime in the sandbox, :mod:`.faketime`); ``None`` keeps the host's clock.
        services: An account whose clock the desktop follows (the task's world time,
            :mod:`reefbench.tasks.worldtime`): a setup that loads a world moves it there too.
    """

    # Its reset restarts the sandbox's session (half a second of waiting on its own
    # processes): an episode overlaps it with the other devices' resets.
    resets_in_background: ClassVar[bool] = True

    def __init__(
        self,
        name: str = "desktop",
        *,
        width: int = 1280,
        height: int = 800,
        apps: Sequence[str] = (),
        home: Path | str | None = None,
        ports: Iterable[int] = (),
        ocr: str = "auto",
        screenshot_width: int | None = None,
        settle_quiet: float = 0.06,
        settle_timeout: float = 3.0,
        workdir: Path | str | None = None,
        lazy_reset: bool = False,
        now: str | None = DEFAULT_NOW,
        services: Account | None = None,
    ) -> None:
        if ocr not in ("auto", "always", "never"):
            raise ConfigError(f"ocr must be 'auto', 'always' or 'never', not {ocr!r}")
        self.session_apps: tuple[AppSpec, ...] = tuple(app(a) for a in apps)
        super().__init__(
            name,
            # The screenshot's size (what coordinates are in) and the one app table.
            DESCRIPTION.format(
                width=min(width, screenshot_width or width),
                height=round(height * min(1.0, (screenshot_width or width) / width)),
                apps=apps_text(),
            ),
            lazy_reset=lazy_reset,
        )
        self.config = SessionConfig(
            width=width,
            height=height,
            ports=tuple(int(p) for p in ports),
            workdir=Path(workdir) if workdir else None,
            now=now,
        )
        self.services = services
        # The account's clock may move from the main thread while this desktop resets on
        # its own thread (resets_in_background): one of them at a time touches the clock.
        self._clock_lock = threading.RLock()
        # The next task's world time, told before its reset (expect_world_time): the
        # session starts on it, and the account's reset announcing its own time on the
        # way there is no reason to restart.
        self._expected_now: str | None = None
        self._stamped_at = 0.0  # host time of the home's last restore (_stamp_home)
        self.extra_home = Path(home) if home else None
        self.ocr = ocr
        self.screenshot_width = screenshot_width
        self.settle_quiet = settle_quiet
        self.settle_timeout = settle_timeout
        self.session = DesktopSession(self.config)
        self.baseline: Path | None = None
        self.snapshot: Snapshot | None = None
        self.view: View | None = None  # what the last settle saw (observe_now reuses it)
        # The frame the last input action's wait found stable (settle_view starts from it)
        # and the home tree as the input had been sent (or, after a setup or a reset, as
        # the view began to settle), with when it was read (settle_state's quick quiet
        # time runs from there): each is used once.
        self._stable_frame: Frame | None = None
        self._home_at_input: tuple[hometree.Tree, float] | None = None
        self._home_after_action: tuple[hometree.Tree, float] | None = None
        # The home tree as the last quick state settle left it, and since when it has
        # been quiet (the final settle goes on from there; any input clears it).
        self._home_quiet: tuple[hometree.Tree, float] | None = None
        self.interactions: list[dict[str, Any]] = []
        # Checkpoints' memory of file contents they saw during the episode (path as the
        # agent sees it -> SHA-256), so "a rename keeps the bytes" can compare against the
        # file as it was before it moved. Cleared on reset, like ``interactions``.
        self.seen_files: dict[str, str] = {}
        self._reader: A11yReader | None = None
        self._screen: Screen | None = None
        self._x11: X11 | None = None
        self._input: Input | None = None

    # ------------------------------------------------------------- lifecycle
    def on_start(self) -> None:
        with self._clock_lock:
            self._start()
        if self.services is not None:
            self.services.follow_clock(self.set_world_time)

    def _start(self) -> None:
        self.session.start()
        try:
            assert self.session.dir is not None
            self.baseline = build_baseline(self.session.dir / "baseline", self.extra_home)
            restore_home(self.session.home, self.baseline)
            self._stamp_home()
            self._screen = Screen(self.session.display_name)
            self._x11 = X11(self.session.display_name)
            self._input = Input(self.session.host_env())
            self._after_sandbox_start()
        except BaseException:
            self.on_stop()
            raise

    def _after_sandbox_start(self) -> None:
        assert self.session.dir is not None
        self._reader = A11yReader(self.session.host_env(), self.session.dir / "a11y.log")
        for spec in self.session_apps:
            self.launch(spec)
        self.snapshot = None
        self.view = None
        self.interactions = []
        self.seen_files = {}
        self._home_quiet = None

    def on_reset(self) -> None:
        with self._clock_lock:
            # Back to the reset's world time, as the account returns to its own; a setup
            # that moves the account's clock moves this one (set_world_time), unless the
            # episode said where it will move it (expect_world_time): then start there.
            if self.config.now is not None:
                self.session.now = self._expected_now or self.config.now
            try:
                self._soft_reset()
            except EnvironmentFailure:
                self._hard_reset()
            if not self.on_health():
                self._hard_reset()

    def expect_world_time(self, now: str | None) -> None:
        """Start the session of the next reset on world time ``now``: the time the next
        task's setup will leave on the account's clock
        (:func:`~reefbench.tasks.worldtime.task_now`), so that a setup that loads a seeded
        world does not restart the session
        (:class:`~reefbench.tasks.worldtime.ExpectsWorldTime`); ``None`` forgets it.

        Until the account's clock reaches ``now``, its moving to the reset's own time (the
        account's reset) is not followed; any other time is, as without an expectation."""
        self._expected_now = now

    def set_world_time(self, now: str) -> None:
        """Show world time ``now`` (``YYYY-MM-DDTHH:MM``) on every clock of the desktop
        from here on: ``date``, the apps and the panel.

        A running session restarts on the same home (files kept, programs not, as a
        setup that loads a world must come first): the panel draws its clock once a
        minute, and libfaketime moves the monotonic clock with the offset, so a running
        program's timers would wait for any time taken back (:mod:`.faketime`)."""
        expected = self._expected_now
        # Not under the lock: the account's reset announces its time while this desktop
        # may be resetting on its own thread, and need not wait for it.
        if expected is not None and now == self.config.now and now != expected:
            return
        with self._clock_lock:
            if now == expected:
                self._expected_now = None
            before = self.session.now
            if self.config.now is None or before is None or now == before:
                return
            self.session.set_clock(now)
            if self.session.health():  # else the next start reads the new time
                self._restart_session()

    def _stamp_home(self) -> None:
        # The pristine home's files were made at the reset's world time, not the host's
        # (the sandbox starts on that time right after). The episode begins here: what the
        # kernel stamps from now on is shown on the world's clock inside (.filetime).
        self._stamped_at = time.time()
        self.session.files_since = self._stamped_at
        if self.session.now is not None:
            faketime.stamp_tree(self.session.home, faketime.world_epoch(self.session.now))

    def stamp_setup_files(self) -> None:
        """Give what the task's setup wrote in the home since the reset (files and the
        folders made or changed on the way) the sandbox's current time instead of the
        host's (:class:`~reefbench.tasks.worldtime.StampsSetupFiles`): ``ls -l`` and the file
        manager then show the task's day on them, as on the rest of the home."""
        if self.session.now is None:
            return
        faketime.stamp_tree(
            self.session.home,
            time.time() + self.session.clock_offset,
            since=self._stamped_at,
        )

    def stamp_world_time(self, path: Path) -> None:
        """Give a file (or folder tree) the harness just wrote at host path ``path`` the
        sandbox's current time as its modification time, as if written inside it."""
        if self.session.now is not None:
            faketime.stamp_tree(path, time.time() + self.session.clock_offset)

    def _restart_session(self) -> None:
        """A new sandbox session on the same home (files kept, programs not)."""
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self.input.release_all(self.x11.pressed_buttons())
        self.session.stop_sandbox()
        self.session.start_sandbox()
        self._after_sandbox_start()

    def _soft_reset(self) -> None:
        assert self.baseline is not None
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self.input.release_all(self.x11.pressed_buttons())
        self.session.stop_sandbox()
        restore_home(self.session.home, self.baseline)
        self._stamp_home()
        clear_directory(self.session.tmp)
        self.session.start_sandbox()
        self._after_sandbox_start()

    def _hard_reset(self) -> None:
        now = self.session.now
        self.on_stop()
        self.session = DesktopSession(self.config)
        self.session.now = now
        self._start()

    def on_stop(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        for handle in (self._screen, self._x11):
            if handle is not None:
                with contextlib.suppress(Exception):
                    handle.close()
        self._screen = self._x11 = None
        self._input = None
        self.session.stop()

    def on_health(self) -> bool:
        reader = self._reader
        return self.session.health() and reader is not None and reader.alive()

    def pids(self) -> list[int]:
        """Host pids of every process of this instance (display, sandbox, reader)."""
        pids = self.session.pids()
        if self._reader is not None and self._reader.alive():
            pids.append(self._reader.pid)
        return pids

    def memory_bytes(self) -> int:
        """Resident memory of all the instance's processes (RSS summed)."""
        return procs.rss_bytes(self.pids())

    # ---------------------------------------------------------------- handles
    def _need(self, handle: T | None) -> T:
        if handle is None:
            raise EnvironmentFailure(f"desktop '{self.name}' is not started")
        return handle

    @property
    def screen(self) -> Screen:
        return self._need(self._screen)

    @property
    def x11(self) -> X11:
        return self._need(self._x11)

    @property
    def input(self) -> Input:
        return self._need(self._input)

    @property
    def reader(self) -> A11yReader:
        return self._need(self._reader)

    # ------------------------------------------------------------ interaction
    # How long Enter in a dialog may take to close it (Mousepad's Save As saves first: half
    # a second on an idle machine, and its screen does not change meanwhile).
    DIALOG_CLOSE_SECONDS = 3.0

    def act(
        self,
        do: Callable[[], T],
        *,
        enter: bool = False,
        click: tuple[int, int] | None = None,
    ) -> tuple[T, Settle]:
        """Run an input action, then wait until the screen is stable.

        Args:
            enter: The action ends by pressing Enter. In a dialog that activates its
                default button, which usually closes it (Save, Open) but only once the app
                has done the work, with the screen unchanged meanwhile: no quiet period
                tells that apart from a dialog that stays, so the wait is for the dialog
                to go, up to :attr:`DIALOG_CLOSE_SECONDS` (a dialog that stays, an error
                shown in it, costs that once).
            click: The screen point of a single left click: on the active dialog's
                default button (as the latest tree read shows it) that is the same as
                Enter, and waited for in the same way.
        """
        before = self.screen.grab()
        activates = enter or (click is not None and self._default_button_at(*click))
        active = self.x11.active() if activates else None
        dialog = active if active is not None and self.x11.is_dialog(active.id) else None
        result = do()
        if dialog is not None:
            wait_until(
                lambda: dialog.id not in {w.id for w in self.x11.stacking()},
                self.DIALOG_CLOSE_SECONDS,
                interval=0.02,
            )
        self._home_at_input = (scan(self.session.home), time.monotonic())
        self._home_quiet = None
        return result, self.settle(before)

    def _default_button_at(self, x: int, y: int) -> bool:
        """Whether (x, y) is on the default button (the one Enter activates) of the
        active window, in the latest tree read (the view's, else the observation's)."""
        if self.view is not None:
            windows = self.view.windows
        elif self.snapshot is not None:
            windows = self.snapshot.windows
        else:
            return False
        return any(
            node.role == "push button"
            and "default" in node.states
            and node.box is not None
            and box_contains(node.box, x, y)
            for window in windows
            if window.active
            for node in window.nodes
        )

    # ------------------------------------------- files the computer's browser moves
    files_description = (
        "the computer's desktop: a file it downloads is saved in ~/Downloads, and a page's "
        "file chooser opens the desktop's files"
    )

    def receive_download(self, name: str, source: Path) -> str:
        """Save a file the computer's browser downloaded into ``~/Downloads``
        (:class:`~reefbench.envs.filetransfer.ComputerFiles`): a name already taken gets
        " (1)" as in a real browser, and a name the agent planted as a symlink is never
        written through. The desktop counts as changed, so a lazy reset restores it.

        Raises:
            ActionFailed: the desktop is not running, or ~/Downloads leads outside the home.
        """
        from reefbench.envs.filetransfer import store_download

        if self._screen is None:
            raise ActionFailed(
                f"desktop '{self.name}' is not running: the download has nowhere to go"
            )
        target = store_download(self.session.host_path("~/Downloads"), name, source)
        self._dirty = True
        return f"~/Downloads/{target.name}"

    def file_to_upload(self, path: str) -> Path:
        """The desktop's file at ``path`` (as the agent sees it: ``~/...``, ``/home/user/...``
        or ``/tmp/...``) for the browser's file chooser; nothing outside the sandbox's home
        and /tmp, and no symlink out of it, can be picked.

        Raises:
            ActionFailed: no such file there, or a path outside those folders (the call
                ran and failed: invalid is only what cannot run as written).
        """
        try:
            target = self.session.host_path(path)
        except ActionFailed as exc:
            raise ActionFailed(f"cannot choose {path!r}: {exc}") from None
        if not target.is_file():
            raise ActionFailed(
                f"there is no file {path!r} on the desktop: give its path, like ~/Pictures/name.jpg"
            )
        return target.resolve()

    # ---------------------------------------------------------- side effects
    # GSettings schemas apps write on their own, not the agent's doing: window geometry
    # mousepad saves on exit, and the size, position and sidebar of GTK's file dialog.
    SETTINGS_NOISE: tuple[str, ...] = ("org.xfce.mousepad.state", "org.gtk.Settings.FileChooser")

    def on_state_snapshot(self) -> tuple[hometree.HomeState, dict[str, str]]:
        return hometree.snapshot(self.session.home), self.gsettings()

    def on_state_changes(self, before: tuple[hometree.HomeState, dict[str, str]]) -> list[Change]:
        home, settings = before
        found = [
            Change(f"file:/home/user/{rel}", what)
            for rel, what in hometree.changes(self.session.home, home)
        ]
        now = self.gsettings()
        for key in sorted(settings.keys() | now.keys()):
            old, new = settings.get(key), now.get(key)
            if old != new:
                found.append(Change(f"gsetting:{key}", f"setting {key} changed {old} -> {new}"))
        return found

    def on_state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        """Files and folders by :func:`hometree.fingerprint`, GSettings and xfconf
        properties by their value (``unset`` when there is none); the session's other
        state (processes, the clipboard) is not held to a past value."""
        found: dict[str, str] = {}
        for key in keys:
            kind, _, what = key.partition(":")
            if kind == "file":
                try:
                    found[key] = hometree.fingerprint(self.session.host_path(what))
                except ActionFailed:  # outside the sandbox: not this device's state
                    continue
            elif kind == "gsetting":
                schema, _, name = what.rpartition("/")
                done = self.session.run(["gsettings", "get", schema, name], timeout=10)
                found[key] = done.stdout.strip() if done.returncode == 0 else "unset"
            elif kind == "xfconf":
                channel, slash, prop = what.partition("/")
                query = ["xfconf-query", "-c", channel, "-p", slash + prop]
                done = self.session.run(query, timeout=5)
                found[key] = done.stdout.strip() if done.returncode == 0 else "unset"
        return found

    def gsettings(self) -> dict[str, str]:
        """Every desktop setting as ``schema/key -> value`` (gsettings' own text)."""
        result = self.session.run(["gsettings", "list-recursively"], timeout=10)
        values: dict[str, str] = {}
        for line in result.stdout.splitlines():
            schema, _, rest = line.partition(" ")
            key, _, value = rest.partition(" ")
            if key and not schema.startswith(self.SETTINGS_NOISE):
                values[f"{schema}/{key}"] = value
        return values

    # The home tree must stay unchanged this long, with no save in progress, before
    # checkpoints read it (quick: before a per-step check; else before the final check).
    STATE_QUIET_QUICK = 0.1
    STATE_QUIET_FINAL = 0.4

    def on_settle_state(self, timeout: float, quick: bool) -> bool:
        """Wait until the home tree has stopped changing, no editor is mid-save and no
        app is on its way out.

        The quiet time never starts before the last input: a save the last key press
        started may not have touched the disk yet. A quick settle counts it from the tree
        read as that input was sent; the final one goes on from where the quick settle
        after the last action left off (the tree then, quiet since its last change or
        that input), so it does not wait its 0.4 s again from the start; any change
        since restarts it. An exiting app may still write (a GTK app writes its
        recent-files record, which ``saved_with`` reads, as it exits; on a loaded machine
        that lands after a quiet 0.4 s), so none may be on its way out.
        """
        home = self.session.home
        quiet = self.STATE_QUIET_QUICK if quick else self.STATE_QUIET_FINAL
        after_action, self._home_after_action = self._home_after_action, None
        quiet_so_far, self._home_quiet = self._home_quiet, None
        if quick and after_action is not None:
            # The view settled since the action's input was sent: the quiet time runs
            # from the tree read then (the screen's and the view's waits cover it).
            last_tree, since = after_action
        elif not quick and quiet_so_far is not None:
            last_tree, since = quiet_so_far
        else:
            last_tree, since = scan(home), time.monotonic()

        def settled() -> bool:
            nonlocal last_tree, since
            pending: list[str] = []
            tree = scan(home, pending=pending)
            if pending or tree != last_tree:
                last_tree, since = tree, time.monotonic()
                return False
            return time.monotonic() - since >= quiet and not self.exiting_apps()

        done = wait_until(settled, timeout, interval=0.05) is not None
        if quick and done:
            self._home_quiet = (last_tree, since)
        return done

    def exiting_apps(self) -> list[str]:
        """Apps whose process runs without a window: their last window closed and they
        are shutting down (a terminal is never counted: its shell outlives windows)."""
        processes = [a for a in APPS.values() if not a.terminal]
        running = set(self.process_names())
        if not any(a.process in running for a in processes):
            return []
        classes = {w.wm_class for w in self.x11.stacking()}
        # One process may serve several apps (LibreOffice's soffice.bin): it is on its
        # way out only when none of them has a window left.
        shown = {a.process for a in processes if a.wm_class in classes}
        return sorted(
            {a.process for a in processes if a.process in running and a.process not in shown}
        )

    def on_settle_view(self, timeout: float) -> bool:
        """Wait until the screen, the windows and the accessibility tree have settled
        (:mod:`.settling`); the next observation reuses what this saw if nothing moved.

        A quick :meth:`on_settle_state` after it counts its quiet time from the home tree
        read as the action's input had been sent (:meth:`act`), or else as this began,
        instead of starting anew."""
        at_input, self._home_at_input = self._home_at_input, None
        self._home_after_action = at_input or (scan(self.session.home), time.monotonic())
        stable, self._stable_frame = self._stable_frame, None
        self.view = settle_view(
            self.screen,
            self.x11.stacking,
            self.reader.windows,
            self.x11.active,
            quiet=self.settle_quiet,
            timeout=timeout,
            stable=stable,
        )
        return self.view.settled

    def settle(self, before: Frame | None = None) -> Settle:
        """Wait until the screen has been stable for the quiet period (changed from
        ``before``, if given, is reported); :meth:`on_settle_view` starts from its frame."""
        frame, settle = self.screen.wait_stable(
            before=before, quiet=self.settle_quiet, timeout=self.settle_timeout
        )
        self._stable_frame = frame if settle.stable else None
        return settle

    @property
    def scale(self) -> float:
        """Screen pixels per screenshot pixel (1.0 unless screenshots are downscaled)."""
        if self.screenshot_width and self.screenshot_width < self.config.width:
            return self.config.width / self.screenshot_width
        return 1.0

    def to_screen(self, x: int, y: int) -> tuple[int, int]:
        """Screenshot coordinates from the agent → screen pixels; refuses off-screen points."""
        sx, sy = round(x * self.scale), round(y * self.scale)
        if not (0 <= sx < self.config.width and 0 <= sy < self.config.height):
            raise InvalidAction(
                f"point ({x}, {y}) is off the screen; x must be in 0..{self._shot_w() - 1} and "
                f"y in 0..{round(self.config.height / self.scale) - 1}"
            )
        return sx, sy

    def _shot_w(self) -> int:
        return round(self.config.width / self.scale)

    def mark(self, elem: int) -> Mark:
        """The element numbered ``elem`` in the latest observation.

        Raises:
            InvalidAction: no observation yet, or no such id in it.
        """
        return require_mark(self.snapshot.marks if self.snapshot else None, elem)

    def record(self, kind: str, **details: Any) -> None:
        """Remember what an action did, for trajectory evaluators (cleared on reset)."""
        self.interactions.append({"action": kind, **details})

    # ----------------------------------------------------------- observation
    def observe_now(self, ocr: str | None = None) -> Snapshot:
        """Take a fresh snapshot (screenshot, tree, marks) and make its ids current.

        When the screen no longer shows what the last settle saw (a window mapped after
        it: Calc started from a terminal), the view settles again, within
        :attr:`settle_timeout`: a window still drawing was shot blank with its elements
        listed over it. A snapshot that differs from the current one only by the panel
        clock's minute keeps the current one (:func:`.settling.clock_ticked`)."""
        frame = self.screen.grab()
        stacking = self.x11.stacking()
        view, self.view = self.view, None
        if view is not None and view.frame.raw == frame.raw and list(view.stacking) == stacking:
            # Nothing moved since the view settled: its tree read is this observation's.
            windows, active = list(view.windows), view.active
        else:
            view = settle_view(
                self.screen,
                self.x11.stacking,
                self.reader.windows,
                self.x11.active,
                quiet=self.settle_quiet,
                timeout=self.settle_timeout,
            )
            frame, stacking = view.frame, list(view.stacking)
            windows, active = list(view.windows), view.active
        windows = name_clock(windows, self._panel_time(), CLOCK_FORMAT)
        snapshot = take_snapshot(frame, windows, stacking, active, ocr=ocr or self.ocr)
        if self.snapshot is None or not clock_ticked(self.snapshot, snapshot):
            self.snapshot = snapshot
        return self.snapshot

    def _panel_time(self) -> datetime:
        """The time the panel's clock shows: the world's (:mod:`.faketime`), else the
        host's local time."""
        if self.session.now is None:
            return datetime.now()
        return datetime.fromtimestamp(
            time.time() + self.session.clock_offset, ZoneInfo(WORLD_TIMEZONE)
        )

    def observe(self) -> dict[str, Any]:
        self.observe_now()
        return super().observe()

    # Grounding (reefbench.environments.grounding.Groundable): the a11y set's ``click_on`` and
    # the oracle find elements by accessible name through these.
    name_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click"}
    pointer_kind: ClassVar[PointerKind | None] = "desktop"
    # ... and, under the pixels set (no element actions), at the element's centre.
    point_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click_at"}

    def element_point(self, elem: int) -> tuple[int, int]:
        """The centre of element ``elem`` of the latest observation, in screenshot pixels
        (what ``click_at`` takes: screen pixels over :attr:`scale`)."""
        x, y = self.mark(elem).center
        width, height = self._shot_w(), round(self.config.height / self.scale)
        return (
            min(max(round(x / self.scale), 0), width - 1),
            min(max(round(y / self.scale), 0), height - 1),
        )

    def element_candidates(self, fresh: bool) -> list[Candidate]:
        """The numbered elements of the latest observation (of a new one if ``fresh``)."""
        snapshot = self.snapshot if self.snapshot and not fresh else self.observe_now()
        return [
            Candidate(m.id, m.name, m.role, choice="" if m.role in FIELD_ROLES else m.value or "")
            for m in snapshot.marks.marks
        ]

    def windows(self) -> list[UIWindow]:
        return self.reader.windows()

    # ---------------------------------------------------------------- apps
    def launch(self, spec: AppSpec, args: Sequence[str] = (), timeout: float = 20.0) -> XWindow:
        """Start an app inside the sandbox and wait for its new window to settle."""
        stacking = self.x11.stacking()
        before = self.window_keys(stacking)
        existing = [w for w in stacking if w.wm_class == spec.wm_class]
        self.session.spawn([*spec.argv, *args], env=dict(spec.env), name=spec.name)
        # Single-instance apps (mousepad, thunar) may answer with a tab in a window they
        # already have rather than a new window.
        window = self.wait_for_new_window(before, 2.0 if existing else timeout)
        if window is None and existing:
            self.settle()
            window = self.x11.active() or existing[-1]
        if window is None:
            raise ActionFailed(f"{spec.title} did not open a window within {timeout:g} s")
        self.settle()
        return window

    def window_keys(self, stacking: Sequence[XWindow] | None = None) -> set[tuple[int, int]]:
        """What tells windows apart over time: (X id, process id). The X server hands a
        new client the resource ids of one that just quit, so an app restarted right
        after closing gets its old window's id back; the process id tells them apart."""
        return {(w.id, w.pid) for w in (self.x11.stacking() if stacking is None else stacking)}

    def new_window(self, before: set[tuple[int, int]]) -> XWindow | None:
        """The topmost mapped window not in ``before`` (:meth:`window_keys`), if any; never
        the session's own (xfdesktop may map its desktop window again at any time)."""
        new = [
            w
            for w in self.x11.stacking()
            if (w.id, w.pid) not in before
            and w.box[2] > 1
            and w.wm_class not in SESSION_WINDOW_CLASSES
        ]
        return new[-1] if new else None

    def wait_for_new_window(self, before: set[tuple[int, int]], timeout: float) -> XWindow | None:
        return wait_until(partial(self.new_window, before), timeout, interval=0.02)

    def process_names(self) -> list[str]:
        """``comm`` and argv[0] basenames of every process in the sandbox."""
        names = []
        for proc in self.session.processes():
            names.append(proc["comm"])
            if proc["cmdline"]:
                names.append(Path(proc["cmdline"][0]).name)
        return names

    def clipboard(self, selection: str = "clipboard") -> str | None:
        """Text on the X clipboard (``None`` when nothing is there)."""
        exe = shutil.which("xclip")
        if exe is None:
            raise EnvironmentFailure("xclip is not installed: apt-get install xclip")
        done = subprocess.run(
            [exe, "-o", "-selection", selection],
            env=self.session.host_env(),
            capture_output=True,
            timeout=5,
            check=False,
        )
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None
