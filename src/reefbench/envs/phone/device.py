"""``PhoneDevice``: an Android-like phone made of Chromium in mobile emulation.

A Pixel-sized touch screen (412x915 CSS pixels, device scale 2.625, mobile user agent)
shows the phone shell (:mod:`.shell`): status bar with the task's clock, launcher, app
drawer, navigation bar, the phone's own Settings and Phone apps, and the local services'
apps as the phone's apps. The agent uses CRAB's Android actions; observations are a
screenshot with Set-of-Marks and a uiautomator dump generated from the DOM, so the XML
evaluators of :mod:`reefbench.envs.ui.evaluators` read this phone and a real one alike.

Reset replaces the browser context (cookies, history, open app) and restores the phone's
settings and call log; the services reset themselves as their own environment.

This module is the device (its mechanics and lifecycle); the environment agents and tasks
use, with its action and observation spaces, is
:class:`~reefbench.envs.phone.environment.PhoneEnvironment`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal
from urllib.parse import urlsplit

from reefbench.envs.accounts import Account
from reefbench.envs.browser.settle import (
    INIT_SCRIPT,
    SCROLL_COUNT,
    RequestTracker,
    settle,
    wait_for_scroll,
)
from reefbench.envs.chromium import Chromium, close_context
from reefbench.envs.phone.catalog import SHELL_PREFIX, installed_apps
from reefbench.envs.phone.shell import STATIC_DIR as STATIC
from reefbench.envs.phone.shell import PhoneShell
from reefbench.envs.phone.system import (
    PhoneState,
    clock_label,
    date_label,
    only_the_clock_changed,
    parse_now,
)
from reefbench.envs.phone.xmldump import dump_page
from reefbench.envs.ui.device import MARKS_NOTE, PIXELS_NOTE, TouchEnvironment, TouchSnapshot
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure
from reefbench.perception.marks import FIELDS_SENTENCE
from reefbench.tasks.sideeffects import Change
from reefbench.tasks.worldtime import DEFAULT_NOW, WorldClock

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, CDPSession, Page, Route

    from reefbench.actions.spec import Action


PIXEL_USER_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
STANDALONE_ORIGIN = "http://phone.invalid"
# The phone's element list also carries values and static text (what pixels rewrites).
PHONE_MARKS_NOTE = f"{MARKS_NOTE} {FIELDS_SENTENCE} A field is named by its label."
# What each action set rewrites in the description (Environment.action_set_descriptions).
SET_DESCRIPTIONS = {"pixels": {PHONE_MARKS_NOTE: PIXELS_NOTE}}
DESCRIPTION = (
    "An Android smartphone. " + PHONE_MARKS_NOTE + " Tap a text field before writing "
    "into it. The home screen shows some apps; show_all_drawer() lists all of them. "
    "press('back') goes back, press('home') returns to the home screen."
)
SERVICES_NOTE = (
    " Its apps Mail, Calendar, Contacts, Tasks, Notes, Files, Messages, Maps, Clock and "
    "Account use the user's cloud account, signed in and shared with the computer."
)
# Held long enough for a long press (Chromium's threshold is 0.5 s), as a finger would.
LONG_PRESS_MS = 800
SWIPE_STEPS = 10


class PhoneDevice(TouchEnvironment):
    """The phone's mechanics; :class:`~reefbench.envs.phone.environment.PhoneEnvironment`
    gives it its spaces.

    Args:
        name: Environment name in tasks.
        services: The local services; their apps become the phone's apps, signed in.
        now: The phone's clock (``YYYY-MM-DDTHH:MM``); default: the services' account
            clock, or :data:`reefbench.tasks.worldtime.DEFAULT_NOW` without services.
        width: Screen width in CSS pixels.
        height: Screen height in CSS pixels.
        device_scale_factor: Device pixels per CSS pixel (the dump's bounds are device
            pixels, as on Android).
        screenshot_scale: ``"css"`` (412 px wide, fast) or ``"device"`` (full resolution).
        observe_xml: Also give the agent the raw XML each step.
        quiet: Seconds the screen's DOM must stay unchanged before an action counts as done.
        settle_timeout: Deadline of that wait.
        chromium_args: Extra Chromium switches.
        lazy_reset: Skip resets while nothing acted on the phone (see
            :class:`~reefbench.environments.contract.Environment`).
    """

    # The client the account attributes this device's changes to.
    account_client: ClassVar[str] = "phone"

    @classmethod
    def observations(cls, observe_xml: bool) -> Sequence[Action]:
        """The observation space (the environment's; the device itself observes nothing):
        with ``observe_xml``, the raw UI dump too."""
        return cls.default_observation_space

    def __init__(
        self,
        name: str = "phone",
        *,
        services: Account | None = None,
        now: str | None = None,
        width: int = 412,
        height: int = 915,
        device_scale_factor: float = 2.625,
        screenshot_scale: str = "css",
        observe_xml: bool = False,
        quiet: float = 0.04,
        settle_timeout: float = 5.0,
        chromium_args: tuple[str, ...] = (),
        lazy_reset: bool = False,
        clock: WorldClock | None = None,
    ) -> None:
        if screenshot_scale not in ("css", "device"):
            raise ConfigError(
                f"screenshot_scale must be 'css' or 'device', not {screenshot_scale!r}"
            )
        super().__init__(
            name,
            DESCRIPTION + (SERVICES_NOTE if services is not None else ""),
            action_space=self.default_action_space,
            observation_space=self.observations(observe_xml),
            lazy_reset=lazy_reset,
        )
        self.services = services
        self.baseline = PhoneState(now=parse_now(now) if now else None)
        self.state = self.baseline.copy()
        # The time shown ticks on from the task's start time by the seconds since reset.
        self.world_clock = clock or WorldClock()
        self._account_now: str | None = None  # the account's start time, as last told
        self._shown_clock: str | None = None  # the minute the status bar shows
        self.viewport = {"width": width, "height": height}
        self.dpr = device_scale_factor
        self.screenshot_scale = screenshot_scale
        self.quiet = quiet
        self.settle_timeout = settle_timeout
        self.apps = installed_apps(services is not None)
        self.shell = PhoneShell(self.apps, lambda: self.state, self.clock)
        # Site isolation would put the app frame in a second renderer; it is same-origin
        # anyway, and one renderer per phone keeps memory down.
        self.chromium = Chromium(("--disable-site-isolation-trials", *chromium_args))
        self.context: BrowserContext | None = None
        self.tracker: RequestTracker | None = None
        self._page: Page | None = None
        self._cdp: CDPSession | None = None
        self._shown_scheme: Literal["light", "dark"] = "light"
        self.origin = STANDALONE_ORIGIN

    # ------------------------------------------------------------- lifecycle
    def on_start(self) -> None:
        if self.services is not None:
            self.services.start()
            self.origin = self.services.url
        self.chromium.start()
        self.world_clock.reset()
        try:
            self._fresh_context()
        except BaseException:
            self.on_stop()
            raise
        if self.services is not None:
            # A setup that loads a world or fixes the clock after this reset: the status
            # bar and the home screen show the task's world time, not the reset's.
            self.services.follow_clock(self._clock_moved)

    def on_reset(self) -> None:
        self.state = self.baseline.copy()
        self.world_clock.reset()
        self._fresh_context()

    def on_stop(self) -> None:
        self._close_context()
        self.chromium.stop()

    def on_health(self) -> bool:
        return self.chromium.alive() and self._page is not None and not self._page.is_closed()

    def pids(self) -> list[int]:
        return self.chromium.pids()

    def memory_bytes(self) -> int:
        """Resident memory of this phone's Chromium processes, summed."""
        return self.chromium.memory_bytes()

    def _close_context(self) -> None:
        context = self.context
        self.context = self.tracker = self._page = self._cdp = None
        self.forget_observation()
        close_context(context)

    def _fresh_context(self) -> None:
        self._close_context()
        self._shown_clock = None
        # The account attributes what this context changes to the phone (see BrowserDevice).
        context = self.chromium.new_context(
            f"phone '{self.name}'",
            init_scripts=(INIT_SCRIPT, LONG_PRESS_SCRIPT),
            account=self.services,
            client=self.account_client,
            viewport=self.viewport,
            device_scale_factor=self.dpr,
            is_mobile=True,
            has_touch=True,
            user_agent=PIXEL_USER_AGENT,
            color_scheme=self._scheme(),
        )
        context.route(f"{self.origin}{SHELL_PREFIX}/**", self._route)
        self.context = context
        self._shown_scheme = self._scheme()
        self.tracker = RequestTracker(context)
        page = context.new_page()
        self._page = page
        self._cdp = context.new_cdp_session(page)
        page.goto(f"{self.origin}{SHELL_PREFIX}/shell", wait_until="load")
        self.settle()

    def _route(self, route: Route) -> None:
        request = route.request
        parts = urlsplit(request.url)
        response = self.shell.handle(
            request.method, parts.path, parts.query, request.post_data_buffer or b""
        )
        route.fulfill(
            status=response.status, content_type=response.content_type, body=response.body
        )

    # --------------------------------------------------------------- state
    @property
    def page(self) -> Page:
        if self._page is None:
            raise EnvironmentFailure(f"phone '{self.name}' is not started")
        return self._page

    def clock(self) -> str:
        """The phone's time (``YYYY-MM-DDTHH:MM``): its own start time (``set_now``), else
        the account's (the task's), else :data:`DEFAULT_NOW`, ticked on by the time since
        the phone's reset as every device's clock is (:class:`WorldClock`)."""
        now = self.world_clock.now(self._start_time())
        return now.strftime("%Y-%m-%dT%H:%M")

    def _start_time(self) -> str:
        if self.state.now:
            return self.state.now
        if self.services is not None and self.services.started:
            if self._account_now is None:
                self._account_now = self.services.settings().get("now") or DEFAULT_NOW
            return parse_now(self._account_now)
        return DEFAULT_NOW

    # ---------------------------------------------------------- side effects
    def on_state_snapshot(self) -> tuple[dict[str, bool | str], list[dict[str, str]]]:
        """The phone's own state: its settings and call log (the account's rows are the
        services environment's)."""
        return dict(self.state.settings), list(self.state.calls)

    def on_state_changes(
        self, before: tuple[dict[str, bool | str], list[dict[str, str]]]
    ) -> list[Change]:
        settings, calls = before
        found = [
            Change(f"phone-setting:{key}", f"setting {key} changed {old!r} -> {new!r}")
            for key in sorted(settings.keys() | self.state.settings.keys())
            if (old := settings.get(key)) != (new := self.state.settings.get(key))
        ]
        for call in self.state.calls[len(calls) :]:
            digits = "".join(ch for ch in call["number"] if ch.isdigit())
            found.append(Change(f"calls:{digits}", f"{call['kind']} call to {call['number']}"))
        return found

    def on_state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        """The phone's settings by value (the account's keys go to ``services``)."""
        prefix = "phone-setting:"
        return {
            k: repr(self.state.settings.get(k[len(prefix) :])) for k in keys if k.startswith(prefix)
        }

    def set_setting(self, key: str, value: Any) -> None:
        """Change a system setting (setup steps); the screen follows at once."""
        self.state.set(key, value)
        self._push_state()
        self._follow_theme()

    def set_now(self, now: str) -> None:
        self.state.now = parse_now(now)
        self._push_state()

    def _clock_moved(self, now: str) -> None:
        self._account_now = now
        if self.state.now is None:  # else the phone's own clock (set_now) stands
            self._push_state()

    def _push_state(self) -> None:
        if self._page is not None and not self._page.is_closed():
            now = self.clock()
            self.page.evaluate(
                "(s) => window.phone && window.phone.applyState(s)", self.state.as_json(now)
            )
            self._draw_clock(now)

    def _show_clock(self) -> None:
        """Redraw the status bar's clock and the home screen's date if the minute moved
        since they were drawn: the page draws them only on events, and every dump and
        screenshot must show the time the phone has now."""
        if self._page is None or self._page.is_closed():
            return
        now = self.clock()
        if now != self._shown_clock:
            self._draw_clock(now)

    def _draw_clock(self, now: str) -> None:
        self.page.evaluate(
            """([clock, day]) => {
              const c = document.getElementById('clock'); if (c) c.textContent = clock;
              const d = document.getElementById('date_widget'); if (d) d.textContent = day;
            }""",
            [clock_label(now), date_label(now)],
        )
        self._shown_clock = now

    def _scheme(self) -> Literal["light", "dark"]:
        return "dark" if self.state.settings.get("dark_mode") else "light"

    def _follow_theme(self) -> None:
        """Apps follow the phone's Dark theme through ``prefers-color-scheme``, as pages in
        Android's Chrome do (the shell's own pages switch by class at once)."""
        wanted = self._scheme()
        if self._page is not None and wanted != self._shown_scheme:
            self._page.emulate_media(color_scheme=wanted)
            self._shown_scheme = wanted

    def settle(self) -> bool:
        self._follow_theme()
        return settle(self.page, self.tracker, quiet=self.quiet, timeout=self.settle_timeout)

    def on_settle_view(self, timeout: float) -> bool:
        """The screen (shell and app frame) has settled before anything reads it; the
        primitives already wait for that, so this is usually one probe."""
        return settle(self.page, self.tracker, quiet=self.quiet, timeout=timeout)

    # ------------------------------------------------------ device primitives
    def screen_size(self) -> tuple[int, int]:
        return round(self.viewport["width"] * self.dpr), round(self.viewport["height"] * self.dpr)

    def observe_now(self) -> TouchSnapshot:
        """Dump, number and photograph the screen; when all that changed since the last
        observation is the status bar's minute, the last screenshot is kept (a clock
        ticking is not the phone changing: an observation policy would resend it)."""
        before = self.snapshot
        snapshot = super().observe_now()
        if before is not None and only_the_clock_changed(before, snapshot):
            snapshot = self.snapshot = replace(snapshot, png=before.png)
        return snapshot

    def dump_xml(self) -> str:
        self._show_clock()
        return dump_page(self.page, self.dpr)

    def capture_png(self) -> tuple[bytes, float]:
        self._show_clock()
        scale: Literal["css", "device"] = "css" if self.screenshot_scale == "css" else "device"
        png = self.page.screenshot(type="png", scale=scale, animations="disabled", caret="initial")
        return png, (1.0 / self.dpr if self.screenshot_scale == "css" else 1.0)

    def current_package(self) -> str | None:
        status: dict[str, Any] = self.page.evaluate("() => window.phone.status()")
        return str(status["package"])

    def _css(self, x: int, y: int) -> tuple[float, float]:
        return x / self.dpr, y / self.dpr

    def tap_at(self, x: int, y: int) -> None:
        self.page.touchscreen.tap(*self._css(x, y))
        self.settle()

    def long_tap_at(self, x: int, y: int) -> None:
        """Touch, hold for :data:`LONG_PRESS_MS`, release (the hold is the gesture itself)."""
        cx, cy = self._css(x, y)
        cdp = self._need_cdp()
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": cx, "y": cy}]}
        )
        self.page.wait_for_timeout(LONG_PRESS_MS)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.settle()

    def swipe_at(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """A finger drag in :data:`SWIPE_STEPS` moves 16 ms apart, held still at the end so
        the list stops where the finger does (no fling)."""
        cx, cy = self._css(x1, y1)
        ex, ey = self._css(x2, y2)
        cdp = self._need_cdp()
        t0 = time.time()

        def touch(kind: str, x: float, y: float, step: int) -> None:
            points = [{"x": x, "y": y}] if kind != "touchEnd" else []
            cdp.send(
                "Input.dispatchTouchEvent",
                {"type": kind, "touchPoints": points, "timestamp": t0 + 0.016 * step},
            )

        before = self.page.evaluate(SCROLL_COUNT)
        touch("touchStart", cx, cy, 0)
        for step in range(1, SWIPE_STEPS + 1):
            f = step / SWIPE_STEPS
            touch("touchMove", cx + (ex - cx) * f, cy + (ey - cy) * f, step)
        for step in range(SWIPE_STEPS + 1, SWIPE_STEPS + 4):
            touch("touchMove", ex, ey, step)
        touch("touchEnd", ex, ey, SWIPE_STEPS + 4)
        wait_for_scroll(self.page, before, timeout=0.3)
        self.settle()

    def input_text(self, text: str) -> None:
        editable = self.page.evaluate(_FOCUSED_EDITABLE)
        if not editable:
            raise ActionFailed("no text field has the focus: tap the field first")
        keyboard = self.page.keyboard
        for number, line in enumerate(text.split("\n")):
            if number:
                keyboard.press("Enter")
            if line:
                keyboard.insert_text(line)
        self.settle()

    def clear_field(self) -> None:
        if not self.page.evaluate(_FOCUSED_EDITABLE):
            raise ActionFailed("no text field has the focus: tap the field first")
        # Select all and delete, as a hardware keyboard would: the page sees the same
        # key and input events as for typing, in whichever frame has the focus.
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Delete")
        self.settle()

    def press_key(self, key: str) -> None:
        if key == "home":
            self.page.evaluate("() => window.phone.home()")
        elif key == "back":
            self.page.evaluate("() => window.phone.back()")
        else:
            raise ActionFailed(f"the phone has no {key!r} button; use 'home' or 'back'")
        self.settle()

    def open_drawer(self) -> None:
        self.page.evaluate("() => window.phone.openDrawer()")
        self.settle()

    def open_app(self, package: str) -> None:
        """Bring an app to the front (setup steps use this; agents tap icons)."""
        if not self.page.evaluate("(p) => window.phone.open(p)", package):
            known = ", ".join(a.package for a in self.apps)
            raise ActionFailed(f"no app {package!r} on this phone (installed: {known})")
        self.settle()

    def _need_cdp(self) -> CDPSession:
        if self._cdp is None:
            raise EnvironmentFailure(f"phone '{self.name}' is not started")
        return self._cdp


# Headless Chromium recognises no long press from touch events; the page does it itself, as
# touch web apps do: a touch held still for 500 ms becomes a contextmenu event (what a long
# press fires on Android's Chrome) and its click is cancelled.
LONG_PRESS_SCRIPT = (STATIC / "long_press.js").read_text(encoding="utf-8")

# The focused element, looking through same-origin frames: is it a text field?
_FOCUSED_EDITABLE = (STATIC / "focused_editable.js").read_text(encoding="utf-8")
