"""Scanned pages on the desktop for the image editor's tasks: drawn by a setup action, checked
by redrawing them.

A scan is a 400x300 picture of one colour with a white block in its top-left corner, the
caption's label beside it and its number in large type below (:func:`draw_scan`). The block
makes every quarter turn and mirror visible; the caption is what an instruction names a scan
by, and a look-alike differs from it in two digits only. The checkpoint
(:func:`scan_edited`) draws the scan again, upright, scales it to the asked width and
compares pixels tile by tile: the whole picture's mean difference would let a caption with
two digits swapped pass, a tile's does not, and JPEG artefacts stay far below the limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import file_key
from reefbench.errors import ActionFailed

if TYPE_CHECKING:
    from PIL.Image import Image

SIZE = (400, 300)
TILES = 6
# Largest mean difference (of 255, any channel) allowed in one tile of the 6x6 grid.
# Measured with Pillow's bilinear and nearest scaling and JPEG at quality 75, 200 to 320
# pixels wide: the right scan stays under 12, the look-alike's number tiles are above 36,
# a wrong turn's block tiles near 255.
TILE_LIMIT = 22


def draw_scan(caption: str, colour: str) -> Image:
    """The scan upright: ``colour`` background, the white corner block, the caption's
    words ("Receipt") beside the block and its last word, a number, in large type below."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    label, _, number = caption.rpartition(" ")
    image = PILImage.new("RGB", SIZE, colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 150, 110), fill="white")
    draw.text((170, 30), label, fill="black", font=ImageFont.load_default(size=36))
    draw.text((30, 150), number, fill="black", font=ImageFont.load_default(size=110))
    return image


@action
def draw_scans(folder: str, scans: list[dict[str, Any]], env: DesktopDevice) -> str:
    """Draw scanned pages into a folder of the home (setup).

    Args:
        folder: The folder, as the agent sees it (e.g. "~/Pictures/Scans").
        scans: One entry per file: "name" (e.g. "scan_03.png"), "caption", "colour", and
            "sideways" (true: stored turned a quarter to the left, as a scanner fed the
            page on its side leaves it) or "upside_down" (true: stored turned a half).
    """
    from PIL import Image as PILImage

    target = env.session.host_path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for scan in scans:
        image = draw_scan(str(scan["caption"]), str(scan["colour"]))
        if scan.get("sideways"):
            image = image.transpose(PILImage.Transpose.ROTATE_90)
        if scan.get("upside_down"):
            image = image.transpose(PILImage.Transpose.ROTATE_180)
        image.save(target / str(scan["name"]), format="PNG")
    return f"drew {len(scans)} scans in {folder}"


def _target_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _worst_tile(expected: Image, found: Image) -> float:
    from PIL import ImageChops, ImageStat

    diff = ImageChops.difference(expected, found)
    width, height = diff.size
    worst = 0.0
    for row in range(TILES):
        for col in range(TILES):
            box = (
                col * width // TILES,
                row * height // TILES,
                (col + 1) * width // TILES,
                (row + 1) * height // TILES,
            )
            worst = max(worst, *ImageStat.Stat(diff.crop(box)).mean)
    return worst


@evaluator(governs=_target_keys)
def scan_edited(
    path: str, caption: str, colour: str, width: int, fmt: str, env: DesktopDevice
) -> EvalResult:
    """The picture at ``path`` is the scan that reads ``caption``, upright, scaled to
    ``width`` pixels wide with its proportions kept, in format ``fmt``.

    Args:
        path: The edited picture, as the agent sees it.
        caption: What the scan reads.
        colour: Its background colour.
        width: The asked width in pixels.
        fmt: The format as Pillow names it ("JPEG", "PNG").
    """
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    want = (width, round(SIZE[1] * width / SIZE[0]))
    try:
        with PILImage.open(env.session.host_path(path)) as opened:
            if opened.format != fmt:
                return EvalResult(success=False, message=f"{path} is {opened.format}, not {fmt}")
            if opened.size != want:
                size = f"{opened.width}x{opened.height}"
                return EvalResult(
                    success=False, message=f"{path} is {size}, not {want[0]}x{want[1]}"
                )
            found = opened.convert("RGB")
    except (OSError, UnidentifiedImageError, ActionFailed) as exc:
        return EvalResult(success=False, message=f"cannot read {path}: {exc}")
    problem = mismatch(found, caption, colour)
    if problem:
        return EvalResult(success=False, message=f"{path} {problem}")
    return EvalResult(success=True, message=f"{path} is the scan {caption!r}, upright")


def mismatch(found: Image, caption: str, colour: str) -> str:
    """Why ``found`` (RGB, at its own size) is not the scan reading ``caption`` upright and
    scaled to that size; empty when it is."""
    from PIL import Image as PILImage

    expected = draw_scan(caption, colour).resize(found.size, PILImage.Resampling.LANCZOS)
    worst = _worst_tile(expected, found)
    if worst > TILE_LIMIT:
        return f"is not the scan {caption!r} upright (difference {worst:.0f})"
    return ""
