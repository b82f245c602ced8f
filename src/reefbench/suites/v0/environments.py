"""The environments reef-v0 runs in: the account, a desktop, a phone and a browser.

One :class:`~reefbench.apps.ServicesEnvironment` owns the account; the phone and the
browser sign in to it, and the desktop's sandbox reaches its port through the relay. Every
device resets lazily: a reset is skipped when nothing acted on the device since the last
one (observing and evaluating change nothing), so a desktop-only task does not pay for
restarting the phone and the browser. The account always resets (a few milliseconds):
any device may have changed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reefbench.environment import Environment

DESKTOP, PHONE, BROWSER, SERVICES = "desktop", "phone", "browser", "services"


class _LazyReset:
    """Mixin: remember whether anything acted on the environment since its last reset."""

    _dirty = True

    def reset(self) -> None:
        env: Any = self
        if self._dirty or not env.health():
            super().reset()  # type: ignore[misc]
            self._dirty = False
        else:
            env.action_log.clear()

    def step(self, action: Any, arguments: Mapping[str, Any] | None = None) -> Any:
        self._dirty = True
        return super().step(action, arguments)  # type: ignore[misc]

    def execute(self, action: Any) -> Any:
        self._dirty = True
        return super().execute(action)  # type: ignore[misc]

    def stop(self) -> None:
        self._dirty = True
        super().stop()  # type: ignore[misc]


def make_environments() -> dict[str, Environment]:
    """Fresh, unstarted devices around a started account (its port is needed up front)."""
    from reefbench.apps import ServicesEnvironment
    from reefbench.envs.browser import BrowserEnvironment
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.phone import PhoneEnvironment

    class LazyDesktop(_LazyReset, DesktopEnvironment):
        pass

    class LazyPhone(_LazyReset, PhoneEnvironment):
        pass

    class LazyBrowser(_LazyReset, BrowserEnvironment):
        pass

    services = ServicesEnvironment(SERVICES)
    services.start()
    try:
        port = int(services.url.rsplit(":", 1)[1])
        return {
            SERVICES: services,
            DESKTOP: LazyDesktop(DESKTOP, ports=[port]),
            PHONE: LazyPhone(PHONE, services=services),
            BROWSER: LazyBrowser(BROWSER, services=services),
        }
    except BaseException:
        services.stop()
        raise
