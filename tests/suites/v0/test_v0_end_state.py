"""reef-v0's checkpoints are declared, not guessed: each is a moment or names the state it
governs, and a node is superseded at the end only by a later step on the same state."""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from reefbench.evaluators import Evaluator, keys_overlap
from reefbench.suites.v0 import load


def _parts(ev: Evaluator) -> Iterator[Evaluator]:
    parts = getattr(ev, "parts", None)
    if parts is None:
        yield ev
    else:
        for part in parts:
            yield from _parts(part)


def test_every_checkpoint_is_a_declared_moment_or_governs_named_state() -> None:
    undeclared = {
        p.ref
        for task in load()
        for node in task.nodes.values()
        for p in _parts(node)
        if not p.moment and p.governs is None
    }
    assert undeclared == set()


def test_supersession_follows_the_graph_and_shared_state() -> None:
    superseded = 0
    for task in load():
        graph = task.graph_evaluator()
        dag = task.evaluator_graph
        for node, ev in task.nodes.items():
            for later, _ in graph.supersession(node):
                assert nx.has_path(dag, node, later), (task.id, node, later)
                assert any(
                    keys_overlap(a, b)
                    for a in ev.state_keys()
                    for b in task.nodes[later].state_keys()
                )
                superseded += 1
    assert superseded > 0
