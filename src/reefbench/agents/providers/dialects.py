"""Tool-schema dialects: how each provider's API wants an action offered as a tool.

The core (:mod:`reefbench.actions.spec`) knows an action's parameters as one JSON schema
(:attr:`~reefbench.actions.spec.Action.parameters_schema`); only the model providers care that
OpenAI's Chat Completions wraps it in ``{"type": "function", ...}``, Anthropic's Messages
API names it ``input_schema`` and Gemini takes an OpenAPI subset. So the shapes live here,
next to the providers that send them, and the core stays free of any vendor's format.
"""

from __future__ import annotations

from typing import Any, Literal

from reefbench.actions.spec import Action, compact_schema, compact_text
from reefbench.errors import ConfigError

SchemaDialect = Literal["openai", "anthropic", "gemini"]
DIALECTS: tuple[SchemaDialect, ...] = ("openai", "anthropic", "gemini")


def tool_schema(action: Action, dialect: str) -> dict[str, Any]:
    """The tool definition of ``action`` in the shape ``dialect`` expects.

    The parameters are :func:`~reefbench.actions.spec.compact_schema` of the action's
    parameters schema and the description is on one line
    (:func:`~reefbench.actions.spec.compact_text`): a model is sent every tool definition with
    every request, so what carries no information is left out. ``"openai"`` gives a Chat
    Completions ``{"type": "function", ...}`` entry, ``"anthropic"`` a Messages API tool
    with ``input_schema``, ``"gemini"`` a function declaration (OpenAPI subset:
    ``nullable`` instead of ``null`` unions, no defaults, no ``additionalProperties``).

    Raises:
        ConfigError: an unknown dialect.
    """
    schema = compact_schema(action.parameters_schema)
    description = compact_text(action.description)
    if dialect == "openai":
        return {
            "type": "function",
            "function": {"name": action.name, "description": description, "parameters": schema},
        }
    if dialect == "anthropic":
        return {"name": action.name, "description": description, "input_schema": schema}
    if dialect == "gemini":
        declaration: dict[str, Any] = {"name": action.name, "description": description}
        if schema.get("properties"):
            declaration["parameters"] = gemini_schema(schema)
        return declaration
    raise ConfigError(
        f"unknown tool-schema dialect {dialect!r}: choose one of {', '.join(DIALECTS)}"
    )


def gemini_schema(node: Any) -> Any:
    """Rewrite a JSON schema into the OpenAPI subset Gemini's function declarations take."""
    if isinstance(node, list):
        return [gemini_schema(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    for variants in ("anyOf", "oneOf"):
        options = node.get(variants)
        if options and any(o.get("type") == "null" for o in options):
            rest = [o for o in options if o.get("type") != "null"]
            node.pop(variants)
            if len(rest) == 1:
                node = {**rest[0], **node, "nullable": True}
            else:
                node = {**node, "anyOf": rest, "nullable": True}
    if "const" in node:
        node["enum"] = [node.pop("const")]
    node.pop("default", None)
    node.pop("additionalProperties", None)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {k: gemini_schema(v) for k, v in value.items()}
        else:
            out[key] = gemini_schema(value)
    return out
