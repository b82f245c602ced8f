"""The quiet uvicorn server: serves, keeps its Date header, and stops when told."""

from __future__ import annotations

import json
import urllib.request

from reefbench.plumbing.net import ServedApp


async def hello(scope: dict[str, object], receive: object, send: object) -> None:
    assert scope["type"] == "http"
    body = json.dumps({"ok": True}).encode()
    await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
    await send({"type": "http.response.body", "body": body})  # type: ignore[operator]


def test_a_quiet_server_serves_with_a_date_header_and_stops_when_told() -> None:
    served = ServedApp(hello)
    try:
        with urllib.request.urlopen(served.url, timeout=10) as response:
            assert json.load(response) == {"ok": True}
            assert response.headers["Date"].endswith("GMT")
    finally:
        served.stop()
    assert not served._thread.is_alive()


def test_setting_should_exit_wakes_the_sleeping_loop() -> None:
    served = ServedApp(hello)
    served._server.should_exit = True  # the loop is asleep: setting it wakes the loop
    served._thread.join(timeout=10)
    assert not served._thread.is_alive()
    served.stop()
