"""The account's side effects: rows added, changed or removed since setup, per table.

Rows are named by the same state keys the account checkpoints govern
(:mod:`reefbench.envs.services.evaluators`: ``account|contacts:ada lovelace``,
``account|mail:sent/ben@example.com/budget draft``), so a task's allowances match the rows
its checkpoints are about and nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from email.utils import parseaddr
from typing import Any

from reefbench.actions.evaluators import keys_overlap
from reefbench.envs.services.store import TABLES
from reefbench.tasks.sideeffects import Change

Row = dict[str, Any]
Tables = dict[str, dict[Any, Row]]  # table -> row id (a setting's key) -> row

# Tables and columns every session changes whatever the agent does, with the reason.
NOISE_TABLES: dict[str, str] = {
    "map_history": "the maps app's history of searches: looking something up changes nothing",
}
NOISE_COLUMNS: dict[str, str] = {
    "mail.read": "opening a mail marks it read",
    "messages.read": "opening a conversation marks it read",
    "notes.updated": "a timestamp; an edit shows in the note's own columns",
    "files.modified": "a timestamp; an edit shows in the file's own columns",
    "settings.now": "the account's clock",
}


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split()).casefold()


def _key(table: str, *parts: Any) -> str:
    return f"account|{table}:" + "/".join(_norm(p) for p in parts)


def snapshot(rows: Callable[[str], list[Row]]) -> Tables:
    """Every row of every table by id (blobs replaced by their hash, noise left out)."""
    tables: Tables = {}
    for table in TABLES:
        if table in NOISE_TABLES:
            continue
        tables[table] = {}
        for row in rows(table):
            if table == "settings" and f"settings.{row['key']}" in NOISE_COLUMNS:
                continue
            tables[table][row.get("id", row.get("key"))] = {
                k: hashlib.sha256(v).hexdigest() if isinstance(v, bytes) else v
                for k, v in row.items()
                if f"{table}.{k}" not in NOISE_COLUMNS
            }
    return tables


def changes(before: Tables, now: Tables) -> list[Change]:
    """Rows added, removed or changed, each named by its state key."""
    found: list[Change] = []
    for table, rows in now.items():
        old = before.get(table, {})
        for ident in sorted(old.keys() - rows.keys()):
            row = old[ident]
            found.append(Change(_row_key(table, row, before), f"removed {_what(table, row)}"))
        for ident in sorted(rows.keys() - old.keys()):
            row = rows[ident]
            found.append(Change(_row_key(table, row, now), f"added {_what(table, row)}"))
        for ident in sorted(rows.keys() & old.keys()):
            if rows[ident] != old[ident]:
                row = rows[ident]
                fields = sorted(k for k in row if row.get(k) != old[ident].get(k))
                found.append(
                    Change(
                        _row_key(table, row, now),
                        f"changed {', '.join(fields)} of {_what(table, old[ident])}",
                    )
                )
    return found


# The tables a row's key is made from besides its own (a file's folders, an attachment's
# mail, a checklist item's note), so a key's rows can be read without the whole account.
_NAMED_FROM: dict[str, tuple[str, ...]] = {
    "mail": ("mail", "attachments"),
    "notes": ("notes", "note_items"),
}


def fingerprint(rows: Callable[[str], list[Row]], key: str) -> str:
    """The rows a state key names (``account|contacts:ada``: that contact's row; a folder
    of files: every file under it), as a hash equal between two reads exactly when they
    are the same (noise columns left out, as in :func:`snapshot`)."""
    table = key.partition("|")[2].partition(":")[0]
    if table not in TABLES or table in NOISE_TABLES:
        return "unknown"
    names = _NAMED_FROM.get(table, (table,))
    tables = snapshot(lambda t: rows(t) if t in names else [])
    named = sorted(
        (t, repr(sorted(row.items())))
        for t in names
        for row in tables.get(t, {}).values()
        if keys_overlap(_row_key(t, row, tables), key)
    )
    if not named:
        return "absent"
    return hashlib.sha256(repr(named).encode()).hexdigest()


def _first_address(addresses: Any) -> str:
    return parseaddr(str(addresses or "").replace(";", ",").split(",")[0])[1]


def _file_path(row: Row, tables: Mapping[str, Mapping[Any, Row]]) -> list[str]:
    files = tables.get("files", {})
    parts = [row["name"]]
    parent = row.get("parent_id")
    while parent is not None and parent in files:
        parts.append(files[parent]["name"])
        parent = files[parent].get("parent_id")
    return parts[::-1]


def _row_key(table: str, row: Row, tables: Mapping[str, Mapping[Any, Row]]) -> str:
    """The state key a row is governed by (as the account checkpoints name it)."""
    if table == "mail":
        if row["folder"] == "sent":
            return _key("mail", "sent", _first_address(row["recipients"]), row["subject"])
        return _key("mail", row["folder"], row["subject"])
    if table == "attachments":
        mail = tables.get("mail", {}).get(row["mail_id"])
        if mail is None:
            return _key("mail", "attachments", row["name"])
        return _row_key("mail", mail, tables) + "/" + _norm(row["name"])
    if table == "notes":
        return _key("notes", row["title"] or row["body"])
    if table == "note_items":
        note = tables.get("notes", {}).get(row["note_id"])
        title = (note["title"] or note["body"]) if note else ""
        return _key("notes", title, row["text"])
    if table == "tasks":
        return _key("tasks", row["title"])
    if table == "world_clocks":  # "Lima, Peru" is the clock of "Lima"
        return _key("world_clocks", row["city"].split(",")[0])
    if table == "files":
        return _key("files", *_file_path(row, tables))
    named_by = {
        "contacts": "name",
        "events": "title",
        "task_lists": "name",
        "messages": "peer",
        "places": "name",
        "alarms": "time",
        "settings": "key",
    }
    column = named_by.get(table)
    return _key(table, row[column]) if column else _key(table)


def _what(table: str, row: Row) -> str:
    """A row in words: ``contact 'Ada Lovelace'``, ``sent mail 'Budget' to ben@x``."""
    if table == "mail":
        return f"{row['folder']} mail {row['subject']!r} to {row['recipients']}"
    label = next(
        (
            row[c]
            for c in ("name", "title", "peer", "city", "time", "key", "text", "label")
            if row.get(c)
        ),
        row.get("id"),
    )
    singular = table[:-1] if table.endswith("s") else table
    return f"{singular.replace('_', ' ')} {label!r}"
