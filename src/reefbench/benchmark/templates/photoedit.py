"""Image-editor subtask templates: a scanned page fixed in the desktop's editor (Drawing)
as a text message on the phone asks.

The instruction names neither the file, the turn nor the size: a colleague's message on the
phone says which scan (by what it reads) and how wide, after a width it takes back. The
folder holds the scan, a look-alike that reads the same but for two digits (also stored on
its side), and two upright scans. The reference solution reads the message on the phone,
opens the scan in the image editor, turns it right, scales it (the height computed from the
proportions) and saves it as a JPEG under the asked name. The checkpoint draws the scan
again upright at the asked size and compares pixels tile by tile
(:func:`reefbench.benchmark.scans.scan_edited`), so the look-alike, a left turn and the
width taken back fail; saving over the scans in the folder is a side effect (the
checkpoint governs only the new file).
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import scans
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import (
    WORDS,
    browser_app,
    call,
    phone_app,
    read_on_phone,
)
from reefbench.benchmark.templates.drawing import (
    drawing_open,
    drawing_quit,
    drawing_rotate,
    drawing_save_as,
    drawing_scale,
)
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
PHOTO_INTENT = "edit a photo in the image editor"
# The mailed variant has an intent of its own, so the texted one's draws stay as they were.
MAIL_INTENT = "prepare a scan a mail asks for"

SENDERS = ["Accounts team", "Tax adviser", "Landlord", "Office manager"]
# A label and a number whose last two digits differ (the look-alike swaps them).
CAPTIONS = [
    "Receipt 4821",
    "Invoice 7305",
    "Lease 2964",
    "Permit 5138",
    "Warranty 6207",
    "Ticket 3914",
]
COLOURS = ["teal", "orange", "purple", "olive"]
WIDTHS = [200, 240, 280, 320]
FOLDERS = ["~/Pictures/Scans", "~/Documents/Scanned", "~/Pictures/Scanner"]
TARGETS = [f"~/Desktop/{w}-scan.jpg" for w in WORDS[:6]]


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def _desktop(action: object) -> ActionStep:
    return ActionStep(env=D, action=action)  # type: ignore[arg-type]


def _taken_back(width: int) -> int:
    """The width the message names first and then takes back."""
    return int(nm.neighbour_in(WIDTHS)(width))


def _others(caption: str) -> list[str]:
    """Two upright scans of other papers in the folder."""
    start = CAPTIONS.index(caption)
    return [CAPTIONS[(start + 2) % len(CAPTIONS)], CAPTIONS[(start + 3) % len(CAPTIONS)]]


def _layout(caption: str, colour: str) -> list[dict[str, Any]]:
    """The folder's four scans, in file order; where the scan and its look-alike fall
    depends on the caption, so no file number is always the answer."""
    other_colour = COLOURS[(COLOURS.index(colour) + 1) % len(COLOURS)]
    scans_ = [
        {"caption": caption, "colour": colour, "sideways": True},
        {"caption": nm.digits_swapped(caption), "colour": colour, "sideways": True},
        *[{"caption": c, "colour": other_colour, "sideways": False} for c in _others(caption)],
    ]
    shift = CAPTIONS.index(caption) % len(scans_)
    ordered = scans_[shift:] + scans_[:shift]
    return [{"name": f"scan_{k + 1:02d}.png", **s} for k, s in enumerate(ordered)]


def _file_of(caption: str, colour: str, wanted: str) -> str:
    """The file name of the scan reading ``wanted`` in the folder laid out for ``caption``."""
    return str(next(s["name"] for s in _layout(caption, colour) if s["caption"] == wanted))


def message_text(caption: str, width: int) -> str:
    label, _, number = caption.rpartition(" ")
    return (
        f"Hi! Could you send me the scan of {label.lower()} {number}? It went through the "
        f"scanner on its side, so please turn it the right way up. I said "
        f"{_taken_back(width)} pixels wide before, but make it {width} pixels wide, "
        "as a JPEG. Thanks!"
    )


def scan_setup(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionStep]:
    return [
        _desktop(scans.draw_scans(folder=folder, scans=_layout(caption, colour))),
        _account(sd.add_message(contact=sender, text=message_text(caption, width))),
    ]


def scan_checkpoints(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[Evaluator]:
    return [
        read_on_phone(f"Conversation with {sender}", "pixels wide"),
        scans.scan_edited(path=target, caption=caption, colour=colour, width=width, fmt="JPEG").on(
            D
        ),
    ]


def _fix_scan(source: str, turn: str, quarters: int, width: int, target: str) -> list[ActionCall]:
    """In the image editor: open ``source``, turn it, scale it to ``width`` keeping the
    scans' proportions, save it as ``target``, quit (both templates' edits)."""
    return [
        *drawing_open(source),
        *drawing_rotate(turn, quarters),
        *drawing_scale(width, width * scans.SIZE[1] // scans.SIZE[0]),
        *drawing_save_as(target),
        *drawing_quit(),
    ]


def _edit(sender: str, source: str, turn: str, width: int, target: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name=sender),
        *_fix_scan(source, turn, 1, width, target),
    ]


def scan_solution(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    source = f"{folder}/{_file_of(caption, colour, caption)}"
    return _edit(sender, source, "right", width, target)


def scan_look_alike(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    """Edits the other sideways scan, whose number has two digits swapped."""
    source = f"{folder}/{_file_of(caption, colour, nm.digits_swapped(caption))}"
    return _edit(sender, source, "right", width, target)


def scan_turned_left(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    """Turns the scan the wrong way: it ends upside down."""
    source = f"{folder}/{_file_of(caption, colour, caption)}"
    return _edit(sender, source, "left", width, target)


def scan_output(
    sender: str, caption: str, colour: str, width: int, folder: str, target: str
) -> str:
    return target


SCAN_FROM_MESSAGE = SubTask(
    id="photoedit.scan_from_message",
    description="{sender} texted your phone about one of the scanned pages in {folder} on "
    "the computer. Fix that scan in the computer's image editor as the message asks and "
    "save it as {target}; leave the scans in {folder} as they are.",
    attributes={
        "sender": "str",
        "caption": "str",
        "colour": "str",
        "width": "int",
        "folder": "str",
        "target": "image_path",
    },
    output_type="image_path",
    outputs=["image_path"],
    env="phone",
    app="image-editor",
    app_category="cross-device",
    intents=[PHOTO_INTENT],
    value_pools={
        "sender": SENDERS,
        "caption": CAPTIONS,
        "colour": COLOURS,
        "width": WIDTHS,
        "folder": FOLDERS,
        "target": TARGETS,
    },
    setup_generator=scan_setup,
    evaluator_generator=scan_checkpoints,
    solution_generator=scan_solution,
    output_generator=scan_output,
    near_misses=[
        NearMiss("edits the look-alike scan", solution=scan_look_alike),
        NearMiss("turns the scan the wrong way", solution=scan_turned_left),
        NearMiss("takes the width the message takes back", changes={"width": _taken_back}),
    ],
)


# ------------------------------------------------ the size a mail in the browser asks for
# The same folder of scans, but the two look-alikes were fed upside down: the scan needs a
# half turn (one quarter leaves it on its side), and the width is in a mail read in the
# desktop browser, after a width the mail takes back.
MAIL_SENDERS = ["records@harbor-lettings.example", "office@dunmore-tax.example"]
MAIL_SUBJECTS = ["The scan we still need", "One scan for our files", "Scan for the archive"]


def mail_text(caption: str, width: int) -> str:
    label, _, number = caption.rpartition(" ")
    return (
        f"Hello, we still need your {label.lower()} number {number} as a picture. Our "
        f"upload form used to take {_taken_back(width)} pixels wide; it now takes exactly "
        f"{width} pixels wide, JPEG only, the right way up. Kind regards"
    )


def _upside_down_layout(caption: str, colour: str) -> list[dict[str, Any]]:
    return [
        {
            "name": s["name"],
            "caption": s["caption"],
            "colour": s["colour"],
            "upside_down": bool(s["sideways"]),
        }
        for s in _layout(caption, colour)
    ]


def mail_scan_setup(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionStep]:
    return [
        _desktop(scans.draw_scans(folder=folder, scans=_upside_down_layout(caption, colour))),
        _account(sd.add_mail(sender=sender, subject=subject, body=mail_text(caption, width))),
    ]


def mail_scan_checkpoints(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[Evaluator]:
    return [
        scans.scan_edited(path=target, caption=caption, colour=colour, width=width, fmt="JPEG").on(
            D
        )
    ]


def _mail_edit(
    subject: str, source: str, quarters: int, width: int, target: str
) -> list[ActionCall]:
    return [
        *browser_app("Mail"),
        call("browser", "click_on", name=subject, role="link"),
        *_fix_scan(source, "right", quarters, width, target),
    ]


def mail_scan_solution(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    source = f"{folder}/{_file_of(caption, colour, caption)}"
    return _mail_edit(subject, source, 2, width, target)


def mail_scan_quarter_turn(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    """Turns the upside-down scan only a quarter: it ends on its side."""
    source = f"{folder}/{_file_of(caption, colour, caption)}"
    return _mail_edit(subject, source, 1, width, target)


def mail_scan_look_alike(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> list[ActionCall]:
    """Edits the other upside-down scan, whose number has two digits swapped."""
    source = f"{folder}/{_file_of(caption, colour, nm.digits_swapped(caption))}"
    return _mail_edit(subject, source, 2, width, target)


def mail_scan_output(
    sender: str, subject: str, caption: str, colour: str, width: int, folder: str, target: str
) -> str:
    return target


SCAN_FROM_MAIL = SubTask(
    id="photoedit.scan_from_mail",
    description='The mail "{subject}" in the account\'s mailbox (read it in the web browser) '
    "asks for one of the scanned pages in {folder} on the computer. Prepare that scan in "
    "the computer's image editor as the mail asks and save it as {target}; leave the scans "
    "in {folder} as they are.",
    attributes={
        "sender": "str",
        "subject": "str",
        "caption": "str",
        "colour": "str",
        "width": "int",
        "folder": "str",
        "target": "image_path",
    },
    output_type="image_path",
    outputs=["image_path"],
    env="browser",
    app="image-editor",
    app_category="cross-device",
    intents=[MAIL_INTENT],
    value_pools={
        "sender": MAIL_SENDERS,
        "subject": MAIL_SUBJECTS,
        "caption": CAPTIONS,
        "colour": COLOURS,
        "width": WIDTHS,
        "folder": FOLDERS,
        "target": TARGETS,
    },
    setup_generator=mail_scan_setup,
    evaluator_generator=mail_scan_checkpoints,
    solution_generator=mail_scan_solution,
    output_generator=mail_scan_output,
    near_misses=[
        NearMiss("turns the upside-down scan only a quarter", solution=mail_scan_quarter_turn),
        NearMiss("edits the look-alike scan", solution=mail_scan_look_alike),
        NearMiss("takes the width the mail takes back", changes={"width": _taken_back}),
    ],
)

TEMPLATES = [SCAN_FROM_MESSAGE, SCAN_FROM_MAIL]
