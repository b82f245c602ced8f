"""``reef serve-mcp``'s server driven by the official MCP client over streamable HTTP.

The server plays a real episode of the in-memory suite: the client lists the tools, solves
(or fails) the task through them, and the result is read back from the run directory with
the same loader ``reef report`` uses.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from reefbench.actions.spec import ActionCall
from reefbench.environments.contract import Environment
from reefbench.log.store import ResultsStore
from reefbench.plumbing.net import ServedApp
from reefbench.report.loading import load_run
from reefbench.runner.mcp_server import MCP_PATH, create_app
from reefbench.runner.served_episode import ServedEpisode
from reefbench.suites import Suite
from reefbench.tasks.task import Task, TaskMetadata

TOKEN = "test-token-0123456789abcdef"


@contextmanager
def serving(
    out: Path, task: str = "mem-write-note", **options: Any
) -> Iterator[tuple[str, ServedEpisode]]:
    episode = ServedEpisode("memory", task, out, **options)
    episode.start()
    served = ServedApp(create_app(episode, TOKEN), lifespan="on")
    try:
        yield served.url + MCP_PATH, episode
    finally:
        served.stop()
        episode.close()


def with_client(
    url: str, play: Callable[[ClientSession], Awaitable[Any]], token: str = TOKEN
) -> Any:
    async def main() -> Any:
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx2.AsyncClient(headers=headers) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await play(session)

    return anyio.run(main)


def test_a_client_solves_the_task_and_the_run_is_stored(tmp_path: Path) -> None:
    out = tmp_path / "run"

    async def play(session: ClientSession) -> dict[str, Any]:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        task = await session.read_resource("reef://task")
        before = await session.read_resource("reef://observation/laptop/list_files")
        result = await session.call_tool(
            "laptop__write_file", {"path": "notes/hello.txt", "content": "hello world"}
        )
        stored = await session.read_resource("reef://result")
        return {"tools": tools, "task": task, "before": before, "call": result, "stored": stored}

    with serving(out) as (url, episode):
        seen = with_client(url, play)
        assert episode.ended.is_set()

    tools = seen["tools"]
    assert (
        "laptop__write_file" in tools and "root__complete" in tools and "phone__read_file" in tools
    )
    schema = tools["laptop__write_file"].input_schema
    assert schema["type"] == "object" and set(schema["required"]) == {"path", "content"}
    assert "hello world" in seen["task"].contents[0].text
    assert seen["before"].contents[0].text == "(no files)"
    assert not seen["call"].is_error
    assert "episode has ended (success)" in seen["call"].content[0].text
    assert '"termination": "success"' in seen["stored"].contents[0].text

    run = load_run(out)
    assert run.manifest.config["agent"]["name"] == "mcp"
    assert run.manifest.config["tasks"] == ["mem-write-note"]
    [result] = run.results
    assert result.task_id == "mem-write-note" and result.success and result.agent == "mcp"
    assert result.termination == "success" and result.steps == 1


def test_a_wrong_answer_is_scored_as_a_failure(tmp_path: Path) -> None:
    out = tmp_path / "run"

    async def play(session: ClientSession) -> Any:
        wrong = await session.call_tool(
            "laptop__write_file", {"path": "notes/hello.txt", "content": "hello"}
        )
        done = await session.call_tool("root__complete", {})
        after = await session.call_tool("root__wait", {})
        return wrong, done, after

    with serving(out) as (url, _):
        wrong, done, after = with_client(url, play)
    assert not wrong.is_error and "ended" not in wrong.content[0].text
    assert "episode has ended (false_completion)" in done.content[0].text
    assert after.is_error and "has ended" in after.content[0].text
    [result] = load_run(out).results
    assert not result.success and result.termination == "false_completion"
    assert result.steps == 2


def test_invalid_calls_count_as_invalid_actions(tmp_path: Path) -> None:
    async def play(session: ClientSession) -> Any:
        return await session.call_tool("laptop__fly", {}), await session.call_tool("nonsense", {})

    with serving(tmp_path / "run", invalid_tolerance=1) as (url, _):
        first, second = with_client(url, play)
    assert first.is_error and "invalid" in first.content[0].text
    assert second.is_error and "unknown tool 'nonsense'" in second.content[0].text
    assert "episode has ended (invalid_action)" in second.content[0].text
    [result] = load_run(tmp_path / "run").results
    assert result.termination == "invalid_action" and result.invalid_actions == 2


def test_the_prompts_carry_the_instruction_and_the_observation(tmp_path: Path) -> None:
    async def play(session: ClientSession) -> Any:
        names = [p.name for p in (await session.list_prompts()).prompts]
        return names, await session.get_prompt("task"), await session.get_prompt("observation")

    with serving(tmp_path / "run", task="mem-cross-code") as (url, _):
        names, task, observation = with_client(url, play)
    assert names == ["task", "observation"]
    text = "\n".join(m.content.text for m in task.messages)
    assert "sms/latest.txt" in text and "root__complete" in text and "phone:" in text
    texts = [m.content.text for m in observation.messages]
    assert any("sms/latest.txt" in t for t in texts), texts


def test_an_episode_left_unfinished_is_stored_as_aborted(tmp_path: Path) -> None:
    async def play(session: ClientSession) -> Any:
        return await session.call_tool("root__wait", {})

    with serving(tmp_path / "run") as (url, episode):
        with_client(url, play)
        assert not episode.ended.is_set()
    [result] = load_run(tmp_path / "run").results
    assert result.termination == "aborted" and result.steps == 2 and not result.success
    store = ResultsStore(tmp_path / "run")
    assert [row["status"] for row in store.rows()] == ["failed"]
    store.close()


def test_a_wrong_token_is_refused(tmp_path: Path) -> None:
    async def play(session: ClientSession) -> Any:
        return await session.list_tools()

    with serving(tmp_path / "run") as (url, episode):
        with pytest.raises(ExceptionGroup) as refused:
            with_client(url, play, token="wrong-token-0123456789abcdef")
        assert refused.group_contains(MCPError)
        hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": TOKEN}):
            response = httpx2.post(url, json=hello, headers=headers)
            assert response.status_code == 401, headers
            assert response.json() == {"detail": "missing or wrong token"}
        right = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx2.post(url, json=hello, headers=right).status_code != 401
        # Nothing reached the episode.
        assert episode.driver.turn is not None and episode.driver.turn.step == 1


# ------------------------------------------------------------------ reef serve-mcp, a process
REEF = [sys.executable, "-m", "reefbench.cli"]


@pytest.mark.integration
def test_serve_mcp_process_over_http_then_reef_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [*REEF, "serve-mcp", "--suite", "memory", "--task", "mem-write-note"]
    env = {k: v for k, v in os.environ.items() if k != "REEF_MCP_TOKEN"}
    process = subprocess.Popen(
        [*command, "--port", "0", "--out", str(out)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip().removeprefix("url=")
        token = process.stdout.readline().strip().removeprefix("token=")
        assert process.stdout.readline().strip() == f"run={out}"
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp") and len(token) >= 16

        async def play(session: ClientSession) -> Any:
            arguments = {"path": "notes/hello.txt", "content": "hello world"}
            return await session.call_tool("laptop__write_file", arguments)

        assert "ended (success)" in with_client(url, play, token=token).content[0].text
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    report = subprocess.run(
        [*REEF, "report", str(out)], capture_output=True, text=True, timeout=120
    )
    assert report.returncode == 0, report.stderr
    [(label, shown)] = json.loads((out / "report" / "report.json").read_text())["runs"].items()
    assert label.startswith("mcp") and shown["summary"]["episodes"] == 1
    assert shown["summary"]["sr"] == 1.0
    again = subprocess.run(
        [*command, "--out", str(out)], capture_output=True, text=True, timeout=120, env=env
    )
    assert again.returncode == 2 and "already holds an episode" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


@pytest.mark.integration
def test_serve_mcp_over_stdio(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["-m", "reefbench.cli", "serve-mcp", "--transport", "stdio", "--suite", "memory"]
    params = StdioServerParameters(
        command=sys.executable, args=[*args, "--task", "mem-write-note", "--out", str(out)]
    )

    async def main() -> Any:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            arguments = {"path": "notes/hello.txt", "content": "hello world"}
            return await session.call_tool("laptop__write_file", arguments)

    result = anyio.run(main)
    assert not result.is_error and "ended (success)" in result.content[0].text
    [stored] = load_run(out).results
    assert stored.success and stored.agent == "mcp"


def test_serve_mcp_mistakes_are_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["--suite", "memory", "--task", "nope"], "no task 'nope' in suite memory"),
        (["--suite", "memory", "--task", "mem-*"], "exact id"),
        (["--suite", "moon", "--task", "x"], "unknown suite 'moon'"),
        (["--suite", "memory", "--task", "mem-write-note", "--host", "0.0.0.0"], "--allow-remote"),
    ]:
        done = subprocess.run(
            [*REEF, "serve-mcp", *args, "--port", "0", "--out", str(tmp_path / "x")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# ------------------------------------------------------------------ a real desktop
def open_editor_task() -> list[Task]:
    from reefbench.envs.desktop import evaluators as ev

    return [
        Task(
            id="desk-open-editor",
            instruction='Open the Mousepad text editor and save "never-saved.txt".',
            nodes={
                "open": ev.process_running("mousepad").on("desktop"),
                "saved": ev.file_exists("never-saved.txt").on("desktop"),
            },
            reference_solution=[
                ActionCall(env="desktop", name="search_app", arguments={"name": "mousepad"})
            ],
            metadata=TaskMetadata(level="L1", scenario="editor", apps=["mousepad"]),
        )
    ]


def one_desktop() -> dict[str, Environment]:
    from reefbench.envs.desktop import DesktopEnvironment

    return {"desktop": DesktopEnvironment()}


@pytest.mark.integration
@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "mousepad")),
    reason="needs Xvfb, bubblewrap, xdotool, openbox and mousepad",
)
def test_on_a_real_desktop_the_screenshot_is_the_screen_and_the_call_is_scored(
    tmp_path: Path,
) -> None:
    suite = Suite("desk", "one desktop", open_editor_task, one_desktop)
    episode = ServedEpisode(suite, "desk-open-editor", tmp_path / "run")

    async def play(session: ClientSession) -> dict[str, Any]:
        listed = [r.uri for r in (await session.list_resources()).resources]
        before = await session.read_resource("reef://observation/desktop/screenshot")
        opened = await session.call_tool("desktop__search_app", {"name": "mousepad"})
        after = await session.read_resource("reef://observation/desktop/screenshot")
        prompt = await session.get_prompt("observation")
        done = await session.call_tool("root__complete", {})
        return {
            "listed": listed,
            "before": before,
            "opened": opened,
            "after": after,
            "prompt": prompt,
            "done": done,
        }

    try:
        episode.start()
        with ServedApp(create_app(episode, TOKEN), lifespan="on") as served:
            seen = with_client(served.url + MCP_PATH, play)
    finally:
        episode.close()

    assert "reef://observation/desktop/screenshot" in [str(u) for u in seen["listed"]]
    from PIL import Image

    shots = []
    for key in ("before", "after"):
        [content] = seen[key].contents
        assert content.mime_type == "image/png"
        image = Image.open(io.BytesIO(base64.b64decode(content.blob)))
        assert image.format == "PNG" and image.size == (1280, 800)
        shots.append(image.convert("RGB"))
    # The screenshot follows the real screen: after the call it shows the editor's window.
    assert shots[0].tobytes() != shots[1].tobytes()
    assert shots[1].getextrema() != ((0, 0), (0, 0), (0, 0))
    assert not seen["opened"].is_error, seen["opened"].content
    images = [m.content for m in seen["prompt"].messages if m.content.type == "image"]
    assert len(images) == 1 and base64.b64decode(images[0].data) == base64.b64decode(
        seen["after"].contents[0].blob
    )
    assert "ended (false_completion)" in seen["done"].content[0].text
    store = ResultsStore(tmp_path / "run")
    [result] = store.results()
    store.close()
    assert not result.success and result.completed_nodes == ["open"] and result.steps == 2


@pytest.mark.integration
@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "mousepad")),
    reason="needs Xvfb, bubblewrap, xdotool, openbox and mousepad",
)
def test_under_pixels_the_tools_take_points_and_the_only_observation_is_the_screen(
    tmp_path: Path,
) -> None:
    suite = Suite("desk", "one desktop", open_editor_task, one_desktop)
    episode = ServedEpisode(suite, "desk-open-editor", tmp_path / "run", action_set="pixels")

    async def play(session: ClientSession) -> dict[str, Any]:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        clicked = await session.call_tool("desktop__click_at", {"x": 10, "y": 10})
        done = await session.call_tool("root__complete", {})
        return {"tools": tools, "listed": listed, "clicked": clicked, "done": done}

    try:
        episode.start()
        with ServedApp(create_app(episode, TOKEN), lifespan="on") as served:
            seen = with_client(served.url + MCP_PATH, play)
    finally:
        episode.close()

    tools = seen["tools"]
    assert not {"desktop__click", "desktop__double_click", "desktop__right_click"} & set(tools)
    assert {"desktop__click_at", "desktop__drag", "desktop__scroll"} <= set(tools)
    assert "elem" not in tools["desktop__scroll"].input_schema["properties"]
    assert {"x", "y"} <= set(tools["desktop__scroll"].input_schema["properties"])
    observed = [u for u in seen["listed"] if u.startswith("reef://observation/desktop/")]
    assert observed == ["reef://observation/desktop/screenshot"]  # no element list
    assert not seen["clicked"].is_error, seen["clicked"].content
    assert json.loads((tmp_path / "run" / "run.json").read_text())["config"]["action_set"] == (
        "pixels"
    )


def test_a_served_episode_stops_its_environments_on_the_episode_s_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped from the server's thread, the browser and the phone each waited out
    Playwright's 10 s and were killed: Ctrl+C took about 25 s to end `reef serve-mcp`."""
    episode = ServedEpisode("memory", "mem-write-note", tmp_path / "run")
    stopped: dict[str, str] = {}
    for name, env in episode.envs.items():
        original = env.stop

        def stop(name: str = name, original: Callable[[], None] = original) -> None:
            stopped.setdefault(name, threading.current_thread().name)
            original()

        monkeypatch.setattr(env, "stop", stop)
    episode.start()
    episode.close()
    assert stopped and set(stopped.values()) == {"reef-episode"}, stopped
    (row,) = ResultsStore(tmp_path / "run").rows()
    assert row["status"] != "pending"
