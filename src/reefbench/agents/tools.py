"""Actions of several environments as one list of model tools, and back.

Tool names carry the environment: ``laptop__write_file`` is ``write_file`` on the
``laptop``. Encoding the environment in the name (rather than as an extra argument) keeps
every action's parameter schema exactly as the action declares it, works identically in
native tool calling and in JSON-in-text mode, and fits all three providers' name rules.
A sub-agent bound to one environment sees the bare action names instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reefbench.actions.spec import Action, ActionCall
from reefbench.agents.providers.base import ToolSpec, parameters_schema
from reefbench.errors import ConfigError

SEPARATOR = "__"
SKIP = "skip"
SKIP_TOOL = ToolSpec(
    SKIP,
    "Do nothing in this environment for this step, because the instruction you received "
    "needs no action here.",
)


@dataclass(frozen=True, slots=True)
class _Binding:
    env: str
    action: Action


class Toolbox:
    """The tools one model role may call, and how to turn its calls into action calls.

    Args:
        action_spaces: Environment name -> its actions.
        qualify: Prefix tool names with the environment (needed when several environments
            share the role); ``False`` for a role bound to a single environment.
        extra: Tools handled by the agent itself (``skip``), not by an environment.
        shared: Leave out of the definitions the parameter facts the prompt states once
            (:mod:`reefbench.agents.shared_parameters`); the role's prompt must then
            include :func:`~reefbench.agents.shared_parameters.shared_text`.
    """

    def __init__(
        self,
        action_spaces: Mapping[str, Sequence[Action]],
        *,
        qualify: bool = True,
        extra: Sequence[ToolSpec] = (),
        shared: bool = False,
    ) -> None:
        if not qualify and len(action_spaces) != 1:
            raise ConfigError("unqualified tool names need exactly one environment")
        self.qualify = qualify
        self.shared = shared
        self.envs = list(action_spaces)
        self._bindings: dict[str, _Binding] = {}
        self.specs: list[ToolSpec] = []
        for env, actions in action_spaces.items():
            for act in actions:
                name = f"{env}{SEPARATOR}{act.name}" if qualify else act.name
                if len(name) > 64:
                    raise ConfigError(
                        f"tool name {name!r} is longer than the 64 characters providers "
                        "accept: shorten the environment or action name"
                    )
                self._bindings[name] = _Binding(env, act)
                self.specs.append(ToolSpec(name, act.description, act, shared))
        self.extra = {t.name: t for t in extra}
        self.specs.extend(extra)

    def decode(self, name: str, arguments: dict[str, Any]) -> ActionCall | str:
        """The action call for a tool call, or an error message for the model."""
        binding = self._bindings.get(name)
        if binding is not None:
            return ActionCall(env=binding.env, name=binding.action.name, arguments=arguments)
        env, separator, action_name = name.partition(SEPARATOR)
        if self.qualify and separator and env in self.envs:
            # Unknown action of a known environment: the episode reports what exists.
            return ActionCall(env=env, name=action_name, arguments=arguments)
        if self.qualify:
            owners = [b for key, b in self._bindings.items() if b.action.name == name]
            if len(owners) == 1:
                return ActionCall(env=owners[0].env, name=name, arguments=arguments)
            if owners:
                choices = ", ".join(f"{b.env}{SEPARATOR}{name}" for b in owners)
                return f"tool '{name}' is ambiguous: name the environment, e.g. {choices}"
        known = ", ".join(sorted([*self._bindings, *self.extra]))
        return f"unknown tool '{name}' (available: {known})"

    def describe(self) -> str:
        """One entry per tool: signature, description and parameter notes (for prompts)."""
        return "\n".join(_describe(spec) for spec in self.specs)

    def index(self) -> str:
        """The tool names by environment, one line each (``- phone__: tap, swipe``): for a
        prompt whose model also gets the tool definitions natively (repeating them cost
        ~2,300 tokens a request in reef-v1)."""
        by_env: dict[str, list[str]] = {}
        for binding in self._bindings.values():
            by_env.setdefault(binding.env, []).append(binding.action.name)
        # The environment prefix once per line, not once per tool (~120 tokens a request).
        prefix = f"{SEPARATOR}" if self.qualify else ""
        lines = [
            f"- {env}{prefix}: {', '.join(names)}" if self.qualify else f"- {', '.join(names)}"
            for env, names in by_env.items()
        ]
        if self.extra:
            lines.append(f"- {', '.join(self.extra)}")
        return "\n".join(
            [*lines, "(Each tool's parameters and description come with its definition.)"]
        )


def _describe(spec: ToolSpec) -> str:
    if spec.action is None:
        return f"- {spec.name}(): {spec.description}"
    schema = parameters_schema(spec.action)
    required = set(schema.get("required", []))
    params = []
    notes = []
    for pname, prop in schema.get("properties", {}).items():
        mark = "" if pname in required else "?"
        params.append(f"{pname}{mark}: {_type_of(prop)}")
        if prop.get("description"):
            notes.append(f"    {pname}: {prop['description']}")
    description = " ".join(spec.description.split())
    return "\n".join([f"- {spec.name}({', '.join(params)}): {description}", *notes])


def _type_of(prop: Mapping[str, Any]) -> str:
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v) for v in prop["enum"])
    if "const" in prop:
        return json.dumps(prop["const"])
    for key in ("anyOf", "oneOf"):
        if key in prop:
            return " | ".join(_type_of(p) for p in prop[key])
    kind = prop.get("type", "any")
    if kind == "array" and isinstance(prop.get("items"), Mapping):
        return f"array of {_type_of(prop['items'])}"
    return str(kind)
