"""A real Android phone or emulator over ADB (see README.md in this package to attach one).

Importing this package runs nothing: ``adb`` is called when an environment starts.
"""

from reefbench.envs.android.device import AndroidDevice
from reefbench.envs.android.environment import AndroidEnvironment
from reefbench.envs.android.transport import AdbResult, AdbTransport, ScriptedAdb, SubprocessAdb

__all__ = [
    "AdbResult",
    "AdbTransport",
    "AndroidDevice",
    "AndroidEnvironment",
    "ScriptedAdb",
    "SubprocessAdb",
]
