"""The ten capabilities of OmniBench Table 12 and their complexity constraints."""

from __future__ import annotations

import pytest

from reefbench import ConfigError
from reefbench.compose.capabilities import (
    CAPABILITIES,
    capabilities_for,
    capability,
    constraints_for,
)

# Table 12 as printed (shared/seeds/002 L746-760): starred dimensions per capability.
TABLE_12 = {
    "PP": {"dependency", "branch"},
    "LRP": {"dependency", "hierarchy"},
    "LSR": {"instruction", "hierarchy"},
    "LIF": {"branch"},
    "SDK": {"hierarchy", "branch"},
    "CDDK": {"branch", "knowledge"},
    "SI": {"dependency", "instruction"},
    "DI": {"dependency"},
    "CDK": {"instruction", "knowledge"},
    "DSK": {"instruction"},
}


def test_table_12_is_transcribed() -> None:
    assert {c.abbreviation: set(c.hard) for c in CAPABILITIES} == TABLE_12
    assert len({c.category for c in CAPABILITIES}) == 5  # two capabilities per category


def test_a_task_belongs_to_every_capability_whose_dimensions_are_all_hard() -> None:
    levels = {
        "dependency": "hard",
        "instruction": "medium",
        "knowledge": "easy",
        "hierarchy": "hard",
        "branch": "medium",
    }
    assert capabilities_for(levels) == ["long-range-planning", "dependency-identification"]
    assert capabilities_for({d: "easy" for d in TABLE_12["PP"]}) == []
    everything = capabilities_for(
        dict.fromkeys(("dependency", "instruction", "knowledge", "hierarchy", "branch"), "hard")
    )
    assert len(everything) == 10


def test_lookup_by_id_name_or_abbreviation() -> None:
    assert capability("PP").id == "parallel-planning"
    assert capability("long-range planning".replace(" p", "-p")).abbreviation == "LRP"
    assert capability("Cross-Domain Knowledge").abbreviation == "CDK"
    assert constraints_for(["PP", "LSR"]) == {
        "dependency": "hard",
        "branch": "hard",
        "instruction": "hard",
        "hierarchy": "hard",
    }
    with pytest.raises(ConfigError, match="unknown capability 'telepathy'"):
        capability("telepathy")
