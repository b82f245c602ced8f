"""The device: its state and lifecycle hooks, no actions (they import this module)."""

from __future__ import annotations

from reefbench.environments.contract import Environment


class CounterDevice(Environment):
    """A counter that starts at ``start`` after every reset.

    Args:
        name: How tasks address it.
        start: The pristine count.
        lazy_reset: Skip resets while nothing acted on it (part of the contract).
    """

    def __init__(self, name: str = "counter", *, start: int = 0, lazy_reset: bool = False):
        super().__init__(name, "A tally counter with a display.", lazy_reset=lazy_reset)
        self.start_value = start
        self.count = start
        self.resets = 0  # for the tests: how often the state was really restored

    def on_reset(self) -> None:
        self.count = self.start_value
        self.resets += 1
