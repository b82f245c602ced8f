"""The packages depend on each other in one direction, with no circles.

Every ``import`` in ``src/reefbench`` is read with :mod:`ast`, including the ones inside
functions and under ``TYPE_CHECKING`` (a type is a dependency too). Each module belongs to
a *component*; :data:`ALLOWED` says which components a component may import from. It is
the table of ``docs/architecture.md``: change both together.

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

# Top-level packages that are components of their own; every other top-level module of
# reefbench (task, episode, actions, ...) is the core.
PACKAGES = (
    "observe",
    "log",
    "compose",
    "documents",
    "envs",
    "agents",
    "suites",
    "runner",
    "report",
    "benchmark",
    "validation",
)
# Entry points: they may import anything below them.
TOP = {"reefbench.cli", "reefbench.doctor"}

# The default rule of an environment kind (an environment may read office documents).
KIND = frozenset({"core", "observe", "documents", "envs"})
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "observe": frozenset({"core"}),
    "log": frozenset({"core"}),
    "compose": frozenset({"core"}),
    "documents": frozenset({"core"}),  # office document readers, a library
    # Shared environment pieces: /proc helpers, the account protocol, the in-memory
    # reference device, the registry of kinds (by import reference, not by import).
    "envs": KIND,
    "envs.phone": KIND | {"envs.browser", "envs.ui"},  # Chromium in mobile emulation
    "envs.android": KIND | {"envs.ui"},
    # The services kind (the local cloud account) is a kind like the others: envs.services.
    "agents": frozenset({"core", "observe"}),
    # Releases: the table of suites (code named by reference, not imported), frozen data.
    "suites": frozenset({"core", "compose", "envs"}),
    # The benchmark's source (templates, handmade tasks, worlds, shared checks).
    "benchmark": frozenset({"core", "compose", "envs.*", "suites"}),
    # Gates, lint and device phrases, for any suite with a pool.
    "validation": frozenset({"core", "compose", "envs.*", "agents", "benchmark"}),
    # reef-v1 loads frozen data; only its freeze command synthesises from the source.
    "suites.v1": frozenset({"core", "suites", "benchmark"}),
    "runner": frozenset({"core", "log", "agents", "suites"}),
    "report": frozenset({"core", "log", "suites"}),
    "cli": frozenset({"*"}),
}


def component(module: str) -> str:
    parts = module.split(".")
    if module in TOP or any(module.startswith(t + ".") for t in TOP):
        return "cli"
    if len(parts) < 2 or parts[1] not in PACKAGES:
        return "core"
    if parts[1] in ("envs", "suites") and len(parts) >= 3 and _is_package(parts[:3]):
        return ".".join(parts[1:3])
    return parts[1]


def _is_package(parts: list[str]) -> bool:
    return (SRC.parent.joinpath(*parts) / "__init__.py").is_file()


def allowed(source: str, target: str) -> bool:
    rule = ALLOWED.get(source)
    if rule is None:
        rule = KIND if source.startswith("envs.") else frozenset({"core"})
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
    edges = [("reefbench.task", t, line) for t, line in imports("reefbench.task", source, False)]
    assert violations(edges) == [
        "reefbench.task:2 imports reefbench.agents.builtin (core -> agents)"
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
    assert component("reefbench.episode") == "core"
    assert component("reefbench.envs.desktop.actions") == "envs.desktop"
    assert component("reefbench.envs.procs") == "envs"
    assert component("reefbench.benchmark.templates.desktop") == "benchmark"
    assert component("reefbench.validation.gates") == "validation"
    assert component("reefbench.suites.v1.build") == "suites.v1"
    assert component("reefbench.log.store") == "log"
    assert component("reefbench.cli.run") == "cli"
    assert allowed("envs.new_kind", "observe") and not allowed("envs.new_kind", "envs.services")
    assert not allowed("envs.desktop", "envs.browser")


FORBIDDEN_AT_IMPORT = (
    "reefbench.agents",
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
    assert len(ours) <= 20, ours  # the core is about 20 modules
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
