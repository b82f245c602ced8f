"""Native computer use as a user runs it, on the phone and on the desktop: ``reef run`` as a
real subprocess per provider, against wire servers that refuse what the real APIs refuse
(:mod:`.wire_rules`), playing a reef-v0 phone task (Settings > Bluetooth) and a desktop task
(the text editor's View > Toolbar, opened from the Applications menu) in one run.

The brain knows only each task's steps in words. It reads every target by OCR in *the
screenshot it was sent* and answers in its provider's vocabulary, so the whole path is
real: the strict conversation over several turns, the device the agent starts on, the
scaling, the mapping back and the devices' own checks. The same episodes with their last
click 40 pixels off (in the image the model saw) must fail, and fail by the click, not by
the wire.
"""

from __future__ import annotations

import difflib
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from reefbench.log.store import ResultsStore

from .conftest import FAKE_KEY, MODELS, Request, Said, WireServer
from .test_real_devices import pytestmark  # noqa: F401  (Xvfb, Chromium ... or skip)

PIL = pytest.importorskip("PIL.Image")
np = pytest.importorskip("numpy")

# task id, a word only its instruction has, and its steps as a person would follow them
TASKS: dict[str, tuple[str, str, list[tuple[str, str]]]] = {
    "phone": (
        "v0-small-a9ab8b90acba",
        "Bluetooth",
        [("click", "Settings"), ("click", "Bluetooth"), ("done", "")],
    ),
    "desktop": (
        "v0-small-b84a26f23230",
        "Toolbar",
        [
            ("click", "Applications"),
            ("click", "Other"),
            ("click", "Text Editor"),
            ("click", "View"),
            ("click", "Toolbar"),
            ("key", "ctrl+q"),
            ("done", ""),
        ],
    ),
}
OFF = 40  # pixels of the image the model was sent
# wire -> (model, flags, key variable, base-URL variable), for the conftest's `server` of
# each wire: no --action-set anywhere, so the run plays a computer-use model's default.
INTERFACES = {
    "anthropic": (f"anthropic/{MODELS['anthropic']}", ["--computer-use", "on"],
                  "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
    "openai": (f"openai/{MODELS['openai']}", [], "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "google": (f"google/{MODELS['google']}", [], "GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"),
}  # fmt: skip
_SHOWN = re.compile(r"(?:Screenshot of|now looking at) '(\w+)'")


def find_words(png: bytes, text: str) -> tuple[int, int]:
    """The centre of the words ``text`` in the image, read word by word (a menu bar is one
    OCR line: "File Edit Search View"), in grey, with dark parts turned light and with
    coloured pixels painted white, at two enlargements; the closest reading wins."""
    from reefbench.perception.ocr import ocr_image

    wanted = " ".join(text.casefold().split())
    size = len(wanted.split())
    with PIL.open(io.BytesIO(png)) as image:
        grey = image.convert("L")
        saturation = np.asarray(image.convert("RGB").convert("HSV"))[..., 1]
    values = np.asarray(grey)
    folded = PIL.fromarray(np.where(values < 150, 255 - values, values).astype("uint8"))
    plain = PIL.fromarray(np.where(saturation > 80, 255, values).astype("uint8"))
    best: tuple[float, tuple[int, int]] | None = None
    for scale, psm in ((2.0, 11), (3.0, 11), (2.0, 3)):  # sparse text, then page layout
        for candidate in (grey, folded, plain):
            lines: dict[tuple[int, int, int], list[object]] = {}
            for word in ocr_image(candidate, scale=scale, psm=psm):
                lines.setdefault(word.line, []).append(word)
            for words in lines.values():
                ordered = sorted(words, key=lambda w: w.box[0])  # type: ignore[attr-defined]
                for i in range(len(ordered) - size + 1):
                    span = ordered[i : i + size]
                    read = " ".join(re.sub(r"\W", "", w.text) for w in span).casefold()  # type: ignore[attr-defined]
                    ratio = difflib.SequenceMatcher(None, read, wanted).ratio()
                    if ratio >= 0.8 and (best is None or ratio > best[0]):
                        boxes = [w.box for w in span]  # type: ignore[attr-defined]
                        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
                        x1 = max(b[0] + b[2] for b in boxes)
                        y1 = max(b[1] + b[3] for b in boxes)
                        best = (ratio, ((x0 + x1) // 2, (y0 + y1) // 2))
        if best is not None and best[0] > 0.95:
            break
    if best is None:
        raise AssertionError(f"no {text!r} in the screenshot")
    return best[1]


@dataclass
class Player:
    """Plays each task's steps, one a request, from what the request shows; with ``off``
    the last click of each task lands :data:`OFF` pixels below its target."""

    off: bool = False
    todo: dict[str, list[tuple[str, str]]] = field(
        default_factory=lambda: {kind: list(steps) for kind, (_, _, steps) in TASKS.items()}
    )
    clicked: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __call__(self, request: Request) -> list[Said]:
        texts = request.texts()
        device = next(kind for kind, (_, word, _) in TASKS.items() if word in texts)
        shown = _SHOWN.findall(texts)
        if shown and shown[-1] != device:
            return [Said("function", name="switch_device", args={"name": device})]
        todo = self.todo[device]
        kind, text = todo.pop(0)
        if kind == "done":
            return [Said("function", name="complete")]
        if kind == "key":
            return [Said("key", text=text)]
        try:
            x, y = find_words(request.screenshot(), text)
        except AssertionError as exc:
            self.errors.append(f"{device}: {exc}")
            return [Said("function", name="complete")]
        last = not any(k == "click" for k, _ in todo)
        self.clicked.append((device, text))
        return [Said("click", x, y + (OFF if self.off and last else 0))]


def reef_run(server: WireServer, out: Path) -> subprocess.CompletedProcess[str]:
    model, flags, key_variable, url_variable = INTERFACES[server.wire]
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    env |= {key_variable: FAKE_KEY, url_variable: server.base_url}
    command = [sys.executable, "-m", "reefbench.cli", "run", "--suite", "v0"]
    for task_id, _, _ in TASKS.values():
        command += ["--task", task_id]
    command += ["--model", model, *flags, "--out", str(out), "--workers", "1"]
    command += ["--max-infra-retries", "0", "--retries", "1", "--no-report"]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, env=env)


@pytest.mark.parametrize("off", [False, True], ids=["on-target", "last-click-40px-off"])
def test_reef_run_plays_a_phone_and_a_desktop_task_through_each_provider(
    server: WireServer, off: bool, tmp_path: Path
) -> None:
    player = Player(off=off)
    server.brain = player
    out = tmp_path / "run"
    done = reef_run(server, out)
    assert done.returncode == 0, done.stderr[-3000:]
    assert server.refused == [], server.refused  # every request is one the real API takes
    assert player.errors == [], player.errors
    store = ResultsStore(out)
    try:
        results = {r.task_id: r for r in store.results(trajectory=True)}
    finally:
        store.close()
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["action_set"] == "pixels"
    for device, (task_id, _, steps) in TASKS.items():
        result = results[task_id]
        wanted = [text for kind, text in steps if kind == "click"]
        assert [t for d, t in player.clicked if d == device] == wanted
        played = [c for turn in result.trajectory for c in turn.calls if c.env == device]
        assert all(c.status == "ok" for c in played), played
        # The agent started on the task's device: nothing was played anywhere else.
        assert {c.env for turn in result.trajectory for c in turn.calls} <= {device, "root"}
        if off:
            assert not result.success, (device, result.termination)
            assert result.termination != "agent_error", result.error
        else:
            assert result.success, (device, result.termination, result.error)
