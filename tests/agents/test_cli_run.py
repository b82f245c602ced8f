"""``reef run`` with models and built-in agents, as a real subprocess.

The model is a local server speaking the OpenAI wire format whose scripted replies solve
a memory-suite task; the key given to the harness must appear in no output and no file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from reefbench.log.store import ResultsStore

from .conftest import FAKE_KEY, FakeServer, Scripted

REEF = [sys.executable, "-m", "reefbench.cli"]
NOTE_JSON = (
    '```json\n{"name": "%s", "arguments": '
    '{"path": "notes/hello.txt", "content": "hello world"}}\n```'
)


def reef(
    *args: str, key: str | None = FAKE_KEY, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["COLUMNS"] = "200"
    if key is not None:
        env["OPENAI_COMPATIBLE_API_KEY"] = key
    return subprocess.run(
        [*REEF, "run", "--suite", "memory", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        input=stdin,
    )


def _rows(out: Path) -> list[dict[str, object]]:
    store = ResultsStore(out)
    try:
        return [r.model_dump() for r in store.results()]
    finally:
        store.close()


def _no_key_anywhere(out: Path, done: subprocess.CompletedProcess[str]) -> None:
    assert FAKE_KEY not in done.stdout and FAKE_KEY not in done.stderr
    for path in out.rglob("*"):
        if path.is_file():
            assert FAKE_KEY not in path.read_text(errors="replace"), path


def test_reef_run_against_an_openai_compatible_server(
    openai_server: FakeServer, tmp_path: Path
) -> None:
    openai_server.script(
        Scripted(
            "The laptop has no files yet; I write the note.\n" + NOTE_JSON % "laptop__write_file",
            prompt=120,
            completion=30,
        )
    )
    out = tmp_path / "run"
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef(
        "--model", f"openai-compatible/fake-vl@{url}", "--task", "mem-write-note", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows(out)
    assert (
        row["termination"] == "success"
        and row["agent"] == f"openai-compatible/fake-vl@{url} single"
    )
    assert row["usage"]["prompt_tokens"] == 120 and row["usage"]["completion_tokens"] == 30  # type: ignore[index]
    assert "openai-compatible/fake-vl single on memory" in done.stdout
    body = openai_server.bodies[0]
    assert body["model"] == "fake-vl" and "tools" not in body  # auto: JSON mode
    _no_key_anywhere(out, done)


def test_reef_run_by_env_policy_native_tools(openai_server: FakeServer, tmp_path: Path) -> None:
    # lead, laptop, phone, root: one request each per turn.
    openai_server.script(
        Scripted("laptop: write notes/hello.txt with hello world"),
        Scripted("", [("write_file", {"path": "notes/hello.txt", "content": "hello world"})]),
        Scripted("", [("skip", {})]),
        Scripted("", [("skip", {})]),
    )
    out = tmp_path / "run"
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef(
        "--model",
        f"openai-compatible/fake@{url}",
        "--policy",
        "by-env",
        "--tool-mode",
        "native",
        "--task",
        "mem-write-note",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows(out)
    assert row["termination"] == "success"
    assert row["usage"]["prompt_tokens"] == 40  # type: ignore[index]  # 4 roles x 10
    tools = [[t["function"]["name"] for t in b.get("tools", [])] for b in openai_server.bodies]
    assert tools[0] == [] and tools[1][-1] == "skip" and "complete" in tools[3]
    _no_key_anywhere(out, done)


def test_a_model_outage_is_reported_as_infrastructure(
    openai_server: FakeServer, tmp_path: Path
) -> None:
    openai_server.default = Scripted(status=503)
    out = tmp_path / "run"
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    done = reef(
        "--model",
        f"openai-compatible/fake@{url}",
        "--task",
        "mem-write-note",
        "--retries",
        "3",
        "--retry-base",
        "0.01",
        "--max-infra-retries",
        "0",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows(out)
    assert row["termination"] == "agent_error" and "503" in str(row["error"])
    assert "gave up after 3 attempts" in str(row["error"]) and len(openai_server.requests) == 3


def test_model_flag_mistakes_are_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["--model", "gpt-4o"], "use 'provider/model'"),
        (["--model", "anthropic/claude-x"], "set ANTHROPIC_API_KEY"),
        (["--model", "openai/gpt-4o", "--agent", "null"], "exclude each other"),
        (
            ["--model", "openai-compatible/x@http://127.0.0.1:9/v1", "--policy", "swarm"],
            "policy 'swarm'",
        ),
        (["--agent", "replay"], "needs --replay"),
        (["--agent", "robot"], "unknown agent"),
        (["--task", "nope"], "no task matches nope"),
    ]:
        done = reef(*args, "--out", str(tmp_path / "x"))
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_builtin_agents_by_name(tmp_path: Path) -> None:
    recorded = tmp_path / "oracle"
    assert reef("--agent", "oracle", "--out", str(recorded)).returncode == 0
    replayed = tmp_path / "replay"
    done = reef("--agent", "replay", "--replay", str(recorded), "--out", str(replayed))
    assert done.returncode == 0, done.stderr
    assert all(r["termination"] == "success" for r in _rows(replayed))
    rand = tmp_path / "random"
    done = reef("--agent", "random", "--seed", "3", "--task", "mem-write-note", "--out", str(rand))
    assert done.returncode == 0 and _rows(rand)[0]["termination"] == "step_limit"
    human = tmp_path / "human"
    done = reef(
        "--agent",
        "human",
        "--task",
        "mem-write-note",
        "--out",
        str(human),
        stdin='laptop.write_file path=notes/hello.txt content="hello world"\n',
    )
    assert done.returncode == 0, done.stderr
    assert _rows(human)[0]["termination"] == "success"
    assert "mem-write-note" in done.stdout and "action> " in done.stdout


def test_reef_run_defaults_to_reef_v1_and_drives_real_apps_with_a_model(
    openai_server: FakeServer, tmp_path: Path
) -> None:
    """No --suite: reef-v1 on real environments, once with the oracle, once with a model."""
    import json

    import pytest

    from reefbench.suites import get_suite

    pytest.importorskip("playwright")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("needs Chromium")
    phone_tasks = [
        t
        for t in get_suite("v1").load()
        if t.metadata.platform == "phone" and all(c.env == "phone" for c in t.reference_solution)
    ]
    task = min(phone_tasks, key=lambda t: (len(t.reference_solution), t.id))
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {"COLUMNS": "200", "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*REEF, "run", "--task", task.id, "--workers", "1", *args],
            capture_output=True,
            text=True,
            timeout=240,
            env=env,
        )

    oracle = run("--out", str(tmp_path / "oracle"))
    assert oracle.returncode == 0, oracle.stderr
    assert "oracle on v1" in oracle.stdout
    (row,) = _rows(tmp_path / "oracle")
    assert row["termination"] == "success" and row["task_id"] == task.id

    for call in task.reference_solution:
        body = json.dumps({"name": f"phone__{call.name}", "arguments": call.arguments})
        openai_server.script(Scripted(f"Next step.\n```json\n{body}\n```"))
    url = f"http://127.0.0.1:{openai_server.port}/v1"
    # The script replays the reference solution, which names elements (tap_on): a model
    # can call that only under the a11y action set.
    model = run(
        "--model",
        f"openai-compatible/fake-vl@{url}",
        "--action-set",
        "a11y",
        "--out",
        str(tmp_path / "model"),
    )
    assert model.returncode == 0, model.stderr
    (row,) = _rows(tmp_path / "model")
    assert row["termination"] == "success", row
    assert len(openai_server.bodies) == len(task.reference_solution)
    first = openai_server.bodies[0]["messages"]
    assert any(  # the model saw the phone's screenshot
        part.get("type") == "image_url"
        for m in first
        if isinstance(m.get("content"), list)
        for part in m["content"]
    )
    _no_key_anywhere(tmp_path / "model", model)


def test_a_judge_that_cannot_be_built_fails_before_the_run(tmp_path: Path) -> None:
    for model, said in [
        ("bogus", "use 'provider/model'"),
        ("openai/gpt-judge", "set OPENAI_API_KEY"),
    ]:
        done = reef("--agent", "oracle", "--judge", model, "--out", str(tmp_path / "run"))
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "run").exists()
