"""The table of releases: one row per built-in suite, and the suite commands work for any
row (the gates read the suite's own pool, not reef-v0's)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from reefbench.cli import app
from reefbench.errors import ConfigError
from reefbench.suites import ALIASES, RELEASES, SUITES, get_suite, release


@pytest.mark.parametrize("row", RELEASES, ids=lambda r: r.name)
def test_every_row_loads_by_name_and_alias(row: object) -> None:
    from reefbench.suites import Release

    assert isinstance(row, Release)
    for name in (row.name, *row.aliases):
        assert release(name) is row
    suite = get_suite(row.name)
    assert suite.name == row.name and suite.description == row.description
    assert (suite.pool is not None) == (row.pool is not None)
    assert (suite.frozen is not None) == (row.frozen is not None)
    if suite.pool is not None:
        assert suite.pool()


def test_names_aliases_and_the_unknown() -> None:
    assert SUITES == ("memory", "v0", "v1", "v2-dev")
    assert ALIASES == {"reef-v0": "v0", "reef-v1": "v1", "reef-v2-dev": "v2-dev"}
    with pytest.raises(ConfigError, match=r"^unknown suite 'moon': available suites: memory, "):
        get_suite("moon")


def test_the_static_gates_run_on_any_suite_with_a_pool() -> None:
    """The in-memory suite has its own pool: its static gates run on it (they read the
    pool's templates), where they used to refuse every suite but reef-v0's and v1's."""
    result = CliRunner().invoke(
        app, ["suite", "check", "--suite", "memory", "--static"], env={"COLUMNS": "200"}
    )
    assert "tasks pass the static gates" in result.output, result.output
    assert f"of {len(get_suite('memory').load())} tasks" in result.output
