"""Waiting on a condition with a deadline: the one polling loop of the project.

Waits are condition-based, never fixed sleeps (DESIGN.md): poll a cheap predicate, stop as
soon as it holds, give up at the deadline. Having one helper keeps the details right in
every caller: the predicate runs at least once even with a zero timeout, the last poll
happens at the deadline rather than one interval after it, and the clock is monotonic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    predicate: Callable[[], T],
    timeout: float,
    *,
    interval: float = 0.01,
    sleep: Callable[[float], object] = time.sleep,
) -> T | None:
    """Call ``predicate`` until it returns a truthy value; return that value, or ``None``
    when ``timeout`` seconds pass first.

    Args:
        predicate: Cheap and side-effect free (or idempotent); called every ``interval``.
        timeout: Seconds to keep trying; the predicate always runs at least once.
        interval: Seconds between polls (capped by the time left).
        sleep: How to pass the time between polls (e.g. a Playwright page's own wait, so
            its events keep flowing).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        sleep(min(interval, left))
