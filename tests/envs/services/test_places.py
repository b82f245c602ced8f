"""Offline geography: search, lookup and deterministic directions."""

from __future__ import annotations

import pytest

from reefbench.envs.services import places


def test_search_ranks_exact_names_and_big_cities_first() -> None:
    results = places.search("Paris")
    assert results[0].label == "Paris, France"
    assert places.search("Paris, US")[0].label == "Paris, United States"
    assert places.search("Japan")[0].kind == "country"


def test_postcodes_and_unknown_places() -> None:
    (hit,) = places.search("10001")
    assert hit.kind == "postcode" and "New York" in hit.area
    assert places.search("99999") == []
    assert places.search("Zzzzqqq") == []


def test_seeded_places_come_first_and_lookup_round_trips() -> None:
    cafe = places.Place("place:1", "Paris Corner Cafe", "cafe", "London", 51.5, -0.12)
    assert places.search("Paris", [cafe])[0] is cafe
    paris = places.search("Paris")[0]
    assert places.lookup(paris.key) == paris
    assert places.lookup("place:1", [cafe]) is cafe
    assert places.lookup("city:0") is None


def test_routes_are_deterministic_and_scale_with_mode() -> None:
    london, paris = places.search("London")[0], places.search("Paris")[0]
    assert places.distance_km(london, paris) == pytest.approx(344, abs=3)
    km, driving = places.route(london, paris, "driving")
    assert places.route(london, paris, "driving") == (km, driving)
    assert places.route(london, paris, "walking")[1] == pytest.approx(driving * 12, rel=0.01)
    with pytest.raises(ValueError, match="travel mode"):
        places.route(london, paris, "teleport")
