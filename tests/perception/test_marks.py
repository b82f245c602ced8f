from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from reefbench.perception.marks import (
    MarkSet,
    build_marks,
    clip_box,
    draw_marks,
    overlap,
    static_text,
)
from reefbench.perception.ocr import OcrLine, group_lines, parse_tsv


@dataclass
class Node:
    role: str
    name: str
    box: tuple[int, int, int, int] | None


def test_only_interactive_on_screen_elements_are_numbered_in_order() -> None:
    nodes = [
        Node("frame", "Window", (0, 0, 800, 600)),
        Node("push button", "OK", (10, 10, 50, 20)),
        Node("label", "Hello", (10, 40, 50, 20)),
        Node("push button", "Offscreen", (900, 10, 50, 20)),
        Node("push button", "OK", (10, 10, 50, 20)),  # duplicate inner node
        Node("check box", "Bold", (100, 10, 60, 20)),
        Node("menu item", "No box", None),
    ]
    marks = build_marks(nodes, (800, 600))
    assert [(m.id, m.role, m.name) for m in marks.marks] == [
        (1, "push button", "OK"),
        (2, "check box", "Bold"),
    ]
    assert marks.text() == '[1] push button "OK"\n[2] check box "Bold"'
    assert marks.get(2) is not None and marks.get(2).center == (130, 20)
    assert marks.get(3) is None and marks.get(0) is None


def test_ocr_lines_fill_gaps_but_not_over_marked_elements() -> None:
    nodes = [Node("push button", "Save", (10, 10, 60, 24)), Node("text", "", (0, 50, 800, 500))]
    lines = [
        OcrLine("Save", (20, 14, 30, 12), 90.0),  # the button's own label
        OcrLine("Chapter one", (10, 60, 90, 12), 90.0),  # text inside the big text area
        OcrLine("Canvas label", (300, 5, 80, 12), 90.0),
    ]
    marks = build_marks(nodes, (800, 600), ocr_lines=lines)
    ocr = [m.name for m in marks.marks if m.source == "ocr"]
    assert ocr == ["Chapter one", "Canvas label"]


def test_box_helpers() -> None:
    assert clip_box((-10, -10, 30, 30), (100, 100)) == (0, 0, 20, 20)
    assert clip_box((200, 0, 10, 10), (100, 100)) is None
    assert overlap((0, 0, 10, 10), (2, 2, 4, 4)) == 1.0
    assert overlap((0, 0, 10, 10), (20, 20, 4, 4)) == 0.0


def test_drawing_marks_changes_pixels_inside_boxes_only() -> None:
    image = Image.new("RGB", (200, 100), "white")
    marks = build_marks([Node("push button", "OK", (50, 40, 40, 30))], (200, 100))
    drawn = draw_marks(image, marks)
    assert drawn.getpixel((50, 55)) != (255, 255, 255)  # left edge of the box
    assert drawn.getpixel((150, 90)) == (255, 255, 255)
    assert image.getpixel((50, 55)) == (255, 255, 255)  # the input is untouched
    assert draw_marks(image, MarkSet(())).tobytes() == image.tobytes()


TSV = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    "5\t1\t1\t1\t1\t1\t10\t10\t40\t12\t95.0\tFile\n"
    "5\t1\t1\t1\t1\t2\t55\t10\t40\t12\t91.0\tEdit\n"
    "5\t1\t1\t1\t1\t3\t300\t10\t40\t12\t90.0\tHelp\n"
    "5\t1\t2\t1\t1\t1\t10\t40\t40\t12\t12.0\tnoise\n"
    "5\t1\t2\t1\t1\t2\t10\t40\t40\t12\t80.0\t \n"
)


def test_tsv_words_and_lines() -> None:
    words = parse_tsv(TSV)
    assert [w.text for w in words] == ["File", "Edit", "Help"]
    lines = group_lines(words)
    assert [(line.text, line.box) for line in lines] == [
        ("File Edit", (10, 10, 85, 12)),
        ("Help", (300, 10, 40, 12)),
    ]


@dataclass
class Field:
    role: str
    name: str
    box: tuple[int, int, int, int] | None
    value: str | None = None
    shown_states: tuple[str, ...] = ()


def test_marks_list_values_and_states_apart_from_names() -> None:
    nodes = [
        Field("entry", "Name", (0, 0, 100, 20), value="garnet.txt"),
        Field("check box", "Bold", (0, 30, 100, 20), shown_states=("unchecked",)),
        Field("push button", "Save", (0, 60, 100, 20), shown_states=("disabled",)),
        Field("text", "", (0, 90, 100, 20), value="x" * 500),
        Node("push button", "Plain", (0, 120, 100, 20)),
    ]
    lines = build_marks(nodes, (800, 600)).text().splitlines()
    assert lines[0] == '[1] entry "Name" value="garnet.txt"'
    assert lines[1] == '[2] check box "Bold" (unchecked)'
    assert lines[2] == '[3] push button "Save" (disabled)'
    assert lines[3] == '[4] text "" value="' + "x" * 197 + '..."'  # capped
    assert lines[4] == '[5] push button "Plain"'


def test_static_text_is_deduplicated_and_capped_per_item_and_in_total() -> None:
    texts = ["Save", "  Meet at   the cafe ", "Meet at the cafe", "y" * 300, "z" * 150, "w" * 150]
    items = static_text(texts, shown=["save"], item_cap=200, total_cap=400)
    assert items[0] == "Meet at the cafe"  # spaces collapsed, the repeat and "Save" left out
    assert items[1] == "y" * 197 + "..."
    assert len(items) == 3 and sum(map(len, items)) <= 400  # the rest would pass the cap
    listed = MarkSet((), tuple(items)).text()
    assert listed.startswith("(no interactive elements)\nText on screen (not elements):\n")
    assert '- "Meet at the cafe"' in listed
