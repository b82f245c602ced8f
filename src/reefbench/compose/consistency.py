"""The consistency validator: read the dependencies back out of an instruction (OmniBench B.4).

OmniBench has GPT-4o "infer subtask dependencies purely from the generated task
instruction, without access to the original task graph"; the instruction passes only if
the inferred structure equals the graph, and fails on "missing parallel execution paths or
incorrect sequencing" (shared/seeds/002, App. B.4).

For our own structure-preserving text (:mod:`reefbench.compose.instructions`) the inference
is rule-based and exact: every step is located, its connective names the steps it needs,
and "can be done in either order" claims are checked against the graph. Text rewritten by a
model needs a model to read it: :data:`DependencyInferrer` is the hook a provider implements
(``INFER_PROMPT`` is the prompt to give it) and :func:`inferring_validator` turns it into a
validator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from reefbench.errors import GraphError
from reefbench.tasks.instructions import InstructionGraph
from reefbench.tasks.ordering import descendants

_REFS = r"((?:\(\d+\)(?:, | and ))*\(\d+\))"
_NOTE = re.compile(_REFS + r" can be done in (?:either|any) order\.")
_STEP = re.compile(r"(?:^|(?<=[.;] ))\((\d+)\) (?!and \(|, \()")
_CONNECTIVES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"When " + _REFS + r" are (?:both|all) done, using their results, (.*)", re.S),
        "refs",
    ),
    (re.compile(r"Using the result of (\(\d+\)), (.*)", re.S), "refs"),
    (re.compile(r"Then, using its result, (.*)", re.S), "previous"),
    (re.compile(r"Independently, (.*)", re.S), "none"),
)
_NUMBER = re.compile(r"\((\d+)\)")

INFER_PROMPT = """\
Below is a task instruction and the list of its subtasks, numbered from 0. Using ONLY the
instruction, decide for every subtask which other subtasks must be finished before it can
start (because it uses their result or the instruction says to wait for them). Reply with
one JSON object: {{"edges": [[before, after], ...]}} using the subtask numbers.

Instruction:
{instruction}

Subtasks:
{subtasks}
"""


@dataclass(slots=True)
class ConsistencyReport:
    """The dependencies read from an instruction and every disagreement with the graph."""

    edges: set[tuple[int, int]] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class InstructionValidator(Protocol):
    """Decides whether an instruction describes a graph faithfully."""

    def __call__(self, instruction: str, graph: InstructionGraph) -> bool: ...


# (instruction, subtask texts) -> inferred edges (i, j): "j needs i". A model implements it.
DependencyInferrer = Callable[[str, Sequence[str]], Iterable[tuple[int, int]]]


def _key(text: str) -> str:
    text = text.strip().rstrip(".").strip()
    return text[:1].lower() + text[1:]


def infer_dependencies(instruction: str, texts: Sequence[str]) -> ConsistencyReport:
    """Parse a structure-preserving instruction into subtask dependencies (rule-based)."""
    report = ConsistencyReport()
    claims = [_numbers(m.group(1)) for m in _NOTE.finditer(instruction)]
    body = _NOTE.sub("", instruction)
    markers = list(_STEP.finditer(body))
    wanted: dict[str, list[int]] = {}
    for node, text in enumerate(texts):
        wanted.setdefault(_key(text), []).append(node)
    node_of: dict[int, int] = {}
    refs_of: dict[int, list[int]] = {}
    for position, marker in enumerate(markers):
        step = int(marker.group(1))
        if step != position + 1:
            report.problems.append(f"step ({step}) is out of sequence (expected ({position + 1}))")
        end = markers[position + 1].start() if position + 1 < len(markers) else len(body)
        segment = body[marker.end() : end].strip()
        refs, text = _connective(segment, step)
        nodes = wanted.get(_key(text), [])
        free = [n for n in nodes if n not in node_of.values()]
        if not free:
            what = "repeats a subtask" if nodes else "describes no known subtask"
            report.problems.append(f"step ({step}) {what}: {text[:80]!r}")
            continue
        node_of[step] = free[0]
        refs_of[step] = refs
    for node, text in enumerate(texts):
        if node not in node_of.values():
            report.problems.append(f"subtask {node} is missing from the instruction: {text[:80]!r}")
    for step, refs in refs_of.items():
        for ref in refs:
            if ref not in node_of:
                report.problems.append(f"step ({step}) refers to ({ref}), which is no step")
            else:
                report.edges.add((node_of[ref], node_of[step]))
    report.problems.extend(_claim_problems(claims, node_of, len(texts), report.edges))
    return report


def _connective(segment: str, step: int) -> tuple[list[int], str]:
    for pattern, kind in _CONNECTIVES:
        match = pattern.fullmatch(segment)
        if match is None:
            continue
        if kind == "refs":
            return _numbers(match.group(1)), match.group(2)
        if kind == "previous":
            return [step - 1], match.group(1)
        return [], match.group(1)
    return [], segment


def _numbers(refs: str) -> list[int]:
    return [int(x) for x in _NUMBER.findall(refs)]


def _claim_problems(
    claims: list[list[int]],
    node_of: dict[int, int],
    n: int,
    edges: set[tuple[int, int]],
) -> list[str]:
    """'(2) and (3) can be done in either order' must hold in the stated dependencies."""
    problems = []
    try:
        reach = descendants(n, sorted(edges))
    except GraphError:
        return ["the stated dependencies form a cycle"]
    for steps in claims:
        for a in steps:
            for b in steps:
                if a < b and a in node_of and b in node_of:
                    u, v = node_of[a], node_of[b]
                    if reach[u] >> v & 1 or reach[v] >> u & 1:
                        problems.append(f"({a}) and ({b}) are said to be independent but are not")
    return problems


def check_instruction(instruction: str, graph: InstructionGraph) -> ConsistencyReport:
    """Infer the dependencies from the text and list every mismatch with the graph."""
    report = infer_dependencies(instruction, graph.texts)
    expected = set(graph.edges)
    for u, v in sorted(expected - report.edges):
        report.problems.append(
            f"the instruction does not say that subtask {v} needs subtask {u} "
            "(a dependency is missing or a parallel branch was lost)"
        )
    for u, v in sorted(report.edges - expected):
        report.problems.append(
            f"the instruction says subtask {v} needs subtask {u}, which the graph does not "
            "(a dependency was added or reversed)"
        )
    return report


def rule_validator(instruction: str, graph: InstructionGraph) -> bool:
    """The rule-based validator, for text in reefbench's structure-preserving form."""
    return check_instruction(instruction, graph).ok


def inferring_validator(infer: DependencyInferrer) -> InstructionValidator:
    """A validator that asks ``infer`` (e.g. a model) for the dependencies and compares."""

    def validate(instruction: str, graph: InstructionGraph) -> bool:
        inferred = {(int(u), int(v)) for u, v in infer(instruction, graph.texts)}
        return inferred == set(graph.edges)

    return validate


def infer_prompt(instruction: str, texts: Sequence[str]) -> str:
    """The prompt a model-backed :data:`DependencyInferrer` should send."""
    listed = "\n".join(f"{i}. {t}" for i, t in enumerate(texts))
    return INFER_PROMPT.format(instruction=instruction, subtasks=listed)
