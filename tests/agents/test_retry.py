"""The shared retry loop: exponential backoff with jitter, Retry-After, no key in errors."""

from __future__ import annotations

import random

import pytest

from reefbench.agents.providers import ProviderError, RetryPolicy
from reefbench.agents.providers.retry import call_with_retries


class Status(Exception):
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"HTTP {status} for key sk-secret")
        self.status_code = status
        self.response = type("R", (), {"headers": headers or {}})()


def transient(exc: Exception) -> bool:
    return isinstance(exc, Status) and exc.status_code in (429, 500)


def failing(*errors: Exception) -> object:
    queue = list(errors)

    def send() -> str:
        if queue:
            raise queue.pop(0)
        return "ok"

    return send


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    slept: list[float] = []
    policy = RetryPolicy(attempts=6, base=1.0, cap=5.0)
    send = failing(*[Status(500)] * 5)
    result = call_with_retries(
        "m",
        send,
        transient,
        policy,
        sleep=slept.append,
        rng=random.Random(0),  # type: ignore[arg-type]
    )
    assert result == "ok" and len(slept) == 5
    for attempt, delay in enumerate(slept):
        full = min(5.0, 2.0**attempt)
        assert full / 2 <= delay <= full
    assert len(set(slept[:3])) == 3  # jittered, not fixed


def test_retry_after_is_honoured_below_the_cap() -> None:
    slept: list[float] = []
    send = failing(Status(429, {"retry-after": "3"}), Status(429, {"retry-after": "999"}))
    call_with_retries("m", send, transient, RetryPolicy(base=0.1, cap=10), sleep=slept.append)  # type: ignore[arg-type]
    assert slept[0] == 3.0 and slept[1] < 1.0


def test_permanent_errors_and_exhaustion_raise_provider_errors_without_secrets() -> None:
    slept: list[float] = []
    with pytest.raises(ProviderError, match="request failed") as permanent:
        call_with_retries(
            "m",
            failing(Status(400)),
            transient,
            RetryPolicy(),
            secrets=("sk-secret",),
            sleep=slept.append,
        )  # type: ignore[arg-type]
    assert slept == [] and "sk-secret" not in str(permanent.value)
    assert permanent.value.__cause__ is None and permanent.value.__suppress_context__
    with pytest.raises(ProviderError, match="gave up after 2 attempts") as exhausted:
        call_with_retries(
            "m",
            failing(*[Status(500)] * 3),
            transient,
            RetryPolicy(attempts=2),
            secrets=("sk-secret",),
            sleep=slept.append,
        )  # type: ignore[arg-type]
    assert "sk-secret" not in str(exhausted.value) and "***" in str(exhausted.value)
