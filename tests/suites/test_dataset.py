"""``reef export --tasks SUITE --format hf DIR``: a suite's tasks as a Hugging Face dataset
that ``datasets.load_dataset`` reads back into the exact frozen definitions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reefbench.suites import get_suite
from reefbench.suites.dataset import COLUMNS, family_of
from reefbench.suites.frozen import TASKS_FILE, legacy_as_names
from reefbench.tasks.taskfile import load_tasks, task_to_dict

datasets = pytest.importorskip("datasets")
pytest.importorskip("pyarrow")

REEF = [sys.executable, "-m", "reefbench.cli"]


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*REEF, "export", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture(scope="module")
def v1_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hf") / "reef-v1"
    done = _export("--tasks", "reef-v1", "--format", "hf", str(out))
    assert done.returncode == 0, done.stderr
    assert "230 tasks of v1" in done.stdout
    return out


def test_the_dataset_loads_back_as_the_frozen_release(v1_dataset: Path, tmp_path: Path) -> None:
    rows = datasets.load_dataset(str(v1_dataset), split="test")
    assert rows.num_rows == 230 and list(rows.features) == list(COLUMNS)
    suite = get_suite("v1")
    assert suite.frozen is not None
    shipped = (suite.frozen.directory / TASKS_FILE).read_text(encoding="utf-8")
    # Row for row, the release's lines (references as stable names), in the release's order.
    expected = [json.loads(line) for line in legacy_as_names(shipped).splitlines()]
    assert [json.loads(row["task"]) for row in rows] == expected
    # The rows load back into the very tasks the suite plays.
    lines = tmp_path / "tasks.jsonl"
    lines.write_text("".join(row["task"] + "\n" for row in rows), encoding="utf-8")
    loaded = {t.id: task_to_dict(t) for t in load_tasks(lines)}
    assert loaded == {t.id: task_to_dict(t) for t in suite.load()}
    # The flat columns agree with the definitions.
    for row in rows:
        task = json.loads(row["task"])
        assert row["id"] == task["id"] and row["instruction"] == task["instruction"]
        assert row["checkpoints"] == len(task["nodes"]) and row["version"] == "1.0.0"
        assert row["apps"] == task["metadata"]["apps"]
    assert {row["family"] for row in rows} >= {"hand", "office", "world-invoice"}


def test_the_card_says_fields_families_licence_and_how_to_run(v1_dataset: Path) -> None:
    card = (v1_dataset / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nlicense: apache-2.0\n")
    for column in COLUMNS:
        assert f"| `{column}` |" in card
    for heading in ("## Families", "## Tiers", "## How to run", "## Licence", "## Integrity"):
        assert heading in card
    manifest = json.loads((get_suite("v1").frozen.directory / "manifest.json").read_text())  # type: ignore[union-attr]
    assert manifest["sha256"] in card
    assert "reef run --suite v1" in card


def test_a_suite_that_is_not_frozen_exports_its_tasks_as_loaded(tmp_path: Path) -> None:
    done = _export("--tasks", "memory", "--format", "hf", str(tmp_path / "memory"))
    assert done.returncode == 0, done.stderr
    rows = datasets.load_dataset(str(tmp_path / "memory"), split="test")
    assert sorted(rows["id"]) == sorted(t.id for t in get_suite("memory").load())
    assert set(rows["version"]) == {""}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tasks", "v9", "DIR"], "unknown suite 'v9'"),
        (["--tasks", "v1", "--format", "parquet", "DIR"], "use --format hf"),
        (["--tasks", "v1"], "--tasks needs the dataset's directory"),
        (["--format", "hf", "DIR"], "add --tasks SUITE"),
        (["--tasks", "v1", "FULL"], "holds other files"),
    ],
)
def test_export_mistakes_are_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    paths = {"DIR": str(tmp_path / "new"), "FULL": str(full)}
    done = _export(*[paths.get(a, a) for a in args])
    assert done.returncode != 0
    assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert (full / "notes.txt").read_text() == "mine"


def test_family_is_the_id_between_suite_and_hash() -> None:
    assert family_of("v1-world-invoice-35b1c5c974b0", "v1") == "world-invoice"
    assert family_of("v1-hand-f54248b35e88", "v1") == "hand"
    assert family_of("mem-write-note", "memory") == "mem-write"
