"""The services as a reefbench environment: seeded by setup actions, read by evaluators.

A :class:`ServicesEnvironment` owns a :class:`~reefbench.envs.services.server.ServicesServer` (or
attaches to one already running, given its URL and token) and talks to it only through the
token-protected internal API, so setup actions and evaluators work the same whether the
server runs in this process or elsewhere. Its action space is empty: agents use the apps
through a phone or desktop browser; this environment is where tasks seed and check the
account those devices share.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterable
from typing import Any

from reefbench.actions.spec import Action
from reefbench.environments.contract import Environment
from reefbench.envs.accounts import account_of
from reefbench.envs.services import changes
from reefbench.envs.services.attribution import DESKTOP
from reefbench.envs.services.changes import Tables
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.envs.services.server import ServicesServer
from reefbench.errors import ActionFailed, ConfigError, EnvironmentFailure
from reefbench.tasks.sideeffects import Change
from reefbench.tasks.worldtime import ClockListener, WorldClock

DESCRIPTION = (
    "The user's cloud account (mail, calendar, contacts, tasks, notes, files, messages, "
    "maps, clock), shared by the phone and the computer. Open it in a browser on either "
    "device; what one device changes, the other sees."
)


WORLD_BUILD_TIMEOUT = 120.0
# Internal operations that may move the account's clock (reefbench.envs.services.settings).
CLOCK_OPERATIONS = frozenset({"set_now", "set_today", "set_setting"})


class ServicesClient:
    """Calls the internal API of a running services server (JSON over loopback HTTP)."""

    def __init__(self, url: str, token: str, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(
        self, method: str, path: str, payload: Any = None, timeout: float | None = None
    ) -> Any:
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            detail = _detail(exc)
            if exc.code in (401, 403):
                raise EnvironmentFailure(f"services rejected the token: {detail}") from None
            if exc.code in (404, 422):
                raise ActionFailed(detail) from None
            raise EnvironmentFailure(f"services answered {exc.code} to {path}: {detail}") from None
        except OSError as exc:
            raise EnvironmentFailure(f"cannot reach the services at {self.url}: {exc}") from None

    def call(self, operation: str, **arguments: Any) -> Any:
        """Run one named write operation (add_contact, set_now, ...); returns its result."""
        return self.request("POST", f"/internal/ops/{operation}", arguments)["result"]

    def rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of a table; blobs come back as bytes."""
        rows: list[dict[str, Any]] = self.request("GET", f"/internal/tables/{table}")
        for row in rows:
            for key, value in row.items():
                if isinstance(value, dict) and set(value) == {"base64"}:
                    row[key] = base64.b64decode(value["base64"])
        return rows

    def settings(self) -> dict[str, str]:
        return {row["key"]: row["value"] for row in self.rows("settings")}

    def reset(self) -> None:
        self.request("POST", "/internal/reset", {})

    def load_world(self, seed: int) -> dict[str, Any]:
        """Replace the account with the seeded world ``seed``
        (:mod:`reefbench.envs.services.world`)."""
        # The first use of a seed builds it (a second or two, more on a busy machine);
        # every later one is a copy.
        result: dict[str, Any] = self.request(
            "POST", "/internal/world", {"seed": seed}, timeout=WORLD_BUILD_TIMEOUT
        )
        return result

    def snapshot(self) -> None:
        self.request("POST", "/internal/snapshot", {})

    def health(self) -> bool:
        try:
            return bool(self.request("GET", "/internal/health").get("ok"))
        except EnvironmentFailure:
            return False

    def session_cookie(self, client: str = DESKTOP) -> dict[str, str]:
        """A signed-in session cookie {name, value, url} for a browser (e.g. Playwright);
        the account attributes what it changes to ``client`` (phone, browser, desktop)."""
        cookie: dict[str, str] = self.request("POST", "/internal/session", {"client": client})
        return {**cookie, "url": self.url}

    def client_headers(self, client: str) -> dict[str, str]:
        """Headers a device's browser sends on every request so that signing in through
        the login form counts as ``client`` (a secret per client and server)."""
        key: dict[str, str] = self.request("POST", "/internal/client-key", {"client": client})
        return {key["header"]: key["value"]}


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(exc.read()).get("detail", exc.reason))
    except (ValueError, AttributeError):
        return str(exc.reason)


class ServicesEnvironment(Environment):
    """The shared account, as an environment tasks seed (setup actions) and check (evaluators).

    Args:
        name: Environment name used by tasks (``"services"``).
        description: Shown to agents.
        seed: Bound setup actions run once after start; their result is the state every
            :meth:`reset` returns to (tasks add their own data with setup actions).
        url: Attach to a server already running at this URL (needs ``token``) instead of
            starting one.
        token: The internal API token of that server.
        host: Interface of the owned server (loopback by default).
        port: Port of the owned server (0: any free port).
        username: Account login name (of the owned server).
        password: Account password (of the owned server).
        clock: What makes the owned server's account clock tick from each reset (a
            test's fake :class:`~reefbench.tasks.worldtime.WorldClock`; default: real seconds).
    """

    def __init__(
        self,
        name: str = "services",
        description: str = DESCRIPTION,
        seed: Iterable[Action] = (),
        url: str | None = None,
        token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        username: str = DEFAULT_USERNAME,
        password: str = DEFAULT_PASSWORD,
        clock: WorldClock | None = None,
    ) -> None:
        super().__init__(name, description)
        if (url is None) != (token is None):
            raise ConfigError("ServicesEnvironment: give both url= and token= to attach, or none")
        self.seed = list(seed)
        self.server = (
            None if url else ServicesServer(host, port, None, username, password, clock=clock)
        )
        self._url, self._token = url, token
        self.username, self.password = username, password
        self._client: ServicesClient | None = None
        self._listeners: list[ClockListener] = []

    @property
    def client(self) -> ServicesClient:
        if self._client is None:
            raise EnvironmentFailure(f"environment '{self.name}' is not started")
        return self._client

    @property
    def url(self) -> str:
        """Base URL of the apps (/, /mail, /calendar, ...)."""
        return self.client.url

    @property
    def credentials(self) -> dict[str, str]:
        """Login of the account (what CALL_USER answers when a task starts signed out)."""
        return {"username": self.username, "password": self.password}

    def session_cookie(self, client: str = DESKTOP) -> dict[str, str]:
        """A signed-in session cookie for a browser (the device :class:`Account` protocol);
        what it changes is attributed to ``client``."""
        return self.client.session_cookie(client)

    def client_headers(self, client: str) -> dict[str, str]:
        """Headers that make the login form's sessions count as ``client`` (``Account``)."""
        return self.client.client_headers(client)

    def settings(self) -> dict[str, str]:
        """The account's settings (``now`` is its clock)."""
        return self.client.settings()

    def call(self, operation: str, **arguments: Any) -> Any:
        result = self.client.call(operation, **arguments)
        if operation in CLOCK_OPERATIONS:
            self.clock_changed()
        return result

    def load_world(self, seed: int) -> dict[str, Any]:
        """Replace the account with the seeded world ``seed``; the devices follow its clock."""
        result = self.client.load_world(seed)
        self.clock_changed()
        return result

    # ----------------------------------------------------------------- clock
    def clock(self) -> str:
        """The task's start time on the account's clock, ``YYYY-MM-DDTHH:MM``
        (:mod:`reefbench.tasks.worldtime`); the time its pages show ticks on from it."""
        return self.settings()["now"]

    def follow_clock(self, listener: ClockListener) -> None:
        """Call ``listener(now)`` now and whenever the account's clock changes (a reset, a
        seeded world, ``set_now``), so that a device shows the task's world time."""
        if listener not in self._listeners:
            self._listeners.append(listener)
        if self._client is not None:
            listener(self.clock())

    def clock_changed(self) -> None:
        """Tell the devices that follow the clock its value (after a reset or a write that
        may have moved it); each redraws only if it shows another time."""
        if not self._listeners:
            return
        now = self.clock()
        for listener in list(self._listeners):
            listener(now)

    def rows(self, table: str) -> list[dict[str, Any]]:
        return self.client.rows(table)

    def on_start(self) -> None:
        if self.server is not None:
            self.server.start()
            self._client = ServicesClient(self.server.url, self.server.token)
        else:
            assert self._url is not None and self._token is not None
            self._client = ServicesClient(self._url, self._token)
        for step in self.seed:
            step.run(self)
        self._client.snapshot()
        self.clock_changed()

    def on_reset(self) -> None:
        self.client.reset()
        self.clock_changed()

    def on_state_snapshot(self) -> Tables:
        return changes.snapshot(self.rows)

    def on_state_changes(self, before: Tables) -> list[Change]:
        return changes.changes(before, changes.snapshot(self.rows))

    def on_state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        """The account's rows each key names, as :mod:`.changes` names them."""
        return {k: changes.fingerprint(self.rows, k) for k in keys if k.startswith("account|")}

    def on_stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self._client = None

    def on_health(self) -> bool:
        return self._client is not None and self._client.health()


def services_of(env: Environment) -> ServicesEnvironment:
    """The services environment an action runs against: ``env`` itself, or the account of
    a device that signs in to it (:class:`~reefbench.envs.accounts.HasAccount`).

    Devices that own the account (a phone environment, say) expose it as ``.services`` so
    the same setup actions and evaluators work when routed to them.

    Raises:
        WrongEnvironment: ``env`` has no such account.
    """
    return account_of(env, ServicesEnvironment)
