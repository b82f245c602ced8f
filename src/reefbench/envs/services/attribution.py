"""Which client changed the account: a change log written by SQLite triggers.

"Do it from the phone" means nothing if a checkpoint only reads the shared database: the
desktop browser (or ``curl`` from the desktop's terminal) makes the same rows. So every
write records the client that made it, decided on the server side:

* the internal API (setup actions, seeding) writes as ``setup``;
* a UI request writes as the client its session was issued to. The harness issues a
  device's session (``/internal/session`` with ``client``), and a device that signs in
  through the login form is recognised by a per-client secret header its browser context
  sends (:data:`CLIENT_KEY_HEADER`, also issued by the token-protected internal API). A
  login without a valid key is the ``desktop`` (the agent's terminal or any other program
  on the computer): a header naming a client, or a made-up key, changes nothing.

The log is filled by triggers generated from the schema (one per table and operation), so
no route can forget to record a change and no app module needs to know about it. An
update that changes no column is not logged: re-saving a form unchanged is not a change.
Rows are logged as JSON of their non-blob columns, enough to tie a change to the row (and
a checklist item to its note) without copying file contents.
"""

from __future__ import annotations

import sqlite3

SETUP = "setup"
PHONE = "phone"
BROWSER = "browser"
DESKTOP = "desktop"
CLIENTS: tuple[str, ...] = (SETUP, PHONE, BROWSER, DESKTOP)
# Clients a checkpoint may require (``by=``); setup is the task's own seeding.
DEVICE_CLIENTS: tuple[str, ...] = (PHONE, BROWSER, DESKTOP)
CLIENT_KEY_HEADER = "x-reef-client-key"
CHANGES_TABLE = "changes"

CHANGES_SCHEMA = f"""
CREATE TABLE {CHANGES_TABLE} (
    id INTEGER PRIMARY KEY, client TEXT NOT NULL, tbl TEXT NOT NULL, row_id INTEGER NOT NULL,
    op TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{{}}');
"""


def check_client(client: str) -> str:
    """``client`` if it is one of :data:`CLIENTS`; a ValueError naming them otherwise."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    return client


def install_change_log(db: sqlite3.Connection, tables: tuple[str, ...]) -> None:
    """Create the change log and the triggers that fill it for every table in ``tables``.

    The triggers call ``reef_client()``, a function the store registers on its connection
    (:class:`~reefbench.envs.services.store.Store`), so the client is whatever the current write
    transaction was opened for.
    """
    db.executescript(CHANGES_SCHEMA)
    for table in tables:
        columns = db.execute(f"PRAGMA table_info({table})").fetchall()
        names = [str(c[1]) for c in columns]
        plain = [str(c[1]) for c in columns if str(c[2]).upper() != "BLOB"]
        changed = " OR ".join(f"OLD.{n} IS NOT NEW.{n}" for n in names)
        log = (
            f"INSERT INTO {CHANGES_TABLE}(client, tbl, row_id, op, data) "
            f"VALUES (reef_client(), '{table}'"
        )
        db.executescript(
            f"""
            CREATE TRIGGER log_{table}_insert AFTER INSERT ON {table} BEGIN
                {log}, NEW.rowid, 'insert', {_as_json("NEW", plain)}); END;
            CREATE TRIGGER log_{table}_update AFTER UPDATE ON {table} WHEN {changed} BEGIN
                {log}, NEW.rowid, 'update', {_as_json("NEW", plain)}); END;
            CREATE TRIGGER log_{table}_delete AFTER DELETE ON {table} BEGIN
                {log}, OLD.rowid, 'delete', {_as_json("OLD", plain)}); END;
            """
        )


def _as_json(row: str, columns: list[str]) -> str:
    """SQL for one row version (``NEW``/``OLD``) as a JSON object of ``columns``."""
    return "json_object(" + ", ".join(f"'{c}', {row}.{c}" for c in columns) + ")"
