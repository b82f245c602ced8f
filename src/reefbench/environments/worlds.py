"""Where seeded worlds are built once and kept, so a reset copies them instead of generating.

A *world* is the lived-in state a task can opt into with a seed: the account's rows
(:mod:`reefbench.envs.services.world`) and the desktop's home tree
(:mod:`reefbench.envs.desktop.world`).
Generating one takes seconds (Faker, Pillow); copying a prepared one takes milliseconds. So
each is built once per seed and per version of the code that generates it into a cache
directory, and a task's setup copies it (``load_world(seed)`` on the services and on the
desktop).

A cached world is found by a fingerprint of its generator's source files, not by a version
number someone must remember to bump: a stale world read by ``reef suite freeze`` once gave
different task values on CI than on the machine that froze them. For the same reason a
world never depends on the day it is built: every date in it is drawn around
:data:`WORLD_NOW`, never around today.

The cache is shared by the processes of a run (two workers may ask for the same seed at
once): a build writes into a private temporary path and renames it into place, so a reader
sees either no world or a complete one, never half of one.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from reefbench.errors import ConfigError
from reefbench.tasks import worldtime

MAX_SEED = 2**31 - 1
# The world's "today" on both sides (the account's clock, the home's file dates), kept
# with the task's other clock in one place (reefbench.tasks.worldtime).
WORLD_NOW = worldtime.WORLD_NOW
CACHE_ENV = "REEF_WORLD_CACHE"

# Companies that bill the user every month, in the account's mail and Files and in the
# desktop's Documents alike: one world, seen from both sides.
VENDORS: tuple[tuple[str, str], ...] = (
    ("Northwind Energy", "NWE"),
    ("Brightline Broadband", "BLB"),
    ("Harbour Water", "HWS"),
    ("Fenwick Insurance", "FIN"),
    ("Castle Mobile", "CMO"),
    ("Orchard Property Management", "OPM"),
)


class WorldSeed(int):
    """The type of a ``seed`` argument: an int from 0 to :data:`MAX_SEED`.

    A class rather than ``Annotated[int, Field(ge=0)]`` because actions read their
    parameters' types with ``typing.get_type_hints``, which drops ``Annotated``'s
    constraints; a class keeps them, so a task file with a bad seed fails when it loads.
    """

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.int_schema(ge=0, le=MAX_SEED, strict=True)


def check_seed(seed: int) -> int:
    """A world seed is a non-negative integer below 2**31; anything else is a user mistake."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"world seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")
    return seed


def cache_root() -> Path:
    """``$REEF_WORLD_CACHE``, else ``$XDG_CACHE_HOME/reefbench/worlds`` (``~/.cache/...``)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reefbench" / "worlds"


def source_fingerprint(sources: Iterable[Path]) -> str:
    """12 hex digits of SHA-256 over the Python files at ``sources`` (files, or folders
    searched recursively), in a fixed order: what changes when a generator's code does."""
    return _fingerprint(tuple(sources))


@functools.cache
def _fingerprint(sources: tuple[Path, ...]) -> str:
    # Once per process: a suite's build asks for the same world hundreds of times.
    files: set[Path] = set()
    for source in sources:
        files.update(source.rglob("*.py") if source.is_dir() else [source])
    digest = hashlib.sha256()
    for file in sorted(files):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def cached(name: str, seed: int, build: Callable[[Path], None], sources: Iterable[Path]) -> Path:
    """The prepared world ``name`` for ``seed``, built by ``build(path)`` if not cached yet.

    ``build`` must create ``path`` (a file or a directory); ``sources`` are the source files
    and folders whose code decides what it builds (this module is always among them).
    Returns the cached path.
    """
    check_seed(seed)
    generators = [Path(__file__), Path(worldtime.__file__), *sources]
    root = cache_root() / f"{name}-{source_fingerprint(generators)}"
    final = root / str(seed)
    if final.exists():
        return final
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}-{seed}-", dir=root))
    try:
        build(work / "world")
        try:
            os.rename(work / "world", final)
        except OSError:
            if not final.exists():  # not a lost race: a real failure
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return final


def text_pdf(lines: list[str], title: str = "") -> bytes:
    """A one-page PDF whose text is ``lines`` (Helvetica, 10 pt): a real document a viewer
    opens and a text extractor reads, for the invoices and statements of a seeded world.

    Written by hand because the account's services have no PDF library: the format's
    minimum (catalog, page, font, one content stream, cross-reference table) is short.
    """

    def escape(text: str) -> str:
        text = text.encode("latin-1", "replace").decode("latin-1")
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    shown = lines[:60]
    stream_lines = ["BT", "/F1 10 Tf", "12 TL", "50 800 Td"]
    stream_lines += [f"({escape(line)}) '" for line in shown]
    stream_lines.append("ET")
    stream = "\n".join(stream_lines).encode("latin-1")
    info = f"<< /Title ({escape(title)}) /Producer (reefbench) >>" if title else "<< >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        info.encode("latin-1"),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\n" % (
        len(objects) + 1,
        len(objects),
    )
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)
