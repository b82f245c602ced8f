"""Contacts: people with phone, email, address; the address book Mail and Messages use."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services.store import StoreError, digits, one
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text

FIELDS = ("name", "phone", "email", "address", "company", "birthday", "notes")
# A second number, address and mailbox at work: seeded worlds give people several, and the
# edit form shows them only for a contact that has them (so the form of everyone else, and
# every task written before them, is unchanged).
WORK_FIELDS = ("work_phone", "work_email", "work_address")


def add_contact(
    db: sqlite3.Connection,
    name: str,
    phone: str = "",
    email: str = "",
    address: str = "",
    company: str = "",
    birthday: str = "",
    notes: str = "",
    work_phone: str = "",
    work_email: str = "",
    work_address: str = "",
) -> int:
    if not name.strip():
        raise StoreError("a contact needs a name")
    cur = db.execute(
        "INSERT INTO contacts(name, phone, email, address, company, birthday, notes, "
        "work_phone, work_email, work_address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            name.strip(),
            phone,
            email,
            address,
            company,
            birthday,
            notes,
            work_phone,
            work_email,
            work_address,
        ),
    )
    return int(cur.lastrowid or 0)


def update_contact(db: sqlite3.Connection, contact_id: int, **values: str) -> None:
    if not values.get("name", "x").strip():
        raise StoreError("a contact needs a name")
    for key in values:
        if key not in FIELDS + WORK_FIELDS:
            raise StoreError(f"contacts have no field {key!r}; fields: {', '.join(FIELDS)}")
    assignments = ", ".join(f"{key} = ?" for key in values)
    db.execute(f"UPDATE contacts SET {assignments} WHERE id = ?", (*values.values(), contact_id))


def get_contact(db: sqlite3.Connection, contact_id: int) -> sqlite3.Row:
    return one(
        db,
        "SELECT * FROM contacts WHERE id = ?",
        (contact_id,),
        f"there is no contact {contact_id}",
    )


def search_contacts(db: sqlite3.Connection, query: str = "") -> list[sqlite3.Row]:
    like = f"%{query.strip()}%"
    return db.execute(
        "SELECT * FROM contacts WHERE name LIKE ? OR email LIKE ? OR phone LIKE ? "
        "OR company LIKE ? OR work_email LIKE ? OR work_phone LIKE ? "
        "ORDER BY starred DESC, name COLLATE NOCASE",
        (like, like, like, like, like, like),
    ).fetchall()


def find_by_phone(db: sqlite3.Connection, phone: str) -> sqlite3.Row | None:
    wanted = digits(phone)
    if not wanted:
        return None
    rows: list[sqlite3.Row] = db.execute("SELECT * FROM contacts WHERE phone != ''").fetchall()
    return next((row for row in rows if digits(row["phone"]) == wanted), None)


def find_by_name(db: sqlite3.Connection, name: str) -> sqlite3.Row | None:
    found: sqlite3.Row | None = db.execute(
        "SELECT * FROM contacts WHERE lower(name) = lower(?) ORDER BY id", (name.strip(),)
    ).fetchone()
    return found


router = APIRouter(prefix="/contacts", dependencies=[Depends(require_login)])


def _form_values(form: Any) -> dict[str, str]:
    values = {key: text(form, key) for key in FIELDS}
    values.update({key: text(form, key) for key in WORK_FIELDS if key in form})
    return values


@router.get("", response_class=HTMLResponse)
async def contact_list(request: Request, q: str = "") -> Response:
    with store(request).read() as db:
        rows = search_contacts(db, q)
    return render(request, "contacts/list.html", "contacts", "Contacts", contacts=rows, q=q)


@router.get("/new", response_class=HTMLResponse)
async def new_form(request: Request) -> Response:
    return render(request, "contacts/form.html", "contacts", "New contact", contact=None)


@router.post("/new")
async def create(request: Request) -> Response:
    values = _form_values(await request.form())
    with store(request).write(client_of(request)) as db:
        contact_id = add_contact(db, **values)
    return see_other(f"/contacts/{contact_id}", notice="Contact saved")


@router.get("/{contact_id}", response_class=HTMLResponse)
async def detail(request: Request, contact_id: int) -> Response:
    with store(request).read() as db:
        row = get_contact(db, contact_id)
    return render(request, "contacts/detail.html", "contacts", row["name"], contact=row)


@router.get("/{contact_id}/edit", response_class=HTMLResponse)
async def edit_form(request: Request, contact_id: int) -> Response:
    with store(request).read() as db:
        row = get_contact(db, contact_id)
    return render(request, "contacts/form.html", "contacts", "Edit contact", contact=row)


@router.post("/{contact_id}/edit")
async def edit(request: Request, contact_id: int) -> Response:
    values = _form_values(await request.form())
    with store(request).write(client_of(request)) as db:
        get_contact(db, contact_id)
        update_contact(db, contact_id, **values)
    return see_other(f"/contacts/{contact_id}", notice="Contact saved")


@router.post("/{contact_id}/delete")
async def delete(request: Request, contact_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM contacts WHERE id = ?", (contact_id,))
    return see_other("/contacts", notice="Contact deleted")


OPERATIONS: dict[str, Callable[..., Any]] = {"add_contact": add_contact}
