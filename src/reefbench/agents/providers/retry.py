"""One retry loop for every provider, so backoff and error reporting do not depend on
which SDK is underneath."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from reefbench.agents.providers.base import ProviderError, RetryPolicy

T = TypeVar("T")
log = logging.getLogger("reefbench.agents.providers")

# Transport exceptions of httpx/httpx2 (and their aliases) that a retry may cure.
_TRANSIENT_TRANSPORT = frozenset(
    {
        "TimeoutException",
        "ConnectError",
        "ReadError",
        "WriteError",
        "RemoteProtocolError",
        "NetworkError",
        "APITimeoutError",
        "APIConnectionError",
    }
)
RETRY_STATUS = frozenset({408, 409, 429})


class EmptyReply(Exception):
    """The server answered 200 with nothing in it: no choices (OpenAI), no content blocks
    (Anthropic), no candidates or no parts (Gemini).

    That is the server failing, not the model choosing an action, so it is retried like a
    5xx and, if it persists, ends the episode as ``agent_error`` — never as the agent's own
    ``invalid_action``.
    """


def transient_status(status: int | None) -> bool:
    """Rate limits, request timeouts, conflicts and server errors are worth retrying."""
    return status is not None and (status in RETRY_STATUS or status >= 500)


def transient_transport(exc: BaseException) -> bool:
    return any(cls.__name__ in _TRANSIENT_TRANSPORT for cls in type(exc).__mro__)


def retry_after(exc: BaseException) -> float | None:
    """The server's ``Retry-After`` (seconds) if the exception carries a response."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def call_with_retries(
    label: str,
    send: Callable[[], T],
    is_transient: Callable[[Exception], bool],
    policy: RetryPolicy,
    *,
    secrets: tuple[str, ...] = (),
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> T:
    """Run ``send`` until it succeeds, retrying transient failures with backoff.

    ``send`` should also turn the response into the reply, so that an
    :class:`EmptyReply` it raises is retried too.

    Raises:
        ProviderError: a permanent failure, or a transient one that outlasted the policy.
            Its message never contains ``secrets`` and does not chain the SDK exception
            (whose request object could carry credentials).
    """
    rng = rng or random.Random()
    attempts = max(1, policy.attempts)
    for attempt in range(attempts):
        try:
            return send()
        except Exception as exc:
            what = _describe(exc, secrets)
            if not (isinstance(exc, EmptyReply) or is_transient(exc)):
                raise ProviderError(f"{label}: request failed: {what}") from None
            if attempt + 1 >= attempts:
                raise ProviderError(f"{label}: gave up after {attempts} attempts: {what}") from None
            full = min(policy.cap, policy.base * 2.0**attempt)
            delay = full / 2 + rng.uniform(0, full / 2)
            hinted = retry_after(exc)
            if hinted is not None and delay < hinted <= policy.cap:
                delay = hinted
            log.info(
                "%s: attempt %d failed (%s); retrying in %.2fs", label, attempt + 1, what, delay
            )
            sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def _describe(exc: BaseException, secrets: tuple[str, ...]) -> str:
    status = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    prefix = f"{type(exc).__name__}" + (f" (HTTP {status})" if isinstance(status, int) else "")
    detail = " ".join(str(exc).split())[:300]
    return scrub(f"{prefix}: {detail}" if detail else prefix, secrets)
