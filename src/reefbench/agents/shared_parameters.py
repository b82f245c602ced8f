"""Parameters many tools share, described once in the prompt instead of in every tool.

A model is sent every tool definition with every request (the list is the same in every
task and step). In reef-v1's ``marks`` set, 11 tools take an element number ``elem`` and
18 parameters are screenshot pixels (``x``, ``y``, ``to_x`` ...), each repeating the same
description and the same limits (0 to 10000): about 600 of the 4,250 tokens the tool
definitions cost a request. :data:`SHARED_PARAMETERS` says each of those facts once, in
the system prompt (:func:`shared_text`), and :func:`strip_shared` removes a parameter's
description and limits from a definition only when they are *exactly* what an entry
covers; anything else (``elem`` of ``scroll``: "omit to scroll where the pointer is"; an
end point "moved onto the screen's edge if beyond it") stays in its tool. So every
parameter, type, limit and description is still in the request, in the prompt or in
the tool; a docstring edited later simply stays in its tool (no fact can go missing).
Since issue 31 each coordinate describes itself (pixels of its device's screenshot, with
its size): only their 0-10000 cap, which read like a normalised scale, is said once.

Used by the native tool-calling roles of the model policies
(:class:`~reefbench.agents.tools.Toolbox` with ``shared=True``); the computer-use agents
and a JSON-mode prompt (which lists every tool in full) send definitions unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

# A screenshot pixel's bounds, as the pointer actions declare them.
_PIXEL_LIMITS: dict[str, Any] = {"minimum": 0, "maximum": 10000}


@dataclass(frozen=True, slots=True)
class SharedParameter:
    """Parameters described once for every tool that has them.

    Attributes:
        names: The parameter names the entry covers.
        descriptions: The (compacted) descriptions it replaces; a parameter with any
            other description keeps it.
        limits: The schema limits it states, which a covered parameter must have exactly
            (and then loses); empty: the entry covers parameters without limits.
        text: What the prompt says instead, once.
        keeps_description: The entry covers the limits only: a parameter with them keeps
            its own description, whatever it is (``descriptions`` is then unused).
    """

    names: frozenset[str]
    descriptions: frozenset[str]
    text: str
    limits: Mapping[str, Any] = field(default_factory=dict)
    keeps_description: bool = False


SHARED_PARAMETERS: tuple[SharedParameter, ...] = (
    SharedParameter(
        frozenset({"elem"}),
        frozenset(
            {
                "Number of the element's box in the latest screenshot.",
                "The number of the element in the latest screenshot.",
            }
        ),
        "`elem`: an element's number in the device's latest screenshot",
    ),
    # Each coordinate keeps its own description (pixels of that device's screenshot,
    # with its size); only the schema's cap, which reads like a normalised 0-10000
    # scale, is said once, as what it is.
    SharedParameter(
        frozenset({"x", "y", "from_x", "from_y", "to_x", "to_y"}),
        frozenset(),
        "`x`, `y`, `from_x`, `from_y`, `to_x`, `to_y`: whole pixels of the device's "
        "screenshot, as each tool's description says (never a normalised scale); any "
        "value above 10000 is refused",
        _PIXEL_LIMITS,
        keeps_description=True,
    ),
)


def covering(name: str, prop: Mapping[str, Any]) -> SharedParameter | None:
    """The entry that says everything ``prop`` (parameter ``name``) says besides its
    type, or ``None``: the parameter keeps its description and limits."""
    for entry in SHARED_PARAMETERS:
        if name not in entry.names:
            continue
        if not entry.keeps_description and prop.get("description") not in entry.descriptions:
            continue
        if all(prop.get(key) == value for key, value in entry.limits.items()):
            return entry
    return None


def strip_shared(properties: MutableMapping[str, Any]) -> None:
    """Remove, in place, the descriptions and limits the prompt states once."""
    for name, prop in properties.items():
        entry = covering(name, prop)
        if entry is None:
            continue
        dropped = set(entry.limits) | (set() if entry.keeps_description else {"description"})
        properties[name] = {k: v for k, v in prop.items() if k not in dropped}


def shared_text() -> str:
    """The prompt's lines for :data:`SHARED_PARAMETERS`."""
    lines = "\n".join(f"- {entry.text}." for entry in SHARED_PARAMETERS)
    return f"Parameter facts said here once, not in each tool definition:\n{lines}"
