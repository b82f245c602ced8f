"""A photo taken on the phone, edited as a file in the desktop's image editor and sent back
to the phone: CRAB's own example of work that crosses devices, in both directions.

The phone's camera saves the shot to the camera roll (the account's ``Photos/Camera``);
it reaches the computer as a file only through the computer's web browser, whose downloads
land in the desktop's ``~/Downloads``, and goes back through the browser's file chooser,
which opens the desktop's files (:mod:`reefbench.envs.filetransfer`): uploaded into an
album's folder, it is in the phone's Gallery. The image editor (Drawing) turns and scales
it in between. The instruction names neither the files nor the route. The camera roll
holds older shots of the same thing, the newest of them a look-alike whose caption has two
digits swapped, so downloading the newest photo *before* taking the shot, or the photo
above it in the list, edits the wrong picture.

Checkpoints, in order: the phone took the photo and the camera roll keeps it unedited
(:func:`~reefbench.envs.services.evaluators.photo_at`, by the phone); the photo arrived in the
computer's Downloads, pixel for pixel (:func:`~reefbench.benchmark.photo_files.photo_downloaded`);
the saved JPEG is that photo turned and scaled as asked
(:func:`~reefbench.benchmark.photo_files.photo_edited`); the album holds that JPEG,
uploaded by the browser (:func:`~reefbench.envs.services.evaluators.photo_scaled_at`).
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import photo_files
from reefbench.benchmark.templates.common import (
    WORDS,
    browser_app,
    call,
    q,
    terminal,
)
from reefbench.benchmark.templates.drawing import (
    drawing_open,
    drawing_quit,
    drawing_rotate,
    drawing_save_as,
    drawing_scale,
)
from reefbench.benchmark.templates.gallery import (
    LOOK_ALIKE_SHOT,
    SHAPES,
    SHOT_PATH,
    SHOTS,
    TARGET_ALBUMS,
    older_shots,
    take_on_phone,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import photos
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER, PHONE
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
PHONE_PHOTO_INTENT = "edit a phone photo on the computer"
SHOT = SHOT_PATH.rpartition("/")[2]
TURNS = ["left", "right"]
# The gallery's colours but orange and yellow: a white caption on them is too faint for the
# checkpoint to tell a look-alike's by brightness (photos.PATCH_LIMIT).
COLOURS = list(photos.CONTRASTED)
# Upscaled (the turned photo is 240 wide): the caption stays legible to the checkpoint.
WIDTHS = [360, 420, 480]
TARGETS = [f"~/Pictures/{w}-photo.jpg" for w in WORDS[6:12]]
# The camera roll's photos as the desktop sees them once downloaded.
DOWNLOADS = "~/Downloads"


def _edits(turn: str) -> list[str]:
    return [f"rotate_{turn}"]


def _album_path(album: str, target: str) -> str:
    return f"Photos/{album}/{target.rpartition('/')[2]}"


def phone_photo_setup(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[ActionStep]:
    return [
        *older_shots(shot, colour, shape),
        ActionStep(env="services", action=sd.add_folder(path=f"Photos/{album}")),
        ActionStep(
            env="services",
            action=sd.set_camera_scene(caption=shot, colour=colour, shape=shape),
        ),
    ]


def phone_photo_checkpoints(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[Evaluator]:
    return [
        aev.photo_at(path=SHOT_PATH, caption=shot, colour=colour, shape=shape, by=PHONE),
        photo_files.photo_downloaded(caption=shot, colour=colour, shape=shape).on(D),
        photo_files.photo_edited(
            path=target,
            caption=shot,
            colour=colour,
            shape=shape,
            edits=_edits(turn),
            width=width,
            fmt="JPEG",
        ).on(D),
        aev.photo_scaled_at(
            path=_album_path(album, target),
            caption=shot,
            edits=_edits(turn),
            width=width,
            colour=colour,
            shape=shape,
            by=BROWSER,
        ),
    ]


def _download(photo: str) -> list[ActionCall]:
    """In the computer's browser: the account's Files, the camera roll, the photo,
    Download (it lands in ~/Downloads)."""
    return [
        *browser_app("Files"),
        call("browser", "click_on", name="Photos", role="link"),
        call("browser", "click_on", name="Camera", role="link"),
        call("browser", "click_on", name=photo, role="link"),
        call("browser", "click_on", name="Download", role="link"),
    ]


def _edit(photo: str, turn: str, width: int, target: str) -> list[ActionCall]:
    """In the image editor: the downloaded photo, turned, scaled (proportions kept),
    saved as the JPEG ``target``."""
    height = photos.scaled_size(_edits(turn), width)[1]
    return [
        *drawing_open(f"{DOWNLOADS}/{photo}"),
        *drawing_rotate(turn),
        *drawing_scale(width, height),
        *drawing_save_as(target),
        *drawing_quit(),
    ]


def _upload(path: str, album: str) -> list[ActionCall]:
    """In the computer's browser: the album's folder in Files, its file chooser, the
    computer's file, Upload."""
    return [
        *browser_app("Files"),
        call("browser", "click_on", name="Photos", role="link"),
        call("browser", "click_on", name=album, role="link"),
        call("browser", "click_on", name="Choose files"),
        call("browser", "choose_file", path=path),
        call("browser", "click_on", name="Upload", role="button"),
    ]


def phone_photo_solution(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[ActionCall]:
    return [
        *take_on_phone(),
        *_download(SHOT),
        *_edit(SHOT, turn, width, target),
        *_upload(target, album),
    ]


def phone_photo_look_alike(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[ActionCall]:
    """Takes the photo and downloads it, but also the older shot beside it in the list,
    and edits and uploads that one: the photo did reach the computer, the edit is of the
    wrong one."""
    return [
        *take_on_phone(),
        *_download(SHOT),
        *_download(LOOK_ALIKE_SHOT),
        *_edit(LOOK_ALIKE_SHOT, turn, width, target),
        *_upload(target, album),
    ]


def phone_photo_turned_on_phone(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[ActionCall]:
    """Turns the photo in the phone's Gallery (the camera roll's photo changes), then
    downloads it, only scales it on the computer and uploads it."""
    height = photos.scaled_size(_edits(turn), width)[1]
    return [
        *take_on_phone(),  # the Gallery shows the new photo, with its editor's buttons
        call("phone", "tap_on", name=f"Rotate {turn}"),
        *_download(SHOT),
        *drawing_open(f"{DOWNLOADS}/{SHOT}"),
        *drawing_scale(width, height),
        *drawing_save_as(target),
        *drawing_quit(),
        *_upload(target, album),
    ]


def phone_photo_unedited_upload(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[ActionCall]:
    """Edits the photo, but uploads the download (the photo as the camera took it) under
    the edited file's name."""
    name = target.rpartition("/")[2]
    return [
        *take_on_phone(),
        *_download(SHOT),
        *_edit(SHOT, turn, width, target),
        *terminal(f"cp {q(f'{DOWNLOADS}/{SHOT}')} {q(f'/tmp/{name}')}"),
        *_upload(f"/tmp/{name}", album),
    ]


def phone_photo_output(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> str:
    return _album_path(album, target)


def phone_photo_allowances(
    shot: str, colour: str, shape: str, turn: str, width: int, target: str, album: str
) -> list[str]:
    """The download itself: the browser saves it in ~/Downloads, and the checkpoint that
    sees it arrive is a moment's, so it keeps nothing there."""
    return [f"{D}|file:/home/user/Downloads"]


PHONE_PHOTO = SubTask(
    id="photoedit.phone_photo",
    description="Take a photo with the phone's camera (the Gallery's Take photo). On the "
    "computer, edit that photo as a file in the image editor: turn it a quarter to the "
    "{turn}, make it {width} pixels wide with its proportions kept, and save it as a JPEG "
    "at {target}. Then put that JPEG into the phone Gallery's {album} album from the "
    "computer's web browser. The photo in the phone's camera roll stays as it was.",
    attributes={
        "shot": "str",
        "colour": "str",
        "shape": "str",
        "turn": "str",
        "width": "int",
        "target": "image_path",
        "album": "str",
    },
    output_type="str",
    outputs=["photo"],
    env="phone",
    app="image-editor",
    app_category="cross-device",
    intents=[PHONE_PHOTO_INTENT],
    value_pools={
        "shot": SHOTS,
        "colour": COLOURS,
        "shape": SHAPES,
        "turn": TURNS,
        "width": WIDTHS,
        "target": TARGETS,
        "album": TARGET_ALBUMS,
    },
    setup_generator=phone_photo_setup,
    evaluator_generator=phone_photo_checkpoints,
    solution_generator=phone_photo_solution,
    output_generator=phone_photo_output,
    allowances=phone_photo_allowances,
    near_misses=[
        NearMiss(
            "downloads the older look-alike shot too and edits and uploads it",
            solution=phone_photo_look_alike,
        ),
        NearMiss(
            "turns the photo in the phone's Gallery, not in the image editor",
            solution=phone_photo_turned_on_phone,
        ),
        NearMiss(
            "uploads the photo as the camera took it under the edited file's name",
            solution=phone_photo_unedited_upload,
        ),
    ],
)

TEMPLATES = [PHONE_PHOTO]
# At most once per task: the camera shows one scene, and its shot has one file name.
SINGLE_USE_TEMPLATES = frozenset({PHONE_PHOTO.id})
