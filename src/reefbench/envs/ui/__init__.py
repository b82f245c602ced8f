"""What the phone and real Android devices share: uiautomator XML, Set-of-Marks from it,
CRAB's Android action set, the XML evaluators, and the answer checks for ``submit``.

Light to import (no Playwright, no ADB): the phone and Android packages build on it.
"""

from reefbench.envs.ui.device import StaticScreen, TouchEnvironment, UISource
from reefbench.envs.ui.hierarchy import UIHierarchy, UINode, parse_hierarchy

__all__ = [
    "StaticScreen",
    "TouchEnvironment",
    "UIHierarchy",
    "UINode",
    "UISource",
    "parse_hierarchy",
]
