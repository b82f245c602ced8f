"""Clock: alarms, timers and a world clock, all read off the account's fixed clock."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services import places
from reefbench.envs.services.store import StoreError, get_setting, now, now_text, parse_time
from reefbench.envs.services.web import (
    checked,
    client_of,
    render,
    require_login,
    see_other,
    store,
    text,
)

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _days(value: str | list[str]) -> str:
    items = value if isinstance(value, list) else value.replace(" ", "").split(",")
    chosen = [d.strip()[:3].capitalize() for d in items if d.strip()]
    for day in chosen:
        if day not in DAYS:
            raise StoreError(f"{day!r} is not a day; use {', '.join(DAYS)}")
    return ",".join(d for d in DAYS if d in chosen)


def add_alarm(
    db: sqlite3.Connection,
    time: str,
    label: str = "",
    days: str | list[str] = "",
    enabled: bool = True,
) -> int:
    """An alarm at HH:MM; ``days`` (e.g. 'Mon,Tue') makes it repeat, empty means once."""
    cur = db.execute(
        "INSERT INTO alarms(time, label, days, enabled) VALUES (?, ?, ?, ?)",
        (parse_time(time, "alarm time"), label.strip(), _days(days), int(enabled)),
    )
    return int(cur.lastrowid or 0)


def add_timer(db: sqlite3.Connection, seconds: int, label: str = "") -> int:
    if seconds <= 0:
        raise StoreError("a timer needs a duration longer than zero")
    cur = db.execute(
        "INSERT INTO timers(label, seconds, state, created) VALUES (?, ?, 'running', ?)",
        (label.strip(), int(seconds), now_text(db)),
    )
    return int(cur.lastrowid or 0)


def add_world_clock(db: sqlite3.Connection, city: str) -> int:
    """Show a city's local time; the city is found in the offline places data."""
    hits = [p for p in places.search(city, limit=5) if p.timezone and p.kind != "postcode"]
    if not hits:
        raise StoreError(f"no city called {city!r} was found")
    place = hits[0]
    position = db.execute("SELECT coalesce(max(position), -1) + 1 FROM world_clocks").fetchone()[0]
    cur = db.execute(
        "INSERT INTO world_clocks(city, timezone, position) VALUES (?, ?, ?)",
        (place.label, place.timezone, position),
    )
    return int(cur.lastrowid or 0)


def _duration(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}"


router = APIRouter(prefix="/clock", dependencies=[Depends(require_login)])


@router.get("")
async def clock_home() -> Response:
    return see_other("/clock/alarms")


@router.get("/alarms", response_class=HTMLResponse)
async def alarms(request: Request) -> Response:
    with store(request).read() as db:
        rows = db.execute("SELECT * FROM alarms ORDER BY time, id").fetchall()
    return render(
        request, "clock/alarms.html", "clock", "Alarms", tab="alarms", alarms=rows, days=DAYS
    )


def _form_days(form: object) -> list[str]:
    return [d for d in DAYS if checked(form, f"day-{d}")]  # type: ignore[arg-type]


@router.post("/alarms/new")
async def new_alarm(request: Request) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        add_alarm(db, text(form, "time"), text(form, "label"), _form_days(form))
    return see_other("/clock/alarms", notice="Alarm set")


@router.get("/alarms/{alarm_id}/edit", response_class=HTMLResponse)
async def edit_alarm_form(request: Request, alarm_id: int) -> Response:
    with store(request).read() as db:
        row = db.execute("SELECT * FROM alarms WHERE id = ?", (alarm_id,)).fetchone()
    if row is None:
        raise StoreError(f"there is no alarm {alarm_id}")
    return render(
        request, "clock/alarm_edit.html", "clock", "Edit alarm", tab="alarms", alarm=row, days=DAYS
    )


@router.post("/alarms/{alarm_id}/edit")
async def edit_alarm(request: Request, alarm_id: int) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        db.execute(
            "UPDATE alarms SET time = ?, label = ?, days = ? WHERE id = ?",
            (
                parse_time(text(form, "time"), "alarm time"),
                text(form, "label"),
                _days(_form_days(form)),
                alarm_id,
            ),
        )
    return see_other("/clock/alarms", notice="Alarm saved")


@router.post("/alarms/{alarm_id}/toggle")
async def toggle_alarm(request: Request, alarm_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("UPDATE alarms SET enabled = 1 - enabled WHERE id = ?", (alarm_id,))
    return see_other("/clock/alarms")


@router.post("/alarms/{alarm_id}/delete")
async def delete_alarm(request: Request, alarm_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM alarms WHERE id = ?", (alarm_id,))
    return see_other("/clock/alarms", notice="Alarm deleted")


@router.get("/timers", response_class=HTMLResponse)
async def timers(request: Request) -> Response:
    with store(request).read() as db:
        rows = db.execute("SELECT * FROM timers ORDER BY id").fetchall()
    shown = [(r, _duration(r["seconds"])) for r in rows]
    return render(request, "clock/timers.html", "clock", "Timers", tab="timers", timers=shown)


@router.post("/timers/new")
async def new_timer(request: Request) -> Response:
    form = await request.form()
    parts = [text(form, k) or "0" for k in ("hours", "minutes", "seconds")]
    if not all(p.isdigit() for p in parts):
        raise StoreError("hours, minutes and seconds must be whole numbers")
    hours, minutes, seconds = (int(p) for p in parts)
    with store(request).write(client_of(request)) as db:
        add_timer(db, hours * 3600 + minutes * 60 + seconds, text(form, "label"))
    return see_other("/clock/timers", notice="Timer started")


@router.post("/timers/{timer_id}/toggle")
async def toggle_timer(request: Request, timer_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute(
            "UPDATE timers SET state = CASE state WHEN 'running' THEN 'paused' ELSE 'running' END "
            "WHERE id = ?",
            (timer_id,),
        )
    return see_other("/clock/timers")


@router.post("/timers/{timer_id}/delete")
async def delete_timer(request: Request, timer_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
    return see_other("/clock/timers", notice="Timer deleted")


@router.get("/world", response_class=HTMLResponse)
async def world(request: Request) -> Response:
    with store(request).read() as db:
        home_zone = get_setting(db, "timezone")
        local = now(db).replace(tzinfo=_zone(home_zone))
        rows = db.execute("SELECT * FROM world_clocks ORDER BY position, id").fetchall()
    clocks = [(r, local.astimezone(_zone(r["timezone"]))) for r in rows]
    return render(
        request,
        "clock/world.html",
        "clock",
        "World clock",
        tab="world",
        home=(home_zone, local),
        clocks=clocks,
    )


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@router.post("/world/new")
async def new_city(request: Request) -> Response:
    form = await request.form()
    with store(request).write(client_of(request)) as db:
        add_world_clock(db, text(form, "city"))
    return see_other("/clock/world", notice="City added")


@router.post("/world/{clock_id}/delete")
async def delete_city(request: Request, clock_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        db.execute("DELETE FROM world_clocks WHERE id = ?", (clock_id,))
    return see_other("/clock/world", notice="City removed")


OPERATIONS: dict[str, Callable[..., Any]] = {
    "add_alarm": add_alarm,
    "add_timer": add_timer,
    "add_world_clock": add_world_clock,
}
