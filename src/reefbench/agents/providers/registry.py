"""Model strings -> providers: ``openai/gpt-4o``, ``anthropic/claude-sonnet-4-5``,
``google/gemini-2.5-pro``, ``openai-compatible/qwen2.5-vl@http://127.0.0.1:8000/v1``.

Keys come only from the harness's environment variables and go only to the provider they
belong to: an OpenAI key is never sent to an OpenAI-compatible server somewhere else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from reefbench.agents.providers.base import Provider, ProviderOptions
from reefbench.errors import ConfigError

PROVIDERS = ("openai", "anthropic", "google", "openai-compatible")
KEY_VARIABLES: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "google": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "openai-compatible": ("OPENAI_COMPATIBLE_API_KEY",),
}
_ALIASES = {"gemini": "google"}
_COMPATIBLE = re.compile(r"^(?P<model>[^@]+)@(?P<url>https?://\S+)$")
# Local servers rarely check keys, but the SDK insists on one.
_NO_KEY = "no-key"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A parsed model string."""

    provider: str
    model: str
    base_url: str | None = None

    def __str__(self) -> str:
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}/{self.model}{suffix}"


def parse_model(spec: str) -> ModelSpec:
    """Parse ``provider/model`` (``openai-compatible/model@base_url``).

    Raises:
        ConfigError: naming what is wrong and showing the expected form.
    """
    provider, slash, rest = spec.strip().partition("/")
    provider = _ALIASES.get(provider, provider)
    if not slash or not rest:
        raise ConfigError(
            f"model {spec!r}: use 'provider/model', e.g. 'openai/gpt-4o' "
            f"(providers: {', '.join(PROVIDERS)})"
        )
    if provider not in PROVIDERS:
        raise ConfigError(
            f"model {spec!r}: unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}"
        )
    if provider == "openai-compatible":
        match = _COMPATIBLE.match(rest)
        if match is None:
            raise ConfigError(
                f"model {spec!r}: an OpenAI-compatible model needs its server, e.g. "
                "'openai-compatible/qwen2.5-vl@http://127.0.0.1:8000/v1'"
            )
        url = match["url"].rstrip("/")
        if "@" in url or "?" in url:
            raise ConfigError(
                f"model {spec!r}: the server URL may not carry credentials or a query; "
                "put a key in OPENAI_COMPATIBLE_API_KEY"
            )
        return ModelSpec(provider, match["model"], url)
    if "@" in rest:
        raise ConfigError(
            f"model {spec!r}: only openai-compatible models take '@base_url'; for a "
            f"self-hosted server use 'openai-compatible/{rest}'"
        )
    return ModelSpec(provider, rest)


def api_key(provider: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The key for ``provider`` from the environment, or ``None``."""
    env = os.environ if environ is None else environ
    for variable in KEY_VARIABLES[provider]:
        value = env.get(variable, "").strip()
        if value:
            return value
    return None


def make_provider(
    spec: str | ModelSpec,
    options: ProviderOptions | None = None,
    *,
    base_url: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Provider:
    """Build the provider for a model string; ``base_url`` overrides the API root.

    Raises:
        ConfigError: bad model string, missing key variable, or missing SDK.
    """
    parsed = parse_model(spec) if isinstance(spec, str) else spec
    key = api_key(parsed.provider, environ)
    if key is None and parsed.provider != "openai-compatible":
        variables = " or ".join(KEY_VARIABLES[parsed.provider])
        raise ConfigError(f"model '{parsed}': set {variables} in the environment to use it")
    url = base_url or parsed.base_url
    if parsed.provider in ("openai", "openai-compatible"):
        from reefbench.agents.providers.openai import OpenAIProvider

        return OpenAIProvider(
            parsed.model,
            api_key=key or _NO_KEY,
            base_url=url,
            options=options,
            compatible=parsed.provider == "openai-compatible",
        )
    assert key is not None
    if parsed.provider == "anthropic":
        from reefbench.agents.providers.anthropic import AnthropicProvider

        return AnthropicProvider(parsed.model, api_key=key, base_url=url, options=options)
    from reefbench.agents.providers.gemini import GeminiProvider

    return GeminiProvider(parsed.model, api_key=key, base_url=url, options=options)
