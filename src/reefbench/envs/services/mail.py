"""Mail: folders, threads, compose, reply, forward, search, and attachments from Files."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services import files
from reefbench.envs.services.store import StoreError, get_setting, now_text, one, parse_datetime
from reefbench.envs.services.web import (
    client_of,
    ints,
    render,
    require_login,
    see_other,
    store,
    text,
)

FOLDERS = (("inbox", "Inbox"), ("starred", "Starred"), ("sent", "Sent"), ("trash", "Trash"))
# Folders a message can be stored in; any other name is a folder of the user's own
# ("Receipts"), which the mailbox lists once it holds mail, as "Archive" is.
STORED = ("inbox", "sent", "archive", "trash")
_VIEWS = ("starred", "all")
_FOLDER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9 _&-]{0,39}")


def check_folder(folder: str) -> str:
    """A folder a message may be stored in: a built-in one, or a plain name of one's own."""
    if folder in STORED:
        return folder
    if folder.lower() in STORED + _VIEWS or not _FOLDER_NAME.fullmatch(folder):
        raise StoreError(
            f"mail folder must be inbox, sent, archive, trash or a name of letters and "
            f"digits (e.g. Receipts), not {folder!r}"
        )
    return folder


def folder_tabs(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """The mailbox's folder tabs: the built-in views, then every other folder holding mail
    (Archive first, then the user's own folders by name)."""
    others = [
        str(row[0])
        for row in db.execute(
            "SELECT DISTINCT folder FROM mail WHERE folder NOT IN ('inbox', 'sent', 'trash') "
            "ORDER BY folder != 'archive', folder COLLATE NOCASE"
        )
    ]
    extra = [(name, "Archive" if name == "archive" else name) for name in others]
    return [*FOLDERS[:3], *extra, FOLDERS[3]]


def _next_thread(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT coalesce(max(thread_id), 0) + 1 FROM mail").fetchone()[0])


def _addresses(value: str | list[str]) -> str:
    items = value if isinstance(value, list) else value.replace(";", ",").split(",")
    return ", ".join(a.strip() for a in items if a.strip())


def add_mail(
    db: sqlite3.Connection,
    sender: str,
    subject: str,
    body: str = "",
    to: str | list[str] = "",
    cc: str | list[str] = "",
    date: str = "",
    folder: str = "inbox",
    read: bool = False,
    starred: bool = False,
    attachments: dict[str, str] | None = None,
    thread_id: int | None = None,
) -> int:
    """Insert one message (received mail by default); attachments map file name -> text."""
    folder = check_folder(folder)
    recipients = _addresses(to) or get_setting(db, "account_email")
    cur = db.execute(
        "INSERT INTO mail(thread_id, folder, sender, recipients, cc, subject, body, date, read, "
        "starred) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            thread_id or _next_thread(db),
            folder,
            sender,
            recipients,
            _addresses(cc),
            subject,
            body,
            parse_datetime(date) if date else now_text(db),
            int(read),
            int(starred),
        ),
    )
    mail_id = int(cur.lastrowid or 0)
    for name, content in (attachments or {}).items():
        _attach(db, mail_id, name, files.guess_mime(name), content.encode("utf-8"))
    return mail_id


def _attach(db: sqlite3.Connection, mail_id: int, name: str, mime: str, content: bytes) -> None:
    db.execute(
        "INSERT INTO attachments(mail_id, name, mime, content) VALUES (?, ?, ?, ?)",
        (mail_id, name, mime, content),
    )


def send_mail(
    db: sqlite3.Connection,
    to: str,
    subject: str,
    body: str,
    cc: str = "",
    file_ids: list[int] | None = None,
    reply_to: int | None = None,
    forward_of: int | None = None,
) -> int:
    """Send as the account: the message lands in Sent with its attachments."""
    if not _addresses(to):
        raise StoreError("add at least one recipient in To")
    thread = None
    if reply_to is not None:
        thread = int(get_mail(db, reply_to)["thread_id"])
    mail_id = add_mail(
        db,
        sender=get_setting(db, "account_email"),
        subject=subject,
        body=body,
        to=to,
        cc=cc,
        folder="sent",
        read=True,
        thread_id=thread,
    )
    for file_id in file_ids or []:
        item = files.get_item(db, file_id)
        if item["is_folder"]:
            raise StoreError(f"{item['name']} is a folder; attach files only")
        _attach(db, mail_id, item["name"], item["mime"], item["content"] or b"")
    if forward_of is not None:
        for att in attachments_of(db, forward_of):
            _attach(db, mail_id, att["name"], att["mime"], att["content"])
    return mail_id


def get_mail(db: sqlite3.Connection, mail_id: int) -> sqlite3.Row:
    return one(db, "SELECT * FROM mail WHERE id = ?", (mail_id,), f"there is no message {mail_id}")


def attachments_of(db: sqlite3.Connection, mail_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT id, mail_id, name, mime, content, length(content) AS size FROM attachments "
        "WHERE mail_id = ? ORDER BY id",
        (mail_id,),
    ).fetchall()


def list_mail(db: sqlite3.Connection, folder: str, query: str = "") -> list[sqlite3.Row]:
    where, args = {
        "inbox": ("folder = 'inbox'", ()),
        "sent": ("folder = 'sent'", ()),
        "trash": ("folder = 'trash'", ()),
        "starred": ("starred = 1 AND folder != 'trash'", ()),
        "all": ("folder != 'trash'", ()),
    }.get(folder, ("folder = ?", (folder,)))
    sql = f"SELECT * FROM mail WHERE {where}"
    params: list[Any] = list(args)
    for word in query.split():
        sql += " AND (subject LIKE ? OR body LIKE ? OR sender LIKE ? OR recipients LIKE ?)"
        params += [f"%{word}%"] * 4
    return db.execute(sql + " ORDER BY date DESC, id DESC", params).fetchall()


router = APIRouter(prefix="/mail", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def mailbox(request: Request, folder: str = "inbox", q: str = "") -> Response:
    if q and folder == "inbox":
        folder = "all"  # searching looks through all mail, as webmail does
    with store(request).read() as db:
        rows = list_mail(db, folder, q)
        unread = db.execute(
            "SELECT count(*) FROM mail WHERE folder = 'inbox' AND read = 0"
        ).fetchone()[0]
        tabs = folder_tabs(db)
    name = dict(tabs).get(folder, "Search results" if q else "All mail")
    return render(
        request,
        "mail/list.html",
        "mail",
        name,
        messages=rows,
        folder=folder,
        folders=tabs,
        q=q,
        unread=unread,
    )


@router.get("/compose", response_class=HTMLResponse)
async def compose(
    request: Request,
    to: str = "",
    subject: str = "",
    body: str = "",
    reply: int | None = None,
    forward: int | None = None,
) -> Response:
    cc = ""
    forwarded: list[sqlite3.Row] = []
    with store(request).read() as db:
        me = get_setting(db, "account_email")
        signature = get_setting(db, "signature")
        if reply is not None or forward is not None:
            original = get_mail(db, reply if reply is not None else forward or 0)
            stamp = original["date"].replace("T", " ")
            quoted = "\n".join("> " + line for line in original["body"].splitlines())
            if reply is not None:
                to = original["recipients"] if original["sender"] == me else original["sender"]
                subject = _prefixed("Re: ", original["subject"])
                body = f"\n\nOn {stamp}, {original['sender']} wrote:\n{quoted}"
            else:
                subject = _prefixed("Fwd: ", original["subject"])
                body = (
                    f"\n\n---------- Forwarded message ----------\nFrom: {original['sender']}\n"
                    f"Date: {stamp}\nSubject: {original['subject']}\nTo: "
                    f"{original['recipients']}\n\n{original['body']}"
                )
                forwarded = attachments_of(db, original["id"])
        if signature and not body:
            body = f"\n\n-- \n{signature}"
        attachable = files.all_files(db)
    return render(
        request,
        "mail/compose.html",
        "mail",
        "Compose",
        to=to,
        cc=cc,
        subject=subject,
        body=body,
        reply=reply,
        forward=forward,
        forwarded=forwarded,
        attachable=attachable,
    )


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else prefix + subject


@router.post("/send")
async def send(request: Request) -> Response:
    form = await request.form()
    reply, forward = text(form, "reply"), text(form, "forward")
    with store(request).write(client_of(request)) as db:
        send_mail(
            db,
            to=text(form, "to"),
            subject=text(form, "subject"),
            body=text(form, "body"),
            cc=text(form, "cc"),
            file_ids=ints(form, "attach"),
            reply_to=int(reply) if reply.isdigit() else None,
            forward_of=int(forward) if forward.isdigit() else None,
        )
    return see_other("/mail", notice="Message sent", folder="sent")


@router.get("/attachment/{attachment_id}")
async def attachment(request: Request, attachment_id: int) -> Response:
    with store(request).read() as db:
        row = db.execute("SELECT * FROM attachments WHERE id = ?", (attachment_id,)).fetchone()
    if row is None:
        raise StoreError(f"there is no attachment {attachment_id}")
    return Response(
        row["content"],
        media_type=row["mime"],
        headers={"Content-Disposition": f'attachment; filename="{row["name"]}"'},
    )


@router.post("/attachment/{attachment_id}/save")
async def save_attachment(request: Request, attachment_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = db.execute("SELECT * FROM attachments WHERE id = ?", (attachment_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no attachment {attachment_id}")
        item = files.store_file(db, None, row["name"], row["content"], row["mime"], replace=True)
    return see_other(f"/files/{item}", notice="Saved to Files")


@router.get("/{mail_id}", response_class=HTMLResponse)
async def read_thread(request: Request, mail_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        head = get_mail(db, mail_id)
        thread = db.execute(
            "SELECT * FROM mail WHERE thread_id = ? ORDER BY date, id", (head["thread_id"],)
        ).fetchall()
        db.execute("UPDATE mail SET read = 1 WHERE thread_id = ?", (head["thread_id"],))
        items = [(m, attachments_of(db, m["id"])) for m in thread]
    return render(
        request, "mail/thread.html", "mail", head["subject"] or "(no subject)", thread=items
    )


@router.post("/{mail_id}/star")
async def star(request: Request, mail_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute(
            "UPDATE mail SET starred = 1 - starred WHERE id = ?", (get_mail(db, mail_id)[0],)
        )
    return see_other(f"/mail/{mail_id}")


@router.post("/{mail_id}/unread")
async def mark_unread(request: Request, mail_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("UPDATE mail SET read = 0 WHERE id = ?", (get_mail(db, mail_id)[0],))
    return see_other("/mail", notice="Marked as unread")


@router.post("/{mail_id}/delete")
async def delete(request: Request, mail_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = get_mail(db, mail_id)
        if row["folder"] == "trash":
            db.execute("DELETE FROM mail WHERE id = ?", (mail_id,))
            notice = "Message deleted forever"
        else:
            db.execute("UPDATE mail SET folder = 'trash' WHERE id = ?", (mail_id,))
            notice = "Message moved to Trash"
    return see_other("/mail", notice=notice, folder=row["folder"])


@router.post("/{mail_id}/restore")
async def restore(request: Request, mail_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = get_mail(db, mail_id)
        me = get_setting(db, "account_email")
        folder = "sent" if row["sender"] == me else "inbox"
        db.execute("UPDATE mail SET folder = ? WHERE id = ?", (folder, mail_id))
    return see_other("/mail", notice="Message restored", folder=folder)


OPERATIONS: dict[str, Callable[..., Any]] = {"add_mail": add_mail}
