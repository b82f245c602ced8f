"""The shared account state of the local cloud services: one SQLite database.

Every app (mail, calendar, contacts, ...) keeps its rows here, so the phone and the desktop
see the same account and evaluators read the same truth the UIs show. The live database
lives in memory; :meth:`Store.snapshot` copies it into a second in-memory database (the
pristine image) and :meth:`Store.reset` copies it back with SQLite's backup API, which
takes a few milliseconds however many rows a task seeded.

Time is part of the state: the ``now`` setting is the task's start time, and the account's
clock ticks on from it by the seconds elapsed since the last reset (the store's
:class:`~reefbench.tasks.worldtime.WorldClock`), as the desktop's does; "today" is the start
time's day, so a task that fixes it sees the same calendar on every run, and a record
made during the episode (a sent mail) carries the time every device shows.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from reefbench.envs.services.attribution import (
    CHANGES_TABLE,
    SETUP,
    check_client,
    install_change_log,
)
from reefbench.tasks.worldtime import (
    DEFAULT_NOW as DEFAULT_NOW,  # the account's clock after a reset
)
from reefbench.tasks.worldtime import WORLD_TIMEZONE, WorldClock

DEFAULT_SETTINGS: dict[str, str] = {
    "now": DEFAULT_NOW,
    "timezone": WORLD_TIMEZONE,
    "account_name": "Alex Morgan",
    "account_email": "alex.morgan@reef.test",
    "account_phone": "+44 20 7946 0000",
    "signature": "",
    "time_format": "24h",
    "week_start": "monday",
    "theme": "light",
    "default_calendar_view": "month",
    "distance_unit": "km",
}

SCHEMA = """
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE contacts (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '', address TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '', birthday TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '', starred INTEGER NOT NULL DEFAULT 0,
    work_phone TEXT NOT NULL DEFAULT '', work_email TEXT NOT NULL DEFAULT '',
    work_address TEXT NOT NULL DEFAULT '');
CREATE TABLE mail (
    id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL, folder TEXT NOT NULL,
    sender TEXT NOT NULL, recipients TEXT NOT NULL DEFAULT '', cc TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '', date TEXT NOT NULL,
    read INTEGER NOT NULL DEFAULT 0, starred INTEGER NOT NULL DEFAULT 0);
CREATE TABLE attachments (
    id INTEGER PRIMARY KEY, mail_id INTEGER NOT NULL REFERENCES mail(id) ON DELETE CASCADE,
    name TEXT NOT NULL, mime TEXT NOT NULL DEFAULT 'application/octet-stream',
    content BLOB NOT NULL);
CREATE TABLE events (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL, date TEXT NOT NULL,
    start_time TEXT NOT NULL DEFAULT '', end_time TEXT NOT NULL DEFAULT '',
    all_day INTEGER NOT NULL DEFAULT 0, place TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '');
CREATE TABLE task_lists (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL DEFAULT 0);
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY, list_id INTEGER NOT NULL REFERENCES task_lists(id) ON DELETE CASCADE,
    title TEXT NOT NULL, notes TEXT NOT NULL DEFAULT '', due TEXT NOT NULL DEFAULT '',
    completed INTEGER NOT NULL DEFAULT 0, position INTEGER NOT NULL DEFAULT 0);
CREATE TABLE notes (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', body TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT 'text', pinned INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL);
CREATE TABLE note_items (
    id INTEGER PRIMARY KEY, note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    text TEXT NOT NULL, checked INTEGER NOT NULL DEFAULT 0, position INTEGER NOT NULL DEFAULT 0);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL, is_folder INTEGER NOT NULL DEFAULT 0,
    mime TEXT NOT NULL DEFAULT 'application/octet-stream', content BLOB,
    modified TEXT NOT NULL, share_token TEXT UNIQUE);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY, peer TEXT NOT NULL, direction TEXT NOT NULL,
    body TEXT NOT NULL, date TEXT NOT NULL, read INTEGER NOT NULL DEFAULT 0);
CREATE TABLE places (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'place',
    address TEXT NOT NULL DEFAULT '', latitude REAL NOT NULL, longitude REAL NOT NULL,
    description TEXT NOT NULL DEFAULT '');
CREATE TABLE map_history (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, query TEXT NOT NULL DEFAULT '',
    origin TEXT NOT NULL DEFAULT '', destination TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL DEFAULT '', distance_km REAL, minutes REAL, date TEXT NOT NULL);
CREATE TABLE alarms (
    id INTEGER PRIMARY KEY, time TEXT NOT NULL, label TEXT NOT NULL DEFAULT '',
    days TEXT NOT NULL DEFAULT '', enabled INTEGER NOT NULL DEFAULT 1);
CREATE TABLE timers (
    id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '', seconds INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'running', created TEXT NOT NULL);
CREATE TABLE world_clocks (
    id INTEGER PRIMARY KEY, city TEXT NOT NULL, timezone TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX files_unique_name ON files(coalesce(parent_id, 0), name);
"""

# Tables the internal API may dump, with their columns (the schema is the allow-list).
TABLES: tuple[str, ...] = (
    "settings",
    "contacts",
    "mail",
    "attachments",
    "events",
    "task_lists",
    "tasks",
    "notes",
    "note_items",
    "files",
    "messages",
    "places",
    "map_history",
    "alarms",
    "timers",
    "world_clocks",
)
# What the internal API may dump: the state, plus the change log (who changed what).
DUMPABLE: tuple[str, ...] = (*TABLES, CHANGES_TABLE)


class StoreError(ValueError):
    """A write the state does not allow (unknown list, name taken, bad date); shown to users."""


class Store:
    """The account database plus its pristine image.

    All access goes through :meth:`read` / :meth:`write`, which hold one lock, so the
    server thread and a caller in another thread never interleave inside a transaction.
    Every write names the client it is made for; the change log
    (:mod:`~reefbench.envs.services.attribution`) records it with each changed row.

    Args:
        clock: What makes the account's clock tick (the services server's runs on
            :func:`time.monotonic`); ``None``: it stands at the ``now`` setting.
    """

    def __init__(self, clock: WorldClock | None = None) -> None:
        self.lock = threading.RLock()
        self.client = SETUP
        # The account's clock ticks from the ``now`` setting by the time since reset();
        # without one it stands (a world being built must come out the same every time).
        self.clock = clock or WorldClock(source=_standing)
        self.db = _connect()
        self.db.create_function("reef_client", 0, self._current_client)
        self.db.create_function(_ELAPSED_FUNCTION, 0, self.clock.elapsed)
        self.db.executescript(SCHEMA)
        self.db.executemany(
            "INSERT INTO settings(key, value) VALUES (?, ?)", DEFAULT_SETTINGS.items()
        )
        self.db.execute("INSERT INTO task_lists(name, position) VALUES ('My Tasks', 0)")
        # After the defaults: the log starts empty, and records every change from here on.
        install_change_log(self.db, TABLES)
        self._pristine = _connect()
        self._pristine_changes = 0
        self.snapshot()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            yield self.db

    @contextmanager
    def write(self, client: str = SETUP) -> Iterator[sqlite3.Connection]:
        """A transaction made for ``client``: committed when the block ends, rolled back if
        it raises. Every row it changes is logged as changed by ``client``."""
        check_client(client)
        with self.lock:
            self.client = client
            self.db.execute("BEGIN")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            finally:
                self.client = SETUP
            self.db.execute("COMMIT")

    def _current_client(self) -> str:
        # Called by the change-log triggers, inside a write that holds the lock.
        return self.client

    def snapshot(self) -> None:
        """Make the current state the one :meth:`reset` returns to."""
        with self.lock:
            self.db.backup(self._pristine)
            self._pristine_changes = self._change_count()

    def load(self, path: Path) -> None:
        """Replace the whole account with a prepared database file (a seeded world).

        A copy with SQLite's backup API: milliseconds for thousands of rows, which is what
        keeps a lived-in world's reset fast. It replaces everything, so it must come before
        any other write since the last reset (a task's setup loads its world first);
        otherwise the rows written before would vanish without a word.
        """
        with self.lock:
            if self._change_count() != self._pristine_changes:
                raise StoreError(
                    "load the world first in a task's setup: it replaces the whole account, "
                    "and this account was already changed since its reset"
                )
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                source.backup(self.db)
            finally:
                source.close()
            self._pristine_changes = self._change_count()

    def _change_count(self) -> int:
        return int(self.db.execute(f"SELECT count(*) FROM {CHANGES_TABLE}").fetchone()[0])

    def reset(self) -> None:
        """Return to the last snapshot (the task's seed)."""
        with self.lock:
            self._pristine.backup(self.db)
            self._pristine_changes = self._change_count()  # a world loaded since is gone
            self.clock.reset()

    def close(self) -> None:
        with self.lock:
            self.db.close()
            self._pristine.close()

    def dump(self, table: str) -> list[dict[str, Any]]:
        """Every row of one table as plain dicts (the internal API's view of the state)."""
        if table not in DUMPABLE:
            raise StoreError(f"unknown table {table!r}; known: {', '.join(DUMPABLE)}")
        with self.read() as db:
            return [dict(row) for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid")]


def _standing() -> float:
    return 0.0


def _connect() -> sqlite3.Connection:
    # Autocommit mode: transactions are explicit (Store.write), so a backup never finds one
    # left open by the sqlite3 module's implicit BEGIN.
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    return db


# ------------------------------------------------------------------ settings and clock
def get_setting(db: sqlite3.Connection, key: str) -> str:
    row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return str(row[0]) if row else DEFAULT_SETTINGS.get(key, "")


def set_setting(db: sqlite3.Connection, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO settings(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


# Name of the SQL function a store's connection answers with its clock's elapsed seconds:
# the module's functions get only a connection, and the connection carries its clock.
_ELAPSED_FUNCTION = "reef_elapsed"


def start_time(db: sqlite3.Connection) -> datetime:
    """The task's start time on the account's clock (the ``now`` setting, as set)."""
    return datetime.fromisoformat(get_setting(db, "now"))


def now(db: sqlite3.Connection) -> datetime:
    """The account's current date and time: the task's start time plus the seconds since
    the store's reset, to the second (a connection without a clock: the start time)."""
    try:
        elapsed = float(db.execute(f"SELECT {_ELAPSED_FUNCTION}()").fetchone()[0])
    except sqlite3.OperationalError:  # a world being built, a copy: no clock runs there
        elapsed = 0.0
    return start_time(db) + timedelta(seconds=int(elapsed))


def now_text(db: sqlite3.Connection) -> str:
    return now(db).strftime("%Y-%m-%dT%H:%M")


def today(db: sqlite3.Connection) -> date:
    """The task's day: every "today" in an instruction or a checkpoint means it, however
    long the episode runs."""
    return start_time(db).date()


def parse_date(text: str, what: str = "date") -> str:
    """Validate a YYYY-MM-DD date; returns it normalised."""
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise StoreError(f"{what} {text!r} is not a date in the form YYYY-MM-DD") from None


def parse_time(text: str, what: str = "time") -> str:
    """Validate a 24-hour HH:MM time; returns it zero-padded."""
    try:
        hours, minutes = text.strip().split(":")[:2]
        h, m = int(hours), int(minutes)
    except ValueError:
        raise StoreError(f"{what} {text!r} is not a time in the form HH:MM") from None
    if not (0 <= h < 24 and 0 <= m < 60):
        raise StoreError(f"{what} {text!r} is not a time of day (00:00 to 23:59)")
    return f"{h:02d}:{m:02d}"


def parse_datetime(text: str) -> str:
    """Validate 'YYYY-MM-DDTHH:MM' (or with a space); returns the T form."""
    try:
        return datetime.fromisoformat(text.strip().replace(" ", "T")).strftime("%Y-%m-%dT%H:%M")
    except ValueError:
        raise StoreError(f"{text!r} is not a date and time like 2024-06-03T09:00") from None


def one(db: sqlite3.Connection, sql: str, args: tuple[Any, ...], missing: str) -> sqlite3.Row:
    """The single row a query finds, or a StoreError saying ``missing``."""
    row: sqlite3.Row | None = db.execute(sql, args).fetchone()
    if row is None:
        raise StoreError(missing)
    return row


def digits(phone: str) -> str:
    """Phone numbers compare by their digits: '+44 20 7946-0001' == '4420794600 01'."""
    return "".join(ch for ch in phone if ch.isdigit())
