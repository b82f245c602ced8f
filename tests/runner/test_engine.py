"""The runner: parallel workers, store, retries of infrastructure failures, resume."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import ClassVar

import pytest

from reefbench.agents import NullAgent, OracleAgent
from reefbench.envs.memory import MemoryEnvironment
from reefbench.errors import ConfigError
from reefbench.log.store import ResultsStore
from reefbench.runner.config import RunConfig
from reefbench.runner.engine import Runner, plan, select_tasks
from reefbench.suites import memory

TASKS = memory.load()


def run(
    tmp: Path, config: RunConfig, make_environments=memory.make_environments, agent=OracleAgent
):  # type: ignore[no-untyped-def]
    store = ResultsStore(tmp)
    try:
        tasks = select_tasks(TASKS, config.tasks)
        progress = Runner(config, tasks, lambda key: agent(), make_environments, store).run()
        return progress, store.rows(), store.results(trajectory=True)
    finally:
        store.close()


def test_parallel_run_stores_every_episode_once(tmp_path: Path) -> None:
    progress, rows, results = run(tmp_path, RunConfig(suite="memory", workers=3, seeds=[0, 1]))
    assert progress.done == progress.total == 16
    assert len(rows) == 16 and {r["status"] for r in rows} == {"done"}
    assert all(r.success for r in results)
    assert sorted(r.task_id for r in results) == sorted([t.id for t in TASKS] * 2)
    assert all(r.trajectory for r in results), "trajectories are stored"


def test_rerunning_a_finished_run_does_nothing(tmp_path: Path) -> None:
    run(tmp_path, RunConfig(suite="memory", workers=1))
    progress, rows, _ = run(tmp_path, RunConfig(suite="memory", workers=1))
    assert progress.total == 0 and len(rows) == 8


def test_sr_at_k_plans_only_existing_starts() -> None:
    keys = plan(TASKS, RunConfig(suite="memory", start_at=[0, 2, 4], workers=1))
    long_chain = [k.start_at for k in keys if k.task_id == "mem-long-chain"]
    assert long_chain == [0, 2, 4]
    assert [k.start_at for k in keys if k.task_id == "mem-write-note"] == [0]


def test_the_oracle_finishes_a_chain_started_after_k_subtasks(tmp_path: Path) -> None:
    from reefbench.runner.agents import agent_from_spec
    from reefbench.runner.config import AgentSpec

    chain = next(t for t in TASKS if t.id == "mem-long-chain")
    config = RunConfig(suite="memory", tasks=[chain.id], start_at=[0, 2, 4], workers=1)
    store = ResultsStore(tmp_path)
    try:
        spec = AgentSpec(name="oracle")
        Runner(
            config, [chain], lambda key: agent_from_spec(spec, key), memory.make_environments, store
        ).run()
        results = {r.start_at: r for r in store.results(trajectory=True)}
    finally:
        store.close()
    assert sorted(results) == [0, 2, 4] and all(r.success for r in results.values())
    for k, result in results.items():
        played = sum(
            len(turn.calls) for turn in result.trajectory if turn.calls[0].name != "complete"
        )
        skipped = chain.metadata.subtasks[k - 1].solution_span[1] if k else 0
        assert played == len(chain.reference_solution) - skipped  # only the rest, once


def test_task_globs() -> None:
    assert [t.id for t in select_tasks(TASKS, ["mem-c*"])] == [
        "mem-cross-code",
        "mem-call-user-wifi",
        "mem-chain-copy",
    ]
    with pytest.raises(Exception, match="no task matches"):
        select_tasks(TASKS, ["zzz*"])


class CrashOnce(MemoryEnvironment):
    crashed: ClassVar[list[str]] = []

    def on_reset(self) -> None:
        if self.name == "phone" and not CrashOnce.crashed:
            CrashOnce.crashed.append("x")
            raise OSError("chromium crashed")
        super().on_reset()


def test_infrastructure_failures_are_retried(tmp_path: Path) -> None:
    CrashOnce.crashed.clear()
    factory = lambda: {n: CrashOnce(n) for n in ("laptop", "phone")}  # noqa: E731
    progress, rows, results = run(
        tmp_path, RunConfig(suite="memory", tasks=["mem-cross-code"], workers=1), factory
    )
    assert progress.retried == 1 and CrashOnce.crashed == ["x"]
    assert rows[0]["status"] == "done" and rows[0]["attempts"] == 2
    assert results[0].success


class AlwaysBroken(MemoryEnvironment):
    def on_reset(self) -> None:
        raise OSError("Xvfb would not start")


def test_persistent_infrastructure_failure_is_reported_apart(tmp_path: Path) -> None:
    factory = lambda: {n: AlwaysBroken(n) for n in ("laptop", "phone")}  # noqa: E731
    config = RunConfig(suite="memory", tasks=["mem-write-note"], max_infra_retries=2, workers=1)
    progress, rows, results = run(tmp_path, config, factory)
    assert rows[0]["status"] == "failed" and rows[0]["attempts"] == 3
    assert results[0].termination == "env_error" and results[0].infrastructure_failure
    assert progress.retried == 2


def test_agent_failures_are_not_retried(tmp_path: Path) -> None:
    _, rows, results = run(
        tmp_path, RunConfig(suite="memory", tasks=["mem-write-note"], workers=1), agent=NullAgent
    )
    assert rows[0]["attempts"] == 1 and results[0].termination == "false_completion"


KILLABLE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from reefbench.agents import OracleAgent
    from reefbench.episodes.protocol import AgentOutput
    from reefbench.runner.config import RunConfig
    from reefbench.runner.engine import Runner
    from reefbench.log.store import ResultsStore
    from reefbench.suites import memory

    class SlowOracle(OracleAgent):
        def act(self, turn):
            time.sleep(0.05)  # simulated model latency, not synchronisation
            return super().act(turn)

    store = ResultsStore(Path(sys.argv[1]))
    config = RunConfig(suite="memory", seeds=list(range(6)), workers=2)
    Runner(config, memory.load(), lambda key: SlowOracle(), memory.make_environments, store).run()
    """
)


def test_sigkill_mid_run_then_resume_runs_every_episode_exactly_once(tmp_path: Path) -> None:
    script = tmp_path / "killable.py"
    script.write_text(KILLABLE)
    run_dir = tmp_path / "run"
    process = subprocess.Popen([sys.executable, str(script), str(run_dir)])
    try:
        deadline = time.monotonic() + 60
        done = 0
        while time.monotonic() < deadline and process.poll() is None:
            if (run_dir / "results.sqlite").exists():
                with sqlite3.connect(run_dir / "results.sqlite") as db:
                    try:
                        done = db.execute(
                            "SELECT COUNT(*) FROM episodes WHERE status='done'"
                        ).fetchone()[0]
                    except sqlite3.OperationalError:
                        done = 0
                if done >= 5:
                    break
        assert process.poll() is None, "the run finished before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    with sqlite3.connect(run_dir / "results.sqlite") as db:
        done_before = db.execute("SELECT COUNT(*) FROM episodes WHERE status='done'").fetchone()[0]
    assert 5 <= done_before < 48
    progress, rows, results = run(
        run_dir, RunConfig(suite="memory", seeds=list(range(6)), workers=2)
    )
    assert progress.total == 48 - done_before, "the resume plays exactly the unfinished ones"
    assert len(rows) == 48 and {r["status"] for r in rows} == {"done"}
    assert all(r["attempts"] == 1 for r in rows), "no finished episode was played twice"
    assert len(results) == 48 and all(r.success for r in results)
    store = ResultsStore(run_dir)
    assert store.integrity_ok()
    store.close()


@pytest.mark.parametrize("options", [{}, {"observe": True}], ids=["default", "observe"])
def test_the_built_in_oracle_observes_only_when_asked(
    tmp_path: Path, options: dict[str, bool]
) -> None:
    """``reef run``'s oracle reads nothing it is shown, so by default its episodes observe
    no device (``make run``'s time); ``observe: true`` keeps what the devices showed."""
    from reefbench.runner.agents import agent_from_spec
    from reefbench.runner.config import AgentSpec

    spec = AgentSpec(name="oracle", options=options)
    config = RunConfig(suite="memory", tasks=["mem-write-note"], workers=1)
    store = ResultsStore(tmp_path)
    try:
        Runner(
            config,
            select_tasks(TASKS, config.tasks),
            lambda key: agent_from_spec(spec, key),
            memory.make_environments,
            store,
        ).run()
        (result,) = store.results(trajectory=True)
    finally:
        store.close()
    assert result.success
    observed = [turn.observations for turn in result.trajectory if turn.observations]
    assert bool(observed) == bool(options)


def test_the_observe_option_of_a_built_in_agent_must_be_a_boolean() -> None:
    from reefbench.runner.agents import check_spec
    from reefbench.runner.config import AgentSpec

    with pytest.raises(ConfigError, match="option observe must be true or false, not 'yes'"):
        check_spec(AgentSpec(name="oracle", options={"observe": "yes"}))
    check_spec(AgentSpec(name="null", options={"observe": True}))


class StuckAgent(NullAgent):
    """Blocks in its first call until released, as an agent waiting on a model does."""

    def __init__(self, asked: threading.Event, release: threading.Event) -> None:
        super().__init__()
        self.asked, self.release = asked, release

    def act(self, turn):  # type: ignore[no-untyped-def]
        self.asked.set()
        self.release.wait(60)
        return super().act(turn)


def test_a_stopped_run_marks_its_unfinished_episodes_aborted_and_resume_plays_them(
    tmp_path: Path,
) -> None:
    asked, release = threading.Event(), threading.Event()
    config = RunConfig(suite="memory", tasks=["mem-write-note"], workers=1)
    store = ResultsStore(tmp_path)
    tasks = select_tasks(TASKS, config.tasks)
    runner = Runner(
        config, tasks, lambda key: StuckAgent(asked, release), memory.make_environments, store
    )
    stopper = threading.Thread(target=lambda: asked.wait(60) and runner.stop(grace=0.2))
    stopper.start()
    try:
        progress = runner.run()  # returns although the agent is still blocked
        stopper.join()
        assert progress.done == 0 and asked.is_set() and not release.is_set()
        assert [(r["status"], r["termination"], r["attempts"]) for r in store.rows()] == [
            ("aborted", "aborted", 0)
        ]
        assert store.results() == [] and [k.key for k in store.todo()] == ["mem-write-note#s0"]
    finally:
        release.set()
        store.close()
    progress, rows, results = run(tmp_path, config)
    assert progress.total == 1 and rows[0]["status"] == "done" and results[0].success
