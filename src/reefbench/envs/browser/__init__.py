"""A Chromium browser environment through Playwright, on Debian's ``/usr/bin/chromium``.

Importing this package does not import Playwright; starting an environment does.
"""

from reefbench.envs.browser.environment import BrowserEnvironment

__all__ = ["BrowserEnvironment"]
