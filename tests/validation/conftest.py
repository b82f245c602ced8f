"""Print the reef-v1 gates' summary (tasks, episodes, failures, run time) at the end of
the pytest run, where CI logs show it, instead of between progress dots."""

from __future__ import annotations

from collections.abc import Callable

import pytest

GATES_SUMMARY = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def report_gates(pytestconfig: pytest.Config) -> Callable[[str], None]:
    """Keep a line for the terminal summary."""

    def keep(line: str) -> None:
        pytestconfig.stash[GATES_SUMMARY] = line

    return keep


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    line = terminalreporter.config.stash.get(GATES_SUMMARY, None)
    if line is not None:
        terminalreporter.write_sep("-", "reef-v1 validation gates")
        terminalreporter.write_line(line)
