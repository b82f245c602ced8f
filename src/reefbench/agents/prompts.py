"""Prompt templates of the agent systems (package data under ``agents/prompts/``).

Templates use ``$name`` placeholders (:class:`string.Template`), so braces in JSON examples
need no escaping. Users override any template with a directory holding files of the same
names (``reef run --prompts DIR``); an unknown placeholder in an override is reported with
the file it came from.
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path

from reefbench.agents.observation import get_observation_policy
from reefbench.errors import ConfigError
from reefbench.plumbing.userfiles import read_text


@dataclass(frozen=True)
class Prompts:
    """The system prompt of every role (CRAB App. B.3, in our own words).

    ``json_format`` is appended to a role's prompt when its model writes actions as JSON
    in text instead of calling tools natively. ``turn_rules`` is filled in by
    :func:`turn_rules` and reaches the role prompts as ``$turn_rules``.
    """

    single: str
    planner_by_func: str
    tool_agent: str
    planner_by_env: str
    sub_agent: str
    root_agent: str
    json_format: str
    turn_rules: str

    @classmethod
    def default(cls) -> Prompts:
        return _default()

    @classmethod
    def from_dir(cls, directory: Path, base: Prompts | None = None) -> Prompts:
        """``base`` (the defaults) with every ``<role>.txt`` found in ``directory``."""
        if not directory.is_dir():
            raise ConfigError(f"prompts directory {directory} does not exist")
        names = {f.name for f in fields(cls)}
        stray = sorted(p.name for p in directory.glob("*.txt") if p.stem not in names)
        if stray:
            raise ConfigError(
                f"{directory}: unknown prompt file(s) {', '.join(stray)}; "
                f"expected some of {', '.join(sorted(n + '.txt' for n in names))}"
            )
        found = {p.stem: read_text(p) for p in directory.glob("*.txt")}
        return replace(base or cls.default(), **found)

    def render(self, role: str, json_mode: bool = False, **values: str) -> str:
        """The filled-in prompt of ``role``, plus the JSON instructions in JSON mode."""
        template = getattr(self, role)
        if json_mode:
            template = template.rstrip("\n") + "\n" + self.json_format
        try:
            return string.Template(template).substitute(values)
        except (KeyError, ValueError) as exc:
            raise ConfigError(
                f"prompt '{role}': bad placeholder {exc}; available: "
                + ", ".join("$" + k for k in sorted(values))
            ) from None


@functools.cache
def _default() -> Prompts:
    folder = resources.files("reefbench.agents") / "prompts"
    return Prompts(
        **{f.name: (folder / f"{f.name}.txt").read_text("utf-8") for f in fields(Prompts)}
    )


def invalid_rule(tolerance: int) -> str:
    """The invalid-action rule of a run forgiving ``tolerance`` invalid actions in a row
    (what :class:`~reefbench.episodes.episode.Episode` does with its ``invalid_tolerance``)."""
    what = (
        "An invalid action is only one that cannot run as written: an unknown tool, a "
        "missing or malformed argument, an element number that is not in the observation."
    )
    if tolerance == 0:
        return (
            f"{what} The first one ends the episode: this run forgives none (it was started "
            "with --invalid-tolerance 0)."
        )
    times = "once" if tolerance == 1 else f"{tolerance} times"
    return (
        f"{what} It costs its step and its reason is reported back to you; this run "
        f"forgives that {times} in a row, and the next invalid action in a row ends the "
        "episode (any action that runs starts the count again)."
    )


def step_rule(step_limit: int | None) -> str:
    """The step budget as the prompt states it (empty when the agent is not told one)."""
    if step_limit is None:
        return ""
    return (
        f"\n- You have at most {step_limit} steps; a step is one reply of yours, whatever "
        f"number of calls it holds. Each step's message says which one it is (\"Step 3 of "
        f'{step_limit}"), and the episode ends when the last one is used.'
    )


def turn_rules(
    prompts: Prompts, tolerance: int, observe: str, step_limit: int | None = None
) -> str:
    """The turn rules of a run: several calls per reply, which observation element
    numbers refer to, the invalid-action tolerance, the step budget, the automatic end,
    and what the observation policy leaves out."""
    values = {
        "invalid_rule": invalid_rule(tolerance),
        "step_rule": step_rule(step_limit),
        "observation_rule": "".join(
            f"\n- {r}" for r in [get_observation_policy(observe).rule] if r
        ),
    }
    try:
        return string.Template(prompts.turn_rules).substitute(values).rstrip("\n")
    except (KeyError, ValueError) as exc:
        raise ConfigError(
            f"prompt 'turn_rules': bad placeholder {exc}; available: "
            + ", ".join("$" + k for k in sorted(values))
        ) from None
