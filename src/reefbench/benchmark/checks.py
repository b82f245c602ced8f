"""Actions and checkpoints reef-v0 adds to the environments' own.

* **Setup actions** the environments lack: start a named background program, draw a
  picture.
* **Checkpoints** the environments lack: a file is gone, a text is shown in some desktop
  window (read from the accessibility tree, not OCR, so it costs milliseconds).

The browser's session checks (signed in, signing out) are the browser's own:
:mod:`reefbench.envs.browser.evaluators` and :mod:`reefbench.envs.browser.actions`.

Reference solutions name elements with the ``a11y`` action set's ``click_on``/``tap_on``
(stored mark ids change with every observation); under the default ``marks`` set the
oracle grounds those names to mark ids itself (:mod:`reefbench.environments.grounding`). No
task adds actions to the agent's tool list: it is the same in every task.
"""

from __future__ import annotations

import hashlib
import shutil
import tarfile
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.environments.grounding import normalise
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import file_key
from reefbench.errors import ActionFailed


# ----------------------------------------------------------------- desktop
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
def same_bytes_as(path: str, source: str, env: DesktopDevice) -> EvalResult:
    """The file at ``path`` holds exactly the bytes ``source`` held before it moved away.

    A rename or move must keep the content: a new file of the right name (``touch``, an
    editor's empty buffer, another file copied there) does not count. While ``source``
    exists this checkpoint remembers its digest; once it has gone, ``path`` must match it.
    If the source was never seen (an episode started after it moved), the digest of the
    source as it stood in the episode's setup is unknown and only existence is checked.

    Args:
        path: Where the file should be now, as the agent sees it.
        source: Where it was, as the agent sees it.
    """
    try:
        target, origin = env.session.host_path(path), env.session.host_path(source)
    except ActionFailed as exc:
        return EvalResult(success=False, message=str(exc))
    if origin.is_file():
        env.seen_files[source] = _digest(origin)
    if not target.is_file():
        return EvalResult(success=False, message=f"{path} does not exist")
    expected = env.seen_files.get(source)
    if expected is None:
        return EvalResult(success=True, message=f"{path} exists (content of {source} unseen)")
    if _digest(target) != expected:
        return EvalResult(success=False, message=f"{path} does not hold the content {source} had")
    return EvalResult(success=True, message=f"{path} holds the content {source} had")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@evaluator(governs=_path_keys)
def image_like_source(
    path: str, source: str, env: DesktopDevice, width: int = 0, fmt: str = ""
) -> EvalResult:
    """The image at ``path`` is the source picture, edited as asked: its format is ``fmt``
    (if given), its width ``width`` with the source's proportions (if given), and its
    pixels match the checker's own edit of the source (mean absolute difference of at most
    8 of 255 per channel: JPEG artefacts pass, another picture of that size does not).

    Args:
        path: The edited picture, as the agent sees it.
        source: The original picture, as the agent sees it.
        width: Expected width in pixels (0: the source's size).
        fmt: Expected format as Pillow names it, e.g. "JPEG" (empty: any).
    """
    from PIL import Image, ImageChops, ImageStat, UnidentifiedImageError

    try:
        target, origin = env.session.host_path(path), env.session.host_path(source)
        with Image.open(origin) as src, Image.open(target) as img:
            if fmt and img.format != fmt:
                return EvalResult(success=False, message=f"{path} is {img.format}, not {fmt}")
            want = (width, round(src.height * width / src.width)) if width else src.size
            if abs(img.width - want[0]) > 1 or abs(img.height - want[1]) > 1:
                return EvalResult(
                    success=False,
                    message=f"{path} is {img.width}x{img.height}, not {want[0]}x{want[1]}",
                )
            expected = src.convert("RGB").resize(img.size, Image.Resampling.LANCZOS)
            diff = ImageStat.Stat(ImageChops.difference(expected, img.convert("RGB"))).mean
    except (OSError, UnidentifiedImageError, ActionFailed) as exc:
        return EvalResult(success=False, message=f"cannot compare {path} with {source}: {exc}")
    worst = max(diff)
    if worst > 8:
        return EvalResult(
            success=False, message=f"{path} does not look like {source} (difference {worst:.0f})"
        )
    return EvalResult(success=True, message=f"{path} is {source}, edited as asked")


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
    wanted = normalise(text)
    for window in env.windows():
        if wanted in normalise(window.text()):
            return EvalResult(success=True, message=f"{window.title!r} shows {text!r}")
    return EvalResult(success=False, message=f"no window shows {text!r}")
