"""A suite as frozen, versioned data: the task definitions in one JSON-lines file and a
small manifest (name, version, count, content hash) beside it.

Synthesising tasks when a suite loads ties the benchmark to today's code: editing a
template or a value pool silently changes what a score means. A frozen suite is written
once by a command (``reef suite freeze NAME``) and then loaded as data, so a change to
the benchmark is a change to a file that a test (regenerate in memory, compare bytes)
refuses until the file is frozen again. The bytes are canonical
(:func:`reefbench.tasks.taskfile.tasks_to_jsonl`): no timestamps, keys in a fixed order, and
the same tasks always give the same file, so the content hash names the benchmark.

Frozen data names reefbench's actions and evaluators by stable name
(:mod:`reefbench.actions.names`), never by module path: freezing refuses a task that names
a module of reefbench, which would break when that module moves. Data frozen before stable
names (reef-v1) keeps its bytes: it equals what freezing gives today once its legacy
references are read as the names they alias (:func:`settle`), so it is not rewritten.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from reefbench.actions.names import LEGACY_REFS
from reefbench.actions.refs import is_reefbench_ref
from reefbench.errors import ConfigError
from reefbench.plumbing.userfiles import parse_json, read_text
from reefbench.tasks.task import Task
from reefbench.tasks.taskfile import (
    SCHEMA_VERSION,
    json_line,
    load_tasks,
    rename_refs,
    task_refs,
    task_to_dict,
    tasks_to_jsonl,
)

TASKS_FILE = "tasks.jsonl"
MANIFEST_FILE = "manifest.json"


class FrozenManifest(BaseModel):
    """What a frozen suite is: a name, a version, how many tasks, and the hash of the bytes."""

    model_config = ConfigDict(extra="forbid")

    suite: str
    version: str
    schema_version: int = SCHEMA_VERSION
    count: int = Field(ge=0)
    sha256: str = Field(min_length=64, max_length=64)
    command: str


@dataclass(frozen=True)
class FrozenFiles:
    """The exact contents of a frozen suite's two files."""

    tasks: str
    manifest: FrozenManifest

    def items(self) -> dict[str, str]:
        """File name -> text."""
        return {
            TASKS_FILE: self.tasks,
            MANIFEST_FILE: self.manifest.model_dump_json(indent=2) + "\n",
        }


def content_hash(text: str) -> str:
    """SHA-256 of the UTF-8 bytes (what run.json records as the suite's identity)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_id(
    task: Task, prefix: str, digits: int = 12, *, written_as: Mapping[str, str] | None = None
) -> str:
    """An id derived from everything the task is except its id: the same definition gets
    the same id, and any change to it (instruction, checkpoint, solution) a new one.

    ``written_as`` maps references to the ones the hash reads: a suite frozen before
    stable names (reef-v1) hashes the module paths it was frozen with, so its ids stay."""
    body = task_to_dict(task)
    del body["id"]
    if written_as:
        body = rename_refs(body, written_as)
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{prefix}{content_hash(text)[:digits]}"


def render(tasks: Sequence[Task], *, suite: str, version: str, command: str) -> FrozenFiles:
    """The files of a frozen suite for these tasks (pure: nothing is written).

    Raises:
        ConfigError: a task names an action or evaluator of reefbench by module path (it
            has no stable name); one line naming the task, the reference and the fix.
    """
    for task in tasks:
        _refuse_module_paths(task)
    text = tasks_to_jsonl(tasks)
    manifest = FrozenManifest(
        suite=suite, version=version, count=len(tasks), sha256=content_hash(text), command=command
    )
    return FrozenFiles(text, manifest)


def _refuse_module_paths(task: Task) -> None:
    for ref in task_refs(task_to_dict(task)):
        if is_reefbench_ref(ref):
            raise ConfigError(
                f"task '{task.id}' names '{ref}' by module path, which breaks when the module "
                "moves; give it a stable name in reefbench/actions/names.py (NAMES)"
            )


def legacy_as_names(text: str) -> str:
    """JSON-lines tasks with every legacy reference (reef-v1's module paths) written as the
    stable name it aliases, in canonical form: what freezing the same tasks gives today."""
    documents = [json.loads(line) for line in text.splitlines()]
    return "".join(json_line(rename_refs(d, LEGACY_REFS)) for d in documents)


def settle(files: FrozenFiles, directory: Path) -> FrozenFiles:
    """``files``, except that shipped data equal to them once its legacy references are
    read as names is kept byte for byte (its hash is the published benchmark's)."""
    path = directory / TASKS_FILE
    if not path.is_file():
        return files
    shipped = path.read_bytes().decode("utf-8")
    if shipped == files.tasks or legacy_as_names(shipped) != files.tasks:
        return files
    manifest = files.manifest.model_copy(update={"sha256": content_hash(shipped)})
    return FrozenFiles(shipped, manifest)


def write(files: FrozenFiles, directory: Path) -> list[str]:
    """Write the files that differ; return their names (empty: already up to date)."""
    directory.mkdir(parents=True, exist_ok=True)
    files = settle(files, directory)
    changed = []
    for name, text in files.items().items():
        path = directory / name
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            path.write_bytes(text.encode("utf-8"))
            changed.append(name)
    return changed


def stale(files: FrozenFiles, directory: Path) -> list[str]:
    """Names of the files in ``directory`` whose bytes differ from ``files`` (or are missing),
    shipped data that differs only in writing legacy references for names counting as same
    (:func:`settle`)."""
    files = settle(files, directory)
    return [
        name
        for name, text in files.items().items()
        if not (directory / name).is_file()
        or (directory / name).read_bytes() != text.encode("utf-8")
    ]


def read_manifest(directory: Path) -> FrozenManifest:
    """The manifest of a frozen suite.

    Raises:
        ConfigError: the file is missing or is not a manifest.
    """
    path = directory / MANIFEST_FILE
    if not path.is_file():
        raise ConfigError(f"{path}: missing; freeze the suite first (reef suite freeze)")
    data = parse_json(read_text(path), str(path))
    try:
        return FrozenManifest.model_validate(data)
    except ValueError as exc:
        raise ConfigError(f"{path}: not a frozen suite's manifest ({exc})".split("\n")[0]) from None


def load(directory: Path) -> list[Task]:
    """The tasks of a frozen suite, checked against its manifest (count and hash).

    Raises:
        ConfigError: the data file was edited by hand or is incomplete.
    """
    manifest = read_manifest(directory)
    path = directory / TASKS_FILE
    data = path.read_bytes() if path.is_file() else b""
    if hashlib.sha256(data).hexdigest() != manifest.sha256:
        raise ConfigError(
            f"{path}: does not match its manifest's sha256; re-create it with: {manifest.command}"
        )
    tasks = load_tasks(path)
    if len(tasks) != manifest.count:
        raise ConfigError(f"{path}: {len(tasks)} tasks, the manifest says {manifest.count}")
    return tasks


@dataclass(frozen=True)
class FrozenSuite:
    """How a suite is frozen: where its data lives and how to regenerate it.

    A *published* release (``published=True``: reef-v1 1.0.0) is its data: scores were
    reported on those bytes, so they are never rebuilt from the benchmark's source, which
    moves on towards the next release. ``reef suite freeze`` refuses it and ``--check``
    verifies the data against its manifest instead of against the source.
    """

    name: str
    version: str
    directory: Path
    build: Callable[[], list[Task]]
    published: bool = False
    known_faults: Mapping[str, str] = field(default_factory=dict)
    """Faults found in a published release's tasks after publication (task id -> the part
    of the gate's finding that names it), listed rather than fixed: the data is the
    release. The gates leave those findings out and still play the tasks."""

    @property
    def command(self) -> str:
        return f"reef suite freeze {self.name}"

    def manifest(self) -> FrozenManifest:
        """The shipped data's manifest."""
        return read_manifest(self.directory)

    def render(self) -> FrozenFiles:
        """Regenerate (synthesise, in memory) the files this suite should ship."""
        return render(self.build(), suite=self.name, version=self.version, command=self.command)

    def refuse_if_published(self) -> None:
        """Raise the one-line error for rebuilding a published release.

        Raises:
            ConfigError: this release is published.
        """
        if self.published:
            raise ConfigError(
                f"suite '{self.name}' {self.version} is published: its data is the "
                "benchmark and is never rebuilt from the source; publish changed tasks as "
                "a new release (a new row in reefbench.suites.RELEASES)"
            )

    def staleness(self, files: FrozenFiles | None = None) -> str | None:
        """One line saying what is stale and which command fixes it; ``None`` when the
        shipped files are exactly what freezing gives today."""
        differ = stale(files or self.render(), self.directory)
        if not differ:
            return None
        return (
            f"{self.directory}: {' and '.join(differ)} differ from what the templates and "
            f"handmade tasks give today; run: {self.command}"
        )
