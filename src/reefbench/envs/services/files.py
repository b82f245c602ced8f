"""Files: a drive with folders, uploads, downloads, renames, moves and share links.

Paths such as ``Documents/Trip/plan.txt`` name files in setup actions and evaluators; the
UI works with ids. Contents are BLOBs in the account database, so a reset restores them.
"""

from __future__ import annotations

import mimetypes
import secrets
import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile

from reefbench.envs.services.store import StoreError, now_text, one
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text


def _clean_name(name: str) -> str:
    name = name.strip()
    if not name or "/" in name or name in (".", ".."):
        raise StoreError(f"{name!r} is not a usable name (it must be non-empty, without '/')")
    return name


def guess_mime(name: str) -> str:
    return mimetypes.guess_type(name)[0] or "application/octet-stream"


def child(db: sqlite3.Connection, parent_id: int | None, name: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM files WHERE coalesce(parent_id, 0) = ? AND name = ?",
        (parent_id or 0, name),
    ).fetchone()
    return row


def get_item(db: sqlite3.Connection, item_id: int) -> sqlite3.Row:
    return one(
        db, "SELECT * FROM files WHERE id = ?", (item_id,), f"there is no file or folder {item_id}"
    )


def path_of(db: sqlite3.Connection, item_id: int | None) -> str:
    """'Documents/Trip/plan.txt' for an item; '' for the root."""
    parts: list[str] = []
    while item_id is not None:
        row = get_item(db, item_id)
        parts.append(row["name"])
        item_id = row["parent_id"]
    return "/".join(reversed(parts))


def folder_id(db: sqlite3.Connection, path: str, create: bool = False) -> int | None:
    """The folder at ``path`` (None for the root), optionally creating missing folders."""
    parent: int | None = None
    for part in [p for p in path.strip("/").split("/") if p]:
        row = child(db, parent, part)
        if row is None:
            if not create:
                raise StoreError(f"there is no folder {path!r}")
            parent = _insert(db, parent, part, True, "inode/directory", None)
        elif not row["is_folder"]:
            raise StoreError(f"{part!r} in {path!r} is a file, not a folder")
        else:
            parent = int(row["id"])
    return parent


def _insert(
    db: sqlite3.Connection,
    parent: int | None,
    name: str,
    is_folder: bool,
    mime: str,
    content: bytes | None,
) -> int:
    cur = db.execute(
        "INSERT INTO files(parent_id, name, is_folder, mime, content, modified) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (parent, _clean_name(name), int(is_folder), mime, content, now_text(db)),
    )
    return int(cur.lastrowid or 0)


def store_file(
    db: sqlite3.Connection,
    parent: int | None,
    name: str,
    content: bytes,
    mime: str = "",
    replace: bool = False,
) -> int:
    """Put a file into a folder; an existing file of that name is replaced only if asked."""
    name = _clean_name(name)
    existing = child(db, parent, name)
    if existing is not None:
        if not replace or existing["is_folder"]:
            raise StoreError(f"there is already an item called {name!r} in this folder")
        db.execute(
            "UPDATE files SET content = ?, mime = ?, modified = ? WHERE id = ?",
            (content, mime or guess_mime(name), now_text(db), existing["id"]),
        )
        return int(existing["id"])
    return _insert(db, parent, name, False, mime or guess_mime(name), content)


def add_folder(db: sqlite3.Connection, path: str) -> int:
    found = folder_id(db, path, create=True)
    if found is None:
        raise StoreError("the root folder always exists; give a folder path like 'Documents'")
    return found


def add_file(db: sqlite3.Connection, path: str, content: str = "", mime: str = "") -> int:
    """Create (or replace) a text file at a path like 'Documents/plan.txt'."""
    folder, _, name = path.strip("/").rpartition("/")
    parent = folder_id(db, folder, create=True)
    return store_file(db, parent, name, content.encode("utf-8"), mime, replace=True)


def all_files(db: sqlite3.Connection) -> list[tuple[int, str]]:
    """(id, path) of every file (not folder), sorted by path: the attachment picker."""
    rows = db.execute("SELECT id FROM files WHERE is_folder = 0").fetchall()
    return sorted(((int(r["id"]), path_of(db, r["id"])) for r in rows), key=lambda x: x[1])


def folders(db: sqlite3.Connection) -> list[tuple[int | None, str]]:
    rows = db.execute("SELECT id FROM files WHERE is_folder = 1").fetchall()
    found = sorted(((int(r["id"]), path_of(db, r["id"])) for r in rows), key=lambda x: x[1])
    return [(None, "My Drive"), *found]


def move(db: sqlite3.Connection, item_id: int, name: str, parent: int | None) -> None:
    name = _clean_name(name)
    ancestor = parent
    while ancestor is not None:  # a folder cannot move into itself
        if ancestor == item_id:
            raise StoreError("a folder cannot be moved into itself")
        ancestor = get_item(db, ancestor)["parent_id"]
    clash = child(db, parent, name)
    if clash is not None and clash["id"] != item_id:
        raise StoreError(f"there is already an item called {name!r} in that folder")
    db.execute(
        "UPDATE files SET name = ?, parent_id = ?, modified = ? WHERE id = ?",
        (name, parent, now_text(db), item_id),
    )


def as_text(content: bytes | None) -> str | None:
    """The content as text if it is UTF-8 (for previews and evaluators), else None."""
    if content is None:
        return None
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return None


router = APIRouter(prefix="/files", dependencies=[Depends(require_login)])
share_router = APIRouter(prefix="/share")


def _parent(value: str) -> int | None:
    return int(value) if value.isdigit() else None


@router.get("", response_class=HTMLResponse)
async def browse(request: Request, folder: str = "") -> Response:
    parent = _parent(folder)
    with store(request).read() as db:
        crumbs: list[tuple[int, str]] = []
        current = parent
        while current is not None:
            row = get_item(db, current)
            if not row["is_folder"]:
                raise StoreError(f"{row['name']} is a file, not a folder")
            crumbs.insert(0, (current, row["name"]))
            current = row["parent_id"]
        items = db.execute(
            "SELECT id, name, is_folder, mime, length(content) AS size, modified, share_token "
            "FROM files WHERE coalesce(parent_id, 0) = ? "
            "ORDER BY is_folder DESC, name COLLATE NOCASE",
            (parent or 0,),
        ).fetchall()
    title = crumbs[-1][1] if crumbs else "My Drive"
    return render(
        request,
        "files/browse.html",
        "files",
        title,
        items=items,
        crumbs=crumbs,
        folder=parent or "",
    )


@router.post("/folder")
async def new_folder(request: Request) -> Response:
    form = await request.form()
    parent = _parent(text(form, "parent"))
    with store(request).write(client_of(request)) as db:
        _insert(db, parent, text(form, "name"), True, "inode/directory", None)
    return see_other("/files", notice="Folder created", folder=parent)


@router.post("/upload")
async def upload(request: Request) -> Response:
    form = await request.form()
    parent = _parent(text(form, "parent"))
    uploads = [u for u in form.getlist("file") if isinstance(u, UploadFile) and u.filename]
    if not uploads:
        raise StoreError("choose a file to upload first")
    contents = [(u.filename or "upload", await u.read(), u.content_type or "") for u in uploads]
    with store(request).write(client_of(request)) as db:
        for name, content, mime in contents:
            store_file(
                db, parent, name, content, mime if mime != "application/octet-stream" else ""
            )
    return see_other("/files", notice=f"Uploaded {len(contents)} file(s)", folder=parent)


@router.get("/new", response_class=HTMLResponse)
async def new_text_form(request: Request, folder: str = "") -> Response:
    return render(request, "files/new.html", "files", "New text file", folder=folder)


@router.post("/new")
async def new_text(request: Request) -> Response:
    form = await request.form()
    parent = _parent(text(form, "parent"))
    content = form.get("content")
    body = content if isinstance(content, str) else ""
    with store(request).write(client_of(request)) as db:
        item = store_file(db, parent, text(form, "name"), body.encode("utf-8"))
    return see_other(f"/files/{item}", notice="File created")


@router.get("/{item_id}", response_class=HTMLResponse)
async def detail(request: Request, item_id: int) -> Response:
    with store(request).read() as db:
        row = get_item(db, item_id)
        if row["is_folder"]:
            return see_other("/files", folder=item_id)
        path = path_of(db, item_id)
        choices = folders(db)
    return render(
        request,
        "files/detail.html",
        "files",
        row["name"],
        item=row,
        path=path,
        preview=as_text(row["content"]),
        folders=choices,
        share_url=f"{request.base_url}share/{row['share_token']}" if row["share_token"] else "",
    )


@router.get("/{item_id}/download")
async def download(request: Request, item_id: int) -> Response:
    with store(request).read() as db:
        row = get_item(db, item_id)
    if row["is_folder"]:
        raise StoreError("folders cannot be downloaded")
    return _attachment(row["name"], row["mime"], row["content"])


def _attachment(name: str, mime: str, content: bytes) -> Response:
    quoted = name.replace('"', "")
    return Response(
        content,
        media_type=mime,
        headers={"Content-Disposition": f'attachment; filename="{quoted}"'},
    )


@router.post("/{item_id}/content")
async def save_content(request: Request, item_id: int) -> Response:
    form = await request.form()
    content = form.get("content")
    body = (content if isinstance(content, str) else "").encode("utf-8")
    with store(request).write(client_of(request)) as db:
        get_item(db, item_id)
        db.execute(
            "UPDATE files SET content = ?, modified = ? WHERE id = ? AND is_folder = 0",
            (body, now_text(db), item_id),
        )
    return see_other(f"/files/{item_id}", notice="File saved")


@router.get("/{item_id}/rename", response_class=HTMLResponse)
async def rename_form(request: Request, item_id: int) -> Response:
    with store(request).read() as db:
        row = get_item(db, item_id)
        choices = [f for f in folders(db) if f[0] != item_id]
    return render(
        request, "files/rename.html", "files", f"Rename {row['name']}", item=row, folders=choices
    )


@router.post("/{item_id}/rename")
async def rename(request: Request, item_id: int) -> Response:
    form = await request.form()
    parent = _parent(text(form, "parent"))
    with store(request).write(client_of(request)) as db:
        get_item(db, item_id)
        move(db, item_id, text(form, "name"), parent)
    return see_other("/files", notice="Renamed", folder=parent)


@router.post("/{item_id}/delete")
async def delete(request: Request, item_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        parent = get_item(db, item_id)["parent_id"]
        db.execute("DELETE FROM files WHERE id = ?", (item_id,))
    return see_other("/files", notice="Deleted", folder=parent)


@router.post("/{item_id}/share")
async def share(request: Request, item_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        if get_item(db, item_id)["share_token"] is None:
            db.execute(
                "UPDATE files SET share_token = ? WHERE id = ?",
                (secrets.token_urlsafe(9), item_id),
            )
    return see_other(f"/files/{item_id}", notice="Share link created")


@router.post("/{item_id}/unshare")
async def unshare(request: Request, item_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("UPDATE files SET share_token = NULL WHERE id = ?", (item_id,))
    return see_other(f"/files/{item_id}", notice="Sharing stopped")


@share_router.get("/{token}")
async def shared(request: Request, token: str) -> Response:
    """Anyone with a share link downloads the file, signed in or not."""
    with store(request).read() as db:
        row = db.execute(
            "SELECT * FROM files WHERE share_token = ? AND is_folder = 0", (token,)
        ).fetchone()
    if row is None:
        return Response("This share link does not exist.", status_code=404)
    return _attachment(row["name"], row["mime"], row["content"])


OPERATIONS: dict[str, Callable[..., Any]] = {"add_file": add_file, "add_folder": add_folder}
