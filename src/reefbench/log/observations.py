"""Observations in the log: binary ones (screenshots) become files beside the trajectory.

The episode hands every observation to a sink (:data:`reefbench.episodes.episode.ObservationSink`)
and stores what the sink returns in the trajectory. The log's sink names binary
observations (``step003-desktop-screenshot.png``) and hands their bytes to ``save``; text
is kept inline and anything else summarised, as :func:`summarise_observation` does. The
name is what the trajectory records, so the same rule must hold wherever an episode
runs: in a worker thread ``save`` writes the file into the episode's folder at once
(:meth:`reefbench.log.store.ResultsStore.observations`); in a Ray actor it keeps the bytes
until the driver's store writes them (:meth:`~reefbench.log.store.ResultsStore.
write_observations`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reefbench.episodes.episode import summarise_observation

PNG_MAGIC = b"\x89PNG"


class ObservationFiles:
    """An observation sink that turns binary observations into named files."""

    def __init__(self, save: Callable[[str, bytes], None]) -> None:
        self.save = save

    def __call__(self, step: int, env: str, name: str, value: Any) -> Any:
        if isinstance(value, bytes | bytearray):
            data = bytes(value)
            file_name = observation_file_name(step, env, name, data)
            self.save(file_name, data)
            return file_name
        return summarise_observation(step, env, name, value)


def observation_file_name(step: int, env: str, name: str, data: bytes) -> str:
    """The file an observation is stored in (PNG images keep their extension)."""
    suffix = ".png" if data[:4] == PNG_MAGIC else ".bin"
    return f"step{step:03d}-{env}-{name}{suffix}"
