"""Actions and checkpoints reef-v0 adds to the environments' own.

* **Name-addressed actions** (``click_on`` on the desktop and the browser, ``tap_on`` on the
  phone). Reference solutions must act through the real action space, but mark ids change
  with every observation, so a stored solution cannot name one. These actions take the
  element's accessible name (or resource id) instead, find it in a fresh observation and
  run the real ``click``/``tap`` on its mark: the same input events, resolved at play time.
  Tasks list them in ``extra_actions``.
* **Setup actions** the environments lack: start a named background program, draw a
  picture, sign a browser out of the account.
* **Checkpoints** the environments lack: a file is gone, a text is shown in some desktop
  window (read from the accessibility tree, not OCR, so it costs milliseconds), the
  browser is signed in.
"""

from __future__ import annotations

import shutil
import tarfile
from collections.abc import Callable
from typing import Any

from reefbench.actions import action
from reefbench.envs.browser.device import BrowserDevice
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import file_key
from reefbench.envs.ui.device import TouchEnvironment
from reefbench.errors import ActionFailed, InvalidAction
from reefbench.evaluators import EvalResult, evaluator
from reefbench.waiting import wait_until


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _pick(candidates: list[tuple[int, str, str, str]], name: str, role: str) -> int:
    """The id of the first candidate (id, name, role, resource id) matching name and role."""
    wanted = _norm(name)
    for exact in (True, False):
        for mark_id, mark_name, mark_role, resource in candidates:
            if role and mark_role != role:
                continue
            label = _norm(mark_name)
            if (label == wanted or resource == name) if exact else wanted in label:
                return mark_id
    shown = "; ".join(f"{r} {n!r}" for _, n, r, _ in candidates[:40])
    raise InvalidAction(f"no element named {name!r}{f' ({role})' if role else ''}: {shown}")


def _find(
    observe: Callable[[], list[tuple[int, str, str, str]]],
    name: str,
    role: str,
    within: float = 3.0,
) -> int:
    """Observe until an element with this name shows up (a menu still opening, a page
    still loading), up to ``within`` seconds; then say what is there instead."""

    def found() -> tuple[int] | None:  # a tuple, so that an id of 0 still counts as found
        try:
            return (_pick(observe(), name, role),)
        except InvalidAction:
            return None

    hit = wait_until(found, within, interval=0.1)
    return hit[0] if hit else _pick(observe(), name, role)  # raises: says what is there


# ----------------------------------------------------------------- desktop
@action(name="click_on")
def desktop_click_on(name: str, env: DesktopDevice, role: str = "") -> str:
    """Click the element with this accessible name (and role, if given) in the current screen.

    Args:
        name: The element's name as listed, e.g. "View" or "Line Numbers".
        role: Its role, e.g. "menu" or "menu item" (empty: any).
    """
    from reefbench.envs.desktop.actions import click

    elem = _find(
        lambda: [(m.id, m.name, m.role, "") for m in env.observe_now().marks.marks], name, role
    )
    result: str = click.run(env, elem=elem)
    return result


@action
def start_program(name: str, env: DesktopDevice) -> str:
    """Start a long-running background program called ``name`` inside the desktop.

    It is a copy of ``sleep`` under that name, so process checks see exactly that name.

    Args:
        name: Program name (letters, digits, '-'; at most 15 characters).
    """
    if not name.replace("-", "").isalnum() or len(name) > 15:
        raise ActionFailed(f"program name {name!r}: use letters, digits and '-', <= 15 chars")
    target = env.session.host_path(f"~/.local/bin/{name}")
    target.parent.mkdir(parents=True, exist_ok=True)
    sleep = shutil.which("sleep") or "/bin/sleep"
    shutil.copyfile(sleep, target)
    target.chmod(0o755)
    env.session.spawn([f"/home/user/.local/bin/{name}", "3600"], name=name)
    return f"started {name}"


@action
def draw_picture(path: str, width: int, height: int, color: str, env: DesktopDevice) -> str:
    """Create a PNG picture of one colour with a white square in the middle.

    Args:
        path: Where, as the agent sees it (e.g. "~/Pictures/logo.png").
        width: Width in pixels.
        height: Height in pixels.
        color: Fill colour name, e.g. "teal".
    """
    from PIL import Image, ImageDraw

    target = env.session.host_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (width, height), color)
    side = min(width, height) // 3
    x0, y0 = (width - side) // 2, (height - side) // 2
    ImageDraw.Draw(image).rectangle((x0, y0, x0 + side, y0 + side), fill="white")
    image.save(target, format="PNG")
    return f"drew {path}"


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _archive_keys(archive: str, folder: str, **_: Any) -> list[str]:
    return [file_key(archive), file_key(folder)]


def _session_keys(**_: Any) -> list[str]:
    return ["session:"]


@evaluator(governs=_path_keys)
def file_absent(path: str, env: DesktopDevice) -> EvalResult:
    """No file exists at this path any more (it was moved, renamed or deleted).

    Args:
        path: Path as the agent sees it.
    """
    try:
        target = env.session.host_path(path)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    gone = not target.exists()
    return EvalResult(success=gone, message=f"{path} {'is gone' if gone else 'still exists'}")


@evaluator(governs=_archive_keys)
def archive_holds_folder(archive: str, folder: str, env: DesktopDevice) -> EvalResult:
    """The tar archive holds the folder (by its own name) with exactly its files, each with
    the same content: an archive of the folder without its files, or of another folder of
    the same name, does not count.

    Args:
        archive: Path of the archive as the agent sees it (gzip or not).
        folder: Path of the folder as the agent sees it.
    """
    try:
        archive_path = env.session.host_path(archive)
        folder_path = env.session.host_path(folder)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    if not folder_path.is_dir():
        return EvalResult(success=False, message=f"{folder} is not a folder")
    try:
        with tarfile.open(archive_path) as tar:
            members = {m.name.rstrip("/"): m for m in tar.getmembers()}
            name = folder_path.name
            if name not in members or not members[name].isdir():
                return EvalResult(success=False, message=f"{archive} has no folder {name}/")
            packed = {
                n: tar.extractfile(m).read()  # type: ignore[union-attr]
                for n, m in members.items()
                if m.isfile() and n.startswith(name + "/")
            }
    except (OSError, tarfile.TarError) as exc:
        return EvalResult(success=False, message=f"{archive} is not a readable tar archive: {exc}")
    present = {
        f"{name}/{p.relative_to(folder_path).as_posix()}": p.read_bytes()
        for p in folder_path.rglob("*")
        if p.is_file()
    }
    missing = sorted(set(present) - set(packed))
    differ = sorted(n for n in set(present) & set(packed) if present[n] != packed[n])
    extra = sorted(set(packed) - set(present))
    if missing or differ or extra:
        problems = [
            f"{label}: {', '.join(names)}"
            for label, names in (
                ("missing", missing),
                ("different", differ),
                ("not in the folder", extra),
            )
            if names
        ]
        return EvalResult(success=False, message=f"{archive}: " + "; ".join(problems))
    return EvalResult(success=True, message=f"{archive} holds {folder} ({len(packed)} files)")


@evaluator(governs=_path_keys)
def file_holds(path: str, content: str, env: DesktopDevice) -> EvalResult:
    """The file's content equals the text (surrounding whitespace ignored).

    Like every file checkpoint it is re-checked at the end unless a later subtask that
    governs the same file (an append, a move, a rename) supersedes it.

    Args:
        path: Path as the agent sees it.
        content: Expected content.
    """
    from reefbench.envs.desktop.evaluators import file_content_equals

    result: EvalResult = file_content_equals.func(path=path, content=content, env=env)
    return result


@evaluator(governs=_path_keys)
def file_lacks(path: str, text: str, env: DesktopDevice) -> EvalResult:
    """The file exists and no longer contains the text.

    Args:
        path: Path as the agent sees it.
        text: Text that must not occur.
    """
    try:
        target = env.session.host_path(path)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    if not target.is_file():
        return EvalResult(success=False, message=f"{path} does not exist")
    present = text in target.read_text(encoding="utf-8", errors="replace")
    return EvalResult(
        success=not present,
        message=f"{path} {'still ' if present else 'no longer '}contains {text!r}",
    )


@evaluator(moment=True)
def window_shows(text: str, env: DesktopDevice) -> EvalResult:
    """Some desktop window shows the text (read from the accessibility tree: terminal
    output, editor contents, labels).

    Args:
        text: Text that must be visible, compared ignoring case and spacing.
    """
    wanted = _norm(text)
    for window in env.windows():
        if wanted in _norm(window.text()):
            return EvalResult(success=True, message=f"{window.title!r} shows {text!r}")
    return EvalResult(success=False, message=f"no window shows {text!r}")


# ------------------------------------------------------------------- phone
@action(name="tap_on")
def phone_tap_on(name: str, env: TouchEnvironment, role: str = "") -> str:
    """Tap the element with this label or resource id on the current phone screen.

    Args:
        name: The label as listed (e.g. "Compose") or the resource id (e.g. "subject").
        role: Its class as listed, e.g. "Button" (empty: any).
    """
    from reefbench.envs.ui.actions import tap

    def marks() -> list[tuple[int, str, str, str]]:
        snapshot = env.observe_now()
        pairs = zip(snapshot.marks.marks.marks, snapshot.marks.nodes, strict=True)
        return [(m.id, m.name, m.role, node.id_name) for m, node in pairs]

    elem = _find(marks, name, role)
    result: str = tap.run(env, elem=elem)
    return result


# ----------------------------------------------------------------- browser
@action(name="click_on")
def browser_click_on(name: str, env: BrowserDevice, role: str = "") -> str:
    """Click the element with this accessible name (and role, if given) on the current page.

    Args:
        name: The element's name as listed, e.g. "Compose" or "Save".
        role: Its role, e.g. "link", "button" or "textbox" (empty: any).
    """
    from reefbench.envs.browser.actions import click

    elem = _find(
        lambda: [(m.id, m.name, m.role, "") for m in env.observe_now().marks.marks], name, role
    )
    result: str = click.run(env, elem=elem)
    return result


@action
def sign_out_browser(env: BrowserDevice) -> str:
    """Sign the browser out of the account and show the sign-in page."""
    if env.context is None or env.services is None:
        raise ActionFailed("the browser is not started with an account")
    env.context.clear_cookies()
    env.goto(env.services.url + "/")
    return "signed out"


@evaluator(governs=_session_keys)
def browser_signed_in(env: BrowserDevice) -> EvalResult:
    """The browser holds a signed-in session of the account (not on the sign-in page)."""
    cookies = env.context.cookies() if env.context is not None else []
    on_login = "/login" in env.page.url
    ok = bool(cookies) and not on_login
    return EvalResult(success=ok, message="signed in" if ok else "not signed in")


DESKTOP_EXTRA = [desktop_click_on]
PHONE_EXTRA = [phone_tap_on]
BROWSER_EXTRA = [browser_click_on]
