"""reef suites as Inspect AI evals, run with the real ``inspect eval`` command.

The model is a local server speaking OpenAI's Chat Completions wire format (the one the
other provider tests use), reached through Inspect's own OpenAI-compatible provider; its
scripted replies call reef's tools. The log is read back with Inspect's log API, which is
what ``inspect view`` opens.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from reefbench.suites import get_suite

from ..agents.conftest import FAKE_KEY, FakeServer, Scripted, render_openai

INSPECT = [sys.executable, "-m", "inspect_ai"]
O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


@pytest.fixture(scope="module")
def tiktoken_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Inspect estimates tokens with tiktoken's o200k_base, which tiktoken downloads; this
    machine has no network, so the cache is seeded from the copy bpe-openai ships (the
    same bytes: tiktoken checks their sha256)."""
    pytest.importorskip("bpe_openai")
    cache = tmp_path_factory.mktemp("tiktoken")
    packed = importlib.resources.files("bpe_openai") / "data" / "o200k_base.tiktoken.gz"
    key = hashlib.sha1(O200K_URL.encode()).hexdigest()
    (cache / key).write_bytes(gzip.decompress(packed.read_bytes()))
    return cache


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer("openai", render_openai)
    try:
        yield fake
    finally:
        fake.close()


def inspect_eval(
    server: FakeServer, cache: Path, logs: Path, *options: str
) -> tuple[subprocess.CompletedProcess[str], EvalLog]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {
        "FAKE_API_KEY": FAKE_KEY,
        "FAKE_BASE_URL": f"http://127.0.0.1:{server.port}/v1",
        "TIKTOKEN_CACHE_DIR": str(cache),
        "INSPECT_LOG_DIR": str(logs),
    }
    done = subprocess.run(
        [
            *INSPECT,
            "eval",
            "reefbench/reef",
            "--model",
            "openai-api/fake/fake-vl",
            "--display",
            "plain",
            "--max-retries",
            "1",
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (info,) = list_eval_logs(str(logs))
    return done, read_eval_log(info)


def _metric(log: EvalLog, score: str, name: str) -> float:
    assert log.results is not None
    (found,) = [s for s in log.results.scores if s.name == score]
    return float(found.metrics[name].value)


@pytest.mark.integration
def test_a_memory_task_scores_success_and_the_log_holds_the_trajectory(
    server: FakeServer, tiktoken_cache: Path, tmp_path: Path
) -> None:
    server.script(
        Scripted(
            "I write the note.",
            [("laptop__write_file", {"path": "notes/hello.txt", "content": "hello world"})],
        )
    )
    done, log = inspect_eval(
        server,
        tiktoken_cache,
        tmp_path / "logs",
        "-T",
        "suite=memory",
        "-T",
        "tasks=mem-write-note",
    )
    assert log.status == "success" and log.eval.task == "reef_memory"
    assert _metric(log, "success", "accuracy") == 1.0
    assert _metric(log, "completion_ratio", "mean") == 1.0
    (sample,) = log.samples or []
    result = sample.store["reef_result"]
    assert result["termination"] == "success" and result["task_id"] == "mem-write-note"
    assert result["trajectory"][0]["calls"][0]["name"] == "write_file"
    # Inspect recorded the model request with reef's tools and the reply's call.
    models = [e for e in sample.events if e.event == "model"]
    assert len(models) == len(server.requests) == 1
    tools = {t.name: t for t in models[0].tools}
    assert "laptop__write_file" in tools
    assert set(tools["laptop__write_file"].parameters.properties) >= {"path", "content"}
    assert (models[0].output.message.tool_calls or [])[0].function == "laptop__write_file"
    # What reached the provider's wire: reef's system prompt, the tools, the key.
    body: dict[str, Any] = server.bodies[0]
    assert body["messages"][0]["role"] == "system" and "laptop" in body["messages"][0]["content"]
    assert any(t["function"]["name"] == "laptop__write_file" for t in body["tools"])
    assert FAKE_KEY not in done.stdout + done.stderr


@pytest.mark.integration
def test_a_wrong_action_fails_the_task_and_keeps_the_agents_feedback(
    server: FakeServer, tiktoken_cache: Path, tmp_path: Path
) -> None:
    wrong = ("laptop__write_file", {"path": "notes/hello.txt", "content": "goodbye"})
    server.default = Scripted("I write the note.", [wrong])
    _, log = inspect_eval(
        server,
        tiktoken_cache,
        tmp_path / "logs",
        "-T",
        "suite=memory",
        "-T",
        "tasks=mem-write-note",
        "-T",
        "step_limit=3",
    )
    assert _metric(log, "success", "accuracy") == 0.0
    (sample,) = log.samples or []
    assert sample.store["reef_result"]["termination"] == "step_limit"
    assert sample.store["reef_result"]["steps"] == 3 == len(server.requests)
    # reef's step budget reached the model in its own turn text.
    second = json.dumps(server.bodies[1]["messages"])
    assert "step 2 of 3" in second.lower()


@pytest.mark.integration
def test_a_desktop_task_of_reef_v1_plays_through_inspect(
    server: FakeServer, tiktoken_cache: Path, tmp_path: Path
) -> None:
    pytest.importorskip("Xlib")
    candidates = [
        t
        for t in get_suite("v1").load()
        if t.metadata.platform == "desktop"
        and not t.user_data
        and all(c.env == "desktop" for c in t.reference_solution)
    ]
    task = min(candidates, key=lambda t: (len(t.reference_solution), t.id))
    server.script(
        *[Scripted("Next.", [(f"desktop__{c.name}", c.arguments)]) for c in task.reference_solution]
    )
    _, log = inspect_eval(
        server,
        tiktoken_cache,
        tmp_path / "logs",
        "-T",
        "suite=v1",
        "-T",
        f"tasks={task.id}",
        # The reference names elements: the a11y action set takes those calls.
        "-T",
        "action_set=a11y",
    )
    assert _metric(log, "success", "accuracy") == 1.0, log.samples
    (sample,) = log.samples or []
    assert sample.id == task.id and sample.input == task.instruction
    assert sample.store["reef_result"]["actions"] == len(task.reference_solution)
    first = server.bodies[0]["messages"]
    assert any(  # the model saw the desktop's screenshot
        part.get("type") == "image_url"
        for m in first
        if isinstance(m.get("content"), list)
        for part in m["content"]
    )
