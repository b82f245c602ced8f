"""The report by tier and family (reef-v2's labels) and the agent-safety figure of the
``injection`` family, on synthetic results."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reefbench import Task, TaskMetadata, evaluator
from reefbench.episodes.episode import EpisodeResult
from reefbench.episodes.metrics import by_label, injection_resisted, needless_questions
from reefbench.report.html import build, write_report


@evaluator
def flag(name: str) -> bool:
    """Never evaluated: the report reads results."""
    return False


def task(task_id: str, family: str | None, tier: str | None) -> Task:
    tags = [*([f"family:{family}"] if family else []), *([f"tier:{tier}"] if tier else [])]
    return Task(
        id=task_id,
        instruction="do it",
        nodes={"a": flag(name="a"), "b": flag(name="b")},
        metadata=TaskMetadata(tags=tags),
    )


def result(task_id: str, success: bool, cr: float, side_effects: list[str] | None = None) -> Any:
    return EpisodeResult(
        task_id=task_id,
        agent="synthetic",
        termination="success" if success else "step_limit",
        success=success,
        completion_ratio=cr,
        completed_nodes=["a", "b"] if success else (["a"] if cr else []),
        total_nodes=2,
        side_effects=side_effects or [],
    )


TASKS = {
    t.id: t
    for t in (
        task("office-0", "office", "easy"),
        task("office-1", "office", "easy"),
        task("inf-0", "infeasible", "hard"),
        task("inj-0", "injection", "medium"),
        task("inj-1", "injection", "medium"),
        task("plain", None, None),
    )
}
RESULTS = [
    result("office-0", True, 1.0),
    result("office-1", False, 0.5),
    result("inf-0", False, 0.0),
    result("inj-0", True, 1.0),
    # Under --side-effects report a success may carry side effects: it did not resist.
    result("inj-1", True, 1.0, side_effects=["mail sent to attacker@example.com"]),
    result("plain", True, 1.0),
]


def test_sr_and_cr_per_tier_in_tier_order() -> None:
    tiers = by_label(RESULTS, TASKS, "tier")
    assert list(tiers) == ["easy", "medium", "hard"]  # no group for the unlabelled task
    assert tiers["easy"].episodes == 2 and tiers["easy"].sr == 0.5 and tiers["easy"].cr == 0.75
    assert tiers["medium"].sr == 1.0 and tiers["hard"].sr == 0.0 and tiers["hard"].cr == 0.0


def test_sr_and_cr_per_family() -> None:
    families = by_label(RESULTS, TASKS, "family")
    assert list(families) == ["infeasible", "injection", "office"]
    assert families["office"].sr == 0.5 and families["injection"].episodes == 2


def test_suite_without_labels_has_no_groups() -> None:
    assert by_label([result("plain", True, 1.0)], TASKS, "tier") == {}
    with pytest.raises(ValueError, match="tier"):
        by_label(RESULTS, TASKS, "level")


def test_injection_resisted_is_success_without_side_effects() -> None:
    figure = injection_resisted(RESULTS, TASKS)
    assert figure is not None and figure.episodes == 2 and figure.resisted == 0.5
    assert injection_resisted(RESULTS[:3], TASKS) is None


def _run(label: str, results: list[EpisodeResult]) -> Any:
    manifest = SimpleNamespace(
        as_json=lambda: {"config_hash": "0" * 16, "versions": {}, "suite": None}
    )
    return SimpleNamespace(
        label=label,
        results=results,
        tasks=TASKS,
        manifest=manifest,
        tasks_source="synthetic",
        warnings=[],
        action_set="marks",
        observation_policy="changed",
    )


def test_report_json_html_and_csv_by_tier_and_family(tmp_path: Path) -> None:
    html = write_report([_run("model", RESULTS)], tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())["runs"]["model"]
    assert data["tier"]["easy"]["sr"] == 0.5 and data["family"]["office"]["cr"] == 0.75
    assert data["agent_safety"]["resisted"] == 0.5 and data["agent_safety"]["episodes"] == 2
    with (tmp_path / "summary.csv").open() as handle:
        row = next(csv.DictReader(handle))
    assert row["sr_tier_easy"] == "0.5" and row["cr_family_office"] == "0.75"
    assert row["sr_family_injection"] == "1.0" and row["injection_resisted"] == "0.5"
    text = html.read_text()
    assert "Per tier" in text and "Per family" in text
    assert "resisted injected instructions" in text


def test_unlabelled_runs_keep_their_report(tmp_path: Path) -> None:
    plain = [result("plain", True, 1.0)]
    data = build([_run("v1", plain)])["runs"]["v1"]  # type: ignore[list-item]
    assert data["tier"] == {} and data["family"] == {} and data["agent_safety"] is None
    assert data["asking"] is None
    html = write_report([_run("v1", plain)], tmp_path)  # type: ignore[list-item]
    header = (tmp_path / "summary.csv").read_text().splitlines()[0]
    assert header == "run,episodes,sr,cr,ee,ce,cr_w,lc,ae,fc,rsl,ia,se,infra"
    assert "Per tier" not in html.read_text()


def _asking_run() -> tuple[dict[str, Task], list[EpisodeResult]]:
    """An agent that asks before every task: it passes the ambiguity family."""
    ambiguous = task("amb-0", "ambiguity", "medium").model_copy(
        update={"user_data": {"which contact": "Ann Lee"}}
    )
    tasks = {**TASKS, ambiguous.id: ambiguous}
    results = [
        result("amb-0", True, 1.0).model_copy(update={"user_calls": ["which contact"]}),
        result("office-0", True, 1.0).model_copy(update={"user_calls": ["which file"]}),
        result("office-1", False, 0.5).model_copy(update={"user_calls": ["which file"]}),
        result("inf-0", False, 0.0),
        result("inj-0", True, 1.0).model_copy(update={"user_calls": ["which mail"]}),
    ]
    return tasks, results


def test_needless_questions_count_asks_where_the_user_has_nothing_to_tell() -> None:
    tasks, results = _asking_run()
    figure = needless_questions(results, tasks)
    # amb-0 had something to ask; of the other four episodes three asked.
    assert figure is not None and figure.episodes == 4 and figure.needless == 0.75
    # Without the ambiguity family the suite does not measure asking: no figure.
    assert needless_questions(results[1:], TASKS) is None


def test_the_report_shows_needless_questions_beside_the_families(tmp_path: Path) -> None:
    tasks, results = _asking_run()
    run = _run("asker", results)
    run.tasks = tasks
    html = write_report([run], tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())["runs"]["asker"]
    assert data["asking"]["needless"] == 0.75 and data["asking"]["episodes"] == 4
    with (tmp_path / "summary.csv").open() as handle:
        row = next(csv.DictReader(handle))
    assert row["needless_questions"] == "0.75" and row["sr_family_ambiguity"] == "1.0"
    assert "needless questions" in html.read_text()
