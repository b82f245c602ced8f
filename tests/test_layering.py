"""The packages depend on each other in one direction, with no circles.

Every ``import`` in ``src/reefbench`` is read with :mod:`ast`, including the ones inside
functions and under ``TYPE_CHECKING`` (a type is a dependency too). Each module belongs to
a *component*: the top-level package it is in (``reefbench.tasks.graph`` is in ``tasks``),
an environment kind or a suite package on its own, ``errors`` for ``reefbench.errors`` and
``reefbench`` for the public API (``__init__.py``). :data:`ALLOWED` says which components a
component may import from. It is the table of ``docs/architecture.md``: change both
together.

An environment kind that is not listed (a new ``envs/<kind>/`` folder) gets the default
rule of a kind, so adding one needs no change here.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[1] / "src" / "reefbench"

# Entry points: they may import anything below them.
TOP = {"reefbench.cli", "reefbench.host.doctor"}

# The core, what `import reefbench` loads, is grouped by purpose into packages that form a
# ladder: each may import the ones below it, never one above.
# Below everything: the errors, mechanics with no benchmark concept, the host's programs.
BASE = frozenset({"errors", "plumbing", "host"})
CORE = BASE | {"actions", "tasks", "environments", "episodes"}
# The default rule of an environment kind (an environment may read office documents). A
# kind knows no episode; `reefbench` itself is read for its `__version__`.
KIND = BASE | {"actions", "tasks", "environments", "perception", "documents", "envs", "reefbench"}
ALLOWED: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "plumbing": frozenset({"errors"}),  # waiting, serving an ASGI app, reading user files
    "host": frozenset({"errors"}),  # the programs this machine needs (`reef doctor` is top)
    "actions": BASE,  # actions, evaluators, action sets, stable names, references
    "tasks": BASE | {"actions"},  # tasks, the graph, templates, task files, the world clock
    "environments": BASE | {"actions", "tasks"},  # the contract, root, pointer, grounding
    "episodes": BASE | {"actions", "tasks", "environments"},  # episode, protocol, metrics
    "reefbench": CORE,  # the public API (__init__.py)
    "perception": BASE,  # images, Set-of-Marks, OCR
    "log": CORE,
    "compose": BASE | {"actions", "tasks"},
    "documents": BASE,  # office document readers, a library
    # Shared environment pieces: /proc helpers, the account protocol, the in-memory
    # reference device, the registry of kinds (by import reference, not by import).
    "envs": KIND,
    "envs.phone": KIND | {"envs.browser", "envs.ui"},  # Chromium in mobile emulation
    "envs.android": KIND | {"envs.ui"},
    # The services kind (the local cloud account) is a kind like the others: envs.services.
    "agents": CORE | {"perception"},
    # Releases: the table of suites (code named by reference, not imported), frozen data.
    "suites": CORE | {"compose", "envs"},
    # The benchmark's source (templates, handmade tasks, worlds, shared checks); it writes
    # office documents in odd states through the document library (benchmark/odd_states.py).
    "benchmark": CORE | {"compose", "documents", "envs.*", "suites"},
    # Gates, lint and device phrases, for any suite with a pool.
    "validation": CORE | {"compose", "envs.*", "agents", "benchmark"},
    # reef-v1 loads frozen data; only its freeze command synthesises from the source.
    "suites.v1": CORE | {"suites", "benchmark"},
    "runner": CORE | {"reefbench", "log", "agents", "suites"},
    "report": CORE | {"log", "suites"},
    # `reef play`: a person plays a task in a page, stored as a run like `reef serve-mcp`.
    "play": CORE | {"log", "suites", "runner"},
    # Bridges to other tools (Inspect AI): reef's runner pieces behind another front door.
    "integrations": CORE | {"agents", "runner", "suites"},
    "cli": frozenset({"*"}),
}


def component(module: str) -> str:
    parts = module.split(".")
    if module in TOP or any(module.startswith(t + ".") for t in TOP):
        return "cli"
    if len(parts) < 2:
        return "reefbench"
    if parts[1] in ("envs", "suites") and len(parts) >= 3 and _is_package(parts[:3]):
        return ".".join(parts[1:3])
    return parts[1]


def _is_package(parts: list[str]) -> bool:
    return (SRC.parent.joinpath(*parts) / "__init__.py").is_file()


def allowed(source: str, target: str) -> bool:
    rule = ALLOWED.get(source)
    if rule is None:
        rule = KIND if source.startswith("envs.") else CORE
    if "core" in rule:  # "core" in a rule names every package of the core
        rule = rule | CORE
    if source == target or "*" in rule or target in rule:
        return True
    return any(r.endswith(".*") and target.startswith(r[:-1]) for r in rule) or (
        "envs.*" in rule and target == "envs"
    )


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(module: str, source: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every reefbench module ``source`` imports: (target, line)."""
    known = _modules()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("reefbench"):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not target.startswith("reefbench"):
                continue
            for alias in node.names:  # `from pkg import submodule` depends on the submodule
                sub = f"{target}.{alias.name}"
                yield (sub if sub in known else target), node.lineno


_KNOWN: set[str] = set()


def _modules() -> set[str]:
    if not _KNOWN:
        _KNOWN.update(module_name(p) for p in SRC.rglob("*.py"))
    return _KNOWN


def all_edges() -> list[tuple[str, str, int]]:
    edges = []
    for path in sorted(SRC.rglob("*.py")):
        module = module_name(path)
        text = path.read_text(encoding="utf-8")
        for target, line in imports(module, text, path.name == "__init__.py"):
            edges.append((module, target, line))
    return edges


def violations(edges: list[tuple[str, str, int]]) -> list[str]:
    return [
        f"{source}:{line} imports {target} ({component(source)} -> {component(target)})"
        for source, target, line in edges
        if not allowed(component(source), component(target))
    ]


def test_every_import_goes_in_the_allowed_direction() -> None:
    assert violations(all_edges()) == []


def test_there_are_no_import_circles() -> None:
    graph = nx.DiGraph()
    # A submodule always loads its package first; that edge is not a dependency of the code.
    graph.add_edges_from(
        (source, target)
        for source, target, _ in all_edges()
        if source != target and not source.startswith(target + ".")
    )
    assert list(nx.simple_cycles(graph)) == []


def test_the_check_catches_an_upward_import_even_inside_a_function() -> None:
    source = "def f():\n    from reefbench.agents.builtin import RandomAgent\n"
    edges = [
        ("reefbench.tasks.task", t, line)
        for t, line in imports("reefbench.tasks.task", source, False)
    ]
    assert violations(edges) == [
        "reefbench.tasks.task:2 imports reefbench.agents.builtin (tasks -> agents)"
    ]
    relative = "from ..services import mail\n"  # one kind importing another, relatively
    edges = [
        ("reefbench.envs.browser.device", t, line)
        for t, line in imports("reefbench.envs.browser.device", relative, False)
    ]
    assert violations(edges) == [
        "reefbench.envs.browser.device:1 imports reefbench.envs.services.mail "
        "(envs.browser -> envs.services)"
    ]


def test_components_of_known_modules() -> None:
    assert component("reefbench.episodes.episode") == "episodes"
    assert component("reefbench.errors") == "errors"
    assert component("reefbench") == "reefbench"
    assert component("reefbench.host.doctor") == "cli"
    assert component("reefbench.host.system_packages") == "host"
    assert component("reefbench.envs.desktop.actions") == "envs.desktop"
    assert component("reefbench.envs.procs") == "envs"
    assert component("reefbench.benchmark.templates.desktop") == "benchmark"
    assert component("reefbench.validation.gates") == "validation"
    assert component("reefbench.suites.v1.build") == "suites.v1"
    assert component("reefbench.log.store") == "log"
    assert component("reefbench.cli.run") == "cli"
    assert allowed("envs.new_kind", "perception")
    assert not allowed("envs.new_kind", "envs.services")
    assert not allowed("envs.new_kind", "episodes") and not allowed("tasks", "environments")
    assert not allowed("envs.desktop", "envs.browser")


def test_the_top_level_is_packages_by_purpose() -> None:
    """Only the public API and the errors are modules of their own at the top; every other
    module is in a package that is a component of the table."""
    assert sorted(p.name for p in SRC.glob("*.py")) == ["__init__.py", "errors.py"]
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    assert packages - set(ALLOWED) == set()


FORBIDDEN_AT_IMPORT = (
    "reefbench.agents",
    "reefbench.perception",
    "reefbench.host.doctor",
    "reefbench.log",
    "reefbench.documents",
    "reefbench.envs",
    "reefbench.runner",
    "reefbench.compose",
    "reefbench.suites",
    "reefbench.benchmark",
    "reefbench.validation",
    "reefbench.report",
    "reefbench.envs.services",
    "reefbench.cli",
)
HEAVY = ("numpy", "PIL", "playwright", "fastapi", "uvicorn", "ray", "cv2", "typer", "openai")


def test_import_reefbench_loads_only_the_core() -> None:
    probe = "import sys, json, reefbench\nprint(json.dumps(sorted(m for m in sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    loaded: list[str] = __import__("json").loads(out)
    ours = [m for m in loaded if m == "reefbench" or m.startswith("reefbench.")]
    assert [m for m in ours if m.startswith(FORBIDDEN_AT_IMPORT)] == []
    modules = [m for m in ours if not (SRC.parent / m.replace(".", "/")).is_dir()]
    assert len(modules) <= 20, modules  # the core is about 20 modules (in 6 packages)
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []


DOC = SRC.parents[1] / "docs" / "architecture.md"


def test_the_architecture_document_names_what_exists() -> None:
    """Every component of the table is in docs/architecture.md, and every file it names
    exists (in src/reefbench, or in the repository for tests/ and docs/ paths)."""
    text = DOC.read_text(encoding="utf-8")
    for name in ALLOWED:
        shown = name.replace(".", "/") if name.startswith(("envs.", "suites.")) else name
        assert f"`{shown}`" in text or f"**{shown}**" in text, name
    repo = SRC.parents[1]
    for path in set(re.findall(r"`((?:\w+/)+\w+\.py)`", text)):
        candidates = [SRC / path, SRC.parent / path, repo / path]
        assert any(c.is_file() for c in candidates) or path.startswith("envs/counter/"), path
