"""Exports: JSON lines and Parquet that datasets/pyarrow read back exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reefbench import ConfigError
from reefbench.agents import OracleAgent
from reefbench.report.export import export
from reefbench.runner.config import RunConfig
from reefbench.runner.launch import launch


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "run"
    launch(RunConfig(suite="memory", workers=1), path, lambda key: OracleAgent())
    return path


def test_jsonl(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "episodes.jsonl"
    assert export(run_dir, out) == 8
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    fan = next(r for r in rows if r["task_id"] == "mem-fan-out-join")
    assert fan["success"] and fan["platform"] == "cross"
    assert len(json.loads(fan["trajectory"])) == 4
    assert {r["action_set"] for r in rows} == {"marks"}


def test_parquet_reads_back(run_dir: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "episodes.parquet"
    export(run_dir, out)
    table = pq.read_table(out)
    assert table.num_rows == 8
    assert table.schema.field("completion_ratio").type == "double"
    rows = table.to_pylist()
    assert json.loads(rows[0]["trajectory"])[0]["step"] == 1


def test_datasets_loads_the_parquet(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")  # read when datasets is first imported
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "episodes.parquet"
    export(run_dir, out)
    loaded = datasets.load_dataset("parquet", data_files=str(out), split="train")
    assert len(loaded) == 8 and "trajectory" in loaded.column_names


def test_unknown_format_is_refused(run_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\.jsonl or \.parquet"):
        export(run_dir, tmp_path / "episodes.csv")
