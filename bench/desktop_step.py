"""Speed and size of the desktop environment: step, reset, screenshot, memory.

One real :class:`reefbench.envs.desktop.DesktopEnvironment` (Xvfb 1280x800, bubblewrap
sandbox, openbox, AT-SPI reader) is started; every figure is the median over
``REPETITIONS`` (≥ 20) runs, timed with ``time.perf_counter``.

``desktop_step_latency``
    One agent step as the episode runs it: ``env.step`` of an input action (alternately
    ``write_text("ab")`` and ``press("backspace")`` into mousepad's text area), which
    includes waiting until the screen is stable (60 ms of no change), then
    ``env.observe()``: a screenshot, the accessibility tree, Set-of-Marks (no OCR), the
    marked screenshot encoded as PNG and the element list. Target ≤ 0.3 s; CRAB sleeps
    ≥ 1 s after every desktop action plus 2 s per turn.
``desktop_step_settle`` / ``desktop_observe``
    The two halves of the step above, measured separately.
``desktop_reset_time``
    ``env.reset()`` with mousepad open before it: restore the home from the baseline,
    restart the sandbox (buses, window manager), restart the accessibility reader, health
    check. ``desktop_reset_time_with_app`` also reopens a session app (the terminal) and
    waits for its window. Target ≤ 2 s.
``desktop_screenshot``
    One raw grab of the display (mss). ``desktop_screenshot_png`` adds PNG encoding of
    the unmarked frame. Target ≤ 30 ms (the grab).
``desktop_memory_rss`` / ``desktop_memory_pss``
    Memory of every process of the instance (Xvfb, bwrap, dbus, AT-SPI, openbox,
    xfce4-terminal, mousepad, the reader) with the terminal and the editor open: RSS summed
    (shared pages counted per process, an upper bound) and PSS (shared pages split).
    Target ≤ 400 MB.

Usage: ``python bench/desktop_step.py`` (prints one JSON object per line).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from reefbench.envs import procs
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import setup as st
from reefbench.perception.image import encode_png

REPETITIONS = 25


def emit(metric: str, value: float, unit: str) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 4), "unit": unit}), flush=True)


def median_of(run: Callable[[], object], repetitions: int = REPETITIONS) -> float:
    times = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    env = DesktopEnvironment(ocr="never")
    env.start()
    try:
        env.reset()
        env.execute(st.open_app(app="editor"))
        env.observe()
        text = next(m for m in env.snapshot.marks.marks if m.role == "text")  # type: ignore[union-attr]
        env.step("click", {"elem": text.id})
        calls = [("write_text", {"text": "ab"}), ("press", {"key": "backspace"})]
        step_times, settle_times, observe_times = [], [], []
        for i in range(REPETITIONS):
            name, args = calls[i % 2]
            t0 = time.perf_counter()
            env.step(name, args)
            t1 = time.perf_counter()
            observation = env.observe()
            t2 = time.perf_counter()
            assert observation["screenshot"].startswith(b"\x89PNG")
            step_times.append(t2 - t0)
            settle_times.append(t1 - t0)
            observe_times.append(t2 - t1)
        emit("desktop_step_latency", statistics.median(step_times), "s")
        emit("desktop_step_settle", statistics.median(settle_times), "s")
        emit("desktop_observe", statistics.median(observe_times), "s")

        emit("desktop_screenshot", median_of(env.screen.grab), "s")
        emit(
            "desktop_screenshot_png", median_of(lambda: encode_png(env.screen.grab().image())), "s"
        )

        env.execute(st.open_app(app="terminal"))
        pids = env.pids()
        emit("desktop_memory_rss", procs.rss_bytes(pids) / 1e6, "MB")
        emit("desktop_memory_pss", procs.pss_bytes(pids) / 1e6, "MB")

        resets = []
        for _ in range(REPETITIONS):
            env.execute(st.open_app(app="editor"))
            t0 = time.perf_counter()
            env.reset()
            resets.append(time.perf_counter() - t0)
        emit("desktop_reset_time", statistics.median(resets), "s")
    finally:
        env.stop()

    with_app = DesktopEnvironment(apps=["terminal"], ocr="never")
    with_app.start()
    try:
        emit("desktop_reset_time_with_app", median_of(with_app.reset), "s")
    finally:
        with_app.stop()


if __name__ == "__main__":
    main()
