"""Versioned JSON for tasks.

Two shapes, both with ``"schema_version": 1``:

* an *explicit* task: checkpoint nodes naming evaluators with JSON arguments, edges,
  setup and the reference solution as action calls. reefbench's own actions and
  evaluators are written by stable name (``"memory.file_exists"``,
  :mod:`reefbench.actions.names`), anyone else's by import reference
  (``"mypkg.checks:done"``); both load (:func:`reefbench.actions.refs.resolve_ref`);
* a *composed* task: subtask template ids with attribute values and links, resolved
  against a pool (id -> :class:`~reefbench.tasks.subtask.SubTask`).

CRAB's composed-task JSON (App. A.5: ``description``, ``tasks[{task, attribute, output}]``,
``adjlist``, ``id``) loads as a composed task too. References are only ever resolved to
existing :class:`Action` objects; nothing in a task file is evaluated as code.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, cast

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from reefbench.actions.evaluators import Evaluator, _Combined
from reefbench.actions.refs import resolve_ref, written_ref
from reefbench.actions.spec import Action, ActionCall, ActionT
from reefbench.errors import ConfigError, InvalidActionArguments, ReefError, TaskLoadError
from reefbench.plumbing.userfiles import TOO_DEEP, first_validation_error, json_documents
from reefbench.tasks.link import compose_task
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import ActionStep, NearMissCase, Task, TaskMetadata

SCHEMA_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NodeSpec(_Strict):
    """A checkpoint: one evaluator reference, or a combination (``all``/``any``/``not``)."""

    evaluator: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    env: str | None = None
    all: list[NodeSpec] | None = None
    any: list[NodeSpec] | None = None
    not_: NodeSpec | None = Field(default=None, alias="not")


class StepSpec(_Strict):
    env: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict)


class ExplicitTaskFile(_Strict):
    schema_version: Literal[1]
    id: str = Field(min_length=1)
    instruction: str = Field(min_length=1)
    nodes: dict[str, NodeSpec] = Field(min_length=1)
    edges: list[tuple[str, str]] = Field(default_factory=list)
    setup: list[StepSpec] = Field(default_factory=list)
    teardown: list[StepSpec] = Field(default_factory=list)
    extra_actions: list[StepSpec] = Field(default_factory=list)
    reference_solution: list[ActionCall] = Field(default_factory=list)
    alternative_solutions: list[list[ActionCall]] = Field(default_factory=list)
    near_misses: list[NearMissCase] = Field(default_factory=list)
    user_data: dict[str, str] = Field(default_factory=dict)
    may_change: list[str] = Field(default_factory=list)
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)


class SubtaskSpec(_Strict):
    template: str
    attributes: dict[str, Any] = Field(default_factory=dict)


class ComposedTaskFile(_Strict):
    schema_version: Literal[1]
    id: str = Field(min_length=1)
    instruction: str | None = None
    subtasks: list[SubtaskSpec] = Field(min_length=1)
    links: list[tuple[int, int]] = Field(default_factory=list)
    user_data: dict[str, str] = Field(default_factory=dict)
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)


class CrabSubtask(BaseModel):
    task: str
    attribute: dict[str, Any] = Field(default_factory=dict)
    output: Any = None


class CrabTaskFile(BaseModel):
    """CRAB's composed-task JSON (shared/seeds/001, App. A.5)."""

    id: str
    description: str
    tasks: list[CrabSubtask] = Field(min_length=1)
    adjlist: str = ""


# ----------------------------------------------------------------- loading
def load_tasks(path: str | Path, pool: Mapping[str, SubTask] | None = None) -> list[Task]:
    """Load a ``.json`` task (or list of tasks) or a ``.jsonl`` file of tasks.

    Raises:
        TaskLoadError: one line naming the file, the task and the JSON path of the problem.
    """
    path = Path(path)
    documents = json_documents(path, TaskLoadError)
    tasks = []
    seen: set[str] = set()
    for where, document in documents:
        try:
            task = task_from_dict(document, pool, where=where)
        except RecursionError:
            raise TaskLoadError(f"{where}: {TOO_DEEP}") from None
        if task.id in seen:
            raise TaskLoadError(f"{where}: duplicate task id '{task.id}'")
        seen.add(task.id)
        tasks.append(task)
    return tasks


def task_from_dict(
    data: Any, pool: Mapping[str, SubTask] | None = None, *, where: str = "<task>"
) -> Task:
    """Build a :class:`Task` from one decoded JSON document (any of the three shapes)."""
    if not isinstance(data, dict):
        raise TaskLoadError(f"{where}: a task must be a JSON object, got {type(data).__name__}")
    label = f"{where} (task '{data.get('id', '?')}')"
    try:
        if "schema_version" not in data and "tasks" in data and "adjlist" in data:
            return _from_crab(CrabTaskFile.model_validate(data), pool, label)
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise TaskLoadError(
                f"{label}: schema_version is {version!r}; this reefbench reads "
                f"version {SCHEMA_VERSION}"
            )
        if "subtasks" in data:
            return _from_composed(ComposedTaskFile.model_validate(data), pool, label)
        return _from_explicit(ExplicitTaskFile.model_validate(data), label)
    except pydantic.ValidationError as exc:
        raise TaskLoadError(_one_line(f"{label}: {first_validation_error(exc)}")) from None
    except TaskLoadError as exc:
        raise TaskLoadError(_one_line(str(exc))) from None
    except ReefError as exc:
        raise TaskLoadError(_one_line(f"{label}: {exc}")) from None


def _one_line(message: str) -> str:
    """Ids and keys from the file may hold newlines; the error stays one line."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def _from_explicit(spec: ExplicitTaskFile, label: str) -> Task:
    nodes = {key: _node(node, f"nodes.{key}") for key, node in spec.nodes.items()}
    try:
        return Task(
            id=spec.id,
            instruction=spec.instruction,
            nodes=nodes,
            edges=spec.edges,
            setup=[_step(s, f"setup[{i}]") for i, s in enumerate(spec.setup)],
            teardown=[_step(s, f"teardown[{i}]") for i, s in enumerate(spec.teardown)],
            extra_actions=[
                _step(s, f"extra_actions[{i}]") for i, s in enumerate(spec.extra_actions)
            ],
            reference_solution=spec.reference_solution,
            alternative_solutions=spec.alternative_solutions,
            near_misses=spec.near_misses,
            user_data=spec.user_data,
            may_change=spec.may_change,
            metadata=spec.metadata,
        )
    except pydantic.ValidationError as exc:
        raise TaskLoadError(f"{label}: {first_validation_error(exc)}") from None


def _from_composed(spec: ComposedTaskFile, pool: Mapping[str, SubTask] | None, label: str) -> Task:
    parts = []
    for i, sub in enumerate(spec.subtasks):
        template = _template(pool, sub.template, f"subtasks[{i}].template")
        parts.append((template, sub.attributes))
    return compose_task(
        spec.id,
        parts,
        spec.links,
        instruction=spec.instruction,
        metadata=spec.metadata,
        user_data=spec.user_data,
    )


def _from_crab(spec: CrabTaskFile, pool: Mapping[str, SubTask] | None, label: str) -> Task:
    parts = []
    for i, sub in enumerate(spec.tasks):
        parts.append((_template(pool, sub.task, f"tasks[{i}].task"), sub.attribute))
    links: list[tuple[int, int]] = []
    for line_number, line in enumerate(spec.adjlist.splitlines(), 1):
        fields = line.split()
        try:
            numbers = [int(f) for f in fields]
        except ValueError:
            raise ConfigError(f"adjlist line {line_number}: {line!r} is not node numbers") from None
        links.extend((numbers[0], succ) for succ in numbers[1:])
    return compose_task(spec.id, parts, links, instruction=spec.description)


def _template(pool: Mapping[str, SubTask] | None, template_id: str, where: str) -> SubTask:
    if pool is None:
        raise ConfigError(f"{where}: this task is composed from subtasks; give a subtask pool")
    try:
        return pool[template_id]
    except KeyError:
        raise ConfigError(
            f"{where}: unknown subtask id '{template_id}' (not in the pool)"
        ) from None


def _node(spec: NodeSpec, where: str) -> Evaluator:
    combos = [k for k in ("evaluator", "all", "any", "not_") if getattr(spec, k) is not None]
    if len(combos) != 1:
        raise ConfigError(f"{where}: give exactly one of 'evaluator', 'all', 'any', 'not'")
    if spec.all is not None or spec.any is not None:
        items = spec.all if spec.all is not None else spec.any
        op = "all" if spec.all is not None else "any"
        if not items:
            raise ConfigError(f"{where}.{op}: list at least one evaluator")
        parts = [_node(p, f"{where}.{op}[{i}]") for i, p in enumerate(items)]
        combined = parts[0]
        for part in parts[1:]:
            combined = (combined & part) if op == "all" else (combined | part)
        return combined.on(spec.env) if spec.env else combined
    if spec.not_ is not None:
        negated = ~_node(spec.not_, f"{where}.not")
        return negated.on(spec.env) if spec.env else negated
    assert spec.evaluator is not None
    target = resolve_ref(spec.evaluator, f"{where}.evaluator")
    if not isinstance(target, Evaluator):
        raise ConfigError(f"{where}.evaluator: '{spec.evaluator}' is an action, not an evaluator")
    bound = _bind(target, spec.args, f"{where}.args")
    return bound.on(spec.env) if spec.env else bound


def _step(spec: StepSpec, where: str) -> ActionStep:
    target = resolve_ref(spec.action, f"{where}.action")
    return ActionStep(env=spec.env, action=_bind(target, spec.args, f"{where}.args"))


def _bind(target: ActionT, args: dict[str, Any], where: str) -> ActionT:
    try:
        return cast(ActionT, target(**args))
    except InvalidActionArguments as exc:
        raise ConfigError(f"{where}: {exc}") from None


# ------------------------------------------------------------------ saving
def task_to_dict(task: Task) -> dict[str, Any]:
    """The explicit JSON form of a task (composed tasks are saved expanded)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "id": task.id,
        "instruction": task.instruction,
        "nodes": {key: _node_dict(ev) for key, ev in task.nodes.items()},
        "edges": [list(e) for e in task.edges],
        "setup": [_step_dict(s) for s in task.setup],
        "teardown": [_step_dict(s) for s in task.teardown],
        "extra_actions": [_step_dict(s) for s in task.extra_actions],
        "reference_solution": [c.model_dump() for c in task.reference_solution],
        "alternative_solutions": [[c.model_dump() for c in s] for s in task.alternative_solutions],
        "near_misses": [n.model_dump() for n in task.near_misses],
        "user_data": task.user_data,
        "may_change": list(task.may_change),
        "metadata": task.metadata.model_dump(mode="json"),
    }


def tasks_to_jsonl(tasks: Iterable[Task]) -> str:
    """Tasks as canonical JSON lines: the same tasks always give the same bytes.

    Keys keep the order :func:`task_to_dict` gives them (node order is the order the graph
    evaluator checks in, so it is part of the task); no spaces, UTF-8 kept as is, and
    non-finite floats refused (JSON has none). Frozen suites and run directories use it.
    """
    return "".join(json_line(task_to_dict(t)) for t in tasks)


# Characters str.splitlines() breaks lines at that json.dumps leaves raw when it keeps
# non-ASCII text: escaped, so one task is always one line.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(document: dict[str, Any]) -> str:
    """One task document as a canonical JSON line (see :func:`tasks_to_jsonl`)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_LINE_BREAKS) + "\n"


def save_tasks(tasks: list[Task], path: str | Path) -> None:
    """Write tasks as JSON lines (``.jsonl``) or one JSON document (``.json``)."""
    path = Path(path)
    documents = [task_to_dict(t) for t in tasks]
    if path.suffix == ".jsonl":
        text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents)
    else:
        text = (
            json.dumps(
                documents[0] if len(documents) == 1 else documents, indent=2, ensure_ascii=False
            )
            + "\n"
        )
    path.write_text(text, encoding="utf-8")


def _node_dict(ev: Evaluator) -> dict[str, Any]:
    if isinstance(ev, _Combined):
        if ev.op == "not":
            return {"not": _node_dict(ev.parts[0])}
        return {"all" if ev.op == "and" else "any": [_node_dict(p) for p in ev.parts]}
    out: dict[str, Any] = {"evaluator": _check_ref(ev), "args": ev.json_arguments()}
    if ev.env_name:
        out["env"] = ev.env_name
    return out


def _step_dict(step: ActionStep) -> dict[str, Any]:
    ref = _check_ref(step.action)
    return {"env": step.env, "action": ref, "args": step.action.json_arguments()}


def _check_ref(act: Action) -> str:
    """The reference a file writes for ``act`` (its stable name if it has one), checked to
    load back to the same function."""
    ref = written_ref(act)
    try:
        target = resolve_ref(ref)
    except ConfigError:
        target = None
    if target is None or target.func is not act.func:
        raise ConfigError(
            f"{act.label} cannot be saved: '{ref}' does not import back to it "
            "(define actions and evaluators at module level)"
        )
    return ref


# The keys of a task document whose entries name actions or evaluators.
_REF_SECTIONS = ("nodes", "setup", "teardown", "extra_actions")


def task_refs(document: Mapping[str, Any]) -> list[str]:
    """Every action and evaluator reference an explicit task document writes, in order."""
    found: list[str] = []

    def keep(ref: str) -> str:
        found.append(ref)
        return ref

    _walk_refs([document.get(k) for k in _REF_SECTIONS], keep)
    return found


def rename_refs(document: dict[str, Any], renamed: Mapping[str, str]) -> dict[str, Any]:
    """A copy of an explicit task document with each reference in ``renamed`` replaced
    (the others kept): how data written with old references compares with today's."""
    out = dict(document)
    for key in _REF_SECTIONS:
        if key in out:
            out[key] = _walk_refs(out[key], lambda ref: renamed.get(ref, ref))
    return out


def _walk_refs(node: Any, visit: Callable[[str], str]) -> Any:
    if isinstance(node, dict):
        return {
            k: visit(v)
            if k in ("evaluator", "action") and isinstance(v, str)
            else _walk_refs(v, visit)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_walk_refs(item, visit) for item in node]
    return node
