"""A retried episode keeps what its failed attempt left (playtest R9: the error of a
crash that bought a fresh episode was overwritten, and so were its screenshots)."""

from __future__ import annotations

from pathlib import Path

from reefbench.log.store import EpisodeKey, ResultsStore


def test_a_retried_attempt_keeps_its_files_and_its_error(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path / "run")
    key = EpisodeKey("v2-task-1")
    store.plan([key])
    store.write_observations(key, {"step-1.png": b"first attempt"})
    store.mark_retry(key, "desktop crashed: Execution context was destroyed")
    store.write_observations(key, {"step-1.png": b"second attempt"})
    store.mark_retry(key, "browser crashed")
    store.write_observations(key, {"step-1.png": b"third attempt"})

    folder = store.episode_dir(key.key)
    first = folder.with_name(folder.name + "~attempt1")
    second = folder.with_name(folder.name + "~attempt2")
    assert (first / "step-1.png").read_bytes() == b"first attempt"
    assert (first / "error.txt").read_text() == "desktop crashed: Execution context was destroyed\n"
    assert (second / "step-1.png").read_bytes() == b"second attempt"
    assert (second / "error.txt").read_text() == "browser crashed\n"
    assert (folder / "step-1.png").read_bytes() == b"third attempt"
    assert store.todo() == [key]  # still to play, counted twice
    attempts = store._db.execute("SELECT attempts FROM episodes").fetchone()[0]
    assert attempts == 2
    store.close()


def test_an_attempt_that_wrote_nothing_still_keeps_its_error(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path / "run")
    key = EpisodeKey("t", seed=3)
    store.plan([key])
    store.mark_retry(key, "env_error")
    folder = store.episode_dir(key.key)
    assert (folder.with_name(folder.name + "~attempt1") / "error.txt").read_text() == "env_error\n"
    assert not folder.exists()
    store.close()
