"""Actions: plain Python functions that agents can call.

CRAB's "code as configuration": an action *is* a typed function. Its name, docstring and
annotated parameters become the tool schema a model sees; calling the action with
arguments binds them (partial application) without running anything, which is how tasks
parameterise evaluator nodes and reference solutions; :meth:`Action.run` validates the
arguments against the schema and executes the function.

A parameter named ``env`` is not part of the schema: the framework injects the
environment the action runs in. Nothing here ever serialises code; remote execution sends
an action's *name* and validated JSON arguments.
"""

from __future__ import annotations

import builtins
import copy
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any, TypeVar, overload

import docstring_parser
import pydantic
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from reefbench.errors import ConfigError, InvalidActionArguments, WrongEnvironment

# OpenAI, Anthropic and Gemini all accept this pattern for tool names.
_NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
_ENV_PARAMETER = "env"

ActionT = TypeVar("ActionT", bound="Action")

DEFINING_MODULES: set[str] = set()
"""Modules that have defined an action in this process; :mod:`reefbench.actions.refs` lets
references name them without importing anything new."""


class Action:
    """A typed function exposed to agents (or to the graph evaluator, for evaluators).

    Attributes:
        name: The tool name shown to models (the function name unless overridden).
        description: The docstring without its ``Args``/``Returns`` sections.
        env_name: The environment this action is routed to, if fixed (``@action(env=...)``
            or :meth:`on`). ``None`` means "whatever environment runs it".
        bound: Arguments already bound by calling the action.
    """

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        env_name: str | None = None,
    ) -> None:
        self.func = func
        DEFINING_MODULES.add(func.__module__)
        self.name = name or func.__name__
        if not _NAME_PATTERN.match(self.name):
            raise ConfigError(
                f"action name {self.name!r} is not a valid tool name: use letters, digits, "
                "'_' or '-', at most 64 characters, not starting with a digit"
            )
        doc = docstring_parser.parse(inspect.getdoc(func) or "")
        self.description = description or _describe(doc)
        self.env_name = env_name
        self.bound: dict[str, Any] = {}
        signature = inspect.signature(func)
        self.needs_env = _ENV_PARAMETER in signature.parameters
        # The class the function expects as ``env`` (None: any object). Checked once per
        # run, so a task that routes an action to the wrong device fails with one message
        # instead of an AttributeError deep inside the function.
        self.env_type: type | None = (
            _env_type(self.name, func, signature.parameters[_ENV_PARAMETER])
            if self.needs_env
            else None
        )
        self._signature = signature.replace(
            parameters=[p for n, p in signature.parameters.items() if n != _ENV_PARAMETER]
        )
        self._model = _arguments_model(self.name, func, self._signature, doc)
        self._validated_bound: dict[str, Any] | None = None

    # ----------------------------------------------------------------- binding
    def __call__(self: ActionT, *args: Any, **kwargs: Any) -> ActionT:
        """Bind arguments and return a new action; nothing runs.

        ``file_exists(path="a.txt")`` is an evaluator node checking that one file.
        Each value is validated now, so a mistake in a task definition shows up when the
        task is built rather than in the middle of an episode.
        """
        try:
            arguments = self._signature.bind_partial(*args, **kwargs).arguments
        except TypeError as exc:
            raise InvalidActionArguments(self.name, None, str(exc)) from None
        for key, value in arguments.items():
            arguments[key] = self._validate_one(key, value)
        bound = copy.copy(self)
        bound.bound = {**self.bound, **arguments}
        bound._validated_bound = None
        return bound

    def on(self: ActionT, env_name: str) -> ActionT:
        """Return a copy routed to the environment called ``env_name``."""
        routed = copy.copy(self)
        routed.env_name = env_name
        return routed

    # --------------------------------------------------------------- schemas
    @property
    def parameters_schema(self) -> dict[str, Any]:
        """JSON schema of the parameters still to be supplied (bound ones are hidden)."""
        return _self_contained(self._model.model_json_schema(), hide=set(self.bound))

    # -------------------------------------------------------------- running
    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``arguments`` (merged over the bound ones) and return the typed values.

        Raises:
            InvalidActionArguments: naming the first offending parameter.
        """
        if not arguments:
            if self._validated_bound is None:
                self._validated_bound = self._validate_all(self.bound)
            return self._validated_bound
        return self._validate_all({**self.bound, **arguments})

    def run(self, env: Any = None, **kwargs: Any) -> Any:
        """Validate the arguments, inject ``env`` if the function wants it, and execute."""
        values = self.validate(kwargs)
        if self.needs_env:
            if env is None:
                raise ConfigError(
                    f"action '{self.name}' needs an environment: pass env=... or run it "
                    "through an Environment"
                )
            if self.env_type is not None and not isinstance(env, self.env_type):
                raise WrongEnvironment(
                    f"'{self.name}' needs a {self.env_type.__name__}, got "
                    f"{_what(env)}: route it to an environment of that kind"
                )
            return self.func(env=env, **values)
        return self.func(**values)

    @property
    def ref(self) -> str:
        """Import reference ``module:qualname`` by which task files name this action."""
        return f"{self.func.__module__}:{self.func.__qualname__}"

    def json_arguments(self) -> dict[str, Any]:
        """The bound arguments as JSON values (for task files and remote calls)."""
        return {k: self._adapters[k].dump_python(v, mode="json") for k, v in self.bound.items()}

    @property
    def label(self) -> str:
        """Readable name with bound arguments, e.g. ``file_exists(path='a.txt')``."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.bound.items())
        return f"{self.name}({args})"

    def __repr__(self) -> str:
        where = f" on {self.env_name!r}" if self.env_name else ""
        return f"<{type(self).__name__} {self.label}{where}>"

    # ------------------------------------------------------------ internals
    def _validate_all(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        try:
            model = self._model.model_validate(dict(arguments))
        except pydantic.ValidationError as exc:
            raise _arguments_error(self.name, exc) from None
        return {name: getattr(model, name) for name in self._model.model_fields}

    def _validate_one(self, key: str, value: Any) -> Any:
        try:
            return self._adapters[key].validate_python(value)
        except pydantic.ValidationError as exc:
            raise InvalidActionArguments(self.name, key, exc.errors()[0]["msg"].lower()) from None

    @cached_property
    def _adapters(self) -> dict[str, TypeAdapter[Any]]:
        return {
            name: TypeAdapter(Any if field.annotation is None else field.annotation)
            for name, field in self._model.model_fields.items()
        }


class ActionCall(BaseModel):
    """A request to run one action by name: what an agent returns and a reference solution
    lists. Plain JSON (no code), so it crosses processes and files as is."""

    env: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


FuncT = Callable[..., Any]


@overload
def action(func: FuncT, /) -> Action: ...


@overload
def action(
    *, name: str | None = None, env: str | None = None, description: str | None = None
) -> Callable[[FuncT], Action]: ...


def action(
    func: FuncT | None = None,
    /,
    *,
    name: str | None = None,
    env: str | None = None,
    description: str | None = None,
) -> Action | Callable[[FuncT], Action]:
    """Turn a function into an :class:`Action`; use bare (``@action``) or with options.

    Args:
        func: The function (when used bare).
        name: Tool name; defaults to the function's name.
        env: Name of the environment the action always runs in.
        description: Overrides the docstring as the description shown to models.
    """

    def wrap(f: FuncT) -> Action:
        return Action(f, name=name, description=description, env_name=env)

    return wrap(func) if func is not None else wrap


# ---------------------------------------------------------------------- helpers
def _env_type(name: str, func: Callable[..., Any], parameter: inspect.Parameter) -> type | None:
    """The class named by the ``env`` annotation: ``Any`` or none accepts every object.

    The annotation must be resolvable when the action is defined (imported at module level,
    not only under ``TYPE_CHECKING``), because it is checked at run time.
    """
    annotation = parameter.annotation
    if isinstance(annotation, str):  # postponed (PEP 563): a (dotted) name, looked up
        annotation = _lookup(name, annotation, func.__globals__)
    if annotation is inspect.Parameter.empty or annotation is Any:
        return None
    if not isinstance(annotation, type):
        raise ConfigError(
            f"action '{name}': 'env' must be annotated with an environment class or Any, "
            f"not {annotation!r}"
        )
    return annotation


def _lookup(name: str, text: str, namespace: Mapping[str, Any]) -> Any:
    """Resolve a dotted name (``DesktopDevice``, ``m.MemoryEnvironment``) in the function's
    module, without evaluating code (``Any`` included)."""
    head, *rest = parts = text.strip().split(".")
    if not all(part.isidentifier() for part in parts):
        raise ConfigError(
            f"action '{name}': 'env' must be annotated with an environment class or Any, "
            f"not {text!r}"
        )
    value = namespace.get(head, getattr(builtins, head, _MISSING))
    for attr in rest:
        value = getattr(value, attr, _MISSING)
    if value is _MISSING:
        raise ConfigError(
            f"action '{name}': cannot resolve the annotation of 'env' ({text!r}); import "
            "the environment class at module level (not only for type checkers), or "
            "annotate 'env: Any'"
        )
    return value


_MISSING = object()


def _what(env: Any) -> str:
    label = getattr(env, "name", None)
    kind = type(env).__name__
    return f"{kind} '{label}'" if isinstance(label, str) else kind


def _describe(doc: docstring_parser.Docstring) -> str:
    parts = [p.strip() for p in (doc.short_description, doc.long_description) if p and p.strip()]
    # docstring_parser takes a summary's first line as the short description even when
    # the sentence goes on in the next line; only a blank line separates paragraphs.
    return ("\n\n" if doc.blank_after_short_description else "\n").join(parts)


def _arguments_model(
    action_name: str,
    func: Callable[..., Any],
    signature: inspect.Signature,
    doc: docstring_parser.Docstring,
) -> type[pydantic.BaseModel]:
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception as exc:  # unresolved forward references and similar
        raise ConfigError(f"action '{action_name}': cannot resolve annotations: {exc}") from None
    described = {p.arg_name: (p.description or "").strip() for p in doc.params}
    fields: dict[str, Any] = {}
    for pname, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ConfigError(
                f"action '{action_name}': *{pname} parameters cannot be described to a "
                "model; list the parameters explicitly"
            )
        if pname not in hints:
            raise ConfigError(
                f"action '{action_name}': parameter '{pname}' has no type annotation; "
                "annotate it so the model sees its type"
            )
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hints[pname], Field(default, description=described.get(pname) or None))
    model: type[pydantic.BaseModel] = create_model(
        f"{action_name}_arguments",
        __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=False),
        **fields,
    )
    return model


def _arguments_error(action_name: str, exc: pydantic.ValidationError) -> InvalidActionArguments:
    error = exc.errors()[0]
    loc = error.get("loc") or ()
    parameter = str(loc[0]) if loc else None
    kind = error.get("type")
    nested = len(loc) > 1
    if kind == "missing" and not nested:
        problem = "missing required argument"
    elif kind == "extra_forbidden" and not nested:
        problem = "unexpected argument (not a parameter of this action)"
    else:
        problem = str(error.get("msg", "invalid value")).lower()
    if nested:
        problem += f" (at {'.'.join(str(p) for p in loc)})"
    return InvalidActionArguments(action_name, parameter, problem)


def _self_contained(schema: dict[str, Any], hide: set[str]) -> dict[str, Any]:
    """Inline ``$ref``/``$defs``, drop pydantic's titles and the hidden properties."""
    defs = schema.get("$defs", {})

    def resolve(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = resolve(defs[node["$ref"].rsplit("/", 1)[-1]])
                extra = {k: resolve(v) for k, v in node.items() if k != "$ref"}
                return {**target, **extra}
            out = {}
            for key, value in node.items():
                if not in_properties and key in ("title", "$defs"):
                    continue
                out[key] = resolve(value, in_properties=(key == "properties" and not in_properties))
            return out
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    result: dict[str, Any] = resolve(schema)
    properties = {k: v for k, v in result.get("properties", {}).items() if k not in hide}
    required = [k for k in result.get("required", []) if k not in hide]
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def compact_text(text: str) -> str:
    """``text`` on one line: docstrings' line breaks cost tokens and say nothing."""
    return " ".join(text.split())


def compact_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A parameters schema as a model is sent it: the same parameters, types, limits,
    enums and defaults, without what says nothing to a model.

    * ``additionalProperties: false`` goes: the listed properties are the parameters, and
      :meth:`Action.validate` rejects any other with a message naming it;
    * an optional parameter that may be ``null`` (``x: int | None = None``) is sent as its
      non-null type, not required: leaving it out is how a model passes ``None``;
    * a description that only lists an enum's values (``"up", "down" or "right"``) goes;
    * descriptions are on one line.
    """
    required = set(schema.get("required", ()))
    properties = {
        name: _compact_property(prop, required=name in required)
        for name, prop in schema.get("properties", {}).items()
    }
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(schema["required"])
    return out


def _compact_property(prop: Mapping[str, Any], *, required: bool) -> dict[str, Any]:
    node = dict(prop)
    options = node.get("anyOf")
    if not required and options and node.get("default", 0) is None:
        rest = [o for o in options if o.get("type") != "null"]
        if len(rest) == 1 and len(options) == 2:
            node.pop("anyOf")
            node.pop("default")
            node = {**rest[0], **node}
    description = node.get("description")
    if isinstance(description, str):
        if "enum" in node and _only_lists(description, node["enum"]):
            node.pop("description")
        else:
            node["description"] = compact_text(description)
    return node


def _only_lists(description: str, values: list[Any]) -> bool:
    """Whether ``description`` says nothing but the enum ``values`` (quoted, with commas,
    "or"/"and" and a final full stop)."""
    words = re.sub(r"\b(or|and)\b|[\s,.\"']", " ", description).split()
    return sorted(words) == sorted(str(v) for v in values)
