"""Desktop checkpoints that read real state: files, processes, windows, screen, settings.

Paths are written as the agent sees them (``~/notes.txt``, ``/home/user/a``, ``/tmp/x``)
and read on the host through the instance's directories; a symlink leading out of the
sandbox counts as a missing file. Trajectory checks (OmniBench) read the environment's
record of what the agent's actions did.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from pathlib import Path
from typing import Any, Literal

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.desktop.app_records import saved_by
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.sandbox import SANDBOX_HOME
from reefbench.errors import ActionFailed


def _file(env: DesktopDevice, path: str) -> Path | None:
    try:
        target = env.session.host_path(path)
    except ActionFailed:
        return None
    return target if target.is_file() else None


def _read(env: DesktopDevice, path: str) -> str | None:
    target = _file(env, path)
    if target is None:
        return None
    return target.read_text(encoding="utf-8", errors="replace")


# ---------------------------------------------------------------- state keys
# What each checkpoint reads, as keys computed from its arguments (see
# reefbench.actions.evaluators): files by their path inside the sandbox, settings by schema and key.
def file_key(path: str) -> str:
    """``file:/home/user/a.txt`` for "~/a.txt", "/home/user/a.txt" or "a.txt"."""
    if path.startswith("~"):
        path = "/home/user" + path[1:]
    elif not path.startswith("/"):
        path = "/home/user/" + path
    return "file:" + posixpath.normpath(path)


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _copy_keys(source: str, target: str, **_: Any) -> list[str]:
    return [file_key(source), file_key(target)]


def _image_keys(first: str, second: str, **_: Any) -> list[str]:
    return [file_key(p) for p in (first, second) if _in_sandbox(p)]


def _in_sandbox(path: str) -> bool:
    return path.startswith(("~", "/home/user", "/tmp")) or not path.startswith("/")


def _command_keys(command: list[str], **_: Any) -> list[str]:
    """A command reads the sandbox files its arguments name (``sh ~/a.sh``)."""
    return [file_key(a) for a in command[1:] if a.startswith(("~/", "/home/user/", "/tmp/"))]


def _setting_keys(schema_id: str, key: str, **_: Any) -> list[str]:
    return [f"gsetting:{schema_id}/{key}"]


def _process_keys(name: str, **_: Any) -> list[str]:
    return [f"process:{name}"]


def _clipboard_keys(**_: Any) -> list[str]:
    return ["clipboard:"]


# --------------------------------------------------------------------- files
@evaluator(governs=_path_keys)
def file_exists(path: str, env: DesktopDevice) -> EvalResult:
    """The file exists.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/report.txt".
    """
    if _file(env, path) is not None:
        return EvalResult(success=True, message=f"{path} exists")
    return EvalResult(success=False, message=f"{path} does not exist")


@evaluator(governs=_path_keys)
def file_content_equals(
    path: str, content: str, strip: bool = True, *, env: DesktopDevice
) -> EvalResult:
    """The file's content equals the text (surrounding whitespace ignored unless strip=False).

    Args:
        path: Path as the agent sees it.
        content: Expected content.
        strip: Ignore leading/trailing whitespace (editors add a final newline).
    """
    text = _read(env, path)
    if text is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    same = text.strip() == content.strip() if strip else text == content
    if same:
        return EvalResult(success=True, message=f"{path} has the expected content")
    return EvalResult(success=False, message=f"{path} holds {text[:80]!r}, not {content[:80]!r}")


@evaluator(governs=_path_keys)
def file_contains(path: str, text: str, env: DesktopDevice) -> EvalResult:
    """The file exists and contains the text.

    Args:
        path: Path as the agent sees it.
        text: Text that must occur in the file.
    """
    content = _read(env, path)
    if content is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    if text in content:
        return EvalResult(success=True, message=f"{path} contains {text!r}")
    return EvalResult(success=False, message=f"{path} does not contain {text!r}")


@evaluator(governs=_path_keys)
def file_matches(path: str, pattern: str, env: DesktopDevice) -> EvalResult:
    """The file's content matches a regular expression (searched, multiline).

    Args:
        path: Path as the agent sees it.
        pattern: Python regular expression.
    """
    content = _read(env, path)
    if content is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    if re.search(pattern, content, re.MULTILINE):
        return EvalResult(success=True, message=f"{path} matches /{pattern}/")
    return EvalResult(success=False, message=f"{path} does not match /{pattern}/")


@evaluator(governs=_path_keys)
def directory_exists(path: str, env: DesktopDevice) -> EvalResult:
    """The directory exists.

    Args:
        path: Path as the agent sees it, e.g. "~/Projects".
    """
    try:
        target = env.session.host_path(path)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    ok = target.is_dir()
    return EvalResult(success=ok, message=f"{path} {'exists' if ok else 'does not exist'}")


@evaluator(governs=_copy_keys)
def files_copied(source: str, target: str, pattern: str = "*", *, env: DesktopDevice) -> EvalResult:
    """Every file in the source folder whose name matches the pattern has an identical copy
    in the target folder; progress is the share already copied.

    Args:
        source: Source folder as the agent sees it.
        target: Target folder as the agent sees it.
        pattern: Shell-style file-name pattern, e.g. "*.txt".
    """
    try:
        src, dst = env.session.host_path(source), env.session.host_path(target)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    if not src.is_dir():
        return EvalResult(success=False, message=f"{source} is not a folder")
    wanted = sorted(p for p in src.iterdir() if p.is_file() and fnmatch.fnmatch(p.name, pattern))
    if not wanted:
        return EvalResult(success=False, message=f"no file in {source} matches {pattern!r}")
    done = [
        p
        for p in wanted
        if (dst / p.name).is_file() and (dst / p.name).read_bytes() == p.read_bytes()
    ]
    missing = [p.name for p in wanted if p not in done]
    return EvalResult(
        success=not missing,
        message="all copied" if not missing else f"not copied yet: {', '.join(missing[:5])}",
        progress=len(done) / len(wanted),
    )


@evaluator(governs=_path_keys)
def saved_with(
    path: str, app: Literal["mousepad", "vim"], env: DesktopDevice, content: str | None = None
) -> EvalResult:
    """The file as it is now was saved by this application (on the app's own record; see
    :mod:`~reefbench.envs.desktop.app_records`): writing it with another program while
    the app is open does not count.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/report.txt".
        app: "mousepad" (the text editor) or "vim".
        content: If given, the app saved the file while it held this text (surrounding
            whitespace ignored): a file written by another program and saved by the app
            later, with other text (a line appended in the editor), does not count.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    if content is not None:
        held: EvalResult = file_content_equals.func(path=path, content=content, env=env)
        if not held.success:
            return held
    where = posixpath.normpath(SANDBOX_HOME + path[1:] if path.startswith("~") else path)
    ok, why = saved_by(app, env.session.home, where, target, env.session.clock_offset)
    return EvalResult(success=ok, message=why)


# ----------------------------------------------------------------- processes
@evaluator(moment=True)
def process_running(name: str, env: DesktopDevice) -> EvalResult:
    """A process with this name runs inside the desktop (e.g. "vim", "mousepad").

    Args:
        name: Process name (as in ps) or executable name.
    """
    running = name in env.process_names()
    return EvalResult(success=running, message=f"{name} is {'' if running else 'not '}running")


@evaluator(governs=_process_keys)
def process_closed(name: str, env: DesktopDevice) -> EvalResult:
    """No process with this name runs inside the desktop.

    Args:
        name: Process name (as in ps) or executable name.
    """
    running = name in env.process_names()
    return EvalResult(
        success=not running, message=f"{name} is {'still ' if running else 'not '}running"
    )


@evaluator(moment=True)
def focused_window(title: str = "", process: str = "", *, env: DesktopDevice) -> EvalResult:
    """The focused window's title contains ``title`` and it belongs to process ``process``.

    Args:
        title: Text the window title must contain (empty: any).
        process: Process name owning the window, e.g. "xfce4-terminal" (empty: any).
    """
    active = env.x11.active()
    if active is None:
        return EvalResult(success=False, message="no window is focused")
    if title and title.casefold() not in active.title.casefold():
        return EvalResult(success=False, message=f"focused window is {active.title!r}")
    if process:
        owner = next((p for p in env.session.processes() if p["pid"] == active.pid), None)
        names = {owner["comm"], Path(owner["cmdline"][0]).name} if owner else set()
        if process not in names:
            return EvalResult(
                success=False, message=f"focused window belongs to {sorted(names) or 'unknown'}"
            )
    return EvalResult(success=True, message=f"focused window is {active.title!r}")


# -------------------------------------------------------------------- screen
def _screen_text(env: DesktopDevice) -> str:
    from reefbench.envs.desktop.observation import ocr_lines

    return "\n".join(line.text for line in ocr_lines(env.screen.grab()))


@evaluator(moment=True)
def text_on_screen(text: str, env: DesktopDevice) -> EvalResult:
    """The text is visible on the screen (read with OCR; case and spacing ignored).

    Args:
        text: Words that must be readable on screen.
    """
    seen = _screen_text(env)
    wanted = " ".join(text.split()).casefold()
    found = wanted in " ".join(seen.split()).casefold()
    return EvalResult(success=found, message=f"{text!r} {'is' if found else 'is not'} on screen")


def _image_path(env: DesktopDevice, path: str) -> str:
    # Sandbox paths (~, /home/user, /tmp) are the agent's files; other absolute paths are
    # task assets on the host.
    if _in_sandbox(path):
        return str(env.session.host_path(path))
    return path


@evaluator(moment=True)
def image_on_screen(template: str, threshold: float = 0.85, *, env: DesktopDevice) -> EvalResult:
    """The picture in the template file appears on screen (OpenCV template match).

    Args:
        template: Image file (sandbox path, or absolute host path of a task asset).
        threshold: Minimum normalised correlation, 0–1.
    """
    from reefbench.perception.image import find_template

    match = find_template(env.screen.grab().image(), _image_path(env, template))
    if match is None:
        return EvalResult(success=False, message="the template is larger than the screen")
    ok = match.score >= threshold
    return EvalResult(success=ok, message=f"best match {match.score:.2f} at {match.box[:2]}")


@evaluator(governs=_image_keys)
def images_similar(
    first: str, second: str, threshold: float = 0.9, *, env: DesktopDevice
) -> EvalResult:
    """Two image files look alike (grayscale correlation of thumbnails ≥ threshold).

    Args:
        first: Image file (sandbox path or host task asset).
        second: Image file (sandbox path or host task asset).
        threshold: Minimum similarity, 0–1.
    """
    from reefbench.perception.image import similarity

    try:
        score = similarity(_image_path(env, first), _image_path(env, second))
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    return EvalResult(success=score >= threshold, message=f"similarity {score:.2f}")


# ------------------------------------------------------- clipboard, settings
@evaluator(governs=_clipboard_keys)
def clipboard_contains(text: str, exact: bool = False, *, env: DesktopDevice) -> EvalResult:
    """The clipboard holds the text (exact=True: nothing else).

    Args:
        text: Expected text.
        exact: Require the whole clipboard to equal the text.
    """
    value = env.clipboard()
    if value is None:
        return EvalResult(success=False, message="the clipboard is empty")
    ok = value == text if exact else text in value
    return EvalResult(success=ok, message=f"clipboard holds {value[:80]!r}")


@evaluator(governs=_setting_keys)
def gsetting_equals(schema_id: str, key: str, value: str, env: DesktopDevice) -> EvalResult:
    """A desktop setting in the GSettings store equals the value.

    Examples: ("org.gnome.desktop.interface", "color-scheme", "prefer-dark"),
    ("org.xfce.mousepad.preferences.view", "show-line-numbers", "true").

    Args:
        schema_id: GSettings schema id.
        key: Key in the schema.
        value: Expected value as gsettings prints it, without the quotes of strings.
    """
    result = env.session.run(["gsettings", "get", schema_id, key], timeout=5)
    if result.returncode != 0:
        return EvalResult(success=False, message=f"gsettings: {result.stderr.strip()[:200]}")
    current = result.stdout.strip().strip("'")
    return EvalResult(success=current == value, message=f"{schema_id} {key} is {current!r}")


@evaluator(governs=_command_keys)
def command_output(
    command: list[str], contains: str = "", pattern: str = "", returncode: int | None = 0,
    *,
    env: DesktopDevice,
) -> EvalResult:  # fmt: skip
    """A command run inside the desktop's sandbox prints the expected output.

    Args:
        command: Program and arguments (no shell), e.g. ["ls", "/home/user/Desktop"].
        contains: Text the output must contain (empty: not checked).
        pattern: Regular expression the output must match (empty: not checked).
        returncode: Expected exit status (None: not checked).
    """
    result = env.session.run(list(command), timeout=10)
    out = result.stdout
    if returncode is not None and result.returncode != returncode:
        return EvalResult(success=False, message=f"exit status {result.returncode}")
    if contains and contains not in out:
        return EvalResult(success=False, message=f"output lacks {contains!r}")
    if pattern and not re.search(pattern, out, re.MULTILINE):
        return EvalResult(success=False, message=f"output does not match /{pattern}/")
    return EvalResult(success=True, message="output as expected")


# ---------------------------------------------------------------- trajectory
@evaluator(moment=True)
def clicked_element(name: str, role: str = "", *, env: DesktopDevice) -> EvalResult:
    """The agent clicked an element with this accessible name (and role, if given).

    Args:
        name: Accessible name, compared case-insensitively.
        role: Role such as "push button" (empty: any).
    """
    for item in env.interactions:
        if item["action"] not in ("clicked", "double-clicked", "right-clicked"):
            continue
        if item["name"].casefold() == name.casefold() and (not role or item["role"] == role):
            return EvalResult(success=True, message=f"clicked {name!r}")
    return EvalResult(success=False, message=f"{name!r} was not clicked")


@evaluator(moment=True)
def typed_text(text: str, env: DesktopDevice) -> EvalResult:
    """The agent typed this text (within one write_text call or across consecutive ones).

    Args:
        text: Text that must have been typed.
    """
    typed = "".join(i["text"] for i in env.interactions if i["action"] == "typed")
    ok = text in typed
    return EvalResult(success=ok, message=f"{text!r} {'was' if ok else 'was not'} typed")


@evaluator(moment=True)
def app_opened(app: str, env: DesktopDevice) -> EvalResult:
    """The agent opened this app with search_app (e.g. "terminal", "editor", "browser").

    Args:
        app: App name from the desktop's app list.
    """
    opened = [i["app"] for i in env.interactions if i["action"] == "opened_app"]
    ok = app in opened
    return EvalResult(success=ok, message=f"opened: {', '.join(opened) or 'nothing'}")


DESKTOP_EVALUATORS = [
    file_exists,
    file_content_equals,
    file_contains,
    file_matches,
    saved_with,
    directory_exists,
    files_copied,
    process_running,
    process_closed,
    focused_window,
    text_on_screen,
    image_on_screen,
    images_similar,
    clipboard_contains,
    gsetting_equals,
    command_output,
    clicked_element,
    typed_text,
    app_opened,
]
