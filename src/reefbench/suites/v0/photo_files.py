"""A phone photo as a file on the desktop: checkpoints for the camera roll → browser download
→ image editor path (:mod:`reefbench.envs.downloads`).

A camera-roll photo is drawn from its scene (:mod:`reefbench.apps.photos`), so the desktop
recognises it the way the account does, by drawing the scene again:
:func:`photo_downloaded` finds the photo, pixel for pixel, among the files of the computer's
Downloads folder, and :func:`photo_edited` compares the picture the image editor saved with
the scene turned and scaled the same way, by :func:`local_difference`: scaling and JPEG
leave every small patch close, the look-alike shot (two letters or digits swapped in its
small caption) and a turn the wrong way do not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from reefbench.apps import photos
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import file_key
from reefbench.errors import ActionFailed
from reefbench.evaluators import EvalResult, evaluator

if TYPE_CHECKING:
    from PIL.Image import Image

# Largest mean brightness difference (of 255) allowed in any patch 4 % of the picture wide.
# Measured on Drawing's JPEGs (a quarter turn, 360 and 480 pixels wide): the right photo
# 3-5, the look-alike shot 43-46, a wrong turn 136-168. Over every shot, shape and the
# template's colours in a simulation (Pillow's bilinear scaling, JPEG quality 75, which
# is rougher than Drawing's): the right photo at most 8, the nearest look-alike of the
# camera roll at least 22 (orange and yellow, whose white caption is barely brighter than
# the background, would come down to 10 and are not in the template's pool).
PATCH_LIMIT = 14
PATCH = 0.04
LARGEST_DOWNLOAD = 20 * 1024 * 1024  # bytes read per file when looking for the photo


def _scene(caption: str, colour: str, shape: str) -> photos.Scene:
    return photos.Scene(caption, colour, shape)


@evaluator(moment=True)
def photo_downloaded(
    caption: str,
    colour: str,
    shape: str,
    folder: str = "~/Downloads",
    *,
    env: DesktopDevice,
) -> EvalResult:
    """A file in ``folder`` on the computer is the phone's photo of this scene, pixel for
    pixel, whatever it is called: the photo arrived as a file (the browser saves its
    downloads there). Checked as it happens: the photo may move on afterwards.

    Args:
        caption: Text the photo shows.
        colour: Its background colour.
        shape: Its shape (circle, square, triangle).
        folder: The folder, as the agent sees it.
    """
    expected = photos.photo_after(_scene(caption, colour, shape))
    try:
        where = env.session.host_path(folder)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    files = sorted(p for p in where.iterdir() if p.is_file()) if where.is_dir() else []
    for path in files:
        small = path.stat().st_size <= LARGEST_DOWNLOAD
        if small and photos.same_picture(path.read_bytes(), expected)[0]:
            return EvalResult(success=True, message=f"{folder}/{path.name} is the photo")
    return EvalResult(success=False, message=f"no file in {folder} is the photo of {caption!r}")


def local_difference(expected: Image, found: Image) -> float:
    """The largest mean brightness difference of one small patch (:data:`PATCH` of the
    width) between two pictures of the same size, after a slight blur.

    Brightness alone, because JPEG keeps it and blurs colour (a sharp white caption on
    blue comes back with coloured fringes); the blur, because scaling moves edges by a
    fraction of a pixel; a small patch, because two swapped digits are a few dozen pixels
    that a whole picture's or a large tile's mean would hide.
    """
    from PIL import ImageChops, ImageFilter

    def prepared(image: Image) -> Image:
        return image.convert("L").filter(ImageFilter.GaussianBlur(1))

    diff = ImageChops.difference(prepared(expected), prepared(found))
    radius = max(2, round(found.width * PATCH / 2))
    _lowest, highest = diff.filter(ImageFilter.BoxBlur(radius)).getextrema()
    return float(cast(float, highest))  # one band ("L"): two numbers


def _target_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def edited_size(edits: list[str], width: int) -> tuple[int, int]:
    """The size of the photo turned by ``edits`` and scaled to ``width`` pixels wide, its
    proportions kept."""
    across, down = photos.SIZE
    quarters = sum(e in ("rotate_left", "rotate_right") for e in edits)
    if quarters % 2:
        across, down = down, across
    return width, round(down * width / across)


@evaluator(governs=_target_keys)
def photo_edited(
    path: str,
    caption: str,
    colour: str,
    shape: str,
    edits: list[str],
    width: int,
    fmt: str,
    *,
    env: DesktopDevice,
) -> EvalResult:
    """The picture at ``path`` is the phone's photo of this scene after ``edits`` (turns,
    a mirror), scaled to ``width`` pixels wide with its proportions kept, in format ``fmt``.

    Args:
        path: The edited picture, as the agent sees it.
        caption: Text the photo shows.
        colour: Its background colour.
        shape: Its shape.
        edits: The phone editor's names of the turns and mirror ("rotate_right", ...).
        width: The asked width in pixels.
        fmt: The format as Pillow names it ("JPEG", "PNG").
    """
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    want = edited_size(edits, width)
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
    expected = photos.photo_after(_scene(caption, colour, shape), edits).resize(
        want, PILImage.Resampling.LANCZOS
    )
    worst = local_difference(expected, found)
    if worst > PATCH_LIMIT:
        return EvalResult(
            success=False,
            message=f"{path} is not the photo of {caption!r} as asked (difference {worst:.0f})",
        )
    return EvalResult(
        success=True,
        message=f"{path} is the photo of {caption!r} as asked (difference {worst:.0f})",
    )
