"""A gate failure is one line that says which checkpoint was not reached and why, so a
failure seen only in CI can be diagnosed from the log."""

from __future__ import annotations

from reefbench.episodes.episode import CallRecord, EpisodeResult, TurnRecord
from reefbench.tasks.graph import NodeCheck
from reefbench.validation.gates import _failure


def test_the_failure_line_names_each_unreached_checkpoint_with_its_last_message():
    checks = [
        NodeCheck("s2.file_holds", True, "holds"),
        NodeCheck("s2.saved_with", False, "mousepad has no record of saving it"),
    ]
    call = CallRecord("desktop", "press", {"key": "enter"}, "ok", checks=checks)
    result = EpisodeResult(
        task_id="t",
        agent="oracle",
        termination="false_completion",
        success=False,
        completion_ratio=0.75,
        completed_nodes=["s0.a", "s1.b", "s2.file_holds"],
        total_nodes=4,
        trajectory=[TurnRecord(step=1, calls=[call])],
    )
    line = _failure("oracle", result)
    assert line == (
        "oracle ended with false_completion (1 of 4 checkpoints not reached; "
        "not reached: s2.saved_with: mousepad has no record of saving it)"
    )


def test_a_task_failing_a_static_gate_is_reported_as_it_is_found() -> None:
    """``reef suite check`` prints failures through ``on_verdict``; a task refused by a
    static gate (never played) was counted as failing but never printed."""
    from reefbench.suites.memory import POOL
    from reefbench.tasks.link import compose_task
    from reefbench.validation.gates import run_gates

    task = compose_task(
        "mem-wrong-words",
        [(POOL["create_file@laptop"], {"path": "a.txt", "content": "x"})],
        instruction="Tidy up the laptop.",
    )
    heard: list[str] = []

    def no_devices() -> dict[str, object]:
        raise AssertionError("a task refused statically is not played")

    verdicts = run_gates(
        [task],
        no_devices,
        pool=POOL,
        on_verdict=lambda v: heard.append(v.line()),  # type: ignore[arg-type]
    )
    assert [v.ok for v in verdicts] == [False]
    assert heard == [verdicts[0].line()] and "instruction:" in heard[0]
