"""Agents: the protocol and the built-in agents that need no model."""

from reefbench.agents.base import ActionCall, Agent, AgentOutput, CallResult, Turn, Usage
from reefbench.agents.scripted import NullAgent, OracleAgent, ScriptedAgent

__all__ = [
    "ActionCall",
    "Agent",
    "AgentOutput",
    "CallResult",
    "NullAgent",
    "OracleAgent",
    "ScriptedAgent",
    "Turn",
    "Usage",
]
