"""Topological orders: exact counts (also on 20-node graphs) and bounded enumeration."""

from __future__ import annotations

import random
from functools import cache
from math import comb, factorial

import networkx as nx
import pytest

from reefbench import GraphError
from reefbench.compose.topo import count_topological_orders, successful_topo, topological_orders
from reefbench.suites import memory


def _downset_count(n: int, edges: list[tuple[int, int]]) -> int:
    """Plain DP over downsets, the textbook definition, to check the fast count against."""
    preds = [0] * n
    for u, v in edges:
        preds[v] |= 1 << u

    @cache
    def f(placed: int) -> int:
        if placed == (1 << n) - 1:
            return 1
        return sum(
            f(placed | 1 << v)
            for v in range(n)
            if not placed >> v & 1 and preds[v] & placed == preds[v]
        )

    return f(0)


def _random_dag(rng: random.Random, n: int, p: float) -> list[tuple[int, int]]:
    return [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p]


def test_count_matches_networkx_enumeration_on_small_dags() -> None:
    rng = random.Random(3)
    for _ in range(80):
        n = rng.randint(1, 7)
        edges = _random_dag(rng, n, rng.choice([0.1, 0.3, 0.6]))
        graph = nx.DiGraph(edges)
        graph.add_nodes_from(range(n))
        expected = sum(1 for _ in nx.all_topological_sorts(graph))
        assert count_topological_orders(n, edges) == expected
        listed = list(topological_orders(n, edges))
        assert len(listed) == expected and listed == sorted(listed)


def test_count_handles_twenty_node_graphs_exactly() -> None:
    star = [(0, v) for v in range(1, 20)]
    assert count_topological_orders(20, star) == factorial(19)
    two_chains = [(i, i + 1) for i in range(9)] + [(i, i + 1) for i in range(10, 19)]
    assert count_topological_orders(20, two_chains) == comb(20, 10)
    assert count_topological_orders(20, []) == factorial(20)
    rng = random.Random(11)
    for p in (0.15, 0.3):
        edges = _random_dag(rng, 20, p)
        assert count_topological_orders(20, edges) == _downset_count(20, edges)


def test_enumeration_stops_at_the_bound_and_yields_valid_orders() -> None:
    edges = [(0, 1), (0, 2), (1, 3), (2, 3)]
    assert list(topological_orders(4, edges)) == [[0, 1, 2, 3], [0, 2, 1, 3]]
    assert len(list(topological_orders(10, [], limit=7))) == 7
    assert list(topological_orders(3, [], limit=0)) == []
    for order in topological_orders(12, _random_dag(random.Random(5), 12, 0.2), limit=50):
        position = {node: k for k, node in enumerate(order)}
        assert sorted(order) == list(range(12))
        assert all(position[u] < position[v] for u, v in _random_dag(random.Random(5), 12, 0.2))


def test_cycles_are_refused() -> None:
    with pytest.raises(GraphError):
        count_topological_orders(2, [(0, 1), (1, 0)])
    with pytest.raises(GraphError):
        list(topological_orders(2, [(0, 1), (1, 0)]))


def test_successful_topo_lists_subtask_ids_of_a_task() -> None:
    task = next(t for t in memory.load() if t.id == "mem-branches")
    assert successful_topo(task) == [["s0", "s1", "s2"], ["s0", "s2", "s1"]]
    assert successful_topo(task, limit=1) == [["s0", "s1", "s2"]]
