"""Subtask templates (CRAB §3.4, OmniBench §3): the unit tasks are composed from.

A :class:`SubTask` has an instruction template with ``{placeholders}``, typed attributes,
an output type and input/output resources, and generators that turn attribute values into
an evaluator subgraph, a reference solution and setup. Types are names (``"file_path"``,
``"email"``) so composition can link the output of one subtask to an input of another of
the same type, even when both are Python strings.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, model_validator

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.errors import ConfigError
from reefbench.tasks.graph import GraphEvaluator
from reefbench.tasks.task import ActionStep

# Attribute type name -> Python type of its values. Semantic names keep composition honest:
# a "file_path" output feeds a "file_path" input, never an arbitrary string.
ATTRIBUTE_TYPES: dict[str, type] = {
    "str": str,
    "text": str,
    "message": str,
    "name": str,
    "file_path": str,
    "dir_path": str,
    "url": str,
    "email": str,
    "phone_number": str,
    "date": str,
    "time": str,
    "code": str,
    "int": int,
    "number": int,
    "float": float,
    "bool": bool,
}


def register_attribute_type(name: str, python_type: type) -> None:
    """Declare a new attribute type name (e.g. ``"city"`` -> ``str``) for your templates."""
    known = ATTRIBUTE_TYPES.get(name)
    if known is not None and known is not python_type:
        raise ConfigError(f"attribute type '{name}' is already {known.__name__}")
    ATTRIBUTE_TYPES[name] = python_type


# Returns an Evaluator, a sequence of Evaluators (a chain) or a DiGraph of Evaluators.
EvaluatorGenerator = Callable[..., Any]
SolutionGenerator = Callable[..., list[ActionCall]]
SetupGenerator = Callable[..., list[ActionStep]]


@dataclass(frozen=True)
class NearMiss:
    """A plausible wrong way to do a subtask: its checkpoints must not all complete.

    A score is only worth something if a wrong solution fails as surely as the reference
    passes, so every template ships behaviours an agent could plausibly mistake for the
    task (overwrite instead of append, the wrong recipient, resize without keeping the
    aspect) and the validation gates play them.

    Attributes:
        label: What goes wrong, for people (``"overwrites the file"``).
        solution: attributes -> the wrong action calls; or, when omitted,
        changes: attribute -> a function giving a wrong value for it: the reference
            solution is played with those values (a typo, a look-alike address).
    """

    label: str
    solution: SolutionGenerator | None = None
    changes: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)


class Fragment(BaseModel):
    """A subtask instantiated with attribute values."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    instruction: str
    nodes: dict[str, Evaluator]
    edges: list[tuple[str, str]]
    setup: list[ActionStep]
    solution: list[ActionCall]
    alternatives: list[list[ActionCall]]
    output: Any = None
    may_change: list[str] = Field(default_factory=list)


class SubTask(BaseModel):
    """A subtask template.

    Attributes:
        id: Unique id within its pool.
        description: Instruction template; every ``{placeholder}`` must be an attribute.
        attributes: Attribute name -> type name (see :data:`ATTRIBUTE_TYPES`).
        output_type: Type name of what the subtask produces, if anything.
        inputs / outputs: OmniBench resources consumed / produced.
        env: The environment the subtask acts in.
        app / app_category: Application and its category (knowledge complexity, LC).
        intents: Intent tags used to keep synthesised tasks coherent.
        value_pools: Hand-crafted values per attribute for synthesis.
        value_records: Rows of values that belong together (one person's name, number
            and e-mail address): synthesis draws the attributes a row names from one
            row, so a task never pairs a name with someone else's address.
        evaluator_generator: attributes -> evaluator, chain of evaluators or DiGraph.
        solution_generator: attributes -> reference solution (action calls).
        alternative_generators: attributes -> other, different solutions.
        setup_generator: attributes -> setup steps.
        output_generator: attributes -> the output value passed to linked subtasks.
        near_misses: plausible wrong ways to do it (:class:`NearMiss`); the validation
            gates check that none of them completes the subtask's checkpoints.
        allowances: attributes -> state keys the subtask may change beyond those its
            checkpoints govern (scoped by ``env`` unless a key names its own scope), e.g.
            a log file an app writes as part of the job; anything else is a side effect.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    id: str = Field(min_length=1)
    description: str = Field(min_length=1)
    attributes: dict[str, str] = Field(default_factory=dict)
    output_type: str | None = None
    inputs: list[str] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    env: str
    app: str = ""
    app_category: str = ""
    intents: list[str] = Field(default_factory=list)
    value_pools: dict[str, list[Any]] = Field(default_factory=dict)
    value_records: list[dict[str, Any]] = Field(default_factory=list)
    evaluator_generator: EvaluatorGenerator
    solution_generator: SolutionGenerator | None = None
    alternative_generators: list[SolutionGenerator] = Field(default_factory=list)
    setup_generator: SetupGenerator | None = None
    output_generator: Callable[..., Any] | None = None
    near_misses: list[NearMiss] = Field(default_factory=list)
    allowances: Callable[..., list[str]] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> SubTask:
        for placeholder in self.placeholders:
            if placeholder not in self.attributes:
                raise ValueError(
                    f"subtask '{self.id}': placeholder {{{placeholder}}} in the description "
                    f"has no attribute (attributes: {', '.join(self.attributes) or 'none'})"
                )
        for name, type_name in {**self.attributes, "output": self.output_type or "str"}.items():
            if type_name not in ATTRIBUTE_TYPES:
                raise ValueError(
                    f"subtask '{self.id}': {name} has unknown type '{type_name}'; "
                    "register it with reefbench.register_attribute_type"
                )
        keys = {tuple(sorted(row)) for row in self.value_records}
        if len(keys) > 1 or any(k not in self.attributes for row in keys for k in row):
            raise ValueError(
                f"subtask '{self.id}': value records must all name the same attributes "
                f"of the subtask (attributes: {', '.join(self.attributes) or 'none'})"
            )
        for near_miss in self.near_misses:
            unknown = [a for a in near_miss.changes if a not in self.attributes]
            if unknown or (near_miss.solution is None) == (not near_miss.changes):
                raise ValueError(
                    f"subtask '{self.id}': near miss {near_miss.label!r} needs either a "
                    "solution or changes of its own attributes"
                    + (f" (unknown: {', '.join(unknown)})" if unknown else "")
                )
            if near_miss.changes and self.solution_generator is None:
                raise ValueError(
                    f"subtask '{self.id}': near miss {near_miss.label!r} changes attributes "
                    "of a reference solution, but the subtask has none"
                )
        return self

    def near_miss_calls(self, near_miss: NearMiss, values: Mapping[str, Any]) -> list[ActionCall]:
        """The action calls of ``near_miss`` for these attribute values."""
        if near_miss.solution is not None:
            return near_miss.solution(**values)
        changed = {**values, **{k: f(values[k]) for k, f in near_miss.changes.items()}}
        assert self.solution_generator is not None  # checked when the template was made
        return self.solution_generator(**changed)

    @property
    def placeholders(self) -> list[str]:
        return [f for _, f, _, _ in string.Formatter().parse(self.description) if f]

    def check_values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Check attribute values: all present, none extra, each of its declared type."""
        missing = [a for a in self.attributes if a not in values]
        extra = [a for a in values if a not in self.attributes]
        if missing:
            raise ConfigError(f"subtask '{self.id}': missing attribute(s) {', '.join(missing)}")
        if extra:
            raise ConfigError(f"subtask '{self.id}': unknown attribute(s) {', '.join(extra)}")
        for name, value in values.items():
            expected = ATTRIBUTE_TYPES[self.attributes[name]]
            ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
            if expected is float and isinstance(value, int) and not isinstance(value, bool):
                ok = True
            if not ok:
                raise ConfigError(
                    f"subtask '{self.id}': attribute '{name}' must be "
                    f"{self.attributes[name]} ({expected.__name__}), got {type(value).__name__} "
                    f"{value!r}"
                )
        return dict(values)

    def instantiate(self, values: Mapping[str, Any]) -> Fragment:
        """Fill the template: instruction, evaluator subgraph, setup and solutions."""
        values = self.check_values(values)
        generated = self.evaluator_generator(**values)
        if isinstance(generated, Evaluator):
            graph: nx.DiGraph[Any] = nx.DiGraph()
            graph.add_node(generated)
        elif isinstance(generated, nx.DiGraph):
            graph = generated
        else:
            graph = nx.DiGraph()
            nx.add_path(graph, list(generated))
        ge = GraphEvaluator(graph)
        nodes = {key: self._routed(ge.evaluator(key)) for key in ge.ids}
        return Fragment(
            instruction=self.description.format(**values),
            nodes=nodes,
            edges=list(ge.dag.edges),
            setup=[
                s if s.env else s.model_copy(update={"env": self.env})
                for s in (self.setup_generator(**values) if self.setup_generator else [])
            ],
            solution=self.solution_generator(**values) if self.solution_generator else [],
            alternatives=[g(**values) for g in self.alternative_generators],
            output=self.output_generator(**values) if self.output_generator else None,
            may_change=[
                key if "|" in key else f"{self.env}|{key}"
                for key in (self.allowances(**values) if self.allowances else [])
            ],
        )

    def _routed(self, ev: Evaluator) -> Evaluator:
        return ev.on(self.env) if ev.needs_env and ev.env_name is None else ev
