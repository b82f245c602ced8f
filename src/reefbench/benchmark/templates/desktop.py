"""Desktop subtask templates: terminal, text editor (mousepad), vim, file manager (thunar),
settings, images.

Reference solutions type into real apps opened with ``search_app``; the few menu clicks go
through ``click_on`` (an element by its accessible name). Every solution closes what it
opened, so the next subtask starts from a clean desktop whatever ran before. Checkpoints
read files, processes, GSettings, the clipboard and window text; none holds before the
agent acts.
"""

from __future__ import annotations

import re

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import (
    ARCHIVES,
    CODES,
    COPY_TARGETS,
    DESKTOP_FILES,
    FOLDERS,
    GUI_FOLDERS,
    MEMOS,
    NEW_NAMES,
    TEXTS,
    WORDS,
    basename,
    call,
    dirname,
    expand,
    mousepad_new,
    mousepad_open,
    mousepad_save_as_quit,
    mousepad_save_quit,
    q,
    terminal,
    thunar_go,
    thunar_new_folder,
    thunar_new_folder_by_menu,
    thunar_open,
    thunar_quit,
    thunar_rename_selected,
    thunar_select,
    vim_new,
)
from reefbench.benchmark.templates.drawing import (
    drawing_open,
    drawing_quit,
    drawing_save_as,
    drawing_scale,
)
from reefbench.environments.root import answer_equals
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
FILES_INTENT = "organise files on the computer"
WRITE_INTENT = "prepare a document on the computer"
SETUP_INTENT = "set up the computer"
IMAGE_INTENT = "prepare pictures on the computer"
LOOKUP_INTENT = "look something up"
CODE_INTENT = "bring a code from the phone to the computer"
MEMO_INTENT = "take a message from the computer to the phone"
FILE_MANAGER_INTENT = "organise folders in the file manager"

EDITOR_OPTIONS = {
    "Line Numbers": ("org.xfce.mousepad.preferences.view", "show-line-numbers"),
    "Toolbar": ("org.xfce.mousepad.preferences.window", "toolbar-visible"),
    "Statusbar": ("org.xfce.mousepad.preferences.window", "statusbar-visible"),
}
PROGRAMS = ["backup-daemon", "sync-agent", "log-shipper", "cache-warmer", "mail-poller"]
THEMES = ["Adwaita-dark", "HighContrast", "Raleigh", "Emacs"]
SCRIPTS = [f"~/Documents/{w}.sh" for w in WORDS[:10]]
IMAGES = [f"~/Pictures/{w}.png" for w in WORDS[:8]]
SMALL_IMAGES = [f"~/Pictures/{w}-small.png" for w in WORDS[8:16]]
JPEGS = [f"~/Pictures/{w}.jpg" for w in WORDS[16:24]]
NUMBER_LISTS = ["12 7 30 5", "4 18 9 21", "15 15 8 2", "33 6 11 40", "9 27 3 14", "25 1 19 6"]


def _step(action: object) -> ActionStep:
    return ActionStep(env=D, action=action)  # type: ignore[arg-type]


def _printf(text: str, path: str, mode: str = ">") -> str:
    return f"printf '%s\\n' {q(text)} {mode} {q(path)}"


def _lines(count: int) -> str:
    return "".join(f"item {k}\n" for k in range(1, count + 1))


def _sentence(word: str) -> str:
    return f"the {word} report is ready\nplease send the {word} report today\n"


def _shuffled(word: str) -> list[str]:
    start = WORDS.index(word)
    picked = [WORDS[(start + 7 * k) % len(WORDS)] for k in range(5)]
    return picked


# "Use app X" near misses: the app is open (a process check would be satisfied) but the
# file is written from the terminal; ``saved_with`` reads the app's own record instead.
def _editor_open_terminal_writes(path: str, content: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="text editor"),
        call(D, "write_text", text=content),
        *terminal(_printf(content, path)),
    ]


def _vim_open_terminal_writes(path: str, content: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="vim"),
        call(D, "write_text", text="i" + content),
        call(D, "press", key="esc"),
        *terminal(_printf(content, path)),
    ]


def create_file_checkpoint(path: str, content: str) -> Evaluator:
    return hp.file_holds(path=path, content=content)


def create_file_solution(path: str, content: str) -> list[ActionCall]:
    return mousepad_new(content, path)


def create_file_in_terminal(path: str, content: str) -> list[ActionCall]:
    return terminal(_printf(content, path))


def create_file_output(path: str, content: str) -> str:
    return path


CREATE_FILE = SubTask(
    id="desktop.create_file",
    description='Create the text file {path} containing the line "{content}".',
    attributes={"path": "desktop_file", "content": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[FILES_INTENT, WRITE_INTENT],
    value_pools={"path": DESKTOP_FILES, "content": TEXTS},
    evaluator_generator=create_file_checkpoint,
    solution_generator=create_file_solution,
    alternative_generators=[create_file_in_terminal],
    output_generator=create_file_output,
    near_misses=[
        NearMiss("saves it in the home folder", changes={"path": nm.in_home_folder}),
    ],
)


def editor_write_checkpoints(path: str, content: str) -> list[Evaluator]:
    # The editor saved the text itself: a later subtask that appends to the file in the
    # editor saves it too, and must not credit a file first written from the terminal.
    return [
        hp.file_holds(path=path, content=content),
        ev.saved_with(path=path, app="mousepad", content=content),
    ]


def editor_write_solution(path: str, content: str) -> list[ActionCall]:
    return mousepad_new(content, path)


def editor_write_output(path: str, content: str) -> str:
    return path


EDITOR_WRITE = SubTask(
    id="desktop.editor_write",
    description='Open the text editor, write "{content}" and save the document as {path}.',
    attributes={"path": "desktop_file", "content": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[WRITE_INTENT],
    value_pools={"path": DESKTOP_FILES, "content": TEXTS},
    evaluator_generator=editor_write_checkpoints,
    solution_generator=editor_write_solution,
    output_generator=editor_write_output,
    near_misses=[
        NearMiss("a typo in the text", changes={"content": nm.typo}),
        NearMiss(
            "writes the file from the terminal while the editor is open",
            solution=_editor_open_terminal_writes,
        ),
    ],
)


def vim_write_checkpoints(path: str, content: str) -> list[Evaluator]:
    return [
        hp.file_holds(path=path, content=content),
        ev.saved_with(path=path, app="vim"),
    ]


def vim_write_solution(path: str, content: str) -> list[ActionCall]:
    return vim_new(content, path)


def vim_write_output(path: str, content: str) -> str:
    return path


VIM_WRITE = SubTask(
    id="desktop.vim_write",
    description='Use vim to create the file {path} with the text "{content}".',
    attributes={"path": "desktop_file", "content": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="vim",
    app_category="text editing",
    intents=[WRITE_INTENT],
    value_pools={"path": DESKTOP_FILES, "content": TEXTS},
    evaluator_generator=vim_write_checkpoints,
    solution_generator=vim_write_solution,
    output_generator=vim_write_output,
    near_misses=[
        NearMiss("saves it in the home folder", changes={"path": nm.in_home_folder}),
        NearMiss(
            "writes the file from the terminal while vim is open",
            solution=_vim_open_terminal_writes,
        ),
    ],
)


def append_line_checkpoint(path: str, line: str) -> Evaluator:
    return ev.file_matches(path=path, pattern=r"\S.*\n" + re.escape(line) + r"$")


def append_line_solution(path: str, line: str) -> list[ActionCall]:
    """Open the file in the text editor, put the cursor at the end of its last line and
    type a line break and the line. Ctrl+End alone would land after a final newline (a
    file written by printf or vim) or on the last character (one saved by the editor,
    which adds none): Ctrl+Left back to the last word and End to its line's end is the
    same place in both, so the new line never follows a blank one nor is glued to the
    last."""
    return [
        *mousepad_open(path),
        call(D, "hotkey", keys=["ctrl", "end"]),
        call(D, "hotkey", keys=["ctrl", "left"]),
        call(D, "press", key="end"),
        call(D, "write_text", text="\n" + line),
        *mousepad_save_quit(),
    ]


def append_line_in_terminal(path: str, line: str) -> list[ActionCall]:
    return terminal(f"sed -i -e '$a\\' {q(path)}", _printf(line, path, ">>"))


def append_line_in_vim(path: str, line: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="vim"),
        call(D, "write_text", text=f":e {expand(path)}\n"),
        call(D, "write_text", text="Go" + line),
        call(D, "press", key="esc"),
        call(D, "write_text", text=":wq\n"),
    ]


def append_line_output(path: str, line: str) -> str:
    return path


def append_line_overwrites(path: str, line: str) -> list[ActionCall]:
    return terminal(_printf(line, path, ">"))


APPEND_LINE = SubTask(
    id="desktop.append_line",
    description='Add the line "{line}" at the end of {path}.',
    attributes={"path": "desktop_file", "line": "text"},
    output_type="desktop_file",
    inputs=["path"],
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[FILES_INTENT, WRITE_INTENT, CODE_INTENT],
    value_pools={"path": DESKTOP_FILES, "line": TEXTS},
    # The line is a whole line with a non-blank line before it: an overwrite that
    # leaves only the new line is not an append. Later lines may follow it: the check
    # is repeated at the end of the episode, and another append to the same file in an
    # independent step of the task may have come after this one.
    evaluator_generator=append_line_checkpoint,
    # A file saved by the text editor may not end in a newline: the terminal's `sed '$a\'`
    # adds the missing one first, or the new line would be glued to the last (the old
    # check, "the file ends with the line", accepted "...fourpick up the dry cleaning").
    solution_generator=append_line_solution,
    alternative_generators=[append_line_in_terminal, append_line_in_vim],
    output_generator=append_line_output,
    near_misses=[
        NearMiss(
            "overwrites the file instead of appending",
            solution=append_line_overwrites,
        ),
    ],
)


def copy_file_checkpoints(source: str, target: str) -> list[Evaluator]:
    return [
        ev.file_exists(path=target),
        ev.command_output(command=["cmp", expand(source), expand(target)]),
    ]


def copy_file_solution(source: str, target: str) -> list[ActionCall]:
    """Open the source in the text editor and save it under the new name: the editor
    writes back the bytes it read (it adds no final newline and strips none), so the copy
    is byte-identical and the source untouched."""
    return [*mousepad_open(source), *mousepad_save_as_quit(target)]


def copy_file_in_terminal(source: str, target: str) -> list[ActionCall]:
    return terminal(f"cp {q(source)} {q(target)}")


def copy_file_with_cat(source: str, target: str) -> list[ActionCall]:
    return terminal(f"cat {q(source)} > {q(target)}")


def copy_file_output(source: str, target: str) -> str:
    return target


def copy_file_moves(source: str, target: str) -> list[ActionCall]:
    return terminal(f"mv {q(source)} {q(target)}")


COPY_FILE = SubTask(
    id="desktop.copy_file",
    description="Make a copy of {source} named {target}.",
    attributes={"source": "desktop_file", "target": "desktop_file"},
    output_type="desktop_file",
    inputs=["source"],
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[FILES_INTENT, CODE_INTENT],
    value_pools={"source": DESKTOP_FILES, "target": COPY_TARGETS},
    evaluator_generator=copy_file_checkpoints,
    solution_generator=copy_file_solution,
    alternative_generators=[copy_file_in_terminal, copy_file_with_cat],
    output_generator=copy_file_output,
    near_misses=[
        NearMiss(
            "moves the file instead of copying it",
            solution=copy_file_moves,
        ),
    ],
)


def rename_file_checkpoints(path: str, new_name: str) -> list[Evaluator]:
    return [
        hp.same_bytes_as(path=f"{dirname(path)}/{new_name}", source=path),
        hp.file_absent(path=path),
    ]


def rename_file_solution(path: str, new_name: str) -> list[ActionCall]:
    return [
        *thunar_open(dirname(path)),
        *thunar_select(basename(path)),
        *thunar_rename_selected(new_name),
        *thunar_quit(),
    ]


def rename_file_in_terminal(path: str, new_name: str) -> list[ActionCall]:
    return terminal(f"mv {q(path)} {q(dirname(path) + '/' + new_name)}")


def rename_file_by_copy(path: str, new_name: str) -> list[ActionCall]:
    return terminal(f"cp {q(path)} {q(dirname(path) + '/' + new_name)} && rm {q(path)}")


def rename_file_output(path: str, new_name: str) -> str:
    return f"{dirname(path)}/{new_name}"


def rename_file_copies(path: str, new_name: str) -> list[ActionCall]:
    return terminal(f"cp {q(path)} {q(dirname(path) + '/' + new_name)}")


def rename_file_empties(path: str, new_name: str) -> list[ActionCall]:
    return terminal(f"touch {q(dirname(path) + '/' + new_name)} && rm {q(path)}")


RENAME_FILE = SubTask(
    id="desktop.rename_file",
    description="Rename {path} to {new_name}, keeping it in the same folder.",
    attributes={"path": "desktop_file", "new_name": "str"},
    output_type="desktop_file",
    inputs=["path"],
    outputs=["desktop_file"],
    env=D,
    app="thunar",
    app_category="file management",
    intents=[FILES_INTENT, CODE_INTENT],
    value_pools={"path": DESKTOP_FILES, "new_name": NEW_NAMES},
    evaluator_generator=rename_file_checkpoints,
    solution_generator=rename_file_solution,
    alternative_generators=[rename_file_in_terminal, rename_file_by_copy],
    output_generator=rename_file_output,
    near_misses=[
        NearMiss(
            "copies the file instead of renaming it",
            solution=rename_file_copies,
        ),
        NearMiss(
            "makes an empty file of the new name and deletes the old one",
            solution=rename_file_empties,
        ),
    ],
)


def make_folder_checkpoint(folder: str) -> Evaluator:
    return ev.directory_exists(path=folder)


def make_folder_solution(folder: str) -> list[ActionCall]:
    return thunar_new_folder(folder)


def make_folder_in_terminal(folder: str) -> list[ActionCall]:
    return terminal(f"mkdir -p {q(folder)}")


def make_folder_from_parent(folder: str) -> list[ActionCall]:
    return terminal(f"cd {q(dirname(folder))} && mkdir {q(basename(folder))}")


def make_folder_output(folder: str) -> str:
    return folder


def make_folder_as_file(folder: str) -> list[ActionCall]:
    return terminal(f"touch {q(folder)}")


MAKE_FOLDER = SubTask(
    id="desktop.make_folder",
    description="Create the folder {folder}.",
    attributes={"folder": "desktop_dir"},
    output_type="desktop_dir",
    outputs=["desktop_dir"],
    env=D,
    app="thunar",
    app_category="file management",
    intents=[FILES_INTENT],
    value_pools={"folder": FOLDERS},
    evaluator_generator=make_folder_checkpoint,
    solution_generator=make_folder_solution,
    alternative_generators=[make_folder_in_terminal, make_folder_from_parent],
    output_generator=make_folder_output,
    near_misses=[
        NearMiss(
            "creates an empty file of that name",
            solution=make_folder_as_file,
        ),
    ],
)


def move_into_folder_checkpoints(path: str, folder: str) -> list[Evaluator]:
    return [
        hp.same_bytes_as(path=f"{folder}/{basename(path)}", source=path),
        hp.file_absent(path=path),
    ]


def move_into_folder_solution(path: str, folder: str) -> list[ActionCall]:
    return [
        *thunar_open(dirname(path)),
        *thunar_select(basename(path)),
        call(D, "hotkey", keys=["ctrl", "x"]),
        *thunar_go(folder),
        call(D, "hotkey", keys=["ctrl", "v"]),
        call("root", "wait"),
        *thunar_quit(),
    ]


def move_into_folder_in_terminal(path: str, folder: str) -> list[ActionCall]:
    return terminal(f"mv {q(path)} {q(folder)}/")


def move_into_folder_output(path: str, folder: str) -> str:
    return f"{folder}/{basename(path)}"


def move_into_folder_copies(path: str, folder: str) -> list[ActionCall]:
    return terminal(f"cp {q(path)} {q(folder)}/")


def move_into_folder_empties(path: str, folder: str) -> list[ActionCall]:
    return terminal(f"touch {q(folder + '/' + basename(path))} && rm {q(path)}")


MOVE_INTO_FOLDER = SubTask(
    id="desktop.move_into_folder",
    description="Move {path} into the folder {folder}.",
    attributes={"path": "desktop_file", "folder": "desktop_dir"},
    output_type="desktop_file",
    inputs=["path", "folder"],
    outputs=["desktop_file"],
    env=D,
    app="thunar",
    app_category="file management",
    intents=[FILES_INTENT],
    value_pools={"path": DESKTOP_FILES, "folder": FOLDERS},
    evaluator_generator=move_into_folder_checkpoints,
    solution_generator=move_into_folder_solution,
    alternative_generators=[move_into_folder_in_terminal],
    output_generator=move_into_folder_output,
    near_misses=[
        NearMiss(
            "copies the file into the folder instead of moving it",
            solution=move_into_folder_copies,
        ),
        NearMiss(
            "puts an empty file of that name in the folder and deletes the original",
            solution=move_into_folder_empties,
        ),
    ],
)


def archive_folder_checkpoints(folder: str, archive: str) -> list[Evaluator]:
    return [
        ev.file_exists(path=archive),
        hp.archive_holds_folder(archive=archive, folder=folder),
    ]


def archive_folder_solution(folder: str, archive: str) -> list[ActionCall]:
    return terminal(f"tar -czf {q(archive)} -C {q(dirname(folder))} {q(basename(folder))}")


def archive_folder_full_path(folder: str, archive: str) -> list[ActionCall]:
    return terminal(f"tar -czf {q(archive)} -C / {q(expand(folder).lstrip('/'))}")


ARCHIVE_FOLDER = SubTask(
    id="desktop.archive_folder",
    description="Pack the folder {folder} into the compressed tar archive {archive}.",
    attributes={"folder": "desktop_dir", "archive": "str"},
    inputs=["folder"],
    outputs=["archive"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[FILES_INTENT],
    value_pools={"folder": FOLDERS, "archive": ARCHIVES},
    evaluator_generator=archive_folder_checkpoints,
    solution_generator=archive_folder_solution,
    near_misses=[
        NearMiss(
            "archives the folder under its full path",
            solution=archive_folder_full_path,
        ),
    ],
)


def count_lines_setup(path: str, count: int) -> list[ActionStep]:
    return [_step(st.create_file(path=path, content=_lines(count)))]


def count_lines_checkpoint(path: str, count: int) -> Evaluator:
    return answer_equals(expected=str(count), units=["lines"])


def count_lines_solution(path: str, count: int) -> list[ActionCall]:
    return [
        call(D, "search_app", name="terminal"),
        call(D, "write_text", text=f"wc -l {q(path)}\n"),
        call("root", "submit", answer=str(count)),
    ]


COUNT_LINES = SubTask(
    id="desktop.count_lines",
    description="How many lines does {path} have? Submit the number.",
    attributes={"path": "desktop_file", "count": "int"},
    outputs=["answer"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[LOOKUP_INTENT],
    value_pools={"path": DESKTOP_FILES, "count": [3, 4, 5, 6, 7, 8, 9, 11]},
    setup_generator=count_lines_setup,
    evaluator_generator=count_lines_checkpoint,
    solution_generator=count_lines_solution,
    near_misses=[
        NearMiss("counts one line too many", changes={"count": nm.one_more}),
    ],
)


def sum_numbers_setup(path: str, numbers: str) -> list[ActionStep]:
    return [_step(st.create_file(path=path, content="\n".join(numbers.split()) + "\n"))]


def sum_numbers_checkpoint(path: str, numbers: str) -> Evaluator:
    return answer_equals(expected=str(sum(int(n) for n in numbers.split())))


def sum_numbers_solution(path: str, numbers: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="terminal"),
        call(D, "write_text", text=f"paste -sd+ {q(path)} | bc\n"),
        call("root", "submit", answer=str(sum(int(n) for n in numbers.split()))),
    ]


SUM_NUMBERS = SubTask(
    id="desktop.sum_numbers",
    description="{path} lists some numbers, one per line. Submit their sum.",
    attributes={"path": "desktop_file", "numbers": "str"},
    outputs=["answer"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[LOOKUP_INTENT],
    value_pools={"path": DESKTOP_FILES, "numbers": NUMBER_LISTS},
    setup_generator=sum_numbers_setup,
    evaluator_generator=sum_numbers_checkpoint,
    solution_generator=sum_numbers_solution,
    near_misses=[
        NearMiss("misses the last number", changes={"numbers": nm.without_last_number}),
    ],
)


def editor_option_checkpoint(option: str) -> Evaluator:
    return ev.gsetting_equals(
        schema_id=EDITOR_OPTIONS[option][0], key=EDITOR_OPTIONS[option][1], value="true"
    )


def editor_option_solution(option: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="text editor"),
        call(D, "click_on", name="View", role="menu"),
        call(D, "click_on", name=option),
        call(D, "hotkey", keys=["ctrl", "q"]),
    ]


EDITOR_OPTION = SubTask(
    id="desktop.editor_option",
    description='In the text editor, turn on "{option}" in the View menu.',
    attributes={"option": "setting"},
    outputs=["editor_setting"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[SETUP_INTENT, WRITE_INTENT],
    value_pools={"option": list(EDITOR_OPTIONS)},
    evaluator_generator=editor_option_checkpoint,
    solution_generator=editor_option_solution,
    # No certified solution with gsettings in the terminal: the instruction names the
    # editor. (The checkpoint cannot tell the two apart: both write the same dconf key.)
    near_misses=[
        NearMiss(
            "turns on the option next to it",
            changes={"option": nm.neighbour_in(list(EDITOR_OPTIONS))},
        ),
    ],
)


def gtk_theme_checkpoint(theme: str) -> Evaluator:
    return ev.gsetting_equals(schema_id="org.gnome.desktop.interface", key="gtk-theme", value=theme)


def gtk_theme_solution(theme: str) -> list[ActionCall]:
    return terminal(f"gsettings set org.gnome.desktop.interface gtk-theme {q(theme)}")


GTK_THEME = SubTask(
    id="desktop.gtk_theme",
    # The setting by what a person calls it: the GSettings key is the checkpoint's.
    description='Set the desktop\'s GTK theme to "{theme}".',
    attributes={"theme": "setting"},
    outputs=["desktop_setting"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[SETUP_INTENT],
    value_pools={"theme": THEMES},
    evaluator_generator=gtk_theme_checkpoint,
    solution_generator=gtk_theme_solution,
    near_misses=[
        NearMiss("sets another theme", changes={"theme": nm.neighbour_in(THEMES)}),
    ],
)


def replace_word_setup(path: str, old: str, new: str) -> list[ActionStep]:
    return [_step(st.create_file(path=path, content=_sentence(old)))]


def replace_word_checkpoints(path: str, old: str, new: str) -> list[Evaluator]:
    return [
        # the rest of the file stays as it was: only the word changes
        hp.file_holds(path=path, content=_sentence(new)),
        hp.file_lacks(path=path, text=old),
    ]


def replace_word_solution(path: str, old: str, new: str) -> list[ActionCall]:
    """Open the file in the text editor and use its Find and Replace dialog (Ctrl+R): the
    word, Tab to the replacement field, the replacement, "Replace all in:" (the document)
    so that every occurrence changes and not only the next one, then close, save, quit."""
    return [
        *mousepad_open(path),
        call(D, "hotkey", keys=["ctrl", "r"]),
        call("root", "wait"),  # for the dialog to take the keyboard
        call(D, "write_text", text=old),
        call(D, "press", key="tab"),
        call(D, "write_text", text=new),
        call(D, "click_on", name="Replace all in:", role="check box"),
        call(D, "click_on", name="Replace All", role="push button"),
        call(D, "click_on", name="Close", role="push button"),
        *mousepad_save_quit(),
    ]


def replace_word_in_terminal(path: str, old: str, new: str) -> list[ActionCall]:
    return terminal(f"sed -i 's/{old}/{new}/g' {q(path)}")


def replace_word_in_vim(path: str, old: str, new: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="vim"),
        call(D, "write_text", text=f":e {expand(path)}\n"),
        call(D, "write_text", text=f":%s/{old}/{new}/g\n"),
        call(D, "write_text", text=":wq\n"),
    ]


def replace_word_output(path: str, old: str, new: str) -> str:
    return path


def replace_word_to_new_file(path: str, old: str, new: str) -> list[ActionCall]:
    return terminal(f"sed 's/{old}/{new}/g' {q(path)} > {q(path + '.new')}")


def replace_word_drops_line(path: str, old: str, new: str) -> list[ActionCall]:
    return terminal(_printf(f"the {new} report is ready", path))


REPLACE_WORD = SubTask(
    id="desktop.replace_word",
    description='In {path}, replace every "{old}" with "{new}" and save the file.',
    attributes={"path": "desktop_file", "old": "str", "new": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[WRITE_INTENT, FILES_INTENT],
    value_pools={"path": DESKTOP_FILES, "old": WORDS[:12], "new": WORDS[12:]},
    setup_generator=replace_word_setup,
    evaluator_generator=replace_word_checkpoints,
    solution_generator=replace_word_solution,
    alternative_generators=[replace_word_in_terminal, replace_word_in_vim],
    output_generator=replace_word_output,
    near_misses=[
        NearMiss(
            "writes the result to a new file, leaving the original",
            solution=replace_word_to_new_file,
        ),
        NearMiss(
            "replaces the word in the first line only, dropping the second",
            solution=replace_word_drops_line,
        ),
    ],
)


def sort_lines_setup(source: str, target: str) -> list[ActionStep]:
    return [
        _step(
            st.create_file(path=source, content="\n".join(_shuffled(basename(source)[:-4])) + "\n")
        )
    ]


def sort_lines_checkpoint(source: str, target: str) -> Evaluator:
    return hp.file_holds(path=target, content="\n".join(sorted(_shuffled(basename(source)[:-4]))))


def sort_lines_solution(source: str, target: str) -> list[ActionCall]:
    return terminal(f"sort {q(source)} > {q(target)}")


def sort_lines_output(source: str, target: str) -> str:
    return target


def sort_lines_reversed(source: str, target: str) -> list[ActionCall]:
    return terminal(f"sort -r {q(source)} > {q(target)}")


SORT_LINES = SubTask(
    id="desktop.sort_lines",
    description="Sort the lines of {source} alphabetically and save the result as {target}.",
    attributes={"source": "desktop_file", "target": "desktop_file"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[FILES_INTENT],
    value_pools={"source": DESKTOP_FILES, "target": COPY_TARGETS},
    setup_generator=sort_lines_setup,
    evaluator_generator=sort_lines_checkpoint,
    solution_generator=sort_lines_solution,
    output_generator=sort_lines_output,
    near_misses=[
        NearMiss(
            "sorts in reverse",
            solution=sort_lines_reversed,
        ),
    ],
)


def clipboard_checkpoint(text: str) -> Evaluator:
    return ev.clipboard_contains(text=text, exact=True)


def clipboard_solution(text: str) -> list[ActionCall]:
    return terminal(f"printf %s {q(text)} | xclip -selection clipboard")


CLIPBOARD = SubTask(
    id="desktop.clipboard",
    description='Put the text "{text}" on the clipboard.',
    attributes={"text": "text"},
    outputs=["clipboard"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[WRITE_INTENT],
    value_pools={"text": TEXTS},
    evaluator_generator=clipboard_checkpoint,
    solution_generator=clipboard_solution,
    near_misses=[
        NearMiss("a typo in the text", changes={"text": nm.typo}),
    ],
)


def stop_program_setup(program: str) -> list[ActionStep]:
    return [_step(hp.start_program(name=program))]


def stop_program_checkpoint(program: str) -> Evaluator:
    return ev.process_closed(name=program)


def stop_program_solution(program: str) -> list[ActionCall]:
    return terminal(f"pkill -x {q(program)}")


def stop_program_with_kill(program: str) -> list[ActionCall]:
    return terminal(f"kill $(pidof {q(program)})")


def stop_program_suspends(program: str) -> list[ActionCall]:
    return terminal(f"pkill -STOP -x {q(program)}")


STOP_PROGRAM = SubTask(
    id="desktop.stop_program",
    description="A background program called {program} is running. Stop it.",
    attributes={"program": "str"},
    outputs=["process"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[SETUP_INTENT],
    value_pools={"program": PROGRAMS},
    setup_generator=stop_program_setup,
    evaluator_generator=stop_program_checkpoint,
    solution_generator=stop_program_solution,
    alternative_generators=[stop_program_with_kill],
    near_misses=[
        NearMiss(
            "suspends the program instead of stopping it",
            solution=stop_program_suspends,
        ),
    ],
)


def write_script_checkpoints(script: str, message: str) -> list[Evaluator]:
    return [
        ev.file_exists(path=script),
        ev.command_output(command=["sh", expand(script)], contains=message),
    ]


def write_script_solution(script: str, message: str) -> list[ActionCall]:
    return terminal(_printf(f"echo {q(message)}", script))


def write_script_in_vim(script: str, message: str) -> list[ActionCall]:
    return vim_new(f"echo '{message}'", script)


def write_script_output(script: str, message: str) -> str:
    return script


WRITE_SCRIPT = SubTask(
    id="desktop.write_script",
    description='Create the shell script {script} that prints "{message}" when run with sh.',
    attributes={"script": "desktop_file", "message": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[SETUP_INTENT, WRITE_INTENT],
    value_pools={"script": SCRIPTS, "message": TEXTS},
    evaluator_generator=write_script_checkpoints,
    solution_generator=write_script_solution,
    alternative_generators=[write_script_in_vim],
    output_generator=write_script_output,
    near_misses=[
        NearMiss("a typo in the message", changes={"message": nm.typo}),
    ],
)


def make_executable_checkpoint(path: str) -> Evaluator:
    return ev.command_output(command=["test", "-x", expand(path)])


def make_executable_solution(path: str) -> list[ActionCall]:
    return terminal(f"chmod +x {q(path)}")


def make_executable_755(path: str) -> list[ActionCall]:
    return terminal(f"chmod 755 {q(path)}")


def make_executable_output(path: str) -> str:
    return path


def make_executable_readable(path: str) -> list[ActionCall]:
    return terminal(f"chmod +r {q(path)}")


MAKE_EXECUTABLE = SubTask(
    id="desktop.make_executable",
    description="Make {path} executable.",
    attributes={"path": "desktop_file"},
    output_type="desktop_file",
    inputs=["path"],
    outputs=["desktop_file"],
    env=D,
    app="terminal",
    app_category="system",
    intents=[SETUP_INTENT, CODE_INTENT],
    value_pools={"path": DESKTOP_FILES},
    evaluator_generator=make_executable_checkpoint,
    solution_generator=make_executable_solution,
    alternative_generators=[make_executable_755],
    output_generator=make_executable_output,
    near_misses=[
        NearMiss(
            "makes it readable instead of executable",
            solution=make_executable_readable,
        ),
    ],
)


def resize_image_setup(image: str, width: int, target: str) -> list[ActionStep]:
    return [_step(hp.draw_picture(path=image, width=400, height=300, color="teal"))]


def resize_image_checkpoints(image: str, width: int, target: str) -> list[Evaluator]:
    return [
        ev.file_exists(path=target),
        # the source is 400x300: keeping the proportions makes it 3/4 as high as wide
        ev.command_output(
            command=["identify", "-format", "%wx%h", expand(target)],
            pattern=f"^{width}x{width * 3 // 4}$",
        ),
        hp.image_like_source(path=target, source=image, width=width),
    ]


def resize_image_solution(image: str, width: int, target: str) -> list[ActionCall]:
    """In the image editor: the height is computed (the source is 400x300), not typed
    by the instruction."""
    return [
        *drawing_open(image),
        *drawing_scale(width, width * 3 // 4),
        *drawing_save_as(target),
        *drawing_quit(),
    ]


def resize_image_with_imagemagick(image: str, width: int, target: str) -> list[ActionCall]:
    return terminal(f"convert {q(image)} -resize {width}x {q(target)}")


def resize_image_output(image: str, width: int, target: str) -> str:
    return target


def resize_image_square(image: str, width: int, target: str) -> list[ActionCall]:
    return terminal(f"convert {q(image)} -resize {width}x{width}! {q(target)}")


def resize_image_redrawn(image: str, width: int, target: str) -> list[ActionCall]:
    return terminal(f"convert -size {width}x{width * 3 // 4} xc:teal {q(target)}")


RESIZE_IMAGE = SubTask(
    id="desktop.resize_image",
    description="Scale the picture {image} to {width} pixels wide (keep its proportions) "
    "and save it as {target}.",
    attributes={"image": "image_path", "width": "int", "target": "image_path"},
    output_type="image_path",
    outputs=["image_path"],
    env=D,
    app="image-editor",
    app_category="graphics",
    intents=[IMAGE_INTENT],
    value_pools={
        "image": IMAGES,
        "width": [64, 80, 96, 120, 160, 200],
        "target": SMALL_IMAGES,
    },
    setup_generator=resize_image_setup,
    evaluator_generator=resize_image_checkpoints,
    solution_generator=resize_image_solution,
    alternative_generators=[resize_image_with_imagemagick],
    output_generator=resize_image_output,
    near_misses=[
        NearMiss(
            "stretches it to a square instead of keeping its proportions",
            solution=resize_image_square,
        ),
        NearMiss(
            "draws a new picture of the right size in the same colour",
            solution=resize_image_redrawn,
        ),
    ],
)


def convert_image_checkpoints(image: str, target: str) -> list[Evaluator]:
    return [
        ev.file_exists(path=target),
        ev.command_output(command=["identify", "-format", "%m", expand(target)], contains="JPEG"),
        hp.image_like_source(path=target, source=image, fmt="JPEG"),
    ]


def convert_image_solution(image: str, target: str) -> list[ActionCall]:
    """In the image editor: Save As with the .jpg name exports a JPEG."""
    return [*drawing_open(image), *drawing_save_as(target), *drawing_quit()]


def convert_image_with_imagemagick(image: str, target: str) -> list[ActionCall]:
    return terminal(f"convert {q(image)} {q(target)}")


def convert_image_output(image: str, target: str) -> str:
    return target


def convert_image_renamed(image: str, target: str) -> list[ActionCall]:
    return terminal(f"cp {q(image)} {q(target)}")


def convert_image_negated(image: str, target: str) -> list[ActionCall]:
    return terminal(f"convert {q(image)} -negate {q(target)}")


CONVERT_IMAGE = SubTask(
    id="desktop.convert_image",
    description="Convert the picture {image} to JPEG and save it as {target}.",
    attributes={"image": "image_path", "target": "image_path"},
    output_type="image_path",
    inputs=["image"],
    outputs=["image_path"],
    env=D,
    app="image-editor",
    app_category="graphics",
    intents=[IMAGE_INTENT],
    value_pools={"image": IMAGES, "target": JPEGS},
    evaluator_generator=convert_image_checkpoints,
    solution_generator=convert_image_solution,
    alternative_generators=[convert_image_with_imagemagick],
    output_generator=convert_image_output,
    near_misses=[
        NearMiss(
            "renames a copy of the PNG to .jpg",
            solution=convert_image_renamed,
        ),
        NearMiss(
            "saves the picture with its colours inverted",
            solution=convert_image_negated,
        ),
    ],
)


def read_message_setup(path: str, memo: str) -> list[ActionStep]:
    return [_step(st.create_file(path=path, content=memo + "\n"))]


def read_message_checkpoint(path: str, memo: str) -> Evaluator:
    return hp.window_shows(text=memo)


def read_message_solution(path: str, memo: str) -> list[ActionCall]:
    """Open the file in the text editor (the window shows it), then quit it."""
    return [
        *mousepad_open(path),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),  # for the editor to exit before anything reopens it
    ]


def read_message_in_terminal(path: str, memo: str) -> list[ActionCall]:
    return [
        call(D, "search_app", name="terminal"),
        call(D, "write_text", text=f"cat {q(path)}\n"),
        call(D, "write_text", text="exit\n"),
    ]


def read_message_output(path: str, memo: str) -> str:
    return memo


READ_MESSAGE = SubTask(
    id="desktop.read_message",
    description="On the computer, open {path} and read the message it holds.",
    attributes={"path": "desktop_file", "memo": "memo"},
    output_type="memo",
    outputs=["memo"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[MEMO_INTENT],
    value_pools={"path": DESKTOP_FILES, "memo": MEMOS},
    setup_generator=read_message_setup,
    evaluator_generator=read_message_checkpoint,
    solution_generator=read_message_solution,
    alternative_generators=[read_message_in_terminal],
    output_generator=read_message_output,
    near_misses=[
        NearMiss("opens the file in the home folder", changes={"path": nm.in_home_folder}),
    ],
)


def save_code_checkpoint(code: str, path: str) -> Evaluator:
    return hp.file_holds(path=path, content=code)


def save_code_solution(code: str, path: str) -> list[ActionCall]:
    return mousepad_new(code, path)


def save_code_in_terminal(code: str, path: str) -> list[ActionCall]:
    return terminal(_printf(code, path))


def save_code_output(code: str, path: str) -> str:
    return path


def save_code_labelled(code: str, path: str) -> list[ActionCall]:
    return terminal(_printf(f"code: {code}", path))


SAVE_CODE = SubTask(
    id="desktop.save_code",
    description="On the computer, save that code (digits only) in the file {path}.",
    attributes={"code": "code", "path": "desktop_file"},
    output_type="desktop_file",
    inputs=["code"],
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[CODE_INTENT],
    value_pools={"code": CODES, "path": DESKTOP_FILES},
    evaluator_generator=save_code_checkpoint,
    solution_generator=save_code_solution,
    alternative_generators=[save_code_in_terminal],
    output_generator=save_code_output,
    near_misses=[
        NearMiss(
            "saves the code with a label",
            solution=save_code_labelled,
        ),
    ],
)


def save_message_checkpoint(memo: str, path: str) -> Evaluator:
    return hp.file_holds(path=path, content=memo)


def save_message_solution(memo: str, path: str) -> list[ActionCall]:
    return mousepad_new(memo, path)


def save_message_in_terminal(memo: str, path: str) -> list[ActionCall]:
    return terminal(_printf(memo, path))


def save_message_output(memo: str, path: str) -> str:
    return path


SAVE_MESSAGE = SubTask(
    id="desktop.save_message",
    description="On the computer, write that message into the file {path}.",
    attributes={"memo": "memo", "path": "desktop_file"},
    output_type="desktop_file",
    inputs=["memo"],
    outputs=["desktop_file"],
    env=D,
    app="mousepad",
    app_category="text editing",
    intents=[MEMO_INTENT],
    value_pools={"memo": MEMOS, "path": DESKTOP_FILES},
    evaluator_generator=save_message_checkpoint,
    solution_generator=save_message_solution,
    alternative_generators=[save_message_in_terminal],
    output_generator=save_message_output,
    near_misses=[
        NearMiss("a typo in the message", changes={"memo": nm.typo}),
    ],
)


def files_new_folder_checkpoints(folder: str) -> list[Evaluator]:
    return [
        ev.process_running(name="thunar"),
        ev.directory_exists(path=folder),
    ]


def files_new_folder_output(folder: str) -> str:
    return folder


def files_new_folder_in_terminal(folder: str) -> list[ActionCall]:
    return terminal(f"mkdir -p {q(folder)}")


FILES_NEW_FOLDER = SubTask(
    id="desktop.files_new_folder",
    description="In the file manager (Files), create the folder {folder}.",
    attributes={"folder": "desktop_dir"},
    output_type="desktop_dir",
    outputs=["desktop_dir"],
    env=D,
    app="thunar",
    app_category="file management",
    intents=[FILE_MANAGER_INTENT],
    value_pools={"folder": GUI_FOLDERS},
    evaluator_generator=files_new_folder_checkpoints,
    solution_generator=thunar_new_folder,
    alternative_generators=[thunar_new_folder_by_menu],
    output_generator=files_new_folder_output,
    near_misses=[
        NearMiss(
            "creates the folder in the terminal, not in the file manager",
            solution=files_new_folder_in_terminal,
        ),
    ],
)


TEMPLATES: list[SubTask] = [
    CREATE_FILE,
    EDITOR_WRITE,
    VIM_WRITE,
    APPEND_LINE,
    COPY_FILE,
    RENAME_FILE,
    MAKE_FOLDER,
    MOVE_INTO_FOLDER,
    ARCHIVE_FOLDER,
    COUNT_LINES,
    SUM_NUMBERS,
    EDITOR_OPTION,
    GTK_THEME,
    REPLACE_WORD,
    SORT_LINES,
    CLIPBOARD,
    STOP_PROGRAM,
    WRITE_SCRIPT,
    MAKE_EXECUTABLE,
    RESIZE_IMAGE,
    CONVERT_IMAGE,
    READ_MESSAGE,
    SAVE_CODE,
    SAVE_MESSAGE,
    FILES_NEW_FOLDER,
]
