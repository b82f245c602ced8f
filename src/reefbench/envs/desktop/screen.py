"""Screenshots of one X display with mss, and waiting until the screen stops changing.

mss grabs 1280x800 in a few milliseconds, so "the UI has settled" is measured directly:
the screen is stable once no pixel changed for a quiet period. This replaces the fixed
one-second sleeps CRAB puts after every desktop action.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reefbench.plumbing.waiting import wait_until

if TYPE_CHECKING:
    from PIL import Image as PILImage


@dataclass(frozen=True)
class Frame:
    """One raw screenshot: BGRA bytes plus size (cheap to compare, converted on demand)."""

    raw: bytes
    width: int
    height: int

    def image(self) -> PILImage.Image:
        from PIL import Image

        return Image.frombuffer("RGB", (self.width, self.height), self.raw, "raw", "BGRX", 0, 1)


@dataclass(frozen=True)
class Settle:
    """How a wait for a stable screen ended."""

    stable: bool
    changed: bool
    seconds: float


class Screen:
    """Grabs frames of one display; one mss handle per thread (mss is not thread-safe)."""

    def __init__(self, display: str) -> None:
        self.display = display
        self._local = threading.local()
        self._handles: list[Any] = []
        self._lock = threading.Lock()

    def _mss(self) -> Any:
        handle = getattr(self._local, "mss", None)
        if handle is None:
            import mss

            factory = getattr(mss, "MSS", None) or mss.mss
            handle = factory(display=self.display)
            self._local.mss = handle
            with self._lock:
                self._handles.append(handle)
        return handle

    def grab(self) -> Frame:
        sct = self._mss()
        shot = sct.grab(sct.monitors[1])
        return Frame(bytes(shot.raw), shot.width, shot.height)

    def wait_stable(
        self,
        *,
        before: Frame | None = None,
        quiet: float = 0.06,
        timeout: float = 3.0,
        interval: float = 0.008,
    ) -> tuple[Frame, Settle]:
        """Wait until no pixel has changed for ``quiet`` seconds (or ``timeout`` passes).

        Args:
            before: The frame from before an action; reported as ``changed`` when the
                settled frame differs from it.
            quiet: How long the screen must stay identical to count as stable.
            timeout: Deadline; the latest frame is returned with ``stable=False``.
            interval: Polling period.
        """
        start = time.monotonic()
        frame: Frame | None = None
        last_change = start

        def quiet_long_enough() -> bool:
            nonlocal frame, last_change
            current = self.grab()
            if frame is None:
                frame = current
            elif current.raw != frame.raw:
                frame, last_change = current, time.monotonic()
            return time.monotonic() - last_change >= quiet

        stable = bool(wait_until(quiet_long_enough, timeout, interval=interval))
        assert frame is not None  # the predicate ran at least once
        changed = before is not None and before.raw != frame.raw
        return frame, Settle(stable, changed, time.monotonic() - start)

    def close(self) -> None:
        with self._lock:
            for handle in self._handles:
                with contextlib.suppress(Exception):
                    handle.close()
            self._handles.clear()
        self._local = threading.local()
