"""A ready-to-synthesise pool over the in-memory devices (``reefbench.suites.demo:POOL``).

It is the in-memory suite's six templates (:data:`reefbench.suites.memory.POOL`) with what
synthesis needs and the suite leaves out: input resources (``copy_file`` needs its
``source`` and ``append_line`` its ``path`` from a predecessor, so a task never copies a
file that does not exist), a file type per device (a phone file cannot feed a laptop copy),
intents and value pools. Every task synthesised from it runs in the in-memory environments
in milliseconds, which is what the tests and the oracle check of the benchmark use.
"""

from __future__ import annotations

from typing import Any

from reefbench.suites import memory
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, SubTask, register_attribute_type

FILE_TYPES = {device: f"{device}_file" for device in memory.DEVICES}
for _type_name in FILE_TYPES.values():
    if _type_name not in ATTRIBUTE_TYPES:
        register_attribute_type(_type_name, str)

_PATHS = [
    f"{folder}{name}.txt"
    for folder in ("", "notes/", "work/", "home/")
    for name in ("todo", "plan", "ideas", "log", "draft", "list")
]
_TEXTS = [
    "milk",
    "eggs",
    "bread",
    "call Ana",
    "pay rent",
    "book flights",
    "water plants",
    "renew passport",
    "fix the bike",
    "buy stamps",
    "send invoice",
    "read chapter 3",
]

_INPUTS = {"create_file": [], "copy_file": ["source"], "append_line": ["path"]}
_INTENTS = {
    "laptop": ["organise notes on the laptop", "keep records in sync"],
    "phone": ["keep a shopping list on the phone", "keep records in sync"],
}


def _annotated(template: SubTask) -> SubTask:
    kind, _, device = template.id.partition("@")
    file_type = FILE_TYPES[device]
    attributes = {
        name: file_type if type_name == "file_path" else type_name
        for name, type_name in template.attributes.items()
    }
    pools: dict[str, list[Any]] = {
        name: list(_PATHS if type_name == file_type else _TEXTS)
        for name, type_name in attributes.items()
    }
    fields = dict(template)
    fields.update(
        attributes=attributes,
        output_type=file_type,
        inputs=_INPUTS[kind],
        outputs=[file_type],
        intents=_INTENTS[device],
        value_pools=pools,
    )
    return SubTask(**fields)


POOL: dict[str, SubTask] = {key: _annotated(t) for key, t in sorted(memory.POOL.items())}
