"""Environment kinds by name, for ``reef serve-env KIND`` and run configurations.

Values are import references, resolved only when asked for, so naming the desktop kind
never imports Playwright and vice versa (and this module imports no kind: a reference is
not a dependency). ``module:factory`` is accepted as a kind too. A new kind is its own
folder under ``envs/`` plus one line here (see ``docs/extending/environment-kind.md``).
"""

from __future__ import annotations

import importlib
from typing import Any

from reefbench.environments.contract import Environment
from reefbench.errors import ConfigError

KINDS: dict[str, str] = {
    "memory": "reefbench.envs.memory:MemoryEnvironment",
    "desktop": "reefbench.envs.desktop:DesktopEnvironment",
    "browser": "reefbench.envs.browser:BrowserEnvironment",
    "phone": "reefbench.envs.phone:PhoneEnvironment",
    "android": "reefbench.envs.android:AndroidEnvironment",
    "services": "reefbench.envs.services:ServicesEnvironment",
}


def make_environment(kind: str, name: str | None = None, **options: Any) -> Environment:
    """Build an environment of ``kind`` (a registered name or ``module:factory``)."""
    ref = KINDS.get(kind, kind)
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise ConfigError(
            f"unknown environment kind '{kind}': use one of {', '.join(sorted(KINDS))} "
            "or 'package.module:factory'"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"environment kind '{kind}': cannot load {ref} ({exc})") from None
    env = factory(name, **options) if name else factory(**options)
    if not isinstance(env, Environment):
        raise ConfigError(f"environment kind '{kind}': {ref} did not return an Environment")
    return env
