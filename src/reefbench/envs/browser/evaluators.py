"""Evaluators over the browser's own session (not the account's data, which the account's
evaluators read: :mod:`reefbench.envs.services.evaluators` with ``by="browser"``).

The setup action that undoes what these check (signing out) is
:func:`reefbench.envs.browser.actions.sign_out_browser`.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.browser.device import BrowserDevice


def _session_keys(**_: Any) -> list[str]:
    return ["session:"]


@evaluator(governs=_session_keys)
def browser_signed_in(env: BrowserDevice) -> EvalResult:
    """The browser holds a signed-in session of the account (not on the sign-in page)."""
    cookies = env.context.cookies() if env.context is not None else []
    on_login = "/login" in env.page.url
    ok = bool(cookies) and not on_login
    return EvalResult(success=ok, message="signed in" if ok else "not signed in")
