"""A phone made of Chromium in mobile emulation: launcher, drawer, status bar, system
settings, dialer, and the local services' apps, driven with CRAB's Android actions.

Importing this package does not import Playwright; starting an environment does.
"""

from reefbench.envs.phone.environment import PhoneEnvironment

__all__ = ["PhoneEnvironment"]
