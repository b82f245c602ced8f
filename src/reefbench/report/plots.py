"""Report figures as inline SVG (matplotlib, imported lazily, Agg backend)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx


def _figure(width: float = 5.0, height: float = 3.0) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(width, height), dpi=100)
    return plt, figure, axes


def _svg(plt: Any, figure: Any) -> str:
    buffer = io.StringIO()
    figure.tight_layout()
    figure.savefig(buffer, format="svg")
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def cr_histogram(series: Mapping[str, Sequence[float]]) -> str:
    """Distribution of completion ratios, one series per run."""
    plt, figure, axes = _figure()
    axes.hist(list(series.values()), bins=[i / 10 for i in range(11)], label=list(series))
    axes.set_xlabel("completion ratio")
    axes.set_ylabel("episodes")
    axes.legend(fontsize=7)
    return _svg(plt, figure)


def cost_vs_cr(points: Mapping[str, Sequence[tuple[int, float]]]) -> str:
    """Tokens spent against completion ratio per episode."""
    plt, figure, axes = _figure()
    for label, values in points.items():
        axes.scatter([t for t, _ in values], [c for _, c in values], s=12, label=label)
    axes.set_xlabel("tokens")
    axes.set_ylabel("completion ratio")
    axes.legend(fontsize=7)
    return _svg(plt, figure)


def cr_by_nodes(series: Mapping[str, Mapping[int, float]]) -> str:
    """Mean completion ratio by the number of checkpoint nodes of the task."""
    plt, figure, axes = _figure()
    for label, by_size in series.items():
        sizes = sorted(by_size)
        axes.plot(sizes, [by_size[s] for s in sizes], marker="o", label=label)
    axes.set_xlabel("checkpoint nodes")
    axes.set_ylabel("mean completion ratio")
    axes.set_ylim(-0.05, 1.05)
    axes.legend(fontsize=7)
    return _svg(plt, figure)


STATE_COLOURS = {"completed": "#3a9d5d", "regressed": "#d9822b", "pending": "#c7ccd1"}


def task_graph(graph: nx.DiGraph[Any], states: Mapping[str, str]) -> str:
    """The checkpoint DAG, nodes coloured by state, laid out in topological layers."""
    plt, figure, axes = _figure(5.0, 0.6 + 0.5 * max(1, len(graph)) ** 0.5 * 2)
    for layer, nodes in enumerate(nx.topological_generations(graph)):
        for node in nodes:
            graph.nodes[node]["layer"] = layer
    layout = nx.multipartite_layout(graph, subset_key="layer", align="horizontal")
    positions = {n: (float(x), -float(y)) for n, (x, y) in layout.items()}  # first layer on top
    colours = [STATE_COLOURS[states.get(str(n), "pending")] for n in graph]
    nx.draw_networkx(
        graph, positions, ax=axes, node_color=colours, node_size=260, with_labels=False, arrowsize=8
    )
    labels = {n: str(n)[:28] for n in graph}
    nx.draw_networkx_labels(
        graph,
        {n: (x + 0.02, y) for n, (x, y) in positions.items()},
        labels,
        ax=axes,
        font_size=6,
        horizontalalignment="left",
    )
    axes.axis("off")
    return _svg(plt, figure)
