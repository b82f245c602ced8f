"""A tally counter: the smallest complete environment kind, as a template for new ones.

This folder is laid out the way ``src/reefbench/envs/<kind>/`` would be; adding the kind
to reefbench is this folder plus one line in :data:`reefbench.envs.registry.KINDS`.
"""

from counter.environment import CounterEnvironment

__all__ = ["CounterEnvironment"]
