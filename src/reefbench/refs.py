"""Import references (``package.module:name``) by which task files and remote clients name
actions and evaluators — resolved only inside modules known to define them.

A task file or a remote request is data, not code, so naming a module must never run it.
Importing a module runs its top level, and ``importlib`` cannot tell a module of actions
from one that starts a command line, prints, or opens a socket when imported. So the module
is checked against an allow-list *before* anything is imported:

* the modules of reefbench that define actions or evaluators (:data:`BUILTIN_ACTION_MODULES`,
  kept equal to what the package really defines by a test);
* modules that have already defined an action in this process (importing them again runs
  nothing), which is how tasks built in Python save and reload their own actions;
* packages the user trusts explicitly: ``--allow-module PKG`` on the command line, the run
  configuration's ``action_modules``, the ``REEF_ACTION_MODULES`` variable (comma
  separated), or :func:`allow_action_modules`. A trusted package covers its submodules.

Only then is the module imported, and the name must be an :class:`~reefbench.actions.Action`
made with ``@action``/``@evaluator``; nothing else is returned or called.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import Any

from reefbench.actions import DEFINING_MODULES, Action
from reefbench.errors import ConfigError

BUILTIN_ACTION_MODULES: frozenset[str] = frozenset(
    {
        "reefbench.agents.computer_use.base",  # switch_device, a tool native agents offer
        "reefbench.apps.evaluators",
        "reefbench.apps.seeding",
        "reefbench.envs.browser.actions",
        "reefbench.envs.desktop.actions",
        "reefbench.envs.desktop.evaluators",
        "reefbench.envs.desktop.office_evaluators",
        "reefbench.envs.desktop.session_evaluators",
        "reefbench.envs.desktop.setup",
        "reefbench.envs.memory",
        "reefbench.envs.phone.checks",
        "reefbench.envs.ui.actions",
        "reefbench.envs.ui.evaluators",
        "reefbench.root",
        "reefbench.suites.v0.helpers",
        "reefbench.suites.v0.photo_files",
        "reefbench.suites.v0.scans",
    }
)
"""reefbench's own modules that define actions or evaluators (exact names, not prefixes)."""

ACTION_MODULES_VARIABLE = "REEF_ACTION_MODULES"

_trusted: set[str] = set()


def allow_action_modules(packages: Iterable[str]) -> None:
    """Trust these packages (and their submodules) to define actions and evaluators.

    Raises:
        ConfigError: a name that is not a dotted module name.
    """
    for package in packages:
        package = package.strip()
        if package:
            _check_module_name(package, f"allowed module '{package}'")
            _trusted.add(package)


def is_allowed_module(module: str) -> bool:
    """Whether references may name ``module`` (decided without importing anything)."""
    if module in BUILTIN_ACTION_MODULES or module in DEFINING_MODULES:
        return True
    trusted = _trusted | {
        p.strip() for p in os.environ.get(ACTION_MODULES_VARIABLE, "").split(",") if p.strip()
    }
    return any(module == p or module.startswith(p + ".") for p in trusted)


def resolve_ref(ref: str, where: str = "reference") -> Action:
    """Return the action or evaluator that ``module:name`` names.

    Raises:
        ConfigError: one line saying what is wrong with the reference and how to fix it.
    """
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"{where}: '{ref}' is not of the form 'package.module:name'")
    _check_module_name(module_name, f"{where}: '{ref}'")
    if not all(part.isidentifier() for part in attr.split(".")):
        raise ConfigError(f"{where}: '{ref}': '{attr}' is not a Python name")
    if not is_allowed_module(module_name):
        raise ConfigError(
            f"{where}: module '{module_name}' is not known to define actions or evaluators; "
            f"if you trust it, allow it with --allow-module {module_name} "
            f"(or {ACTION_MODULES_VARIABLE}={module_name})"
        )
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # not found, or failing on import
            raise ConfigError(
                f"{where}: cannot import module '{module_name}' ({exc})".replace("\n", " ")
            ) from None
    target: Any = module
    for part in attr.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise ConfigError(f"{where}: module '{module_name}' has no '{attr}'")
    if not isinstance(target, Action):
        raise ConfigError(
            f"{where}: '{ref}' is {type(target).__name__}, not an action "
            "or evaluator made with @action/@evaluator"
        )
    return target


def _check_module_name(module: str, where: str) -> None:
    parts = module.split(".")
    if not all(part.isidentifier() for part in parts):
        raise ConfigError(f"{where}: '{module}' is not a dotted module name")
    if "__main__" in parts:  # a program's entry point, never a module of actions
        raise ConfigError(f"{where}: '{module}' names a __main__ module")
