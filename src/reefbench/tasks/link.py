"""Join instantiated subtasks into one task (CRAB §3.4, the GDT).

An edge (i, j) between subtasks means i's output feeds an input of j, so the output type
of i must be the type of one of j's attributes. The composed evaluator graph links every
sink of i's subgraph to every source of j's subgraph; the reference solution concatenates
the subtasks' solutions in a topological order of the subtask graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.errors import ConfigError
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import ActionStep, NearMissCase, SubtaskInfo, Task, TaskMetadata


def compose_task(
    task_id: str,
    parts: Sequence[tuple[SubTask, Mapping[str, Any]]],
    links: Sequence[tuple[int, int]] = (),
    *,
    instruction: str | None = None,
    metadata: TaskMetadata | None = None,
    user_data: Mapping[str, str] | None = None,
) -> Task:
    """Compose subtasks (template, attribute values) linked by ``links`` into a task.

    Raises:
        ConfigError: a link names a missing subtask, joins mismatched types, or forms a cycle.
    """
    dag = _link_graph(task_id, parts, links)
    order = list(nx.lexicographical_topological_sort(dag))
    fragments = [template.instantiate(values) for template, values in parts]
    joined = _Joined()
    for index in order:
        template, values = parts[index]
        joined.add(index, template, values, fragments[index])
    # A link joins the first subtask's sinks to the second's sources.
    sub_graphs = {i: _ends(fragments[i], f"s{i}.") for i in range(len(parts))}
    for i, j in dag.edges:
        sinks, sources = sub_graphs[i][1], sub_graphs[j][0]
        joined.edges.extend((u, v) for u in sinks for v in sources)

    meta = (metadata or TaskMetadata()).model_copy(deep=True)
    meta.subtasks = [joined.infos[i] for i in order]
    meta.subtask_links = [(f"s{i}", f"s{j}") for i, j in dag.edges]
    if not meta.apps:
        meta.apps = sorted({p[0].app for p in parts if p[0].app})
    any_alternative = any(f.alternatives for f in fragments)
    return Task(
        id=task_id,
        instruction=instruction or _structured_instruction(fragments, list(dag.edges)),
        nodes=joined.nodes,
        edges=joined.edges,
        setup=joined.setup,
        reference_solution=joined.solution,
        alternative_solutions=[joined.alternative] if any_alternative else [],
        near_misses=joined.near_misses,
        user_data=dict(user_data or {}),
        may_change=joined.may_change,
        metadata=meta,
    )


def _link_graph(
    task_id: str,
    parts: Sequence[tuple[SubTask, Mapping[str, Any]]],
    links: Sequence[tuple[int, int]],
) -> nx.DiGraph[Any]:
    """The links as a graph over subtask numbers, checked: each link joins two existing
    subtasks whose types match (the first's output is an input type of the second), and
    the links form no cycle; every error names the task and the link.

    Raises:
        ConfigError: no subtask, a link naming a missing subtask, a type mismatch, a cycle.
    """
    if not parts:
        raise ConfigError(f"task {task_id}: a composed task needs at least one subtask")
    dag: nx.DiGraph[Any] = nx.DiGraph()
    dag.add_nodes_from(range(len(parts)))
    for i, j in links:
        for end in (i, j):
            if not 0 <= end < len(parts):
                raise ConfigError(
                    f"task {task_id}: link ({i}, {j}) names subtask {end}, "
                    f"but there are {len(parts)} (numbered from 0)"
                )
        out_type = parts[i][0].output_type
        takes = sorted(set(parts[j][0].attributes.values()))
        if out_type is None or out_type not in takes:
            raise ConfigError(
                f"task {task_id}: type mismatch on link ({i}, {j}): subtask "
                f"'{parts[i][0].id}' outputs {out_type or 'nothing'} but "
                f"'{parts[j][0].id}' takes {', '.join(takes) or 'no input'}"
            )
        dag.add_edge(i, j)
    if not nx.is_directed_acyclic_graph(dag):
        cycle = " -> ".join(str(u) for u, _ in nx.find_cycle(dag))
        raise ConfigError(f"task {task_id}: the subtask links form a cycle ({cycle})")
    return dag


@dataclass
class _Joined:
    """The instantiated subtasks of a composed task, concatenated in link order: graph
    nodes and edges (keys prefixed ``s<i>.``), setup, solutions, the keys they may change,
    each subtask's :class:`SubtaskInfo` and near misses. A subtask without alternatives
    contributes its reference solution to the task's alternative."""

    nodes: dict[str, Evaluator] = field(default_factory=dict)
    edges: list[tuple[str, str]] = field(default_factory=list)
    setup: list[ActionStep] = field(default_factory=list)
    solution: list[ActionCall] = field(default_factory=list)
    alternative: list[ActionCall] = field(default_factory=list)
    may_change: list[str] = field(default_factory=list)
    infos: dict[int, SubtaskInfo] = field(default_factory=dict)
    near_misses: list[NearMissCase] = field(default_factory=list)

    def add(self, index: int, template: SubTask, values: Mapping[str, Any], fragment: Any) -> None:
        """Append subtask ``index`` (``template`` instantiated with ``values``)."""
        prefix = f"s{index}."
        self.nodes.update({prefix + key: ev for key, ev in fragment.nodes.items()})
        self.edges.extend((prefix + u, prefix + v) for u, v in fragment.edges)
        self.setup.extend(fragment.setup)
        self.may_change.extend(k for k in fragment.may_change if k not in self.may_change)
        start = len(self.solution)
        self.solution.extend(fragment.solution)
        self.alternative.extend(
            fragment.alternatives[0] if fragment.alternatives else fragment.solution
        )
        self.infos[index] = SubtaskInfo(
            id=f"s{index}",
            template=template.id,
            app=template.app,
            app_category=template.app_category,
            env=template.env,
            nodes=[prefix + key for key in fragment.nodes],
            attributes=dict(values),
            solution_span=(start, len(self.solution)),
        )
        self.near_misses += [
            NearMissCase(
                subtask=f"s{index}", label=near.label, calls=template.near_miss_calls(near, values)
            )
            for near in template.near_misses
        ]


def _ends(fragment: Any, prefix: str) -> tuple[list[str], list[str]]:
    graph: nx.DiGraph[Any] = nx.DiGraph()
    graph.add_nodes_from(fragment.nodes)
    graph.add_edges_from(fragment.edges)
    sources = [prefix + n for n in graph if graph.in_degree(n) == 0]
    sinks = [prefix + n for n in graph if graph.out_degree(n) == 0]
    return sources, sinks


def _structured_instruction(fragments: Sequence[Any], links: list[tuple[int, int]]) -> str:
    """The instruction synthesis writes (:mod:`reefbench.tasks.instructions`): every link
    said at the step that needs it, so the consistency gate reads the links back (a plain
    "first ...; then ..." told a branch as a chain). Imported here, on first use, so that
    ``import reefbench`` stays light."""
    from reefbench.tasks.instructions import InstructionGraph, render_instruction

    return render_instruction(InstructionGraph.of([f.instruction for f in fragments], links))
