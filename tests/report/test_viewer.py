"""The trajectory viewer: token, pages, screenshots and comparison in real Chromium."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from reefbench import Environment, Task, action, evaluator
from reefbench.actions.spec import ActionCall
from reefbench.agents import NullAgent, OracleAgent
from reefbench.plumbing.net import ServedApp
from reefbench.report.viewer import create_viewer
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.runner.launch import launch

pytestmark = pytest.mark.integration
TOKEN = secrets.token_urlsafe(24)
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e5273ee60000000049454e44ae426082"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("viewer")
    launch(
        RunConfig(suite="memory", agent=AgentSpec(name="oracle"), workers=1),
        root / "a",
        lambda key: OracleAgent(),
    )
    launch(
        RunConfig(suite="memory", agent=AgentSpec(name="null"), workers=1),
        root / "b",
        lambda key: NullAgent(),
    )
    app = ServedApp(create_viewer([root / "a", root / "b"], TOKEN))
    yield app, root
    app.stop()


def test_token_is_required(served: Any) -> None:
    app, _ = served
    assert httpx.get(app.url + "/").status_code == 401
    assert httpx.get(app.url + "/?token=wrong").status_code == 401
    with httpx.Client(base_url=app.url, follow_redirects=True) as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200
        assert client.get("/runs/0/episodes/mem-write-note%23s0").status_code == 200


def test_files_are_confined_to_episode_folders(served: Any) -> None:
    app, root = served
    (root / "secret.txt").write_text("top secret")
    with httpx.Client(base_url=app.url, cookies={"reef_view": TOKEN}) as client:
        for path in [
            "/runs/0/files/mem-write-note%23s0/..%2F..%2F..%2Fsecret.txt",
            "/runs/0/files/..%2F..%2F/secret.txt",
            "/runs/9/files/x/y.png",
            "/runs/0/files/../run.json",  # an episode key of '..' named the run directory
            "/runs/0/files/%2E%2E/run.json",
            "/runs/0/files/./mem-write-note%23s0",
            "/runs/0/files/not-an-episode/result.json",
        ]:
            response = client.get(path)
            assert response.status_code == 404 and "top secret" not in response.text
            assert "config_hash" not in response.text, path
        served_file = client.get("/runs/0/files/mem-write-note%23s0/result.json")
        assert served_file.status_code == 200 and "termination" in served_file.text


def test_pages_render_in_chromium(served: Any, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    app, _ = served
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{app.url}/?token={TOKEN}")
        sync_api.expect(page.get_by_role("heading", name="Episodes")).to_be_visible()
        page.get_by_role("link", name="mem-fan-out-join#s0").first.click()
        sync_api.expect(page.get_by_role("article", name="step 4")).to_contain_text(
            "completed: done"
        )
        page.screenshot(path=str(tmp_path / "episode.png"), full_page=True)
        page.goto(f"{app.url}/")
        page.get_by_label("task").select_option("mem-cross-code")
        page.get_by_role("button", name="Compare").click()
        sync_api.expect(page.get_by_role("region").first).to_contain_text("success")
        sync_api.expect(page.get_by_role("region").nth(1)).to_contain_text("false_completion")
        browser.close()
    assert errors == []


# --------------------------------------------------------- screenshots served
@action
def shoot(env: Any) -> bytes:
    """Return a one-pixel PNG."""
    return PNG


@evaluator
def never(env: Any) -> bool:
    """Never holds."""
    return False


class Camera(Environment):
    def __init__(self) -> None:
        super().__init__("camera", "a camera", [], [shoot])


def test_screenshots_are_written_and_served(tmp_path: Path) -> None:
    from reefbench.log.store import ResultsStore, write_run_manifest
    from reefbench.runner.engine import Runner

    task = Task(
        id="shots",
        instruction="look",
        nodes={"n": never().on("camera")},
        reference_solution=[ActionCall(env="root", name="wait")],
    )
    run_dir = tmp_path / "run"
    write_run_manifest(run_dir, {"config": {"suite": "memory"}, "config_hash": "x", "versions": {}})
    store = ResultsStore(run_dir)
    Runner(
        RunConfig(suite="memory", step_limit=2, workers=1),
        [task],
        lambda k: OracleAgent(),
        lambda: {"camera": Camera()},
        store,
    ).run()
    result = store.load("shots#s0")
    store.close()
    name = result.trajectory[0].observations["camera"]["shoot"]
    assert name == "step001-camera-shoot.png"
    assert (run_dir / "episodes" / "shots#s0" / name).read_bytes() == PNG
