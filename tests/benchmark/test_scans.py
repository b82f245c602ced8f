"""The scans of the image editor's tasks: the pixel check takes the right scan, scaled and
saved as a JPEG with another program's resampling, and refuses the look-alike (two digits
swapped), a wrong turn and another colour."""

from __future__ import annotations

import io

import pytest

from reefbench.benchmark.scans import SIZE, draw_scan, mismatch

Image = pytest.importorskip("PIL.Image")

CAPTION, COLOUR = "Receipt 4821", "teal"


def _saved_jpeg(image: Image.Image) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=75)
    buffer.seek(0)
    return Image.open(buffer).convert("RGB")


def _scaled(image: Image.Image, width: int, how: Image.Resampling) -> Image.Image:
    return _saved_jpeg(image.resize((width, width * SIZE[1] // SIZE[0]), how))


@pytest.mark.parametrize("width", [200, 240, 280, 320])
@pytest.mark.parametrize("how", [Image.Resampling.BILINEAR, Image.Resampling.NEAREST])
def test_the_right_scan_scaled_and_saved_as_jpeg_passes(width: int, how: Image.Resampling) -> None:
    assert mismatch(_scaled(draw_scan(CAPTION, COLOUR), width, how), CAPTION, COLOUR) == ""


@pytest.mark.parametrize(
    "wrong",
    [
        draw_scan("Receipt 4812", COLOUR),  # the look-alike
        draw_scan(CAPTION, COLOUR).transpose(Image.Transpose.ROTATE_180),  # turned left
        draw_scan(CAPTION, "orange"),
    ],
    ids=["look-alike", "upside-down", "other-colour"],
)
def test_a_wrong_picture_of_the_right_size_fails(wrong: Image.Image) -> None:
    found = _scaled(wrong, 240, Image.Resampling.BILINEAR)
    assert "is not the scan 'Receipt 4821' upright" in mismatch(found, CAPTION, COLOUR)


def test_the_corner_block_shows_which_way_is_up() -> None:
    upright = draw_scan(CAPTION, COLOUR)
    assert upright.size == SIZE
    assert upright.getpixel((5, 5)) == (255, 255, 255)  # the corner block shows the way up
