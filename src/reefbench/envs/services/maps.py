"""Maps: search places, cities, countries and US postcodes offline; approximate directions.

Searches and directions are recorded in ``map_history``, so evaluators can check that a
route between two places was looked up (CRAB's Google Maps subtasks).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from reefbench.envs.services import places
from reefbench.envs.services.places import SPEED_KMH, Place
from reefbench.envs.services.store import StoreError, get_setting, now_text
from reefbench.envs.services.web import client_of, render, require_login, store

KM_PER_MILE = 1.609344


def add_place(
    db: sqlite3.Connection,
    name: str,
    latitude: float,
    longitude: float,
    kind: str = "place",
    address: str = "",
    description: str = "",
) -> int:
    """A point of interest of this account's world (a café, an office) that Maps finds."""
    if not name.strip():
        raise StoreError("a place needs a name")
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        raise StoreError(f"({latitude}, {longitude}) is not a latitude/longitude pair")
    cur = db.execute(
        "INSERT INTO places(name, kind, address, latitude, longitude, description) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (name.strip(), kind, address, latitude, longitude, description),
    )
    return int(cur.lastrowid or 0)


def seeded_places(db: sqlite3.Connection) -> list[Place]:
    return [
        Place(
            key=f"place:{r['id']}",
            name=r["name"],
            kind=r["kind"],
            area=r["address"].split(",")[-1].strip() if r["address"] else "",
            latitude=r["latitude"],
            longitude=r["longitude"],
            address=r["address"],
            description=r["description"],
        )
        for r in db.execute("SELECT * FROM places ORDER BY id")
    ]


def _resolve(query: str, seeded: list[Place]) -> Place:
    hits = places.search(query, seeded, limit=1)
    if not hits:
        raise StoreError(f"no place matches {query!r}; try a city, country or US ZIP code")
    return hits[0]


def _distance_text(km: float, unit: str) -> str:
    return f"{km / KM_PER_MILE:.1f} mi" if unit == "mi" else f"{km:.1f} km"


def _duration_text(minutes: float) -> str:
    hours, mins = divmod(int(minutes), 60)
    return f"{hours} h {mins} min" if hours else f"{mins} min"


router = APIRouter(prefix="/maps", dependencies=[Depends(require_login)])


@router.get("", response_class=HTMLResponse)
async def search_page(request: Request, q: str = "") -> Response:
    with store(request).read() as db:
        seeded = seeded_places(db)
    results = places.search(q, seeded) if q else []
    if q:
        with store(request).write(client_of(request)) as db:
            db.execute(
                "INSERT INTO map_history(kind, query, destination, date) VALUES (?, ?, ?, ?)",
                ("search", q, results[0].label if results else "", now_text(db)),
            )
    return render(request, "maps/search.html", "maps", "Maps", q=q, results=results)


@router.get("/place", response_class=HTMLResponse)
async def place(request: Request, key: str) -> Response:
    with store(request).read() as db:
        found = places.lookup(key, seeded_places(db))
    if found is None:
        raise StoreError(f"there is no place {key!r}")
    return render(request, "maps/place.html", "maps", found.label, place=found)


@router.get("/directions", response_class=HTMLResponse)
async def directions(
    request: Request, origin: str = "", destination: str = "", mode: str = "driving"
) -> Response:
    result = None
    if mode not in SPEED_KMH:
        raise StoreError(f"travel mode must be one of {', '.join(SPEED_KMH)}")
    if origin and destination:
        with store(request).write(client_of(request)) as db:
            seeded = seeded_places(db)
            start, end = _resolve(origin, seeded), _resolve(destination, seeded)
            km, minutes = places.route(start, end, mode)
            unit = get_setting(db, "distance_unit")
            db.execute(
                "INSERT INTO map_history(kind, query, origin, destination, mode, distance_km, "
                "minutes, date) VALUES ('directions', ?, ?, ?, ?, ?, ?, ?)",
                (
                    f"{origin} -> {destination}",
                    start.label,
                    end.label,
                    mode,
                    km,
                    minutes,
                    now_text(db),
                ),
            )
        result = {
            "start": start,
            "end": end,
            "distance": _distance_text(km, unit),
            "duration": _duration_text(minutes),
        }
    return render(
        request,
        "maps/directions.html",
        "maps",
        "Directions",
        origin=origin,
        destination=destination,
        mode=mode,
        modes=list(SPEED_KMH),
        result=result,
    )


OPERATIONS: dict[str, Callable[..., Any]] = {"add_place": add_place}
