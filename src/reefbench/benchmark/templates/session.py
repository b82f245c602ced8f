"""Desktop session templates: the wallpaper, through the Desktop Settings app.

The pictures are told apart only by their file names, which the settings app shows as
tooltips over unlabeled thumbnails, and two of them are look-alikes (the same coast in
the morning and in the evening, in two oranges): an agent has to find the right one, not
take the first orange picture. Checkpoints read xfdesktop's settings (xfconf) and the
file the desktop actually drew (:mod:`reefbench.envs.desktop.session_evaluators`).

The reference solution opens the settings app by name, points its folder chooser at
~/Wallpapers, clicks the picture's thumbnail (the thumbnails are not accessible elements:
they are clicked where the app lays them out, in file-name order, three to a row) and
picks the style from its list. Solutions leave the app open (its last click is what the
checkpoints verify); the next subtask's ``search_app`` brings the same window back and
picks its own tab first.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import call
from reefbench.envs.desktop import session_evaluators as sev
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask, register_attribute_type
from reefbench.tasks.task import ActionStep

D = "desktop"
# A picture of the Wallpapers folder (a file name) and a style of the settings app: own
# types, so synthesis never links another template's output into them.
for _name in ("wallpaper", "wallpaper_style", "wallpaper_note"):
    register_attribute_type(_name, str)
SESSION_INTENT = "personalise the desktop"
WALLPAPER_FOLDER = "~/Wallpapers"
# (file name, colour): sorted by name, the order the settings app shows them in.
WALLPAPERS: tuple[tuple[str, str], ...] = (
    ("coast-evening.png", "darkorange"),
    ("coast-morning.png", "orange"),
    ("forest.png", "forestgreen"),
    ("harbour.png", "steelblue"),
    ("meadow.png", "yellowgreen"),
    ("river.png", "royalblue"),
)
PICTURES = [name for name, _ in WALLPAPERS]
STYLES = ["Centered", "Tiled", "Stretched", "Scaled", "Zoomed"]
# Thumbnail centres in the settings window as openbox places it on a 1280x800 screen.
_FIRST_THUMBNAIL = (480, 285)
_THUMBNAIL_STEP = (165, 111)
_PER_ROW = 3


def _step(action: object) -> ActionStep:
    return ActionStep(env=D, action=action)  # type: ignore[arg-type]


def thumbnail_point(picture: str) -> tuple[int, int]:
    """Where the settings app shows ``picture``'s thumbnail (screen pixels)."""
    index = PICTURES.index(picture)
    row, column = divmod(index, _PER_ROW)
    return (
        _FIRST_THUMBNAIL[0] + column * _THUMBNAIL_STEP[0],
        _FIRST_THUMBNAIL[1] + row * _THUMBNAIL_STEP[1],
    )


def wallpaper_setup(picture: str, style: str) -> list[ActionStep]:
    return [
        _step(
            hp.draw_picture(path=f"{WALLPAPER_FOLDER}/{name}", width=640, height=400, color=colour)
        )
        for name, colour in WALLPAPERS
    ]


def wallpaper_checkpoints(picture: str, style: str) -> list[Evaluator]:
    return [
        sev.wallpaper_shows(value=f"{WALLPAPER_FOLDER}/{picture}"),
        sev.wallpaper_style(value=style),
    ]


def wallpaper_solution(picture: str, style: str) -> list[ActionCall]:
    x, y = thumbnail_point(picture)
    calls = [
        call(D, "search_app", name="desktop settings"),
        call(D, "click_on", name="Background", role="page tab"),
        call(D, "click_on", name="xfce", role="combo box"),
        call(D, "click_on", name="Other…", role="menu item"),
        call(D, "hotkey", keys=["ctrl", "l"]),
        call(D, "write_text", text=f"{WALLPAPER_FOLDER}/\n"),
        call(D, "click_at", x=x, y=y),
    ]
    if style != "Zoomed":
        calls += [
            call(D, "click_on", name="Zoomed", role="combo box"),
            call(D, "click_on", name=style, role="menu item"),
        ]
    return calls


def wallpaper_output(picture: str, style: str) -> str:
    return f"{WALLPAPER_FOLDER}/{picture}"


WALLPAPER = SubTask(
    id="session.wallpaper",
    description="With the Desktop Settings app, make the picture {picture} from the "
    "Wallpapers folder the desktop's wallpaper, drawn {style}.",
    attributes={"picture": "wallpaper", "style": "wallpaper_style"},
    output_type="image_path",
    outputs=["image_path"],
    env=D,
    app="desktop-settings",
    app_category="system",
    intents=[SESSION_INTENT],
    value_pools={"picture": PICTURES, "style": STYLES},
    setup_generator=wallpaper_setup,
    evaluator_generator=wallpaper_checkpoints,
    solution_generator=wallpaper_solution,
    output_generator=wallpaper_output,
    near_misses=[
        NearMiss("picks the look-alike picture", changes={"picture": nm.neighbour_in(PICTURES)}),
        NearMiss("picks another style", changes={"style": nm.neighbour_in(STYLES)}),
    ],
)

TEMPLATES: list[SubTask] = [WALLPAPER]


# Check boxes of the Desktop Settings app's "Icons" and "Menus" tabs -> (tab, xfconf
# property, value once the box is clicked from the baseline's state).
DESKTOP_OPTIONS: dict[str, tuple[str, str, str]] = {
    "Single click to activate items": ("Icons", "/desktop-icons/single-click", "true"),
    "Show hidden files on the desktop": ("Icons", "/desktop-icons/show-hidden-files", "true"),
    "Show thumbnails": ("Icons", "/desktop-icons/show-thumbnails", "false"),
}
OPTION_NAMES = list(DESKTOP_OPTIONS)


def desktop_option_checkpoint(option: str) -> Evaluator:
    _, prop, value = DESKTOP_OPTIONS[option]
    return sev.xfconf_equals(channel=sev.DESKTOP_CHANNEL, prop=prop, value=value)


def desktop_option_solution(option: str) -> list[ActionCall]:
    tab, _, _ = DESKTOP_OPTIONS[option]
    return [
        call(D, "search_app", name="desktop settings"),
        call(D, "click_on", name=tab, role="page tab"),
        call(D, "click_on", name=option, role="check box"),
    ]


DESKTOP_OPTION = SubTask(
    id="session.desktop_option",
    description='In the Desktop Settings app, switch the desktop icons\' option "{option}" '
    "to the other state.",
    attributes={"option": "setting"},
    outputs=["desktop_setting"],
    env=D,
    app="desktop-settings",
    app_category="system",
    intents=[SESSION_INTENT],
    value_pools={"option": OPTION_NAMES},
    evaluator_generator=desktop_option_checkpoint,
    solution_generator=desktop_option_solution,
    near_misses=[
        NearMiss(
            "switches the option beside it", changes={"option": nm.neighbour_in(OPTION_NAMES)}
        ),
    ],
)

TEMPLATES.append(DESKTOP_OPTION)


# The wallpaper a colleague's note asks for: the picture and the style are described in
# words (never by file name or the app's style name), beside a picture the note rules out.
PICTURE_WORDS = {
    "coast-evening.png": "the coast at sunset",
    "coast-morning.png": "the coast at sunrise",
    "forest.png": "the forest",
    "harbour.png": "the harbour with the boats",
    "meadow.png": "the meadow",
    "river.png": "the river",
}
STYLE_WORDS = {
    "Centered": "in the middle of the screen at its own size, not enlarged",
    "Tiled": "repeated across the screen like floor tiles",
    "Stretched": "stretched to fill the whole screen, even if that distorts it",
    "Scaled": "as large as fits while keeping its proportions, with borders if need be",
    "Zoomed": "enlarged until it covers the whole screen, cropping what does not fit",
}
NOTES = ["~/Documents/lobby-screen.txt", "~/Documents/open-day.txt", "~/Desktop/for-you.txt"]


def ruled_out(picture: str) -> str:
    """The look-alike the note rules out (the other coast; else the next picture)."""
    return nm.neighbour_in(PICTURES)(picture) if picture != "coast-morning.png" else PICTURES[0]


def note_text(picture: str, style: str) -> str:
    return (
        "Hi,\n\n"
        "For the visitors next week, could you change the wallpaper on the lobby computer?\n"
        f"Last time we had {PICTURE_WORDS[ruled_out(picture)]}, and people found it dull,\n"
        "so not that one again. The pictures are in the Wallpapers folder.\n"
        f"Please use {PICTURE_WORDS[picture]}, and show it {STYLE_WORDS[style]}.\n\n"
        "Thanks!\nSam\n"
    )


def note_wallpaper_setup(note: str, picture: str, style: str) -> list[ActionStep]:
    return [
        *wallpaper_setup(picture, style),
        _step(st.create_file(path=note, content=note_text(picture, style))),
    ]


def note_wallpaper_checkpoints(note: str, picture: str, style: str) -> list[Evaluator]:
    return wallpaper_checkpoints(picture, style)


def note_wallpaper_solution(note: str, picture: str, style: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="text editor"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        call(D, "write_text", text=f"{note}\n"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        *wallpaper_solution(picture, style),
    ]


def note_wallpaper_ruled_out(note: str, picture: str, style: str) -> list[ActionCall]:
    """Takes the picture the note mentions first: the one it rules out."""
    return note_wallpaper_solution(note, ruled_out(picture), style)


def note_wallpaper_output(note: str, picture: str, style: str) -> str:
    return wallpaper_output(picture, style)


NOTE_WALLPAPER = SubTask(
    id="session.note_wallpaper",
    description="Do what Sam's note {note} asks about the desktop's wallpaper, with the "
    "Desktop Settings app.",
    attributes={"note": "wallpaper_note", "picture": "wallpaper", "style": "wallpaper_style"},
    output_type="image_path",
    outputs=["image_path"],
    env=D,
    app="desktop-settings",
    app_category="system",
    intents=[SESSION_INTENT],
    value_pools={"note": NOTES, "picture": PICTURES, "style": STYLES},
    setup_generator=note_wallpaper_setup,
    evaluator_generator=note_wallpaper_checkpoints,
    solution_generator=note_wallpaper_solution,
    output_generator=note_wallpaper_output,
    near_misses=[
        NearMiss("takes the picture the note rules out", solution=note_wallpaper_ruled_out),
        NearMiss("reads the style wrong", changes={"style": nm.neighbour_in(STYLES)}),
    ],
)

TEMPLATES.append(NOTE_WALLPAPER)
