"""Observation policies: which devices' observations a model request carries.

An episode observes every device at every step, but a model need not be sent all of it
every time: a task on the laptop leaves the phone and the browser as they were, and
re-sending three screenshots (and repeating them in the history) made a request cost
0.4–1.7 M prompt tokens per episode. A policy is chosen per run (``reef run
--observation-policy``, or ``--observe``; ``RunConfig.observation_policy``, recorded in
``run.json`` as ``observe``) and applies to every role of a model agent that receives
observations:

* ``all`` (what agents did before policies): every device at every step, and earlier
  screenshots kept in the history window.
* ``latest``: every device at every step; an earlier observation of a device is replaced
  by a one-line note once a later one is in the request, so the request holds each
  device's observation once.
* ``changed`` (the default): the first step carries every device; later steps carry the
  devices the agent acted on in its previous step and any whose observation changed since
  it was last sent (element list or screen, :func:`~reefbench.agents.images.screens_differ`),
  and a note for the others ("[phone] unchanged since step 4"; the prompt's turn rules
  say what it means: what was last seen of it still holds, so the note, repeated in
  every request of the history window, says no more). When an unchanged device's last
  copy would fall out of the history window, its text observations (the element list,
  so its element numbers stay usable) are sent again without the screenshot, and the
  note says the screenshot is not repeated.

A policy sees only what the agent did and what the devices show: never the task's
checkpoints, so it cannot tell the agent which devices matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from reefbench.agents.images import image_mime, screens_differ
from reefbench.episodes.protocol import CallResult
from reefbench.errors import ConfigError


@dataclass(frozen=True, slots=True)
class ObservationPolicy:
    """One way of choosing what a request carries.

    Attributes:
        name: How runs select it (``--observation-policy NAME``).
        summary: One line for help texts and reports.
        skip_unchanged: Leave out devices not acted on whose observation did not change.
        supersede: Replace a device's earlier observation in the history by a note once a
            later one is in the request (otherwise history keeps its screenshots).
        rule: What the system prompt tells the model about it (empty: nothing to say).
    """

    name: str
    summary: str
    skip_unchanged: bool
    supersede: bool
    rule: str = ""


ALL = ObservationPolicy("all", "every device every step, screenshots kept in history", False, False)
LATEST = ObservationPolicy(
    "latest",
    "every device every step, each device's observation once per request",
    skip_unchanged=False,
    supersede=True,
    rule="Each step carries every device's observation; an earlier observation of a device "
    "is replaced by a note once a later one follows.",
)
CHANGED = ObservationPolicy(
    "changed",
    "devices acted on or changed since last sent, a note for the others",
    skip_unchanged=True,
    supersede=True,
    rule="A step carries the observations of the devices you acted on in the previous step "
    "and of those that changed; for any other device a note says since which step it is "
    "unchanged: what you last saw of it still holds, and its element numbers stay valid.",
)
OBSERVATION_POLICIES: dict[str, ObservationPolicy] = {p.name: p for p in (ALL, LATEST, CHANGED)}
DEFAULT_OBSERVE = CHANGED.name
# Runs recorded before observation policies existed sent everything.
LEGACY_OBSERVE = ALL.name


def get_observation_policy(name: str) -> ObservationPolicy:
    """The observation policy called ``name``.

    Raises:
        ConfigError: no such policy (the message lists the known ones).
    """
    found = OBSERVATION_POLICIES.get(name)
    if found is None:
        raise ConfigError(
            f"unknown observation policy {name!r}: choose one of {', '.join(OBSERVATION_POLICIES)}"
        )
    return found


@dataclass(frozen=True, slots=True)
class Selection:
    """What one request carries: observations by device, and a note per left-out device."""

    carried: dict[str, dict[str, Any]]
    notes: list[str]


class Observer:
    """Applies a policy to one role's requests over an episode (a fresh one per reset).

    Args:
        policy: The run's policy.
        history: The role's history window (earlier exchanges each request repeats;
            ``None``: the whole episode): an unchanged device last sent further back than
            that has its text observations (element list) sent again, without the
            screenshot.
    """

    def __init__(self, policy: ObservationPolicy, history: int | None) -> None:
        self.policy = policy
        self.history = history
        self._requests = 0
        self._sent: dict[str, tuple[int, int, dict[str, Any]]] = {}  # env -> request, step, obs

    def select(
        self,
        step: int,
        observations: Mapping[str, Mapping[str, Any]],
        previous: Iterable[CallResult],
    ) -> Selection:
        """Choose for the request of ``step``; ``previous`` are the results of the calls
        of the step before (the devices they named count as acted on)."""
        acted = {r.call.env for r in previous}
        request = self._requests
        self._requests += 1
        carried: dict[str, dict[str, Any]] = {}
        notes: list[str] = []
        for env, values in observations.items():
            last = self._sent.get(env)
            if (
                not self.policy.skip_unchanged
                or last is None
                or env in acted
                or observations_differ(last[2], values)
            ):
                carried[env] = dict(values)
                self._sent[env] = (request, step, carried[env])
                continue
            sent_at, since, full = last
            if self.history is None or request - sent_at <= self.history:
                # What the note means is in the prompt's turn rules (CHANGED.rule): each
                # word here is repeated in every request of the history window.
                notes.append(f"[{env}] unchanged since step {since}")
                continue
            # Its last copy leaves the window: the text again (element numbers stay usable),
            # not the screenshot, which is what costs.
            carried[env] = {k: v for k, v in values.items() if not _is_image(v)}
            notes.append(
                f"[{env}] unchanged since step {since}"
                + ("; its text is above, not its screenshot" if carried[env] else "")
            )
            self._sent[env] = (request, since, full)
        return Selection(carried, notes)


def _is_image(value: Any) -> bool:
    return isinstance(value, bytes | bytearray) and image_mime(bytes(value)) is not None


def observations_differ(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether a device's observation changed: any text or value differs, or a screenshot
    differs perceptually (a blinking caret alone does not count)."""
    if old.keys() != new.keys():
        return True
    for name, value in new.items():
        before = old[name]
        if isinstance(value, bytes | bytearray) and isinstance(before, bytes | bytearray):
            if bytes(value) == bytes(before):
                continue
            if image_mime(bytes(value)) is None or screens_differ(bytes(before), bytes(value)):
                return True
        elif value != before:
            return True
    return False
