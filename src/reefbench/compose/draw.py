"""A picture of a task's graph: checkpoints in topological layers, coloured by subtask.

matplotlib is an optional dependency (the ``viz`` extra) and is imported only here, with
the non-interactive Agg backend, so drawing works headless and ``import reefbench`` never
needs it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from reefbench.errors import ConfigError

if TYPE_CHECKING:
    from reefbench.tasks.task import Task

_PALETTE = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
)


def draw_task(task: Task, path: str | Path) -> Path:
    """Draw the checkpoint DAG of ``task`` into a PNG at ``path``; return the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "drawing needs matplotlib: pip install 'reefbench[viz]' (or matplotlib)"
        ) from None
    dag = task.evaluator_graph
    owner = {node: info.id for info in task.metadata.subtasks for node in info.nodes}
    subtasks = sorted(set(owner.values()), key=lambda s: (len(s), s))
    colour = {s: _PALETTE[i % len(_PALETTE)] for i, s in enumerate(subtasks)}
    positions: dict[Any, tuple[float, float]] = {}
    layers = list(nx.topological_generations(dag))
    for depth, layer in enumerate(layers):
        ordered = sorted(layer, key=str)
        for k, node in enumerate(ordered):
            positions[node] = (k - (len(ordered) - 1) / 2, -depth)
    widest = max(len(layer) for layer in layers)
    size = (max(6.0, 3.2 * widest), max(3.0, 1.6 * len(layers)))
    figure, axes = plt.subplots(figsize=size)
    labels = {node: "\n".join(textwrap.wrap(str(node), 28)[:4]) for node in dag}
    nx.draw_networkx_edges(
        dag, positions, ax=axes, arrows=True, arrowsize=14, node_size=4200, edge_color="#555555"
    )
    for node in dag:
        x, y = positions[node]
        axes.text(
            x,
            y,
            labels[node],
            ha="center",
            va="center",
            fontsize=7,
            bbox={
                "boxstyle": "round,pad=0.4",
                "facecolor": colour.get(owner.get(node, ""), "#eeeeee"),
                "edgecolor": "#333333",
            },
        )
    axes.set_title(
        "\n".join(textwrap.wrap(f"{task.id}: {task.instruction}", int(size[0] * 11))[:3]),
        fontsize=9,
    )
    axes.axis("off")
    axes.margins(0.15)
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out
