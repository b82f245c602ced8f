"""Calendar: month, week and day views; events with date, time or all day, place, notes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from reefbench.envs.services.store import (
    StoreError,
    get_setting,
    one,
    parse_date,
    parse_time,
    today,
)
from reefbench.envs.services.web import (
    checked,
    client_of,
    render,
    require_login,
    see_other,
    store,
    text,
)

EVENT_FIELDS = ("title", "date", "start_time", "end_time", "all_day", "place", "description")


def _event_values(
    title: str, date: str, start: str, end: str, all_day: bool, place: str, description: str
) -> tuple[str, str, str, str, int, str, str]:
    if not title.strip():
        raise StoreError("an event needs a title")
    day = parse_date(date, "event date")
    all_day = all_day or not start.strip()
    start_time = "" if all_day else parse_time(start, "start time")
    end_time = "" if all_day or not end.strip() else parse_time(end, "end time")
    if end_time and end_time < start_time:
        raise StoreError(f"the event ends ({end_time}) before it starts ({start_time})")
    return title.strip(), day, start_time, end_time, int(all_day), place.strip(), description


def add_event(
    db: sqlite3.Connection,
    title: str,
    date: str,
    start: str = "",
    end: str = "",
    all_day: bool = False,
    place: str = "",
    description: str = "",
) -> int:
    """Create an event; without a start time it is an all-day event."""
    values = _event_values(title, date, start, end, all_day, place, description)
    cur = db.execute(
        "INSERT INTO events(title, date, start_time, end_time, all_day, place, description) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        values,
    )
    return int(cur.lastrowid or 0)


def update_event(db: sqlite3.Connection, event_id: int, **fields: str | bool) -> None:
    values = _event_values(
        str(fields.get("title", "")),
        str(fields.get("date", "")),
        str(fields.get("start", "")),
        str(fields.get("end", "")),
        bool(fields.get("all_day", False)),
        str(fields.get("place", "")),
        str(fields.get("description", "")),
    )
    db.execute(
        "UPDATE events SET title = ?, date = ?, start_time = ?, end_time = ?, all_day = ?, "
        "place = ?, description = ? WHERE id = ?",
        (*values, event_id),
    )


def get_event(db: sqlite3.Connection, event_id: int) -> sqlite3.Row:
    return one(
        db, "SELECT * FROM events WHERE id = ?", (event_id,), f"there is no event {event_id}"
    )


def events_between(db: sqlite3.Connection, first: date, last: date) -> dict[str, list[sqlite3.Row]]:
    """Events from ``first`` to ``last`` inclusive, by ISO date, all-day ones first."""
    rows = db.execute(
        "SELECT * FROM events WHERE date BETWEEN ? AND ? ORDER BY date, all_day DESC, "
        "start_time, id",
        (first.isoformat(), last.isoformat()),
    ).fetchall()
    by_day: dict[str, list[sqlite3.Row]] = {}
    for row in rows:
        by_day.setdefault(row["date"], []).append(row)
    return by_day


def _week_start(day: date, starts_on: str) -> date:
    offset = (day.weekday() + (1 if starts_on == "sunday" else 0)) % 7
    return day - timedelta(days=offset)


router = APIRouter(prefix="/calendar", dependencies=[Depends(require_login)])


def _day(value: str, fallback: date) -> date:
    return date.fromisoformat(parse_date(value)) if value else fallback


@router.get("", response_class=HTMLResponse)
async def calendar_home(request: Request) -> Response:
    with store(request).read() as db:
        view = get_setting(db, "default_calendar_view")
    return see_other(f"/calendar/{view if view in ('month', 'week', 'day') else 'month'}")


@router.get("/month", response_class=HTMLResponse)
async def month(request: Request, d: str = "") -> Response:
    with store(request).read() as db:
        current = today(db)
        shown = _day(d, current)
        starts_on = get_setting(db, "week_start")
        first = _week_start(shown.replace(day=1), starts_on)
        weeks = [[first + timedelta(days=7 * w + i) for i in range(7)] for w in range(6)]
        if weeks[-1][0].month != shown.month:
            weeks.pop()
        events = events_between(db, weeks[0][0], weeks[-1][-1])
    prev_month = (shown.replace(day=1) - timedelta(days=1)).replace(day=1)
    next_month = (shown.replace(day=28) + timedelta(days=4)).replace(day=1)
    return render(
        request,
        "calendar/month.html",
        "calendar",
        shown.strftime("%B %Y"),
        view="month",
        shown=shown,
        today=current,
        weeks=weeks,
        events=events,
        prev=prev_month,
        next=next_month,
    )


@router.get("/week", response_class=HTMLResponse)
async def week(request: Request, d: str = "") -> Response:
    with store(request).read() as db:
        current = today(db)
        shown = _day(d, current)
        first = _week_start(shown, get_setting(db, "week_start"))
        days = [first + timedelta(days=i) for i in range(7)]
        events = events_between(db, days[0], days[-1])
    title = f"Week of {days[0].strftime('%d %b %Y')}"
    return render(
        request,
        "calendar/week.html",
        "calendar",
        title,
        view="week",
        shown=shown,
        today=current,
        days=days,
        events=events,
        prev=shown - timedelta(days=7),
        next=shown + timedelta(days=7),
    )


@router.get("/day", response_class=HTMLResponse)
async def day(request: Request, d: str = "") -> Response:
    with store(request).read() as db:
        current = today(db)
        shown = _day(d, current)
        events = events_between(db, shown, shown).get(shown.isoformat(), [])
    return render(
        request,
        "calendar/day.html",
        "calendar",
        shown.strftime("%A %d %B %Y"),
        view="day",
        shown=shown,
        today=current,
        day_events=events,
        prev=shown - timedelta(days=1),
        next=shown + timedelta(days=1),
    )


@router.get("/new", response_class=HTMLResponse)
async def new_form(request: Request, date: str = "") -> Response:
    with store(request).read() as db:
        default = date or today(db).isoformat()
    return render(request, "calendar/form.html", "calendar", "New event", event=None, date=default)


def _form_fields(form: FormData) -> dict[str, str | bool]:
    return {
        "title": text(form, "title"),
        "date": text(form, "date"),
        "start": text(form, "start"),
        "end": text(form, "end"),
        "all_day": checked(form, "all_day"),
        "place": text(form, "place"),
        "description": text(form, "description"),
    }


@router.post("/new")
async def create(request: Request) -> Response:
    fields = _form_fields(await request.form())
    with store(request).write(client_of(request)) as db:
        event_id = add_event(db, **fields)  # type: ignore[arg-type]
    return see_other(f"/calendar/event/{event_id}", notice="Event saved")


@router.get("/event/{event_id}", response_class=HTMLResponse)
async def detail(request: Request, event_id: int) -> Response:
    with store(request).read() as db:
        row = get_event(db, event_id)
    return render(request, "calendar/detail.html", "calendar", row["title"], event=row)


@router.get("/event/{event_id}/edit", response_class=HTMLResponse)
async def edit_form(request: Request, event_id: int) -> Response:
    with store(request).read() as db:
        row = get_event(db, event_id)
    return render(
        request, "calendar/form.html", "calendar", "Edit event", event=row, date=row["date"]
    )


@router.post("/event/{event_id}/edit")
async def edit(request: Request, event_id: int) -> Response:
    fields = _form_fields(await request.form())
    with store(request).write(client_of(request)) as db:
        get_event(db, event_id)
        update_event(db, event_id, **fields)
    return see_other(f"/calendar/event/{event_id}", notice="Event saved")


@router.post("/event/{event_id}/delete")
async def delete(request: Request, event_id: int) -> Response:
    with store(request).write(client_of(request)) as db:
        row = get_event(db, event_id)
        db.execute("DELETE FROM events WHERE id = ?", (event_id,))
    return see_other("/calendar/month", notice="Event deleted", d=row["date"])


OPERATIONS: dict[str, Callable[..., Any]] = {"add_event": add_event}
