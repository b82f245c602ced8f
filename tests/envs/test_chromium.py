"""The browser and the phone launch Chromium and open its contexts through one module.

Both kinds used to repeat the context code (options, init scripts, signing in to the
account); these tests pin what each now asks of :mod:`reefbench.envs.chromium`, without
starting a browser: a fake Playwright driver records the launch and the context.
"""

from __future__ import annotations

from typing import Any

import pytest

from reefbench.envs import chromium
from reefbench.envs.chromium import BASE_ARGS, Chromium
from reefbench.errors import EnvironmentFailure


class _Context:
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.calls: list[tuple[str, Any]] = []

    def add_init_script(self, script: str) -> None:
        self.calls.append(("init_script", script))

    def set_extra_http_headers(self, headers: dict[str, str]) -> None:
        self.calls.append(("headers", headers))

    def add_cookies(self, cookies: list[dict[str, str]]) -> None:
        self.calls.append(("cookies", cookies))


class _Browser:
    def __init__(self) -> None:
        self.contexts: list[_Context] = []

    def new_context(self, **options: Any) -> _Context:
        self.contexts.append(_Context(options))
        return self.contexts[-1]


class _Driver:
    """Stands for Playwright: ``driver.chromium.launch(**kwargs)`` is recorded."""

    def __init__(self) -> None:
        self.chromium = self
        self.launches: list[dict[str, Any]] = []

    def launch(self, **kwargs: Any) -> _Browser:
        self.launches.append(kwargs)
        return _Browser()


class _Account:
    url = "http://127.0.0.1:1"

    def client_headers(self, client: str) -> dict[str, str]:
        return {"X-Client": client}

    def session_cookie(self, client: str) -> dict[str, str]:
        return {"name": "s", "value": client, "url": self.url}


@pytest.fixture
def driver(monkeypatch: pytest.MonkeyPatch) -> _Driver:
    fake = _Driver()
    monkeypatch.setattr(chromium, "acquire_playwright", lambda: fake)
    monkeypatch.setattr(chromium, "release_playwright", lambda: None)
    monkeypatch.setattr(chromium, "find_marked", lambda marker: None)
    monkeypatch.setattr(chromium, "chromium_executable", lambda: "/usr/bin/chromium")
    return fake


def test_a_context_gets_its_options_init_scripts_and_sign_in(driver: _Driver) -> None:
    browser = Chromium()
    browser.start()
    context: Any = browser.new_context(
        "phone 'p'",
        init_scripts=("first()", "second()"),
        account=_Account(),  # type: ignore[arg-type]
        client="phone",
        viewport={"width": 1, "height": 2},
        is_mobile=True,
    )
    assert context.options == {"viewport": {"width": 1, "height": 2}, "is_mobile": True}
    assert context.calls == [
        ("init_script", "first()"),
        ("init_script", "second()"),
        ("headers", {"X-Client": "phone"}),
        ("cookies", [{"name": "s", "value": "phone", "url": "http://127.0.0.1:1"}]),
    ]


def test_without_an_account_nothing_signs_in(driver: _Driver) -> None:
    browser = Chromium()
    browser.start()
    context: Any = browser.new_context("browser 'b'", init_scripts=("x()",))
    assert context.calls == [("init_script", "x()")]


def test_a_context_of_a_browser_not_started_names_its_device() -> None:
    with pytest.raises(EnvironmentFailure, match=r"^phone 'p' is not started$"):
        Chromium().new_context("phone 'p'")


def test_the_browser_and_the_phone_launch_chromium_alike(driver: _Driver) -> None:
    pytest.importorskip("playwright")
    from reefbench.envs.browser.device import BrowserDevice
    from reefbench.envs.phone.environment import PhoneEnvironment

    for device in (BrowserDevice(), PhoneEnvironment()):
        assert type(device.chromium) is Chromium
        device.chromium.start()
    browser, phone = driver.launches
    for launch in (browser, phone):
        assert launch["executable_path"] == "/usr/bin/chromium"
        assert launch["headless"] is True
        assert launch["args"][: len(BASE_ARGS)] == list(BASE_ARGS)
        assert launch["args"][-1].startswith("--reef-instance=")
    # The phone keeps its one renderer per device; nothing else differs.
    assert browser["args"][len(BASE_ARGS) : -1] == []
    assert phone["args"][len(BASE_ARGS) : -1] == ["--disable-site-isolation-trials"]
