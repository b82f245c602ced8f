"""The checkpoints of a phone photo edited as a file on the desktop: the edited-photo check
takes the right photo turned, scaled and saved as a JPEG by another program's resampling,
and refuses the camera roll's look-alikes, a wrong turn and a wrong size; the download
check finds the photo among other files, whatever its name."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reefbench.benchmark import photo_files
from reefbench.benchmark.templates import phonephoto
from reefbench.benchmark.templates.gallery import SHOTS, _older_shot
from reefbench.envs.services import photos

Image = pytest.importorskip("PIL.Image")


class Home:
    """The part of a desktop the checkpoints use: paths as the agent sees them."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def host_path(self, path: str) -> Path:
        return self.root / path.removeprefix("~/")


def _env(tmp_path: Path) -> Any:
    return SimpleNamespace(session=Home(tmp_path))


def _jpeg(scene: photos.Scene, edits: list[str], width: int) -> bytes:
    image = photos.photo_after(scene, edits)
    image = image.resize(
        photos.scaled_size(edits, width), Image.Resampling.BILINEAR
    )  # not the checkpoint's LANCZOS
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=75)
    return out.getvalue()


def _edited(tmp_path: Path, content: bytes, edits: list[str], width: int, scene: photos.Scene):
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    (tmp_path / "Pictures" / "out.jpg").write_bytes(content)
    check = photo_files.photo_edited(
        path="~/Pictures/out.jpg",
        caption=scene.caption,
        colour=scene.colour,
        shape=scene.shape,
        edits=edits,
        width=width,
        fmt="JPEG",
    )
    return check.func(**check.bound, env=_env(tmp_path))


@pytest.mark.parametrize("colour", phonephoto.COLOURS)
@pytest.mark.parametrize("width", phonephoto.WIDTHS)
def test_the_right_photo_turned_and_scaled_passes_and_its_look_alikes_do_not(
    tmp_path: Path, colour: str, width: int
) -> None:
    shot = SHOTS[0]
    scene = photos.Scene(shot, colour, "circle")
    edits = ["rotate_left"]
    assert _edited(tmp_path, _jpeg(scene, edits, width), edits, width, scene).success
    for older in (1, 2, 3):  # every older shot in the camera roll
        other = photos.Scene(_older_shot(shot, older), colour, "circle")
        result = _edited(tmp_path, _jpeg(other, edits, width), edits, width, scene)
        assert not result.success and "is not the photo" in result.message


def test_a_wrong_turn_a_wrong_size_and_a_png_fail(tmp_path: Path) -> None:
    scene = photos.Scene(SHOTS[1], "teal", "square")
    edits = ["rotate_right"]
    wrong_turn = _edited(tmp_path, _jpeg(scene, ["rotate_left"], 420), edits, 420, scene)
    assert not wrong_turn.success and "is not the photo" in wrong_turn.message
    small = _edited(tmp_path, _jpeg(scene, edits, 360), edits, 420, scene)
    assert not small.success and "is 360x480, not 420x560" in small.message
    png = io.BytesIO()
    photos.photo_after(scene, edits).resize((420, 560)).save(png, format="PNG")
    assert "is PNG, not JPEG" in _edited(tmp_path, png.getvalue(), edits, 420, scene).message


def test_the_account_check_takes_the_uploaded_jpeg_and_not_the_camera_png() -> None:
    scene = photos.Scene(SHOTS[3], "red", "circle")
    edits = ["rotate_right"]
    assert photos.scaled_mismatch(_jpeg(scene, edits, 420), scene, edits, 420, "JPEG") == ""
    unedited = photos.scaled_mismatch(photos.photo_bytes(scene), scene, edits, 420, "JPEG")
    assert unedited == "it is PNG, not JPEG"
    assert photos.scaled_mismatch(b"text", scene, edits, 420, "JPEG") == "it is not an image"


def test_a_quarter_turn_swaps_the_proportions() -> None:
    assert photos.scaled_size(["rotate_left"], 360) == (360, 480)
    assert photos.scaled_size(["rotate_left", "rotate_right"], 400) == (400, 300)
    assert photos.scaled_size([], 640) == (640, 480)


def test_the_download_is_found_whatever_its_name_and_only_the_photo_counts(
    tmp_path: Path,
) -> None:
    scene = photos.Scene(SHOTS[2], "green", "triangle")
    check = photo_files.photo_downloaded(caption=scene.caption, colour="green", shape="triangle")
    env = _env(tmp_path)
    assert not check.func(**check.bound, env=env).success  # no Downloads folder yet
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    (downloads / "IMG_0001.jpg").write_bytes(b"not a picture")
    look_alike = photos.Scene(_older_shot(scene.caption, 3), "green", "triangle")
    (downloads / "IMG_0003.png").write_bytes(photos.photo_bytes(look_alike))
    assert not check.func(**check.bound, env=env).success
    (downloads / "IMG_0004 (1).png").write_bytes(photos.photo_bytes(scene))
    found = check.func(**check.bound, env=env)
    assert found.success and "IMG_0004 (1).png" in found.message
