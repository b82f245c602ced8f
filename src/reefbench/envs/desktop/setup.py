"""Task setup actions: prepare files, apps, settings and windows before the agent starts.

They run through ``Environment.execute`` (not the agent's action space) after reset, and
change real state the same way a user would end up with it: files are written into the
sandbox's home, apps start inside the sandbox, settings go through ``gsettings`` there.
"""

from __future__ import annotations

import subprocess

from reefbench.actions.spec import action
from reefbench.environments.worlds import WORLD_NOW, WorldSeed
from reefbench.envs.desktop.apps import app as app_spec
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.errors import ActionFailed


@action
def create_file(path: str, content: str = "", *, env: DesktopDevice) -> str:
    """Create (or overwrite) a text file, with its parent folders.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/todo.txt".
        content: The file's content.
    """
    target = env.session.host_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    env.stamp_world_time(target)
    return f"created {path}"


@action
def load_world(seed: WorldSeed, env: DesktopDevice) -> str:
    """Fill the home folder with a lived-in world built from a seed: about 210 documents,
    spreadsheets, images and PDFs in nested folders, with look-alike names. Copied from a
    prepared tree (built once per seed), so it costs a copy, not a generation. A desktop
    that follows no account moves to the world's clock (2026-03-16 09:00); one that
    follows an account keeps the account's (load the account's world too).

    Args:
        seed: Which world (the same seed always gives the same files).
    """
    from reefbench.envs.desktop.world import copy_world_into

    copy_world_into(env.session.home, seed)
    if env.services is None:
        env.set_world_time(WORLD_NOW)
    return f"loaded world {seed} into the home folder"


@action
def create_spreadsheet(path: str, rows: list[list[str]], env: DesktopDevice) -> str:
    """Create (or overwrite) a one-sheet OpenDocument spreadsheet (.ods) with these rows;
    cells that read as numbers are stored as numbers.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/expenses.ods".
        rows: The rows, top first, each a list of cell texts from column A on.
    """
    from reefbench.documents.odf import write_spreadsheet

    target = env.session.host_path(path)
    write_spreadsheet(target, rows)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_text_document(
    path: str, paragraphs: list[str], title: str = "", *, env: DesktopDevice
) -> str:
    """Create (or overwrite) an OpenDocument text document (.odt): an optional title, then
    one body-text paragraph per entry.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/report.odt".
        paragraphs: The paragraphs' texts, in order.
        title: A first paragraph in the "Title" style (empty: none).
    """
    from reefbench.documents.write import write_text_document

    target = env.session.host_path(path)
    write_text_document(target, paragraphs, title)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_reviewed_document(
    path: str, paragraphs: list[str], title: str = "", *, env: DesktopDevice
) -> str:
    """Create (or overwrite) an OpenDocument text document (.odt) carrying reviewers'
    tracked changes, not yet accepted or rejected.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/contract.odt".
        paragraphs: The paragraphs' texts, in order; a change inside one is written
            "{+Author|inserted text+}" or "{-Author|deleted text-}".
        title: A first paragraph in the "Title" style (empty: none).
    """
    from reefbench.documents.write import write_reviewed_document

    target = env.session.host_path(path)
    write_reviewed_document(target, paragraphs, title)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_presentation(
    path: str, slides: list[list[str]], env: DesktopDevice, hidden: list[int] | None = None
) -> str:
    """Create (or overwrite) a PowerPoint presentation (.pptx), one "Title and Content"
    slide per entry.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/review.pptx".
        slides: Each slide as [title, bullet, bullet, ...].
        hidden: The indexes (from 0) of slides hidden from the slide show.
    """
    from reefbench.documents.write import write_presentation

    target = env.session.host_path(path)
    write_presentation(target, [(slide[0], slide[1:]) for slide in slides], hidden or ())
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_workbook(
    path: str, sheets: dict[str, list[list[str]]], env: DesktopDevice, dates: bool = False
) -> str:
    """Create (or overwrite) an OpenDocument spreadsheet (.ods) with several sheets, in
    order; cells that read as numbers are stored as numbers.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/orders.ods".
        sheets: Each sheet's name and its rows (top first, each a list of cell texts from
            column A on).
        dates: Whether cells reading as ISO dates ("2026-03-16") are stored as dates.
    """
    from reefbench.documents.odf import write_workbook

    target = env.session.host_path(path)
    write_workbook(target, sheets, dates=dates)
    env.stamp_world_time(target)
    return f"created {path}"


@action
def create_directory(path: str, env: DesktopDevice) -> str:
    """Create a folder (and its parents).

    Args:
        path: Path as the agent sees it.
    """
    env.session.host_path(path).mkdir(parents=True, exist_ok=True)
    return f"created {path}"


@action
def open_app(app: str, file: str = "", *, env: DesktopDevice) -> str:
    """Start an app (optionally on a file) and wait for its window.

    Args:
        app: App name: terminal, editor, files, vim, browser.
        file: A path or URL to open with it (empty: none).
    """
    spec = app_spec(app)
    if not spec.available():
        raise ActionFailed(f"{app} is not installed here (needs {spec.binary})")
    window = env.launch(spec, [file] if file else [])
    return f"opened {window.title}"


@action
def set_gsetting(schema_id: str, key: str, value: str, env: DesktopDevice) -> str:
    """Set a GSettings key inside the desktop (value in GVariant text form, e.g. "'dark'").

    Args:
        schema_id: Schema id, e.g. "org.gnome.desktop.interface".
        key: Key name.
        value: New value, e.g. "true" or "'prefer-dark'".
    """
    result = env.session.run(["gsettings", "set", schema_id, key, value], timeout=5)
    if result.returncode != 0:
        raise ActionFailed(f"gsettings set failed: {result.stderr.strip()[:200]}")
    return f"set {schema_id} {key}"


@action
def position_window(title: str, x: int, y: int, width: int, height: int, env: DesktopDevice) -> str:
    """Move and resize the first window whose title contains ``title``.

    Args:
        title: Text in the window's title.
        x: Left edge in screen pixels.
        y: Top edge in screen pixels.
        width: Width in pixels.
        height: Height in pixels.
    """
    window = next((w for w in env.x11.stacking() if title in w.title), None)
    if window is None:
        raise ActionFailed(f"no window title contains {title!r}")
    subprocess.run(
        ["xdotool", "windowsize", "--sync", str(window.id), str(width), str(height),
         "windowmove", "--sync", str(window.id), str(x), str(y)],
        env=env.session.host_env(), capture_output=True, timeout=10, check=False,
    )  # fmt: skip
    env.settle()
    return f"placed {window.title!r}"


SETUP_ACTIONS = [load_world, create_file, create_directory, open_app, set_gsetting, position_window]
