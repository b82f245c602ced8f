"""The account a device signs in to: all the browser and the phone need of the services.

Devices depend on this small protocol, not on :mod:`reefbench.envs.services`, so the two packages
stay side by side: the local services (:class:`~reefbench.envs.services.ServicesEnvironment`)
satisfy it structurally, and so can any other account a device should open signed in.

Actions and evaluators over an account run against the account's own environment or
against a device that signs in to it (:class:`HasAccount`); :func:`account_of` finds the
account either way, with one error when there is none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from reefbench.errors import WrongEnvironment

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

AccountT = TypeVar("AccountT")


class Account(Protocol):
    """A running web account: where it is, how to be signed in, and its settings."""

    @property
    def started(self) -> bool:
        """Whether :meth:`start` has brought it up."""
        ...

    @property
    def url(self) -> str:
        """Base URL of its apps (``http://127.0.0.1:PORT``); valid once started."""
        ...

    def start(self) -> None:
        """Bring the account up; idempotent (a device starting first calls it)."""

    def session_cookie(self, client: str) -> dict[str, str]:
        """A signed-in session cookie ``{name, value, url}`` for a browser context.

        ``client`` names the device (``"phone"``, ``"browser"``): the account records it
        with every change the session makes, so checkpoints can tell devices apart.
        """
        ...

    def client_headers(self, client: str) -> dict[str, str]:
        """Headers the device's browser context sends on every request, so that signing
        in again through the account's login form still counts as ``client``."""
        ...

    def settings(self) -> dict[str, str]:
        """The account's settings (``now``: its clock as ``YYYY-MM-DDTHH:MM``)."""
        ...

    def follow_clock(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(now)`` at once and whenever the account's clock (the task's
        world time, :mod:`reefbench.tasks.worldtime`) changes: the device then shows it."""


def sign_in_context(context: BrowserContext, account: Account, client: str) -> None:
    """Sign a Chromium context in to ``account`` as ``client`` (a session cookie) and keep
    it recognised as that client when it signs in again (the client's key on every
    request): the account attributes every change to the client that made it."""
    context.set_extra_http_headers(account.client_headers(client))
    context.add_cookies([account.session_cookie(client)])  # type: ignore[list-item]


@runtime_checkable
class HasAccount(Protocol):
    """A device that signs in to an account (the desktop, the browser, the phone).

    ``services`` is the account, or None when the device runs without one. Account actions
    and evaluators routed to such a device act on its account, so a task can seed mail
    "on the phone" and check it there without naming the account's environment.
    """

    services: Account | None


def account_of(env: object, kind: type[AccountT]) -> AccountT:
    """The account of class ``kind`` an action runs against: ``env`` itself when it is one,
    else the account of a device that has one (:class:`HasAccount`).

    Raises:
        WrongEnvironment: ``env`` is neither a ``kind`` nor a device signed in to one.
    """
    if isinstance(env, kind):
        return env
    if isinstance(env, HasAccount) and isinstance(env.services, kind):
        return env.services
    raise WrongEnvironment(
        f"this action needs a {kind.__name__} (or a device with .services), "
        f"got {type(env).__name__}"
    )
