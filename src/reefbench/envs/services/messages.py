"""Messages: SMS-like conversations with contacts (or bare phone numbers)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services import contacts
from reefbench.envs.services.store import StoreError, digits, now_text, parse_datetime
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text


def resolve_peer(db: sqlite3.Connection, who: str) -> str:
    """A contact's name becomes their phone number; anything else is used as given."""
    who = who.strip()
    if not who:
        raise StoreError("say who the message is for (a contact name or a phone number)")
    contact = contacts.find_by_name(db, who)
    if contact is not None:
        if not contact["phone"]:
            raise StoreError(f"contact {contact['name']} has no phone number")
        return str(contact["phone"])
    return who


def same_peer(a: str, b: str) -> bool:
    da, db_ = digits(a), digits(b)
    return da == db_ if da and db_ else a.strip().lower() == b.strip().lower()


def peer_name(db: sqlite3.Connection, peer: str) -> str:
    contact = contacts.find_by_phone(db, peer)
    return str(contact["name"]) if contact is not None else peer


def add_message(
    db: sqlite3.Connection,
    contact: str,
    text: str,
    direction: str = "in",
    date: str = "",
    read: bool = False,
) -> int:
    """Record a message from (``in``) or to (``out``) a contact name or phone number."""
    if direction not in ("in", "out"):
        raise StoreError(f"direction must be 'in' or 'out', not {direction!r}")
    if not text.strip():
        raise StoreError("a message needs text")
    cur = db.execute(
        "INSERT INTO messages(peer, direction, body, date, read) VALUES (?, ?, ?, ?, ?)",
        (
            resolve_peer(db, contact),
            direction,
            text,
            parse_datetime(date) if date else now_text(db),
            int(read or direction == "out"),
        ),
    )
    return int(cur.lastrowid or 0)


def conversation(db: sqlite3.Connection, peer: str) -> list[sqlite3.Row]:
    rows = db.execute("SELECT * FROM messages ORDER BY date, id").fetchall()
    return [r for r in rows if same_peer(r["peer"], peer)]


def conversations(db: sqlite3.Connection) -> list[dict[str, object]]:
    """One entry per peer, newest conversation first."""
    latest: dict[str, sqlite3.Row] = {}
    unread: dict[str, int] = {}
    for row in db.execute("SELECT * FROM messages ORDER BY date, id"):
        key = digits(row["peer"]) or row["peer"].strip().lower()
        latest[key] = row
        unread[key] = unread.get(key, 0) + (1 if not row["read"] else 0)
    ordered = sorted(latest.items(), key=lambda kv: (kv[1]["date"], kv[1]["id"]), reverse=True)
    return [
        {"peer": row["peer"], "name": peer_name(db, row["peer"]), "last": row, "unread": unread[k]}
        for k, row in ordered
    ]


router = APIRouter(prefix="/messages", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def inbox(request: Request) -> Response:
    with store(request).read() as db:
        threads = conversations(db)
    return render(request, "messages/list.html", "messages", "Messages", threads=threads)


@router.get("/new", response_class=HTMLResponse)
async def new_form(request: Request, to: str = "") -> Response:
    with store(request).read() as db:
        people = db.execute(
            "SELECT name, phone FROM contacts WHERE phone != '' ORDER BY name"
        ).fetchall()
    return render(request, "messages/new.html", "messages", "New message", to=to, people=people)


@router.get("/thread", response_class=HTMLResponse)
async def thread(request: Request) -> Response:
    peer = request.query_params.get("with", "")
    with store(request).write(client_of(request)) as db:
        peer = resolve_peer(db, peer)
        rows = conversation(db, peer)
        for row in rows:
            if not row["read"]:
                db.execute("UPDATE messages SET read = 1 WHERE id = ?", (row["id"],))
        name = peer_name(db, peer)
    return render(
        request,
        "messages/thread.html",
        "messages",
        name,
        peer=peer,
        rows=rows,
        show_number=name != peer,
    )


@router.post("/send")
async def send(request: Request) -> Response:
    form = await request.form()
    body = form.get("body")
    message = body.strip() if isinstance(body, str) else ""
    with store(request).write(client_of(request)) as db:
        peer = resolve_peer(db, text(form, "to"))
        add_message(db, peer, message, direction="out")
    return see_other("/messages/thread", notice="Message sent", **{"with": peer})


OPERATIONS: dict[str, Callable[..., Any]] = {"add_message": add_message}
