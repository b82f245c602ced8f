"""Fault injection across the system: every fault ends in a defined, recorded outcome.

Each test breaks one real part in the middle of a run (the desktop's X server, the
services server, the model API, the results disk, the runner itself, a Ray worker) and
checks the same promises: the fault becomes a retried infrastructure error or a clean
``env_error``/``agent_error``; the run goes on; every planned episode is stored exactly
once; the SQLite index passes ``PRAGMA integrity_check``; no process is left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reefbench import Task, evaluator
from reefbench.actions.spec import ActionCall
from reefbench.agents import OracleAgent, SingleAgent
from reefbench.envs import memory as m
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.log.store import ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Progress, Runner, select_tasks
from reefbench.suites import memory as suite
from reefbench.tasks.task import ActionStep

from .conftest import (
    Fault,
    FaultyOpenAI,
    alive,
    integrity,
    needs_desktop,
    openai_provider,
    wait_until,
)

MEMORY_TASKS = suite.load()
WRITE_NOTE = next(t for t in MEMORY_TASKS if t.id == "mem-write-note")
NOTE_CALL = ("laptop__write_file", {"path": "notes/hello.txt", "content": "hello world"})


def run(
    run_dir: Path,
    config: RunConfig,
    tasks: list[Task],
    make_agent: Callable[[Any], Any],
    make_environments: Callable[[], Any],
) -> tuple[Progress, list[dict[str, Any]]]:
    store = ResultsStore(run_dir)
    try:
        chosen = select_tasks(tasks, config.tasks)  # the runner plays what it is given
        progress = Runner(config, chosen, make_agent, make_environments, store).run()
        return progress, store.rows()
    finally:
        store.close()


def assert_each_episode_once(run_dir: Path, rows: list[dict[str, Any]], planned: int) -> None:
    """Every planned episode is stored once, done, with readable files; the index is sound."""
    assert len(rows) == planned and {r["status"] for r in rows} == {"done"}
    assert len({r["key"] for r in rows}) == planned
    assert integrity(run_dir / "results.sqlite") == "ok"
    store = ResultsStore(run_dir)
    try:
        results = store.results(trajectory=True)
    finally:
        store.close()
    assert len(results) == planned and all(r.trajectory for r in results)
    assert not list(run_dir.rglob("*.tmp")), "no half-written file is left behind"


# ------------------------------------------------------------------ model provider
@pytest.mark.integration
@pytest.mark.parametrize(
    "fault",
    [Fault("status", status=500), Fault("status", status=503), Fault("hang"), Fault("truncated")],
    ids=["500", "503", "timeout", "truncated-json"],
)
def test_provider_faults_are_retried_as_agent_errors(
    faulty_openai: FaultyOpenAI, fault: Fault, tmp_path: Path
) -> None:
    """The first episode's requests all fail; it ends agent_error, is retried and succeeds."""
    attempts = 2
    faulty_openai.script = [fault] * attempts
    faulty_openai.default = Fault("ok", calls=(NOTE_CALL,))
    provider = openai_provider(faulty_openai, timeout=0.5, attempts=attempts)
    # One worker: the scripted faults must all reach the first episode's requests.
    config = RunConfig(
        suite="memory", tasks=["mem-write-note"], seeds=[0, 1, 2], max_infra_retries=1, workers=1
    )
    progress, rows = run(
        tmp_path, config, MEMORY_TASKS, lambda key: SingleAgent(provider), suite.make_environments
    )
    assert progress.retried == 1, "exactly the faulty attempt was retried"
    assert [r["attempts"] for r in rows] == [2, 1, 1]
    assert all(r.termination == "success" for r in progress.results)
    assert faulty_openai.requests == attempts + 3
    assert_each_episode_once(tmp_path, rows, 3)


@pytest.mark.integration
def test_a_persistent_outage_is_stored_as_agent_error_and_the_run_goes_on(
    faulty_openai: FaultyOpenAI, tmp_path: Path
) -> None:
    """A model that never answers: every episode is tried 1 + retries times, then stored."""
    faulty_openai.default = Fault("status", status=500)
    provider = openai_provider(faulty_openai, attempts=2)
    config = RunConfig(
        suite="memory", tasks=["mem-write-note"], seeds=[0, 1, 2], max_infra_retries=1, workers=1
    )
    progress, rows = run(
        tmp_path, config, MEMORY_TASKS, lambda key: SingleAgent(provider), suite.make_environments
    )
    assert progress.done == progress.total == 3 and progress.retried == 3
    assert [(r["status"], r["attempts"], r["termination"]) for r in rows] == [
        ("failed", 2, "agent_error")
    ] * 3
    assert all("HTTP 500" in r["error"] and "gave up" in r["error"] for r in rows)
    assert all(r.infrastructure_failure for r in progress.results)
    assert faulty_openai.requests == 3 * 2 * 2
    assert integrity(tmp_path / "results.sqlite") == "ok"


@pytest.mark.integration
def test_a_reply_without_choices_is_retried_not_a_crash_nor_a_turn(
    faulty_openai: FaultyOpenAI, tmp_path: Path
) -> None:
    """Empty ``choices`` is the server failing: the request is retried within the same
    turn, and the model's next reply plays as that turn (no turn is spent on it)."""
    faulty_openai.script = [Fault("empty")]
    faulty_openai.default = Fault("ok", calls=(NOTE_CALL,))
    provider = openai_provider(faulty_openai)
    config = RunConfig(suite="memory", tasks=["mem-write-note"], workers=1)
    progress, rows = run(
        tmp_path, config, MEMORY_TASKS, lambda key: SingleAgent(provider), suite.make_environments
    )
    (result,) = progress.results
    assert result.termination == "success" and result.steps == 1, result
    assert result.invalid_actions == 0
    assert rows[0]["attempts"] == 1 and faulty_openai.requests == 2
    assert_each_episode_once(tmp_path, rows, 1)


# ------------------------------------------------------------------ results disk
@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (root only), unmounted afterwards."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill the disk with one file until only about ``leave`` bytes are free."""
    filler = disk / "filler.bin"
    stats = os.statvfs(disk)
    free = stats.f_bavail * stats.f_frsize
    with filler.open("wb") as handle:
        handle.write(b"\0" * max(0, free - leave))
    return filler


DISK_CONFIG = RunConfig(
    suite="memory", seeds=list(range(8)), workers=2
)  # 64 episodes: more than fits


@pytest.mark.integration
def test_a_full_results_disk_stops_the_run_cleanly_and_resume_finishes_it(
    small_disk: Path,
) -> None:
    from reefbench.errors import ReefError

    run_dir = small_disk / "run"
    store = ResultsStore(run_dir)
    filler = fill(small_disk, leave=256 * 1024)
    runner = Runner(
        DISK_CONFIG, MEMORY_TASKS, lambda key: OracleAgent(), suite.make_environments, store
    )
    with pytest.raises(ReefError, match=r"No space left|disk is full") as stopped:
        runner.run()
    assert "\n" not in str(stopped.value) and str(run_dir) in str(stopped.value)
    assert all(not w.is_alive() for w in runner._workers), "the workers were stopped"
    store.close()
    filler.unlink()  # the user frees space, then resumes
    assert integrity(run_dir / "results.sqlite") == "ok"
    check = ResultsStore(run_dir)
    done_rows = [r for r in check.rows() if r["status"] == "done"]
    assert 0 < len(done_rows) < 64, "the disk filled in the middle of the run"
    for row in done_rows:  # a row marked done has complete, readable files
        result = check.load(row["key"])
        assert result.task_id == row["task_id"] and result.trajectory
    check.close()
    progress, rows = run(
        run_dir, DISK_CONFIG, MEMORY_TASKS, lambda key: OracleAgent(), suite.make_environments
    )
    assert progress.total == 64 - len(done_rows)
    assert all(r["attempts"] == 1 for r in rows), "no episode was stored twice"
    assert_each_episode_once(run_dir, rows, 64)


@pytest.mark.integration
def test_reef_run_on_a_full_disk_prints_one_line(small_disk: Path) -> None:
    config = small_disk.parent / "run.json"
    config.write_text(json.dumps({"suite": "memory", "seeds": list(range(40))}))
    fill(small_disk, leave=128 * 1024)
    done = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "run", "--config", str(config),
         "--out", str(small_disk / "run"), "--no-report"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert "No space left" in lines[0] or "disk is full" in lines[0]
    assert "--resume" in lines[0], "the message says how to continue"
    assert integrity(small_disk / "run" / "results.sqlite") == "ok"


# ------------------------------------------------------------------ real environments
class InjectingOracle(OracleAgent):
    """The oracle, but before its first action of the run it calls ``inject`` (the fault)."""

    injected: list[str]

    def __init__(self, inject: Callable[[], None], injected: list[str]) -> None:
        super().__init__()
        self.inject = inject
        self.injected = injected

    def act(self, turn: Turn) -> AgentOutput:
        if not self.injected:
            self.injected.append("fault")
            self.inject()
        return super().act(turn)


def _services_task() -> Task:
    from reefbench.envs.services import evaluators as sev
    from reefbench.envs.services import seeding

    return Task(
        id="svc-note-and-contact",
        instruction="Write a note on the laptop; the contact Ada Byron exists.",
        nodes={
            "note": m.file_exists("a.txt").on("laptop"),
            "contact": sev.contact_has(name="Ada Byron").on("services"),
        },
        edges=[("note", "contact")],
        setup=[ActionStep(env="services", action=seeding.add_contact(name="Ada Byron"))],
        reference_solution=[
            ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "x"})
        ],
    )


@pytest.mark.integration
def test_services_server_killed_mid_episode_is_retried_on_a_fresh_server(tmp_path: Path) -> None:
    from reefbench.envs.services import ServicesEnvironment

    created: list[ServicesEnvironment] = []

    def environments() -> dict[str, Any]:
        created.append(ServicesEnvironment())
        return {"laptop": m.MemoryEnvironment("laptop"), "services": created[-1]}

    def kill_server() -> None:
        server = created[0].server
        assert server is not None and server.running
        server.stop()  # the port closes and the thread ends, mid-episode

    injected: list[str] = []
    config = RunConfig(suite="memory", seeds=[0, 1], max_infra_retries=2, workers=1)
    progress, rows = run(
        tmp_path,
        config,
        [_services_task()],
        lambda key: InjectingOracle(kill_server, injected),
        environments,
    )
    assert injected == ["fault"]
    first = rows[0]
    assert first["status"] == "done" and first["attempts"] >= 2, first
    assert progress.retried == first["attempts"] - 1 == 1, "one retry on a replaced server"
    assert all(r.success for r in progress.results)
    assert_each_episode_once(tmp_path, rows, 2)
    assert len(created) == 2 and not any(env.server and env.server.running for env in created)


def _desktop_task() -> Task:
    from reefbench.envs.desktop import evaluators as dev

    return Task(
        id="desk-type-hello",
        instruction="Type hello on the desktop.",
        nodes={"typed": dev.typed_text(text="hello").on("desktop")},
        reference_solution=[
            ActionCall(env="desktop", name="write_text", arguments={"text": "hello"})
        ],
    )


@pytest.mark.integration
@needs_desktop
def test_x_server_killed_mid_episode_is_an_env_error_retried_on_a_new_desktop(
    tmp_path: Path, short_dir: Path
) -> None:
    from reefbench.envs.desktop import DesktopEnvironment

    created: list[DesktopEnvironment] = []
    pids: list[int] = []

    def environments() -> dict[str, Any]:
        created.append(DesktopEnvironment(workdir=short_dir, settle_timeout=1.0))
        return {"desktop": created[-1]}

    def kill_x() -> None:
        desk = created[0]
        pids.extend(desk.pids())
        xvfb = desk.session._xvfb
        assert xvfb is not None
        os.kill(xvfb.pid, signal.SIGKILL)
        xvfb.wait(10)

    injected: list[str] = []
    progress, rows = run(
        tmp_path / "run",
        RunConfig(suite="memory", max_infra_retries=1, workers=1),
        [_desktop_task()],
        lambda key: InjectingOracle(kill_x, injected),
        environments,
    )
    assert injected == ["fault"] and len(created) == 2, [(r["error"], r["attempts"]) for r in rows]
    assert progress.retried == 1 and rows[0]["attempts"] == 2
    assert progress.results[0].success
    assert_each_episode_once(tmp_path / "run", rows, 1)
    # Nothing of either desktop survives: not the killed one's sandbox, not the second one.
    pids.extend(p for p in created[1].session.pids())
    assert wait_until(lambda: not any(alive(p) for p in pids), timeout=10)
    assert not list(short_dir.iterdir())


def test_a_desktop_workdir_too_long_for_its_sockets_is_refused_in_one_line(tmp_path: Path) -> None:
    from reefbench.envs.desktop.session import DesktopSession, SessionConfig
    from reefbench.errors import ConfigError

    deep = tmp_path / ("d" * 80)
    with pytest.raises(ConfigError, match="too long for the session's unix sockets") as refused:
        DesktopSession(SessionConfig(workdir=deep)).start()
    assert "\n" not in str(refused.value) and not deep.exists(), "refused before starting"


# ------------------------------------------------------------------ Ray worker
@pytest.mark.integration
def test_a_ray_worker_process_killed_with_sigkill_is_replaced_and_its_episode_retried(
    tmp_path: Path,
) -> None:
    ray = pytest.importorskip("ray")
    from reefbench.runner import ray_executor

    killed: list[int] = []

    class KillAfterSubmit:
        """Stands in for an actor: submits ``play`` to it, then SIGKILLs its process."""

        def __init__(self, actor: Any, pid: int) -> None:
            self.actor, self.pid, self.play = actor, pid, self

        def __getattr__(self, name: str) -> Any:  # the actor's other methods (node)
            return getattr(self.actor, name)

        def remote(self, *args: Any) -> Any:
            reply = self.actor.play.remote(*args)
            os.kill(self.pid, signal.SIGKILL)
            killed.append(self.pid)
            return reply

    class KillingPool(ray_executor.RayPool):
        """The first episode's actor process is killed while the episode is in flight."""

        def play(self, index: int, key: Any, folder: Path) -> Any:
            if not killed:
                actor = self.actors[index]
                pid = ray.get(actor.__ray_call__.remote(lambda player: os.getpid()))
                self.actors[index] = KillAfterSubmit(actor, pid)
            return super().play(index, key, folder)

    original = ray_executor.RayPool
    ray_executor.RayPool = KillingPool  # type: ignore[misc]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        config = RunConfig(
            suite="memory", seeds=[0, 1], workers=1, ray_address="local", max_infra_retries=1
        )
        progress, rows = run(
            tmp_path, config, MEMORY_TASKS, lambda key: OracleAgent(), suite.make_environments
        )
    finally:
        ray_executor.RayPool = original  # type: ignore[misc]
        ray.shutdown()
    assert len(killed) == 1 and not alive(killed[0])
    assert progress.retried == 1 and sorted(r["attempts"] for r in rows) == [1] * 15 + [2]
    assert all(r.success for r in progress.results)
    assert_each_episode_once(tmp_path, rows, 16)


@evaluator
def textarea_has(text: str, env: Any) -> bool:
    """The page's textarea holds the text."""
    return bool(env.page.evaluate("document.getElementById('t').value") == text)


@pytest.mark.integration
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs /usr/bin/chromium")
def test_chromium_killed_mid_episode_is_an_env_error_retried_on_a_new_browser(
    tmp_path: Path,
) -> None:
    pytest.importorskip("playwright")
    from reefbench.envs.browser import BrowserEnvironment

    created: list[BrowserEnvironment] = []
    pids: list[int] = []

    def environments() -> dict[str, Any]:
        created.append(
            BrowserEnvironment(start_url="data:text/html,<textarea id=t autofocus></textarea>")
        )
        return {"browser": created[-1]}

    def kill_chromium() -> None:
        pids.extend(created[0].pids())
        assert pids
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    task = Task(
        id="browser-type",
        instruction="Type hello.",
        nodes={"typed": textarea_has(text="hello").on("browser")},
        reference_solution=[
            ActionCall(env="browser", name="write_text", arguments={"text": "hello"})
        ],
    )
    injected: list[str] = []
    progress, rows = run(
        tmp_path,
        RunConfig(suite="memory", max_infra_retries=1, workers=1),
        [task],
        lambda key: InjectingOracle(kill_chromium, injected),
        environments,
    )
    assert injected == ["fault"] and len(created) == 2, [(r["error"], r["attempts"]) for r in rows]
    assert progress.retried == 1 and rows[0]["attempts"] == 2 and progress.results[0].success
    assert_each_episode_once(tmp_path, rows, 1)
    pids.extend(created[1].pids())
    assert wait_until(lambda: not any(alive(p) for p in pids), timeout=10)
