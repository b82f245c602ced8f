"""The phone shell's pages and API, answered in-process for the phone's own browser.

Why not an HTTP server: the phone's browser context routes ``<origin>/__phone/...`` to
:meth:`PhoneShell.handle` (Playwright request interception), so there is no port to bind,
no token to guard it, no process to stop, and nothing outside this browser context can
reach it. The origin is the services' own (``http://127.0.0.1:PORT``), which makes the
shell and the apps it frames same-origin: the session cookie flows into the app frame and
one DOM walk covers the shell and the app. A phone without services uses
``http://phone.invalid`` (a reserved name that never resolves).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from reefbench.envs.phone import pages
from reefbench.envs.phone.catalog import SHELL_PREFIX, PhoneApp, app_by_package
from reefbench.envs.phone.system import PhoneState
from reefbench.errors import ActionFailed

STATIC_DIR = Path(__file__).with_name("static")
_TYPES = {".css": "text/css", ".js": "text/javascript"}


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes

    @classmethod
    def html(cls, text: str, status: int = 200) -> Response:
        return cls(status, "text/html; charset=utf-8", text.encode("utf-8"))

    @classmethod
    def json(cls, value: object, status: int = 200) -> Response:
        return cls(status, "application/json", json.dumps(value).encode("utf-8"))


class PhoneShell:
    """Pages and API of the phone shell over one :class:`PhoneState`.

    Args:
        apps: The installed apps.
        state: The phone's state (shared with the environment).
        clock: Returns the phone's current time (``YYYY-MM-DDTHH:MM``).
    """

    def __init__(
        self, apps: Sequence[PhoneApp], state: Callable[[], PhoneState], clock: Callable[[], str]
    ) -> None:
        self.apps = tuple(apps)
        self.state = state
        self.clock = clock

    def handle(self, method: str, path: str, query: str = "", body: bytes = b"") -> Response:
        """Answer one request for ``path`` (with the ``/__phone`` prefix)."""
        if not path.startswith(SHELL_PREFIX + "/"):
            return Response.html("not a phone page", 404)
        route = path[len(SHELL_PREFIX) :]
        params = {k: v[0] for k, v in parse_qs(query).items()}
        if route.startswith("/static/"):
            return self._static(route[len("/static/") :])
        if route.startswith("/api/"):
            if method != "POST":
                return Response.json(self.state().as_json(self.clock()))
            return self._api(route[len("/api/") :], body)
        state, now = self.state(), self.clock()
        if route == "/shell":
            return Response.html(pages.shell_page(self.apps, state, now))
        if route == "/app/settings":
            return Response.html(pages.settings_page(state, now))
        if route == "/app/settings/name":
            return Response.html(pages.name_page(state))
        if route == "/app/dialer":
            tab = "recents" if params.get("tab") == "recents" else "keypad"
            return Response.html(pages.dialer_page(state, tab))
        if route == "/app/dialer/calling":
            return Response.html(pages.calling_page(state, params.get("number", "")))
        if route == "/app/appinfo":
            app = app_by_package(self.apps, params.get("pkg", ""))
            if app is not None:
                return Response.html(pages.app_info_page(state, app))
        return Response.html("<h1>Not found</h1>", 404)

    def _static(self, name: str) -> Response:
        target = (STATIC_DIR / name).resolve()
        if target.parent != STATIC_DIR.resolve() or not target.is_file():
            return Response.html("not found", 404)
        return Response(
            200, _TYPES.get(target.suffix, "application/octet-stream"), target.read_bytes()
        )

    def _api(self, name: str, body: bytes) -> Response:
        try:
            payload = json.loads(body or b"{}")
        except ValueError:
            return Response.json({"error": "the request body is not JSON"}, 400)
        if not isinstance(payload, dict):
            return Response.json({"error": "send a JSON object"}, 400)
        state = self.state()
        try:
            if name == "settings":
                state.set(str(payload.get("key", "")), payload.get("value"))
                return Response.json({"state": state.as_json(self.clock())})
            if name == "call":
                call = state.add_call(str(payload.get("number", "")), "outgoing", self.clock())
                return Response.json({"call": call, "state": state.as_json(self.clock())})
        except ActionFailed as exc:
            return Response.json({"error": str(exc)}, 422)
        return Response.json({"error": f"unknown phone API {name!r}"}, 404)
