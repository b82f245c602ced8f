"""The prompt templates of the grounding formats (package data under ``prompts/``)."""

from __future__ import annotations

import functools
import string
from importlib import resources


@functools.cache
def template(name: str) -> string.Template:
    """``prompts/<name>.txt`` as a :class:`string.Template` (``$name`` placeholders, so
    the JSON of a tool definition needs no escaping)."""
    folder = resources.files("reefbench.agents.grounding_models") / "prompts"
    return string.Template((folder / f"{name}.txt").read_text("utf-8"))
