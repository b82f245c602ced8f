"""Reading the files a user hands to reefbench: task files, run configurations, trajectories.

A file from a user can be unreadable, in another encoding, not JSON, or nested so deeply
that Python's recursive parsers give up. Each of these is the user's mistake and must end
in one line naming the file and what to do, never in a traceback; the readers here turn
them into the caller's :class:`~reefbench.errors.ReefError` subclass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic

from reefbench.errors import ConfigError, ReefError

TOO_DEEP = "nested too deeply (more levels of lists or objects than Python's parsers allow)"
_LONGEST_PATH = 8  # parts of a JSON path shown before the middle is elided


def read_text(path: Path, error: type[ReefError] = ConfigError) -> str:
    """The file's text, decoded as UTF-8.

    Raises:
        error: the file cannot be read or is not UTF-8 (the byte offset is named).
    """
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8"
        ) from None


def parse_json(text: str, where: str, error: type[ReefError] = ConfigError) -> Any:
    """Decode one JSON document.

    Raises:
        error: not JSON (line and column named) or nested too deeply.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(
            f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise error(f"{where}: {TOO_DEEP}") from None


def json_documents(path: Path, error: type[ReefError] = ConfigError) -> list[tuple[str, Any]]:
    """The documents of a ``.json`` file (one document, or a list of them) or a ``.jsonl``
    file (one per non-blank line), each with where it came from (``file:line``,
    ``file[index]`` or ``file``) for error messages."""
    text = read_text(path, error)
    if path.suffix == ".jsonl":
        return [
            (f"{path}:{number}", parse_json(line, f"{path}:{number}", error))
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]
    data = parse_json(text, str(path), error)
    if isinstance(data, list):
        return [(f"{path}[{i}]", item) for i, item in enumerate(data)]
    return [(str(path), data)]


def first_validation_error(exc: pydantic.ValidationError) -> str:
    """The first problem pydantic found, as ``json.path: message`` (one line; a path
    through deeply nested data keeps its ends)."""
    error = exc.errors()[0]
    if error.get("type") == "recursion_depth_exceeded":
        return TOO_DEEP
    parts = [str(p) for p in error.get("loc", ())]
    if len(parts) > _LONGEST_PATH:
        parts = [*parts[:3], "…", *parts[-3:]]
    message = str(error.get("msg", "invalid"))
    message = message.removeprefix("Value error, ")
    loc = ".".join(parts)
    return f"{loc}: {message}" if loc else message
