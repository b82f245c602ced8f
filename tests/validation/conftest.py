"""Print the live gates' summaries (tasks, episodes, failures, solutions that needed a
second try, run time) at the end of the pytest run, where CI logs show them, instead of
between progress dots."""

from __future__ import annotations

from collections.abc import Callable

import pytest

GATES_SUMMARY = pytest.StashKey[list[str]]()


@pytest.fixture(scope="session")
def report_gates(pytestconfig: pytest.Config) -> Callable[[str], None]:
    """Keep a line for the terminal summary."""

    def keep(line: str) -> None:
        pytestconfig.stash.setdefault(GATES_SUMMARY, []).append(line)

    return keep


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = terminalreporter.config.stash.get(GATES_SUMMARY, [])
    if lines:
        terminalreporter.write_sep("-", "validation gates")
        for line in lines:
            terminalreporter.write_line(line)
