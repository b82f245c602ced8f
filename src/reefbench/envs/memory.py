"""An in-memory reference environment: a tiny device with files and a clipboard.

It has no processes and resets instantly, which makes it the environment of the unit tests,
of the in-memory demo suite behind ``make run`` at the core stage, and of benchmarks that
measure the framework's own overhead. Two instances (say ``laptop`` and ``phone``) are
enough to build cross-environment tasks where information must travel between devices.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import EvalResult, Evaluator, evaluator
from reefbench.actions.spec import action
from reefbench.environments.contract import Environment
from reefbench.errors import ActionFailed


class MemoryEnvironment(Environment):
    """A device whose whole state is a dict of files and a clipboard string."""

    def __init__(
        self, name: str = "memory", description: str = "", files: dict[str, str] | None = None
    ):
        super().__init__(
            name,
            description
            or f"A simple device called '{name}' that stores text files and has a clipboard.",
            action_space=MEMORY_ACTIONS,
            observation_space=[list_files],
        )
        self.baseline = dict(files or {})
        self.files: dict[str, str] = dict(self.baseline)
        self.clipboard = ""

    def on_reset(self) -> None:
        self.files = dict(self.baseline)
        self.clipboard = ""

    def on_state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        """A file's content, or ``absent``."""
        found = {}
        for key in keys:
            if key.startswith("file:"):
                content = self.files.get(key[len("file:") :])
                found[key] = "absent" if content is None else f"text {content!r}"
        return found


@action
def write_file(path: str, content: str, env: MemoryEnvironment) -> str:
    """Create or overwrite a text file.

    Args:
        path: File path, e.g. "notes/todo.txt".
        content: The whole new content of the file.
    """
    env.files[path] = content
    return f"wrote {len(content)} characters to {path}"


@action
def append_file(path: str, text: str, env: MemoryEnvironment) -> str:
    """Append text to the end of a file, creating the file if needed.

    Args:
        path: File path.
        text: Text to append.
    """
    env.files[path] = env.files.get(path, "") + text
    return f"appended {len(text)} characters to {path}"


@action
def read_file(path: str, env: MemoryEnvironment) -> str:
    """Return the content of a text file.

    Args:
        path: File path.
    """
    try:
        return env.files[path]
    except KeyError:
        raise ActionFailed(f"no file at {path}") from None


@action
def delete_file(path: str, env: MemoryEnvironment) -> str:
    """Delete a file.

    Args:
        path: File path.
    """
    if env.files.pop(path, None) is None:
        raise ActionFailed(f"no file at {path}")
    return f"deleted {path}"


@action
def copy_text(text: str, env: MemoryEnvironment) -> str:
    """Put text on this device's clipboard.

    Args:
        text: The text to copy.
    """
    env.clipboard = text
    return "copied"


@action
def list_files(env: MemoryEnvironment) -> str:
    """List the device's files, one path per line."""
    return "\n".join(sorted(env.files)) or "(no files)"


@action
def copy_file(source: str, target: str, env: MemoryEnvironment) -> str:
    """Copy a file to a new path on the same env.

    Args:
        source: Path of the existing file.
        target: Path of the copy (overwritten if it exists).
    """
    if source not in env.files:
        raise ActionFailed(f"no file at {source}")
    env.files[target] = env.files[source]
    return f"copied {source} to {target}"


MEMORY_ACTIONS = [write_file, append_file, read_file, delete_file, copy_file, copy_text]


# ---------------------------------------------------------------- evaluators
def _path_keys(path: str, **_: Any) -> list[str]:
    return [f"file:{path}"]


def _copy_keys(second: str, **_: Any) -> list[str]:
    return [f"file:{second}"]  # the copy; the source is only read


def _copy_end_state(first: str, second: str, env: MemoryEnvironment) -> Evaluator:
    """At the end the copy must still hold what the source held when it was copied (an
    independent step may change the source afterwards)."""
    return file_equals(second, env.files.get(first, ""))


def _clipboard_keys(**_: Any) -> list[str]:
    return ["clipboard:"]


@evaluator(governs=_path_keys)
def file_exists(path: str, env: MemoryEnvironment) -> bool:
    """The file exists.

    Args:
        path: File path.
    """
    return path in env.files


@evaluator(governs=_path_keys)
def file_contains(path: str, text: str, env: MemoryEnvironment) -> EvalResult:
    """The file exists and contains the text.

    Args:
        path: File path.
        text: Text that must occur in the file.
    """
    content = env.files.get(path)
    if content is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    if text in content:
        return EvalResult(success=True, message=f"{path} contains {text!r}")
    return EvalResult(success=False, message=f"{path} does not contain {text!r}", progress=0.0)


@evaluator(governs=_path_keys)
def file_equals(path: str, content: str, env: MemoryEnvironment) -> bool:
    """The file's whole content equals the given text.

    Args:
        path: File path.
        content: Expected content.
    """
    return env.files.get(path) == content


@evaluator(governs=_copy_keys, end_state=_copy_end_state)
def files_equal(first: str, second: str, env: MemoryEnvironment) -> bool:
    """Both files exist and have the same content.

    Args:
        first: Path of one file.
        second: Path of the other file.
    """
    files = env.files
    return first in files and second in files and files[first] == files[second]


@evaluator(governs=_clipboard_keys)
def clipboard_equals(text: str, env: MemoryEnvironment) -> bool:
    """The clipboard holds exactly the text.

    Args:
        text: Expected clipboard content.
    """
    return env.clipboard == text
