"""Any environment behind an authenticated JSON HTTP API, and a drop-in client for it."""

from reefbench.envs.remote.client import RemoteEnvironment

__all__ = ["RemoteEnvironment"]
