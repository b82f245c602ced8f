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

from reefbench.errors import ConfigError
from reefbench.userfiles import read_text


@dataclass(frozen=True)
class Prompts:
    """The system prompt of every role (CRAB App. B.3, in our own words).

    ``json_format`` is appended to a role's prompt when its model writes actions as JSON
    in text instead of calling tools natively.
    """

    single: str
    planner_by_func: str
    tool_agent: str
    planner_by_env: str
    sub_agent: str
    root_agent: str
    json_format: str

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
