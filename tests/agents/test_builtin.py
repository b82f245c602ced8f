"""Built-in agents without a model: random, replay, human (and oracle/null via the suite
tests in tests/suites/test_memory.py)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from reefbench import Episode, action
from reefbench.agents import HumanAgent, OracleAgent, RandomAgent, ReplayAgent
from reefbench.agents.builtin import random_arguments
from reefbench.errors import ConfigError
from reefbench.log.store import ResultsStore
from reefbench.runner import RunConfig, launch
from reefbench.suites import memory

TASKS = {t.id: t for t in memory.load()}


def _calls(result: Any) -> list[tuple[str, str, dict[str, Any]]]:
    return [(c.env, c.name, c.arguments) for t in result.trajectory for c in t.calls]


def test_random_agent_is_seeded_and_only_makes_valid_calls() -> None:
    task = TASKS["mem-fan-out-join"]
    runs = [Episode(task, RandomAgent(seed=7), memory.make_environments()).run() for _ in range(2)]
    assert _calls(runs[0]) == _calls(runs[1])
    assert runs[0].termination == "step_limit" and runs[0].invalid_actions == 0
    assert runs[0].actions == task.step_limit
    assert len({(e, n) for e, n, _ in _calls(runs[0])}) > 3  # it explores
    other = Episode(task, RandomAgent(seed=8), memory.make_environments()).run()
    assert _calls(other) != _calls(runs[0])
    assert "complete" not in {n for _, n, _ in _calls(runs[0])}


@action
def shaped(count: int, ratio: float, flag: bool, tags: list[str], mode: str | None = None) -> str:
    """An action with many parameter types.

    Args:
        count: A count.
        ratio: A ratio.
        flag: A flag.
        tags: Tags.
        mode: A mode.
    """
    return "ok"


def test_random_arguments_validate_for_many_types() -> None:
    rng = random.Random(1)
    for _ in range(50):
        arguments = random_arguments(shaped, rng)
        assert arguments is not None
        shaped.validate(arguments)


def _stored(run_dir: Path) -> list[Any]:
    store = ResultsStore(run_dir)
    try:
        return store.results(trajectory=True)
    finally:
        store.close()


def test_replay_reproduces_a_recorded_run(tmp_path: Path) -> None:
    launch(RunConfig(suite="memory", workers=1), tmp_path / "recorded", lambda key: OracleAgent())
    recorded = _stored(tmp_path / "recorded")
    agent = ReplayAgent(recorded)
    launch(RunConfig(suite="memory", workers=1), tmp_path / "replayed", lambda key: agent)
    replayed = _stored(tmp_path / "replayed")
    assert [r.termination for r in replayed] == ["success"] * len(recorded)
    for before, after in zip(recorded, replayed, strict=True):
        assert _calls(before) == _calls(after)
        assert [t.message for t in before.trajectory] == [t.message for t in after.trajectory]


def test_replay_errors_are_one_line(tmp_path: Path) -> None:
    from reefbench.runner import AgentSpec
    from reefbench.runner.agents import check_spec

    for source in (tmp_path / "missing", tmp_path):  # absent; a folder that is not a run
        spec = AgentSpec(name="replay", options={"replay": str(source)})
        with pytest.raises(ConfigError, match="is not a run directory"):
            check_spec(spec)
    result = Episode(TASKS["mem-write-note"], ReplayAgent([]), memory.make_environments()).run()
    assert result.termination == "agent_error" and "no recorded episode" in (result.error or "")


def test_human_agent_reads_calls_and_answers_call_user() -> None:
    typed = "\n".join(
        [
            "help",
            "phone.fly",  # unknown action: explained, asked again
            "phone.write_file path=wifi.txt",  # missing argument: explained
            '{"env": "root", "name": "call_user", "arguments": {"kind": "password"}}',
            "hunter2",  # the human, playing the user, answers the agent's CALL_USER
            'phone.write_file path=wifi.txt content="correct-horse"',
        ]
    )
    out = io.StringIO()
    agent = HumanAgent(io.StringIO(typed + "\n"), out)
    result = Episode(TASKS["mem-call-user-wifi"], agent, memory.make_environments()).run()
    assert result.success, result.error
    assert result.user_calls == ["password"]
    assert result.trajectory[0].calls[0].result == "hunter2"
    shown = out.getvalue()
    assert "Save the home Wi-Fi password" in shown
    assert "phone.write_file(path, content)" in shown  # the help menu
    assert "'phone' has no action 'fly'" in shown
    assert "write_file: parameter 'content': missing required argument" in shown
    assert "The agent asks you for 'password'" in shown
    assert "last: root.call_user(kind='password') -> ok: hunter2" in shown


def test_human_agent_typed_values_follow_the_schema() -> None:
    agent = HumanAgent(io.StringIO("laptop.write_file path=a content=123\n"), io.StringIO())
    task = TASKS["mem-write-note"]
    episode = Episode(task, agent, memory.make_environments(), step_limit=1)
    result = episode.run()
    assert _calls(result)[0] == ("laptop", "write_file", {"path": "a", "content": "123"})


def test_closed_input_ends_the_episode_as_agent_error() -> None:
    agent = HumanAgent(io.StringIO(""), io.StringIO())
    result = Episode(TASKS["mem-write-note"], agent, memory.make_environments()).run()
    assert result.termination == "agent_error" and "input was closed" in (result.error or "")
