"""The appearance templates: values the checkpoints expect and what the message says."""

from __future__ import annotations

from reefbench.benchmark.templates import appearance as ap
from reefbench.benchmark.templates import session as ses


def test_the_setting_stores_the_family_without_the_regular_face() -> None:
    assert ap.font_value("Nimbus Sans Regular", "13") == "Nimbus Sans 13"
    assert ap.font_value("DejaVu Sans Mono Book", "9") == "DejaVu Sans Mono 9"


def test_each_default_face_has_a_look_alike_of_another_family() -> None:
    values = {ap.font_value(face, "12") for face in ap.FACE_NAMES}
    assert len(values) == len(ap.FACE_NAMES)


def test_the_message_names_the_fonts_in_words_and_rules_out_the_look_alike() -> None:
    text = ap.message_text("Nimbus Sans Regular", "13", "Nimbus Mono PS Regular", "12")
    assert "Not Nimbus Sans Narrow," in text
    assert "Use Nimbus Sans for everything, at thirteen points" in text
    assert "13" not in text and "Regular" not in text


def test_the_wallpaper_message_never_names_the_file_nor_the_style() -> None:
    for picture in ses.PICTURES:
        for style in ses.STYLES:
            text = ap.message_wallpaper_text(picture, style)
            assert picture not in text and style not in text


def test_the_near_misses_set_another_state() -> None:
    right = ap.font_solution("DejaVu Sans Book", "12")
    wrong_button = ap.font_in_monospace("DejaVu Sans Book", "12")
    assert right != wrong_button
    assert wrong_button[2].arguments == {"x": 646, "y": 324}
