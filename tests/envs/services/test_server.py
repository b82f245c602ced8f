"""The server over real HTTP on loopback: tokens, login, reset, side-by-side instances."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest

from reefbench.envs.services import ServicesEnvironment, ServicesServer
from reefbench.envs.services import seeding as s
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure

from .conftest import service_threads

pytestmark = pytest.mark.integration


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _status(url: str, headers: dict[str, str] | None = None, data: bytes | None = None) -> int:
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, data=data, headers=headers or {})) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_internal_api_needs_the_token(account: ServicesEnvironment) -> None:
    url = account.url + "/internal/tables/contacts"
    assert _status(url) == 401
    assert _status(url, {"Authorization": "Bearer wrong"}) == 403
    assert _status(url, {"Authorization": "Basic " + account.server.token}) == 403  # type: ignore[union-attr]
    assert _status(url, {"Authorization": f"Bearer {account.client.token}"}) == 200
    assert _status(account.url + "/internal/ops/add_contact", data=b"{}") == 401


def test_pages_need_a_login_and_login_redirects_back(account: ServicesEnvironment) -> None:
    assert _status(account.url + "/mail") == 303
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(account.url + "/calendar/month?d=2024-06-01") as page:
        assert "/login?next=" in page.url
    form = {"username": "alex", "password": "nope", "next": "/mail"}
    with pytest.raises(urllib.error.HTTPError) as wrong:
        opener.open(account.url + "/login", urllib.parse.urlencode(form).encode())
    assert wrong.value.code == 401 and b"Wrong username or password" in wrong.value.read()
    form["password"] = account.password
    with opener.open(account.url + "/login", urllib.parse.urlencode(form).encode()) as page:
        assert page.url.endswith("/mail") and b"Inbox" in page.read()
    # A login never redirects to another site.
    form["next"] = "https://evil.example/"
    with opener.open(account.url + "/login", urllib.parse.urlencode(form).encode()) as page:
        assert page.url == account.url + "/"


def test_reset_restores_the_seed_and_snapshot_moves_it(account: ServicesEnvironment) -> None:
    s.add_contact(name="Seeded").run(account)
    account.client.snapshot()
    s.add_contact(name="Later").run(account)
    s.set_setting(key="theme", value="dark").run(account)
    account.reset()
    assert [c["name"] for c in account.rows("contacts")] == ["Seeded"]
    assert account.client.settings()["theme"] == "light"


def test_setup_actions_report_bad_data_as_action_failures(account: ServicesEnvironment) -> None:
    with pytest.raises(ActionFailed, match="not a date in the form YYYY-MM-DD"):
        s.add_event(title="x", date="tomorrow").run(account)
    with pytest.raises(ActionFailed, match="one of light, dark"):
        s.set_setting(key="theme", value="pink").run(account)
    with pytest.raises(ActionFailed, match="unknown operation"):
        account.call("drop_tables")


def test_seeded_environment_resets_to_its_seed_and_instances_are_separate() -> None:
    first = ServicesEnvironment(seed=[s.add_contact(name="Ada"), s.set_today(date="2025-01-02")])
    second = ServicesEnvironment()
    with first, second:
        mine = {f"reef-services-{e.server.port}" for e in (first, second) if e.server}
        assert mine <= set(service_threads())
        assert first.url != second.url and first.client.token != second.client.token
        s.add_contact(name="Bob").run(first)
        assert [c["name"] for c in first.rows("contacts")] == ["Ada", "Bob"]
        assert second.rows("contacts") == []
        first.reset()
        assert [c["name"] for c in first.rows("contacts")] == ["Ada"]
        assert first.client.settings()["now"] == "2025-01-02T09:00"
        assert second.client.settings()["now"] == "2024-06-03T09:00"
        # One server's token does not open the other.
        other = {"Authorization": f"Bearer {first.client.token}"}
        assert _status(second.url + "/internal/health", other) == 403
        assert first.health() and second.health()
    assert not first.health() and not mine & set(service_threads())


def test_stop_releases_the_port_and_the_thread() -> None:
    server = ServicesServer()
    server.start()
    url, thread = server.url, f"reef-services-{server.port}"
    assert thread in service_threads()
    server.stop()
    assert thread not in service_threads()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "/login", timeout=2)
    with pytest.raises(EnvironmentFailure, match="not running"):
        _ = server.url


def test_attaching_to_a_running_server() -> None:
    with ServicesServer() as server:
        env = ServicesEnvironment(url=server.url, token=server.token)
        with env:
            s.add_task(title="Shared").run(env)
        assert json.dumps(server.store.dump("tasks") if server.store else []).count("Shared") == 1
    with pytest.raises(ConfigError, match="both url= and token="):
        ServicesEnvironment(url="http://127.0.0.1:1")


def test_share_links_work_without_login(account: ServicesEnvironment) -> None:
    s.add_file(path="Docs/plan.txt", content="the plan").run(account)
    item = next(f for f in account.rows("files") if f["name"] == "plan.txt")
    assert _status(f"{account.url}/share/doesnotexist") == 404
    with account.server.store.write() as db:  # type: ignore[union-attr]
        db.execute("UPDATE files SET share_token = 'tok' WHERE id = ?", (item["id"],))
    with urllib.request.urlopen(f"{account.url}/share/tok") as response:
        assert response.read() == b"the plan"
