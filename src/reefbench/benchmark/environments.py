"""The environments reef-v0 runs in: the account, a desktop, a phone and a browser.

One :class:`~reefbench.envs.services.ServicesEnvironment` owns the account; the phone and the
browser sign in to it, and the desktop's sandbox reaches its port through the relay. The
browser is the computer's: its downloads are saved in the desktop's ``~/Downloads`` and its
file choosers open the desktop's files (:mod:`reefbench.envs.filetransfer`). Every
device resets lazily (``lazy_reset=True`` of the environment contract): a reset is skipped
when nothing acted on the device since the last one, so a desktop-only task does not pay
for restarting the phone and the browser. The account always resets (a few milliseconds):
any device may have changed it.
"""

from __future__ import annotations

from reefbench.environments.contract import Environment

DESKTOP, PHONE, BROWSER, SERVICES = "desktop", "phone", "browser", "services"


def make_environments() -> dict[str, Environment]:
    """Fresh, unstarted devices around a started account (its port is needed up front)."""
    from reefbench.envs.browser import BrowserEnvironment
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.phone import PhoneEnvironment
    from reefbench.envs.services import ServicesEnvironment

    services = ServicesEnvironment(SERVICES)
    services.start()
    try:
        port = int(services.url.rsplit(":", 1)[1])
        # Every device follows the account's clock: one world time per task.
        desktop = DesktopEnvironment(DESKTOP, ports=[port], lazy_reset=True, services=services)
        return {
            SERVICES: services,
            DESKTOP: desktop,
            PHONE: PhoneEnvironment(PHONE, services=services, lazy_reset=True),
            # The computer's browser: its downloads land in the desktop's ~/Downloads and
            # its file choosers open the desktop's files.
            BROWSER: BrowserEnvironment(
                BROWSER, services=services, lazy_reset=True, computer=desktop
            ),
        }
    except BaseException:
        services.stop()
        raise
