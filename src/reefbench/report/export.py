"""Export a run's episodes as JSON lines or as Parquet a ``datasets.load_dataset`` reads.

One row per episode. The Parquet file keeps flat, typed columns for filtering and the
trajectory and node lists as JSON strings, which every Parquet reader handles and which
round-trip exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reefbench.errors import ConfigError
from reefbench.report.loading import load_run


def episode_rows(run_dir: Path) -> list[dict[str, Any]]:
    run = load_run(run_dir, trajectory=True)
    rows = []
    for r in run.results:
        task = run.tasks.get(r.task_id)
        rows.append(
            {
                "task_id": r.task_id,
                "instruction": task.instruction if task else "",
                "platform": task.metadata.platform if task else "",
                "agent": r.agent,
                "action_set": run.action_set,
                "observe": run.observation_policy,  # the key reports and exports use
                "start_at": r.start_at,
                "termination": r.termination,
                "success": r.success,
                "completion_ratio": r.completion_ratio,
                "total_nodes": r.total_nodes,
                "steps": r.steps,
                "actions": r.actions,
                "prompt_tokens": r.usage.prompt_tokens,
                "completion_tokens": r.usage.completion_tokens,
                "seconds": r.seconds,
                "answer": r.answer,
                "completed_nodes": json.dumps(r.completed_nodes),
                "trajectory": json.dumps(
                    r.model_dump(mode="json", include={"trajectory"})["trajectory"]
                ),
                "config_hash": run.manifest.config_hash,
            }
        )
    return rows


def export(run_dir: Path, out: Path) -> int:
    """Write ``out`` (.jsonl or .parquet); returns the number of episodes written."""
    rows = episode_rows(run_dir)
    if out.suffix == ".jsonl":
        with out.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif out.suffix == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ConfigError(
                "Parquet export needs pyarrow: pip install 'reefbench[export]'"
            ) from None
        pq.write_table(pa.Table.from_pylist(rows), out)
    else:
        raise ConfigError(f"{out}: export to a .jsonl or .parquet file")
    return len(rows)
