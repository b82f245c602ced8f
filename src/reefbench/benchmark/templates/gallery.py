"""Gallery subtask templates: photos on the phone, edited and moved as files.

The phone's Gallery (:mod:`reefbench.envs.services.gallery`) is the camera roll: albums are folders
of Files, so a photo taken on the phone is a file the desktop browser opens, copies and
edits, and one the phone attaches to a mail. The instructions name a photo by what it shows
(its caption), never by its file name, and every album holds a look-alike (the same scene
with two digits swapped) and photos stored sideways: finding the right one means opening
photos and reading them. Checkpoints compare pixels with the scene drawn again
(:func:`~reefbench.envs.services.evaluators.photo_at`,
:func:`~reefbench.envs.services.evaluators.photo_mailed`),
so a renamed copy of the right photo passes and the look-alike, the unedited photo or the
photo turned the wrong way fails.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import (
    EMAILS,
    SUBJECTS,
    TEXTS,
    browser_app,
    browser_fill,
    call,
    phone_app,
    phone_fill,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER, PHONE
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

GALLERY_INTENT = "move photos between the phone and the computer"
CATEGORY = "photos"

# One photo each: the album it is in, its file name, what it shows. Captions carry a number
# so that the look-alike (digits swapped, same colour and shape) differs in what it says.
PHOTOS: list[dict[str, Any]] = [
    {"album": "Receipts", "photo": "IMG_0412.png", "caption": "Harbor Gym 42.18"},
    {"album": "Receipts", "photo": "IMG_0527.png", "caption": "Cafe Blue 17.35"},
    {"album": "Whiteboard", "photo": "IMG_0633.png", "caption": "Launch on 14 June"},
    {"album": "Whiteboard", "photo": "IMG_0748.png", "caption": "Budget 3,260"},
    {"album": "Trip", "photo": "IMG_0851.png", "caption": "Gate 27 at 07:45"},
    {"album": "Trip", "photo": "IMG_0964.png", "caption": "Room 418 code 5139"},
    {"album": "Parking", "photo": "IMG_1072.png", "caption": "Level P2 spot 46"},
    {"album": "Parking", "photo": "IMG_1185.png", "caption": "Bay 31 row C"},
]
COLOURS = ["teal", "orange", "purple", "green", "red", "blue", "grey", "yellow"]
SHAPES = ["circle", "square", "triangle"]
# The camera's shot: what the phone's camera is pointed at when the task starts.
SHOTS = [
    "Meter reading 48213",
    "Shelf 7 box 52",
    "Plate KX 6291",
    "Serial 73-1904",
    "Locker 318 blue",
    "Bike lock 2751",
    "Fuse board 94",
    "Poster 24 May",
]
COPY_NAMES = [f"{w}.png" for w in ("scan", "proof", "evidence", "record", "snapshot", "copy")]
TARGET_ALBUMS = ["Shared", "To print", "For Dana", "Archive"]


def _next_photo(name: str) -> str:
    """The file beside it in the album (IMG_0412.png -> IMG_0413.png): the look-alike."""
    number = int(name[4:8])
    return f"IMG_{number + 1:04d}.png"


def _older_photo(name: str) -> str:
    """The photo before it (IMG_0412.png -> IMG_0411.png): a filler of its own."""
    number = int(name[4:8])
    return f"IMG_{number - 1:04d}.png"


def _phone_photo(album: str, photo: str) -> list[ActionCall]:
    """Open the Gallery on the phone, the album, then the photo."""
    return [
        *phone_app("drawer_gallery"),
        call("phone", "tap_on", name=album),
        call("phone", "tap_on", name=photo),
    ]


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


# ------------------------------------------ sideways photo, upright, mailed and copied
SAVE_FOLDERS = ["Documents/Expenses", "Documents/Scans", "Shared/Photos", "Archive/2024"]
COPY_NAMES_UPRIGHT = [f"{w}.png" for w in ("upright", "fixed", "keep", "final", "clean", "good")]


def upright_mail_setup(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionStep]:
    # The photo and its look-alike were both taken sideways; a filler is upright.
    return [
        _account(
            sd.add_photo(
                album=album,
                name=_older_photo(photo),
                caption=nm.typo(caption),
                colour=colour,
                shape="square" if shape != "square" else "circle",
            )
        ),
        _account(
            sd.add_photo(
                album=album,
                name=photo,
                caption=caption,
                colour=colour,
                shape=shape,
                edits=["rotate_left"],
            )
        ),
        _account(
            sd.add_photo(
                album=album,
                name=_next_photo(photo),
                caption=nm.digits_swapped(caption),
                colour=colour,
                shape=shape,
                edits=["rotate_left"],
            )
        ),
        _account(sd.add_folder(path=folder)),
    ]


def upright_mail_checkpoints(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[Evaluator]:
    return [
        aev.photo_at(
            path=f"Photos/{album}/{photo}", caption=caption, colour=colour, shape=shape, by=PHONE
        ),
        aev.photo_mailed(
            to=to,
            subject=subject,
            body=body,
            caption=caption,
            colour=colour,
            shape=shape,
            by=PHONE,
        ),
        aev.photo_at(
            path=f"{folder}/{copy}", caption=caption, colour=colour, shape=shape, by=PHONE
        ),
    ]


def _share_and_copy_on_phone(
    to: str, subject: str, body: str, folder: str, copy: str
) -> list[ActionCall]:
    return [
        call("phone", "tap_on", name="Share by mail"),
        *phone_fill(("to", to), ("subject", subject), ("body", body)),
        call("phone", "tap_on", name="Send"),
        *phone_fill(("copy-folder", folder), ("copy-name", copy)),
        call("phone", "tap_on", name="Save copy"),
    ]


def _upright_on_phone(
    turn: str,
    album: str,
    photo: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionCall]:
    return [
        *_phone_photo(album, photo),
        *([call("phone", "tap_on", name=turn)] if turn else []),
        *_share_and_copy_on_phone(to, subject, body, folder, copy),
    ]


def upright_mail_solution(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionCall]:
    return _upright_on_phone("Rotate right", album, photo, to, subject, body, folder, copy)


def upright_mail_turned_left(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionCall]:
    return _upright_on_phone("Rotate left", album, photo, to, subject, body, folder, copy)


def upright_mail_unturned(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionCall]:
    return _upright_on_phone("", album, photo, to, subject, body, folder, copy)


def upright_mail_in_browser(
    album: str,
    photo: str,
    caption: str,
    colour: str,
    shape: str,
    to: str,
    subject: str,
    body: str,
    folder: str,
    copy: str,
) -> list[ActionCall]:
    return [
        *browser_app("Gallery"),
        call("browser", "click_on", name=album, role="link"),
        call("browser", "click_on", name=photo, role="link"),
        call("browser", "click_on", name="Rotate right", role="button"),
        call("browser", "click_on", name="Share by mail", role="link"),
        *browser_fill(("To", to), ("Subject", subject), ("Message", body)),
        call("browser", "click_on", name="Send", role="button"),
        *browser_fill(("Save a copy to folder", folder), ("Copy name", copy)),
        call("browser", "click_on", name="Save copy", role="button"),
    ]


UPRIGHT_MAIL = SubTask(
    id="gallery.upright_mail",
    description="On the phone, the Gallery's {album} album has a photo, taken sideways, that "
    'reads "{caption}". Turn that photo upright in the Gallery, share it by mail from the '
    'phone to {to} with the subject {subject} and the message "{body}", then save an '
    "upright copy of it into the Files folder {folder} named {copy}.",
    attributes={
        "album": "str",
        "photo": "str",
        "caption": "str",
        "colour": "str",
        "shape": "str",
        "to": "email",
        "subject": "str",
        "body": "text",
        "folder": "str",
        "copy": "str",
    },
    outputs=["mail"],
    env="phone",
    app="gallery",
    app_category=CATEGORY,
    intents=[GALLERY_INTENT],
    value_pools={
        **{
            attribute: [p[attribute] for p in PHOTOS] for attribute in ("album", "photo", "caption")
        },
        "colour": COLOURS,
        "shape": SHAPES,
        "to": EMAILS,
        "subject": SUBJECTS,
        "body": TEXTS,
        "folder": SAVE_FOLDERS,
        "copy": COPY_NAMES_UPRIGHT,
    },
    value_records=[dict(p) for p in PHOTOS],
    setup_generator=upright_mail_setup,
    evaluator_generator=upright_mail_checkpoints,
    solution_generator=upright_mail_solution,
    near_misses=[
        NearMiss("shares the look-alike photo beside it", changes={"photo": _next_photo}),
        NearMiss("turns the photo the wrong way", solution=upright_mail_turned_left),
        NearMiss("shares and copies the photo without turning it", solution=upright_mail_unturned),
        NearMiss("does it all in the desktop browser", solution=upright_mail_in_browser),
    ],
)


# ----------------------------------- phone camera, copied and mirrored in the browser
CAMERA_FILLERS = 3  # IMG_0001..0003 are in the camera roll already; the shot is IMG_0004
SHOT_PATH = f"Photos/Camera/IMG_{CAMERA_FILLERS + 1:04d}.png"


def _older_shot(shot: str, n: int) -> str:
    """What the camera roll's n-th older shot shows: nearly the shot, never exactly."""
    return {1: nm.typo(shot), 2: f"{shot} (old)"}.get(n, nm.digits_swapped(shot))


def older_shots(shot: str, colour: str, shape: str) -> list[ActionStep]:
    """The camera roll before the shot: older shots of the same kind of thing (same colour
    and shape), the newest of them a look-alike (:func:`_older_shot`)."""
    return [
        _account(
            sd.add_photo(
                album="Camera",
                name=f"IMG_{n:04d}.png",
                caption=_older_shot(shot, n),
                colour=colour,
                shape=shape,
            )
        )
        for n in range(1, CAMERA_FILLERS + 1)
    ]


LOOK_ALIKE_SHOT = f"IMG_{CAMERA_FILLERS:04d}.png"
"""The newest older shot, whose caption has the shot's two last digits swapped."""


def take_on_phone() -> list[ActionCall]:
    """Open the Gallery on the phone and take a photo with its camera."""
    return [*phone_app("drawer_gallery"), call("phone", "tap_on", name="Take photo")]


def camera_copy_setup(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[ActionStep]:
    return [
        *older_shots(shot, colour, shape),
        _account(sd.add_folder(path=f"Photos/{target}")),
        _account(sd.set_camera_scene(caption=shot, colour=colour, shape=shape)),
    ]


def camera_copy_checkpoints(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[Evaluator]:
    return [
        aev.photo_at(path=SHOT_PATH, caption=shot, colour=colour, shape=shape, by=PHONE),
        aev.photo_at(
            path=f"Photos/{target}/{name}",
            caption=shot,
            colour=colour,
            shape=shape,
            edits=["flip"],
            by=BROWSER,
        ),
    ]


def _copy_in_browser(photo: str, target: str, name: str, mirror: bool) -> list[ActionCall]:
    return [
        *browser_app("Gallery"),
        call("browser", "click_on", name="Camera", role="link"),
        call("browser", "click_on", name=photo, role="link"),
        *browser_fill(("Save a copy to folder", f"Photos/{target}"), ("Copy name", name)),
        call("browser", "click_on", name="Save copy", role="button"),
        # The copy opens in Files; the Gallery's album shows it among the photos.
        *browser_app("Gallery"),
        call("browser", "click_on", name=target, role="link"),
        call("browser", "click_on", name=name, role="link"),
        *([call("browser", "click_on", name="Mirror", role="button")] if mirror else []),
    ]


def camera_copy_solution(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[ActionCall]:
    return [*take_on_phone(), *_copy_in_browser(SHOT_PATH.rpartition("/")[2], target, name, True)]


def camera_copy_older_shot(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[ActionCall]:
    return [*take_on_phone(), *_copy_in_browser(LOOK_ALIKE_SHOT, target, name, True)]


def camera_copy_unmirrored(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[ActionCall]:
    return [*take_on_phone(), *_copy_in_browser(SHOT_PATH.rpartition("/")[2], target, name, False)]


def camera_copy_shot_in_browser(
    shot: str, colour: str, shape: str, target: str, name: str
) -> list[ActionCall]:
    return [
        *browser_app("Gallery"),
        call("browser", "click_on", name="Take photo", role="button"),
        *_copy_in_browser(SHOT_PATH.rpartition("/")[2], target, name, True),
    ]


CAMERA_COPY = SubTask(
    id="gallery.camera_copy",
    description="Take a photo with the phone's camera (the Gallery's Take photo). Then open "
    "that new photo in the Gallery in the desktop browser, save a copy of it into the "
    "{target} album named {name}, and mirror the copy (the photo on the phone stays as it "
    "was).",
    attributes={"shot": "str", "colour": "str", "shape": "str", "target": "str", "name": "str"},
    outputs=["photo"],
    env="phone",
    app="gallery",
    app_category=CATEGORY,
    intents=[GALLERY_INTENT],
    value_pools={
        "shot": SHOTS,
        "colour": COLOURS,
        "shape": SHAPES,
        "target": TARGET_ALBUMS,
        "name": COPY_NAMES,
    },
    setup_generator=camera_copy_setup,
    evaluator_generator=camera_copy_checkpoints,
    solution_generator=camera_copy_solution,
    near_misses=[
        NearMiss("copies the older look-alike shot", solution=camera_copy_older_shot),
        NearMiss("saves the copy without mirroring it", solution=camera_copy_unmirrored),
        NearMiss("takes the photo in the desktop browser", solution=camera_copy_shot_in_browser),
    ],
)

TEMPLATES = [UPRIGHT_MAIL, CAMERA_COPY]
# At most once per task: the camera shows one scene, and its shot has one file name.
SINGLE_USE_TEMPLATES = frozenset({CAMERA_COPY.id})
