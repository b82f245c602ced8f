"""Tasks: an instruction, a graph of checkpoints, how to set up and how to solve.

A :class:`Task` is built in Python (code as configuration) or loaded from versioned JSON
(:mod:`reefbench.tasks.taskfile`). Every task carries a reference solution made of action calls
through the real action space, so the benchmark can prove each task solvable.
"""

from __future__ import annotations

from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import Action, ActionCall
from reefbench.tasks.graph import GraphEvaluator

AutomationLevel = Literal["L1", "L2", "L3", "L4", "L5"]
Scope = Literal["S1", "S2", "S3"]

# OS-MAP App. D.1: step limits per automation level; CRAB uses 15 turns for every task.
STEP_LIMIT_BY_LEVEL: dict[str, int] = {"L1": 15, "L2": 15, "L3": 30, "L4": 50, "L5": 50}
DEFAULT_STEP_LIMIT = 15


class ActionStep(BaseModel):
    """A bound action run in a named environment (setup, teardown, task-specific actions)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    env: str
    action: Action


class SubtaskInfo(BaseModel):
    """Where a composed task came from: one subtask and the checkpoint nodes it owns.

    Used for OmniBench's logical consistency (application per subtask), VeriGUI's SR@k
    (``solution_span`` slices the reference solution per subtask) and reports.
    """

    id: str
    template: str = ""
    app: str = ""
    app_category: str = ""
    env: str = ""
    nodes: list[str]
    attributes: dict[str, Any] = Field(default_factory=dict)
    solution_span: tuple[int, int] = (0, 0)


class NearMissCase(BaseModel):
    """A plausible wrong way to do one subtask of this task: its checkpoints must not all
    complete when these calls replace the subtask's part of the reference solution.

    Stored with the task (not regenerated from the template) so a frozen task file holds
    everything the gates play; editing a template cannot change a frozen task.
    """

    subtask: str
    label: str
    calls: list[ActionCall]


def _tag_value(tags: list[str], key: str) -> str | None:
    """The value of the first ``key:value`` tag (labels kept as tags so that frozen data
    keeps its schema)."""
    prefix = f"{key}:"
    return next((t.removeprefix(prefix) for t in tags if t.startswith(prefix)), None)


class TaskMetadata(BaseModel):
    """Labels used for filtering, step limits and report breakdowns."""

    environments: list[str] = Field(default_factory=list)
    apps: list[str] = Field(default_factory=list)
    step_limit: int | None = Field(default=None, ge=1)
    level: AutomationLevel | None = None
    scope: Scope | None = None
    domain: str | None = None
    scenario: str | None = None
    difficulty: int | None = Field(default=None, ge=1, le=5)
    complexity: dict[str, int | str] = Field(default_factory=dict)
    capabilities: list[str] = Field(default_factory=list)
    subtasks: list[SubtaskInfo] = Field(default_factory=list)
    subtask_links: list[tuple[str, str]] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)

    @property
    def family(self) -> str | None:
        """The task's family in its release (tag ``family:<name>``), if it has one."""
        return _tag_value(self.tags, "family")

    @property
    def tier(self) -> str | None:
        """The task's difficulty tier, easy, medium or hard (tag ``tier:<tier>``), if set."""
        return _tag_value(self.tags, "tier")

    @property
    def platform(self) -> str:
        """The environment's name, or ``"cross"`` for tasks spanning several."""
        envs = sorted(set(self.environments))
        if len(envs) == 1:
            return envs[0]
        return "cross" if envs else "none"


class Task(BaseModel):
    """One benchmark task.

    Attributes:
        id: Unique, stable identifier.
        instruction: What the agent is told.
        nodes: Checkpoint id -> bound evaluator.
        edges: (u, v): checkpoint v is checked only after u completed.
        setup: Actions run before the agent starts (not by the agent).
        teardown: Actions run after the final check.
        extra_actions: Task-specific actions added to an environment's action space.
        reference_solution: Action calls that solve the task (the oracle plays them).
        alternative_solutions: Other, different solutions that must also pass.
        near_misses: Plausible wrong ways to do a subtask, which must not complete it.
        user_data: What the simulated user answers to ``call_user(kind)``.
        may_change: State keys the task may change beyond those its checkpoints govern
            (see :mod:`reefbench.tasks.sideeffects`); any other change is a side effect.
        metadata: Labels (environments, level, complexity, capabilities, ...).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    id: str = Field(min_length=1)
    instruction: str = Field(min_length=1)
    nodes: dict[str, Evaluator]
    edges: list[tuple[str, str]] = Field(default_factory=list)
    setup: list[ActionStep] = Field(default_factory=list)
    teardown: list[ActionStep] = Field(default_factory=list)
    extra_actions: list[ActionStep] = Field(default_factory=list)
    reference_solution: list[ActionCall] = Field(default_factory=list)
    alternative_solutions: list[list[ActionCall]] = Field(default_factory=list)
    near_misses: list[NearMissCase] = Field(default_factory=list)
    user_data: dict[str, str] = Field(default_factory=dict)
    may_change: list[str] = Field(default_factory=list)
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)

    @field_validator("nodes")
    @classmethod
    def _evaluators_only(cls, nodes: dict[str, Any]) -> dict[str, Evaluator]:
        for key, node in nodes.items():
            if not isinstance(node, Evaluator):
                raise ValueError(f"node '{key}' is {type(node).__name__}, not an Evaluator")
        return nodes

    @model_validator(mode="after")
    def _valid_graph(self) -> Task:
        GraphEvaluator(self.nodes, self.edges)  # raises GraphError: empty, cycle, unknown node
        if not self.metadata.environments:
            envs = {n.env_name for n in self.nodes.values() if n.env_name}
            envs |= {s.env for s in self.setup} | {c.env for c in self.reference_solution}
            envs.discard("root")
            self.metadata.environments = sorted(envs)
        return self

    @classmethod
    def from_graph(cls, id: str, instruction: str, graph: nx.DiGraph[Any], **fields: Any) -> Task:
        """Build a task from a DiGraph of evaluator nodes (ids = evaluator labels)."""
        ge = GraphEvaluator(graph)
        nodes = {key: ge.evaluator(key) for key in ge.ids}
        return cls(id=id, instruction=instruction, nodes=nodes, edges=list(ge.dag.edges), **fields)

    def graph_evaluator(self) -> GraphEvaluator:
        """A fresh graph evaluator for one episode of this task."""
        return GraphEvaluator(self.nodes, self.edges)

    @property
    def evaluator_graph(self) -> nx.DiGraph[Any]:
        """The checkpoint DAG over node ids (for metrics and pictures)."""
        dag: nx.DiGraph[Any] = nx.DiGraph()
        dag.add_nodes_from(self.nodes)
        dag.add_edges_from(self.edges)
        return dag

    @property
    def solution_actions(self) -> int:
        """The reference solution's length in actions: ``wait`` turns are slack the oracle
        leaves a slow app, not work, so they do not count (suite statistics, the short-task
        cut of reef-v1)."""
        return sum(1 for c in self.reference_solution if (c.env, c.name) != ("root", "wait"))

    def near_miss_solution(self, case: NearMissCase) -> list[ActionCall]:
        """The reference solution with ``case``'s calls in place of its subtask's part."""
        spans = {info.id: info.solution_span for info in self.metadata.subtasks}
        if case.subtask not in spans:
            raise KeyError(f"task {self.id}: near miss {case.label!r} names no subtask")
        start, end = spans[case.subtask]
        return [*self.reference_solution[:start], *case.calls, *self.reference_solution[end:]]

    @property
    def step_limit(self) -> int:
        """The task's own limit, else OS-MAP's limit for its level, else CRAB's 15 turns."""
        if self.metadata.step_limit is not None:
            return self.metadata.step_limit
        if self.metadata.level is not None:
            return STEP_LIMIT_BY_LEVEL[self.metadata.level]
        return DEFAULT_STEP_LIMIT
