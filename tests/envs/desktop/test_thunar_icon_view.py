"""Thunar's icon and compact views list their files (playtest E5, issue 31).

Thunar opened on a folder of three pictures in its default icon view showed them, and the
element list had the window's buttons, places and menus but not one file: exo's icon view
had no accessible children under GTK 3 (:mod:`reefbench.envs.desktop.exo_a11y`). Each file
must be an element named by its file name whose box is where Thunar draws it: a click on
the element selects that file (Thunar's status bar names it), a double click on a folder's
opens it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop.apps import app
from reefbench.envs.desktop.observation import Snapshot
from reefbench.plumbing.waiting import wait_until

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "thunar", "cc"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, Thunar, cc and Debian's python3",
    ),
]

FILES = ("product_1.png", "product_2.png", "product_3.png")
FOLDER = "Archive"


@pytest.fixture(scope="module")
def desk() -> Iterator[DesktopEnvironment]:
    env = DesktopEnvironment()
    try:
        env.start()
        yield env
    finally:
        env.stop()


def _open(desk: DesktopEnvironment, view: str) -> Snapshot:
    desk.reset()
    folder = desk.session.host_path("~/Pictures/Products")
    (folder / FOLDER).mkdir(parents=True)
    for name, colour in zip(FILES, ("red", "green", "blue"), strict=True):
        Image.new("RGB", (200, 150), colour).save(folder / name)
    done = desk.session.run(
        ["xfconf-query", "-c", "thunar", "-p", "/last-view", "-n", "-t", "string", "-s", view],
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    desk.launch(app("files"), ["/home/user/Pictures/Products"])
    return desk.observe_now()


def _status(desk: DesktopEnvironment) -> str:
    """What Thunar's status bar says (the selected file's name when one is selected)."""
    snapshot = desk.observe_now()
    return " ".join(
        node.name
        for window in snapshot.windows
        for node in window.nodes
        if node.role == "status bar"
    )


def _titles(desk: DesktopEnvironment) -> list[str]:
    return [window.title for window in desk.observe_now().windows]


@pytest.mark.parametrize("view", ["ThunarIconView", "ThunarCompactView"])
def test_the_files_of_an_icon_view_are_elements_where_thunar_draws_them(
    desk: DesktopEnvironment, view: str
) -> None:
    snapshot = _open(desk, view)
    marks = {m.name: m for m in snapshot.marks.marks if m.role == "icon"}
    assert all(name in marks for name in (*FILES, FOLDER)), snapshot.marks.text()
    for name in (FILES[1], FILES[2]):
        desk.step("click", {"elem": marks[name].id})
        assert wait_until(lambda n=name: f'"{n}"' in _status(desk), 10.0, interval=0.2), (
            name,
            _status(desk),
        )
    desk.step("double_click", {"elem": marks[FOLDER].id})
    assert wait_until(lambda: f"{FOLDER} - Thunar" in _titles(desk), 10.0, interval=0.2), _titles(
        desk
    )
