"""Model strings -> providers: ``openai/gpt-4o``, ``anthropic/claude-sonnet-4-5``,
``google/gemini-2.5-pro``, ``openai-compatible/qwen2.5-vl@http://127.0.0.1:8000/v1``.

Every provider registers itself once, in :data:`TABLE`: its name, key variables, SDK and
the extra that installs it, tool-schema dialect, default tool mode, whether it offers a
native computer-use interface, and how to build it. The model-string parser, ``reef run
--help``, ``reef doctor`` and ``run.json``'s versions all read that table, so adding a
provider is one entry (and its module).

Keys come only from the harness's environment variables and go only to the provider they
belong to: an OpenAI key is never sent to an OpenAI-compatible server somewhere else.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

from reefbench.agents.providers.base import Provider, ProviderOptions
from reefbench.agents.providers.dialects import SchemaDialect
from reefbench.errors import ConfigError

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


Builder = Callable[[ModelSpec, str | None, str | None, ProviderOptions | None], Provider]
# Makes a native computer-use interface (reefbench.agents.computer_use); the last argument
# holds interface settings (Anthropic's ``computer_tool`` version).
NativeBuilder = Callable[
    [ModelSpec, str | None, str | None, ProviderOptions | None, Mapping[str, str]], Any
]


@dataclass(frozen=True, slots=True)
class ProviderInfo:
    """One provider's registration.

    Attributes:
        name: The prefix of its model strings (``openai`` in ``openai/gpt-4o``).
        key_variables: Environment variables holding its key, in the order they are read.
        sdk: The import name of its official SDK (``google.genai``).
        package: The SDK's distribution on PyPI (``google-genai``), for versions.
        extra: The reefbench extra that installs the SDK (``pip install 'reefbench[extra]'``).
        dialect: The tool-schema shape its API takes
            (:func:`reefbench.agents.providers.dialects.tool_schema`).
        build: Makes the provider from a parsed model string, the key, the API root and the
            options (imports the provider module, and so the SDK, only then).
        example: The model string ``--help`` shows.
        aliases: Other prefixes accepted for it (``gemini/...``).
        key_required: ``False`` when servers usually take no key (self-hosted ones).
        tool_mode: ``native`` tool calls or ``json`` in text when the run says ``auto``.
        computer_use: The native computer-use interface reefbench drives (``None``: none),
            as ``reef run --help`` and ``reef doctor`` name it.
        native: Makes that interface (:mod:`reefbench.agents.computer_use`).
        base_url_variable: The variable its official SDK reads for another API root (a
            gateway, a proxy, a local server); ``None`` where the model string names the
            server (``openai-compatible/<model>@<base_url>``).
    """

    name: str
    key_variables: tuple[str, ...]
    sdk: str
    package: str
    extra: str
    dialect: SchemaDialect
    build: Builder
    example: str
    aliases: tuple[str, ...] = ()
    key_required: bool = True
    tool_mode: Literal["native", "json"] = "native"
    computer_use: str | None = None
    native: NativeBuilder | None = None
    base_url_variable: str | None = None

    def import_sdk(self) -> ModuleType:
        """The SDK module, or the one-line error naming the extra that installs it."""
        try:
            return importlib.import_module(self.sdk)
        except ImportError:
            raise ConfigError(
                f"the {self.name} provider needs the {self.package} package: "
                f"pip install 'reefbench[{self.extra}]'"
            ) from None


def _openai(
    spec: ModelSpec, key: str | None, url: str | None, options: ProviderOptions | None
) -> Provider:
    from reefbench.agents.providers.openai.chat import OpenAIProvider

    return OpenAIProvider(
        spec.model,
        api_key=key or _NO_KEY,
        base_url=url,
        options=options,
        compatible=spec.provider == "openai-compatible",
    )


def _anthropic(
    spec: ModelSpec, key: str | None, url: str | None, options: ProviderOptions | None
) -> Provider:
    from reefbench.agents.providers.anthropic.chat import AnthropicProvider

    return AnthropicProvider(spec.model, api_key=key or _NO_KEY, base_url=url, options=options)


def _gemini(
    spec: ModelSpec, key: str | None, url: str | None, options: ProviderOptions | None
) -> Provider:
    from reefbench.agents.providers.gemini.chat import GeminiProvider

    return GeminiProvider(spec.model, api_key=key or _NO_KEY, base_url=url, options=options)


def _anthropic_native(
    spec: ModelSpec,
    key: str | None,
    url: str | None,
    options: ProviderOptions | None,
    settings: Mapping[str, str],
) -> Any:
    from reefbench.agents.providers.anthropic.computer_use import DEFAULT_TOOL, AnthropicComputerUse

    tool = settings.get("computer_tool", DEFAULT_TOOL)
    return AnthropicComputerUse(
        spec.model, api_key=key or _NO_KEY, base_url=url, options=options, tool=tool
    )


def _openai_native(
    spec: ModelSpec,
    key: str | None,
    url: str | None,
    options: ProviderOptions | None,
    settings: Mapping[str, str],
) -> Any:
    from reefbench.agents.providers.openai.computer_use import OpenAIComputerUse

    return OpenAIComputerUse(spec.model, api_key=key or _NO_KEY, base_url=url, options=options)


def _gemini_native(
    spec: ModelSpec,
    key: str | None,
    url: str | None,
    options: ProviderOptions | None,
    settings: Mapping[str, str],
) -> Any:
    from reefbench.agents.providers.gemini.computer_use import GeminiComputerUse

    return GeminiComputerUse(spec.model, api_key=key or _NO_KEY, base_url=url, options=options)


TABLE: tuple[ProviderInfo, ...] = (
    ProviderInfo(
        "openai", ("OPENAI_API_KEY",), "openai", "openai", "openai", "openai", _openai,
        "openai/<model>", computer_use="computer_use_preview (Responses API)",
        native=_openai_native, base_url_variable="OPENAI_BASE_URL",
    ),
    ProviderInfo(
        "anthropic", ("ANTHROPIC_API_KEY",), "anthropic", "anthropic", "anthropic", "anthropic",
        _anthropic, "anthropic/<model>", computer_use="computer tool (computer_20250124 beta)",
        native=_anthropic_native, base_url_variable="ANTHROPIC_BASE_URL",
    ),
    ProviderInfo(
        "google", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "google.genai", "google-genai",
        "google", "gemini", _gemini, "google/<model>", aliases=("gemini",),
        computer_use="computer use (0-999 coordinates)", native=_gemini_native,
        base_url_variable="GOOGLE_GEMINI_BASE_URL",
    ),
    ProviderInfo(
        "openai-compatible", ("OPENAI_COMPATIBLE_API_KEY",), "openai", "openai", "openai",
        "openai", _openai, "openai-compatible/<model>@<base_url>", key_required=False,
        tool_mode="json",
    ),
)  # fmt: skip
BY_NAME: dict[str, ProviderInfo] = {info.name: info for info in TABLE}
PROVIDERS = tuple(BY_NAME)
KEY_VARIABLES: dict[str, tuple[str, ...]] = {i.name: i.key_variables for i in TABLE}
_ALIASES = {alias: info.name for info in TABLE for alias in info.aliases}


def provider_info(name: str) -> ProviderInfo:
    """A provider's registration by name (or alias)."""
    info = BY_NAME.get(_ALIASES.get(name, name))
    if info is None:
        raise ConfigError(f"unknown provider {name!r}; choose one of {', '.join(PROVIDERS)}")
    return info


def model_help() -> str:
    """What ``--model`` takes, where the keys come from and which providers have a native
    computer-use interface (for ``reef run --help``)."""
    examples = ", ".join(info.example for info in TABLE)
    variables = ", ".join(" or ".join(info.key_variables) for info in TABLE)
    native = "; ".join(f"{i.name}: {i.computer_use}" for i in TABLE if i.computer_use)
    roots = ", ".join(i.base_url_variable for i in TABLE if i.base_url_variable)
    return (
        f"Model as provider/model: {examples}. Keys come from {variables}; another API "
        f"root (a gateway, a proxy) from {roots}. "
        f"Native computer use ({native}) with --action-set pixels or a computer-use model "
        "(see --computer-use)."
    )


_COMPATIBLE = re.compile(r"^(?P<model>[^@]+)@(?P<url>https?://\S+)$")
# Local servers rarely check keys, but the SDK insists on one.
_NO_KEY = "no-key"


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
        variable = BY_NAME[provider].base_url_variable
        raise ConfigError(
            f"model {spec!r}: only openai-compatible models take '@base_url'; to send "
            f"{provider} requests to another endpoint (a gateway, a proxy) set {variable}; "
            f"for a self-hosted OpenAI-compatible server use 'openai-compatible/{rest}'"
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
    info = provider_info(parsed.provider)
    key = api_key(parsed.provider, environ)
    if key is None and info.key_required:
        variables = " or ".join(info.key_variables)
        raise ConfigError(f"model '{parsed}': set {variables} in the environment to use it")
    info.import_sdk()
    return info.build(parsed, key, base_url or parsed.base_url, options)


def make_native(
    spec: str | ModelSpec,
    options: ProviderOptions | None = None,
    *,
    settings: Mapping[str, str] | None = None,
    base_url: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """Build the native computer-use interface for a model string (the provider's SDK,
    through :mod:`reefbench.agents.computer_use`).

    Raises:
        ConfigError: bad model string, no such interface, missing key variable or SDK.
    """
    parsed = parse_model(spec) if isinstance(spec, str) else spec
    info = provider_info(parsed.provider)
    if info.native is None:
        raise ConfigError(f"model '{parsed}': the {info.name} provider has no native computer use")
    key = api_key(parsed.provider, environ)
    if key is None and info.key_required:
        variables = " or ".join(info.key_variables)
        raise ConfigError(f"model '{parsed}': set {variables} in the environment to use it")
    info.import_sdk()
    return info.native(parsed, key, base_url or parsed.base_url, options, settings or {})
