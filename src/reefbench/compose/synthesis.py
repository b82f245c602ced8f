"""Controlled synthesis: many distinct composed tasks at requested complexity levels.

OmniBench composes subtasks bottom-up "using input and output resources", anchored on a
task intent so that every task has "a clear, unified goal", and controls complexity
because "the bottom-up composition follows predefined rules" (shared/seeds/002, §3.2,
App. B.3). One attempt here:

1. picks an intent (round robin over the requested ones, in sorted order) and its group of
   templates (:class:`~reefbench.compose.pool.PoolIndex`);
2. draws a layered DAG shape inside the requested ranges (:mod:`.shapes`);
3. fills it in topological order with templates whose slots take the predecessors' output
   types (steering towards new or known application categories for the knowledge level);
4. gives linked attributes the predecessor's *output value* and the free attributes values
   from the template's value pools, never reusing a value of the same type in one task;
5. measures the five complexities exactly and keeps the task only if every requested level
   is met and its canonical digest is new.

Everything random comes from one ``random.Random(seed)`` and all iteration is over sorted
keys, so the same pool, request and seed give the same tasks. The result is a list of
:class:`ComposedSpec`: the composed-task JSON of :mod:`reefbench.tasks.taskfile` (template ids,
attribute values, links, instruction and metadata), which loads back into a full
:class:`~reefbench.tasks.task.Task` through the pool.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reefbench.compose.canonical import canonical_digest, node_label
from reefbench.compose.capabilities import capabilities_for
from reefbench.compose.complexity import DIMENSIONS, LEVELS, Complexity, depth, width
from reefbench.compose.instructions import StepDescriber, render_steps
from reefbench.compose.pool import NO_INTENT, Group, PoolIndex, TemplateInfo
from reefbench.compose.shapes import Shape, bounds_for, sample_shape
from reefbench.compose.topo import count_topological_orders
from reefbench.errors import ConfigError
from reefbench.tasks.instructions import InstructionGraph, render_instruction
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task

Style = Literal["prose", "steps"]


@dataclass(frozen=True, slots=True)
class Request:
    """What to synthesise.

    Attributes:
        levels: Complexity dimension -> required level (``easy``/``medium``/``hard``).
        intents: Intents to draw from (default: every intent of the pool).
        max_subtasks: Upper bound on subtasks per task (bounds "hard", which is open).
        style: ``prose`` (structure-preserving text) or ``steps`` (OS-MAP L1: actions).
        missing_detail: OS-MAP L3: hide one free text value from the instruction; the agent
            must get it from the user (``call_user``), who has it in ``user_data``.
        describe_steps: For ``steps``: calls -> steps in a person's words (visible labels);
            default: the calls spelled as code.
        id_prefix: Task ids are ``<prefix>-<first 12 hex digits of the digest>``.
        stall: Give up after this many attempts in a row without a new task.
    """

    levels: Mapping[str, str] = field(default_factory=dict)
    intents: tuple[str, ...] = ()
    max_subtasks: int = 10
    style: Style = "prose"
    missing_detail: bool = False
    describe_steps: StepDescriber | None = None
    id_prefix: str = "task"
    stall: int = 20_000


@dataclass(slots=True)
class ComposedSpec:
    """One synthesised task in composed form (see :mod:`reefbench.tasks.taskfile`)."""

    id: str
    instruction: str
    intent: str
    subtasks: list[tuple[str, dict[str, Any]]]
    links: list[tuple[int, int]]
    metadata: dict[str, Any]
    digest: str
    user_data: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The composed-task JSON document (schema version 1)."""
        return {
            "schema_version": 1,
            "id": self.id,
            "instruction": self.instruction,
            "subtasks": [{"template": t, "attributes": v} for t, v in self.subtasks],
            "links": [list(link) for link in self.links],
            "user_data": self.user_data,
            "metadata": self.metadata,
        }

    def build(self, pool: Mapping[str, SubTask]) -> Task:
        """The full task: evaluator graph, setup and reference solution from the templates."""
        from reefbench.tasks.taskfile import task_from_dict

        return task_from_dict(self.to_dict(), pool, where=f"synthesised task {self.id}")


@dataclass(slots=True)
class SynthesisReport:
    """How a synthesis went; ``candidates`` explains a shortfall level by level."""

    requested: int
    levels: dict[str, str]
    made: int = 0
    attempts: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    candidates: dict[str, Counter[str]] = field(
        default_factory=lambda: {d: Counter() for d in DIMENSIONS}
    )
    made_levels: dict[str, Counter[str]] = field(
        default_factory=lambda: {d: Counter() for d in DIMENSIONS}
    )

    @property
    def complete(self) -> bool:
        return self.made >= self.requested

    def summary(self) -> str:
        wanted = ", ".join(f"{d}={lv}" for d, lv in self.levels.items()) or "no constraints"
        head = f"made {self.made} of {self.requested} tasks ({wanted}) in {self.attempts} attempts"
        if self.complete:
            return head
        lines = [head + "; the pool could not satisfy the request."]
        distinct = sum(self.candidates[DIMENSIONS[0]].values())
        lines.append(f"distinct valid graphs seen, by level ({distinct} in all):")
        for d in DIMENSIONS:
            counts = " / ".join(f"{lv} {self.candidates[d][lv]}" for lv in LEVELS)
            mark = f"  (wanted {self.levels[d]})" if d in self.levels else ""
            lines.append(f"  {d}: {counts}{mark}")
        reasons = ", ".join(f"{k} {v}" for k, v in self.failures.most_common())
        lines.append(f"rejected attempts: {reasons}")
        return "\n".join(lines)


class Synthesizer:
    """Yields distinct :class:`ComposedSpec` s for one pool, request and seed."""

    def __init__(
        self,
        pool: Mapping[str, SubTask],
        request: Request = Request(),
        seed: int = 0,
    ) -> None:
        if request.missing_detail and request.style == "steps":
            raise ConfigError(
                "missing_detail (L3) hides a value that the steps style (L1) would spell out: "
                "use one or the other"
            )
        self.index = PoolIndex(pool)
        self.request = request
        self.rng = random.Random(seed)
        self.levels = {d: request.levels[d].lower() for d in sorted(request.levels)}
        self.bounds = bounds_for(self.levels, request.max_subtasks)
        names = sorted(set(request.intents)) if request.intents else list(self.index.groups)
        self.groups = [self.index.group(name) for name in names]
        self.seen: set[str] = set()
        self.report = SynthesisReport(0, dict(self.levels))

    def run(self, n: int) -> Iterator[ComposedSpec]:
        """Yield up to ``n`` new tasks; stop early (see :attr:`report`) if the pool runs dry."""
        if n < 0:
            raise ConfigError(f"the number of tasks must be >= 0, got {n}")
        self.report.requested += n
        made = 0
        stalled = 0
        turn = 0
        while made < n and stalled < self.request.stall:
            group = self.groups[turn % len(self.groups)]
            turn += 1
            self.report.attempts += 1
            spec = self._attempt(group)
            if spec is None:
                stalled += 1
                continue
            stalled = 0
            made += 1
            self.report.made += 1
            yield spec

    # ------------------------------------------------------------ one attempt
    def _attempt(self, group: Group) -> ComposedSpec | None:
        rng, failures = self.rng, self.report.failures
        shape = sample_shape(rng, self.bounds, group.max_indegree)
        if shape is None:
            failures["no shape in range"] += 1
            return None
        chosen = self._label(group, shape)
        if chosen is None:
            failures["no template fits"] += 1
            return None
        filled = self._fill(chosen, shape)
        if filled is None:
            failures["value pools exhausted"] += 1
            return None
        values, texts, labels, linked = filled
        digest = canonical_digest(labels, shape.edges)
        order = range(shape.n)
        complexity = Complexity(
            dependency=len(shape.edges),
            instruction=shape.n,
            knowledge=len({info.category for info in chosen}),
            hierarchy=depth(shape.n, shape.edges, order),
            branch=width(shape.n, shape.edges, order),
        )
        if digest in self.seen:
            failures["duplicate"] += 1
            return None
        self.seen.add(digest)
        levels = complexity.levels
        for d in DIMENSIONS:
            self.report.candidates[d][levels[d]] += 1
        if any(levels[d] != lv for d, lv in self.levels.items()):
            failures["levels not met"] += 1
            return None
        for d in DIMENSIONS:
            self.report.made_levels[d][levels[d]] += 1
        hidden: dict[str, str] = {}
        if self.request.missing_detail:
            detail = self._hide_detail(chosen, values, texts, linked)
            if detail is None:
                failures["no detail to hide"] += 1
                return None
            hidden = detail
        spec = self._spec(group.intent, chosen, values, texts, shape, complexity, digest)
        if self.request.style == "steps":
            spec.instruction = self._steps(group.intent, chosen, values, linked)
        spec.user_data = hidden
        return spec

    def _label(self, group: Group, shape: Shape) -> list[TemplateInfo] | None:
        rng = self.rng
        k_lo, k_hi = self.bounds["knowledge"]
        steer = "knowledge" in self.levels
        chosen: list[TemplateInfo] = []
        categories: set[str] = set()
        for v in range(shape.n):
            pred_types = []
            for u in shape.preds[v]:
                out = chosen[u].output_type
                assert out is not None  # only feeding templates are chosen for predecessors
                pred_types.append(out)
            candidates = group.candidates(tuple(sorted(pred_types)), shape.has_successor[v])
            if not candidates:
                return None
            if steer:
                if len(categories) < k_lo:
                    fresh = [c for c in candidates if c.category not in categories]
                    candidates = fresh or candidates
                elif len(categories) >= k_hi:
                    known = [c for c in candidates if c.category in categories]
                    candidates = known or candidates
            pick = candidates[rng.randrange(len(candidates))]
            chosen.append(pick)
            categories.add(pick.category)
        return chosen

    def _fill(
        self, chosen: list[TemplateInfo], shape: Shape
    ) -> tuple[list[dict[str, Any]], list[str], list[str], list[set[str]]] | None:
        rng = self.rng
        linked: list[set[str]] = []
        used: dict[str, set[Any]] = {}
        outputs: list[Any] = [None] * shape.n
        all_values: list[dict[str, Any]] = []
        texts: list[str] = []
        labels: list[str] = []
        for v, info in enumerate(chosen):
            template = info.template
            values: dict[str, Any] = {}
            preds = sorted(shape.preds[v], key=lambda u: (chosen[u].output_type or "", u))
            if preds:
                slots = info.assign([chosen[u].output_type or "" for u in preds])
                if slots is None:  # cannot happen: candidates were filtered by assign()
                    return None
                for u, attribute in zip(preds, slots, strict=True):
                    values[attribute] = outputs[u]
            linked.append(set(values))
            # One draw per free attribute, as without records, so a pool that adds records
            # changes only the tasks of the templates that have them.
            starts = {
                a: rng.randrange(len(info.values[a]))
                for a in template.attributes
                if a not in values
            }
            if template.value_records:
                row = _record(template, values, used, starts)
                if row is None:
                    return None
                values.update(row)
            for attribute, type_name in template.attributes.items():
                if attribute in values:
                    continue
                pool = info.values[attribute]
                taken = used.setdefault(type_name, set())
                start = starts[attribute]
                for k in range(len(pool)):
                    candidate = pool[(start + k) % len(pool)]
                    if candidate not in taken:
                        break
                else:
                    return None
                values[attribute] = candidate
                taken.add(candidate)
            ordered = {a: values[a] for a in template.attributes}
            if shape.has_successor[v]:
                assert template.output_generator is not None
                out = template.output_generator(**ordered)
                outputs[v] = out
                used.setdefault(info.output_type or "", set()).add(out)
            label = node_label(template.id, ordered)
            if label in labels:
                return None
            all_values.append(ordered)
            texts.append(template.description.format(**ordered))
            labels.append(label)
        return all_values, texts, labels, linked

    def _hide_detail(
        self,
        chosen: list[TemplateInfo],
        values: list[dict[str, Any]],
        texts: list[str],
        linked: list[set[str]],
    ) -> dict[str, str] | None:
        """Replace one free text value, said only once in the task, by a request to ask."""
        candidates = []
        for v, info in enumerate(chosen):
            out = info.template.output_generator
            for attribute, value in values[v].items():
                if attribute in linked[v] or not isinstance(value, str) or len(value) < 2:
                    continue
                if out is not None and out(**values[v]) == value:
                    continue  # the output flows on into other subtasks' text
                if sum(text.count(value) for text in texts) != 1:
                    continue
                candidates.append((v, attribute, value))
        if not candidates:
            return None
        v, attribute, value = candidates[self.rng.randrange(len(candidates))]
        kind = attribute
        texts[v] = texts[v].replace(value, f"[ask the user for the {kind}]")
        return {kind: value}

    def _steps(
        self,
        intent: str,
        chosen: list[TemplateInfo],
        values: list[dict[str, Any]],
        linked: list[set[str]],
    ) -> str:
        calls = [
            call
            for info, attrs in zip(chosen, values, strict=True)
            if info.template.solution_generator is not None
            for call in info.template.solution_generator(**attrs)
        ]
        goal = None if intent == NO_INTENT else intent
        withheld = withheld_values(chosen, values, linked)
        return render_steps(calls, goal, self.request.describe_steps, withheld)

    def _spec(
        self,
        intent: str,
        chosen: list[TemplateInfo],
        values: list[dict[str, Any]],
        texts: list[str],
        shape: Shape,
        complexity: Complexity,
        digest: str,
    ) -> ComposedSpec:
        goal = None if intent == NO_INTENT else intent
        graph = InstructionGraph(tuple(texts), tuple(shape.edges), goal)
        tags = [f"intent:{intent}"] if goal else []
        if self.request.style == "steps":
            instruction = ""  # written by _steps
            level = "L1"
        else:
            instruction = render_instruction(graph)
            apps = {info.template.app or info.template.id for info in chosen}
            level = "L4" if len(apps) > 1 else "L2"
            if self.request.missing_detail:
                level = "L3"
        meta_complexity: dict[str, int | str] = complexity.as_metadata()
        meta_complexity["topological_orders"] = count_topological_orders(shape.n, shape.edges)
        metadata: dict[str, Any] = {
            "environments": sorted({info.template.env for info in chosen}),
            "apps": sorted({info.template.app for info in chosen if info.template.app}),
            "level": level,
            "scenario": goal,
            "complexity": meta_complexity,
            "capabilities": capabilities_for(complexity.levels),
            "tags": tags,
        }
        return ComposedSpec(
            id=f"{self.request.id_prefix}-{digest[:12]}",
            instruction=instruction,
            intent=intent,
            subtasks=[(info.id, attrs) for info, attrs in zip(chosen, values, strict=True)],
            links=list(shape.edges),
            metadata=metadata,
            digest=digest,
        )


def withheld_values(
    chosen: Sequence[TemplateInfo], values: Sequence[Mapping[str, Any]], linked: Sequence[set[str]]
) -> dict[str, str]:
    """Linked values no subtask's text shows (a code read in a message): what the agent
    must find out, so step-by-step instructions name them instead of spelling them."""
    shown = {values[v][a] for v, info in enumerate(chosen) for a in info.template.placeholders}
    return {
        values[v][a]: f"the {a} you found"
        for v in range(len(chosen))
        for a in sorted(linked[v])
        if isinstance(values[v][a], str) and values[v][a] not in shown
    }


def _record(
    template: SubTask,
    linked: Mapping[str, Any],
    used: dict[str, set[Any]],
    starts: Mapping[str, int],
) -> dict[str, Any] | None:
    """One of the template's value records that agrees with the linked values and uses
    no value already taken; its values are then taken (``None``: no record fits)."""
    rows = template.value_records
    start = next((starts[a] for a in rows[0] if a in starts), 0)
    for k in range(len(rows)):
        row = rows[(start + k) % len(rows)]
        fits = all(
            row[a] == linked[a]
            if a in linked
            else row[a] not in used.get(template.attributes[a], set())
            for a in row
        )
        if fits:
            for a, value in row.items():
                if a not in linked:
                    used.setdefault(template.attributes[a], set()).add(value)
            return {a: v for a, v in row.items() if a not in linked}
    return None


def synthesize(
    pool: Mapping[str, SubTask],
    n: int,
    request: Request = Request(),
    seed: int = 0,
) -> tuple[list[ComposedSpec], SynthesisReport]:
    """Synthesise up to ``n`` distinct tasks; the report says how many and, if short, why."""
    synthesizer = Synthesizer(pool, request, seed)
    specs = list(synthesizer.run(n))
    return specs, synthesizer.report
