"""A real Linux desktop environment: isolated X session, real apps, Set-of-Marks.

Each :class:`DesktopEnvironment` runs its own Xvfb display and a bubblewrap sandbox with
its own D-Bus and accessibility buses, the openbox window manager and GTK apps
(xfce4-terminal, mousepad, thunar, vim, Chromium). Heavy imports (Pillow, mss, OpenCV,
python-xlib) happen only when an instance starts.
"""

from reefbench.envs.desktop.actions import DESKTOP_ACTIONS, OBSERVATIONS
from reefbench.envs.desktop.apps import APPS, AppSpec, missing_apps
from reefbench.envs.desktop.environment import DesktopEnvironment
from reefbench.envs.desktop.evaluators import DESKTOP_EVALUATORS
from reefbench.envs.desktop.setup import SETUP_ACTIONS

__all__ = [
    "APPS",
    "DESKTOP_ACTIONS",
    "DESKTOP_EVALUATORS",
    "OBSERVATIONS",
    "SETUP_ACTIONS",
    "AppSpec",
    "DesktopEnvironment",
    "missing_apps",
]
