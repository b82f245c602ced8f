"""Tasks: to-do lists with due dates, completion and a manual order."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services.store import StoreError, one, parse_date
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text

DEFAULT_LIST = "My Tasks"


def add_task_list(db: sqlite3.Connection, name: str) -> int:
    name = name.strip()
    if not name:
        raise StoreError("a task list needs a name")
    if db.execute("SELECT 1 FROM task_lists WHERE name = ?", (name,)).fetchone():
        raise StoreError(f"there is already a list called {name!r}")
    position = db.execute("SELECT coalesce(max(position), -1) + 1 FROM task_lists").fetchone()[0]
    cur = db.execute("INSERT INTO task_lists(name, position) VALUES (?, ?)", (name, position))
    return int(cur.lastrowid or 0)


def list_id(db: sqlite3.Connection, name: str, create: bool = False) -> int:
    row = db.execute("SELECT id FROM task_lists WHERE name = ?", (name.strip(),)).fetchone()
    if row is not None:
        return int(row[0])
    if not create:
        raise StoreError(f"there is no task list called {name!r}")
    return add_task_list(db, name)


def _insert_task(
    db: sqlite3.Connection, list_key: int, title: str, due: str, notes: str, completed: bool
) -> int:
    if not title.strip():
        raise StoreError("a task needs a title")
    position = db.execute(
        "SELECT coalesce(max(position), -1) + 1 FROM tasks WHERE list_id = ?", (list_key,)
    ).fetchone()[0]
    cur = db.execute(
        "INSERT INTO tasks(list_id, title, notes, due, completed, position) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            list_key,
            title.strip(),
            notes,
            parse_date(due, "due date") if due else "",
            int(completed),
            position,
        ),
    )
    return int(cur.lastrowid or 0)


def add_task(
    db: sqlite3.Connection,
    title: str,
    list_name: str = DEFAULT_LIST,
    due: str = "",
    notes: str = "",
    completed: bool = False,
) -> int:
    """Add a task at the end of a list (the list is created if it does not exist)."""
    return _insert_task(db, list_id(db, list_name, create=True), title, due, notes, completed)


def get_task(db: sqlite3.Connection, task_id: int) -> sqlite3.Row:
    return one(db, "SELECT * FROM tasks WHERE id = ?", (task_id,), f"there is no task {task_id}")


def shift(db: sqlite3.Connection, task_id: int, delta: int) -> None:
    """Swap a task with its neighbour above (-1) or below (+1) among open tasks."""
    row = get_task(db, task_id)
    order = "DESC" if delta < 0 else "ASC"
    op = "<" if delta < 0 else ">"
    other = db.execute(
        f"SELECT id, position FROM tasks WHERE list_id = ? AND completed = 0 AND position {op} ? "
        f"ORDER BY position {order} LIMIT 1",
        (row["list_id"], row["position"]),
    ).fetchone()
    if other is None:
        return
    db.execute("UPDATE tasks SET position = ? WHERE id = ?", (other["position"], task_id))
    db.execute("UPDATE tasks SET position = ? WHERE id = ?", (row["position"], other["id"]))


router = APIRouter(prefix="/tasks", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def page(request: Request, list: str = "") -> Response:
    with store(request).read() as db:
        lists = db.execute("SELECT * FROM task_lists ORDER BY position, id").fetchall()
        if not lists:
            return render(request, "tasks/page.html", "tasks", "Tasks", lists=[], current=None)
        current = next((lst for lst in lists if str(lst["id"]) == list), lists[0])
        rows = db.execute(
            "SELECT * FROM tasks WHERE list_id = ? ORDER BY completed, position, id",
            (current["id"],),
        ).fetchall()
    return render(
        request,
        "tasks/page.html",
        "tasks",
        current["name"],
        lists=lists,
        current=current,
        open_tasks=[r for r in rows if not r["completed"]],
        done_tasks=[r for r in rows if r["completed"]],
    )


@router.post("/lists/new")
async def new_list(request: Request) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        new_id = add_task_list(db, text(form, "name"))
    return see_other("/tasks", notice="List created", list=new_id)


@router.post("/lists/{list_key}/delete")
async def delete_list(request: Request, list_key: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM task_lists WHERE id = ?", (list_key,))
    return see_other("/tasks", notice="List deleted")


@router.post("/new")
async def new_task(request: Request) -> Response:
    form = await request.form()
    list_key = int(text(form, "list") or 0)
    with store(request).write(client_of(request)) as db:
        if not db.execute("SELECT 1 FROM task_lists WHERE id = ?", (list_key,)).fetchone():
            raise StoreError("choose a task list first")
        _insert_task(
            db, list_key, text(form, "title"), text(form, "due"), text(form, "notes"), False
        )
    return see_other("/tasks", notice="Task added", list=list_key)


async def _change(request: Request, task_id: int, sql: str, notice: str) -> Response:
    with store(request).write(client_of(request)) as db:
        row = get_task(db, task_id)
        db.execute(sql, (task_id,))
    return see_other("/tasks", notice=notice, list=row["list_id"])


@router.post("/{task_id}/complete")
async def complete(request: Request, task_id: int) -> Response:
    return await _change(
        request, task_id, "UPDATE tasks SET completed = 1 WHERE id = ?", "Task completed"
    )


@router.post("/{task_id}/uncomplete")
async def uncomplete(request: Request, task_id: int) -> Response:
    return await _change(
        request, task_id, "UPDATE tasks SET completed = 0 WHERE id = ?", "Task marked not done"
    )


@router.post("/{task_id}/delete")
async def delete(request: Request, task_id: int) -> Response:
    return await _change(request, task_id, "DELETE FROM tasks WHERE id = ?", "Task deleted")


@router.post("/{task_id}/up")
async def up(request: Request, task_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        shift(db, task_id, -1)
        list_key = get_task(db, task_id)["list_id"]
    return see_other("/tasks", list=list_key)


@router.post("/{task_id}/down")
async def down(request: Request, task_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        shift(db, task_id, +1)
        list_key = get_task(db, task_id)["list_id"]
    return see_other("/tasks", list=list_key)


@router.get("/{task_id}/edit", response_class=HTMLResponse)
async def edit_form(request: Request, task_id: int) -> Response:
    with store(request).read() as db:
        row = get_task(db, task_id)
        lists = db.execute("SELECT * FROM task_lists ORDER BY position, id").fetchall()
    return render(request, "tasks/edit.html", "tasks", "Edit task", task=row, lists=lists)


@router.post("/{task_id}/edit")
async def edit(request: Request, task_id: int) -> Response:
    form = await request.form()
    title, due = text(form, "title"), text(form, "due")
    if not title:
        raise StoreError("a task needs a title")
    with store(request).write(client_of(request)) as db:
        row = get_task(db, task_id)
        target = int(text(form, "list") or row["list_id"])
        if target != row["list_id"]:
            position = db.execute(
                "SELECT coalesce(max(position), -1) + 1 FROM tasks WHERE list_id = ?", (target,)
            ).fetchone()[0]
        else:
            position = row["position"]
        db.execute(
            "UPDATE tasks SET title = ?, notes = ?, due = ?, list_id = ?, position = ? "
            "WHERE id = ?",
            (
                title,
                text(form, "notes"),
                parse_date(due, "due date") if due else "",
                target,
                position,
                task_id,
            ),
        )
    return see_other("/tasks", notice="Task saved", list=target)


OPERATIONS: dict[str, Callable[..., Any]] = {"add_task": add_task, "add_task_list": add_task_list}
