"""An Android device as a handful of ADB operations (no waiting, no agent logic).

Every method builds one or a few argument vectors (see :mod:`.shell` for how agent text is
quoted for the device shell) and sends them through an
:class:`~reefbench.envs.android.transport.AdbTransport`.
"""

from __future__ import annotations

from reefbench.envs.android.shell import (
    check_component,
    check_package,
    parse_foreground,
    parse_screen_size,
    text_commands,
)
from reefbench.envs.android.transport import AdbResult, AdbTransport
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure

DUMP_PATH = "/sdcard/window_dump.xml"
_KEYS = {"home": "KEYCODE_HOME", "back": "KEYCODE_BACK", "enter": "KEYCODE_ENTER"}


class AndroidDevice:
    """ADB operations on one device.

    Args:
        transport: Where the argument vectors go (a real ``adb`` or a script).
        ime: How non-ASCII text is typed: ``"input"`` (refused) or ``"adbkeyboard"``.
        timeout: Seconds each adb command may take.
    """

    def __init__(self, transport: AdbTransport, ime: str = "input", timeout: float = 30.0):
        if ime not in ("input", "adbkeyboard"):
            raise ConfigError(f"ime must be 'input' or 'adbkeyboard', not {ime!r}")
        self.transport = transport
        self.ime = ime
        self.timeout = timeout

    def run(self, *args: str, check: bool = True) -> AdbResult:
        result = self.transport.run(list(args), self.timeout)
        if check and result.returncode != 0:
            detail = (result.stderr or result.stdout).decode("utf-8", "replace").strip()
            raise EnvironmentFailure(
                f"adb {' '.join(args[:4])} failed (exit {result.returncode}): {detail[:300]}"
            )
        return result

    # ----------------------------------------------------------------- state
    def state(self) -> str:
        """``device`` when ready (``offline``, ``unauthorized`` ... otherwise)."""
        return self.run("get-state", check=False).text.strip() or "unknown"

    def screen_size(self) -> tuple[int, int]:
        size = parse_screen_size(self.run("shell", "wm", "size").text)
        if size is None:
            raise EnvironmentFailure("cannot read the screen size from `wm size`")
        return size

    def screencap(self) -> bytes:
        """The screen as PNG bytes."""
        png = self.run("exec-out", "screencap", "-p").stdout
        if not png.startswith(b"\x89PNG"):
            raise EnvironmentFailure("screencap did not return a PNG")
        return png

    def dump_ui(self) -> str:
        """The window hierarchy (``uiautomator dump``; it waits for the UI to idle)."""
        done = self.run("shell", "uiautomator", "dump", DUMP_PATH, check=False)
        if done.returncode != 0 or b"ERROR" in done.stdout + done.stderr:
            detail = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
            raise EnvironmentFailure(f"uiautomator dump failed: {detail[:300]}")
        return self.run("exec-out", "cat", DUMP_PATH).text

    def foreground(self) -> tuple[str, str | None] | None:
        """``(package, activity)`` of the resumed activity."""
        found = parse_foreground(self.run("shell", "dumpsys", "activity", "activities").text)
        if found is None:
            found = parse_foreground(self.run("shell", "dumpsys", "window").text)
        return found

    # ----------------------------------------------------------------- input
    def tap(self, x: int, y: int) -> None:
        self.run("shell", "input", "tap", str(x), str(y))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, ms: int = 300) -> None:
        self.run("shell", "input", "swipe", str(x1), str(y1), str(x2), str(y2), str(ms))

    def long_press(self, x: int, y: int, ms: int = 1000) -> None:
        """A swipe that does not move: Android's own way to hold a finger down."""
        self.swipe(x, y, x, y, ms)

    def key(self, name: str) -> None:
        keycode = _KEYS.get(name)
        if keycode is None:
            raise ActionFailed(f"unknown key {name!r}; use one of {', '.join(_KEYS)}")
        self.run("shell", "input", "keyevent", keycode)

    def delete_chars(self, count: int) -> None:
        """Move to the end of the focused field and delete ``count`` characters back."""
        self.run("shell", "input", "keyevent", "KEYCODE_MOVE_END", *["KEYCODE_DEL"] * count)

    def type_text(self, text: str) -> None:
        for argv in text_commands(text, self.ime):
            self.run(*argv)

    # ------------------------------------------------------------------ apps
    def launch(self, package: str, activity: str | None = None) -> None:
        """Start an app: its launcher activity, or ``package/activity`` explicitly."""
        check_package(package)
        if activity:
            component = check_component(f"{package}/{activity}")
            self.run("shell", "am", "start", "-W", "-n", component)
        else:
            self.run(
                "shell", "monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"
            )

    def force_stop(self, package: str) -> None:
        self.run("shell", "am", "force-stop", check_package(package))

    def clear_data(self, package: str) -> None:
        """Erase an app's data (``pm clear``): the app starts as freshly installed."""
        done = self.run("shell", "pm", "clear", check_package(package))
        if "Success" not in done.text:
            raise EnvironmentFailure(f"pm clear {package} failed: {done.text.strip()[:200]}")

    def installed(self, package: str) -> bool:
        listed = self.run("shell", "pm", "list", "packages", check_package(package)).text
        return f"package:{package}" in listed.split()
