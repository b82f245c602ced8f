"""One headless Chromium process per environment, through Playwright's sync API: the one
place the browser and the phone launch Chromium and open its contexts.

Playwright's sync API binds to the thread that starts it and allows one driver per thread,
so the driver is shared by reference count among the environments of a thread (the runner
creates and runs each worker's environments in one thread) while every environment gets
its own browser process. A marker switch on the command line finds that process in /proc,
so :meth:`Chromium.stop` can prove (and enforce) that nothing of it survives.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reefbench.envs import procs
from reefbench.envs.accounts import Account, sign_in_context
from reefbench.errors import ConfigError, EnvironmentFailure
from reefbench.plumbing.waiting import wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Playwright

# Playwright passes its own --disable-features list; a second one would replace it (the
# last switch wins) and break request interception, so none is added here.
BASE_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
    # Wheel scrolls land at once instead of animating after the action has returned.
    "--disable-smooth-scrolling",
    "--disable-breakpad",
    "--disable-crash-reporter",
)
_MARKER = "--reef-instance="
_local = threading.local()


def chromium_executable() -> str:
    """``$REEF_CHROMIUM``, else Debian's ``/usr/bin/chromium``, else ``chromium`` on PATH."""
    for candidate in (os.environ.get("REEF_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise ConfigError(
            "Chromium is not installed: apt-get install chromium (or set REEF_CHROMIUM to "
            "a Chromium executable)"
        )
    return found


def acquire_playwright() -> Playwright:
    """This thread's Playwright driver, started on first use (reference counted)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ConfigError(
            "the browser and phone environments need Playwright: pip install 'reefbench[browser]'"
        ) from None
    count = getattr(_local, "count", 0)
    if count == 0:
        _local.manager = sync_playwright()
        _local.playwright = _local.manager.start()
    _local.count = count + 1
    playwright: Playwright = _local.playwright
    return playwright


def release_playwright() -> None:
    """Drop one reference; the last one stops the driver."""
    count = getattr(_local, "count", 0)
    if count <= 0:
        return
    _local.count = count - 1
    if _local.count == 0:
        playwright, _local.playwright = _local.playwright, None
        _local.manager = None
        playwright.stop()


# ------------------------------------------------------------------ /proc
def process_tree(root: int) -> list[int]:
    """``root`` and all its live descendants."""
    return ([root] if os.path.exists(f"/proc/{root}") else []) + procs.descendants(root)


def find_marked(marker: str) -> int | None:
    """The pid whose command line contains ``marker`` (the browser process)."""
    needle = marker.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if needle in f.read():
                    return int(entry)
        except OSError:
            continue
    return None


class Chromium:
    """A headless Chromium launched with Debian's executable (no browser download).

    Args:
        args: Extra command-line switches.
        executable: Chromium to run (default: :func:`chromium_executable`).
    """

    def __init__(self, args: Sequence[str] = (), executable: str | None = None) -> None:
        self.args = list(args)
        self.executable = executable
        self.browser: Browser | None = None
        self.pid: int | None = None
        self._pids: list[int] = []
        self._holds_driver = False

    def start(self, timeout: float = 30.0) -> Browser:
        if self.browser is not None:
            return self.browser
        marker = _MARKER + uuid.uuid4().hex
        playwright = acquire_playwright()
        self._holds_driver = True
        try:
            self.browser = playwright.chromium.launch(
                executable_path=self.executable or chromium_executable(),
                headless=True,
                args=[*BASE_ARGS, *self.args, marker],
                timeout=timeout * 1000,
            )
        except Exception as exc:
            self._release()
            raise EnvironmentFailure(f"Chromium did not start: {exc}") from None
        self.pid = find_marked(marker)
        return self.browser

    def new_context(
        self,
        owner: str,
        *,
        init_scripts: Sequence[str] = (),
        account: Account | None = None,
        client: str = "",
        **options: Any,
    ) -> BrowserContext:
        """A fresh context of the started browser, as every device of it opens one.

        ``options`` go to Playwright's ``new_context`` (viewport, mobile emulation);
        ``init_scripts`` run in every frame before any page script (in this order); with an
        ``account``, the context is signed in to it as ``client``, so the account
        attributes every change the context makes to that device.

        Raises:
            EnvironmentFailure: the browser is not started (``owner`` names the device,
                ``"phone 'phone'"``).
        """
        if self.browser is None:
            raise EnvironmentFailure(f"{owner} is not started")
        context = self.browser.new_context(**options)
        for init_script in init_scripts:
            context.add_init_script(init_script)
        if account is not None:
            sign_in_context(context, account, client)
        return context

    def pids(self) -> list[int]:
        """The browser process and every helper (renderers, GPU, zygotes) it started."""
        return process_tree(self.pid) if self.pid is not None else []

    def memory_bytes(self) -> int:
        return procs.rss_bytes(self.pids())

    def alive(self) -> bool:
        return self.browser is not None and self.browser.is_connected()

    def stop(self, timeout: float = 10.0) -> None:
        """Close the browser; any process of it still alive after ``timeout`` is killed."""
        remaining = self.pids()
        browser, self.browser = self.browser, None
        if browser is not None:
            with contextlib.suppress(
                Exception
            ):  # already gone: what matters is the processes below
                browser.close()
        self._release()

        def all_gone() -> bool:
            nonlocal remaining
            remaining = [p for p in remaining if procs.alive(p)]
            return not remaining

        wait_until(all_gone, timeout, interval=0.02)
        for pid in remaining:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.pid = None

    def _release(self) -> None:
        if self._holds_driver:
            self._holds_driver = False
            release_playwright()

    def __enter__(self) -> Chromium:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def close_context(context: BrowserContext | None) -> None:
    """Close ``context`` if there is one; a browser already gone is no error (its
    processes are what :meth:`Chromium.stop` cleans up)."""
    if context is not None:
        with contextlib.suppress(Exception):
            context.close()
