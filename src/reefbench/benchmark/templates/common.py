"""What the template modules share: attribute types, call builders and value pools.

Value pools are hand-written and disjoint across the types that end up as paths on the
same device, so two subtasks of one task never touch the same file by accident (synthesis
already refuses to reuse a value of one type within a task).
"""

from __future__ import annotations

import posixpath
import shlex

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.envs.ui import evaluators as uev
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, register_attribute_type

# Semantic types: a desktop path never feeds a phone field, a code never a file name.
TYPES = {
    "desktop_file": str,
    "desktop_dir": str,
    "image_path": str,
    "memo": str,
    "city": str,
    "setting": str,
    "app_name": str,
    "account_page": str,
}
for _name, _type in TYPES.items():
    if _name not in ATTRIBUTE_TYPES:
        register_attribute_type(_name, _type)

HOME = "/home/user"
# The state key of ~/Downloads: a template whose task may be read by downloading a file
# allows it (a download to read is not a side effect).
DOWNLOADS_KEY = f"desktop|file:{HOME}/Downloads"


def call(env: str, action: str, /, **arguments: object) -> ActionCall:
    return ActionCall(env=env, name=action, arguments=dict(arguments))


def expand(path: str) -> str:
    """``~/a`` -> ``/home/user/a`` (for commands that take no ``~``)."""
    return HOME + path[1:] if path.startswith("~") else path


def q(text: str) -> str:
    """Shell-quote for a command typed into the desktop's terminal."""
    return shlex.quote(expand(text) if text.startswith("~") else text)


def basename(path: str) -> str:
    return posixpath.basename(path)


def dirname(path: str) -> str:
    return posixpath.dirname(path)


# ------------------------------------------------------------ desktop macros
def terminal(*commands: str) -> list[ActionCall]:
    """Open a terminal, run the commands, close it (``exit`` waits for them to finish)."""
    line = "; ".join([*commands, "exit"])
    return [
        call("desktop", "search_app", name="terminal"),
        call("desktop", "write_text", text=line + "\n"),
    ]


def curl_form(path: str, **fields: str) -> list[ActionCall]:
    """Post one of the account's web forms with curl from the desktop's terminal, signed in
    through the login form like any program on the computer: what a task that names the
    browser or the phone must not accept (the account attributes it to the desktop). The
    services' port is the one relayed into the sandbox (``/run/reef/ports/PORT.sock``)."""
    data = " ".join(f"--data-urlencode {q(f'{key}={value}')}" for key, value in fields.items())
    return terminal(
        "U=http://127.0.0.1:$(ls /run/reef/ports | head -n1 | cut -d. -f1)",
        f"curl -s -c /tmp/jar -d username={DEFAULT_USERNAME} -d password={DEFAULT_PASSWORD} "
        "$U/login > /dev/null",
        f"curl -s -b /tmp/jar {data} $U{path} > /dev/null",
    )


def mousepad_new(content: str, path: str) -> list[ActionCall]:
    """Write ``content`` in a new text-editor document, save it as ``path``, quit."""
    return [
        call("desktop", "search_app", name="text editor"),
        call("desktop", "write_text", text=content),
        call("desktop", "hotkey", keys=["ctrl", "s"]),
        # A turn of slack (one more observation) for the dialog to take the keyboard.
        call("root", "wait"),
        call("desktop", "write_text", text=expand(path)),
        call("desktop", "press", key="enter"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),  # and for the editor to exit before anything reopens it
    ]


def mousepad_open(path: str) -> list[ActionCall]:
    """Open the text editor and, in it, the file ``path`` through its Open dialog (Ctrl+O):
    a typed path that starts with "/" goes to the dialog's location entry and Enter opens
    it, whatever folder the dialog showed first."""
    return [
        call("desktop", "search_app", name="text editor"),
        call("desktop", "hotkey", keys=["ctrl", "o"]),
        call("root", "wait"),  # for the dialog to take the keyboard
        call("desktop", "write_text", text=expand(path) + "\n"),
        call("root", "wait"),  # and for the document to load
    ]


def mousepad_save_quit() -> list[ActionCall]:
    """Save the open document under its name (Ctrl+S) and quit the editor, with a turn for
    the save to land before the quit (a quit with unsaved changes would ask instead)."""
    return [
        call("desktop", "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),  # and for the editor to exit before anything reopens it
    ]


def mousepad_save_as_quit(path: str) -> list[ActionCall]:
    """Save the open document under another name (Ctrl+Shift+S) and quit. The dialog shows
    the old name with its stem selected: Ctrl+A takes the extension too, or typing would
    keep it (``copy.txt.txt``)."""
    return [
        call("desktop", "hotkey", keys=["ctrl", "shift", "s"]),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "a"]),
        call("desktop", "write_text", text=expand(path)),
        call("desktop", "press", key="enter"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def thunar_new_folder(folder: str) -> list[ActionCall]:
    """Open the file manager, go to the folder's parent, create it there, quit."""
    return [
        call("desktop", "search_app", name="files"),
        call("desktop", "hotkey", keys=["ctrl", "l"]),  # the location bar
        call("desktop", "write_text", text=expand(dirname(folder)) + "\n"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "shift", "n"]),  # "Create New Folder"
        call("root", "wait"),
        call("desktop", "write_text", text=basename(folder) + "\n"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),  # and for the file manager to exit
    ]


def thunar_new_folder_by_menu(folder: str) -> list[ActionCall]:
    """The same through the menu bar: File > Create Folder..., then the name."""
    return [
        call("desktop", "search_app", name="file manager"),
        call("desktop", "hotkey", keys=["ctrl", "l"]),
        call("desktop", "write_text", text=expand(dirname(folder)) + "\n"),
        call("root", "wait"),
        call("desktop", "click_on", name="File", role="menu"),
        call("desktop", "click_on", name="Create Folder...", role="menu item"),
        call("root", "wait"),
        call("desktop", "write_text", text=basename(folder) + "\n"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def thunar_open(folder: str) -> list[ActionCall]:
    """Open the file manager and go to ``folder`` by typing it into the location bar (Ctrl+L):
    one step whatever the depth, where clicking through the folders would take one per
    level and depend on the side pane's layout."""
    return [
        call("desktop", "search_app", name="files"),
        call("desktop", "hotkey", keys=["ctrl", "l"]),
        call("desktop", "write_text", text=expand(folder) + "\n"),
        call("root", "wait"),
    ]


def thunar_go(folder: str) -> list[ActionCall]:
    """In the open file manager, go to another folder through the location bar."""
    return [
        call("desktop", "hotkey", keys=["ctrl", "l"]),
        call("desktop", "write_text", text=expand(folder) + "\n"),
        call("root", "wait"),
    ]


def thunar_select(name: str) -> list[ActionCall]:
    """Select the file ``name`` of the shown folder: typing in the view searches the file
    list and selects the first name that starts with the typed text (the whole name, so a
    look-alike such as ``a.txt.bak`` sorts after it); Escape closes the search box and
    keeps the selection. Enter would open the file instead. The file icons are no
    accessible elements, so a name cannot be clicked."""
    return [
        call("desktop", "write_text", text=name),
        call("desktop", "press", key="esc"),
    ]


def thunar_rename_selected(new_name: str) -> list[ActionCall]:
    """Rename the selected file: F2 opens the rename dialog with the name's stem selected,
    Ctrl+A takes the extension too, the dialog's Rename button confirms."""
    return [
        call("desktop", "press", key="F2"),
        call("root", "wait"),
        call("desktop", "hotkey", keys=["ctrl", "a"]),
        call("desktop", "write_text", text=new_name),
        call("desktop", "click_on", name="Rename", role="push button"),
        call("root", "wait"),
    ]


def thunar_quit() -> list[ActionCall]:
    """Quit the file manager and give it a turn to exit before anything reopens it."""
    return [call("desktop", "hotkey", keys=["ctrl", "q"]), call("root", "wait")]


def vim_new(content: str, path: str) -> list[ActionCall]:
    """Open vim, insert ``content``, write it to ``path`` and quit."""
    return [
        call("desktop", "search_app", name="vim"),
        call("desktop", "write_text", text="i" + content),
        call("desktop", "press", key="esc"),
        call("desktop", "write_text", text=f":wq {expand(path)}\n"),
    ]


# -------------------------------------------------------------- phone macros
def phone_app(resource: str) -> list[ActionCall]:
    """Open a phone app from the app drawer by its icon's id (``drawer_mail``)."""
    return [call("phone", "show_all_drawer"), call("phone", "tap_on", name=resource)]


def phone_fill(*fields: tuple[str, str]) -> list[ActionCall]:
    """Tap each field (label or resource id) and type its text."""
    out = []
    for field, text in fields:
        out += [call("phone", "tap_on", name=field), call("phone", "write_text", text=text)]
    return out


def read_on_phone(opened: str, text: str) -> Evaluator:
    """The phone shows ``text`` inside the opened item, named by ``opened`` (the thread's
    "Conversation with Bank", the mail's "Message from ..."): the list of conversations
    previews the text too, and a glance at the list must not count as reading it."""
    return (uev.text_on_screen(text=opened) & uev.text_on_screen(text=text)).on("phone")


# ------------------------------------------------------------ browser macros
def browser_app(link: str) -> list[ActionCall]:
    """Go to the account's home page and open one of its apps by its link."""
    return [call("browser", "click_on", name=link, role="link")]


def browser_fill(*fields: tuple[str, str]) -> list[ActionCall]:
    out = []
    for field, text in fields:
        out += [
            call("browser", "click_on", name=field, role="textbox"),
            call("browser", "write_text", text=text),
        ]
    return out


# -------------------------------------------------------------- value pools
WORDS = [
    "amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
    "juniper", "kestrel", "lagoon", "maple", "nimbus", "orchid", "pebble", "quartz",
    "raven", "saffron", "tundra", "umber", "violet", "willow", "zephyr",
]  # fmt: skip
TEXTS = [
    "buy more coffee filters", "call the plumber on monday", "renew the gym pass",
    "send the invoice to Lena", "book a table for four", "water the tomato plants",
    "back up the laptop tonight", "return the library books", "pay the electricity bill",
    "order new printer ink", "plan the team offsite", "fix the squeaky door",
    "pick up the dry cleaning", "check the tyre pressure", "update the project board",
    "write the monthly report",
]  # fmt: skip
DESKTOP_FILES = [
    f"~/{folder}/{word}.txt"
    for folder, words in (
        ("Documents", WORDS[:8]),
        ("Desktop", WORDS[8:16]),
        ("Downloads", WORDS[16:24]),
    )
    for word in words
]
COPY_TARGETS = [f"~/Documents/copy-of-{w}.txt" for w in WORDS[:12]] + [
    f"~/Desktop/backup-{w}.txt" for w in WORDS[12:]
]
NEW_NAMES = [f"{w}-final.txt" for w in WORDS]
FOLDERS = [f"~/Documents/{w.title()}Project" for w in WORDS[:12]] + [
    f"~/Desktop/{w.title()}Stuff" for w in WORDS[12:]
]
# Folders made in the file manager: a pool of their own, apart from FOLDERS.
GUI_FOLDERS = [f"~/Pictures/{w.title()}Album" for w in WORDS[:8]] + [
    f"~/Downloads/{w.title()}Drafts" for w in WORDS[8:16]
]
ARCHIVES = [f"~/Downloads/{w}-bundle.tar.gz" for w in WORDS]
PEOPLE = [
    ("Ana Ruiz", "555-0101", "ana.ruiz@example.com"),
    ("Ben Okafor", "555-0102", "ben.okafor@example.com"),
    ("Chloe Martin", "555-0103", "chloe.martin@example.com"),
    ("Dev Patel", "555-0104", "dev.patel@example.com"),
    ("Elif Kaya", "555-0105", "elif.kaya@example.com"),
    ("Femi Adeyemi", "555-0106", "femi.adeyemi@example.com"),
    ("Greta Lind", "555-0107", "greta.lind@example.com"),
    ("Hiro Tanaka", "555-0108", "hiro.tanaka@example.com"),
    ("Ines Costa", "555-0109", "ines.costa@example.com"),
    ("Jonas Weber", "555-0110", "jonas.weber@example.com"),
    ("Kira Novak", "555-0111", "kira.novak@example.com"),
    ("Liam Byrne", "555-0112", "liam.byrne@example.com"),
]
NAMES = [p[0] for p in PEOPLE]
# One person's details drawn together (``SubTask.value_records``): a task never pairs a
# name with someone else's number or address.
NAME_NUMBER = [{"name": name, "number": number} for name, number, _ in PEOPLE]
NAME_EMAIL = [{"name": name, "email": email} for name, _, email in PEOPLE]
NUMBERS = [p[1] for p in PEOPLE]
EMAILS = [p[2] for p in PEOPLE]
SUBJECTS = [
    "Quarterly numbers", "Trip itinerary", "Budget draft", "Meeting notes", "Photo album",
    "Lunch on Friday", "Invoice 2041", "Workshop agenda", "Holiday plans", "Contract review",
    "Release checklist", "Garden party",
]  # fmt: skip
CODES = [
    "482913", "730215", "169482", "905371", "318640", "527096", "641857", "293074",
    "856120", "074639", "412785", "968203",
]  # fmt: skip
MEMOS = [
    "Room 4B at 3 pm", "Gate 12, boarding 7:40", "Locker 318, code blue", "Desk 27 on floor 5",
    "Parking level P2 spot 44", "Table 9 by the window", "Platform 6 for the 8:15",
    "Studio C after lunch",
]  # fmt: skip
TITLES = [
    "Dentist", "Team sync", "Yoga class", "Project review", "Piano lesson", "Car service",
    "Book club", "Vet visit", "Budget meeting", "Haircut", "Parent evening", "Code review",
]  # fmt: skip
PLACES = [
    "Cafe Blue", "Room 101", "Main Library", "City Hall", "Harbor Gym", "North Clinic",
    "Studio 3", "Union Hall",
]  # fmt: skip
CITIES = ["Tokyo", "Nairobi", "Lima", "Oslo", "Sydney", "Toronto", "Cairo", "Seoul"]
TASK_TITLES = [t[:1].upper() + t[1:] for t in TEXTS]  # "Send the invoice to Lena", not "lena"


def wait() -> ActionCall:
    """One turn of waiting (a dialog drawing, an app starting)."""
    return call("root", "wait")


def desktop_menu(*names: str) -> list[ActionCall]:
    """Open the desktop app's menu bar ``names[0]`` and follow the path of items under it."""
    first, *rest = names
    return [
        call("desktop", "click_on", name=first, role="menu"),
        *(call("desktop", "click_on", name=n) for n in rest),
    ]
