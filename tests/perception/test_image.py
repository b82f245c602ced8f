from __future__ import annotations

import io
import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from reefbench.perception.image import encode_png, feature_similarity, find_template, similarity
from reefbench.perception.ocr import group_lines, ocr_image


def _scene(seed: int) -> Image.Image:
    image = Image.new("RGB", (320, 200), "white")
    draw = ImageDraw.Draw(image)
    for i in range(12):
        x, y = (seed * 37 + i * 53) % 280, (seed * 11 + i * 29) % 160
        draw.rectangle((x, y, x + 30, y + 25), fill=((i * 40) % 255, (seed * 60) % 255, 120))
    draw.ellipse((100 + seed, 60, 160 + seed, 120), outline="black", width=3)
    return image


def test_png_encoding_and_downscale() -> None:
    png = encode_png(_scene(1), max_width=160)
    assert png.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(png)).size == (160, 100)


def test_template_is_found_where_it_is() -> None:
    screen = _scene(1)
    template = screen.crop((90, 50, 170, 130))
    match = find_template(screen, template)
    assert match is not None and match.score > 0.99
    assert match.box == (90, 50, 80, 80)
    assert find_template(template, screen) is None  # larger than the haystack


def test_similarity_separates_same_from_different() -> None:
    a = _scene(1)
    assert similarity(a, a.resize((640, 400))) > 0.95
    assert similarity(a, _scene(4)) < 0.6
    assert feature_similarity(a, a) > feature_similarity(a, _scene(4))


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_ocr_reads_rendered_words_with_boxes() -> None:
    image = Image.new("RGB", (400, 80), "white")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 14)
    ImageDraw.Draw(image).text((20, 30), "Pelican harbour", fill="black", font=font)
    lines = group_lines(ocr_image(image, offset=(100, 0)))
    match = next(line for line in lines if "Pelican" in line.text)
    assert match.text == "Pelican harbour"
    x, y, _, _ = match.box
    assert 115 <= x <= 125 and 25 <= y <= 40
