"""The template modules hold named functions only: a lambda has no name in a traceback,
no type a checker can read, and invites copying a checkpoint instead of sharing it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from reefbench.benchmark import templates

TEMPLATE_DIR = Path(templates.__file__).parent
MODULES = sorted(TEMPLATE_DIR.glob("*.py"))


def lambdas_in(source: str, filename: str) -> list[str]:
    """``file:line`` of every lambda in ``source``."""
    tree = ast.parse(source, filename=filename)
    return [f"{filename}:{node.lineno}" for node in ast.walk(tree) if isinstance(node, ast.Lambda)]


def test_the_template_modules_are_found() -> None:
    names = {path.name for path in MODULES}
    assert {"desktop.py", "phone.py", "browser.py", "cross.py", "common.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[path.name for path in MODULES])
def test_no_lambdas_in_template_modules(path: Path) -> None:
    found = lambdas_in(path.read_text(), path.name)
    assert not found, "use a named module-level function instead of a lambda at " + ", ".join(found)


def test_the_check_names_file_and_line_of_a_lambda() -> None:
    source = "def f() -> None:\n    pass\n\n\nX = [\n    lambda a: a,\n]\n"
    assert lambdas_in(source, "phone.py") == ["phone.py:6"]
