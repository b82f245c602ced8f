"""Finding the account an account action runs against (:func:`account_of`).

Account actions and evaluators take any environment and run against the account itself
or the account of a device signed in to it; anything else fails with one message that
names what was expected and what was given.
"""

from __future__ import annotations

import pytest

from reefbench.envs.accounts import HasAccount, account_of
from reefbench.errors import WrongEnvironment


class _Account:
    """Stands for an account's environment (the services); only its class matters here."""


class _Device:
    def __init__(self, services: object) -> None:
        self.services = services


def test_an_account_is_its_own_account() -> None:
    account = _Account()
    assert account_of(account, _Account) is account


def test_a_device_signed_in_gives_its_account() -> None:
    account = _Account()
    device = _Device(account)
    assert isinstance(device, HasAccount)
    assert account_of(device, _Account) is account


@pytest.mark.parametrize("env", [_Device(None), _Device("not an account"), object()])
def test_anything_else_fails_with_one_message(env: object) -> None:
    expected = (
        f"this action needs a _Account (or a device with .services), got {type(env).__name__}"
    )
    with pytest.raises(WrongEnvironment) as caught:
        account_of(env, _Account)
    assert str(caught.value) == expected


def test_services_of_keeps_its_message() -> None:
    pytest.importorskip("fastapi")
    from reefbench.envs.memory import MemoryEnvironment
    from reefbench.envs.services.environment import services_of

    with pytest.raises(WrongEnvironment) as caught:
        services_of(MemoryEnvironment())
    assert str(caught.value) == (
        "this action needs a ServicesEnvironment (or a device with .services), "
        "got MemoryEnvironment"
    )


def test_the_devices_that_sign_in_have_an_account() -> None:
    """The browser and the phone satisfy the protocol as they are (nothing registers)."""
    pytest.importorskip("playwright")
    from reefbench.envs.browser import BrowserEnvironment
    from reefbench.envs.phone import PhoneEnvironment

    account = _Account()
    for device in (BrowserEnvironment(), PhoneEnvironment(services=account)):  # type: ignore[arg-type]
        assert isinstance(device, HasAccount)
    assert account_of(PhoneEnvironment(services=account), _Account) is account  # type: ignore[arg-type]
