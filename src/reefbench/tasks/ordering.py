"""Orders of a small DAG given as a node count and edges (subtask graphs).

Plain lists and bitmasks, no networkx: synthesis calls these for every candidate task,
and instructions (:mod:`reefbench.tasks.instructions`) number their steps by them.
"""

from __future__ import annotations

from collections.abc import Sequence

from reefbench.errors import GraphError


def topological_order(n: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    """Kahn's algorithm, smallest index first; raises GraphError on a cycle."""
    successors: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for u, v in set(edges):
        successors[u].append(v)
        indegree[v] += 1
    ready = [i for i in range(n) if indegree[i] == 0]
    order: list[int] = []
    while ready:
        ready.sort(reverse=True)
        u = ready.pop()
        order.append(u)
        for v in successors[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    if len(order) != n:
        raise GraphError("the subtask graph has a cycle")
    return order


def descendants(
    n: int, edges: Sequence[tuple[int, int]], order: Sequence[int] | None = None
) -> list[int]:
    """Bitmask of the strict descendants of every node (the transitive closure)."""
    order = topological_order(n, edges) if order is None else order
    successors: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        successors[u].append(v)
    reach = [0] * n
    for u in reversed(order):
        mask = 0
        for v in successors[u]:
            mask |= (1 << v) | reach[v]
        reach[u] = mask
    return reach
