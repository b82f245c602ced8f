"""Gallery: the phone's camera roll, albums and a small photo editor, kept in Files.

Photos are files under the drive's ``Photos`` folder (one subfolder per album, the camera
writes to ``Photos/Camera``), as a phone's camera roll is the DCIM folder its cloud backs
up: a photo saved to another folder is a plain file the desktop can download, and a file
uploaded into an album shows up in the gallery. Every change goes through
:mod:`reefbench.envs.services.files`, so the account attributes it to the client that made it.

The camera does not see the world: it draws the account's ``camera_scene`` setting
(:mod:`reefbench.envs.services.photos`), which a task sets up, so "take a photo" adds a known image.
"""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services import photos
from reefbench.envs.services.files import child, folder_id, get_item, path_of, store_file
from reefbench.envs.services.mail import send_mail
from reefbench.envs.services.store import StoreError, get_setting, now_text, set_setting
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text

ROOT = "Photos"
CAMERA = "Camera"
SCENE_SETTING = "camera_scene"
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")


def _scene_of(value: dict[str, Any]) -> photos.Scene:
    try:
        return photos.Scene(
            caption=str(value["caption"]),
            colour=str(value.get("colour", "blue")),
            shape=str(value.get("shape", "circle")),
        )
    except (KeyError, ValueError) as exc:
        raise StoreError(f"not a camera scene: {exc}") from None


def add_photo(
    db: sqlite3.Connection,
    album: str,
    name: str,
    caption: str,
    colour: str = "blue",
    shape: str = "circle",
    edits: list[str] | None = None,
) -> int:
    """Put the photo of a scene into an album (created if missing) as ``name`` (a .png),
    after ``edits`` (a photo taken sideways is stored turned)."""
    if not name.lower().endswith(".png"):
        raise StoreError(f"photo names end in .png, not {name!r}")
    scene = _scene_of({"caption": caption, "colour": colour, "shape": shape})
    try:
        content = photos.png(photos.photo_after(scene, edits or []))
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    parent = folder_id(db, f"{ROOT}/{album.strip('/')}", create=True)
    return store_file(db, parent, name, content, "image/png", replace=True)


def set_camera_scene(
    db: sqlite3.Connection, caption: str, colour: str = "blue", shape: str = "circle"
) -> None:
    """What the next photo taken with the camera shows."""
    scene = _scene_of({"caption": caption, "colour": colour, "shape": shape})
    set_setting(
        db,
        SCENE_SETTING,
        json.dumps({"caption": scene.caption, "colour": scene.colour, "shape": scene.shape}),
    )


def _albums(db: sqlite3.Connection) -> list[sqlite3.Row]:
    root = child(db, None, ROOT)
    if root is None:
        return []
    return list(
        db.execute(
            "SELECT f.id, f.name, (SELECT count(*) FROM files p WHERE p.parent_id = f.id "
            "AND p.is_folder = 0) AS size FROM files f WHERE f.parent_id = ? AND f.is_folder = 1 "
            "ORDER BY f.name COLLATE NOCASE",
            (root["id"],),
        )
    )


def _photos_in(db: sqlite3.Connection, album_id: int) -> list[sqlite3.Row]:
    marks = ", ".join("?" for _ in IMAGE_TYPES)
    return list(
        db.execute(
            f"SELECT id, name, modified FROM files WHERE parent_id = ? AND is_folder = 0 "
            f"AND mime IN ({marks}) ORDER BY name COLLATE NOCASE",
            (album_id, *IMAGE_TYPES),
        )
    )


def _photo(db: sqlite3.Connection, photo_id: int) -> sqlite3.Row:
    row = get_item(db, photo_id)
    if row["is_folder"] or row["mime"] not in IMAGE_TYPES:
        raise StoreError(f"{row['name']} is not a photo")
    return row


def take_photo(db: sqlite3.Connection) -> int:
    """The camera: the current scene saved as the next IMG_NNNN.png in Photos/Camera."""
    stored = get_setting(db, SCENE_SETTING)
    if not stored:
        raise StoreError("the camera shows nothing to take a photo of")
    scene = _scene_of(json.loads(stored))
    camera = folder_id(db, f"{ROOT}/{CAMERA}", create=True)
    number = 1
    while child(db, camera, f"IMG_{number:04d}.png") is not None:
        number += 1
    return store_file(db, camera, f"IMG_{number:04d}.png", photos.photo_bytes(scene), "image/png")


def edit_photo(db: sqlite3.Connection, photo_id: int, edit: str) -> None:
    """Turn or mirror a photo in place (saved as PNG, as the phone's editor saves)."""
    from PIL import Image, UnidentifiedImageError

    row = _photo(db, photo_id)
    try:
        with Image.open(io.BytesIO(row["content"])) as opened:
            image = opened.convert("RGB")
    except (UnidentifiedImageError, OSError):
        raise StoreError(f"{row['name']} cannot be opened as an image") from None
    try:
        content = photos.png(photos.edited(image, [edit]))
    except ValueError as exc:
        raise StoreError(str(exc)) from None
    db.execute(
        "UPDATE files SET content = ?, mime = 'image/png', modified = ? WHERE id = ?",
        (content, now_text(db), photo_id),
    )


router = APIRouter(prefix="/gallery", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def albums(request: Request) -> Response:
    with store(request).read() as db:
        found = _albums(db)
    return render(request, "gallery/albums.html", "gallery", "Albums", albums=found)


@router.post("/camera")
async def camera(request: Request) -> Response:
    with store(request).write(client_of(request)) as db:
        photo = take_photo(db)
    return see_other(f"/gallery/photo/{photo}", notice="Photo taken")


@router.get("/album/{album_id}", response_class=HTMLResponse)
async def album(request: Request, album_id: int) -> Response:
    with store(request).read() as db:
        row = get_item(db, album_id)
        if not row["is_folder"] or path_of(db, row["parent_id"]) != ROOT:
            raise StoreError(f"{row['name']} is not an album")
        shown = _photos_in(db, album_id)
    return render(request, "gallery/album.html", "gallery", row["name"], album=row, photos=shown)


@router.get("/photo/{photo_id}", response_class=HTMLResponse)
async def photo(request: Request, photo_id: int) -> Response:
    with store(request).read() as db:
        row = _photo(db, photo_id)
        where = path_of(db, row["parent_id"])
    return render(
        request,
        "gallery/photo.html",
        "gallery",
        row["name"],
        photo=row,
        where=where,
    )


@router.get("/photo/{photo_id}/image")
async def image(request: Request, photo_id: int) -> Response:
    with store(request).read() as db:
        row = _photo(db, photo_id)
    return Response(row["content"], media_type=row["mime"])


@router.post("/photo/{photo_id}/edit")
async def edit(request: Request, photo_id: int) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        edit_photo(db, photo_id, text(form, "edit"))
    return see_other(f"/gallery/photo/{photo_id}", notice="Photo saved")


@router.post("/photo/{photo_id}/save")
async def save_copy(request: Request, photo_id: int) -> Response:
    """Save a copy of the photo into a folder of Files, under a name of the user's."""
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        row = _photo(db, photo_id)
        where = text(form, "folder").strip().strip("/")
        if where.casefold().startswith("my drive"):
            where = where[len("my drive") :].strip("/")
        parent = folder_id(db, where) if where else row["parent_id"]
        copy = store_file(
            db, parent, text(form, "name") or row["name"], row["content"], row["mime"]
        )
    return see_other(f"/files/{copy}", notice="Copy saved to Files")


@router.get("/photo/{photo_id}/share", response_class=HTMLResponse)
async def share_form(request: Request, photo_id: int) -> Response:
    with store(request).read() as db:
        row = _photo(db, photo_id)
    return render(request, "gallery/share.html", "gallery", f"Share {row['name']}", photo=row)


@router.post("/photo/{photo_id}/share")
async def share(request: Request, photo_id: int) -> Response:
    """Share by mail: the phone's share sheet, a mail with the photo attached as it is now."""
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        _photo(db, photo_id)
        send_mail(
            db,
            to=text(form, "to"),
            subject=text(form, "subject"),
            body=text(form, "body"),
            file_ids=[photo_id],
        )
    return see_other(f"/gallery/photo/{photo_id}", notice="Mail sent")


OPERATIONS: dict[str, Callable[..., Any]] = {
    "add_photo": add_photo,
    "set_camera_scene": set_camera_scene,
}
