"""A solution that fails once is played again before its failure counts (gates.SOLUTION_TRIES):
a GUI step can outrun an app slowed by a loaded machine, and one such miss failed a whole CI
run. The verdict names what needed its second try; a solution that fails every time is still
a failing task, and a near miss is never replayed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.envs import memory as m
from reefbench.episodes.episode import Episode, EpisodeResult
from reefbench.suites.memory import make_environments
from reefbench.tasks.task import Task, TaskMetadata
from reefbench.validation import gates

WRITE_X = ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "x"})
WRITE_Y = ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "y"})


def _task(**fields: object) -> Task:
    base: dict[str, object] = {
        "id": "retry-probe",
        "instruction": 'Write "x" to a.txt on the laptop.',
        "nodes": {"a": m.file_equals("a.txt", "x").on("laptop")},
        "reference_solution": [WRITE_X],
        "metadata": TaskMetadata(environments=["laptop"]),
    }
    return Task(**{**base, **fields})  # type: ignore[arg-type]


class _SomeRunsFail(Episode):
    """An episode whose runs numbered in ``failing`` (counting from 1) end as a missed
    keystroke would: the checkpoint not reached."""

    failing: frozenset[int] = frozenset()
    runs = 0

    def run(self) -> EpisodeResult:
        result = super().run()
        type(self).runs += 1
        if type(self).runs in type(self).failing:
            return result.model_copy(
                update={"success": False, "termination": "false_completion", "credited_nodes": []}
            )
        return result


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_SomeRunsFail]]:
    monkeypatch.setattr(gates, "Episode", _SomeRunsFail)
    _SomeRunsFail.runs, _SomeRunsFail.failing = 0, frozenset()
    yield _SomeRunsFail


def test_an_oracle_that_fails_once_passes_and_is_named_as_retried(
    flaky: type[_SomeRunsFail],
) -> None:
    flaky.failing = frozenset({1})
    verdict = gates.check_task(_task(), make_environments())
    assert verdict.ok, verdict.line()
    assert verdict.retried == ["oracle"]
    assert verdict.episodes == 2


def test_an_alternative_that_fails_once_passes_and_is_named_as_retried(
    flaky: type[_SomeRunsFail],
) -> None:
    verdict = gates.check_task(_task(alternative_solutions=[[WRITE_X]]), make_environments())
    assert verdict.ok and verdict.retried == []
    flaky.runs, flaky.failing = (
        0,
        frozenset({2}),
    )  # the oracle's run passes, the alternative's fails
    verdict = gates.check_task(_task(alternative_solutions=[[WRITE_X]]), make_environments())
    assert verdict.ok, verdict.line()
    assert verdict.retried == ["alternative 0"]


def test_a_solution_that_fails_every_try_still_fails_the_task() -> None:
    verdict = gates.check_task(_task(reference_solution=[WRITE_Y]), make_environments())
    assert not verdict.ok and verdict.retried == []
    assert verdict.episodes == gates.SOLUTION_TRIES
    (problem,) = verdict.problems
    assert problem.startswith("oracle ended with false_completion")
    assert problem.endswith(f"(again on try {gates.SOLUTION_TRIES})")
    verdict = gates.check_task(_task(alternative_solutions=[[WRITE_Y]]), make_environments())
    assert [p.split(" ended")[0] for p in verdict.problems] == ["alternative solution 0"]
