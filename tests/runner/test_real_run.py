"""A run on the real desktop: the store, trajectories with screenshots, and the report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reefbench import ActionCall, Task
from reefbench.agents import NullAgent, OracleAgent
from reefbench.log.manifest import RunManifest
from reefbench.log.store import ResultsStore
from reefbench.report.html import write_report
from reefbench.report.loading import LoadedRun
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Runner

pytestmark = pytest.mark.integration

if shutil.which("Xvfb") is None or shutil.which("bwrap") is None:
    pytest.skip("the desktop system packages are not installed", allow_module_level=True)

from reefbench.envs.desktop import DesktopEnvironment  # noqa: E402
from reefbench.envs.desktop.evaluators import file_contains  # noqa: E402

TASK = Task(
    id="desktop-hello",
    instruction='Open a terminal and save the word "hi" in ~/hello.txt.',
    nodes={"saved": file_contains("~/hello.txt", "hi").on("desktop")},
    reference_solution=[
        ActionCall(env="desktop", name="search_app", arguments={"name": "terminal"}),
        ActionCall(env="desktop", name="write_text", arguments={"text": "echo hi > ~/hello.txt\n"}),
    ],
)


def test_runner_on_the_real_desktop_stores_screenshots_and_reports(tmp_path: Path) -> None:
    results = {}
    for name, agent in (("oracle", OracleAgent), ("null", NullAgent)):
        run_dir = tmp_path / name
        store = ResultsStore(run_dir)
        try:
            Runner(
                RunConfig(suite="memory", workers=1),
                [TASK],
                lambda key, a=agent: a(),
                lambda: {"desktop": DesktopEnvironment("desktop")},
                store,
            ).run()
            assert [r["status"] for r in store.rows()] == ["done"]
            results[name] = store.results(trajectory=True)
        finally:
            store.close()
    oracle, null = results["oracle"][0], results["null"][0]
    assert oracle.success and oracle.actions == 2
    assert null.termination == "false_completion" and null.completion_ratio == 0.0
    shots = sorted((tmp_path / "oracle" / "episodes" / "desktop-hello#s0").glob("*.png"))
    assert shots and all(p.read_bytes()[:4] == b"\x89PNG" for p in shots)
    first = oracle.trajectory[0].observations["desktop"]
    assert any(isinstance(v, str) and v.endswith(".png") for v in first.values())
    runs = [
        LoadedRun(
            tmp_path / n,
            RunManifest(config={}, config_hash=n),
            results[n],
            {TASK.id: TASK},
        )
        for n in ("oracle", "null")
    ]
    html = write_report(runs, tmp_path / "report").read_text()
    assert "desktop-hello" in html and "100.0" in html
