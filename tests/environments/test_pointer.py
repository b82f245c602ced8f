"""reefbench.environments.pointer: model <-> device coordinates, pointer ops as device actions."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reefbench.environments.pointer import (
    PointerOp,
    Scale,
    key_name,
    png_size,
    resize_png,
    to_calls,
)
from reefbench.errors import InvalidAction

sizes = st.tuples(st.integers(1, 4000), st.integers(1, 4000))


def png(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 30)).save(out, format="PNG")
    return out.getvalue()


@given(device=sizes, model=sizes, data=st.data())
def test_every_model_point_lands_inside_the_device_screenshot(device, model, data):
    scale = Scale(device, model)
    x = data.draw(st.integers(-50, model[0] + 50))
    y = data.draw(st.integers(-50, model[1] + 50))
    dx, dy = scale.to_device(x, y)
    assert 0 <= dx < device[0] and 0 <= dy < device[1]


@given(device=sizes, factor=st.integers(1, 4), data=st.data())
def test_a_device_pixel_survives_the_round_trip_through_a_larger_model_space(device, factor, data):
    scale = Scale(device, (device[0] * factor, device[1] * factor))
    x = data.draw(st.integers(0, device[0] - 1))
    y = data.draw(st.integers(0, device[1] - 1))
    assert scale.to_device(*scale.to_model(x, y)) == (x, y)


def test_fit_keeps_the_proportions_and_never_enlarges():
    assert Scale.fit((1280, 800), max_width=1024).model == (1024, 640)
    assert Scale.fit((412, 915), max_height=768).model == (345, 768)
    assert Scale.fit((1280, 800), max_pixels=1024 * 768).model == (1121, 701)
    assert Scale.fit((640, 480), max_width=1024).model == (640, 480)


def test_normalised_coordinates_map_onto_the_whole_screen():
    scale = Scale.normalized((1280, 800))
    assert scale.to_device(0, 0) == (0, 0)
    assert scale.to_device(500, 500) == (640, 400)
    assert scale.to_device(999, 999) == (1279, 799)


def test_sizes_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        Scale((0, 10), (10, 10))


def test_png_size_reads_the_header_and_resize_resamples():
    image = png(40, 30)
    assert png_size(image) == (40, 30)
    assert png_size(resize_png(image, (20, 15))) == (20, 15)
    assert resize_png(image, (40, 30)) is image
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(30))


def test_ops_become_each_device_kinds_coordinate_actions():
    def one(kind, op):
        [call] = to_calls("dev", kind, op)
        return call.name, call.arguments

    click = PointerOp("click", x=10, y=20)
    assert one("desktop", click) == ("click_at", {"x": 10, "y": 20})
    assert one("browser", click) == ("click_at", {"x": 10, "y": 20})
    assert one("touch", click) == ("tap_at", {"x": 10, "y": 20})
    double = PointerOp("double_click", x=1, y=2)
    assert one("desktop", double) == ("click_at", {"x": 1, "y": 2, "clicks": 2})
    assert one("touch", PointerOp("long_press", x=1, y=2)) == ("long_tap_at", {"x": 1, "y": 2})
    drag = PointerOp("drag", x=1, y=2, to_x=30, to_y=40)
    assert one("desktop", drag) == ("drag", {"from_x": 1, "from_y": 2, "to_x": 30, "to_y": 40})
    assert one("touch", drag) == ("swipe_from", {"x": 1, "y": 2, "to_x": 30, "to_y": 40})
    # Scrolling down a touch screen moves the finger up.
    name, args = one("touch", PointerOp("scroll", x=100, y=500, direction="down", amount=2))
    assert name == "swipe_from" and args["to_y"] < 500 and args["to_x"] == 100
    assert one("desktop", PointerOp("key", keys=("Control", "s"))) == (
        "hotkey",
        {"keys": ["ctrl", "s"]},
    )
    assert one("desktop", PointerOp("key", keys=("Return",))) == ("press", {"key": "enter"})
    assert one("browser", PointerOp("key", keys=("ctrl", "shift", "t"))) == (
        "press",
        {"key": "Control+Shift+t"},
    )
    assert one("browser", PointerOp("key", keys=("pagedown",))) == ("press", {"key": "PageDown"})
    assert one("touch", PointerOp("key", keys=("Escape",))) == ("press", {"key": "back"})
    assert one("touch", PointerOp("key", keys=("enter",))) == ("write_text", {"text": "\n"})
    assert one("touch", PointerOp("type", text="hi")) == ("write_text", {"text": "hi"})
    assert one("touch", PointerOp("clear")) == ("clear_text", {})


def test_clearing_a_field_with_a_keyboard_selects_all_then_deletes():
    calls = to_calls("desktop", "desktop", PointerOp("clear"))
    assert [(c.name, c.arguments) for c in calls] == [
        ("hotkey", {"keys": ["ctrl", "a"]}),
        ("press", {"key": "delete"}),
    ]
    calls = to_calls("browser", "browser", PointerOp("clear"))
    assert [c.arguments["key"] for c in calls] == ["Control+a", "Delete"]


@pytest.mark.parametrize(
    ("kind", "op", "reason"),
    [
        ("browser", PointerOp("drag", x=1, y=1, to_x=2, to_y=2), "browser cannot drag"),
        ("touch", PointerOp("right_click", x=1, y=1), "touch screen cannot right click"),
        ("touch", PointerOp("key", keys=("ctrl", "s")), "no key ctrl\\+s"),
        ("desktop", PointerOp("click"), "click needs a point"),
        ("desktop", PointerOp("drag", x=1, y=1), "needs an end point"),
        ("desktop", PointerOp("key"), "at least one key"),
    ],
)
def test_what_a_device_cannot_do_is_an_invalid_action_with_the_reason(kind, op, reason):
    with pytest.raises(InvalidAction, match=reason):
        to_calls("dev", kind, op)


def test_key_names_fold_common_aliases_but_keep_single_characters():
    assert key_name("Return") == "enter"
    assert key_name("ArrowUp") == "up"
    assert key_name("A") == "A"
    assert key_name("F5") == "f5"
