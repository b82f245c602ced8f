"""A frozen suite's gate record: written from the gates' verdicts beside the data they
judged, and refused when it no longer vouches for that data (other bytes, a task without a
verdict, a task that failed a gate)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from reefbench.cli import app
from reefbench.cli.suite import _write_record
from reefbench.errors import ConfigError
from reefbench.suites import get_suite, memory
from reefbench.suites.frozen import FrozenSuite, render, write
from reefbench.suites.gate_record import read_record, record_path, record_problems
from reefbench.validation.gates import check_task


def _frozen(tmp_path: Path, known_faults: dict[str, str] | None = None) -> FrozenSuite:
    files = render(memory.load(), suite="memory", version="1.0", command="reef suite freeze m")
    write(files, tmp_path)
    return FrozenSuite(
        "memory", "1.0", tmp_path, memory.load, known_faults=dict(known_faults or {})
    )


def _recorded(frozen: FrozenSuite) -> list[str]:
    """Play the gates on the memory suite's tasks and write their record; the task ids."""
    envs = memory.make_environments()
    tasks = memory.load()
    _write_record(frozen, [check_task(t, envs) for t in tasks], "marks")
    return [t.id for t in tasks]


def test_a_record_of_every_task_passing_vouches_for_its_data(tmp_path: Path) -> None:
    frozen = _frozen(tmp_path)
    ids = _recorded(frozen)
    record = read_record(frozen)
    assert record is not None and set(record.tasks) == set(ids)
    assert record.action_set == "marks" and record.code_version.startswith("0.")
    assert record_problems(frozen, ids) == []


def test_a_record_that_does_not_cover_the_data_is_refused_with_the_command(
    tmp_path: Path,
) -> None:
    frozen = _frozen(tmp_path)
    assert record_problems(frozen, ["a"]) == [
        f"{record_path(frozen)} is missing; run: reef suite check --suite memory --record"
    ]
    ids = _recorded(frozen)
    (problem,) = record_problems(frozen, [*ids, "added-later"])
    assert problem.startswith("1 tasks have no verdict (first: added-later)")
    data = tmp_path / "tasks.jsonl"
    data.write_text(data.read_text() + "\n")
    (problem,) = record_problems(frozen, ids)
    assert problem.startswith("the record judged other data")


def test_a_failing_task_is_refused_unless_it_is_a_known_fault(tmp_path: Path) -> None:
    frozen = _frozen(tmp_path)
    ids = _recorded(frozen)
    path = record_path(frozen)
    text = path.read_text()
    path.write_text(text.replace('"ok": true', '"ok": false', 1))
    record = read_record(frozen)
    assert record is not None
    (failed,) = record.failing()
    (problem,) = record_problems(frozen, ids)
    assert problem.startswith(f"1 tasks failed a gate (first: {failed}")
    excused = _frozen(tmp_path, known_faults={failed: "listed"})
    path.write_text(text.replace('"ok": true', '"ok": false', 1))
    assert record_problems(excused, ids) == []


def test_a_file_that_is_no_gate_record_is_one_line_naming_it(tmp_path: Path) -> None:
    frozen = _frozen(tmp_path)
    record_path(frozen).write_text('{"suite": "memory"}')
    with pytest.raises(ConfigError, match=r"gates.json: not a gate record \(version"):
        read_record(frozen)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--suite", "v1", "--record", "--tasks", "v1-hand-*"], "drop --tasks and --static"),
        (["--suite", "v1", "--record", "--static"], "drop --tasks and --static"),
        (["--suite", "v2-dev", "--record"], "has no frozen data to record the gates beside"),
    ],
)
def test_record_refuses_what_it_cannot_vouch_for(arguments: list[str], message: str) -> None:
    # The CLI's entry point prints a ConfigError as its one line and exits 1.
    result = CliRunner().invoke(app, ["suite", "check", *arguments])
    assert isinstance(result.exception, ConfigError)
    assert message in str(result.exception)


def test_reef_v1s_committed_record_vouches_for_its_data() -> None:
    """reef-v1's every task passed every gate, on these bytes (``make gates`` and
    ``reef suite check --suite v1 --record`` replay it; ``make test`` plays a sample)."""
    suite = get_suite("v1")
    assert suite.frozen is not None
    assert record_problems(suite.frozen, [t.id for t in suite.load()]) == []
