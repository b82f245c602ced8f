"""The one place Gemini's official SDK client is made, for its chat provider
(:mod:`.chat`) and its computer-use interface (:mod:`.computer_use`) alike: the SDK is
imported here, lazily, so a missing extra is a one-line error when a run asks for it."""

from __future__ import annotations

from typing import Any

from reefbench.errors import ConfigError

API_VERSION = "v1beta"  # function calling and system instructions live here


def sdk_client(api_key: str, base_url: str | None, timeout: float) -> tuple[Any, Any]:
    """The official SDK's client and its ``types`` module, as every Gemini agent uses them
    (chat and computer use).

    ``retry_options`` stays unset: the SDK then tries once and retry.py does the rest.

    Raises:
        ConfigError: the ``google-genai`` package is not installed (names the extra).
    """
    try:
        from google import genai
        from google.genai import types
    except ImportError:
        raise ConfigError(
            "the google provider needs the google-genai package: pip install 'reefbench[google]'"
        ) from None
    http = types.HttpOptions(
        base_url=base_url,
        api_version=API_VERSION,
        timeout=int(timeout * 1000),  # milliseconds
    )
    return genai.Client(api_key=api_key, vertexai=False, http_options=http), types
