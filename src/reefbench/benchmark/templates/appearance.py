"""Appearance templates: the desktop's fonts, through the Appearance app (Fonts tab).

The Appearance app (``xfce4-appearance-settings``) writes the ``xsettings`` xfconf
channel: the default font is ``/Gtk/FontName``, the monospace font
``/Gtk/MonospaceFontName``, each a Pango description ("Nimbus Sans 13"). Its Style and
Icons tabs are empty here (no GTK theme beyond GTK's built-in Adwaita is installed), so
fonts are what it can change. The fonts are look-alikes by design: DejaVu Sans beside
DejaVu Sans Condensed and DejaVu Sans Mono, Nimbus Sans beside Nimbus Sans Narrow, and an
agent that picks the first row its search shows, or the right font in the other font
button (default vs monospace), fails.

The app writes each font twice, into xfconf and into GSettings' desktop interface schema
(what GTK apps read when no Xfce settings daemon runs, as here: the session runs no
``xfsettingsd``), and the checkpoint (``session_evaluators.desktop_font``) reads both, so
a font set behind the app's back with ``xfconf-query`` alone never reaches apps and
fails; one set in both stores by hand is the same state, and passes.

The reference solution opens the app by name, picks the Fonts tab and the font's button,
types the face into the chooser's search field, clicks its row, types the size into the
size field (clicked where the chooser lays it out: it has no accessible name) and clicks
Select.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates import session as ses
from reefbench.benchmark.templates.common import call, phone_app, read_on_phone
from reefbench.envs.desktop import session_evaluators as sev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask, register_attribute_type
from reefbench.tasks.task import ActionStep

D = "desktop"
# A font face as the chooser lists it, a size in points and the colleague who writes:
# own types, so synthesis never links another template's output into them.
for _name in ("font_face", "font_size", "font_sender"):
    register_attribute_type(_name, str)
APPEARANCE_INTENT = "adjust how the desktop looks"
FONT_PROPERTY = "/Gtk/FontName"
MONOSPACE_PROPERTY = "/Gtk/MonospaceFontName"
# The chooser's row name (family and face) -> the description the setting stores (Pango
# omits the regular face and names a condensed one by its width). Ordered so that each
# face's neighbour is its look-alike.
FACES: dict[str, str] = {
    "DejaVu Sans Book": "DejaVu Sans",
    "DejaVu Sans Condensed": "DejaVu Sans Semi-Condensed",
    "DejaVu Serif Book": "DejaVu Serif",
    "Nimbus Sans Regular": "Nimbus Sans",
    "Nimbus Sans Narrow Regular": "Nimbus Sans Narrow Semi-Condensed",
    "URW Gothic Book": "URW Gothic",
}
FACE_NAMES = list(FACES)
MONOSPACE_FACES: dict[str, str] = {
    "DejaVu Sans Mono Book": "DejaVu Sans Mono",
    "Nimbus Mono PS Regular": "Nimbus Mono PS",
}
MONOSPACE_NAMES = list(MONOSPACE_FACES)
SIZES = ["9", "11", "12", "13", "14"]
# The baseline's fonts, as the Fonts tab's buttons show them.
DEFAULT_BUTTON = "Sans Regular"
MONOSPACE_BUTTON = "Monospace Regular"
# The chooser's size field, as the dialog is placed over the app on a 1280x800 screen.
_SIZE_FIELD = (730, 616)


def font_value(face: str, size: str) -> str:
    """The setting's value for ``face`` (a chooser row) at ``size`` points."""
    return f"{({**FACES, **MONOSPACE_FACES})[face]} {size}"


# Where the Fonts tab shows each button. A button's label is its current font, so a near
# miss that clicks the other button after a sibling subtask changed it finds it here.
_BUTTON_POINTS = {DEFAULT_BUTTON: (646, 249), MONOSPACE_BUTTON: (646, 324)}


def choose_font(button: str, face: str, size: str, by_point: bool = False) -> list[ActionCall]:
    """In the Appearance app, set the font behind ``button`` to ``face`` at ``size``
    (``by_point``: click the button where it is, whatever font it names by then)."""
    x, y = _BUTTON_POINTS[button]
    press = (
        call(D, "click_at", x=x, y=y)
        if by_point
        else call(D, "click_on", name=button, role="push button")
    )
    return [
        call(D, "search_app", name="appearance"),
        call(D, "click_on", name="Fonts", role="page tab"),
        press,
        call(D, "write_text", text=face),
        call(D, "click_on", name=face, role="table cell"),
        call(D, "click_at", x=_SIZE_FIELD[0], y=_SIZE_FIELD[1]),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=f"{size}\t"),
        call(D, "click_on", name="Select", role="push button"),
    ]


def _font_keys_checkpoint(prop: str, face: str, size: str) -> Evaluator:
    return sev.desktop_font(prop=prop, value=font_value(face, size))


# ------------------------------------------------------------ the default font
def font_checkpoints(face: str, size: str) -> list[Evaluator]:
    return [_font_keys_checkpoint(FONT_PROPERTY, face, size)]


def font_solution(face: str, size: str) -> list[ActionCall]:
    return choose_font(DEFAULT_BUTTON, face, size)


def font_in_monospace(face: str, size: str) -> list[ActionCall]:
    """The right font behind the wrong button: the monospace one."""
    return choose_font(MONOSPACE_BUTTON, face, size, by_point=True)


FONT = SubTask(
    id="appearance.font",
    description="With the Appearance app, make {face} at size {size} the desktop's default font.",
    attributes={"face": "font_face", "size": "font_size"},
    outputs=["desktop_font"],
    env=D,
    app="appearance",
    app_category="system",
    intents=[APPEARANCE_INTENT],
    value_pools={"face": FACE_NAMES, "size": SIZES},
    evaluator_generator=font_checkpoints,
    solution_generator=font_solution,
    near_misses=[
        NearMiss("picks the look-alike font", changes={"face": nm.neighbour_in(FACE_NAMES)}),
        NearMiss("the right font in another size", changes={"size": nm.neighbour_in(SIZES)}),
        NearMiss("sets it as the monospace font", solution=font_in_monospace),
    ],
)


# ------------------------------------------------------------ the monospace font
def monospace_checkpoints(face: str, size: str) -> list[Evaluator]:
    return [_font_keys_checkpoint(MONOSPACE_PROPERTY, face, size)]


def monospace_solution(face: str, size: str) -> list[ActionCall]:
    return choose_font(MONOSPACE_BUTTON, face, size)


def monospace_in_default(face: str, size: str) -> list[ActionCall]:
    """The right font behind the wrong button: the default one."""
    return choose_font(DEFAULT_BUTTON, face, size, by_point=True)


MONOSPACE_FONT = SubTask(
    id="appearance.monospace_font",
    description="With the Appearance app, make {face} at size {size} the desktop's "
    "monospace font (the one terminals and code use).",
    attributes={"face": "font_face", "size": "font_size"},
    outputs=["desktop_font"],
    env=D,
    app="appearance",
    app_category="system",
    intents=[APPEARANCE_INTENT],
    value_pools={"face": MONOSPACE_NAMES, "size": SIZES},
    evaluator_generator=monospace_checkpoints,
    solution_generator=monospace_solution,
    near_misses=[
        NearMiss("the right font in another size", changes={"size": nm.neighbour_in(SIZES)}),
        NearMiss("sets it as the default font", solution=monospace_in_default),
    ],
)


# ------------------------------------------------------------ the fonts a colleague texts
# A colleague's text message on the phone names both fonts in words and rules out the
# look-alike; neither the fonts nor the sizes are in the instruction.
SENDERS = ["IT desk", "Front desk", "Design team"]
_WORD_SIZES = {"9": "nine", "11": "eleven", "12": "twelve", "13": "thirteen", "14": "fourteen"}


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def _look_alike(face: str) -> str:
    return str(nm.neighbour_in(FACE_NAMES)(face))


def _family(face: str) -> str:
    """The font as a person names it: the chooser's row without its regular face."""
    return face.removesuffix(" Book").removesuffix(" Regular")


def message_text(face: str, size: str, mono: str, mono_size: str) -> str:
    return (
        "Hi! For the kiosk computer in the lobby, could you set its fonts? "
        f"Not {_family(_look_alike(face))}, people found it hard to read. "
        f"Use {_family(face)} for everything, at {_WORD_SIZES[size]} points, and "
        f"{_family(mono)} at {_WORD_SIZES[mono_size]} for the terminal. Thanks!"
    )


def message_fonts_setup(sender: str, face: str, size: str, mono: str) -> list[ActionStep]:
    text = message_text(face, size, mono, _mono_size(size))
    return [_account(sd.add_message(contact=sender, text=text))]


def _mono_size(size: str) -> str:
    """The monospace size the message asks for: one step below the default's."""
    return SIZES[max(SIZES.index(size) - 1, 0)]


def message_fonts_checkpoints(sender: str, face: str, size: str, mono: str) -> list[Evaluator]:
    return [
        read_on_phone(f"Conversation with {sender}", _family(face)),
        _font_keys_checkpoint(FONT_PROPERTY, face, size).on(D),
        _font_keys_checkpoint(MONOSPACE_PROPERTY, mono, _mono_size(size)).on(D),
    ]


def message_fonts_solution(sender: str, face: str, size: str, mono: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name=sender),
        *choose_font(DEFAULT_BUTTON, face, size),
        *choose_font(MONOSPACE_BUTTON, mono, _mono_size(size)),
    ]


def message_fonts_ruled_out(sender: str, face: str, size: str, mono: str) -> list[ActionCall]:
    """Takes the font the message rules out (it is named first)."""
    return message_fonts_solution(sender, _look_alike(face), size, mono)


def message_fonts_same_size(sender: str, face: str, size: str, mono: str) -> list[ActionCall]:
    """Gives the monospace font the default font's size (the message asks for another)."""
    return [
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name=sender),
        *choose_font(DEFAULT_BUTTON, face, size),
        *choose_font(MONOSPACE_BUTTON, mono, size),
    ]


MESSAGE_FONTS = SubTask(
    id="appearance.message_fonts",
    description="{sender} texted your phone which fonts the lobby's kiosk computer should "
    "use: set them on this computer with its Appearance app.",
    attributes={
        "sender": "font_sender",
        "face": "font_face",
        "size": "font_size",
        "mono": "font_face",
    },
    outputs=["desktop_font"],
    env="phone",
    app="appearance",
    app_category="cross-device",
    intents=[APPEARANCE_INTENT],
    value_pools={
        "sender": SENDERS,
        "face": [f for f in FACE_NAMES if f != FACE_NAMES[-1]],
        "size": SIZES[1:],
        "mono": MONOSPACE_NAMES,
    },
    setup_generator=message_fonts_setup,
    evaluator_generator=message_fonts_checkpoints,
    solution_generator=message_fonts_solution,
    near_misses=[
        NearMiss("takes the font the message rules out", solution=message_fonts_ruled_out),
        NearMiss("gives both fonts the same size", solution=message_fonts_same_size),
    ],
)


# ------------------------------------------------------------ the wallpaper a colleague texts
# The same kiosk's wallpaper, described in words in a text message (never by file name nor
# by the settings app's style name), beside the picture it rules out.
def message_wallpaper_text(picture: str, style: str) -> str:
    return (
        "One more thing for the lobby kiosk: the wallpaper. "
        f"Not {ses.PICTURE_WORDS[ses.ruled_out(picture)]} again, please. "
        f"Take {ses.PICTURE_WORDS[picture]} from the Wallpapers folder and show it "
        f"{ses.STYLE_WORDS[style]}."
    )


def message_wallpaper_setup(sender: str, picture: str, style: str) -> list[ActionStep]:
    return [
        *ses.wallpaper_setup(picture, style),
        _account(sd.add_message(contact=sender, text=message_wallpaper_text(picture, style))),
    ]


def message_wallpaper_checkpoints(sender: str, picture: str, style: str) -> list[Evaluator]:
    return [
        read_on_phone(f"Conversation with {sender}", "lobby kiosk"),
        *[ev.on(D) for ev in ses.wallpaper_checkpoints(picture, style)],
    ]


def message_wallpaper_solution(sender: str, picture: str, style: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name=sender),
        *ses.wallpaper_solution(picture, style),
    ]


def message_wallpaper_ruled_out(sender: str, picture: str, style: str) -> list[ActionCall]:
    """Takes the picture the message names first: the one it rules out."""
    return message_wallpaper_solution(sender, ses.ruled_out(picture), style)


def message_wallpaper_output(sender: str, picture: str, style: str) -> str:
    return ses.wallpaper_output(picture, style)


MESSAGE_WALLPAPER = SubTask(
    id="appearance.message_wallpaper",
    description="{sender} texted your phone which wallpaper the lobby's kiosk computer "
    "should show: set it on this computer with its Desktop Settings app.",
    attributes={"sender": "font_sender", "picture": "wallpaper", "style": "wallpaper_style"},
    output_type="image_path",
    outputs=["image_path"],
    env="phone",
    app="desktop-settings",
    app_category="cross-device",
    intents=[APPEARANCE_INTENT],
    value_pools={"sender": SENDERS, "picture": ses.PICTURES, "style": ses.STYLES},
    setup_generator=message_wallpaper_setup,
    evaluator_generator=message_wallpaper_checkpoints,
    solution_generator=message_wallpaper_solution,
    output_generator=message_wallpaper_output,
    near_misses=[
        NearMiss("takes the picture the message rules out", solution=message_wallpaper_ruled_out),
    ],
)

TEMPLATES: list[SubTask] = [FONT, MONOSPACE_FONT, MESSAGE_FONTS, MESSAGE_WALLPAPER]
