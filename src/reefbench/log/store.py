"""The results store: an SQLite index (WAL) plus one JSON file per finished episode.

A run directory (:mod:`reefbench.log.run` creates and reads it) holds ``run.json``
(:mod:`reefbench.log.manifest`), ``tasks.jsonl`` (the definitions of the tasks the run
ran, so reports never relabel it with later code), ``results.sqlite`` (one row per
planned episode: pending, done, failed, or aborted: stopped mid-way by a signal, played
again by a resumed run and never counted as a result) and a folder per episode, ``episodes/<key>/``,
with ``result.json`` (the :class:`~reefbench.episodes.episode.EpisodeResult` without its
trajectory), ``trajectory.jsonl`` (one line per step) and the observation files
(screenshots) the trajectory points to, written by the store as the episode makes them
(:meth:`ResultsStore.observations`).
Only the runner's main thread writes the index. An episode's files are written and
fsynced *before* its row is marked done in one transaction, so a run killed at any instant
resumes without repeating a finished episode and without losing one: a row that is not
``done`` is simply planned again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from reefbench.episodes.episode import EpisodeResult
from reefbench.errors import ReefError
from reefbench.log.manifest import write_run_manifest as write_run_manifest
from reefbench.log.observations import ObservationFiles

Status = Literal["pending", "done", "failed", "aborted"]

RESULTS_FILE = "results.sqlite"
"""The store's index of a run's episodes, in the run directory."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS episodes (
    key TEXT PRIMARY KEY,
    task_id TEXT NOT NULL,
    seed INTEGER NOT NULL,
    start_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    termination TEXT,
    success INTEGER,
    completion_ratio REAL,
    steps INTEGER,
    actions INTEGER,
    tokens INTEGER,
    seconds REAL,
    error TEXT,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS episodes_status ON episodes(status);
"""


class ResultsWriteError(ReefError):
    """The run directory cannot be written (full disk, read-only mount): the run must stop.

    Nothing half-written is ever marked done, so the run resumes once space is freed.
    """


@dataclass(frozen=True, slots=True)
class EpisodeKey:
    """Identifies one planned episode of a run."""

    task_id: str
    seed: int = 0
    start_at: int = 0

    @property
    def key(self) -> str:
        suffix = f"@k{self.start_at}" if self.start_at else ""
        return f"{self.task_id}#s{self.seed}{suffix}"


class ResultsStore:
    """The run directory's SQLite index and episode files."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.episodes_dir = run_dir / "episodes"
        self.episodes_dir.mkdir(parents=True, exist_ok=True)
        self.db_path = run_dir / RESULTS_FILE
        self._db = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")  # a COMMIT that fails (disk full) is rolled back too
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            raise self._unwritable(exc) from None

    def _unwritable(self, exc: BaseException) -> ResultsWriteError:
        reason = getattr(exc, "strerror", None) or str(exc)
        return ResultsWriteError(
            f"cannot write the results in {self.run_dir}: {reason}; free space (or fix the "
            f"directory), then continue with: reef run --resume --out {self.run_dir}"
        )

    # --------------------------------------------------------------- planning
    def plan(self, keys: Iterable[EpisodeKey]) -> None:
        """Add episodes that are not in the store yet (planning again is harmless)."""
        now = time.time()
        with self._transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO episodes (key, task_id, seed, start_at, status, updated)"
                " VALUES (?, ?, ?, ?, 'pending', ?)",
                [(k.key, k.task_id, k.seed, k.start_at, now) for k in keys],
            )

    def todo(self) -> list[EpisodeKey]:
        """Episodes still to run (a killed run leaves its unfinished ones pending, a stopped
        one marks them aborted)."""
        rows = self._db.execute(
            "SELECT task_id, seed, start_at FROM episodes WHERE status IN ('pending', 'aborted')"
            " ORDER BY rowid"
        ).fetchall()
        return [EpisodeKey(t, s, k) for t, s, k in rows]

    def mark_retry(self, key: EpisodeKey, error: str) -> None:
        """Count a failed attempt of an episode that goes back in the queue, and keep what
        it left: its folder moves aside as ``<episode>~attempt<N>`` with its error in
        ``error.txt`` (the next attempt wrote over both, and a playtest's crash could not
        be told from the run afterwards)."""
        row = self._db.execute("SELECT attempts FROM episodes WHERE key=?", (key.key,)).fetchone()
        attempt = (row[0] if row else 0) + 1
        folder = self.episode_dir(key.key)
        kept = folder.with_name(f"{folder.name}~attempt{attempt}")
        try:
            if folder.exists():
                folder.rename(kept)
            kept.mkdir(parents=True, exist_ok=True)
            write_durably(kept / "error.txt", error + "\n")
        except OSError as exc:
            raise self._unwritable(exc) from None
        with self._transaction() as db:
            db.execute(
                "UPDATE episodes SET status='pending', attempts=attempts+1, error=?, updated=?"
                " WHERE key=?",
                (error, time.time(), key.key),
            )

    def mark_aborted(self, key: EpisodeKey, reason: str) -> None:
        """Note an episode stopped mid-way (SIGTERM, Ctrl+C): no result and no attempt is
        stored, so it is neither done nor the agent's failure, and ``--resume`` plays it."""
        with self._transaction() as db:
            db.execute(
                "UPDATE episodes SET status='aborted', termination='aborted', error=?, updated=?"
                " WHERE key=? AND status IN ('pending', 'aborted')",
                (reason, time.time(), key.key),
            )

    # ---------------------------------------------------------------- results
    def episode_dir(self, key: str) -> Path:
        return self.episode_folder(self.run_dir, key)

    @staticmethod
    def episode_folder(run_dir: Path, key: str) -> Path:
        """Where an episode's files live (keys are made safe as file names)."""
        return run_dir / "episodes" / _safe(key)

    def observations(self, key: EpisodeKey) -> ObservationFiles:
        """The observation sink of an episode: its binary observations become files in
        the episode's folder as they are made."""
        return ObservationFiles(lambda name, data: self._write_observation(key, name, data))

    def write_observations(self, key: EpisodeKey, files: Mapping[str, bytes]) -> None:
        """Store observation files an episode made elsewhere (a Ray actor sends them back
        with its result); only the base name of each is used."""
        for name, data in files.items():
            self._write_observation(key, name, data)

    def _write_observation(self, key: EpisodeKey, name: str, data: bytes) -> None:
        folder = self.episode_dir(key.key)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / Path(name).name).write_bytes(data)
        except OSError as exc:
            raise self._unwritable(exc) from None

    def record(self, key: EpisodeKey, result: EpisodeResult, *, final: bool = True) -> None:
        """Store a finished episode: files first (fsynced), then the row, atomically."""
        folder = self.episode_dir(key.key)
        turns = "".join(
            json.dumps(turn, ensure_ascii=False) + "\n"
            for turn in result.model_dump(mode="json", include={"trajectory"})["trajectory"]
        )
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_durably(folder / "trajectory.jsonl", turns)
            write_durably(folder / "result.json", result.model_dump_json(exclude={"trajectory"}))
        except OSError as exc:
            raise self._unwritable(exc) from None
        status: Status = "done" if final else "failed"
        with self._transaction() as db:
            db.execute(
                "UPDATE episodes SET status=?, attempts=attempts+1, termination=?, success=?,"
                " completion_ratio=?, steps=?, actions=?, tokens=?, seconds=?, error=?, updated=?"
                " WHERE key=?",
                (
                    status,
                    result.termination,
                    int(result.success),
                    result.completion_ratio,
                    result.steps,
                    result.actions,
                    result.usage.total_tokens,
                    result.seconds,
                    result.error,
                    time.time(),
                    key.key,
                ),
            )

    def counts(self) -> dict[str, int]:
        rows = self._db.execute("SELECT status, COUNT(*) FROM episodes GROUP BY status")
        return {status: n for status, n in rows}

    def results(self, *, trajectory: bool = False) -> list[EpisodeResult]:
        """Every stored episode result (done, and failed after its last retry)."""
        keys = self._db.execute(
            "SELECT key FROM episodes WHERE status IN ('done', 'failed') ORDER BY rowid"
        ).fetchall()
        return [self.load(key, trajectory=trajectory) for (key,) in keys]

    def load(self, key: str, *, trajectory: bool = True) -> EpisodeResult:
        folder = self.episode_dir(key)
        data = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        if trajectory:
            lines = (folder / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
            data["trajectory"] = [json.loads(line) for line in lines if line]
        return EpisodeResult.model_validate(data)

    def rows(self) -> list[dict[str, Any]]:
        cursor = self._db.execute("SELECT * FROM episodes ORDER BY rowid")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def integrity_ok(self) -> bool:
        return bool(self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def write_durably(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a fsynced temporary file and a rename: the file
    is either whole or not there."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)  # never leave a half-written file behind
        raise
    os.replace(tmp, path)


def _safe(key: str) -> str:
    """File name for an episode key (task ids may contain '/'; '.' and '..' would name the
    episodes folder itself or the run directory)."""
    name = "".join(c if c.isalnum() or c in "-_.#@" else "_" for c in key)
    return name.replace(".", "_") if set(name) <= {"."} else name
