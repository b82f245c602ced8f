"""Complexity on subtask graphs: Table 2 levels, depth in nodes, width as largest antichain."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from reefbench import ConfigError, GraphError
from reefbench.compose.complexity import (
    Complexity,
    depth,
    level_of,
    level_range,
    measure,
    task_complexity,
    width,
)
from reefbench.suites import memory


@pytest.mark.parametrize(
    ("dimension", "easy", "medium", "hard"),
    [
        ("dependency", [0, 1], [2, 3], [4, 9]),
        ("instruction", [1, 2], [3, 4], [5, 12]),
        ("knowledge", [0, 1], [2, 3], [4, 7]),
        ("hierarchy", [1, 2], [3, 4], [5, 10]),
        ("branch", [1, 2], [3, 4], [5, 8]),
    ],
)
def test_levels_follow_omnibench_table_2(
    dimension: str, easy: list[int], medium: list[int], hard: list[int]
) -> None:
    for values, level in ((easy, "easy"), (medium, "medium"), (hard, "hard")):
        for value in values:
            assert level_of(dimension, value) == level, (dimension, value)
            low, high = level_range(dimension, level)
            assert low <= value and (high is None or value <= high)


def test_unknown_dimension_or_level_is_a_one_line_error() -> None:
    with pytest.raises(ConfigError, match="unknown complexity dimension 'depth'"):
        level_of("depth", 1)
    with pytest.raises(ConfigError, match="unknown complexity level 'extreme'"):
        level_range("branch", "extreme")


def test_depth_counts_nodes_and_width_counts_the_largest_antichain() -> None:
    # diamond a -> {b, c} -> d: depth 3 (a, b, d), width 2 ({b, c})
    diamond = [(0, 1), (0, 2), (1, 3), (2, 3)]
    assert depth(4, diamond) == 3
    assert width(4, diamond) == 2
    assert depth(1, []) == 1 and width(1, []) == 1
    assert width(5, []) == 5 and depth(5, []) == 1
    chain = [(i, i + 1) for i in range(5)]
    assert depth(6, chain) == 6 and width(6, chain) == 1
    # Width beats the largest topological layer: 0->1->3->{4,5}, 0->2: {2,4,5} is an antichain
    # though no generation holds three nodes.
    edges = [(0, 1), (0, 2), (1, 3), (3, 4), (3, 5)]
    assert max(len(g) for g in nx.topological_generations(nx.DiGraph(edges))) == 2
    assert width(6, edges) == 3


def _brute_width(n: int, edges: list[tuple[int, int]]) -> int:
    closure = nx.transitive_closure_dag(nx.DiGraph(edges))
    closure.add_nodes_from(range(n))
    best = 0
    for size in range(n, 0, -1):
        for subset in itertools.combinations(range(n), size):
            if all(not closure.has_edge(u, v) for u in subset for v in subset):
                return size
    return best


def test_width_and_depth_agree_with_brute_force_on_random_dags() -> None:
    rng = random.Random(7)
    for _ in range(150):
        n = rng.randint(1, 9)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.3]
        perm = list(range(n))
        rng.shuffle(perm)  # node numbers need not be topological
        edges = [(perm[u], perm[v]) for u, v in edges]
        assert width(n, edges) == _brute_width(n, edges)
        graph = nx.DiGraph(edges)
        graph.add_nodes_from(range(n))
        assert depth(n, edges) == nx.dag_longest_path_length(graph) + 1


def test_cycles_are_refused() -> None:
    with pytest.raises(GraphError, match="cycle"):
        measure(2, [(0, 1), (1, 0)], ["a", "b"])


def test_measure_counts_distinct_categories_and_edges() -> None:
    c = measure(4, [(0, 1), (0, 2), (1, 3), (2, 3)], ["office", "office", "mail", ""])
    assert c == Complexity(dependency=4, instruction=4, knowledge=2, hierarchy=3, branch=2)
    assert c.levels == {
        "dependency": "hard",
        "instruction": "medium",
        "knowledge": "medium",
        "hierarchy": "medium",
        "branch": "easy",
    }
    assert c.as_metadata()["dependency_level"] == "hard"


def test_task_complexity_uses_the_subtask_graph_of_composed_tasks() -> None:
    tasks = {t.id: t for t in memory.load()}
    branches = task_complexity(tasks["mem-branches"])  # create -> {copy, append}
    assert branches == Complexity(dependency=2, instruction=3, knowledge=2, hierarchy=2, branch=2)
    chain = task_complexity(tasks["mem-long-chain"])
    assert (chain.hierarchy, chain.branch, chain.dependency) == (5, 1, 4)
    # A handmade task has no subtasks: its checkpoints stand in for them.
    fan = task_complexity(tasks["mem-fan-out-join"])
    assert (fan.instruction, fan.dependency, fan.hierarchy, fan.branch) == (4, 4, 3, 2)
