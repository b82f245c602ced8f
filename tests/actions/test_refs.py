"""References name actions only inside modules known to define them, checked before import."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import reefbench
from reefbench.actions.refs import (
    ACTION_MODULES_VARIABLE,
    BUILTIN_ACTION_MODULES,
    _trusted,
    allow_action_modules,
    resolve_ref,
)
from reefbench.actions.spec import Action
from reefbench.errors import ConfigError
from reefbench.tasks.taskfile import task_from_dict

# Modules that must not be imported just to list what the package defines: they run a
# program (the CLI entry point, the sandbox's init, the accessibility reader).
_PROGRAMS = ("__main__", "_sandbox_init", "_a11y_reader")

SIDE_EFFECT_MODULE = '''
import pathlib
pathlib.Path({marker!r}).write_text("imported")

from reefbench import evaluator

@evaluator
def always(env=None) -> bool:
    """Holds."""
    return True
'''


@pytest.fixture
def loud_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A package on sys.path whose import writes a marker file: a stand-in for any module
    with import-time effects (``this`` printing the Zen of Python, a CLI's ``main()``)."""
    name = f"loud_{tmp_path.name.replace('-', '_')}"
    marker = tmp_path / "imported.txt"
    package = tmp_path / "site" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "checks.py").write_text(SIDE_EFFECT_MODULE.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delenv(ACTION_MODULES_VARIABLE, raising=False)
    saved = set(_trusted)
    yield name, marker
    _trusted.clear()
    _trusted.update(saved)
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def _task(ref: str) -> dict[str, object]:
    return {
        "schema_version": 1,
        "id": "t",
        "instruction": "do it",
        "nodes": {"n": {"evaluator": ref}},
    }


def test_a_task_file_naming_an_unknown_module_is_refused_before_it_is_imported(
    loud_package: tuple[str, Path],
) -> None:
    name, marker = loud_package
    with pytest.raises(ConfigError, match=f"--allow-module {name}.checks"):
        task_from_dict(_task(f"{name}.checks:always"))
    assert not marker.exists(), "the module's import-time code ran"
    assert f"{name}.checks" not in sys.modules


def test_the_zen_of_python_is_not_printed_by_a_task_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    already = "this" in sys.modules
    with pytest.raises(ConfigError, match="not known to define actions"):
        task_from_dict(_task("this:s"))
    assert capsys.readouterr().out == ""
    assert ("this" in sys.modules) == already


@pytest.mark.parametrize(
    "ref",
    ["reefbench.cli.__main__:main", "reefbench.cli:main", "reefbench:__version__"],
)
def test_reefbench_modules_that_define_no_actions_are_refused(ref: str) -> None:
    with pytest.raises(ConfigError, match=r"not known to define|__main__"):
        resolve_ref(ref)


def test_trusted_packages_resolve_by_flag_variable_and_call(
    loud_package: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    name, marker = loud_package
    monkeypatch.setenv(ACTION_MODULES_VARIABLE, f"other, {name}")
    assert resolve_ref(f"{name}.checks:always").name == "always"
    assert marker.exists()
    monkeypatch.delenv(ACTION_MODULES_VARIABLE)
    # imported now and defining an evaluator: known without any trust setting
    assert resolve_ref(f"{name}.checks:always").name == "always"


def test_allow_action_modules_trusts_a_package_and_its_submodules(
    loud_package: tuple[str, Path],
) -> None:
    name, _ = loud_package
    with pytest.raises(ConfigError):
        resolve_ref(f"{name}.checks:always")
    allow_action_modules([name])
    assert resolve_ref(f"{name}.checks:always").name == "always"


@pytest.mark.parametrize("bad", ["", "a b", "pkg..mod", "pkg.__main__", "1pkg"])
def test_allow_action_modules_rejects_what_is_not_a_module_name(bad: str) -> None:
    if not bad:
        allow_action_modules([bad])  # blank entries are skipped
        return
    with pytest.raises(ConfigError):
        allow_action_modules([bad])


def test_the_built_in_allow_list_is_exactly_the_modules_that_define_actions() -> None:
    defining = set()
    for info in pkgutil.walk_packages(reefbench.__path__, "reefbench."):
        if info.name.rsplit(".", 1)[-1] in _PROGRAMS:
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Action) and value.func.__module__ == info.name:
                defining.add(info.name)
    assert defining == set(BUILTIN_ACTION_MODULES)


def test_importing_the_cli_main_module_starts_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import reefbench.cli.__main__"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_the_reef_command_trusts_a_package_given_with_allow_module(
    loud_package: tuple[str, Path], tmp_path: Path
) -> None:
    import json
    import os

    name, marker = loud_package
    task = tmp_path / "task.json"
    task.write_text(json.dumps(_task(f"{name}.checks:always")))
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    env.pop(ACTION_MODULES_VARIABLE, None)
    refused = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "tasks", "validate", str(task)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"--allow-module {name}.checks" in refused.stderr
    assert not marker.exists()
    allowed = subprocess.run(
        [
            sys.executable,
            "-m",
            "reefbench.cli",
            "--allow-module",
            name,
            "tasks",
            "validate",
            str(task),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert allowed.returncode == 0, allowed.stderr
    assert "1 task(s) valid" in allowed.stdout and marker.exists()


# ------------------------------------------------------------------ stable names
def test_a_stable_name_resolves_through_the_table() -> None:
    from reefbench.envs import memory

    assert resolve_ref("memory.file_exists") is memory.file_exists
    document = _task("memory.file_exists")
    document["nodes"] = {"n": {"evaluator": "memory.file_exists", "args": {"path": "a"}}}
    assert task_from_dict(document).nodes["n"].name == "file_exists"


@pytest.mark.parametrize(
    ("name", "closest"),
    [
        ("desktop.file_hold", "closest: desktop.file_holds"),
        ("file_holds", "closest: desktop.file_holds"),
        ("nothing.like.it", "the names are in reefbench/actions/names.py"),
        ("", "the names are in reefbench/actions/names.py"),
    ],
)
def test_an_unknown_stable_name_is_one_line_naming_the_closest(name: str, closest: str) -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_ref(name, "nodes.n.evaluator")
    message = str(caught.value)
    assert message.startswith(f"nodes.n.evaluator: '{name}' is not a stable name")
    assert closest in message and "\n" not in message


def test_a_legacy_reference_goes_through_the_alias_table_wherever_the_code_lives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """reef-v1's data names ``reefbench.suites.v0.helpers:file_holds``: it means the stable
    name ``desktop.file_holds``, so moving the function (its target in NAMES) moves the
    reference with it, and the old module path need not exist."""
    from reefbench.actions import names as action_names
    from reefbench.envs import memory

    legacy = "reefbench.suites.v0.helpers:file_holds"
    assert action_names.LEGACY_REFS[legacy] == "desktop.file_holds"
    monkeypatch.setitem(
        action_names.NAMES, "desktop.file_holds", "reefbench.envs.memory:file_contains"
    )
    assert resolve_ref(legacy) is memory.file_contains
    monkeypatch.setitem(action_names.LEGACY_REFS, "reefbench.gone.place:f", "memory.file_exists")
    assert resolve_ref("reefbench.gone.place:f") is memory.file_exists
