"""Local stand-ins for the model APIs: HTTP servers on 127.0.0.1 speaking each provider's
wire format (OpenAI Chat Completions, Anthropic Messages, Gemini generateContent).

Tests script provider-neutral replies (:class:`Scripted`); each server renders them in its
own wire format, records every request (path, headers, JSON body) and refuses requests
without the expected key, like the real APIs. The official SDKs talk to these servers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from reefbench.agents.providers import ProviderOptions, RetryPolicy

FAKE_KEY = "sk-fake-4f2b9c1d7e-reefbench-secret"
FAST_RETRY = RetryPolicy(attempts=4, base=0.001, cap=0.01)


@dataclass
class Scripted:
    """One model reply: text, tool calls (name, arguments) and token counts."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    prompt: int = 10
    completion: int = 5
    cached: int = 0
    status: int = 200
    raw_arguments: str | None = None  # OpenAI only: send this string as the arguments
    empty: bool = False  # HTTP 200 with nothing in it: no choices/content blocks/candidates


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class FakeServer:
    """A threaded HTTP server that answers from a queue of scripted replies."""

    def __init__(self, wire: str, render: Callable[[Scripted, int], Any]) -> None:
        self.wire = wire
        self.render = render
        self.queue: list[Scripted] = []
        self.default: Scripted | None = None  # used when the queue is empty
        self.requests: list[Recorded] = []
        self.replied = threading.Event()
        self.hold: threading.Event | None = None  # a request blocks until this is set
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                raw = self.rfile.read(length)
                body = json.loads(raw) if raw else None
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.requests.append(Recorded("POST", self.path, headers, body))
                status, payload = server.answer(self.path, headers)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def answer(self, path: str, headers: dict[str, str]) -> tuple[int, Any]:
        if not _authorised(self.wire, headers):
            return 401, {"error": {"message": "invalid key", "type": "authentication_error"}}
        if not _expected_path(self.wire, path):
            return 404, {"error": {"message": f"no route {path}"}}
        if self.hold is not None and len(self.requests) == 1:
            self.hold.wait(10)  # the first request hangs until the client has timed out
        if self.queue:
            reply = self.queue.pop(0)
        elif self.default is not None:
            reply = self.default
        else:
            return 500, {"error": {"message": "test script exhausted"}}
        if reply.status != 200:
            return reply.status, _error(self.wire, reply.status)
        return 200, self.render(reply, len(self.requests))

    def script(self, *replies: Scripted) -> None:
        self.queue.extend(replies)

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    def close(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)
        assert not self.thread.is_alive()


def _authorised(wire: str, headers: dict[str, str]) -> bool:
    if wire == "openai":
        return headers.get("authorization") == f"Bearer {FAKE_KEY}"
    if wire == "anthropic":  # SDK 2.x sends a bearer token; older ones x-api-key
        return FAKE_KEY in (headers.get("x-api-key"), headers.get("authorization", "")[7:])
    return headers.get("x-goog-api-key") == FAKE_KEY


def _expected_path(wire: str, path: str) -> bool:
    if wire == "openai":
        return path == "/v1/chat/completions"
    if wire == "anthropic":
        return path == "/v1/messages"
    return path.startswith("/v1beta/models/") and path.endswith(":generateContent")


def _error(wire: str, status: int) -> Any:
    if wire == "anthropic":
        kind = "rate_limit_error" if status == 429 else "api_error"
        return {"type": "error", "error": {"type": kind, "message": f"status {status}"}}
    if wire == "google":
        return {"error": {"code": status, "message": f"status {status}", "status": "UNAVAILABLE"}}
    return {"error": {"message": f"status {status}", "type": "server_error", "code": None}}


# ------------------------------------------------------------------ wire renderings
def render_openai(reply: Scripted, n: int) -> Any:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": reply.raw_arguments
                    if reply.raw_arguments is not None
                    else json.dumps(arguments),
                },
            }
            for i, (name, arguments) in enumerate(reply.calls)
        ]
    choice = {
        "index": 0,
        "finish_reason": "tool_calls" if reply.calls else "stop",
        "message": message,
    }
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1,
        "model": "fake",
        "choices": [] if reply.empty else [choice],
        "usage": {
            "prompt_tokens": reply.prompt,
            "completion_tokens": reply.completion,
            "total_tokens": reply.prompt + reply.completion,
            "prompt_tokens_details": {"cached_tokens": reply.cached},
        },
    }


def render_anthropic(reply: Scripted, n: int) -> Any:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for i, (name, arguments) in enumerate(reply.calls):
        content.append(
            {"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": arguments}
        )
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "fake",
        "content": [] if reply.empty else content,
        "stop_reason": "tool_use" if reply.calls else "end_turn",
        "stop_sequence": None,
        # Anthropic counts cache reads apart from input_tokens.
        "usage": {
            "input_tokens": reply.prompt - reply.cached,
            "output_tokens": reply.completion,
            "cache_read_input_tokens": reply.cached,
            "cache_creation_input_tokens": 0,
        },
    }


def render_gemini(reply: Scripted, n: int) -> Any:
    parts: list[dict[str, Any]] = []
    if reply.text:
        parts.append({"text": reply.text})
    for i, (name, arguments) in enumerate(reply.calls):
        parts.append({"functionCall": {"id": f"fc_{n}_{i}", "name": name, "args": arguments}})
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    return {
        "candidates": [] if reply.empty else [candidate],
        "usageMetadata": {
            "promptTokenCount": reply.prompt,
            "candidatesTokenCount": reply.completion,
            "cachedContentTokenCount": reply.cached,
            "totalTokenCount": reply.prompt + reply.completion,
        },
        "modelVersion": "fake",
    }


RENDER = {"openai": render_openai, "anthropic": render_anthropic, "google": render_gemini}


# ------------------------------------------------------------------ request inspection
@dataclass
class Wire:
    """A fake server plus how to read that provider's requests."""

    name: str
    server: FakeServer

    def provider(self, **options: Any) -> Any:
        from reefbench.agents.providers import make_provider

        opts = ProviderOptions(retry=options.pop("retry", FAST_RETRY), **options)
        base = {
            "openai": f"http://127.0.0.1:{self.server.port}/v1",
            "anthropic": f"http://127.0.0.1:{self.server.port}",
            "google": f"http://127.0.0.1:{self.server.port}/",
        }[self.name]
        environ = {
            "OPENAI_API_KEY": FAKE_KEY,
            "ANTHROPIC_API_KEY": FAKE_KEY,
            "GEMINI_API_KEY": FAKE_KEY,
        }
        return make_provider(f"{self.name}/fake-model", opts, base_url=base, environ=environ)

    def tool_names(self, body: Any) -> list[str]:
        if self.name == "openai":
            return [t["function"]["name"] for t in body.get("tools", [])]
        if self.name == "anthropic":
            return [t["name"] for t in body.get("tools", [])]
        return [d["name"] for t in body.get("tools", []) for d in t["functionDeclarations"]]

    def tool_parameters(self, body: Any, name: str) -> dict[str, Any]:
        if self.name == "openai":
            tools = {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}
        elif self.name == "anthropic":
            tools = {t["name"]: t["input_schema"] for t in body["tools"]}
        else:
            tools = {
                d["name"]: d.get("parameters", {})
                for t in body["tools"]
                for d in t["functionDeclarations"]
            }
        return tools[name]

    def images(self, body: Any) -> list[tuple[str, bytes]]:
        """(mime type, bytes) of every image in the request, in order."""
        import base64

        found: list[tuple[str, bytes]] = []
        for message in self._messages(body):
            for part in self._parts(message):
                if self.name == "openai" and part.get("type") == "image_url":
                    url = part["image_url"]["url"]
                    head, data = url.split(",", 1)
                    found.append((head[len("data:") : -len(";base64")], base64.b64decode(data)))
                elif self.name == "anthropic" and part.get("type") == "image":
                    src = part["source"]
                    found.append((src["media_type"], base64.b64decode(src["data"])))
                elif self.name == "google" and "inlineData" in part:
                    blob = part["inlineData"]
                    mime = blob.get("mimeType", blob.get("mime_type"))  # proto JSON takes both
                    found.append((mime, base64.urlsafe_b64decode(blob["data"])))  # SDK: urlsafe
        return found

    def user_texts(self, body: Any) -> list[str]:
        """All text sent in user turns, in order (tool results included)."""
        texts: list[str] = []
        for message in self._messages(body):
            role = message.get("role")
            if role == "tool":
                texts.append(message["content"])
                continue
            if role not in ("user",):
                continue
            for part in self._parts(message):
                if "text" in part and isinstance(part["text"], str):
                    texts.append(part["text"])
                elif part.get("type") == "tool_result":
                    texts.append(str(part.get("content")))
                elif "functionResponse" in part:
                    texts.append(json.dumps(part["functionResponse"]["response"]))
        return texts

    def tool_results(self, body: Any) -> list[tuple[str, str]]:
        """(call id, content) of every tool result in the request."""
        out: list[tuple[str, str]] = []
        for message in self._messages(body):
            if message.get("role") == "tool":
                out.append((message["tool_call_id"], message["content"]))
            for part in self._parts(message):
                if part.get("type") == "tool_result":
                    out.append((part["tool_use_id"], str(part["content"])))
                elif "functionResponse" in part:
                    fr = part["functionResponse"]
                    out.append((fr.get("id", ""), json.dumps(fr["response"])))
        return out

    def roles(self, body: Any) -> list[str]:
        return [m.get("role", "?") for m in self._messages(body)]

    def system(self, body: Any) -> str:
        if self.name == "openai":
            return str(body["messages"][0]["content"])
        if self.name == "anthropic":
            return str(body["system"])
        return " ".join(p["text"] for p in body["systemInstruction"]["parts"])

    def _messages(self, body: Any) -> list[dict[str, Any]]:
        key = "contents" if self.name == "google" else "messages"
        return list(body.get(key, []))

    def _parts(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        if self.name == "google":
            return list(message.get("parts", []))
        content = message.get("content")
        return list(content) if isinstance(content, list) else []


@pytest.fixture(params=["openai", "anthropic", "google"])
def wire(request: pytest.FixtureRequest) -> Iterator[Wire]:
    server = FakeServer(request.param, RENDER[request.param])
    try:
        yield Wire(request.param, server)
    finally:
        server.close()


@pytest.fixture
def openai_server() -> Iterator[FakeServer]:
    server = FakeServer("openai", render_openai)
    try:
        yield server
    finally:
        server.close()


# ------------------------------------------------------------------ scripted provider
class ScriptedProvider:
    """A provider object without HTTP: answers from a script and records every request.

    ``script`` is a list of replies, or a function of (system, messages) giving one — the
    multi-agent tests answer each role according to its system prompt.
    """

    def __init__(self, script: Any, name: str = "fake/model") -> None:
        self.name = name
        self.script = script
        self.requests: list[tuple[str, list[Any], list[Any]]] = []

    def complete(self, system: str, messages: Any, tools: Any = ()) -> Any:
        from reefbench.agents.providers import ProviderReply

        self.requests.append((system, list(messages), list(tools)))
        script = self.script
        reply = script(system, list(messages)) if callable(script) else script.pop(0)
        if isinstance(reply, str):
            return ProviderReply(text=reply)
        return reply
