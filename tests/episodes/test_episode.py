"""Episodes: routing, graph checks after each action, termination and trajectories."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

from reefbench import (
    ActionCall,
    AgentOutput,
    ConfigError,
    Episode,
    Task,
    TaskMetadata,
    Turn,
    Usage,
    action,
    evaluator,
)
from reefbench.agents import NullAgent, OracleAgent, ScriptedAgent
from reefbench.environments.root import answer_equals, answer_judged
from reefbench.envs import memory as m
from reefbench.suites import memory as suite
from reefbench.tasks.sideeffects import Change
from reefbench.tasks.task import ActionStep


def envs() -> dict[str, m.MemoryEnvironment]:
    return {"laptop": m.MemoryEnvironment("laptop"), "phone": m.MemoryEnvironment("phone")}


def two_step_task(**fields: Any) -> Task:
    return Task(
        id="t",
        instruction="write a then b",
        nodes={"a": m.file_exists("a").on("laptop"), "b": m.file_exists("b").on("phone")},
        edges=[("a", "b")],
        reference_solution=[
            ActionCall(env="laptop", name="write_file", arguments={"path": "a", "content": "1"}),
            ActionCall(env="phone", name="write_file", arguments={"path": "b", "content": "2"}),
        ],
        **fields,
    )


def write(env: str, path: str) -> ActionCall:
    return ActionCall(env=env, name="write_file", arguments={"path": path, "content": "x"})


def test_success_ends_the_episode_as_soon_as_the_graph_completes() -> None:
    result = Episode(two_step_task(), OracleAgent(), envs()).run()
    assert result.termination == "success" and result.success
    assert result.completion_ratio == 1.0 and result.actions == 2 and result.steps == 2
    assert result.completed_at == {"a": 1, "b": 2}
    assert not result.infrastructure_failure


def test_false_completion() -> None:
    result = Episode(two_step_task(), ScriptedAgent([[write("laptop", "a")]]), envs()).run()
    assert result.termination == "false_completion"
    assert result.completion_ratio == 0.5 and result.actions == 2


def test_step_limit_counts_turns() -> None:
    turns = [[write("laptop", "zzz")]] * 10
    result = Episode(two_step_task(), ScriptedAgent(turns), envs(), step_limit=3).run()
    assert result.termination == "step_limit" and result.steps == 3


def test_task_level_sets_the_default_step_limit() -> None:
    assert two_step_task().step_limit == 15
    assert two_step_task(metadata=TaskMetadata(level="L3")).step_limit == 30
    assert two_step_task(metadata=TaskMetadata(level="L4", step_limit=7)).step_limit == 7


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (ActionCall(env="tv", name="write_file"), "no environment 'tv'"),
        (ActionCall(env="laptop", name="fly"), "has no action 'fly'"),
        (ActionCall(env="laptop", name="write_file", arguments={"path": 1}), "parameter 'path'"),
        (ActionCall(env="root", name="write_file"), "has no action 'write_file'"),
    ],
)
def test_invalid_actions_in_a_row_end_the_episode_by_default(
    call: ActionCall, message: str
) -> None:
    # The default forgives two in a row (issue 31); the third ends the episode.
    result = Episode(two_step_task(), ScriptedAgent([[call]] * 5), envs()).run()
    assert result.termination == "invalid_action" and result.invalid_actions == 3
    assert result.actions == 0 and result.steps == 3
    record = result.trajectory[0].calls[0]
    assert record.status == "invalid" and message in (record.error or "")


def test_empty_output_is_an_invalid_action() -> None:
    class Silent:
        name = "silent"

        def reset(self, *args: Any) -> None:
            pass

        def act(self, turn: Turn) -> AgentOutput:
            return AgentOutput(message="thinking...")

    result = Episode(two_step_task(), Silent(), envs()).run()
    assert result.termination == "invalid_action" and result.steps == 3
    assert "no action" in (result.trajectory[0].calls[0].error or "")


def test_invalid_tolerance_feeds_errors_back() -> None:
    seen: list[list[str]] = []

    class Learner:
        name = "learner"

        def reset(self, *args: Any) -> None:
            self.turn = 0

        def act(self, turn: Turn) -> AgentOutput:
            seen.append([r.status for r in turn.previous])
            self.turn += 1
            if self.turn == 1:
                return AgentOutput(calls=[ActionCall(env="laptop", name="fly")])
            return AgentOutput(calls=[write("laptop", "a"), write("phone", "b")])

    result = Episode(two_step_task(), Learner(), envs(), invalid_tolerance=1).run()
    assert result.termination == "success" and result.invalid_actions == 1
    assert seen == [[], ["invalid"]]


def test_action_failures_are_fed_back_not_terminal() -> None:
    read_missing = ActionCall(env="laptop", name="read_file", arguments={"path": "nope"})
    agent = ScriptedAgent([[read_missing], [write("laptop", "a"), write("phone", "b")]])
    result = Episode(two_step_task(), agent, envs()).run()
    assert result.termination == "success"
    first = result.trajectory[0].calls[0]
    assert (first.status, first.error) == ("failed", "no file at nope")


def test_agent_crash_is_infrastructure() -> None:
    class Crashing(NullAgent):
        def act(self, turn: Turn) -> AgentOutput:
            raise ConnectionError("provider down")

    result = Episode(two_step_task(), Crashing(), envs()).run()
    assert result.termination == "agent_error" and result.infrastructure_failure
    assert "ConnectionError: provider down" in (result.error or "")


def test_environment_crash_is_infrastructure() -> None:
    class Broken(m.MemoryEnvironment):
        def on_reset(self) -> None:
            raise OSError("display :99 died")

    result = Episode(two_step_task(), OracleAgent(), {**envs(), "phone": Broken("phone")}).run()
    assert result.termination == "env_error" and "display :99 died" in (result.error or "")


@action
def crash(env: Any) -> None:
    """Crashes the way a broken environment does."""
    raise MemoryError("out of memory")


def test_unexpected_exception_in_an_action_is_an_env_error() -> None:
    environments = envs()
    environments["laptop"].add_action(crash)
    agent = ScriptedAgent([[ActionCall(env="laptop", name="crash")]])
    result = Episode(two_step_task(), agent, environments).run()
    assert result.termination == "env_error" and "MemoryError" in (result.error or "")


@evaluator
def explodes(env: Any) -> bool:
    """Raises."""
    raise KeyError("registry")


def test_evaluator_crash_is_infrastructure() -> None:
    task = Task(id="e", instruction="i", nodes={"x": explodes().on("laptop")})
    result = Episode(task, NullAgent(), envs()).run()
    assert result.termination == "evaluator_error" and "KeyError" in (result.error or "")


def test_abort_stops_at_the_next_boundary() -> None:
    started = threading.Event()
    release = threading.Event()

    class Slow(NullAgent):
        def act(self, turn: Turn) -> AgentOutput:
            started.set()
            release.wait(timeout=30)
            return AgentOutput(calls=[write("laptop", "a")])

    episode = Episode(two_step_task(), Slow(), envs())
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(episode.run()))
    worker.start()
    assert started.wait(timeout=30)
    episode.abort()
    release.set()
    worker.join(timeout=30)
    assert outcome and outcome[0].termination == "aborted" and outcome[0].actions == 0


def test_submit_and_answer_checkpoint() -> None:
    task = Task(id="q", instruction="what?", nodes={"ans": answer_equals("42")})
    right = ScriptedAgent([[ActionCall(env="root", name="submit", arguments={"answer": " 42 "})]])
    wrong = ScriptedAgent([[ActionCall(env="root", name="submit", arguments={"answer": "41"})]])
    ok = Episode(task, right, {}).run()
    assert ok.termination == "success" and ok.answer == " 42 "
    bad = Episode(task, wrong, {}).run()
    assert bad.termination == "false_completion" and bad.answer == "41"


def test_call_user_answers_from_task_data() -> None:
    task = Task(
        id="u",
        instruction="log in",
        nodes={"pw": m.file_equals("pw", "s3cret").on("laptop")},
        user_data={"password": "s3cret"},
    )
    ask = ActionCall(env="root", name="call_user", arguments={"kind": "password"})
    ask_other = ActionCall(env="root", name="call_user", arguments={"kind": "pin"})
    seen: list[Any] = []

    class Asker(NullAgent):
        def act(self, turn: Turn) -> AgentOutput:
            seen.extend(r.result for r in turn.previous)
            if turn.step == 1:
                return AgentOutput(calls=[ask, ask_other])
            password = seen[0]
            content = {"path": "pw", "content": password}
            return AgentOutput(
                calls=[ActionCall(env="laptop", name="write_file", arguments=content)]
            )

    result = Episode(task, Asker(), {"laptop": m.MemoryEnvironment("laptop")}).run()
    assert result.termination == "success" and result.user_calls == ["password", "pin"]
    assert "cannot help with 'pin'" in seen[1] and "password" in seen[1]


def test_trajectory_records_observations_usage_and_checks() -> None:
    class Talkative(OracleAgent):
        def act(self, turn: Turn) -> AgentOutput:
            out = super().act(turn)
            return out.model_copy(
                update={"usage": Usage(prompt_tokens=100, completion_tokens=10, cached_tokens=40)}
            )

    result = Episode(two_step_task(), Talkative(), envs()).run()
    first = result.trajectory[0]
    assert first.observations["laptop"] == {"list_files": "(no files)"}
    assert first.calls[0].completed == ["a"] and first.calls[0].checks[0].node == "a"
    assert result.usage == Usage(prompt_tokens=200, completion_tokens=20, cached_tokens=80)
    assert result.usage.total_tokens == 220


def test_setup_runs_before_the_agent_and_reset_restores_environments() -> None:
    environments = envs()
    environments["laptop"].files["stale"] = "left over"
    task = suite.load()[1]  # mem-cross-code: setup writes the SMS on the phone
    result = Episode(task, OracleAgent(), environments).run()
    assert result.success and "stale" not in environments["laptop"].files


def test_missing_environment_and_reserved_root_are_rejected() -> None:
    with pytest.raises(ConfigError, match="needs environments"):
        Episode(two_step_task(), NullAgent(), {"laptop": m.MemoryEnvironment("laptop")})
    with pytest.raises(ConfigError, match="reserved"):
        Episode(two_step_task(), NullAgent(), {**envs(), "root": m.MemoryEnvironment()})


def test_start_at_plays_the_first_subtasks() -> None:
    task = next(t for t in suite.load() if t.id == "mem-long-chain")
    result = Episode(task, NullAgent(), suite.make_environments(), start_at=2).run()
    first_two = task.metadata.subtasks[0].nodes + task.metadata.subtasks[1].nodes
    assert result.start_at == 2 and set(first_two) <= set(result.completed_nodes)
    with pytest.raises(ConfigError, match="start_at=9"):
        Episode(task, NullAgent(), suite.make_environments(), start_at=9).run()


def test_persistent_regression_turns_success_into_false_completion() -> None:
    task = Task(
        id="p",
        instruction="save f, then create g",
        nodes={"kept": m.file_equals("f", "v").on("laptop"), "g": m.file_exists("g").on("laptop")},
        edges=[("kept", "g")],
    )
    save = ActionCall(env="laptop", name="write_file", arguments={"path": "f", "content": "v"})
    undo = ActionCall(env="laptop", name="write_file", arguments={"path": "f", "content": "?"})
    agent = ScriptedAgent([[save], [undo, write("laptop", "g")]])
    result = Episode(task, agent, {"laptop": m.MemoryEnvironment("laptop")}).run()
    assert result.termination == "false_completion" and result.regressed == ["kept"]
    assert result.completed_nodes == ["kept", "g"] and result.credited_nodes == ["g"]
    assert result.completion_ratio == 0.5


def test_results_round_trip_through_json() -> None:
    result = Episode(two_step_task(), OracleAgent(), envs()).run()
    text = result.model_dump_json()
    loaded = type(result).model_validate_json(text)
    assert loaded == result
    assert loaded.trajectory[1].calls[0].checks[0].node == "b"


@action
def stamp(path: str, env: Any) -> str:
    """Write a stamp file (a task-specific extra action).

    Args:
        path: File to stamp.
    """
    env.files[path] = "stamped"
    return f"stamped {path}"


def test_extra_actions_last_one_episode_on_reused_environments() -> None:
    devices = envs()
    with_extra = Task(
        id="extra",
        instruction="stamp a",
        nodes={"a": m.file_exists("a").on("laptop")},
        extra_actions=[ActionStep(env="laptop", action=stamp)],  # type: ignore[arg-type]
        reference_solution=[ActionCall(env="laptop", name="stamp", arguments={"path": "a"})],
    )
    seen: list[list[str]] = []

    class Spy(OracleAgent):
        def reset(self, task: Task, spaces: Any, descriptions: Any) -> None:
            seen.append([a.name for a in spaces["laptop"]])
            super().reset(task, spaces, descriptions)

    assert Episode(with_extra, Spy(), devices).run().success
    assert "stamp" in seen[0] and "stamp" not in devices["laptop"].action_space
    assert Episode(two_step_task(), Spy(), devices).run().success
    assert "stamp" not in seen[1]  # the next task on the same devices does not see it


def test_a_failing_judge_is_an_infrastructure_outcome_not_the_agents_failure() -> None:
    from reefbench.agents.providers import ProviderError

    def unreachable(question: str, answer: str, facts: Sequence[str]) -> tuple[bool, str]:
        raise ProviderError("judge: connection refused after 3 attempts")

    task = Task(id="j", instruction="where?", nodes={"ans": answer_judged("Where?", ["C"])})
    agent = ScriptedAgent([[ActionCall(env="root", name="submit", arguments={"answer": "C"})]])
    result = Episode(task, agent, {}, judge=unreachable).run()
    assert result.termination == "evaluator_error" and result.infrastructure_failure
    assert "connection refused" in (result.error or "")


class _SettlingEnvironment(m.MemoryEnvironment):
    """A memory device whose view settles only when asked, and says when it was asked."""

    def __init__(self, name: str, log: list[str]) -> None:
        super().__init__(name)
        self.log = log

    def on_settle_view(self, timeout: float) -> bool:
        self.log.append(f"settle {self.name}")
        return True


def test_each_action_settles_its_device_before_checks_and_the_time_is_recorded() -> None:
    log: list[str] = []

    @evaluator
    def exists_when_settled(path: str, env: _SettlingEnvironment) -> bool:
        log.append(f"check {env.name}")
        return path in env.files

    task = Task(
        id="t",
        instruction="write a",
        nodes={"a": exists_when_settled("a").on("laptop")},
        reference_solution=[write("laptop", "a")],
    )
    devices = {"laptop": _SettlingEnvironment("laptop", log), "phone": m.MemoryEnvironment("phone")}
    result = Episode(task, OracleAgent(), devices).run()
    assert result.success
    first_check = log.index("check laptop")
    assert "settle laptop" in log[:first_check]  # settled before the first checkpoint
    turn = result.trajectory[0]
    assert set(turn.settle_seconds) == {"laptop"}  # the device acted on, and only it
    assert turn.calls[0].settle_seconds == turn.settle_seconds["laptop"] >= 0.0
    dumped = result.model_dump(mode="json")["trajectory"][0]
    assert "laptop" in dumped["settle_seconds"]


class _ShowingEnvironment(m.MemoryEnvironment):
    """A memory device that remembers which files its last observation showed (as a
    "read" checkpoint credits a value once the agent was shown it) and diffs its files
    for side effects."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.shown: set[str] = set()

    def observe(self) -> dict[str, Any]:
        self.shown = set(self.files)
        return super().observe()

    def on_reset(self) -> None:
        super().on_reset()
        self.shown = set()

    def on_state_snapshot(self) -> Any:
        return dict(self.files)

    def on_state_changes(self, before: Any) -> list[Change]:
        paths = set(before) | set(self.files)
        return [
            Change(f"file:{p}", f"changed {p}")
            for p in sorted(paths)
            if before.get(p) != self.files.get(p)
        ]


def _file_key(path: str, **_: Any) -> list[str]:
    return [f"file:{path}"]


@evaluator(governs=_file_key)
def shown(path: str, env: _ShowingEnvironment) -> bool:
    """The file was in the last observation."""
    return path in env.shown


@evaluator
def _raises(env: m.MemoryEnvironment) -> bool:
    """A checkpoint with a bug."""
    raise RuntimeError("boom")


# (nodes, edges, reference): each makes the probe face a different way to end.
PROBED: list[tuple[dict[str, Any], list[tuple[str, str]], list[ActionCall]]] = [
    # credited only by the next turn's observation: stopping after the write succeeds
    ({"seen": shown("a").on("laptop")}, [], [write("laptop", "a"), write("laptop", "z")]),
    # the checkpoint holds after the first write, but the second is an unallowed change
    (
        {"seen": shown("a").on("laptop"), "b": m.file_exists("b").on("laptop")},
        [],
        [write("laptop", "a"), write("laptop", "x"), write("laptop", "b")],
    ),
    # a state checkpoint completed early and undone later regresses at the end
    (
        {"kept": m.file_equals("f", "v").on("laptop"), "seen": shown("g").on("laptop")},
        [],
        [
            ActionCall(env="laptop", name="write_file", arguments={"path": "f", "content": "v"}),
            write("laptop", "g"),
            ActionCall(env="laptop", name="write_file", arguments={"path": "f", "content": "?"}),
            write("laptop", "h"),
        ],
    ),
    # a checkpoint that holds before any action: the null agent completes it
    (
        {"pre": ~m.file_exists("never").on("laptop"), "a": m.file_exists("a").on("laptop")},
        [("pre", "a")],
        [write("laptop", "b"), write("laptop", "a")],
    ),
    # a checkpoint whose evaluator raises: every way to end is an evaluator error
    (
        {"a": m.file_exists("a").on("laptop"), "bad": _raises().on("laptop")},
        [],
        [write("laptop", "a"), write("laptop", "b")],
    ),
    # plain: nothing is complete before the last write
    (
        {"a": m.file_exists("a").on("laptop"), "b": m.file_exists("b").on("laptop")},
        [("a", "b")],
        [write("laptop", "a"), write("laptop", "b")],
    ),
]


@pytest.mark.parametrize("case", range(len(PROBED)))
def test_a_probe_scores_what_completing_at_that_turn_would_and_changes_nothing(case: int) -> None:
    """For every k (0: the null agent), the probe at turn k + 1 of the oracle's episode
    gives what a real episode that stops after k actions gives."""
    nodes, edges, reference = PROBED[case]
    task = Task(id="p", instruction="probe", nodes=nodes, edges=edges, reference_solution=reference)
    plain = Episode(task, OracleAgent(), {"laptop": _ShowingEnvironment("laptop")}).run()
    answers = []
    for k in range(len(reference)):
        laptop = _ShowingEnvironment("laptop")
        probed = Episode(task, OracleAgent(), {"laptop": laptop}, probe_at={k + 1})
        result = probed.run()
        # the oracle's episode goes on exactly as without the probe
        assert (result.termination, result.completed_at, result.regressed) == (
            plain.termination,
            plain.completed_at,
            plain.regressed,
        )
        # and the probe says what an episode that stops after k actions gets
        stopped = Episode(
            task,
            ScriptedAgent([c] for c in reference[:k]),
            {"laptop": _ShowingEnvironment("laptop")},
        ).run()
        probe = probed.probes.get(k + 1)
        if result.actions <= k:  # the oracle was done before that turn
            assert probe is None
            continue
        assert probe is not None
        assert (probe.success, list(probe.completed), probe.error) == (
            stopped.success,
            stopped.completed_nodes,
            stopped.error,
        ), (k, stopped.termination)
        answers.append(probe.success)
    assert answers  # every case has at least one turn to probe


def test_the_probe_cases_cover_both_answers() -> None:
    seen = set()
    for nodes, edges, reference in PROBED:
        task = Task(
            id="p", instruction="probe", nodes=nodes, edges=edges, reference_solution=reference
        )
        for k in range(len(reference)):
            probed = Episode(
                task, OracleAgent(), {"laptop": _ShowingEnvironment("laptop")}, probe_at={k + 1}
            )
            probed.run()
            seen.update(p.success for p in probed.probes.values())
    assert {True, False} <= seen


class _Desk(m.MemoryEnvironment):
    """A device whose reset waits (with a deadline) until the phone's reset has begun:
    only an episode that resets them at the same time finds it so."""

    resets_in_background = True

    def __init__(self, name: str, phone_began: threading.Event, fail: bool = False) -> None:
        super().__init__(name)
        self.phone_began = phone_began
        self.saw_phone: list[bool] = []
        self.fail = fail

    def on_reset(self) -> None:
        self.saw_phone.append(self.phone_began.wait(5.0))
        if self.fail:
            raise RuntimeError("the session did not come up")
        super().on_reset()


class _Phone(m.MemoryEnvironment):
    def __init__(self, name: str, began: threading.Event) -> None:
        super().__init__(name)
        self.began = began
        self.resets = 0

    def on_reset(self) -> None:
        self.began.set()
        self.resets += 1
        super().on_reset()


def test_a_device_that_resets_in_background_overlaps_the_others_resets() -> None:
    began = threading.Event()
    desk, phone = _Desk("laptop", began), _Phone("phone", began)
    result = Episode(two_step_task(), OracleAgent(), {"laptop": desk, "phone": phone}).run()
    # The desktop came first in order, yet its reset saw the phone's begin.
    assert desk.saw_phone == [True]
    assert result.termination == "success"


def test_a_failed_background_reset_ends_the_episode_after_every_reset_ended() -> None:
    began = threading.Event()
    desk, phone = _Desk("laptop", began, fail=True), _Phone("phone", began)
    result = Episode(two_step_task(), OracleAgent(), {"laptop": desk, "phone": phone}).run()
    assert result.termination == "env_error"
    assert "reset of 'laptop' failed" in (result.error or "")
    assert "the session did not come up" in (result.error or "")
    assert phone.resets == 1 and result.actions == 0


# ----------------------------------------- what an earlier step made stays (issue 30)
def _both_files(first: str, second: str, **_: Any) -> list[str]:
    return [f"file:{first}", f"file:{second}"]


@evaluator(governs=_both_files)
def same_text(first: str, second: str, env: m.MemoryEnvironment) -> bool:
    """Both files exist with the same text (``cmp first second``)."""
    return first in env.files and env.files.get(first) == env.files.get(second)


def _pebble_task() -> Task:
    """Issue 30's pebble.txt: made, copied, the copy appended to, the copy copied again."""
    call = lambda name, **arguments: ActionCall(env="laptop", name=name, arguments=arguments)  # noqa: E731
    return Task(
        id="pebble",
        instruction="save the code in pebble, copy it to backup, add a line, copy backup",
        nodes={
            "made": m.file_equals("pebble", "code").on("laptop"),
            "copied": same_text("pebble", "backup").on("laptop"),
            "appended": m.file_contains("backup", "board").on("laptop"),
            "copied again": same_text("backup", "garnet").on("laptop"),
        },
        edges=[("made", "copied"), ("copied", "appended"), ("appended", "copied again")],
        reference_solution=[
            call("write_file", path="pebble", content="code"),
            call("copy_file", source="pebble", target="backup"),
            call("append_file", path="backup", text="\nboard"),
            call("copy_file", source="backup", target="garnet"),
        ],
    )


def test_a_file_made_early_and_deleted_before_the_last_step_fails_the_episode() -> None:
    task = _pebble_task()
    reference = list(task.reference_solution)
    delete = ActionCall(env="laptop", name="delete_file", arguments={"path": "pebble"})
    wrong = [*reference[:-1], delete, reference[-1]]
    result = Episode(
        task, ScriptedAgent([c] for c in wrong), {"laptop": m.MemoryEnvironment("laptop")}
    ).run()
    assert result.termination == "false_completion" and not result.success
    assert result.regressed == ["copied"]
    copied = next(c for c in result.end_checks if c.node == "copied")
    assert "file pebble is absent at the end" in copied.message


def test_the_reference_of_the_same_task_still_succeeds() -> None:
    task = _pebble_task()
    result = Episode(task, OracleAgent(), {"laptop": m.MemoryEnvironment("laptop")}).run()
    assert result.success, result.end_checks
    verdicts = {c.node: c.verdict for c in result.end_checks}
    assert verdicts == {
        "made": "superseded",
        "copied": "held",
        "appended": "superseded",
        "copied again": "held",
    }
