"""reef-v0's handmade tasks: written instructions over subtasks from the pool.

Each is assembled from pool templates (so its checkpoints and solutions are the tested
ones) but ordered by hand with edges that need not carry a typed value ("sign in, then
send the mail"), and described in a person's words. They cover what synthesis does not:
CALL_USER for credentials, fan-outs and joins across devices, step-by-step (L1) wording.

The tasks are data, ``handmade_tasks.json`` beside this module: a list of composed task
files (:class:`reefbench.tasks.taskfile.ComposedTaskFile`: template ids with attribute values,
``links``, ``metadata``), except that a link here only orders two subtasks
(:func:`assemble`) and the instruction, level and scenario are required. Adding a task
is adding an entry; :func:`load` reads them in the file's order (a malformed entry is a
one-line :class:`~reefbench.errors.TaskLoadError`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pydantic
from pydantic import Field

from reefbench.benchmark.finish import finish
from reefbench.benchmark.templates import POOL
from reefbench.errors import GraphError, ReefError, TaskLoadError
from reefbench.plumbing.userfiles import first_validation_error, json_documents
from reefbench.tasks.link import compose_task
from reefbench.tasks.task import Task, TaskMetadata
from reefbench.tasks.taskfile import ComposedTaskFile

Part = tuple[str, dict[str, Any]]
DATA = Path(__file__).with_name("handmade_tasks.json")
# Why two of them read as they do (JSON keeps no comments):
# * v0-hand-code-fanout used to forward the bank's verification code: asking to send one
#   to someone else measures a model's safety policy, not its skill (the lint gate).
# * v0-hand-meeting-brief used to ask for "the place" and expect "Studio C after lunch": a
#   model that wrote "Studio C" failed for the benchmark's mistake. Now it asks for what
#   it checks.


def assemble(
    task_id: str,
    instruction: str,
    parts: Sequence[Part],
    edges: Sequence[tuple[int, int]] = (),
    *,
    level: str,
    scenario: str,
) -> Task:
    """A task from templates in solution order; ``edges`` (i < j) order subtask i before j.

    Like :func:`~reefbench.tasks.link.compose_task`, every checkpoint sink of i precedes
    every source of j, and the solution spans stay per subtask (SR@k works).
    """
    metadata = TaskMetadata(level=level, scenario=scenario)  # type: ignore[arg-type]
    return _assemble(task_id, instruction, parts, edges, metadata)


def _assemble(
    task_id: str,
    instruction: str,
    parts: Sequence[Part],
    edges: Sequence[tuple[int, int]],
    metadata: TaskMetadata,
    user_data: Mapping[str, str] | None = None,
) -> Task:
    for i, j in edges:
        if not 0 <= i < j < len(parts):
            raise GraphError(f"{task_id}: edge ({i}, {j}) must go forward between subtasks")
    task = compose_task(
        task_id,
        [(POOL[template], values) for template, values in parts],
        instruction=instruction,
        metadata=metadata,
        user_data=user_data,
    )
    ends: dict[str, tuple[list[str], list[str]]] = {}
    for info in task.metadata.subtasks:
        own = set(info.nodes)
        inner = [(u, v) for u, v in task.edges if u in own and v in own]
        sources = [n for n in info.nodes if not any(v == n for _, v in inner)]
        sinks = [n for n in info.nodes if not any(u == n for u, _ in inner)]
        ends[info.id] = (sources, sinks)
    for i, j in edges:
        sinks, sources = ends[f"s{i}"][1], ends[f"s{j}"][0]
        task.edges.extend((u, v) for u in sinks for v in sources)
    task.metadata.subtask_links = [(f"s{i}", f"s{j}") for i, j in edges]
    task = Task.model_validate(task.model_dump() | {"nodes": task.nodes})  # re-check the DAG
    return finish(task, tags=("handmade",))


class HandmadeTaskFile(ComposedTaskFile):
    """One entry of the data: a composed task file whose instruction is required."""

    instruction: str = Field(min_length=1)


def load() -> list[Task]:
    """The handmade tasks, in the data's order."""
    return load_file(DATA)


def load_file(path: Path) -> list[Task]:
    """The handmade tasks of a JSON file (a list of entries), in its order.

    Raises:
        TaskLoadError: one line naming the file, the entry, the field and what to write.
    """
    tasks: list[Task] = []
    seen: set[str] = set()
    for where, document in json_documents(path, TaskLoadError):
        task = _task(document, where)
        if task.id in seen:
            raise TaskLoadError(f"{where}: duplicate task id '{task.id}'; give it a new id")
        seen.add(task.id)
        tasks.append(task)
    return tasks


def _task(document: Any, where: str) -> Task:
    task_id = document.get("id", "?") if isinstance(document, dict) else "?"
    label = f"{where} (task '{task_id}')"
    try:
        spec = HandmadeTaskFile.model_validate(document)
        missing = [k for k in ("level", "scenario") if getattr(spec.metadata, k) is None]
        if missing:
            raise TaskLoadError(
                f"{label}: metadata.{missing[0]}: missing; a handmade task states its "
                'level and scenario, e.g. "metadata": {"level": "L2", "scenario": "email"}'
            )
        for i, sub in enumerate(spec.subtasks):
            if sub.template not in POOL:
                raise TaskLoadError(
                    f"{label}: subtasks[{i}].template: unknown template '{sub.template}'; "
                    "use an id of reefbench.benchmark.templates.POOL "
                    "(e.g. 'desktop.create_file')"
                )
        for k, (i, j) in enumerate(spec.links):
            if not 0 <= i < j < len(spec.subtasks):
                raise TaskLoadError(
                    f"{label}: links[{k}]: [{i}, {j}] must go forward, from an earlier "
                    f"subtask to a later one (numbered from 0; there are {len(spec.subtasks)})"
                )
        parts = [(sub.template, sub.attributes) for sub in spec.subtasks]
        return _assemble(
            spec.id, spec.instruction, parts, spec.links, spec.metadata, spec.user_data
        )
    except pydantic.ValidationError as exc:
        raise TaskLoadError(_one_line(f"{label}: {first_validation_error(exc)}")) from None
    except TaskLoadError as exc:
        raise TaskLoadError(_one_line(str(exc))) from None
    except ReefError as exc:
        raise TaskLoadError(_one_line(f"{label}: {exc}")) from None


def _one_line(message: str) -> str:
    return message.replace("\r", "\\r").replace("\n", "\\n")
