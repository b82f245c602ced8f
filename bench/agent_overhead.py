"""What the agent layer costs on top of the model: per-step overhead and request building.

Figures (medians, ``time.perf_counter``), one JSON object per line:

``agent_step_overhead``
    Microseconds per agent turn of the single agent with a scripted provider (no HTTP, no
    model) on the in-memory suite: observations -> content parts, history window, results
    fed back, reply parsed into calls, plus the episode's own work. The part of a turn's
    wall time that is ours rather than the model's.
``agent_step_overhead_by_env``
    The same for the multi-agent-by-environment policy (lead + 2 sub-agents + root = 4
    roles per turn).
``openai_request_roundtrip``
    Milliseconds for one Chat Completions request through the official ``openai`` SDK to
    a local HTTP server on 127.0.0.1 that answers instantly, carrying a 1280x800 PNG
    screenshot (~150 KB base64) and 20 tools: the SDK + encoding cost per model call.
    ``peer`` is the same POST made with the standard library's ``http.client`` (JSON built
    by hand), i.e. the floor without an SDK.
``screenshot_downscale``
    Milliseconds to downscale a 1280x800 PNG screenshot to 640 px wide with Pillow.

Usage: ``python bench/agent_overhead.py [--repetitions 200]``.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import io
import json
import statistics
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from reefbench import Episode
from reefbench.agents import ByEnvironmentAgent, SingleAgent
from reefbench.agents.images import downscale
from reefbench.agents.providers import (
    ImagePart,
    Message,
    ProviderOptions,
    ProviderReply,
    TextPart,
    ToolCall,
    ToolSpec,
)
from reefbench.agents.providers.openai.chat import OpenAIProvider, to_openai_messages
from reefbench.suites import memory


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 3), "unit": unit, **extra}))


def median_time(fn: Callable[[], Any], repetitions: int) -> float:
    samples = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


class Solver:
    """Scripted model: plays the reference solution, answering each role by its prompt."""

    def __init__(self, solution: list[Any]) -> None:
        self.solution = solution
        self.step = -1
        self.name = "bench/scripted"

    def complete(self, system: str, messages: Any, tools: Any = ()) -> ProviderReply:
        lead = system.startswith("You are the lead agent")
        if lead or not system.startswith("You are the "):
            self.step += 1  # the single agent and the lead are asked first each turn
        call = self.solution[min(self.step, len(self.solution) - 1)]
        if lead:
            return ProviderReply(f"{call.env}: {call.name} {call.arguments}")
        if not system.startswith("You are the "):
            return ProviderReply("", [ToolCall("c", f"{call.env}__{call.name}", call.arguments)])
        root = system.startswith("You are the root agent")
        mine = root if call.env == "root" else f'"{call.env}" environment' in system
        if mine:
            return ProviderReply("", [ToolCall("c", call.name, call.arguments)])
        return ProviderReply("", [ToolCall("s", "skip", {})])


def step_overhead(policy: type, repetitions: int) -> float:
    tasks = memory.load()
    per_step: list[float] = []
    for _ in range(max(1, repetitions // len(tasks))):
        for task in tasks:
            agent = policy(Solver(task.reference_solution))
            envs = memory.make_environments()
            t0 = time.perf_counter()
            result = Episode(task, agent, envs).run()
            elapsed = time.perf_counter() - t0
            assert result.success, (task.id, result.termination, result.error)
            per_step.append(elapsed / result.steps)
    return statistics.median(per_step) * 1e6


class _Instant(BaseHTTPRequestHandler):
    reply = json.dumps(
        {
            "id": "x",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "ok"},
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    ).encode()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(self.reply)))
        self.end_headers()
        self.wfile.write(self.reply)

    def log_message(self, *args: Any) -> None:
        pass


def screenshot() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1280, 800), "white")
    draw = ImageDraw.Draw(image)
    for i in range(0, 800, 20):  # some structure so PNG does not compress to nothing
        draw.rectangle((i, i // 2, i + 300, i // 2 + 15), fill=(i % 255, 80, 160))
        draw.text((10, i), f"line {i} of a window with text", fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def roundtrip(repetitions: int) -> tuple[float, float]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Instant)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        port = server.server_address[1]
        shot = screenshot()
        tools = [
            ToolSpec(f"laptop__{a.name}_{i}", a.description, a)
            for i in range(4)
            for a in memory.make_environments()["laptop"].action_space.values()
        ]
        messages = [Message("user", [TextPart("Step 1."), ImagePart(shot, "image/png")])]
        provider = OpenAIProvider(
            "m", api_key="bench", base_url=f"http://127.0.0.1:{port}/v1", options=ProviderOptions()
        )
        sdk = median_time(lambda: provider.complete("system", messages, tools), repetitions)

        connection = http.client.HTTPConnection("127.0.0.1", port)

        def raw() -> None:
            body = json.dumps(
                {
                    "model": "m",
                    "messages": to_openai_messages("system", messages),
                    "tools": [t.schema("openai") for t in tools],
                }
            )
            connection.request(
                "POST", "/v1/chat/completions", body, {"content-type": "application/json"}
            )
            json.loads(connection.getresponse().read())

        floor = median_time(raw, repetitions)
        connection.close()
        return sdk * 1e3, floor * 1e3
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repetitions", type=int, default=200)
    args = parser.parse_args()
    n = args.repetitions
    emit("agent_step_overhead", step_overhead(SingleAgent, n), "us")
    emit("agent_step_overhead_by_env", step_overhead(ByEnvironmentAgent, n), "us")
    sdk, floor = roundtrip(max(20, n // 4))
    emit("openai_request_roundtrip", sdk, "ms", peer="http.client", peer_value=round(floor, 3))
    shot = screenshot()
    emit(
        "screenshot_downscale",
        median_time(lambda: downscale(shot, "image/png", 640), max(20, n // 10)) * 1e3,
        "ms",
        bytes_in=len(shot),
        base64_bytes=len(base64.b64encode(shot)),
    )


if __name__ == "__main__":
    main()
