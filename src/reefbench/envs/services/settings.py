"""Settings: the account's name, signature, time format, week start, theme, and its clock."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services.store import (
    DEFAULT_SETTINGS,
    StoreError,
    get_setting,
    parse_date,
    parse_datetime,
    set_setting,
    start_time,
)
from reefbench.envs.services.web import client_of, render, require_login, see_other, store, text

# Settings a person may change in the UI, with their allowed values (None: free text).
EDITABLE: dict[str, tuple[str, ...] | None] = {
    "account_name": None,
    "signature": None,
    "time_format": ("24h", "12h"),
    "week_start": ("monday", "sunday"),
    "theme": ("light", "dark"),
    "default_calendar_view": ("month", "week", "day"),
    "distance_unit": ("km", "mi"),
}


def set_now(db: sqlite3.Connection, now: str) -> str:
    """Fix the account's clock ('YYYY-MM-DDTHH:MM')."""
    value = parse_datetime(now)
    set_setting(db, "now", value)
    return value


def set_today(db: sqlite3.Connection, date: str) -> str:
    """Fix the account's date, keeping its time of day."""
    value = f"{parse_date(date)}T{start_time(db).strftime('%H:%M')}"
    set_setting(db, "now", value)
    return value


def change_setting(db: sqlite3.Connection, key: str, value: str) -> None:
    if key == "now":
        set_now(db, value)
        return
    if key not in DEFAULT_SETTINGS:
        raise StoreError(f"unknown setting {key!r}; known: {', '.join(DEFAULT_SETTINGS)}")
    allowed = EDITABLE.get(key)
    if allowed is not None and value not in allowed:
        raise StoreError(f"setting {key} must be one of {', '.join(allowed)}, not {value!r}")
    set_setting(db, key, value)


router = APIRouter(prefix="/settings", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def page(request: Request) -> Response:
    with store(request).read() as db:
        values = {key: get_setting(db, key) for key in DEFAULT_SETTINGS}
    return render(
        request, "settings/page.html", "settings", "Settings", values=values, choices=EDITABLE
    )


@router.post("")
async def save(request: Request) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        for key in EDITABLE:
            if key in form:
                change_setting(db, key, text(form, key))
    return see_other("/settings", notice="Settings saved")


OPERATIONS: dict[str, Callable[..., Any]] = {
    "set_now": set_now,
    "set_today": set_today,
    "set_setting": change_setting,
}
