"""Random subtask-graph shapes aimed at requested complexity ranges.

Synthesis first draws an unlabelled DAG whose node count, depth, edge count and largest
layer fall in the requested ranges, then fills it with templates. The shape is *layered*:
``d`` layers, every node of layer k >= 1 has a predecessor in layer k-1 and edges only go
to later layers, so the depth is exactly ``d``, the edge count is exactly what was drawn,
and the width is at least the largest layer (nodes of one layer are never comparable). The
width can still exceed that layer (incomparable nodes of different layers), so the caller
measures it exactly and rejects misses. Nodes are numbered layer by layer, so every edge
goes from a smaller to a larger index: the numbering is a topological order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from reefbench.compose.complexity import DIMENSIONS, level_range
from reefbench.errors import ConfigError

Bounds = dict[str, tuple[int, int]]


@dataclass(slots=True)
class Shape:
    """An unlabelled DAG on nodes ``0..n-1`` numbered in topological order."""

    n: int
    edges: list[tuple[int, int]]
    preds: list[list[int]]
    has_successor: list[bool]


def bounds_for(request: Mapping[str, str], max_subtasks: int) -> Bounds:
    """Inclusive value ranges per dimension for a request (dimension -> level)."""
    if max_subtasks < 1:
        raise ConfigError(f"max_subtasks must be at least 1, got {max_subtasks}")
    caps = {
        "dependency": max_subtasks * (max_subtasks - 1) // 2,
        "instruction": max_subtasks,
        "knowledge": max_subtasks,
        "hierarchy": max_subtasks,
        "branch": max_subtasks,
    }
    bounds: Bounds = {}
    for dimension in DIMENSIONS:
        low, high = 0, caps[dimension]
        if dimension in request:
            level_low, level_high = level_range(dimension, request[dimension])
            low = max(low, level_low)
            high = min(high, level_high if level_high is not None else high)
        if dimension in ("instruction", "hierarchy", "branch", "knowledge"):
            low = max(low, 1)
        bounds[dimension] = (low, high)
    for dimension in request:
        if dimension not in DIMENSIONS:
            raise ConfigError(f"unknown complexity dimension '{dimension}'")
    return bounds


def sample_shape(rng: random.Random, bounds: Bounds, max_indegree: int) -> Shape | None:
    """One layered DAG inside ``bounds`` (width still to be checked), or None if none fits."""
    n_lo, n_hi = bounds["instruction"]
    d_lo, d_hi = bounds["hierarchy"]
    w_lo, w_hi = bounds["branch"]
    e_lo, e_hi = bounds["dependency"]
    n_lo = max(n_lo, d_lo, w_lo, d_lo + w_lo - 1)  # a longest chain and a widest antichain
    if n_lo > n_hi:  # share at most one node
        return None
    n = rng.randint(n_lo, n_hi)
    top = min(d_hi, n - w_lo + 1)
    if d_lo > top:
        return None
    d = rng.randint(d_lo, top)
    # Mirsky: the d layers are antichains, so the width is at least ceil(n / d).
    w_low = max(w_lo, -(-n // d))
    w_top = min(w_hi, n - d + 1)
    if w_low > w_top:
        return None
    w = rng.randint(w_low, w_top)
    sizes = [1] * d
    sizes[rng.randrange(d)] += w - 1
    open_layers = [k for k in range(d) if sizes[k] < w]
    for _ in range(n - d - (w - 1)):
        k = rng.choice(open_layers)
        sizes[k] += 1
        if sizes[k] == w:
            open_layers.remove(k)
    starts = [0] * d
    for k in range(1, d):
        starts[k] = starts[k - 1] + sizes[k - 1]
    layer = [k for k in range(d) for _ in range(sizes[k])]
    preds: list[list[int]] = [[] for _ in range(n)]
    edges: list[tuple[int, int]] = []
    for v in range(sizes[0], n):
        k = layer[v]
        u = starts[k - 1] + rng.randrange(sizes[k - 1])
        preds[v].append(u)
        edges.append((u, v))
    base = len(edges)
    if base > 0 and max_indegree < 1:
        return None
    # Prefer the fewest extra edges the request allows: joins are what templates fit least.
    low = max(e_lo, base)
    possible = [
        (u, v) for v in range(sizes[0], n) for u in range(starts[layer[v]]) if u != preds[v][0]
    ]
    high = min(e_hi, base + len(possible))
    if low > high:
        return None
    extra = low - base
    while extra < high - base and rng.random() < 0.35:
        extra += 1
    if extra:
        rng.shuffle(possible)
        for u, v in possible:
            if extra == 0:
                break
            if len(preds[v]) < max_indegree:
                preds[v].append(u)
                edges.append((u, v))
                extra -= 1
        if extra:
            return None
    has_successor = [False] * n
    for u, _ in edges:
        has_successor[u] = True
    for p in preds:
        p.sort()
    edges.sort()
    return Shape(n, edges, preds, has_successor)
