"""Instruction text for composed tasks that keeps the graph's structure.

OmniBench summarises a task graph into one instruction with GPT-4o and then has to check
that the summary did not "lose the graph's nonlinear semantics and degenerate into a
simple sequential task" (shared/seeds/002, §3.2, App. B.4). We first write a deterministic
text that states the structure outright, so it is correct by construction and a rule-based
parser (:mod:`reefbench.compose.consistency`) can read the dependencies back:

    Goal: back up the notes. (1) On the laptop, create "a.txt" containing "x". (2) Then,
    using its result, on the laptop, copy "a.txt" to "b.txt". (3) Using the result of (1),
    on the laptop, add the line "y" to the end of "a.txt". (4) When (2) and (3) are both
    done, using their results, ... (2) and (3) can be done in either order.

i.e. "perform A; use its output for B and C; when both are done, D". Steps are numbered in
a topological order; every dependency is stated once at the step that needs it. A model may
rewrite the text into prose; :mod:`reefbench.compose.consistency` then checks the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reefbench.tasks.ordering import descendants, topological_order

# The connectives, shared with the parser so the two can never drift apart.
INDEPENDENT = "Independently, "
AFTER_PREVIOUS = "Then, using its result, "
AFTER_ONE = "Using the result of ({ref}), "
AFTER_MANY = "When {refs} are {quantity} done, using their results, "
IN_ANY_ORDER = "{refs} can be done in {quantity} order."
GOAL = "Goal: {goal}."


@dataclass(frozen=True, slots=True)
class InstructionGraph:
    """What an instruction describes: subtask texts (node i) and dependency edges."""

    texts: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    goal: str | None = None

    @classmethod
    def of(
        cls, texts: Sequence[str], edges: Sequence[tuple[int, int]], goal: str | None = None
    ) -> InstructionGraph:
        return cls(tuple(texts), tuple(sorted(set(edges))), goal)


def join_refs(steps: Sequence[int]) -> str:
    """``(1)``, ``(1) and (2)``, ``(1), (2) and (3)``."""
    refs = [f"({s})" for s in steps]
    if len(refs) == 1:
        return refs[0]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


def mid_sentence(text: str) -> str:
    """Lower-case the first letter of a sentence unless it starts an acronym (``GIMP``)."""
    text = text.strip().rstrip(".")
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


def render_instruction(graph: InstructionGraph) -> str:
    """The structure-preserving instruction for a subtask graph."""
    n = len(graph.texts)
    order = topological_order(n, list(graph.edges))
    step_of = {node: k + 1 for k, node in enumerate(order)}
    preds: list[list[int]] = [[] for _ in range(n)]
    succs: list[list[int]] = [[] for _ in range(n)]
    for u, v in graph.edges:
        preds[v].append(u)
        succs[u].append(v)
    parts = [GOAL.format(goal=graph.goal.strip().rstrip("."))] if graph.goal else []
    for k, node in enumerate(order, 1):
        before = sorted(step_of[u] for u in preds[node])
        text = graph.texts[node]
        if not before:
            body = sentence(text) if k == 1 else INDEPENDENT + mid_sentence(text) + "."
        elif before == [k - 1]:
            body = AFTER_PREVIOUS + mid_sentence(text) + "."
        elif len(before) == 1:
            body = AFTER_ONE.format(ref=before[0]) + mid_sentence(text) + "."
        else:
            quantity = "both" if len(before) == 2 else "all"
            body = AFTER_MANY.format(refs=join_refs(before), quantity=quantity)
            body += mid_sentence(text) + "."
        parts.append(f"({k}) {body}")
    # Fan-outs: say outright which successors of one step are independent of each other.
    reach = descendants(n, list(graph.edges), order)
    for node in order:
        if len(succs[node]) < 2:
            continue
        free = sorted(step_of[v] for v in succs[node] if not _ordered(v, succs[node], reach))
        if len(free) >= 2:
            quantity = "either" if len(free) == 2 else "any"
            parts.append(IN_ANY_ORDER.format(refs=join_refs(free), quantity=quantity))
    return " ".join(parts)


def _ordered(v: int, siblings: Sequence[int], reach: Sequence[int]) -> bool:
    """True if v comes before or after another sibling (so it is not freely ordered)."""
    return any(s != v and (reach[s] >> v & 1 or reach[v] >> s & 1) for s in siblings)
