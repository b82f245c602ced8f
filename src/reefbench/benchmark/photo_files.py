"""A phone photo as a file on the desktop: checkpoints for the camera roll → browser download
→ image editor path (:mod:`reefbench.envs.downloads`).

A camera-roll photo is drawn from its scene (:mod:`reefbench.envs.services.photos`), so the desktop
recognises it the way the account does, by drawing the scene again:
:func:`photo_downloaded` finds the photo, pixel for pixel, among the files of the computer's
Downloads folder, and :func:`photo_edited` compares the picture the image editor saved with
the scene turned and scaled the same way (:func:`reefbench.envs.services.photos.scaled_mismatch`):
scaling and JPEG leave every small patch close, the look-alike shot (two letters or digits
swapped in its small caption) and a turn the wrong way do not.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import file_key
from reefbench.envs.services import photos
from reefbench.errors import ActionFailed

LARGEST_DOWNLOAD = 20 * 1024 * 1024  # bytes read per file when looking for the photo


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
    expected = photos.photo_after(photos.Scene(caption, colour, shape))
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


def _target_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


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
    try:
        content = env.session.host_path(path).read_bytes()
    except (OSError, ActionFailed) as exc:
        return EvalResult(success=False, message=f"cannot read {path}: {exc}")
    scene = photos.Scene(caption, colour, shape)
    problem = photos.scaled_mismatch(content, scene, edits, width, fmt)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path} is the photo of {caption!r} as asked")
