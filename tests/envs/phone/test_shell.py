"""The phone shell's pages and API, without a browser."""

from __future__ import annotations

import json

import pytest

from reefbench.envs.phone.catalog import installed_apps
from reefbench.envs.phone.shell import PhoneShell
from reefbench.envs.phone.system import PhoneState, parse_now
from reefbench.envs.phone.xmldump import attr, to_xml
from reefbench.envs.ui import parse_hierarchy
from reefbench.errors import ActionFailed


@pytest.fixture
def shell() -> tuple[PhoneShell, PhoneState]:
    state = PhoneState()
    return PhoneShell(installed_apps(True), lambda: state, lambda: "2024-11-12T09:30"), state


def post(shell: PhoneShell, name: str, payload: object) -> tuple[int, dict[str, object]]:
    response = shell.handle("POST", f"/__phone/api/{name}", body=json.dumps(payload).encode())
    return response.status, json.loads(response.body)


def test_settings_api_checks_keys_and_types(shell: tuple[PhoneShell, PhoneState]):
    app, state = shell
    assert post(app, "settings", {"key": "dark_mode", "value": True})[0] == 200
    assert state.settings["dark_mode"] is True
    status, answer = post(app, "settings", {"key": "dark_mode", "value": "maybe"})
    assert status == 422 and "on/off" in str(answer["error"])
    status, answer = post(app, "settings", {"key": "root_shell", "value": True})
    assert status == 422 and "no setting" in str(answer["error"])
    assert post(app, "settings", {"key": "bluetooth_name", "value": " Alex "})[0] == 200
    assert state.settings["bluetooth_name"] == "Alex"
    assert post(app, "settings", {"key": "bluetooth_name", "value": ""})[0] == 422


def test_calls_are_logged_with_the_phone_clock(shell: tuple[PhoneShell, PhoneState]):
    app, state = shell
    status, _ = post(app, "call", {"number": "+1 (555) 0100"})
    assert status == 200 and state.calls == [
        {"number": "+15550100", "kind": "outgoing", "time": "2024-11-12T09:30"}
    ]
    assert post(app, "call", {"number": "no digits"})[0] == 422
    page = app.handle("GET", "/__phone/app/dialer", "tab=recents").body.decode()
    assert "+15550100" in page and 'id="call_log"' in page


def test_bad_requests_and_paths_are_refused(shell: tuple[PhoneShell, PhoneState]):
    app, _ = shell
    assert app.handle("POST", "/__phone/api/settings", body=b"{not json").status == 400
    assert app.handle("POST", "/__phone/api/settings", body=b"[1]").status == 400
    assert app.handle("GET", "/__phone/static/../shell.py").status == 404
    assert app.handle("GET", "/__phone/static/%2e%2e/system.py").status == 404
    assert app.handle("GET", "/__phone/nothing").status == 404
    assert app.handle("GET", "/mail").status == 404


def test_pages_escape_user_text(shell: tuple[PhoneShell, PhoneState]):
    app, state = shell
    state.set("bluetooth_name", '<script>alert(1)</script>"')
    page = app.handle("GET", "/__phone/app/settings").body.decode()
    assert "<script>alert" not in page and "&lt;script&gt;" in page


def test_the_launcher_lists_every_app_in_the_drawer(shell: tuple[PhoneShell, PhoneState]):
    app, _ = shell
    page = app.handle("GET", "/__phone/shell").body.decode()
    for phone_app in installed_apps(True):
        assert f'id="drawer_{phone_app.package.rsplit(".", 1)[-1]}"' in page
    assert "Tue, Nov 12" in page and ">09:30<" in page


def test_xml_attributes_survive_a_parse_round_trip():
    text = 'a "b" <c> & d\nnext\tcol\x00\x07end'
    node = ["android.widget.EditText", text, "p:id/x", "p", "", "", 8 | 32, 0, 0, 10, 10, []]
    parsed = parse_hierarchy(to_xml([node]))
    only = next(parsed.iter())
    assert only.text == 'a "b" <c> & d\nnext\tcolend'
    assert only.flag("focused") and only.flag("enabled") and not only.flag("clickable")
    assert attr("\r") == "&#13;"


def test_times_are_checked():
    assert parse_now("2024-06-03T09:00:59") == "2024-06-03T09:00"
    with pytest.raises(ActionFailed, match="YYYY-MM-DD"):
        parse_now("tomorrow")
