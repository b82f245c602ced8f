"""Build the agent a run configuration names, in whichever process plays the episode.

An :class:`~reefbench.runner.config.AgentSpec` is plain JSON (it is hashed into the run's
manifest and sent to Ray workers), so this module turns it into agents: built-in agents by
name, or a model (``provider/model``) driven by an agent system (``policy``). One provider
client per process and spec is reused across episodes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reefbench.agents.observation import DEFAULT_OBSERVE
from reefbench.environments.root import Judge
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE
from reefbench.episodes.protocol import Agent
from reefbench.errors import ConfigError
from reefbench.log.store import EpisodeKey
from reefbench.runner.config import AgentSpec, RunConfig

TOOL_MODES = ("auto", "native", "json")
MODEL_OPTIONS = frozenset(
    {
        "tool_mode",
        "history",
        "max_tokens",
        "timeout",
        "retries",
        "retry_base",
        "max_image_side",
        "prompts",
        "computer_use",
        "safety_checks",
        "computer_tool",
        "grounding",
    }
)


@dataclass(frozen=True, slots=True)
class BuiltinAgent:
    """One built-in agent (no model) as ``--agent NAME`` names it.

    Attributes:
        name: Its name on the command line and in run configurations.
        options: The options its spec may carry.
        make: Builds it for one episode from the spec's options and the episode's key.
        summary: What it is, for ``--help``.
    """

    name: str
    options: frozenset[str]
    make: Callable[[dict[str, Any], EpisodeKey], Agent]
    summary: str


# The oracle and the null agent read nothing they are shown: by default their episodes
# observe no device (a third to a half of an oracle episode's time, and every screenshot
# written to the run directory); ``observe: true`` keeps the screenshots.
def _oracle(options: dict[str, Any], key: EpisodeKey) -> Agent:
    from reefbench.agents import OracleAgent

    observe = options.get("observe", False)
    return OracleAgent(options.get("alternative"), start_at=key.start_at, observe=observe)


def _null(options: dict[str, Any], key: EpisodeKey) -> Agent:
    from reefbench.agents import NullAgent

    return NullAgent(observe=options.get("observe", False))


def _random(options: dict[str, Any], key: EpisodeKey) -> Agent:
    from reefbench.agents import RandomAgent

    return RandomAgent(int(options.get("seed", 0)) * 1_000_003 + key.seed)


def _replay(options: dict[str, Any], key: EpisodeKey) -> Agent:
    return _recording(str(options.get("replay", "")))


def _human(options: dict[str, Any], key: EpisodeKey) -> Agent:
    from reefbench.agents import HumanAgent

    return HumanAgent()


BUILTINS: dict[str, BuiltinAgent] = {
    agent.name: agent
    for agent in (
        BuiltinAgent(
            "oracle", frozenset({"alternative", "observe"}), _oracle, "plays the reference"
        ),
        BuiltinAgent("null", frozenset({"observe"}), _null, "does nothing"),
        BuiltinAgent("random", frozenset({"seed"}), _random, "random actions"),
        BuiltinAgent("replay", frozenset({"replay"}), _replay, "replays a stored run"),
        BuiltinAgent("human", frozenset(), _human, "you, at the terminal"),
    )
}
"""Every built-in agent, the one place they are listed (the CLI's help reads it)."""
BUILTIN_AGENTS = tuple(BUILTINS)


def builtin_help() -> str:
    """``--agent``'s help: the built-in agents, from :data:`BUILTINS`."""
    listed = ", ".join(f"{a.name} ({a.summary})" for a in BUILTINS.values())
    return f"Built-in agent: {listed}; default oracle."


def agent_from_spec(spec: AgentSpec, key: EpisodeKey, config: RunConfig | None = None) -> Agent:
    """A fresh agent for one episode (the random agent is seeded by the episode's seed).

    A model agent follows the run's observation policy and is told the run's
    invalid-action tolerance (``config``; the defaults without one)."""
    if spec.model is not None:
        policy = config.observation_policy if config else DEFAULT_OBSERVE
        tolerance = config.invalid_tolerance if config else DEFAULT_INVALID_TOLERANCE
        model_agent: Agent = _model_factory(spec.model_dump_json(), policy, tolerance)()
        return model_agent
    builtin = BUILTINS.get(spec.name)
    if builtin is None:
        raise ConfigError(f"unknown agent '{spec.name}': choose one of {', '.join(BUILTIN_AGENTS)}")
    return builtin.make(dict(spec.options), key)


def judge_from_spec(model: str | None) -> Judge | None:
    """The run's answer judge (``RunConfig.judge``), one per process and model."""
    return None if model is None else _judge(model)


@functools.cache
def _judge(model: str) -> Judge:
    from reefbench.agents.judge import ModelJudge
    from reefbench.agents.providers.registry import make_provider

    return ModelJudge(make_provider(model))


def check_spec(spec: AgentSpec) -> None:
    """Fail now, in one line, for a spec that could only fail later inside an episode."""
    if spec.model is None:
        if spec.name not in BUILTIN_AGENTS:
            raise ConfigError(
                f"unknown agent '{spec.name}': choose one of {', '.join(BUILTIN_AGENTS)}"
            )
        unknown = set(spec.options) - BUILTINS[spec.name].options
        if unknown:
            raise ConfigError(f"agent '{spec.name}' takes no option {', '.join(sorted(unknown))}")
        if spec.name == "replay":
            _recording(str(spec.options.get("replay", "")))
        if not isinstance(spec.options.get("observe", False), bool):
            raise ConfigError(
                f"agent '{spec.name}' option observe must be true or false, "
                f"not {spec.options['observe']!r}"
            )
        return
    unknown = set(spec.options) - MODEL_OPTIONS
    if unknown:
        raise ConfigError(f"model agents take no option {', '.join(sorted(unknown))}")
    _model_factory(spec.model_dump_json())  # parses the model, checks the key and the policy


@functools.lru_cache(maxsize=8)
def _model_factory(
    spec_json: str,
    observation_policy: str = DEFAULT_OBSERVE,
    invalid_tolerance: int = DEFAULT_INVALID_TOLERANCE,
) -> Any:
    """A factory of agents for a model spec (cached: one provider client per process and
    spec), after every option is checked, in one line each, before an episode starts."""
    from reefbench.agents import POLICIES
    from reefbench.agents.providers import ProviderOptions, RetryPolicy, parse_model
    from reefbench.agents.providers.registry import provider_info

    spec = AgentSpec.model_validate_json(spec_json)
    assert spec.model is not None
    options = spec.options
    if spec.policy not in POLICIES:
        raise ConfigError(f"policy '{spec.policy}': choose one of {', '.join(POLICIES)}")
    tool_mode = options.get("tool_mode", "auto")
    if tool_mode not in TOOL_MODES:
        raise ConfigError(f"tool mode '{tool_mode}': choose one of {', '.join(TOOL_MODES)}")
    limits = _request_limits(options)
    parsed = parse_model(spec.model)
    options_for_requests = ProviderOptions(
        max_tokens=limits.max_tokens,
        timeout=limits.timeout,
        retry=RetryPolicy(attempts=limits.retries, base=limits.retry_base),
    )
    if _computer_use(spec):
        return _native_factory(spec, parsed, options_for_requests)
    if "computer_tool" in options:
        raise ConfigError(
            f"--computer-tool picks Anthropic's computer tool, but '{parsed}' does not play "
            "through native computer use (add --computer-use on or --action-set pixels)"
        )
    if tool_mode == "auto":
        tool_mode = provider_info(parsed.provider).tool_mode
    grounding = options.get("grounding")
    if grounding is not None and spec.policy != "single":
        raise ConfigError(
            f"--grounding plays one model on one screen at a time: use policy single, "
            f"not {spec.policy}"
        )
    settings = _model_settings(
        tool_mode, limits, options.get("prompts"), observation_policy, invalid_tolerance
    )
    return _text_agent_factory(spec, parsed, options_for_requests, settings)


@dataclass(frozen=True, slots=True)
class _RequestLimits:
    """A model spec's numeric options, checked: ``history`` is ``None`` for the whole
    episode (:data:`reefbench.agents.llm.DEFAULT_HISTORY`)."""

    history: int | None
    max_tokens: int
    timeout: float
    retries: int
    retry_base: float
    max_image_side: int | None


def _request_limits(options: dict[str, Any]) -> _RequestLimits:
    """The numeric options of a model spec with their defaults; out-of-range values fail
    here, in one line, rather than inside an episode.

    Raises:
        ConfigError: a negative history, max tokens or retries below 1, a timeout not
            above 0, a negative retry base, or a longer image side below 16 pixels.
    """
    # No --history: the whole episode (reefbench.agents.llm.DEFAULT_HISTORY).
    history = None if options.get("history") is None else int(options["history"])
    max_tokens = int(options.get("max_tokens", 2048))
    timeout = float(options.get("timeout", 120.0))
    retries = int(options.get("retries", 6))
    retry_base = float(options.get("retry_base", 1.0))
    side = options.get("max_image_side")
    if (
        (history is not None and history < 0)
        or max_tokens < 1
        or timeout <= 0
        or retries < 1
        or retry_base < 0
    ):
        raise ConfigError(
            "history must be >= 0, max tokens and retries >= 1, timeout > 0, retry base >= 0"
        )
    if side is not None and int(side) < 16:
        raise ConfigError("the longer image side must be at least 16 pixels")
    return _RequestLimits(
        history, max_tokens, timeout, retries, retry_base, None if side is None else int(side)
    )


def _model_settings(
    tool_mode: str,
    limits: _RequestLimits,
    prompts: str | None,
    observation_policy: str,
    invalid_tolerance: int,
) -> Any:
    """The :class:`~reefbench.agents.ModelSettings` of a text (non-native) model agent:
    how it calls tools (``tool_mode`` settled, ``json`` or ``native``), its history, image
    size, prompt templates (``prompts``: a directory, or the defaults), the run's
    observation policy and invalid-action tolerance."""
    from reefbench.agents import ModelSettings, Prompts

    return ModelSettings(
        mode="json" if tool_mode == "json" else "native",
        history=limits.history,
        max_image_side=limits.max_image_side,
        prompts=Prompts.from_dir(Path(prompts)) if prompts else Prompts.default(),
        observe=observation_policy,
        invalid_tolerance=invalid_tolerance,
    )


def _text_agent_factory(spec: AgentSpec, parsed: Any, requests: Any, settings: Any) -> Any:
    """A factory of agents that read observations and answer with tool calls: an open
    grounding model (``--grounding``), or the spec's agent system (``policy``)."""
    from reefbench.agents import policy_factory
    from reefbench.agents.providers import make_provider

    provider = make_provider(parsed, requests)
    grounding = spec.options.get("grounding")
    if grounding is not None:
        from reefbench.agents.grounding_models import GroundingAgent, get_profile

        return functools.partial(
            GroundingAgent,
            provider,
            get_profile(str(grounding)),
            history=settings.history,
            max_image_side=settings.max_image_side,
        )
    return policy_factory(spec.policy, provider, settings)


def _computer_use(spec: AgentSpec) -> bool:
    """Whether the spec plays natively (``RunConfig`` has settled ``auto`` already)."""
    from reefbench.agents.computer_use.selection import COMPUTER_USE_MODES

    mode = spec.options.get("computer_use", "off")
    if mode not in COMPUTER_USE_MODES:
        raise ConfigError(f"computer use {mode!r}: choose one of {', '.join(COMPUTER_USE_MODES)}")
    return bool(mode == "on")


def _native_factory(spec: AgentSpec, parsed: Any, options: Any) -> Any:
    """A factory of native computer-use agents (``--computer-use``, ``--safety-checks``)."""
    from reefbench.agents.computer_use import DEFAULT_SAFETY, SAFETY_POLICIES, ComputerUseAgent
    from reefbench.agents.computer_use.selection import wants_computer_use
    from reefbench.agents.providers.registry import make_native

    wants_computer_use(parsed, "", "on")  # a provider without an interface fails here
    if spec.options.get("grounding"):
        raise ConfigError("--grounding and --computer-use on exclude each other: pick one")
    if spec.policy != "single":
        raise ConfigError(
            f"policy '{spec.policy}': a native computer-use model plays as a single agent "
            "(--policy single)"
        )
    safety = spec.options.get("safety_checks", DEFAULT_SAFETY)
    if safety not in SAFETY_POLICIES:
        raise ConfigError(
            f"safety-check policy {safety!r}: choose one of {', '.join(SAFETY_POLICIES)}"
        )
    settings = {}
    if "computer_tool" in spec.options:
        if parsed.provider != "anthropic":
            raise ConfigError(
                f"--computer-tool picks Anthropic's computer tool version; '{parsed}' is "
                "not an Anthropic model (drop the flag)"
            )
        settings["computer_tool"] = str(spec.options["computer_tool"])
    interface = make_native(parsed, options, settings=settings)

    def make() -> ComputerUseAgent:
        return ComputerUseAgent(interface, safety=safety)

    return make


def _recording(path: str) -> Agent:
    """The replay agent over a recorded run directory (its results store)."""
    from reefbench.agents import ReplayAgent
    from reefbench.log.store import ResultsStore

    if not path:
        raise ConfigError("the replay agent needs --replay runs/<run> (a recorded run directory)")
    source = Path(path)
    if not (source / "results.sqlite").is_file():
        raise ConfigError(f"replay: {source} is not a run directory (no results.sqlite)")
    store = ResultsStore(source)
    try:
        return ReplayAgent(store.results(trajectory=True))
    finally:
        store.close()


def describe(spec: AgentSpec) -> str:
    """Short label for tables: the agent's name, or model and policy."""
    if spec.model:
        from reefbench.agents.providers import parse_model

        parsed = parse_model(spec.model)  # the label leaves out a compatible server's URL
        grounding = spec.options.get("grounding")
        system = f"grounding:{grounding}" if grounding else spec.policy
        if spec.options.get("computer_use") == "on":
            system = "computer-use"
        return f"{parsed.provider}/{parsed.model} {system}"
    extra = {k: v for k, v in spec.options.items() if k != "replay"}
    return spec.name + (f" {json.dumps(extra, sort_keys=True)}" if extra else "")
