"""LibreOffice Calc on a real desktop: opened by name, a formula typed through the GUI and
saved through Calc's Save dialog passes the formula checkpoint; the total typed as a number
fails it; the profile's noise stays out of the side-effect diff while the document does not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop.hometree import changes, snapshot
from reefbench.envs.desktop.office import PROFILE, SETTINGS, write_office_profile

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "localc"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, LibreOffice Calc and Debian's python3",
    ),
]
pytest.importorskip("odf")

PATH = "~/Documents/budget.ods"


def _type_in_calc_and_save(desk: DesktopEnvironment, total: str) -> None:
    """What an agent does: open the spreadsheet app by name, type, save through the dialog,
    quit. An observation between steps (the agent's next turn) gives the dialog its time."""
    desk.reset()
    opened = desk.step("search_app", {"name": "spreadsheet"})
    assert "LibreOffice Calc" in str(opened)
    desk.step("write_text", {"text": f"12\n7\n30\n{total}\n"})
    desk.step("hotkey", {"keys": ["ctrl", "s"]})
    desk.observe()
    desk.step("write_text", {"text": "/home/user/Documents/budget.ods"})
    desk.observe()
    desk.step("press", {"key": "enter"})
    desk.observe()
    desk.step("hotkey", {"keys": ["ctrl", "q"]})
    desk.observe()


def test_calc_opens_by_name_and_its_elements_are_listed(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.step("search_app", {"name": "spreadsheet"})
    marks = desk.observe_now().marks.text()
    assert 'push button "Save"' in marks and 'menu "Sheet"' in marks
    desk.step("hotkey", {"keys": ["ctrl", "q"]})


def test_a_formula_typed_in_calc_passes_and_a_typed_total_fails(desk: DesktopEnvironment) -> None:
    checkpoint = oe.spreadsheet_cell(path=PATH, cell="A4", value=49, formula="=SUM(A1:A3)")
    saved_by_calc = oe.saved_by_libreoffice(path=PATH)

    _type_in_calc_and_save(desk, "=SUM(A1:A3)")
    result = desk.evaluate(checkpoint)
    assert result.success, result.message
    assert desk.evaluate(saved_by_calc).success

    _type_in_calc_and_save(desk, "49")
    result = desk.evaluate(checkpoint)
    assert not result.success and "a constant" in result.message
    assert desk.evaluate(oe.spreadsheet_cell(path=PATH, cell="A4", value=49)).success


def test_the_profile_is_noise_and_the_document_is_not(desk: DesktopEnvironment) -> None:
    desk.reset()
    before = snapshot(desk.session.home)
    _type_in_calc_and_save(desk, "=SUM(A1:A3)")
    found = [what for _, what in changes(desk.session.home, before)]
    assert found == ["created file ~/Documents/budget.ods"], found


def test_libreoffice_keeps_every_setting_of_the_prepared_profile(tmp_path: Path) -> None:
    """LibreOffice drops a setting its schema does not know when it writes the profile
    back, silently: each one must survive a real start."""
    write_office_profile(tmp_path)
    written = tmp_path / PROFILE / "registrymodifications.xcu"
    subprocess.run(
        ["/usr/lib/libreoffice/program/soffice", "--headless", "--terminate_after_init"],
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=120,
        check=True,
    )
    text = written.read_text()
    assert "ooLocale" in text  # LibreOffice wrote the file back
    dropped = [
        f"{path}/{name}"
        for path, name, _kind, _value in SETTINGS
        if f'oor:path="{path}"><prop oor:name="{name}"' not in text
    ]
    assert not dropped


def test_calc_lists_the_visible_cells_with_their_text_and_no_more(
    desk: DesktopEnvironment,
) -> None:
    """The grid is walked through its Table interface: the cells on screen are elements
    (with what they hold, so a value can be read and its cell clicked), the billion others
    are not, and after a scroll to the last row the cells listed are the ones now on screen."""
    desk.reset()
    desk.step("search_app", {"name": "spreadsheet"})
    desk.step("write_text", {"text": "Food\t48\nTravel\t56\n"})
    nodes = [n for w in desk.windows() for n in w.nodes]
    cells = {n.name: n for n in nodes if n.role == "table cell"}
    assert cells["A1"].text == "Food" and cells["B2"].text == "56"
    assert cells["A1"].box is not None
    assert len(cells) <= 20 * 8  # _a11y_reader's MAX_GRID_ROWS x MAX_GRID_COLUMNS
    assert len(nodes) < 600
    # The grid on screen is wider than the list: the list says what it left out (a
    # playtest's agent read a 25-row table as 20 rows).
    listing = str(desk.observe()["elements"])
    assert "Cells listed: A1:H20 of the A1:" in listing, listing
    assert "the others are only in the screenshot" in listing
    desk.step("hotkey", {"keys": ["ctrl", "end"]})
    desk.step("hotkey", {"keys": ["ctrl", "down"]})
    far = {n.name for w in desk.windows() for n in w.nodes if n.role == "table cell"}
    assert "A1" not in far and any(name.startswith("A10485") for name in far)
