"""Photos drawn from scenes: the same scene is the same pixels, edits are exact."""

from __future__ import annotations

import pytest

from reefbench.envs.services import photos


def test_a_scene_draws_the_same_pixels_and_another_scene_does_not() -> None:
    scene = photos.Scene(caption="Harbor Gym 42.18", colour="teal", shape="triangle")
    content = photos.photo_bytes(scene)
    assert photos.same_picture(content, photos.draw(scene)) == (True, "same pixels")
    lookalike = photos.Scene(caption="Harbor Gym 42.81", colour="teal", shape="triangle")
    ok, why = photos.same_picture(content, photos.draw(lookalike))
    assert not ok and "pixels differ" in why


def test_edits_turn_and_mirror_and_undo_exactly() -> None:
    image = photos.draw(photos.Scene(caption="Bay 31 row C"))
    turned = photos.edited(image, ["rotate_left"])
    assert turned.size == (image.size[1], image.size[0])
    ok, why = photos.same_picture(photos.png(turned), image)
    assert not ok and why == "it is 240x320, not 320x240"
    back = photos.png(photos.edited(turned, ["rotate_right"]))
    assert photos.same_picture(back, image)[0]
    mirrored = photos.png(photos.edited(image, ["flip"]))
    assert not photos.same_picture(mirrored, image)[0]
    assert photos.same_picture(mirrored, photos.edited(image, ["flip"]))[0]


def test_bad_scenes_edits_and_files_are_named() -> None:
    with pytest.raises(ValueError, match="unknown colour 'pink'"):
        photos.Scene(caption="x", colour="pink")
    with pytest.raises(ValueError, match="unknown shape 'star'"):
        photos.Scene(caption="x", shape="star")
    with pytest.raises(ValueError, match="unknown edit 'crop'"):
        photos.edited(photos.draw(photos.Scene(caption="x")), ["crop"])
    assert photos.same_picture(b"not a png", photos.draw(photos.Scene(caption="x"))) == (
        False,
        "it is not an image",
    )
