"""The acceptance of native computer use and grounding models, as a user runs it: ``reef
run`` as a real subprocess, once per interface (Anthropic's computer tool with ``--action-set
pixels``, OpenAI's computer-use model, Gemini's computer use, and UI-TARS over an
OpenAI-compatible server), each completing the same reef-v0 browser task against a local
server speaking that provider's wire format.

The server's brain knows only the task's steps in words ("click Tasks", "type ..."): it
finds each target by OCR (tesseract) in *the screenshot it was sent*, at whatever size the
agent scaled it to, and answers with that point in its provider's vocabulary (Gemini in
0..999, UI-TARS in the resized image's pixels). Nothing is computed from the devices, so a
coordinate-mapping bug anywhere between the model and the device misses the element and
the task's own checkpoints fail the run. The keys reach the subprocess only through the
variables each provider reads, and appear in no output and no file of the run.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from reefbench.log.store import ResultsStore

from ..conftest import Scripted
from ..conftest import render_openai as render_chat
from .conftest import FAKE_KEY, MODELS, RENDER, Request, Said, WireServer, _authorised
from .test_real_devices import pytestmark  # noqa: F401  (Xvfb, Chromium ... or skip)

PIL = pytest.importorskip("PIL.Image")

TASK = "v0-small-31b28454a8bf"  # add the to-do "Renew the gym pass" due on 2024-06-10
# The task in words, as a person would follow it: click what reads so, type.
STEPS: list[tuple[str, str]] = [
    ("click", "Tasks"),
    ("click", "New task"),  # the field's label: clicking it focuses the field
    ("type", "Renew the gym pass"),
    ("click", "Due date"),
    ("type", "06102024"),
    ("click", "Add task"),
    ("done", ""),
]
UITARS = "ui-tars-1.5-7b"
# wire -> (model string, extra reef run flags, key variable, base-URL variable)
INTERFACES: dict[str, tuple[str, list[str], str, str | None]] = {
    "anthropic": (
        f"anthropic/{MODELS['anthropic']}",
        ["--action-set", "pixels"],
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
    ),
    "openai": (f"openai/{MODELS['openai']}", [], "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "google": (f"google/{MODELS['google']}", [], "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"),
    "grounding": (
        f"openai-compatible/{UITARS}@{{url}}",
        ["--grounding", "uitars"],
        "OPENAI_COMPATIBLE_API_KEY",
        None,
    ),
}
PATHS = {
    "anthropic": "/v1/messages",
    "openai": "/v1/responses",
    "google": f"/v1beta/models/{MODELS['google']}:generateContent",
    "grounding": "/v1/chat/completions",
}
_SHOWN = re.compile(r"(?:Screenshot of|now looking at) '(\w+)'")


# ------------------------------------------------------------------ reading the picture
def find_text(png: bytes, text: str) -> tuple[int, int]:
    """The centre of the words ``text`` in the image, by OCR of the image in grey, with
    its dark parts turned light (so white text on a coloured button reads as dark text on
    a light one) and with its coloured pixels painted white, at two enlargements and two
    page segmentations, taking the closest reading (tesseract drops a letter now and then:
    "Task" for "Tasks")."""
    import difflib

    import numpy as np

    from reefbench.perception.ocr import group_lines, ocr_image

    wanted = text.casefold()
    with PIL.open(io.BytesIO(png)) as image:
        grey = image.convert("L")
        saturation = np.asarray(image.convert("RGB").convert("HSV"))[..., 1]
        size = image.size
    values = np.asarray(grey)
    folded = PIL.fromarray(np.where(values < 150, 255 - values, values).astype("uint8"))
    # Coloured lines hugging a label (Set-of-Marks boxes, which a computer-use model
    # under the marks set is sent) break tesseract's reading: paint them background.
    plain = PIL.fromarray(np.where(saturation > 80, 255, values).astype("uint8"))
    seen: list[str] = []
    # Sparse text first (psm 11), then whole-page layout (psm 3), which reads a button
    # right under a focused field that sparse segmentation can miss.
    for scale, psm in ((2.0, 11), (3.0, 11), (2.0, 3)):
        best: tuple[float, tuple[int, int]] | None = None
        for candidate in (grey, folded, plain):
            for line in group_lines(ocr_image(candidate, scale=scale, psm=psm)):
                found = re.sub(r"[^\w ]", "", line.text).strip().casefold()
                seen.append(found)
                ratio = difflib.SequenceMatcher(None, found, wanted).ratio()
                if ratio >= 0.85 and (best is None or ratio > best[0]):
                    x, y, w, h = line.box
                    best = (ratio, (x + w // 2, y + h // 2))
        if best is not None:
            return best[1]
    raise AssertionError(f"no {text!r} in the {size} screenshot; read {seen}")


def chat_screenshot(request: Request) -> bytes:
    """The last image of a Chat Completions request (``image_url: {"url": "data:..."}``)."""
    urls = [
        part["image_url"]["url"]
        for message in request.body["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]
    assert urls, "the request carries no screenshot"
    return base64.b64decode(urls[-1].split(",", 1)[1])


# ------------------------------------------------------------------ the model
@dataclass
class Brain:
    """Plays :data:`STEPS` one per request from what each request's screenshot shows."""

    wire: str
    todo: list[tuple[str, str]] = field(default_factory=lambda: list(STEPS))
    clicked: list[tuple[str, tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    last: tuple[int, int] = (0, 0)
    errors: list[str] = field(default_factory=list)
    switched: bool = False

    def next(self, request: Request) -> tuple[str, str, tuple[int, int]]:
        """The next step and, for a click, its point in the image this request carries."""
        kind, text = self.todo.pop(0)
        if kind == "click":
            shot = chat_screenshot(request) if self.wire == "grounding" else request.screenshot()
            self.last = find_text(shot, text)
            self.clicked.append((text, self.last, PIL.open(io.BytesIO(shot)).size))
        return kind, text, self.last

    def native(self, request: Request) -> list[Said]:
        shown = _SHOWN.findall(request.texts())
        if shown and shown[-1] != "browser":
            return [Said("function", name="switch_device", args={"name": "browser"})]
        kind, text, (x, y) = self.next(request)
        if kind == "done":
            return [Said("function", name="complete")]
        return [Said(kind, x, y, text=text)]

    def uitars(self, request: Request) -> str:
        if not self.switched:  # the devices are listed in the prompt; the task is here
            self.switched = True
            return "Thought: The task is in the browser.\nAction: switch(device='browser')"
        kind, text, (x, y) = self.next(request)
        if kind == "done":
            return "Thought: The to-do is added.\nAction: finished()"
        if kind == "type":
            return f"Thought: I type.\nAction: type(content='{text}')"
        box = f"<|box_start|>({x},{y})<|box_end|>"
        return f"Thought: I click {text}.\nAction: click(start_box='{box}')"


class Server(WireServer):
    """One provider's wire format on 127.0.0.1 (the conftest's server), answering from an
    OCR-reading :class:`Brain` instead of a scripted one."""

    def __init__(self, wire: str) -> None:
        super().__init__(wire)
        self.reader = Brain(wire)

    @property
    def base_url(self) -> str:
        root = f"http://127.0.0.1:{self.port}"
        return {"anthropic": root, "google": root + "/"}.get(self.wire, root + "/v1")

    def answer(self, request: Request) -> tuple[int, Any]:
        wire = "openai" if self.wire == "grounding" else self.wire
        if not _authorised(wire, request.headers):
            return 401, {"error": {"message": "invalid key", "type": "authentication_error"}}
        if request.path.split("?")[0] != PATHS[self.wire]:
            return 404, {"error": {"message": f"no route {request.path}"}}
        self.requests.append(request)
        n = len(self.requests)
        try:
            if self.wire == "grounding":
                return 200, render_chat(Scripted(self.reader.uitars(request)), n)
            return 200, RENDER[self.wire](self.reader.native(request), n, request)
        except (AssertionError, IndexError) as exc:  # the run fails; the test says why
            self.reader.errors.append(f"request {n}: {exc!r}")

            return 400, {"error": {"message": "the scripted model is lost", "type": "invalid"}}


@pytest.fixture(params=sorted(INTERFACES))
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    made = Server(request.param)
    try:
        yield made
    finally:
        made.close()


# ------------------------------------------------------------------ the run
def reef_run(server: Server, out: Path) -> subprocess.CompletedProcess[str]:
    model, flags, key_variable, url_variable = INTERFACES[server.wire]
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env = {k: v for k, v in env.items() if not k.endswith("_BASE_URL")}
    env[key_variable] = FAKE_KEY
    if url_variable is not None:  # the SDK finds the server as it would the real API
        env[url_variable] = server.base_url
    command = [sys.executable, "-m", "reefbench.cli", "run", "--suite", "v0", "--task", TASK]
    command += ["--model", model.format(url=server.base_url), *flags, "--out", str(out)]
    command += ["--max-infra-retries", "0", "--retries", "1", "--no-report"]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)


def test_reef_run_completes_a_task_through_each_coordinate_interface(
    server: Server, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    done = reef_run(server, out)
    assert server.reader.errors == [], server.reader.errors
    assert done.returncode == 0, done.stderr[-3000:]
    store = ResultsStore(out)
    try:
        (result,) = store.results(trajectory=True)
    finally:
        store.close()
    assert result.success, (result.termination, result.error)
    # Every step was played (the episode may end by itself before "done" is asked for),
    # each click at the point read from the picture it was sent.
    assert [kind for kind, _ in server.reader.todo] in ([], ["done"])
    assert [text for text, _, _ in server.reader.clicked] == [
        t for kind, t in STEPS if kind == "click"
    ]
    played = [c for turn in result.trajectory for c in turn.calls if c.env == "browser"]
    # Gemini's type_text_at clicks its point too.
    assert sum(c.name == "click_at" for c in played) >= 4, played
    assert {c.name for c in played} <= {"click_at", "write_text", "press", "hotkey"}, played
    assert all(c.status == "ok" for c in played), played
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["agent"]["model"].startswith(INTERFACES[server.wire][0][:12])
    if server.wire == "anthropic":
        assert manifest["config"]["action_set"] == "pixels"
    # The key went to the provider and nowhere else.
    assert FAKE_KEY not in done.stdout and FAKE_KEY not in done.stderr
    for path in out.rglob("*"):
        if path.is_file() and path.suffix != ".png":
            assert FAKE_KEY not in path.read_text(errors="replace"), path
