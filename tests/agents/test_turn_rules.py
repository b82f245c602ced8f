"""The system prompt's turn rules, each pinned to what the code does: several calls per
reply run in order, the invalid-action tolerance stated is the run's (and the default the
one Episode and RunConfig use), the episode ends by itself when the task is done, and
completing early is a failure."""

from __future__ import annotations

import http.server
import inspect
import threading

import pytest

from reefbench import Episode, EpisodeResult
from reefbench.agents import ModelSettings, SingleAgent
from reefbench.agents.providers import ProviderReply, ToolCall
from reefbench.episodes.episode import DEFAULT_INVALID_TOLERANCE
from reefbench.log.store import EpisodeKey
from reefbench.runner.agents import agent_from_spec
from reefbench.runner.config import AgentSpec, RunConfig
from reefbench.suites import memory

from .conftest import ScriptedProvider

WRITE_NOTE = next(t for t in memory.load() if t.id == "mem-write-note")
NOTE = {"path": "notes/hello.txt", "content": "hello world"}


def calls(*pairs: tuple[str, dict[str, object]]) -> ProviderReply:
    return ProviderReply("", [ToolCall(f"c{i}", n, dict(a)) for i, (n, a) in enumerate(pairs)])


def system_prompt(settings: ModelSettings, *replies: ProviderReply) -> tuple[str, EpisodeResult]:
    """The system prompt of a single agent with ``settings``, and how its episode ended."""
    provider = ScriptedProvider(list(replies))
    result = Episode(
        WRITE_NOTE,
        SingleAgent(provider, settings),
        memory.make_environments(),
        invalid_tolerance=settings.invalid_tolerance,
    ).run()
    return provider.requests[0][0], result


def test_the_stated_default_tolerance_is_the_one_episodes_and_runs_use() -> None:
    episode_default = inspect.signature(Episode).parameters["invalid_tolerance"].default
    assert episode_default == RunConfig().invalid_tolerance == DEFAULT_INVALID_TOLERANCE == 2
    assert ModelSettings().invalid_tolerance == DEFAULT_INVALID_TOLERANCE
    fly = calls(("laptop__fly", {}))
    system, result = system_prompt(ModelSettings(), fly, fly, fly)
    assert "this run forgives that 2 times in a row" in system
    assert "the next invalid action in a row ends the episode" in system
    assert result.termination == "invalid_action" and result.invalid_actions == 3


def test_isolated_invalid_actions_are_forgiven_by_default() -> None:
    fly = calls(("laptop__fly", {}))
    provider = ScriptedProvider([fly, fly, calls(("laptop__write_file", NOTE))])
    result = Episode(WRITE_NOTE, SingleAgent(provider), memory.make_environments()).run()
    assert result.termination == "success" and len(provider.requests) == 3


def test_a_strict_run_says_the_first_invalid_action_ends_it() -> None:
    settings = ModelSettings(invalid_tolerance=0)
    system, result = system_prompt(settings, calls(("laptop__fly", {})))
    assert "The first one ends the episode: this run forgives none" in system
    assert result.termination == "invalid_action"


def test_a_run_forgiving_invalid_actions_says_how_many_and_the_next_ends_it() -> None:
    settings = ModelSettings(invalid_tolerance=1)
    bad = calls(("laptop__fly", {}))
    system, _ = system_prompt(settings, bad, bad, calls(("laptop__write_file", NOTE)))
    assert "this run forgives that once in a row, and the next invalid action in a row" in system
    provider = ScriptedProvider([bad, bad, calls(("laptop__write_file", NOTE))])
    result = Episode(
        WRITE_NOTE, SingleAgent(provider, settings), memory.make_environments(), invalid_tolerance=1
    ).run()
    assert result.termination == "invalid_action" and len(provider.requests) == 2


def test_a_reply_without_calls_counts_as_invalid_as_the_prompt_says() -> None:
    silent = ProviderReply("thinking...")
    system, result = system_prompt(ModelSettings(), silent, silent, silent)
    assert "A reply without any action call counts as an invalid action too" in system
    assert result.termination == "invalid_action" and result.invalid_actions == 3


def test_the_run_configuration_reaches_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")  # no request is made
    spec = AgentSpec(name="model", model="openai/gpt-test")
    agent = agent_from_spec(
        spec, EpisodeKey("t", 0, 0), RunConfig(invalid_tolerance=3, observe="latest")
    )
    assert isinstance(agent, SingleAgent)
    assert agent.settings.invalid_tolerance == 3 and agent.settings.observe == "latest"
    assert "forgives that 3 times in a row" in agent.settings.turn_rules()
    assert "replaced by a note once a later one follows" in agent.settings.turn_rules()


def test_several_calls_of_one_reply_run_in_order_in_one_step() -> None:
    provider = ScriptedProvider(
        [
            calls(
                ("laptop__write_file", {"path": "draft.txt", "content": "x"}),
                ("laptop__read_file", {"path": "draft.txt"}),
            ),
            calls(("laptop__write_file", NOTE)),
        ]
    )
    system, _ = system_prompt(ModelSettings(), calls(("laptop__write_file", NOTE)))
    assert "You may call several actions in one reply; they run one after another" in system
    result = Episode(WRITE_NOTE, SingleAgent(provider), memory.make_environments()).run()
    first = result.trajectory[0].calls
    assert [c.name for c in first] == ["write_file", "read_file"]
    assert first[1].status == "ok" and first[1].result == "x"  # the second saw the first


def test_the_episode_ends_by_itself_once_the_task_is_done() -> None:
    system, _ = system_prompt(ModelSettings(), calls(("laptop__write_file", NOTE)))
    assert "The episode ends by itself as soon as everything the task asks for is done" in system
    provider = ScriptedProvider(
        [calls(("laptop__write_file", NOTE), ("laptop__read_file", {"path": "x"}))]
    )
    result = Episode(WRITE_NOTE, SingleAgent(provider), memory.make_environments()).run()
    assert result.termination == "success" and len(provider.requests) == 1
    assert [c.name for c in result.trajectory[0].calls] == ["write_file"]  # nothing after


def test_completing_before_the_task_is_done_is_a_failure() -> None:
    system, _ = system_prompt(ModelSettings(), calls(("laptop__write_file", NOTE)))
    assert "Completing or submitting before the task is done ends the episode as a failure" in (
        system
    )
    provider = ScriptedProvider([calls(("root__complete", {}))])
    result = Episode(WRITE_NOTE, SingleAgent(provider), memory.make_environments()).run()
    assert result.termination == "false_completion" and not result.success


# ------------------------------------------------------------------ element numbers
FIRST = "<!doctype html><title>One</title><a href='/many'>Next</a>"
MANY = "<!doctype html><title>Many</title><a href='/'>A</a> <a href='/'>B</a> <a href='/'>C</a>"


class _Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = (MANY if self.path.startswith("/many") else FIRST).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.integration
def test_element_numbers_keep_to_the_steps_observation_until_the_next_step() -> None:
    """The prompt's id rule on a real Chromium: after a call that changes the page, the
    same reply's numbers still refer to the step's observation; the next one renumbers."""
    pytest.importorskip("playwright")
    from reefbench.envs.browser import BrowserEnvironment
    from reefbench.errors import InvalidAction

    system, _ = system_prompt(ModelSettings(), calls(("laptop__write_file", NOTE)))
    assert "do not change until the next step, even when an earlier call of the same" in system
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    env = BrowserEnvironment(start_url=f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        env.start()
        env.reset()
        first = env.observe()["elements"]
        assert '[1] link "Next"' in first and "[3]" not in first
        env.step("click", {"elem": 1})  # the page now has links A, B, C
        with pytest.raises(InvalidAction):
            env.step("click", {"elem": 3})  # not a number of this step's observation
        after = env.observe()["elements"]  # the next step
        assert '[3] link "C"' in after
        env.step("click", {"elem": 3})
    finally:
        env.stop()
        server.shutdown()
        server.server_close()
