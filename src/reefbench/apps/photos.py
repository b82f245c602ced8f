"""Photos drawn from a scene: what the gallery's camera "takes" and what seeds an album.

A scene is a caption, a background colour and a shape. The same scene always draws the
same pixels (Pillow, its embedded font, no randomness), so a checkpoint recognises a photo
by drawing its scene again and comparing pixels, whatever the file was renamed to, and an
edit (a quarter turn, a mirror) by comparing with the drawing turned the same way.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
