"""Notes: Keep-like notes with a title and either text or a checklist; pin and archive."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services.store import StoreError, now_text, one
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text


def add_note(
    db: sqlite3.Connection,
    title: str = "",
    body: str = "",
    items: list[str] | None = None,
    checked: list[str] | None = None,
    pinned: bool = False,
) -> int:
    """A text note, or a checklist note when ``items`` is given (``checked`` ticks some)."""
    if not (title.strip() or body.strip() or items):
        raise StoreError("an empty note is not saved: give it a title, text or items")
    kind = "checklist" if items else "text"
    cur = db.execute(
        "INSERT INTO notes(title, body, kind, pinned, updated) VALUES (?, ?, ?, ?, ?)",
        (title.strip(), body, kind, int(pinned), now_text(db)),
    )
    note_id = int(cur.lastrowid or 0)
    done = set(checked or [])
    for item in items or []:
        add_item(db, note_id, item, item in done)
    return note_id


def add_item(db: sqlite3.Connection, note_id: int, item: str, is_checked: bool = False) -> None:
    if not item.strip():
        raise StoreError("a checklist item needs text")
    position = db.execute(
        "SELECT coalesce(max(position), -1) + 1 FROM note_items WHERE note_id = ?", (note_id,)
    ).fetchone()[0]
    db.execute(
        "INSERT INTO note_items(note_id, text, checked, position) VALUES (?, ?, ?, ?)",
        (note_id, item.strip(), int(is_checked), position),
    )


def get_note(db: sqlite3.Connection, note_id: int) -> sqlite3.Row:
    return one(db, "SELECT * FROM notes WHERE id = ?", (note_id,), f"there is no note {note_id}")


def items_of(db: sqlite3.Connection, note_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT * FROM note_items WHERE note_id = ? ORDER BY position, id", (note_id,)
    ).fetchall()


def _touch(db: sqlite3.Connection, note_id: int) -> None:
    db.execute("UPDATE notes SET updated = ? WHERE id = ?", (now_text(db), note_id))


router = APIRouter(prefix="/notes", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def board(request: Request, q: str = "", archived: int = 0) -> Response:
    like = f"%{q}%"
    with store(request).read() as db:
        rows = db.execute(
            "SELECT * FROM notes WHERE archived = ? AND (title LIKE ? OR body LIKE ? OR id IN "
            "(SELECT note_id FROM note_items WHERE text LIKE ?)) "
            "ORDER BY pinned DESC, updated DESC, id DESC",
            (int(bool(archived)), like, like, like),
        ).fetchall()
        notes = [(n, items_of(db, n["id"])) for n in rows]
    return render(
        request,
        "notes/board.html",
        "notes",
        "Archive" if archived else "Notes",
        notes=notes,
        q=q,
        archived=archived,
    )


@router.get("/new", response_class=HTMLResponse)
async def new_form(request: Request, kind: str = "text") -> Response:
    kind = "checklist" if kind == "checklist" else "text"
    title = "New list" if kind == "checklist" else "New note"
    return render(request, "notes/new.html", "notes", title, kind=kind)


@router.post("/new")
async def create(request: Request) -> Response:
    form = await request.form()
    raw = form.get("items")
    items = [line for line in (raw if isinstance(raw, str) else "").splitlines() if line.strip()]
    with store(request).write(client_of(request)) as db:
        note_id = add_note(
            db, title=text(form, "title"), body=text(form, "body"), items=items or None
        )
    return see_other(f"/notes/{note_id}", notice="Note saved")


@router.get("/{note_id}", response_class=HTMLResponse)
async def open_note(request: Request, note_id: int) -> Response:
    with store(request).read() as db:
        row = get_note(db, note_id)
        items = items_of(db, note_id)
    return render(
        request, "notes/note.html", "notes", row["title"] or "Note", note=row, items=items
    )


@router.post("/{note_id}/save")
async def save(request: Request, note_id: int) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        get_note(db, note_id)
        body = form.get("body")
        db.execute(
            "UPDATE notes SET title = ?, body = coalesce(?, body) WHERE id = ?",
            (text(form, "title"), body if isinstance(body, str) else None, note_id),
        )
        _touch(db, note_id)
    return see_other(f"/notes/{note_id}", notice="Note saved")


@router.post("/{note_id}/items/new")
async def new_item(request: Request, note_id: int) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        get_note(db, note_id)
        add_item(db, note_id, text(form, "text"))
        db.execute("UPDATE notes SET kind = 'checklist' WHERE id = ?", (note_id,))
        _touch(db, note_id)
    return see_other(f"/notes/{note_id}")


@router.post("/items/{item_id}/toggle")
async def toggle_item(request: Request, item_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = db.execute("SELECT note_id FROM note_items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no checklist item {item_id}")
        db.execute("UPDATE note_items SET checked = 1 - checked WHERE id = ?", (item_id,))
        _touch(db, row["note_id"])
    return see_other(f"/notes/{row['note_id']}")


@router.post("/items/{item_id}/delete")
async def delete_item(request: Request, item_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = db.execute("SELECT note_id FROM note_items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no checklist item {item_id}")
        db.execute("DELETE FROM note_items WHERE id = ?", (item_id,))
        _touch(db, row["note_id"])
    return see_other(f"/notes/{row['note_id']}")


@router.post("/{note_id}/pin")
async def pin(request: Request, note_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        get_note(db, note_id)
        db.execute("UPDATE notes SET pinned = 1 - pinned WHERE id = ?", (note_id,))
    return see_other(f"/notes/{note_id}")


@router.post("/{note_id}/archive")
async def archive(request: Request, note_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = get_note(db, note_id)
        db.execute("UPDATE notes SET archived = 1 - archived WHERE id = ?", (note_id,))
    return see_other("/notes", notice="Note restored" if row["archived"] else "Note archived")


@router.post("/{note_id}/delete")
async def delete(request: Request, note_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM notes WHERE id = ?", (note_id,))
    return see_other("/notes", notice="Note deleted")


OPERATIONS: dict[str, Callable[..., Any]] = {"add_note": add_note}
