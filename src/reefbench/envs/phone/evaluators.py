"""Evaluators over the phone's own state (settings, call log); its setup actions are
:mod:`reefbench.envs.phone.actions`.

Screen-level checks (what is shown, which app is in front) are the shared XML evaluators
of :mod:`reefbench.envs.ui.evaluators`; these read the state behind the screen, so they
hold whether or not the Settings app is open. Route them with ``.on("phone")``.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.phone.environment import PhoneEnvironment


def _setting_keys(key: str, **_: Any) -> list[str]:
    return [f"phone-setting:{key}"]


def _call_keys(number: str, **_: Any) -> list[str]:
    return ["calls:" + "".join(ch for ch in number if ch.isdigit())]


@evaluator(governs=_setting_keys)
def phone_setting_is(key: str, value: str, env: PhoneEnvironment) -> EvalResult:
    """A phone setting has a value ("on"/"off" for switches, text compared ignoring case).

    Args:
        key: The setting (wifi, bluetooth, airplane_mode, dark_mode, do_not_disturb,
            bluetooth_name).
        value: The expected value.
    """
    current = env.state.settings.get(key)
    if current is None:
        return EvalResult(success=False, message=f"the phone has no setting {key!r}")
    if isinstance(current, bool):
        shown = "on" if current else "off"
        ok = shown == value.strip().lower() or str(current).lower() == value.strip().lower()
    else:
        shown = current
        ok = " ".join(current.split()).casefold() == " ".join(value.split()).casefold()
    return EvalResult(success=ok, message=f"{key} is {shown!r}")


@evaluator(governs=_call_keys)
def call_made(number: str, env: PhoneEnvironment) -> EvalResult:
    """The phone called this number (digits compared; "+1 555-0100" matches "15550100").

    Args:
        number: The number that must have been dialled.
    """
    wanted = "".join(ch for ch in number if ch.isdigit())
    calls = [c for c in env.state.calls if c["kind"] == "outgoing"]
    for call in calls:
        if "".join(ch for ch in call["number"] if ch.isdigit()) == wanted:
            return EvalResult(success=True, message=f"called {call['number']}")
    made = ", ".join(c["number"] for c in calls) or "none"
    return EvalResult(success=False, message=f"no call to {number} (calls made: {made})")
