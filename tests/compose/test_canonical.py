"""Canonical digests: equal for relabelled copies of a task graph, different otherwise."""

from __future__ import annotations

import random

from reefbench.compose.canonical import canonical_digest, node_label


def _labels(n: int) -> list[str]:
    return [node_label(f"t{i % 3}", {"path": f"f{i}.txt", "n": i}) for i in range(n)]


def test_node_order_does_not_matter_but_content_does() -> None:
    labels = _labels(5)
    edges = [(0, 1), (0, 2), (2, 3), (1, 4)]
    digest = canonical_digest(labels, edges)
    rng = random.Random(1)
    for _ in range(10):
        perm = list(range(5))
        rng.shuffle(perm)
        relabelled = [""] * 5
        for old, new in enumerate(perm):
            relabelled[new] = labels[old]
        moved = [(perm[u], perm[v]) for u, v in edges]
        assert canonical_digest(relabelled, moved) == digest
    assert canonical_digest(labels, [(1, 0), (0, 2), (2, 3), (1, 4)]) != digest  # reversed
    assert canonical_digest(labels, edges[:-1]) != digest  # an edge fewer
    other = [*labels[:4], node_label("t1", {"path": "f4.txt", "n": 5})]
    assert canonical_digest(other, edges) != digest  # one attribute value differs


def test_attribute_order_is_irrelevant_to_labels() -> None:
    assert node_label("t", {"a": 1, "b": "x"}) == node_label("t", {"b": "x", "a": 1})


def test_repeated_labels_still_give_an_isomorphism_invariant_digest() -> None:
    same = node_label("copy", {"x": 1})
    root = node_label("root", {})
    # root -> same -> same  versus the same graph numbered differently
    a = canonical_digest([root, same, same], [(0, 1), (1, 2)])
    b = canonical_digest([same, same, root], [(2, 1), (1, 0)])
    assert a == b
    # root -> same, root -> same (fan-out) is a different graph
    assert canonical_digest([root, same, same], [(0, 1), (0, 2)]) != a
