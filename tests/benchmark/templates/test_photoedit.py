"""The photo-editing template: the folder holds the scan and a look-alike both on their
side, the message names the width it takes back, and the solutions open the right files."""

from __future__ import annotations

import itertools

import pytest

from reefbench.benchmark.templates import photoedit as pe

VALUES = {
    "sender": "Landlord",
    "colour": "teal",
    "width": 240,
    "folder": "~/Pictures/Scans",
    "target": "~/Desktop/delta-scan.jpg",
}


def _opened(calls: list) -> str:  # type: ignore[type-arg]
    """The path typed into the editor's Open dialog (the write after Ctrl+O)."""
    for before, after in itertools.pairwise(calls):
        if before.arguments.get("keys") == ["ctrl", "o"]:
            return str(after.arguments["text"]).strip()
    raise AssertionError("the image editor opens no file")


@pytest.mark.parametrize("caption", pe.CAPTIONS)
def test_the_scan_and_its_look_alike_are_both_sideways_in_one_folder(caption: str) -> None:
    layout = pe._layout(caption, "teal")
    sideways = {s["caption"] for s in layout if s["sideways"]}
    assert sideways == {caption, pe.nm.digits_swapped(caption)}
    assert len({s["name"] for s in layout}) == 4


def test_the_scan_is_not_always_the_same_file() -> None:
    files = {pe._file_of(c, "teal", c) for c in pe.CAPTIONS}
    assert len(files) > 1


def test_the_message_takes_back_another_width() -> None:
    text = pe.message_text("Lease 2964", 240)
    assert "make it 240 pixels wide" in text
    assert f"I said {pe._taken_back(240)} pixels" in text and pe._taken_back(240) != 240


def test_the_look_alike_near_miss_opens_the_other_sideways_scan() -> None:
    values = {**VALUES, "caption": "Lease 2964"}
    right = _opened(pe.scan_solution(**values))
    wrong = _opened(pe.scan_look_alike(**values))
    layout = {f"/home/user/Pictures/Scans/{s['name']}": s for s in pe._layout("Lease 2964", "teal")}
    assert layout[right]["caption"] == "Lease 2964"
    assert layout[wrong]["caption"] == "Lease 2946"
