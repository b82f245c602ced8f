"""A suite's task definitions as a Hugging Face dataset: Parquet plus a dataset card.

``reef export --tasks SUITE --format hf DIR`` writes ``DIR/data/test-00000-of-00001.parquet``
and ``DIR/README.md``, which ``datasets.load_dataset(DIR)`` reads as one ``test`` split
(the card's YAML header names the file, its features and the split), and which
``huggingface-cli upload`` publishes as is.

One row per task. Flat, typed columns serve filtering (platform, apps, level, family,
tier, checkpoint count); ``task`` holds the whole definition as one JSON line, the form
``reefbench.tasks.taskfile.load_tasks`` reads, so a row turns back into the exact task. For a
frozen release that line is its shipped line with references written as stable names
(reef-v1 was frozen before stable names existed; its own bytes are what its manifest's
sha256 covers, and the card gives that hash).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reefbench.errors import ConfigError
from reefbench.suites import Suite, get_suite
from reefbench.suites.frozen import TASKS_FILE, legacy_as_names, read_manifest
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import json_line, task_to_dict

DATA_FILE = "data/test-00000-of-00001.parquet"
SPLIT = "test"

# Column -> (Hugging Face feature type for the card, what it holds).
COLUMNS: dict[str, tuple[str, str]] = {
    "id": ("string", "the task's stable id"),
    "suite": ("string", "the suite (release) the task belongs to"),
    "version": ("string", "the release's version (empty for a suite that is not frozen)"),
    "family": ("string", "the task's family: the part of its id between suite and hash"),
    "tier": ("string", "its difficulty tier (`tier:*` tag), else its difficulty 1-5, else ''"),
    "instruction": ("string", "what the agent is told"),
    "platform": ("string", "desktop, phone, browser, memory, ... or cross (several)"),
    "environments": ("list:string", "the devices the task uses"),
    "apps": ("list:string", "the applications it involves"),
    "level": ("string", "OS-MAP automation level L1-L5 ('' when unset)"),
    "scope": ("string", "OS-MAP generalisation scope S1-S3 ('' when unset)"),
    "domain": ("string", "its domain ('' when unset)"),
    "capabilities": ("list:string", "OmniBench capabilities it tests"),
    "tags": ("list:string", "labels (handmade, world, near-miss family, ...)"),
    "step_limit": ("int64", "the step budget a run gives (0: the runner's rule)"),
    "checkpoints": ("int64", "nodes of its evaluation graph"),
    "subtasks": ("int64", "subtasks it was composed of (0 for a handmade task)"),
    "reference_actions": ("int64", "actions of its reference solution"),
    "task": ("string", "the whole definition as one JSON line (reefbench.tasks.taskfile format)"),
}


@dataclass(frozen=True)
class DatasetExport:
    """What :func:`export_tasks` wrote."""

    directory: Path
    rows: int
    suite: str
    version: str


def task_lines(suite: Suite, tasks: list[Task]) -> tuple[list[str], str, str | None]:
    """The suite's ``tasks`` (as loaded) as JSON lines, its version and (for a frozen
    release) the sha256 of its shipped data: a frozen suite's own data, any other suite's
    tasks as loaded."""
    if suite.frozen is not None:
        manifest = read_manifest(suite.frozen.directory)
        text = (suite.frozen.directory / TASKS_FILE).read_text(encoding="utf-8")
        return legacy_as_names(text).splitlines(), manifest.version, manifest.sha256
    return [json_line(task_to_dict(t)).rstrip("\n") for t in tasks], "", None


def family_of(task_id: str, suite: str) -> str:
    """``v1-world-invoice-35b1c5c974b0`` -> ``world-invoice``: a frozen task's id is its
    suite, its family and a content hash; other ids give everything before the last dash."""
    parts = task_id.split("-")
    if len(parts) >= 3 and parts[0] == suite:
        return "-".join(parts[1:-1])
    return "-".join(parts[:-1]) if len(parts) > 1 else task_id


def _tier(task: Task) -> str:
    for tag in task.metadata.tags:
        if tag.startswith("tier:"):
            return tag.removeprefix("tier:")
    difficulty = task.metadata.difficulty
    return "" if difficulty is None else str(difficulty)


def task_row(task: Task, line: str, *, suite: str, version: str) -> dict[str, Any]:
    """One dataset row of ``task`` (whose definition is ``line``)."""
    meta = task.metadata
    return {
        "id": task.id,
        "suite": suite,
        "version": version,
        "family": family_of(task.id, suite),
        "tier": _tier(task),
        "instruction": task.instruction,
        "platform": meta.platform,
        "environments": list(meta.environments),
        "apps": list(meta.apps),
        "level": meta.level or "",
        "scope": meta.scope or "",
        "domain": meta.domain or "",
        "capabilities": list(meta.capabilities),
        "tags": list(meta.tags),
        "step_limit": meta.step_limit or 0,
        "checkpoints": len(task.nodes),
        "subtasks": len(meta.subtasks),
        "reference_actions": len(task.reference_solution),
        "task": line,
    }


def export_tasks(suite_name: str, directory: Path) -> DatasetExport:
    """Write ``suite_name``'s tasks to ``directory`` as a Hugging Face dataset.

    Raises:
        ConfigError: unknown suite, pyarrow missing, or ``directory`` holds something else
            (a file, or a folder that is neither empty nor an earlier export).
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError(
            "a dataset export needs pyarrow: pip install 'reefbench[export]'"
        ) from None
    _check_target(directory)
    suite = get_suite(suite_name)
    loaded = suite.load()
    lines, version, sha256 = task_lines(suite, loaded)
    tasks = {t.id: t for t in loaded}
    rows = []
    for line in lines:
        task_id = json.loads(line)["id"]
        rows.append(task_row(tasks[task_id], line, suite=suite.name, version=version))
    schema = pa.schema([(name, _arrow_type(pa, kind)) for name, (kind, _) in COLUMNS.items()])
    (directory / "data").mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), directory / DATA_FILE)
    card = dataset_card(suite, rows, version=version, sha256=sha256)
    (directory / "README.md").write_text(card, encoding="utf-8")
    return DatasetExport(directory, len(rows), suite.name, version)


def _check_target(directory: Path) -> None:
    if directory.exists() and not directory.is_dir():
        raise ConfigError(f"{directory}: is a file; give a directory for the dataset")
    if directory.is_dir():
        ours = {"README.md", "data"}
        if any(p.name not in ours for p in directory.iterdir()):
            raise ConfigError(
                f"{directory}: holds other files; give an empty or new directory "
                "(an earlier export there is replaced)"
            )


def _arrow_type(pa: Any, kind: str) -> Any:
    return {
        "string": pa.string(),
        "int64": pa.int64(),
        "list:string": pa.list_(pa.string()),
    }[kind]


def _feature_yaml(name: str, kind: str) -> str:
    if kind == "list:string":
        return f"  - name: {name}\n    sequence: string"
    return f"  - name: {name}\n    dtype: {kind}"


def dataset_card(
    suite: Suite, rows: list[dict[str, Any]], *, version: str, sha256: str | None
) -> str:
    """The dataset card: a YAML header ``datasets`` reads (features, the split's file) and
    what a reader needs (fields, families, tiers, licence, how to run)."""
    features = "\n".join(_feature_yaml(n, k) for n, (k, _) in COLUMNS.items())
    families: dict[str, int] = {}
    platforms: dict[str, int] = {}
    tiers: dict[str, int] = {}
    for row in rows:
        families[row["family"]] = families.get(row["family"], 0) + 1
        platforms[row["platform"]] = platforms.get(row["platform"], 0) + 1
        tiers[row["tier"] or "(none)"] = tiers.get(row["tier"] or "(none)", 0) + 1
    title = f"reefbench suite {suite.name}" + (f" {version}" if version else "")
    fields = "\n".join(f"| `{n}` | {k} | {what} |" for n, (k, what) in COLUMNS.items())
    integrity = (
        f"The release's own data file (`{TASKS_FILE}` in `reefbench/suites/{suite.name}/data/`)"
        f" has sha256 `{sha256}`; `task` writes its references as stable names."
        if sha256
        else "This suite is not a frozen release: the rows are its tasks as loaded today."
    )
    return f"""---
license: apache-2.0
pretty_name: {title}
task_categories:
- other
tags:
- agents
- gui-agents
- benchmark
configs:
- config_name: default
  data_files:
  - split: {SPLIT}
    path: {DATA_FILE}
dataset_info:
  features:
{_indent(features)}
---

# {title}

{suite.description}

{len(rows)} tasks for multimodal agents operating real software (a Linux desktop, a phone,
a browser, a local cloud account), each scored by a graph of checkpoints. Written by
`reef export --tasks {suite.name} --format hf`.

## Fields

| column | type | what it holds |
|---|---|---|
{fields}

## Families

{_counts(families)}

## Platforms

{_counts(platforms)}

## Tiers

{_counts(tiers)}

## Integrity

{integrity}

## How to run

```bash
pip install 'reefbench[all]'
reef run --suite {suite.name} --agent oracle        # the reference solutions
reef run --suite {suite.name} --model openai/gpt-4o # a model
```

A row's `task` loads back as a task with `reefbench.tasks.taskfile.load_tasks` (one JSON line per
task). Code the tasks name (actions, checkpoints) is reefbench's: the dataset holds the
definitions, reefbench the environments that run them.

## Licence

Apache-2.0, as reefbench. Names, mails and documents in the tasks are synthetic.
"""


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _counts(counts: dict[str, int]) -> str:
    lines = [f"| {name} | {n} |" for name, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    return "| name | tasks |\n|---|---|\n" + "\n".join(lines)
