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
