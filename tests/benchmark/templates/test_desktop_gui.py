"""The file templates a user would do in the file manager are solved there: Thunar opened by
name, no terminal in the reference, the shell command kept as an alternative."""

from __future__ import annotations

import pytest

from reefbench.benchmark.templates.desktop import MAKE_FOLDER, MOVE_INTO_FOLDER, RENAME_FILE
from reefbench.tasks.subtask import SubTask

CASES = [
    (RENAME_FILE, {"path": "~/Documents/amber.txt", "new_name": "amber-final.txt"}),
    (MAKE_FOLDER, {"folder": "~/Documents/AmberProject"}),
    (MOVE_INTO_FOLDER, {"path": "~/Desktop/maple.txt", "folder": "~/Documents/AmberProject"}),
]


@pytest.mark.parametrize(("template", "values"), CASES, ids=[c[0].id for c in CASES])
def test_the_reference_uses_the_file_manager_and_the_shell_stays_an_alternative(
    template: SubTask, values: dict[str, str]
) -> None:
    reference = template.solution_generator(**values)
    opened = [c.arguments["name"] for c in reference if c.name == "search_app"]
    assert opened == ["files"]
    assert template.app == "thunar"
    # It goes to the folder through the location bar and quits, leaving no window behind.
    assert reference[1].arguments == {"keys": ["ctrl", "l"]}
    assert reference[-2].arguments == {"keys": ["ctrl", "q"]}
    alternatives = [alt(**values) for alt in template.alternative_generators]
    assert any(c.arguments.get("name") == "terminal" for alt in alternatives for c in alt)
