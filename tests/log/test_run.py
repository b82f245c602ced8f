"""A run directory through the log: ``reefbench.load_run`` reads one back typed, the log
opens (creates or resumes) it, and the log writes the observation files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import reefbench
from reefbench.episodes.episode import summarise_observation
from reefbench.errors import ConfigError
from reefbench.log.manifest import RunManifest
from reefbench.log.observations import ObservationFiles
from reefbench.log.run import open_run
from reefbench.log.store import EpisodeKey

OLD_RUN = Path(__file__).parent / "data" / "run-0.1"
PNG = b"\x89PNG\r\n\x1a\n" + b"pixels"


def test_load_run_is_public_and_reads_a_run_typed(tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(OLD_RUN, copy)
    run = reefbench.load_run(copy, trajectory=True)
    assert isinstance(run.manifest, RunManifest) and run.manifest.suite_name == "memory"
    [result] = run.results
    assert result.task_id == "mem-write-note" and result.success and result.trajectory
    assert run.tasks_source == "run" and list(run.tasks) == ["mem-write-note"]
    assert run.label == "oracle [marks] · run"


@pytest.mark.parametrize("what", ["missing", "empty", "manifest only", "a file"])
def test_a_directory_that_is_not_a_run_is_one_line(tmp_path: Path, what: str) -> None:
    path = tmp_path / "x"
    if what == "empty":
        path.mkdir()
    elif what == "manifest only":
        path.mkdir()
        shutil.copy(OLD_RUN / "run.json", path / "run.json")
    elif what == "a file":
        path.write_text("not a directory")
    with pytest.raises(ConfigError, match="not a run directory") as info:
        reefbench.load_run(path)
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)


def test_import_reefbench_loads_the_log_only_when_load_run_is_used() -> None:
    probe = (
        "import sys, reefbench\n"
        "print('reefbench.log' in sys.modules)\n"
        "reefbench.load_run\n"
        "print('reefbench.log.run' in sys.modules, 'reefbench.runner' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert out == ["False", "True", "False"]
    assert "load_run" in reefbench.__all__ and "load_run" in dir(reefbench)


def test_open_run_creates_then_resumes_and_refuses_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = RunManifest(config={"suite": "memory"}, config_hash="a")
    open_run(out, first, '{"id":"t"}\n').close()
    assert (out / "tasks.jsonl").read_text() == '{"id":"t"}\n'
    assert (out / "run.json").is_file() and (out / "results.sqlite").is_file()
    open_run(out, first, "other definitions\n").close()  # resumed: its tasks are kept
    assert (out / "tasks.jsonl").read_text() == '{"id":"t"}\n'
    with pytest.raises(ConfigError, match="another configuration"):
        open_run(out, RunManifest(config={}, config_hash="b"), "")


def test_the_store_writes_observation_files_and_keeps_text_inline(tmp_path: Path) -> None:
    out = tmp_path / "run"
    store = open_run(out, RunManifest(config={}, config_hash="a"), "")
    key = EpisodeKey("task/one", seed=1)
    try:
        sink = store.observations(key)
        assert sink(3, "desktop", "screenshot", PNG) == "step003-desktop-screenshot.png"
        assert sink(4, "phone", "raw", b"\x00\x01") == "step004-phone-raw.bin"
        assert sink(4, "phone", "text", "hello") == "hello"
        assert sink(4, "phone", "tree", {"a": 1}) == summarise_observation(
            4, "phone", "t", {"a": 1}
        )
        store.write_observations(key, {"../step005-x-y.png": PNG})  # from a Ray actor
    finally:
        store.close()
    folder = store.episode_dir(key.key)
    assert sorted(p.name for p in folder.iterdir()) == [
        "step003-desktop-screenshot.png",
        "step004-phone-raw.bin",
        "step005-x-y.png",
    ]
    assert (folder / "step003-desktop-screenshot.png").read_bytes() == PNG


def test_an_actor_names_its_observations_as_the_store_does() -> None:
    """A Ray actor keeps the bytes for the driver, under the names the store gives."""
    kept: dict[str, bytes] = {}
    name = ObservationFiles(kept.__setitem__)(0, "desktop", "screenshot", PNG)
    assert name == "step000-desktop-screenshot.png" and kept == {name: PNG}
