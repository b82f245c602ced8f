"""Topological orders of a subtask graph: exact count and bounded enumeration.

OmniBench stores ``successful_topo``, "all valid topological orders of the DAG that lead to
successful task completion" (shared/seeds/002, App. C.4), and the maximum coherency score
of logical consistency is taken over all of them (§4.1). Their number grows factorially
with the width, so we count without enumerating and enumerate only up to a bound.

Counting memoises on the bitmask of nodes still to place. A set that falls apart into
weakly connected pieces is counted as the product of the pieces' counts times the
multinomial coefficient that interleaves them, so wide graphs (a root with nineteen
independent leaves: 19! orders) cost a handful of states instead of 2^19.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import factorial
from typing import TYPE_CHECKING

from reefbench.errors import ConfigError
from reefbench.tasks.ordering import topological_order

if TYPE_CHECKING:
    from reefbench.tasks.task import Task


def count_topological_orders(n: int, edges: Sequence[tuple[int, int]]) -> int:
    """The exact number of linear extensions of a DAG on nodes ``0..n-1``."""
    topological_order(n, edges)  # raises on a cycle
    preds = [0] * n
    neighbours = [0] * n
    for u, v in edges:
        preds[v] |= 1 << u
        neighbours[u] |= 1 << v
        neighbours[v] |= 1 << u
    memo: dict[int, int] = {0: 1}

    def pieces(mask: int) -> list[int]:
        found = []
        rest = mask
        while rest:
            frontier = rest & -rest
            piece = 0
            while frontier:
                piece |= frontier
                grow = 0
                bits = frontier
                while bits:
                    low = bits & -bits
                    grow |= neighbours[low.bit_length() - 1]
                    bits ^= low
                frontier = grow & mask & ~piece
            found.append(piece)
            rest &= ~piece
        return found

    def count(mask: int) -> int:
        known = memo.get(mask)
        if known is not None:
            return known
        parts = pieces(mask)
        if len(parts) > 1:
            total = factorial(mask.bit_count())
            for part in parts:
                total = total // factorial(part.bit_count()) * count(part)
        else:
            total = 0
            bits = mask
            while bits:
                low = bits & -bits
                bits ^= low
                if not preds[low.bit_length() - 1] & mask:
                    total += count(mask ^ low)
        memo[mask] = total
        return total

    return count((1 << n) - 1)


def topological_orders(
    n: int, edges: Sequence[tuple[int, int]], limit: int | None = None
) -> Iterator[list[int]]:
    """Yield topological orders in lexicographic order, at most ``limit`` of them."""
    if limit is not None and limit < 0:
        raise ConfigError(f"limit must be >= 0, got {limit}")
    topological_order(n, edges)
    preds = [0] * n
    for u, v in edges:
        preds[v] |= 1 << u
    order: list[int] = []
    produced = 0

    def extend(placed: int) -> Iterator[list[int]]:
        nonlocal produced
        if len(order) == n:
            produced += 1
            yield list(order)
            return
        for v in range(n):
            if limit is not None and produced >= limit:
                return
            bit = 1 << v
            if not placed & bit and preds[v] & placed == preds[v]:
                order.append(v)
                yield from extend(placed | bit)
                order.pop()

    if limit == 0:
        return
    yield from extend(0)


def successful_topo(task: Task, limit: int = 100) -> list[list[str]]:
    """OmniBench's ``successful_topo`` for a task: subtask-id orders, at most ``limit``."""
    from reefbench.compose.complexity import subtask_graph

    ids, edges, _ = subtask_graph(task)
    return [[ids[i] for i in order] for order in topological_orders(len(ids), edges, limit)]
