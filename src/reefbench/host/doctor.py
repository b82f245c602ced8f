"""``reef doctor``: what this machine has, what is missing, and how to install it."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from dataclasses import dataclass
from typing import Any

from reefbench.host.system_packages import (
    PACKAGES,
    SystemPackage,
    missing_executables,
    package_installed,
)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    needed_by: str
    fix: str
    required: bool


_MODULES = [
    ("pydantic", "reefbench", True),
    ("networkx", "reefbench", True),
    ("typer", "reefbench", True),
    ("rich", "reefbench", True),
    ("docstring_parser", "reefbench", True),
    ("gymnasium", "reefbench[gym]", False),
    ("mcp", "reefbench[mcp]", False),
    ("inspect_ai", "reefbench[inspect]", False),
    ("playwright", "reefbench[browser]", False),
]


def run_checks() -> list[Check]:
    checks = [
        Check(
            "python",
            sys.version_info >= (3, 11),
            sys.version.split()[0],
            "reefbench",
            "install Python 3.11 or newer",
            True,
        )
    ]
    for module, extra, required in _MODULES:
        found = importlib.util.find_spec(module) is not None
        checks.append(
            Check(
                module,
                found,
                "importable" if found else "not installed",
                extra,
                f"pip install '{extra}'",
                required,
            )
        )
    checks.extend(provider_checks())
    for package in PACKAGES:
        checks.append(package_check(package))
    devices = adb_devices_check()
    if devices is not None:
        checks.append(devices)
    return checks


def provider_checks() -> list[Check]:
    """One check per registered provider: its SDK importable (optional: a run needs only
    the providers it uses)."""
    from reefbench.agents.providers.registry import TABLE

    checks = []
    for info in TABLE:
        found = importlib.util.find_spec(info.sdk.partition(".")[0]) is not None
        if found and "." in info.sdk:
            found = importlib.util.find_spec(info.sdk) is not None
        keys = " or ".join(info.key_variables)
        detail = f"{info.package} importable" if found else f"{info.package} not installed"
        if info.computer_use:
            detail += f"; native computer use: {info.computer_use}"
        checks.append(
            Check(
                f"provider {info.name}",
                found,
                f"{detail}; key from {keys}",
                f"reefbench[{info.extra}]",
                f"pip install 'reefbench[{info.extra}]'",
                False,
            )
        )
    return checks


def package_check(package: SystemPackage) -> Check:
    """One Debian package: its executables found (and probed), or dpkg's word for
    packages without one. Packages the set-up installs are required."""
    fix = package.install_hint if package.optional else f"make setup (or {package.install_hint})"
    name = ", ".join(package.executables) or package.package
    if package.executables:
        missing = missing_executables(package)
        found = [shutil.which(e) or e for e in package.executables if e not in missing]
        detail = f"not found or not the right program: {', '.join(missing)}" if missing else ""
        return Check(
            name,
            not missing,
            detail or ", ".join(found),
            package.needed_by,
            fix,
            not package.optional,
        )
    installed = package_installed(package)
    if installed is None:  # no dpkg: nothing to ask, and nothing to run to find out
        return Check(name, True, "not checked (no dpkg)", package.needed_by, fix, False)
    detail = "installed" if installed else "not installed"
    return Check(name, installed, detail, package.needed_by, fix, not package.optional)


def adb_devices_check(run: Any = None) -> Check | None:
    """The Android devices and emulators attached (``adb devices -l``, with a timeout);
    ``None`` when adb is not installed (its own check says so). ``run`` replaces the
    subprocess call in tests."""
    exe = shutil.which("adb")
    if exe is None:
        return None
    from reefbench.envs.android.transport import list_devices
    from reefbench.errors import ReefError

    fix = "connect a phone with USB debugging on, or start an emulator (see envs/android/README.md)"
    try:
        devices = list_devices(exe, timeout=10.0, run=run)
    except ReefError as exc:
        return Check("adb devices", False, str(exc), "Android environment", fix, False)
    ready = [d for d in devices if d.state == "device"]
    detail = ", ".join(d.label for d in devices) or "no device attached"
    return Check("adb devices", bool(ready), detail, "Android environment", fix, False)
