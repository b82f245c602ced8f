"""Subtask pools: loading them and indexing how their templates can be linked.

A pool maps template id -> :class:`~reefbench.tasks.subtask.SubTask`. On the command line it is
named ``package.module:NAME`` or ``path/to/file.py:NAME``.

Linking (CRAB §3.4 typed attributes + OmniBench App. B.3 resources). An edge i -> j feeds
i's output value into one attribute of j whose type is i's ``output_type``; that attribute
is j's *slot* for the edge. OmniBench says a subtask's input resource list holds "the
prerequisite resources required to execute the subtask": we read ``SubTask.inputs`` as the
names of those attributes. So:

* a template that declares resources (``inputs`` or ``outputs``) has exactly its
  ``inputs`` as slots, and every one must be fed by a predecessor: its in-degree equals
  ``len(inputs)``, so one with inputs is never a root and one without is always a root;
* a template that declares no resources may take links into any attribute of a matching
  type (CRAB's looser rule), or none.

Slots are filled in declaration order: the k-th predecessor of a type feeds the k-th slot
of that type. Only templates with both an ``output_type`` and an ``output_generator`` can
feed others, because the linked value must be the predecessor's actual output.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from reefbench.errors import ConfigError
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, SubTask

DEFAULT_POOL_SIZE = 24
NO_INTENT = "(no intent)"


def load_pool(ref: str) -> dict[str, SubTask]:
    """Import a pool named ``package.module:NAME`` or ``path/to/file.py:NAME``.

    Raises:
        ConfigError: one line saying what failed (import, missing name, wrong contents).
    """
    module_name, sep, attr = ref.rpartition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"pool '{ref}': use the form 'package.module:NAME' or 'file.py:NAME'")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise ConfigError(f"pool '{ref}': no file {path}")
            name = f"reefbench_pool_{abs(hash(str(path.resolve())))}"
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise ConfigError(f"pool '{ref}': cannot load {path} as a Python module")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                sys.modules.pop(name, None)
                raise
        else:
            module = importlib.import_module(module_name)
    except ConfigError:
        raise
    except pydantic.ValidationError as exc:
        error = exc.errors()[0]
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        raise ConfigError(f"pool '{ref}': a template is invalid: {message}") from None
    except Exception as exc:  # any import-time failure of user code is one line, not a trace
        detail = str(exc).splitlines()[0] if str(exc) else ""
        raise ConfigError(
            f"pool '{ref}': importing {module_name} failed: {type(exc).__name__}: {detail}"
        ) from None
    if not hasattr(module, attr):
        raise ConfigError(f"pool '{ref}': {module_name} has no '{attr}'")
    return as_pool(getattr(module, attr), ref)


def as_pool(value: Any, where: str = "pool") -> dict[str, SubTask]:
    """Accept a mapping id -> SubTask or a sequence of SubTasks; return a dict by id."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list | tuple):
        items = [(getattr(t, "id", None), t) for t in value]
    else:
        raise ConfigError(
            f"{where}: expected a dict of id -> SubTask (or a list), got {type(value).__name__}"
        )
    pool: dict[str, SubTask] = {}
    for key, template in items:
        if not isinstance(template, SubTask):
            raise ConfigError(f"{where}: entry {key!r} is {type(template).__name__}, not SubTask")
        if not isinstance(key, str) or key in pool:
            raise ConfigError(f"{where}: template id {key!r} is not a unique string")
        pool[key] = template
    if not pool:
        raise ConfigError(f"{where}: the pool is empty")
    return pool


def default_values(type_name: str, attribute: str) -> list[Any]:
    """Placeholder values for an attribute without a value pool (lint warns about them)."""
    python_type = ATTRIBUTE_TYPES.get(type_name, str)
    if python_type is bool:
        return [True, False]
    if python_type is int:
        return list(range(1, DEFAULT_POOL_SIZE + 1))
    if python_type is float:
        return [float(k) / 2 for k in range(1, DEFAULT_POOL_SIZE + 1)]
    suffix = ".txt" if type_name in ("file_path",) else ""
    return [f"{attribute}-{k}{suffix}" for k in range(1, DEFAULT_POOL_SIZE + 1)]


@dataclass(slots=True)
class TemplateInfo:
    """What synthesis needs to know about one template, computed once."""

    template: SubTask
    slots: tuple[tuple[str, str], ...]  # (attribute, type) that can receive a link
    required: bool  # resources declared: every slot must be fed, in-degree == len(slots)
    output_type: str | None  # None when the template cannot feed others
    category: str
    values: dict[str, list[Any]]  # value pool per attribute (placeholders if none)

    @property
    def id(self) -> str:
        return self.template.id

    def assign(self, pred_types: Sequence[str]) -> list[str] | None:
        """Slot attribute for each predecessor output type (in order), or None if none fit."""
        if self.required and len(pred_types) != len(self.slots):
            return None
        taken = [False] * len(self.slots)
        chosen = []
        for wanted in pred_types:
            for k, (attribute, type_name) in enumerate(self.slots):
                if not taken[k] and type_name == wanted:
                    taken[k] = True
                    chosen.append(attribute)
                    break
            else:
                return None
        return chosen


@dataclass(slots=True)
class Group:
    """The templates sharing one intent, with a memo of who fits which predecessors."""

    intent: str
    members: list[TemplateInfo]
    _fits: dict[tuple[tuple[str, ...], bool], list[TemplateInfo]] = field(default_factory=dict)

    def candidates(self, pred_types: tuple[str, ...], needs_output: bool) -> list[TemplateInfo]:
        """Templates taking exactly these (sorted) predecessor types, feeding on if needed."""
        key = (pred_types, needs_output)
        found = self._fits.get(key)
        if found is None:
            found = [
                m
                for m in self.members
                if (m.output_type is not None or not needs_output)
                and m.assign(pred_types) is not None
            ]
            self._fits[key] = found
        return found

    @property
    def max_indegree(self) -> int:
        return max((len(m.slots) for m in self.members), default=0)

    @property
    def categories(self) -> set[str]:
        return {m.category for m in self.members}


class PoolIndex:
    """A pool indexed for synthesis: template infos and intent groups (sorted, stable)."""

    def __init__(self, pool: Mapping[str, SubTask]) -> None:
        self.pool = dict(pool)
        self.infos: dict[str, TemplateInfo] = {}
        for key in sorted(self.pool):
            self.infos[key] = template_info(self.pool[key])
        groups: dict[str, list[TemplateInfo]] = {}
        for key in sorted(self.infos):
            info = self.infos[key]
            for intent in info.template.intents or [NO_INTENT]:
                groups.setdefault(intent, []).append(info)
        self.groups = {name: Group(name, members) for name, members in sorted(groups.items())}

    def group(self, intent: str) -> Group:
        try:
            return self.groups[intent]
        except KeyError:
            known = ", ".join(list(self.groups)[:12])
            raise ConfigError(
                f"no template has the intent '{intent}' (intents in this pool: {known})"
            ) from None


def template_info(template: SubTask) -> TemplateInfo:
    """Slots, output, category and value pools of one template."""
    resourced = bool(template.inputs or template.outputs)
    if resourced:
        unknown = [a for a in template.inputs if a not in template.attributes]
        if unknown:
            raise ConfigError(
                f"subtask '{template.id}': inputs name unknown attribute(s) {', '.join(unknown)}"
            )
        slots = tuple((a, template.attributes[a]) for a in template.inputs)
    else:
        slots = tuple(template.attributes.items())
    values = {
        name: list(template.value_pools.get(name) or default_values(type_name, name))
        for name, type_name in template.attributes.items()
    }
    feeds = template.output_type is not None and template.output_generator is not None
    return TemplateInfo(
        template=template,
        slots=slots,
        required=resourced,
        output_type=template.output_type if feeds else None,
        category=template.app_category or template.app or template.env,
        values=values,
    )
