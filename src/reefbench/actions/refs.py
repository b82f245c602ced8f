"""References by which task files and remote clients name actions and evaluators: a stable
name (``desktop.file_holds``) for reefbench's own, ``package.module:name`` for anyone's.

reefbench's own actions and evaluators have stable names (:mod:`reefbench.actions.names`),
and task files write those: a frozen benchmark must survive its code moving. A reference
without ``:`` is such a name, looked up in that table. A ``module:name`` reference that
reef-v1's data wrote before stable names resolves through the table's legacy aliases, so
the data loads unchanged wherever its functions live now.

User suites keep naming their own actions by import reference (``mypkg.checks:done``),
trusted as below; the table of stable names is closed (no run-time registration), so a
frozen file means the same whichever user code was imported before it loaded, and no user
module can take a built-in name. Only reefbench's own module paths are refused when a suite
is frozen (:func:`is_reefbench_ref`): they are the ones reefbench's refactorings move.

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

Only then is the module imported, and the name must be an :class:`~reefbench.actions.spec.Action`
made with ``@action``/``@evaluator``; nothing else is returned or called.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any

from reefbench.actions.spec import DEFINING_MODULES, Action
from reefbench.errors import ConfigError

BUILTIN_ACTION_MODULES: frozenset[str] = frozenset(
    {
        "reefbench.agents.computer_use.base",  # switch_device, a tool native agents offer
        "reefbench.envs.services.evaluators",
        "reefbench.envs.services.seeding",
        "reefbench.benchmark.checks",
        "reefbench.benchmark.odd_states",
        "reefbench.benchmark.photo_files",
        "reefbench.benchmark.pixel_images",
        "reefbench.benchmark.scans",
        "reefbench.envs.browser.actions",
        "reefbench.envs.browser.evaluators",
        "reefbench.envs.desktop.actions",
        "reefbench.envs.desktop.calc_analysis_evaluators",
        "reefbench.envs.desktop.calc_clean_evaluators",
        "reefbench.envs.desktop.calc_evaluators",
        "reefbench.envs.desktop.calc_ledger_evaluators",
        "reefbench.envs.desktop.calc_rule_evaluators",
        "reefbench.envs.desktop.evaluators",
        "reefbench.envs.desktop.impress_media_evaluators",
        "reefbench.envs.desktop.office_evaluators",
        "reefbench.envs.desktop.office_text_evaluators",
        "reefbench.envs.desktop.session_evaluators",
        "reefbench.envs.desktop.setup",
        "reefbench.envs.desktop.writer_contract_evaluators",
        "reefbench.envs.desktop.writer_layout_evaluators",
        "reefbench.envs.desktop.writer_notes_evaluators",
        "reefbench.envs.memory",
        "reefbench.envs.phone.actions",
        "reefbench.envs.phone.evaluators",
        "reefbench.envs.ui.actions",
        "reefbench.envs.ui.evaluators",
        "reefbench.environments.root",
    }
)
"""reefbench's own modules that define actions or evaluators (exact names, not prefixes)."""

ACTION_MODULES_VARIABLE = "REEF_ACTION_MODULES"


# The table of names is read when a reference is first resolved or written, not when
# `import reefbench` loads this module (it is data about every environment kind).
@cache
def _name_of() -> dict[str, str]:
    """Import reference (``module:qualname``, as ``Action.ref`` gives it) -> stable name."""
    from reefbench.actions.names import NAMES

    return {target: name for name, target in NAMES.items()}


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
    """Return the action or evaluator that ``ref`` names: a stable name
    (``area.function``) or an import reference (``package.module:name``).

    Raises:
        ConfigError: one line saying what is wrong with the reference and how to fix it.
    """
    from reefbench.actions.names import LEGACY_REFS

    if ":" not in ref:
        return _resolve_name(ref, where)
    legacy = LEGACY_REFS.get(ref)
    if legacy is not None:  # written by reef-v1's data: the function may live elsewhere now
        return _resolve_name(legacy, where)
    return _import_ref(ref, where)


def target_module(ref: str) -> str | None:
    """The module ``ref`` resolves into, found without importing anything: a stable
    name's and a legacy reference's target, or an import reference's own module;
    ``None`` for a stable name that does not exist."""
    from reefbench.actions.names import LEGACY_REFS, NAMES

    name = LEGACY_REFS.get(ref, ref) if ":" in ref else ref
    target = NAMES.get(name) if ":" not in name else name
    return None if target is None else target.partition(":")[0]


def stable_name(action: Action) -> str | None:
    """The stable name of one of reefbench's actions (``None``: it has none)."""
    return _name_of().get(action.ref)


def written_ref(action: Action) -> str:
    """What a task file writes for ``action``: its stable name, else its import reference."""
    return _name_of().get(action.ref, action.ref)


def is_reefbench_ref(ref: str) -> bool:
    """Whether ``ref`` is an import reference into reefbench itself (which moves)."""
    module = ref.partition(":")[0] if ":" in ref else ""
    return module == "reefbench" or module.startswith("reefbench.")


def _resolve_name(name: str, where: str) -> Action:
    from reefbench.actions.names import NAMES

    target = NAMES.get(name)
    if target is None:
        raise ConfigError(f"{where}: {_unknown_name(name)}")
    return _import_ref(target, where)


def _unknown_name(name: str) -> str:
    from reefbench.actions.names import NAMES

    function = name.rpartition(".")[2]
    same = [n for n in NAMES if n.rpartition(".")[2] == function]
    close = difflib.get_close_matches(name, NAMES, n=3, cutoff=0.6)
    closest = list(dict.fromkeys([*same, *close]))[:3]
    hint = (
        f"closest: {', '.join(closest)}"
        if closest
        else "the names are in reefbench/actions/names.py"
    )
    return (
        f"'{name}' is not a stable name of an action or evaluator ({hint}); "
        "name your own as 'package.module:name'"
    )


def _import_ref(ref: str, where: str) -> Action:
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
