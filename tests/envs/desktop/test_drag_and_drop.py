"""The drag action on a real drag-and-drop target: Calc's pivot table layout takes a
field only when the drop is offered after the target has answered (a release on arrival
was ignored), so the agent's ``drag`` lays out a pivot table as a person's hand does."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from reefbench.documents import read_spreadsheet
from reefbench.documents.odf import write_workbook
from reefbench.envs.desktop import DesktopEnvironment

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "localc")),
        reason="needs Xvfb, bubblewrap, xdotool, openbox and LibreOffice Calc",
    ),
]
pytest.importorskip("odf")

PATH = "~/Documents/regions.ods"


def test_drag_lays_out_a_pivot_table_in_calc(desk: DesktopEnvironment) -> None:
    desk.reset(action_set="a11y")
    rows = [["Date", "Region", "Amount"]]
    rows += [
        [f"2026-01-{i + 1:02d}", ["North", "South", "East"][i % 3], str(100 + i)] for i in range(9)
    ]
    write_workbook(desk.session.host_path(PATH), {"Data": rows})
    steps: list[tuple[str, dict[str, Any]]] = [
        ("search_app", {"name": "spreadsheet"}),
        ("hotkey", {"keys": ["ctrl", "o"]}),
        ("write_text", {"text": "/home/user/Documents/regions.ods"}),
        ("press", {"key": "enter"}),
        ("click_on", {"name": "Data"}),
        ("click_on", {"name": "Pivot Table"}),
        ("click_on", {"name": "Insert or Edit..."}),
        ("press", {"key": "enter"}),  # the source: the table around the cursor
    ]
    for name, args in steps:
        desk.step(name, args)
        desk.observe()  # the agent's next turn: dialogs get their time to be drawn
    # Region onto Row Fields, Amount onto Data Fields (where the dialog draws them).
    desk.step("drag", {"from_x": 807, "from_y": 307, "to_x": 420, "to_y": 460})
    desk.observe()
    desk.step("drag", {"from_x": 810, "from_y": 330, "to_x": 646, "to_y": 460})
    desk.observe()
    desk.step("click_on", {"name": "OK", "role": "push button"})
    desk.observe()
    desk.step("hotkey", {"keys": ["ctrl", "s"]})
    desk.observe()
    desk.step("hotkey", {"keys": ["ctrl", "q"]})
    desk.observe()
    book = read_spreadsheet(Path(desk.session.host_path(PATH)))
    pivots = [p for sheet in book.sheets for p in sheet.pivots]
    assert [(p.rows, p.data) for p in pivots] == [(("Region",), (("Amount", "sum"),))]
