"""A frozen suite's gate record: what the validation gates found for each of its tasks,
committed beside the data it judged.

A release is worth publishing because every task passed every gate (solvable by its
reference, its near misses failing, no side effects, ...). Replaying the gates takes most
of an hour, so a reader cannot check that claim on each checkout; the record makes it a file:
``reef suite check --suite NAME --record`` writes ``gates.json`` next to ``tasks.jsonl``
with each task's verdict, the hash of the data it judged and the code version that judged
it, and :func:`record_problems` (run by a test) refuses a record that does not cover the
data beside it: another hash, a task missing or added, a task failing. What the record
cannot say is that today's code still passes: the live gates on a sample in ``make test``
and a fresh ``--record`` run before a release do that.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reefbench.errors import ConfigError
from reefbench.plumbing.userfiles import first_validation_error, parse_json, read_text
from reefbench.suites.frozen import TASKS_FILE, FrozenSuite, content_hash

RECORD_FILE = "gates.json"


class TaskGates(BaseModel):
    """One task's verdict (:class:`reefbench.validation.gates.Verdict` as data)."""

    model_config = ConfigDict(extra="forbid")

    ok: bool
    problems: list[str] = Field(default_factory=list)
    episodes: int = Field(ge=0)
    retried: list[str] = Field(default_factory=list)
    """Solutions that passed only on their second try (a GUI step that raced its app)."""


class GateRecord(BaseModel):
    """Every task's verdict for one frozen suite's data."""

    model_config = ConfigDict(extra="forbid")

    suite: str
    version: str
    data_sha256: str = Field(min_length=64, max_length=64)
    """SHA-256 of ``tasks.jsonl`` as the gates read it (the manifest's ``sha256``)."""
    code_version: str
    action_set: str
    checked_on: dt.date
    tasks: dict[str, TaskGates]

    def failing(self, known_faults: dict[str, str] | None = None) -> list[str]:
        """Ids of the tasks that failed a gate, apart from a published release's known
        faults (listed, not fixed: the data is the release)."""
        known = known_faults or {}
        return sorted(t for t, g in self.tasks.items() if not g.ok and t not in known)


def record_path(frozen: FrozenSuite) -> Path:
    return frozen.directory / RECORD_FILE


def write_record(frozen: FrozenSuite, record: GateRecord) -> Path:
    """Write ``record`` beside ``frozen``'s data (keys sorted: a re-run that finds the same
    gives the same file but for its date and code version)."""
    path = record_path(frozen)
    path.write_text(record.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return path


def read_record(frozen: FrozenSuite) -> GateRecord | None:
    """The committed record, or ``None`` when the suite has none yet.

    Raises:
        ConfigError: the file exists but is not a gate record.
    """
    path = record_path(frozen)
    if not path.exists():
        return None
    try:
        return GateRecord.model_validate(parse_json(read_text(path), str(path)))
    except ValidationError as exc:
        raise ConfigError(
            f"{path}: not a gate record ({first_validation_error(exc)}); rewrite it with "
            f"reef suite check --suite {frozen.name} --record"
        ) from None


def record_problems(frozen: FrozenSuite, task_ids: list[str]) -> list[str]:
    """Why the committed record does not vouch for the data beside it (``task_ids``: the
    ids in that data, in order); empty when it does."""
    fix = f"run: reef suite check --suite {frozen.name} --record"
    record = read_record(frozen)
    if record is None:
        return [f"{record_path(frozen)} is missing; {fix}"]
    problems = []
    data_hash = content_hash(read_text(frozen.directory / TASKS_FILE))
    if record.data_sha256 != data_hash:
        problems.append(
            f"the record judged other data (sha256 {record.data_sha256[:12]}, the data is "
            f"{data_hash[:12]}); {fix}"
        )
    missing = [t for t in task_ids if t not in record.tasks]
    extra = sorted(set(record.tasks) - set(task_ids))
    if missing:
        problems.append(f"{len(missing)} tasks have no verdict (first: {missing[0]}); {fix}")
    if extra:
        problems.append(f"{len(extra)} verdicts name no task of the data (first: {extra[0]})")
    failing = record.failing(dict(frozen.known_faults))
    if failing:
        problems.append(
            f"{len(failing)} tasks failed a gate (first: {failing[0]}: "
            f"{'; '.join(record.tasks[failing[0]].problems)[:200]})"
        )
    return problems
