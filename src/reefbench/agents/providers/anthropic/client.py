"""The one place Anthropic's official SDK client is made, for its chat provider
(:mod:`.chat`) and its computer-use interface (:mod:`.computer_use`) alike: the SDK is
imported here, lazily, so a missing extra is a one-line error when a run asks for it."""

from __future__ import annotations

from typing import Any

from reefbench.errors import ConfigError


def sdk_client(api_key: str, base_url: str | None, timeout: float) -> Any:
    """The official SDK's client, as every Anthropic agent uses it (chat and computer
    use): the SDK's own retries off, since one retry policy serves all providers.

    Raises:
        ConfigError: the ``anthropic`` package is not installed (names the extra).
    """
    try:
        import anthropic
    except ImportError:
        raise ConfigError(
            "the anthropic provider needs the anthropic package: pip install 'reefbench[anthropic]'"
        ) from None
    return anthropic.Anthropic(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
