"""The text-file templates a user would do in the text editor are solved there: Mousepad
opened by name, no terminal in the reference, the shell command kept as an alternative; on a
real desktop the editor's flows write exactly what the checkpoints want."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.desktop import (
    APPEND_LINE,
    COPY_FILE,
    CREATE_FILE,
    READ_MESSAGE,
    REPLACE_WORD,
    SAVE_CODE,
    _sentence,
)
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import evaluators as ev
from reefbench.episodes.episode import FINAL_SETTLE_SECONDS, STEP_SETTLE_SECONDS
from reefbench.tasks.subtask import SubTask

CASES = [
    (CREATE_FILE, {"path": "~/Documents/amber.txt", "content": "renew the gym pass"}),
    (APPEND_LINE, {"path": "~/Documents/amber.txt", "line": "fix the squeaky door"}),
    (COPY_FILE, {"source": "~/Documents/amber.txt", "target": "~/Documents/copy-of-amber.txt"}),
    (REPLACE_WORD, {"path": "~/Documents/amber.txt", "old": "amber", "new": "umber"}),
    (SAVE_CODE, {"code": "482913", "path": "~/Desktop/indigo.txt"}),
    (READ_MESSAGE, {"path": "~/Desktop/indigo.txt", "memo": "Room 4B at 3 pm"}),
]


@pytest.mark.parametrize(("template", "values"), CASES, ids=[c[0].id for c in CASES])
def test_the_reference_uses_the_text_editor_and_the_shell_stays_an_alternative(
    template: SubTask, values: dict[str, str]
) -> None:
    reference = template.solution_generator(**values)
    opened = [c.arguments["name"] for c in reference if c.name == "search_app"]
    assert opened == ["text editor"]
    assert template.app == "mousepad"
    assert template.app_category == "text editing"
    # It quits the editor, leaving no window behind for the next subtask.
    assert [c.arguments for c in reference if c.env == "desktop"][-1] == {"keys": ["ctrl", "q"]}
    alternatives = [alt(**values) for alt in template.alternative_generators]
    assert any(c.arguments.get("name") == "terminal" for alt in alternatives for c in alt)


def test_save_as_selects_the_whole_old_name_before_typing_the_new_one() -> None:
    calls = COPY_FILE.solution_generator(source="~/Documents/amber.txt", target="~/Desktop/b.txt")
    keys = [c.arguments.get("keys") for c in calls]
    save_as = keys.index(["ctrl", "shift", "s"])
    select_all = keys.index(["ctrl", "a"])
    texts = [c.arguments.get("text") for c in calls]
    typed = texts.index("/home/user/Desktop/b.txt")
    assert save_as < select_all < typed


# ---------------------------------------------------------------- on a real desktop
needs_desktop = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "mousepad"))
    or not Path("/usr/bin/python3").exists(),
    reason="needs Xvfb, bubblewrap, xdotool, openbox, Mousepad and Debian's python3",
)


def _play(desk: DesktopEnvironment, calls: list[ActionCall]) -> None:
    """What an episode does: each desktop call as a step followed by the quick settle
    before its checks, a root ``wait`` as the agent's next turn (one observation), and
    the final settle before the end checks (a save may still be landing)."""
    for c in calls:
        if c.env == "root":
            desk.observe()
        else:
            desk.step(c.name, dict(c.arguments))
            desk.settle_state(STEP_SETTLE_SECONDS, quick=True)
    desk.observe()
    desk.settle_state(FINAL_SETTLE_SECONDS)


@pytest.mark.integration
@needs_desktop
def test_the_editors_flows_write_what_the_checkpoints_want(desk: DesktopEnvironment) -> None:
    desk.reset(action_set="a11y")  # click_on by name, as the oracle's grounding does
    docs = desk.session.home / "Documents"
    docs.mkdir(exist_ok=True)
    (docs / "amber.txt").write_text("first line\nsecond line\n")  # printf's or vim's
    (docs / "birch.txt").write_text("saved by the editor")  # no final newline
    (docs / "amber.txt.bak").write_text("look-alike\n")
    (docs / "cobalt.txt").write_text(_sentence("cobalt"))

    _play(desk, APPEND_LINE.solution_generator(path="~/Documents/amber.txt", line="new one"))
    _play(desk, APPEND_LINE.solution_generator(path="~/Documents/birch.txt", line="new two"))
    # Neither after a blank line nor glued to the last: what append_line's checkpoint reads.
    assert (docs / "amber.txt").read_text() == "first line\nsecond line\nnew one\n"
    assert (docs / "birch.txt").read_text() == "saved by the editor\nnew two"
    # The editor saved birch.txt for the append, not when it was first written: a check
    # that it saved the first text (editor_write's) must not be fooled by the later save.
    saved = ev.saved_with(path="~/Documents/birch.txt", app="mousepad")
    saved_first = ev.saved_with(
        path="~/Documents/birch.txt", app="mousepad", content="saved by the editor"
    )
    assert desk.evaluate(saved).success
    assert not desk.evaluate(saved_first).success
    assert re.search(r"\S.*\nnew two$", (docs / "birch.txt").read_text())

    before = (docs / "amber.txt").read_bytes()
    _play(
        desk,
        COPY_FILE.solution_generator(
            source="~/Documents/amber.txt", target="~/Documents/copy-of-amber.txt"
        ),
    )
    assert (docs / "copy-of-amber.txt").read_bytes() == before == (docs / "amber.txt").read_bytes()
    assert (docs / "amber.txt.bak").read_text() == "look-alike\n"

    replace = {"path": "~/Documents/cobalt.txt", "old": "cobalt", "new": "umber"}
    _play(desk, REPLACE_WORD.solution_generator(**replace))
    assert (docs / "cobalt.txt").read_text() == _sentence("umber")
