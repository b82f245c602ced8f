"""The remote environment: same contract as a local one, strict about tokens and input."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping
from typing import ClassVar

import httpx
import pytest

from reefbench import ActionFailed, EnvironmentFailure, Episode, InvalidAction
from reefbench.actions.spec import Action, action
from reefbench.agents import NullAgent, OracleAgent
from reefbench.agents.providers.dialects import tool_schema
from reefbench.envs import memory as m
from reefbench.envs.remote import RemoteEnvironment
from reefbench.envs.remote.server import create_app
from reefbench.plumbing.net import ServedApp
from reefbench.suites import memory as suite

pytestmark = pytest.mark.integration
TOKEN = secrets.token_urlsafe(24)


@pytest.fixture(scope="module")
def served() -> Iterator[dict[str, ServedApp]]:
    apps = {
        name: ServedApp(create_app(m.MemoryEnvironment(name), TOKEN, max_body=64 * 1024))
        for name in ("laptop", "phone")
    }
    yield apps
    for app in apps.values():
        app.stop()


@pytest.fixture(params=["local", "remote"])
def laptop(
    request: pytest.FixtureRequest, served: dict[str, ServedApp]
) -> Iterator[m.MemoryEnvironment | RemoteEnvironment]:
    if request.param == "local":
        env: m.MemoryEnvironment | RemoteEnvironment = m.MemoryEnvironment("laptop")
    else:
        env = RemoteEnvironment(served["laptop"].url, TOKEN)
    env.reset()
    yield env
    env.stop()


# ------------------------------------------------------------ the contract
def test_contract_action_space_and_schemas(laptop: m.MemoryEnvironment | RemoteEnvironment) -> None:
    assert laptop.name == "laptop"
    assert set(laptop.action_space) == {a.name for a in m.MEMORY_ACTIONS}
    write = laptop.action_space["write_file"]
    assert tool_schema(write, "openai") == tool_schema(m.write_file, "openai")
    assert tool_schema(write, "gemini") == tool_schema(m.write_file, "gemini")


def test_contract_step_observe_and_log(laptop: m.MemoryEnvironment | RemoteEnvironment) -> None:
    assert laptop.step("write_file", {"path": "a", "content": "x"}) == "wrote 1 characters to a"
    assert laptop.step("read_file", {"path": "a"}) == "x"
    assert laptop.observe() == {"list_files": "a"}
    assert [r.action for r in laptop.action_log] == ["write_file", "read_file"]
    assert laptop.health()


def test_contract_errors(laptop: m.MemoryEnvironment | RemoteEnvironment) -> None:
    with pytest.raises(InvalidAction, match="has no action 'fly'"):
        laptop.step("fly")
    with pytest.raises(InvalidAction, match="parameter 'path'"):
        laptop.step("write_file", {"path": 3, "content": "x"})
    with pytest.raises(ActionFailed, match="no file at nope"):
        laptop.step("read_file", {"path": "nope"})


def test_contract_reset_execute_evaluate(laptop: m.MemoryEnvironment | RemoteEnvironment) -> None:
    laptop.execute(m.write_file("setup.txt", "seeded"))
    assert laptop.evaluate(m.file_equals("setup.txt", "seeded")).success
    assert not laptop.evaluate(m.file_exists("other")).success
    laptop.reset()
    assert not laptop.evaluate(m.file_exists("setup.txt")).success
    assert laptop.action_log == []


def test_tasks_mix_local_and_remote_environments(served: dict[str, ServedApp]) -> None:
    for task in suite.load():
        envs = {
            "laptop": m.MemoryEnvironment("laptop"),
            "phone": RemoteEnvironment(served["phone"].url, TOKEN),
        }
        assert Episode(task, OracleAgent(), envs).run().success, task.id
        assert Episode(task, NullAgent(), envs).run().completion_ratio == 0.0, task.id


# ------------------------------------------------------------------ security
@pytest.mark.parametrize("header", [None, "Bearer wrong-token-wrong-token", f"Basic {TOKEN}"])
def test_missing_or_wrong_token_is_rejected(
    served: dict[str, ServedApp], header: str | None
) -> None:
    headers = {"Authorization": header} if header else {}
    url = served["laptop"].url
    for method, path in [
        ("GET", "/info"),
        ("GET", "/health"),
        ("POST", "/reset"),
        ("POST", "/observe"),
    ]:
        assert httpx.request(method, url + path, headers=headers).status_code == 401
    response = httpx.post(
        url + "/step",
        headers=headers,
        json={"action": "write_file", "arguments": {"path": "pwned", "content": "x"}},
    )
    assert response.status_code == 401
    assert httpx.get(url + "/version").json()["protocol"] == 1
    with pytest.raises(EnvironmentFailure, match="401"):
        RemoteEnvironment(url, "wrong-token-wrong-token")


def auth() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}"}


def test_oversized_and_malformed_bodies_are_rejected(served: dict[str, ServedApp]) -> None:
    url = served["laptop"].url
    big = {"action": "write_file", "arguments": {"path": "a", "content": "x" * 100_000}}
    assert httpx.post(url + "/step", headers=auth(), json=big).status_code == 413
    chunks = (b"x" * 16384 for _ in range(8))  # streamed without a Content-Length
    streamed = {**auth(), "content-type": "application/json"}
    assert httpx.post(url + "/step", headers=streamed, content=chunks).status_code == 413
    bad = httpx.post(
        url + "/step",
        headers={**auth(), "content-type": "application/json"},
        content=b'{"action": ',
    )
    assert bad.status_code == 422
    assert (
        httpx.post(url + "/step", headers=auth(), json=["not", "an", "object"]).status_code == 422
    )
    pickled = httpx.post(
        url + "/step",
        headers={**auth(), "content-type": "application/octet-stream"},
        content=b"\x80\x04\x95cos\nsystem\n.",
    )
    assert pickled.status_code == 415


@pytest.mark.parametrize(
    ("ref", "status"),
    [
        ("os:system", 403),
        ("subprocess:run", 403),
        ("reefbenchx.evil:f", 403),
        ("reefbench.envs.memory:nothing", 422),
        ("reefbench.envs.memory:MEMORY_ACTIONS", 422),
        ("memory.no_such_check", 422),
    ],
)
def test_references_are_limited_to_allowed_actions(
    served: dict[str, ServedApp], ref: str, status: int
) -> None:
    url = served["laptop"].url
    for path in ("/execute", "/evaluate"):
        response = httpx.post(url + path, headers=auth(), json={"ref": ref, "arguments": {}})
        assert response.status_code == status, (path, response.text)


def test_a_stable_name_is_served_as_the_reference_it_names(
    served: dict[str, ServedApp],
) -> None:
    """Task files name reefbench's checks by stable name (``memory.file_exists``); the
    server checks the module the name resolves to, not the name's text."""
    url = served["laptop"].url
    body = {"ref": "memory.file_exists", "arguments": {"path": "nowhere.txt"}}
    response = httpx.post(url + "/evaluate", headers=auth(), json=body)
    assert response.status_code == 200, response.text
    assert response.json()["success"] is False
    narrow = ServedApp(create_app(m.MemoryEnvironment(), TOKEN, allowed_modules=("mine",)))
    try:
        refused = httpx.post(narrow.url + "/evaluate", headers=auth(), json=body)
    finally:
        narrow.stop()
    assert refused.status_code == 403 and "reefbench.envs.memory" in refused.text


def test_an_action_is_not_an_evaluator(served: dict[str, ServedApp]) -> None:
    body = {"ref": "reefbench.envs.memory:write_file", "arguments": {"path": "a", "content": "b"}}
    response = httpx.post(served["laptop"].url + "/evaluate", headers=auth(), json=body)
    assert response.status_code == 422 and "not an evaluator" in response.text


def test_short_tokens_and_public_binds_are_refused() -> None:
    from reefbench import ConfigError

    with pytest.raises(ConfigError, match="at least 16"):
        create_app(m.MemoryEnvironment(), "short")
    with pytest.raises(ConfigError, match=r"not a loopback address \(pass allow_remote=True"):
        ServedApp(create_app(m.MemoryEnvironment(), TOKEN), host="0.0.0.0")


def test_transport_failures_are_infrastructure() -> None:
    app = ServedApp(create_app(m.MemoryEnvironment("gone"), TOKEN))
    env = RemoteEnvironment(app.url, TOKEN)
    app.stop()
    with pytest.raises(EnvironmentFailure):
        env.step("write_file", {"path": "a", "content": "b"})
    assert not env.on_health()
    json.dumps({})  # keep the json import honest for readers of failures


# ------------------------------------------------------------- action sets
@action
def count_files(env: m.MemoryEnvironment) -> str:
    """How many files the device holds."""
    return str(len(env.files))


@action(name="list_files")
def file_count(env: m.MemoryEnvironment) -> str:
    """How many files there are (the pixels set's view of the laptop)."""
    return f"{len(env.files)} files"


class CountingLaptop(m.MemoryEnvironment):
    """A laptop whose a11y set adds one action, and whose pixels set leaves copy_file out
    and shows a count instead of the file list, to see sets travel to the server."""

    action_set_actions: ClassVar[Mapping[str, list[Action]]] = {"a11y": [count_files]}
    action_set_removes: ClassVar[Mapping[str, list[str]]] = {"pixels": ["copy_file"]}
    action_set_observations: ClassVar[Mapping[str, list[Action]]] = {"pixels": [file_count]}


def test_the_runs_action_set_reaches_the_served_environment() -> None:
    app = ServedApp(create_app(CountingLaptop("laptop"), TOKEN))
    remote = RemoteEnvironment(app.url, TOKEN)
    try:
        remote.reset(action_set="a11y")
        assert "count_files" in remote.action_space
        assert remote.step("count_files") == "0"
        remote.reset()  # marks: gone here and on the server
        assert "count_files" not in remote.action_space
        with pytest.raises(InvalidAction, match="no action 'count_files'"):
            remote.step("count_files")
        reply = httpx.post(app.url + "/reset", headers=auth(), json={"action_set": "pixel"})
        assert reply.status_code == 422 and "unknown action set 'pixel'" in reply.text
    finally:
        remote.stop()
        remote.close()
        app.stop()


def test_what_a_set_removes_and_observes_is_applied_on_both_sides() -> None:
    app = ServedApp(create_app(CountingLaptop("laptop"), TOKEN))
    remote = RemoteEnvironment(app.url, TOKEN)
    try:
        assert "copy_file" in remote.episode_space([], "marks")
        assert "copy_file" not in remote.episode_space([], "pixels")
        remote.reset(action_set="pixels")
        assert "copy_file" not in remote.action_space
        with pytest.raises(InvalidAction, match="no action 'copy_file'"):
            remote.step("copy_file", {"source": "a", "target": "b"})
        assert remote.observe() == {"list_files": "0 files"}
        remote.end_episode()
        remote.reset()
        assert "copy_file" in remote.action_space
        assert remote.observe() == {"list_files": "(no files)"}
    finally:
        remote.stop()
        remote.close()
        app.stop()
