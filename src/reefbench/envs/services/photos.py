"""Photos drawn from a scene: what the gallery's camera "takes" and what seeds an album.

A scene is a caption, a background colour and a shape. The same scene always draws the
same pixels (Pillow, its embedded font, no randomness), so a checkpoint recognises a photo
by drawing its scene again and comparing pixels, whatever the file was renamed to, and an
edit (a quarter turn, a mirror) by comparing with the drawing turned the same way.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from PIL import Image

SIZE = (320, 240)
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (200, 40, 40),
    "orange": (230, 130, 30),
    "yellow": (225, 200, 40),
    "green": (40, 150, 70),
    "teal": (30, 140, 140),
    "blue": (40, 90, 200),
    "purple": (120, 60, 170),
    "grey": (120, 120, 120),
}
SHAPES = ("circle", "square", "triangle")
# What the phone's editor does to a photo, as Pillow transposes (a right turn is clockwise).
EDITS = ("rotate_left", "rotate_right", "flip")


@dataclass(frozen=True)
class Scene:
    """What a photo shows: a caption on a coloured background, beside a white shape."""

    caption: str
    colour: str = "blue"
    shape: str = "circle"

    def __post_init__(self) -> None:
        if self.colour not in COLOURS:
            raise ValueError(f"unknown colour {self.colour!r}: choose one of {', '.join(COLOURS)}")
        if self.shape not in SHAPES:
            raise ValueError(f"unknown shape {self.shape!r}: choose one of {', '.join(SHAPES)}")


def draw(scene: Scene) -> Image.Image:
    """The photo of a scene as an RGB image (always the same pixels for the same scene)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", SIZE, COLOURS[scene.colour])
    pen = ImageDraw.Draw(image)
    box = (24, 24, 124, 124)
    if scene.shape == "circle":
        pen.ellipse(box, fill="white")
    elif scene.shape == "square":
        pen.rectangle(box, fill="white")
    else:
        pen.polygon([(74, 24), (124, 124), (24, 124)], fill="white")
    font = ImageFont.load_default(size=22)
    pen.text((24, 150), scene.caption, fill="white", font=font)
    return image


def edited(image: Image.Image, edits: tuple[str, ...] | list[str]) -> Image.Image:
    """The image after the phone editor's operations, in order."""
    from PIL import Image

    moves = {
        "rotate_left": Image.Transpose.ROTATE_90,
        "rotate_right": Image.Transpose.ROTATE_270,
        "flip": Image.Transpose.FLIP_LEFT_RIGHT,
    }
    for edit in edits:
        if edit not in moves:
            raise ValueError(f"unknown edit {edit!r}: choose one of {', '.join(EDITS)}")
        image = image.transpose(moves[edit])
    return image


def photo_after(scene: Scene, edits: tuple[str, ...] | list[str] = ()) -> Image.Image:
    """The photo of a scene after the phone editor's operations: what the gallery stores
    and what a checkpoint compares a file or an attachment with."""
    return edited(draw(scene), edits)


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def photo_bytes(scene: Scene) -> bytes:
    """The PNG file of a scene's photo."""
    return png(photo_after(scene))


def same_picture(content: bytes, expected: Image.Image) -> tuple[bool, str]:
    """Whether a file's bytes decode to exactly the expected pixels, and why not."""
    from PIL import Image, ImageChops, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(content)) as opened:
            found = opened.convert("RGB")
    except (UnidentifiedImageError, OSError):
        return False, "it is not an image"
    if found.size != expected.size:
        return (
            False,
            f"it is {found.size[0]}x{found.size[1]}, not {expected.size[0]}x{expected.size[1]}",
        )
    if ImageChops.difference(found, expected.convert("RGB")).getbbox() is not None:
        return False, "its pixels differ from the expected photo"
    return True, "same pixels"


# ------------------------------------------------ a photo scaled and saved as a JPEG
# Largest mean brightness difference (of 255) allowed in any patch PATCH of the picture
# wide (:func:`patch_difference`). Measured on Drawing's JPEGs (a quarter turn, 360 and
# 480 pixels wide): the right photo 3-5, the camera roll's look-alike shot 43-46, a wrong
# turn 136-168. Over every camera shot and shape in a simulation (Pillow's bilinear
# scaling, JPEG quality 75, rougher than Drawing's): the right photo at most 8, the nearest
# look-alike at least 22 on teal, purple, green, red, blue and grey; on orange and yellow,
# whose white caption is barely brighter than the background, a look-alike comes down to
# 10, so tasks that scale photos do not use them (:data:`CONTRASTED`).
PATCH = 0.04
PATCH_LIMIT = 14
CONTRASTED = ("teal", "purple", "green", "red", "blue", "grey")


def scaled_size(edits: tuple[str, ...] | list[str], width: int) -> tuple[int, int]:
    """The size of a photo turned by ``edits`` and scaled to ``width`` pixels wide, its
    proportions kept."""
    across, down = SIZE
    if sum(e in ("rotate_left", "rotate_right") for e in edits) % 2:
        across, down = down, across
    return width, round(down * width / across)


def patch_difference(expected: Image.Image, found: Image.Image) -> float:
    """The largest mean brightness difference of one small patch (:data:`PATCH` of the
    width) between two pictures of the same size, after a slight blur.

    Brightness alone, because JPEG keeps it and blurs colour (a sharp white caption on
    blue comes back with coloured fringes); the blur, because scaling moves edges by a
    fraction of a pixel; a small patch, because two swapped digits are a few dozen pixels
    that a whole picture's or a large tile's mean would hide.
    """
    from PIL import ImageChops, ImageFilter

    def prepared(image: Image.Image) -> Image.Image:
        return image.convert("L").filter(ImageFilter.GaussianBlur(1))

    diff = ImageChops.difference(prepared(expected), prepared(found))
    radius = max(2, round(found.width * PATCH / 2))
    _lowest, highest = diff.filter(ImageFilter.BoxBlur(radius)).getextrema()
    return float(cast(float, highest))  # one band ("L"): two numbers


def scaled_mismatch(
    content: bytes, scene: Scene, edits: tuple[str, ...] | list[str], width: int, fmt: str
) -> str:
    """Why a file's bytes are not the photo of ``scene`` after ``edits``, scaled to
    ``width`` pixels wide (proportions kept) and saved as ``fmt`` (Pillow's format name);
    empty when they are. A rescaled JPEG is never pixel-exact, so pixels are compared by
    :func:`patch_difference`."""
    from PIL import Image, UnidentifiedImageError

    want = scaled_size(edits, width)
    try:
        with Image.open(io.BytesIO(content)) as opened:
            if opened.format != fmt:
                return f"it is {opened.format}, not {fmt}"
            if opened.size != want:
                return f"it is {opened.width}x{opened.height}, not {want[0]}x{want[1]}"
            found = opened.convert("RGB")
    except (UnidentifiedImageError, OSError):
        return "it is not an image"
    expected = photo_after(scene, edits).resize(want, Image.Resampling.LANCZOS)
    worst = patch_difference(expected, found)
    if worst > PATCH_LIMIT:
        return f"it is not the photo of {scene.caption!r} as asked (difference {worst:.0f})"
    return ""
