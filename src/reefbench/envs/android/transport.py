"""The ADB boundary: argument vectors in, bytes out.

Everything the Android environment does to a device goes through one
:class:`AdbTransport` call with an argument vector (``["shell", "input", "tap", "5",
"9"]``). :class:`SubprocessAdb` runs the ``adb`` client with that vector (never through a
host shell); :class:`ScriptedAdb` records the vectors and replays recorded outputs, which
is how the environment is tested on machines without a device.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from reefbench.errors import ConfigError, EnvironmentFailure


@dataclass(frozen=True)
class AdbResult:
    """What one adb invocation returned."""

    returncode: int
    stdout: bytes
    stderr: bytes = b""

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "replace")


class AdbTransport(Protocol):
    """Runs one adb command for one device."""

    serial: str | None

    def run(self, args: Sequence[str], timeout: float = 30.0) -> AdbResult: ...


class SubprocessAdb:
    """The ``adb`` client as a subprocess: ``adb [-s SERIAL] ARGS...`` (an argv list).

    Args:
        serial: The device (``adb devices`` lists them); ``None`` uses the only one.
        adb: Path of the adb executable (default: found on PATH).
    """

    def __init__(self, serial: str | None = None, adb: str | None = None) -> None:
        found = adb or shutil.which("adb")
        if found is None:
            raise ConfigError("adb is not installed: apt-get install adb (Debian/Ubuntu)")
        self.adb = found
        self.serial = serial

    def argv(self, args: Sequence[str]) -> list[str]:
        prefix = [self.adb] + (["-s", self.serial] if self.serial else [])
        return [*prefix, *args]

    def run(self, args: Sequence[str], timeout: float = 30.0) -> AdbResult:
        try:
            done = subprocess.run(
                self.argv(args), capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            raise EnvironmentFailure(
                f"adb {' '.join(args[:3])} ... did not answer within {timeout:g} s"
            ) from None
        return AdbResult(done.returncode, done.stdout, done.stderr)


Reply = AdbResult | Callable[[list[str]], AdbResult]


@dataclass
class ScriptedAdb:
    """A fake device: records every argument vector and answers from a script.

    ``rules`` maps an argument prefix to a reply (an :class:`AdbResult` or a function of
    the full vector); the longest matching prefix wins, and a vector no rule matches gets
    ``default`` (exit code 0, no output). ``calls`` keeps every vector in order.
    """

    rules: dict[tuple[str, ...], Reply] = field(default_factory=dict)
    default: AdbResult = field(default_factory=lambda: AdbResult(0, b""))
    serial: str | None = "emulator-5554"
    calls: list[list[str]] = field(default_factory=list)

    def on(self, *prefix: str, reply: Reply | bytes | str) -> ScriptedAdb:
        """Answer vectors starting with ``prefix`` with ``reply`` (text/bytes: exit 0)."""
        if isinstance(reply, str):
            reply = reply.encode("utf-8")
        self.rules[tuple(prefix)] = AdbResult(0, reply) if isinstance(reply, bytes) else reply
        return self

    def run(self, args: Sequence[str], timeout: float = 30.0) -> AdbResult:
        vector = list(args)
        self.calls.append(vector)
        best: tuple[int, Reply] | None = None
        for prefix, reply in self.rules.items():
            if tuple(vector[: len(prefix)]) == prefix and (best is None or len(prefix) > best[0]):
                best = (len(prefix), reply)
        if best is None:
            return self.default
        reply = best[1]
        return reply(vector) if callable(reply) else reply

    def shell_calls(self) -> list[list[str]]:
        """The recorded vectors that ran something in the device shell."""
        return [c for c in self.calls if c and c[0] in ("shell", "exec-out")]


@dataclass(frozen=True)
class AttachedDevice:
    """One line of ``adb devices -l``."""

    serial: str
    state: str  # device, offline, unauthorized, ...
    details: dict[str, str]

    @property
    def label(self) -> str:
        model = self.details.get("model", "")
        return f"{self.serial} ({self.state}{', ' + model if model else ''})"


def parse_devices(output: str) -> list[AttachedDevice]:
    """Devices from ``adb devices -l`` output (the header and daemon notices are skipped)."""
    found = []
    for line in output.splitlines():
        parts = line.split()
        if len(parts) < 2 or line.startswith(("List of devices", "*")):
            continue
        details = dict(p.split(":", 1) for p in parts[2:] if ":" in p)
        found.append(AttachedDevice(parts[0], parts[1], details))
    return found


Runner = Callable[[list[str], float], AdbResult]


def _run_argv(argv: list[str], timeout: float) -> AdbResult:
    try:
        done = subprocess.run(argv, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise EnvironmentFailure(f"{' '.join(argv)} did not answer within {timeout:g} s") from None
    return AdbResult(done.returncode, done.stdout, done.stderr)


def list_devices(
    adb: str | None = None, timeout: float = 10.0, run: Runner | None = None
) -> list[AttachedDevice]:
    """Devices and emulators ``adb`` sees (this starts the adb server if it is not running,
    as every adb command does)."""
    exe = adb or shutil.which("adb")
    if exe is None:
        raise ConfigError("adb is not installed: apt-get install adb (Debian/Ubuntu)")
    result = (run or _run_argv)([exe, "devices", "-l"], timeout)
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).decode("utf-8", "replace").strip()
        raise EnvironmentFailure(f"adb devices failed: {detail[:200]}")
    return parse_devices(result.text)
