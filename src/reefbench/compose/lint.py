"""``reef pool lint``: check every template of a pool before composing from it.

CRAB's shipped data had templates whose instruction placeholders did not match their
attributes. :class:`~reefbench.tasks.subtask.SubTask` already refuses such a template when it is
built, so a broken pool module fails at import: lint turns that into one line. For pools
that do import it checks, per template: placeholders name attributes; attribute, output
and input types are known; inputs name attributes and some template produces their type;
value pools and value records hold values of the declared type; and the generators
*run* on sample values (the first value of each pool): the evaluator generator yields
evaluators whose subgraph is a DAG, the solution, alternative and setup generators return
action calls / steps, and the output generator returns a value of the output type.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import networkx as nx

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.compose.pool import default_values, load_pool
from reefbench.errors import ConfigError, ReefError
from reefbench.tasks.graph import GraphEvaluator
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, SubTask
from reefbench.tasks.task import ActionStep

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: where (pool:template), how bad, and what to do."""

    where: str
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"


def lint_reference(ref: str) -> list[Problem]:
    """Lint a pool given as ``module:NAME`` or ``file.py:NAME``; import failures included."""
    try:
        pool = load_pool(ref)
    except ConfigError as exc:
        return [Problem(ref, "error", str(exc))]
    return lint_pool(pool, ref)


def lint_pool(pool: Mapping[str, SubTask], name: str = "pool") -> list[Problem]:
    """Every problem of every template, errors and warnings, in template-id order."""
    produced = {t.output_type for t in pool.values() if t.output_type and t.output_generator}
    problems: list[Problem] = []
    for key in sorted(pool):
        problems.extend(_lint_template(key, pool[key], produced, f"{name}:{key}"))
    return problems


def _lint_template(key: str, t: SubTask, produced: set[str], where: str) -> list[Problem]:
    found: list[Problem] = []

    def error(message: str) -> None:
        found.append(Problem(where, "error", message))

    def warn(message: str) -> None:
        found.append(Problem(where, "warning", message))

    if key != t.id:
        error(f"listed under '{key}' but its id is '{t.id}': use the id as the key")
    try:
        placeholders = [f for _, f, _, _ in string.Formatter().parse(t.description) if f]
    except ValueError as exc:
        error(f"description is not a valid template: {exc}")
        placeholders = []
    for placeholder in placeholders:
        if placeholder not in t.attributes:
            error(
                f"placeholder {{{placeholder}}} in the description has no attribute "
                f"(attributes: {', '.join(t.attributes) or 'none'})"
            )
    for attribute, type_name in t.attributes.items():
        if type_name not in ATTRIBUTE_TYPES:
            error(f"attribute '{attribute}' has unknown type '{type_name}'")
    if t.output_type is not None and t.output_type not in ATTRIBUTE_TYPES:
        error(f"output type '{t.output_type}' is unknown")
    for attribute in t.inputs:
        if attribute not in t.attributes:
            error(f"input '{attribute}' is not an attribute (inputs name attributes)")
        elif t.attributes[attribute] not in produced:
            warn(
                f"no template outputs '{t.attributes[attribute]}', the type of input "
                f"'{attribute}': this template can never be composed"
            )
    if not t.inputs and not t.outputs and t.attributes:
        warn(
            "declares no resources (inputs/outputs): it is linked by type only and may start "
            "a task with pool values where a predecessor's output was meant"
        )
    if t.output_type is not None and t.output_generator is None:
        warn("it has an output_type but no output_generator, so it cannot feed other subtasks")
    if not t.intents:
        warn("no intents: synthesis groups it under '(no intent)'")
    if t.solution_generator is None:
        warn("no solution_generator: tasks using it have no reference solution")
    for attribute, values in t.value_pools.items():
        if attribute not in t.attributes:
            error(f"value pool for '{attribute}', which is not an attribute")
        elif not values:
            error(f"value pool for '{attribute}' is empty")
        else:
            for value in values:
                try:
                    t.check_values({**_samples(t), attribute: value})
                except ConfigError as exc:
                    error(f"value pool: {exc}")
                    break
    for row in t.value_records:
        try:
            t.check_values({**_samples(t), **row})
        except ConfigError as exc:
            error(f"value record {row}: {exc}")
            break
    recorded = {a for row in t.value_records for a in row}
    free = [
        a
        for a in t.attributes
        if a not in t.inputs and a not in t.value_pools and a not in recorded
    ]
    if free:
        warn(
            f"no value pool for {', '.join(free)}: synthesis will use placeholder values "
            "unless a link fills them"
        )
    if any(p.severity == "error" for p in found):
        return found
    found.extend(_run_generators(t, where))
    return found


def _samples(t: SubTask) -> dict[str, Any]:
    first = t.value_records[0] if t.value_records else {}
    return {
        a: first[a] if a in first else (t.value_pools.get(a) or default_values(type_name, a))[0]
        for a, type_name in t.attributes.items()
    }


def _run_generators(t: SubTask, where: str) -> list[Problem]:
    values = _samples(t)
    shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
    found: list[Problem] = []

    def error(message: str) -> None:
        found.append(Problem(where, "error", f"{message} (sample values: {shown})"))

    try:
        generated = t.evaluator_generator(**values)
    except Exception as exc:
        error(f"evaluator_generator raised {type(exc).__name__}: {exc}")
    else:
        _check_evaluators(generated, error)
    generators: list[tuple[str, Callable[..., Any] | None, type]] = [
        ("solution_generator", t.solution_generator, ActionCall)
    ]
    generators += [
        (f"alternative_generators[{i}]", g, ActionCall)
        for i, g in enumerate(t.alternative_generators)
    ]
    generators += [("setup_generator", t.setup_generator, ActionStep)]
    for label, generator, kind in generators:
        if generator is None:
            continue
        try:
            produced = generator(**values)
        except Exception as exc:
            error(f"{label} raised {type(exc).__name__}: {exc}")
            continue
        if not isinstance(produced, list) or not all(isinstance(x, kind) for x in produced):
            error(f"{label} must return a list of {kind.__name__}, got {produced!r:.80}")
    if t.output_generator is not None and t.output_type is not None:
        try:
            out = t.output_generator(**values)
        except Exception as exc:
            error(f"output_generator raised {type(exc).__name__}: {exc}")
        else:
            expected = ATTRIBUTE_TYPES[t.output_type]
            if not isinstance(out, expected):
                error(
                    f"output_generator returned {type(out).__name__} {out!r}, "
                    f"not {t.output_type} ({expected.__name__})"
                )
    return found


def _check_evaluators(generated: Any, error: Any) -> None:
    if isinstance(generated, Evaluator):
        return
    if isinstance(generated, nx.DiGraph):
        try:
            GraphEvaluator(generated)
        except ReefError as exc:
            error(f"evaluator subgraph is invalid: {exc}")
        return
    if isinstance(generated, list | tuple) and generated:
        bad = [type(x).__name__ for x in generated if not isinstance(x, Evaluator)]
        if bad:
            error(f"evaluator_generator returned non-evaluators: {', '.join(bad)}")
        return
    error(
        "evaluator_generator must return an Evaluator, a non-empty list of them (a chain) "
        f"or a networkx DiGraph, got {type(generated).__name__}"
    )
