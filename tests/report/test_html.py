"""The HTML report: built from real runs, rendered in real headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reefbench.agents import NullAgent, OracleAgent
from reefbench.report.html import write_report
from reefbench.report.loading import load_run
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.launch import launch

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("runs")
    launch(
        RunConfig(suite="memory", agent=AgentSpec(name="oracle"), start_at=[0, 2], workers=1),
        root / "oracle",
        lambda key: OracleAgent(),
    )
    launch(
        RunConfig(suite="memory", agent=AgentSpec(name="null"), workers=1),
        root / "null",
        lambda key: NullAgent(),
    )
    return [root / "oracle", root / "null"]


def test_report_files_and_numbers(runs: list[Path], tmp_path: Path) -> None:
    html = write_report([load_run(p) for p in runs], tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())
    oracle = next(v for k, v in data["runs"].items() if k.startswith("oracle"))
    null = next(v for k, v in data["runs"].items() if k.startswith("null"))
    assert oracle["summary"]["sr"] == 1.0 and oracle["summary"]["episodes"] == 10
    assert null["summary"]["sr"] == 0.0 and null["summary"]["fc"] == 1.0
    assert set(oracle["platform"]) == {"cross", "laptop", "phone"}
    assert "L4 × -" in oracle["level_scope"]
    # VeriGUI difficulty from both runs: solved by the oracle -> level 1 everywhere.
    assert set(data["difficulty"].values()) == {1}
    rows = (tmp_path / "summary.csv").read_text().splitlines()
    assert rows[0].startswith("run,episodes,sr,cr") and len(rows) == 3
    text = html.read_text()
    assert "mem-fan-out-join" in text and text.count("<svg") >= 3 + 10


@pytest.mark.integration
def test_report_renders_in_chromium_without_console_errors(
    runs: list[Path], tmp_path: Path
) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    html = write_report([load_run(p) for p in runs], tmp_path)
    errors: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(html.as_uri())
        playwright.expect(page.get_by_role("heading", name="reefbench report")).to_be_visible()
        first_row = page.locator("table").first.locator("tbody tr").first
        playwright.expect(first_row).to_contain_text("100.0")
        page.get_by_text("mem-long-chain").first.click()
        playwright.expect(page.locator("details[open] svg").first).to_be_visible()
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        browser.close()
    assert errors == []
    assert (tmp_path / "report.png").stat().st_size > 10_000
