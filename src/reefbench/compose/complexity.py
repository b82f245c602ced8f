"""Task complexity on the subtask graph (OmniBench §3.1, Table 2).

OmniBench measures five dimensions on the *task graph*, whose nodes are subtasks and whose
edges are resource dependencies (shared/seeds/002, L97-99), not on the checkpoint graph:

* **dependency** = number of edges ("each edge ... represents a dependency");
* **instruction** = number of nodes ("more subtasks leading to more complex instruction");
* **knowledge** = number of distinct application categories (App. A.4, Table 11);
* **hierarchy** = depth. The paper does not define depth; we count the *nodes* on the
  longest path, so a single subtask has depth 1 and a chain of five has depth 5 (this makes
  "Easy <= 2" mean "at most one hand-over", the reading consistent with Table 2's scales);
* **branch** = width. Also undefined in the paper; we take the size of the largest
  *antichain* (the most subtasks that are pairwise independent, so could run
  concurrently: "a wider task graph indicates more branches that can be executed
  concurrently"). By Dilworth's theorem it equals the number of nodes minus a maximum
  matching in the bipartite graph of the transitive closure (Fulkerson's construction),
  which we compute exactly with augmenting paths on bitmasks.

Levels follow Table 2: Easy <= 1/2/1/2/2, Medium 2-3/3-4/2-3/3-4/3-4 and Hard >= 4/5/4/5/5
for dependency/instruction/knowledge/hierarchy/branch.

Graphs are given as a node count ``n`` and edges between node indices ``0..n-1``; the
functions never import networkx, because synthesis calls them for every candidate task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from reefbench.errors import ConfigError
from reefbench.tasks.ordering import descendants, topological_order

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
DIMENSIONS: tuple[str, ...] = ("dependency", "instruction", "knowledge", "hierarchy", "branch")

# Table 2: (largest Easy value, smallest Hard value); Medium lies in between.
THRESHOLDS: dict[str, tuple[int, int]] = {
    "dependency": (1, 4),
    "instruction": (2, 5),
    "knowledge": (1, 4),
    "hierarchy": (2, 5),
    "branch": (2, 5),
}


def level_of(dimension: str, value: int) -> Level:
    """The Table 2 level of a measured value."""
    easy_max, hard_min = THRESHOLDS[_dimension(dimension)]
    if value <= easy_max:
        return "easy"
    return "hard" if value >= hard_min else "medium"


def level_range(dimension: str, level: str) -> tuple[int, int | None]:
    """Inclusive bounds of a level (``None``: unbounded above)."""
    easy_max, hard_min = THRESHOLDS[_dimension(dimension)]
    bounds: dict[str, tuple[int, int | None]] = {
        "easy": (0, easy_max),
        "medium": (easy_max + 1, hard_min - 1),
        "hard": (hard_min, None),
    }
    try:
        return bounds[level.lower()]
    except KeyError:
        raise ConfigError(
            f"unknown complexity level '{level}' for {dimension}: use easy, medium or hard"
        ) from None


def _dimension(name: str) -> str:
    if name not in THRESHOLDS:
        raise ConfigError(
            f"unknown complexity dimension '{name}': use one of {', '.join(DIMENSIONS)}"
        )
    return name


@dataclass(frozen=True, slots=True)
class Complexity:
    """The five measured values of one task graph."""

    dependency: int
    instruction: int
    knowledge: int
    hierarchy: int
    branch: int

    def value(self, dimension: str) -> int:
        return int(getattr(self, _dimension(dimension)))

    def level(self, dimension: str) -> Level:
        return level_of(dimension, self.value(dimension))

    @property
    def levels(self) -> dict[str, Level]:
        return {d: self.level(d) for d in DIMENSIONS}

    def as_metadata(self) -> dict[str, int | str]:
        """For :attr:`TaskMetadata.complexity`: ``{"branch": 3, "branch_level": "medium"}``."""
        out: dict[str, int | str] = {}
        for d in DIMENSIONS:
            out[d] = self.value(d)
            out[f"{d}_level"] = self.level(d)
        return out


def measure(n: int, edges: Sequence[tuple[int, int]], categories: Sequence[str]) -> Complexity:
    """Measure a subtask graph: ``categories[i]`` is subtask i's application category."""
    order = topological_order(n, edges)
    return Complexity(
        dependency=len(set(edges)),
        instruction=n,
        knowledge=len({c for c in categories if c}),
        hierarchy=depth(n, edges, order),
        branch=width(n, edges, order),
    )


def depth(n: int, edges: Sequence[tuple[int, int]], order: Sequence[int] | None = None) -> int:
    """Number of nodes on the longest path (0 for an empty graph)."""
    order = topological_order(n, edges) if order is None else order
    predecessors: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        predecessors[v].append(u)
    longest = [1] * n
    for v in order:
        for u in predecessors[v]:
            if longest[u] + 1 > longest[v]:
                longest[v] = longest[u] + 1
    return max(longest, default=0)


def width(n: int, edges: Sequence[tuple[int, int]], order: Sequence[int] | None = None) -> int:
    """Size of the largest antichain: n minus a maximum matching on the closure (Dilworth)."""
    reach = descendants(n, edges, order)
    owner = [-1] * n  # right vertex v -> left vertex matched to it

    def augment(u: int, seen: list[bool]) -> bool:
        mask = reach[u]
        while mask:
            low = mask & -mask
            v = low.bit_length() - 1
            mask ^= low
            if not seen[v]:
                seen[v] = True
                if owner[v] < 0 or augment(owner[v], seen):
                    owner[v] = u
                    return True
        return False

    matched = sum(1 for u in range(n) if reach[u] and augment(u, [False] * n))
    return n - matched


# ------------------------------------------------------------------ on tasks
def subtask_graph(task: Task) -> tuple[list[str], list[tuple[int, int]], list[str]]:
    """(subtask ids, edges by index, categories) of a task.

    Composed tasks carry their subtask graph in ``metadata.subtasks``/``subtask_links``. A
    handmade task has none: each checkpoint then counts as a subtask and the task's apps
    give the categories, which is the closest reading of OmniBench for such tasks.
    """
    meta = task.metadata
    if meta.subtasks:
        ids = [s.id for s in meta.subtasks]
        categories = [s.app_category or s.app or s.env for s in meta.subtasks]
        links = meta.subtask_links
    else:
        ids = list(task.nodes)
        categories = list(meta.apps) or [e for e in meta.environments]
        links = list(task.edges)
    index = {key: i for i, key in enumerate(ids)}
    try:
        edges = [(index[u], index[v]) for u, v in links]
    except KeyError as exc:
        raise ConfigError(f"task {task.id}: a subtask link names unknown subtask {exc}") from None
    return ids, edges, categories


def task_complexity(task: Task) -> Complexity:
    """The five complexity values of a task (see :func:`subtask_graph`)."""
    ids, edges, categories = subtask_graph(task)
    if not task.metadata.subtasks:
        # categories are per task here, not per node
        order = topological_order(len(ids), edges)
        return Complexity(
            dependency=len(set(edges)),
            instruction=len(ids),
            knowledge=len(set(categories)),
            hierarchy=depth(len(ids), edges, order),
            branch=width(len(ids), edges, order),
        )
    return measure(len(ids), edges, categories)
