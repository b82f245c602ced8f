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

from reefbench.actions import ActionCall
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop import setup as st
from reefbench.root import answer_equals
from reefbench.subtask import NearMiss, SubTask
from reefbench.suites.v0 import helpers as hp
from reefbench.suites.v0.templates import near as nm
from reefbench.suites.v0.templates.common import (
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
    q,
    terminal,
    thunar_new_folder,
    thunar_new_folder_by_menu,
    vim_new,
)
from reefbench.task import ActionStep

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


TEMPLATES: list[SubTask] = [
    SubTask(
        id="desktop.create_file",
        description='Create the text file {path} containing the line "{content}".',
        attributes={"path": "desktop_file", "content": "text"},
        output_type="desktop_file",
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT, WRITE_INTENT],
        value_pools={"path": DESKTOP_FILES, "content": TEXTS},
        evaluator_generator=lambda path, content: hp.file_holds(path=path, content=content),
        solution_generator=lambda path, content: terminal(_printf(content, path)),
        alternative_generators=[lambda path, content: mousepad_new(content, path)],
        output_generator=lambda path, content: path,
        near_misses=[
            NearMiss("saves it in the home folder", changes={"path": nm.in_home_folder}),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda path, content: [
            hp.file_holds(path=path, content=content),
            ev.saved_with(path=path, app="mousepad"),
        ],
        solution_generator=lambda path, content: mousepad_new(content, path),
        output_generator=lambda path, content: path,
        near_misses=[
            NearMiss("a typo in the text", changes={"content": nm.typo}),
            NearMiss(
                "writes the file from the terminal while the editor is open",
                solution=_editor_open_terminal_writes,
            ),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda path, content: [
            hp.file_holds(path=path, content=content),
            ev.saved_with(path=path, app="vim"),
        ],
        solution_generator=lambda path, content: vim_new(content, path),
        output_generator=lambda path, content: path,
        near_misses=[
            NearMiss("saves it in the home folder", changes={"path": nm.in_home_folder}),
            NearMiss(
                "writes the file from the terminal while vim is open",
                solution=_vim_open_terminal_writes,
            ),
        ],
    ),
    SubTask(
        id="desktop.append_line",
        description='Add the line "{line}" at the end of {path}.',
        attributes={"path": "desktop_file", "line": "text"},
        output_type="desktop_file",
        inputs=["path"],
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT, WRITE_INTENT, CODE_INTENT],
        value_pools={"path": DESKTOP_FILES, "line": TEXTS},
        # The line is a whole line with a non-blank line before it: an overwrite that
        # leaves only the new line is not an append. Later lines may follow it: the check
        # is repeated at the end of the episode, and another append to the same file in an
        # independent step of the task may have come after this one.
        evaluator_generator=lambda path, line: ev.file_matches(
            path=path, pattern=r"\S.*\n" + re.escape(line) + r"$"
        ),
        # A file saved by the text editor may not end in a newline: `sed '$a\'` adds the
        # missing one first, or the new line would be glued to the last (the old check,
        # "the file ends with the line", accepted "...fourpick up the dry cleaning").
        solution_generator=lambda path, line: terminal(
            f"sed -i -e '$a\\' {q(path)}", _printf(line, path, ">>")
        ),
        alternative_generators=[
            lambda path, line: [
                call(D, "search_app", name="vim"),
                call(D, "write_text", text=f":e {expand(path)}\n"),
                call(D, "write_text", text="Go" + line),
                call(D, "press", key="esc"),
                call(D, "write_text", text=":wq\n"),
            ]
        ],
        output_generator=lambda path, line: path,
        near_misses=[
            NearMiss(
                "overwrites the file instead of appending",
                solution=lambda path, line: terminal(_printf(line, path, ">")),
            ),
        ],
    ),
    SubTask(
        id="desktop.copy_file",
        description="Make a copy of {source} named {target}.",
        attributes={"source": "desktop_file", "target": "desktop_file"},
        output_type="desktop_file",
        inputs=["source"],
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT, CODE_INTENT],
        value_pools={"source": DESKTOP_FILES, "target": COPY_TARGETS},
        evaluator_generator=lambda source, target: [
            ev.file_exists(path=target),
            ev.command_output(command=["cmp", expand(source), expand(target)]),
        ],
        solution_generator=lambda source, target: terminal(f"cp {q(source)} {q(target)}"),
        alternative_generators=[lambda source, target: terminal(f"cat {q(source)} > {q(target)}")],
        output_generator=lambda source, target: target,
        near_misses=[
            NearMiss(
                "moves the file instead of copying it",
                solution=lambda source, target: terminal(f"mv {q(source)} {q(target)}"),
            ),
        ],
    ),
    SubTask(
        id="desktop.rename_file",
        description="Rename {path} to {new_name}, keeping it in the same folder.",
        attributes={"path": "desktop_file", "new_name": "str"},
        output_type="desktop_file",
        inputs=["path"],
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT, CODE_INTENT],
        value_pools={"path": DESKTOP_FILES, "new_name": NEW_NAMES},
        evaluator_generator=lambda path, new_name: [
            hp.same_bytes_as(path=f"{dirname(path)}/{new_name}", source=path),
            hp.file_absent(path=path),
        ],
        solution_generator=lambda path, new_name: terminal(
            f"mv {q(path)} {q(dirname(path) + '/' + new_name)}"
        ),
        alternative_generators=[
            lambda path, new_name: terminal(
                f"cp {q(path)} {q(dirname(path) + '/' + new_name)} && rm {q(path)}"
            )
        ],
        output_generator=lambda path, new_name: f"{dirname(path)}/{new_name}",
        near_misses=[
            NearMiss(
                "copies the file instead of renaming it",
                solution=lambda path, new_name: terminal(
                    f"cp {q(path)} {q(dirname(path) + '/' + new_name)}"
                ),
            ),
            NearMiss(
                "makes an empty file of the new name and deletes the old one",
                solution=lambda path, new_name: terminal(
                    f"touch {q(dirname(path) + '/' + new_name)} && rm {q(path)}"
                ),
            ),
        ],
    ),
    SubTask(
        id="desktop.make_folder",
        description="Create the folder {folder}.",
        attributes={"folder": "desktop_dir"},
        output_type="desktop_dir",
        outputs=["desktop_dir"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT],
        value_pools={"folder": FOLDERS},
        evaluator_generator=lambda folder: ev.directory_exists(path=folder),
        solution_generator=lambda folder: terminal(f"mkdir -p {q(folder)}"),
        alternative_generators=[
            lambda folder: terminal(f"cd {q(dirname(folder))} && mkdir {q(basename(folder))}")
        ],
        output_generator=lambda folder: folder,
        near_misses=[
            NearMiss(
                "creates an empty file of that name",
                solution=lambda folder: terminal(f"touch {q(folder)}"),
            ),
        ],
    ),
    SubTask(
        id="desktop.move_into_folder",
        description="Move {path} into the folder {folder}.",
        attributes={"path": "desktop_file", "folder": "desktop_dir"},
        output_type="desktop_file",
        inputs=["path", "folder"],
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[FILES_INTENT],
        value_pools={"path": DESKTOP_FILES, "folder": FOLDERS},
        evaluator_generator=lambda path, folder: [
            hp.same_bytes_as(path=f"{folder}/{basename(path)}", source=path),
            hp.file_absent(path=path),
        ],
        solution_generator=lambda path, folder: terminal(f"mv {q(path)} {q(folder)}/"),
        output_generator=lambda path, folder: f"{folder}/{basename(path)}",
        near_misses=[
            NearMiss(
                "copies the file into the folder instead of moving it",
                solution=lambda path, folder: terminal(f"cp {q(path)} {q(folder)}/"),
            ),
            NearMiss(
                "puts an empty file of that name in the folder and deletes the original",
                solution=lambda path, folder: terminal(
                    f"touch {q(folder + '/' + basename(path))} && rm {q(path)}"
                ),
            ),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda folder, archive: [
            ev.file_exists(path=archive),
            hp.archive_holds_folder(archive=archive, folder=folder),
        ],
        solution_generator=lambda folder, archive: terminal(
            f"tar -czf {q(archive)} -C {q(dirname(folder))} {q(basename(folder))}"
        ),
        near_misses=[
            NearMiss(
                "archives the folder under its full path",
                solution=lambda folder, archive: terminal(
                    f"tar -czf {q(archive)} -C / {q(expand(folder).lstrip('/'))}"
                ),
            ),
        ],
    ),
    SubTask(
        id="desktop.count_lines",
        description="How many lines does {path} have? Submit the number.",
        attributes={"path": "desktop_file", "count": "int"},
        outputs=["answer"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[LOOKUP_INTENT],
        value_pools={"path": DESKTOP_FILES, "count": [3, 4, 5, 6, 7, 8, 9, 11]},
        setup_generator=lambda path, count: [
            _step(st.create_file(path=path, content=_lines(count)))
        ],
        evaluator_generator=lambda path, count: answer_equals(expected=str(count), units=["lines"]),
        solution_generator=lambda path, count: [
            call(D, "search_app", name="terminal"),
            call(D, "write_text", text=f"wc -l {q(path)}\n"),
            call("root", "submit", answer=str(count)),
        ],
        near_misses=[
            NearMiss("counts one line too many", changes={"count": nm.one_more}),
        ],
    ),
    SubTask(
        id="desktop.sum_numbers",
        description="{path} lists some numbers, one per line. Submit their sum.",
        attributes={"path": "desktop_file", "numbers": "str"},
        outputs=["answer"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[LOOKUP_INTENT],
        value_pools={"path": DESKTOP_FILES, "numbers": NUMBER_LISTS},
        setup_generator=lambda path, numbers: [
            _step(st.create_file(path=path, content="\n".join(numbers.split()) + "\n"))
        ],
        evaluator_generator=lambda path, numbers: answer_equals(
            expected=str(sum(int(n) for n in numbers.split()))
        ),
        solution_generator=lambda path, numbers: [
            call(D, "search_app", name="terminal"),
            call(D, "write_text", text=f"paste -sd+ {q(path)} | bc\n"),
            call("root", "submit", answer=str(sum(int(n) for n in numbers.split()))),
        ],
        near_misses=[
            NearMiss("misses the last number", changes={"numbers": nm.without_last_number}),
        ],
    ),
    SubTask(
        id="desktop.editor_option",
        description='In the text editor, turn on "{option}" in the View menu.',
        attributes={"option": "setting"},
        outputs=["editor_setting"],
        env=D,
        app="mousepad",
        app_category="text editing",
        intents=[SETUP_INTENT, WRITE_INTENT],
        value_pools={"option": list(EDITOR_OPTIONS)},
        evaluator_generator=lambda option: ev.gsetting_equals(
            schema_id=EDITOR_OPTIONS[option][0], key=EDITOR_OPTIONS[option][1], value="true"
        ),
        solution_generator=lambda option: [
            call(D, "search_app", name="text editor"),
            call(D, "click_on", name="View", role="menu"),
            call(D, "click_on", name=option),
            call(D, "hotkey", keys=["ctrl", "q"]),
        ],
        # No certified solution with gsettings in the terminal: the instruction names the
        # editor. (The checkpoint cannot tell the two apart: both write the same dconf key.)
        near_misses=[
            NearMiss(
                "turns on the option next to it",
                changes={"option": nm.neighbour_in(list(EDITOR_OPTIONS))},
            ),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda theme: ev.gsetting_equals(
            schema_id="org.gnome.desktop.interface", key="gtk-theme", value=theme
        ),
        solution_generator=lambda theme: terminal(
            f"gsettings set org.gnome.desktop.interface gtk-theme {q(theme)}"
        ),
        near_misses=[
            NearMiss("sets another theme", changes={"theme": nm.neighbour_in(THEMES)}),
        ],
    ),
    SubTask(
        id="desktop.replace_word",
        description='In {path}, replace every "{old}" with "{new}" and save the file.',
        attributes={"path": "desktop_file", "old": "str", "new": "str"},
        output_type="desktop_file",
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[WRITE_INTENT, FILES_INTENT],
        value_pools={"path": DESKTOP_FILES, "old": WORDS[:12], "new": WORDS[12:]},
        setup_generator=lambda path, old, new: [
            _step(st.create_file(path=path, content=_sentence(old)))
        ],
        evaluator_generator=lambda path, old, new: [
            # the rest of the file stays as it was: only the word changes
            hp.file_holds(path=path, content=_sentence(new)),
            hp.file_lacks(path=path, text=old),
        ],
        solution_generator=lambda path, old, new: terminal(f"sed -i 's/{old}/{new}/g' {q(path)}"),
        alternative_generators=[
            lambda path, old, new: [
                call(D, "search_app", name="vim"),
                call(D, "write_text", text=f":e {expand(path)}\n"),
                call(D, "write_text", text=f":%s/{old}/{new}/g\n"),
                call(D, "write_text", text=":wq\n"),
            ]
        ],
        output_generator=lambda path, old, new: path,
        near_misses=[
            NearMiss(
                "writes the result to a new file, leaving the original",
                solution=lambda path, old, new: terminal(
                    f"sed 's/{old}/{new}/g' {q(path)} > {q(path + '.new')}"
                ),
            ),
            NearMiss(
                "replaces the word in the first line only, dropping the second",
                solution=lambda path, old, new: terminal(
                    _printf(f"the {new} report is ready", path)
                ),
            ),
        ],
    ),
    SubTask(
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
        setup_generator=lambda source, target: [
            _step(
                st.create_file(
                    path=source, content="\n".join(_shuffled(basename(source)[:-4])) + "\n"
                )
            )
        ],
        evaluator_generator=lambda source, target: hp.file_holds(
            path=target, content="\n".join(sorted(_shuffled(basename(source)[:-4])))
        ),
        solution_generator=lambda source, target: terminal(f"sort {q(source)} > {q(target)}"),
        output_generator=lambda source, target: target,
        near_misses=[
            NearMiss(
                "sorts in reverse",
                solution=lambda source, target: terminal(f"sort -r {q(source)} > {q(target)}"),
            ),
        ],
    ),
    SubTask(
        id="desktop.clipboard",
        description='Put the text "{text}" on the clipboard.',
        attributes={"text": "text"},
        outputs=["clipboard"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[WRITE_INTENT],
        value_pools={"text": TEXTS},
        evaluator_generator=lambda text: ev.clipboard_contains(text=text, exact=True),
        solution_generator=lambda text: terminal(
            f"printf %s {q(text)} | xclip -selection clipboard"
        ),
        near_misses=[
            NearMiss("a typo in the text", changes={"text": nm.typo}),
        ],
    ),
    SubTask(
        id="desktop.stop_program",
        description="A background program called {program} is running. Stop it.",
        attributes={"program": "str"},
        outputs=["process"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[SETUP_INTENT],
        value_pools={"program": PROGRAMS},
        setup_generator=lambda program: [_step(hp.start_program(name=program))],
        evaluator_generator=lambda program: ev.process_closed(name=program),
        solution_generator=lambda program: terminal(f"pkill -x {q(program)}"),
        alternative_generators=[lambda program: terminal(f"kill $(pidof {q(program)})")],
        near_misses=[
            NearMiss(
                "suspends the program instead of stopping it",
                solution=lambda program: terminal(f"pkill -STOP -x {q(program)}"),
            ),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda script, message: [
            ev.file_exists(path=script),
            ev.command_output(command=["sh", expand(script)], contains=message),
        ],
        solution_generator=lambda script, message: terminal(_printf(f"echo {q(message)}", script)),
        alternative_generators=[lambda script, message: vim_new(f"echo '{message}'", script)],
        output_generator=lambda script, message: script,
        near_misses=[
            NearMiss("a typo in the message", changes={"message": nm.typo}),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda path: ev.command_output(command=["test", "-x", expand(path)]),
        solution_generator=lambda path: terminal(f"chmod +x {q(path)}"),
        alternative_generators=[lambda path: terminal(f"chmod 755 {q(path)}")],
        output_generator=lambda path: path,
        near_misses=[
            NearMiss(
                "makes it readable instead of executable",
                solution=lambda path: terminal(f"chmod +r {q(path)}"),
            ),
        ],
    ),
    SubTask(
        id="desktop.resize_image",
        description="Scale the picture {image} to {width} pixels wide (keep its proportions) "
        "and save it as {target}.",
        attributes={"image": "image_path", "width": "int", "target": "image_path"},
        output_type="image_path",
        outputs=["image_path"],
        env=D,
        app="imagemagick",
        app_category="graphics",
        intents=[IMAGE_INTENT],
        value_pools={
            "image": IMAGES,
            "width": [64, 80, 96, 120, 160, 200],
            "target": SMALL_IMAGES,
        },
        setup_generator=lambda image, width, target: [
            _step(hp.draw_picture(path=image, width=400, height=300, color="teal"))
        ],
        evaluator_generator=lambda image, width, target: [
            ev.file_exists(path=target),
            # the source is 400x300: keeping the proportions makes it 3/4 as high as wide
            ev.command_output(
                command=["identify", "-format", "%wx%h", expand(target)],
                pattern=f"^{width}x{width * 3 // 4}$",
            ),
            hp.image_like_source(path=target, source=image, width=width),
        ],
        solution_generator=lambda image, width, target: terminal(
            f"convert {q(image)} -resize {width}x {q(target)}"
        ),
        output_generator=lambda image, width, target: target,
        near_misses=[
            NearMiss(
                "stretches it to a square instead of keeping its proportions",
                solution=lambda image, width, target: terminal(
                    f"convert {q(image)} -resize {width}x{width}! {q(target)}"
                ),
            ),
            NearMiss(
                "draws a new picture of the right size in the same colour",
                solution=lambda image, width, target: terminal(
                    f"convert -size {width}x{width * 3 // 4} xc:teal {q(target)}"
                ),
            ),
        ],
    ),
    SubTask(
        id="desktop.convert_image",
        description="Convert the picture {image} to JPEG and save it as {target}.",
        attributes={"image": "image_path", "target": "image_path"},
        output_type="image_path",
        inputs=["image"],
        outputs=["image_path"],
        env=D,
        app="imagemagick",
        app_category="graphics",
        intents=[IMAGE_INTENT],
        value_pools={"image": IMAGES, "target": JPEGS},
        evaluator_generator=lambda image, target: [
            ev.file_exists(path=target),
            ev.command_output(
                command=["identify", "-format", "%m", expand(target)], contains="JPEG"
            ),
            hp.image_like_source(path=target, source=image, fmt="JPEG"),
        ],
        solution_generator=lambda image, target: terminal(f"convert {q(image)} {q(target)}"),
        output_generator=lambda image, target: target,
        near_misses=[
            NearMiss(
                "renames a copy of the PNG to .jpg",
                solution=lambda image, target: terminal(f"cp {q(image)} {q(target)}"),
            ),
            NearMiss(
                "saves the picture with its colours inverted",
                solution=lambda image, target: terminal(f"convert {q(image)} -negate {q(target)}"),
            ),
        ],
    ),
    SubTask(
        id="desktop.read_message",
        description="On the computer, open {path} and read the message it holds.",
        attributes={"path": "desktop_file", "memo": "memo"},
        output_type="memo",
        outputs=["memo"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[MEMO_INTENT],
        value_pools={"path": DESKTOP_FILES, "memo": MEMOS},
        setup_generator=lambda path, memo: [_step(st.create_file(path=path, content=memo + "\n"))],
        evaluator_generator=lambda path, memo: hp.window_shows(text=memo),
        solution_generator=lambda path, memo: [
            call(D, "search_app", name="terminal"),
            call(D, "write_text", text=f"cat {q(path)}\n"),
            call(D, "write_text", text="exit\n"),
        ],
        output_generator=lambda path, memo: memo,
        near_misses=[
            NearMiss("opens the file in the home folder", changes={"path": nm.in_home_folder}),
        ],
    ),
    SubTask(
        id="desktop.save_code",
        description="On the computer, save that code (digits only) in the file {path}.",
        attributes={"code": "code", "path": "desktop_file"},
        output_type="desktop_file",
        inputs=["code"],
        outputs=["desktop_file"],
        env=D,
        app="terminal",
        app_category="system",
        intents=[CODE_INTENT],
        value_pools={"code": CODES, "path": DESKTOP_FILES},
        evaluator_generator=lambda code, path: hp.file_holds(path=path, content=code),
        solution_generator=lambda code, path: terminal(_printf(code, path)),
        alternative_generators=[lambda code, path: mousepad_new(code, path)],
        output_generator=lambda code, path: path,
        near_misses=[
            NearMiss(
                "saves the code with a label",
                solution=lambda code, path: terminal(_printf(f"code: {code}", path)),
            ),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda memo, path: hp.file_holds(path=path, content=memo),
        solution_generator=lambda memo, path: mousepad_new(memo, path),
        alternative_generators=[lambda memo, path: terminal(_printf(memo, path))],
        output_generator=lambda memo, path: path,
        near_misses=[
            NearMiss("a typo in the message", changes={"memo": nm.typo}),
        ],
    ),
    SubTask(
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
        evaluator_generator=lambda folder: [
            ev.process_running(name="thunar"),
            ev.directory_exists(path=folder),
        ],
        solution_generator=thunar_new_folder,
        alternative_generators=[thunar_new_folder_by_menu],
        output_generator=lambda folder: folder,
        near_misses=[
            NearMiss(
                "creates the folder in the terminal, not in the file manager",
                solution=lambda folder: terminal(f"mkdir -p {q(folder)}"),
            ),
        ],
    ),
]
