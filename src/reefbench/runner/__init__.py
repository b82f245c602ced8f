"""Running episodes at scale: configuration, store, engine, Ray, exports."""

from reefbench.runner.config import AgentSpec, RunConfig, load_config
from reefbench.runner.launch import launch

__all__ = ["AgentSpec", "RunConfig", "launch", "load_config"]
