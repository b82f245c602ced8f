"""``reef report``: a static HTML report (plus CSV and JSON) for one or more runs.

Layout: CRAB Table 3 (SR, CR, EE, CE and the termination reasons FC/RSL/IA per agent
setting) with CR_w, LC and AE and 95 % bootstrap intervals; breakdowns per platform,
OmniBench complexity level and capability, the OS-MAP level × scope matrix and VeriGUI
difficulty levels, and for a suite whose tasks carry them (reef-v2) per tier and family
with the ``injection`` family's rate apart as an agent-safety figure and, beside the
``ambiguity`` family, how often the agent asked the user where there was nothing to ask;
figures; and every task's graph with its node states per run. summary.csv gains SR and CR
per tier and family (and the two figures) as columns only when a run has them.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from statistics import fmean
from typing import Any

from reefbench.episodes.metrics import (
    Summary,
    breakdown,
    by_label,
    difficulty_level,
    injection_resisted,
    needless_questions,
    summarize,
)
from reefbench.report import plots
from reefbench.report.loading import LoadedRun
from reefbench.tasks.task import Task

COLUMNS = (
    "episodes", "sr", "cr", "ee", "ce", "cr_w", "lc", "ae", "fc", "rsl", "ia", "se", "infra",
)  # fmt: skip


def summary_row(s: Summary) -> dict[str, Any]:
    t = s.terminations
    return {
        "episodes": s.episodes,
        "sr": s.sr,
        "sr_ci": s.sr_ci,
        "cr": s.cr,
        "cr_ci": s.cr_ci,
        "ee": s.ee,
        "ce": s.ce,
        "cr_w": s.cr_w,
        "lc": s.lc,
        "ae": s.ae,
        "fc": t.get("false_completion", 0.0),
        "rsl": t.get("step_limit", 0.0),
        "ia": t.get("invalid_action", 0.0),
        "se": s.side_effects,
        "infra": s.infrastructure,
    }


def _levels(task: Task) -> dict[str, str]:
    return {k: str(v) for k, v in task.metadata.complexity.items() if isinstance(v, str)}


def _level_of(dimension: str, task: Task) -> str:
    return _levels(task).get(dimension, "-")


def _level_and_scope(task: Task) -> str:
    return f"{task.metadata.level or '-'} × {task.metadata.scope or '-'}"


def _rows(run: LoadedRun, key: Callable[[Task], Any] | str) -> dict[str, dict[str, Any]]:
    """One report row per group of the run's results."""
    return {k: summary_row(v) for k, v in breakdown(run.results, run.tasks, key).items()}


def _labelled_rows(run: LoadedRun, label: str) -> dict[str, dict[str, Any]]:
    """One row per tier or family (none when the run's tasks carry no such label)."""
    return {k: summary_row(v) for k, v in by_label(run.results, run.tasks, label).items()}


def _safety(run: LoadedRun) -> dict[str, Any] | None:
    """The ``injection`` family's "resisted injected instructions" figure, or ``None``."""
    figure = injection_resisted(run.results, run.tasks)
    return None if figure is None else figure.model_dump()


def _asking(run: LoadedRun) -> dict[str, Any] | None:
    """How often the agent asked the user where there was nothing to ask, or ``None``."""
    figure = needless_questions(run.results, run.tasks)
    return None if figure is None else figure.model_dump()


def _labelled_columns(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """summary.csv's extra columns: (``sr_tier_hard``-like name, label, group), tiers and
    families any run of the report has, and the safety figure if any run has it."""
    columns: list[tuple[str, str, str]] = []
    for label in ("tier", "family"):
        groups: list[str] = []
        for run in data["runs"].values():
            groups += [g for g in run[label] if g not in groups]
        for group in groups:
            columns += [(f"{m}_{label}_{group}", label, group) for m in ("sr", "cr")]
    if any(run["agent_safety"] for run in data["runs"].values()):
        columns.append(("injection_resisted", "agent_safety", "resisted"))
    if any(run["asking"] for run in data["runs"].values()):
        columns.append(("needless_questions", "asking", "needless"))
    return columns


def _labelled_value(run: dict[str, Any], name: str, label: str, group: str) -> Any:
    if label in ("agent_safety", "asking"):
        return run[label][group] if run[label] else ""
    row = run[label].get(group)
    return "" if row is None else row[name.split("_", 1)[0]]


def build(runs: Sequence[LoadedRun]) -> dict[str, Any]:
    """Everything the report shows, as plain data (also written as report.json)."""
    tasks: dict[str, Task] = {}
    for run in runs:
        tasks.update(run.tasks)
    per_run: dict[str, Any] = {}
    task_outcomes: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for run in runs:
        results = run.results
        for r in results:
            task_outcomes[r.task_id].append((1.0 if r.success else 0.0, r.completion_ratio))
        dimensions = sorted({k for t in run.tasks.values() for k in _levels(t)})
        per_run[run.label] = {
            "manifest": run.manifest.as_json(),
            "tasks_source": run.tasks_source,
            "warnings": run.warnings,
            "action_set": run.action_set,
            "observe": run.observation_policy,  # the key reports and exports use
            "summary": summary_row(summarize(results, run.tasks)),
            "platform": _rows(run, "platform"),
            "capability": _rows(run, "capabilities"),
            "complexity": {dim: _rows(run, partial(_level_of, dim)) for dim in dimensions},
            "level_scope": _rows(run, _level_and_scope),
            "tier": _labelled_rows(run, "tier"),
            "family": _labelled_rows(run, "family"),
            "agent_safety": _safety(run),
            "asking": _asking(run),
        }
    difficulty = {
        task_id: difficulty_level(fmean(s for s, _ in o), fmean(c for _, c in o))
        for task_id, o in task_outcomes.items()
    }
    for run in runs:
        per_run[run.label]["difficulty"] = {
            f"level {k}": row for k, row in _rows(run, lambda t: difficulty.get(t.id, 5)).items()
        }
    return {"runs": per_run, "difficulty": difficulty}


def _figures(runs: Sequence[LoadedRun]) -> dict[str, str]:
    crs = {run.label: [r.completion_ratio for r in run.results] for run in runs}
    cost = {
        run.label: [(r.usage.total_tokens, r.completion_ratio) for r in run.results] for run in runs
    }
    by_nodes: dict[str, dict[int, float]] = {}
    for run in runs:
        groups: dict[int, list[float]] = defaultdict(list)
        for r in run.results:
            groups[r.total_nodes].append(r.completion_ratio)
        by_nodes[run.label] = {n: fmean(v) for n, v in groups.items()}
    return {
        "CR distribution": plots.cr_histogram(crs),
        "Cost vs. CR": plots.cost_vs_cr(cost),
        "CR by node count": plots.cr_by_nodes(by_nodes),
    }


def _task_sections(runs: Sequence[LoadedRun]) -> list[dict[str, Any]]:
    sections = []
    tasks: dict[str, Task] = {}
    for run in runs:
        tasks.update(run.tasks)
    for task_id in sorted({r.task_id for run in runs for r in run.results}):
        task = tasks.get(task_id)
        if task is None:
            continue
        graphs = []
        for run in runs:
            for r in (r for r in run.results if r.task_id == task_id):
                states = {n: "completed" for n in r.completed_nodes}
                states.update({n: "regressed" for n in r.regressed})
                graphs.append(
                    {
                        "run": run.label,
                        "termination": r.termination,
                        "cr": r.completion_ratio,
                        "side_effects": r.side_effects,
                        "svg": plots.task_graph(task.evaluator_graph, states),
                    }
                )
        sections.append({"task": task, "graphs": graphs})
    return sections


def write_report(runs: Sequence[LoadedRun], out_dir: Path) -> Path:
    """Write report.html, report.json and summary.csv into ``out_dir``; returns the HTML path."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    out_dir.mkdir(parents=True, exist_ok=True)
    data = build(runs)
    (out_dir / "report.json").write_text(json.dumps(data, indent=2, default=str) + "\n")
    extra = _labelled_columns(data)
    with (out_dir / "summary.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["run", *COLUMNS, *(name for name, _, _ in extra)])
        for label, run in data["runs"].items():
            writer.writerow(
                [
                    label,
                    *(run["summary"][c] for c in COLUMNS),
                    *(_labelled_value(run, *column) for column in extra),
                ]
            )
    templates = Environment(
        loader=PackageLoader("reefbench.report", "templates"),
        autoescape=select_autoescape(["html"]),
    )
    templates.filters["pct"] = lambda v: "n/a" if v is None else f"{100 * v:.1f}"
    html = templates.get_template("report.html").render(
        data=data,
        summaries={label: run["summary"] for label, run in data["runs"].items()},
        figures=_figures(runs),
        tasks=_task_sections(runs),
    )
    path = out_dir / "report.html"
    path.write_text(html, encoding="utf-8")
    return path
