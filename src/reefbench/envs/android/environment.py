"""``AndroidEnvironment``: a real phone or emulator driven over ADB.

The same actions and observations as the phone environment (CRAB's Android set, a
uiautomator dump with Set-of-Marks, a screenshot), so tasks and XML evaluators written for
one run on the other. No fixed sleeps: ``uiautomator dump`` itself waits until the UI is
idle, and with ``settle="stable"`` an action returns only once two dumps in a row agree
(with a deadline).
"""

from __future__ import annotations

from collections.abc import Sequence

from reefbench.envs.android.device import AndroidDevice
from reefbench.envs.android.transport import AdbTransport, SubprocessAdb
from reefbench.envs.ui.actions import (
    ACTION_SET_ACTIONS,
    ACTION_SET_OBSERVATIONS,
    ACTION_SET_REMOVES,
    TOUCH_ACTIONS,
    touch_observations,
)
from reefbench.envs.ui.device import MARKS_NOTE, TOUCH_DESCRIPTIONS, TouchEnvironment
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure
from reefbench.plumbing.waiting import wait_until

DESCRIPTION = (
    "An Android smartphone ({width}x{height} pixels). " + MARKS_NOTE + " Tap a text "
    "field before writing into it. Use show_all_drawer() to find any installed app, "
    "press('back') to go back and press('home') for the home screen."
)


class AndroidEnvironment(TouchEnvironment):
    """A device reached through ``adb``.

    Args:
        name: Environment name in tasks.
        serial: Which device (``adb devices`` lists serials); ``None``: the only one.
        transport: Use this transport instead of the ``adb`` client (tests, remote ADB).
        ime: ``"input"`` (ASCII text only) or ``"adbkeyboard"`` (ADB Keyboard installed
            and enabled on the device; any Unicode text).
        reset_packages: Apps force-stopped and cleared (``pm clear``) at every reset.
        start_package: App launched at every reset (default: the home screen).
        settle: ``"idle"`` (rely on uiautomator's idle wait) or ``"stable"`` (after each
            action, dump until two dumps agree).
        settle_timeout: Deadline of the ``"stable"`` wait, in seconds.
        observe_xml: Also give the agent the raw XML each step.
        screenshot_width: Downscale screenshots to this width for the agent.
    """

    action_set_actions = ACTION_SET_ACTIONS
    action_set_removes = ACTION_SET_REMOVES
    action_set_observations = ACTION_SET_OBSERVATIONS
    action_set_descriptions = TOUCH_DESCRIPTIONS

    def __init__(
        self,
        name: str = "android",
        *,
        serial: str | None = None,
        transport: AdbTransport | None = None,
        ime: str = "input",
        reset_packages: Sequence[str] = (),
        start_package: str | None = None,
        settle: str = "idle",
        settle_timeout: float = 10.0,
        observe_xml: bool = False,
        screenshot_width: int | None = 540,
    ) -> None:
        if settle not in ("idle", "stable"):
            raise ConfigError(f"settle must be 'idle' or 'stable', not {settle!r}")
        super().__init__(
            name,
            DESCRIPTION.format(width="?", height="?"),
            action_space=TOUCH_ACTIONS,
            observation_space=touch_observations(observe_xml),
            screenshot_width=screenshot_width,
        )
        self.serial = serial
        self._transport = transport
        self.ime = ime
        self.reset_packages = list(reset_packages)
        self.start_package = start_package
        self.settle_mode = settle
        self.settle_timeout = settle_timeout
        self.device: AndroidDevice | None = None
        self._size: tuple[int, int] | None = None
        self._xml: str | None = None  # dump of the current screen, until the next input

    # ------------------------------------------------------------- lifecycle
    def on_start(self) -> None:
        transport = self._transport or SubprocessAdb(self.serial)
        device = AndroidDevice(transport, ime=self.ime)
        state = device.state()
        if state != "device":
            who = f"device {self.serial}" if self.serial else "the device"
            raise EnvironmentFailure(
                f"{who} is '{state}', not ready: connect it with USB debugging on (or start "
                "an emulator) and check `adb devices`; see reefbench/envs/android/README.md"
            )
        self.device = device
        self._size = device.screen_size()
        self.description = DESCRIPTION.format(width=self._size[0], height=self._size[1])

    def on_reset(self) -> None:
        device = self.need()
        for package in self.reset_packages:
            device.force_stop(package)
            device.clear_data(package)
        device.key("home")
        if self.start_package:
            device.launch(self.start_package)
        self._changed()
        self.forget_observation()

    def on_stop(self) -> None:
        self.device = None
        self._xml = None

    def on_health(self) -> bool:
        return self.device is not None and self.device.state() == "device"

    def need(self) -> AndroidDevice:
        if self.device is None:
            raise EnvironmentFailure(f"Android environment '{self.name}' is not started")
        return self.device

    # ------------------------------------------------------ device primitives
    def screen_size(self) -> tuple[int, int]:
        if self._size is None:
            self._size = self.need().screen_size()
        return self._size

    def dump_xml(self) -> str:
        if self._xml is None:
            self._xml = self.need().dump_ui()
        return self._xml

    def capture_png(self) -> tuple[bytes, float]:
        return self.need().screencap(), 1.0

    def current_package(self) -> str | None:
        found = self.need().foreground()
        return found[0] if found else None

    def current_activity(self) -> str | None:
        found = self.need().foreground()
        return f"{found[0]}/{found[1]}" if found and found[1] else None

    def tap_at(self, x: int, y: int) -> None:
        self.need().tap(x, y)
        self._settle()

    def long_tap_at(self, x: int, y: int) -> None:
        self.need().long_press(x, y)
        self._settle()

    def swipe_at(self, x1: int, y1: int, x2: int, y2: int) -> None:
        self.need().swipe(x1, y1, x2, y2)
        self._settle()

    def input_text(self, text: str) -> None:
        self.need().type_text(text)
        self._settle()

    def clear_field(self) -> None:
        focused = next((n for n in self.ui_hierarchy().iter() if n.flag("focused")), None)
        if focused is None:
            raise ActionFailed("no text field has the focus: tap the field first")
        # Android has no "select all" key before 13; deleting back from the end works on
        # every version (one more than the text, in case the dump trims it).
        self.need().delete_chars(len(focused.text) + 1)
        self._settle()

    def press_key(self, key: str) -> None:
        self.need().key(key)
        self._settle()

    def open_drawer(self) -> None:
        device = self.need()
        width, height = self.screen_size()
        device.key("home")
        device.swipe(width // 2, height * 17 // 20, width // 2, height // 5, 400)
        self._settle()

    # --------------------------------------------------------------- helpers
    def launch(self, package: str, activity: str | None = None) -> None:
        """Start an app (setup steps use this; the agent opens apps by touch)."""
        self.need().launch(package, activity)
        self._settle()

    def _changed(self) -> None:
        self._xml = None

    def _settle(self) -> None:
        """Forget the cached dump; with ``settle="stable"``, wait for the UI to stop."""
        self._changed()
        if self.settle_mode != "stable":
            return
        previous = self.need().dump_ui()

        def stable() -> str | None:  # two dumps in a row alike; a dump takes its own time
            nonlocal previous
            current, same = self.need().dump_ui(), None
            if current == previous:
                same = current
            previous = current
            return same

        self._xml = wait_until(stable, self.settle_timeout, interval=0.0)
