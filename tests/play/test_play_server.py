"""``reef play`` without a browser: gestures to device actions, the page's token and
headers, the JSON API on a memory-suite task, and the command's one-line errors."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reefbench.actions.spec import Action
from reefbench.envs.browser import actions as browser
from reefbench.envs.desktop import actions as desktop
from reefbench.envs.ui import actions as touch
from reefbench.errors import InvalidAction
from reefbench.play.gestures import Gesture, device_controls, gesture_call
from reefbench.play.server import COOKIE, create_app
from reefbench.play.session import PlaySession

TOKEN = "t" * 24


def _space(*actions: Any) -> dict[str, Action]:
    return {a.name: a for a in actions}


# The pixels set's spaces of the three screens (their coordinate and typing actions).
DESKTOP = _space(
    desktop.click_at,
    desktop.drag,
    desktop.scroll_at,
    desktop.write_text,
    desktop.press,
    desktop.hotkey,
    desktop.search_app,
)
BROWSER = _space(browser.click_at, browser.scroll_at, browser.type_text, browser.press)
PHONE = _space(
    touch.tap_at,
    touch.long_tap_at,
    touch.swipe_from,
    touch.write_text,
    touch.press,
    touch.show_all_drawer,
)


def _call(space: dict[str, Action], **gesture: Any) -> tuple[str, dict[str, Any]]:
    call = gesture_call(Gesture(env="dev", **gesture), space)
    return call.name, call.arguments


def test_clicks_become_each_screens_coordinate_action() -> None:
    assert _call(DESKTOP, kind="click", x=5, y=6) == ("click_at", {"x": 5, "y": 6})
    assert _call(BROWSER, kind="click", x=5, y=6) == ("click_at", {"x": 5, "y": 6})
    assert _call(PHONE, kind="click", x=5, y=6) == ("tap_at", {"x": 5, "y": 6})
    assert _call(DESKTOP, kind="double", x=1, y=2) == ("click_at", {"x": 1, "y": 2, "clicks": 2})
    assert _call(DESKTOP, kind="right", x=1, y=2) == (
        "click_at",
        {"x": 1, "y": 2, "button": "right"},
    )
    assert _call(PHONE, kind="right", x=1, y=2) == ("long_tap_at", {"x": 1, "y": 2})
    for space in (BROWSER, PHONE):
        with pytest.raises(InvalidAction, match="no action for a double gesture"):
            _call(space, kind="double", x=1, y=2)


def test_drags_scrolls_and_keys() -> None:
    drag = {"kind": "drag", "x": 1, "y": 2, "to_x": 30, "to_y": 40}
    assert _call(DESKTOP, **drag) == ("drag", {"from_x": 1, "from_y": 2, "to_x": 30, "to_y": 40})
    assert _call(PHONE, **drag) == ("swipe_from", {"x": 1, "y": 2, "to_x": 30, "to_y": 40})
    scroll = {"kind": "scroll", "x": 100, "y": 500, "direction": "down", "amount": 2}
    assert _call(DESKTOP, **scroll) == (
        "scroll",
        {"direction": "down", "x": 100, "y": 500, "amount": 2},
    )
    assert _call(BROWSER, **scroll) == ("scroll", {"direction": "down", "x": 100, "y": 500})
    # A touch screen scrolls down by a swipe up of a third of its height.
    assert _call(PHONE, **scroll, width=412, height=915) == (
        "swipe_from",
        {"x": 100, "y": 500, "to_x": 100, "to_y": 180},
    )
    assert _call(DESKTOP, kind="key", key="Escape") == ("press", {"key": "esc"})
    assert _call(DESKTOP, kind="key", key="s", modifiers=["ctrl"]) == (
        "hotkey",
        {"keys": ["ctrl", "s"]},
    )
    assert _call(BROWSER, kind="key", key="a", modifiers=["ctrl"]) == (
        "press",
        {"key": "Control+a"},
    )
    assert _call(PHONE, kind="key", key="Enter") == ("write_text", {"text": "\n"})
    with pytest.raises(InvalidAction, match="no Tab key"):
        _call(PHONE, kind="key", key="Tab")


def test_typed_text_goes_only_to_the_typing_action() -> None:
    text = "rm -rf / ; $(reboot) `id`"
    for space in (DESKTOP, BROWSER, PHONE):
        assert _call(space, kind="type", text=text) == ("write_text", {"text": text})


def test_the_page_offers_each_screens_gestures_and_other_actions() -> None:
    phone = device_controls(PHONE)
    assert phone["gestures"] == {
        "click": True,
        "double": False,
        "right": True,
        "drag": True,
        "scroll": True,
        "type": True,
        "key": False,
    }
    assert [a["name"] for a in phone["actions"]] == ["press", "show_all_drawer"]
    assert device_controls(DESKTOP)["gestures"]["double"]
    assert not device_controls(BROWSER)["gestures"]["drag"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, PlaySession]]:
    session = PlaySession("memory", "mem-call-user-wifi", tmp_path / "run")
    session.start()
    try:
        yield TestClient(create_app(session, TOKEN)), session
    finally:
        session.close()


def test_every_request_needs_the_token(client: tuple[TestClient, PlaySession]) -> None:
    api, _ = client
    wrong = TestClient(api.app, cookies={COOKIE: "x" * 24})
    authed = TestClient(api.app, cookies={COOKIE: TOKEN})
    for path in ("/", "/state", "/static/play.js", "/static/alpine-csp.min.js", "/view/phone"):
        assert api.get(path).status_code == 401, path
        assert wrong.get(path).status_code == 401, path
    assert api.post("/act", json={}).status_code == 401
    moved = api.get(f"/?token={TOKEN}", follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"].endswith("/")
    cookie = moved.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    page = authed.get("/")
    assert page.status_code == 200 and "mem-call-user-wifi" in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert authed.get("/static/play.js").status_code == 200
    assert authed.get("/static/..%2Fserver.py").status_code == 404


def test_changes_need_the_page_header_and_bad_input_is_one_line(
    client: tuple[TestClient, PlaySession],
) -> None:
    api, _ = client
    api.cookies.set(COOKIE, TOKEN)
    act = {"env": "root", "name": "call_user", "arguments": {"kind": "password"}}
    assert api.post("/act", json=act).status_code == 403  # no X-Reef-Play: cross-site form
    headers = {"X-Reef-Play": "1"}
    refused = api.post("/gesture", json={"env": "phone", "kind": "click"}, headers=headers)
    assert refused.status_code == 400
    assert refused.json() == {"error": "the phone has no action for a click gesture"}
    assert (
        api.post("/gesture", json={"env": "phone", "kind": "wave"}, headers=headers)
        .json()["error"]
        .startswith("kind:")
    )
    state = api.post("/act", json=act, headers=headers).json()
    assert state["user_answers"] == [{"kind": "password", "answer": "correct-horse"}]
    assert state["step"] == 2 and not state["ended"]
    # An action the episode refuses is an invalid step, shown as such.
    state = api.post(
        "/act", json={"env": "phone", "name": "nope", "arguments": {}}, headers=headers
    ).json()
    assert state["last"][0]["status"] == "invalid"
    assert api.post("/script", json={"id": "reference"}, headers=headers).status_code == 400


def _reef(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reefbench.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--suite", "nope", "--task", "x"), "error: unknown suite 'nope'"),
        (("--suite", "memory", "--task", "nope"), "error: no task 'nope' in suite memory"),
        (("--suite", "memory", "--task", "mem-*"), "name one task by its exact id"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    done = _reef("play", *args, "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and not (tmp_path / "run").exists()


def test_a_player_is_not_told_which_devices_the_task_uses(tmp_path: Path) -> None:
    """An agent is never told which devices matter; a human baseline must see the same.
    Only an author sees it (the task uses the phone, not the laptop)."""
    for author in (False, True):
        session = PlaySession(
            "memory", "mem-call-user-wifi", tmp_path / f"run-{author}", author=author
        )
        session.start()
        try:
            devices = session.state()["devices"]
        finally:
            session.close()
        shown = {d["name"]: d["in_task"] for d in devices}
        if author:
            assert shown == {"phone": True, "laptop": False}
            assert [d["name"] for d in devices] == ["phone", "laptop"]
        else:
            assert set(shown.values()) == {True}
            assert [d["name"] for d in devices] == sorted(shown)
